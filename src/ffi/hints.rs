//! Cache-hint declarations: per registry, per binding, per payload.
//!
//! What the library derives from them is described in the Rust module
//! `cache` and in docs/C-API.md ("Cache hints").

use super::boundary::{guard_status, mcpr_error, mcpr_status, mcpr_str, Error};
use super::builder::binding_from_c;
use super::builder::{mcpr_builder, with_builder};
use super::callbacks::{mcpr_binding_callbacks, mcpr_payload_builder, payload_ref};
use crate::cache::{CacheHints, RegistryCacheHints};
use crate::error::{Failure, FailureKind};
use crate::registry::ResourcesBuilder;

/// The largest TTL a declaration may carry: 2^53 - 1 milliseconds.
pub const MCPR_MAX_TTL_MS: u64 = 9_007_199_254_740_991;

/// Cache hints a host declares for a binding (`mcpr_builder_add_with_hints`)
/// or for one item (`mcpr_payload_set_cache_hints`).
///
/// Set `size` to `sizeof(mcpr_cache_hints)`: later versions of the library
/// may append fields, and read only those that the given `size` covers
/// (fields beyond it take their zero defaults). A `size` smaller than the
/// fields of this version is `MCPR_INVALID_ARGUMENT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_cache_hints {
    /// `sizeof(mcpr_cache_hints)`.
    pub size: usize,
    /// How long a result made of this content may be considered fresh, in
    /// milliseconds (0 = immediately stale; at most `MCPR_MAX_TTL_MS`, else
    /// `MCPR_INVALID_CONFIGURATION`, or `MCPR_INVALID_CONTENT` for an item).
    pub ttl_ms: u64,
    /// Whether the content is the same whoever asks. A result is
    /// `"public"` only when this and the registry's
    /// `policy_caller_independent` are both true and the policy filtered
    /// nothing.
    pub caller_independent: bool,
}

/// # Safety
/// `h` is NULL or points at a struct whose first field is its size and
/// that is valid for that many bytes of reads.
unsafe fn hints_of(h: *const mcpr_cache_hints) -> Result<CacheHints, Error> {
    if h.is_null() {
        return Err(Error::argument("cache hints are NULL"));
    }
    // SAFETY: `h` is non-null and its first field is readable (caller's
    // guarantee).
    let size = unsafe { std::ptr::addr_of!((*h).size).read_unaligned() };
    if size < std::mem::size_of::<mcpr_cache_hints>() {
        return Err(Error::argument(
            "cache hints size is smaller than sizeof(mcpr_cache_hints)",
        ));
    }
    // SAFETY: `size` covers every field of this version (checked).
    let h = unsafe { h.read_unaligned() };
    Ok(CacheHints::new(h.ttl_ms, h.caller_independent))
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
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        unsafe { with_builder(b, set) }
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
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
        // SAFETY: `b` is NULL or a live builder (caller's guarantee).
        unsafe { with_builder(b, add) }
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Declares this item's cache hints (copied; a later call replaces them).
/// They can only lower what its binding declared: the item's TTL is the
/// smaller of the two, and it is caller-independent only when both say so;
/// a bundle's TTL is the smallest of its items'. Refusals (NULL hints, bad
/// `size`: `MCPR_INVALID_ARGUMENT`; TTL above `MCPR_MAX_TTL_MS`:
/// `MCPR_INVALID_CONTENT`) make the item `invalid_content`, as for the
/// other payload setters.
///
/// # Safety
/// `o` is NULL or the payload builder of a body `read` callback that has
/// not returned; `hints` is NULL or points at a sized `mcpr_cache_hints`;
/// `err` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_cache_hints(
    o: *mut mcpr_payload_builder,
    hints: *const mcpr_cache_hints,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `o` is NULL or a live payload builder (caller's guarantee).
        let o = unsafe { payload_ref(o) }?;
        let mut o = o.lock();
        // SAFETY: `hints` is NULL or a sized struct (caller's guarantee).
        let hints = match unsafe { hints_of(hints) } {
            Ok(h) => h,
            Err(e) => return Err(o.refuse_argument(e)),
        };
        if let Err(why) = CacheHints::check_ttl(hints.ttl_ms) {
            return Err(o.refuse(Failure::with_message(FailureKind::InvalidContent, why)));
        }
        o.cache = Some(hints);
        Ok(())
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_c_ttl_ceiling_equals_the_rust_one() {
        assert_eq!(super::MCPR_MAX_TTL_MS, crate::cache::MAX_TTL_MS);
    }
}
