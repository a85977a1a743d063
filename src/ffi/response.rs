//! The response handle of `mcpr_request` (`mcpr_response_*`).

use crate::request::Response;

use super::boundary::{guard, mcpr_status, mcpr_str};
use super::handle::{free_handle, handle_ref};

/// The response to one request: the JSON-RPC `result` object or `error`
/// object. Owned by the caller; free with `mcpr_response_free`. Immutable:
/// safe to read from any thread.
pub struct mcpr_response {
    pub(super) inner: Response,
    pub(super) cause: String,
}

/// The JSON-RPC `result` object (when `mcpr_response_is_error` is false) or
/// `error` object (when true), compact JSON. Owned by `p`, valid until
/// `mcpr_response_free(p)`. Empty for NULL.
///
/// # Safety
/// `p` is NULL or a live response.
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_json(p: *const mcpr_response) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(p) }.map_or(mcpr_str::empty(), |p| mcpr_str::from_str(p.inner.json()))
    })
}

/// Whether the response is a JSON-RPC `error` object. False for NULL.
///
/// # Safety
/// `p` is NULL or a live response.
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_is_error(p: *const mcpr_response) -> bool {
    guard(|| unsafe { handle_ref(p) }.is_some_and(|p| p.inner.is_error()))
}

/// The status behind an error response (`MCPR_INVALID_REQUEST` for
/// malformed params and bad cursors, `MCPR_UNAVAILABLE` for not found,
/// ...); `MCPR_OK` for a result; `MCPR_INVALID_ARGUMENT` for NULL.
///
/// # Safety
/// `p` is NULL or a live response.
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_status(p: *const mcpr_response) -> mcpr_status {
    guard(|| match unsafe { handle_ref(p) } {
        None => mcpr_status::MCPR_INVALID_ARGUMENT,
        Some(p) => p
            .inner
            .failure()
            .map_or(mcpr_status::MCPR_OK, |f| mcpr_status::of_kind(f.kind())),
    })
}

/// The private cause behind an error response (for the host's logs only;
/// never send it). Empty for results, for NULL and when there is none.
/// Owned by `p`.
///
/// # Safety
/// `p` is NULL or a live response.
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_cause(p: *const mcpr_response) -> mcpr_str {
    guard(|| unsafe { handle_ref(p) }.map_or(mcpr_str::empty(), |p| mcpr_str::from_str(&p.cause)))
}

/// Whether the response is a partial `resources/read` bundle (a result
/// whose first item is the diagnostic warning). False otherwise and for
/// NULL.
///
/// # Safety
/// `p` is NULL or a live response.
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_is_partial(p: *const mcpr_response) -> bool {
    guard(|| unsafe { handle_ref(p) }.is_some_and(|p| p.inner.is_partial()))
}

/// Frees a response. Accepts NULL.
///
/// # Safety
/// `p` is NULL or a response from `mcpr_request`, freed once.
#[no_mangle]
pub unsafe extern "C" fn mcpr_response_free(p: *mut mcpr_response) {
    guard(|| unsafe { free_handle(p) })
}
