//! One spare result buffer per thread: the JSON text of a dropped bundle
//! (`mcpr_bundle_free`, or a Rust [`ResourceBundle`](super::ResourceBundle)
//! going out of scope) is kept for the next read's result on the same
//! thread, instead of going back to the allocator and being asked for again;
//! and with it the bundle's list of item spans (at most [`MAX_SPARE_SPANS`]),
//! which would otherwise be one more allocation per read.
//!
//! A result of a kilobyte or more is past the allocator's per-thread caches
//! (glibc's tcache ends at 1,032 bytes), so its allocation and release each
//! went through the general heap (about 500 instructions per read in the
//! W1 profile, see docs/benchmarks/NOTES.md). Only buffers of at most
//! [`MAX_SPARE`] bytes are kept, at most one per thread, and one is reused
//! only for a result that needs at least half of it, so a bundle never
//! carries much more capacity than its text.

use std::cell::Cell;

use crate::sizing::ItemSpans;

/// The largest buffer kept (bytes of capacity).
pub(super) const MAX_SPARE: usize = 16 * 1024;

/// The most item spans a kept list holds room for.
pub(super) const MAX_SPARE_SPANS: usize = 64;

/// What one thread keeps: a result buffer, and the list of item spans of
/// the same dropped bundle (empty, without capacity, when none is kept).
/// One thread-local slot for both, so a read looks it up once to take them
/// and once to give them back.
#[derive(Default)]
pub(crate) struct Spare {
    json: Option<String>,
    spans: Vec<ItemSpans>,
}

thread_local! {
    static SPARE: Cell<Spare> = const {
        Cell::new(Spare {
            json: None,
            spans: Vec::new(),
        })
    };
}

/// Whether a spare of `capacity` serves a need of `need` (at least it, at
/// most twice it).
fn fits(capacity: usize, need: usize) -> bool {
    capacity >= need && capacity / 2 <= need
}

/// An empty buffer of at least `capacity` bytes: this thread's spare when
/// it fits (at least `capacity`, at most twice it), else a new one.
#[cfg(test)]
pub(super) fn buffer(capacity: usize) -> String {
    buffers(capacity, 0).0
}

/// An empty result buffer of at least `capacity` bytes and an empty list
/// with room for `items` item spans: this thread's spares when they fit
/// (the buffer: at least `capacity`, at most twice it; the list: room for
/// at least `items`), else new ones. A spare that does not fit is kept.
pub(super) fn buffers(capacity: usize, items: usize) -> (String, Vec<ItemSpans>) {
    let taken = SPARE
        .try_with(|slot| {
            let mut spare = slot.take();
            let json = match spare.json.take() {
                Some(mut b) if capacity <= MAX_SPARE && fits(b.capacity(), capacity) => {
                    b.clear();
                    Some(b)
                }
                other => {
                    // Does not fit: kept, for a result that it does fit.
                    spare.json = other;
                    None
                }
            };
            let spans = if spare.spans.capacity() >= items {
                let mut v = std::mem::take(&mut spare.spans);
                v.clear();
                Some(v)
            } else {
                None
            };
            if spare.json.is_some() || spare.spans.capacity() > 0 {
                slot.set(spare);
            }
            (json, spans)
        })
        .unwrap_or((None, None));
    (
        taken.0.unwrap_or_else(|| String::with_capacity(capacity)),
        taken.1.unwrap_or_else(|| Vec::with_capacity(items)),
    )
}

/// Takes this thread's spares (for a read whose result another thread
/// assembles, see `read::pooled`: that thread [`adopt`]s them).
pub(super) fn take() -> Spare {
    SPARE.try_with(Cell::take).unwrap_or_default()
}

/// Makes `spare` (another thread's, taken by [`take`]) this thread's: the
/// result it assembles next goes into it.
pub(super) fn adopt(spare: Spare) {
    keep_both(spare.json.unwrap_or_default(), spare.spans);
}

/// Keeps `b` as this thread's spare buffer when it is small enough (the
/// previous spare, if any, is freed); otherwise frees it.
#[cfg(test)]
pub(super) fn keep(b: String) {
    keep_both(b, Vec::new());
}

/// Keeps a dropped bundle's buffer and list of spans as this thread's
/// spares, each when it is small enough (and not empty of capacity: the
/// previous spare then stays); the spares they replace are freed.
pub(super) fn keep_both(b: String, spans: Vec<ItemSpans>) {
    let json = (b.capacity() > 0 && b.capacity() <= MAX_SPARE).then_some(b);
    let spans = (spans.capacity() > 0 && spans.capacity() <= MAX_SPARE_SPANS).then_some(spans);
    if json.is_none() && spans.is_none() {
        return;
    }
    // During thread exit the slot may be gone: they are then simply freed.
    let _ = SPARE.try_with(|slot| {
        let mut spare = slot.take();
        if let Some(b) = json {
            spare.json = Some(b);
        }
        if let Some(v) = spans {
            spare.spans = v;
        }
        slot.set(spare);
    });
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
        assert!(SPARE.with(Cell::take).json.is_none());
        keep(String::with_capacity(MAX_SPARE));
        assert_eq!(
            SPARE.with(Cell::take).json.map(|b| b.capacity()),
            Some(MAX_SPARE)
        );
    }

    #[test]
    fn a_kept_list_of_spans_is_reused_when_it_has_room() {
        let v: Vec<ItemSpans> = Vec::with_capacity(4);
        let p = v.as_ptr();
        keep_both(String::new(), v);
        // Room for fewer: the spare, empty.
        let (_, again) = buffers(10, 2);
        assert_eq!(again.as_ptr(), p);
        assert!(again.is_empty());
        keep_both(String::new(), again);
        // Room for more than it has: a new list, the spare stays.
        let (_, more) = buffers(10, 5);
        assert!(more.capacity() >= 5 && more.as_ptr() != p);
        let (_, kept) = buffers(10, 4);
        assert_eq!(kept.as_ptr(), p);
        // Too large a list is never kept.
        keep_both(String::new(), Vec::with_capacity(MAX_SPARE_SPANS + 1));
        assert_eq!(SPARE.with(Cell::take).spans.capacity(), 0);
    }
}
