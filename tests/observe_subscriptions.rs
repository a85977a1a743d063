//! Subscription decisions observed (docs/BEHAVIOUR.md §19, §15): every
//! subscription call gives one call event, as `"subscriptions"`, that
//! names no URI and summarizes nothing, and no decision event; so a URI
//! hidden, undiscoverable, denied, unresolvable or unregistered looks the
//! same in every public byte of the events as in every byte the client
//! gets, and a hidden URI appears in no event byte at all.

mod observe_support;
mod read_support;
mod subscription_support;

use std::collections::BTreeSet;
use std::sync::Arc;

use mcp_resources::*;
use observe_support::{public_lines, Keep};
use subscription_support::{builder, listen_params, req_opts, Handler, Tenants, DEFS, NEW, OLD};

fn everything() -> Interests {
    Interests {
        decisions: true,
        callback_timings: true,
    }
}

/// The subscription fixture's registry, observed by `keep`.
fn observed(policy: &Arc<Tenants>, keep: &Arc<Keep>) -> Resources {
    let handler = Arc::new(Handler::default());
    builder(DEFS, policy.clone(), handler, NotificationTypes::RESOURCES)
        .observer(keep.clone())
        .build()
        .expect("registry")
}

const CANARY: &str = "doc://secret";

/// Every way tenant t1 cannot subscribe to a URI.
fn not_honored(policy: &Tenants) -> Vec<&'static str> {
    policy.undiscover("t1", "doc://a");
    policy.hide("t1", "doc://b");
    policy.revoke("t1", CANARY);
    vec![
        "doc://a",
        "doc://b",
        CANARY,
        "doc://gone",
        "doc://unregistered",
    ]
}

#[test]
fn a_subscribe_not_honored_looks_the_same_in_every_public_event_byte() {
    for rev in [ProtocolRevision::V2025_06_18, OLD] {
        let policy = Tenants::new();
        let uris = not_honored(&policy);
        let mut seen = BTreeSet::new();
        for uri in &uris {
            let keep = Keep::new(everything());
            let r = observed(&policy, &keep);
            let params = serde_json::json!({ "uri": uri }).to_string();
            let resp = r
                .request(
                    b"resources/subscribe",
                    params.as_bytes(),
                    &req_opts("t1", rev),
                )
                .unwrap();
            assert!(resp.is_error(), "{uri}");
            let lines = public_lines(&keep.events());
            assert_eq!(
                lines.len(),
                1,
                "{uri}: one call event, no decision event: {lines:?}"
            );
            assert!(lines[0].contains("\"subscriptions\""), "{}", lines[0]);
            assert!(!lines[0].contains(uri), "{uri} in {}", lines[0]);
            seen.insert((lines, resp.json().replace(uri, "URI")));
        }
        assert_eq!(seen.len(), 1, "{seen:#?}");
    }
}

#[test]
fn a_hidden_uri_appears_in_no_event_byte_of_a_listen_or_an_update() {
    let policy = Tenants::new();
    not_honored(&policy);
    let keep = Keep::new(everything());
    let r = observed(&policy, &keep);
    let mut o = req_opts("t1", NEW);
    o.request_id = Some(b"7".to_vec());
    let listen = r
        .request(
            b"subscriptions/listen",
            listen_params(&[CANARY, "doc://b", "doc://c"], true).as_bytes(),
            &o,
        )
        .unwrap();
    assert!(!listen.json().contains(CANARY));
    assert!(!keep.all_bytes().contains(CANARY), "{}", keep.all_bytes());
    assert!(
        !keep.all_bytes().contains("doc://b"),
        "{}",
        keep.all_bytes()
    );
    assert_eq!(keep.calls().len(), 1, "one call event for the listen");
}

/// One subscription request served blocking or through `request_start`:
/// its response text and the public lines of the events it gave.
fn served(
    r: &Arc<Resources>,
    keep: &Keep,
    (method, params, revision): (&str, &str, ProtocolRevision),
    executor: Option<&Executor>,
) -> (String, Vec<String>) {
    keep.take();
    let mut o = req_opts("t1", revision);
    o.request_id = Some(b"7".to_vec());
    let resp = match executor {
        None => r.request(method.as_bytes(), params.as_bytes(), &o),
        Some(ex) => {
            o.call.executor = Some(ex.clone());
            let (tx, rx) = std::sync::mpsc::channel();
            r.request_start(method.as_bytes(), params.as_bytes(), &o, move |out| {
                tx.send(out).unwrap();
            })
            .unwrap();
            rx.recv().unwrap()
        }
    }
    .unwrap();
    (resp.json().to_owned(), public_lines(&keep.events()))
}

#[test]
fn every_served_subscription_request_gives_one_call_event_blocking_or_asynchronous() {
    let policy = Tenants::new();
    not_honored(&policy);
    let keep = Keep::new(everything());
    let r = Arc::new(observed(&policy, &keep));
    let ex = Executor::new(1).unwrap();
    let listen = listen_params(&["doc://c", "doc://b"], true);
    let cases = [
        ("resources/subscribe", r#"{"uri":"doc://c"}"#, OLD),
        ("resources/subscribe", r#"{"uri":"doc://b"}"#, OLD),
        ("resources/subscribe", r#"{"uri":"no scheme"}"#, OLD),
        ("resources/subscribe", r#"{"uri":7}"#, OLD),
        ("resources/subscribe", r#"{}"#, OLD),
        ("resources/subscribe", r#"{"uri":"doc://c","extra":1}"#, OLD),
        ("resources/unsubscribe", r#"{"uri":"doc://c"}"#, OLD),
        ("resources/unsubscribe", r#"{"uri":"doc://b"}"#, OLD),
        ("resources/unsubscribe", r#"{"uri":"no scheme"}"#, OLD),
        ("resources/unsubscribe", r#"{"uri":7}"#, OLD),
        ("resources/unsubscribe", r#"{}"#, OLD),
        ("subscriptions/listen", listen.as_str(), NEW),
        ("subscriptions/listen", r#"{"notifications":7}"#, NEW),
        ("subscriptions/listen", r#"[]"#, NEW),
    ];
    for case in cases {
        let (json, blocking) = served(&r, &keep, case, None);
        let calls: Vec<_> = blocking
            .iter()
            .filter(|l| l.contains("\"event\":\"call\""))
            .collect();
        assert_eq!(calls.len(), 1, "{case:?} -> {json}: {blocking:?}");
        assert!(calls[0].contains("\"subscriptions\""), "{}", calls[0]);
        let (async_json, asynchronous) = served(&r, &keep, case, Some(&ex));
        assert_eq!(async_json, json, "{case:?}");
        assert_eq!(asynchronous, blocking, "{case:?}");
    }
}

#[test]
fn an_unsubscribe_looks_the_same_in_every_event_byte_whatever_the_uri() {
    let policy = Tenants::new();
    let mut uris = not_honored(&policy);
    uris.push("doc://c");
    let keep = Keep::new(everything());
    let r = Arc::new(observed(&policy, &keep));
    let mut seen = BTreeSet::new();
    for uri in uris {
        let params = serde_json::json!({ "uri": uri }).to_string();
        let (json, lines) = served(&r, &keep, ("resources/unsubscribe", &params, OLD), None);
        assert!(!keep.all_bytes().contains(uri), "{uri}");
        assert_eq!(
            lines.len(),
            1,
            "{uri}: one call event, no decision event: {lines:?}"
        );
        seen.insert((json, lines));
    }
    assert_eq!(seen.len(), 1, "{seen:#?}");
}
