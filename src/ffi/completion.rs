//! Completion values: the builder a `complete` callback fills and the
//! result handle (`mcpr_completion_*`).

use crate::completion::{CompletionResult, CompletionSink};
use crate::error::{Failure, FailureKind};
use std::sync::Mutex;

use super::boundary::{guard, guard_status, mcpr_status, mcpr_str};
use super::error::{mcpr_error, Error};
use super::handle::{free_handle, handle_ref};

/// The values a `complete` callback proposes (borrowed, valid until the
/// callback returns; the library copies every value). Internally locked:
/// the setters may be called from any thread while the callback runs, also
/// concurrently (values added concurrently keep no particular order).
pub struct mcpr_completion_builder {
    pub(super) state: Mutex<CompletionSink>,
}

/// A completion result. Owned by the caller; free with
/// `mcpr_completion_free`. Immutable: safe to read from any thread.
pub struct mcpr_completion {
    pub(super) inner: CompletionResult,
}

/// # Safety
/// `o` is NULL or a live completion builder.
unsafe fn builder_ref<'a>(
    o: *mut mcpr_completion_builder,
) -> Result<&'a mcpr_completion_builder, Error> {
    // SAFETY: the caller guarantees `o` is NULL or live; only shared
    // references are made (the contents are behind a mutex), so concurrent
    // calls from several threads are sound.
    unsafe { o.as_ref() }.ok_or_else(|| Error::argument("completion builder is NULL"))
}

impl mcpr_completion_builder {
    fn lock(&self) -> std::sync::MutexGuard<'_, CompletionSink> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Proposes one value (copied), in relevance order. `MCPR_OK` when the
/// value is valid: it is sent, or counted when it comes after the first
/// 100 values or past the byte budget (`max_page_bytes` minus 256; each
/// value costs its JSON string length plus one), which makes `hasMore`
/// true. `MCPR_INVALID_CONTENT` when it could not be a template capture
/// and is dropped: not UTF-8, empty, containing `/`, `\` or NUL or equal
/// to `.` or `..` (also after percent-decoding it once), or too long to
/// fit with the template's literal text in `max_uri_bytes`. A dropped
/// value does not spoil the others: the callback may go on and return
/// `MCPR_CB_OK`. `MCPR_INVALID_ARGUMENT` for a NULL builder or a bad
/// string.
///
/// # Safety
/// `o` is NULL or the builder of a `complete` callback that has not
/// returned; `value` follows the `mcpr_str` rules; `err` is NULL or valid
/// for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_add_value(
    o: *mut mcpr_completion_builder,
    value: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let o = unsafe { builder_ref(o) }?;
        // SAFETY: `value` follows the `mcpr_str` rules (caller's guarantee).
        let bytes = unsafe { value.bytes() }?;
        let mut sink = o.lock();
        let Ok(text) = std::str::from_utf8(bytes) else {
            sink.add_invalid();
            return Err(Error::from(Failure::with_message(
                FailureKind::InvalidContent,
                "completion value is not valid UTF-8",
            )));
        };
        match sink.add(text) {
            Ok(_) => Ok(()),
            Err(why) => Err(Error::from(Failure::with_message(
                FailureKind::InvalidContent,
                why.message(),
            ))),
        }
    };
    unsafe { guard_status(err, body) }
}

/// Sets the number of completion options available (may exceed the values
/// added; a later call replaces it). Values added but dropped are
/// subtracted from it, it is never reported below the valid values added,
/// and at most 2^53 - 1 is written; when it is no larger than the values
/// sent while more exist, it is left out. `MCPR_INVALID_ARGUMENT` for a
/// NULL builder.
///
/// # Safety
/// As for `mcpr_completion_add_value`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_set_total(
    o: *mut mcpr_completion_builder,
    total: u64,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        unsafe { builder_ref(o) }?.lock().set_total(total);
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Says whether more options exist than the values added (for when no
/// exact total is known; `hasMore` is also true whenever values were cut
/// off or the total exceeds the values sent). `MCPR_INVALID_ARGUMENT` for
/// a NULL builder.
///
/// # Safety
/// As for `mcpr_completion_add_value`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_set_has_more(
    o: *mut mcpr_completion_builder,
    has_more: bool,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        unsafe { builder_ref(o) }?.lock().set_has_more(has_more);
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// The MCP `CompleteResult` as compact JSON
/// (`{"completion":{"values":[…],"total":N,"hasMore":b},"resultType":"complete"}`,
/// `total` only when known). Owned by `c`; empty for NULL.
///
/// # Safety
/// `c` is NULL or a live completion.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_json(c: *const mcpr_completion) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(c) }.map_or(mcpr_str::empty(), |c| mcpr_str::from_str(c.inner.json()))
    })
}

/// The number of values sent (0 for NULL).
///
/// # Safety
/// `c` is NULL or a live completion.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_value_count(c: *const mcpr_completion) -> usize {
    guard(|| unsafe { handle_ref(c) }.map_or(0, |c| c.inner.values().len()))
}

/// Whether the result says `hasMore` (false for NULL).
///
/// # Safety
/// `c` is NULL or a live completion.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_has_more(c: *const mcpr_completion) -> bool {
    guard(|| unsafe { handle_ref(c) }.is_some_and(|c| c.inner.has_more()))
}

/// Frees a completion. Accepts NULL.
///
/// # Safety
/// `c` is NULL or a completion from `mcpr_complete`, freed once.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_free(c: *mut mcpr_completion) {
    guard(|| unsafe { free_handle(c) })
}
