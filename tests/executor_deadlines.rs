//! docs/BEHAVIOUR.md §8: with an executor, every callback of a read or
//! listing runs on its workers and the call returns by its deadline. Each callback kind blocks forever (until
//! the test opens its gate at the very end): the call still returns by its
//! deadline (`deadline_exceeded`, or an item `timeout` for body reads), and
//! promptly with `canceled` on cancellation. Bounds are generous (deadline
//! + 2 s): the machine is small and shared.

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use mcp_resources::*;

/// A latch blocked callbacks wait on; opened when the test ends (also on
/// panic), so that no thread is left blocked.
#[derive(Default)]
struct Gate {
    open: Mutex<bool>,
    cv: Condvar,
    waiting: AtomicUsize,
    returned: AtomicUsize,
}

impl Gate {
    fn wait(&self) {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.cv.wait(open).unwrap();
        }
        self.returned.fetch_add(1, Ordering::SeqCst);
    }
    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.cv.notify_all();
    }
    fn wait_returned(&self, n: usize) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while self.returned.load(Ordering::SeqCst) < n {
            if Instant::now() > until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }
}

/// Opens the gate when dropped.
struct Opener(Arc<Gate>);
impl Drop for Opener {
    fn drop(&mut self) {
        self.0.open();
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Block {
    Nothing,
    Discover,
    /// The second `discover` (the recheck after the body reads).
    RecheckDiscover,
    Visibility,
    Permission,
    Resolve,
    /// The body read of `x://hang`.
    Body,
}

struct Policy {
    block: Block,
    gate: Arc<Gate>,
    discovers: AtomicUsize,
}

impl ResourcePolicy for Policy {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        let n = self.discovers.fetch_add(1, Ordering::SeqCst);
        if self.block == Block::Discover || (self.block == Block::RecheckDiscover && n == 1) {
            self.gate.wait();
        }
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        if self.block == Block::Visibility {
            self.gate.wait();
        }
        Ok(Visibility::DISCLOSED)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        if self.block == Block::Permission {
            self.gate.wait();
        }
        Ok(())
    }
}

struct Handler {
    block: Block,
    gate: Arc<Gate>,
    items: Vec<&'static str>,
    dropped: Arc<AtomicBool>,
}

impl Drop for Handler {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::SeqCst);
    }
}

impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        if self.block == Block::Resolve {
            self.gate.wait();
        }
        let requested = ResourceTarget::new(m.uri(), "", None).map_err(CallbackError::failed)?;
        let items = self
            .items
            .iter()
            .map(|u| ResourceTarget::new(u, "", None).map_err(CallbackError::failed))
            .collect::<Result<Vec<_>, _>>()?;
        ResourceReadPlan::new(requested, items).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        if self.block == Block::Body && t.uri() == "x://hang" {
            self.gate.wait();
        }
        ResourcePayload::text_owned("text/plain", format!("body of {}", t.uri()))
            .map_err(CallbackError::failed)
    }
}

struct Setup {
    registry: Resources,
    gate: Arc<Gate>,
    handler_dropped: Arc<AtomicBool>,
    _opener: Opener,
}

fn setup(block: Block, items: &[&'static str], item_timeout_ms: i64) -> Setup {
    let gate = Arc::new(Gate::default());
    let dropped = Arc::new(AtomicBool::new(false));
    let handler = Arc::new(Handler {
        block,
        gate: gate.clone(),
        items: items.to_vec(),
        dropped: dropped.clone(),
    });
    let registry = Resources::builder()
        .policy(Arc::new(Policy {
            block,
            gate: gate.clone(),
            discovers: AtomicUsize::new(0),
        }))
        .limits(ResourceLimits::new().with(Limit::ItemTimeoutMs, item_timeout_ms))
        .binding(ResourceBinding::new(r#"{"uri":"x://bundle","name":"b"}"#, handler).unwrap())
        .build()
        .unwrap();
    Setup {
        registry,
        gate: gate.clone(),
        handler_dropped: dropped,
        _opener: Opener(gate),
    }
}

const DEADLINE: Duration = Duration::from_millis(200);
const SLACK: Duration = Duration::from_secs(2);

fn read_with_deadline(s: &Setup, ex: &Executor) -> (Result<ResourceBundle, Failure>, Duration) {
    let o = ReadOptions::from(CallOptions {
        timeout: Some(DEADLINE),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    let start = Instant::now();
    let r = s.registry.read(b"x://bundle", &o);
    (r, start.elapsed())
}

fn assert_deadline_exceeded_in_time(block: Block) {
    let ex = Executor::new(2).unwrap();
    let s = setup(block, &["x://a", "x://b"], 10_000);
    let (r, took) = read_with_deadline(&s, &ex);
    assert_eq!(
        r.unwrap_err().kind(),
        FailureKind::DeadlineExceeded,
        "{block:?}"
    );
    assert!(took < DEADLINE + SLACK, "{block:?}: took {took:?}");
    // The blocked callback is still running: abandoned, not interrupted.
    assert_eq!(s.gate.returned.load(Ordering::SeqCst), 0);
    assert_eq!(ex.stats().hung, 1, "{block:?}");
    s.gate.open();
    assert!(s.gate.wait_returned(1));
}

#[test]
fn discover_blocking_forever_with_an_executor_returns_deadline_exceeded_by_the_read_deadline() {
    assert_deadline_exceeded_in_time(Block::Discover);
}

#[test]
fn visibility_blocking_forever_with_an_executor_returns_deadline_exceeded_by_the_read_deadline() {
    assert_deadline_exceeded_in_time(Block::Visibility);
}

#[test]
fn read_permission_blocking_forever_with_an_executor_returns_deadline_exceeded_by_the_read_deadline(
) {
    assert_deadline_exceeded_in_time(Block::Permission);
}

#[test]
fn resolve_blocking_forever_with_an_executor_returns_deadline_exceeded_by_the_read_deadline() {
    assert_deadline_exceeded_in_time(Block::Resolve);
}

#[test]
fn recheck_discover_blocking_forever_with_an_executor_returns_deadline_exceeded_by_the_read_deadline(
) {
    assert_deadline_exceeded_in_time(Block::RecheckDiscover);
}

// A body read blocking forever is abandoned at its item deadline; the read
// continues with its siblings on another worker, rechecks and returns a
// partial bundle well before the read deadline.
#[test]
fn body_read_blocking_forever_is_a_timeout_item_and_the_siblings_are_read() {
    let ex = Executor::new(2).unwrap();
    let s = setup(Block::Body, &["x://a", "x://hang", "x://b"], 100);
    let o = ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_secs(20)),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    let start = Instant::now();
    let b = s.registry.read(b"x://bundle", &o).unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_millis(100) + SLACK, "took {took:?}");
    assert!(b.is_partial());
    let uris: Vec<_> = b
        .items()
        .filter(|i| !i.is_warning())
        .map(|i| i.uri().into_owned())
        .collect();
    assert_eq!(uris, ["x://a", "x://b"]);
    assert_eq!(b.issues().len(), 1);
    assert_eq!(b.issues()[0].code(), IssueCode::Timeout);
    let st = ex.stats();
    assert_eq!((st.hung, st.abandoned), (1, 1));
    // The registry goes away while the reader is still blocked: the
    // binding's handler stays alive until the reader returns.
    let Setup {
        registry,
        gate,
        handler_dropped,
        _opener,
    } = s;
    drop(registry);
    assert!(!handler_dropped.load(Ordering::SeqCst));
    gate.open();
    assert!(gate.wait_returned(1));
    let until = Instant::now() + Duration::from_secs(10);
    while !(handler_dropped.load(Ordering::SeqCst) && ex.stats().hung == 0) {
        assert!(Instant::now() < until, "handler released after return");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Capacity returned: the replacement retired, the pool is back to two.
    let until = Instant::now() + Duration::from_secs(10);
    while ex.live_workers() != 2 {
        assert!(Instant::now() < until, "workers back to 2");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(ex.stats().returned, 1);
}

// The only item blocking forever: no item survives, the read fails with the
// item's code.
#[test]
fn only_body_read_blocking_forever_fails_the_read_with_timeout_by_its_item_deadline() {
    let ex = Executor::new(2).unwrap();
    let s = setup(Block::Body, &["x://hang"], 100);
    let (r, took) = read_with_deadline(&s, &ex);
    assert_eq!(r.unwrap_err().kind(), FailureKind::Timeout);
    assert!(took < DEADLINE + SLACK, "took {took:?}");
}

fn list_options(ex: &Executor, cancel: Option<CancelToken>) -> ListOptions {
    ListOptions {
        scope_key: b"scope".to_vec(),
        call: CallOptions {
            timeout: Some(DEADLINE),
            cancel,
            executor: Some(ex.clone()),
            ..CallOptions::default()
        },
        ..ListOptions::default()
    }
}

#[test]
fn listing_discover_blocking_forever_with_an_executor_returns_deadline_exceeded_by_its_deadline() {
    let ex = Executor::new(2).unwrap();
    let s = setup(Block::Discover, &["x://a"], 10_000);
    for templates in [false, true] {
        let start = Instant::now();
        let o = list_options(&ex, None);
        let r = if templates {
            // No template is registered: no discover runs, the page is
            // empty (and a blocking discover cannot matter).
            s.registry.list_templates(&o).map(|p| p.len())
        } else {
            s.registry.list(&o).map(|p| p.len())
        };
        let took = start.elapsed();
        if templates {
            assert_eq!(r.unwrap(), 0);
        } else {
            assert_eq!(r.unwrap_err().kind(), FailureKind::DeadlineExceeded);
        }
        assert!(took < DEADLINE + SLACK, "took {took:?}");
    }
    assert_eq!(ex.stats().hung, 1);
}

fn cancel_soon(token: &CancelToken) -> std::thread::JoinHandle<()> {
    let t = token.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        t.cancel();
    })
}

#[test]
fn cancellation_during_a_blocking_callback_returns_canceled_promptly() {
    for block in [
        Block::Discover,
        Block::Visibility,
        Block::Permission,
        Block::Resolve,
        Block::Body,
        Block::RecheckDiscover,
    ] {
        let ex = Executor::new(2).unwrap();
        let s = setup(block, &["x://hang", "x://a"], 20_000);
        let token = CancelToken::new();
        let canceller = cancel_soon(&token);
        let o = ReadOptions::from(CallOptions {
            timeout: Some(Duration::from_secs(30)),
            cancel: Some(token),
            executor: Some(ex.clone()),
            ..CallOptions::default()
        });
        let start = Instant::now();
        let r = s.registry.read(b"x://bundle", &o);
        let took = start.elapsed();
        assert_eq!(r.unwrap_err().kind(), FailureKind::Canceled, "{block:?}");
        assert!(took < SLACK, "{block:?}: took {took:?}");
        canceller.join().unwrap();
    }
    // And a listing.
    let ex = Executor::new(2).unwrap();
    let s = setup(Block::Discover, &["x://a"], 10_000);
    let token = CancelToken::new();
    let canceller = cancel_soon(&token);
    let mut o = list_options(&ex, Some(token));
    o.call.timeout = Some(Duration::from_secs(30));
    let start = Instant::now();
    assert_eq!(
        s.registry.list(&o).unwrap_err().kind(),
        FailureKind::Canceled
    );
    assert!(start.elapsed() < SLACK);
    canceller.join().unwrap();
}

// Inline (no executor) keeps its documented limit: a blocking callback
// holds the caller until it returns; the deadline is then reported.
#[test]
fn inline_mode_is_unchanged_a_slow_discover_holds_the_caller_until_it_returns() {
    struct Slow;
    impl ResourcePolicy for Slow {
        fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
            std::thread::sleep(Duration::from_millis(300));
            Ok(())
        }
        fn visibility(
            &self,
            _: &CallContext,
            _: &ResourceTarget,
        ) -> Result<Visibility, CallbackError> {
            Ok(Visibility::VISIBLE)
        }
        fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
            Ok(())
        }
    }
    let s = setup(Block::Nothing, &["x://a"], 10_000);
    let r = Resources::builder()
        .policy(Arc::new(Slow))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"x://bundle","name":"b"}"#,
                s.registry.bindings()[0].handler().clone(),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let o = ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_millis(50)),
        ..CallOptions::default()
    });
    let start = Instant::now();
    assert_eq!(
        r.read(b"x://bundle", &o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
    assert!(start.elapsed() >= Duration::from_millis(300));
}

// With an executor and nothing blocking, reads and listings give the same
// results as inline.
#[test]
fn executor_and_inline_reads_and_listings_agree() {
    let ex = Executor::new(2).unwrap();
    let s = setup(Block::Nothing, &["x://a", "x://b"], 10_000);
    let inline = s.registry.read(b"x://bundle", &ReadOptions::default());
    let pooled = s.registry.read(
        b"x://bundle",
        &ReadOptions::from(CallOptions {
            executor: Some(ex.clone()),
            ..CallOptions::default()
        }),
    );
    // The warning identity is random per read; complete bundles have none.
    assert_eq!(inline.unwrap().json(), pooled.unwrap().json());
    let mut o = list_options(&ex, None);
    let pooled = s.registry.list(&o).unwrap().into_json();
    o.call.executor = None;
    assert_eq!(s.registry.list(&o).unwrap().into_json(), pooled);
    // Errors agree too: an unknown URI is `unavailable` either way.
    for executor in [None, Some(ex.clone())] {
        let o = ReadOptions::from(CallOptions {
            executor,
            ..CallOptions::default()
        });
        assert_eq!(
            s.registry.read(b"x://nope", &o).unwrap_err().kind(),
            FailureKind::Unavailable
        );
    }
    assert_eq!(ex.stats().hung, 0);
}
