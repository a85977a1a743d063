//! One spare result buffer per thread: the JSON text of a dropped bundle
//! (`mcpr_bundle_free`, or a Rust [`ResourceBundle`](super::ResourceBundle)
//! going out of scope) is kept for the next read's result on the same
//! thread, instead of going back to the allocator and being asked for again.
//!
//! A result of a kilobyte or more is past the allocator's per-thread caches
//! (glibc's tcache ends at 1,032 bytes), so its allocation and release each
//! went through the general heap (about 500 instructions per read in the
//! W1 profile, see docs/benchmarks/NOTES.md). Only buffers of at most
//! [`MAX_SPARE`] bytes are kept, at most one per thread, and one is reused
//! only for a result that needs at least half of it, so a bundle never
//! carries much more capacity than its text.

use std::cell::Cell;

/// The largest buffer kept (bytes of capacity).
pub(super) const MAX_SPARE: usize = 16 * 1024;

thread_local! {
    static SPARE: Cell<Option<String>> = const { Cell::new(None) };
}

/// An empty buffer of at least `capacity` bytes: this thread's spare when
/// it fits (at least `capacity`, at most twice it), else a new one.
pub(super) fn buffer(capacity: usize) -> String {
    if capacity <= MAX_SPARE {
        if let Some(mut b) = take() {
            if b.capacity() >= capacity && b.capacity() / 2 <= capacity {
                b.clear();
                return b;
            }
            // Does not fit: given back, for a result that it does fit.
            keep(b);
        }
    }
    String::with_capacity(capacity)
}

/// Takes this thread's spare, if any (for a read whose result another
/// thread assembles, see `read::pooled`).
pub(super) fn take() -> Option<String> {
    SPARE.try_with(Cell::take).ok().flatten()
}

/// Keeps `b` as this thread's spare when it is small enough (the previous
/// spare, if any, is freed); otherwise frees it.
pub(super) fn keep(b: String) {
    if b.capacity() == 0 || b.capacity() > MAX_SPARE {
        return;
    }
    // During thread exit the slot may be gone: `b` is then simply freed.
    let _ = SPARE.try_with(|s| s.set(Some(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_buffer_is_reused_only_when_it_fits() {
        let mut b = String::with_capacity(1000);
        b.push_str("old text");
        let p = b.as_ptr();
        keep(b);
        // Too large a need: a new buffer, the spare stays.
        let big = buffer(4000);
        assert!(big.capacity() >= 4000 && big.as_ptr() != p);
        // Too small a need (under half the spare): a new buffer.
        let small = buffer(100);
        assert!(small.as_ptr() != p);
        // A fitting need: the spare, emptied.
        let again = buffer(900);
        assert_eq!(again.as_ptr(), p);
        assert!(again.is_empty() && again.capacity() >= 900);
        // Taken: the next one is new.
        let next = buffer(900);
        assert!(next.as_ptr() != p);
    }

    #[test]
    fn large_buffers_are_never_kept() {
        keep(String::with_capacity(MAX_SPARE + 1));
        assert!(SPARE.with(Cell::take).is_none());
        keep(String::with_capacity(MAX_SPARE));
        assert_eq!(
            SPARE.with(Cell::take).map(|b| b.capacity()),
            Some(MAX_SPARE)
        );
    }
}
