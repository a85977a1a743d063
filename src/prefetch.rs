//! A cache prefetch hint, for loops over data scattered on the heap.

/// Hints the CPU to start loading the cache line at `p`; nothing else
/// happens (a no-op on targets without a prefetch hint).
#[inline(always)]
pub(crate) fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint with no architectural effect: it reads
    // no memory the program can observe and never faults, whatever `p` is.
    // SSE is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
