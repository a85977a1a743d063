//! docs/BEHAVIOUR.md §8: an executor never becomes unusable; saturation
//! is bounded, visible and fails fast. A thousand never-returning readers
//! (they wait on a gate the test opens at its very end). Alone in its
//! binary so that no other test's threads change the thread count.

mod executor_support;

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use executor_support::*;
use mcp_resources::*;

// A thousand never-returning readers: the pool replaces hung workers up to
// max_hung and then fails further reads of the hung binding at once (as
// read_failed items, cause "executor saturated"); threads and the queue
// stay bounded; healthy bindings are still served on the same executor,
// listings too; capacity returns when the readers return.
#[test]
fn a_thousand_never_returning_readers_keep_threads_and_queue_bounded_and_healthy_reads_succeed() {
    const THREADS: usize = 2;
    const MAX_HUNG: usize = 16;
    const CALLERS: usize = 8;
    const HUNG_READS: usize = 1000;
    let gate = Arc::new(Gate::default());
    let _opener = Opener(gate.clone());
    let before = os_threads();
    let ex = Executor::with_options(ExecutorOptions {
        threads: THREADS,
        max_hung: MAX_HUNG,
        max_queued: 0,
    })
    .unwrap();
    let r = Arc::new(registry(&gate, 50));
    let next = Arc::new(AtomicUsize::new(0));
    let peak_threads = Arc::new(AtomicUsize::new(0));
    let callers: Vec<_> = (0..CALLERS)
        .map(|c| {
            let (r, ex, next, peak) = (r.clone(), ex.clone(), next.clone(), peak_threads.clone());
            std::thread::spawn(move || {
                let mut out = Vec::new();
                loop {
                    let n = next.fetch_add(1, Ordering::SeqCst);
                    if n >= HUNG_READS {
                        break;
                    }
                    let o = ReadOptions::from(CallOptions {
                        timeout: Some(Duration::from_secs(10)),
                        executor: Some(ex.clone()),
                        ..CallOptions::default()
                    });
                    let start = Instant::now();
                    let res = r.read(format!("hang://h/{n}").as_bytes(), &o);
                    let took = start.elapsed();
                    // Healthy reads interleaved with the hung ones.
                    if n % 50 == c {
                        let ok = r.read(format!("ok://k/{n}").as_bytes(), &o).unwrap();
                        assert!(ok.json().contains(&format!("body of ok://k/{n}")));
                    }
                    peak.fetch_max(os_threads(), Ordering::SeqCst);
                    out.push((res.map(|_| ()).map_err(|f| (f.kind(), cause(&f))), took));
                }
                out
            })
        })
        .collect();
    let mut timeouts = 0;
    let mut saturated = 0;
    for c in callers {
        for (res, took) in c.join().unwrap() {
            // Never waits much past one item deadline (50 ms).
            assert!(took < Duration::from_secs(3), "a read took {took:?}");
            match res {
                Err((FailureKind::Timeout, _)) => timeouts += 1,
                Err((FailureKind::ReadFailed, c)) if c.contains("executor saturated") => {
                    saturated += 1
                }
                other => panic!("unexpected outcome {other:?}"),
            }
        }
    }
    assert_eq!(timeouts + saturated, HUNG_READS);
    println!(
        "{timeouts} reads timed out (hung readers), {saturated} failed fast; {:?}",
        ex.stats()
    );
    let s = ex.stats();
    // Hung workers: at least the bound, at most the bound plus the regular
    // workers that started a hung reader at the same moment.
    assert!(s.hung >= MAX_HUNG && s.hung <= MAX_HUNG + THREADS, "{s:?}");
    assert_eq!(timeouts, s.hung, "each timeout left one hung reader");
    assert!(s.workers <= THREADS + MAX_HUNG, "{s:?}");
    assert!(s.saturated());
    assert_eq!(s.queued, 0);
    assert!(s.refused as usize >= saturated, "{s:?}");
    assert_eq!(gate.entered.load(Ordering::SeqCst), timeouts);
    // OS threads: the executor's workers and this test's callers only.
    let peak = peak_threads.load(Ordering::SeqCst);
    if cfg!(target_os = "linux") {
        assert!(
            peak <= before + THREADS + MAX_HUNG + CALLERS + 1,
            "peak {peak} threads, {before} before"
        );
    }

    // Healthy reads and listings on the same executor still succeed.
    for n in 0..100 {
        let o = ReadOptions::from(CallOptions {
            executor: Some(ex.clone()),
            ..CallOptions::default()
        });
        let b = r.read(format!("ok://k/h{n}").as_bytes(), &o).unwrap();
        assert!(!b.is_partial());
    }
    let page = r
        .list_templates(&ListOptions {
            scope_key: b"s".to_vec(),
            call: CallOptions {
                executor: Some(ex.clone()),
                ..CallOptions::default()
            },
            ..ListOptions::default()
        })
        .unwrap();
    assert_eq!(page.len(), 2);

    // Capacity returns when the readers return.
    gate.open();
    wait_until("hung readers to return", || ex.stats().hung == 0);
    wait_until("replacements to retire", || ex.live_workers() == THREADS);
    let s = ex.stats();
    assert!(!s.saturated());
    assert_eq!(s.returned, s.abandoned);
    let o = ReadOptions::from(CallOptions {
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    assert!(r.read(b"hang://h/after", &o).is_ok());
}
