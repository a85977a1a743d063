//! How the executor's threads wait for each other: a submitter for its
//! job's result, an idle worker for the next job. Briefly polling (spinning,
//! then yielding) before parking, steered by the CPU hints of `cpu.rs`.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::cpu::CpuHint;

/// How long a waiter polls for a result, and an idle worker for the next
/// job, before blocking. Bounded and short: it only saves the park/unpark
/// round trip of short callbacks and back-to-back jobs.
pub(super) const SPIN: Duration = Duration::from_micros(20);

/// How long a poll spins on the CPU before it starts yielding, while the
/// thread it polls for runs on another CPU. Longer than a small read's
/// whole pipeline on a worker (about a microsecond): a yield is a system
/// call (about a microsecond in a virtual machine), and a result that
/// arrives just after the spin ended was noticed only after several
/// (docs/benchmarks/NOTES.md). A poll whose peer shares its CPU does not
/// spin at all (see [`CpuHint`]), so the spin only costs the polling
/// thread's own CPU.
const PURE_SPIN: Duration = Duration::from_micros(5);

/// One in this many waits that find the worker on the waiter's CPU parks
/// at once instead of yielding (see [`park_until`]).
const PARK_EVERY_SHARED: u32 = 32;

/// Polls with `try_take` for at most [`SPIN`] (and not past `limit`),
/// keeping `mine` (this thread's hint) current: first spinning (a handoff
/// to another CPU takes a microsecond or two) until `peer` (the thread
/// polled for) is seen on this CPU, then yielding between polls (when the
/// thread polled for shares this CPU, yielding lets it run instead of
/// burning the slice).
pub(super) fn spin_poll<T>(
    mut try_take: impl FnMut() -> Option<T>,
    mine: &CpuHint,
    peer: &CpuHint,
    limit: Instant,
) -> Option<T> {
    let start = Instant::now();
    let spin_until = (start + PURE_SPIN).min(limit);
    let until = (start + SPIN).min(limit);
    loop {
        if peer.is_on(mine.set_here()) {
            break;
        }
        for _ in 0..16 {
            if let Some(v) = try_take() {
                return Some(v);
            }
            std::hint::spin_loop();
        }
        if Instant::now() >= spin_until {
            break;
        }
    }
    loop {
        if let Some(v) = try_take() {
            return Some(v);
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::yield_now();
    }
}

/// Waits on the calling thread (the submitter, whose CPU hint is `mine`)
/// for a job run by a worker (whose hint is `worker`) until `ready()` holds
/// or `until` passes (briefly polling, then parking); returns whether
/// `ready()` held. Whoever makes `ready()` true must unpark this thread
/// afterwards. `shared_waits` counts the waits that found the worker on
/// this thread's CPU.
///
/// When the worker last ran on this thread's CPU, the poll yields instead
/// of spinning, and one such wait in [`PARK_EVERY_SHARED`] parks at once:
/// two threads that only yield to each other are always runnable, so the
/// scheduler's load balancing keeps them together (both look cache-hot)
/// even while another CPU idles; the wake-up of a parked thread is where
/// the scheduler places it on an idle CPU, if there is one.
pub(super) fn park_until(
    mine: &CpuHint,
    worker: &CpuHint,
    shared_waits: &AtomicU32,
    ready: impl Fn() -> bool,
    until: Instant,
) -> bool {
    let cpu = mine.set_here();
    let park_now = worker.is_on(cpu)
        && shared_waits
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(PARK_EVERY_SHARED);
    if !park_now && spin_poll(|| ready().then_some(()), mine, worker, until).is_some() {
        return true;
    }
    loop {
        if ready() {
            return true;
        }
        let now = Instant::now();
        if now >= until {
            return false;
        }
        std::thread::park_timeout(until - now);
    }
}
