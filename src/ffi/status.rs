//! What an export reports: the status codes (`mcpr_status`, with their
//! names for logs), what a callback returns (`mcpr_cb_result`), and the
//! library's internal error value on its way out of an export (a status with
//! its safe message, private cause and JSON-RPC error object), which
//! `error::guard_status` turns into an `mcpr_error` object.
//!
//! Ground floor of the C layer: it uses nothing of `ffi`.

use crate::error::{Failure, FailureKind};

/// Status of every fallible call. The values are explicit and never reused;
/// `1` to `12` are also the failure kinds of the library's Rust interface.
///
/// \ingroup errors
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcpr_status {
    /// Success.
    MCPR_OK = 0,
    /// Malformed request: bad identifier, empty URI or scope key, ambiguous
    /// selection, bad capture, bad or foreign cursor.
    MCPR_INVALID_REQUEST = 1,
    /// Not found or not permitted (deliberately indistinguishable).
    MCPR_UNAVAILABLE = 2,
    /// The resolve callback failed or produced an invalid plan, or a plan
    /// builder refused a target.
    MCPR_INVALID_PLAN = 3,
    /// A policy callback failed operationally (not a denial).
    MCPR_POLICY = 4,
    /// No item survived; the first visible issue was `read_failed`.
    MCPR_READ_FAILED = 5,
    /// No item survived; the first visible issue was `timeout`.
    MCPR_TIMEOUT = 6,
    /// No item survived and the first visible issue was `invalid_content`,
    /// or a payload builder refused its input.
    MCPR_INVALID_CONTENT = 7,
    /// No item survived; the first visible issue was `budget_exceeded`.
    MCPR_BUDGET_EXCEEDED = 8,
    /// The caller cancelled through its `mcpr_cancel` token.
    MCPR_CANCELED = 9,
    /// The whole-call deadline passed.
    MCPR_DEADLINE_EXCEEDED = 10,
    /// Even the minimal report or the assembled result does not fit.
    MCPR_SIZE = 11,
    /// A definition, limit, key, callback table or registration is invalid.
    MCPR_INVALID_CONFIGURATION = 12,
    /// A programming error: NULL handle or out-parameter, `(NULL, n > 0)`
    /// string, impossible length, unknown enum value, impossible
    /// `struct_size` or a set field unknown to this library, an empty list
    /// scope key (from every entry point).
    MCPR_INVALID_ARGUMENT = 13,
    /// A bug in the library, stopped before it reached the caller.
    MCPR_INTERNAL = 14,
    /// `mcpr_request` was given a method this library does not serve: no
    /// response was made; route the request elsewhere (or answer JSON-RPC
    /// `-32601` Method not found).
    MCPR_METHOD_NOT_HANDLED = 15,
    /// The read needs input the client cannot be asked for
    /// (docs/BEHAVIOUR.md §18): the request's protocol revision has no
    /// input-required result (before 2026-07-28), or the client did not
    /// declare a capability an input request needs. Send the error's
    /// `mcpr_error_jsonrpc_json` (the host's chosen error, or `-32021`
    /// with `data.requiredCapabilities`); `mcpr_error_input_requests` holds
    /// the requests the read would have sent.
    MCPR_INPUT_REQUIRED = 16,
}

impl mcpr_status {
    pub(crate) fn of_kind(kind: FailureKind) -> mcpr_status {
        match kind {
            FailureKind::InvalidRequest => mcpr_status::MCPR_INVALID_REQUEST,
            FailureKind::Unavailable => mcpr_status::MCPR_UNAVAILABLE,
            FailureKind::InvalidPlan => mcpr_status::MCPR_INVALID_PLAN,
            FailureKind::Policy => mcpr_status::MCPR_POLICY,
            FailureKind::ReadFailed => mcpr_status::MCPR_READ_FAILED,
            FailureKind::Timeout => mcpr_status::MCPR_TIMEOUT,
            FailureKind::InvalidContent => mcpr_status::MCPR_INVALID_CONTENT,
            FailureKind::BudgetExceeded => mcpr_status::MCPR_BUDGET_EXCEEDED,
            FailureKind::Canceled => mcpr_status::MCPR_CANCELED,
            FailureKind::DeadlineExceeded => mcpr_status::MCPR_DEADLINE_EXCEEDED,
            FailureKind::Size => mcpr_status::MCPR_SIZE,
            FailureKind::InvalidConfiguration => mcpr_status::MCPR_INVALID_CONFIGURATION,
            FailureKind::InvalidArgument => mcpr_status::MCPR_INVALID_ARGUMENT,
            FailureKind::InputRequired => mcpr_status::MCPR_INPUT_REQUIRED,
        }
    }
}

/// What a C callback returns: one of `MCPR_CB_OK`, `MCPR_CB_UNAVAILABLE`,
/// `MCPR_CB_FAILED`, `MCPR_CB_INVALID_CONTENT`. It is a plain integer so
/// that any value a callback returns is defined behaviour: every other
/// value counts as `MCPR_CB_FAILED`.
///
/// \ingroup callbacks
pub type mcpr_cb_result = u32;

// The `u32` suffixes make cbindgen write `0u`, `1u`, ...: unsigned int, the
// type of uint32_t (the typedef), so that C++ (`decltype`) and Swift see one
// type for the constants and the values they are compared with, not int
// (c-tests/header_cxx.cpp asserts it). A cast would carry the typedef's
// name but warns under -Wold-style-cast in C++.
/// The callback succeeded.
///
/// \ingroup callbacks
pub const MCPR_CB_OK: mcpr_cb_result = 0u32;

/// A typed denial / not found (`discover` and policy `read`: denial;
/// `resolve`: root denial; body `read`: an `unavailable` issue).
///
/// \ingroup callbacks
pub const MCPR_CB_UNAVAILABLE: mcpr_cb_result = 1u32;

/// An operational failure; its private cause is the text given to
/// `mcpr_call_set_cause`, or a fixed text when none was set.
///
/// \ingroup callbacks
pub const MCPR_CB_FAILED: mcpr_cb_result = 2u32;

/// The content the callback produced is invalid. From a body `read`: the
/// item becomes an `invalid_content` issue (the private cause is the text
/// given to `mcpr_call_set_cause`, or a fixed text). From every other
/// callback it is a failure like `MCPR_CB_FAILED` (`discover`,
/// `visibility`, policy `read`: `MCPR_POLICY`; `resolve`:
/// `MCPR_INVALID_PLAN`; `complete`: `MCPR_READ_FAILED`).
///
/// \ingroup callbacks
pub const MCPR_CB_INVALID_CONTENT: mcpr_cb_result = 3u32;

/// The read needs input from the client first (docs/BEHAVIOUR.md §18).
/// Only from the policy `read` callback while the read is in
/// `MCPR_PHASE_FIRST_CHECK`, and from a body `read`: add the input
/// requests with `mcpr_input_add_request` (and optionally state with
/// `mcpr_input_set_state`) before returning it; a refused one makes
/// the callback a failure. From every other callback (and phase) it counts
/// as `MCPR_CB_UNAVAILABLE`.
///
/// \ingroup callbacks
pub const MCPR_CB_INPUT_REQUIRED: mcpr_cb_result = 4u32;

/// The highest `mcpr_status` value this version of the library defines
/// (`MCPR_INPUT_REQUIRED`); values above it are unknown to it.
///
/// \ingroup errors
pub const MCPR_STATUS_MAX: u32 = 16;

const _: () = assert!(mcpr_status::MCPR_INPUT_REQUIRED as u32 == MCPR_STATUS_MAX);

/// The name of a status, for logs: its enumerator's name (`"MCPR_OK"`,
/// `"MCPR_INVALID_REQUEST"`, ..., `"MCPR_INPUT_REQUIRED"`).
///
/// \param status An `mcpr_status` value (a plain integer, so that any value,
///   even one this version does not define, is defined behaviour).
/// \return A static NUL-terminated string, never NULL and never to be freed;
///   `"MCPR_UNKNOWN_STATUS"` for a value above `MCPR_STATUS_MAX` or negative.
/// \note Thread-safe: any thread.
///
/// \ingroup errors
#[no_mangle]
pub extern "C" fn mcpr_status_name(status: i32) -> *const std::os::raw::c_char {
    status_name(status).as_ptr().cast()
}

/// The NUL-terminated name of `status` (see [`mcpr_status_name`]).
pub(crate) fn status_name(status: i32) -> &'static [u8] {
    match status {
        0 => b"MCPR_OK\0",
        1 => b"MCPR_INVALID_REQUEST\0",
        2 => b"MCPR_UNAVAILABLE\0",
        3 => b"MCPR_INVALID_PLAN\0",
        4 => b"MCPR_POLICY\0",
        5 => b"MCPR_READ_FAILED\0",
        6 => b"MCPR_TIMEOUT\0",
        7 => b"MCPR_INVALID_CONTENT\0",
        8 => b"MCPR_BUDGET_EXCEEDED\0",
        9 => b"MCPR_CANCELED\0",
        10 => b"MCPR_DEADLINE_EXCEEDED\0",
        11 => b"MCPR_SIZE\0",
        12 => b"MCPR_INVALID_CONFIGURATION\0",
        13 => b"MCPR_INVALID_ARGUMENT\0",
        14 => b"MCPR_INTERNAL\0",
        15 => b"MCPR_METHOD_NOT_HANDLED\0",
        16 => b"MCPR_INPUT_REQUIRED\0",
        _ => b"MCPR_UNKNOWN_STATUS\0",
    }
}

/// An error on its way out of an export.
pub(crate) struct Error {
    pub(super) status: mcpr_status,
    pub(super) message: std::borrow::Cow<'static, str>,
    pub(super) cause: String,
    /// The JSON-RPC error object and its code, when the export made it for
    /// a request (revision and URI known).
    pub(super) rpc: Option<(i32, String)>,
    /// The `InputRequests` JSON of an input-required failure (empty: none).
    pub(super) input_requests: String,
}

impl Error {
    /// A programming error (`MCPR_INVALID_ARGUMENT`).
    pub(crate) fn argument(message: &'static str) -> Error {
        Error {
            status: mcpr_status::MCPR_INVALID_ARGUMENT,
            message: message.into(),
            cause: String::new(),
            rpc: None,
            input_requests: String::new(),
        }
    }

    /// An error of `status` with a safe message and no cause.
    pub(crate) fn with_status(status: mcpr_status, message: &'static str) -> Error {
        Error {
            status,
            message: message.into(),
            cause: String::new(),
            rpc: None,
            input_requests: String::new(),
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
            input_requests: String::new(),
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
}

impl From<Failure> for Error {
    fn from(f: Failure) -> Error {
        Error {
            status: mcpr_status::of_kind(f.kind()),
            message: f.message().to_string().into(),
            cause: f.cause_text(),
            rpc: None,
            input_requests: f.input_requests().map(|r| r.json()).unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_name_names_every_status_and_only_those() {
        use mcpr_status::*;
        let all = [
            MCPR_OK,
            MCPR_INVALID_REQUEST,
            MCPR_UNAVAILABLE,
            MCPR_INVALID_PLAN,
            MCPR_POLICY,
            MCPR_READ_FAILED,
            MCPR_TIMEOUT,
            MCPR_INVALID_CONTENT,
            MCPR_BUDGET_EXCEEDED,
            MCPR_CANCELED,
            MCPR_DEADLINE_EXCEEDED,
            MCPR_SIZE,
            MCPR_INVALID_CONFIGURATION,
            MCPR_INVALID_ARGUMENT,
            MCPR_INTERNAL,
            MCPR_METHOD_NOT_HANDLED,
            MCPR_INPUT_REQUIRED,
        ];
        assert_eq!(all.len() as u32, MCPR_STATUS_MAX + 1);
        for (i, s) in all.iter().enumerate() {
            assert_eq!(*s as i32, i as i32);
            let name = std::ffi::CStr::from_bytes_with_nul(status_name(*s as i32)).unwrap();
            assert_eq!(name.to_str().unwrap(), format!("{s:?}"));
        }
        for unknown in [MCPR_STATUS_MAX as i32 + 1, 1000, -1, i32::MIN, i32::MAX] {
            let name = std::ffi::CStr::from_bytes_with_nul(status_name(unknown)).unwrap();
            assert_eq!(name.to_str().unwrap(), "MCPR_UNKNOWN_STATUS");
        }
    }

    #[test]
    fn statuses_equal_the_failure_kinds() {
        for kind in FailureKind::all() {
            assert_eq!(mcpr_status::of_kind(kind) as u32, kind as u32);
        }
    }
}
