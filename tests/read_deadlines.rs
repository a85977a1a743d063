//! docs/SPEC-TESTS.md section "Admission, deadlines and reporting space" (deadlines) and
//! docs/BEHAVIOUR.md §8: request scopes, item deadlines, cancellation, the
//! executor, abandoned and panicking readers. Bounds are generous: the
//! machine is small and shared.

mod read_support;

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_resources::*;
use read_support::*;

// "Callbacks cannot be forcibly terminated by Go context." A reader that
// ignores cancellation is abandoned at its item deadline by the executor.
#[test]
fn reader_sleeping_5s_with_item_timeout_100ms_returns_partial_quickly() {
    let ex = Executor::new(2).unwrap();
    let u = uris(3);
    let fx = Fx::new(&refs(&u)).limit(Limit::ItemTimeoutMs, 100);
    fx.handler.body(&u[1], Body::Sleep(Duration::from_secs(5)));
    let start = Instant::now();
    let b = fx.read(&with_executor(&ex)).unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert!(b.is_partial());
    assert_eq!(item_uris(&b), vec![u[0].clone(), u[2].clone()]);
    assert_eq!(
        issue_list(&b),
        vec![("timeout".to_string(), Some(u[1].clone()))]
    );
    assert!(!b.json().contains("late"));
}

// "Reading an application job does not cancel it": the abandoned reader
// keeps its own handler reference until it returns.
#[test]
fn abandoned_reader_keeps_its_handler_alive_until_it_returns() {
    struct Slow(Arc<AtomicBool>);
    impl Drop for Slow {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    impl ResourceHandler for Slow {
        fn resolve(
            &self,
            _: &CallContext,
            m: &ResourceMatch,
        ) -> Result<ResourceReadPlan, CallbackError> {
            let t = ResourceTarget::new(m.uri(), "", None).unwrap();
            let other = ResourceTarget::new("x://other", "", None).unwrap();
            Ok(ResourceReadPlan::new(t.clone(), vec![t, other]).unwrap())
        }
        fn read(
            &self,
            _: &CallContext,
            t: &ResourceTarget,
        ) -> Result<ResourcePayload, CallbackError> {
            if t.uri() == "x://slow" {
                std::thread::sleep(Duration::from_millis(1500));
            }
            Ok(ResourcePayload::text("text/plain", "x").unwrap())
        }
    }
    let dropped = Arc::new(AtomicBool::new(false));
    let log: Log = Default::default();
    let r = Resources::builder()
        .policy(Arc::new(ScriptPolicy::new(log)))
        .limits(ResourceLimits::new().with(Limit::ItemTimeoutMs, 50))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"x://slow","name":"slow"}"#,
                Arc::new(Slow(dropped.clone())),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let ex = Executor::new(1).unwrap();
    let b = r.read(b"x://slow", &with_executor(&ex)).unwrap();
    assert_eq!(issue_list(&b)[0].0, "timeout");
    drop(r);
    assert!(
        !dropped.load(Ordering::SeqCst),
        "the running job holds the handler"
    );
    let until = Instant::now() + Duration::from_secs(5);
    while !dropped.load(Ordering::SeqCst) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        dropped.load(Ordering::SeqCst),
        "released after the job returned"
    );
}

// "Root denial, invalid planning, operational policy failure, explicit
// cancellation or whole-read timeout returns no bundle": caller
// cancellation wakes a waiting read promptly.
#[test]
fn caller_cancellation_during_a_hung_read_returns_canceled_promptly() {
    let ex = Executor::new(2).unwrap();
    let fx = Fx::new(&["x://i/0", "x://i/1"]).limit(Limit::ItemTimeoutMs, 20_000);
    fx.handler
        .body("x://i/0", Body::Sleep(Duration::from_secs(4)));
    let token = CancelToken::new();
    let t2 = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        t2.cancel();
    });
    let o = ReadOptions::from(CallOptions {
        cancel: Some(token),
        executor: Some(ex),
        ..opts().call
    });
    let start = Instant::now();
    let e = fx.read(&o).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Canceled);
    assert!(start.elapsed() < Duration::from_secs(3));
    canceller.join().unwrap();
}

#[test]
fn whole_read_deadline_with_executor_is_deadline_exceeded() {
    let ex = Executor::new(2).unwrap();
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.handler
        .body("x://i/0", Body::Sleep(Duration::from_secs(4)));
    let o = ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_millis(150)),
        executor: Some(ex),
        ..opts().call
    });
    let start = Instant::now();
    assert_eq!(
        fx.read(&o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
    assert!(start.elapsed() < Duration::from_secs(3));
}

// A cooperative reader that notices cancellation and fails: the item is
// `timeout` when its item deadline passed ...
#[test]
fn cooperative_reader_failing_after_its_item_deadline_is_timeout() {
    for executor in [None, Some(Executor::new(2).unwrap())] {
        let fx = Fx::new(&["x://i/0", "x://i/1"]).limit(Limit::ItemTimeoutMs, 80);
        fx.handler.body("x://i/0", Body::Cooperative);
        let o = ReadOptions::from(CallOptions {
            executor,
            ..CallOptions::default()
        });
        let b = fx.read(&o).unwrap();
        assert_eq!(issue_list(&b)[0].0, "timeout");
        assert_no_secrets(b.json());
    }
}

// ... and the read is `canceled` when the caller cancelled.
#[test]
fn cooperative_reader_failing_after_caller_cancel_makes_the_read_canceled() {
    for executor in [None, Some(Executor::new(2).unwrap())] {
        let fx = Fx::new(&["x://i/0", "x://i/1"]).limit(Limit::ItemTimeoutMs, 20_000);
        fx.handler.body("x://i/0", Body::Cooperative);
        let token = CancelToken::new();
        let t2 = token.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(80));
            t2.cancel();
        });
        let o = ReadOptions::from(CallOptions {
            cancel: Some(token),
            executor,
            ..opts().call
        });
        assert_eq!(fx.read(&o).unwrap_err().kind(), FailureKind::Canceled);
        canceller.join().unwrap();
    }
}

// A panicking callback is an item failure or a policy failure, never a
// crash; the pool survives.
#[test]
fn panicking_reader_is_read_failed_inline_and_on_the_executor() {
    let ex = Executor::new(1).unwrap();
    for o in [opts(), with_executor(&ex)] {
        let fx = Fx::new(&["x://i/0", "x://i/1"]);
        fx.handler.body("x://i/0", Body::Panic);
        let b = fx.read(&o).unwrap();
        assert_eq!(issue_list(&b)[0].0, "read_failed");
        assert_eq!(item_uris(&b), vec!["x://i/1"]);
    }
}

// Hung readers never stall other reads past their own deadlines nor
// exhaust the pool for good.
#[test]
fn sixty_four_concurrent_reads_with_hung_readers_return_by_their_deadlines() {
    let ex = Executor::new(2).unwrap();
    let fx = Arc::new(Fx::new(&["x://hung", "x://fast"]).limit(Limit::ItemTimeoutMs, 300));
    fx.handler
        .body("x://hung", Body::Sleep(Duration::from_millis(2500)));
    let r = Arc::new(fx.build());
    let start = Instant::now();
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let r = r.clone();
            let ex = ex.clone();
            std::thread::spawn(move || {
                let mut out = Vec::new();
                for _ in 0..8 {
                    let t0 = Instant::now();
                    let res = r.read(BUNDLE.as_bytes(), &with_executor(&ex));
                    out.push((
                        t0.elapsed(),
                        res.map(|b| item_uris(&b)).map_err(|e| e.kind()),
                    ));
                }
                out
            })
        })
        .collect();
    let mut ok = 0;
    for t in threads {
        for (took, res) in t.join().unwrap() {
            // Two item deadlines of 300 ms at most, plus slack.
            assert!(took < Duration::from_secs(3), "a read took {took:?}");
            match res {
                Ok(items) => {
                    assert!(items.is_empty() || items == vec!["x://fast".to_string()]);
                    ok += 1;
                }
                Err(k) => assert_eq!(k, FailureKind::Timeout),
            }
        }
    }
    assert!(ok > 0, "at least some reads succeed");
    assert!(start.elapsed() < Duration::from_secs(25));
    // Once the hung readers return, the pool recovers: replacements retire
    // and a fresh read is served at once.
    let until = Instant::now() + Duration::from_secs(10);
    while ex.replacement_workers() > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(ex.replacement_workers(), 0);
    let fx2 = Fx::new(&["x://i/0"]);
    assert!(!fx2.read(&with_executor(&ex)).unwrap().is_partial());
}

// Executor::new(0) sizes the pool to the available cores, at least 2; the
// executor is shared by clones and usable from many threads.
#[test]
fn executor_is_shared_send_sync_and_sized_from_cores() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Executor>();
    assert_send_sync::<Resources>();
    assert_send_sync::<ResourceBundle>();
    let ex = Executor::new(0).unwrap();
    assert!(ex.threads() >= 2);
    let ex2 = ex.clone();
    drop(ex);
    let fx = Fx::new(&["x://i/0"]);
    assert!(!fx.read(&with_executor(&ex2)).unwrap().is_partial());
}

// "A module-internal request scope starts the deadline at adapter entry,
// shortened by any caller deadline": an already-passed caller deadline
// calls no callback at all.
#[test]
fn caller_deadline_already_passed_calls_no_callback() {
    let fx = Fx::new(&["x://i/0"]);
    let o = ReadOptions::from(CallOptions {
        timeout: Some(Duration::ZERO),
        ..opts().call
    });
    assert_eq!(
        fx.read(&o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
    assert!(fx.events().is_empty());
}
