//! Audit of the docs/SPEC-TESTS.md sections "Authorization and completion", "Partial bundles" and
//! "Admission, deadlines and reporting space": edge cases where two rules
//! meet (an issue and a recheck, admission stops and denials, first and
//! final visibility, exact size edges with escaping). Each test is named
//! after the rule it guards.

mod read_support;

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_resources::*;
use read_support::*;

const WIRE: i64 = 8192;
const OVERHEAD: i64 = 256;

fn codes(b: &ResourceBundle) -> Vec<String> {
    issue_list(b).into_iter().map(|(c, _)| c).collect()
}

// BEHAVIOUR §5: "An item that already has an issue and is revoked at the
// recheck keeps its first code."
#[test]
fn item_with_an_issue_revoked_at_recheck_keeps_its_first_code() {
    let fx = Fx::new(&["x://a", "x://b", "x://c", "x://d"]);
    fx.handler.body("x://a", Body::Fail);
    fx.handler.body("x://b", Body::Malformed);
    fx.handler.body("x://c", Body::Unavailable);
    for u in ["x://a", "x://b", "x://c"] {
        fx.policy.perm(u, Perm::Allow, Perm::Deny);
    }
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), vec!["x://d"]);
    assert_eq!(
        codes(&b),
        vec!["read_failed", "invalid_content", "unavailable"]
    );
    assert!(b.issues()[0].retryable());
}

// BEHAVIOUR §5: "an item that became hidden at the recheck loses its issue
// (hidden items are never reported)", and it is not counted in
// issuesOmitted either (SPEC: "A now-hidden item is removed without a
// warning or count").
#[test]
fn item_hidden_at_recheck_loses_its_issue_and_is_not_counted() {
    let fx = Fx::new(&["x://a", "x://b", "x://c", "x://d"]).limit(Limit::MaxIssues, 1);
    fx.handler.body("x://a", Body::Fail);
    fx.handler.body("x://b", Body::Malformed);
    fx.handler.body("x://c", Body::Unavailable);
    for u in ["x://a", "x://b", "x://c"] {
        fx.policy.vis(u, SHOWN, HIDDEN);
    }
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    assert_eq!(item_uris(&b), vec!["x://d"]);
    assert_eq!(b.report_json(), report::COMPLETE_REPORT_JSON);

    // With one visible failure left, only that one is reported and counted.
    let fx = Fx::new(&["x://a", "x://b", "x://c", "x://d"]).limit(Limit::MaxIssues, 1);
    fx.handler.body("x://a", Body::Fail);
    fx.handler.body("x://b", Body::Malformed);
    fx.handler.body("x://c", Body::Unavailable);
    fx.policy.vis("x://a", SHOWN, HIDDEN);
    fx.policy.vis("x://b", SHOWN, HIDDEN);
    let b = fx.read(&opts()).unwrap();
    assert!(b.is_partial());
    assert_eq!(codes(&b), vec!["unavailable"]);
    assert_eq!(b.issues_omitted(), 0);
    assert_no_secrets(b.json());
    assert!(!b.json().contains("x://a") && !b.json().contains("x://b"));
}

// SPEC: "A reached item-count limit stops before another body read.
// Visible unattempted items get budget issues." Hidden items get none;
// items denied before the reads keep their own code.
#[test]
fn item_count_limit_stops_reads_and_every_visible_unattempted_item_gets_a_budget_issue() {
    let fx = Fx::new(&refs(&uris(7))).limit(Limit::MaxItems, 2);
    fx.policy.vis("x://i/3", HIDDEN, HIDDEN);
    fx.policy.perm("x://i/4", Perm::Deny, Perm::Deny);
    fx.handler.body("x://i/1", Body::Fail);
    let b = fx.read(&opts()).unwrap();
    // i/1 failed, so it does not count against max_items: i/2 is read.
    assert_eq!(
        fx.handler.reads_logged(),
        vec!["x://i/0", "x://i/1", "x://i/2"]
    );
    assert_eq!(item_uris(&b), vec!["x://i/0", "x://i/2"]);
    assert_eq!(
        codes(&b),
        vec![
            "read_failed",
            "unavailable",
            "budget_exceeded",
            "budget_exceeded"
        ]
    );
    assert_eq!(b.issues_omitted(), 0);
}

// SPEC: "If adding an otherwise admissible item exhausts the remaining
// aggregate payload/encoded budget, admission stops and preserves the
// complete prefix." After the stop no further body is read, even one
// small enough to fit what is left.
#[test]
fn aggregate_stop_reads_no_further_body_even_when_a_later_item_would_fit() {
    let fx = Fx::new(&refs(&uris(4)))
        .limit(Limit::ReportPayloadBytes, 4096)
        .limit(Limit::MaxPayloadBytes, 4096 + 100);
    fx.handler.body("x://i/0", Body::Text("a".repeat(60)));
    fx.handler.body("x://i/1", Body::Text("b".repeat(60)));
    fx.handler.body("x://i/2", Body::Text("c".into()));
    fx.handler.body("x://i/3", Body::Text("d".into()));
    let b = fx.read(&opts()).unwrap();
    assert_eq!(fx.handler.reads_logged(), vec!["x://i/0", "x://i/1"]);
    assert_eq!(item_uris(&b), vec!["x://i/0"]);
    assert_eq!(
        codes(&b),
        vec!["budget_exceeded", "budget_exceeded", "budget_exceeded"]
    );
}

// SPEC: "An individually oversized item is an issue; later items may fit."
// max_item_bytes counts raw blob bytes (not base64) with an inclusive edge,
// and the oversized item consumes no budget.
#[test]
fn individually_oversized_blob_counts_raw_bytes_and_later_items_still_fit() {
    let fx = Fx::new(&refs(&uris(3)))
        .limit(Limit::MaxItemBytes, 30)
        .limit(Limit::ReportPayloadBytes, 4096)
        .limit(Limit::MaxPayloadBytes, 4096 + 60);
    fx.handler.body("x://i/0", Body::Blob(vec![7; 31]));
    fx.handler.body("x://i/1", Body::Blob(vec![7; 30])); // base64: 40 bytes
    fx.handler.body("x://i/2", Body::Text("t".repeat(30)));
    let b = fx.read(&opts()).unwrap();
    assert_eq!(item_uris(&b), vec!["x://i/1", "x://i/2"]);
    assert_eq!(codes(&b), vec!["budget_exceeded"]);
    assert_eq!(b.items().nth(1).unwrap().blob().unwrap(), vec![7; 30]);
}

// SPEC: "ResourceURI() appears only when final visibility policy sets
// DiscloseIssueURI": disclosed at the first check but not the final one
// -> omitted; not disclosed at first but disclosed at the final one ->
// present.
#[test]
fn resource_uri_is_decided_by_the_final_visibility_only() {
    let fx = Fx::new(&["x://a", "x://b", "x://c"]);
    fx.handler.body("x://a", Body::Fail);
    fx.handler.body("x://b", Body::Fail);
    fx.policy.vis("x://a", SHOWN, QUIET);
    fx.policy.vis("x://b", QUIET, SHOWN);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(
        issue_list(&b),
        vec![
            ("read_failed".to_string(), None),
            ("read_failed".to_string(), Some("x://b".to_string())),
        ]
    );
    let r = report(&b);
    assert!(r["issues"][0].get("resourceUri").is_none());
    assert_eq!(r["issues"][1]["resourceUri"], "x://b");
}

// SPEC: "the URI is at most 256 bytes. Longer identities are omitted
// without truncation or hashing." Both edges in one read, with a
// multi-byte character so bytes, not characters, are counted.
#[test]
fn disclosed_uri_of_256_bytes_appears_and_257_bytes_is_omitted() {
    let base = "x://d/\u{e9}"; // 8 bytes, 7 characters
    let u256 = format!("{base}{}", "a".repeat(256 - base.len()));
    let u257 = format!("{base}{}", "b".repeat(257 - base.len()));
    assert_eq!((u256.len(), u257.len()), (256, 257));
    let fx = Fx::new(&[&u256, &u257, "x://ok"]);
    fx.handler.body(&u256, Body::Fail);
    fx.handler.body(&u257, Body::Fail);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(
        issue_list(&b),
        vec![
            ("read_failed".to_string(), Some(u256.clone())),
            ("read_failed".to_string(), None),
        ]
    );
    assert!(!b.json().contains(&"b".repeat(100)));
}

// SPEC: "Detailed reporting shrinks ..., retaining the partial flag and
// total visible omission count." Checked through a read with many issues
// and the smallest report space.
#[test]
fn report_shrinking_in_a_read_keeps_partial_and_the_total_count() {
    let fx = Fx::new(&refs(&uris(41)))
        .limit(Limit::ReportPayloadBytes, 256)
        .limit(Limit::ReportEncodedBytes, 1024)
        .limit(Limit::MaxIssues, 40);
    for u in uris(40) {
        fx.handler.body(&u, Body::Fail);
    }
    let b = fx.read(&opts()).unwrap();
    assert!(b.is_partial());
    assert!(b.issues().len() < 40);
    assert_eq!(b.issues().len() as u64 + b.issues_omitted(), 40);
    let r = report(&b);
    assert_eq!(r["partial"], true);
    assert_eq!(
        r["issues"].as_array().unwrap().len() as u64 + r["issuesOmitted"].as_u64().unwrap(),
        40
    );
    let warning = b.items().next().unwrap();
    assert!(warning.text().unwrap().len() <= 256);
    assert_eq!(item_uris(&b), vec!["x://i/40"]);
}

// BEHAVIOUR §5 step 7: "the whole read fails with the code of the first
// visible issue" - an earlier issue of an item hidden at the recheck does
// not decide the kind.
#[test]
fn whole_read_failure_kind_is_the_code_of_the_first_visible_issue() {
    let fx = Fx::new(&["x://a", "x://b", "x://c"]);
    fx.handler.body("x://a", Body::Fail);
    fx.handler.body("x://b", Body::Malformed);
    fx.handler.body("x://c", Body::Unavailable);
    fx.policy.vis("x://a", SHOWN, HIDDEN);
    let e = fx.read(&opts()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidContent);

    // A newly visible item is the first visible issue here.
    let fx = Fx::new(&["x://n", "x://b"]);
    fx.policy.vis("x://n", HIDDEN, SHOWN);
    fx.handler.body("x://b", Body::Fail);
    let e = fx.read(&opts()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Unavailable);
    assert_eq!(fx.handler.reads_logged(), vec!["x://b"]);
}

// SPEC: "A legitimately empty authorized visible selection succeeds."
// Items read and then all hidden at the recheck leave an empty final
// visible selection: a complete, empty bundle.
#[test]
fn selection_hidden_entirely_at_recheck_is_a_complete_empty_bundle() {
    let fx = Fx::new(&["x://a", "x://b"]);
    fx.handler.body("x://b", Body::Fail);
    fx.policy.vis("x://a", SHOWN, HIDDEN);
    fx.policy.vis("x://b", SHOWN, HIDDEN);
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    assert_eq!(b.item_count(), 0);
    assert_eq!(
        b.json(),
        format!(
            r#"{{"contents":[],"_meta":{{"{RESERVED_META_KEY}":{}}},"resultType":"complete","ttlMs":0,"cacheScope":"private"}}"#,
            report::COMPLETE_REPORT_JSON
        )
    );
}

// SPEC: "explicit cancellation or whole-read timeout returns no bundle",
// as two distinct kinds; cancellation wins when both happened.
#[test]
fn cancellation_wins_over_a_passed_deadline_and_each_keeps_its_own_kind() {
    struct CancelsAndSleeps {
        inner: Arc<ScriptHandler>,
        cancel: Option<CancelToken>,
    }
    impl ResourceHandler for CancelsAndSleeps {
        fn resolve(
            &self,
            c: &CallContext,
            m: &ResourceMatch,
        ) -> Result<ResourceReadPlan, CallbackError> {
            self.inner.resolve(c, m)
        }
        fn read(
            &self,
            _: &CallContext,
            _: &ResourceTarget,
        ) -> Result<ResourcePayload, CallbackError> {
            std::thread::sleep(Duration::from_millis(400));
            if let Some(c) = &self.cancel {
                c.cancel();
            }
            ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
        }
    }
    let run = |cancel: Option<CancelToken>| {
        let fx = Fx::new(&["x://a", "x://b"]);
        let h = Arc::new(CancelsAndSleeps {
            inner: fx.handler.clone(),
            cancel: cancel.clone(),
        });
        let r = Resources::builder()
            .policy(fx.policy.clone())
            .binding(ResourceBinding::new(r#"{"uri":"bundle://b","name":"b"}"#, h).unwrap())
            .build()
            .unwrap();
        let o = ReadOptions::from(CallOptions {
            timeout: Some(Duration::from_millis(200)),
            cancel,
            ..CallOptions::default()
        });
        r.read(b"bundle://b", &o).unwrap_err().kind()
    };
    assert_eq!(run(None), FailureKind::DeadlineExceeded);
    assert_eq!(run(Some(CancelToken::new())), FailureKind::Canceled);
}

// SPEC: "Reading an application job does not cancel it." The gateway never
// cancels a token it did not create: not the caller's, not one the
// application passes through request data, even when the item read is
// abandoned at its deadline; and the abandoned job runs to completion.
#[test]
fn reading_an_application_job_does_not_cancel_it() {
    struct JobReader {
        inner: Arc<ScriptHandler>,
        finished: Arc<AtomicBool>,
    }
    impl ResourceHandler for JobReader {
        fn resolve(
            &self,
            c: &CallContext,
            m: &ResourceMatch,
        ) -> Result<ResourceReadPlan, CallbackError> {
            self.inner.resolve(c, m)
        }
        fn read(
            &self,
            _: &CallContext,
            t: &ResourceTarget,
        ) -> Result<ResourcePayload, CallbackError> {
            if t.uri() == "x://job" {
                std::thread::sleep(Duration::from_millis(1000));
                self.finished.store(true, Ordering::SeqCst);
            }
            ResourcePayload::text("text/plain", "status").map_err(CallbackError::failed)
        }
    }
    let fx = Fx::new(&["x://b", "x://job"]).limit(Limit::ItemTimeoutMs, 500);
    let finished = Arc::new(AtomicBool::new(false));
    let h = Arc::new(JobReader {
        inner: fx.handler.clone(),
        finished: finished.clone(),
    });
    let r = Resources::builder()
        .policy(fx.policy.clone())
        .limits(fx.limits)
        .binding(ResourceBinding::new(r#"{"uri":"bundle://b","name":"b"}"#, h).unwrap())
        .build()
        .unwrap();
    let job = CancelToken::new();
    let caller = CancelToken::new();
    let ex = Executor::new(2).unwrap();
    let o = ReadOptions::from(CallOptions {
        cancel: Some(caller.clone()),
        request_data: Some(Arc::new(job.clone())),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    let b = r.read(b"bundle://b", &o).unwrap();
    assert_eq!(codes(&b), vec!["timeout"]);
    assert!(!caller.is_canceled());
    assert!(!job.is_canceled());
    let until = Instant::now() + Duration::from_secs(10);
    while !finished.load(Ordering::SeqCst) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        finished.load(Ordering::SeqCst),
        "the abandoned job was stopped"
    );
}

// "Internal sizing uses the concrete resource JSON shape, including
// escaping": every control character, U+2028/U+2029 (not escaped by
// serde_json), DEL, non-BMP characters and a quoted MIME parameter, at the
// exact encoded edge, and written exactly as serde_json writes it.
#[test]
fn escaping_of_unusual_characters_is_sized_exactly_at_the_admission_edge() {
    let mut text: String = (0u8..0x20).map(char::from).collect();
    text.push_str("\u{2028}\u{2029}\u{7f}\u{1f600}\u{10ffff}\"\\/ \u{e9}");
    let text = text.repeat(3);
    let mime = "text/plain; charset=\"utf-8\"";
    let uri = "x://i/\u{1f600}";
    let object = serde_json::to_string(&serde_json::json!({
        "uri": uri, "mimeType": mime, "text": text,
    }))
    .unwrap();
    let edge = |cost: i64| {
        let fx = Fx::new(&[uri])
            .limit(Limit::ReportEncodedBytes, 1024)
            .limit(Limit::MaxEncodedBytes, 1024 + WIRE + OVERHEAD + cost);
        fx.handler
            .body(uri, Body::Mime(mime.to_string(), text.clone()));
        fx.read(&opts())
    };
    let cost = object.len() as i64 + 1;
    let b = edge(cost).unwrap();
    assert!(!b.is_partial());
    let item = b.items().next().unwrap();
    assert_eq!(item.json(), object);
    assert_eq!(item.text().unwrap(), text);
    assert_eq!(item.uri(), uri);
    assert_eq!(item.mime_type(), mime);
    assert_eq!(
        edge(cost - 1).unwrap_err().kind(),
        FailureKind::BudgetExceeded
    );

    // The payload budget counts UTF-8 bytes of the text, not characters
    // and not its escaped form.
    let payload = |n: i64| {
        let fx = Fx::new(&[uri])
            .limit(Limit::ReportPayloadBytes, 4096)
            .limit(Limit::MaxPayloadBytes, 4096 + n);
        fx.handler
            .body(uri, Body::Mime(mime.to_string(), text.clone()));
        fx.read(&opts())
    };
    assert!(payload(text.len() as i64).is_ok());
    assert!(payload(text.len() as i64 - 1).is_err());
}

// The same exactness for payload `_meta` holding unusual characters.
#[test]
fn item_meta_with_escapes_is_sized_exactly() {
    let meta = r#"{"k\u2028":"\u0001\"\\ \ud83d\ude00","n":[1,2.5,-0,true,null]}"#;
    let canonical =
        serde_json::to_string(&serde_json::from_str::<serde_json::Value>(meta).unwrap()).unwrap();
    let object =
        format!(r#"{{"uri":"x://m","mimeType":"text/plain","text":"t","_meta":{canonical}}}"#);
    let read = |cost: i64| {
        let fx = Fx::new(&["x://m"])
            .limit(Limit::ReportEncodedBytes, 1024)
            .limit(Limit::MaxEncodedBytes, 1024 + WIRE + OVERHEAD + cost);
        fx.handler
            .body("x://m", Body::Meta("t".into(), meta.to_string()));
        fx.read(&opts())
    };
    let b = read(object.len() as i64 + 1).unwrap();
    let item = b.items().next().unwrap();
    assert_eq!(item.json(), object);
    assert!(read(object.len() as i64).is_err());
}

// SPEC: "The warning grants no access, is not stored, listed or readable":
// the warning URI of a partial bundle read back is refused before any
// callback, and it never appears in a listing.
#[test]
fn warning_uri_of_a_real_bundle_is_not_readable_or_listed() {
    let fx = Fx::new(&["x://a", "x://b"]);
    fx.handler.body("x://a", Body::Fail);
    let r = fx.build();
    let b = r.read(BUNDLE.as_bytes(), &opts()).unwrap();
    let warning = b.items().next().unwrap().uri().into_owned();
    assert!(warning.starts_with("mcp-warning://read/"));
    let before = fx.events().len();
    let e = r.read(warning.as_bytes(), &opts()).unwrap_err();
    assert!(matches!(
        e.kind(),
        FailureKind::InvalidRequest | FailureKind::Unavailable
    ));
    assert_eq!(fx.events().len(), before, "a callback saw the warning URI");
    let page = r
        .list(&ListOptions {
            scope_key: b"s".to_vec(),
            ..ListOptions::default()
        })
        .unwrap();
    assert!(!page.json().contains("mcp-warning"));
}

/// A handler that keeps a clone of every call context it is given.
struct KeepsContexts {
    inner: Arc<ScriptHandler>,
    kept: std::sync::Mutex<Vec<CallContext>>,
}

impl ResourceHandler for KeepsContexts {
    fn resolve(
        &self,
        c: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        self.kept.lock().unwrap().push(c.clone());
        self.inner.resolve(c, m)
    }
    fn read(&self, c: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.kept.lock().unwrap().push(c.clone());
        self.inner.read(c, t)
    }
}

// SPEC: "The direct API creates and closes its equivalent scope." A call
// context a callback kept is live during the call and reports
// cancellation once the read (or list page) has returned, success or not,
// well before the 30 s read deadline.
#[test]
fn direct_api_closes_its_request_scope_when_the_call_returns() {
    let fx = Fx::new(&["x://a"]);
    let h = Arc::new(KeepsContexts {
        inner: fx.handler.clone(),
        kept: std::sync::Mutex::new(Vec::new()),
    });
    let r = Resources::builder()
        .policy(fx.policy.clone())
        .binding(ResourceBinding::new(r#"{"uri":"bundle://b","name":"b"}"#, h.clone()).unwrap())
        .build()
        .unwrap();
    let b = r.read(b"bundle://b", &opts()).unwrap();
    assert!(!b.is_partial());
    let kept = h.kept.lock().unwrap().clone();
    assert_eq!(kept.len(), 2);
    for c in &kept {
        assert!(c.is_canceled(), "a kept call context outlived its read");
    }

    // A failed read closes its scope too.
    fx.handler.body("x://a", Body::Fail);
    h.kept.lock().unwrap().clear();
    assert!(r.read(b"bundle://b", &opts()).is_err());
    assert!(h.kept.lock().unwrap().iter().all(CallContext::is_canceled));

    // And so does a list page (discover gets the page's scope).
    struct KeepsDiscover(std::sync::Mutex<Vec<CallContext>>);
    impl ResourcePolicy for KeepsDiscover {
        fn discover(&self, c: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
            assert!(!c.is_canceled(), "live during the call");
            self.0.lock().unwrap().push(c.clone());
            Ok(())
        }
        fn visibility(
            &self,
            _: &CallContext,
            _: &ResourceTarget,
        ) -> Result<Visibility, CallbackError> {
            Ok(Visibility::VISIBLE)
        }
        fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
            Ok(())
        }
    }
    let p = Arc::new(KeepsDiscover(std::sync::Mutex::new(Vec::new())));
    let r = Resources::builder()
        .policy(p.clone())
        .binding(ResourceBinding::new(r#"{"uri":"bundle://b","name":"b"}"#, h).unwrap())
        .build()
        .unwrap();
    r.list(&ListOptions {
        scope_key: b"s".to_vec(),
        ..ListOptions::default()
    })
    .unwrap();
    let kept = p.0.lock().unwrap().clone();
    assert_eq!(kept.len(), 1);
    assert!(kept[0].is_canceled());
}

// "Detailed reporting shrinks within its reserved payload, encoded and
// metadata bounds": with report space far above 64 KiB, the fixed 64 KiB
// bound of the result `_meta` is what makes the report shrink; the total
// count is kept.
#[test]
fn report_shrinks_to_the_64_kib_metadata_bound_when_report_space_is_larger() {
    let long: Vec<String> = (0..600)
        .map(|i| format!("x://i/{i:04}/{}", "p".repeat(220)))
        .collect();
    let mut items = refs(&long);
    items.push("x://ok");
    let fx = Fx::new(&items)
        .limit(Limit::ReportPayloadBytes, 1 << 20)
        .limit(Limit::ReportEncodedBytes, 1 << 20)
        .limit(Limit::MaxPayloadBytes, 2 << 20)
        .limit(Limit::MaxEncodedBytes, 4 << 20)
        .limit(Limit::MaxIssues, 1000);
    for u in &long {
        fx.handler.body(u, Body::Fail);
    }
    let b = fx.read(&opts()).unwrap();
    let v: serde_json::Value = serde_json::from_str(b.json()).unwrap();
    let meta = serde_json::to_string(&v["_meta"]).unwrap();
    assert!(
        meta.len() <= 64 * 1024,
        "result _meta is {} bytes",
        meta.len()
    );
    assert!(b.issues().len() > 100 && b.issues().len() < 600);
    assert_eq!(b.issues().len() as u64 + b.issues_omitted(), 600);
    assert_eq!(item_uris(&b), vec!["x://ok"]);
}
