//! Decision events (docs/BEHAVIOUR.md §19): one per planned item, from
//! its final state, for each rule (admitted, hidden, denied, revoked at
//! the recheck, newly visible, failed reads, budget, timeout); one root
//! decision per failed call, for each way a call fails; one per
//! definition a listing visits; the same from both read drivers; before
//! the call event.

mod observe_support;
mod read_support;

use std::time::Duration;

use mcp_resources::*;
use observe_support::*;
use read_support::*;

type Decided = (DecisionRule, Option<DecisionPhase>, Option<IssueCode>, bool);

fn decided(e: &Event) -> Decided {
    (e.rule.unwrap(), e.phase, e.issue, e.is_private)
}

/// The item decisions, then the call event, all of one call that
/// succeeded (it has no root decision).
fn split(events: Vec<Event>) -> (Vec<Event>, Event) {
    let n = events.len();
    assert!(n >= 1, "{events:?}");
    let call = events[n - 1].clone();
    assert_eq!(call.kind, "call");
    for e in &events {
        assert_eq!(e.call_id, call.call_id);
        assert_ne!(e.subject, Some(DecisionSubject::Root));
    }
    (events[..n - 1].to_vec(), call)
}

use DecisionPhase::*;
use DecisionRule::*;

#[test]
fn every_item_gets_one_decision_for_its_rule_on_both_drivers() {
    let items = uris(11);
    let fx = Fx::new(&refs(&items)).limit(Limit::MaxItemBytes, 100);
    fx.policy.vis("x://i/1", HIDDEN, HIDDEN);
    fx.policy.perm("x://i/2", Perm::Deny, Perm::Allow);
    fx.policy.perm("x://i/3", Perm::Allow, Perm::Deny);
    fx.policy.vis("x://i/4", HIDDEN, SHOWN);
    fx.policy.vis("x://i/5", SHOWN, HIDDEN);
    fx.handler.body("x://i/6", Body::Fail);
    fx.handler.body("x://i/7", Body::Malformed);
    fx.handler.body("x://i/8", Body::Unavailable);
    fx.handler.body("x://i/9", Body::Text("y".repeat(200)));
    fx.policy.vis("x://i/10", QUIET, QUIET);
    let keep = Keep::decisions();
    let r = build_observed(&fx, keep.clone());
    let ex = Executor::new(2).unwrap();
    let mut drivers = Vec::new();
    for options in [ReadOptions::default(), with_executor(&ex)] {
        fx.policy.reset();
        keep.take();
        r.read(BUNDLE.as_bytes(), &options).unwrap();
        let (items, call) = split(keep.events());
        let want: [Decided; 11] = [
            (Admitted, Some(BodyRead), None, false),
            (Hidden, Some(FirstCheck), None, true),
            (
                Denied,
                Some(FirstCheck),
                Some(IssueCode::Unavailable),
                false,
            ),
            (Revoked, Some(Recheck), Some(IssueCode::Unavailable), false),
            (
                NewlyVisible,
                Some(Recheck),
                Some(IssueCode::Unavailable),
                false,
            ),
            (Hidden, Some(Recheck), None, true),
            (
                ItemFailed,
                Some(BodyRead),
                Some(IssueCode::ReadFailed),
                false,
            ),
            (
                ItemFailed,
                Some(BodyRead),
                Some(IssueCode::InvalidContent),
                false,
            ),
            (
                ItemFailed,
                Some(BodyRead),
                Some(IssueCode::Unavailable),
                false,
            ),
            (
                BudgetExceeded,
                Some(BodyRead),
                Some(IssueCode::BudgetExceeded),
                false,
            ),
            (Admitted, Some(BodyRead), None, false),
        ];
        assert_eq!(items.iter().map(decided).collect::<Vec<_>>(), want);
        for (i, e) in items.iter().enumerate() {
            assert_eq!(e.subject, Some(DecisionSubject::Item));
            assert_eq!(e.item, Some(i), "the private plan index");
            let uri = format!("x://i/{i}");
            if e.is_private {
                // Hidden: neither its URI nor a hash, and no public form.
                assert!(e.uri.is_none() && e.uri_hash.is_none() && e.public.is_none());
                assert!(!e.private.contains(&uri));
            } else if i == 10 {
                // Visible, not disclosed: a hash, no URI.
                assert_eq!(e.uri, None);
                assert_eq!(e.uri_hash, Some(r.event_hash(uri.as_bytes())));
            } else {
                assert_eq!(e.uri.as_deref(), Some(uri.as_str()));
            }
        }
        // The read failure's private cause, in private only.
        assert!(items[6].cause.as_deref().unwrap().contains(SECRET_CAUSE));
        assert!(!items[6].public.as_deref().unwrap().contains(SECRET_CAUSE));
        assert_eq!(call.uri.as_deref(), Some(BUNDLE));
        assert!(call.summary.unwrap().partial);
        drivers.push(items.iter().map(|e| e.private.clone()).collect::<Vec<_>>());
    }
    let strip = |v: &Vec<String>| -> Vec<String> { v.iter().map(|l| without_timings(l)).collect() };
    assert_eq!(
        strip(&drivers[0]),
        strip(&drivers[1]),
        "the same on both drivers"
    );
}

#[test]
fn items_never_attempted_and_items_past_their_deadline() {
    // max_items: the second item is not attempted.
    let fx = Fx::new(&["x://i/0", "x://i/1"]).limit(Limit::MaxItems, 1);
    let keep = Keep::decisions();
    let r = build_observed(&fx, keep.clone());
    r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    let (items, _) = split(keep.take());
    assert_eq!(
        items.iter().map(decided).collect::<Vec<_>>(),
        [
            (Admitted, Some(BodyRead), None, false),
            (
                BudgetExceeded,
                Some(BodyRead),
                Some(IssueCode::BudgetExceeded),
                false
            ),
        ]
    );
    // A reader past its item deadline, abandoned on an executor.
    let fx = Fx::new(&["x://i/0", "x://i/1"]).limit(Limit::ItemTimeoutMs, 50);
    fx.handler
        .body("x://i/0", Body::Sleep(Duration::from_millis(400)));
    let keep = Keep::decisions();
    let r = build_observed(&fx, keep.clone());
    let ex = Executor::new(2).unwrap();
    r.read(BUNDLE.as_bytes(), &with_executor(&ex)).unwrap();
    let (items, call) = split(keep.take());
    assert_eq!(
        items.iter().map(decided).collect::<Vec<_>>(),
        [
            (Timeout, Some(BodyRead), Some(IssueCode::Timeout), false),
            (Admitted, Some(BodyRead), None, false),
        ]
    );
    assert!(call.queue_wait.is_some());
}

#[test]
fn every_way_a_read_ends_has_its_root_decision() {
    let ex = Executor::new(2).unwrap();
    type Setup = fn(&Fx);
    let cases: [(&str, Setup, Decided); 10] = [
        (
            "undiscoverable",
            |fx| fx.policy.discover(Perm::Deny, Perm::Allow),
            (Hidden, Some(FirstCheck), None, true),
        ),
        (
            "undiscoverable at the recheck",
            |fx| fx.policy.discover(Perm::Allow, Perm::Deny),
            (Hidden, Some(Recheck), None, true),
        ),
        (
            "requested hidden",
            |fx| fx.policy.vis(BUNDLE, HIDDEN, HIDDEN),
            (Hidden, Some(FirstCheck), None, true),
        ),
        (
            "requested denied",
            |fx| fx.policy.perm(BUNDLE, Perm::Deny, Perm::Deny),
            (Denied, Some(FirstCheck), None, true),
        ),
        (
            "requested revoked",
            |fx| fx.policy.perm(BUNDLE, Perm::Allow, Perm::Deny),
            (Revoked, Some(Recheck), None, true),
        ),
        (
            "requested hidden at the recheck",
            |fx| fx.policy.vis(BUNDLE, SHOWN, HIDDEN),
            (Hidden, Some(Recheck), None, true),
        ),
        (
            "resolve unavailable",
            |fx| *fx.handler.resolve.lock().unwrap() = ResolveMode::Unavailable,
            (Denied, Some(Resolve), None, true),
        ),
        (
            "resolve failed",
            |fx| *fx.handler.resolve.lock().unwrap() = ResolveMode::Fail,
            (Failed, Some(Resolve), None, false),
        ),
        (
            "visibility failed",
            |fx| fx.policy.vis("x://i/0", Vis::Fail, Vis::Fail),
            (Failed, Some(FirstCheck), None, false),
        ),
        (
            "every item failed",
            |fx| fx.handler.body("x://i/0", Body::Fail),
            (Failed, None, None, false),
        ),
    ];
    for (what, setup, want) in cases {
        for options in [ReadOptions::default(), with_executor(&ex)] {
            let fx = Fx::new(&["x://i/0"]);
            setup(&fx);
            let keep = Keep::decisions();
            let r = build_observed(&fx, keep.clone());
            r.read(BUNDLE.as_bytes(), &options).unwrap_err();
            let events = keep.take();
            let roots: Vec<_> = events
                .iter()
                .filter(|e| e.subject == Some(DecisionSubject::Root))
                .collect();
            assert_eq!(roots.len(), 1, "{what}");
            assert_eq!(decided(roots[0]), want, "{what}");
            // A read failing before its recheck ended decides no item; one
            // whose every item failed decided them at the recheck.
            let items = usize::from(what == "every item failed");
            assert_eq!(events.len(), 2 + items, "{what}: {events:?}");
            if want.3 {
                assert!(roots[0].public.is_none(), "{what}");
            }
        }
    }
}

#[test]
fn root_decisions_of_calls_that_never_reach_a_callback() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::decisions();
    let r = build_observed(&fx, keep.clone());
    let root = |keep: &Keep| -> Decided {
        let events = keep.take();
        decided(&events[events.len() - 2])
    };
    r.read(b"x://unregistered", &ReadOptions::default())
        .unwrap_err();
    assert_eq!(root(&keep), (NotFound, None, None, true));
    r.read(b"not a uri", &ReadOptions::default()).unwrap_err();
    assert_eq!(root(&keep), (Invalid, None, None, false));
    let cancel = CancelToken::new();
    cancel.cancel();
    let options = ReadOptions {
        call: CallOptions {
            cancel: Some(cancel),
            ..CallOptions::default()
        },
        ..ReadOptions::default()
    };
    r.read(BUNDLE.as_bytes(), &options).unwrap_err();
    assert_eq!(root(&keep), (Canceled, None, None, false));
    // A cooperative reader notices the deadline; the read is past it.
    fx.handler.body("x://i/0", Body::Cooperative);
    let options = ReadOptions {
        call: CallOptions {
            timeout: Some(Duration::from_millis(30)),
            ..CallOptions::default()
        },
        ..ReadOptions::default()
    };
    r.read(BUNDLE.as_bytes(), &options).unwrap_err();
    assert_eq!(root(&keep), (DeadlineExceeded, None, None, false));
}

#[test]
fn a_listing_decides_every_definition_it_visits() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::decisions();
    let r = build_observed(&fx, keep.clone());
    r.list(&list_options("t")).unwrap();
    let events = keep.take();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0].subject, Some(DecisionSubject::Definition));
    assert_eq!(decided(&events[0]), (Allowed, Some(Listing), None, false));
    assert_eq!(events[0].uri.as_deref(), Some(BUNDLE));
    assert_eq!(events[1].kind, "call");
    r.list_templates(&list_options("t")).unwrap();
    assert_eq!(keep.take()[0].uri.as_deref(), Some(TEMPLATE));
    fx.policy.discover(Perm::Deny, Perm::Deny);
    r.list(&list_options("t")).unwrap();
    let events = keep.take();
    assert_eq!(decided(&events[0]), (Hidden, Some(Listing), None, true));
    assert!(events[0].uri.is_none() && events[0].uri_hash.is_none());
    assert!(!events[0].private.contains(BUNDLE));
    let ex = Executor::new(1).unwrap();
    let on_executor = ListOptions {
        call: with_executor(&ex).call,
        ..list_options("t")
    };
    r.list(&on_executor).unwrap();
    assert_eq!(
        decided(&keep.take()[0]),
        (Hidden, Some(Listing), None, true)
    );
}

#[test]
fn a_completion_decides_its_template() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::decisions();
    let r = build_observed(&fx, keep.clone());
    let params = CompleteParams {
        template: TEMPLATE.into(),
        argument: "id".into(),
        value: String::new(),
        context: Vec::new(),
    };
    r.complete(&params, &CompleteOptions::default()).unwrap();
    let events = keep.take();
    assert_eq!(events.len(), 1, "a success: its call event only");
    assert_eq!(events[0].uri.as_deref(), Some(TEMPLATE));
    fx.policy.discover(Perm::Deny, Perm::Deny);
    r.complete(&params, &CompleteOptions::default())
        .unwrap_err();
    let events = keep.take();
    assert_eq!(decided(&events[0]), (Hidden, Some(Completion), None, true));
    assert_eq!(events[1].uri, None, "not found names nothing in plain");
}

#[test]
fn no_decision_events_unless_asked() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    let keep = Keep::new(Interests::default());
    let r = build_observed(&fx, keep.clone());
    r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    r.list(&list_options("t")).unwrap();
    assert!(keep.decisions_seen().is_empty());
    assert_eq!(keep.calls().len(), 2);
}
