//! docs/SPEC-TESTS.md section "Admission, deadlines and reporting space" (admission and
//! reporting space): one test per requirement, with exact byte edges.

mod read_support;

use mcp_resources::CallOptions;
use std::sync::Arc;
use std::time::Duration;

use mcp_resources::*;
use read_support::*;

const WIRE: i64 = 8192;
const OVERHEAD: i64 = 256;

/// Limits whose admission payload budget is `payload` bytes.
fn payload_budget(fx: Fx, payload: i64) -> Fx {
    fx.limit(Limit::ReportPayloadBytes, 4096)
        .limit(Limit::MaxPayloadBytes, 4096 + payload)
}

/// Limits whose admission encoded budget is `encoded` bytes.
fn encoded_budget(fx: Fx, encoded: i64) -> Fx {
    fx.limit(Limit::ReportEncodedBytes, 1024)
        .limit(Limit::MaxEncodedBytes, 1024 + WIRE + OVERHEAD + encoded)
}

/// The exact item object serde_json writes for a text item.
fn text_object(uri: &str, text: &str) -> String {
    serde_json::to_string(&serde_json::json!({"uri": uri, "mimeType": "text/plain", "text": text}))
        .unwrap()
}

// "The gateway reserves diagnostic payload and encoded space throughout
// admission, plus 8 KiB for final wire framing." Exact payload edge: a
// payload exactly equal to the remaining budget is admitted, one byte more
// is not.
#[test]
fn payload_exactly_equal_to_the_remaining_budget_is_admitted_one_more_is_not() {
    let fx = payload_budget(Fx::new(&["x://i/0"]), 1000);
    fx.handler.body("x://i/0", Body::Text("a".repeat(1000)));
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());

    let fx = payload_budget(Fx::new(&["x://i/0"]), 1000);
    fx.handler.body("x://i/0", Body::Text("a".repeat(1001)));
    assert_eq!(
        fx.read(&opts()).unwrap_err().kind(),
        FailureKind::BudgetExceeded
    );

    // After a first item, the second is measured against what is left.
    let fx = payload_budget(Fx::new(&["x://i/0", "x://i/1", "x://i/2"]), 1000);
    fx.handler.body("x://i/0", Body::Text("a".repeat(400)));
    fx.handler.body("x://i/1", Body::Text("b".repeat(600)));
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), vec!["x://i/0", "x://i/1"]);
    assert_eq!(issue_list(&b)[0].0, "budget_exceeded"); // x://i/2: nothing left
}

// Exact encoded edge, with JSON escaping counted exactly as serde_json.
#[test]
fn encoded_cost_exactly_equal_to_the_remaining_budget_is_admitted_one_more_is_not() {
    let text = "quote\" backslash\\ nl\n ctl\u{1} tab\t é \u{7f}/".repeat(7);
    let cost = text_object("x://i/0", &text).len() as i64 + 1;
    let fx = encoded_budget(Fx::new(&["x://i/0"]), cost);
    fx.handler.body("x://i/0", Body::Text(text.clone()));
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    let v: serde_json::Value = serde_json::from_str(b.json()).unwrap();
    assert_eq!(v["contents"][0]["text"], text.as_str());

    let fx = encoded_budget(Fx::new(&["x://i/0"]), cost - 1);
    fx.handler.body("x://i/0", Body::Text(text));
    assert_eq!(
        fx.read(&opts()).unwrap_err().kind(),
        FailureKind::BudgetExceeded
    );
}

// "Internal sizing uses the concrete resource JSON shape, including
// escaping, base64 and explicit empty variants."
#[test]
fn sizing_uses_the_concrete_json_shape_for_blobs_and_empty_variants() {
    for n in [0usize, 1, 2, 3, 4, 100] {
        let data: Vec<u8> = (0..n as u8).collect();
        use base64::Engine as _;
        let object = serde_json::to_string(&serde_json::json!({
            "uri": "x://i/0",
            "mimeType": "application/octet-stream",
            "blob": base64::engine::general_purpose::STANDARD.encode(&data),
        }))
        .unwrap();
        let cost = object.len() as i64 + 1;
        let fx = encoded_budget(Fx::new(&["x://i/0"]), cost);
        fx.handler.body("x://i/0", Body::Blob(data.clone()));
        let b = fx.read(&opts()).unwrap();
        assert_eq!(b.items().next().unwrap().json(), object, "n={n}");
        let fx = encoded_budget(Fx::new(&["x://i/0"]), cost - 1);
        fx.handler.body("x://i/0", Body::Blob(data));
        assert!(fx.read(&opts()).is_err(), "n={n}");
    }
    let cost = text_object("x://i/0", "").len() as i64 + 1;
    let fx = encoded_budget(Fx::new(&["x://i/0"]), cost);
    fx.handler.body("x://i/0", Body::Text(String::new()));
    assert!(!fx.read(&opts()).unwrap().is_partial());
}

// "An individually oversized item is an issue; later items may fit."
#[test]
fn individually_oversized_item_is_an_issue_and_later_items_may_fit() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u)).limit(Limit::MaxItemBytes, 10);
    fx.handler.body(&u[0], Body::Text("x".repeat(10)));
    fx.handler.body(&u[1], Body::Blob(vec![0; 11]));
    fx.handler.body(&u[2], Body::Text("y".repeat(10)));
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), vec![u[0].clone(), u[2].clone()]);
    assert_eq!(
        issue_list(&b),
        vec![("budget_exceeded".to_string(), Some(u[1].clone()))]
    );
}

// "If adding an otherwise admissible item exhausts the remaining aggregate
// payload/encoded budget, admission stops and preserves the complete
// prefix."
#[test]
fn aggregate_budget_exhaustion_stops_admission_and_keeps_the_prefix() {
    let u = uris(4);
    let fx = payload_budget(Fx::new(&refs(&u)), 100);
    fx.handler.body(&u[0], Body::Text("a".repeat(60)));
    fx.handler.body(&u[1], Body::Text("b".repeat(50)));
    fx.handler.body(&u[2], Body::Text("c".repeat(5)));
    fx.handler.body(&u[3], Body::Text("d".repeat(5)));
    let b = fx.read(&opts()).unwrap();
    // u2 and u3 would fit, but admission stopped at u1.
    assert_eq!(item_uris(&b), vec![u[0].clone()]);
    let codes: Vec<String> = issue_list(&b).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, ["budget_exceeded"; 3]);
    assert_eq!(fx.handler.reads_logged(), vec![u[0].clone(), u[1].clone()]);
}

// "A reached item-count limit stops before another body read."
#[test]
fn item_count_limit_stops_before_another_body_read() {
    let u = uris(4);
    let fx = Fx::new(&refs(&u)).limit(Limit::MaxItems, 2);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), vec![u[0].clone(), u[1].clone()]);
    assert_eq!(fx.handler.reads_logged(), vec![u[0].clone(), u[1].clone()]);
    assert_eq!(b.issues().len(), 2);
}

// "Visible unattempted items get budget issues."
#[test]
fn visible_unattempted_items_get_budget_issues_hidden_ones_do_not() {
    let u = uris(5);
    let fx = Fx::new(&refs(&u)).limit(Limit::MaxItems, 1);
    fx.policy.vis(&u[2], HIDDEN, HIDDEN);
    fx.policy.perm(&u[3], Perm::Deny, Perm::Deny);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(
        issue_list(&b),
        vec![
            ("budget_exceeded".to_string(), Some(u[1].clone())),
            ("unavailable".to_string(), Some(u[3].clone())),
            ("budget_exceeded".to_string(), Some(u[4].clone())),
        ]
    );
}

// "Admitted items are never split, reordered or dropped to make reporting
// fit." and "Detailed reporting shrinks within its reserved payload, encoded
// and metadata bounds, retaining the partial flag and total visible
// omission count."
#[test]
fn report_shrinks_with_tiny_report_space_and_admitted_items_stay() {
    let mut u: Vec<String> = (0..40)
        .map(|i| format!("x://failing/{i}/{}", "p".repeat(150)))
        .collect();
    u.insert(0, "x://ok/0".into());
    u.push("x://ok/1".into());
    let fx = Fx::new(&refs(&u))
        .limit(Limit::ReportEncodedBytes, 1024)
        .limit(Limit::ReportPayloadBytes, 256)
        .limit(Limit::MaxIssues, 1000);
    for x in &u[1..41] {
        fx.handler.body(x, Body::Fail);
    }
    fx.handler.body("x://ok/0", Body::Text("first".into()));
    fx.handler.body("x://ok/1", Body::Text("last".into()));
    let b = fx.read(&opts()).unwrap();
    assert!(b.is_partial());
    assert_eq!(item_uris(&b), vec!["x://ok/0", "x://ok/1"]);
    let shown = b.issues().len() as u64;
    assert!(shown < 40, "the report must have shrunk");
    assert_eq!(shown + b.issues_omitted(), 40);
    // Dropped from the end: the shown ones are the first failures in order.
    for (i, issue) in b.issues().iter().enumerate() {
        assert_eq!(issue.resource_uri(), Some(u[i + 1].as_str()));
    }
    // The warning text fits its payload reserve, warning + report their
    // encoded reserve.
    let w = b.items().next().unwrap();
    assert!(w.text().unwrap().len() <= 256);
    assert!(w.json().len() + 1 + b.report_json().len() <= 1024);
    assert_eq!(
        report(&b)["issuesOmitted"].as_u64().unwrap(),
        b.issues_omitted()
    );
}

// "Final authorization can remove revoked/hidden items; freed space is not
// used for a refill."
#[test]
fn space_freed_by_final_authorization_is_not_refilled() {
    let u = uris(4);
    let fx = payload_budget(Fx::new(&refs(&u)), 100);
    fx.handler.body(&u[0], Body::Text("z".repeat(10)));
    fx.handler.body(&u[1], Body::Text("a".repeat(60)));
    fx.handler.body(&u[2], Body::Text("b".repeat(50)));
    fx.handler.body(&u[3], Body::Text("c".repeat(10)));
    fx.policy.perm(&u[1], Perm::Allow, Perm::Deny);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), vec![u[0].clone()]);
    let codes: Vec<String> = issue_list(&b).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, ["unavailable", "budget_exceeded", "budget_exceeded"]);
    assert_eq!(
        fx.handler.reads_logged(),
        vec![u[0].clone(), u[1].clone(), u[2].clone()]
    );
}

// "If even the minimal report cannot fit because of an invalid adapter
// sizing invariant, the read fails with a bounded size error." and "Final
// sizing checks the assembled result."
#[test]
fn invalid_host_sizer_fails_the_final_size_check_with_kind_size() {
    let u = uris(5);
    let fx = encoded_budget(Fx::new(&refs(&u)), 3000);
    for x in &u {
        fx.handler.body(x, Body::Text("q".repeat(2000)));
    }
    *fx.handler.hint.lock().unwrap() = Some(Arc::new(|_: &ResourcePayload| 1));
    let e = fx.read(&opts()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Size);
}

// "The adapter may provide a pure conservative sizer for its
// representation; per-item estimates must bound their contribution to a
// full response."
#[test]
fn host_sizer_replaces_the_exact_measurement() {
    let cost = text_object("x://i/0", "hello").len() as i64 + 1;
    // The exact size fits, but the (conservative) estimate does not.
    let fx = encoded_budget(Fx::new(&["x://i/0", "x://i/1"]), cost);
    fx.handler.body("x://i/0", Body::Text("hello".into()));
    *fx.handler.hint.lock().unwrap() = Some(Arc::new(move |p: &ResourcePayload| {
        p.payload_bytes() + 10_000
    }));
    assert_eq!(
        fx.read(&opts()).unwrap_err().kind(),
        FailureKind::BudgetExceeded
    );
    // A conservative estimate that fits admits the item.
    let fx = encoded_budget(Fx::new(&["x://i/0"]), cost + 10);
    fx.handler.body("x://i/0", Body::Text("hello".into()));
    *fx.handler.hint.lock().unwrap() =
        Some(Arc::new(move |_: &ResourcePayload| (cost + 10) as u64));
    assert!(!fx.read(&opts()).unwrap().is_partial());
}

// "Successfully complete reads may conservatively leave diagnostic space
// unused."
#[test]
fn complete_reads_leave_the_diagnostic_reserve_unused() {
    // The item would fit max_payload_bytes but not max_payload_bytes minus
    // the report reserve: it is refused although the read has no issue
    // otherwise.
    let fx = payload_budget(Fx::new(&["x://i/0", "x://i/1"]), 100);
    fx.handler.body("x://i/0", Body::Text("a".repeat(100)));
    fx.handler.body("x://i/1", Body::Text("b".repeat(100)));
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), vec!["x://i/0"]);
}

// "A module-internal request scope starts the deadline at adapter entry,
// shortened by any caller deadline." Every callback gets the caller's
// request data; body reads get the item byte limit as a hint.
#[test]
fn request_scope_deadline_is_shortened_by_the_caller_and_reaches_callbacks() {
    let fx = Fx::new(&["x://i/0"])
        .limit(Limit::MaxItemBytes, 777)
        .limit(Limit::ItemTimeoutMs, 60_000);
    let data: RequestData = Arc::new(42u64);
    let o = ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_secs(2)),
        request_data: Some(data),
        ..opts().call
    });
    fx.read(&o).unwrap();
    let seen = fx.handler.seen.lock().unwrap().clone();
    let resolve = seen.iter().find(|s| s.what == "resolve").unwrap();
    let read = seen.iter().find(|s| s.what == "x://i/0").unwrap();
    assert!(resolve.remaining <= Duration::from_secs(2));
    assert!(resolve.remaining > Duration::from_millis(500));
    assert_eq!(resolve.max_bytes, None);
    assert_eq!(resolve.request_data, Some(42));
    assert!(
        read.remaining <= Duration::from_secs(2),
        "item deadline capped by the read"
    );
    assert_eq!(read.max_bytes, Some(777));
    assert_eq!(read.request_data, Some(42));
    assert!(!read.canceled);
    // Without a caller deadline the item timeout applies.
    let fx = Fx::new(&["x://i/0"]).limit(Limit::ItemTimeoutMs, 1500);
    fx.read(&opts()).unwrap();
    let seen = fx.handler.seen.lock().unwrap().clone();
    let read = seen.iter().find(|s| s.what == "x://i/0").unwrap();
    assert!(read.remaining <= Duration::from_millis(1500));
}

// A 1 KiB item by exact URI and by template give identical contents.
#[test]
fn exact_and_template_reads_agree() {
    let fx = Fx::new(&["x://i/0"]);
    fx.handler.body("x://i/0", Body::Text("k".repeat(1024)));
    let r = fx.build();
    let a = r.read(BUNDLE.as_bytes(), &opts()).unwrap();
    fx.policy.reset();
    let b = r.read(b"bundle://t/1", &opts()).unwrap();
    assert_eq!(a.json(), b.json());
}
