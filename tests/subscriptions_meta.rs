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
