//! docs/BEHAVIOUR.md §8: an executor never becomes unusable; jobs that can
//! no longer matter are dropped before they run; saturation is bounded,
//! visible and fails fast. Never-returning callbacks wait on a gate the
//! test opens at its very end (also on panic), so no thread is leaked.
//! Timing bounds are generous: the machine is small and shared.

mod executor_support;

use mcp_resources::CallOptions;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use executor_support::*;
use mcp_resources::*;

// When hung callbacks hold every worker, new calls are refused at once
// (a read with `read_failed`, a listing with `policy`, cause "executor
// saturated"), whatever their URI; they recover when the callbacks return.
#[test]
fn calls_on_an_executor_whose_every_worker_is_hung_fail_fast_with_executor_saturated() {
    let gate = Arc::new(Gate::default());
    let _opener = Opener(gate.clone());
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 1,
        max_queued: 0,
    })
    .unwrap();
    let r = Resources::builder()
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
        .unwrap();
    let o = ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_millis(100)),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    // Two blocking discovers: the first worker hangs and is replaced, the
    // replacement hangs too (beyond max_hung: not replaced).
    for _ in 0..2 {
        assert_eq!(
            r.read(b"ok://x", &o).unwrap_err().kind(),
            FailureKind::DeadlineExceeded
        );
    }
    let s = ex.stats();
    assert_eq!((s.workers, s.hung), (2, 2));
    let long = ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_secs(30)),
        ..o.call.clone()
    });
    for uri in [&b"ok://x"[..], b"ok://not-registered"] {
        let start = Instant::now();
        let f = r.read(uri, &long).unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(2));
        assert_eq!(f.kind(), FailureKind::ReadFailed);
        assert!(cause(&f).contains("executor saturated"), "{}", cause(&f));
    }
    let start = Instant::now();
    let f = r
        .list(&ListOptions {
            scope_key: b"s".to_vec(),
            call: CallOptions {
                timeout: Some(Duration::from_secs(30)),
                executor: Some(ex.clone()),
                ..CallOptions::default()
            },
            ..ListOptions::default()
        })
        .unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(f.kind(), FailureKind::Policy);
    assert!(cause(&f).contains("executor saturated"));
    assert_eq!(ex.stats().refused, 3);
    gate.open();
    wait_until("capacity to return", || ex.stats().hung == 0);
    assert!(r.read(b"ok://x", &long).is_ok());
}

// Jobs whose caller gave up before they started are dropped at once,
// releasing everything they hold (here: the request data), even while the
// only worker is busy and may never get to them.
#[test]
fn reads_whose_deadline_passes_while_queued_are_dropped_and_release_what_they_hold() {
    let gate = Arc::new(Gate::default());
    let _opener = Opener(gate.clone());
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 4,
        max_queued: 0,
    })
    .unwrap();
    let r = Arc::new(
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
    );
    // The only worker blocks in discover for this read's whole deadline.
    let (r2, ex2) = (r.clone(), ex.clone());
    let busy = std::thread::spawn(move || {
        let o = ReadOptions::from(CallOptions {
            timeout: Some(Duration::from_secs(3)),
            executor: Some(ex2),
            ..CallOptions::default()
        });
        r2.read(b"ok://x", &o).map(|_| ()).map_err(|f| f.kind())
    });
    wait_until("the worker to block", || {
        gate.entered.load(Ordering::SeqCst) == 1
    });
    let held: RequestData = Arc::new(vec![0u8; 1024]);
    for _ in 0..50 {
        let o = ReadOptions::from(CallOptions {
            timeout: Some(Duration::from_millis(20)),
            request_data: Some(held.clone()),
            executor: Some(ex.clone()),
            ..CallOptions::default()
        });
        assert_eq!(
            r.read(b"ok://x", &o).unwrap_err().kind(),
            FailureKind::DeadlineExceeded
        );
        drop(o);
        // Released as the read returned, not when a worker gets to it.
        assert_eq!(Arc::strong_count(&held), 1);
        assert_eq!(ex.stats().queued, 0);
    }
    let s = ex.stats();
    assert_eq!((s.dropped, s.started), (50, 1));
    assert_eq!(busy.join().unwrap(), Err(FailureKind::DeadlineExceeded));
    gate.open();
    wait_until("capacity to return", || ex.stats().hung == 0);
}

// The queue bound: beyond max_queued waiting calls, new ones fail at once.
#[test]
fn reads_beyond_max_queued_fail_fast_with_executor_saturated() {
    let gate = Arc::new(Gate::default());
    let _opener = Opener(gate.clone());
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 4,
        max_queued: 2,
    })
    .unwrap();
    let r = Arc::new(
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
    );
    // One call runs (blocked), then two wait in the queue.
    let waiter = |r: &Arc<Resources>, ex: &Executor| {
        let (r, ex) = (r.clone(), ex.clone());
        std::thread::spawn(move || {
            let o = ReadOptions::from(CallOptions {
                timeout: Some(Duration::from_secs(20)),
                executor: Some(ex),
                ..CallOptions::default()
            });
            r.read(b"ok://x", &o).is_ok()
        })
    };
    let mut waiters = vec![waiter(&r, &ex)];
    wait_until("one running", || gate.entered.load(Ordering::SeqCst) == 1);
    waiters.push(waiter(&r, &ex));
    waiters.push(waiter(&r, &ex));
    wait_until("two queued", || ex.stats().queued == 2);
    let o = ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_secs(20)),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    let start = Instant::now();
    let f = r.read(b"ok://x", &o).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(f.kind(), FailureKind::ReadFailed);
    assert!(cause(&f).contains("max_queued"));
    gate.open();
    for w in waiters {
        assert!(w.join().unwrap());
    }
}

/// Sleeps a pseudo-random time in every callback (a small xorshift per call
/// site, seeded from the URI).
struct Jittery;

fn jitter(seed: &str, salt: u64, max_ms: u64) {
    let mut x = seed.bytes().fold(0x9e37_79b9_7f4a_7c15u64 ^ salt, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    let ms = x % (max_ms + 1);
    if ms > 0 {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

impl ResourcePolicy for Jittery {
    fn discover(&self, _: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        jitter(d.uri_or_template(), 1, 3);
        Ok(())
    }
    fn visibility(&self, _: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        jitter(t.uri(), 2, 3);
        Ok(Visibility::DISCLOSED)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        jitter(t.uri(), 3, 3);
        Ok(())
    }
}

impl ResourceHandler for Jittery {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        jitter(m.uri(), 4, 3);
        let requested = ResourceTarget::new(m.uri(), "", None).map_err(CallbackError::failed)?;
        let items = (0..4)
            .map(|i| ResourceTarget::new(&format!("{}/{i}", m.uri()), "", None))
            .collect::<Result<Vec<_>, _>>()
            .map_err(CallbackError::failed)?;
        ResourceReadPlan::new(requested, items).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        jitter(t.uri(), 5, 40);
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

// Reads with random callback delays, item deadlines, read deadlines and
// cancellations, from many threads: every read returns by its deadline
// with a valid outcome, and once the callbacks have returned the executor
// is back to its regular workers with nothing hung or queued.
#[test]
fn random_delays_deadlines_and_cancellations_leave_the_executor_whole() {
    let ex = Executor::with_options(ExecutorOptions {
        threads: 2,
        max_hung: 4,
        max_queued: 0,
    })
    .unwrap();
    let r = Arc::new(
        Resources::builder()
            .policy(Arc::new(Jittery))
            .limits(ResourceLimits::new().with(Limit::ItemTimeoutMs, 15))
            .binding(
                ResourceBinding::new(
                    r#"{"uriTemplate":"j://x/{n}","name":"j"}"#,
                    Arc::new(Jittery),
                )
                .unwrap(),
            )
            .build()
            .unwrap(),
    );
    let callers: Vec<_> = (0..6u64)
        .map(|c| {
            let (r, ex) = (r.clone(), ex.clone());
            std::thread::spawn(move || {
                for i in 0..40u64 {
                    let token = CancelToken::new();
                    let canceller = (i % 3 == 0).then(|| {
                        let t = token.clone();
                        std::thread::spawn(move || {
                            std::thread::sleep(Duration::from_millis((c * 7 + i) % 20));
                            t.cancel();
                        })
                    });
                    let timeout = Duration::from_millis(5 + (c * 13 + i * 7) % 60);
                    let o = ReadOptions::from(CallOptions {
                        timeout: Some(timeout),
                        cancel: Some(token),
                        executor: Some(ex.clone()),
                        ..CallOptions::default()
                    });
                    let start = Instant::now();
                    let res = r.read(format!("j://x/{c}-{i}").as_bytes(), &o);
                    let took = start.elapsed();
                    assert!(took < timeout + Duration::from_secs(2), "took {took:?}");
                    match res {
                        Ok(_) => {}
                        Err(f) => assert!(
                            matches!(
                                f.kind(),
                                FailureKind::Canceled
                                    | FailureKind::DeadlineExceeded
                                    | FailureKind::Timeout
                                    | FailureKind::ReadFailed
                            ),
                            "{f:?}"
                        ),
                    }
                    if let Some(t) = canceller {
                        t.join().unwrap();
                    }
                }
            })
        })
        .collect();
    for c in callers {
        c.join().unwrap();
    }
    wait_until("abandoned callbacks to return", || {
        let s = ex.stats();
        s.hung == 0 && s.busy == 0 && s.queued == 0 && ex.live_workers() == 2
    });
    let s = ex.stats();
    assert_eq!(s.returned, s.abandoned, "{s:?}");
    // Whole again: reads are served (an item drawing a body delay above the
    // 15 ms item timeout only makes its bundle partial).
    let o = ReadOptions::from(CallOptions {
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    let served = (0..20)
        .filter(|n| r.read(format!("j://x/final-{n}").as_bytes(), &o).is_ok())
        .count();
    assert!(served > 0);
}
