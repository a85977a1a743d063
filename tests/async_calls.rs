//! docs/BEHAVIOUR.md §20 (asynchronous calls): a call started on an
//! executor returns at once and its completion runs exactly once, on an
//! executor thread, never inside the start call; by the deadline and at
//! once on cancellation whatever a callback does; with the blocking call's
//! results; the registry and the executor may go while calls are in
//! flight, and every table is released once, after the completion.
//! Bounds are generous: the machine is small and shared.

mod executor_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver};
use executor_support::{Gate, Opener};
use mcp_resources::*;

/// Counts its drops (one per table: the release).
struct Released(Arc<AtomicUsize>);
impl Drop for Released {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// `x://ok/...` reads its URI; `x://hang/...` waits on the gate (ignoring
/// cancellation); `x://multi` plans three items whose middle one hangs.
struct Handler {
    gate: Arc<Gate>,
    _released: Released,
}

impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        if m.uri() == "x://multi" {
            let t = |u: &str| ResourceTarget::new(u, "", None).unwrap();
            let items = vec![t("x://ok/1"), t("x://hang/2"), t("x://ok/3")];
            return ResourceReadPlan::new(t("x://multi"), items).map_err(CallbackError::failed);
        }
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        if t.uri().starts_with("x://hang/") {
            self.gate.wait();
        }
        ResourcePayload::text_owned("text/plain", format!("body of {}", t.uri()))
            .map_err(CallbackError::failed)
    }
}

/// Allows everything; `discover` of `x://slowpolicy/...` waits on the gate.
struct Policy {
    gate: Arc<Gate>,
    _released: Released,
}

impl ResourcePolicy for Policy {
    fn discover(&self, c: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        if d.uri_or_template().starts_with("x://slowpolicy/") {
            self.gate.wait();
        }
        AllowAll.discover(c, d)
    }
    fn visibility(&self, c: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        AllowAll.visibility(c, t)
    }
    fn read(&self, c: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        ResourcePolicy::read(&AllowAll, c, t)
    }
}

struct Values;
impl ResourceCompleter for Values {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        sink: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        let _ = sink.add("alpha");
        let _ = sink.add("beta");
        Ok(())
    }
}

struct Fixture {
    registry: Arc<Resources>,
    gate: Arc<Gate>,
    released: Arc<AtomicUsize>,
}

/// Two exact URIs and a hanging one, a multi-item read, a template with a
/// completer, and a definition whose `discover` hangs.
fn fixture(item_timeout_ms: i64) -> Fixture {
    let gate = Arc::new(Gate::default());
    let released = Arc::new(AtomicUsize::new(0));
    let handler = Arc::new(Handler {
        gate: gate.clone(),
        _released: Released(released.clone()),
    });
    let mut b = Resources::builder()
        .policy(Arc::new(Policy {
            gate: gate.clone(),
            _released: Released(released.clone()),
        }))
        .limits(ResourceLimits::new().with(Limit::ItemTimeoutMs, item_timeout_ms));
    for uri in [
        "x://ok/a",
        "x://ok/b",
        "x://hang/h",
        "x://multi",
        "x://slowpolicy/p",
    ] {
        let def = format!(r#"{{"uri":"{uri}","name":"{uri}"}}"#);
        b = b.binding(ResourceBinding::new(&def, handler.clone()).unwrap());
    }
    let template = ResourceBinding::new(r#"{"uriTemplate":"x://t/{id}","name":"t"}"#, handler)
        .unwrap()
        .with_completer(Arc::new(Values));
    Fixture {
        registry: Arc::new(b.binding(template).build().unwrap()),
        gate,
        released,
    }
}

fn call(executor: &Executor, timeout: Duration, cancel: Option<CancelToken>) -> CallOptions {
    CallOptions {
        timeout: Some(timeout),
        cancel,
        executor: Some(executor.clone()),
        ..CallOptions::default()
    }
}

/// A completion that counts its runs, records its thread, and sends its
/// outcome.
struct Done<T> {
    runs: Arc<AtomicUsize>,
    thread: Arc<Mutex<Option<ThreadId>>>,
    rx: Receiver<T>,
}

fn done<T: Send + 'static>() -> (Done<T>, impl FnOnce(T) + Send + 'static) {
    let (tx, rx) = bounded(1);
    let runs = Arc::new(AtomicUsize::new(0));
    let thread = Arc::new(Mutex::new(None));
    let (r, th) = (runs.clone(), thread.clone());
    let f = move |t: T| {
        r.fetch_add(1, Ordering::SeqCst);
        *th.lock().unwrap() = Some(std::thread::current().id());
        let _ = tx.send(t);
    };
    (Done { runs, thread, rx }, f)
}

impl<T> Done<T> {
    fn wait(&self) -> T {
        self.rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the completion ran")
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

#[test]
fn an_async_read_completes_once_off_the_starting_thread_with_the_blocking_reads_bytes() {
    let fx = fixture(1000);
    let ex = Executor::new(2).unwrap();
    let options = ReadOptions::from(call(&ex, Duration::from_secs(10), None));
    let blocking = fx.registry.read(b"x://ok/a", &options).unwrap();
    let (d, f) = done();
    fx.registry.read_start(b"x://ok/a", &options, f).unwrap();
    let bundle = d.wait().unwrap();
    assert_eq!(bundle.json(), blocking.json());
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(d.runs.load(Ordering::SeqCst), 1);
    assert_ne!(*d.thread.lock().unwrap(), Some(std::thread::current().id()));
    // A failure is the outcome too (not found), never a start error.
    let (d, f) = done();
    fx.registry.read_start(b"x://nothing", &options, f).unwrap();
    let e = d.wait().unwrap_err();
    assert_eq!(e.kind(), FailureKind::Unavailable);
    assert_eq!(
        e.jsonrpc_code(),
        fx.registry
            .read(b"x://nothing", &options)
            .unwrap_err()
            .jsonrpc_code()
    );
}

#[test]
fn an_async_call_without_an_executor_fails_at_once_and_never_completes() {
    let fx = fixture(1000);
    let runs = Arc::new(AtomicUsize::new(0));
    let r = runs.clone();
    let e = fx
        .registry
        .read_start(b"x://ok/a", &ReadOptions::default(), move |_| {
            r.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidArgument);
    let list = ListOptions {
        scope_key: b"k".to_vec(),
        ..ListOptions::default()
    };
    let r = runs.clone();
    let e = fx
        .registry
        .list_start(&list, move |_| {
            r.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidArgument);
    // An empty scope key is the host's mistake, reported first.
    let ex = Executor::new(1).unwrap();
    let empty = ListOptions {
        call: call(&ex, Duration::from_secs(5), None),
        ..ListOptions::default()
    };
    let r = runs.clone();
    let e = fx
        .registry
        .list_start(&empty, move |_| {
            r.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidArgument);
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn cancelling_an_async_read_completes_it_as_canceled_while_the_reader_ignores_it() {
    let fx = fixture(60_000);
    let _opener = Opener(fx.gate.clone());
    let ex = Executor::new(2).unwrap();
    let cancel = CancelToken::new();
    let options = ReadOptions::from(call(&ex, Duration::from_secs(60), Some(cancel.clone())));
    let (d, f) = done();
    fx.registry.read_start(b"x://hang/h", &options, f).unwrap();
    assert!(wait_for(|| fx.gate.entered.load(Ordering::SeqCst) == 1));
    let at = Instant::now();
    cancel.cancel();
    let e = d.wait().unwrap_err();
    assert_eq!(e.kind(), FailureKind::Canceled);
    assert!(
        at.elapsed() < Duration::from_secs(5),
        "took {:?}",
        at.elapsed()
    );
    // The reader was abandoned: its worker is hung until it returns.
    assert!(wait_for(|| ex.stats().hung == 1));
    fx.gate.open();
    assert!(wait_for(|| ex.stats().hung == 0));
}

#[test]
fn a_call_cancelled_before_it_starts_completes_as_canceled() {
    let fx = fixture(1000);
    let ex = Executor::new(1).unwrap();
    let cancel = CancelToken::new();
    cancel.cancel();
    let options = ReadOptions::from(call(&ex, Duration::from_secs(60), Some(cancel)));
    let (d, f) = done();
    fx.registry.read_start(b"x://ok/a", &options, f).unwrap();
    assert_eq!(d.wait().unwrap_err().kind(), FailureKind::Canceled);
}

#[test]
fn a_hung_body_reader_is_a_timeout_item_and_the_async_read_completes_with_its_siblings() {
    let fx = fixture(100);
    let _opener = Opener(fx.gate.clone());
    let ex = Executor::new(2).unwrap();
    let options = ReadOptions::from(call(&ex, Duration::from_secs(20), None));
    let (d, f) = done();
    let at = Instant::now();
    fx.registry.read_start(b"x://multi", &options, f).unwrap();
    let bundle = d.wait().unwrap();
    assert!(
        at.elapsed() < Duration::from_secs(5),
        "took {:?}",
        at.elapsed()
    );
    assert!(bundle.is_partial());
    let uris: Vec<String> = bundle
        .items()
        .filter(|i| !i.is_warning())
        .map(|i| i.uri().into_owned())
        .collect();
    assert_eq!(uris, vec!["x://ok/1", "x://ok/3"]);
    assert_eq!(bundle.issues()[0].code(), IssueCode::Timeout);
    fx.gate.open();
    assert!(wait_for(|| ex.stats().hung == 0));
}

#[test]
fn a_hung_policy_completes_the_async_call_at_its_deadline() {
    let fx = fixture(1000);
    let _opener = Opener(fx.gate.clone());
    let ex = Executor::new(2).unwrap();
    let options = ReadOptions::from(call(&ex, Duration::from_millis(200), None));
    let (d, f) = done();
    let at = Instant::now();
    fx.registry
        .read_start(b"x://slowpolicy/p", &options, f)
        .unwrap();
    let e = d.wait().unwrap_err();
    let took = at.elapsed();
    assert_eq!(e.kind(), FailureKind::DeadlineExceeded);
    assert!(
        took >= Duration::from_millis(190) && took < Duration::from_secs(5),
        "{took:?}"
    );
    // A listing whose discover hangs too.
    let list = ListOptions {
        scope_key: b"k".to_vec(),
        page_size: 100,
        call: call(&ex, Duration::from_millis(200), None),
        ..ListOptions::default()
    };
    let (d, f) = done();
    fx.registry.list_start(&list, f).unwrap();
    assert_eq!(d.wait().unwrap_err().kind(), FailureKind::DeadlineExceeded);
    fx.gate.open();
    assert!(wait_for(|| ex.stats().hung == 0));
}

#[test]
fn freeing_the_registry_and_executor_in_flight_is_safe_and_releases_once_after_completion() {
    let fx = fixture(100);
    let _opener = Opener(fx.gate.clone());
    let ex = Executor::new(2).unwrap();
    let options = ReadOptions::from(call(&ex, Duration::from_secs(20), None));
    let Fixture {
        registry,
        gate,
        released,
    } = fx;
    let completed_before_release = Arc::new(AtomicUsize::new(0));
    let mut waits = Vec::new();
    for uri in ["x://ok/a", "x://multi", "x://hang/h"] {
        let (tx, rx) = bounded(1);
        let (rel, seen) = (released.clone(), completed_before_release.clone());
        registry
            .read_start(uri.as_bytes(), &options, move |r| {
                // The call still holds the registry: nothing released yet.
                if rel.load(Ordering::SeqCst) == 0 {
                    seen.fetch_add(1, Ordering::SeqCst);
                }
                let _ = tx.send(r.map(|b| b.is_partial()).map_err(|e| e.kind()));
            })
            .unwrap();
        waits.push(rx);
    }
    drop(options);
    drop(registry);
    drop(ex);
    let outcomes: Vec<_> = waits
        .iter()
        .map(|rx| rx.recv_timeout(Duration::from_secs(20)).unwrap())
        .collect();
    assert_eq!(outcomes[0], Ok(false));
    assert_eq!(outcomes[1], Ok(true));
    // The hung reader of the single-item read times out as an item; no
    // application item survives, so the read fails with its code.
    assert_eq!(outcomes[2], Err(FailureKind::Timeout));
    assert_eq!(completed_before_release.load(Ordering::SeqCst), 3);
    // The abandoned readers hold their tables until they return.
    gate.open();
    assert!(wait_for(|| released.load(Ordering::SeqCst) == 2));
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(released.load(Ordering::SeqCst), 2, "a table released twice");
}

#[test]
fn eight_threads_starting_async_calls_concurrently_each_complete_exactly_once() {
    const THREADS: usize = 8;
    const CALLS: usize = 200;
    let fx = fixture(1000);
    // Room for every call in the queue at once (beyond `max_queued` a call
    // is refused: a saturated executor's outcome, counted below).
    let ex = Executor::with_options(ExecutorOptions {
        threads: 2,
        max_queued: THREADS * CALLS,
        ..ExecutorOptions::default()
    })
    .unwrap();
    let runs = Arc::new(AtomicUsize::new(0));
    let ok = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (r, ex, runs, ok) = (fx.registry.clone(), ex.clone(), runs.clone(), ok.clone());
            std::thread::spawn(move || {
                let options = ReadOptions::from(call(&ex, Duration::from_secs(20), None));
                for i in 0..CALLS {
                    let uri = if (t + i) % 2 == 0 {
                        "x://ok/a"
                    } else {
                        "x://ok/b"
                    };
                    let (runs, ok) = (runs.clone(), ok.clone());
                    let want = format!("body of {uri}");
                    r.read_start(uri.as_bytes(), &options, move |b| {
                        runs.fetch_add(1, Ordering::SeqCst);
                        if b.is_ok_and(|b| b.json().contains(&want)) {
                            ok.fetch_add(1, Ordering::SeqCst);
                        }
                    })
                    .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert!(wait_for(|| runs.load(Ordering::SeqCst) == THREADS * CALLS));
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(runs.load(Ordering::SeqCst), THREADS * CALLS);
    assert_eq!(ok.load(Ordering::SeqCst), THREADS * CALLS);
    let released = fx.released.clone();
    drop(fx);
    drop(ex);
    assert!(wait_for(|| released.load(Ordering::SeqCst) == 2));
}

#[test]
fn a_saturated_executor_is_the_async_calls_outcome_not_a_start_error() {
    let fx = fixture(60_000);
    let _opener = Opener(fx.gate.clone());
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 1,
        max_queued: 0,
    })
    .unwrap();
    // Two hung readers take the worker and its one replacement.
    for _ in 0..2 {
        let options = ReadOptions::from(call(&ex, Duration::from_millis(100), None));
        let (d, f) = done();
        fx.registry.read_start(b"x://hang/h", &options, f).unwrap();
        let _ = d.wait();
    }
    assert!(wait_for(|| ex.stats().saturated()));
    let options = ReadOptions::from(call(&ex, Duration::from_secs(20), None));
    let (d, f) = done();
    let at = Instant::now();
    fx.registry.read_start(b"x://ok/a", &options, f).unwrap();
    let e = d.wait().unwrap_err();
    assert!(at.elapsed() < Duration::from_secs(5));
    assert_eq!(e.kind(), FailureKind::ReadFailed);
    assert!(
        e.cause_text().contains("executor saturated"),
        "{}",
        e.cause_text()
    );
    assert_ne!(*d.thread.lock().unwrap(), Some(std::thread::current().id()));
    fx.gate.open();
}

#[test]
fn async_list_templates_complete_and_request_answer_as_the_blocking_calls() {
    let fx = fixture(1000);
    let ex = Executor::new(2).unwrap();
    let c = call(&ex, Duration::from_secs(10), None);
    let list = ListOptions {
        scope_key: b"k".to_vec(),
        page_size: 2,
        call: c.clone(),
        ..ListOptions::default()
    };
    let (d, f) = done();
    fx.registry.list_start(&list, f).unwrap();
    let page = d.wait().unwrap();
    let blocking = fx.registry.list(&list).unwrap();
    assert_eq!(page.len(), 2);
    assert_eq!(page.json().len(), blocking.json().len());
    let (d, f) = done();
    fx.registry.list_templates_start(&list, f).unwrap();
    assert_eq!(
        d.wait().unwrap().json(),
        fx.registry.list_templates(&list).unwrap().json()
    );
    let params = CompleteParams {
        template: "x://t/{id}".into(),
        argument: "id".into(),
        value: "a".into(),
        context: vec![],
    };
    let complete = CompleteOptions::from(c.clone());
    let (d, f) = done();
    fx.registry.complete_start(&params, &complete, f).unwrap();
    assert_eq!(
        d.wait().unwrap().json(),
        fx.registry.complete(&params, &complete).unwrap().json()
    );
    let request = RequestOptions {
        scope_key: b"k".to_vec(),
        call: c,
        ..RequestOptions::default()
    };
    for (method, params) in [
        ("resources/read", r#"{"uri":"x://ok/b"}"#),
        ("resources/read", r#"{"uri":"x://none"}"#),
        ("resources/read", r#"{"uri":7}"#),
        (
            "resources/read",
            r#"{"uri":"x://ok/b","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}"#,
        ),
        ("resources/templates/list", ""),
        (
            "completion/complete",
            r#"{"ref":{"type":"ref/resource","uri":"x://t/{id}"},"argument":{"name":"id","value":""}}"#,
        ),
    ] {
        let (d, f) = done();
        fx.registry
            .request_start(method.as_bytes(), params.as_bytes(), &request, f)
            .unwrap();
        let got = d.wait().unwrap();
        let want = fx
            .registry
            .request(method.as_bytes(), params.as_bytes(), &request)
            .unwrap();
        assert_eq!(got.json(), want.json(), "{method} {params}");
        assert_eq!(got.is_error(), want.is_error());
        assert_eq!(got.protocol_revision(), want.protocol_revision());
    }
}

#[test]
fn an_async_request_refuses_unknown_methods_at_once_and_prompt_references_through_done() {
    let fx = fixture(1000);
    let ex = Executor::new(1).unwrap();
    let request = RequestOptions {
        call: call(&ex, Duration::from_secs(10), None),
        ..RequestOptions::default()
    };
    let e = fx
        .registry
        .request_start(b"tools/list", b"", &request, |_| panic!("never runs"))
        .unwrap_err();
    assert!(matches!(
        e,
        RequestStartError::Request(RequestError::MethodNotHandled)
    ));
    // A list method needs a scope key (a host mistake, reported at once).
    let e = fx
        .registry
        .request_start(b"resources/list", b"", &request, |_| panic!("never runs"))
        .unwrap_err();
    assert!(matches!(
        e,
        RequestStartError::Request(RequestError::InvalidArgument(_))
    ));
    let prompt = r#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}"#;
    let (d, f) = done();
    fx.registry
        .request_start(b"completion/complete", prompt.as_bytes(), &request, f)
        .unwrap();
    assert!(matches!(d.wait(), Err(RequestError::MethodNotHandled)));
    // A request whose deadline passes in a hung discover is an error
    // response, as from the blocking request.
    let _opener = Opener(fx.gate.clone());
    let short = RequestOptions {
        call: call(&ex, Duration::from_millis(100), None),
        ..RequestOptions::default()
    };
    let (d, f) = done();
    fx.registry
        .request_start(
            b"resources/read",
            br#"{"uri":"x://slowpolicy/p"}"#,
            &short,
            f,
        )
        .unwrap();
    let response = d.wait().unwrap();
    assert!(response.is_error());
    assert_eq!(
        response.failure().unwrap().kind(),
        FailureKind::DeadlineExceeded
    );
}

/// The reply's every part a host reads.
fn reply_parts(r: &Reply) -> (String, MessageKind, bool, String, String, Vec<u8>, bool) {
    (
        r.json().to_string(),
        r.kind(),
        r.is_handled(),
        r.method().to_string(),
        r.id().to_string(),
        r.params().to_vec(),
        r.is_error(),
    )
}

#[test]
fn an_async_message_answers_every_kind_of_message_as_the_blocking_message() {
    let fx = fixture(60_000);
    let executor = Executor::with_options(ExecutorOptions {
        threads: 2,
        ..ExecutorOptions::default()
    })
    .unwrap();
    let options = RequestOptions {
        call: call(&executor, Duration::from_secs(20), None),
        scope_key: b"tenant".to_vec(),
        ..RequestOptions::default()
    };
    let messages = [
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://ok/a"}}"#,
        r#"{"jsonrpc":"2.0","id":"r\u0041","method":"resources/read","params":{"uri":"x://nowhere"}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"resources/templates/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":[1]}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"x":1}}"#,
        r#"{"jsonrpc":"2.0","id":5,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"x://t/{id}"},"argument":{"name":"id","value":""}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"resources/read","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
        "not json",
        "[1]",
        " \n",
        r#"{"jsonrpc":"1.0","id":8,"method":"resources/read"}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"resources/read"}"#,
    ];
    let here = std::thread::current().id();
    for text in messages {
        let blocking = fx.registry.message(text.as_bytes(), &options).unwrap();
        let (d, then) = done();
        fx.registry
            .message_start(text.as_bytes(), &options, then)
            .unwrap();
        let reply = d.wait().unwrap();
        assert_eq!(reply_parts(&reply), reply_parts(&blocking), "{text}");
        assert_eq!(
            reply.failure().map(Failure::kind),
            blocking.failure().map(Failure::kind),
            "{text}"
        );
        assert_ne!(*d.thread.lock().unwrap(), Some(here), "{text}");
        assert_eq!(d.runs.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn an_async_message_is_answered_as_the_blocking_one_when_cancelled_and_host_mistakes_fail_its_start(
) {
    let fx = fixture(60_000);
    let executor = Executor::with_options(ExecutorOptions {
        threads: 2,
        ..ExecutorOptions::default()
    })
    .unwrap();
    let token = CancelToken::new();
    token.cancel();
    let options = RequestOptions {
        call: call(&executor, Duration::from_secs(20), Some(token)),
        ..RequestOptions::default()
    };
    // A request the call cancelled has nothing to send; a message that
    // needs no callback is answered all the same.
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://hang/h"}}"#,
        "not json",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        let blocking = fx.registry.message(text.as_bytes(), &options).unwrap();
        let (d, then) = done();
        fx.registry
            .message_start(text.as_bytes(), &options, then)
            .unwrap();
        let reply = d.wait().unwrap();
        assert_eq!(reply_parts(&reply), reply_parts(&blocking), "{text}");
    }
    // A list method without a scope key, and no executor: the start fails
    // and the completion never runs.
    let list = br#"{"jsonrpc":"2.0","id":3,"method":"resources/list"}"#;
    let (d, then) = done::<Result<Reply, RequestError>>();
    assert!(matches!(
        fx.registry.message_start(list, &options, then),
        Err(RequestStartError::Request(RequestError::InvalidArgument(_)))
    ));
    let (e, then_e) = done::<Result<Reply, RequestError>>();
    let inline = RequestOptions::default();
    assert!(matches!(
        fx.registry.message_start(b"not json", &inline, then_e),
        Err(RequestStartError::Failed(f)) if f.kind() == FailureKind::InvalidArgument
    ));
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(d.runs.load(Ordering::SeqCst), 0);
    assert_eq!(e.runs.load(Ordering::SeqCst), 0);
}
