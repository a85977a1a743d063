//! A policy that asks for input (docs/BEHAVIOUR.md §18) while a
//! subscription or a notification is decided (docs/BEHAVIOUR.md §15): only
//! a read can answer "input required", so everywhere else the question
//! reads as a denial: *not honored*, the same bytes as hidden or
//! unregistered, and never an input request to a subscriber. Also: the
//! subscription methods served through the asynchronous request
//! (docs/BEHAVIOUR.md §20) answer and decide as the blocking request does.

mod subscription_support;

use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use mcp_resources::*;
use subscription_support::*;

fn uri_params(uri: &str) -> String {
    serde_json::json!({ "uri": uri }).to_string()
}

/// Asks for input for tenant t1: in the read permission of `doc://a` and
/// of a template match, in `discover` of `doc://b` and of the template.
fn asking(fx: &Fx) -> Vec<&'static str> {
    fx.policy.ask("t1", "doc://a");
    fx.policy.ask("t1", "doc://b");
    fx.policy.ask("t1", "file://docs/asks");
    vec!["doc://a", "doc://b", "file://docs/asks"]
}

#[test]
fn a_subscribe_whose_policy_asks_for_input_is_not_honored_in_every_byte() {
    for rev in [ProtocolRevision::V2025_06_18, OLD] {
        let fx = fixture();
        let uris = asking(&fx);
        fx.policy.hide("t1", "doc://secret");
        let o = req_opts("t1", rev);
        let subscribe = |uri: &str| {
            let r = request(&fx.registry, "resources/subscribe", &uri_params(uri), &o).unwrap();
            assert!(r.is_error(), "{uri}");
            assert!(r.subscription().is_none() && !r.is_notification() && !r.is_input_required());
            assert_private_free(r.json());
            assert!(!r.json().contains("roots") && !r.json().contains("inputRequests"));
            r.json().replace(uri, "URI")
        };
        let unregistered = subscribe("doc://unregistered");
        assert_eq!(subscribe("doc://secret"), unregistered, "hidden");
        for uri in &uris {
            assert_eq!(subscribe(uri), unregistered, "{uri} on {rev:?}");
        }
        let v: serde_json::Value = serde_json::from_str(&unregistered).unwrap();
        assert_eq!(v["code"], -32002);
        assert_eq!(*fx.handler.reads.lock().unwrap(), 0, "no body is read");
        // Another caller, whose policy does not ask, is honored.
        let other = request(
            &fx.registry,
            "resources/subscribe",
            &uri_params("doc://a"),
            &req_opts("t2", rev),
        )
        .unwrap();
        assert_eq!(other.json(), "{}");
        assert!(other.subscription().unwrap().honored().resource_updates);
    }
}

#[test]
fn a_listen_of_uris_whose_policy_asks_is_byte_identical_to_one_of_unregistered_uris() {
    let fx = fixture();
    let uris = asking(&fx);
    let o = req_opts("t1", NEW);
    let listen = |uris: &[&str]| {
        let r = request(
            &fx.registry,
            "subscriptions/listen",
            &listen_params(uris, true),
            &o,
        )
        .unwrap();
        assert!(r.is_notification() && !r.is_input_required());
        assert_private_free(r.json());
        r
    };
    let a = listen(&uris);
    let b = listen(&["doc://none0", "doc://none1", "doc://none2"]);
    assert_eq!(a.json(), b.json());
    assert_eq!(acked(&a), Vec::<String>::new());
    assert_eq!(a.subscription().unwrap(), b.subscription().unwrap());
    // Mixed with a URI the caller may see: only that one is acknowledged.
    let mixed = listen(&["doc://a", "doc://secret", "doc://b"]);
    assert_eq!(acked(&mixed), ["doc://secret"]);
}

#[test]
fn an_update_whose_policy_asks_for_input_is_skipped_as_a_hidden_one() {
    let fx = fixture();
    fx.policy.ask("t1", "doc://a"); // the read permission asks
    fx.policy.hide("t2", "doc://a");
    fx.policy.ask("t3", "doc://a");
    let subs = [
        sub("t1", NEW, 1),
        sub("t2", NEW, 2),
        sub("t3", OLD, 0),
        sub("t4", NEW, 4),
    ];
    let n = fx
        .registry
        .notify_updated(b"doc://a", &subs, &NotifyOptions::default())
        .unwrap();
    let got = outcomes(&n);
    assert_eq!(got[..3], ["skip", "skip", "skip"]);
    assert!(
        got[3].contains("notifications/resources/updated"),
        "{got:?}"
    );
    assert_eq!(n.sent(), 1);
    for d in n.iter() {
        if let Some(m) = d.message() {
            assert_private_free(m);
            assert!(!m.contains("roots"), "{m}");
        }
    }
    assert_eq!(*fx.handler.reads.lock().unwrap(), 0);
}

#[test]
fn a_list_change_whose_discover_asks_tells_that_caller_nothing() {
    let policy = Tenants::new();
    let h = Arc::new(Handler::default());
    let old = [r#"{"uri":"doc://a","name":"a"}"#];
    let new = [r#"{"uri":"doc://a","name":"renamed"}"#];
    let a = build(
        &old,
        policy.clone(),
        h.clone(),
        NotificationTypes::RESOURCES,
    );
    let b = build(&new, policy.clone(), h, NotificationTypes::RESOURCES);
    policy.ask("t1", "doc://a");
    policy.undiscover("t2", "doc://a");
    let change = ListChange::between(&a, &b);
    let n = change
        .notify(
            &[sub("t1", NEW, 1), sub("t2", NEW, 2), sub("t3", NEW, 3)],
            &NotifyOptions::default(),
        )
        .unwrap();
    let got = outcomes(&n);
    assert_eq!(got[..2], ["skip", "skip"]);
    assert!(got[2].contains("notifications/resources/list_changed"));
}

#[test]
fn a_discover_that_asks_leaves_the_definition_out_of_the_listing_fingerprint() {
    let fx = fixture();
    let fp = |t| {
        fx.registry
            .listing_fingerprint(&ReadOptions {
                call: CallOptions {
                    request_data: tenant(t),
                    ..CallOptions::default()
                },
                ..ReadOptions::default()
            })
            .unwrap()
    };
    fx.policy.ask("t1", "doc://b");
    fx.policy.undiscover("t2", "doc://b");
    assert_eq!(fp("t1"), fp("t2"), "asking is undiscoverable");
    assert_ne!(fp("t1"), fp("t3"));
}

/// The blocking request and the asynchronous one of `method` with
/// `params`, on `registry` with an executor.
fn both(
    registry: &Arc<Resources>,
    method: &str,
    params: &str,
    o: &RequestOptions,
) -> (Response, Response) {
    let (tx, rx) = mpsc::channel();
    registry
        .request_start(method.as_bytes(), params.as_bytes(), o, move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
    let started = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("done ran")
        .unwrap();
    let blocking = request(registry, method, params, o).unwrap();
    (started, blocking)
}

#[test]
fn the_subscription_methods_through_the_asynchronous_request_answer_as_the_blocking_one() {
    let fx = fixture();
    asking(&fx);
    let policy = fx.policy.clone();
    let registry = Arc::new(fx.registry);
    let ex = Executor::new(2).unwrap();
    let with_executor = |rev| {
        let mut o = req_opts("t1", rev);
        o.call.executor = Some(ex.clone());
        o.call.timeout = Some(Duration::from_secs(10));
        o
    };
    let old = with_executor(OLD);
    for (method, params) in [
        ("resources/subscribe", uri_params("doc://secret")),
        ("resources/subscribe", uri_params("doc://a")),
        ("resources/subscribe", uri_params("doc://unregistered")),
        ("resources/subscribe", "{\"uri\":7}".to_string()),
        ("resources/unsubscribe", uri_params("doc://a")),
    ] {
        let (started, blocking) = both(&registry, method, &params, &old);
        assert_eq!(started.json(), blocking.json(), "{method} {params}");
        assert_eq!(started.subscription(), blocking.subscription());
        assert_eq!(started.is_error(), blocking.is_error());
    }
    let new = with_executor(NEW);
    let params = listen_params(&["doc://a", "doc://secret", "doc://none"], true);
    let (started, blocking) = both(&registry, "subscriptions/listen", &params, &new);
    assert_eq!(started.json(), blocking.json());
    assert!(started.is_notification());
    assert_eq!(acked(&started), ["doc://secret"]);
    assert_eq!(started.subscription(), blocking.subscription());
    // Every callback of the asynchronous calls ran as a subscription
    // decision, on the executor's workers.
    assert!(policy
        .phases()
        .iter()
        .all(|p| *p == CallPhase::Subscription));
    // resources/subscribe on 2026-07-28 is no method: not handled, through
    // the completion as from the blocking request.
    let (tx, rx) = mpsc::channel();
    registry
        .request_start(
            b"resources/subscribe",
            uri_params("doc://secret").as_bytes(),
            &new,
            move |r| {
                let _ = tx.send(r);
            },
        )
        .unwrap();
    let r = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(matches!(r, Err(RequestError::MethodNotHandled)));
}

#[test]
fn a_listen_message_started_asynchronously_takes_the_messages_id() {
    let fx = fixture();
    let registry = Arc::new(fx.registry);
    let ex = Executor::new(1).unwrap();
    let mut o = req_opts("t1", NEW);
    o.request_id = None; // the message's own id names the stream
    o.call.executor = Some(ex.clone());
    o.call.timeout = Some(Duration::from_secs(10));
    let params = listen_params(&["doc://secret"], false);
    let message = format!(
        r#"{{"jsonrpc":"2.0","id":"s-9","method":"subscriptions/listen","params":{params}}}"#
    );
    let (tx, rx) = mpsc::channel();
    registry
        .message_start(message.as_bytes(), &o, move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
    let started = rx.recv_timeout(Duration::from_secs(20)).unwrap().unwrap();
    let blocking = registry.message(message.as_bytes(), &o).unwrap();
    assert_eq!(started.json(), blocking.json());
    assert!(started.is_notification());
    assert_eq!(started.id(), "\"s-9\"");
    let d = started.subscription().unwrap();
    assert_eq!(d, blocking.subscription().unwrap());
    assert!(started.json().contains("\"s-9\""), "{}", started.json());
}
