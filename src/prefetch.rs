//! Memory hints: cache prefetches, for loops over data scattered on the
//! heap, and mapping a large buffer before it is written.

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

/// Cache line size assumed by [`prefetch_bytes`].
const LINE: usize = 64;

/// Hints the CPU to start loading the cache lines holding the `len` bytes
/// at `p`, up to the first 192 bytes and the line of byte 192 (an object or
/// a short text that straddles a line boundary otherwise misses on its
/// second line after the first was prefetched; the hardware prefetcher
/// follows a longer sequential copy on its own). Four hints, no branch:
/// every line of the range is hit by one of the points `p`, `p + 64`,
/// `p + 128` and its last byte (clamped to the range). Nothing else
/// happens.
#[inline(always)]
pub(crate) fn prefetch_bytes(p: *const u8, len: usize) {
    // `wrapping_add`: a hint's address is never dereferenced.
    let last = len.saturating_sub(1).min(3 * LINE);
    prefetch(p);
    prefetch(p.wrapping_add(last.min(LINE)));
    prefetch(p.wrapping_add(last.min(2 * LINE)));
    prefetch(p.wrapping_add(last));
}

/// [`prefetch_bytes`] over the whole of `*value` (its inline part; what
/// it points to is not followed).
#[inline(always)]
pub(crate) fn prefetch_object<T>(value: *const T) {
    prefetch_bytes(value.cast(), std::mem::size_of::<T>());
}

/// Asks the kernel to map, writable, every page holding the `len` bytes at
/// `p` now, in one request, instead of one page fault per page as they are
/// first written (about 2 us each on a virtual machine). Contents are
/// unchanged (pages already mapped stay as they are; new ones read as
/// zeros, as they would on first touch); the pages are whole pages of the
/// caller's allocation or of neighbouring memory already mapped writable.
/// A hint: failure (a kernel older than 5.14, no memory) is ignored, and
/// elsewhere than on Linux nothing happens.
#[inline]
pub(crate) fn populate_for_write(p: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        if len == 0 {
            return;
        }
        let start = p as usize & !(PAGE - 1);
        let end = (p as usize + len).div_ceil(PAGE) * PAGE;
        // SAFETY: `[start, end)` is whole pages each holding a byte of the
        // caller's live allocation, so all mapped; MADV_POPULATE_WRITE
        // only faults pages in (as a write would, without writing) and
        // changes no byte of memory. Any error leaves memory as it was.
        unsafe {
            libc::madvise(
                p.wrapping_sub(p as usize - start).cast(),
                end - start,
                libc::MADV_POPULATE_WRITE,
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, len);
}
