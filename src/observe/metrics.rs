//! Call metrics without an observer (docs/BEHAVIOUR.md §19): per method
//! and outcome, the calls, their total duration, the partial results and
//! a latency histogram, kept by every registry and read with
//! `Resources::metrics` (C `mcpr_resources_get_metrics`).
//!
//! Cheap enough to leave on: a call adds to two or three counters of a
//! shard on cache lines no other shard uses, and nothing is allocated per
//! call. The first threads that count (one fewer than there are shards,
//! the same number in every registry of the process) each own a shard and
//! add with a plain relaxed load and store (no locked instruction: no other
//! thread writes there); every later thread counts in the last shard, with
//! atomic additions. A snapshot sums the shards; it is not atomic
//! across counters (a call finishing meanwhile may be counted in one
//! counter and not yet in another).

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use super::CallMethod;

/// Latency buckets of the histogram: bucket 0 counts calls under
/// 1,024 ns (2^10), bucket `i` (1 to 26) calls of `[2^(9+i), 2^(10+i))`
/// ns, and bucket 27 calls of 2^36 ns (about 68.7 s) or more.
///
/// cbindgen:ignore
pub const LATENCY_BUCKETS: usize = 28;

/// Outcomes counted per method: `0` a success, `1` to `13` the failure
/// kinds (`FailureKind` values, the C `mcpr_status` values).
const OUTCOMES: usize = 14;

/// Counters of one (method, outcome): the total duration, the partial
/// results (successes only) and the buckets; the call count is the sum of
/// the buckets.
const CELL: usize = 2 + LATENCY_BUCKETS;
const SUM: usize = 0;
const PARTIAL: usize = 1;
const FIRST_BUCKET: usize = 2;

/// Counters per shard, rounded up to whole 128-byte lines (two shards
/// never share a line, nor an adjacent-line prefetch pair).
const SHARD: usize = (CallMethod::COUNT * OUTCOMES * CELL).div_ceil(16) * 16;

/// The most shards a registry keeps.
const MAX_SHARDS: usize = 32;

/// The calls of one method with one outcome, as counted so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutcomeMetrics {
    /// Calls counted.
    pub calls: u64,
    /// Of them, partial results (a success whose bundle is partial).
    pub partial: u64,
    /// Their total duration, in nanoseconds.
    pub total_ns: u64,
    /// The latency histogram (see [`LATENCY_BUCKETS`] for the bounds).
    pub buckets: [u64; LATENCY_BUCKETS],
}

impl OutcomeMetrics {
    /// The lower bound of bucket `i`, in nanoseconds (0 for the first).
    pub fn bucket_lower_ns(i: usize) -> u64 {
        if i == 0 {
            0
        } else {
            1u64 << (9 + i.min(LATENCY_BUCKETS - 1))
        }
    }
}

/// The counters of one registry.
pub(crate) struct Metrics {
    counters: Box<[AtomicU64]>,
    shards: usize,
}

/// The bucket of a duration in nanoseconds.
#[inline]
fn bucket(ns: u64) -> usize {
    // 0..=1023 -> 0; [2^k, 2^(k+1)) -> k - 9 for k >= 10.
    let bits = 64 - (ns | 1).leading_zeros() as usize;
    bits.saturating_sub(10).min(LATENCY_BUCKETS - 1)
}

/// This thread's number among the threads that counted a call (from 0, in
/// the order of their first count). A constant-initialised slot without a
/// destructor: reading it is one thread-local lookup, with no lazy-init
/// state to test and no destructor to register.
#[inline]
fn thread_number() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static NUMBER: Cell<usize> = const { Cell::new(usize::MAX) };
    }
    NUMBER.with(|n| match n.get() {
        usize::MAX => {
            let number = NEXT.fetch_add(1, Ordering::Relaxed).min(usize::MAX - 1);
            n.set(number);
            number
        }
        number => number,
    })
}

/// A duration in nanoseconds, saturated at `u64::MAX` (about 584 years):
/// seconds and nanoseconds added in 64 bits, without the 128-bit
/// `Duration::as_nanos`.
#[inline]
pub(crate) fn nanos(d: Duration) -> u64 {
    d.as_secs()
        .saturating_mul(1_000_000_000)
        .saturating_add(u64::from(d.subsec_nanos()))
}

/// The shards of every registry of the process: one per available CPU (a
/// power of two, 2 to 32), fixed at the first registry, so that a thread
/// owning a shard owns it in every registry.
fn shard_count() -> usize {
    static SHARDS: OnceLock<usize> = OnceLock::new();
    *SHARDS.get_or_init(|| {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        cpus.next_power_of_two().clamp(2, MAX_SHARDS)
    })
}

/// Adds `v` to `c`: a plain load and store where this thread alone writes
/// (`owned`), else an atomic addition.
#[inline(always)]
fn add(c: &AtomicU64, v: u64, owned: bool) {
    if owned {
        c.store(c.load(Ordering::Relaxed).wrapping_add(v), Ordering::Relaxed);
    } else {
        c.fetch_add(v, Ordering::Relaxed);
    }
}

impl Metrics {
    /// Zeroed counters (see [`shard_count`]).
    pub(crate) fn new() -> Metrics {
        let shards = shard_count();
        let counters = (0..shards * SHARD).map(|_| AtomicU64::new(0)).collect();
        Metrics { counters, shards }
    }

    /// Counts one call of `method` that ended with `outcome` (0 success,
    /// else the failure kind's value) after `ns` nanoseconds (its bucket is
    /// the bit length of `ns`: one leading-zero count).
    #[inline]
    pub(crate) fn record(&self, method: CallMethod, outcome: u32, partial: bool, ns: u64) {
        let shared = self.shards - 1;
        let number = thread_number();
        let (shard, owned) = if number < shared {
            (number, true)
        } else {
            (shared, false)
        };
        let outcome = (outcome as usize).min(OUTCOMES - 1);
        let at = shard * SHARD + (method.index() * OUTCOMES + outcome) * CELL;
        let cell = &self.counters[at..at + CELL];
        add(&cell[SUM], ns, owned);
        add(&cell[FIRST_BUCKET + bucket(ns)], 1, owned);
        if partial {
            add(&cell[PARTIAL], 1, owned);
        }
    }

    /// The counters of `method` and `outcome`, summed over the shards.
    pub(crate) fn get(&self, method: CallMethod, outcome: u32) -> OutcomeMetrics {
        let mut m = OutcomeMetrics::default();
        let outcome = outcome as usize;
        if outcome >= OUTCOMES {
            return m;
        }
        for shard in 0..self.shards {
            let at = shard * SHARD + (method.index() * OUTCOMES + outcome) * CELL;
            let cell = &self.counters[at..at + CELL];
            m.total_ns = m.total_ns.wrapping_add(cell[SUM].load(Ordering::Relaxed));
            m.partial += cell[PARTIAL].load(Ordering::Relaxed);
            for (b, c) in m.buckets.iter_mut().zip(&cell[FIRST_BUCKET..]) {
                *b += c.load(Ordering::Relaxed);
            }
        }
        m.calls = m.buckets.iter().sum();
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_powers_of_two_from_one_microsecond() {
        assert_eq!(bucket(0), 0);
        assert_eq!(bucket(1023), 0);
        assert_eq!(bucket(1024), 1);
        assert_eq!(bucket(2047), 1);
        assert_eq!(bucket(2048), 2);
        assert_eq!(bucket(1 << 35), 26);
        assert_eq!(bucket(1 << 36), 27);
        assert_eq!(bucket(u64::MAX), 27);
        for i in 1..LATENCY_BUCKETS {
            assert_eq!(bucket(OutcomeMetrics::bucket_lower_ns(i)), i);
            assert_eq!(bucket(OutcomeMetrics::bucket_lower_ns(i) - 1), i - 1);
        }
    }

    #[test]
    fn nanos_agree_with_duration_as_nanos_and_saturate() {
        for d in [
            Duration::ZERO,
            Duration::from_nanos(1023),
            Duration::new(3, 999_999_999),
            Duration::from_secs(584 * 365 * 86_400),
        ] {
            assert_eq!(u128::from(nanos(d)), d.as_nanos());
        }
        assert_eq!(nanos(Duration::MAX), u64::MAX);
    }

    #[test]
    fn calls_on_many_threads_are_all_counted() {
        let m = std::sync::Arc::new(Metrics::new());
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let m = m.clone();
                std::thread::spawn(move || {
                    for i in 0..1000u64 {
                        m.record(CallMethod::ResourcesRead, 0, i % 2 == 0, i);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let got = m.get(CallMethod::ResourcesRead, 0);
        assert_eq!(got.calls, 8000);
        assert_eq!(got.partial, 4000);
        assert_eq!(got.total_ns, 8 * (0..1000).sum::<u64>());
        assert_eq!(got.buckets[0], 8000);
        assert_eq!(m.get(CallMethod::ResourcesList, 0).calls, 0);
        assert_eq!(m.get(CallMethod::ResourcesRead, 2).calls, 0);
    }
}
