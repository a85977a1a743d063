//! docs/BEHAVIOUR.md §8: the statistics that let a host see saturation
//! coming (high-water marks of the queue, busy and hung workers; how many
//! times the executor became saturated; refusals for a full queue told
//! apart). Never-returning callbacks wait on a gate the test opens at its
//! end (also on panic).

mod executor_support;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use executor_support::*;
use mcp_resources::*;

/// A registry whose `discover` waits on `gate`.
fn blocking(gate: &Arc<Gate>) -> Arc<Resources> {
    Arc::new(
        Resources::builder()
            .policy(Arc::new(Policy {
                gate: Some(gate.clone()),
            }))
            .binding(
                ResourceBinding::new(
                    r#"{"uri":"ok://x","name":"x"}"#,
                    Arc::new(Reader { gate: None }),
                )
                .unwrap(),
            )
            .build()
            .unwrap(),
    )
}

fn options(ex: &Executor, timeout_ms: u64) -> ReadOptions {
    ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_millis(timeout_ms)),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    })
}

/// A read on another thread.
fn background(r: &Arc<Resources>, ex: &Executor) -> std::thread::JoinHandle<bool> {
    let (r, o) = (r.clone(), options(ex, 20_000));
    std::thread::spawn(move || r.read(b"ok://x", &o).is_ok())
}

#[test]
fn high_water_marks_remember_the_deepest_queue_and_the_busiest_moment() {
    let gate = Arc::new(Gate::default());
    let _opener = Opener(gate.clone());
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 4,
        max_queued: 8,
    })
    .unwrap();
    assert_eq!(
        (
            ex.stats().queued_high_water,
            ex.stats().busy_high_water,
            ex.stats().hung_high_water
        ),
        (0, 0, 0)
    );
    let r = blocking(&gate);
    let mut waiters = vec![background(&r, &ex)];
    wait_until("one running", || gate.entered.load(Ordering::SeqCst) == 1);
    for _ in 0..3 {
        waiters.push(background(&r, &ex));
    }
    wait_until("three queued", || ex.stats().queued == 3);
    let s = ex.stats();
    assert_eq!((s.queued_high_water, s.busy_high_water), (3, 1));
    gate.open();
    for w in waiters {
        assert!(w.join().unwrap());
    }
    wait_until("idle", || {
        let s = ex.stats();
        s.queued == 0 && s.busy == 0
    });
    // The marks stay where they were: a snapshot taken later still shows
    // the burst.
    let s = ex.stats();
    assert_eq!(
        (s.queued_high_water, s.busy_high_water, s.hung_high_water),
        (3, 1, 0)
    );
    assert_eq!((s.saturations, s.refused, s.refused_queue_full), (0, 0, 0));
}

#[test]
fn the_hung_high_water_mark_and_saturations_count_each_time_saturation_began() {
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 2,
        max_queued: 0,
    })
    .unwrap();
    for round in 1..=2u64 {
        let gate = Arc::new(Gate::default());
        let _opener = Opener(gate.clone());
        let r = blocking(&gate);
        // The first hung worker is replaced, the second reaches max_hung:
        // saturated once, however many calls then fail at once.
        for hung in 1..=2usize {
            assert_eq!(
                r.read(b"ok://x", &options(&ex, 50)).unwrap_err().kind(),
                FailureKind::DeadlineExceeded
            );
            let s = ex.stats();
            assert_eq!(s.hung, hung);
            assert_eq!(s.hung_high_water, if round == 1 { hung } else { 3 });
            assert_eq!(
                s.saturations,
                round - 1 + u64::from(hung == 2),
                "round {round}"
            );
            assert_eq!(s.saturated(), hung == 2);
        }
        assert_eq!(
            r.read(b"ok://x", &options(&ex, 50)).unwrap_err().kind(),
            FailureKind::DeadlineExceeded,
            "a third call runs on the healthy replacement and hangs too"
        );
        let s = ex.stats();
        assert_eq!(s.saturations, round, "still the same saturation");
        assert_eq!(s.hung_high_water, 3);
        gate.open();
        wait_until("capacity to return", || ex.stats().hung == 0);
        assert!(!ex.stats().saturated());
    }
}

#[test]
fn refusals_for_a_full_queue_are_told_apart_from_saturation() {
    let gate = Arc::new(Gate::default());
    let _opener = Opener(gate.clone());
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 1,
        max_queued: 1,
    })
    .unwrap();
    let r = blocking(&gate);
    let mut waiters = vec![background(&r, &ex)];
    wait_until("one running", || gate.entered.load(Ordering::SeqCst) == 1);
    waiters.push(background(&r, &ex));
    wait_until("one queued", || ex.stats().queued == 1);
    let f = r.read(b"ok://x", &options(&ex, 20_000)).unwrap_err();
    assert!(cause(&f).contains("max_queued"), "{}", cause(&f));
    let s = ex.stats();
    assert_eq!((s.refused, s.refused_queue_full), (1, 1));
    assert_eq!(s.queued_high_water, 1);
    gate.open();
    for w in waiters {
        assert!(w.join().unwrap());
    }
    // Saturation refusals count in refused only.
    let gate = Arc::new(Gate::default());
    let _opener2 = Opener(gate.clone());
    let r = blocking(&gate);
    for _ in 0..2 {
        let _ = r.read(b"ok://x", &options(&ex, 50));
    }
    let s = ex.stats();
    assert!(s.saturated(), "{s:?}");
    let f = r.read(b"ok://x", &options(&ex, 20_000)).unwrap_err();
    assert!(cause(&f).contains("executor saturated"), "{}", cause(&f));
    let s = ex.stats();
    assert_eq!((s.refused, s.refused_queue_full), (2, 1));
    assert!(s.saturations >= 1);
}
