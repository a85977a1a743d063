//! Building a registry: the builder handle and the registry handle.

use std::os::raw::c_void;
use std::sync::{Arc, Mutex};

use super::boundary::{
    guard, guard_status, mcpr_error, mcpr_limit, mcpr_status, mcpr_str, need_out, write_out, Error,
};
use super::callbacks::{mcpr_binding_callbacks, mcpr_policy_callbacks, CBinding, CPolicy, HostPtr};
use crate::error::{Failure, FailureKind};
use crate::limits::Limit;
use crate::registry::{
    ResourceBinding, ResourceDefinition, Resources, ResourcesBuilder, MAX_CURSOR_KEY_BYTES,
    MIN_CURSOR_KEY_BYTES,
};

/// A registry under construction. Create with `mcpr_builder_new`, fill with
/// `mcpr_builder_add` / `_set_*`, then `mcpr_builder_build`.
///
/// `mcpr_builder_build` consumes the builder's contents, success or not,
/// but NOT the handle: the handle stays allocated in a "consumed" state in
/// which every further add, set or build returns `MCPR_INVALID_ARGUMENT`
/// (instead of undefined behaviour), and it must always be released with
/// `mcpr_builder_free`, built or not. A builder is internally locked, so
/// concurrent calls on one builder are safe (if pointless).
pub struct mcpr_builder {
    state: Mutex<Option<ResourcesBuilder>>,
    /// A second reference to the current policy table, so that a table
    /// replaced by `mcpr_builder_set_policy` is released after the builder
    /// lock is dropped (its `release` may call into this builder).
    policy: Mutex<Option<Arc<CPolicy>>>,
}

/// An immutable registry, reference counted. Safe to share between threads
/// and to use from many threads at once. Each reference (from
/// `mcpr_builder_build` or `mcpr_resources_retain`) is released with one
/// `mcpr_resources_free`.
///
/// Lifetime across threads: every call that takes a registry (`mcpr_read`,
/// `mcpr_list`, `mcpr_list_templates`, `mcpr_resources_revision`) takes its
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
pub struct mcpr_resources {
    pub(crate) inner: Resources,
}

impl mcpr_resources {
    /// A new reference to the registry behind `r`, owned by the caller of
    /// this function (None for NULL). Every export that uses a registry
    /// holds one from entry to return.
    ///
    /// # Safety
    /// `r` is NULL or a live registry reference (from `Arc::into_raw`).
    pub(crate) unsafe fn hold(r: *const mcpr_resources) -> Option<Arc<mcpr_resources>> {
        if r.is_null() {
            return None;
        }
        // SAFETY: `r` came from `Arc::into_raw` and a reference is still
        // held (caller's guarantee), so the count is at least one; the
        // increment gives `from_raw` its own reference to take over.
        unsafe {
            Arc::increment_strong_count(r);
            Some(Arc::from_raw(r))
        }
    }
}

/// # Safety
/// `b` is NULL or a live builder.
pub(super) unsafe fn with_builder(
    b: *mut mcpr_builder,
    f: impl FnOnce(&mut ResourcesBuilder) -> Result<(), Error>,
) -> Result<(), Error> {
    // SAFETY: the caller guarantees `b` is NULL or a live builder; shared
    // access is enough because the state is behind a mutex.
    let b = unsafe { b.as_ref() }.ok_or_else(|| Error::argument("builder is NULL"))?;
    let mut state = b.state.lock().unwrap_or_else(|p| p.into_inner());
    let inner = state
        .as_mut()
        .ok_or_else(|| Error::argument("builder was already consumed by mcpr_builder_build"))?;
    f(inner)
}

/// A new, empty builder. Owned by the caller: free with `mcpr_builder_free`
/// (always, even after `mcpr_builder_build`). NULL only on a caught panic.
#[no_mangle]
pub extern "C" fn mcpr_builder_new() -> *mut mcpr_builder {
    guard(|| {
        Box::into_raw(Box::new(mcpr_builder {
            state: Mutex::new(Some(ResourcesBuilder::new())),
            policy: Mutex::new(None),
        }))
    })
}

/// The binding an add call registers: the callback table (NULL refused)
/// and the definition JSON checked, then [`binding_of`].
///
/// # Safety
/// `cb` is NULL or points at a table; `definition_json` follows the
/// `mcpr_str` rules.
pub(super) unsafe fn binding_from_c(
    definition_json: mcpr_str,
    cb: *const mcpr_binding_callbacks,
) -> Result<ResourceBinding, Error> {
    // SAFETY: `cb` is NULL or points at a table (caller's guarantee).
    let table = unsafe { cb.as_ref() }.ok_or_else(|| Error::argument("callback table is NULL"))?;
    // SAFETY: `definition_json` follows the `mcpr_str` rules.
    let json =
        unsafe { definition_json.text(FailureKind::InvalidConfiguration, "definition JSON") }?;
    binding_of(ResourceDefinition::from_json(json)?, table)
}

/// A binding of `definition` to a copy of `table`: the handler, and the
/// completer too when the table has `complete` (one copy, one `release`,
/// which runs once both uses are gone). A `complete` callback on an
/// exact-URI definition is refused before the table is copied, so that
/// `release` never runs for a failed add.
fn binding_of(
    definition: ResourceDefinition,
    table: &mcpr_binding_callbacks,
) -> Result<ResourceBinding, Error> {
    if table.complete.is_some() && !definition.is_template() {
        return Err(Error::from(Failure::config(
            "a complete callback needs a uriTemplate definition",
        )));
    }
    let handler = Arc::new(CBinding::new(table).ok_or_else(|| {
        Error::from(Failure::config(
            "binding callbacks resolve and read are required",
        ))
    })?);
    let completes = handler.completes();
    let binding = ResourceBinding::from_definition(definition, handler.clone());
    Ok(if completes {
        binding.with_completer(handler)
    } else {
        binding
    })
}

/// Adds a binding: a definition (the MCP `Resource` / `ResourceTemplate`
/// description object as JSON, at most 64 KiB, with exactly one of `uri`
/// or `uriTemplate`) and its callback table (copied). The definition is
/// validated now (`MCPR_INVALID_CONFIGURATION`; a missing `resolve` or
/// `read` too); duplicates and `max_uri_bytes` are checked by build.
/// On success the table's `release` will run exactly once; on failure it
/// never runs for this call.
///
/// # Safety
/// `b` is NULL or a live builder; `definition_json` follows the `mcpr_str`
/// rules; `cb` is NULL or points at a table; `err` is NULL or valid for
/// one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_add(
    b: *mut mcpr_builder,
    definition_json: mcpr_str,
    cb: *const mcpr_binding_callbacks,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let add = |builder: &mut ResourcesBuilder| {
            // SAFETY: `cb` and `definition_json` as the caller guarantees.
            builder.push(unsafe { binding_from_c(definition_json, cb) }?);
            Ok(())
        };
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        unsafe { with_builder(b, add) }
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Sets the policy callback table (copied; required before build). Setting
/// it again replaces the previous table, whose `release` then runs on this
/// thread before this returns (after the builder is unlocked: it may call
/// into this builder). All three callbacks are required
/// (`MCPR_INVALID_CONFIGURATION`).
///
/// # Safety
/// `b` is NULL or a live builder; `cb` is NULL or points at a table; `err`
/// is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_policy(
    b: *mut mcpr_builder,
    cb: *const mcpr_policy_callbacks,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // The replaced table, dropped (released) once the builder is unlocked.
        let mut replaced = None;
        let set = |builder: &mut ResourcesBuilder| {
            // SAFETY: `cb` is NULL or points at a table (caller's guarantee).
            let table =
                unsafe { cb.as_ref() }.ok_or_else(|| Error::argument("callback table is NULL"))?;
            let policy = CPolicy::new(table).ok_or_else(|| {
                Error::from(Failure::config(
                    "policy callbacks discover, visibility and read are required",
                ))
            })?;
            let policy = Arc::new(policy);
            builder.set_policy(policy.clone());
            // SAFETY: `with_builder` only calls this when `b` is a live
            // builder (caller's guarantee).
            if let Some(handle) = unsafe { b.as_ref() } {
                replaced = handle
                    .policy
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .replace(policy);
            }
            Ok(())
        };
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        let result = unsafe { with_builder(b, set) };
        drop(replaced);
        result
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Sets one limit override (`value` 0 = default; timeouts in
/// milliseconds). An unknown `which` is `MCPR_INVALID_ARGUMENT`; a negative
/// value is `MCPR_INVALID_CONFIGURATION` and changes nothing. The rules
/// between limits are checked by build. Raising one limit never raises
/// another.
///
/// # Safety
/// `b` is NULL or a live builder; `err` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_limit(
    b: *mut mcpr_builder,
    which: mcpr_limit,
    value: i64,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |builder: &mut ResourcesBuilder| {
            let limit =
                Limit::from_u32(which).ok_or_else(|| Error::argument("unknown mcpr_limit"))?;
            if value < 0 {
                return Err(Failure::config(format!(
                    "limit {} must not be negative (0 selects the default)",
                    limit.name()
                ))
                .into());
            }
            builder.set_limit(limit, value);
            Ok(())
        };
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        unsafe { with_builder(b, set) }
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Sets the cursor key (copied; 32 to 1024 bytes, else
/// `MCPR_INVALID_CONFIGURATION`) shared by replicas so that they accept each
/// other's cursors. Without one, each registry makes a random key. Cursors
/// are encrypted and authenticated under a key derived from it, so a client
/// can neither read nor alter them.
///
/// # Safety
/// `b` is NULL or a live builder; `key` is NULL (with `len` 0) or points at
/// `len` readable bytes; `err` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_cursor_key(
    b: *mut mcpr_builder,
    key: *const u8,
    len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |builder: &mut ResourcesBuilder| {
            let key = mcpr_str {
                ptr: key.cast(),
                len,
            };
            // SAFETY: `key` is NULL or points at `len` readable bytes.
            let key = unsafe { key.bytes() }?;
            if !(MIN_CURSOR_KEY_BYTES..=MAX_CURSOR_KEY_BYTES).contains(&key.len()) {
                return Err(Failure::config("cursor key must be 32 to 1024 bytes").into());
            }
            builder.set_cursor_key(key);
            Ok(())
        };
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        unsafe { with_builder(b, set) }
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Sets the wall clock (Unix milliseconds) used for cursor issue and expiry
/// times only (deadlines use the monotonic clock); for tests and
/// simulations. `now_unix_ms(ud)` may be called concurrently from any
/// thread for as long as the registry lives; `ud` is never released by the
/// library. A NULL function is `MCPR_INVALID_ARGUMENT`.
///
/// # Safety
/// `b` is NULL or a live builder; `now_unix_ms` is safe to call with `ud`
/// from any thread until the registry is gone; `err` is NULL or valid for
/// one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_clock(
    b: *mut mcpr_builder,
    now_unix_ms: Option<unsafe extern "C-unwind" fn(ud: *mut c_void) -> u64>,
    ud: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |builder: &mut ResourcesBuilder| {
            let f = now_unix_ms.ok_or_else(|| Error::argument("clock function is NULL"))?;
            let ud = HostPtr(ud);
            builder.set_clock(Arc::new(move || {
                let ud = ud;
                // SAFETY: the host guarantees the clock function is
                // callable with `ud` from any thread while the registry
                // lives.
                unsafe { f(ud.0) }
            }));
            Ok(())
        };
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        unsafe { with_builder(b, set) }
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Validates everything against the final limits and builds the registry.
/// Consumes the builder's contents whether it succeeds or not (on failure
/// every `release` of its tables runs before this returns), except when
/// `b` or `out` is NULL (`MCPR_INVALID_ARGUMENT`, nothing consumed); the handle
/// itself must still be freed with `mcpr_builder_free`, and a second build,
/// add or set on it returns `MCPR_INVALID_ARGUMENT`. On success `*out`
/// receives a registry reference owned by the caller (free with
/// `mcpr_resources_free`).
///
/// # Safety
/// `b` is NULL or a live builder; `out` is NULL or valid for one write;
/// `err` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_build(
    b: *mut mcpr_builder,
    out: *mut *mut mcpr_resources,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        let b = unsafe { b.as_ref() }.ok_or_else(|| Error::argument("builder is NULL"))?;
        need_out(out)?;
        let inner = b
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .ok_or_else(|| Error::argument("builder was already consumed by mcpr_builder_build"))?;
        let policy = b.policy.lock().unwrap_or_else(|p| p.into_inner()).take();
        let built = inner.build();
        // On failure the last reference to the policy table goes here, so
        // its `release` still runs before this returns.
        drop(policy);
        let resources = built?;
        let handle = Arc::into_raw(Arc::new(mcpr_resources { inner: resources }));
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe { write_out(out, handle.cast_mut()) };
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Frees a builder handle, built or not (for a builder never built, every
/// `release` of its tables runs now). Accepts NULL.
///
/// # Safety
/// `b` is NULL or a builder from `mcpr_builder_new`, freed only once and
/// not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_free(b: *mut mcpr_builder) {
    guard(|| {
        if !b.is_null() {
            // SAFETY: `b` came from `Box::into_raw` in `mcpr_builder_new` and
            // is freed once (caller's guarantee).
            drop(unsafe { Box::from_raw(b) });
        }
    })
}

/// Takes another reference to the registry and returns `r` (NULL for NULL).
/// Release each reference with `mcpr_resources_free`. Any thread.
///
/// # Safety
/// `r` is NULL or a live registry reference, not released by another thread
/// while this runs (retain under the lock that publishes `r`).
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_retain(r: *const mcpr_resources) -> *mut mcpr_resources {
    guard(|| {
        if r.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: `r` came from `Arc::into_raw` and the caller still holds a
        // reference, so the count is at least one.
        unsafe { Arc::increment_strong_count(r) };
        r.cast_mut()
    })
}

/// Releases one registry reference. The registry (and every table's
/// `release`) goes when the last reference is released and every read or
/// listing using it has returned, including abandoned body reads still
/// running on executor workers. Releasing while calls run on other threads
/// (even the last reference, even the one those calls were given) is safe
/// once those calls have begun: each holds its own reference until it
/// returns, and the last one to return runs the `release` callbacks. Accepts
/// NULL. Any thread, including from inside a callback.
///
/// # Safety
/// `r` is NULL or a registry reference owned by the caller, released once,
/// and not passed to a call (`mcpr_read`, `mcpr_list`, ...) that may still
/// be starting on another thread.
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_free(r: *mut mcpr_resources) {
    guard(|| {
        if !r.is_null() {
            // SAFETY: `r` came from `Arc::into_raw`; the caller gives up one
            // reference.
            drop(unsafe { Arc::from_raw(r.cast_const()) });
        }
    })
}

/// Writes the registry's 32-byte content revision (SHA-256 of the
/// canonical registered descriptions; identical registries on several
/// replicas agree) to `out`. Does nothing when `r` or `out` is NULL.
///
/// # Safety
/// `r` is NULL or a live registry reference when the call is made (the
/// call holds its own reference until it returns); `out` is NULL or valid
/// for 32 bytes of writes.
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_revision(r: *const mcpr_resources, out: *mut u8) {
    guard(|| {
        // SAFETY: `r` is NULL or live (caller's guarantee).
        let Some(r) = (unsafe { mcpr_resources::hold(r) }) else {
            return;
        };
        if out.is_null() {
            return;
        }
        let rev = r.inner.revision();
        // SAFETY: `out` is valid for 32 bytes of writes and cannot overlap
        // the local `rev`.
        unsafe { std::ptr::copy_nonoverlapping(rev.as_ptr(), out, rev.len()) };
    })
}

/// Writes the registry's 32-byte content revision (as
/// `mcpr_resources_revision`) to `out`, whose size the caller states:
/// `MCPR_INVALID_ARGUMENT` (nothing written) when `r` or `out` is NULL or
/// `out_len` is less than 32. Writes exactly 32 bytes; the rest of a larger
/// buffer is left untouched.
///
/// # Safety
/// `r` is NULL or a live registry reference when the call is made; `out`
/// is NULL or valid for `out_len` bytes of writes; `err` is NULL or valid
/// for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_resources_revision_into(
    r: *const mcpr_resources,
    out: *mut u8,
    out_len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `r` is NULL or live (caller's guarantee).
        let r = unsafe { mcpr_resources::hold(r) }
            .ok_or_else(|| Error::argument("registry is NULL"))?;
        if out.is_null() {
            return Err(Error::argument("revision buffer is NULL"));
        }
        let rev = r.inner.revision();
        if out_len < rev.len() {
            return Err(Error::argument("revision buffer is shorter than 32 bytes"));
        }
        // SAFETY: `out` is valid for `out_len >= 32` bytes of writes
        // (caller's guarantee) and cannot overlap the local `rev`.
        unsafe { std::ptr::copy_nonoverlapping(rev.as_ptr(), out, rev.len()) };
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Makes the registry's policy the built-in allow-all policy: every
/// definition discoverable, every target visible (issues may name its
/// URI), every visible target readable. No C callbacks are involved (no
/// callback cost per read). Like `mcpr_builder_set_policy`, it replaces a
/// previously set policy, whose `release` then runs on this thread before
/// this returns; a later `mcpr_builder_set_policy` replaces it in turn.
/// For servers whose every resource is public to every caller.
///
/// # Safety
/// `b` is NULL or a live builder; `err` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_policy_allow_all(
    b: *mut mcpr_builder,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let mut replaced = None;
        let set = |builder: &mut ResourcesBuilder| {
            builder.set_policy(Arc::new(crate::policy::AllowAll));
            // SAFETY: `with_builder` only calls this when `b` is a live
            // builder (caller's guarantee).
            if let Some(handle) = unsafe { b.as_ref() } {
                replaced = handle
                    .policy
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .take();
            }
            Ok(())
        };
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        let result = unsafe { with_builder(b, set) };
        drop(replaced);
        result
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
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
    use crate::ffi::callbacks::{
        mcpr_call, mcpr_definition, mcpr_match, mcpr_payload_builder, mcpr_payload_set_text,
        mcpr_plan_builder, mcpr_resolve_single, mcpr_target, mcpr_visibility,
    };
    use crate::ffi::run::{mcpr_bundle_free, mcpr_bundle_json, mcpr_read};
    use crate::ffi::{mcpr_cb_result, MCPR_CB_FAILED, MCPR_CB_OK};

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
            user_data: ud,
            discover: Some(discover),
            visibility: Some(visibility),
            read: Some(permit),
            release: Some(release),
        };
        let binding = mcpr_binding_callbacks {
            user_data: ud,
            resolve: Some(resolve),
            read: Some(body),
            release: Some(release),
            complete: None,
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
            mcpr_builder_free(b);
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
