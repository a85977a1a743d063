//! The read's side of input-required reads (docs/BEHAVIOUR.md §18):
//! opening a retry's `requestState` before the read starts, and answering
//! a read whose callbacks asked for input (the `InputRequiredResult` with
//! a freshly sealed state, or the failure of a revision or client that
//! cannot carry it). What is asked, answered and sealed is `crate::input`;
//! this file binds it to the registry (its content hash, state key, clock
//! and limits).

use std::sync::Arc;

use crate::error::{CauseText, Failure, FailureKind};
use crate::input::state::{self, StateBinding};
use crate::input::{
    carries_input, InputFailure, InputRequired, InputResponses, ReadInput,
    MISSING_CAPABILITY_MESSAGE, MISSING_REQUIRED_CLIENT_CAPABILITY, READ_METHOD,
};
use crate::limits::WIRE_RESERVE_BYTES;
use crate::protocol::ProtocolRevision;
use crate::registry::Resources;

/// What the request state of a read of `uri` by `input`'s caller is bound
/// to on `r`.
fn binding<'b>(
    r: &'b Resources,
    input: &'b ReadInput<'_>,
    uri: &'b [u8],
) -> Result<StateBinding<'b>, Failure> {
    Ok(StateBinding {
        content_hash: r.content_hash_ref(),
        scope_key: input.scope_key,
        method: READ_METHOD,
        uri,
        params_digest: input.params_digest()?,
    })
}

/// The retry members of a read on `revision`: `None` when there are none
/// (or the revision has no input-required results: its requests do not
/// define these members), else the verified responses for the callbacks.
/// A state that fails verification, responses without a state and
/// malformed responses are `invalid_request` (`-32602`), never a fresh
/// start, whatever the URI names (hidden, unregistered or readable).
pub(crate) fn open_retry(
    r: &Resources,
    uri: &[u8],
    input: &ReadInput<'_>,
    revision: ProtocolRevision,
) -> Result<Option<Arc<InputResponses>>, Failure> {
    if !carries_input(revision) {
        return Ok(None);
    }
    let Some(text) = input.request_state else {
        if input.input_responses.is_some() {
            return Err(Failure::request("inputResponses without requestState")
                .with_rpc_message("Invalid params: inputResponses without requestState"));
        }
        return Ok(None);
    };
    let binding = binding(r, input, uri)?;
    let opened = state::open(r.state_sealer(), &binding, text.as_bytes(), r.now_unix_ms())?;
    let responses = InputResponses::parse(input.input_responses, opened.asked, opened.state)
        .map_err(|e| {
            Failure::request("Invalid input responses")
                .with_rpc_message("Invalid input responses")
                .caused_by(CauseText(e.message().into()))
        })?;
    Ok(Some(Arc::new(responses)))
}

/// The answer of a read whose callbacks asked for `asked` (already merged:
/// keys unique). On 2026-07-28 the `InputRequiredResult` JSON with a
/// freshly sealed `requestState` (no `ttlMs`, `cacheScope` or `_meta`);
/// before, the failure [`FailureKind::InputRequired`] with the host's
/// error. A client that did not declare what a request needs gets the
/// `-32021` failure; an empty scope key is the host's mistake.
pub(crate) fn answer(
    r: &Resources,
    uri: &[u8],
    input: &ReadInput<'_>,
    revision: ProtocolRevision,
    asked: InputRequired,
) -> Result<String, Failure> {
    let (requests, own_state) = asked.into_parts();
    if !carries_input(revision) {
        let (code, message) = r.input_unsupported_error();
        return Err(input_failure(InputFailure {
            requests,
            missing: None,
            code,
            message: message.to_string(),
        }));
    }
    if input.scope_key.is_empty() {
        return Err(Failure::with_message(
            FailureKind::InvalidArgument,
            "an input-required read needs a non-empty scope key",
        ));
    }
    if let Some(missing) = input.capabilities()?.missing(&requests) {
        return Err(input_failure(InputFailure {
            requests,
            missing: Some(missing),
            code: MISSING_REQUIRED_CLIENT_CAPABILITY,
            message: MISSING_CAPABILITY_MESSAGE.to_string(),
        }));
    }
    let binding = binding(r, input, uri)?;
    let sealed = state::seal(
        r.state_sealer(),
        &binding,
        r.now_unix_ms(),
        &requests,
        &own_state,
    );
    let mut json = String::from(r#"{"resultType":"input_required""#);
    if !requests.is_empty() {
        json.push_str(r#","inputRequests":"#);
        json.push_str(&requests.json());
    }
    json.push_str(r#","requestState":""#);
    json.push_str(&sealed);
    json.push_str("\"}");
    if json.len() as u64 > r.limits().max_encoded_bytes - WIRE_RESERVE_BYTES {
        return Err(Failure::new(FailureKind::Size).caused_by(CauseText(
            "the input-required result exceeds max_encoded_bytes - 8192".into(),
        )));
    }
    Ok(json)
}

fn input_failure(detail: InputFailure) -> Failure {
    let cause = if detail.missing.is_some() {
        "an input request needs a capability the client did not declare"
    } else {
        "the read needs input and the protocol revision has no input-required result"
    };
    Failure::new(FailureKind::InputRequired)
        .caused_by(CauseText(cause.into()))
        .with_input(detail)
}
