//! The response handle of `mcpr_request` (`mcpr_response_*`).

use crate::request::Response;

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref, Boxed, Handle};
use super::status::mcpr_status;

/// The response to one request: the JSON-RPC `result` object or `error`
/// object. Owned by the caller; free with `mcpr_response_free`. Immutable:
/// safe to read from any thread.
///
/// \ingroup request
pub struct mcpr_response {
    pub(super) inner: Response,
    pub(super) cause: String,
}

impl Handle for mcpr_response {
    type Kind = Boxed;
}

/// The JSON-RPC `result` object (when `mcpr_response_is_error` is false) or
/// `error` object (when true), as compact JSON.
///
/// \param response The response, or NULL.
/// \return The JSON, borrowed from `response` (valid until
///   `mcpr_response_free(response)`); empty when `response` is NULL.
/// \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
/// \note Thread-safe: a response is immutable; any thread may read it, also
///   concurrently.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_json(response: *const mcpr_response) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(response) }.map_or(mcpr_str::empty(), |response| {
            mcpr_str::from_str(response.inner.json())
        })
    })
}

/// Whether the response is a JSON-RPC `error` object.
///
/// \param response The response, or NULL.
/// \return True for an error object; false for a result and when `response`
///   is NULL.
/// \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
/// \note Thread-safe (see `mcpr_response_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_is_error(response: *const mcpr_response) -> bool {
    guard(|| unsafe { handle_ref(response) }.is_some_and(|response| response.inner.is_error()))
}

/// The status behind an error response.
///
/// \param response The response, or NULL.
/// \return `MCPR_INVALID_REQUEST` for malformed params and bad cursors,
///   `MCPR_UNAVAILABLE` for not found, and so on; `MCPR_OK` for a result;
///   `MCPR_INVALID_ARGUMENT` when `response` is NULL.
/// \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
/// \note Thread-safe (see `mcpr_response_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_status(response: *const mcpr_response) -> mcpr_status {
    guard(|| match unsafe { handle_ref(response) } {
        None => mcpr_status::MCPR_INVALID_ARGUMENT,
        Some(response) => response
            .inner
            .failure()
            .map_or(mcpr_status::MCPR_OK, |f| mcpr_status::of_kind(f.kind())),
    })
}

/// The private cause behind an error response, for the host's logs only:
/// never send it.
///
/// \param response The response, or NULL.
/// \return The cause, borrowed from `response` (valid until
///   `mcpr_response_free(response)`); empty for results, when there is none
///   and when `response` is NULL.
/// \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
/// \note Thread-safe (see `mcpr_response_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_cause(response: *const mcpr_response) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(response) }.map_or(mcpr_str::empty(), |response| {
            mcpr_str::from_str(&response.cause)
        })
    })
}

/// Whether the response is a partial `resources/read` bundle (a result whose
/// first item is the diagnostic warning).
///
/// \param response The response, or NULL.
/// \return True for a partial bundle; false otherwise and when `response` is
///   NULL.
/// \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
/// \note Thread-safe (see `mcpr_response_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_is_partial(response: *const mcpr_response) -> bool {
    guard(|| unsafe { handle_ref(response) }.is_some_and(|response| response.inner.is_partial()))
}

/// Whether the response is an MCP 2026-07-28 `InputRequiredResult`: a
/// callback of the `resources/read` asked for input first
/// (docs/BEHAVIOUR.md §18). Send its JSON as the `result`; the client
/// retries with `inputResponses` and the `requestState` it holds.
///
/// \param response The response, or NULL.
/// \return True for an input-required result; false otherwise and when
///   `response` is NULL.
/// \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
/// \note Thread-safe (see `mcpr_response_json`).
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_is_input_required(response: *const mcpr_response) -> bool {
    guard(|| {
        unsafe { handle_ref(response) }.is_some_and(|response| response.inner.is_input_required())
    })
}

/// Frees a response.
///
/// \param response The response to free, or NULL (then nothing happens).
/// \pre `response` is NULL or a response from `mcpr_request`, freed only
///   once; no thread uses it (or a string borrowed from it) afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_free(response: *mut mcpr_response) {
    guard(|| unsafe { free_handle(response) })
}
