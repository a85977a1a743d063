//! The panic boundary (`guard`, around every export) and the C string
//! (`mcpr_str`) every export reads and returns.
//!
//! Exports with an `err` out-parameter use `error::guard_status`, the same
//! guard that also writes the error object.

use crate::error::FailureKind;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::status::{mcpr_status, Error};

/// Borrowed bytes: a pointer and a length, not NUL-terminated.
///
/// As an argument, `(NULL, 0)` is the empty string and `(NULL, n > 0)` is
/// `MCPR_INVALID_ARGUMENT`; the library copies what it keeps and never
/// holds the pointer after the call returns. As a return value, `ptr` is
/// never NULL (an empty string points at a static empty byte string) and
/// the bytes are owned by the object the function was called on (print
/// with `printf("%.*s", (int)s.len, s.ptr)`).
///
/// \ingroup builder
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
/// Every export runs its whole body inside `guard` or
/// `error::guard_status`.
pub(crate) fn guard<T: PanicDefault>(f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| T::panic_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_returns_the_per_type_default_on_panic() {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        assert_eq!(
            guard(|| -> mcpr_status { panic!("boom") }),
            mcpr_status::MCPR_INTERNAL
        );
        assert!(guard(|| -> *mut u8 { panic!("boom") }).is_null());
        assert!(!guard(|| -> bool { panic!("boom") }));
        assert_eq!(guard(|| -> u64 { panic!("boom") }), 0);
        assert_eq!(guard(|| -> mcpr_str { panic!("boom") }).len, 0);
        std::panic::set_hook(quiet);
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
}
