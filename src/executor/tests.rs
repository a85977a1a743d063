//! The executor's behaviour as its callers see it: jobs run and return
//! results, hung jobs are abandoned and replaced within bounds, saturation
//! refuses fast, given-up jobs are dropped, cancellation wakes the waiter.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;

fn wait_for(mut cond: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(10);
    while !cond() {
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    true
}

#[test]
fn runs_jobs_and_returns_results() {
    let ex = Executor::new(2).unwrap();
    let d = Instant::now() + Duration::from_secs(5);
    match ex.call(|| 40 + 2, d, None) {
        CallOutcome::Done(v) => assert_eq!(v, 42),
        _ => panic!("expected a result"),
    }
    assert_eq!(ex.stats().started, 1);
}

#[test]
fn many_short_jobs_from_many_threads_all_complete_without_lost_wakeups() {
    let ex = Executor::new(2).unwrap();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let ex = ex.clone();
            std::thread::spawn(move || {
                for i in 0..300u32 {
                    if i % 50 == 0 {
                        // Let the workers go idle and park now and then.
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    let d = Instant::now() + Duration::from_secs(20);
                    match ex.call(move || t * 1000 + i, d, None) {
                        CallOutcome::Done(v) => assert_eq!(v, t * 1000 + i),
                        _ => panic!("job {t}/{i} did not complete"),
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(ex.replacement_workers(), 0);
    let s = ex.stats();
    assert_eq!((s.started, s.hung, s.queued, s.dropped), (2400, 0, 0, 0));
}

#[test]
fn zero_threads_means_at_least_two_and_bounds_default() {
    let ex = Executor::new(0).unwrap();
    assert!(ex.threads() >= 2);
    let s = ex.stats();
    assert_eq!(s.max_hung, (8 * s.threads).max(64));
    assert_eq!(s.max_queued, (64 * s.threads).max(1024));
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 3,
        max_queued: 5,
    })
    .unwrap();
    let s = ex.stats();
    assert_eq!(
        (s.threads, s.max_hung, s.max_queued, s.workers),
        (1, 3, 5, 1)
    );
}

#[test]
fn panics_are_caught() {
    let ex = Executor::new(1).unwrap();
    let d = Instant::now() + Duration::from_secs(5);
    assert!(matches!(
        ex.call(|| -> u8 { panic!("boom") }, d, None),
        CallOutcome::Panicked
    ));
    // The worker survived the panic.
    assert!(matches!(ex.call(|| 1, d, None), CallOutcome::Done(1)));
}

fn hang(ex: &Executor, release: &crossbeam_channel::Receiver<()>, ms: u64) {
    let rx = release.clone();
    let r = ex.call(
        move || {
            let _ = rx.recv();
        },
        Instant::now() + Duration::from_millis(ms),
        None,
    );
    assert!(matches!(r, CallOutcome::Expired));
}

#[test]
fn hung_jobs_are_abandoned_and_replaced() {
    let ex = Executor::new(1).unwrap();
    let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
    hang(&ex, &release_rx, 50);
    assert_eq!(ex.replacement_workers(), 1);
    assert_eq!(ex.stats().hung, 1);
    // The replacement serves the next job although the first hangs.
    let r = ex.call(|| 2, Instant::now() + Duration::from_secs(5), None);
    assert!(matches!(r, CallOutcome::Done(2)));
    drop(release_tx); // the hung job returns; its worker retires
    assert!(wait_for(|| ex.replacement_workers() == 0));
    let s = ex.stats();
    assert_eq!((s.hung, s.abandoned, s.returned, s.replaced), (0, 1, 1, 1));
}

#[test]
fn hung_workers_beyond_max_hung_are_not_replaced_and_new_jobs_fail_fast() {
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 2,
        max_queued: 0,
    })
    .unwrap();
    let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
    hang(&ex, &release_rx, 30);
    hang(&ex, &release_rx, 30);
    assert_eq!((ex.live_workers(), ex.stats().hung), (3, 2));
    let pool = ex.pool();
    // At the hung bound; hung callbacks are counted per caller key.
    assert!(pool.at_hung_bound());
    assert!(!pool.has_hung(7));
    pool.key_hung(7);
    pool.key_hung(7);
    assert!(pool.has_hung(7) && !pool.has_hung(8));
    pool.key_returned(7);
    assert!(pool.has_hung(7));
    pool.key_returned(7);
    assert!(!pool.has_hung(7));
    // A refusal the caller makes for the pool (the read side refusing a
    // body read) counts in the stats.
    pool.count_refusal();
    // The third hung job takes the last healthy worker.
    hang(&ex, &release_rx, 30);
    let s = ex.stats();
    assert_eq!((s.workers, s.hung), (3, 3));
    assert!(s.saturated());
    let start = Instant::now();
    let r = ex.call(|| 1, Instant::now() + Duration::from_secs(20), None);
    assert!(matches!(r, CallOutcome::Refused(Refusal::Saturated)));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(ex.admission(), Err(Refusal::Saturated));
    assert_eq!(ex.stats().refused, 3);
    // Capacity returns when the hung callbacks return.
    drop(release_tx);
    assert!(wait_for(|| ex.stats().hung == 0 && ex.live_workers() == 1));
    let r = ex.call(|| 3, Instant::now() + Duration::from_secs(5), None);
    assert!(matches!(r, CallOutcome::Done(3)));
    assert!(!ex.stats().saturated());
}

#[test]
fn queued_jobs_are_refused_when_the_last_healthy_worker_hangs() {
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 1,
        max_queued: 0,
    })
    .unwrap();
    let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
    // One worker hung and replaced: one hung, one healthy.
    hang(&ex, &release_rx, 30);
    // The healthy worker runs a job that hangs; a second job queues
    // behind it with a long deadline.
    let (started_tx, started_rx) = crossbeam_channel::bounded::<()>(1);
    let rx = release_rx.clone();
    let ex2 = ex.clone();
    let hung_waiter = std::thread::spawn(move || {
        ex2.call(
            move || {
                let _ = started_tx.send(());
                let _ = rx.recv();
            },
            Instant::now() + Duration::from_millis(300),
            None,
        )
    });
    started_rx.recv().unwrap();
    let ex3 = ex.clone();
    let queued_waiter = std::thread::spawn(move || {
        let start = Instant::now();
        let r = ex3.call(|| 1, Instant::now() + Duration::from_secs(30), None);
        (r, start.elapsed())
    });
    assert!(wait_for(|| ex.stats().queued == 1));
    assert!(matches!(hung_waiter.join().unwrap(), CallOutcome::Expired));
    // The queued job was refused as soon as no healthy worker remained,
    // long before its own deadline.
    let (r, took) = queued_waiter.join().unwrap();
    assert!(matches!(r, CallOutcome::Refused(Refusal::Saturated)));
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(ex.stats().queued, 0);
    drop(release_tx);
    assert!(wait_for(|| ex.stats().hung == 0));
}

#[test]
fn queue_bound_refuses_jobs_beyond_max_queued() {
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 4,
        max_queued: 1,
    })
    .unwrap();
    let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
    let (started_tx, started_rx) = crossbeam_channel::bounded::<()>(1);
    let ex2 = ex.clone();
    let busy = std::thread::spawn(move || {
        ex2.call(
            move || {
                let _ = started_tx.send(());
                let _ = release_rx.recv();
            },
            Instant::now() + Duration::from_secs(30),
            None,
        )
    });
    started_rx.recv().unwrap();
    let ex3 = ex.clone();
    let queued =
        std::thread::spawn(move || ex3.call(|| 1, Instant::now() + Duration::from_secs(30), None));
    assert!(wait_for(|| ex.stats().queued == 1));
    let r = ex.call(|| 2, Instant::now() + Duration::from_secs(30), None);
    assert!(matches!(r, CallOutcome::Refused(Refusal::QueueFull)));
    drop(release_tx);
    assert!(matches!(busy.join().unwrap(), CallOutcome::Done(())));
    assert!(matches!(queued.join().unwrap(), CallOutcome::Done(1)));
}

#[test]
fn jobs_given_up_before_they_start_are_dropped_at_once() {
    struct Held(Arc<AtomicUsize>);
    impl Drop for Held {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let ex = Executor::new(1).unwrap();
    let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
    let (started_tx, started_rx) = crossbeam_channel::bounded::<()>(1);
    let ex2 = ex.clone();
    let busy = std::thread::spawn(move || {
        ex2.call(
            move || {
                let _ = started_tx.send(());
                let _ = release_rx.recv();
            },
            Instant::now() + Duration::from_secs(30),
            None,
        )
    });
    started_rx.recv().unwrap();
    let dropped = Arc::new(AtomicUsize::new(0));
    for _ in 0..10 {
        let held = Held(dropped.clone());
        let r = ex.call(
            move || drop(held),
            Instant::now() + Duration::from_millis(20),
            None,
        );
        assert!(matches!(r, CallOutcome::Expired));
    }
    // Released when given up, while the only worker is still busy.
    assert_eq!(dropped.load(Ordering::SeqCst), 10);
    let s = ex.stats();
    assert_eq!((s.queued, s.dropped, s.started), (0, 10, 1));
    drop(release_tx);
    assert!(matches!(busy.join().unwrap(), CallOutcome::Done(())));
}

#[test]
fn dropping_the_last_clone_stops_idle_workers_without_waiting_for_running_ones() {
    let ex = Executor::new(2).unwrap();
    let pool = ex.pool();
    assert_eq!(ex.live_workers(), 2);
    let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
    hang(&ex, &release_rx, 30);
    let clone = ex.clone();
    drop(ex);
    assert_eq!(clone.live_workers(), 3); // a clone keeps the pool
    let start = Instant::now();
    drop(clone); // does not wait for the hung callback
    assert!(start.elapsed() < Duration::from_millis(500));
    assert!(
        wait_for(|| pool.live.load(Ordering::Acquire) == 1),
        "idle workers stopped"
    );
    drop(release_tx);
    assert!(wait_for(|| pool.live.load(Ordering::Acquire) == 0));
}

#[test]
fn cancellation_wakes_the_waiter() {
    let ex = Executor::new(1).unwrap();
    let token = CancelToken::new();
    let t2 = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        t2.cancel();
    });
    let start = Instant::now();
    let r = ex.call(
        || std::thread::sleep(Duration::from_millis(600)),
        start + Duration::from_secs(20),
        Some(&token),
    );
    assert!(matches!(r, CallOutcome::Canceled));
    assert!(start.elapsed() < Duration::from_secs(5));
    canceller.join().unwrap();
}
