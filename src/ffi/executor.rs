//! Executors (`mcpr_executor_*`): worker pools running callbacks.

use crate::executor::{Executor, ExecutorOptions};

use super::boundary::guard;
use super::error::{guard_status, mcpr_error};
use super::growth::{check_struct_size, field_end, init_out, read_grown, Grows};
use super::handle::{free_handle, handle_ref, need_out, write_handle, Boxed, Handle};
use super::status::{mcpr_status, Error};

/// A worker pool running the callbacks of reads and listings, created by
/// the host and shareable by many registries, reads and listings at once
/// (any thread). A call given an executor returns by its deadline whatever
/// its callbacks do (see `mcpr_read`). Free with `mcpr_executor_free`.
///
/// \ingroup read
pub struct mcpr_executor {
    pub(super) inner: Executor,
}

impl Handle for mcpr_executor {
    type Kind = Boxed;
}

/// Sizing and bounds of a new executor, for `mcpr_executor_new_with`.
/// Zero fields mean the defaults.
///
/// Growth: set `struct_size` to `sizeof(mcpr_executor_options)`, or start
/// from `MCPR_EXECUTOR_OPTIONS_INIT` / `mcpr_executor_options_init`. Later
/// versions may append fields; the library reads only the fields that lie
/// within `struct_size`, and the others take their defaults, so a program
/// built against an older header keeps working; set bytes beyond the
/// fields this library knows are `MCPR_INVALID_ARGUMENT`.
///
/// \ingroup read
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
///
/// \ingroup read
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
    /// The most jobs that waited for a worker at once since the executor
    /// was made (against `max_queued`: how deep bursts queue).
    pub queued_high_water: u64,
    /// The most workers busy at once with calls whose callers still waited
    /// (against `threads`: whether healthy work needed every worker).
    pub busy_high_water: u64,
    /// The most workers hung at once (against `max_hung`: how close the
    /// hung bound has come).
    pub hung_high_water: u64,
    /// Times the executor became saturated: `hung` reached `max_hung`, or
    /// every worker was hung (once each time, until hung workers return
    /// and it is saturated again).
    pub saturations: u64,
    /// The part of `refused` refused because `max_queued` calls were
    /// waiting (the rest: the executor was saturated).
    pub refused_queue_full: u64,
}

/// Most workers `mcpr_executor_new` accepts (a larger count is
/// `MCPR_INVALID_ARGUMENT`).
///
/// \ingroup read
pub const MCPR_MAX_EXECUTOR_THREADS: usize = 1024;

/// Largest `mcpr_executor_options.max_hung` accepted (a larger bound is
/// `MCPR_INVALID_ARGUMENT`).
///
/// \ingroup read
pub const MCPR_MAX_EXECUTOR_HUNG: usize = 16384;

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_executor_options {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_executor_options, threads),
        field_end!(mcpr_executor_options, max_hung),
        field_end!(mcpr_executor_options, max_queued),
    ];
}

/// Fills executor options with the defaults: every bound 0 and `struct_size`
/// set to `sizeof(mcpr_executor_options)`, as `MCPR_EXECUTOR_OPTIONS_INIT`
/// does.
///
/// \param options The options to fill, or NULL (then nothing happens).
/// \pre `options` is NULL or points at a writable `mcpr_executor_options`.
/// \note Thread-safe: touches only `*options`.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_options_init(options: *mut mcpr_executor_options) {
    guard(|| unsafe { init_out(options) })
}

/// Reads the executor options that lie within their `struct_size`.
///
/// # Safety
/// `o` is non-null and points at `o.struct_size` readable bytes.
unsafe fn read_executor_options(o: *const mcpr_executor_options) -> Result<ExecutorOptions, Error> {
    let o = unsafe { read_grown(o) }?;
    let options = ExecutorOptions {
        threads: o.threads,
        max_hung: o.max_hung,
        max_queued: o.max_queued,
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

/// Creates an executor sized and bounded by options (read during the call
/// only).
///
/// \param options The options (`struct_size` set, see
///   `mcpr_executor_options`), or NULL for all defaults (as
///   `mcpr_executor_new(0, ...)`).
/// \param out Receives the executor on success; the caller owns it: free it
///   with `mcpr_executor_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out` or an
///   impossible `struct_size`, thread count or bound;
///   `MCPR_INVALID_CONFIGURATION` when the workers cannot be started.
/// \pre `options` is NULL or points at `options->struct_size` readable bytes;
///   `out` is NULL or points at writable storage for one `mcpr_executor *`;
///   `err` is NULL or points at writable storage for one `mcpr_error *`.
/// \note Thread-safe. The executor may be shared by any number of threads,
///   registries and calls at once.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_new_with(
    options: *const mcpr_executor_options,
    out: *mut *mut mcpr_executor,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        need_out(out)?;
        let executor_options = if options.is_null() {
            ExecutorOptions::default()
        } else {
            // SAFETY: `options` is non-null and readable for its struct_size.
            unsafe { read_executor_options(options) }?
        };
        let inner = Executor::with_options(executor_options)?;
        unsafe { write_handle(out, mcpr_executor { inner }) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Fills a snapshot of the executor's state and counters: the fields lying
/// entirely within `stats->struct_size`, which the caller sets. Fields are
/// read one by one, so a snapshot taken while calls run may be slightly
/// inconsistent.
///
/// \param executor The executor.
/// \param stats The snapshot to fill (`struct_size` set by the caller).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) for a NULL
///   `executor` or `stats`, or an impossible `struct_size`.
/// \pre `executor` is NULL or an executor not yet freed; `stats` is NULL or
///   points at `stats->struct_size` writable bytes; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread, at any time while the handle is alive.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_get_stats(
    executor: *const mcpr_executor,
    stats: *mut mcpr_executor_stats,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let pool =
            unsafe { handle_ref(executor) }.ok_or_else(|| Error::argument("executor is NULL"))?;
        need_out(stats)?;
        // SAFETY: `stats` is non-null and its first field is readable.
        let size = check_struct_size(unsafe {
            std::ptr::addr_of!((*stats).struct_size).read_unaligned()
        })?;
        let s = pool.inner.stats();
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
            queued_high_water: n(s.queued_high_water),
            busy_high_water: n(s.busy_high_water),
            hung_high_water: n(s.hung_high_water),
            saturations: s.saturations,
            refused_queue_full: s.refused_queue_full,
        };
        // Every field after `struct_size` is a u64: write the whole ones
        // that fit.
        let first = std::mem::offset_of!(mcpr_executor_stats, threads);
        let end = size.min(std::mem::size_of::<mcpr_executor_stats>());
        if end > first {
            let len = (end - first) / 8 * 8;
            // SAFETY: `stats` has `size >= first + len` writable bytes;
            // `full` is a local of at least that size; they do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (&full as *const mcpr_executor_stats)
                        .cast::<u8>()
                        .add(first),
                    stats.cast::<u8>().add(first),
                    len,
                );
            }
        }
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Creates an executor with a number of workers and the default bounds of
/// `mcpr_executor_options`.
///
/// \param threads Regular workers: 0 = the available cores (at least 2); at
///   most `MCPR_MAX_EXECUTOR_THREADS`.
/// \param out Receives the executor on success; the caller owns it: free it
///   with `mcpr_executor_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out` or too many
///   threads; `MCPR_INVALID_CONFIGURATION` when the workers cannot be
///   started.
/// \pre `out` is NULL or points at writable storage for one
///   `mcpr_executor *`; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe. The executor may be shared by any number of threads,
///   registries and calls at once.
///
/// \ingroup read
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
        unsafe { write_handle(out, mcpr_executor { inner }) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Frees the caller's executor handle. Does not wait for running callbacks:
/// calls in flight keep the pool alive until they return, and abandoned
/// callbacks finish on their own.
///
/// \param executor The executor to free, or NULL (then nothing happens).
/// \pre `executor` is NULL or an executor from `mcpr_executor_new` /
///   `mcpr_executor_new_with`, freed only once; no call given it starts after
///   this, and no thread uses the handle afterwards.
/// \note Any thread may free it, once no other thread uses the handle.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_executor_free(executor: *mut mcpr_executor) {
    guard(|| unsafe { free_handle(executor) })
}
