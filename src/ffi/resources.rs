//! The registry handle (`mcpr_resources_*`).

use crate::error::FailureKind;
use crate::observe::{CallMethod, LATENCY_BUCKETS};
use crate::registry::Resources;
use std::sync::Arc;

use super::boundary::{guard, mcpr_str};
use super::error::{guard_status, mcpr_error};
use super::growth::check_struct_size;
use super::handle::{hold, need_out, release, retain, write_out, Counted, Handle};
use super::observer::MCPR_EVENT_HASH_BYTES;
use super::status::{mcpr_status, Error};

/// An immutable registry, reference counted. Safe to share between threads
/// and to use from many threads at once. Each reference (from
/// `mcpr_builder_build` or `mcpr_resources_retain`) is released with one
/// `mcpr_resources_free`.
///
/// Lifetime across threads: every call that takes a registry (`mcpr_read`,
/// `mcpr_list`, `mcpr_list_templates`, `mcpr_resources_content_hash`) takes its
/// own reference on entry and drops it just before returning. So once a
/// call has begun, any thread may release any reference, even the last one
/// the host holds: the registry and its callback tables stay alive until
/// that call returns, and the tables' `release` callbacks then run on the
/// thread that lets go last (the call that returns last, just before it
/// returns, or an executor worker whose abandoned body read returns after
/// that). So a `release` may run inside `mcpr_read` or `mcpr_list` on the
/// calling thread: do not make those calls while holding a lock that a
/// `release` callback takes. What the library cannot do is take its
/// reference before it is called: the pointer passed must still be a live
/// reference when the call is made, and a release that may happen at the
/// same time as the call starts is a use-after-free. A host that swaps
/// registries (a configuration reload) therefore retains the current
/// registry under the lock that guards its pointer, calls, and frees that
/// reference afterwards (docs/C-API.md shows the pattern).
///
/// \ingroup registry
pub struct mcpr_resources {
    pub(crate) inner: Resources,
}

impl Handle for mcpr_resources {
    type Kind = Counted;
}

/// Takes another reference to the registry.
///
/// \param resources A registry reference, or NULL.
/// \return `resources` itself, now counting one more reference that the
///   caller owns (release it with `mcpr_resources_free`); NULL when
///   `resources` is NULL.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \note Thread-safe: any thread, also concurrently with calls using the
///   registry.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_retain(
    resources: *const mcpr_resources,
) -> *mut mcpr_resources {
    guard(|| unsafe { retain(resources) })
}

/// Releases one registry reference.
///
/// The registry (and every callback table's `release`) goes when the last
/// reference is released and every call using it has returned, including
/// abandoned callbacks still running on executor workers. Releasing while
/// calls run on other threads (even the last reference, even the one those
/// calls were given) is safe once those calls have begun: each holds its own
/// reference until it returns, and the last one to return runs the `release`
/// callbacks.
///
/// \param resources The reference to release, or NULL (then nothing
///   happens).
/// \pre `resources` is NULL or a registry reference owned by the caller,
///   released only once, and not passed to a call (`mcpr_read`, `mcpr_list`,
///   ...) that may still be starting on another thread.
/// \note Any thread, including from inside a callback.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_free(resources: *mut mcpr_resources) {
    guard(|| unsafe { release(resources) })
}

/// Writes the registry's 32-byte content hash: SHA-256 of the canonical
/// registered descriptions, so identical registries on several replicas
/// agree (cursors are bound to it). Prefer
/// `mcpr_resources_content_hash_into`, which checks the buffer's size.
///
/// \param resources A registry reference, or NULL (then nothing is written).
/// \param out A buffer of at least 32 bytes, or NULL (then nothing is
///   written).
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \pre `out` is NULL or points at 32 writable bytes.
/// \note Thread-safe: any thread; the call holds its own registry reference
///   until it returns.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_content_hash(
    resources: *const mcpr_resources,
    out: *mut u8,
) {
    guard(|| {
        let Some(resources) = (unsafe { hold(resources) }) else {
            return;
        };
        if out.is_null() {
            return;
        }
        let hash = resources.inner.content_hash();
        // SAFETY: `out` is valid for 32 bytes of writes and cannot overlap
        // the local `hash`.
        unsafe { std::ptr::copy_nonoverlapping(hash.as_ptr(), out, hash.len()) };
    })
}

/// Writes the registry's 32-byte content hash (as
/// `mcpr_resources_content_hash`) into a buffer whose size the caller
/// states.
/// Writes exactly 32 bytes; the rest of a larger buffer is left untouched.
///
/// \param resources A registry reference.
/// \param out The buffer.
/// \param out_len The buffer's size in bytes (at least 32).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) when
///   `resources` or `out` is NULL or `out_len` is less than 32.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \pre `out` is NULL or points at `out_len` writable bytes; `err` is NULL or
///   points at writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread; the call holds its own registry reference
///   until it returns.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_content_hash_into(
    resources: *const mcpr_resources,
    out: *mut u8,
    out_len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let resources =
            unsafe { hold(resources) }.ok_or_else(|| Error::argument("registry is NULL"))?;
        if out.is_null() {
            return Err(Error::argument("content hash buffer is NULL"));
        }
        let hash = resources.inner.content_hash();
        if out_len < hash.len() {
            return Err(Error::argument(
                "content hash buffer is shorter than 32 bytes",
            ));
        }
        // SAFETY: `out` is valid for `out_len >= 32` bytes of writes
        // (caller's guarantee) and cannot overlap the local `hash`.
        unsafe { std::ptr::copy_nonoverlapping(hash.as_ptr(), out, hash.len()) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Whether some binding of the registry has a `complete` callback: declare
/// the MCP `completions` capability only then.
///
/// \param resources A registry reference, or NULL.
/// \return True when some binding completes; false otherwise and when
///   `resources` is NULL.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \note Thread-safe: any thread; the call holds its own registry reference
///   until it returns.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_completes(resources: *const mcpr_resources) -> bool {
    guard(|| unsafe { hold(resources) }.is_some_and(|resources| resources.inner.completes()))
}

/// The `resources` capability object a host declares in `initialize` and
/// `server/discover` results: `subscribe` and `listChanged` as declared
/// with `mcpr_builder_set_notifications`, only those that are true: `{}`,
/// `{"subscribe":true}`, `{"listChanged":true}` or
/// `{"subscribe":true,"listChanged":true}` (the same on every revision this
/// library knows).
///
/// \param resources A registry reference.
/// \param protocol_revision The revision negotiated with the client
///   (empty = the newest).
/// \param out Receives the JSON on `MCPR_OK`: a static string (never freed).
/// \param err Receives an error object on failure; may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `resources` or
///   `out`, or an unknown revision.
/// \pre `resources` is NULL or a live registry reference (see `mcpr_read`);
///   `protocol_revision` follows the `mcpr_str` rules; `out` is NULL or
///   points at writable storage for one `mcpr_str`; `err` is NULL or points
///   at writable storage for one `mcpr_error *`.
/// \note Thread-safe.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_capability(
    resources: *const mcpr_resources,
    protocol_revision: mcpr_str,
    out: *mut mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { self::resources(resources) }?;
        need_out(out)?;
        let revision =
            crate::protocol::ProtocolRevision::parse(unsafe { protocol_revision.bytes() }?)
                .map_err(|_| Error::argument("unknown protocol_revision"))?;
        let json = r.inner.resources_capability(revision);
        unsafe { write_out(out, mcpr_str::from_str(json)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// The latency buckets of `mcpr_call_metrics`: bucket 0 counts calls under
/// 1,024 ns, bucket `i` (1 to 26) calls of 2^(9+i) to 2^(10+i) ns, bucket
/// 27 calls of 2^36 ns (about 68.7 s) or more.
///
/// \ingroup registry
pub const MCPR_METRICS_BUCKETS: usize = 28;

const _: () = assert!(MCPR_METRICS_BUCKETS == LATENCY_BUCKETS);

/// The calls of one method with one outcome since the registry was built,
/// filled by `mcpr_resources_get_metrics`: the fields lying entirely
/// within `struct_size`, which the caller sets (later versions append
/// fields).
///
/// \ingroup registry
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_call_metrics {
    /// `sizeof(mcpr_call_metrics)` as the caller compiled it (set by the
    /// caller; at least `sizeof(size_t)`, at most 4096).
    pub struct_size: usize,
    /// Calls counted (the sum of `buckets`).
    pub calls: u64,
    /// Of them, partial bundles (successful reads only).
    pub partial: u64,
    /// Their total duration, in nanoseconds.
    pub total_ns: u64,
    /// The latency histogram (see `MCPR_METRICS_BUCKETS` for the bounds).
    pub buckets: [u64; MCPR_METRICS_BUCKETS],
}

/// Fills the call metrics of one method and outcome: counted for every call
/// (every `mcpr_read`, `mcpr_list`, `mcpr_list_templates`, `mcpr_complete`
/// and every request `mcpr_request` serves), with or without an observer.
/// Counters are read one by one: a snapshot taken while calls run may be
/// slightly inconsistent.
///
/// \param resources A registry reference.
/// \param method The MCP method name (`"resources/read"`,
///   `"resources/list"`, `"resources/templates/list"`,
///   `"completion/complete"`, `"tools/call"`, `"embed"`, or
///   `"subscriptions"` for every subscription decision).
/// \param outcome `MCPR_OK` (0) for successes, or the `mcpr_status` of a
///   failure (1 to 13).
/// \param metrics The snapshot to fill (`struct_size` set by the caller).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) for a NULL
///   `resources` or `metrics`, an unknown method, an outcome no call ends
///   with, or an impossible `struct_size`.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made; `method` follows the `mcpr_str` rules; `metrics` is NULL or points
///   at `metrics->struct_size` writable bytes; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread, also while calls run.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_get_metrics(
    resources: *const mcpr_resources,
    method: mcpr_str,
    outcome: u32,
    metrics: *mut mcpr_call_metrics,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { hold(resources) }.ok_or_else(|| Error::argument("registry is NULL"))?;
        let name = unsafe { method.bytes() }?;
        let method = CallMethod::parse(name).ok_or_else(|| Error::argument("unknown method"))?;
        let outcome = match outcome {
            0 => None,
            k => Some(
                FailureKind::all()
                    .into_iter()
                    .find(|f| *f as u32 == k)
                    .ok_or_else(|| Error::argument("no call ends with this outcome"))?,
            ),
        };
        need_out(metrics)?;
        // SAFETY: `metrics` is non-null and its first field is readable.
        let size = check_struct_size(unsafe {
            std::ptr::addr_of!((*metrics).struct_size).read_unaligned()
        })?;
        let m = r.inner.metrics(method, outcome);
        let full = mcpr_call_metrics {
            struct_size: size,
            calls: m.calls,
            partial: m.partial,
            total_ns: m.total_ns,
            buckets: m.buckets,
        };
        // Every field after `struct_size` is a u64: write the whole ones
        // that fit.
        let first = std::mem::offset_of!(mcpr_call_metrics, calls);
        let end = size.min(std::mem::size_of::<mcpr_call_metrics>());
        if end > first {
            let len = (end - first) / 8 * 8;
            // SAFETY: `metrics` has `size >= first + len` writable bytes;
            // `full` is a local of at least that size; they do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (&full as *const mcpr_call_metrics).cast::<u8>().add(first),
                    metrics.cast::<u8>().add(first),
                    len,
                );
            }
        }
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Writes the keyed hash events give `bytes` (a URI, a scope key): how a
/// host finds the events about a URI it knows (HMAC-SHA256 under the
/// registry's event key, first 16 bytes; see `mcpr_builder_set_event_key`).
///
/// \param resources A registry reference.
/// \param bytes The URI or scope key.
/// \param out Receives `MCPR_EVENT_HASH_BYTES` (16) bytes.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) for a NULL
///   `resources` or `out`, or a `(NULL, n > 0)` string.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made; `bytes` follows the `mcpr_str` rules; `out` is NULL or points at 16
///   writable bytes; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: any thread.
///
/// \ingroup registry
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_event_hash(
    resources: *const mcpr_resources,
    bytes: mcpr_str,
    out: *mut u8,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { hold(resources) }.ok_or_else(|| Error::argument("registry is NULL"))?;
        let bytes = unsafe { bytes.bytes() }?;
        need_out(out)?;
        let hash = r.inner.event_hash(bytes);
        // SAFETY: `out` is non-null (checked) and holds 16 bytes (the
        // caller's guarantee); a local cannot overlap it.
        unsafe { std::ptr::copy_nonoverlapping(hash.0.as_ptr(), out, MCPR_EVENT_HASH_BYTES) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// The call's own reference to the registry, held from entry to return:
/// other threads may release theirs, even the last, while the call runs.
///
/// # Safety
/// `r` is NULL or a live registry reference.
pub(super) unsafe fn resources(r: *const mcpr_resources) -> Result<Arc<mcpr_resources>, Error> {
    unsafe { hold(r) }.ok_or_else(|| Error::argument("registry is NULL"))
}

#[cfg(test)]
mod tests {
    //! The registry's lifetime across threads, through the C ABI (the C
    //! suite's `test_lifetime.c` covers more cases; this one also runs under
    //! `cargo test`).

    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;
    use std::sync::Mutex;
    use std::thread::{self, ThreadId};

    use super::*;
    use crate::ffi::all::*;
    use std::os::raw::c_void;

    /// The host state the tables point at: `discover` reports that it was
    /// entered and waits for the test's go-ahead.
    struct Host {
        entered: Mutex<Option<mpsc::Sender<()>>>,
        go: Mutex<Option<mpsc::Receiver<()>>>,
        releases: AtomicUsize,
        release_threads: Mutex<Vec<ThreadId>>,
    }

    fn host(ud: *mut c_void) -> &'static Host {
        // SAFETY: every table's `user_data` is a `Host` that outlives the
        // registry (the test joins and checks before it goes).
        unsafe { &*ud.cast::<Host>() }
    }

    unsafe extern "C-unwind" fn discover(
        ud: *mut c_void,
        _call: *const mcpr_call,
        _def: *const mcpr_definition,
    ) -> mcpr_cb_result {
        let h = host(ud);
        if let Some(tx) = h.entered.lock().unwrap().take() {
            tx.send(()).unwrap();
            let rx = h.go.lock().unwrap().take().unwrap();
            rx.recv().unwrap();
        }
        MCPR_CB_OK
    }

    unsafe extern "C-unwind" fn visibility(
        _ud: *mut c_void,
        _call: *const mcpr_call,
        _t: *const mcpr_target,
        out: *mut mcpr_visibility,
    ) -> mcpr_cb_result {
        // SAFETY: `out` is the callback's live out-parameter.
        unsafe {
            (*out).visible = true;
        }
        MCPR_CB_OK
    }

    unsafe extern "C-unwind" fn permit(
        _ud: *mut c_void,
        _call: *const mcpr_call,
        _t: *const mcpr_target,
    ) -> mcpr_cb_result {
        MCPR_CB_OK
    }

    unsafe extern "C-unwind" fn resolve(
        ud: *mut c_void,
        call: *const mcpr_call,
        m: *const mcpr_match,
        plan: *mut mcpr_plan_builder,
    ) -> mcpr_cb_result {
        if host(ud).releases.load(Ordering::SeqCst) != 0 {
            return MCPR_CB_FAILED; // the registry was torn down under the call
        }
        // SAFETY: the views of this live `resolve` callback.
        unsafe { mcpr_resolve_single(ud, call, m, plan) }
    }

    unsafe extern "C-unwind" fn body(
        _ud: *mut c_void,
        _call: *const mcpr_call,
        _t: *const mcpr_target,
        out: *mut mcpr_payload_builder,
    ) -> mcpr_cb_result {
        let text = mcpr_str::from_str("still here");
        let mime = mcpr_str::from_str("text/plain");
        // SAFETY: `out` is this live callback's payload builder.
        match unsafe { mcpr_payload_set_text(out, mime, text, std::ptr::null_mut()) } {
            mcpr_status::MCPR_OK => MCPR_CB_OK,
            _ => MCPR_CB_FAILED,
        }
    }

    unsafe extern "C-unwind" fn release(ud: *mut c_void) {
        let h = host(ud);
        h.release_threads
            .lock()
            .unwrap()
            .push(thread::current().id());
        h.releases.fetch_add(1, Ordering::SeqCst);
    }

    /// A registry pointer handed to the reading thread.
    struct Shared(*mut mcpr_resources);
    // SAFETY: the registry is thread-safe; the pointer is only passed on.
    unsafe impl Send for Shared {}

    #[test]
    fn a_call_keeps_the_registry_alive_when_another_thread_releases_the_last_reference() {
        let (entered_tx, entered_rx) = mpsc::channel();
        let (go_tx, go_rx) = mpsc::channel();
        let h = Host {
            entered: Mutex::new(Some(entered_tx)),
            go: Mutex::new(Some(go_rx)),
            releases: AtomicUsize::new(0),
            release_threads: Mutex::new(Vec::new()),
        };
        let ud = std::ptr::from_ref(&h).cast_mut().cast::<c_void>();
        let policy = mcpr_policy_callbacks {
            struct_size: std::mem::size_of::<mcpr_policy_callbacks>(),
            user_data: ud,
            discover: Some(discover),
            visibility: Some(visibility),
            read: Some(permit),
            release: Some(release),
            decide_plan: None,
        };
        let binding = mcpr_binding_callbacks {
            struct_size: std::mem::size_of::<mcpr_binding_callbacks>(),
            user_data: ud,
            resolve: Some(resolve),
            read: Some(body),
            release: Some(release),
            complete: None,
            size_hint: None,
        };
        let err = std::ptr::null_mut();
        let mut r = std::ptr::null_mut();
        // SAFETY: valid tables, strings and out-parameters throughout.
        unsafe {
            let b = mcpr_builder_new();
            assert_eq!(
                mcpr_builder_set_policy(b, &policy, err),
                mcpr_status::MCPR_OK
            );
            let def = mcpr_str::from_str(r#"{"uri":"doc://one","name":"one"}"#);
            assert_eq!(
                mcpr_builder_add(b, def, &binding, err),
                mcpr_status::MCPR_OK
            );
            assert_eq!(mcpr_builder_build(b, &mut r, err), mcpr_status::MCPR_OK);
        }
        let shared = Shared(r);
        let reader = thread::spawn(move || {
            let shared = shared;
            let mut bundle = std::ptr::null_mut();
            let uri = mcpr_str::from_str("doc://one");
            // SAFETY: the registry reference is live when the call is made
            // (the main thread frees it only once `discover` runs).
            let status = unsafe {
                mcpr_read(
                    shared.0,
                    uri,
                    std::ptr::null(),
                    &mut bundle,
                    std::ptr::null_mut(),
                )
            };
            // SAFETY: `bundle` is NULL or the bundle just made.
            let json = unsafe {
                let j = mcpr_bundle_json(bundle);
                let text = std::str::from_utf8(std::slice::from_raw_parts(j.ptr.cast(), j.len))
                    .unwrap()
                    .to_owned();
                mcpr_bundle_free(bundle);
                text
            };
            (status, json, thread::current().id())
        });
        // The read is inside discover: release the only reference.
        entered_rx.recv().unwrap();
        // SAFETY: the only reference, released once.
        unsafe { mcpr_resources_free(r) };
        assert_eq!(
            h.releases.load(Ordering::SeqCst),
            0,
            "released under a running read"
        );
        go_tx.send(()).unwrap();
        let (status, json, reader_id) = reader.join().unwrap();
        assert_eq!(status, mcpr_status::MCPR_OK);
        assert!(json.contains("still here"), "{json}");
        assert_eq!(
            h.releases.load(Ordering::SeqCst),
            2,
            "policy and binding, once each"
        );
        assert!(h
            .release_threads
            .lock()
            .unwrap()
            .iter()
            .all(|t| *t == reader_id));
    }
}
