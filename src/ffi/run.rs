//! Executors, cancellation tokens, reads and listings.

use std::os::raw::c_void;
use std::sync::Arc;
use std::time::Duration;

use super::boundary::{
    guard, guard_status, mcpr_error, mcpr_status, mcpr_str, need_out, write_out, Error,
};
use super::builder::mcpr_resources;
use super::callbacks::HostPtr;
use crate::executor::Executor;
use crate::listing::{ListOptions, Page};
use crate::read::{ReadOptions, ResourceBundle};
use crate::scope::{CancelToken, RequestData};

/// A worker pool for body reads, created by the host and shareable by many
/// registries and reads at once (any thread). Free with
/// `mcpr_executor_free`.
pub struct mcpr_executor {
    inner: Executor,
}

/// A cancellation token. `mcpr_cancel_cancel` is safe from any thread at
/// any time, including while reads using it run on other threads. Free
/// with `mcpr_cancel_free`.
pub struct mcpr_cancel {
    inner: CancelToken,
}

/// A read result. Owned by the caller; free with `mcpr_bundle_free`.
/// Immutable: safe to read from any thread.
pub struct mcpr_bundle {
    inner: ResourceBundle,
}

/// A list page. Owned by the caller; free with `mcpr_page_free`.
/// Immutable: safe to read from any thread.
pub struct mcpr_page {
    inner: Page,
}

/// Per-call options of `mcpr_read`. NULL options mean all defaults. The
/// library copies what it needs before `mcpr_read` returns.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_read_options {
    /// Caller deadline in milliseconds from the start of the call (0 = only
    /// the registry's `read_timeout`).
    pub timeout_ms: u64,
    /// Optional cancellation token (the read keeps its own reference, so
    /// the token may be freed once `mcpr_read` returns).
    pub cancel: *const mcpr_cancel,
    /// Handed to every callback of this read via `mcpr_call_request_data`,
    /// possibly on executor threads; never dereferenced by the library.
    /// With an executor, a body reader abandoned at its item deadline (or
    /// on cancellation) keeps running after `mcpr_read` returns and still
    /// sees this pointer: whatever such a reader reaches through it must
    /// stay valid until the reader returns (for example, reference-count it
    /// and let the reader drop its reference), or body readers must not use
    /// it.
    pub request_data: *mut c_void,
    /// Optional worker pool for body reads (NULL = body reads run inline on
    /// the calling thread, and item timeouts only take effect when readers
    /// honour `mcpr_call_is_canceled`).
    pub executor: *const mcpr_executor,
}

/// Per-call options of `mcpr_list` and `mcpr_list_templates` (required).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_list_options {
    /// Opaque caller scope (required, non-empty, else
    /// `MCPR_INVALID_REQUEST`); cursors are bound to a hash of these bytes.
    pub scope_key: mcpr_str,
    /// The previous page's next cursor; `ptr` NULL or `len` 0 = first page.
    pub cursor: mcpr_str,
    /// Requested page size (0 = `default_page_size`; clamped to
    /// `max_page_size`).
    pub page_size: u32,
    /// Caller deadline in milliseconds (0 = only the registry's
    /// `read_timeout`).
    pub timeout_ms: u64,
    /// Optional cancellation token.
    pub cancel: *const mcpr_cancel,
    /// Handed to every policy callback of this call via
    /// `mcpr_call_request_data`.
    pub request_data: *mut c_void,
}

/// Most workers `mcpr_executor_new` accepts (a larger count is
/// `MCPR_INVALID_ARGUMENT`).
pub const MCPR_MAX_EXECUTOR_THREADS: usize = 1024;

/// A new executor with `threads` workers (0 = the available cores, at least
/// 2; more than `MCPR_MAX_EXECUTOR_THREADS` is `MCPR_INVALID_ARGUMENT`).
/// On success `*out` receives it (owned by the caller, free with
/// `mcpr_executor_free`).
///
/// # Safety
/// `out` is NULL or valid for one write; `err` is NULL or valid for one
/// write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_new(
    threads: usize,
    out: *mut *mut mcpr_executor,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        need_out(out)?;
        if threads > MCPR_MAX_EXECUTOR_THREADS {
            return Err(Error::argument(
                "executor thread count is impossible (at most 1024)",
            ));
        }
        let inner = Executor::new(threads)?;
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe { write_out(out, Box::into_raw(Box::new(mcpr_executor { inner }))) };
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Frees an executor handle. Does not wait for running callbacks: reads in
/// flight keep the pool alive until they return; abandoned readers finish
/// on their own. Accepts NULL.
///
/// # Safety
/// `e` is NULL or an executor from `mcpr_executor_new`, freed once, and no
/// `mcpr_read` call that is given it starts after this.
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_free(e: *mut mcpr_executor) {
    guard(|| {
        if !e.is_null() {
            // SAFETY: `e` came from `Box::into_raw` and is freed once.
            drop(unsafe { Box::from_raw(e) });
        }
    })
}

/// A new, uncancelled token, owned by the caller (free with
/// `mcpr_cancel_free`). NULL only on a caught panic.
#[no_mangle]
pub extern "C" fn mcpr_cancel_new() -> *mut mcpr_cancel {
    guard(|| {
        Box::into_raw(Box::new(mcpr_cancel {
            inner: CancelToken::new(),
        }))
    })
}

/// Cancels the token (idempotent). Safe from any thread at any time while
/// the handle is alive; reads and listings using it stop with
/// `MCPR_CANCELED`, and callbacks see `mcpr_call_is_canceled` true.
/// Ignores NULL.
///
/// # Safety
/// `c` is NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_cancel(c: *const mcpr_cancel) {
    guard(|| {
        // SAFETY: `c` is NULL or live (caller's guarantee).
        if let Some(c) = unsafe { c.as_ref() } {
            c.inner.cancel();
        }
    })
}

/// Whether the token was cancelled (false for NULL). Any thread.
///
/// # Safety
/// `c` is NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_is_canceled(c: *const mcpr_cancel) -> bool {
    guard(|| {
        // SAFETY: `c` is NULL or live (caller's guarantee).
        unsafe { c.as_ref() }.is_some_and(|c| c.inner.is_canceled())
    })
}

/// Frees a token handle. Calls in flight that were given it keep their own
/// reference. Accepts NULL.
///
/// # Safety
/// `c` is NULL or a token from `mcpr_cancel_new`, freed once, not used by
/// any thread afterwards.
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_free(c: *mut mcpr_cancel) {
    guard(|| {
        if !c.is_null() {
            // SAFETY: `c` came from `Box::into_raw` and is freed once.
            drop(unsafe { Box::from_raw(c) });
        }
    })
}

pub(super) fn timeout(ms: u64) -> Option<Duration> {
    (ms > 0).then(|| Duration::from_millis(ms))
}

/// # Safety
/// `c` is NULL or a live token.
pub(super) unsafe fn cancel_of(c: *const mcpr_cancel) -> Option<CancelToken> {
    // SAFETY: `c` is NULL or live (caller's guarantee).
    unsafe { c.as_ref() }.map(|c| c.inner.clone())
}

pub(super) fn request_data(p: *mut c_void) -> Option<RequestData> {
    (!p.is_null()).then(|| Arc::new(HostPtr(p)) as RequestData)
}

/// # Safety
/// `r` is NULL or a live registry reference.
pub(super) unsafe fn resources<'a>(r: *const mcpr_resources) -> Result<&'a mcpr_resources, Error> {
    // SAFETY: `r` is NULL or live (caller's guarantee).
    unsafe { r.as_ref() }.ok_or_else(|| Error::argument("registry is NULL"))
}

/// Reads the resource bundle of `uri` (the raw bytes of the request's
/// `params.uri`): validation, selection, the policy sequence, body reads
/// under budgets and deadlines, the recheck and assembly. On success `*out`
/// receives the bundle (owned by the caller, free with `mcpr_bundle_free`);
/// a usable partial bundle is a success with `mcpr_bundle_is_partial` true.
/// On failure no bundle is made and `*err` (when `err` is not NULL)
/// receives the error: send its message and JSON-RPC code to the client,
/// log its cause.
///
/// Safe to call from many threads at once on one registry. Callbacks run
/// on this thread, and body reads on the executor's workers when one is
/// given.
///
/// # Safety
/// `r` is NULL or a live registry reference; `uri` follows the `mcpr_str`
/// rules; `opt` is NULL or points at options whose pointers are NULL or
/// live; `out` and `err` are NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_read(
    r: *const mcpr_resources,
    uri: mcpr_str,
    opt: *const mcpr_read_options,
    out: *mut *mut mcpr_bundle,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `r` is NULL or a live registry reference.
        let r = unsafe { resources(r) }?;
        need_out(out)?;
        // SAFETY: `uri` follows the `mcpr_str` rules.
        let uri = unsafe { uri.bytes() }?;
        let mut options = ReadOptions::default();
        // SAFETY: `opt` is NULL or points at options.
        if let Some(o) = unsafe { opt.as_ref() } {
            options.timeout = timeout(o.timeout_ms);
            // SAFETY: `o.cancel` is NULL or a live token.
            options.cancel = unsafe { cancel_of(o.cancel) };
            options.request_data = request_data(o.request_data);
            // SAFETY: `o.executor` is NULL or a live executor.
            options.executor = unsafe { o.executor.as_ref() }.map(|e| e.inner.clone());
        }
        let bundle = r.inner.read(uri, &options)?;
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe { write_out(out, Box::into_raw(Box::new(mcpr_bundle { inner: bundle }))) };
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// The MCP `resources/read` result JSON (send it as the JSON-RPC
/// `result`). Owned by `b`, valid until `mcpr_bundle_free(b)`. Empty for
/// NULL.
///
/// # Safety
/// `b` is NULL or a live bundle.
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_json(b: *const mcpr_bundle) -> mcpr_str {
    guard(|| {
        // SAFETY: `b` is NULL or live (caller's guarantee).
        unsafe { b.as_ref() }.map_or(mcpr_str::empty(), |b| mcpr_str::from_str(b.inner.json()))
    })
}

/// Whether the bundle is partial (its first item is then the diagnostic
/// warning). False for NULL.
///
/// # Safety
/// `b` is NULL or a live bundle.
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_is_partial(b: *const mcpr_bundle) -> bool {
    guard(|| {
        // SAFETY: `b` is NULL or live (caller's guarantee).
        unsafe { b.as_ref() }.is_some_and(|b| b.inner.is_partial())
    })
}

/// Frees a bundle. Accepts NULL.
///
/// # Safety
/// `b` is NULL or a bundle from `mcpr_read`, freed once.
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_free(b: *mut mcpr_bundle) {
    guard(|| {
        if !b.is_null() {
            // SAFETY: `b` came from `Box::into_raw` and is freed once.
            drop(unsafe { Box::from_raw(b) });
        }
    })
}

/// # Safety
/// As for `mcpr_list`.
unsafe fn list_with(
    r: *const mcpr_resources,
    opt: *const mcpr_list_options,
    out: *mut *mut mcpr_page,
    err: *mut *mut mcpr_error,
    templates: bool,
) -> mcpr_status {
    let body = || {
        // SAFETY: `r` is NULL or a live registry reference.
        let r = unsafe { resources(r) }?;
        need_out(out)?;
        // SAFETY: `opt` is NULL or points at options.
        let o = unsafe { opt.as_ref() }.ok_or_else(|| Error::argument("list options are NULL"))?;
        // SAFETY: both strings follow the `mcpr_str` rules.
        let (scope_key, cursor) = unsafe { (o.scope_key.bytes()?, o.cursor.bytes()?) };
        let options = ListOptions {
            scope_key: scope_key.to_vec(),
            cursor: (!cursor.is_empty()).then(|| cursor.to_vec()),
            page_size: o.page_size,
            timeout: timeout(o.timeout_ms),
            // SAFETY: `o.cancel` is NULL or a live token.
            cancel: unsafe { cancel_of(o.cancel) },
            request_data: request_data(o.request_data),
        };
        let page = if templates {
            r.inner.list_templates(&options)?
        } else {
            r.inner.list(&options)?
        };
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe { write_out(out, Box::into_raw(Box::new(mcpr_page { inner: page }))) };
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// One page of `resources/list` (registered exact URIs in URI then name
/// order, each page rechecking `discover`). On success `*out` receives the
/// page (owned by the caller, free with `mcpr_page_free`). Invalid,
/// expired, cross-method, cross-registry, cross-scope or oversized cursors
/// fail with `MCPR_INVALID_REQUEST` (never restarting at page one). Safe
/// to call from many threads at once; policy callbacks run on this thread.
///
/// # Safety
/// `r` is NULL or a live registry reference; `opt` is NULL or points at
/// options whose strings follow the `mcpr_str` rules and whose pointers are
/// NULL or live; `out` and `err` are NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_list(
    r: *const mcpr_resources,
    opt: *const mcpr_list_options,
    out: *mut *mut mcpr_page,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // SAFETY: forwarded to the caller's guarantees.
    unsafe { list_with(r, opt, out, err, false) }
}

/// One page of `resources/templates/list` (registered templates in
/// template then name order). Same rules as `mcpr_list`; cursors of one
/// method are refused by the other.
///
/// # Safety
/// As for `mcpr_list`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_templates(
    r: *const mcpr_resources,
    opt: *const mcpr_list_options,
    out: *mut *mut mcpr_page,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // SAFETY: forwarded to the caller's guarantees.
    unsafe { list_with(r, opt, out, err, true) }
}

/// The MCP list result JSON (`{"resources":[...],"nextCursor":...}` or
/// `{"resourceTemplates":[...]}`). Owned by `p`, valid until
/// `mcpr_page_free(p)`. Empty for NULL.
///
/// # Safety
/// `p` is NULL or a live page.
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_json(p: *const mcpr_page) -> mcpr_str {
    guard(|| {
        // SAFETY: `p` is NULL or live (caller's guarantee).
        unsafe { p.as_ref() }.map_or(mcpr_str::empty(), |p| mcpr_str::from_str(p.inner.json()))
    })
}

/// The cursor of the next page (also in the JSON as `nextCursor`); length 0
/// on the last page and for NULL. Owned by `p`.
///
/// # Safety
/// `p` is NULL or a live page.
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_next_cursor(p: *const mcpr_page) -> mcpr_str {
    guard(|| {
        // SAFETY: `p` is NULL or live (caller's guarantee).
        unsafe { p.as_ref() }
            .and_then(|p| p.inner.next_cursor())
            .map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

/// Frees a page. Accepts NULL.
///
/// # Safety
/// `p` is NULL or a page from `mcpr_list` / `mcpr_list_templates`, freed
/// once.
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_free(p: *mut mcpr_page) {
    guard(|| {
        if !p.is_null() {
            // SAFETY: `p` came from `Box::into_raw` and is freed once.
            drop(unsafe { Box::from_raw(p) });
        }
    })
}
