//! Executors, cancellation tokens, reads and listings.

use std::os::raw::c_void;
use std::sync::Arc;
use std::time::Duration;

use super::boundary::{
    guard, guard_status, mcpr_error, mcpr_status, mcpr_str, need_out, write_out, Error,
};
use super::builder::mcpr_resources;
use super::callbacks::HostPtr;
use crate::executor::{Executor, ExecutorOptions};
use crate::listing::{ListOptions, Page};
use crate::protocol::ProtocolRevision;
use crate::read::{ReadOptions, ResourceBundle};
use crate::scope::{CancelToken, RequestData};

/// A worker pool running the callbacks of reads and listings, created by
/// the host and shareable by many registries, reads and listings at once
/// (any thread). A call given an executor returns by its deadline whatever
/// its callbacks do (see `mcpr_read`). Free with `mcpr_executor_free`.
pub struct mcpr_executor {
    pub(super) inner: Executor,
}

/// A cancellation token. `mcpr_cancel_cancel` is safe from any thread at
/// any time, including while reads using it run on other threads. Free
/// with `mcpr_cancel_free`.
pub struct mcpr_cancel {
    pub(super) inner: CancelToken,
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
    /// Optional worker pool running this read's callbacks. NULL = every
    /// callback runs inline on the calling thread, and the read and item
    /// deadlines only take effect between callbacks and through callbacks
    /// that honour `mcpr_call_is_canceled`. With an executor, `mcpr_read`
    /// returns by the read deadline whatever any callback does (see
    /// `mcpr_read`).
    pub executor: *const mcpr_executor,
    /// The negotiated MCP protocol revision the result is shaped for:
    /// `"2025-06-18"`, `"2025-11-25"` or `"2026-07-28"`; empty (`{NULL, 0}`)
    /// = the newest this library knows (`"2026-07-28"`). Any other value is
    /// `MCPR_INVALID_ARGUMENT`. On 2026-07-28 the result carries
    /// `resultType`, `ttlMs` and `cacheScope`; before, none of them.
    pub protocol_revision: mcpr_str,
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
    /// `mcpr_call_request_data` (on an executor worker when `executor` is
    /// set; an abandoned `discover` may still see it after the call
    /// returned, as with `mcpr_read_options.request_data`).
    pub request_data: *mut c_void,
    /// Optional worker pool running this call's `discover` callbacks. NULL
    /// = inline on the calling thread (the deadline is checked between
    /// callbacks). With an executor the call returns by its deadline
    /// (`MCPR_DEADLINE_EXCEEDED`), or promptly on cancellation
    /// (`MCPR_CANCELED`), whatever `discover` does; a saturated executor
    /// fails it at once with `MCPR_POLICY` (cause "executor saturated").
    pub executor: *const mcpr_executor,
    /// The negotiated MCP protocol revision (as in `mcpr_read_options`;
    /// empty = the newest). On 2026-07-28 the page carries `resultType`,
    /// `ttlMs` and `cacheScope`, and their bytes count against the page's
    /// byte budget.
    pub protocol_revision: mcpr_str,
}

/// Sizing and bounds of a new executor, for `mcpr_executor_new_with`.
/// Zero fields mean the defaults.
///
/// Growth: set `struct_size` to `sizeof(mcpr_executor_options)` (or fill
/// the struct with `mcpr_executor_options_init`). Later versions may
/// append fields; the library reads only the fields that lie within
/// `struct_size`, and the others take their defaults, so a program built
/// against an older header keeps working.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_executor_options {
    /// `sizeof(mcpr_executor_options)` as the caller compiled it (at least
    /// `sizeof(size_t)`, at most 4096; else `MCPR_INVALID_ARGUMENT`).
    pub struct_size: usize,
    /// Regular workers (0 = the available cores, at least 2; at most
    /// `MCPR_MAX_EXECUTOR_THREADS`).
    pub threads: usize,
    /// Most workers hung in abandoned callbacks that are replaced by new
    /// ones (0 = max(8 x threads, 64); at most `MCPR_MAX_EXECUTOR_HUNG`).
    /// Once this many are hung, new body reads of a binding that already
    /// has a hung reader fail at once as `read_failed` items (private cause
    /// "executor saturated"); other bindings are still read. The executor
    /// never has more than `threads + max_hung` threads.
    pub max_hung: usize,
    /// Most calls waiting for a worker at once (0 = max(64 x threads,
    /// 1024)); further calls fail at once, as when saturated.
    pub max_queued: usize,
}

/// A snapshot of an executor's state and counters, filled by
/// `mcpr_executor_get_stats`. Counters count since the executor was created.
///
/// Growth: set `struct_size` to `sizeof(mcpr_executor_stats)` before the
/// call. Later versions may append fields; the library writes only the
/// fields that lie entirely within `struct_size` and leaves `struct_size`
/// and any further bytes untouched.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_executor_stats {
    /// `sizeof(mcpr_executor_stats)` as the caller compiled it (set by the
    /// caller; at least `sizeof(size_t)`, at most 4096).
    pub struct_size: usize,
    /// Regular workers (the configured count).
    pub threads: u64,
    /// The hung-worker bound in effect.
    pub max_hung: u64,
    /// The queue bound in effect.
    pub max_queued: u64,
    /// Worker threads alive (regular, replacements and hung ones).
    pub workers: u64,
    /// Workers running a call's job whose caller still waits for it.
    pub busy: u64,
    /// Workers running an abandoned callback (hung until it returns). The
    /// executor is saturated when `hung >= max_hung` (body reads of a
    /// binding with a hung reader fail at once), and refuses every new
    /// call when `hung == workers`.
    pub hung: u64,
    /// Jobs (one per read or listing, plus one per continuation after an
    /// abandoned body read) waiting for a worker.
    pub queued: u64,
    /// Jobs started on a worker.
    pub started: u64,
    /// Running jobs abandoned by their caller (deadline or cancellation).
    pub abandoned: u64,
    /// Abandoned jobs whose callback has since returned.
    pub returned: u64,
    /// Jobs dropped before they started (their caller gave up, or their
    /// deadline passed while they waited), with everything they held.
    pub dropped: u64,
    /// Saturation refusals: calls failed at once and body reads failed at
    /// once because the executor was saturated or its queue full.
    pub refused: u64,
    /// Workers started to replace hung ones.
    pub replaced: u64,
}

/// Most workers `mcpr_executor_new` accepts (a larger count is
/// `MCPR_INVALID_ARGUMENT`).
pub const MCPR_MAX_EXECUTOR_THREADS: usize = 1024;

/// Largest `mcpr_executor_options.max_hung` accepted (a larger bound is
/// `MCPR_INVALID_ARGUMENT`).
pub const MCPR_MAX_EXECUTOR_HUNG: usize = 16384;

/// Largest `struct_size` accepted by the executor option and statistics
/// calls (a guard against an uninitialised size).
const MAX_STRUCT_SIZE: usize = 4096;

/// Fills `*o` with the defaults (every bound 0) and `struct_size =
/// sizeof(mcpr_executor_options)`. Ignores NULL.
///
/// # Safety
/// `o` is NULL or valid for one write of an `mcpr_executor_options`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_options_init(o: *mut mcpr_executor_options) {
    guard(|| {
        if !o.is_null() {
            let v = mcpr_executor_options {
                struct_size: std::mem::size_of::<mcpr_executor_options>(),
                threads: 0,
                max_hung: 0,
                max_queued: 0,
            };
            // SAFETY: `o` is non-null and valid for one write.
            unsafe { o.write(v) };
        }
    })
}

/// Checks a caller's `struct_size`.
fn struct_size(n: usize) -> Result<usize, Error> {
    if n < std::mem::size_of::<usize>() || n > MAX_STRUCT_SIZE {
        return Err(Error::argument(
            "struct_size must be sizeof the struct (at least sizeof(size_t), at most 4096)",
        ));
    }
    Ok(n)
}

/// Reads the executor options that lie within their `struct_size`.
///
/// # Safety
/// `o` is non-null and points at `o.struct_size` readable bytes.
unsafe fn read_executor_options(o: *const mcpr_executor_options) -> Result<ExecutorOptions, Error> {
    // SAFETY: `o` is non-null and its first field is readable.
    let size = struct_size(unsafe { std::ptr::addr_of!((*o).struct_size).read_unaligned() })?;
    let field = |offset: usize| -> usize {
        if offset + std::mem::size_of::<usize>() > size {
            return 0;
        }
        // SAFETY: the field lies within the `size` readable bytes.
        unsafe { o.cast::<u8>().add(offset).cast::<usize>().read_unaligned() }
    };
    use std::mem::offset_of;
    let options = ExecutorOptions {
        threads: field(offset_of!(mcpr_executor_options, threads)),
        max_hung: field(offset_of!(mcpr_executor_options, max_hung)),
        max_queued: field(offset_of!(mcpr_executor_options, max_queued)),
    };
    if options.threads > MCPR_MAX_EXECUTOR_THREADS {
        return Err(Error::argument(
            "executor thread count is impossible (at most 1024)",
        ));
    }
    if options.max_hung > MCPR_MAX_EXECUTOR_HUNG {
        return Err(Error::argument(
            "executor max_hung is impossible (at most 16384)",
        ));
    }
    Ok(options)
}

/// A new executor sized and bounded by `*opt` (NULL = all defaults, as
/// `mcpr_executor_new(0, ...)`; the options are read during the call
/// only). On success `*out` receives it (owned by the caller, free with
/// `mcpr_executor_free`; shareable by any number of threads, registries,
/// reads and listings). An impossible
/// `struct_size`, thread count or bound is `MCPR_INVALID_ARGUMENT`; a
/// failure to start the workers is `MCPR_INVALID_CONFIGURATION`.
///
/// # Safety
/// `opt` is NULL or points at `opt->struct_size` readable bytes; `out`
/// and `err` are NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_new_with(
    opt: *const mcpr_executor_options,
    out: *mut *mut mcpr_executor,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        need_out(out)?;
        let options = if opt.is_null() {
            ExecutorOptions::default()
        } else {
            // SAFETY: `opt` is non-null and readable for its struct_size.
            unsafe { read_executor_options(opt) }?
        };
        let inner = Executor::with_options(options)?;
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe { write_out(out, Box::into_raw(Box::new(mcpr_executor { inner }))) };
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Fills `*out` with a snapshot of the executor's state and counters
/// (the fields lying entirely within `out->struct_size`, which the caller
/// sets). Any thread, at any time while the handle is alive; the fields
/// are read one by one, so a snapshot taken while calls run may be
/// slightly inconsistent. NULL `e` or `out`, or an impossible
/// `struct_size`, is `MCPR_INVALID_ARGUMENT` (nothing written).
///
/// # Safety
/// `e` is NULL or a live executor; `out` is NULL or points at
/// `out->struct_size` writable bytes; `err` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_get_stats(
    e: *const mcpr_executor,
    out: *mut mcpr_executor_stats,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `e` is NULL or live (caller's guarantee).
        let e = unsafe { e.as_ref() }.ok_or_else(|| Error::argument("executor is NULL"))?;
        need_out(out)?;
        // SAFETY: `out` is non-null and its first field is readable.
        let size = struct_size(unsafe { std::ptr::addr_of!((*out).struct_size).read_unaligned() })?;
        let s = e.inner.stats();
        let n = |v: usize| v as u64;
        let full = mcpr_executor_stats {
            struct_size: size,
            threads: n(s.threads),
            max_hung: n(s.max_hung),
            max_queued: n(s.max_queued),
            workers: n(s.workers),
            busy: n(s.busy),
            hung: n(s.hung),
            queued: n(s.queued),
            started: s.started,
            abandoned: s.abandoned,
            returned: s.returned,
            dropped: s.dropped,
            refused: s.refused,
            replaced: s.replaced,
        };
        // Every field after `struct_size` is a u64: write the whole ones
        // that fit.
        let first = std::mem::offset_of!(mcpr_executor_stats, threads);
        let end = size.min(std::mem::size_of::<mcpr_executor_stats>());
        if end > first {
            let len = (end - first) / 8 * 8;
            // SAFETY: `out` has `size >= first + len` writable bytes;
            // `full` is a local of at least that size; they do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (&full as *const mcpr_executor_stats)
                        .cast::<u8>()
                        .add(first),
                    out.cast::<u8>().add(first),
                    len,
                );
            }
        }
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// A new executor with `threads` workers (0 = the available cores, at least
/// 2; more than `MCPR_MAX_EXECUTOR_THREADS` is `MCPR_INVALID_ARGUMENT`)
/// and the default bounds of `mcpr_executor_options`. On success `*out`
/// receives it (owned by the caller, free with `mcpr_executor_free`).
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

/// The protocol revision of an options field (empty = the newest; unknown
/// = `MCPR_INVALID_ARGUMENT`).
///
/// # Safety
/// `s` follows the `mcpr_str` rules.
pub(super) unsafe fn revision_of(s: mcpr_str) -> Result<ProtocolRevision, Error> {
    // SAFETY: forwarded to the caller's guarantee.
    let b = unsafe { s.bytes() }?;
    ProtocolRevision::parse(b).map_err(|_| {
        Error::argument(
            "unknown protocol_revision (known: \"2025-06-18\", \"2025-11-25\", \"2026-07-28\"; empty = newest)",
        )
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

/// The core options of `mcpr_read_options` (NULL: all defaults); used by
/// `mcpr_read` and `mcpr_complete`.
///
/// # Safety
/// `opt` is NULL or points at options whose pointers are NULL or live and
/// whose `protocol_revision` follows the `mcpr_str` rules.
pub(super) unsafe fn read_options_of(opt: *const mcpr_read_options) -> Result<ReadOptions, Error> {
    let mut options = ReadOptions::default();
    // SAFETY: `opt` is NULL or points at options (caller's guarantee).
    if let Some(o) = unsafe { opt.as_ref() } {
        options.timeout = timeout(o.timeout_ms);
        // SAFETY: `o.cancel` is NULL or a live token.
        options.cancel = unsafe { cancel_of(o.cancel) };
        options.request_data = request_data(o.request_data);
        // SAFETY: `o.executor` is NULL or a live executor.
        options.executor = unsafe { o.executor.as_ref() }.map(|e| e.inner.clone());
        // SAFETY: `o.protocol_revision` follows the `mcpr_str` rules.
        options.revision = unsafe { revision_of(o.protocol_revision) }?;
    }
    Ok(options)
}

/// The call's own reference to the registry, held from entry to return:
/// other threads may release theirs, even the last, while the call runs.
///
/// # Safety
/// `r` is NULL or a live registry reference.
pub(super) unsafe fn resources(r: *const mcpr_resources) -> Result<Arc<mcpr_resources>, Error> {
    // SAFETY: `r` is NULL or live (caller's guarantee).
    unsafe { mcpr_resources::hold(r) }.ok_or_else(|| Error::argument("registry is NULL"))
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
/// Safe to call from many threads at once on one registry.
///
/// Without an executor every callback runs on this thread, and deadlines
/// only take effect between callbacks and through callbacks that honour
/// `mcpr_call_is_canceled`. With an executor (`opt->executor`) every
/// callback of the read runs on its workers and this call returns by the
/// read deadline whatever any callback does: a policy (`discover`,
/// `visibility`, `read`) or `resolve` callback still running at the read
/// deadline makes the read `MCPR_DEADLINE_EXCEEDED`, or `MCPR_CANCELED` at
/// once on cancellation; a body `read` still running at its item deadline
/// makes that item a `timeout` issue while the read continues with the
/// other items. Such a callback is abandoned: it keeps running on its
/// worker, its late result is discarded, the views it was given stay
/// valid and the binding's table stays alive until it returns (`release`
/// runs after the last call returns), and it still sees `request_data`.
/// A saturated executor (see `mcpr_executor_get_stats`) fails the read at once
/// with `MCPR_READ_FAILED`, or fails the body reads it can no longer risk
/// as `read_failed` items; the private cause says "executor saturated".
///
/// The call holds its own registry reference from entry to return: once it
/// has begun, other threads (or its own callbacks) may release any
/// reference, even the last; the `release` callbacks then run no earlier
/// than the end of this call (on this thread, just before it returns, when
/// it is the last user), or when an abandoned callback returns.
///
/// # Safety
/// `r` is NULL or a live registry reference when the call is made (a
/// reference that no other thread may be releasing at that moment: retain
/// it under the lock that publishes `r`); `uri` follows the `mcpr_str`
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
        // SAFETY: `opt` is NULL or points at options (caller's guarantee).
        let options = unsafe { read_options_of(opt) }?;
        let bundle = r.inner.read(uri, &options).map_err(|f| {
            // A not-found failure implies a valid (UTF-8) identifier.
            let uri = std::str::from_utf8(uri).ok();
            Error::of_request(f, options.revision, uri)
        })?;
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
        // SAFETY: `o.protocol_revision` follows the `mcpr_str` rules.
        let revision = unsafe { revision_of(o.protocol_revision) }?;
        let options = ListOptions {
            scope_key: scope_key.to_vec(),
            cursor: (!cursor.is_empty()).then(|| cursor.to_vec()),
            page_size: o.page_size,
            timeout: timeout(o.timeout_ms),
            // SAFETY: `o.cancel` is NULL or a live token.
            cancel: unsafe { cancel_of(o.cancel) },
            request_data: request_data(o.request_data),
            // SAFETY: `o.executor` is NULL or a live executor.
            executor: unsafe { o.executor.as_ref() }.map(|e| e.inner.clone()),
            revision,
        };
        let page = if templates {
            r.inner.list_templates(&options)
        } else {
            r.inner.list(&options)
        }
        .map_err(|f| Error::of_request(f, revision, None))?;
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
/// to call from many threads at once; `discover` runs on this thread, or
/// on the executor's workers when `opt->executor` is set (the call then
/// returns by its deadline whatever `discover` does).
/// The call holds its own registry reference from entry to return, as
/// `mcpr_read` does.
///
/// # Safety
/// `r` is NULL or a live registry reference when the call is made (a
/// reference that no other thread may be releasing at that moment: retain
/// it under the lock that publishes `r`); `opt` is NULL or points at
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
