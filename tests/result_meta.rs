//! The host's result `_meta` members and the request's trace context
//! (BEHAVIOUR §14).

mod protocol_support;

use std::sync::{Arc, Mutex};

use mcp_resources::*;
use protocol_support::*;

const SERVER_INFO: &str = r#"{"io.modelcontextprotocol/serverInfo":{"name":"host","version":"1.2.3"},"com.example/region":"eu"}"#;

fn meta() -> ResultMeta {
    ResultMeta::from_json(SERVER_INFO).unwrap()
}

fn host() -> Resources {
    let host = Host::new(&["doc://a", "doc://partial", "doc://t/{id}"]);
    host.handler
        .plan("doc://partial", &["doc://partial/1", "doc://partial/2"]);
    host.handler.body("doc://partial/2", Body::Fail);
    host.pol.undiscover("doc://hidden");
    host.build()
}

fn request(r: &Resources, method: &str, params: &str, revision: ProtocolRevision) -> Response {
    let o = RequestOptions {
        scope_key: b"s".to_vec(),
        page_size: 1,
        call: CallOptions {
            protocol_revision: revision,
            result_meta: Some(meta()),
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    r.request(method.as_bytes(), params.as_bytes(), &o).unwrap()
}

/// The `_meta` object of a result, as text, and parsed.
fn result_meta_of(text: &str) -> serde_json::Value {
    json(text)["_meta"].clone()
}

#[test]
fn host_result_meta_is_merged_into_every_result_kind() {
    let r = host();
    for revision in ProtocolRevision::ALL {
        for (method, params) in [
            ("resources/read", r#"{"uri":"doc://a"}"#),
            ("resources/read", r#"{"uri":"doc://partial"}"#),
            ("resources/list", "{}"),
            ("resources/templates/list", "{}"),
            (
                "completion/complete",
                r#"{"ref":{"type":"ref/resource","uri":"doc://t/{id}"},"argument":{"name":"id","value":""}}"#,
            ),
        ] {
            let resp = request(&r, method, params, revision);
            assert!(!resp.is_error(), "{method} {revision}: {}", resp.json());
            let m = result_meta_of(resp.json());
            assert_eq!(
                m["io.modelcontextprotocol/serverInfo"]["version"],
                "1.2.3",
                "{method} {revision}: {}",
                resp.json()
            );
            assert_eq!(m["com.example/region"], "eu");
            if method == "resources/read" {
                // The library's report comes first, untouched.
                let keys: Vec<&String> = m.as_object().unwrap().keys().collect();
                assert_eq!(keys[0], RESERVED_META_KEY, "{}", resp.json());
                assert_eq!(m[RESERVED_META_KEY]["version"], 1);
            }
            // Exactly once, and the result is one JSON object.
            assert_eq!(resp.json().matches("serverInfo").count(), 1);
        }
    }
}

#[test]
fn without_host_result_meta_results_are_unchanged() {
    let r = host();
    let with_empty = RequestOptions {
        scope_key: b"s".to_vec(),
        call: CallOptions {
            result_meta: Some(ResultMeta::from_json("{}").unwrap()),
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    let without = RequestOptions {
        scope_key: b"s".to_vec(),
        ..RequestOptions::default()
    };
    for (method, params) in [
        ("resources/list", "{}"),
        ("resources/templates/list", "{}"),
        (
            "completion/complete",
            r#"{"ref":{"type":"ref/resource","uri":"doc://t/{id}"},"argument":{"name":"id","value":""}}"#,
        ),
    ] {
        let a = r
            .request(method.as_bytes(), params.as_bytes(), &with_empty)
            .unwrap();
        let b = r
            .request(method.as_bytes(), params.as_bytes(), &without)
            .unwrap();
        assert_eq!(a.json(), b.json());
        assert!(!a.json().contains("_meta"), "{}", a.json());
    }
}

#[test]
fn host_result_meta_never_replaces_the_reserved_key() {
    for json in [
        r#"{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,"partial":false,"issues":[],"issuesOmitted":0}}"#,
        r#"{"x":{"go.phpboyscout.uk/mcp.resourceRead":true}}"#,
        r#"{"go.phpboyscout.uk\/mcp.resourceRead":1}"#,
    ] {
        let e = ResultMeta::from_json(json).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
        assert!(e.message().contains("reserved"), "{json}");
    }
    // A partial read keeps its own report under the key, the host's members after it.
    let r = host();
    let resp = request(
        &r,
        "resources/read",
        r#"{"uri":"doc://partial"}"#,
        ProtocolRevision::LATEST,
    );
    assert!(resp.is_partial());
    let m = result_meta_of(resp.json());
    assert_eq!(m[RESERVED_META_KEY]["partial"], true);
    assert!(resp.json().contains(&format!(
        r#""_meta":{{"{RESERVED_META_KEY}":{{"version":1,"partial":true"#
    )));
}

#[test]
fn error_objects_carry_no_host_result_meta_and_stay_identical() {
    let r = host();
    for revision in ProtocolRevision::ALL {
        let missing = request(&r, "resources/read", r#"{"uri":"doc://missing"}"#, revision);
        let hidden = request(&r, "resources/read", r#"{"uri":"doc://hidden"}"#, revision);
        assert!(missing.is_error() && hidden.is_error());
        assert!(!missing.json().contains("serverInfo"));
        assert_eq!(
            missing.json().replace("doc://missing", "URI"),
            hidden.json().replace("doc://hidden", "URI")
        );
        let bad = request(&r, "resources/list", r#"{"cursor":"forged"}"#, revision);
        assert_eq!(bad.json(), r#"{"code":-32602,"message":"Invalid cursor"}"#);
    }
}

/// The host's members are charged like every other byte: a read's encoded
/// budget, a list page's byte budget, a completion's values budget.
#[test]
fn host_result_meta_is_charged_to_each_results_budget() {
    let m = meta();
    let merged = m.members().len() + 1;
    // Read: encoded budget = max_encoded - report_encoded - 8192 - 256,
    // less the merged members; the item "{…}" + 1 fits exactly.
    let item = r#"{"uri":"doc://a","mimeType":"text/plain","text":"body of doc://a"}"#;
    let report_encoded = 1024i64;
    let exact = (item.len() + 1 + merged) as i64 + report_encoded + 8192 + 256;
    for (max, fits) in [(exact, true), (exact - 1, false)] {
        let r = Host::new(&["doc://a"])
            .limit(Limit::ReportEncodedBytes, report_encoded)
            .limit(Limit::MaxEncodedBytes, max)
            .build();
        let o = ReadOptions::from(CallOptions {
            result_meta: Some(m.clone()),
            ..CallOptions::default()
        });
        let got = r.read(b"doc://a", &o);
        assert_eq!(got.is_ok(), fits, "max_encoded_bytes {max}");
        if let Ok(b) = got {
            assert!(b.json().len() as i64 <= max - 8192);
        }
    }
    // List: a page's budget (max_page_bytes - 256) less `,"_meta":{…}`.
    let d = def_json("doc://a");
    let member = ",\"_meta\":{}".len() + m.members().len();
    let exact = (d.len() + 1 + member + 256) as i64;
    for (max, fits) in [(exact, true), (exact - 1, false)] {
        let r = Host::new(&["doc://a"])
            .limit(Limit::MaxPageBytes, max)
            .build();
        let o = ListOptions {
            scope_key: b"s".to_vec(),
            call: CallOptions {
                protocol_revision: ProtocolRevision::V2025_11_25,
                result_meta: Some(m.clone()),
                ..CallOptions::default()
            },
            ..ListOptions::default()
        };
        let got = r.list(&o);
        assert_eq!(got.is_ok(), fits, "max_page_bytes {max}");
        if let Ok(p) = got {
            assert!(p.json().len() as i64 <= max);
        }
    }
}

/// Records the trace context every callback sees.
#[derive(Default)]
struct Tracing {
    seen: Mutex<Vec<(CallPhase, Option<TraceContext>)>>,
}

impl Tracing {
    fn note(&self, c: &CallContext) {
        self.seen
            .lock()
            .unwrap()
            .push((c.phase(), c.trace_context().cloned()));
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

struct TracedHandler(Arc<Tracing>);

impl ResourceHandler for TracedHandler {
    fn resolve(
        &self,
        c: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        self.0.note(c);
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, c: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.0.note(c);
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

impl ResourceCompleter for TracedHandler {
    fn complete(
        &self,
        c: &CallContext,
        _: &CompletionRequest,
        _: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        self.0.note(c);
        Ok(())
    }
}

fn traced(executor: Option<Executor>) -> (Resources, Arc<Tracing>, Option<Executor>) {
    let t = Arc::new(Tracing::default());
    let handler = Arc::new(TracedHandler(t.clone()));
    let mut b = Resources::builder().policy(t.clone());
    b.push(ResourceBinding::new(r#"{"uri":"doc://a","name":"a"}"#, handler.clone()).unwrap());
    b.push(
        ResourceBinding::new(
            r#"{"uriTemplate":"doc://t/{id}","name":"t"}"#,
            handler.clone(),
        )
        .unwrap()
        .with_completer(handler),
    );
    (b.build().unwrap(), t, executor)
}

#[test]
fn the_trace_context_reaches_every_callback_inline_and_on_an_executor() {
    let tc = TraceContext::new(
        Some("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"),
        Some("vendor=x"),
        Some("k=v"),
    );
    for executor in [None, Some(Executor::new(2).unwrap())] {
        let (r, t, executor) = traced(executor);
        let call = CallOptions {
            executor,
            trace: Some(Arc::new(tc.clone())),
            ..CallOptions::default()
        };
        r.read(b"doc://a", &ReadOptions::from(call.clone()))
            .unwrap();
        r.list(&ListOptions {
            scope_key: b"s".to_vec(),
            call: call.clone(),
            ..ListOptions::default()
        })
        .unwrap();
        r.complete(
            &CompleteParams {
                template: "doc://t/{id}".into(),
                argument: "id".into(),
                value: String::new(),
                context: Vec::new(),
            },
            &CompleteOptions { call },
        )
        .unwrap();
        let seen = t.seen.lock().unwrap();
        let phases: std::collections::HashSet<CallPhase> = seen.iter().map(|s| s.0).collect();
        for p in [
            CallPhase::FirstCheck,
            CallPhase::Resolve,
            CallPhase::BodyRead,
            CallPhase::Recheck,
            CallPhase::Listing,
            CallPhase::Completion,
        ] {
            assert!(phases.contains(&p), "{p:?} not seen");
        }
        for (phase, got) in seen.iter() {
            assert_eq!(got.as_ref(), Some(&tc), "{phase:?}");
        }
    }
    // Without one, callbacks see none.
    let (r, t, _) = traced(None);
    r.read(b"doc://a", &ReadOptions::default()).unwrap();
    assert!(t.seen.lock().unwrap().iter().all(|s| s.1.is_none()));
}

#[test]
fn the_trace_members_of_params_meta_reach_the_callbacks_of_a_request() {
    let tp = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    let (r, t, _) = traced(None);
    let o = RequestOptions {
        scope_key: b"s".to_vec(),
        resource_tools: true,
        ..RequestOptions::default()
    };
    let meta = format!(
        r#""_meta":{{"traceparent":"{tp}","tracestate":"v=\u0031","baggage":"k=v","progressToken":1}}"#
    );
    for (method, params) in [
        ("resources/read", format!(r#"{{"uri":"doc://a",{meta}}}"#)),
        ("resources/list", format!("{{{meta}}}")),
        (
            "completion/complete",
            format!(
                r#"{{"ref":{{"type":"ref/resource","uri":"doc://t/{{id}}"}},"argument":{{"name":"id","value":""}},{meta}}}"#
            ),
        ),
        // The resource tools run their method with the params' trace too.
        (
            "tools/call",
            format!(r#"{{"name":"read_resource","arguments":{{"uri":"doc://a"}},{meta}}}"#),
        ),
        (
            "tools/call",
            format!(r#"{{"name":"list_resources",{meta}}}"#),
        ),
    ] {
        t.seen.lock().unwrap().clear();
        let resp = r.request(method.as_bytes(), params.as_bytes(), &o).unwrap();
        assert!(!resp.is_error(), "{method}: {}", resp.json());
        let seen = t.seen.lock().unwrap();
        assert!(!seen.is_empty());
        let want = TraceContext::new(Some(tp), Some("v=1"), Some("k=v"));
        for (phase, got) in seen.iter() {
            assert_eq!(got.as_ref(), Some(&want), "{method} {phase:?}");
        }
    }
}

#[test]
fn trace_members_that_are_not_strings_are_left_out_and_repeats_are_refused() {
    let (r, t, _) = traced(None);
    let host_trace = Arc::new(TraceContext::new(Some("host"), None, None));
    let o = RequestOptions {
        call: CallOptions {
            trace: Some(host_trace.clone()),
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    // Not strings: left out, the request served; the params had no trace
    // member that is a string, so the host's trace stands.
    let resp = r
        .request(
            b"resources/read",
            br#"{"uri":"doc://a","_meta":{"traceparent":7,"tracestate":{"a":[1]},"baggage":null}}"#,
            &o,
        )
        .unwrap();
    assert!(!resp.is_error(), "{}", resp.json());
    assert!(t
        .seen
        .lock()
        .unwrap()
        .iter()
        .all(|s| s.1.as_ref() == Some(&*host_trace)));
    // One string member wins over the host's trace as a whole.
    t.seen.lock().unwrap().clear();
    r.request(
        b"resources/read",
        br#"{"uri":"doc://a","_meta":{"baggage":"k=v"}}"#,
        &o,
    )
    .unwrap();
    let want = TraceContext::new(None, None, Some("k=v"));
    assert!(t
        .seen
        .lock()
        .unwrap()
        .iter()
        .all(|s| s.1.as_ref() == Some(&want)));
    // A repeated trace member is malformed params, like any repeated member acted on.
    for params in [
        r#"{"uri":"doc://a","_meta":{"traceparent":"a","traceparent":"b"}}"#,
        r#"{"uri":"doc://a","_meta":{"traceparent":1,"traceparent":"b"}}"#,
    ] {
        let resp = r.request(b"resources/read", params.as_bytes(), &o).unwrap();
        assert!(resp.is_error(), "{params}");
        assert_eq!(
            resp.json(),
            r#"{"code":-32602,"message":"params _meta repeat a trace member"}"#
        );
    }
    // Longer than 8 KiB: left out.
    let long = "x".repeat(trace::MAX_TRACE_VALUE_BYTES + 1);
    t.seen.lock().unwrap().clear();
    let params = format!(r#"{{"uri":"doc://a","_meta":{{"baggage":"{long}"}}}}"#);
    let resp = r
        .request(
            b"resources/read",
            params.as_bytes(),
            &RequestOptions::default(),
        )
        .unwrap();
    assert!(!resp.is_error());
    assert!(t.seen.lock().unwrap().iter().all(|s| s.1.is_none()));
}

/// A repeated trace member is refused before anything is looked up: a
/// hidden resource or template answers exactly like an unregistered one,
/// on every method.
#[test]
fn a_repeated_trace_member_answers_the_same_for_hidden_and_unregistered() {
    let r = host();
    let repeated = r#""_meta":{"baggage":"a","baggage":"b"}"#;
    for revision in ProtocolRevision::ALL {
        for (method, hidden, missing) in [
            (
                "resources/read",
                format!(r#"{{"uri":"doc://hidden",{repeated}}}"#),
                format!(r#"{{"uri":"doc://missing",{repeated}}}"#),
            ),
            (
                "completion/complete",
                format!(
                    r#"{{"ref":{{"type":"ref/resource","uri":"doc://t/{{id}}"}},"argument":{{"name":"id","value":""}},{repeated}}}"#
                ),
                format!(
                    r#"{{"ref":{{"type":"ref/resource","uri":"doc://none/{{id}}"}},"argument":{{"name":"id","value":""}},{repeated}}}"#
                ),
            ),
            (
                "resources/list",
                format!("{{{repeated}}}"),
                format!("{{{repeated}}}"),
            ),
        ] {
            let a = request(&r, method, &hidden, revision);
            let b = request(&r, method, &missing, revision);
            assert!(a.is_error(), "{method}");
            assert_eq!(a.json(), b.json(), "{method} {revision}");
            assert_eq!(
                a.json(),
                r#"{"code":-32602,"message":"params _meta repeat a trace member"}"#
            );
        }
    }
}

/// The trace context is a call option: the direct calls take it from
/// `CallOptions::trace` only (there are no params), and a request's own
/// trace members take the options' place in every method.
#[test]
fn the_trace_context_is_a_call_option_of_every_method() {
    let host_tc = Arc::new(TraceContext::new(Some("host"), Some("h=1"), None));
    let (r, t, _) = traced(None);
    let o = RequestOptions {
        scope_key: b"s".to_vec(),
        call: CallOptions {
            trace: Some(host_tc.clone()),
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    let complete = r#"{"ref":{"type":"ref/resource","uri":"doc://t/{id}"},"argument":{"name":"id","value":""}"#;
    for (method, plain, traced_params) in [
        (
            "resources/read",
            r#"{"uri":"doc://a"}"#.to_string(),
            r#"{"uri":"doc://a","_meta":{"traceparent":"p"}}"#.to_string(),
        ),
        (
            "resources/templates/list",
            "{}".to_string(),
            r#"{"_meta":{"traceparent":"p"}}"#.to_string(),
        ),
        (
            "completion/complete",
            format!("{complete}}}"),
            format!(r#"{complete},"_meta":{{"traceparent":"p"}}}}"#),
        ),
    ] {
        for (params, want) in [
            (&plain, (*host_tc).clone()),
            (&traced_params, TraceContext::new(Some("p"), None, None)),
        ] {
            t.seen.lock().unwrap().clear();
            let resp = r.request(method.as_bytes(), params.as_bytes(), &o).unwrap();
            assert!(!resp.is_error(), "{method}: {}", resp.json());
            let seen = t.seen.lock().unwrap();
            assert!(!seen.is_empty(), "{method}");
            for (phase, got) in seen.iter() {
                assert_eq!(got.as_ref(), Some(&want), "{method} {params} {phase:?}");
            }
        }
    }
    // A trace context of no member is none.
    t.seen.lock().unwrap().clear();
    let empty = CallOptions {
        trace: Some(Arc::new(TraceContext::default())),
        ..CallOptions::default()
    };
    r.read(b"doc://a", &ReadOptions::from(empty)).unwrap();
    assert!(t.seen.lock().unwrap().iter().all(|s| s.1.is_none()));
}
