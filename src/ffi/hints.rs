//! Cache-hint declarations (`mcpr_cache_hints`): per registry, per binding,
//! per payload.
//!
//! What the library derives from them is described in the Rust module
//! `cache` and in docs/C-API.md ("Cache hints").

use crate::cache::CacheHints;

use super::boundary::guard;
use super::growth::{field_end, init_out, read_grown_opt, Grows};
use super::status::Error;

/// The largest TTL a declaration may carry: 2^53 - 1 milliseconds.
///
/// \ingroup builder
pub const MCPR_MAX_TTL_MS: u64 = 9_007_199_254_740_991;

/// Cache hints a host declares for a binding (`mcpr_builder_add_with_hints`)
/// or for one item (`mcpr_payload_set_cache_hints`).
///
/// Growth: set `struct_size` to `sizeof(mcpr_cache_hints)`, or start from
/// `MCPR_CACHE_HINTS_INIT` / `mcpr_cache_hints_init` (TTL 0, not
/// caller-independent). Later versions append fields; the library reads
/// only the fields lying wholly within `struct_size` (the others take these
/// defaults), refuses a `struct_size` below `sizeof(size_t)` or above 4096,
/// and refuses set bytes beyond the fields it knows
/// (`MCPR_INVALID_ARGUMENT`).
///
/// \ingroup builder
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_cache_hints {
    /// `sizeof(mcpr_cache_hints)` as the caller compiled it (see above).
    pub struct_size: usize,
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

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_cache_hints {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_cache_hints, ttl_ms),
        field_end!(mcpr_cache_hints, caller_independent),
    ];
}

/// Fills cache hints with the defaults: TTL 0, not caller-independent, and
/// `struct_size` set to `sizeof(mcpr_cache_hints)`, as
/// `MCPR_CACHE_HINTS_INIT` does.
///
/// \param hints The hints to fill, or NULL (then nothing happens).
/// \pre `hints` is NULL or points at a writable `mcpr_cache_hints`.
/// \note Thread-safe: touches only `*hints`.
///
/// \ingroup builder
#[no_mangle]
pub unsafe extern "C" fn mcpr_cache_hints_init(hints: *mut mcpr_cache_hints) {
    guard(|| unsafe { init_out(hints) })
}

/// The hints of a C struct, read by its `struct_size`.
///
/// # Safety
/// `h` is NULL or points at hints of `struct_size` readable bytes.
pub(super) unsafe fn hints_of(h: *const mcpr_cache_hints) -> Result<CacheHints, Error> {
    let h = unsafe { read_grown_opt(h) }?.ok_or_else(|| Error::argument("cache hints are NULL"))?;
    Ok(CacheHints::new(h.ttl_ms, h.caller_independent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn the_c_ttl_ceiling_equals_the_rust_one() {
        assert_eq!(super::MCPR_MAX_TTL_MS, crate::cache::MAX_TTL_MS);
    }

    /// The hints as a program built before `caller_independent` declares
    /// them, followed by a set byte where the newer field lies.
    #[repr(C)]
    struct Older {
        struct_size: usize,
        ttl_ms: u64,
        after: bool,
    }

    #[test]
    fn older_smaller_hints_are_read_with_defaults_for_the_fields_they_lack() {
        let older = Older {
            struct_size: 16,
            ttl_ms: 70,
            after: true,
        };
        // SAFETY: `older` holds `struct_size` readable bytes.
        let got = unsafe { hints_of((&older as *const Older).cast()) }
            .ok()
            .unwrap();
        assert_eq!(got, CacheHints::new(70, false));
    }

    #[test]
    fn newer_larger_hints_need_their_unknown_bytes_zero() {
        #[repr(C)]
        struct Newer {
            h: mcpr_cache_hints,
            more: u64,
        }
        let mut newer = Newer {
            h: mcpr_cache_hints {
                struct_size: size_of::<Newer>(),
                ttl_ms: 3,
                caller_independent: true,
            },
            more: 0,
        };
        // SAFETY: `newer` holds `struct_size` readable bytes.
        let got = unsafe { hints_of(&newer.h) }.ok().unwrap();
        assert_eq!(got, CacheHints::new(3, true));
        newer.more = 1;
        // SAFETY: as above.
        assert!(unsafe { hints_of(&newer.h) }.is_err());
    }

    #[test]
    fn impossible_sizes_and_null_are_refused() {
        for struct_size in [0, size_of::<usize>() - 1, 4097] {
            let h = mcpr_cache_hints {
                struct_size,
                ttl_ms: 1,
                caller_independent: true,
            };
            // SAFETY: the size is refused before anything beyond `h` is read.
            assert!(unsafe { hints_of(&h) }.is_err());
        }
        // SAFETY: NULL is accepted.
        assert!(unsafe { hints_of(std::ptr::null()) }.is_err());
    }
}
