//! Input-required reads (docs/BEHAVIOUR.md §18): a read whose policy
//! `read` permission (first check) or body read needs input from the
//! client first answers MCP 2026-07-28's `InputRequiredResult` with a
//! sealed `requestState`; the client's retry, carrying its
//! `inputResponses` and that state, is verified and hands the responses to
//! every callback of the retried read.
//!
//! - `ask.rs`: what a callback asks for ([`InputRequest`],
//!   [`InputRequests`], [`InputRequired`]);
//! - `shapes.rs`: the schema shapes of requests and responses;
//! - `capabilities.rs`: [`ClientCapabilities`] and what requests lack;
//! - `responses.rs`: what a retried read's callbacks see
//!   ([`InputResponses`]);
//! - `state.rs`: the sealed `requestState`;
//! - this file: [`InputOptions`], the read's input members and merging
//!   what several callbacks asked for (opening a retry and answering a
//!   read that asked are the read's: `src/read/asking.rs`).

pub(crate) mod ask;
mod capabilities;
mod responses;
mod shapes;
pub(crate) mod state;

pub use ask::{
    is_input_key, InputKind, InputRequest, InputRequests, InputRequired, InvalidInput,
    MAX_INPUT_KEY_BYTES, MAX_INPUT_REQUESTS, MAX_INPUT_REQUEST_BYTES, MAX_INPUT_STATE_BYTES,
};
pub use capabilities::ClientCapabilities;
pub use responses::{InputResponse, InputResponses};
pub use shapes::ElicitAction;

pub(crate) use ask::InputFailure;
pub(crate) use state::KEY_INFO as STATE_KEY_INFO;

use std::borrow::Cow;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::{CauseText, Failure, FailureKind};
use crate::protocol::ProtocolRevision;

/// The method every request state of a read is bound to.
pub(crate) const READ_METHOD: &str = "resources/read";

/// The default JSON-RPC code of a read that needs input on a revision
/// that has no input-required result (the host may choose another:
/// [`ResourcesBuilder::input_unsupported_error`](crate::ResourcesBuilder::input_unsupported_error)).
///
/// cbindgen:ignore
pub const INPUT_UNSUPPORTED_CODE: i32 = -32603;
/// The default message of that error.
///
/// cbindgen:ignore
pub const INPUT_UNSUPPORTED_MESSAGE: &str =
    "Input required: this protocol revision cannot carry the request for input";
/// The message of a `-32021` error: the client lacks a capability an input
/// request needs.
pub const MISSING_CAPABILITY_MESSAGE: &str = "Missing required client capability";
/// The JSON-RPC code of `MissingRequiredClientCapability` (MCP 2026-07-28).
///
/// cbindgen:ignore
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;

/// What a read takes to answer "input required" and to take its retry
/// (part of [`ReadOptions`](crate::ReadOptions); the one-call request
/// fills it from the params itself). Everything is optional: a read that
/// asks for nothing needs none of it.
#[derive(Clone, Default, Debug)]
pub struct InputOptions {
    /// The caller's principal (for example a hash of its access token's
    /// subject): every `requestState` is bound to SHA-256 of these bytes. A
    /// read whose callback asks for input needs a non-empty one (an empty
    /// one is [`FailureKind::InvalidArgument`]).
    pub scope_key: Vec<u8>,
    /// What the client declared it supports (`None`: nothing). An input
    /// request of a kind the client did not declare is never sent.
    pub client_capabilities: Option<ClientCapabilities>,
    /// The retry's `requestState`, exactly as the client sent it.
    pub request_state: Option<String>,
    /// The retry's `inputResponses` object, as JSON text.
    pub input_responses: Option<String>,
    /// The request's params JSON text, for the binding of the state to the
    /// params (`None`: no params beyond `uri`). Only the members other
    /// than `uri`, `_meta`, `inputResponses` and `requestState` count.
    pub params: Option<String>,
}

/// Where a read's input members come from, borrowed (the direct read's
/// [`InputOptions`] or the one-call request's params).
#[derive(Clone, Copy, Default)]
pub(crate) struct ReadInput<'a> {
    pub scope_key: &'a [u8],
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]` of the params
    /// (JSON text), which wins over `given`; read only when needed.
    pub raw_capabilities: Option<&'a str>,
    pub given_capabilities: Option<ClientCapabilities>,
    pub request_state: Option<&'a str>,
    pub input_responses: Option<&'a str>,
    pub params: Option<&'a [u8]>,
}

impl<'a> ReadInput<'a> {
    /// The input members of a direct read.
    pub(crate) fn of(options: &'a InputOptions) -> ReadInput<'a> {
        ReadInput {
            scope_key: &options.scope_key,
            raw_capabilities: None,
            given_capabilities: options.client_capabilities,
            request_state: options.request_state.as_deref(),
            input_responses: options.input_responses.as_deref(),
            params: options.params.as_deref().map(str::as_bytes),
        }
    }

    /// The client's capabilities: those of the params, else the host's.
    pub(crate) fn capabilities(&self) -> Result<ClientCapabilities, Failure> {
        match self.raw_capabilities {
            Some(raw) => ClientCapabilities::from_json(raw).map_err(|e| {
                Failure::request("params _meta clientCapabilities is invalid")
                    .caused_by(CauseText(e.message().into()))
            }),
            None => Ok(self.given_capabilities.unwrap_or_default()),
        }
    }

    /// SHA-256 of the canonical JSON (keys sorted at every depth) of the
    /// params' members other than `uri`, `_meta`, `inputResponses` and
    /// `requestState`: `{}` when there are none.
    pub(crate) fn params_digest(&self) -> Result<[u8; 32], Failure> {
        let Some(text) = self.params.filter(|t| !t.trim_ascii().is_empty()) else {
            return Ok(Sha256::digest(b"{}").into());
        };
        let mut value: Value = serde_json::from_slice(text).map_err(|_| params_not_object())?;
        let Some(members) = value.as_object_mut() else {
            if value.is_null() {
                return Ok(Sha256::digest(b"{}").into());
            }
            return Err(params_not_object());
        };
        for bound_elsewhere in ["uri", "_meta", "inputResponses", "requestState"] {
            members.remove(bound_elsewhere);
        }
        value.sort_all_objects();
        Ok(Sha256::digest(value.to_string().as_bytes()).into())
    }
}

fn params_not_object() -> Failure {
    Failure::with_message(
        FailureKind::InvalidArgument,
        "the read's params text is not a JSON object",
    )
}

/// Whether results of `revision` can be an `InputRequiredResult`
/// (2026-07-28, the revision that also added `resultType`).
pub(crate) fn carries_input(revision: ProtocolRevision) -> bool {
    revision >= ProtocolRevision::V2026_07_28
}

/// Merges what several callbacks of one read asked for (body reads of
/// several items): keys must stay unique and at most one may seal state.
pub(crate) fn merge(
    first: InputRequired,
    next: InputRequired,
) -> Result<InputRequired, Cow<'static, str>> {
    let (mut requests, state) = first.into_parts();
    let (more, more_state) = next.into_parts();
    if !state.is_empty() && !more_state.is_empty() {
        return Err("two callbacks of one read sealed input state".into());
    }
    requests
        .append(more)
        .map_err(|e| Cow::Owned(format!("callbacks of one read asked for input: {e}")))?;
    let merged = InputRequired::new(requests);
    let state = if state.is_empty() { more_state } else { state };
    Ok(merged.with_state(&state).expect("a state of at most 1 KiB"))
}
