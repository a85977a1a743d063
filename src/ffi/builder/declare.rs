//! The builder's registry-wide declarations: cache hints, the change
//! notifications the host delivers, and the error of a read that asks for
//! input where input is not supported.

use super::*;

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
        let types = crate::ffi::notify::types_of(notifications)?;
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
