//! Argument completion for resource templates (BEHAVIOUR §13): one test
//! per rule, named after it, with bad input as much as good.

mod common;

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use mcp_resources::*;

type CompleteFn = dyn Fn(&CallContext, &CompletionRequest, &mut CompletionSink) -> Result<(), CallbackError>
    + Send
    + Sync;

/// A completer whose behaviour is a closure and which counts its calls.
struct FnCompleter {
    f: Box<CompleteFn>,
    calls: AtomicUsize,
}

impl FnCompleter {
    fn new(
        f: impl Fn(&CallContext, &CompletionRequest, &mut CompletionSink) -> Result<(), CallbackError>
            + Send
            + Sync
            + 'static,
    ) -> Arc<FnCompleter> {
        Arc::new(FnCompleter {
            f: Box::new(f),
            calls: AtomicUsize::new(0),
        })
    }

    /// Adds these values, in order.
    fn values(values: &[&str]) -> Arc<FnCompleter> {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        Self::new(move |_, _, out| {
            for v in &values {
                let _ = out.add(v);
            }
            Ok(())
        })
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl ResourceCompleter for FnCompleter {
    fn complete(
        &self,
        call: &CallContext,
        request: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        (self.f)(call, request, out)
    }
}

const TEMPLATE: &str = "file:///projects/{project}/files/{file}";

fn template_def(template: &str) -> String {
    format!(r#"{{"uriTemplate":"{template}","name":"t"}}"#)
}

/// A registry with `TEMPLATE` completed by `completer`, an exact resource,
/// and a template without a completer.
fn registry_with(
    completer: Arc<FnCompleter>,
    policy: Arc<dyn ResourcePolicy>,
    limits: ResourceLimits,
) -> Resources {
    let handler: Arc<dyn ResourceHandler> = Arc::new(CountingHandler::default());
    Resources::builder()
        .policy(policy)
        .limits(limits)
        .binding(
            ResourceBinding::new(&template_def(TEMPLATE), handler.clone())
                .unwrap()
                .with_completer(completer),
        )
        .binding(
            ResourceBinding::new(r#"{"uri":"file:///readme","name":"r"}"#, handler.clone())
                .unwrap(),
        )
        .binding(ResourceBinding::new(&template_def("plain://x/{id}"), handler).unwrap())
        .build()
        .unwrap()
}

fn registry(completer: Arc<FnCompleter>) -> Resources {
    registry_with(completer, FnPolicy::allow(), ResourceLimits::new())
}

fn params(template: &str, argument: &str, value: &str) -> CompleteParams {
    CompleteParams {
        template: template.to_string(),
        argument: argument.to_string(),
        value: value.to_string(),
        context: Vec::new(),
    }
}

fn complete(r: &Resources, p: &CompleteParams) -> Result<CompletionResult, Failure> {
    r.complete(p, &CompleteOptions::default())
}

fn json(result: &CompletionResult) -> serde_json::Value {
    serde_json::from_str(result.json()).expect("the result is JSON")
}

// ---------------------------------------------------------------- selection

#[test]
fn ref_uri_must_be_a_registered_template_byte_exact() {
    let c = FnCompleter::values(&["alpha"]);
    let r = registry(c.clone());
    let ok = complete(&r, &params(TEMPLATE, "project", "a")).unwrap();
    assert_eq!(ok.values(), ["alpha"]);
    for bad in [
        "file:///projects/{project}/files/{name}", // same shape, other names
        "FILE:///projects/{project}/files/{file}",
        "file:///projects/{project}/files/{file}/",
        "file:///projects/%7Bproject%7D/files/{file}",
        "file:///projects/x/files/y", // a URI the template matches
        "file:///readme",             // a registered exact resource
        "",
        "not a uri",
    ] {
        let e = complete(&r, &params(bad, "project", "a")).unwrap_err();
        assert_eq!(e.kind(), FailureKind::Unavailable, "{bad:?}");
    }
    assert_eq!(
        c.calls(),
        1,
        "the completer ran for the registered template only"
    );
}

#[test]
fn unknown_and_undiscoverable_templates_answer_exactly_like_not_found() {
    let c = FnCompleter::values(&["alpha"]);
    let policy = FnPolicy::new(|_, d| {
        if d.uri_or_template() == TEMPLATE {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = registry_with(c.clone(), policy, ResourceLimits::new());
    let hidden = complete(&r, &params(TEMPLATE, "project", "a")).unwrap_err();
    let unknown = complete(&r, &params("file:///nothing/{x}", "x", "a")).unwrap_err();
    let read = r
        .read(b"file:///nothing", &ReadOptions::default())
        .unwrap_err();
    for e in [&hidden, &unknown, &read] {
        assert_eq!(e.kind(), FailureKind::Unavailable);
        assert_eq!(e.message(), unknown.message());
        assert_eq!(e.jsonrpc_code(), unknown.jsonrpc_code());
    }
    // A hidden template does not reveal its variables: a wrong argument or
    // a bad context is still not found.
    let mut bad = params(TEMPLATE, "nope", "a");
    bad.context = vec![("file".into(), "..".into())];
    assert_eq!(
        complete(&r, &bad).unwrap_err().kind(),
        FailureKind::Unavailable
    );
    assert_eq!(c.calls(), 0);
}

#[test]
fn discovery_is_checked_on_the_definition_before_the_callback() {
    let order = Arc::new(Mutex::new(Vec::<String>::new()));
    let o1 = order.clone();
    let policy = FnPolicy::new(move |_, d| {
        o1.lock()
            .unwrap()
            .push(format!("discover {}", d.uri_or_template()));
        Ok(())
    });
    let o2 = order.clone();
    let c = FnCompleter::new(move |_, req, out| {
        o2.lock()
            .unwrap()
            .push(format!("complete {}", req.definition().uri_or_template()));
        out.add("v")
            .map(|_| ())
            .map_err(|e| CallbackError::failed(e.message()))
    });
    let r = registry_with(c.clone(), policy, ResourceLimits::new());
    complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert_eq!(
        *order.lock().unwrap(),
        [
            format!("discover {TEMPLATE}"),
            format!("complete {TEMPLATE}")
        ]
    );
    // A failing discover fails the call (policy) and the callback never runs.
    let failing = FnPolicy::new(|_, _| Err(CallbackError::failed("directory down")));
    let c = FnCompleter::values(&["v"]);
    let r = registry_with(c.clone(), failing, ResourceLimits::new());
    let e = complete(&r, &params(TEMPLATE, "file", "")).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Policy);
    assert!(e.cause_text().contains("directory down"));
    assert_eq!(c.calls(), 0);
}

// ---------------------------------------------------------------- arguments

#[test]
fn argument_name_must_be_a_template_variable() {
    let c = FnCompleter::new(|_, req, out| {
        let _ = out.add(&format!("for-{}", req.argument()));
        Ok(())
    });
    let r = registry(c.clone());
    assert_eq!(
        complete(&r, &params(TEMPLATE, "file", ""))
            .unwrap()
            .values(),
        ["for-file"]
    );
    for bad in ["", "File", "projects", "files", "{file}", "file ", "uri"] {
        let e = complete(&r, &params(TEMPLATE, bad, "")).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidRequest, "{bad:?}");
        assert_eq!(e.jsonrpc_code(), -32602);
    }
    assert_eq!(c.calls(), 1);
}

#[test]
fn argument_value_longer_than_max_uri_bytes_is_invalid_request() {
    let c = FnCompleter::new(|_, req, out| {
        assert!(req.value().len() <= 2048);
        let _ = out.add("x");
        Ok(())
    });
    let r = registry(c.clone());
    complete(&r, &params(TEMPLATE, "file", &"a".repeat(2048))).unwrap();
    let e = complete(&r, &params(TEMPLATE, "file", &"a".repeat(2049))).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    assert_eq!(c.calls(), 1);
    // Partial values are client text, not captures: dots and slashes pass.
    for partial in ["", ".", "..", "a/", "%2F", "\\"] {
        complete(&r, &params(TEMPLATE, "file", partial)).unwrap();
    }
}

#[test]
fn context_arguments_are_the_other_variables_held_to_the_value_rules() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let c = FnCompleter::new(move |_, req, _| {
        *s.lock().unwrap() = req.context().to_vec();
        Ok(())
    });
    let r = registry(c.clone());
    let mut p = params(TEMPLATE, "file", "");
    p.context = vec![
        ("other".into(), "../../etc".into()), // not a variable: ignored
        ("file".into(), "..".into()),         // the argument itself: ignored
        ("project".into(), "alpha beta".into()),
    ];
    complete(&r, &p).unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        [("project".to_string(), "alpha beta".to_string())]
    );
    // An empty value means "not chosen yet".
    p.context = vec![("project".into(), String::new())];
    complete(&r, &p).unwrap();
    assert!(seen.lock().unwrap().is_empty());
    let calls = c.calls();
    for bad in [
        "..", ".", "a/b", "a%2Fb", "a\\b", "%5C", "a\0b", "%00", "%2E%2E", "%FF", "%41", "a?b",
        "a#b", "\u{202e}", "a\nb",
    ] {
        p.context = vec![("project".into(), bad.to_string())];
        let e = complete(&r, &p).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidRequest, "{bad:?}");
        assert_eq!(
            e.message(),
            "completion context value is not a valid completion value"
        );
    }
    p.context = vec![("project".into(), "a".repeat(2049))];
    assert_eq!(
        complete(&r, &p).unwrap_err().kind(),
        FailureKind::InvalidRequest
    );
    p.context = vec![
        ("project".into(), "a".into()),
        ("project".into(), "b".into()),
    ];
    assert_eq!(
        complete(&r, &p).unwrap_err().kind(),
        FailureKind::InvalidRequest
    );
    assert_eq!(c.calls(), calls, "the callback never saw a bad context");
}

// ---------------------------------------------------------------- values

// The rules each value is held to: tests/completion_values.rs.

#[test]
fn at_most_100_values_with_has_more_and_total_set_truthfully() {
    let values: Vec<String> = (0..150).map(|i| format!("v{i:03}")).collect();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let r = registry(FnCompleter::values(&refs));
    let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert_eq!(result.values(), &values[..100]);
    assert!(result.has_more());
    assert_eq!(
        result.total(),
        None,
        "no total unless the completer gives one"
    );
    let v = json(&result);
    assert_eq!(v["completion"]["hasMore"], true);
    assert!(v["completion"].get("total").is_none());

    // Exactly 100: nothing more.
    let r = registry(FnCompleter::values(&refs[..100]));
    let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert_eq!((result.values().len(), result.has_more()), (100, false));

    // The completer's total: kept when consistent, raised to the valid
    // values offered, lowered by the values dropped.
    // (offered, completer total, completer hasMore, sent, total, hasMore)
    type Case = (
        &'static [&'static str],
        Option<u64>,
        bool,
        usize,
        Option<u64>,
        bool,
    );
    let cases: [Case; 6] = [
        (&["a", "b"], Some(10), false, 2, Some(10), true),
        (&["a", "b"], Some(2), false, 2, Some(2), false),
        (&["a", "b"], Some(1), false, 2, Some(2), false),
        (&["a", "..", "b"], Some(3), false, 2, Some(2), false),
        (&["a"], None, true, 1, None, true),
        (&["a"], Some(1), true, 1, None, true),
    ];
    for (offered, total, more, sent, want_total, want_more) in cases {
        let offered: Vec<String> = offered.iter().map(|s| s.to_string()).collect();
        let c = FnCompleter::new(move |_, _, out| {
            for v in &offered {
                let _ = out.add(v);
            }
            if let Some(t) = total {
                out.set_total(t);
            }
            out.set_has_more(more);
            Ok(())
        });
        let r = registry(c);
        let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
        assert_eq!(result.values().len(), sent);
        assert_eq!(result.total(), want_total, "{total:?} {more}");
        assert_eq!(result.has_more(), want_more, "{total:?} {more}");
        let v = json(&result);
        assert_eq!(v["completion"]["hasMore"], want_more);
        assert_eq!(
            v["completion"].get("total").and_then(|t| t.as_u64()),
            want_total
        );
    }
    // A huge total is capped at 2^53 - 1.
    let r = registry(FnCompleter::new(|_, _, out| {
        out.set_total(u64::MAX);
        Ok(())
    }));
    let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert_eq!(result.total(), Some((1 << 53) - 1));
    assert!(result.has_more());
}

#[test]
fn a_completer_returning_more_is_truncated_never_an_error() {
    let c = FnCompleter::new(|_, _, out| {
        for i in 0..100_000 {
            let kept = out.add(&format!("value-{i}")).unwrap();
            assert_eq!(kept, i < 100);
        }
        assert_eq!(out.kept().len(), 100);
        Ok(())
    });
    let r = registry(c);
    let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert_eq!(result.values().len(), 100);
    assert_eq!(result.values()[99], "value-99");
    assert!(result.has_more());
}

#[test]
fn values_are_bounded_by_max_page_bytes() {
    // 256 bytes of values: each 10-character value costs 13 ("…" and a
    // separator), so 19 fit (247) and the 20th (260) does not.
    let limits = ResourceLimits::new().with(Limit::MaxPageBytes, 512);
    let values_budget = 512 - 256;
    assert_eq!(19 * 13, 247);
    assert!(20 * 13 > values_budget);
    let values: Vec<String> = (0..50).map(|i| format!("value-{i:04}")).collect();
    let offered = values.clone();
    let c = FnCompleter::new(move |_, _, out| {
        for v in &offered {
            let _ = out.add(v);
        }
        Ok(())
    });
    let r = registry_with(c, FnPolicy::allow(), limits);
    let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert_eq!(result.values(), &values[..19]);
    assert!(result.has_more());
    assert!(result.json().len() <= 512);
    // Escaping counts: a value of quotes costs twice its length.
    let c = FnCompleter::new(|_, _, out| {
        assert_eq!(out.add(&"\"".repeat(127)), Ok(false)); // 254 + 2 + 1 > 256
        assert_eq!(out.add("a"), Ok(false), "later values are not sent either");
        Ok(())
    });
    let r = registry_with(c, FnPolicy::allow(), limits);
    let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert!(result.values().is_empty());
    assert!(result.has_more());
    // The smallest page budget (one byte) sends nothing and says so.
    let tiny = ResourceLimits::new().with(Limit::MaxPageBytes, 257);
    let r = registry_with(FnCompleter::values(&["a"]), FnPolicy::allow(), tiny);
    let result = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert!(result.values().is_empty() && result.has_more());
}

// ---------------------------------------------------------------- result

#[test]
fn result_type_only_on_2026_07_28_and_no_cache_fields() {
    let r = registry(FnCompleter::values(&["a"]));
    let p = params(TEMPLATE, "file", "");
    let new = r.complete(&p, &CompleteOptions::default()).unwrap();
    assert_eq!(
        new.json(),
        r#"{"completion":{"values":["a"],"hasMore":false},"resultType":"complete"}"#
    );
    for revision in [ProtocolRevision::V2025_06_18, ProtocolRevision::V2025_11_25] {
        let old = r
            .complete(
                &p,
                &CompleteOptions {
                    call: CallOptions {
                        protocol_revision: revision,
                        ..CallOptions::default()
                    },
                },
            )
            .unwrap();
        assert_eq!(
            old.json(),
            r#"{"completion":{"values":["a"],"hasMore":false}}"#
        );
    }
    let explicit = r
        .complete(
            &p,
            &CompleteOptions {
                call: CallOptions {
                    protocol_revision: ProtocolRevision::V2026_07_28,
                    ..CallOptions::default()
                },
            },
        )
        .unwrap();
    assert_eq!(explicit.json(), new.json());
    // Cache hints declared for the registry and the binding never reach a
    // completion result.
    let handler: Arc<dyn ResourceHandler> = Arc::new(CountingHandler::default());
    let cached = Resources::builder()
        .policy(FnPolicy::allow())
        .cache_hints(RegistryCacheHints {
            ttl_ms: 60_000,
            policy_caller_independent: true,
        })
        .binding(
            ResourceBinding::new(&template_def(TEMPLATE), handler)
                .unwrap()
                .with_cache_hints(CacheHints {
                    ttl_ms: 60_000,
                    caller_independent: true,
                })
                .with_completer(FnCompleter::values(&["a"])),
        )
        .build()
        .unwrap();
    let j = cached.complete(&p, &CompleteOptions::default()).unwrap();
    assert_eq!(j.json(), new.json());
    assert!(!j.json().contains("ttlMs") && !j.json().contains("cacheScope"));
}

#[test]
fn a_template_without_a_completer_answers_an_empty_completion() {
    let r = registry(FnCompleter::values(&["a"]));
    let result = complete(&r, &params("plain://x/{id}", "id", "q")).unwrap();
    assert_eq!(
        result.json(),
        r#"{"completion":{"values":[],"hasMore":false},"resultType":"complete"}"#
    );
    // The rules before the callback still apply.
    let e = complete(&r, &params("plain://x/{id}", "nope", "q")).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
}

// ---------------------------------------------------------------- callback

#[test]
fn the_completer_runs_under_the_request_scope() {
    // Request data and the caller's deadline reach the callback.
    let c = FnCompleter::new(|call, _, out| {
        let data = call.request_data().and_then(|d| d.downcast_ref::<String>());
        assert_eq!(data.map(String::as_str), Some("tenant-7"));
        assert!(call.remaining() <= Duration::from_secs(5));
        assert!(!call.is_canceled());
        let _ = out.add("a");
        Ok(())
    });
    let r = registry(c);
    let options = CompleteOptions {
        call: CallOptions {
            timeout: Some(Duration::from_secs(5)),
            request_data: Some(Arc::new("tenant-7".to_string())),
            ..CallOptions::default()
        },
    };
    r.complete(&params(TEMPLATE, "file", ""), &options).unwrap();

    // Passing the deadline inside the callback: deadline_exceeded.
    let c = FnCompleter::new(|call, _, out| {
        while !call.is_canceled() {
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = out.add("late");
        Ok(())
    });
    let r = registry(c);
    let start = Instant::now();
    let options = CompleteOptions {
        call: CallOptions {
            timeout: Some(Duration::from_millis(50)),
            ..CallOptions::default()
        },
    };
    let e = r
        .complete(&params(TEMPLATE, "file", ""), &options)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::DeadlineExceeded);
    assert!(start.elapsed() < Duration::from_secs(10));

    // Cancellation: canceled, also when the callback then fails.
    let token = CancelToken::new();
    let t = token.clone();
    let c = FnCompleter::new(move |call, _, _| {
        t.cancel();
        assert!(call.is_canceled());
        Err(CallbackError::failed("stopped"))
    });
    let r = registry(c);
    let options = CompleteOptions {
        call: CallOptions {
            cancel: Some(token.clone()),
            ..CallOptions::default()
        },
    };
    let e = r
        .complete(&params(TEMPLATE, "file", ""), &options)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::Canceled);
    // Already cancelled: nothing runs.
    let c = FnCompleter::values(&["a"]);
    let r = registry(c.clone());
    let e = r
        .complete(&params(TEMPLATE, "file", ""), &options)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::Canceled);
    assert_eq!(c.calls(), 0);

    // A context kept past the call reports cancellation (scope closed).
    let kept = Arc::new(Mutex::new(None));
    let k = kept.clone();
    let r = registry(FnCompleter::new(move |call, _, _| {
        *k.lock().unwrap() = Some(call.clone());
        Ok(())
    }));
    complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert!(kept.lock().unwrap().as_ref().unwrap().is_canceled());
}

#[test]
fn completer_failures_fail_the_call_without_leaking_causes() {
    let r = registry(FnCompleter::new(|_, _, _| {
        Err(CallbackError::failed("db password wrong"))
    }));
    let e = complete(&r, &params(TEMPLATE, "file", "")).unwrap_err();
    assert_eq!(e.kind(), FailureKind::ReadFailed);
    assert_eq!(e.jsonrpc_code(), -32603);
    assert!(e.cause_text().contains("db password wrong"));
    assert!(!e.message().contains("password"));

    let r = registry(FnCompleter::new(|_, _, _| panic!("completer bug")));
    let e = complete(&r, &params(TEMPLATE, "file", "")).unwrap_err();
    assert_eq!(e.kind(), FailureKind::ReadFailed);

    // Unavailable from the completer answers like not found.
    let r = registry(FnCompleter::new(|_, _, _| Err(CallbackError::Unavailable)));
    let e = complete(&r, &params(TEMPLATE, "file", "")).unwrap_err();
    let unknown = complete(&r, &params("x://nothing/{a}", "a", "")).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Unavailable);
    assert_eq!(e.message(), unknown.message());
}

// ---------------------------------------------------------------- registry

#[test]
fn a_completer_on_an_exact_uri_definition_is_refused_at_build() {
    let handler: Arc<dyn ResourceHandler> = Arc::new(CountingHandler::default());
    let e = Resources::builder()
        .policy(FnPolicy::allow())
        .binding(
            ResourceBinding::new(r#"{"uri":"file:///readme","name":"r"}"#, handler)
                .unwrap()
                .with_completer(FnCompleter::values(&[])),
        )
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
}

#[test]
fn completes_says_whether_some_binding_completes() {
    assert!(registry(FnCompleter::values(&[])).completes());
    let handler: Arc<dyn ResourceHandler> = Arc::new(CountingHandler::default());
    let r = Resources::builder()
        .policy(FnPolicy::allow())
        .binding(ResourceBinding::new(&template_def("plain://x/{id}"), handler).unwrap())
        .build()
        .unwrap();
    assert!(!r.completes());
}

// ---------------------------------------------------------------- params

#[test]
fn complete_params_parse_strictly() {
    let ok = CompleteParams::parse(
        br#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":"q"},
            "context":{"arguments":{"other":"v"}},"_meta":{"progressToken":1},"extra":[1]}"#,
    )
    .unwrap();
    assert_eq!(
        ok,
        CompleteRef::Resource(CompleteParams {
            template: "a://x/{id}".into(),
            argument: "id".into(),
            value: "q".into(),
            context: vec![("other".into(), "v".into())],
        })
    );
    for prompt in [
        &br#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}"#[..],
        br#"{"ref":{"type":"ref/prompt"},"argument":7}"#,
    ] {
        assert_eq!(CompleteParams::parse(prompt).unwrap(), CompleteRef::Prompt);
    }
    let bad: &[&[u8]] = &[
        b"",
        b"null",
        b"[]",
        b"{",
        br#"{"argument":{"name":"id","value":""}}"#,
        br#"{"ref":{"type":"ref/resource"},"argument":{"name":"id","value":""}}"#,
        br#"{"ref":{"type":"ref/other","uri":"a://x/{id}"},"argument":{"name":"id","value":""}}"#,
        br#"{"ref":{"type":"ref/resource","uri":7},"argument":{"name":"id","value":""}}"#,
        br#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id"}}"#,
        br#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":1}}"#,
        br#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":""},"argument":{"name":"id","value":""}}"#,
        br#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":""},"context":{"arguments":{"a":"1","a":"2"}}}"#,
        br#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":""},"context":{"arguments":{"a":1}}}"#,
        br#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":""},"context":[]}"#,
        b"{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"\xff\"},\"argument\":{\"name\":\"id\",\"value\":\"\"}}",
    ];
    for b in bad {
        let e = CompleteParams::parse(b).unwrap_err();
        // Fixed messages only: nothing of the input is echoed.
        assert!(
            !e.message().contains("a://"),
            "{}",
            String::from_utf8_lossy(b)
        );
    }
    let huge = format!(
        r#"{{"ref":{{"type":"ref/resource","uri":"a://x/{{id}}"}},"argument":{{"name":"id","value":"{}"}}}}"#,
        "x".repeat(256 * 1024)
    );
    assert_eq!(
        CompleteParams::parse(huge.as_bytes())
            .unwrap_err()
            .message(),
        "params exceed 256 KiB"
    );
}

#[test]
fn completions_from_many_threads_at_once_agree() {
    let c = FnCompleter::new(|_, req, out| {
        for i in 0..120 {
            let _ = out.add(&format!("{}-{i}", req.value()));
        }
        Ok(())
    });
    let r = Arc::new(registry(c.clone()));
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let r = r.clone();
            std::thread::spawn(move || {
                for k in 0..50 {
                    let value = format!("t{t}k{k}");
                    let result = complete(&r, &params(TEMPLATE, "file", &value)).unwrap();
                    assert_eq!(result.values().len(), 100);
                    assert!(result.values().iter().all(|v| v.starts_with(&value)));
                    assert!(result.has_more());
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(c.calls(), 400);
}

#[test]
fn completion_is_metadata_only_it_never_resolves_or_reads_bodies() {
    let handler = Arc::new(CountingHandler::default());
    let policy = Arc::new(AllowAllCounting::default());
    let r = Resources::builder()
        .policy(policy.clone())
        .binding(
            ResourceBinding::new(&template_def(TEMPLATE), handler.clone())
                .unwrap()
                .with_completer(FnCompleter::values(&["a", "b"])),
        )
        .build()
        .unwrap();
    assert_eq!(
        complete(&r, &params(TEMPLATE, "file", ""))
            .unwrap()
            .values()
            .len(),
        2
    );
    assert_eq!(handler.resolves.load(Ordering::SeqCst), 0);
    assert_eq!(handler.reads.load(Ordering::SeqCst), 0);
    // Only discovery is asked: no target exists to check.
    assert_eq!(policy.discovers.load(Ordering::SeqCst), 1);
    assert_eq!(policy.targets.load(Ordering::SeqCst), 0);
}

/// Allows everything and counts discover and target checks.
#[derive(Default)]
struct AllowAllCounting {
    discovers: AtomicUsize,
    targets: AtomicUsize,
}

impl ResourcePolicy for AllowAllCounting {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        self.discovers.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        self.targets.fetch_add(1, Ordering::SeqCst);
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        self.targets.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

// ---------------------------------------------------------------- executor

/// A gate that hung callbacks wait on; opened when dropped (also on panic).
#[derive(Default)]
struct Gate {
    open: Mutex<bool>,
    cv: std::sync::Condvar,
}

impl Gate {
    fn wait(&self) {
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.cv.wait(open).unwrap();
        }
    }
}

struct Opener(Arc<Gate>);

impl Drop for Opener {
    fn drop(&mut self) {
        *self.0.open.lock().unwrap() = true;
        self.0.cv.notify_all();
    }
}

#[test]
fn with_an_executor_the_call_returns_by_its_deadline_whatever_the_completer_does() {
    let gate = Arc::new(Gate::default());
    let _opener = Opener(gate.clone());
    let g = gate.clone();
    // Ignores cancellation entirely.
    let c = FnCompleter::new(move |_, _, out| {
        g.wait();
        let _ = out.add("late");
        Ok(())
    });
    let r = registry(c.clone());
    let executor = Executor::new(2).unwrap();
    let start = Instant::now();
    let options = CompleteOptions {
        call: CallOptions {
            timeout: Some(Duration::from_millis(100)),
            executor: Some(executor.clone()),
            ..CallOptions::default()
        },
    };
    let e = r
        .complete(&params(TEMPLATE, "file", ""), &options)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::DeadlineExceeded);
    assert!(start.elapsed() < Duration::from_secs(10));

    // Cancellation from another thread returns promptly too.
    let token = CancelToken::new();
    let t = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        t.cancel();
    });
    let options = CompleteOptions {
        call: CallOptions {
            cancel: Some(token),
            executor: Some(executor.clone()),
            ..CallOptions::default()
        },
    };
    let start = Instant::now();
    let e = r
        .complete(&params(TEMPLATE, "file", ""), &options)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::Canceled);
    assert!(start.elapsed() < Duration::from_secs(10));
    canceller.join().unwrap();
}

#[test]
fn with_an_executor_every_rule_still_holds() {
    let c = FnCompleter::values(&["ok", "..", "a/b", "fine"]);
    let policy = FnPolicy::new(|_, d| {
        if d.uri_or_template() == "plain://x/{id}" {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = registry_with(c.clone(), policy.clone(), ResourceLimits::new());
    let options = CompleteOptions {
        call: CallOptions {
            executor: Some(Executor::new(2).unwrap()),
            ..CallOptions::default()
        },
    };
    let ok = r.complete(&params(TEMPLATE, "file", ""), &options).unwrap();
    assert_eq!(ok.values(), ["ok", "fine"]);
    let inline = complete(&r, &params(TEMPLATE, "file", "")).unwrap();
    assert_eq!(ok.json(), inline.json());
    for p in [
        params("plain://x/{id}", "id", ""),   // undiscoverable
        params("x://unknown/{a}", "a", ""),   // unknown
        params("plain://x/{id}", "nope", ""), // undiscoverable, bad argument
    ] {
        let e = r.complete(&p, &options).unwrap_err();
        assert_eq!(e.kind(), FailureKind::Unavailable);
    }
    let e = r
        .complete(&params(TEMPLATE, "nope", ""), &options)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    let panicking = registry(FnCompleter::new(|_, _, _| panic!("completer bug")));
    let e = panicking
        .complete(&params(TEMPLATE, "file", ""), &options)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::ReadFailed);
}

// ---------------------------------------------------------------- one call per request

fn request(
    r: &Resources,
    params: &str,
    options: &RequestOptions,
) -> Result<Response, RequestError> {
    r.request(b"completion/complete", params.as_bytes(), options)
}

fn complete_params_json(template: &str, argument: &str, value: &str) -> String {
    serde_json::json!({
        "ref": {"type": "ref/resource", "uri": template},
        "argument": {"name": argument, "value": value},
    })
    .to_string()
}

#[test]
fn the_one_call_function_serves_completion_complete_for_ref_resource() {
    let r = registry(FnCompleter::values(&["alpha", "..", "beta"]));
    // No scope key needed: completion is not paginated.
    let options = RequestOptions::default();
    let body = complete_params_json(TEMPLATE, "file", "a");
    let response = request(&r, &body, &options).unwrap();
    assert!(!response.is_error());
    let direct = complete(&r, &params(TEMPLATE, "file", "a")).unwrap();
    assert_eq!(response.json(), direct.json());
    assert_eq!(
        response.json(),
        r#"{"completion":{"values":["alpha","beta"],"hasMore":false},"resultType":"complete"}"#
    );
    // The negotiated revision shapes it, and a per-request one wins.
    let old = RequestOptions {
        call: CallOptions {
            protocol_revision: ProtocolRevision::V2025_11_25,
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    assert!(!request(&r, &body, &old)
        .unwrap()
        .json()
        .contains("resultType"));
    let mut v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["_meta"] = serde_json::json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
    let per_request = request(&r, &v.to_string(), &old).unwrap();
    assert!(per_request.json().ends_with(r#","resultType":"complete"}"#));
    assert_eq!(
        per_request.protocol_revision(),
        ProtocolRevision::V2026_07_28
    );
    // Context arguments reach the completer.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let r2 = registry(FnCompleter::new(move |_, req, _| {
        *s.lock().unwrap() = req.context().to_vec();
        Ok(())
    }));
    let mut v: serde_json::Value =
        serde_json::from_str(&complete_params_json(TEMPLATE, "file", "")).unwrap();
    v["context"] = serde_json::json!({"arguments": {"project": "alpha"}});
    request(&r2, &v.to_string(), &options).unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        [("project".to_string(), "alpha".to_string())]
    );
}

#[test]
fn ref_prompt_is_not_handled_so_the_host_can_route_it() {
    let c = FnCompleter::values(&["a"]);
    let r = registry(c.clone());
    let options = RequestOptions::default();
    for body in [
        r#"{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"language","value":"py"}}"#,
        r#"{"ref":{"type":"ref/prompt","name":"p"},"argument":42}"#,
        r#"{"ref":{"type":"ref/prompt"},"argument":{"name":"x","value":""},"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}"#,
    ] {
        assert_eq!(
            request(&r, body, &options).unwrap_err(),
            RequestError::MethodNotHandled,
            "{body}"
        );
    }
    assert_eq!(c.calls(), 0);
}

#[test]
fn the_one_call_function_answers_completion_errors_as_error_objects() {
    let policy = FnPolicy::new(|_, d| {
        if d.uri_or_template() == "plain://x/{id}" {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = registry_with(FnCompleter::values(&["a"]), policy, ResourceLimits::new());
    let new = RequestOptions::default();
    let old = RequestOptions {
        call: CallOptions {
            protocol_revision: ProtocolRevision::V2025_06_18,
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    // Not found, for an unknown and for an undiscoverable template alike:
    // the same object but for the URI the client sent.
    for (template, argument) in [("x://unknown/{a}", "a"), ("plain://x/{id}", "nope")] {
        let body = complete_params_json(template, argument, "");
        let e = request(&r, &body, &new).unwrap();
        assert!(e.is_error());
        let want = format!(
            r#"{{"code":-32602,"message":"Resource not found","data":{{"uri":{}}}}}"#,
            serde_json::to_string(template).unwrap()
        );
        assert_eq!(e.json(), want);
        let e = request(&r, &body, &old).unwrap();
        assert_eq!(e.json(), want.replace("-32602", "-32002"));
    }
    // A wrong argument is invalid params, without data.
    let e = request(&r, &complete_params_json(TEMPLATE, "nope", ""), &new).unwrap();
    let v: serde_json::Value = serde_json::from_str(e.json()).unwrap();
    assert_eq!(v["code"], -32602);
    assert!(v.get("data").is_none());
    assert_eq!(e.failure().unwrap().kind(), FailureKind::InvalidRequest);
    // Malformed params: fixed messages that never echo the input.
    for body in [
        "",
        "null",
        "[]",
        "{",
        r#"{"ref":{"type":"ref/resource"},"argument":{"name":"file","value":"SECRET"}}"#,
        r#"{"ref":{"type":"ref/other","uri":"SECRET"},"argument":{"name":"file","value":""}}"#,
        r#"{"ref":{"type":"ref/resource","uri":"SECRET"},"argument":{"name":"file","value":7}}"#,
        r#"{"ref":{"type":"ref/resource","uri":"SECRET"},"argument":{"name":"file","value":""},"_meta":[]}"#,
    ] {
        let e = request(&r, body, &new).unwrap();
        assert!(e.is_error(), "{body}");
        let v: serde_json::Value = serde_json::from_str(e.json()).unwrap();
        assert_eq!(v["code"], -32602, "{body}");
        assert!(!e.json().contains("SECRET"), "{body}");
    }
    // An unknown per-request revision is UnsupportedProtocolVersion.
    let mut v: serde_json::Value =
        serde_json::from_str(&complete_params_json(TEMPLATE, "file", "")).unwrap();
    v["_meta"] = serde_json::json!({"io.modelcontextprotocol/protocolVersion": "2099-01-01"});
    let e = request(&r, &v.to_string(), &new).unwrap();
    let o: serde_json::Value = serde_json::from_str(e.json()).unwrap();
    assert_eq!(o["code"], -32022);
    // A completer failure is internal, its cause private.
    let failing = registry(FnCompleter::new(|_, _, _| {
        Err(CallbackError::failed("SECRET"))
    }));
    let e = request(&failing, &complete_params_json(TEMPLATE, "file", ""), &new).unwrap();
    let o: serde_json::Value = serde_json::from_str(e.json()).unwrap();
    assert_eq!(o["code"], -32603);
    assert!(!e.json().contains("SECRET"));
    assert!(e.failure().unwrap().cause_text().contains("SECRET"));
}

// ---------------------------------------------------------------- phase

#[test]
fn the_completer_runs_in_the_completion_phase() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let c = FnCompleter::new(move |call, _, out| {
        log.lock().unwrap().push(call.phase());
        let _ = out.add("alpha");
        Ok(())
    });
    let r = registry(c);
    complete(&r, &params(TEMPLATE, "project", "")).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![CallPhase::Completion]);
}
