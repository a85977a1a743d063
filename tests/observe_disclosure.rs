//! What events may show (docs/BEHAVIOUR.md §19): the report's disclosure
//! rule governs URIs in events; a hidden URI never appears in any byte of
//! any event, private members included; hidden, undiscoverable,
//! unregistered and not permitted look the same in every public byte; a
//! plan with hidden items looks like the plan without them; private
//! causes stay private; the keyed hashes let a host correlate.

mod observe_support;
mod read_support;

use std::sync::Arc;

use mcp_resources::*;
use observe_support::*;
use read_support::*;

const CANARY: &str = "CANARY-7c1e";
const KEY: &[u8] = b"one event key for the whole fleet";

fn everything() -> Interests {
    Interests {
        decisions: true,
        callback_timings: true,
    }
}

#[test]
fn a_hidden_uri_never_appears_in_any_event_byte() {
    let hidden_first = format!("x://{CANARY}/first");
    let hidden_last = format!("x://{CANARY}/last");
    let hidden_failing = format!("x://{CANARY}/failing");
    let fx = Fx::new(&["x://i/0", &hidden_first, &hidden_last, &hidden_failing]);
    fx.policy.vis(&hidden_first, HIDDEN, HIDDEN);
    fx.policy.vis(&hidden_last, SHOWN, HIDDEN);
    fx.policy.vis(&hidden_failing, SHOWN, HIDDEN);
    fx.handler.body(&hidden_failing, Body::Fail);
    let keep = Keep::new(everything());
    let r = build_observed(&fx, keep.clone());
    let ex = Executor::new(2).unwrap();
    for options in [ReadOptions::default(), with_executor(&ex)] {
        fx.policy.reset();
        let bundle = r.read(BUNDLE.as_bytes(), &options).unwrap();
        assert!(!bundle.is_partial());
        fx.policy.reset();
        let o = RequestOptions {
            call: options.call.clone(),
            ..RequestOptions::default()
        };
        r.request(b"resources/read", br#"{"uri":"bundle://b"}"#, &o)
            .unwrap();
    }
    let bytes = keep.all_bytes();
    assert_eq!(keep.calls().len(), 4);
    assert!(!bytes.contains(CANARY), "{bytes}");
    assert!(!bytes.contains("CANARY"));
    // Not even as the keyed hash of one.
    for u in [&hidden_first, &hidden_last, &hidden_failing] {
        assert!(!bytes.contains(&r.event_hash(u.as_bytes()).to_hex()));
    }
    // Their decisions exist, private, saying only "hidden".
    let hidden: Vec<_> = keep
        .decisions_seen()
        .into_iter()
        .filter(|e| e.rule == Some(DecisionRule::Hidden))
        .collect();
    assert_eq!(hidden.len(), 12);
    assert!(hidden.iter().all(|e| e.is_private && e.public.is_none()));
}

#[test]
fn a_plan_with_hidden_items_looks_like_the_plan_without_them_in_every_public_byte() {
    let secret = format!("x://{CANARY}/item");
    let with = Fx::new(&["x://i/0", &secret, "x://i/1"]);
    with.policy.vis(&secret, HIDDEN, HIDDEN);
    let without = Fx::new(&["x://i/0", "x://i/1"]);
    let mut lines = Vec::new();
    for fx in [&with, &without] {
        let keep = Keep::new(everything());
        let r = builder(fx)
            .event_key(KEY)
            .observer(keep.clone())
            .build()
            .unwrap();
        r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
        lines.push(public_lines(&keep.events()));
    }
    assert_eq!(lines[0], lines[1]);
    assert_eq!(lines[0].len(), 3, "two items, the call");
}

/// Registries where the URI `uri` is not found in each of the ways a
/// caller must not tell apart.
fn not_found_ways(uri: &'static str) -> Vec<(&'static str, Resources, Arc<Keep>)> {
    let mut out = Vec::new();
    type Setup = fn(&Fx, &str);
    let ways: [(&str, Setup); 5] = [
        ("undiscoverable", |fx, _| {
            fx.policy.discover(Perm::Deny, Perm::Deny)
        }),
        ("requested target hidden", |fx, u| {
            fx.policy.vis(u, HIDDEN, HIDDEN)
        }),
        ("requested target denied", |fx, u| {
            fx.policy.perm(u, Perm::Deny, Perm::Deny)
        }),
        ("resolve answers unavailable", |fx, _| {
            *fx.handler.resolve.lock().unwrap() = ResolveMode::Unavailable
        }),
        ("revoked at the recheck", |fx, u| {
            fx.policy.perm(u, Perm::Allow, Perm::Deny)
        }),
    ];
    for (what, setup) in ways {
        let fx = Fx::new(&["x://i/0"]);
        setup(&fx, uri);
        let keep = Keep::new(everything());
        let r = builder(&fx)
            .event_key(KEY)
            .observer(keep.clone())
            .build()
            .unwrap();
        out.push((what, r, keep));
    }
    // Unregistered: a registry without the exact bundle or the template.
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::new(everything());
    let r = Resources::builder()
        .policy(fx.policy.clone())
        .event_key(KEY)
        .observer(keep.clone())
        .binding(
            ResourceBinding::new(r#"{"uri":"other://x","name":"o"}"#, fx.handler.clone()).unwrap(),
        )
        .build()
        .unwrap();
    out.push(("unregistered", r, keep));
    out
}

#[test]
fn hidden_undiscoverable_unregistered_and_denied_look_the_same_in_every_public_byte() {
    let ex = Executor::new(2).unwrap();
    for uri in [BUNDLE, "bundle://t/x"] {
        for options in [ReadOptions::default(), with_executor(&ex)] {
            let mut seen = std::collections::BTreeMap::new();
            for (what, r, keep) in not_found_ways(uri) {
                let e = r.read(uri.as_bytes(), &options).unwrap_err();
                assert_eq!(e.kind(), FailureKind::Unavailable, "{what}");
                let o = RequestOptions {
                    call: options.call.clone(),
                    ..RequestOptions::default()
                };
                let params = format!(r#"{{"uri":"{uri}"}}"#);
                r.request(b"resources/read", params.as_bytes(), &o).unwrap();
                let lines = public_lines(&keep.events());
                // Only the call events are public: every root decision of a
                // not-found call is private.
                assert_eq!(lines.len(), 2, "{what}: {lines:?}");
                seen.entry(lines).or_insert_with(Vec::new).push(what);
                // The private members differ (the causes say why).
                assert!(keep.all_bytes().contains("\"private\":"));
            }
            assert_eq!(seen.len(), 1, "{uri}: {seen:#?}");
        }
    }
}

#[test]
fn a_uri_is_named_in_plain_only_under_the_reports_disclosure_rule() {
    let long = format!("x://i/{}", "l".repeat(260));
    let fx = Fx::new(&["x://i/quiet", "x://i/shown", &long, "x://i/denied-quiet"]);
    fx.policy.vis("x://i/quiet", QUIET, QUIET);
    // Disclosed at the first check, not at the end: the final decision counts.
    fx.policy.vis("x://i/shown", SHOWN, QUIET);
    fx.policy.vis("x://i/denied-quiet", QUIET, QUIET);
    fx.policy.perm("x://i/denied-quiet", Perm::Deny, Perm::Deny);
    let keep = Keep::decisions();
    let r = build_observed(&fx, keep.clone());
    let bundle = r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    let items: Vec<_> = keep
        .decisions_seen()
        .into_iter()
        .filter(|e| e.subject == Some(DecisionSubject::Item))
        .collect();
    assert_eq!(items.len(), 4);
    for (e, uri) in items
        .iter()
        .zip(["x://i/quiet", "x://i/shown", &long, "x://i/denied-quiet"])
    {
        assert_eq!(e.uri, None, "{uri}");
        assert_eq!(e.uri_hash, Some(r.event_hash(uri.as_bytes())));
        assert!(!e.private.contains(uri));
    }
    // The same rule as the report's resourceUri.
    assert!(bundle.issues().iter().all(|i| i.resource_uri().is_none()));
    // The requested target: not disclosed, so the call event names it only
    // by its hash.
    fx.policy.vis(BUNDLE, QUIET, QUIET);
    fx.policy.reset();
    keep.take();
    r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    let call = keep.calls().pop().unwrap();
    assert_eq!(call.uri, None);
    assert_eq!(call.uri_hash, Some(r.event_hash(BUNDLE.as_bytes())));
}

#[test]
fn private_causes_and_authorization_stay_under_private() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.handler.body("x://i/0", Body::Fail);
    let keep = Keep::new(everything());
    let r = build_observed(&fx, keep.clone());
    r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    fx.policy.reset();
    fx.policy.discover(Perm::Fail, Perm::Fail);
    r.read(BUNDLE.as_bytes(), &ReadOptions::default())
        .unwrap_err();
    let events = keep.events();
    let public: String = events.iter().filter_map(|e| e.public.clone()).collect();
    assert_no_secrets(&public);
    assert!(!public.contains("\"private\":"));
    let private = keep.all_bytes();
    assert!(
        private.contains(SECRET_CAUSE),
        "the host's own logs get the causes"
    );
    // Authorization data never enters any event.
    assert!(!private.contains("AUTH-SECRET"));
}

#[test]
fn hashes_correlate_across_replicas_with_one_key_and_never_without() {
    let fx = Fx::new(&["x://i/0"]);
    let a = builder(&fx).event_key(KEY).build().unwrap();
    let b = builder(&fx).event_key(KEY).build().unwrap();
    assert_eq!(a.event_hash(b"doc://x"), b.event_hash(b"doc://x"));
    // The cursor key serves when no event key is set.
    let cursor_key = b"the fleet's cursor key, 32 bytes+";
    let c = builder(&fx).cursor_key(cursor_key).build().unwrap();
    let d = builder(&fx).cursor_key(cursor_key).build().unwrap();
    assert_eq!(c.event_hash(b"doc://x"), d.event_hash(b"doc://x"));
    assert_ne!(c.event_hash(b"doc://x"), a.event_hash(b"doc://x"));
    // Random per registry otherwise.
    let e = builder(&fx).build().unwrap();
    let f = builder(&fx).build().unwrap();
    assert_ne!(e.event_hash(b"doc://x"), f.event_hash(b"doc://x"));
    // Bounds of a key, as for the cursor key.
    for bad in [&b"short"[..], &[1u8; 1025][..]] {
        let err = builder(&fx).event_key(bad).build().unwrap_err();
        assert_eq!(err.kind(), FailureKind::InvalidConfiguration);
    }
}
