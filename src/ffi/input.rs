//! Input-required reads from C (`mcpr_input_*`, docs/BEHAVIOUR.md §18): a
//! callback adds input requests (and optionally state) to its call
//! context and returns `MCPR_CB_INPUT_REQUIRED`; on the retry, every
//! callback of the read reads the client's responses from its call
//! context, as borrowed views.

use crate::error::{Failure, FailureKind};
use crate::input::{ElicitAction, InputRequest, InputResponses, MAX_INPUT_STATE_BYTES};

use super::boundary::{guard, mcpr_str};
use super::call::mcpr_call;
use super::error::{guard_status, mcpr_error};
use super::handle::handle_ref;
use super::status::{mcpr_status, Error};

/// What the user did with an elicitation (`mcpr_input_response_action`).
/// A plain integer: later versions may add values.
///
/// \ingroup callbacks
pub type mcpr_input_action = u32;

// The `u32` suffixes make cbindgen write `0u`, `1u`, ...: unsigned int, the
// type of uint32_t (see `mcpr_phase`).
/// No elicitation response under that key (none was asked, the client sent
/// none, it answers another kind of request, or the call is NULL).
///
/// \ingroup callbacks
pub const MCPR_INPUT_NO_ACTION: mcpr_input_action = 0u32;

/// The user submitted the form or confirmed the action.
///
/// \ingroup callbacks
pub const MCPR_INPUT_ACCEPT: mcpr_input_action = 1u32;

/// The user explicitly declined.
///
/// \ingroup callbacks
pub const MCPR_INPUT_DECLINE: mcpr_input_action = 2u32;

/// The user dismissed the request without a choice.
///
/// \ingroup callbacks
pub const MCPR_INPUT_CANCEL: mcpr_input_action = 3u32;

/// The input responses of the read a call context serves, if it is a
/// verified retry.
///
/// # Safety
/// `call` is NULL or a call context passed to a callback that has not
/// returned.
unsafe fn responses<'a>(call: *const mcpr_call) -> Option<&'a InputResponses> {
    unsafe { handle_ref(call) }?.context().input()
}

/// Refuses an addition: the callback's input requests are spoiled (a
/// later `MCPR_CB_INPUT_REQUIRED` is a failure).
fn refuse(call: &mcpr_call, message: &'static str) -> Error {
    call.input_slot().refused = true;
    Error::from(Failure::with_message(FailureKind::InvalidContent, message))
}

/// Adds one input request to the call's answer: the callback then returns
/// `MCPR_CB_INPUT_REQUIRED` (see there for the callbacks that may). The
/// request is checked against the MCP 2026-07-28 schema now; whether the
/// client declared what it needs is checked when the read answers.
///
/// \param call The callback's call context.
/// \param key The request's key in the `InputRequiredResult`: 1 to 64 bytes
///   of `A-Z a-z 0-9 _ . -`, unique within the read; the retry's response
///   is read under it.
/// \param request_json The request object as JSON:
///   `{"method":"elicitation/create","params":{…}}`,
///   `{"method":"sampling/createMessage","params":{…}}` or
///   `{"method":"roots/list"}`, at most 64 KiB (copied).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad key, a used key, a
///   17th request, or a request that is not valid JSON or not of the
///   schema's shape (the message names the member; the callback's input is
///   then spoiled: `MCPR_CB_INPUT_REQUIRED` fails it); `MCPR_INVALID_ARGUMENT`
///   for a NULL `call` or a `(NULL, n > 0)` string.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet; `key` and `request_json` follow the
///   `mcpr_str` rules; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: any thread may call it while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_input_add_request(
    call: *const mcpr_call,
    key: mcpr_str,
    request_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let call = unsafe { handle_ref(call) }.ok_or_else(|| Error::argument("call is NULL"))?;
        let (key, json) = match unsafe { (key.bytes(), request_json.bytes()) } {
            (Ok(k), Ok(j)) => (k, j),
            (Err(e), _) | (_, Err(e)) => {
                call.input_slot().refused = true;
                return Err(e);
            }
        };
        let key =
            std::str::from_utf8(key).map_err(|_| refuse(call, "input key is not valid UTF-8"))?;
        let json = std::str::from_utf8(json)
            .map_err(|_| refuse(call, "input request is not valid UTF-8"))?;
        let request = InputRequest::from_json(json).map_err(|e| refuse(call, e.message()))?;
        let mut slot = call.input_slot();
        if let Err(e) = slot.requests.insert(key, request) {
            slot.refused = true;
            return Err(Failure::with_message(FailureKind::InvalidContent, e.message()).into());
        }
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Sets opaque bytes of the callback's own, sealed into the read's
/// `requestState` and handed back on the retry (`mcpr_input_state`); a
/// later call replaces them.
///
/// \param call The callback's call context.
/// \param state The bytes (copied), or NULL with `state_len` 0 for none.
/// \param state_len The number of bytes at `state`: at most 1024.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for more than 1024 bytes (the
///   callback's input is then spoiled); `MCPR_INVALID_ARGUMENT` for a NULL
///   `call` or a NULL `state` with a non-zero `state_len`.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet; `state` is NULL (with `state_len` 0) or
///   points at `state_len` readable bytes; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call it while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_input_set_state(
    call: *const mcpr_call,
    state: *const u8,
    state_len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let call = unsafe { handle_ref(call) }.ok_or_else(|| Error::argument("call is NULL"))?;
        let bytes = mcpr_str {
            ptr: state.cast(),
            len: state_len,
        };
        let bytes = match unsafe { bytes.bytes() } {
            Ok(b) => b,
            Err(e) => {
                call.input_slot().refused = true;
                return Err(e);
            }
        };
        if bytes.len() > MAX_INPUT_STATE_BYTES {
            return Err(refuse(call, "input state exceeds 1 KiB"));
        }
        call.input_slot().state = bytes.to_vec();
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Whether the read this callback serves is the verified retry of an
/// input-required read (its `requestState` opened): only then do the
/// `mcpr_input_response*` accessors find anything.
///
/// \param call The callback's call context, or NULL.
/// \return True on a verified retry; false otherwise and when `call` is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_input_is_retry(call: *const mcpr_call) -> bool {
    guard(|| unsafe { responses(call) }.is_some())
}

/// The client's response under `key` on a verified retry, when the
/// previous round asked for that key and the client answered: an
/// `ElicitResult`, `CreateMessageResult` or `ListRootsResult` as compact
/// JSON, checked against the kind of request asked.
///
/// \param call The callback's call context, or NULL.
/// \param key The key of the request.
/// \return The JSON, borrowed from the call context (valid until the
///   callback returns); empty when there is none, and when `call` is NULL or
///   `key` is a `(NULL, n > 0)` string.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet; `key` follows the `mcpr_str` rules.
/// \note Thread-safe: any thread may call it while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_input_response(call: *const mcpr_call, key: mcpr_str) -> mcpr_str {
    guard(|| {
        let found = unsafe { responses(call) }
            .zip(
                unsafe { key.bytes() }
                    .ok()
                    .and_then(|k| std::str::from_utf8(k).ok()),
            )
            .and_then(|(r, k)| r.get(k));
        found.map_or(mcpr_str::empty(), |r| mcpr_str::from_str(r.json()))
    })
}

/// The user's action in the elicitation response under `key`.
///
/// \param call The callback's call context, or NULL.
/// \param key The key of the elicitation request.
/// \return `MCPR_INPUT_ACCEPT`, `MCPR_INPUT_DECLINE` or `MCPR_INPUT_CANCEL`;
///   `MCPR_INPUT_NO_ACTION` when there is no elicitation response under
///   `key`, and when `call` is NULL or `key` is a `(NULL, n > 0)` string.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet; `key` follows the `mcpr_str` rules.
/// \note Thread-safe: any thread may call it while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_input_response_action(
    call: *const mcpr_call,
    key: mcpr_str,
) -> mcpr_input_action {
    guard(|| {
        let action = unsafe { responses(call) }
            .zip(
                unsafe { key.bytes() }
                    .ok()
                    .and_then(|k| std::str::from_utf8(k).ok()),
            )
            .and_then(|(r, k)| r.get(k))
            .and_then(|r| r.action());
        match action {
            None => MCPR_INPUT_NO_ACTION,
            Some(ElicitAction::Accept) => MCPR_INPUT_ACCEPT,
            Some(ElicitAction::Decline) => MCPR_INPUT_DECLINE,
            Some(ElicitAction::Cancel) => MCPR_INPUT_CANCEL,
        }
    })
}

/// One field of the form the user submitted in the elicitation response
/// under `key`: its value as compact JSON (a string with its quotes, a
/// number, `true`/`false`, or a list of strings).
///
/// \param call The callback's call context, or NULL.
/// \param key The key of the elicitation request.
/// \param field The name of the form field (a property of its
///   `requestedSchema`).
/// \return The JSON, borrowed from the call context (valid until the
///   callback returns); empty when the field was not sent, and when `call`
///   is NULL or a string is `(NULL, n > 0)`.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet; `key` and `field` follow the `mcpr_str`
///   rules.
/// \note Thread-safe: any thread may call it while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_input_response_content(
    call: *const mcpr_call,
    key: mcpr_str,
    field: mcpr_str,
) -> mcpr_str {
    guard(|| {
        let text = |s: mcpr_str| {
            unsafe { s.bytes() }
                .ok()
                .and_then(|b| std::str::from_utf8(b).ok())
        };
        let found = unsafe { responses(call) }
            .zip(text(key))
            .and_then(|(r, k)| r.get(k))
            .zip(text(field))
            .and_then(|(r, f)| r.content(f));
        found.map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

/// The bytes the asking callback sealed with `mcpr_input_set_state`, on a
/// verified retry.
///
/// \param call The callback's call context, or NULL.
/// \return The bytes, borrowed from the call context (valid until the
///   callback returns); empty when none were set, when the read is no
///   retry, and when `call` is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_input_state(call: *const mcpr_call) -> mcpr_str {
    guard(|| {
        unsafe { responses(call) }.map_or(mcpr_str::empty(), |r| mcpr_str::from_bytes(r.state()))
    })
}
