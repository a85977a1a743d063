//! The subscription methods and the host's result `_meta` and the
//! request's trace context (docs/BEHAVIOUR.md §14 and §15): a subscribe or
//! unsubscribe result carries the host's members (an error object never
//! does, so hidden still answers like unregistered), and the trace
//! members of the params reach every callback deciding a subscribe or a
//! listen, replacing the host's.

mod subscription_support;

use std::sync::{Arc, Mutex};

use mcp_resources::*;
use subscription_support::*;

const SERVER_INFO: &str = r#"{"io.modelcontextprotocol/serverInfo":{"name":"host","version":"1"}}"#;

fn with_meta(tenant_name: &'static str, revision: ProtocolRevision) -> RequestOptions {
    let mut o = req_opts(tenant_name, revision);
    o.call.result_meta = Some(ResultMeta::from_json(SERVER_INFO).unwrap());
    o
}

#[test]
fn subscribe_results_carry_the_hosts_result_meta_and_errors_never_do() {
    let fx = fixture();
    fx.policy.hide("t1", "doc://b");
    let o = with_meta("t1", OLD);
    let want = format!(r#"{{"_meta":{}}}"#, SERVER_INFO);
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        let r = request(&fx.registry, method, r#"{"uri":"doc://a"}"#, &o).unwrap();
        assert_eq!(r.json(), want, "{method}");
        assert!(r.subscription().is_some());
    }
    let hidden = request(
        &fx.registry,
        "resources/subscribe",
        r#"{"uri":"doc://b"}"#,
        &o,
    )
    .unwrap();
    let none = request(
        &fx.registry,
        "resources/subscribe",
        r#"{"uri":"doc://z"}"#,
        &o,
    )
    .unwrap();
    assert!(hidden.is_error() && !hidden.json().contains("serverInfo"));
    assert_eq!(
        hidden.json().replace("doc://b", "U"),
        none.json().replace("doc://z", "U")
    );
    // Without members (or with an empty object): `{}` as before.
    let r = request(
        &fx.registry,
        "resources/subscribe",
        r#"{"uri":"doc://a"}"#,
        &req_opts("t1", OLD),
    )
    .unwrap();
    assert_eq!(r.json(), "{}");
    let mut empty = req_opts("t1", OLD);
    empty.call.result_meta = Some(ResultMeta::from_json("{}").unwrap());
    let r = request(
        &fx.registry,
        "resources/subscribe",
        r#"{"uri":"doc://a"}"#,
        &empty,
    )
    .unwrap();
    assert_eq!(r.json(), "{}");
}

/// Records the traceparent every policy callback sees.
#[derive(Default)]
struct Tracing {
    seen: Mutex<Vec<Option<String>>>,
}

impl Tracing {
    fn note(&self, c: &CallContext) {
        let t = c
            .trace_context()
            .and_then(|t| t.traceparent())
            .map(str::to_string);
        self.seen.lock().unwrap().push(t);
    }
}

impl ResourcePolicy for Tracing {
    fn discover(&self, c: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        self.note(c);
        Ok(())
    }
    fn visibility(&self, c: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        self.note(c);
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, c: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        self.note(c);
        Ok(())
    }
}

#[test]
fn the_params_trace_context_reaches_every_subscription_callback() {
    let tracing = Arc::new(Tracing::default());
    let handler: Arc<dyn ResourceHandler> = Arc::new(Handler::default());
    let registry = Resources::builder()
        .policy(tracing.clone())
        .notifications(NotificationTypes::RESOURCES)
        .binding(ResourceBinding::new(r#"{"uri":"doc://a","name":"a"}"#, handler).unwrap())
        .build()
        .unwrap();
    let mut o = req_opts("t1", OLD);
    o.call.trace = Some(Arc::new(TraceContext::new(Some("host"), None, None)));
    let cases = [
        (
            OLD,
            "resources/subscribe",
            r#"{"uri":"doc://a","_meta":{"traceparent":"00-client-01"}}"#,
        ),
        (
            NEW,
            "subscriptions/listen",
            r#"{"notifications":{"resourceSubscriptions":["doc://a"]},"_meta":{"traceparent":"00-client-01"}}"#,
        ),
    ];
    for (revision, method, params) in cases {
        o.call.protocol_revision = revision;
        tracing.seen.lock().unwrap().clear();
        let r = request(&registry, method, params, &o).unwrap();
        assert!(!r.is_error(), "{method}: {}", r.json());
        let seen = tracing.seen.lock().unwrap().clone();
        assert!(!seen.is_empty(), "{method}: the policy was asked");
        assert!(
            seen.iter().all(|t| t.as_deref() == Some("00-client-01")),
            "{method}: {seen:?}"
        );
        // Without trace members the host's own trace context serves.
        tracing.seen.lock().unwrap().clear();
        let plain = params.replace(r#","_meta":{"traceparent":"00-client-01"}"#, "");
        request(&registry, method, &plain, &o).unwrap();
        let seen = tracing.seen.lock().unwrap().clone();
        assert!(
            seen.iter().all(|t| t.as_deref() == Some("host")),
            "{method}: {seen:?}"
        );
    }
}

/// A registry of `uris` under the tracing policy, declaring both types.
fn traced(tracing: &Arc<Tracing>, uris: &[&str]) -> Resources {
    let handler: Arc<dyn ResourceHandler> = Arc::new(Handler::default());
    let mut b = Resources::builder()
        .policy(tracing.clone())
        .notifications(NotificationTypes::RESOURCES);
    for (i, uri) in uris.iter().enumerate() {
        let definition = format!(r#"{{"uri":"{uri}","name":"n{i}"}}"#);
        b = b.binding(ResourceBinding::new(&definition, handler.clone()).unwrap());
    }
    b.build().unwrap()
}

#[test]
fn a_notification_calls_trace_context_reaches_every_callback_and_no_message() {
    let tracing = Arc::new(Tracing::default());
    let old = traced(&tracing, &["doc://a", "doc://b"]);
    let new = traced(&tracing, &["doc://a"]);
    let traced_options = || NotifyOptions {
        call: CallOptions {
            trace: Some(Arc::new(TraceContext::new(
                Some("00-change-01"),
                None,
                None,
            ))),
            ..CallOptions::default()
        },
    };
    for executor in [None, Some(Executor::new(1).unwrap())] {
        let mut o = traced_options();
        o.call.executor = executor;
        let subs = [sub("t1", NEW, 1), sub("t2", OLD, 0)];
        let seen = |what: &str, messages: Vec<String>| {
            let seen = std::mem::take(&mut *tracing.seen.lock().unwrap());
            assert!(!seen.is_empty(), "{what}: the policy was asked");
            assert!(
                seen.iter().all(|t| t.as_deref() == Some("00-change-01")),
                "{what}: {seen:?}"
            );
            assert!(!messages.is_empty(), "{what}");
            for m in messages {
                assert!(
                    !m.contains("change-01") && !m.contains("traceparent"),
                    "{m}"
                );
            }
        };
        let messages = |n: Notifications| {
            n.iter()
                .filter_map(|d| d.message().map(str::to_string))
                .collect()
        };
        let n = new.notify_updated(b"doc://a", &subs, &o).unwrap();
        seen("an update", messages(n));
        let n = ListChange::between(&old, &new).notify(&subs, &o).unwrap();
        seen("a list change", messages(n));
        let fingerprint = old
            .listing_fingerprint(&ReadOptions {
                call: traced_options().call,
                ..ReadOptions::default()
            })
            .unwrap();
        let _ = std::mem::take(&mut *tracing.seen.lock().unwrap());
        let listed: Vec<Subscriber> = subs
            .iter()
            .map(|s| Subscriber {
                listing: Some(ListingFingerprint([0; 32])),
                ..s.clone()
            })
            .collect();
        let n = old.notify_listing_changed(&listed, &o).unwrap();
        assert_ne!(fingerprint, ListingFingerprint([0; 32]));
        seen("a permission change", messages(n));
        // Without one, callbacks see none.
        let mut plain = NotifyOptions::default();
        plain.call.executor = o.call.executor.clone();
        new.notify_updated(b"doc://a", &subs, &plain).unwrap();
        let seen = std::mem::take(&mut *tracing.seen.lock().unwrap());
        assert!(
            !seen.is_empty() && seen.iter().all(Option::is_none),
            "{seen:?}"
        );
    }
}
