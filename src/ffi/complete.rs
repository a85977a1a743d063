//! Completion over the C ABI: `mcpr_complete`, the request view a
//! binding's `complete` callback receives, and the value builder it fills.

use std::sync::Mutex;

use super::boundary::{
    guard, guard_status, mcpr_error, mcpr_status, mcpr_str, need_out, write_out, Error,
};
use super::builder::mcpr_resources;
use super::callbacks::{definition_ptr, mcpr_definition};
use super::run::{mcpr_read_options, read_options_of, resources};
use crate::completion::{
    not_found, CompleteParams, CompletionRequest, CompletionResult, CompletionSink,
};
use crate::error::{Failure, FailureKind};

/// What a `complete` callback is asked (borrowed view, valid until the
/// callback returns; its accessors may be called from any thread while
/// the callback runs).
pub struct mcpr_completion_request {
    _private: [u8; 0],
}

/// The values a `complete` callback proposes (borrowed, valid until the
/// callback returns; the library copies every value). Internally locked:
/// the setters may be called from any thread while the callback runs, also
/// concurrently (values added concurrently keep no particular order).
pub struct mcpr_completion_builder {
    pub(super) state: Mutex<CompletionSink>,
}

/// One named argument of a completion request: `argument` (the variable
/// being completed and its partial value) or one entry of
/// `context.arguments` (a variable already chosen).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_complete_argument {
    /// The variable name.
    pub name: mcpr_str,
    /// The value (the partial value for the argument being completed).
    pub value: mcpr_str,
}

/// The client's input of `completion/complete` with a `ref/resource`
/// reference (copied by `mcpr_complete`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_complete_params {
    /// `ref.uri`: the template text, compared byte for byte with the
    /// registered `uriTemplate`s.
    pub template_uri: mcpr_str,
    /// `argument.name` and `argument.value`.
    pub argument: mcpr_complete_argument,
    /// `context.arguments`: `context_len` entries (NULL when 0), in any
    /// order; entries naming no other variable of the template are
    /// ignored, and so are empty values.
    pub context: *const mcpr_complete_argument,
    /// The number of entries at `context`.
    pub context_len: usize,
}

/// A completion result. Owned by the caller; free with
/// `mcpr_completion_free`. Immutable: safe to read from any thread.
pub struct mcpr_completion {
    inner: CompletionResult,
}

/// # Safety
/// `q` is NULL or a request view that is still valid.
unsafe fn request_ref<'a>(q: *const mcpr_completion_request) -> Option<&'a CompletionRequest> {
    // SAFETY: every `mcpr_completion_request` pointer is a cast
    // `&CompletionRequest`.
    unsafe { q.cast::<CompletionRequest>().as_ref() }
}

/// The template's definition (borrowed from `q`; NULL for NULL).
///
/// # Safety
/// `q` is NULL or the request view of a `complete` callback that has not
/// returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_definition(
    q: *const mcpr_completion_request,
) -> *const mcpr_definition {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { request_ref(q) }.map_or(std::ptr::null(), |q| definition_ptr(q.definition()))
    })
}

/// The variable being completed (always one of the template's variables).
/// Borrowed from `q`; empty for NULL.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_argument(
    q: *const mcpr_completion_request,
) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { request_ref(q) }.map_or(mcpr_str::empty(), |q| mcpr_str::from_str(q.argument()))
    })
}

/// The partial value typed so far: client text (UTF-8, at most
/// `max_uri_bytes`, possibly empty), to match candidates against, never a
/// path. Borrowed from `q`; empty for NULL.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_value(
    q: *const mcpr_completion_request,
) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { request_ref(q) }.map_or(mcpr_str::empty(), |q| mcpr_str::from_str(q.value()))
    })
}

/// The number of other variables already chosen (0 for NULL): only
/// variables of this template other than the argument, with non-empty
/// values that are valid captures, in template order.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_count(
    q: *const mcpr_completion_request,
) -> usize {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { request_ref(q) }.map_or(0, |q| q.context().len())
    })
}

/// The name of chosen variable `i` (empty when out of range). Borrowed
/// from `q`.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_name(
    q: *const mcpr_completion_request,
    i: usize,
) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { request_ref(q) }
            .and_then(|q| q.context().get(i))
            .map_or(mcpr_str::empty(), |(n, _)| mcpr_str::from_str(n))
    })
}

/// The value of chosen variable `i`, exactly as the client sent it (valid
/// UTF-8; it and its percent-decoding never contain `/`, `\` or NUL, nor
/// equal `.` or `..`). Empty when out of range. Borrowed from `q`.
///
/// # Safety
/// As for `mcpr_completion_request_definition`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_request_context_value(
    q: *const mcpr_completion_request,
    i: usize,
) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { request_ref(q) }
            .and_then(|q| q.context().get(i))
            .map_or(mcpr_str::empty(), |(_, v)| mcpr_str::from_str(v))
    })
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
        // SAFETY: `o` is NULL or a live completion builder (caller's guarantee).
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
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
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
        // SAFETY: `o` is NULL or a live completion builder (caller's guarantee).
        unsafe { builder_ref(o) }?.lock().set_total(total);
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
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
        // SAFETY: `o` is NULL or a live completion builder (caller's guarantee).
        unsafe { builder_ref(o) }?.lock().set_has_more(has_more);
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// The text of a client-supplied argument: invalid UTF-8 is
/// `MCPR_INVALID_REQUEST`.
///
/// # Safety
/// `s` follows the `mcpr_str` rules.
unsafe fn request_text(s: mcpr_str, what: &str) -> Result<String, Error> {
    // SAFETY: forwarded to the caller's guarantee.
    Ok(unsafe { s.text(FailureKind::InvalidRequest, what) }?.to_string())
}

/// Answers `completion/complete` for a `ref/resource` reference (a
/// `ref/prompt` is not this library's: the host answers it). In order:
/// `params.template_uri` must be a registered `uriTemplate`, byte for
/// byte (else `MCPR_UNAVAILABLE`, the same error as any not-found); the
/// policy's `discover` must allow that definition (a denial is the same
/// `MCPR_UNAVAILABLE`; a failure `MCPR_POLICY`); the argument must name
/// one of its variables, its value be at most `max_uri_bytes`, and each
/// context entry naming another variable be empty or a valid capture
/// (else `MCPR_INVALID_REQUEST`); then the binding's `complete` callback
/// runs (a binding without one answers an empty completion). Its values
/// that could not be a capture are dropped; at most 100 are sent, within
/// `max_page_bytes` minus 256, with `hasMore` and `total` set truthfully.
///
/// On success `*out` receives the result (owned by the caller, free with
/// `mcpr_completion_free`): send `mcpr_completion_json` as the JSON-RPC
/// `result`. It carries `"resultType":"complete"` on MCP 2026-07-28 (the
/// options' `protocol_revision`; empty = the newest), nothing of the kind
/// before, and never cache fields. On failure `mcpr_error_jsonrpc_json` is
/// the error object for that revision (not found: `-32602` on 2026-07-28,
/// `-32002` before, with `data.uri` the template URI asked for). `opt` is
/// NULL or read options: `timeout_ms`, `cancel`, `request_data` and
/// `executor` apply as for `mcpr_read`. Without an
/// executor the callbacks (`discover`, then `complete`) run on this
/// thread; with one they run there as one job and this call returns by
/// its deadline whatever they do (a callback still running is abandoned;
/// the tables stay alive until it returns); a saturated executor fails
/// the call at once with `MCPR_READ_FAILED` (cause "executor saturated").
/// Other errors: `MCPR_READ_FAILED` when the callback fails,
/// `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`; invalid UTF-8 in the
/// argument or context is `MCPR_INVALID_REQUEST`, in the template URI
/// `MCPR_UNAVAILABLE`.
///
/// Safe to call from many threads at once on one registry.
///
/// # Safety
/// `r` is NULL or a live registry reference; `params` is NULL or points at
/// params whose strings follow the `mcpr_str` rules and whose `context`
/// points at `context_len` entries (or is NULL with 0); `opt` is NULL or
/// points at options whose pointers are NULL or live; `out` and `err` are
/// NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_complete(
    r: *const mcpr_resources,
    params: *const mcpr_complete_params,
    opt: *const mcpr_read_options,
    out: *mut *mut mcpr_completion,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `r` is NULL or a live registry reference.
        let r = unsafe { resources(r) }?;
        need_out(out)?;
        // SAFETY: `params` is NULL or points at params.
        let p = unsafe { params.as_ref() }
            .ok_or_else(|| Error::argument("completion params are NULL"))?;
        let context: &[mcpr_complete_argument] = match (p.context.is_null(), p.context_len) {
            (_, 0) => &[],
            (true, _) => {
                return Err(Error::argument(
                    "completion context is NULL with a non-zero length",
                ))
            }
            (false, n) => {
                if n > isize::MAX as usize / std::mem::size_of::<mcpr_complete_argument>() {
                    return Err(Error::argument("completion context length is impossible"));
                }
                // SAFETY: `context` points at `context_len` entries
                // (caller's guarantee), checked non-null and sized.
                unsafe { std::slice::from_raw_parts(p.context, n) }
            }
        };
        // SAFETY: every string follows the `mcpr_str` rules.
        let template = unsafe { p.template_uri.bytes() }?;
        let mut params = CompleteParams {
            template: String::new(),
            // SAFETY: as above.
            argument: unsafe { request_text(p.argument.name, "completion argument name") }?,
            // SAFETY: as above.
            value: unsafe { request_text(p.argument.value, "completion argument value") }?,
            context: Vec::with_capacity(context.len()),
        };
        for a in context {
            // SAFETY: as above.
            let (name, value) = unsafe {
                (
                    request_text(a.name, "completion context name")?,
                    request_text(a.value, "completion context value")?,
                )
            };
            params.context.push((name, value));
        }
        // SAFETY: `opt` is NULL or points at options (caller's guarantee).
        let options = unsafe { read_options_of(opt) }?;
        let result = match std::str::from_utf8(template) {
            // Not UTF-8: it cannot be a registered template (and cannot be
            // echoed in `data.uri`).
            Err(_) => Err(Error::of_request(not_found(), options.revision, None)),
            Ok(t) => {
                params.template = t.to_string();
                r.inner
                    .complete(&params, &options)
                    .map_err(|f| Error::of_request(f, options.revision, Some(t)))
            }
        }?;
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe {
            write_out(
                out,
                Box::into_raw(Box::new(mcpr_completion { inner: result })),
            )
        };
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
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
        // SAFETY: `c` is NULL or live (caller's guarantee).
        unsafe { c.as_ref() }.map_or(mcpr_str::empty(), |c| mcpr_str::from_str(c.inner.json()))
    })
}

/// The number of values sent (0 for NULL).
///
/// # Safety
/// `c` is NULL or a live completion.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_value_count(c: *const mcpr_completion) -> usize {
    guard(|| {
        // SAFETY: `c` is NULL or live (caller's guarantee).
        unsafe { c.as_ref() }.map_or(0, |c| c.inner.values().len())
    })
}

/// Whether the result says `hasMore` (false for NULL).
///
/// # Safety
/// `c` is NULL or a live completion.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_has_more(c: *const mcpr_completion) -> bool {
    guard(|| {
        // SAFETY: `c` is NULL or live (caller's guarantee).
        unsafe { c.as_ref() }.is_some_and(|c| c.inner.has_more())
    })
}

/// Frees a completion. Accepts NULL.
///
/// # Safety
/// `c` is NULL or a completion from `mcpr_complete`, freed once.
#[no_mangle]
pub unsafe extern "C" fn mcpr_completion_free(c: *mut mcpr_completion) {
    guard(|| {
        if !c.is_null() {
            // SAFETY: `c` came from `Box::into_raw` and is freed once.
            drop(unsafe { Box::from_raw(c) });
        }
    })
}

/// Whether some binding of the registry has a `complete` callback: declare
/// the MCP `completions` capability only then. False for NULL. The call
/// holds its own registry reference from entry to return, as `mcpr_read`
/// does.
///
/// # Safety
/// `r` is NULL or a live registry reference when the call is made.
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_completes(r: *const mcpr_resources) -> bool {
    guard(|| {
        // SAFETY: `r` is NULL or live (caller's guarantee).
        unsafe { mcpr_resources::hold(r) }.is_some_and(|r| r.inner.completes())
    })
}
