//! Listing: policy errors, panicking callbacks, cancellation, deadlines and
//! the call context handed to `discover`.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use mcp_resources::*;

#[test]
fn discover_failure_other_than_unavailable_fails_the_page_with_policy() {
    let policy = FnPolicy::new(|_, d| {
        if d.name() == "item 00002" {
            Err(CallbackError::failed("directory offline"))
        } else {
            Ok(())
        }
    });
    let r = builder(&resource_defs(5), policy).build().unwrap();
    let e = r.list(&opts("s", None)).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Policy);
    assert_eq!(e.jsonrpc_code(), -32603);
    // The private cause is kept for the host, not in the safe message.
    assert!(e.cause_text().contains("directory offline"));
    assert!(!e.message().contains("directory offline"));
    // A page that stops before the failing candidate succeeds.
    let mut o = opts("s", None);
    o.page_size = 2;
    assert_eq!(r.list(&o).unwrap().len(), 2);
}

#[test]
fn discover_failure_fails_template_pages_too() {
    let policy = FnPolicy::new(|_, _| Err(CallbackError::failed("boom")));
    let r = builder(&template_defs(2), policy).build().unwrap();
    assert_eq!(
        r.list_templates(&opts("s", None)).unwrap_err().kind(),
        FailureKind::Policy
    );
}

#[test]
fn panicking_discover_is_a_policy_failure_not_a_crash() {
    let policy = FnPolicy::new(|_, d| {
        if d.name() == "item 00001" {
            panic!("discover bug");
        }
        Ok(())
    });
    let r = builder(&resource_defs(3), policy).build().unwrap();
    let e = r.list(&opts("s", None)).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Policy);
    assert!(e.cause_text().contains("panicked"));
    // The registry stays usable afterwards.
    let mut o = opts("s", None);
    o.page_size = 1;
    assert_eq!(r.list(&o).unwrap().len(), 1);
}

#[test]
fn cancelled_before_the_call_fails_with_canceled() {
    let r = builder(&resource_defs(3), FnPolicy::allow())
        .build()
        .unwrap();
    let cancel = CancelToken::new();
    cancel.cancel();
    let mut o = opts("s", None);
    o.call.cancel = Some(cancel);
    assert_eq!(r.list(&o).unwrap_err().kind(), FailureKind::Canceled);
    assert_eq!(
        r.list_templates(&o).unwrap_err().kind(),
        FailureKind::Canceled
    );
}

#[test]
fn cancelled_between_candidates_fails_with_canceled() {
    let cancel = CancelToken::new();
    let token = cancel.clone();
    let policy = FnPolicy::new(move |_, d| {
        if d.name() == "item 00002" {
            token.cancel();
        }
        Ok(())
    });
    let r = builder(&resource_defs(10), policy.clone()).build().unwrap();
    let mut o = opts("s", None);
    o.call.cancel = Some(cancel);
    assert_eq!(r.list(&o).unwrap_err().kind(), FailureKind::Canceled);
    // Stopped right after the candidate during which it was cancelled.
    assert_eq!(policy.calls(), 3);
}

#[test]
fn cancelled_during_the_last_candidate_still_fails() {
    let cancel = CancelToken::new();
    let token = cancel.clone();
    let policy = FnPolicy::new(move |_, _| {
        token.cancel();
        Ok(())
    });
    let r = builder(&resource_defs(1), policy).build().unwrap();
    let mut o = opts("s", None);
    o.call.cancel = Some(cancel);
    assert_eq!(r.list(&o).unwrap_err().kind(), FailureKind::Canceled);
}

#[test]
fn caller_timeout_passed_fails_with_deadline_exceeded() {
    let r = builder(&resource_defs(3), FnPolicy::allow())
        .build()
        .unwrap();
    let mut o = opts("s", None);
    o.call.timeout = Some(Duration::ZERO);
    assert_eq!(
        r.list(&o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
}

#[test]
fn deadline_passing_between_candidates_fails_with_deadline_exceeded() {
    let policy = FnPolicy::new(|_, _| {
        std::thread::sleep(Duration::from_millis(30));
        Ok(())
    });
    let r = builder(&resource_defs(50), policy.clone()).build().unwrap();
    let mut o = opts("s", None);
    o.call.timeout = Some(Duration::from_millis(50));
    assert_eq!(
        r.list(&o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
    assert!(policy.calls() < 50, "stopped early: {}", policy.calls());
}

#[test]
fn read_timeout_limit_bounds_a_list_page() {
    let policy = FnPolicy::new(|_, _| {
        std::thread::sleep(Duration::from_millis(30));
        Ok(())
    });
    let r = builder(&resource_defs(50), policy)
        .limits(ResourceLimits::new().with(Limit::ReadTimeoutMs, 50))
        .build()
        .unwrap();
    let mut o = opts("s", None);
    // A longer caller timeout does not extend the configured one.
    o.call.timeout = Some(Duration::from_secs(60));
    assert_eq!(
        r.list(&o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
}

#[test]
fn cancel_wins_over_deadline() {
    let r = builder(&resource_defs(3), FnPolicy::allow())
        .build()
        .unwrap();
    let cancel = CancelToken::new();
    cancel.cancel();
    let mut o = opts("s", None);
    o.call.cancel = Some(cancel);
    o.call.timeout = Some(Duration::ZERO);
    assert_eq!(r.list(&o).unwrap_err().kind(), FailureKind::Canceled);
}

#[test]
fn discover_receives_request_data_and_the_page_deadline() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let policy = FnPolicy::new(move |call, d| {
        let data = call
            .request_data()
            .and_then(|a| a.downcast_ref::<String>())
            .cloned();
        let remaining = call.remaining();
        log.lock()
            .unwrap()
            .push((d.name().to_string(), data, remaining));
        assert!(!call.is_canceled());
        Ok(())
    });
    let r = builder(&resource_defs(2), policy).build().unwrap();
    let mut o = opts("s", None);
    o.call.request_data = Some(Arc::new("tenant-7".to_string()));
    o.call.timeout = Some(Duration::from_secs(5));
    r.list(&o).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    for (_, data, remaining) in seen.iter() {
        assert_eq!(data.as_deref(), Some("tenant-7"));
        assert!(*remaining <= Duration::from_secs(5));
        assert!(*remaining > Duration::from_secs(4));
    }
}

#[test]
fn discover_sees_cancellation_through_its_call_context() {
    let cancel = CancelToken::new();
    let token = cancel.clone();
    let observed = Arc::new(AtomicUsize::new(0));
    let obs = observed.clone();
    let policy = FnPolicy::new(move |call, _| {
        token.cancel();
        if call.is_canceled() {
            obs.fetch_add(1, Ordering::SeqCst);
        }
        Err(CallbackError::Unavailable)
    });
    let r = builder(&resource_defs(2), policy).build().unwrap();
    let mut o = opts("s", None);
    o.call.cancel = Some(cancel);
    assert_eq!(r.list(&o).unwrap_err().kind(), FailureKind::Canceled);
    assert_eq!(observed.load(Ordering::SeqCst), 1);
}

#[test]
fn concurrent_pages_from_many_threads_agree() {
    let r = Arc::new(
        builder(&resource_defs(300), FnPolicy::allow())
            .build()
            .unwrap(),
    );
    let expected = list_all(&r, "s", 17);
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let r = r.clone();
            std::thread::spawn(move || list_all(&r, &format!("scope-{t}"), 17))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), expected);
    }
}
