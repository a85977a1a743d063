//! `resources/subscribe`, `resources/unsubscribe` and `subscriptions/listen`
//! through the one-call request (docs/BEHAVIOUR.md §15): what is honored,
//! that everything not honored looks the same in every byte, and that bad
//! input gives a clear error and nothing else.

mod subscription_support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use mcp_resources::*;
use subscription_support::*;

fn uri_params(uri: &str) -> String {
    serde_json::json!({ "uri": uri }).to_string()
}

/// Every way a URI can fail to be honored for tenant t1, and the rules
/// making it so.
fn not_honored(fx: &Fx) -> Vec<&'static str> {
    fx.policy.undiscover("t1", "doc://a"); // undiscoverable definition
    fx.policy.hide("t1", "doc://b"); // hidden requested target
    fx.policy.revoke("t1", "doc://secret"); // visible, read permission denied
    fx.policy.hide("t1", "file://docs/priv"); // a template match, hidden
    vec![
        "doc://a",
        "doc://b",
        "doc://secret",
        "doc://gone",         // resolve answers unavailable
        "doc://unregistered", // nothing registered
        "other://x/y",        // no template matches either
        "file://docs/priv",
    ]
}

#[test]
fn subscribe_not_honored_is_the_reads_not_found_in_every_byte() {
    for rev in [ProtocolRevision::V2025_06_18, OLD] {
        let fx = fixture();
        let uris = not_honored(&fx);
        let mut seen = HashSet::new();
        for uri in &uris {
            let o = req_opts("t1", rev);
            let sub = request(&fx.registry, "resources/subscribe", &uri_params(uri), &o).unwrap();
            let read = request(&fx.registry, "resources/read", &uri_params(uri), &o).unwrap();
            assert!(sub.is_error() && read.is_error(), "{uri}");
            assert_eq!(sub.json(), read.json(), "{uri}");
            assert!(sub.subscription().is_none() && !sub.is_notification());
            assert_private_free(sub.json());
            let v: serde_json::Value = serde_json::from_str(sub.json()).unwrap();
            assert_eq!(v["code"], -32002);
            assert_eq!(v["data"]["uri"], *uri);
            seen.insert(sub.json().replace(uri, "URI"));
        }
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(*fx.handler.reads.lock().unwrap(), 0, "no body is read");
    }
}

#[test]
fn subscribe_honored_is_an_empty_result_and_a_decision() {
    let fx = fixture();
    for uri in ["doc://a", "file://docs/readme.md"] {
        let r = request(
            &fx.registry,
            "resources/subscribe",
            &uri_params(uri),
            &req_opts("t1", OLD),
        )
        .unwrap();
        assert!(!r.is_error() && !r.is_notification());
        assert_eq!(r.json(), "{}");
        let d = r.subscription().expect("a decision");
        assert_eq!(d.method(), SubscriptionMethod::Subscribe);
        assert_eq!(d.uris(), [uri.to_string()]);
        assert!(d.honored().resource_updates && d.subscription_id().is_none());
        assert_eq!(d.protocol_revision(), OLD);
    }
    // The decision asked the read's root checks only: no body read.
    assert_eq!(*fx.handler.reads.lock().unwrap(), 0);
    assert_eq!(fx.policy.phases(), HashSet::from([CallPhase::Subscription]));
}

#[test]
fn a_per_request_revision_shapes_the_subscribe_answer() {
    let fx = fixture();
    let params =
        r#"{"uri":"doc://none","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}"#;
    let r = request(
        &fx.registry,
        "resources/subscribe",
        params,
        &req_opts("t1", OLD),
    )
    .unwrap();
    assert_eq!(r.protocol_revision(), ProtocolRevision::V2025_06_18);
    // ... and a 2026-07-28 one makes it no method at all.
    let params =
        r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
    let r = request(
        &fx.registry,
        "resources/subscribe",
        params,
        &req_opts("t1", OLD),
    );
    assert_eq!(r.unwrap_err(), RequestError::MethodNotHandled);
}

#[test]
fn an_invalid_uri_is_the_reads_request_error_and_asks_nobody() {
    let fx = fixture();
    let bad = [
        "",
        "not a uri",
        "doc://a b",
        "x://user@host/",
        "doc://%zz",
        "mcp-warning://read/0",
        "x://amb/y/z",
    ];
    for uri in bad {
        let o = req_opts("t1", OLD);
        let read = request(&fx.registry, "resources/read", &uri_params(uri), &o).unwrap();
        for method in ["resources/subscribe", "resources/unsubscribe"] {
            let r = request(&fx.registry, method, &uri_params(uri), &o).unwrap();
            // ambiguity needs selection: unsubscribe selects nothing
            if method == "resources/unsubscribe" && uri == "x://amb/y/z" {
                assert_eq!(r.json(), "{}");
                continue;
            }
            assert!(r.is_error(), "{method} {uri}");
            assert_eq!(r.json(), read.json(), "{method} {uri}");
            assert!(r.subscription().is_none());
        }
        let o = req_opts("t1", NEW);
        let read = request(&fx.registry, "resources/read", &uri_params(uri), &o).unwrap();
        let listen = request(
            &fx.registry,
            "subscriptions/listen",
            &listen_params(&["doc://a", uri], true),
            &o,
        )
        .unwrap();
        assert!(listen.is_error() && !listen.is_notification(), "{uri}");
        assert_eq!(listen.json(), read.json(), "{uri}");
    }
    // Selection comes first: the valid URI before the invalid one was not
    // asked about either.
    let policy_calls: Vec<_> = fx
        .policy
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|e| e.0 == CallPhase::Subscription)
        .cloned()
        .collect();
    assert!(policy_calls.is_empty(), "{policy_calls:?}");
}

#[test]
fn unsubscribe_always_succeeds_and_asks_nobody() {
    let fx = fixture();
    let mut uris = not_honored(&fx);
    uris.push("doc://a");
    for uri in uris {
        let r = request(
            &fx.registry,
            "resources/unsubscribe",
            &uri_params(uri),
            &req_opts("t1", OLD),
        )
        .unwrap();
        assert_eq!(r.json(), "{}", "{uri}");
        let d = r.subscription().unwrap();
        assert_eq!(d.method(), SubscriptionMethod::Unsubscribe);
        assert_eq!(d.uris(), [uri.to_string()]);
    }
    assert_eq!(fx.policy.calls(), 0);
    assert_eq!(*fx.handler.resolves.lock().unwrap(), 0);
}

#[test]
fn listen_acknowledges_the_honored_subset_in_request_order() {
    let fx = fixture();
    let mut asked = vec!["file://docs/z"];
    asked.extend(not_honored(&fx));
    asked.insert(3, "doc://visible");
    let fx = fixture_with(&[
        r#"{"uri":"doc://visible","name":"v"}"#,
        r#"{"uri":"doc://a","name":"a"}"#,
        r#"{"uri":"doc://b","name":"b"}"#,
        r#"{"uri":"doc://secret","name":"s"}"#,
        r#"{"uri":"doc://gone","name":"g"}"#,
        r#"{"uriTemplate":"file://docs/{name}","name":"files"}"#,
    ]);
    not_honored(&fx);
    let r = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&asked, true),
        &req_opts("t1", NEW),
    )
    .unwrap();
    assert!(!r.is_error() && r.is_notification());
    assert_eq!(acked(&r), ["file://docs/z", "doc://visible"]);
    assert_eq!(
        r.json(),
        r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["file://docs/z","doc://visible"]}}}"#
    );
    let d = r.subscription().unwrap();
    assert_eq!(d.method(), SubscriptionMethod::Listen);
    assert_eq!(d.uris(), ["file://docs/z", "doc://visible"]);
    assert_eq!(d.subscription_id().unwrap().json(), "1");
    assert!(d.honored().resource_updates && d.honored().resources_list_changed);
    assert_eq!(d.protocol_revision(), NEW);
    assert_private_free(r.json());
    // Another tenant sees what t1 may not.
    let r = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&asked, false),
        &req_opts("t2", NEW),
    )
    .unwrap();
    assert_eq!(
        acked(&r),
        [
            "file://docs/z",
            "doc://a",
            "doc://b",
            "doc://visible",
            "doc://secret",
            "file://docs/priv"
        ]
    );
}

#[test]
fn a_listen_of_hidden_uris_is_byte_identical_to_one_of_unregistered_uris() {
    let fx = fixture();
    let hidden = not_honored(&fx);
    let unregistered: Vec<String> = (0..hidden.len())
        .map(|i| format!("doc://none{i}"))
        .collect();
    let unregistered: Vec<&str> = unregistered.iter().map(String::as_str).collect();
    let o = req_opts("t1", NEW);
    let a = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&hidden, true),
        &o,
    )
    .unwrap();
    let b = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&unregistered, true),
        &o,
    )
    .unwrap();
    assert_eq!(a.json(), b.json());
    assert_eq!(acked(&a), Vec::<String>::new());
    assert_eq!(a.subscription().unwrap(), b.subscription().unwrap());
}

#[test]
fn listen_never_acknowledges_a_type_not_asked_for_or_not_delivered() {
    let policy = Tenants::new();
    let handler = std::sync::Arc::new(Handler::default());
    let updates_only = NotificationTypes {
        resource_updates: true,
        ..NotificationTypes::NONE
    };
    let r = build(DEFS, policy.clone(), handler.clone(), updates_only);
    let mut o = req_opts("t1", NEW);
    o.host_notifications.tools_list_changed = true;
    let params = r#"{"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
    let resp = request(&r, "subscriptions/listen", params, &o).unwrap();
    // tools: asked and delivered by the host; prompts: not delivered;
    // resources list changes: not declared; URIs: not asked for.
    assert_eq!(
        resp.json(),
        r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{"toolsListChanged":true}}}"#
    );
    let d = resp.subscription().unwrap();
    assert_eq!(d.requested().bits(), 2 | 4 | 8);
    assert_eq!(d.honored().bits(), 4);
    // A registry declaring nothing decides no URI and asks nobody.
    let none = build(DEFS, policy.clone(), handler, NotificationTypes::NONE);
    let resp = request(
        &none,
        "subscriptions/listen",
        &listen_params(&["doc://a"], true),
        &req_opts("t1", NEW),
    )
    .unwrap();
    assert_eq!(
        resp.json(),
        r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{}}}"#
    );
    assert_eq!(policy.calls(), 0);
    // ... and resources/subscribe is then no method of the library's.
    assert_eq!(
        request(
            &none,
            "resources/subscribe",
            &uri_params("doc://a"),
            &req_opts("t1", OLD)
        )
        .unwrap_err(),
        RequestError::MethodNotHandled
    );
}

#[test]
fn each_method_lives_on_its_revisions_only() {
    let fx = fixture();
    for rev in [ProtocolRevision::V2025_06_18, OLD] {
        assert_eq!(
            request(
                &fx.registry,
                "subscriptions/listen",
                &listen_params(&["doc://a"], false).replace("2026-07-28", rev.as_str()),
                &req_opts("t1", rev)
            )
            .unwrap_err(),
            RequestError::MethodNotHandled
        );
    }
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        assert_eq!(
            request(
                &fx.registry,
                method,
                &uri_params("doc://a"),
                &req_opts("t1", NEW)
            )
            .unwrap_err(),
            RequestError::MethodNotHandled
        );
    }
    assert_eq!(fx.policy.calls(), 0);
}

#[test]
fn the_listen_request_id_is_the_subscription_id() {
    let fx = fixture();
    let params = listen_params(&["doc://a"], false);
    let mut o = req_opts("t1", NEW);
    o.request_id = Some(br#""listen-\u0031""#.to_vec());
    let r = request(&fx.registry, "subscriptions/listen", &params, &o).unwrap();
    assert!(r
        .json()
        .contains(r#""io.modelcontextprotocol/subscriptionId":"listen-1""#));
    assert_eq!(
        r.subscription().unwrap().subscription_id().unwrap().json(),
        r#""listen-1""#
    );
    // A host that passes no id, or no JSON-RPC id, made a mistake.
    o.request_id = None;
    assert!(matches!(
        request(&fx.registry, "subscriptions/listen", &params, &o),
        Err(RequestError::InvalidArgument(_))
    ));
    for bad in [&b"null"[..], b"{}", b"[1]", b"x"] {
        o.request_id = Some(bad.to_vec());
        assert!(matches!(
            request(&fx.registry, "subscriptions/listen", &params, &o),
            Err(RequestError::InvalidArgument(_))
        ));
    }
    // A client's id too long to repeat on every message is refused.
    o.request_id = Some(format!("\"{}\"", "x".repeat(300)).into_bytes());
    let r = request(&fx.registry, "subscriptions/listen", &params, &o).unwrap();
    assert!(r.is_error());
    assert_eq!(
        r.json(),
        r#"{"code":-32600,"message":"Invalid request id"}"#
    );
}

#[test]
fn a_malformed_request_id_is_the_hosts_mistake_whatever_the_client_sent() {
    let fx = fixture();
    // Checked before the params are read: malformed params, an older
    // revision, nothing registered change nothing.
    for (params, rev) in [
        (listen_params(&["doc://a"], false), NEW),
        ("{\"notifications\":".to_string(), NEW),
        (r#"{"notifications":{}}"#.to_string(), OLD),
    ] {
        let mut o = req_opts("t1", rev);
        o.request_id = Some(b"{}".to_vec());
        assert!(matches!(
            request(&fx.registry, "subscriptions/listen", &params, &o),
            Err(RequestError::InvalidArgument(_))
        ));
    }
    // No id at all is a mistake only where the method exists: a host
    // that passes none keeps "not handled" on the older revisions.
    let mut o = req_opts("t1", OLD);
    o.request_id = None;
    assert_eq!(
        request(
            &fx.registry,
            "subscriptions/listen",
            r#"{"notifications":{}}"#,
            &o
        )
        .unwrap_err(),
        RequestError::MethodNotHandled
    );
    assert_eq!(fx.policy.calls(), 0);
}

#[test]
fn bad_listen_input_gives_a_clear_error_and_nothing_else() {
    let fx = fixture();
    let many: Vec<String> = (0..10_000).map(|i| format!("doc://n{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            listen_params(&["doc://a", "doc://b", "doc://a"], false).into_bytes(),
            "notifications resourceSubscriptions repeats a URI",
        ),
        (
            listen_params(&many, false).into_bytes(),
            "notifications resourceSubscriptions lists more than 1000 URIs",
        ),
        (
            b"{\"notifications\":{\"resourceSubscriptions\":[\"doc://\xff\"]}}".to_vec(),
            "params are not valid JSON",
        ),
        (
            br#"{"notifications":{"resourceSubscriptions":"doc://a"}}"#.to_vec(),
            "notifications resourceSubscriptions must be an array of strings",
        ),
        (
            br#"{"notifications":{"resourceSubscriptions":[7]}}"#.to_vec(),
            "notifications resourceSubscriptions must be an array of strings",
        ),
        (
            br#"{"notifications":{"resourcesListChanged":"yes"}}"#.to_vec(),
            "notifications filter flags must be booleans",
        ),
        (
            br#"{"notifications":true}"#.to_vec(),
            "params notifications must be an object",
        ),
        (
            br#"{"_meta":{}}"#.to_vec(),
            "listen params need notifications",
        ),
        (b"".to_vec(), "listen params need notifications"),
        (
            br#"{"notifications":{},"notifications":{}}"#.to_vec(),
            "params repeat a member",
        ),
        (
            br#"{"notifications":{"#.to_vec(),
            "params are not valid JSON",
        ),
    ];
    for (params, message) in cases {
        let r = fx
            .registry
            .request(b"subscriptions/listen", &params, &req_opts("t1", NEW))
            .unwrap();
        assert!(r.is_error() && r.subscription().is_none() && !r.is_notification());
        let v: serde_json::Value = serde_json::from_str(r.json()).unwrap();
        assert_eq!(v, serde_json::json!({"code": -32602, "message": message}));
    }
    assert_eq!(fx.policy.calls(), 0, "nothing else happened");
    assert_eq!(*fx.handler.resolves.lock().unwrap(), 0);
}

#[test]
fn bad_subscribe_params_are_the_reads_params_errors() {
    let fx = fixture();
    for params in [
        r#"{"uri":7}"#,
        r#"{"uri":"doc://a","uri":"doc://b"}"#,
        "[]",
        "{}",
        "{\"uri\":\"\\ud800\"}",
    ] {
        let o = req_opts("t1", OLD);
        let read = request(&fx.registry, "resources/read", params, &o).unwrap();
        for method in ["resources/subscribe", "resources/unsubscribe"] {
            let r = request(&fx.registry, method, params, &o).unwrap();
            assert!(r.is_error() && r.subscription().is_none());
            assert_eq!(r.json(), read.json(), "{method} {params}");
        }
    }
    assert_eq!(fx.policy.calls(), 0);
}

#[test]
fn a_policy_failure_fails_the_subscription_as_it_fails_a_read() {
    let fx = fixture();
    fx.policy.fail("t1", "doc://a");
    let o = req_opts("t1", OLD);
    let sub = request(
        &fx.registry,
        "resources/subscribe",
        &uri_params("doc://a"),
        &o,
    )
    .unwrap();
    let read = request(&fx.registry, "resources/read", &uri_params("doc://a"), &o).unwrap();
    assert_eq!(sub.json(), read.json());
    assert_eq!(sub.failure().unwrap().kind(), FailureKind::Policy);
    assert!(sub.json().contains("-32603"));
    assert_private_free(sub.json());
    // resolve failing (not denying) is invalid_plan, as for a read
    let sub = request(
        &fx.registry,
        "resources/subscribe",
        &uri_params("doc://broken"),
        &o,
    )
    .unwrap();
    assert_eq!(sub.failure().unwrap().kind(), FailureKind::InvalidPlan);
    assert_private_free(sub.json());
    let listen = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&["doc://b", "doc://a"], false),
        &req_opts("t1", NEW),
    )
    .unwrap();
    assert!(listen.is_error());
    assert_eq!(listen.failure().unwrap().kind(), FailureKind::Policy);
    assert_private_free(listen.json());
}

#[test]
fn a_cancelled_or_late_decision_is_no_answer() {
    let fx = fixture();
    let mut o = req_opts("t1", OLD);
    let cancel = CancelToken::new();
    cancel.cancel();
    o.call.cancel = Some(cancel);
    let r = request(
        &fx.registry,
        "resources/subscribe",
        &uri_params("doc://a"),
        &o,
    )
    .unwrap();
    assert_eq!(r.failure().unwrap().kind(), FailureKind::Canceled);
    assert_eq!(fx.policy.calls(), 0);
}

/// A policy whose discover never returns before its call is cancelled.
struct Hang;
impl ResourcePolicy for Hang {
    fn discover(&self, call: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        while !call.is_canceled() {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(300));
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

#[test]
fn with_an_executor_a_listen_returns_by_its_deadline() {
    let h: std::sync::Arc<dyn ResourceHandler> = std::sync::Arc::new(Handler::default());
    let r = Resources::builder()
        .policy(std::sync::Arc::new(Hang))
        .notifications(NotificationTypes::RESOURCES)
        .binding(ResourceBinding::new(r#"{"uri":"doc://a","name":"a"}"#, h).unwrap())
        .build()
        .unwrap();
    let ex = Executor::new(2).unwrap();
    let mut o = req_opts("t1", NEW);
    o.call.executor = Some(ex);
    o.call.timeout = Some(Duration::from_millis(100));
    let started = Instant::now();
    let resp = request(
        &r,
        "subscriptions/listen",
        &listen_params(&["doc://a"], false),
        &o,
    )
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(290),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        resp.failure().unwrap().kind(),
        FailureKind::DeadlineExceeded
    );
}

#[test]
fn an_executor_decides_as_inline_does() {
    let fx = fixture();
    let hidden = not_honored(&fx);
    let mut asked = hidden.clone();
    asked.push("file://docs/ok");
    let inline = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&asked, true),
        &req_opts("t1", NEW),
    )
    .unwrap();
    let mut o = req_opts("t1", NEW);
    o.call.executor = Some(Executor::new(2).unwrap());
    let pooled = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&asked, true),
        &o,
    )
    .unwrap();
    assert_eq!(inline.json(), pooled.json());
    assert_eq!(acked(&pooled), ["file://docs/ok"]);
}

#[test]
fn the_capability_object_follows_the_declaration() {
    let policy = Tenants::new();
    let handler = std::sync::Arc::new(Handler::default());
    for (bits, want) in [
        (0, "{}"),
        (1, r#"{"subscribe":true}"#),
        (2, r#"{"listChanged":true}"#),
        (3, r#"{"subscribe":true,"listChanged":true}"#),
    ] {
        let r = build(
            DEFS,
            policy.clone(),
            handler.clone(),
            NotificationTypes::from_bits(bits).unwrap(),
        );
        for rev in ProtocolRevision::ALL {
            assert_eq!(r.resources_capability(rev), want);
        }
    }
    // tool and prompt types are not a registry's to declare
    let e = Resources::builder()
        .policy(policy)
        .notifications(NotificationTypes::from_bits(4).unwrap())
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
}
