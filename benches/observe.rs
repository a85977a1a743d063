//! Observability's cost (plain main, no harness; docs/BEHAVIOUR.md §19):
//! the small exact read (1 KiB text, the built-in allow-all policy, inline)
//! with no observer, with an empty observer of call events, and with an
//! empty observer of decision events: heap allocations per read (counted
//! by this benchmark's global allocator) and time per read (alternating
//! rounds, best of each), as multiples of the read without an observer.
//!
//! Run with `cargo bench --bench observe`. Prints GOAL lines: an empty
//! observer of call events allocates nothing more than no observer (goal:
//! 0 more per read), and an empty observer within 1.1x of none, with
//! decisions too. Nothing is asserted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use mcp_resources::*;

mod common;
use common::Small;

/// Counts every allocation (and reallocation) of the process.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// An observer that does nothing with what it is given.
struct Empty(Interests);

impl Observer for Empty {
    fn interests(&self) -> Interests {
        self.0
    }
    fn call(&self, event: &CallEvent<'_>) {
        black_box(event.call_id);
    }
    fn decision(&self, event: &DecisionEvent<'_>) {
        black_box(event.call_id);
    }
}

fn registry(observer: Option<Interests>) -> Resources {
    let small = Arc::new(Small {
        text: "abcdefghijklmnop".repeat(64),
    });
    let mut b = Resources::builder()
        .policy(Arc::new(AllowAll))
        .binding(ResourceBinding::new(r#"{"uri":"doc://small","name":"small"}"#, small).unwrap());
    if let Some(i) = observer {
        b = b.observer(Arc::new(Empty(i)));
    }
    b.build().unwrap()
}

/// Allocations per read, over `n` reads.
fn allocations(r: &Resources, n: u64) -> f64 {
    let o = ReadOptions::default();
    for _ in 0..100 {
        black_box(r.read(b"doc://small", &o).unwrap());
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..n {
        black_box(r.read(black_box(b"doc://small"), &o).unwrap());
    }
    (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / n as f64
}

/// Nanoseconds per read, over `n` reads.
fn per_read(r: &Resources, n: u32) -> f64 {
    let o = ReadOptions::default();
    let start = Instant::now();
    for _ in 0..n {
        black_box(r.read(black_box(b"doc://small"), &o).unwrap());
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(n)
}

fn main() {
    let calls = Interests::default();
    let decisions = Interests {
        decisions: true,
        ..Interests::default()
    };
    let variants = [
        ("no observer", registry(None)),
        ("empty observer (call events)", registry(Some(calls))),
        (
            "empty observer (decision events)",
            registry(Some(decisions)),
        ),
    ];
    println!("mcp-resources observability benchmark (small exact read, inline)");
    let allocs: Vec<f64> = variants
        .iter()
        .map(|(_, r)| allocations(r, 20_000))
        .collect();
    let mut best = [f64::MAX; 3];
    for _ in 0..7 {
        for (i, (_, r)) in variants.iter().enumerate() {
            best[i] = best[i].min(per_read(r, 40_000));
        }
    }
    for (i, (label, _)) in variants.iter().enumerate() {
        println!(
            "observe/{label:<34} {:>8.0} ns/read  {:>5.2}x no observer  {:>5.2} allocations/read",
            best[i],
            best[i] / best[0],
            allocs[i]
        );
    }
    let extra = allocs[1] - allocs[0];
    println!(
        "GOAL observe_empty_observer_extra_allocations {extra:.2} per read (goal 0) {}",
        if extra <= 0.0 { "met" } else { "NOT met" }
    );
    for (i, name) in [(1, "call_events"), (2, "decision_events")] {
        let ratio = best[i] / best[0];
        println!(
            "GOAL observe_empty_observer_{name}_over_none {ratio:.2}x (goal <= 1.1x) {}",
            if ratio <= 1.1 { "met" } else { "NOT met" }
        );
    }
}
