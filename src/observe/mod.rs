//! Observability (docs/BEHAVIOUR.md §19): an optional [`Observer`] set on
//! the builder receives one [`CallEvent`] per call and, when it asks,
//! [`DecisionEvent`]s; every registry keeps call metrics without one
//! ([`OutcomeMetrics`], `Resources::metrics`).
//!
//! The hooks: the call frame (`call.rs`) asks [`Telemetry::begin`] for a
//! [`Recorder`] (only when an observer needs one), puts it in the call's
//! request scope, and hands the outcome to [`Telemetry::end`], which
//! counts the call and emits a failed call's root decision and the call
//! event; the
//! read pipeline, the listing and the completion time their callbacks
//! through the scope's recorder and emit their item and definition
//! decisions through it. Nothing here is allocated, and no clock is read,
//! for a registry without an observer, beyond the frame's own clock reads.
//!
//! Layout: `event.rs` (the events), `recorder.rs` (one observed call),
//! `metrics.rs` (the counters), `hash.rs` (keyed hashes of identifiers),
//! `json.rs` (events as JSON lines).

mod event;
mod hash;
mod json;
mod metrics;
mod recorder;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::error::Failure;
use crate::protocol::ProtocolRevision;

pub use event::{
    CallEvent, CallMethod, CallbackKind, CallbackStats, DecisionEvent, DecisionPhase, DecisionRule,
    DecisionSubject, IssueCounts, ResultSummary,
};
pub use hash::EventHash;
pub use metrics::{OutcomeMetrics, LATENCY_BUCKETS};

pub(crate) use event::{Observed, Subject, MAX_DISCLOSED_URI_BYTES};
pub(crate) use hash::EventHasher;
pub(crate) use metrics::Metrics;
pub(crate) use recorder::Recorder;

/// What an observer asks for, beyond one call event per call (read once,
/// when the registry is built).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interests {
    /// Decision events: every planned item's final decision, every
    /// definition a listing visits, and a failed call's root decision.
    pub decisions: bool,
    /// Per-kind callback counts and times in the call event (two clock
    /// reads per callback).
    pub callback_timings: bool,
}

/// Receives the events of a registry's calls (set with
/// [`ResourcesBuilder::observer`](crate::ResourcesBuilder::observer)).
///
/// Called on the calling thread or, with an executor, on a worker (a
/// read's item decisions and a listing's definition decisions are made
/// there), concurrently from many calls: it must not block. A panic is
/// caught and changes no result.
pub trait Observer: Send + Sync {
    /// What the observer wants besides call events (default: nothing).
    fn interests(&self) -> Interests {
        Interests::default()
    }

    /// One call returned.
    fn call(&self, event: &CallEvent<'_>);

    /// One decision of a call, when [`Interests::decisions`] is set.
    fn decision(&self, event: &DecisionEvent<'_>) {
        let _ = event;
    }
}

/// The observer and the event hash key of a registry.
pub(crate) struct Shared {
    observer: Option<Arc<dyn Observer>>,
    interests: Interests,
    hasher: Arc<EventHasher>,
}

/// A registry's observability: its observer (if any), its event hash key
/// and its metrics.
pub(crate) struct Telemetry {
    shared: Arc<Shared>,
    metrics: Metrics,
}

/// Call numbers, process-wide.
static NEXT_CALL: AtomicU64 = AtomicU64::new(1);

fn next_call_id() -> u64 {
    NEXT_CALL.fetch_add(1, Ordering::Relaxed)
}

/// How a call ended, for [`Telemetry::end`].
pub(crate) struct Ended<'a> {
    pub method: CallMethod,
    pub protocol_revision: ProtocolRevision,
    pub started: Instant,
    /// When the frame last read the clock, if it did at the end.
    pub ended: Option<Instant>,
    pub subject: Subject<'a>,
    pub request_data: Option<&'a (dyn std::any::Any + Send + Sync)>,
}

impl Telemetry {
    /// The telemetry of a new registry: `observer` (its interests asked
    /// once, a panic read as none) and the event hash key `key`.
    pub(crate) fn new(observer: Option<Arc<dyn Observer>>, key: Option<&[u8]>) -> Telemetry {
        let interests = observer.as_ref().map_or(Interests::default(), |o| {
            catch_unwind(AssertUnwindSafe(|| o.interests())).unwrap_or_default()
        });
        Telemetry {
            shared: Arc::new(Shared {
                observer,
                interests,
                hasher: Arc::new(EventHasher::new(key)),
            }),
            metrics: Metrics::new(),
        }
    }

    /// Whether the registry has an observer.
    #[inline]
    pub(crate) fn observes(&self) -> bool {
        self.shared.observer.is_some()
    }

    /// The keyed hash of `bytes` under the registry's event hash key.
    pub(crate) fn hash(&self, bytes: &[u8]) -> EventHash {
        self.shared.hasher.hash(bytes)
    }

    /// The metrics of `method` and `outcome` (0 success, else a failure
    /// kind's value).
    pub(crate) fn metrics(&self, method: CallMethod, outcome: u32) -> OutcomeMetrics {
        self.metrics.get(method, outcome)
    }

    /// The record of a call starting at `started`, when the observer
    /// needs one: for decision events, callback timings, or a queue wait
    /// on an executor (`on_executor`). Without an executor the record
    /// borrows the registry (see [`Recorder`]): the caller keeps it on its
    /// stack and drops it before the registry.
    #[inline]
    pub(crate) fn begin(
        &self,
        method: CallMethod,
        protocol_revision: ProtocolRevision,
        started: Instant,
        on_executor: bool,
    ) -> Option<Recorder> {
        self.shared.observer.as_ref()?;
        let i = self.shared.interests;
        if !(i.decisions || i.callback_timings || on_executor) {
            return None;
        }
        Some(Recorder::new(
            &self.shared,
            !on_executor,
            next_call_id(),
            method,
            protocol_revision,
            started,
        ))
    }

    /// A call ended with `out`: counted, and observed (its root decision,
    /// then its call event).
    #[inline]
    pub(crate) fn end<T: Observed + ?Sized>(
        &self,
        call: Ended<'_>,
        out: Result<&T, &Failure>,
        recorder: Option<&Recorder>,
    ) {
        let ended = call.ended.unwrap_or_else(Instant::now);
        let duration = ended.saturating_duration_since(call.started);
        let (outcome, partial) = match out {
            Ok(v) => (0, v.is_partial()),
            Err(f) => (f.kind() as u32, false),
        };
        self.metrics
            .record(call.method, outcome, partial, metrics::nanos(duration));
        if let Some(observer) = &self.shared.observer {
            let out = out.map(|v| (v.summary(), v.discloses_subject()));
            self.observe(observer.as_ref(), &call, duration, out, recorder);
        }
    }

    /// A call refused before its frame (a host mistake in its options,
    /// params the strict reader refused): counted and observed like any.
    pub(crate) fn unframed(&self, call: Ended<'_>, failure: &Failure) {
        self.end::<Never>(call, Err(failure), None);
    }

    #[cold]
    fn observe(
        &self,
        observer: &dyn Observer,
        call: &Ended<'_>,
        duration: std::time::Duration,
        result: Result<(ResultSummary, bool), &Failure>,
        recorder: Option<&Recorder>,
    ) {
        let closed = recorder.map(Recorder::close);
        let call_id = recorder.map_or_else(next_call_id, |r| r.call_id);
        let hasher = &self.shared.hasher;
        let disclosed = matches!(result, Ok((_, true)));
        if let (true, Err(failure)) = (self.shared.interests.decisions, result) {
            let root = closed.as_ref().and_then(|c| c.root);
            let event = root_decision(call, call_id, failure, root, hasher);
            let _ = catch_unwind(AssertUnwindSafe(|| observer.decision(&event)));
        }
        let event = CallEvent {
            call_id,
            method: call.method,
            protocol_revision: call.protocol_revision,
            duration,
            queue_wait: closed.as_ref().and_then(|c| c.queue_wait),
            request_data: call.request_data,
            result: result.map(|(s, _)| s),
            callbacks: closed.and_then(|c| c.callbacks),
            subject: call.subject,
            disclosed,
            hasher,
        };
        let _ = catch_unwind(AssertUnwindSafe(|| observer.call(&event)));
    }
}

/// The root decision of a failed call: the decision a callback made (when
/// the failure is the one it produced), else the one the failure's kind
/// reads as. Every root decision of a call that answered not found is
/// private.
#[inline(always)]
fn root_decision<'a>(
    call: &Ended<'a>,
    call_id: u64,
    failure: &'a Failure,
    root: Option<recorder::RootDecision>,
    hasher: &'a EventHasher,
) -> DecisionEvent<'a> {
    let hashed = match call.subject {
        Subject::Uri(u) => Some(u),
        Subject::Template(t) => Some(t.as_bytes()),
        _ => None,
    };
    let (rule, phase) = match root.filter(|r| r.kind == failure.kind()) {
        Some(r) => (r.rule, r.phase),
        None => (DecisionRule::of_failure(failure.kind()), None),
    };
    let private =
        failure.kind() == crate::error::FailureKind::Unavailable || rule == DecisionRule::Hidden;
    DecisionEvent {
        call_id,
        method: call.method,
        protocol_revision: call.protocol_revision,
        rule,
        phase,
        issue: None,
        request_data: call.request_data,
        subject: DecisionSubject::Root,
        item: None,
        private,
        uri: None,
        hashed,
        cause: None,
        failure: Some(failure),
        hasher,
    }
}

/// The telemetry of calls that belong to no registry (a list change
/// between two registries): no observer, so no event and no record; its
/// metrics are counted and never read.
pub(crate) fn unobserved() -> &'static Telemetry {
    static UNOBSERVED: std::sync::OnceLock<Telemetry> = std::sync::OnceLock::new();
    UNOBSERVED.get_or_init(|| Telemetry::new(None, None))
}

/// No value: the result type of a call refused before its frame.
enum Never {}

impl Observed for Never {
    fn summary(&self) -> ResultSummary {
        match *self {}
    }
    fn discloses_subject(&self) -> bool {
        match *self {}
    }
    fn is_partial(&self) -> bool {
        match *self {}
    }
}

/// [`Recorder::time_uncounted`] when the call is observed.
#[inline]
pub(crate) fn timed_uncounted<T>(
    recorder: Option<&Recorder>,
    kind: CallbackKind,
    f: impl FnOnce() -> T,
) -> T {
    match recorder {
        None => f(),
        Some(r) => r.time_uncounted(kind, f),
    }
}

/// Runs the callback `f` of `kind`, timed through `recorder` when there
/// is one.
#[inline(always)]
pub(crate) fn timed<T>(
    recorder: Option<&Recorder>,
    kind: CallbackKind,
    f: impl FnOnce() -> T,
) -> T {
    // An observer that asked for no callback timings (decision events
    // only) runs the callback here, as without an observer: the
    // out-of-line `Recorder::time` (its frame, the closure's captures and
    // the result moved through it) is for timed callbacks only.
    match recorder {
        Some(r) if r.timings() => r.time(kind, f),
        _ => f(),
    }
}
