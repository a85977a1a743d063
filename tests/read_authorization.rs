//! docs/SPEC-TESTS.md section "Authorization and completion": one test per requirement.

mod read_support;

use mcp_resources::CallOptions;
use mcp_resources::*;
use read_support::*;

fn kind(r: Result<ResourceBundle, Failure>) -> FailureKind {
    r.expect_err("the read must fail").kind()
}

// "The gateway checks definition discovery, resolves and validates the plan,
// then checks requested-target visibility and read permission."
#[test]
fn checks_discovery_then_resolve_then_requested_target_in_that_order() {
    let fx = Fx::new(&["x://i/0"]);
    fx.read(&opts()).unwrap();
    let ev = fx.events();
    assert_eq!(
        &ev[..4],
        &[
            "discover bundle://b",
            "resolve bundle://b",
            "visibility bundle://b",
            "permit bundle://b"
        ]
    );
}

#[test]
fn discovery_denial_is_unavailable_and_nothing_is_resolved() {
    let fx = Fx::new(&["x://i/0"]);
    fx.policy.discover(Perm::Deny, Perm::Allow);
    let e = fx.read(&opts()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Unavailable);
    // Same public error as not-found.
    let nf = fx.build().read(b"bundle://none", &opts()).unwrap_err();
    assert_eq!((nf.kind(), nf.message()), (e.kind(), e.message()));
    assert_eq!(fx.events(), vec!["discover bundle://b"]);
}

#[test]
fn invalid_plans_fail_with_invalid_plan() {
    // Too many targets.
    let fx = Fx::new(&refs(&uris(3))).limit(Limit::MaxPlanTargets, 2);
    assert_eq!(kind(fx.read(&opts())), FailureKind::InvalidPlan);
    // An item URI over max_uri_bytes.
    let long = format!("x://i/{}", "a".repeat(60));
    let fx = Fx::new(&[&long]).limit(Limit::MaxUriBytes, 60);
    assert_eq!(kind(fx.read(&opts())), FailureKind::InvalidPlan);
    // The reserved warning scheme cannot be planned.
    let fx = Fx::new(&[]);
    *fx.handler.resolve.lock().unwrap() =
        ResolveMode::Replace("mcp-warning://read/00000000000000000000000000000000".into());
    assert_eq!(kind(fx.read(&opts())), FailureKind::InvalidPlan);
    // Resolve errors and panics.
    *fx.handler.resolve.lock().unwrap() = ResolveMode::Fail;
    assert_eq!(kind(fx.read(&opts())), FailureKind::InvalidPlan);
    *fx.handler.resolve.lock().unwrap() = ResolveMode::Panic;
    assert_eq!(kind(fx.read(&opts())), FailureKind::InvalidPlan);
    // Resolve Unavailable is a root denial.
    *fx.handler.resolve.lock().unwrap() = ResolveMode::Unavailable;
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
    // No body was read in any of these.
    assert_eq!(fx.handler.reads_logged().len(), 0);
}

#[test]
fn max_plan_targets_does_not_count_the_requested_target() {
    let fx = Fx::new(&refs(&uris(2))).limit(Limit::MaxPlanTargets, 2);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), uris(2));
}

#[test]
fn requested_target_hidden_or_denied_is_a_root_denial() {
    let fx = Fx::new(&["x://i/0"]);
    fx.policy.vis(BUNDLE, HIDDEN, HIDDEN);
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
    let fx = Fx::new(&["x://i/0"]);
    fx.policy.perm(BUNDLE, Perm::Deny, Perm::Deny);
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
    assert!(fx.handler.reads_logged().is_empty());
}

// "It decides visibility and read permission for the entire plan before
// reading any body."
#[test]
fn decides_visibility_and_permission_of_the_whole_plan_before_any_body() {
    let fx = Fx::new(&refs(&uris(3)));
    fx.read(&opts()).unwrap();
    let ev = fx.events();
    let first_read = ev.iter().position(|e| e.starts_with("read ")).unwrap();
    for u in uris(3) {
        let v = ev
            .iter()
            .position(|e| *e == format!("visibility {u}"))
            .unwrap();
        let p = ev.iter().position(|e| *e == format!("permit {u}")).unwrap();
        assert!(v < first_read && p < first_read, "{ev:?}");
    }
}

// "A hidden item is outside the visible selection; a visible item denied
// read access remains an omission."
#[test]
fn hidden_item_is_outside_the_selection_and_denied_item_is_an_omission() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.policy.vis(&u[0], HIDDEN, HIDDEN);
    fx.policy.perm(&u[1], Perm::Deny, Perm::Deny);
    let b = fx.read(&opts()).unwrap();
    assert!(b.is_partial());
    assert_eq!(item_uris(&b), vec![u[2].clone()]);
    assert_eq!(
        issue_list(&b),
        vec![("unavailable".to_string(), Some(u[1].clone()))]
    );
    assert_eq!(b.issues_omitted(), 0);
    assert!(!b.json().contains(&u[0]));
    assert_eq!(fx.handler.reads_logged(), vec![u[2].clone()]);
}

// "Return typed FailureUnavailable to deny Discover or policy Read."
#[test]
fn unavailable_denies_discover_and_policy_read() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.policy.perm("x://i/0", Perm::Deny, Perm::Deny);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(b.issues()[0].code(), IssueCode::Unavailable);
    let fx = Fx::new(&["x://i/0"]);
    fx.policy.discover(Perm::Deny, Perm::Deny);
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
}

// "Other policy errors and visibility callback errors fail the whole read."
#[test]
fn other_policy_errors_and_visibility_errors_fail_the_whole_read() {
    type Setup = Box<dyn Fn(&Fx)>;
    let cases: Vec<Setup> = vec![
        Box::new(|fx| fx.policy.discover(Perm::Fail, Perm::Allow)),
        Box::new(|fx| fx.policy.discover(Perm::Panic, Perm::Allow)),
        Box::new(|fx| fx.policy.discover(Perm::Allow, Perm::Fail)),
        Box::new(|fx| fx.policy.perm("x://i/1", Perm::Fail, Perm::Allow)),
        Box::new(|fx| fx.policy.perm("x://i/1", Perm::Allow, Perm::Fail)),
        Box::new(|fx| fx.policy.perm(BUNDLE, Perm::Panic, Perm::Allow)),
        Box::new(|fx| fx.policy.vis("x://i/1", Vis::Fail, SHOWN)),
        Box::new(|fx| fx.policy.vis("x://i/1", Vis::Deny, SHOWN)),
        Box::new(|fx| fx.policy.vis("x://i/1", SHOWN, Vis::Deny)),
        Box::new(|fx| fx.policy.vis("x://i/1", SHOWN, Vis::Panic)),
        Box::new(|fx| fx.policy.vis(BUNDLE, Vis::Fail, SHOWN)),
    ];
    for (i, setup) in cases.iter().enumerate() {
        let fx = Fx::new(&["x://i/0", "x://i/1"]);
        setup(&fx);
        let e = fx.read(&opts()).unwrap_err();
        assert_eq!(e.kind(), FailureKind::Policy, "case {i}");
        assert!(!e.message().contains("PRIVATE"), "case {i}");
    }
}

// "Body reads are sequential in plan order."
#[test]
fn body_reads_are_sequential_in_plan_order() {
    let mut u = uris(6);
    u.reverse();
    let fx = Fx::new(&refs(&u));
    let b = fx.read(&opts()).unwrap();
    assert_eq!(fx.handler.reads_logged(), u);
    assert_eq!(item_uris(&b), u);
    let ex = Executor::new(4).unwrap();
    let fx = Fx::new(&refs(&u));
    let b = fx.read(&with_executor(&ex)).unwrap();
    assert_eq!(fx.handler.reads_logged(), u);
    assert_eq!(item_uris(&b), u);
}

// "Before returning, the gateway rechecks definition discovery, the
// requested target, and every planned item's current visibility/read
// permission."
#[test]
fn rechecks_discovery_requested_target_and_every_planned_item() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.policy.vis(&u[1], HIDDEN, HIDDEN);
    fx.read(&opts()).unwrap();
    let ev = fx.events();
    let last_read = ev.iter().rposition(|e| e.starts_with("read ")).unwrap();
    let after: Vec<&str> = ev[last_read + 1..].iter().map(String::as_str).collect();
    assert_eq!(after[0], "discover bundle://b");
    assert!(after.contains(&"visibility bundle://b"));
    assert!(after.contains(&"permit bundle://b"));
    for x in &u {
        assert!(
            after.contains(&format!("visibility {x}").as_str()),
            "{after:?}"
        );
    }
    // Revocations at the recheck are root denials.
    let fx = Fx::new(&refs(&u));
    fx.policy.discover(Perm::Allow, Perm::Deny);
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
    let fx = Fx::new(&refs(&u));
    fx.policy.perm(BUNDLE, Perm::Allow, Perm::Deny);
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
    let fx = Fx::new(&refs(&u));
    fx.policy.vis(BUNDLE, SHOWN, HIDDEN);
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
}

// "A now-hidden item is removed without a warning or count."
#[test]
fn now_hidden_item_is_removed_without_warning_or_count() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.policy.vis(&u[1], SHOWN, HIDDEN);
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    assert_eq!(item_uris(&b), vec![u[0].clone(), u[2].clone()]);
    assert_eq!(b.issues_omitted(), 0);
    assert!(!b.json().contains(&u[1]));
    // An item with an issue that becomes hidden loses its issue.
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[1], Body::Fail);
    fx.policy.vis(&u[1], SHOWN, HIDDEN);
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    assert!(!b.json().contains(&u[1]));
}

// "A still-visible revoked item is removed with a safe issue."
#[test]
fn still_visible_revoked_item_is_removed_with_a_safe_issue() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.policy.perm(&u[1], Perm::Allow, Perm::Deny);
    let b = fx.read(&opts()).unwrap();
    assert!(b.is_partial());
    assert_eq!(item_uris(&b), vec![u[0].clone(), u[2].clone()]);
    assert_eq!(
        issue_list(&b),
        vec![("unavailable".to_string(), Some(u[1].clone()))]
    );
    assert!(!b.json().contains("body of x://i/1"));
    // An item that already had an issue keeps its first code.
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[1], Body::Fail);
    fx.policy.perm(&u[1], Perm::Allow, Perm::Deny);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(issue_list(&b)[0].0, "read_failed");
}

// "A newly visible item was not read under the original selection and is
// reported as unavailable; the gateway does not perform late I/O or call
// that selection empty."
#[test]
fn newly_visible_item_is_unavailable_without_late_io_or_empty_selection() {
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.policy.vis(&u[1], HIDDEN, SHOWN);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(
        issue_list(&b),
        vec![("unavailable".to_string(), Some(u[1].clone()))]
    );
    assert_eq!(fx.handler.reads_logged(), vec![u[0].clone()]);
    // The only item: first selection empty, final selection not: no empty
    // success, the read fails.
    let fx = Fx::new(&[&u[0]]);
    fx.policy.vis(&u[0], HIDDEN, SHOWN);
    assert_eq!(kind(fx.read(&opts())), FailureKind::Unavailable);
    assert!(fx.handler.reads_logged().is_empty());
}

// "If no application items survive visible failures, the whole read fails."
#[test]
fn whole_read_fails_when_no_application_item_survives() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    fx.handler.body(&u[1], Body::Malformed);
    fx.handler.body(&u[2], Body::Unavailable);
    let e = fx.read(&opts()).unwrap_err();
    // The kind is the code of the first visible issue; the private cause
    // stays reachable for the host.
    assert_eq!(e.kind(), FailureKind::ReadFailed);
    assert!(e.cause_text().contains(SECRET_CAUSE));
    assert!(!e.message().contains(SECRET_CAUSE));
    // A hidden first failure does not decide the kind.
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    fx.policy.vis(&u[0], SHOWN, HIDDEN);
    fx.handler.body(&u[1], Body::Malformed);
    fx.handler.body(&u[2], Body::Unavailable);
    assert_eq!(kind(fx.read(&opts())), FailureKind::InvalidContent);
}

// "A legitimately empty authorized visible selection succeeds."
#[test]
fn empty_authorized_visible_selection_succeeds() {
    let fx = Fx::new(&[]);
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    assert_eq!(
        b.json(),
        r#"{"contents":[],"_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,"partial":false,"issues":[],"issuesOmitted":0}},"resultType":"complete","ttlMs":0,"cacheScope":"private"}"#
    );
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.policy.vis(&u[0], HIDDEN, HIDDEN);
    fx.policy.vis(&u[1], SHOWN, HIDDEN);
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    assert_eq!(b.item_count(), 0);
}

// "Root denial, invalid planning, operational policy failure, explicit
// cancellation or whole-read timeout returns no bundle."
#[test]
fn cancellation_and_whole_read_timeout_return_no_bundle() {
    let fx = Fx::new(&["x://i/0"]);
    let token = CancelToken::new();
    token.cancel();
    let o = ReadOptions::from(CallOptions {
        cancel: Some(token),
        ..opts().call
    });
    assert_eq!(kind(fx.read(&o)), FailureKind::Canceled);
    assert!(fx.events().is_empty());

    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.handler.body(
        "x://i/0",
        Body::Sleep(std::time::Duration::from_millis(150)),
    );
    let o = ReadOptions::from(CallOptions {
        timeout: Some(std::time::Duration::from_millis(50)),
        ..opts().call
    });
    assert_eq!(kind(fx.read(&o)), FailureKind::DeadlineExceeded);
}

// "Individual reader errors, malformed payloads and shorter item timeouts
// can produce partial results when siblings survive."
#[test]
fn reader_errors_malformed_payloads_and_item_timeouts_make_partial_results() {
    let u = uris(5);
    let fx = Fx::new(&refs(&u)).limit(Limit::ItemTimeoutMs, 100);
    fx.handler.body(&u[0], Body::Fail);
    fx.handler.body(&u[1], Body::Malformed);
    fx.handler
        .body(&u[2], Body::Sleep(std::time::Duration::from_millis(250)));
    fx.handler.body(&u[3], Body::Panic);
    let b = fx.read(&opts()).unwrap();
    assert!(b.is_partial());
    assert_eq!(item_uris(&b), vec![u[4].clone()]);
    let codes: Vec<String> = issue_list(&b).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        ["read_failed", "invalid_content", "timeout", "read_failed"]
    );
    assert_no_secrets(b.json());
}
