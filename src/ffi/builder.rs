//! Building a registry: the builder handle (`mcpr_builder_*`).

use super::growth::read_grown_opt;
use super::handle::{free_handle, need_out, new_handle, take_handle, write_out};
use super::hints::hints_of;
use crate::cache::{CacheHints, RegistryCacheHints};
use crate::error::{Failure, FailureKind};
use crate::limits::Limit;
use crate::registry::{
    ResourceBinding, ResourceDefinition, ResourcesBuilder, MAX_CURSOR_KEY_BYTES,
    MIN_CURSOR_KEY_BYTES,
};
use std::os::raw::c_void;
use std::sync::{Arc, Mutex};

use super::boundary::{guard, guard_status, mcpr_limit, mcpr_status, mcpr_str};
use super::callbacks::{mcpr_binding_callbacks, mcpr_policy_callbacks, CBinding, CPolicy, HostPtr};
use super::error::{mcpr_error, Error};
use super::hints::mcpr_cache_hints;
use super::resources::mcpr_resources;

/// A registry under construction. Create with `mcpr_builder_new`, fill with
/// `mcpr_builder_add` / `_set_*`, then `mcpr_builder_build`.
///
/// Exactly one of `mcpr_builder_build` or `mcpr_builder_free` ends a
/// builder: `mcpr_builder_build` always consumes the handle, whatever it
/// returns (do not free or use it afterwards); `mcpr_builder_free` discards
/// a builder that is not built. A builder is internally locked, so
/// concurrent add and set calls on one builder are safe (if pointless).
pub struct mcpr_builder {
    state: Mutex<ResourcesBuilder>,
    /// A second reference to the current policy table, so that a table
    /// replaced by `mcpr_builder_set_policy` is released after the builder
    /// lock is dropped (its `release` may call into this builder).
    policy: Mutex<Option<Arc<CPolicy>>>,
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
    f(&mut state)
}

/// A new, empty builder. Owned by the caller until `mcpr_builder_build`
/// consumes it; discard one never built with `mcpr_builder_free`. NULL only
/// on a caught panic.
#[no_mangle]
pub extern "C" fn mcpr_builder_new() -> *mut mcpr_builder {
    guard(|| {
        new_handle(mcpr_builder {
            state: Mutex::new(ResourcesBuilder::new()),
            policy: Mutex::new(None),
        })
    })
}

/// The binding an add call registers: the callback table (NULL refused)
/// and the definition JSON checked, then [`binding_of`].
///
/// # Safety
/// `cb` is NULL or points at a table of `struct_size` readable bytes;
/// `definition_json` follows the `mcpr_str` rules.
pub(super) unsafe fn binding_from_c(
    definition_json: mcpr_str,
    cb: *const mcpr_binding_callbacks,
) -> Result<ResourceBinding, Error> {
    // SAFETY: `cb` is NULL or points at a table of `struct_size` readable
    // bytes (caller's guarantee).
    let table =
        unsafe { read_grown_opt(cb) }?.ok_or_else(|| Error::argument("callback table is NULL"))?;
    // SAFETY: `definition_json` follows the `mcpr_str` rules.
    let json =
        unsafe { definition_json.text(FailureKind::InvalidConfiguration, "definition JSON") }?;
    binding_of(ResourceDefinition::from_json(json)?, &table)
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
/// rules; `cb` is NULL or points at a table of `struct_size` readable bytes;
/// `err` is NULL or valid for one write.
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
        unsafe { with_builder(b, add) }
    };
    unsafe { guard_status(err, body) }
}

/// Sets the policy callback table (copied; required before build). Setting
/// it again replaces the previous table, whose `release` then runs on this
/// thread before this returns (after the builder is unlocked: it may call
/// into this builder). All three callbacks are required
/// (`MCPR_INVALID_CONFIGURATION`).
///
/// # Safety
/// `b` is NULL or a live builder; `cb` is NULL or points at a table of
/// `struct_size` readable bytes; `err` is NULL or valid for one write.
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
            // SAFETY: `cb` is NULL or points at a table of `struct_size`
            // readable bytes (caller's guarantee).
            let table = unsafe { read_grown_opt(cb) }?
                .ok_or_else(|| Error::argument("callback table is NULL"))?;
            let policy = CPolicy::new(&table).ok_or_else(|| {
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
        let result = unsafe { with_builder(b, set) };
        drop(replaced);
        result
    };
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
        unsafe { with_builder(b, set) }
    };
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
        unsafe { with_builder(b, set) }
    };
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
        unsafe { with_builder(b, set) }
    };
    unsafe { guard_status(err, body) }
}

/// Validates everything against the final limits and builds the registry.
/// Always consumes the builder: when `b` is not NULL, the handle is freed
/// by this call whatever it returns (success, a failed build, a NULL
/// `out`), so never call `mcpr_builder_free` or anything else on `b`
/// afterwards. On failure every `release` of its tables runs before this
/// returns. On success `*out` receives a registry reference owned by the
/// caller (free with `mcpr_resources_free`). A NULL `b` or `out` is
/// `MCPR_INVALID_ARGUMENT`.
///
/// # Safety
/// `b` is NULL or a live builder from `mcpr_builder_new`, not freed or
/// built before and not in use by another thread (this call frees it);
/// `out` is NULL or valid for one write; `err` is NULL or valid for one
/// write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_build(
    b: *mut mcpr_builder,
    out: *mut *mut mcpr_resources,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // Ownership moves here (this call is the builder's last use), so
        // the handle is freed whatever happens below.
        let b = unsafe { take_handle(b) }.ok_or_else(|| Error::argument("builder is NULL"))?;
        need_out(out)?;
        let mcpr_builder { state, policy } = *b;
        let built = state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .build();
        // On failure the last reference to the policy table goes here, so
        // its `release` still runs before this returns.
        drop(policy);
        let resources = built?;
        let handle = Arc::into_raw(Arc::new(mcpr_resources { inner: resources }));
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe { write_out(out, handle.cast_mut()) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Discards a builder that is not built: every `release` of its tables
/// runs now. Accepts NULL. Never call it after `mcpr_builder_build`, which
/// already consumed the builder.
///
/// # Safety
/// `b` is NULL or a builder from `mcpr_builder_new`, neither freed nor
/// built before, and not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_free(b: *mut mcpr_builder) {
    guard(|| unsafe { free_handle(b) })
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
        let result = unsafe { with_builder(b, set) };
        drop(replaced);
        result
    };
    unsafe { guard_status(err, body) }
}

/// Declares the registry's cache hints: `ttl_ms` is the TTL of list pages
/// and of reads through bindings added without their own hints;
/// `policy_caller_independent` says that the policy callbacks decide the
/// same for every caller. Without this call: TTL 0, not caller-independent
/// (every result `"ttlMs":0`, `"cacheScope":"private"`). A TTL above
/// `MCPR_MAX_TTL_MS` is `MCPR_INVALID_CONFIGURATION` and changes nothing.
///
/// # Safety
/// `b` is NULL or a live builder; `err` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_cache_hints(
    b: *mut mcpr_builder,
    ttl_ms: u64,
    policy_caller_independent: bool,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |builder: &mut ResourcesBuilder| {
            CacheHints::check_ttl(ttl_ms).map_err(Failure::config)?;
            builder.set_cache_hints(RegistryCacheHints::new(ttl_ms, policy_caller_independent));
            Ok(())
        };
        unsafe { with_builder(b, set) }
    };
    unsafe { guard_status(err, body) }
}

/// `mcpr_builder_add` with the binding's cache hints (`hints` is read
/// before this returns). Its reads get `hints->ttl_ms` instead of the
/// registry's TTL, and may be `"public"` when `hints->caller_independent`
/// and the registry's `policy_caller_independent` are both true. Refusals
/// as for `mcpr_builder_add`, plus `MCPR_INVALID_ARGUMENT` for NULL hints
/// or a bad `size`, and `MCPR_INVALID_CONFIGURATION` for a TTL above
/// `MCPR_MAX_TTL_MS` (then `release` never runs for this call).
///
/// # Safety
/// As for `mcpr_builder_add`; `hints` is NULL or points at an
/// `mcpr_cache_hints` whose `size` is readable and correct.
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_add_with_hints(
    b: *mut mcpr_builder,
    definition_json: mcpr_str,
    cb: *const mcpr_binding_callbacks,
    hints: *const mcpr_cache_hints,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let add = |builder: &mut ResourcesBuilder| {
            // SAFETY: `hints` is NULL or a sized struct (caller's guarantee).
            let hints = unsafe { hints_of(hints) }?;
            hints.validate()?;
            // SAFETY: `cb` and `definition_json` as the caller guarantees.
            let binding = unsafe { binding_from_c(definition_json, cb) }?;
            builder.push(binding.with_cache_hints(hints));
            Ok(())
        };
        unsafe { with_builder(b, add) }
    };
    unsafe { guard_status(err, body) }
}
