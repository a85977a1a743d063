//! Error objects (`mcpr_error_*`), and the panic boundary of the exports
//! that report through them (`guard_status`).

use crate::error::FailureKind;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref, new_handle, Boxed, Handle};
use super::status::{mcpr_status, Error};

/// An error object: status, safe message, private cause, and the JSON-RPC
/// error object for the protocol revision (and requested URI) of the call
/// that made it. Owned by the caller; free with `mcpr_error_free`. Safe to
/// read from any thread.
///
/// \ingroup errors
pub struct mcpr_error {
    status: mcpr_status,
    message: String,
    cause: String,
    code: i32,
    rpc: String,
    input_requests: String,
}

impl Handle for mcpr_error {
    type Kind = Boxed;
}

impl From<Error> for mcpr_error {
    /// The error object of an error value: its JSON-RPC error object is the
    /// one the export made, or a generic one for its status.
    fn from(e: Error) -> mcpr_error {
        let (code, rpc) = e.rpc.unwrap_or_else(|| {
            let code = match e.status {
                mcpr_status::MCPR_INVALID_REQUEST | mcpr_status::MCPR_UNAVAILABLE => -32602,
                mcpr_status::MCPR_METHOD_NOT_HANDLED => crate::jsonrpc::METHOD_NOT_FOUND,
                _ => -32603,
            };
            let message = match e.status {
                mcpr_status::MCPR_INVALID_REQUEST => &*e.message,
                mcpr_status::MCPR_UNAVAILABLE => crate::jsonrpc::NOT_FOUND_MESSAGE,
                mcpr_status::MCPR_METHOD_NOT_HANDLED => "Method not found",
                mcpr_status::MCPR_INVALID_ARGUMENT | mcpr_status::MCPR_INTERNAL => "internal error",
                other => FailureKind::all()
                    .into_iter()
                    .find(|k| mcpr_status::of_kind(*k) == other)
                    .map_or("internal error", FailureKind::default_message),
            };
            (code, crate::jsonrpc::object(code, message, None))
        });
        mcpr_error {
            status: e.status,
            message: e.message.into_owned(),
            cause: e.cause,
            code,
            rpc,
            input_requests: e.input_requests,
        }
    }
}

/// The panic boundary of a status-returning export with an `err`
/// out-parameter: `Ok` is `MCPR_OK`; an error writes an error object to
/// `err` (when not NULL) and returns its status; a panic writes an
/// `MCPR_INTERNAL` error object and returns `MCPR_INTERNAL`.
///
/// # Safety
/// `err` is NULL or valid for one pointer write.
pub(crate) unsafe fn guard_status(
    err: *mut *mut mcpr_error,
    f: impl FnOnce() -> Result<(), Error>,
) -> mcpr_status {
    let result = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => return mcpr_status::MCPR_OK,
        Ok(Err(e)) => e,
        Err(_) => Error {
            status: mcpr_status::MCPR_INTERNAL,
            message: "internal error".into(),
            cause: "a panic was caught at the C boundary".into(),
            rpc: None,
            input_requests: String::new(),
        },
    };
    let status = result.status;
    if !err.is_null() {
        let object = guard(|| new_handle(mcpr_error::from(result)));
        // SAFETY: `err` is non-null and the caller guarantees it is valid for
        // one pointer write.
        unsafe { err.write(object) };
    }
    status
}

/// The status of an error object.
///
/// \param error The error object, or NULL.
/// \return Its status; `MCPR_INVALID_ARGUMENT` when `error` is NULL.
/// \pre `error` is NULL or an error object from this library, not yet freed.
/// \note Thread-safe: an error object is immutable; any thread may read it,
///   also concurrently.
///
/// \ingroup errors
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_status(error: *const mcpr_error) -> mcpr_status {
    guard(|| match unsafe { handle_ref(error) } {
        Some(error) => error.status,
        None => mcpr_status::MCPR_INVALID_ARGUMENT,
    })
}

/// The safe message: a fixed text that may be shown to an MCP client (for
/// configuration errors it names the offending limit, field or position).
///
/// \param error The error object, or NULL.
/// \return The message, borrowed from `error` (valid until
///   `mcpr_error_free(error)`); empty when `error` is NULL.
/// \pre `error` is NULL or an error object from this library, not yet freed.
/// \note Thread-safe (see `mcpr_error_status`).
///
/// \ingroup errors
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_message(error: *const mcpr_error) -> mcpr_str {
    guard(|| match unsafe { handle_ref(error) } {
        Some(error) => mcpr_str::from_str(&error.message),
        None => mcpr_str::empty(),
    })
}

/// The private cause, for the host's logs only: it may contain identifiers,
/// callback causes and internal detail; never send it to a client.
///
/// \param error The error object, or NULL.
/// \return The cause, borrowed from `error` (valid until
///   `mcpr_error_free(error)`); empty when there is none or `error` is NULL.
/// \pre `error` is NULL or an error object from this library, not yet freed.
/// \note Thread-safe (see `mcpr_error_status`).
///
/// \ingroup errors
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_cause(error: *const mcpr_error) -> mcpr_str {
    guard(|| match unsafe { handle_ref(error) } {
        Some(error) => mcpr_str::from_str(&error.cause),
        None => mcpr_str::empty(),
    })
}

/// The JSON-RPC error code: the `code` of `mcpr_error_jsonrpc_json`.
///
/// For errors of `mcpr_read`, `mcpr_list`, `mcpr_list_templates` and
/// `mcpr_complete` it follows the options' protocol revision
/// (`MCPR_UNAVAILABLE` is resource not found: `-32602` on 2026-07-28,
/// `-32002` before); otherwise `-32602` for `MCPR_INVALID_REQUEST` and
/// `MCPR_UNAVAILABLE`, `-32601` for `MCPR_METHOD_NOT_HANDLED`, `-32603` for
/// the rest.
///
/// \param error The error object, or NULL.
/// \return The code; 0 when `error` is NULL.
/// \pre `error` is NULL or an error object from this library, not yet freed.
/// \note Thread-safe (see `mcpr_error_status`).
///
/// \ingroup errors
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_jsonrpc_code(error: *const mcpr_error) -> i32 {
    guard(|| unsafe { handle_ref(error) }.map_or(0, |error| error.code))
}

/// The complete JSON-RPC `error` object (`{"code":…,"message":…}`, plus
/// `"data":{"uri":…}` for resource-not-found), ready to send as the `error`
/// member of the response.
///
/// The error remembers the call that made it: errors of `mcpr_read`,
/// `mcpr_list`, `mcpr_list_templates` and `mcpr_complete` are shaped for the
/// protocol revision of their options, and not-found carries the URI the
/// call was asked for; every not-found cause (no registration, no template
/// match, discovery denied, requested target hidden or unavailable) gives
/// the same bytes. Other errors (builder, misuse) get a generic object for
/// the newest revision. Never contains the private cause, authorization data
/// or any URI other than the requested one.
///
/// A request the client cancelled (`notifications/cancelled`) gets no
/// response at all in MCP: on `MCPR_CANCELED` after such a cancellation, send
/// nothing.
///
/// \param error The error object, or NULL.
/// \return Compact JSON, borrowed from `error` (valid until
///   `mcpr_error_free(error)`); empty when `error` is NULL.
/// \pre `error` is NULL or an error object from this library, not yet freed.
/// \note Thread-safe (see `mcpr_error_status`).
///
/// \ingroup errors
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_jsonrpc_json(error: *const mcpr_error) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(error) }
            .map_or(mcpr_str::empty(), |error| mcpr_str::from_str(&error.rpc))
    })
}

/// The input requests an `MCPR_INPUT_REQUIRED` error carries: the
/// `InputRequests` object the read would have sent (docs/BEHAVIOUR.md
/// §18), for a host that asks the client its own way (on an older
/// protocol revision, server-initiated `elicitation/create` requests) and
/// then retries the read with the responses.
///
/// \param error The error object, or NULL.
/// \return Compact JSON (`{"key":{"method":…,"params":…},…}`), borrowed from
///   `error` (valid until `mcpr_error_free(error)`); empty for every other
///   error and when `error` is NULL.
/// \pre `error` is NULL or an error object from this library, not yet freed.
/// \note Thread-safe (see `mcpr_error_status`).
///
/// \ingroup errors
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_input_requests(error: *const mcpr_error) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(error) }.map_or(mcpr_str::empty(), |error| {
            mcpr_str::from_str(&error.input_requests)
        })
    })
}

/// Frees an error object.
///
/// \param error The error object to free, or NULL (then nothing happens).
/// \pre `error` is NULL or an error object from this library, freed only
///   once; no thread uses it (or a string borrowed from it) afterwards.
/// \post Every `mcpr_str` borrowed from `error` is invalid.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup errors
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_free(error: *mut mcpr_error) {
    guard(|| unsafe { free_handle(error) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_status_makes_an_internal_error_object_of_a_panic() {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let mut err: *mut mcpr_error = std::ptr::null_mut();
        // SAFETY: `err` is a valid out-parameter.
        let status = unsafe { guard_status(&mut err, || panic!("boom")) };
        std::panic::set_hook(quiet);
        assert_eq!(status, mcpr_status::MCPR_INTERNAL);
        assert!(!err.is_null());
        // SAFETY: `err` was just written by `guard_status`.
        unsafe {
            assert_eq!(mcpr_error_status(err), mcpr_status::MCPR_INTERNAL);
            assert_eq!(mcpr_error_jsonrpc_code(err), -32603);
            mcpr_error_free(err);
        }
    }
}
