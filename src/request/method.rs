//! The method table of [`Resources::request`]: one row per method the
//! library serves, naming how it checks the host's options and how it is
//! served (each reads its params with the one strict reader, through its
//! own spec of members).
//!
//! Adding a method: a [`RequestMethod`] variant, its name in
//! [`RequestMethod::parse`] / [`RequestMethod::as_str`], a spec of its
//! params members in `params.rs` (and their slots), and a row in
//! [`RequestMethod::row`] whose `serve` parses, calls the method in its
//! call frame and shapes the [`Response`].

use std::borrow::Cow;
use std::sync::Arc;

use crate::call::FromParams;

use crate::completion::{CompleteOptions, CompleteParams, CompleteRef, CompletionResult};
use crate::error::Failure;
use crate::input::{carries_input, ReadInput};
use crate::jsonrpc;
use crate::listing::{require_scope_key, ListOptions, Page, EMPTY_SCOPE_KEY};
use crate::protocol::ProtocolRevision;
use crate::read::ResourceBundle;
use crate::registry::Resources;
use crate::subscription::SubscriptionMethod;
use crate::trace::TraceContext;

use super::members::{take_trace, RequestParams};
use super::params::{self, ParamsError, Slot, Values};
use super::{listen, subscribe};
use super::{params_error, request_revision, RequestError, RequestOptions, Response};

/// A method [`Resources::request`] serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestMethod {
    /// `resources/read`.
    ResourcesRead,
    /// `resources/list`.
    ResourcesList,
    /// `resources/templates/list`.
    ResourcesTemplatesList,
    /// `completion/complete` (a `ref/resource` reference; a `ref/prompt`
    /// one is not handled).
    CompletionComplete,
    /// `tools/call` for the resource tools (`read_resource`,
    /// `list_resources`; see [`crate::tools`]), only when
    /// [`RequestOptions::resource_tools`] is set: any other tool, and every
    /// tool without that option, is not handled.
    ToolsCall,
    /// `resources/subscribe` (before 2026-07-28; see
    /// [`crate::subscription`]).
    ResourcesSubscribe,
    /// `resources/unsubscribe` (before 2026-07-28).
    ResourcesUnsubscribe,
    /// `subscriptions/listen` (2026-07-28 on).
    SubscriptionsListen,
}

impl RequestMethod {
    /// The method of an exact method name, or `None` when this library does
    /// not serve it (`tools/call` is served for the resource tools alone,
    /// and only when the host asks for them).
    pub fn parse(name: &[u8]) -> Option<RequestMethod> {
        match name {
            b"resources/read" => Some(RequestMethod::ResourcesRead),
            b"resources/list" => Some(RequestMethod::ResourcesList),
            b"resources/templates/list" => Some(RequestMethod::ResourcesTemplatesList),
            b"completion/complete" => Some(RequestMethod::CompletionComplete),
            b"tools/call" => Some(RequestMethod::ToolsCall),
            b"resources/subscribe" => Some(RequestMethod::ResourcesSubscribe),
            b"resources/unsubscribe" => Some(RequestMethod::ResourcesUnsubscribe),
            b"subscriptions/listen" => Some(RequestMethod::SubscriptionsListen),
            _ => None,
        }
    }

    /// The method name.
    pub fn as_str(self) -> &'static str {
        match self {
            RequestMethod::ResourcesRead => "resources/read",
            RequestMethod::ResourcesList => "resources/list",
            RequestMethod::ResourcesTemplatesList => "resources/templates/list",
            RequestMethod::CompletionComplete => "completion/complete",
            RequestMethod::ToolsCall => "tools/call",
            RequestMethod::ResourcesSubscribe => "resources/subscribe",
            RequestMethod::ResourcesUnsubscribe => "resources/unsubscribe",
            RequestMethod::SubscriptionsListen => "subscriptions/listen",
        }
    }

    /// The method's row of the table.
    pub(super) fn row(self) -> Row {
        match self {
            RequestMethod::ResourcesRead => Row {
                check: no_check,
                serve: serve_read,
            },
            RequestMethod::ResourcesList => Row {
                check: needs_scope_key,
                serve: |r, p, o| serve_list(r, p, o, false),
            },
            RequestMethod::ResourcesTemplatesList => Row {
                check: needs_scope_key,
                serve: |r, p, o| serve_list(r, p, o, true),
            },
            RequestMethod::CompletionComplete => Row {
                check: no_check,
                serve: serve_complete,
            },
            RequestMethod::ToolsCall => Row {
                check: needs_resource_tools,
                // Its params name the tool (`crate::tools`).
                serve: |r, p, o| r.call_resource_tool(p, o),
            },
            RequestMethod::ResourcesSubscribe => Row {
                check: no_check,
                serve: |r, p, o| subscribe::serve(r, p, o, SubscriptionMethod::Subscribe),
            },
            RequestMethod::ResourcesUnsubscribe => Row {
                check: no_check,
                serve: |r, p, o| subscribe::serve(r, p, o, SubscriptionMethod::Unsubscribe),
            },
            RequestMethod::SubscriptionsListen => Row {
                check: listen::valid_request_id,
                serve: listen::serve,
            },
        }
    }
}

/// How one method is served.
pub(super) struct Row {
    /// The method's own rules on the host's options, checked before the
    /// params are looked at (a host mistake is reported whatever the
    /// client sent).
    pub check: fn(&RequestOptions) -> Result<(), RequestError>,
    /// Parses the params text, runs the method and shapes the response.
    pub serve: Serve,
}

type Serve = fn(&Resources, &[u8], &RequestOptions) -> Result<Response, RequestError>;

fn no_check(_: &RequestOptions) -> Result<(), RequestError> {
    Ok(())
}

/// The list methods need a scope key (the listing's own rule).
fn needs_scope_key(options: &RequestOptions) -> Result<(), RequestError> {
    require_scope_key(&options.scope_key)
        .map_err(|_| RequestError::InvalidArgument(EMPTY_SCOPE_KEY))
}

/// `tools/call` is the host's unless it asks for the resource tools.
fn needs_resource_tools(options: &RequestOptions) -> Result<(), RequestError> {
    if options.resource_tools {
        Ok(())
    } else {
        Err(RequestError::MethodNotHandled)
    }
}

fn serve_read(
    r: &Resources,
    text: &[u8],
    options: &RequestOptions,
) -> Result<Response, RequestError> {
    Ok(match read_call(text, options) {
        Ok(c) => {
            let revision = c.protocol_revision;
            let input = c.input(options, text);
            let read = r.read_at(
                c.uri.as_bytes(),
                &options.call,
                from_params(revision, c.trace.clone()),
                &input,
            );
            read_response(read, &c.uri, revision)
        }
        Err(response) => response,
    })
}

/// What a `resources/read` request asks (its params read), or the error
/// response to send instead.
pub(super) struct ReadCall<'p> {
    pub uri: Cow<'p, str>,
    pub protocol_revision: ProtocolRevision,
    /// The trace context of the params' `_meta`, if any.
    pub trace: Option<TraceContext>,
    /// A retry's `requestState` (docs/BEHAVIOUR.md §18).
    pub request_state: Option<Cow<'p, str>>,
    /// A retry's `inputResponses`, as JSON text.
    pub input_responses: Option<Cow<'p, str>>,
    /// `_meta` client capabilities, as JSON text.
    pub client_capabilities: Option<Cow<'p, str>>,
}

impl ReadCall<'_> {
    /// The read's input members: those of the params `text`, and the
    /// host's scope key and client capabilities.
    pub(super) fn input<'a>(
        &'a self,
        options: &'a RequestOptions,
        text: &'a [u8],
    ) -> ReadInput<'a> {
        ReadInput {
            scope_key: &options.scope_key,
            raw_capabilities: self.client_capabilities.as_deref(),
            given_capabilities: options.client_capabilities,
            request_state: self.request_state.as_deref(),
            input_responses: self.input_responses.as_deref(),
            params: Some(text),
        }
    }
}

/// The params of `resources/read`: the URI and the revision to shape for.
pub(super) fn read_call<'p>(
    text: &'p [u8],
    options: &RequestOptions,
) -> Result<ReadCall<'p>, Response> {
    let negotiated = options.call.protocol_revision;
    let params = match RequestParams::parse(RequestMethod::ResourcesRead, text) {
        Ok(p) => p,
        // Before 2026-07-28 the retry members are not defined: a read
        // whose params fail only on them is read as those revisions
        // define it (docs/BEHAVIOUR.md §18).
        Err(e) => match RequestParams::parse_spec(params::READ_LEGACY, text) {
            Ok(p)
                if request_revision(p.protocol_version.as_deref(), negotiated)
                    .is_ok_and(|r| !carries_input(r)) =>
            {
                p
            }
            _ => return Err(params_error(e, negotiated)),
        },
    };
    let protocol_revision = request_revision(params.protocol_version.as_deref(), negotiated)?;
    let trace = params.trace_context();
    let Some(uri) = params.uri else {
        return Err(params_error(
            ParamsError("params uri is required"),
            protocol_revision,
        ));
    };
    Ok(ReadCall {
        uri,
        protocol_revision,
        trace,
        request_state: params.request_state,
        input_responses: params.input_responses,
        client_capabilities: params.client_capabilities,
    })
}

/// The response of a read of `uri`.
pub(super) fn read_response(
    read: Result<ResourceBundle, Failure>,
    uri: &str,
    protocol_revision: ProtocolRevision,
) -> Response {
    match read {
        Ok(bundle) => Response {
            partial: bundle.is_partial(),
            input_required: bundle.is_input_required(),
            json: bundle.into_json(),
            failure: None,
            protocol_revision,
            unframed: false,
            tool_failure: None,
            subscription: None,
        },
        Err(f) => {
            let json = jsonrpc::error_object(&f, protocol_revision, Some(uri));
            Response::error(f, json, protocol_revision)
        }
    }
}

fn serve_list(
    r: &Resources,
    text: &[u8],
    options: &RequestOptions,
    templates: bool,
) -> Result<Response, RequestError> {
    Ok(match list_call(text, options) {
        Ok(list) => {
            let page = if templates {
                r.list_templates(&list)
            } else {
                r.list(&list)
            };
            list_response(page, list.call.protocol_revision)
        }
        Err(response) => response,
    })
}

/// The options of the list call a list request asks for (its params read:
/// the cursor and the revision), or the error response to send instead.
pub(super) fn list_call(text: &[u8], options: &RequestOptions) -> Result<ListOptions, Response> {
    let negotiated = options.call.protocol_revision;
    let params = RequestParams::parse(RequestMethod::ResourcesList, text)
        .map_err(|e| params_error(e, negotiated))?;
    let protocol_revision = request_revision(params.protocol_version.as_deref(), negotiated)?;
    let trace = params.trace_context();
    Ok(ListOptions {
        scope_key: options.scope_key.clone(),
        cursor: params.cursor.map(|c| c.into_owned().into_bytes()),
        page_size: options.page_size,
        call: options.call_for(from_params(protocol_revision, trace)),
    })
}

/// The response of a list page.
pub(super) fn list_response(
    page: Result<Page, Failure>,
    protocol_revision: ProtocolRevision,
) -> Response {
    match page {
        Ok(page) => Response::result(page.into_json(), protocol_revision),
        Err(f) => {
            let json = jsonrpc::error_object(&f, protocol_revision, None);
            Response::error(f, json, protocol_revision)
        }
    }
}

/// `completion/complete`: a `ref/prompt` reference is
/// [`RequestError::MethodNotHandled`].
fn serve_complete(
    r: &Resources,
    text: &[u8],
    options: &RequestOptions,
) -> Result<Response, RequestError> {
    Ok(match complete_call(text, options)? {
        Ok((params, complete)) => {
            let revision = complete.call.protocol_revision;
            complete_response(r.complete(&params, &complete), &params, revision)
        }
        Err(response) => response,
    })
}

/// What a `completion/complete` request asks (its params read: the
/// reference, the argument, the context and the revision), or the error
/// response to send instead; a `ref/prompt` reference is
/// [`RequestError::MethodNotHandled`].
pub(super) fn complete_call(
    text: &[u8],
    options: &RequestOptions,
) -> Result<Result<(CompleteParams, CompleteOptions), Response>, RequestError> {
    let negotiated = options.call.protocol_revision;
    let (reference, version, trace) = match CompleteParams::parse_request(text) {
        Ok(parsed) => parsed,
        Err(e) => return Ok(Err(params_error(ParamsError(e.message()), negotiated))),
    };
    let CompleteRef::Resource(params) = reference else {
        return Err(RequestError::MethodNotHandled);
    };
    Ok(
        request_revision(version.as_deref(), negotiated).map(|protocol_revision| {
            let complete = CompleteOptions {
                call: options.call_for(from_params(protocol_revision, trace)),
            };
            (params, complete)
        }),
    )
}

/// The response of a completion of `params`.
pub(super) fn complete_response(
    result: Result<CompletionResult, Failure>,
    params: &CompleteParams,
    protocol_revision: ProtocolRevision,
) -> Response {
    match result {
        Ok(result) => Response::result(result.into_json(), protocol_revision),
        Err(f) => {
            // Not found names the reference the client sent, as a read
            // names its URI.
            let json = jsonrpc::error_object(&f, protocol_revision, Some(&params.template));
            Response::error(f, json, protocol_revision)
        }
    }
}

/// What a request's params set for its call: its revision, and its trace
/// context, which replaces the host's
/// ([`CallOptions::trace`](crate::CallOptions::trace)) when the params
/// carry one.
pub(crate) fn from_params(
    protocol_revision: ProtocolRevision,
    trace: Option<TraceContext>,
) -> FromParams {
    FromParams {
        protocol_revision: Some(protocol_revision),
        trace: trace.map(Arc::new),
    }
}

impl<'a> RequestParams<'a> {
    /// Parses the params text of `method` strictly (see the module
    /// documentation of [`crate::request`]): `uri` is read for
    /// `resources/read`, `resources/subscribe` and `resources/unsubscribe`
    /// only (a read's retry members for `resources/read` alone), `cursor`
    /// for the list methods only, and for `completion/complete`,
    /// `subscriptions/listen` and `tools/call` only `_meta` (see
    /// [`CompleteParams::parse`] for the rest of completion params; a
    /// listen's filter is read by its own spec when it is served; the
    /// resource tools read `name` and `arguments` with the same reader);
    /// any other member is ignored. Does not check that a
    /// required member is present: that is
    /// [`Resources::request`](crate::Resources::request)'s job. This is the
    /// whole params reader, with no registry involved (a fuzzing entry
    /// point).
    pub fn parse(method: RequestMethod, text: &'a [u8]) -> Result<RequestParams<'a>, ParamsError> {
        let spec = match method {
            RequestMethod::ResourcesRead => params::READ,
            RequestMethod::ResourcesList | RequestMethod::ResourcesTemplatesList => params::LIST,
            RequestMethod::ResourcesSubscribe | RequestMethod::ResourcesUnsubscribe => {
                params::SUBSCRIBE
            }
            RequestMethod::CompletionComplete
            | RequestMethod::SubscriptionsListen
            | RequestMethod::ToolsCall => params::META_ONLY,
        };
        Self::parse_spec(spec, text)
    }

    /// The params text read by `spec`.
    pub(crate) fn parse_spec(
        spec: params::Spec,
        text: &'a [u8],
    ) -> Result<RequestParams<'a>, ParamsError> {
        let mut v = Values::default();
        params::read_into(text, spec, &mut v)?;
        Ok(RequestParams {
            uri: v.take(Slot::Uri),
            cursor: v.take(Slot::Cursor),
            protocol_version: v.take(Slot::ProtocolVersion),
            request_state: v.take(Slot::RequestState),
            input_responses: v.take(Slot::InputResponses),
            client_capabilities: v.take(Slot::ClientCapabilities),
            trace: take_trace(&mut v),
        })
    }
}
