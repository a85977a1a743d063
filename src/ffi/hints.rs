//! Cache-hint declarations (`mcpr_cache_hints`): per registry, per binding,
//! per payload.
//!
//! What the library derives from them is described in the Rust module
//! `cache` and in docs/C-API.md ("Cache hints").

use crate::cache::CacheHints;

use super::status::Error;

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
pub(super) unsafe fn hints_of(h: *const mcpr_cache_hints) -> Result<CacheHints, Error> {
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_c_ttl_ceiling_equals_the_rust_one() {
        assert_eq!(super::MCPR_MAX_TTL_MS, crate::cache::MAX_TTL_MS);
    }
}
