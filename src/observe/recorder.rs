//! The record of one observed call, shared by the call's frame and its
//! jobs (it lives in the call's request scope): callback counts and
//! timings, the executor queue wait, the root decision a callback made,
//! and the gate through which decision events pass.
//!
//! A call is recorded only when its registry has an observer that needs
//! it (decision events, callback timings, or a queue wait to measure on
//! an executor); otherwise no recorder exists and every hook is one
//! branch on `None`. An inline call's record lives on its frame's stack
//! and borrows the registry's observer ([`Sink::Lent`]: nothing is
//! allocated or reference counted); a call on an executor boxes it, and
//! it holds the observer until the frame closes it ([`Sink::Held`]).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::FailureKind;
use crate::protocol::ProtocolRevision;

use super::event::{
    CallMethod, CallbackKind, CallbackStats, DecisionEvent, DecisionPhase, DecisionRule,
};
use super::hash::EventHasher;
use super::{Interests, Observer, Shared};

/// "Not measured" in the atomics below.
const NONE: u64 = u64::MAX;

/// The root decision a callback made that failed the call, with the
/// failure kind it produced (`Some` only when the call's failure has that
/// kind: a job its call gave up on may still decide after the call
/// ended).
#[derive(Clone, Copy)]
pub(crate) struct RootDecision {
    pub rule: DecisionRule,
    pub phase: Option<DecisionPhase>,
    pub kind: FailureKind,
}

/// Where a record's decision events go.
enum Sink {
    /// The registry's observer and hash key, borrowed by an inline call's
    /// record: the record lives on the frame's stack, and the frame holds
    /// the registry for as long as it lives; events are handed over on the
    /// calling thread while the frame runs, so no gate is needed.
    Lent(NonNull<Shared>),
    /// Held by the record of a call on an executor, shared with its jobs.
    Held {
        hasher: Arc<EventHasher>,
        /// The observer while the call runs: the frame takes it when it
        /// closes the record, so decision events pass only until then
        /// (none follows its call's call event), and a job the call gave
        /// up on holds no reference to the observer (the registry's last
        /// reference releases it, as it releases the callback tables).
        gate: Mutex<Option<Arc<dyn Observer>>>,
    },
}

/// One observed call.
pub(crate) struct Recorder {
    /// What the observer asked for.
    interests: Interests,
    sink: Sink,
    pub(crate) call_id: u64,
    pub(crate) method: CallMethod,
    pub(crate) protocol_revision: ProtocolRevision,
    started: Instant,
    calls: [AtomicU64; CallbackKind::COUNT],
    ns: [AtomicU64; CallbackKind::COUNT],
    /// Nanoseconds from `started` to the first job's submission.
    submitted: AtomicU64,
    queue_wait: AtomicU64,
    /// `rule | phase << 8 | kind << 16`, plus one: 0 is none.
    root: AtomicU32,
}

// SAFETY: a `Sink::Lent` pointer is only dereferenced on the calling
// thread of an inline call, while its frame (which owns the record and
// borrows the registry) runs (see `RequestScope::recorder`); everything
// else in a record is `Send + Sync`.
unsafe impl Send for Recorder {}
// SAFETY: as above.
unsafe impl Sync for Recorder {}

fn phase_code(p: Option<DecisionPhase>) -> u32 {
    match p {
        None => 0,
        Some(p) => 1 + p as u32,
    }
}

fn phase_of(code: u32) -> Option<DecisionPhase> {
    use DecisionPhase::*;
    [FirstCheck, Recheck, Resolve, BodyRead, Listing, Completion]
        .into_iter()
        .find(|p| 1 + *p as u32 == code)
}

fn rule_of(code: u32) -> DecisionRule {
    use DecisionRule::*;
    [
        Allowed,
        Admitted,
        Hidden,
        Denied,
        Revoked,
        NewlyVisible,
        ItemFailed,
        BudgetExceeded,
        Timeout,
        NotFound,
        Invalid,
        Failed,
        Canceled,
        DeadlineExceeded,
    ]
    .into_iter()
    .find(|r| *r as u32 == code)
    .unwrap_or(Failed)
}

fn kind_of(code: u32) -> FailureKind {
    FailureKind::all()
        .into_iter()
        .find(|k| *k as u32 == code)
        .unwrap_or(FailureKind::Policy)
}

impl Recorder {
    /// The record of a call of the registry of `shared`: lent (borrowing
    /// it) for an inline call, held otherwise.
    pub(super) fn new(
        shared: &Shared,
        lent: bool,
        call_id: u64,
        method: CallMethod,
        protocol_revision: ProtocolRevision,
        started: Instant,
    ) -> Recorder {
        let sink = if lent {
            Sink::Lent(NonNull::from(shared))
        } else {
            Sink::Held {
                hasher: shared.hasher.clone(),
                gate: Mutex::new(shared.observer.clone()),
            }
        };
        Recorder {
            interests: shared.interests,
            sink,
            call_id,
            method,
            protocol_revision,
            started,
            calls: Default::default(),
            ns: Default::default(),
            submitted: AtomicU64::new(NONE),
            queue_wait: AtomicU64::new(NONE),
            root: AtomicU32::new(0),
        }
    }

    /// The registry's observer and hash key, borrowed by a lent record.
    #[inline]
    fn lent(&self) -> Option<&Shared> {
        match self.sink {
            // SAFETY: a lent record is used only while its frame runs,
            // which holds the registry (see `Sink::Lent`).
            Sink::Lent(p) => Some(unsafe { p.as_ref() }),
            Sink::Held { .. } => None,
        }
    }

    fn interests(&self) -> Interests {
        self.interests
    }

    /// Whether the observer wants decision events.
    #[inline]
    pub(crate) fn decisions(&self) -> bool {
        self.interests().decisions
    }

    /// Whether the observer asked for callback timings.
    #[inline]
    pub(crate) fn timings(&self) -> bool {
        self.interests().callback_timings
    }

    /// Runs the callback `f` of `kind`, counted and timed when the
    /// observer asked for callback timings. Out of line: the unobserved
    /// call's path (`observe::timed` without a recorder) keeps the
    /// callback inlined once.
    #[inline(never)]
    pub(crate) fn time<T>(&self, kind: CallbackKind, f: impl FnOnce() -> T) -> T {
        if !self.interests().callback_timings {
            return f();
        }
        let t = Instant::now();
        let out = f();
        let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.calls[kind.index()].fetch_add(1, Ordering::Relaxed);
        self.ns[kind.index()].fetch_add(ns, Ordering::Relaxed);
        out
    }

    /// Runs `f`, a call that answers for callbacks of `kind` counted one by
    /// one as their answers are used (a plan-level policy decision): its
    /// time is added to `kind` when the observer asked for callback
    /// timings, its count is not.
    #[inline(never)]
    pub(crate) fn time_uncounted<T>(&self, kind: CallbackKind, f: impl FnOnce() -> T) -> T {
        if !self.interests().callback_timings {
            return f();
        }
        let t = Instant::now();
        let out = f();
        let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.ns[kind.index()].fetch_add(ns, Ordering::Relaxed);
        out
    }

    /// The call's first job is submitted to an executor now.
    pub(crate) fn submitted(&self) {
        let ns = u64::try_from(self.started.elapsed().as_nanos()).unwrap_or(NONE - 1);
        let _ = self
            .submitted
            .compare_exchange(NONE, ns, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The call's first job starts on a worker now.
    pub(crate) fn job_started(&self) {
        let at = self.submitted.load(Ordering::Relaxed);
        if at == NONE {
            return;
        }
        let now = u64::try_from(self.started.elapsed().as_nanos()).unwrap_or(NONE - 1);
        let _ = self.queue_wait.compare_exchange(
            NONE,
            now.saturating_sub(at),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// A callback's answer decided the root and fails the call with
    /// `kind` (the first such decision is kept).
    pub(crate) fn root_decided(
        &self,
        rule: DecisionRule,
        phase: Option<DecisionPhase>,
        kind: FailureKind,
    ) {
        if !self.decisions() {
            return;
        }
        let code = (rule as u32 | phase_code(phase) << 8 | (kind as u32) << 16) + 1;
        let _ = self
            .root
            .compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The hasher of the registry's event hashes.
    pub(crate) fn hasher(&self) -> &EventHasher {
        match &self.sink {
            Sink::Held { hasher, .. } => hasher,
            Sink::Lent(_) => &self.lent().expect("a lent record").hasher,
        }
    }

    /// Hands `event` to the observer, unless the call has already ended;
    /// a panic of the observer is contained. Inlined into its one caller
    /// per kind of decision (a call per item otherwise).
    #[inline]
    pub(crate) fn decide(&self, event: &DecisionEvent<'_>) {
        let send = |observer: &dyn Observer| {
            let _ = catch_unwind(AssertUnwindSafe(|| observer.decision(event)));
        };
        match &self.sink {
            Sink::Lent(_) => {
                if let Some(observer) = self.lent().and_then(|s| s.observer.as_deref()) {
                    send(observer);
                }
            }
            Sink::Held { gate, .. } => {
                let open = gate.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(observer) = open.as_deref() {
                    send(observer);
                }
                drop(open);
            }
        }
    }

    /// Ends the record (no decision event passes from now on) and gives
    /// what it holds: the callback statistics (when timed), the queue wait
    /// (when measured) and the root decision a callback made. Inlined into
    /// the frame's observation, its one caller: the statistics (about 100
    /// bytes) are then made only when timed, not written and copied.
    #[inline]
    pub(crate) fn close(&self) -> Closed {
        if let Sink::Held { gate, .. } = &self.sink {
            let observer = gate.lock().unwrap_or_else(|p| p.into_inner()).take();
            drop(observer);
        }
        let callbacks = self.interests().callback_timings.then(|| {
            let mut s = CallbackStats::default();
            for k in 0..CallbackKind::COUNT {
                s.calls[k] = self.calls[k].load(Ordering::Relaxed);
                s.ns[k] = self.ns[k].load(Ordering::Relaxed);
            }
            s
        });
        let wait = self.queue_wait.load(Ordering::Relaxed);
        let root = match self.root.load(Ordering::Relaxed) {
            0 => None,
            c => {
                let c = c - 1;
                Some(RootDecision {
                    rule: rule_of(c & 0xff),
                    phase: phase_of((c >> 8) & 0xff),
                    kind: kind_of(c >> 16),
                })
            }
        };
        Closed {
            callbacks,
            queue_wait: (wait != NONE).then(|| Duration::from_nanos(wait)),
            root,
        }
    }
}

/// What a closed record held.
pub(crate) struct Closed {
    pub callbacks: Option<CallbackStats>,
    pub queue_wait: Option<Duration>,
    pub root: Option<RootDecision>,
}
