//! The panic boundary, strings, status codes and limit identifiers.

use crate::error::FailureKind;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::error::{mcpr_error, Error};
use super::handle::new_handle;

/// Borrowed bytes: a pointer and a length, not NUL-terminated.
///
/// As an argument, `(NULL, 0)` is the empty string and `(NULL, n > 0)` is
/// `MCPR_INVALID_ARGUMENT`; the library copies what it keeps and never
/// holds the pointer after the call returns. As a return value, `ptr` is
/// never NULL (an empty string points at a static empty byte string) and
/// the bytes are owned by the object the function was called on (print
/// with `printf("%.*s", (int)s.len, s.ptr)`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcpr_str {
    /// The first byte (may be NULL only when `len` is 0).
    pub ptr: *const c_char,
    /// The number of bytes.
    pub len: usize,
}

impl mcpr_str {
    /// A view of `s`, valid as long as `s` is.
    pub(crate) fn from_str(s: &str) -> mcpr_str {
        Self::from_bytes(s.as_bytes())
    }

    /// A view of `b`, valid as long as `b` is.
    pub(crate) fn from_bytes(b: &[u8]) -> mcpr_str {
        if b.is_empty() {
            return mcpr_str::empty();
        }
        mcpr_str {
            ptr: b.as_ptr().cast(),
            len: b.len(),
        }
    }

    /// The empty string (pointing at a static empty byte string).
    pub(crate) fn empty() -> mcpr_str {
        mcpr_str {
            ptr: c"".as_ptr(),
            len: 0,
        }
    }

    /// The bytes of a C argument.
    ///
    /// # Safety
    /// When `ptr` is not NULL it must point at `len` readable bytes that stay
    /// valid and unmodified for `'a`.
    pub(crate) unsafe fn bytes<'a>(self) -> Result<&'a [u8], Error> {
        if self.len > isize::MAX as usize {
            return Err(Error::argument("string length is impossible"));
        }
        if self.ptr.is_null() {
            if self.len == 0 {
                return Ok(&[]);
            }
            return Err(Error::argument(
                "string pointer is NULL with a non-zero length",
            ));
        }
        // SAFETY: `ptr` is non-null, `len <= isize::MAX`, and the caller
        // guarantees `len` readable bytes valid for `'a`.
        Ok(unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) })
    }

    /// The text of a C argument; invalid UTF-8 is an error of `kind`.
    ///
    /// # Safety
    /// As for [`mcpr_str::bytes`].
    pub(crate) unsafe fn text<'a>(self, kind: FailureKind, what: &str) -> Result<&'a str, Error> {
        // SAFETY: forwarded to the caller's guarantee.
        let b = unsafe { self.bytes() }?;
        if all_ascii(b) {
            // SAFETY: ASCII is valid UTF-8 (this vectorised check is several
            // times faster than full validation on the common ASCII text).
            return Ok(unsafe { std::str::from_utf8_unchecked(b) });
        }
        std::str::from_utf8(b).map_err(|_| Error::not_utf8(kind, what))
    }
}

/// Whether every byte is ASCII: a branch-free OR reduction that the
/// compiler vectorises (faster than `<[u8]>::is_ascii` on short texts).
#[inline]
fn all_ascii(b: &[u8]) -> bool {
    b.iter().fold(0u8, |acc, &x| acc | x) < 0x80
}

/// Status of every fallible call. The values are explicit and never reused;
/// `1` to `13` are also the failure kinds of the library's Rust interface.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcpr_status {
    /// Success.
    MCPR_OK = 0,
    /// Malformed request: bad identifier, empty URI, ambiguous selection,
    /// bad capture, bad or foreign cursor.
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
        }
    }
}

/// What a C callback returns: one of `MCPR_CB_OK`, `MCPR_CB_UNAVAILABLE`,
/// `MCPR_CB_FAILED`, `MCPR_CB_INVALID_CONTENT`. It is a plain integer so
/// that any value a callback returns is defined behaviour: every other
/// value counts as `MCPR_CB_FAILED`.
pub type mcpr_cb_result = u32;

// The `u32` suffixes make cbindgen write `0u`, `1u`, ...: unsigned int, the
// type of uint32_t (the typedef), so that C++ (`decltype`) and Swift see one
// type for the constants and the values they are compared with, not int
// (c-tests/header_cxx.cpp asserts it). A cast would carry the typedef's
// name but warns under -Wold-style-cast in C++.
/// The callback succeeded.
pub const MCPR_CB_OK: mcpr_cb_result = 0u32;

/// A typed denial / not found (`discover` and policy `read`: denial;
/// `resolve`: root denial; body `read`: an `unavailable` issue).
pub const MCPR_CB_UNAVAILABLE: mcpr_cb_result = 1u32;

/// An operational failure; its private cause is the text given to
/// `mcpr_call_set_cause`, or a fixed text when none was set.
pub const MCPR_CB_FAILED: mcpr_cb_result = 2u32;

/// The content the callback produced is invalid. From a body `read`: the
/// item becomes an `invalid_content` issue (the private cause is the text
/// given to `mcpr_call_set_cause`, or a fixed text). From every other
/// callback it is a failure like `MCPR_CB_FAILED` (`discover`,
/// `visibility`, policy `read`: `MCPR_POLICY`; `resolve`:
/// `MCPR_INVALID_PLAN`; `complete`: `MCPR_READ_FAILED`).
pub const MCPR_CB_INVALID_CONTENT: mcpr_cb_result = 3u32;

/// The highest `mcpr_status` value this version of the library defines
/// (`MCPR_METHOD_NOT_HANDLED`); values above it are unknown to it.
pub const MCPR_STATUS_MAX: u32 = 15;

const _: () = assert!(mcpr_status::MCPR_METHOD_NOT_HANDLED as u32 == MCPR_STATUS_MAX);

/// The name of a status, for logs: its enumerator's name (`"MCPR_OK"`,
/// `"MCPR_INVALID_REQUEST"`, ..., `"MCPR_METHOD_NOT_HANDLED"`).
///
/// \param status An `mcpr_status` value (a plain integer, so that any value,
///   even one this version does not define, is defined behaviour).
/// \return A static NUL-terminated string, never NULL and never to be freed;
///   `"MCPR_UNKNOWN_STATUS"` for a value above `MCPR_STATUS_MAX` or negative.
/// \note Thread-safe: any thread.
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
        _ => b"MCPR_UNKNOWN_STATUS\0",
    }
}

/// A configurable limit (one per row of docs/BEHAVIOUR.md §7; timeouts in
/// milliseconds). A plain integer so that an unknown value is reported as
/// `MCPR_INVALID_ARGUMENT` rather than being undefined behaviour.
pub type mcpr_limit = u32;

// The `u32` suffixes make cbindgen write `0u`, `1u`, ...: unsigned int, the
// type of uint32_t (the typedef), so that C++ (`decltype`) and Swift see one
// type for the constants and the values they are compared with, not int
// (c-tests/header_cxx.cpp asserts it). A cast would carry the typedef's
// name but warns under -Wold-style-cast in C++.
/// Longest accepted identifier, in bytes (default 2048, at least 51).
pub const MCPR_LIMIT_MAX_URI_BYTES: mcpr_limit = 1u32;

/// Most items in one plan, the requested target not counted (default 1024).
pub const MCPR_LIMIT_MAX_PLAN_TARGETS: mcpr_limit = 2u32;

/// Most items admitted into one read result (default 64).
pub const MCPR_LIMIT_MAX_ITEMS: mcpr_limit = 3u32;

/// Largest payload of one item: text bytes or raw blob bytes (default 8 MiB).
pub const MCPR_LIMIT_MAX_ITEM_BYTES: mcpr_limit = 4u32;

/// Aggregate payload bytes of one read (default 32 MiB).
pub const MCPR_LIMIT_MAX_PAYLOAD_BYTES: mcpr_limit = 5u32;

/// Aggregate encoded bytes of one read result (default 48 MiB).
pub const MCPR_LIMIT_MAX_ENCODED_BYTES: mcpr_limit = 6u32;

/// Payload space reserved for the warning text (default 4 KiB, at least 256).
pub const MCPR_LIMIT_REPORT_PAYLOAD_BYTES: mcpr_limit = 7u32;

/// Encoded space reserved for warning and report (default 16 KiB, at least 1 KiB).
pub const MCPR_LIMIT_REPORT_ENCODED_BYTES: mcpr_limit = 8u32;

/// Most detailed issues in a report (default 32).
pub const MCPR_LIMIT_MAX_ISSUES: mcpr_limit = 9u32;

/// Whole-read timeout in milliseconds (default 30000).
pub const MCPR_LIMIT_READ_TIMEOUT_MS: mcpr_limit = 10u32;

/// Per-item timeout in milliseconds (default 10000).
pub const MCPR_LIMIT_ITEM_TIMEOUT_MS: mcpr_limit = 11u32;

/// Page size when the caller asks for none (default 50).
pub const MCPR_LIMIT_DEFAULT_PAGE_SIZE: mcpr_limit = 12u32;

/// Largest page size a caller may ask for (default 500).
pub const MCPR_LIMIT_MAX_PAGE_SIZE: mcpr_limit = 13u32;

/// Encoded bytes of one list page (default 1 MiB).
pub const MCPR_LIMIT_MAX_PAGE_BYTES: mcpr_limit = 14u32;

/// The value an export returns when a panic is caught.
pub(crate) trait PanicDefault {
    fn panic_default() -> Self;
}

impl PanicDefault for mcpr_status {
    fn panic_default() -> Self {
        mcpr_status::MCPR_INTERNAL
    }
}

impl<T> PanicDefault for *mut T {
    fn panic_default() -> Self {
        std::ptr::null_mut()
    }
}

impl<T> PanicDefault for *const T {
    fn panic_default() -> Self {
        std::ptr::null()
    }
}

impl PanicDefault for bool {
    fn panic_default() -> Self {
        false
    }
}

impl PanicDefault for u64 {
    fn panic_default() -> Self {
        0
    }
}

impl PanicDefault for u32 {
    fn panic_default() -> Self {
        0
    }
}

impl PanicDefault for usize {
    fn panic_default() -> Self {
        0
    }
}

impl PanicDefault for i32 {
    fn panic_default() -> Self {
        0
    }
}

impl PanicDefault for () {
    fn panic_default() -> Self {}
}

impl PanicDefault for mcpr_str {
    fn panic_default() -> Self {
        mcpr_str::empty()
    }
}

/// The panic boundary: runs `f`, returning its value, or the type's default
/// (`MCPR_INTERNAL`, NULL, false, 0, the empty string) when it panics.
/// Every export runs its whole body inside `guard` or [`guard_status`].
pub(crate) fn guard<T: PanicDefault>(f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| T::panic_default())
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
        },
    };
    let status = result.status;
    if !err.is_null() {
        let object = guard(|| new_handle(result.into_object()));
        // SAFETY: `err` is non-null and the caller guarantees it is valid for
        // one pointer write.
        unsafe { err.write(object) };
    }
    status
}

/// The library's version (the crate version, `"MAJOR.MINOR.PATCH"`), for
/// comparing the library a program runs with against the header it was
/// compiled with (`MCPR_VERSION_MAJOR`, `MCPR_VERSION_MINOR`,
/// `MCPR_VERSION_PATCH`).
///
/// \return A static NUL-terminated string, never NULL and never to be freed.
/// \note Thread-safe: any thread.
#[no_mangle]
pub extern "C" fn mcpr_version() -> *const c_char {
    guard(|| {
        const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
        VERSION.as_ptr().cast()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::all::*;

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
    fn guard_returns_the_per_type_default_on_panic() {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        assert_eq!(
            guard(|| -> mcpr_status { panic!("boom") }),
            mcpr_status::MCPR_INTERNAL
        );
        assert!(guard(|| -> *mut mcpr_error { panic!("boom") }).is_null());
        assert!(!guard(|| -> bool { panic!("boom") }));
        assert_eq!(guard(|| -> u64 { panic!("boom") }), 0);
        assert_eq!(guard(|| -> mcpr_str { panic!("boom") }).len, 0);
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

    #[test]
    fn strings_follow_the_null_length_rules() {
        let empty = mcpr_str {
            ptr: std::ptr::null(),
            len: 0,
        };
        let null_len = mcpr_str {
            ptr: std::ptr::null(),
            len: 3,
        };
        let huge = mcpr_str {
            ptr: c"x".as_ptr(),
            len: usize::MAX,
        };
        // SAFETY: the non-null pointers are only dereferenced when the
        // length is plausible, which these cases are not.
        unsafe {
            assert_eq!(empty.bytes().ok(), Some(&[][..]));
            assert_eq!(
                null_len.bytes().err().map(|e| e.status),
                Some(mcpr_status::MCPR_INVALID_ARGUMENT)
            );
            assert_eq!(
                huge.bytes().err().map(|e| e.status),
                Some(mcpr_status::MCPR_INVALID_ARGUMENT)
            );
            let bad = mcpr_str {
                ptr: c"\xff".as_ptr(),
                len: 1,
            };
            assert_eq!(
                bad.text(FailureKind::InvalidContent, "text")
                    .err()
                    .map(|e| e.status),
                Some(mcpr_status::MCPR_INVALID_CONTENT)
            );
        }
    }

    #[test]
    fn statuses_equal_the_failure_kinds() {
        for kind in FailureKind::all() {
            assert_eq!(mcpr_status::of_kind(kind) as u32, kind as u32);
        }
    }
}
