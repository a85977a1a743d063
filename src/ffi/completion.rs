//! Completion values: the builder a `complete` callback fills and the
//! result handle (`mcpr_completion_*`).

use crate::completion::{CompletionResult, CompletionSink};
use crate::error::{Failure, FailureKind};
use std::sync::Mutex;

use super::boundary::{guard, mcpr_str};
use super::error::{guard_status, mcpr_error};
use super::handle::{free_handle, handle_ref, Boxed, Handle, Lent};
use super::status::{mcpr_status, Error};

/// The values a `complete` callback proposes (borrowed, valid until the
/// callback returns; the library copies every value). Internally locked:
/// the setters may be called from any thread while the callback runs, also
/// concurrently (values added concurrently keep no particular order).
///
/// \ingroup completion
pub struct mcpr_completion_builder {
    pub(super) state: Mutex<CompletionSink>,
}

/// A completion result. Owned by the caller; free with
/// `mcpr_completion_free`. Immutable: safe to read from any thread.
///
/// \ingroup completion
pub struct mcpr_completion {
    pub(super) inner: CompletionResult,
}

impl Handle for mcpr_completion_builder {
    type Kind = Lent;
}

impl Handle for mcpr_completion {
    type Kind = Boxed;
}

/// # Safety
/// `o` is NULL or a live completion builder.
unsafe fn builder_ref<'a>(
    o: *mut mcpr_completion_builder,
) -> Result<&'a mcpr_completion_builder, Error> {
    // Only shared references are made (the contents are behind a mutex),
    // so concurrent calls from several threads are sound.
    unsafe { handle_ref(o) }.ok_or_else(|| Error::argument("completion builder is NULL"))
}

impl mcpr_completion_builder {
    fn lock(&self) -> std::sync::MutexGuard<'_, CompletionSink> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Proposes one value (copied), in relevance order.
///
/// A valid value is sent, or only counted when it comes after the first 100
/// values or past the byte budget (`max_page_bytes` minus 256; each value
/// costs its JSON string length plus one), which makes `hasMore` true. A
/// value is what the client substitutes into `{var}`, RFC 6570-encoding it
/// (add `a b`, not `a%20b`); one that is no valid completion value is
/// dropped: not UTF-8, empty, containing `/`, a backslash or NUL, equal to
/// `.` or `..`, holding `%`, `?` or `#` (substituted without encoding it
/// would reach another resource), holding a control, format (bidi override,
/// zero-width) or line or paragraph separator character, or too long to fit,
/// encoded (three bytes per byte outside `A-Za-z0-9-._~`), with the
/// template's literal text in `max_uri_bytes` (BEHAVIOUR §13 rule 5). A
/// dropped value does not spoil the others: the callback may go on and
/// return `MCPR_CB_OK`.
///
/// \param completion_builder The builder of the `complete` callback.
/// \param value The value (UTF-8, not NUL-terminated).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` for a valid value; `MCPR_INVALID_CONTENT` for a dropped
///   one; `MCPR_INVALID_ARGUMENT` for a NULL builder or a `(NULL, n > 0)`
///   string.
/// \pre `value` follows the `mcpr_str` rules.
/// \pre `completion_builder` is NULL or the builder the library passed to a
///   `complete` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the setters, also concurrently,
///   while the callback runs.
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_add_value(
    completion_builder: *mut mcpr_completion_builder,
    value: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let completion_builder = unsafe { builder_ref(completion_builder) }?;
        let bytes = unsafe { value.bytes() }?;
        let mut sink = completion_builder.lock();
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

/// Sets the number of completion options available, which may exceed the
/// values added (a later call replaces it). Values added but dropped are
/// subtracted from it; it is never reported below the valid values added,
/// at most 2^53 - 1 is written, and it is left out when it is no larger than
/// the values sent while more exist.
///
/// \param completion_builder The builder of the `complete` callback.
/// \param total The number of options available.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL builder.
/// \pre `completion_builder` is NULL or the builder the library passed to a
///   `complete` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the setters, also concurrently,
///   while the callback runs.
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_set_total(
    completion_builder: *mut mcpr_completion_builder,
    total: u64,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        unsafe { builder_ref(completion_builder) }?
            .lock()
            .set_total(total);
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Says whether more options exist than the values added, for when no exact
/// total is known. `hasMore` is also true whenever values were cut off or
/// the total exceeds the values sent.
///
/// \param completion_builder The builder of the `complete` callback.
/// \param has_more Whether more options exist.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL builder.
/// \pre `completion_builder` is NULL or the builder the library passed to a
///   `complete` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the setters, also concurrently,
///   while the callback runs.
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_set_has_more(
    completion_builder: *mut mcpr_completion_builder,
    has_more: bool,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        unsafe { builder_ref(completion_builder) }?
            .lock()
            .set_has_more(has_more);
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// The MCP `CompleteResult` as compact JSON
/// (`{"completion":{"values":[…],"total":N,"hasMore":b},"resultType":"complete"}`;
/// `total` only when known, `resultType` only on 2026-07-28): send it as the
/// JSON-RPC `result`.
///
/// \param completion The completion, or NULL.
/// \return The JSON, borrowed from `completion` (valid until
///   `mcpr_completion_free(completion)`); empty when `completion` is NULL.
/// \pre `completion` is NULL or a completion from `mcpr_complete`, not yet
///   freed.
/// \note Thread-safe: a completion is immutable; any thread may read it, also
///   concurrently.
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_json(completion: *const mcpr_completion) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(completion) }.map_or(mcpr_str::empty(), |completion| {
            mcpr_str::from_str(completion.inner.json())
        })
    })
}

/// The number of values sent.
///
/// \param completion The completion, or NULL.
/// \return The count; 0 when `completion` is NULL.
/// \pre `completion` is NULL or a completion from `mcpr_complete`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_completion_json`).
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_value_count(completion: *const mcpr_completion) -> usize {
    guard(|| {
        unsafe { handle_ref(completion) }.map_or(0, |completion| completion.inner.values().len())
    })
}

/// Whether the result says `hasMore`.
///
/// \param completion The completion, or NULL.
/// \return The flag; false when `completion` is NULL.
/// \pre `completion` is NULL or a completion from `mcpr_complete`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_completion_json`).
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_has_more(completion: *const mcpr_completion) -> bool {
    guard(|| {
        unsafe { handle_ref(completion) }.is_some_and(|completion| completion.inner.has_more())
    })
}

/// Frees a completion.
///
/// \param completion The completion to free, or NULL (then nothing happens).
/// \pre `completion` is NULL or a completion from `mcpr_complete`, freed only
///   once; no thread uses it (or a string borrowed from it) afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_free(completion: *mut mcpr_completion) {
    guard(|| unsafe { free_handle(completion) })
}
