//! One call per request: a method name and the raw JSON-RPC `params` text
//! in, the complete JSON-RPC `result` or `error` object out.
//!
//! [`Resources::request`] serves `resources/read`, `resources/list`,
//! `resources/templates/list` and `completion/complete` for `ref/resource`
//! references (see [`crate::completion`]), `resources/subscribe`,
//! `resources/unsubscribe` and `subscriptions/listen` (see
//! [`crate::subscription`]), and, when the host asks for it
//! ([`RequestOptions::resource_tools`]), `tools/call` for the resource
//! tools (see [`crate::tools`]); any other method, `completion/complete`
//! for a `ref/prompt` and `tools/call` for any other tool, is
//! [`RequestError::MethodNotHandled`] so that the host routes it elsewhere.
//!
//! Params are read by one strict reader for every method (`params.rs`;
//! [`RequestParams::parse`], [`CompleteParams::parse`]):
//! - absent params (empty or whitespace-only text, or `null`) are an empty
//!   object; anything else must be one JSON object of at most
//!   [`MAX_PARAMS_BYTES`], valid UTF-8 throughout, whose members the method
//!   acts on have their type (`null` is none) and do not repeat;
//! - `resources/read`, `resources/subscribe` and `resources/unsubscribe`
//!   require `uri`, a string; the list methods take an optional `cursor`,
//!   a string (absent or empty = the first page);
//!   `subscriptions/listen` requires `notifications`, an object of three
//!   optional booleans and an optional array of at most
//!   [`MAX_LISTEN_URIS`] distinct strings;
//!   `completion/complete` requires `ref` and `argument` and takes an
//!   optional `context.arguments`, an object of strings
//!   ([`CompleteParams::parse`]); `tools/call` requires `name`, a string,
//!   and takes an optional `arguments`, an object whose keys do not
//!   repeat, kept as given for the tool to judge (a wrong argument is the
//!   tool's execution error, not malformed params);
//! - `_meta`, when present, must be an object; its
//!   `io.modelcontextprotocol/protocolVersion`, when present, must be a
//!   string naming a known revision, and then shapes the response instead
//!   of the host's option (MCP 2026-07-28 carries the revision per request);
//!   an unknown one is an `UnsupportedProtocolVersion` (`-32022`) error
//!   object listing the supported revisions; its `traceparent`,
//!   `tracestate` and `baggage` (OpenTelemetry trace context), when strings
//!   of at most 8 KiB, are handed to every callback as sent
//!   ([`CallContext::trace_context`](crate::CallContext::trace_context)),
//!   in place of the host's [`CallOptions::trace`]; another value is left
//!   out (W3C asks receivers to ignore what they cannot use), a repeat is
//!   refused;
//! - every other member is ignored, whatever its type: the MCP schemas
//!   leave params open (no `additionalProperties: false`) and define
//!   members this library does not act on (`_meta` keys such as
//!   `progressToken` or `io.modelcontextprotocol/clientCapabilities`,
//!   `inputResponses`, `requestState`). Checking the per-request protocol
//!   fields that 2026-07-28 requires (client capabilities) stays with the
//!   host's transport.
//!
//! Malformed params are `-32602` error objects with a fixed message that
//! never echoes the input.
//!
//! Layout: `method.rs` (the method table: one row per method, how it
//! checks the host's options and how it is served), `params.rs` (the one
//! strict reader and each method's spec of members), `members.rs` (what
//! each method's params hold), `subscribe.rs` and `listen.rs` (how the
//! subscription methods are served), `detached.rs` (the same rows for an
//! asynchronous call); this file is the entry point and the response.

mod detached;
mod listen;
mod members;
mod method;
mod params;
mod subscribe;

use std::borrow::Cow;
use std::fmt;

use crate::call::{CallOptions, FromParams};
use crate::error::{CauseText, Failure, FailureKind};
use crate::input::ClientCapabilities;
use crate::jsonrpc;
use crate::observe::{CallMethod, Ended, Subject};
use crate::protocol::ProtocolRevision;
use crate::registry::Resources;
use crate::subscription::{NotificationTypes, SubscriptionDecision, SubscriptionMethod};

pub(crate) use detached::{failed_response, RequestOutcome, RevisionCell};
#[cfg(feature = "fuzzing")]
pub(crate) use members::ListenParams;
pub use members::RequestParams;
pub use method::RequestMethod;
pub use params::{
    ParamsError, CLIENT_CAPABILITIES_META_KEY, MAX_LISTEN_URIS, MAX_PARAMS_BYTES,
    PROTOCOL_VERSION_META_KEY, TRACE_META_KEYS,
};

pub(crate) use members::ToolCallParams;
pub(crate) use method::from_params;
pub(crate) use params::Arg;

#[cfg(doc)]
use crate::completion::CompleteParams;
#[cfg(doc)]
use crate::listing::ListOptions;

/// Longest per-request revision string echoed in an
/// `UnsupportedProtocolVersion` error (longer ones are malformed params).
const MAX_ECHOED_REVISION_BYTES: usize = 64;

/// Per-call options of [`Resources::request`]: those of the list methods
/// and the call frame's (see [`CallOptions`]: its `protocol_revision` is
/// the negotiated one, and a per-request revision in `params._meta` takes
/// precedence; with an executor the call returns by its deadline whatever
/// a callback does).
#[derive(Clone, Default)]
pub struct RequestOptions {
    /// Opaque caller scope: required and non-empty for the list methods
    /// (see [`ListOptions::scope_key`]), and for a read whose callback asks
    /// for input (its `requestState` is bound to it; docs/BEHAVIOUR.md §18).
    pub scope_key: Vec<u8>,
    /// Page size of the list methods (0 = `default_page_size`).
    pub page_size: u32,
    /// The options every call takes.
    pub call: CallOptions,
    /// Serve `tools/call` for the resource tools (`read_resource`,
    /// `list_resources`; see [`crate::tools`]): other tool names stay
    /// [`RequestError::MethodNotHandled`]. Off by default: `tools/call` is
    /// then not handled at all, whatever the tool.
    pub resource_tools: bool,
    /// The client's capabilities as the host knows them, for reads that
    /// ask for input (`None`: nothing declared); a
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]` in the params
    /// wins.
    pub client_capabilities: Option<ClientCapabilities>,
    /// The JSON-RPC id of the request, as its JSON text (`1`, `"abc"`):
    /// required by `subscriptions/listen`, whose stream it names (the
    /// subscription id); unused by the other methods.
    pub request_id: Option<Vec<u8>>,
    /// The notification types the host delivers itself on a
    /// `subscriptions/listen` stream (`tools_list_changed`,
    /// `prompts_list_changed`; the resource types are the registry's): the
    /// acknowledgement honors them when the client asked for them.
    pub host_notifications: NotificationTypes,
}

impl RequestOptions {
    /// The call options of one method's call: the request's, with what its
    /// params set in their place (the per-request revision, the request's
    /// trace context).
    pub(crate) fn call_for(&self, from_params: FromParams) -> CallOptions {
        let mut call = self.call.clone();
        if let Some(r) = from_params.protocol_revision {
            call.protocol_revision = r;
        }
        if from_params.trace.is_some() {
            call.trace = from_params.trace;
        }
        call
    }
}

/// Why [`Resources::request`] made no response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestError {
    /// The method is not one this library serves: route it elsewhere.
    MethodNotHandled,
    /// A host programming error (no response must be sent for it as if it
    /// were the client's fault): an empty scope key for a list method, no
    /// valid request id for `subscriptions/listen`.
    InvalidArgument(&'static str),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::MethodNotHandled => f.write_str("method not handled by this library"),
            RequestError::InvalidArgument(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RequestError {}

/// The response to one request: the JSON-RPC `result` object, or the
/// JSON-RPC `error` object with the failure behind it (whose private cause
/// is for the host's logs).
#[derive(Debug)]
pub struct Response {
    pub(crate) json: String,
    pub(crate) failure: Option<Failure>,
    pub(crate) protocol_revision: ProtocolRevision,
    pub(crate) partial: bool,
    /// Refused before the method's call frame (params the strict reader
    /// refused, an unknown per-request revision, a resource tool's
    /// arguments its input schema refuses): its call event is the request
    /// function's to emit.
    pub(crate) unframed: bool,
    pub(crate) input_required: bool,
    /// Behind a resource tool's execution error (`isError: true`, a result
    /// object): the failure, for the host's logs.
    pub(crate) tool_failure: Option<Box<Failure>>,
    pub(crate) subscription: Option<Box<SubscriptionDecision>>,
}

impl Response {
    /// The `result` object (success) or the `error` object (failure), as
    /// compact JSON: put it under `"result"` or `"error"` of the JSON-RPC
    /// response with the request's id.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The JSON, by value.
    pub fn into_json(self) -> String {
        self.json
    }

    /// Whether this is an error object.
    pub fn is_error(&self) -> bool {
        self.failure.is_some()
    }

    /// The failure behind an error object (kind, safe message, private
    /// cause).
    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Whether a read result (or a `read_resource` tool result) is a
    /// partial bundle.
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// Whether a read result is an `InputRequiredResult` (the read needs
    /// input from the client first; docs/BEHAVIOUR.md §18).
    pub fn is_input_required(&self) -> bool {
        self.input_required
    }

    /// For a resource tool's execution error (a result with `isError:
    /// true`, see [`crate::tools`]): the failure behind it (kind, safe
    /// message, private cause), for the host's logs.
    pub fn tool_failure(&self) -> Option<&Failure> {
        self.tool_failure.as_deref()
    }

    /// A tool result object: `partial` for a partial `read_resource` read,
    /// `tool_failure` behind an execution error.
    pub(crate) fn tool_result(
        json: String,
        protocol_revision: ProtocolRevision,
        partial: bool,
        tool_failure: Option<Failure>,
    ) -> Response {
        Response {
            json,
            failure: None,
            protocol_revision,
            partial,
            unframed: false,
            input_required: false,
            tool_failure: tool_failure.map(Box::new),
            subscription: None,
        }
    }

    /// The protocol revision the response is shaped for (the per-request
    /// one when the params named one).
    pub fn protocol_revision(&self) -> ProtocolRevision {
        self.protocol_revision
    }

    /// What the host must record for a successful `resources/subscribe`,
    /// `resources/unsubscribe` or `subscriptions/listen` (`None` for every
    /// other response; see [`SubscriptionDecision`]).
    pub fn subscription(&self) -> Option<&SubscriptionDecision> {
        self.subscription.as_deref()
    }

    /// Whether [`json`](Self::json) is a complete JSON-RPC notification
    /// message to send as it is (the acknowledgement of a
    /// `subscriptions/listen` stream), not a `result` object: the listen
    /// request itself is answered only when the stream ends
    /// ([`crate::subscription::listen_closed_result`]).
    pub fn is_notification(&self) -> bool {
        self.subscription
            .as_ref()
            .is_some_and(|d| d.method() == SubscriptionMethod::Listen)
    }

    pub(crate) fn error(
        failure: Failure,
        json: String,
        protocol_revision: ProtocolRevision,
    ) -> Response {
        Response {
            json,
            failure: Some(failure),
            protocol_revision,
            partial: false,
            unframed: false,
            input_required: false,
            tool_failure: None,
            subscription: None,
        }
    }

    /// An error refused before the method's call frame.
    pub(crate) fn refused(
        failure: Failure,
        json: String,
        protocol_revision: ProtocolRevision,
    ) -> Response {
        Response {
            unframed: true,
            ..Response::error(failure, json, protocol_revision)
        }
    }

    pub(crate) fn result(json: String, protocol_revision: ProtocolRevision) -> Response {
        Response {
            json,
            failure: None,
            protocol_revision,
            partial: false,
            unframed: false,
            input_required: false,
            tool_failure: None,
            subscription: None,
        }
    }

    /// A result with the decision the host records (a subscription method;
    /// for a listen, `json` is the acknowledgement message).
    pub(crate) fn decided(
        json: String,
        protocol_revision: ProtocolRevision,
        decision: SubscriptionDecision,
    ) -> Response {
        Response {
            subscription: Some(Box::new(decision)),
            ..Response::result(json, protocol_revision)
        }
    }
}

impl Resources {
    /// Serves one request: `method` is the JSON-RPC method name,
    /// `params` the raw params text (empty when the request had none).
    ///
    /// Returns the response to send (a `result` or an `error` object; see
    /// [`Response`]), [`RequestError::MethodNotHandled`] for a method this
    /// library does not serve (and for `completion/complete` with a
    /// `ref/prompt` reference: prompts are the host's; for the subscription
    /// methods on a revision without them or a registry that declares no
    /// resource updates; and for `tools/call` unless
    /// [`RequestOptions::resource_tools`] is set, and then for any tool but
    /// the resource tools), or [`RequestError::InvalidArgument`] for a list
    /// method (or `list_resources`) called with an empty scope key
    /// (completion needs none) and for `subscriptions/listen` with a request
    /// id that is no JSON string or number, or, where the method exists,
    /// with none.
    ///
    /// A request the client cancelled gets no response at all (MCP): drop a
    /// `canceled` error instead of sending it.
    pub fn request(
        &self,
        method: &[u8],
        params: &[u8],
        options: &RequestOptions,
    ) -> Result<Response, RequestError> {
        let method = RequestMethod::parse(method).ok_or(RequestError::MethodNotHandled)?;
        let started = std::time::Instant::now();
        let row = method.row();
        let out = (row.check)(options).and_then(|()| (row.serve)(self, params, options));
        // The resource tools observe their own refusals (they are served
        // by `call_resource_tool`, a public entry point of its own).
        if method != RequestMethod::ToolsCall {
            self.observe_unframed(call_method(method), started, options, &out);
        }
        out
    }

    /// The call event and metrics of a request refused before its
    /// method's call frame (the frame counts every other one).
    pub(crate) fn observe_unframed(
        &self,
        call_method: CallMethod,
        started: std::time::Instant,
        options: &RequestOptions,
        out: &Result<Response, RequestError>,
    ) {
        let ended = |protocol_revision| Ended {
            method: call_method,
            protocol_revision,
            started,
            ended: None,
            subject: Subject::None,
            request_data: options.call.request_data.as_deref(),
        };
        match out {
            Ok(r) if r.unframed => {
                if let Some(f) = r.failure.as_ref().or(r.tool_failure.as_deref()) {
                    self.telemetry().unframed(ended(r.protocol_revision), f);
                }
            }
            Err(RequestError::InvalidArgument(m)) => {
                let f = Failure::with_message(FailureKind::InvalidArgument, *m);
                let revision = options.call.protocol_revision;
                self.telemetry().unframed(ended(revision), &f);
            }
            _ => {}
        }
    }
}

/// The observed method a request method is served by.
pub(crate) fn call_method(method: RequestMethod) -> CallMethod {
    match method {
        RequestMethod::ResourcesRead => CallMethod::ResourcesRead,
        RequestMethod::ResourcesList => CallMethod::ResourcesList,
        RequestMethod::ResourcesTemplatesList => CallMethod::ResourcesTemplatesList,
        RequestMethod::CompletionComplete => CallMethod::CompletionComplete,
        RequestMethod::ToolsCall => CallMethod::ToolsCall,
        RequestMethod::ResourcesSubscribe
        | RequestMethod::ResourcesUnsubscribe
        | RequestMethod::SubscriptionsListen => CallMethod::Subscriptions,
    }
}

/// The method of `method`, once its own rules on the host's options hold
/// (the list methods need a scope key): the checks made before the params
/// are looked at, by the blocking and the asynchronous request alike.
pub(crate) fn checked_method(
    method: &[u8],
    options: &RequestOptions,
) -> Result<RequestMethod, RequestError> {
    let method = RequestMethod::parse(method).ok_or(RequestError::MethodNotHandled)?;
    (method.row().check)(options)?;
    Ok(method)
}

/// The frame rules of `method` (how a saturated executor and a panic
/// read).
pub(crate) fn method_rules(method: RequestMethod) -> &'static crate::call::FrameRules {
    match method {
        RequestMethod::ResourcesRead => &crate::read::READ_RULES,
        // The resource tools' `read_resource` is an embedding, whose
        // frame has a read's rules, observed as `tools/call`
        // (`crate::tools`).
        RequestMethod::ToolsCall => &crate::tools::TOOL_READ_RULES,
        RequestMethod::ResourcesList => &crate::listing::LIST_RULES,
        RequestMethod::ResourcesTemplatesList => &crate::listing::LIST_TEMPLATES_RULES,
        RequestMethod::CompletionComplete => &crate::completion::COMPLETE_RULES,
        RequestMethod::ResourcesSubscribe
        | RequestMethod::ResourcesUnsubscribe
        | RequestMethod::SubscriptionsListen => &crate::subscription::SUBSCRIPTION_RULES,
    }
}

pub(crate) fn request_revision(
    requested: Option<&str>,
    negotiated: ProtocolRevision,
) -> Result<ProtocolRevision, Response> {
    let Some(v) = requested else {
        return Ok(negotiated);
    };
    match ProtocolRevision::parse(v.as_bytes()) {
        Ok(r) if !v.is_empty() => Ok(r),
        _ if v.len() <= MAX_ECHOED_REVISION_BYTES && !v.is_empty() => {
            let failure = Failure::request("unsupported protocol version").caused_by(CauseText(
                "the params name an unknown protocol revision".into(),
            ));
            Err(Response::refused(
                failure,
                jsonrpc::unsupported_revision(v),
                negotiated,
            ))
        }
        _ => Err(params_error(
            ParamsError("params _meta protocolVersion is not a protocol revision"),
            negotiated,
        )),
    }
}

pub(crate) fn params_error(e: ParamsError, protocol_revision: ProtocolRevision) -> Response {
    let json = jsonrpc::object(jsonrpc::INVALID_PARAMS, e.message(), None);
    let failure = Failure::with_message(FailureKind::InvalidRequest, Cow::Borrowed(e.message()));
    Response::refused(failure, json, protocol_revision)
}

#[cfg(test)]
mod tests;
