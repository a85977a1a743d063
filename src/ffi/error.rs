//! Error objects (`mcpr_error_*`) and the library's internal error value.

use crate::error::{Failure, FailureKind};

use super::boundary::{guard, mcpr_status, mcpr_str};
use super::handle::{free_handle, handle_ref};

/// An error object: status, safe message, private cause, and the JSON-RPC
/// error object for the protocol revision (and requested URI) of the call
/// that made it. Owned by the caller; free with `mcpr_error_free`. Safe to
/// read from any thread.
pub struct mcpr_error {
    status: mcpr_status,
    message: String,
    cause: String,
    code: i32,
    rpc: String,
}

/// An error on its way out of an export.
pub(crate) struct Error {
    pub(super) status: mcpr_status,
    pub(super) message: std::borrow::Cow<'static, str>,
    pub(super) cause: String,
    /// The JSON-RPC error object and its code, when the export made it for
    /// a request (revision and URI known).
    pub(super) rpc: Option<(i32, String)>,
}

impl Error {
    /// A programming error (`MCPR_INVALID_ARGUMENT`).
    pub(crate) fn argument(message: &'static str) -> Error {
        Error {
            status: mcpr_status::MCPR_INVALID_ARGUMENT,
            message: message.into(),
            cause: String::new(),
            rpc: None,
        }
    }

    /// An error of `status` with a safe message and no cause.
    pub(crate) fn with_status(status: mcpr_status, message: &'static str) -> Error {
        Error {
            status,
            message: message.into(),
            cause: String::new(),
            rpc: None,
        }
    }

    /// The error of a C string argument that is not valid UTF-8: status
    /// of `kind`, message "`what` is not valid UTF-8".
    pub(crate) fn not_utf8(kind: FailureKind, what: &str) -> Error {
        Error {
            status: mcpr_status::of_kind(kind),
            message: format!("{what} is not valid UTF-8").into(),
            cause: String::new(),
            rpc: None,
        }
    }

    /// The error of a failed read or listing, with its JSON-RPC error object
    /// for `revision` (and the requested URI of a read).
    pub(crate) fn of_request(
        f: Failure,
        revision: crate::protocol::ProtocolRevision,
        uri: Option<&str>,
    ) -> Error {
        let rpc = (
            crate::jsonrpc::error_code(&f, revision),
            crate::jsonrpc::error_object(&f, revision, uri),
        );
        let mut e = Error::from(f);
        e.rpc = Some(rpc);
        e
    }

    pub(super) fn into_object(self) -> mcpr_error {
        let (code, rpc) = self.rpc.unwrap_or_else(|| {
            let code = match self.status {
                mcpr_status::MCPR_INVALID_REQUEST | mcpr_status::MCPR_UNAVAILABLE => -32602,
                mcpr_status::MCPR_METHOD_NOT_HANDLED => crate::jsonrpc::METHOD_NOT_FOUND,
                _ => -32603,
            };
            let message = match self.status {
                mcpr_status::MCPR_INVALID_REQUEST => &*self.message,
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
            status: self.status,
            message: self.message.into_owned(),
            cause: self.cause,
            code,
            rpc,
        }
    }
}

impl From<Failure> for Error {
    fn from(f: Failure) -> Error {
        Error {
            status: mcpr_status::of_kind(f.kind()),
            message: f.message().to_string().into(),
            cause: f.cause_text(),
            rpc: None,
        }
    }
}

/// The status of an error object.
///
/// \param error The error object, or NULL.
/// \return Its status; `MCPR_INVALID_ARGUMENT` when `error` is NULL.
/// \pre `error` is NULL or an error object from this library, not yet freed.
/// \note Thread-safe: an error object is immutable; any thread may read it,
///   also concurrently.
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
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_jsonrpc_json(error: *const mcpr_error) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(error) }
            .map_or(mcpr_str::empty(), |error| mcpr_str::from_str(&error.rpc))
    })
}

/// Frees an error object.
///
/// \param error The error object to free, or NULL (then nothing happens).
/// \pre `error` is NULL or an error object from this library, freed only
///   once; no thread uses it (or a string borrowed from it) afterwards.
/// \post Every `mcpr_str` borrowed from `error` is invalid.
/// \note Any thread may free it, once no other thread uses it.
#[no_mangle]
pub unsafe extern "C" fn mcpr_error_free(error: *mut mcpr_error) {
    guard(|| unsafe { free_handle(error) })
}
