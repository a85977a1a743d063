//! docs/SPEC-TESTS.md section "Partial bundles": one test per requirement.

mod read_support;

use mcp_resources::CallOptions;
use mcp_resources::*;
use read_support::*;

const KEY: &str = "go.phpboyscout.uk/mcp.resourceRead";

fn parsed(b: &ResourceBundle) -> serde_json::Value {
    serde_json::from_str(b.json()).unwrap()
}

// "A usable partial bundle returns a nil error with Partial() true."
#[test]
fn usable_partial_bundle_returns_ok_with_partial_true() {
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    let b = fx.read(&opts()).unwrap();
    assert!(b.is_partial());
    assert_eq!(report(&b)["partial"], true);
}

// "Items() prepends one module-generated text/plain warning, then preserves
// the order of admitted application items."
#[test]
fn items_prepend_one_text_plain_warning_then_admitted_items_in_plan_order() {
    let u = vec![
        "x://z".to_string(),
        "x://a".to_string(),
        "x://m".to_string(),
        "x://b".to_string(),
    ];
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[2], Body::Fail);
    let b = fx.read(&opts()).unwrap();
    let items: Vec<BundleItem> = b.items().collect();
    assert_eq!(items.len(), 4);
    assert!(items[0].is_warning());
    assert_eq!(items[0].mime_type(), "text/plain");
    assert_eq!(
        items[1..]
            .iter()
            .map(|i| i.uri().into_owned())
            .collect::<Vec<_>>(),
        vec!["x://z", "x://a", "x://b"]
    );
    assert!(items[1..].iter().all(|i| !i.is_warning()));
    assert_eq!(items[2].text().unwrap(), "body of x://a");
    let v = parsed(&b);
    assert_eq!(v["contents"][0]["mimeType"], "text/plain");
    assert_eq!(v["contents"][1]["uri"], "x://z");
}

// "Complete results have no warning."
#[test]
fn complete_results_have_no_warning() {
    let fx = Fx::new(&refs(&uris(2)));
    let b = fx.read(&opts()).unwrap();
    assert!(!b.is_partial());
    assert!(b.items().all(|i| !i.is_warning()));
    assert!(!b.json().contains("mcp-warning"));
    assert!(!b.json().contains("Incomplete bundle."));
}

// "Result metadata always contains go.phpboyscout.uk/mcp.resourceRead with a
// version-one report."
#[test]
fn result_metadata_always_contains_the_version_one_report() {
    let fx = Fx::new(&refs(&uris(1)));
    let b = fx.read(&opts()).unwrap();
    assert_eq!(
        b.report_json(),
        r#"{"version":1,"partial":false,"issues":[],"issuesOmitted":0}"#
    );
    assert!(b.json().ends_with(
        r#"],"_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,"partial":false,"issues":[],"issuesOmitted":0}},"resultType":"complete","ttlMs":0,"cacheScope":"private"}"#
    ));
    let old = fx
        .read(&ReadOptions::from(CallOptions {
            protocol_revision: ProtocolRevision::V2025_11_25,
            ..opts().call
        }))
        .unwrap();
    assert!(old.json().ends_with(
        r#"],"_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,"partial":false,"issues":[],"issuesOmitted":0}}}"#
    ));
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[1], Body::Fail);
    let b = fx.read(&opts()).unwrap();
    assert_eq!(parsed(&b)["_meta"][KEY]["version"], 1);
}

// "For partial results the warning starts with Incomplete bundle. followed
// by a newline and the identical report JSON."
#[test]
fn warning_text_is_incomplete_bundle_newline_and_the_identical_report_json() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    fx.handler.body(&u[2], Body::Unavailable);
    let b = fx.read(&opts()).unwrap();
    let w = b.items().next().unwrap();
    assert_eq!(
        w.text().unwrap(),
        format!("Incomplete bundle.\n{}", b.report_json())
    );
    let v = parsed(&b);
    let text = v["contents"][0]["text"].as_str().unwrap();
    let meta_report = serde_json::to_string(&v["_meta"][KEY]).unwrap();
    assert_eq!(text, format!("Incomplete bundle.\n{meta_report}"));
}

// "Its URI is mcp-warning://read/ plus 128 random bits as 32 lowercase hex
// characters."
#[test]
fn warning_uri_is_prefix_plus_32_lowercase_hex_fresh_per_read() {
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    let r = fx.build();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..20 {
        fx.policy.reset();
        let b = r.read(BUNDLE.as_bytes(), &opts()).unwrap();
        let uri = b.items().next().unwrap().uri().into_owned();
        let hex = uri.strip_prefix("mcp-warning://read/").unwrap();
        assert_eq!(hex.len(), 32);
        assert!(hex.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')));
        assert!(seen.insert(uri));
    }
}

// "Its metadata marks diagnostic and inlineOnly true under the same
// reserved key."
#[test]
fn warning_metadata_marks_diagnostic_and_inline_only_under_the_reserved_key() {
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    let b = fx.read(&opts()).unwrap();
    let w = b.items().next().unwrap();
    assert_eq!(
        w.meta_json().unwrap(),
        r#"{"go.phpboyscout.uk/mcp.resourceRead":{"diagnostic":true,"inlineOnly":true}}"#
    );
}

// "The warning grants no access, is not stored, listed or readable, and
// cannot be supplied by an application binding."
#[test]
fn warning_uri_cannot_be_registered_resolved_or_read() {
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    let r = fx.build();
    let b = r.read(BUNDLE.as_bytes(), &opts()).unwrap();
    let warning = b.items().next().unwrap().uri().into_owned();
    // Not readable.
    let e = r.read(warning.as_bytes(), &opts()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    let e = r
        .read(warning.to_uppercase().as_bytes(), &opts())
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    // Not registrable.
    let def = format!(r#"{{"uri":"{warning}","name":"w"}}"#);
    assert_eq!(
        ResourceBinding::new(&def, fx.handler.clone())
            .unwrap_err()
            .kind(),
        FailureKind::InvalidConfiguration
    );
    // Not a target a binding can plan.
    assert!(ResourceTarget::new(&warning, "", None).is_err());
    // Nor can a payload carry the reserved metadata key.
    assert!(ResourcePayload::text("text/plain", "x")
        .unwrap()
        .with_meta_json(r#"{"go.phpboyscout.uk/mcp.resourceRead":{"diagnostic":true}}"#)
        .is_err());
}

// "A fresh read recomputes content and warnings under current policy."
#[test]
fn fresh_read_recomputes_content_and_warnings_under_current_policy() {
    let u = uris(2);
    let fx = Fx::new(&refs(&u));
    fx.policy.perm(&u[0], Perm::Deny, Perm::Deny);
    let r = fx.build();
    let b1 = r.read(BUNDLE.as_bytes(), &opts()).unwrap();
    assert!(b1.is_partial());
    fx.policy.reset();
    fx.policy.perm(&u[0], Perm::Allow, Perm::Allow);
    let b2 = r.read(BUNDLE.as_bytes(), &opts()).unwrap();
    assert!(!b2.is_partial());
    assert_eq!(item_uris(&b2), u);
}

// "Issues() returns bounded safe details."
#[test]
fn issues_are_bounded_by_max_issues() {
    let u = uris(6);
    let fx = Fx::new(&refs(&u)).limit(Limit::MaxIssues, 3);
    for x in &u[..5] {
        fx.handler.body(x, Body::Fail);
    }
    let b = fx.read(&opts()).unwrap();
    assert_eq!(b.issues().len(), 3);
    assert_eq!(b.issues_omitted(), 2);
}

// "IssuesOmitted() counts additional visible failures/unattempted visible
// items."
#[test]
fn issues_omitted_counts_additional_visible_failures_and_unattempted_items() {
    let u = uris(6);
    let fx = Fx::new(&refs(&u))
        .limit(Limit::MaxIssues, 1)
        .limit(Limit::MaxItems, 2);
    fx.handler.body(&u[0], Body::Fail);
    fx.policy.vis(&u[4], HIDDEN, HIDDEN); // hidden: never counted
    let b = fx.read(&opts()).unwrap();
    // u0 failed; u1,u2 admitted; u3,u5 unattempted (u4 hidden).
    assert_eq!(item_uris(&b), vec![u[1].clone(), u[2].clone()]);
    assert_eq!(
        issue_list(&b),
        vec![("read_failed".into(), Some(u[0].clone()))]
    );
    assert_eq!(b.issues_omitted(), 2);
    assert_eq!(report(&b)["issuesOmitted"], 2);
}

// "The fixed codes are unavailable, read_failed, timeout, invalid_content
// and budget_exceeded; only read_failed is retryable, and no automatic
// retry occurs."
#[test]
fn fixed_codes_only_read_failed_retryable_and_no_automatic_retry() {
    let u = uris(6);
    let fx = Fx::new(&refs(&u))
        .limit(Limit::ItemTimeoutMs, 80)
        .limit(Limit::MaxItemBytes, 10);
    fx.handler.body(&u[0], Body::Unavailable);
    fx.handler.body(&u[1], Body::Fail);
    fx.handler
        .body(&u[2], Body::Sleep(std::time::Duration::from_millis(200)));
    fx.handler.body(&u[3], Body::Malformed);
    fx.handler.body(&u[4], Body::Text("x".repeat(11)));
    fx.handler.body(&u[5], Body::Text("ok".into()));
    let b = fx.read(&opts()).unwrap();
    let r = report(&b);
    let got: Vec<(String, bool)> = r["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["code"].as_str().unwrap().to_string(),
                i["retryable"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("unavailable".to_string(), false),
            ("read_failed".to_string(), true),
            ("timeout".to_string(), false),
            ("invalid_content".to_string(), false),
            ("budget_exceeded".to_string(), false),
        ]
    );
    // Each body was read exactly once.
    assert_eq!(
        fx.handler.reads.load(std::sync::atomic::Ordering::SeqCst),
        6
    );
}

// "Messages are fixed module templates."
#[test]
fn messages_are_fixed_module_templates() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    fx.handler.body(&u[1], Body::Panic);
    let b = fx.read(&opts()).unwrap();
    for (i, issue) in report(&b)["issues"].as_array().unwrap().iter().enumerate() {
        assert_eq!(issue["message"], IssueCode::ReadFailed.message(), "{i}");
        assert_eq!(b.issues()[i].message(), IssueCode::ReadFailed.message());
    }
    assert_no_secrets(b.json());
}

// "ResourceURI() appears only when final visibility policy sets
// DiscloseIssueURI and the URI is at most 256 bytes."
#[test]
fn resource_uri_appears_only_when_final_visibility_discloses_and_short() {
    let u = uris(5);
    let fx = Fx::new(&refs(&u));
    for x in &u[..4] {
        fx.handler.body(x, Body::Fail);
    }
    fx.policy.vis(&u[0], SHOWN, SHOWN);
    fx.policy.vis(&u[1], QUIET, QUIET);
    fx.policy.vis(&u[2], SHOWN, QUIET); // first discloses, final not
    fx.policy.vis(&u[3], QUIET, SHOWN); // final discloses
    let b = fx.read(&opts()).unwrap();
    assert_eq!(
        issue_list(&b),
        vec![
            ("read_failed".to_string(), Some(u[0].clone())),
            ("read_failed".to_string(), None),
            ("read_failed".to_string(), None),
            ("read_failed".to_string(), Some(u[3].clone())),
        ]
    );
    let r = report(&b);
    assert!(r["issues"][1].get("resourceUri").is_none());
    assert!(!b.json().contains(&format!("\"{}\"", u[1])));
}

// "Longer identities are omitted without truncation or hashing."
#[test]
fn uri_of_257_bytes_is_omitted_without_truncation_or_hashing() {
    let prefix = "x://i/";
    let u256 = format!("{prefix}{}", "a".repeat(256 - prefix.len()));
    let u257 = format!("{prefix}{}", "b".repeat(257 - prefix.len()));
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
    // No prefix of the long URI's distinctive part, nor a hash-like field.
    assert!(!b.json().contains("bbbbbbbb"));
    let r = report(&b);
    assert_eq!(
        r["issues"][1]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        vec!["code", "message", "retryable"]
    );
}

// "Hidden items, private causes and AuthorizationData never enter the
// report."
#[test]
fn hidden_items_private_causes_and_authorization_data_never_appear() {
    let u = uris(5);
    let fx = Fx::new(&refs(&u));
    fx.handler.body(&u[0], Body::Fail);
    fx.handler.body(&u[1], Body::Panic);
    fx.handler.body(&u[2], Body::Fail);
    fx.policy.vis(&u[2], SHOWN, HIDDEN);
    fx.policy.vis(&u[3], HIDDEN, HIDDEN);
    let b = fx.read(&opts()).unwrap();
    assert_no_secrets(b.json());
    assert!(!b.json().contains(&u[2]));
    assert!(!b.json().contains(&u[3]));
    assert_eq!(b.issues().len(), 2);
    // Also with the executor, and in the whole-read failure's safe parts.
    let ex = Executor::new(2).unwrap();
    fx.policy.reset();
    let b = fx
        .build()
        .read(BUNDLE.as_bytes(), &with_executor(&ex))
        .unwrap();
    assert_eq!(b.issues().len(), 2);
    assert_no_secrets(b.json());
    let fx = Fx::new(&[&u[0]]);
    fx.handler.body(&u[0], Body::Fail);
    let e = fx.read(&opts()).unwrap_err();
    assert_no_secrets(e.message());
    assert_no_secrets(&e.to_string());
    assert_no_secrets(&format!("{e:?}"));
}

// "Whole-read errors retain private causes through Failure.Unwrap; item
// issues intentionally expose none."
#[test]
fn whole_read_errors_retain_private_causes_item_issues_expose_none() {
    let fx = Fx::new(&["x://i/0"]);
    fx.handler.body("x://i/0", Body::Fail);
    let e = fx.read(&opts()).unwrap_err();
    assert!(std::error::Error::source(&e)
        .unwrap()
        .to_string()
        .contains(SECRET_CAUSE));
    let fx = Fx::new(&["x://i/0"]);
    fx.policy.perm(BUNDLE, Perm::Fail, Perm::Allow);
    let e = fx.read(&opts()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Policy);
    assert!(e.cause_text().contains(SECRET_CAUSE));
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.handler.body("x://i/0", Body::Fail);
    let b = fx.read(&opts()).unwrap();
    let issue = format!("{:?}", b.issues());
    assert!(!issue.contains(SECRET_CAUSE));
}

// Payload `_meta` is carried through; empty text and empty blobs are valid.
#[test]
fn payload_meta_and_empty_variants_are_emitted() {
    let u = uris(3);
    let fx = Fx::new(&refs(&u));
    fx.handler
        .body(&u[0], Body::Meta("m".into(), r#"{"a":{"b":[1,2]}}"#.into()));
    fx.handler.body(&u[1], Body::Text(String::new()));
    fx.handler.body(&u[2], Body::Blob(Vec::new()));
    let b = fx.read(&opts()).unwrap();
    let items: Vec<BundleItem> = b.items().collect();
    assert_eq!(items[0].meta_json(), Some(r#"{"a":{"b":[1,2]}}"#));
    assert_eq!(items[1].text().unwrap(), "");
    assert_eq!(items[2].blob().unwrap(), Vec::<u8>::new());
    assert_eq!(items[2].blob_base64(), Some(""));
    let v = parsed(&b);
    assert_eq!(v["contents"][1]["text"], "");
    assert_eq!(v["contents"][2]["blob"], "");
}

// Template selections read like exact ones.
#[test]
fn template_selection_reads_the_plan() {
    let fx = Fx::new(&["x://i/0"]);
    let b = fx.build().read(b"bundle://t/42", &opts()).unwrap();
    assert_eq!(item_uris(&b), vec!["x://i/0"]);
    assert!(fx.events().contains(&"resolve bundle://t/42".to_string()));
}
