//! Building a registry: the builder handle (`mcpr_builder_*`).

use super::growth::read_grown_opt;
use super::handle::{
    free_handle, handle_ref, need_out, new_counted, new_handle, take_handle, write_out, Boxed,
    Handle,
};
use super::hints::hints_of;
use crate::cache::{CacheHints, RegistryCacheHints};
use crate::error::{Failure, FailureKind};
use crate::limits::Limit;
use crate::policy::ResourcePolicy;
use crate::registry::{
    ResourceBinding, ResourceDefinition, ResourcesBuilder, MAX_CURSOR_KEY_BYTES,
    MIN_CURSOR_KEY_BYTES,
};
use std::os::raw::c_void;
use std::sync::{Arc, Mutex};

use super::boundary::{guard, mcpr_str};
use super::callbacks::{mcpr_binding_callbacks, CBinding};
use super::error::{guard_status, mcpr_error};
use super::hints::mcpr_cache_hints;
use super::host::HostPtr;
use super::limits::mcpr_limit;
use super::observer::{mcpr_observer_callbacks, CObserver, Refused};
use super::policy::{mcpr_policy_callbacks, CPolicy};
use super::resources::mcpr_resources;
use super::status::{mcpr_status, Error};

/// A registry under construction. Create with `mcpr_builder_new`, fill with
/// `mcpr_builder_add` / `_set_*`, then `mcpr_builder_build`.
///
/// Exactly one of `mcpr_builder_build` or `mcpr_builder_free` ends a
/// builder: `mcpr_builder_build` always consumes the handle, whatever it
/// returns (do not free or use it afterwards); `mcpr_builder_free` discards
/// a builder that is not built. A builder is internally locked, so
/// concurrent add and set calls on one builder are safe (if pointless).
///
/// \ingroup builder
pub struct mcpr_builder {
    state: Mutex<BuilderState>,
    /// A second reference to the current policy table, so that a table
    /// replaced by `mcpr_builder_set_policy` is released after the builder
    /// lock is dropped (its `release` may call into this builder).
    policy: Mutex<Option<Arc<CPolicy>>>,
}

impl Handle for mcpr_builder {
    type Kind = Boxed;
}

/// What a builder holds under its lock.
#[derive(Default)]
struct BuilderState {
    core: ResourcesBuilder,
    handlers: HandlerCache,
}

/// The copy of the binding table added last, when it has no `release`:
/// hosts commonly register many definitions with one static table, and
/// each add then shares that copy instead of allocating its own. Sharing
/// is invisible to the host: the copy holds the same fields, and with no
/// `release` there is nothing to run once per add.
#[derive(Default)]
struct HandlerCache {
    last: Option<([usize; 5], Arc<CBinding>)>,
}

impl HandlerCache {
    /// The handler of `table`: the shared copy when `table` equals the
    /// table added last (neither having a `release`), else a new copy.
    fn handler(&mut self, table: &mcpr_binding_callbacks) -> Result<Arc<CBinding>, Error> {
        let key = CBinding::share_key(table);
        if let (Some(key), Some((last, handler))) = (key, &self.last) {
            if key == *last {
                return Ok(handler.clone());
            }
        }
        let handler = Arc::new(CBinding::new(table).ok_or_else(|| {
            Error::from(Failure::config(
                "binding callbacks resolve and read are required",
            ))
        })?);
        if let Some(key) = key {
            self.last = Some((key, handler.clone()));
        }
        Ok(handler)
    }
}

/// # Safety
/// `b` is NULL or a live builder.
pub(super) unsafe fn with_builder(
    b: *mut mcpr_builder,
    f: impl FnOnce(&mut ResourcesBuilder) -> Result<(), Error>,
) -> Result<(), Error> {
    unsafe { with_state(b, |state| f(&mut state.core)) }
}

/// [`with_builder`] with the whole locked state.
///
/// # Safety
/// `b` is NULL or a live builder.
unsafe fn with_state(
    b: *mut mcpr_builder,
    f: impl FnOnce(&mut BuilderState) -> Result<(), Error>,
) -> Result<(), Error> {
    f(&mut unsafe { builder_ref(b) }?.lock())
}

/// Borrows the builder behind `b`.
///
/// # Safety
/// `b` is NULL or a live builder.
unsafe fn builder_ref<'a>(b: *mut mcpr_builder) -> Result<&'a mcpr_builder, Error> {
    // Shared access is enough: the contents are behind mutexes.
    unsafe { handle_ref(b) }.ok_or_else(|| Error::argument("builder is NULL"))
}

impl mcpr_builder {
    fn lock(&self) -> std::sync::MutexGuard<'_, BuilderState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes `policy` the registry's policy; `table` is the C table behind
    /// it (`None` for a built-in policy). The table it replaces is released
    /// once the builder is unlocked, on this thread: its `release` may call
    /// into this builder.
    fn install_policy(&self, policy: Arc<dyn ResourcePolicy>, table: Option<Arc<CPolicy>>) {
        let replaced = {
            let mut state = self.lock();
            state.core.set_policy(policy);
            let mut current = self.policy.lock().unwrap_or_else(|p| p.into_inner());
            std::mem::replace(&mut *current, table)
        };
        drop(replaced);
    }
}

/// Creates an empty builder.
///
/// \return The builder, owned by the caller until `mcpr_builder_build`
///   consumes it (whatever that returns); discard a builder never built with
///   `mcpr_builder_free`. NULL only if the library failed internally.
/// \note Thread-safe: any thread may create builders.
///
/// \ingroup builder
#[no_mangle]
pub extern "C" fn mcpr_builder_new() -> *mut mcpr_builder {
    guard(|| {
        new_handle(mcpr_builder {
            state: Mutex::new(BuilderState::default()),
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
unsafe fn binding_from_c(
    definition_json: mcpr_str,
    cb: *const mcpr_binding_callbacks,
    handlers: &mut HandlerCache,
) -> Result<ResourceBinding, Error> {
    let table =
        unsafe { read_grown_opt(cb) }?.ok_or_else(|| Error::argument("callback table is NULL"))?;
    let json =
        unsafe { definition_json.text(FailureKind::InvalidConfiguration, "definition JSON") }?;
    binding_of(ResourceDefinition::from_json(json)?, &table, handlers)
}

/// A binding of `definition` to a copy of `table` (shared with earlier
/// adds of the same table, see [`HandlerCache`]): the handler, and the
/// completer too when the table has `complete` (one copy, one `release`,
/// which runs once both uses are gone). A `complete` callback on an
/// exact-URI definition is refused before the table is copied, so that
/// `release` never runs for a failed add.
fn binding_of(
    definition: ResourceDefinition,
    table: &mcpr_binding_callbacks,
    handlers: &mut HandlerCache,
) -> Result<ResourceBinding, Error> {
    if table.complete.is_some() && !definition.is_template() {
        return Err(Error::from(Failure::config(
            "a complete callback needs a uriTemplate definition",
        )));
    }
    let handler = handlers.handler(table)?;
    let completes = handler.completes();
    let binding = ResourceBinding::from_definition(definition, handler.clone());
    Ok(if completes {
        binding.with_completer(handler)
    } else {
        binding
    })
}

/// Adds a binding: a definition and its callback table (copied). The definition
/// is validated now; duplicates and `max_uri_bytes` are checked by
/// `mcpr_builder_build`.
///
/// \param builder The builder.
/// \param definition_json The MCP `Resource` / `ResourceTemplate` description
///   object as JSON (at most 64 KiB, with exactly one of `uri` or
///   `uriTemplate`). Its standard members are checked (docs/BEHAVIOUR.md
///   §1): `title`, `description`, `mimeType` strings; `size` a
///   non-negative integer, never on a template; `annotations.audience`
///   only `"user"` / `"assistant"`, `annotations.priority` from 0 to 1,
///   `annotations.lastModified` an RFC 3339 date-time; every `icons[].src`
///   an absolute URI. The error message names the member refused.
/// \param callbacks The binding's callback table (`resolve` and `read`
///   required; `complete` only for a template); copied during the call.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for an invalid definition, a
///   missing `resolve` or `read`, or a `complete` on an exact-URI definition;
///   `MCPR_INVALID_ARGUMENT` for a NULL `builder`, a NULL `callbacks`, a
///   `(NULL, n > 0)` string, or a table with a bad `struct_size` or set
///   fields beyond it that this library does not know.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `definition_json` follows the `mcpr_str` rules; `callbacks` is
///   NULL or points at a table of `struct_size` readable bytes; `err` is NULL
///   or points at writable storage for one `mcpr_error *`.
/// \post On success the table's `release` will run exactly once (see
///   `mcpr_binding_callbacks`); on failure it never runs for this call.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_add(
    builder: *mut mcpr_builder,
    definition_json: mcpr_str,
    callbacks: *const mcpr_binding_callbacks,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let add = |state: &mut BuilderState| {
            let binding =
                unsafe { binding_from_c(definition_json, callbacks, &mut state.handlers) }?;
            state.core.push(binding);
            Ok(())
        };
        unsafe { with_state(builder, add) }
    };
    unsafe { guard_status(err, body) }
}

/// Sets the policy callback table (copied; a policy is required before build).
/// Setting it again replaces the previous table, whose `release` then runs on
/// this thread before this returns (after the builder is unlocked: it may call
/// into this builder).
///
/// \param builder The builder.
/// \param callbacks The policy's callback table (`discover`, `visibility` and
///   `read` required); copied during the call.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` when a required callback is
///   NULL; `MCPR_INVALID_ARGUMENT` for a NULL `builder`, a NULL `callbacks`,
///   or a table with a bad `struct_size` or set fields beyond it that this
///   library does not know.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `callbacks` is NULL or points at a table of `struct_size`
///   readable bytes; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \post On success the table's `release` will run exactly once (see
///   `mcpr_policy_callbacks`); on failure it never runs for this call.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_policy(
    builder: *mut mcpr_builder,
    callbacks: *const mcpr_policy_callbacks,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let b = unsafe { builder_ref(builder) }?;
        let table = unsafe { read_grown_opt(callbacks) }?
            .ok_or_else(|| Error::argument("callback table is NULL"))?;
        let policy = Arc::new(CPolicy::new(&table).ok_or_else(|| {
            Error::from(Failure::config(
                "policy callbacks discover, visibility and read are required",
            ))
        })?);
        b.install_policy(policy.clone(), Some(policy));
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Overrides one limit. The rules between limits are checked by
/// `mcpr_builder_build`. Raising one limit never raises another.
///
/// \param builder The builder.
/// \param which The limit (`MCPR_LIMIT_*`).
/// \param value The new value (timeouts in milliseconds); 0 selects the
///   default.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a negative `value`
///   (nothing changes); `MCPR_INVALID_ARGUMENT` for a NULL `builder` or an
///   unknown `which`.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_limit(
    builder: *mut mcpr_builder,
    which: mcpr_limit,
    value: i64,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |inner: &mut ResourcesBuilder| {
            let limit =
                Limit::from_u32(which).ok_or_else(|| Error::argument("unknown mcpr_limit"))?;
            if value < 0 {
                return Err(Failure::config(format!(
                    "limit {} must not be negative (0 selects the default)",
                    limit.name()
                ))
                .into());
            }
            inner.set_limit(limit, value);
            Ok(())
        };
        unsafe { with_builder(builder, set) }
    };
    unsafe { guard_status(err, body) }
}

/// Sets the cursor key (copied), shared by replicas so that they accept each
/// other's cursors. Without one, each registry makes a random key. Cursors are
/// encrypted and authenticated under a key derived from it, so a client can
/// neither read nor alter them.
///
/// \param builder The builder.
/// \param key The key bytes; may be NULL when `key_len` is 0 (refused as too
///   short all the same).
/// \param key_len The number of bytes at `key`: 32 to 1024.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a key shorter than 32
///   or longer than 1024 bytes; `MCPR_INVALID_ARGUMENT` for a NULL `builder` or
///   a NULL `key` with a non-zero `key_len`.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `key` is NULL (with `key_len` 0) or points at `key_len`
///   readable bytes; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_cursor_key(
    builder: *mut mcpr_builder,
    key: *const u8,
    key_len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |inner: &mut ResourcesBuilder| {
            let key = mcpr_str {
                ptr: key.cast(),
                len: key_len,
            };
            let key = unsafe { key.bytes() }?;
            if !(MIN_CURSOR_KEY_BYTES..=MAX_CURSOR_KEY_BYTES).contains(&key.len()) {
                return Err(Failure::config("cursor key must be 32 to 1024 bytes").into());
            }
            inner.set_cursor_key(key);
            Ok(())
        };
        unsafe { with_builder(builder, set) }
    };
    unsafe { guard_status(err, body) }
}

/// Sets the observer table (copied): the registry hands it one event per
/// call and, with `MCPR_OBSERVE_DECISIONS`, its decisions (see
/// `mcpr_observer_callbacks`, docs/C-API.md "Observability"). Setting it
/// again replaces the previous table, whose `release` then runs on this
/// thread before this returns (after the builder is unlocked).
///
/// \param builder The builder.
/// \param callbacks The observer table (`on_event` required); copied.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` when `on_event` is NULL;
///   `MCPR_INVALID_ARGUMENT` for a NULL `builder` or `callbacks`, unknown
///   `flags` bits, or a table with a bad `struct_size` or set fields beyond
///   it that this library does not know.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `callbacks` is NULL or points at a table of `struct_size`
///   readable bytes; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \post On success the table's `release` will run exactly once; on failure
///   it never runs for this call.
/// \note Thread-safe: a builder is internally locked.
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_observer(
    builder: *mut mcpr_builder,
    callbacks: *const mcpr_observer_callbacks,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let b = unsafe { builder_ref(builder) }?;
        let table = unsafe { read_grown_opt(callbacks) }?
            .ok_or_else(|| Error::argument("callback table is NULL"))?;
        let observer = CObserver::new(&table).map_err(|why| match why {
            Refused::NoCallback => {
                Error::from(Failure::config("observer callback on_event is required"))
            }
            Refused::Flags => Error::argument("unknown mcpr_observer_callbacks flags"),
        })?;
        let replaced = b.lock().core.set_observer(Arc::new(observer));
        drop(replaced);
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Sets the event hash key (copied): events name the URIs they may not show,
/// and scope keys, by HMAC-SHA256 under a key derived from it, so replicas
/// sharing it give the same hashes (`mcpr_resources_event_hash` computes
/// one). Without it the cursor key serves; without either, a random key is
/// made per registry.
///
/// \param builder The builder.
/// \param key The key bytes; may be NULL when `key_len` is 0 (refused as too
///   short).
/// \param key_len The number of bytes at `key`: 32 to 1024.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a key shorter than 32
///   or longer than 1024 bytes; `MCPR_INVALID_ARGUMENT` for a NULL `builder` or
///   a NULL `key` with a non-zero `key_len`.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `key` is NULL (with `key_len` 0) or points at `key_len`
///   readable bytes; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked.
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_event_key(
    builder: *mut mcpr_builder,
    key: *const u8,
    key_len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |inner: &mut ResourcesBuilder| {
            let key = mcpr_str {
                ptr: key.cast(),
                len: key_len,
            };
            let key = unsafe { key.bytes() }?;
            if !(MIN_CURSOR_KEY_BYTES..=MAX_CURSOR_KEY_BYTES).contains(&key.len()) {
                return Err(Failure::config("event key must be 32 to 1024 bytes").into());
            }
            inner.set_event_key(key);
            Ok(())
        };
        unsafe { with_builder(builder, set) }
    };
    unsafe { guard_status(err, body) }
}

/// A wall clock for `mcpr_builder_set_clock`.
///
/// \param user_data The `user_data` given to `mcpr_builder_set_clock` (may
/// be NULL).
/// \return The current time in Unix milliseconds.
/// \note Called concurrently from any thread for as long as the registry lives.
///
/// \ingroup builder
pub type mcpr_clock_fn = Option<unsafe extern "C-unwind" fn(user_data: *mut c_void) -> u64>;

/// Sets the wall clock (Unix milliseconds) used for cursor issue and expiry
/// times only (deadlines use the monotonic clock); for tests and simulations.
///
/// \param builder The builder.
/// \param now_unix_ms The clock; called as `now_unix_ms(user_data)`,
///   concurrently from any thread, for as long as the registry lives.
/// \param user_data Passed to every call of `now_unix_ms`; never released by
///   the library; may be NULL.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `builder` or a NULL
///   `now_unix_ms`.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `now_unix_ms` may be called with `user_data` from any thread
///   until the registry (or the unbuilt builder) is gone; `err` is NULL or
///   points at writable storage for one `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_clock(
    builder: *mut mcpr_builder,
    now_unix_ms: mcpr_clock_fn,
    user_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |inner: &mut ResourcesBuilder| {
            let f = now_unix_ms.ok_or_else(|| Error::argument("clock function is NULL"))?;
            let user_data = HostPtr(user_data);
            inner.set_clock(Arc::new(move || {
                let user_data = user_data;
                unsafe { f(user_data.0) }
            }));
            Ok(())
        };
        unsafe { with_builder(builder, set) }
    };
    unsafe { guard_status(err, body) }
}

/// Validates everything against the final limits and builds the registry.
///
/// Always consumes the builder: when `builder` is not NULL, this call frees
/// the handle whatever it returns (success, a failed build, a NULL `out`), so
/// never call `mcpr_builder_free` or anything else on `builder` afterwards. On
/// failure every `release` of its tables runs before this returns.
///
/// \param builder The builder; freed by this call.
/// \param out Receives a registry reference on success; the caller owns it:
///   release it with `mcpr_resources_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a configuration that
///   does not validate (no policy, duplicate or too-long URIs, inconsistent
///   limits); `MCPR_INVALID_ARGUMENT` for a NULL `builder` or a NULL `out` (a
///   non-NULL `builder` is consumed all the same).
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed, and not in use by another thread (this call frees it); `out`
///   is NULL or points at writable storage for one `mcpr_resources *`; `err`
///   is NULL or points at writable storage for one `mcpr_error *`.
/// \post `builder` is freed, whatever the status: it must not be used again.
/// \note Thread-safe: any thread may build a builder once no other thread
///   uses it.
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_build(
    builder: *mut mcpr_builder,
    out: *mut *mut mcpr_resources,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // Ownership moves here (this call is the builder's last use), so
        // the handle is freed whatever happens below.
        let builder =
            unsafe { take_handle(builder) }.ok_or_else(|| Error::argument("builder is NULL"))?;
        need_out(out)?;
        let mcpr_builder { state, policy } = *builder;
        let built = state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .core
            .build();
        // On failure the last reference to the policy table goes here, so
        // its `release` still runs before this returns.
        drop(policy);
        let resources = built?;
        let handle = new_counted(mcpr_resources { inner: resources });
        unsafe { write_out(out, handle) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Discards a builder that was never built: every `release` of its tables
/// runs now, on this thread. Never call it after `mcpr_builder_build`, which
/// already consumed the builder, whatever it returned.
///
/// \param builder The builder to discard, or NULL (then nothing happens).
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed, and not in use by another thread.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_free(builder: *mut mcpr_builder) {
    guard(|| unsafe { free_handle(builder) })
}

/// Makes the registry's policy the built-in allow-all policy: every definition
/// discoverable, every target visible (issues may name its URI), every visible
/// target readable, with no callback cost per read. For servers whose every
/// resource is public to every caller. Like `mcpr_builder_set_policy`, it
/// replaces a previously set policy, whose `release` then runs on this thread
/// before this returns; a later `mcpr_builder_set_policy` replaces it in turn.
///
/// \param builder The builder.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `builder`.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_policy_allow_all(
    builder: *mut mcpr_builder,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let b = unsafe { builder_ref(builder) }?;
        b.install_policy(Arc::new(crate::policy::AllowAll), None);
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Declares the registry's cache hints. Without this call: TTL 0, not
/// caller-independent (every result `"ttlMs":0`, `"cacheScope":"private"`).
///
/// \param builder The builder.
/// \param ttl_ms The TTL of list pages and of reads through bindings added
///   without their own hints, in milliseconds (at most `MCPR_MAX_TTL_MS`).
/// \param policy_caller_independent Whether the policy callbacks decide the
///   same for every caller.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a TTL above
///   `MCPR_MAX_TTL_MS` (nothing changes); `MCPR_INVALID_ARGUMENT` for a NULL
///   `builder`.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_cache_hints(
    builder: *mut mcpr_builder,
    ttl_ms: u64,
    policy_caller_independent: bool,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |inner: &mut ResourcesBuilder| {
            CacheHints::check_ttl(ttl_ms).map_err(Failure::config)?;
            inner.set_cache_hints(RegistryCacheHints::new(ttl_ms, policy_caller_independent));
            Ok(())
        };
        unsafe { with_builder(builder, set) }
    };
    unsafe { guard_status(err, body) }
}

/// Declares the resource change notifications the host delivers for this
/// registry: `MCPR_NOTIFY_RESOURCE_UPDATES` (the `resources` capability's
/// `subscribe`: `resources/subscribe` and the URIs of a
/// `subscriptions/listen` are then decided by `mcpr_request`) and
/// `MCPR_NOTIFY_RESOURCES_LIST_CHANGED` (`listChanged`). Without this call:
/// neither (`resources/subscribe` is then `MCPR_METHOD_NOT_HANDLED`, and a
/// listen acknowledges no resource type).
///
/// \param builder The builder.
/// \param notifications `MCPR_NOTIFY_RESOURCE_UPDATES` and/or
///   `MCPR_NOTIFY_RESOURCES_LIST_CHANGED` (0 = neither).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `builder`, an
///   unknown bit, or a tool or prompt type (the host's, never a
///   registry's); nothing changes then.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_notifications(
    builder: *mut mcpr_builder,
    notifications: u32,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let types = super::notify::types_of(notifications)?;
        if types.resources_only() != types {
            return Err(Error::argument(
                "only resource notification types can be declared on a registry",
            ));
        }
        unsafe {
            with_builder(builder, |inner| {
                inner.set_notifications(types);
                Ok(())
            })
        }
    };
    unsafe { guard_status(err, body) }
}

/// Chooses the JSON-RPC error of a read whose callback asks for input
/// (`MCPR_CB_INPUT_REQUIRED`) when the request's protocol revision has no
/// input-required result (before 2026-07-28; docs/BEHAVIOUR.md §18): the
/// read then fails with `MCPR_INPUT_REQUIRED` and this error object.
/// Without this call: `-32603` "Input required: this protocol revision
/// cannot carry the request for input".
///
/// \param builder The builder.
/// \param code The JSON-RPC code; not in `-32099` to `-32020` (reserved for
///   the MCP specification).
/// \param message The message (copied): 1 to 256 bytes of UTF-8 without
///   control characters.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a reserved code or a
///   bad message (nothing changes); `MCPR_INVALID_ARGUMENT` for a NULL
///   `builder` or a `(NULL, n > 0)` message.
/// \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
///   nor freed; `message` follows the `mcpr_str` rules; `err` is NULL or
///   points at writable storage for one `mcpr_error *`.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_set_input_unsupported_error(
    builder: *mut mcpr_builder,
    code: i32,
    message: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let set = |inner: &mut ResourcesBuilder| {
            let message = unsafe { message.text(FailureKind::InvalidConfiguration, "message") }?;
            crate::registry::check_input_unsupported_error(code, message)?;
            inner.set_input_unsupported_error(code, message);
            Ok(())
        };
        unsafe { with_builder(builder, set) }
    };
    unsafe { guard_status(err, body) }
}

/// `mcpr_builder_add` with the binding's cache hints. Its reads get
/// `hints->ttl_ms` instead of the registry's TTL, and may be `"public"` when
/// `hints->caller_independent` and the registry's `policy_caller_independent`
/// are both true.
///
/// \param builder The builder.
/// \param definition_json As for `mcpr_builder_add`.
/// \param callbacks As for `mcpr_builder_add`.
/// \param hints The binding's hints (`struct_size` set, see
///   `mcpr_cache_hints`); read during the call only.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return As for `mcpr_builder_add`, plus `MCPR_INVALID_ARGUMENT` for a NULL
///   `hints` or hints with a bad `struct_size` or set fields beyond it that
///   this library does not know, and `MCPR_INVALID_CONFIGURATION` for a TTL
///   above `MCPR_MAX_TTL_MS`.
/// \pre As for `mcpr_builder_add`; `hints` is NULL or points at hints of
///   `struct_size` readable bytes.
/// \post On success the table's `release` will run exactly once; on failure it
///   never runs for this call.
/// \note Thread-safe: a builder is internally locked, so concurrent calls on
///   one builder are safe (if pointless).
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_builder_add_with_hints(
    builder: *mut mcpr_builder,
    definition_json: mcpr_str,
    callbacks: *const mcpr_binding_callbacks,
    hints: *const mcpr_cache_hints,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let add = |state: &mut BuilderState| {
            let hints = unsafe { hints_of(hints) }?;
            hints.validate()?;
            let binding =
                unsafe { binding_from_c(definition_json, callbacks, &mut state.handlers) }?;
            state.core.push(binding.with_cache_hints(hints));
            Ok(())
        };
        unsafe { with_state(builder, add) }
    };
    unsafe { guard_status(err, body) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::all::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    unsafe extern "C-unwind" fn resolve_nothing(
        _: *mut c_void,
        _: *const mcpr_call,
        _: *const mcpr_match,
        _: *mut mcpr_plan_builder,
    ) -> mcpr_cb_result {
        MCPR_CB_OK
    }

    unsafe extern "C-unwind" fn read_nothing(
        _: *mut c_void,
        _: *const mcpr_call,
        _: *const mcpr_target,
        _: *mut mcpr_payload_builder,
    ) -> mcpr_cb_result {
        MCPR_CB_OK
    }

    unsafe extern "C-unwind" fn size_nothing(
        _: *mut c_void,
        _: *const mcpr_target,
        _: u64,
        _: bool,
        _: *mut u64,
    ) -> mcpr_cb_result {
        MCPR_CB_OK
    }

    /// Releases run by [`count_release`] (this test's tables only).
    static RELEASES: AtomicUsize = AtomicUsize::new(0);

    unsafe extern "C-unwind" fn count_release(_: *mut c_void) {
        RELEASES.fetch_add(1, Ordering::SeqCst);
    }

    fn table(user_data: usize) -> mcpr_binding_callbacks {
        mcpr_binding_callbacks {
            struct_size: std::mem::size_of::<mcpr_binding_callbacks>(),
            user_data: user_data as *mut c_void,
            resolve: Some(resolve_nothing),
            read: Some(read_nothing),
            release: None,
            complete: None,
            size_hint: None,
        }
    }

    #[test]
    fn adds_share_a_table_copy_only_when_every_field_is_equal_and_there_is_no_release() {
        let mut cache = HandlerCache::default();
        let first = cache.handler(&table(1)).ok().expect("a complete table");
        let again = cache.handler(&table(1)).ok().expect("a complete table");
        assert!(
            Arc::ptr_eq(&first, &again),
            "an equal table shares the copy"
        );
        // Any field that differs gets a copy of its own.
        let other_data = cache.handler(&table(2)).ok().expect("a complete table");
        assert!(!Arc::ptr_eq(&first, &other_data));
        let mut sized = table(2);
        sized.size_hint = Some(size_nothing);
        let other_field = cache.handler(&sized).ok().expect("a complete table");
        assert!(!Arc::ptr_eq(&other_data, &other_field));
        // A table with a release is copied at every add, so that its release
        // runs once per add.
        let mut releasing = table(3);
        releasing.release = Some(count_release);
        let r1 = cache.handler(&releasing).ok().expect("a complete table");
        let r2 = cache.handler(&releasing).ok().expect("a complete table");
        assert!(!Arc::ptr_eq(&r1, &r2));
        drop((r1, r2, cache));
        assert_eq!(RELEASES.load(Ordering::SeqCst), 2);
        // A refused table (no resolve) is refused, not served from the cache.
        let mut cache = HandlerCache::default();
        cache.handler(&table(4)).ok().expect("a complete table");
        let mut incomplete = table(4);
        incomplete.resolve = None;
        assert!(cache.handler(&incomplete).is_err());
    }
}
