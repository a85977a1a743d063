//! Observing asynchronous calls (docs/BEHAVIOUR.md §19, §20): every
//! asynchronous call gives exactly one call event, the one its blocking
//! call on the executor gives, before its completion runs; also when it is
//! refused at its start, cancelled, or passes its deadline, and when the
//! registry is freed while it is in flight (the observer then released
//! once, after the event); an asynchronous read of a hidden resource and
//! of an unregistered one look the same to an observer and to the client.

mod observe_support;
mod read_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::bounded;
use mcp_resources::*;
use observe_support::*;
use read_support::*;

fn decisions_no_timings() -> Interests {
    Interests {
        decisions: true,
        callback_timings: false,
    }
}

fn everything() -> Interests {
    Interests {
        decisions: true,
        callback_timings: true,
    }
}

fn on(ex: &Executor, timeout: Duration, cancel: Option<CancelToken>) -> CallOptions {
    CallOptions {
        timeout: Some(timeout),
        cancel,
        executor: Some(ex.clone()),
        request_data: Some(Arc::new(7u64)),
        ..CallOptions::default()
    }
}

fn wait_for(f: impl Fn() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    f()
}

/// Starts one asynchronous call through `start` (handing it the
/// completion) and waits for its outcome; returns it with the number of
/// call events the observer had seen when the completion ran.
fn run_async<T: Send + 'static>(
    keep: &Arc<Keep>,
    start: impl FnOnce(Box<dyn FnOnce(T) + Send>),
) -> (T, usize) {
    let (tx, rx) = bounded(1);
    let k = keep.clone();
    start(Box::new(move |t: T| {
        let _ = tx.send((t, k.calls().len()));
    }));
    rx.recv_timeout(Duration::from_secs(20))
        .expect("the completion ran")
}

fn params(uri: &str) -> String {
    format!(r#"{{"uri":"{uri}"}}"#)
}

fn complete_params(template: &str) -> CompleteParams {
    CompleteParams {
        template: template.to_string(),
        argument: "id".to_string(),
        value: String::new(),
        context: Vec::new(),
    }
}

/// `json` without the per-read ids of its warning item URIs.
fn without_warning_ids(json: &str) -> String {
    const AT: &str = "mcp-warning://read/";
    let mut out = String::new();
    let mut rest = json;
    while let Some(i) = rest.find(AT) {
        out.push_str(&rest[..i + AT.len()]);
        rest = rest[i + AT.len()..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out + rest
}

/// Every event of one call (public lines without timings), asserting it
/// gave exactly one call event.
fn one_call(keep: &Keep, what: &str) -> (Vec<String>, Event) {
    let events = keep.take();
    let calls: Vec<_> = events.iter().filter(|e| e.kind == "call").collect();
    assert_eq!(calls.len(), 1, "{what}: {events:#?}");
    (public_lines(&events), calls[0].clone())
}

#[test]
fn every_async_call_gives_the_one_call_event_of_its_blocking_call_before_its_completion() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.handler.body("x://i/1", Body::Fail);
    let keep = Keep::new(decisions_no_timings());
    let r = Arc::new(build_observed(&fx, keep.clone()));
    let ex = Executor::new(2).unwrap();
    let call = on(&ex, Duration::from_secs(20), None);
    let read = ReadOptions::from(call.clone());
    let list = ListOptions {
        call: call.clone(),
        ..list_options("tenant")
    };
    let forged = ListOptions {
        cursor: Some(b"forged".to_vec()),
        ..list.clone()
    };
    let complete = CompleteOptions { call: call.clone() };
    let request = RequestOptions {
        scope_key: b"tenant".to_vec(),
        resource_tools: true,
        call: call.clone(),
        ..RequestOptions::default()
    };
    let tool = serde_json::json!({"name":"read_resource","arguments":{"uri":BUNDLE}}).to_string();
    let requests: Vec<(&str, String)> = vec![
        ("resources/read", params(BUNDLE)),
        ("resources/read", params("nothing://here")),
        ("resources/read", r#"{"uri":7}"#.to_string()),
        (
            "resources/read",
            r#"{"uri":"bundle://b","_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}"#.to_string(),
        ),
        ("resources/list", "{}".to_string()),
        ("resources/list", r#"{"cursor":"forged"}"#.to_string()),
        ("resources/templates/list", "{}".to_string()),
        (
            "completion/complete",
            serde_json::json!({"ref":{"type":"ref/resource","uri":TEMPLATE},
                "argument":{"name":"id","value":""}})
            .to_string(),
        ),
        ("tools/call", tool),
    ];
    type Case<'a> = (&'a str, CallMethod, Option<FailureKind>);
    let mut cases: Vec<Case> = Vec::new();
    let mut check = |what: &str, blocking: (Vec<String>, Event), served: (Vec<String>, Event)| {
        assert_eq!(served.0, blocking.0, "{what}");
        assert_eq!(served.1.request_data, Some(7), "{what}");
        // Its queue wait (the resource tools run inline on the call's
        // worker, as the blocking tool call without an executor).
        if served.1.method != CallMethod::ToolsCall {
            assert!(served.1.queue_wait.is_some(), "{what}: no queue wait");
        }
        cases.push(("", served.1.method, served.1.failure));
    };
    for uri in [BUNDLE, "nothing://here", "not a uri"] {
        fx.policy.reset();
        r.read(uri.as_bytes(), &read).ok();
        let blocking = one_call(&keep, uri);
        fx.policy.reset();
        let (_, seen) = run_async(&keep, |f| r.read_start(uri.as_bytes(), &read, f).unwrap());
        assert_eq!(seen, 1, "{uri}: the event before the completion");
        check(uri, blocking, one_call(&keep, uri));
    }
    for (templates, options) in [(false, &list), (true, &list), (false, &forged)] {
        let blocking = if templates {
            r.list_templates(options).map(drop)
        } else {
            r.list(options).map(drop)
        };
        let blocking_events = one_call(&keep, "list");
        let (served, seen) = run_async(&keep, |f| {
            if templates {
                r.list_templates_start(options, f).unwrap()
            } else {
                r.list_start(options, f).unwrap()
            }
        });
        assert_eq!(seen, 1, "list: the event before the completion");
        assert_eq!(
            served.map(drop).map_err(|e| e.kind()),
            blocking.map_err(|e| e.kind())
        );
        check("list", blocking_events, one_call(&keep, "list"));
    }
    for template in [TEMPLATE, "x://none/{id}"] {
        r.complete(&complete_params(template), &complete).ok();
        let blocking = one_call(&keep, template);
        let (_, seen) = run_async(&keep, |f| {
            r.complete_start(&complete_params(template), &complete, f)
                .unwrap()
        });
        assert_eq!(seen, 1, "{template}: the event before the completion");
        check(template, blocking, one_call(&keep, template));
    }
    for (method, text) in &requests {
        fx.policy.reset();
        let response = r.request(method.as_bytes(), text.as_bytes(), &request);
        let blocking = one_call(&keep, text);
        fx.policy.reset();
        let (served, seen) = run_async(&keep, |f| {
            r.request_start(method.as_bytes(), text.as_bytes(), &request, f)
                .unwrap()
        });
        assert_eq!(seen, 1, "{method} {text}: the event before the completion");
        assert_eq!(
            without_warning_ids(served.unwrap().json()),
            without_warning_ids(response.unwrap().json()),
            "{method} {text}"
        );
        check(text, blocking, one_call(&keep, text));
    }
    // A message serving a request gives the request's event; one serving
    // none gives none, as from the blocking message.
    let message = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}}}"#,
        params(BUNDLE)
    );
    fx.policy.reset();
    r.message(message.as_bytes(), &request).unwrap();
    let blocking = one_call(&keep, "message");
    fx.policy.reset();
    let (_, seen) = run_async(&keep, |f| {
        r.message_start(message.as_bytes(), &request, f).unwrap()
    });
    assert_eq!(seen, 1);
    check("message", blocking, one_call(&keep, "message"));
    for text in [
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"prompts/list"}"#,
        "not json",
    ] {
        r.message(text.as_bytes(), &request).unwrap();
        assert!(keep.take().is_empty(), "{text}");
        let (_, seen) = run_async(&keep, |f| {
            r.message_start(text.as_bytes(), &request, f).unwrap()
        });
        assert_eq!(seen, 0, "{text}");
        std::thread::sleep(Duration::from_millis(20));
        assert!(keep.take().is_empty(), "{text}");
    }
    let methods: Vec<_> = cases.iter().map(|c| c.1).collect();
    for m in [
        CallMethod::ResourcesRead,
        CallMethod::ResourcesList,
        CallMethod::ResourcesTemplatesList,
        CallMethod::CompletionComplete,
        CallMethod::ToolsCall,
    ] {
        assert!(methods.contains(&m), "{m:?} not observed");
    }
    assert!(cases.iter().any(|c| c.2.is_some()));
    // Metrics count the asynchronous calls as the blocking ones.
    // (A listing and a request, each blocking and asynchronous.)
    let m = r.metrics(CallMethod::ResourcesTemplatesList, None);
    assert_eq!(m.calls, 4);
}

#[test]
fn an_async_call_refused_at_its_start_gives_its_one_call_event_and_never_completes() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::new(decisions_no_timings());
    let r = Arc::new(build_observed(&fx, keep.clone()));
    let ex = Executor::new(1).unwrap();
    let runs = Arc::new(AtomicUsize::new(0));
    // No executor: the host's mistake.
    let inline = ReadOptions::default();
    r.read_start(BUNDLE.as_bytes(), &inline, count(&runs))
        .unwrap_err();
    let (_, e) = one_call(&keep, "no executor");
    assert_eq!(
        (e.method, e.failure),
        (
            CallMethod::ResourcesRead,
            Some(FailureKind::InvalidArgument)
        )
    );
    let no_executor = CompleteOptions::default();
    r.complete_start(&complete_params(TEMPLATE), &no_executor, count(&runs))
        .unwrap_err();
    let (_, e) = one_call(&keep, "no executor");
    assert_eq!(
        (e.method, e.failure),
        (
            CallMethod::CompletionComplete,
            Some(FailureKind::InvalidArgument)
        )
    );
    // An empty scope key, through every entry point.
    let no_key = ListOptions {
        call: on(&ex, Duration::from_secs(5), None),
        ..ListOptions::default()
    };
    r.list_start(&no_key, count(&runs)).unwrap_err();
    let (lines, e) = one_call(&keep, "list_start");
    assert_eq!(
        (e.method, e.failure),
        (
            CallMethod::ResourcesList,
            Some(FailureKind::InvalidArgument)
        )
    );
    r.list(&no_key).unwrap_err();
    assert_eq!(one_call(&keep, "list").0, lines);
    r.list_templates_start(&no_key, count(&runs)).unwrap_err();
    let (_, e) = one_call(&keep, "list_templates_start");
    assert_eq!(e.method, CallMethod::ResourcesTemplatesList);
    let request = RequestOptions {
        call: on(&ex, Duration::from_secs(5), None),
        ..RequestOptions::default()
    };
    r.request(b"resources/list", b"{}", &request).unwrap_err();
    let blocking = one_call(&keep, "request");
    r.request_start(b"resources/list", b"{}", &request, count(&runs))
        .unwrap_err();
    assert_eq!(one_call(&keep, "request_start").0, blocking.0);
    let message = br#"{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}"#;
    r.message(message, &request).unwrap_err();
    let blocking = one_call(&keep, "message");
    r.message_start(message, &request, count(&runs))
        .unwrap_err();
    assert_eq!(one_call(&keep, "message_start").0, blocking.0);
    // A method this library does not serve is no call of it.
    r.request_start(b"prompts/list", b"{}", &request, count(&runs))
        .unwrap_err();
    r.request_start(b"tools/call", b"{}", &request, count(&runs))
        .unwrap_err();
    std::thread::sleep(Duration::from_millis(50));
    assert!(keep.take().is_empty());
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A completion that counts its runs.
fn count<T>(runs: &Arc<AtomicUsize>) -> impl FnOnce(T) + Send + 'static {
    let runs = runs.clone();
    move |_| {
        runs.fetch_add(1, Ordering::SeqCst);
    }
}

/// A registry whose `x://i/0` body read sleeps `sleep` (ignoring
/// cancellation), with an item timeout beyond every deadline here.
fn sleeper(sleep: Duration, keep: &Arc<Keep>) -> (Fx, Arc<Resources>) {
    let fx = Fx::new(&["x://i/0"]).limit(Limit::ItemTimeoutMs, 60_000);
    fx.handler.body("x://i/0", Body::Sleep(sleep));
    let r = Arc::new(build_observed(&fx, keep.clone()));
    (fx, r)
}

/// Waits out the sleeping readers, then asserts the call's one event is
/// still the last one given (nothing follows a call's event).
fn nothing_after(keep: &Keep, call_id: u64, ex: &Executor) {
    assert!(wait_for(|| ex.stats().hung == 0));
    std::thread::sleep(Duration::from_millis(50));
    let later = keep.take();
    assert!(later.is_empty(), "after call {call_id}: {later:#?}");
}

#[test]
fn an_async_call_cancelled_or_past_its_deadline_gives_exactly_one_call_event() {
    let keep = Keep::new(everything());
    let (_fx, r) = sleeper(Duration::from_millis(600), &keep);
    let ex = Executor::new(2).unwrap();
    // Past its deadline while the reader sleeps.
    let options = ReadOptions::from(on(&ex, Duration::from_millis(100), None));
    let (out, seen) = run_async(&keep, |f| {
        r.read_start(BUNDLE.as_bytes(), &options, f).unwrap()
    });
    assert_eq!(out.unwrap_err().kind(), FailureKind::DeadlineExceeded);
    assert_eq!(seen, 1);
    let (_, e) = one_call(&keep, "deadline");
    assert_eq!(e.failure, Some(FailureKind::DeadlineExceeded));
    nothing_after(&keep, e.call_id, &ex);
    // Cancelled while the reader sleeps.
    let cancel = CancelToken::new();
    let options = ReadOptions::from(on(&ex, Duration::from_secs(20), Some(cancel.clone())));
    let c = cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        c.cancel();
    });
    let (out, seen) = run_async(&keep, |f| {
        r.read_start(BUNDLE.as_bytes(), &options, f).unwrap()
    });
    canceller.join().unwrap();
    assert_eq!(out.unwrap_err().kind(), FailureKind::Canceled);
    assert_eq!(seen, 1);
    let (_, e) = one_call(&keep, "cancel");
    assert_eq!(e.failure, Some(FailureKind::Canceled));
    nothing_after(&keep, e.call_id, &ex);
    // Cancelled before it starts: no callback runs, one event all the same.
    let cancel = CancelToken::new();
    cancel.cancel();
    let options = ReadOptions::from(on(&ex, Duration::from_secs(20), Some(cancel)));
    let (out, seen) = run_async(&keep, |f| {
        r.read_start(BUNDLE.as_bytes(), &options, f).unwrap()
    });
    assert_eq!(out.unwrap_err().kind(), FailureKind::Canceled);
    assert_eq!(seen, 1);
    let (_, e) = one_call(&keep, "canceled first");
    assert_eq!(e.failure, Some(FailureKind::Canceled));
    // A request past its deadline.
    let request = RequestOptions {
        call: on(&ex, Duration::from_millis(100), None),
        ..RequestOptions::default()
    };
    let text = params(BUNDLE);
    let (out, seen) = run_async(&keep, |f| {
        r.request_start(b"resources/read", text.as_bytes(), &request, f)
            .unwrap()
    });
    assert_eq!(
        out.unwrap().failure().map(Failure::kind),
        Some(FailureKind::DeadlineExceeded)
    );
    assert_eq!(seen, 1);
    let (_, e) = one_call(&keep, "request deadline");
    assert_eq!(
        (e.method, e.failure),
        (
            CallMethod::ResourcesRead,
            Some(FailureKind::DeadlineExceeded)
        )
    );
    nothing_after(&keep, e.call_id, &ex);
}

/// Allows everything; `discover` sleeps first (ignoring cancellation).
struct SlowDiscover(Duration);

impl ResourcePolicy for SlowDiscover {
    fn discover(&self, c: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        std::thread::sleep(self.0);
        AllowAll.discover(c, d)
    }
    fn visibility(&self, c: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        AllowAll.visibility(c, t)
    }
    fn read(&self, c: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        ResourcePolicy::read(&AllowAll, c, t)
    }
}

#[test]
fn an_async_request_past_its_deadline_reports_what_its_params_said_as_the_blocking_one() {
    let keep = Keep::new(everything());
    let fx = Fx::new(&["x://i/0"]).limit(Limit::ItemTimeoutMs, 60_000);
    fx.handler
        .body("x://i/0", Body::Sleep(Duration::from_millis(600)));
    let slow = Resources::builder()
        .policy(Arc::new(SlowDiscover(Duration::from_millis(600))))
        .observer(keep.clone())
        .binding(ResourceBinding::new(r#"{"uri":"x://d","name":"d"}"#, fx.handler.clone()).unwrap())
        .build()
        .unwrap();
    let sleepy = Arc::new(build_observed(&fx, keep.clone()));
    let slow = Arc::new(slow);
    let ex = Executor::new(2).unwrap();
    let request = RequestOptions {
        scope_key: b"tenant".to_vec(),
        call: on(&ex, Duration::from_millis(100), None),
        ..RequestOptions::default()
    };
    // A read whose reader sleeps, a listing whose discover sleeps: the
    // per-request revision and the subject's hash are in the event.
    let read =
        r#"{"uri":"bundle://b","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}"#;
    let list = r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}"#;
    for (r, method, text) in [
        (&sleepy, "resources/read", read),
        (&slow, "resources/list", list),
    ] {
        r.request(method.as_bytes(), text.as_bytes(), &request)
            .unwrap();
        let (blocking, e) = one_call(&keep, "blocking request deadline");
        assert_eq!(e.failure, Some(FailureKind::DeadlineExceeded), "{method}");
        assert_eq!(e.revision, ProtocolRevision::V2025_06_18, "{method}");
        assert!(
            e.uri_hash.is_some() || e.scope_key_hash.is_some(),
            "{method}"
        );
        nothing_after(&keep, e.call_id, &ex);
        let (_, seen) = run_async(&keep, |f| {
            r.request_start(method.as_bytes(), text.as_bytes(), &request, f)
                .unwrap()
        });
        assert_eq!(seen, 1);
        let (lines, e) = one_call(&keep, "async request deadline");
        assert_eq!(lines, blocking, "{method}");
        nothing_after(&keep, e.call_id, &ex);
    }
}

#[test]
fn an_async_call_a_saturated_executor_refuses_gives_exactly_one_call_event() {
    let keep = Keep::new(everything());
    let (_fx, r) = sleeper(Duration::from_millis(1500), &keep);
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 1,
        max_queued: 0,
    })
    .unwrap();
    // Two sleeping readers take the worker and its one replacement.
    let options = ReadOptions::from(on(&ex, Duration::from_millis(100), None));
    for _ in 0..2 {
        let (out, _) = run_async(&keep, |f| {
            r.read_start(BUNDLE.as_bytes(), &options, f).unwrap()
        });
        let kind = out.unwrap_err().kind();
        assert_eq!(one_call(&keep, "hung").1.failure, Some(kind));
    }
    assert!(wait_for(|| ex.stats().saturated()));
    let options = ReadOptions::from(on(&ex, Duration::from_secs(20), None));
    let (out, seen) = run_async(&keep, |f| {
        r.read_start(BUNDLE.as_bytes(), &options, f).unwrap()
    });
    assert_eq!(out.unwrap_err().kind(), FailureKind::ReadFailed);
    assert_eq!(seen, 1);
    let (_, e) = one_call(&keep, "saturated");
    assert_eq!(e.failure, Some(FailureKind::ReadFailed));
    assert!(e.cause.unwrap().contains("executor saturated"));
    nothing_after(&keep, e.call_id, &ex);
}

#[test]
fn freeing_the_registry_while_async_calls_are_in_flight_gives_their_events_then_releases_the_observer_once(
) {
    let keep = Keep::new(everything());
    let (_fx, r) = sleeper(Duration::from_millis(300), &keep);
    let ex = Executor::new(2).unwrap();
    let mut waits = Vec::new();
    // One that completes, one past its deadline while its reader sleeps.
    for timeout in [Duration::from_secs(20), Duration::from_millis(100)] {
        let options = ReadOptions::from(on(&ex, timeout, None));
        let (tx, rx) = bounded(1);
        let k = keep.clone();
        r.read_start(BUNDLE.as_bytes(), &options, move |out| {
            // The registry (and so the observer) is still held.
            let held = Arc::strong_count(&k) > 2;
            let _ = tx.send((out.map(drop).map_err(|e| e.kind()), k.calls().len(), held));
        })
        .unwrap();
        waits.push(rx);
    }
    drop(r);
    let outcomes: Vec<_> = waits
        .iter()
        .map(|rx| rx.recv_timeout(Duration::from_secs(20)).unwrap())
        .collect();
    let mut failures: Vec<_> = outcomes.iter().map(|o| o.0).collect();
    failures.sort_by_key(|o| o.is_err());
    assert_eq!(
        failures,
        vec![Ok(()), Err(FailureKind::DeadlineExceeded)],
        "{outcomes:?}"
    );
    assert!(outcomes.iter().all(|o| o.1 >= 1 && o.2), "{outcomes:?}");
    // The abandoned reader holds the registry until it returns; then the
    // observer is released, once, and nothing more was observed.
    assert!(wait_for(|| Arc::strong_count(&keep) == 1));
    assert!(wait_for(|| ex.stats().hung == 0));
    std::thread::sleep(Duration::from_millis(50));
    let calls = keep.calls();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    let mut kinds: Vec<_> = calls.iter().map(|e| e.failure).collect();
    kinds.sort_by_key(Option::is_some);
    assert_eq!(kinds, vec![None, Some(FailureKind::DeadlineExceeded)]);
    assert_eq!(keep.drops.load(Ordering::SeqCst), 0);
    let drops = keep.drops.clone();
    drop(keep);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

/// Registries of the fixture where `uri` is hidden, and one where it is
/// not registered at all (one event key for both).
fn hidden_and_unregistered(uri: &str) -> Vec<(&'static str, Arc<Resources>, Arc<Keep>)> {
    const KEY: &[u8] = b"one event key for the whole fleet";
    let hidden = Fx::new(&["x://i/0"]);
    hidden.policy.vis(uri, HIDDEN, HIDDEN);
    let keep = Keep::new(everything());
    let r = builder(&hidden)
        .event_key(KEY)
        .observer(keep.clone())
        .build()
        .unwrap();
    let mut out = vec![("hidden", Arc::new(r), keep)];
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
    out.push(("unregistered", Arc::new(r), keep));
    out
}

#[test]
fn an_async_read_of_a_hidden_and_of_an_unregistered_resource_look_the_same_to_observer_and_client()
{
    let ex = Executor::new(2).unwrap();
    let call = on(&ex, Duration::from_secs(20), None);
    let read = ReadOptions::from(call.clone());
    let request = RequestOptions {
        call,
        ..RequestOptions::default()
    };
    for uri in [BUNDLE, "bundle://t/x"] {
        let mut seen = std::collections::BTreeMap::new();
        for (what, r, keep) in hidden_and_unregistered(uri) {
            let (out, _) = run_async(&keep, |f| r.read_start(uri.as_bytes(), &read, f).unwrap());
            let e = out.unwrap_err();
            assert_eq!(e.kind(), FailureKind::Unavailable, "{what}");
            let text = params(uri);
            let (response, _) = run_async(&keep, |f| {
                r.request_start(b"resources/read", text.as_bytes(), &request, f)
                    .unwrap()
            });
            let client = (
                e.jsonrpc_code(),
                e.message().to_string(),
                response.unwrap().json().to_string(),
            );
            let events = keep.take();
            assert_eq!(
                events.iter().filter(|e| e.kind == "call").count(),
                2,
                "{what}"
            );
            // Every public byte an observer may see, and the client's bytes.
            seen.entry((public_lines(&events), client))
                .or_insert_with(Vec::new)
                .push(what);
        }
        assert_eq!(seen.len(), 1, "{uri}: {seen:#?}");
    }
}
