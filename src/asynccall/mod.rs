//! Asynchronous calls (docs/BEHAVIOUR.md §20): a call on an executor that
//! returns at once and concludes later, exactly once, through its
//! completion (`then`), on an executor thread.
//!
//! An [`AsyncCall`] is the call's own first job: the start call (on the
//! host's thread) fixes the call's deadline, asks the executor's admission
//! and queues the call; a worker makes its request scope and runs its body
//! (the method's steps, the same as the blocking call's, in a
//! [`Frame::detached`]); and the
//! executor's watch (`executor/watch.rs`) looks after it meanwhile, as a
//! blocking caller waiting on the executor would: at the deadline or on
//! cancellation it gives the job up and concludes the call, whatever the
//! host's callbacks do. A read hands its waiting side to the call
//! ([`Detached::install`]: the pipeline's [`Steps`], `read/detached.rs`),
//! which the watch then steps instead.
//!
//! Concluding ([`Detached::finish`], [`Detached::fail`], or a look that
//! finds the call over) happens once: the first one takes the call's open
//! state; the scope is closed, the watch forgets the call, the completion
//! runs, and only then are the call's registry and executor references
//! dropped (so a registry or executor the host freed while the call was in
//! flight goes after the completion returned). Never inside the start
//! call: every conclusion is on a worker or the watch thread.
//!
//! Layout: this file is the call; `start.rs` holds the start functions of
//! each method (the public `Resources::*_start`), `message.rs` the
//! message's (`Resources::message_start`).

mod message;
mod observed;
mod start;

pub(crate) use message::start_message;
pub(crate) use observed::{Outcome, OwnedSubject, Served, ServedSeen, Summarized};
pub use start::RequestStartError;
pub(crate) use start::{start_complete, start_list, start_read, start_request, Inline};

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use crate::call::{CallOptions, FrameRules};
use crate::error::{Failure, FailureKind};
use crate::executor::{new_status, Entry, Executor, JobHandle, Pool, Refusal, WatchKey, Watched};
use crate::limits::Limits;
use crate::observe::{Recorder, Subject, Telemetry};
use crate::protocol::ProtocolRevision;
use crate::read::Owner;
use crate::registry::Resources;
use crate::scope::{CancelSubscription, CancelToken, Record, RequestData, RequestScope};

use observed::Observing;

#[cfg(doc)]
use crate::call::Frame;

/// What stepping a call's waiting side found.
pub(crate) enum Next<T> {
    /// The call is over, with this outcome.
    Over(T),
    /// Look again at this instant (or when woken).
    At(Instant),
}

/// The waiting side of a call whose jobs hand over to each other (a read
/// on an executor: `read/detached.rs`), stepped by the watch and by the
/// worker that finishes.
pub(crate) trait Steps<T>: Send {
    /// Looks at the call now.
    fn step(&mut self, executor: &Executor) -> Next<T>;
}

/// An asynchronous call as its first job's body (and a read's driver) sees
/// it, whatever its inputs and completion: the call itself is generic over
/// them, so that one allocation holds everything it needs. A call is made
/// on the host's thread and let go on a worker, and an allocation that
/// crosses threads costs the allocator's slow path twice; so the start
/// call allocates nothing else (the inputs are inline, the request scope
/// is made by the first job, on the worker, and given to its body).
pub(crate) trait Detached<T>: Send + Sync {
    /// The frame rules of the call's method.
    fn rules(&self) -> &'static FrameRules;
    /// The executor's pool, while the call is open.
    fn pool(&self) -> Option<Arc<Pool>>;
    /// Hands the call's waiting side to `steps`; `false` (and `steps`
    /// dropped) when the call has concluded already.
    fn install(&self, steps: Box<dyn Steps<T>>) -> bool;
    /// Concludes the call with `outcome` (unless it has concluded
    /// already: then `outcome` is dropped).
    fn finish(&self, outcome: T);
    /// Concludes the call with the failure `f` of the call as a whole.
    fn fail(&self, f: Failure);
    /// The call's first job (to give it up when a later job takes over).
    fn first_job(&self) -> Option<JobHandle>;
    /// The call as the watch sees it (for a job that publishes a result:
    /// it looks at the call at once).
    fn watched(&self) -> Weak<dyn Watched>;
    /// What the call is about, once its job read it (a request's params):
    /// the revision and subject its call event reports should the call
    /// conclude without the method's outcome (kept only when observed).
    fn learned(&self, protocol_revision: ProtocolRevision, subject: Subject<'_>);
}

/// A call, shared.
pub(crate) type Call<T> = Arc<dyn Detached<T>>;

/// One asynchronous call in flight (see the module documentation): `B` is
/// its first job's body, `Th` its completion, `Fl` how a failure of the
/// call as a whole reads as its outcome.
pub(crate) struct AsyncCall<T, B, Th, Fl> {
    me: Weak<AsyncCall<T, B, Th, Fl>>,
    /// The first job's queue status (the call is its own first job).
    status: AtomicU8,
    /// The call's deadline, fixed by the start call.
    deadline: Instant,
    /// The caller's cancellation token.
    cancel: Option<CancelToken>,
    /// The call's request scope, made by its first job from what the start
    /// call fixed (its allocation is the worker's; see [`Detached`]).
    scope: OnceLock<RequestScope>,
    rules: &'static FrameRules,
    /// Its place in the executor's watch, once watched.
    key: OnceLock<WatchKey>,
    /// How often the watch looks at the call before its waiting side is
    /// installed (see [`start`]'s `steps_in`; `None`: only at the
    /// deadline).
    steps_in: Option<Duration>,
    /// Whether (and why) the executor refused the first job, at once or
    /// once queued ([`NOT_REFUSED`] or a [`Refusal`] code): set without the
    /// state's lock, from any thread.
    refused: AtomicU8,
    /// What the call's event reports (docs/BEHAVIOUR.md §19).
    observing: Observing,
    state: Mutex<State<T, B, Th, Fl>>,
}

struct State<T, B, Th, Fl> {
    /// Until the call concludes.
    open: Option<Open<T, Th, Fl>>,
    /// The first job's work and what its scope is made of, until a worker
    /// takes it (or the call concludes without it).
    body: Option<(B, ScopeParts)>,
}

/// What a call's request scope is made of, fixed by the start call.
struct ScopeParts {
    started: Instant,
    read_timeout: Duration,
    timeout: Option<Duration>,
    request_data: Option<RequestData>,
    /// The call's record, when the registry's observer needs one.
    record: Option<Box<Recorder>>,
}

/// What a call holds until it concludes.
struct Open<T, Th, Fl> {
    then: Th,
    fail: Fl,
    /// The call's executor reference.
    executor: Executor,
    /// The call's registry reference.
    registry: Owner,
    /// A read's waiting side, once its first job planned it.
    steps: Option<Box<dyn Steps<T>>>,
    /// Wakes the watch when the caller cancels.
    cancel: Option<CancelSubscription>,
}

/// The failure of a call started without an executor (a host mistake).
pub(crate) fn no_executor() -> Failure {
    Failure::with_message(
        FailureKind::InvalidArgument,
        "an asynchronous call needs an executor",
    )
}

/// Starts an asynchronous call of `registry` with `call`'s options under
/// `rules`: its scope starts now (`limits`' read timeout and the caller's
/// deadline), the executor admits it, and it is queued; `body` then runs on
/// a worker, and the call concludes through `then` exactly once (a failure
/// of the call as a whole through `fail` first). A saturated executor is
/// such a failure, concluded by the watch. Fails only without an executor
/// (`invalid_argument`) or when the executor's watch thread cannot start
/// (the method's saturation failure); `then` never runs then. `steps_in`:
/// how soon after the start the call's waiting side may first need a look
/// (a read's item timeout: no body read can pass its item deadline
/// sooner), and how often until the first job installed it; `None` =
/// only at the deadline. `about`: the call's subject and whether its
/// body observes itself (see `observed.rs`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn start<T, R, Th, Fl>(
    registry: Arc<R>,
    call: &CallOptions,
    limits: &Limits,
    steps_in: Option<Duration>,
    rules: &'static FrameRules,
    about: (OwnedSubject, bool),
    fail: Fl,
    then: Th,
    body: impl FnOnce(&R, &Call<T>, RequestScope) + Send + 'static,
) -> Result<(), Failure>
where
    T: Outcome,
    R: AsRef<Resources> + Send + Sync + 'static,
    Th: FnOnce(T) + Send + 'static,
    Fl: FnOnce(Failure) -> T + Send + 'static,
{
    let telemetry = (*registry).as_ref().telemetry();
    // A call refused at its start gives its one call event too (the
    // blocking call's of a host mistake).
    let refused_at_start = |f: Failure| {
        if T::CALLED {
            telemetry.unframed(call.refused(rules.method), &f);
        }
        f
    };
    let Some(executor) = call.executor.clone() else {
        return Err(refused_at_start(no_executor()));
    };
    let started = Instant::now();
    let deadline = RequestScope::deadline_at(started, limits.read_timeout, call.timeout);
    let first_look = steps_in
        .and_then(|d| started.checked_add(d))
        .map_or(deadline, |at| at.min(deadline));
    let (record, observing) = observing_of(telemetry, T::CALLED, rules, call, started, about);
    let parts = ScopeParts {
        started,
        read_timeout: limits.read_timeout,
        timeout: call.timeout,
        request_data: call.request_data.clone(),
        record,
    };
    executor
        .watch()
        .ensure_running()
        .map_err(|e| refused_at_start(Failure::new(rules.refused).caused_by(e)))?;
    let refused = executor.admission().err();
    let working = registry.clone();
    let call = Arc::new_cyclic(|me| AsyncCall {
        me: me.clone(),
        status: new_status(),
        deadline,
        cancel: call.cancel.clone(),
        scope: OnceLock::new(),
        rules,
        key: OnceLock::new(),
        steps_in,
        refused: AtomicU8::new(NOT_REFUSED),
        observing,
        state: Mutex::new(State {
            open: Some(Open {
                then,
                fail,
                executor: executor.clone(),
                registry,
                steps: None,
                cancel: None,
            }),
            body: Some((move |c: &Call<T>, scope| body(&working, c, scope), parts)),
        }),
    });
    executor.pool().note_submitter();
    if let Some(r) = call
        .lock()
        .body
        .as_ref()
        .and_then(|(_, p)| p.record.as_deref())
    {
        r.submitted();
    }
    let queued = match refused {
        Some(why) => Err(why),
        None => executor.submit_entry(call.clone()).map(drop),
    };
    if let Err(why) = queued {
        // Never queued: the watch concludes it at once, with the refusal.
        call.note_refusal(why);
    }
    call.watch(&executor, first_look);
    Ok(())
}

/// What a call started at `started` records and reports (see
/// [`Observing`]): its record (only with an observer) and what its call
/// event needs (a copy of the request data only with an observer; none
/// for a call kind that gives no event, `called` false).
fn observing_of(
    telemetry: &Telemetry,
    called: bool,
    rules: &'static FrameRules,
    call: &CallOptions,
    started: Instant,
    about: (OwnedSubject, bool),
) -> (Option<Box<Recorder>>, Observing) {
    let observes = called && telemetry.observes();
    // Nothing of this without an observer (one branch).
    let record = match observes {
        true => telemetry
            .begin(rules.method, call.protocol_revision, started, true)
            .map(Box::new),
        false => None,
    };
    let observing = Observing {
        method: rules.method,
        protocol_revision: call.protocol_revision,
        started,
        subject: about.0,
        request_data: if observes {
            call.request_data.clone()
        } else {
            None
        },
        body_observes: about.1,
        observes,
        learned: OnceLock::new(),
    };
    (record, observing)
}

/// [`AsyncCall::refused`] before any refusal.
const NOT_REFUSED: u8 = 0;

fn refusal_code(why: Refusal) -> u8 {
    match why {
        Refusal::Saturated => 1,
        Refusal::QueueFull => 2,
    }
}

fn refusal_of(code: u8) -> Option<Refusal> {
    match code {
        1 => Some(Refusal::Saturated),
        2 => Some(Refusal::QueueFull),
        _ => None,
    }
}

impl<T, B, Th, Fl> AsyncCall<T, B, Th, Fl>
where
    T: Outcome,
    B: FnOnce(&Call<T>, RequestScope) + Send + 'static,
    Th: FnOnce(T) + Send + 'static,
    Fl: FnOnce(Failure) -> T + Send + 'static,
{
    fn lock(&self) -> MutexGuard<'_, State<T, B, Th, Fl>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn note_refusal(&self, why: Refusal) {
        self.refused.store(refusal_code(why), Ordering::Release);
    }

    fn refusal(&self) -> Option<Refusal> {
        refusal_of(self.refused.load(Ordering::Acquire))
    }

    /// Puts the queued call under the executor's watch: its deadline, the
    /// caller's cancellation, and a refusal that came before the watch
    /// knew it.
    fn watch(self: &Arc<Self>, executor: &Executor, first_look: Instant) {
        let key = executor.watch().add(self.clone(), first_look);
        let _ = self.key.set(key.clone());
        let cancel = self.cancel.as_ref().map(|token| {
            let waker = key.clone();
            token.subscribe_call(Box::new(move || waker.wake()))
        });
        let mut st = self.lock();
        match st.open.as_mut() {
            Some(open) => {
                open.cancel = cancel;
                drop(st);
                if self.refusal().is_some() {
                    key.wake();
                }
            }
            None => {
                // Concluded already (a fast worker): the watch forgets it.
                drop(st);
                drop(cancel);
                key.forget();
            }
        }
    }

    fn conclude(&self, outcome: Result<T, Failure>) {
        let mut st = self.lock();
        let open = st.open.take();
        let body = st.body.take();
        drop(st);
        match open {
            Some(open) => self.deliver(open, outcome, body),
            None => drop((outcome, body)),
        }
    }

    /// Concludes: the scope closed, the watch told, the call observed
    /// (its one call event), the completion run, then the call's
    /// references dropped (on this thread, after it). `body`: the first
    /// job's work when it never ran.
    fn deliver(
        &self,
        open: Open<T, Th, Fl>,
        outcome: Result<T, Failure>,
        body: Option<(B, ScopeParts)>,
    ) {
        // Made (under the state's lock) only while the call was open.
        let scope = self.scope.get();
        if let Some(scope) = scope {
            scope.close();
        }
        let recorder = match (scope, &body) {
            (Some(scope), _) => scope.recorder(),
            (None, Some((_, parts))) => parts.record.as_deref(),
            (None, None) => None,
        };
        let telemetry = (*open.registry).as_ref().telemetry();
        self.observing
            .end(telemetry, &outcome, scope.is_some(), recorder);
        if let Some(key) = self.key.get() {
            key.forget();
        }
        let Open {
            then,
            fail,
            executor,
            registry,
            steps,
            cancel,
        } = open;
        drop(cancel);
        let outcome = match outcome {
            Ok(t) => t,
            Err(f) => fail(f),
        };
        // A panicking completion (a Rust caller's) stops here.
        let _ = catch_unwind(AssertUnwindSafe(move || then(outcome)));
        drop(steps);
        drop(body);
        drop(registry);
        drop(executor);
    }
}

impl<T, B, Th, Fl> Detached<T> for AsyncCall<T, B, Th, Fl>
where
    T: Outcome,
    B: FnOnce(&Call<T>, RequestScope) + Send + 'static,
    Th: FnOnce(T) + Send + 'static,
    Fl: FnOnce(Failure) -> T + Send + 'static,
{
    fn rules(&self) -> &'static FrameRules {
        self.rules
    }

    fn pool(&self) -> Option<Arc<Pool>> {
        self.lock().open.as_ref().map(|o| o.executor.pool())
    }

    fn install(&self, steps: Box<dyn Steps<T>>) -> bool {
        let mut st = self.lock();
        match st.open.as_mut() {
            Some(open) => {
                open.steps = Some(steps);
                true
            }
            None => {
                drop(st);
                drop(steps);
                false
            }
        }
    }

    fn finish(&self, outcome: T) {
        self.conclude(Ok(outcome));
    }

    fn fail(&self, f: Failure) {
        self.conclude(Err(f));
    }

    fn first_job(&self) -> Option<JobHandle> {
        let me: Arc<dyn Entry> = self.me.upgrade()?;
        Some(JobHandle::of(me))
    }

    fn watched(&self) -> Weak<dyn Watched> {
        self.me.clone()
    }

    fn learned(&self, protocol_revision: ProtocolRevision, subject: Subject<'_>) {
        self.observing.learned(protocol_revision, subject);
    }
}

/// The call is its own first job.
impl<T, B, Th, Fl> Entry for AsyncCall<T, B, Th, Fl>
where
    T: Outcome,
    B: FnOnce(&Call<T>, RequestScope) + Send + 'static,
    Th: FnOnce(T) + Send + 'static,
    Fl: FnOnce(Failure) -> T + Send + 'static,
{
    fn status(&self) -> &AtomicU8 {
        &self.status
    }

    fn deadline(&self) -> Instant {
        self.deadline
    }

    fn run(&self) {
        let Some(me) = self.me.upgrade() else {
            return;
        };
        let mut st = self.lock();
        if st.open.is_none() {
            return;
        }
        let Some((body, parts)) = st.body.take() else {
            return;
        };
        // Made here, on the worker, under the lock: a conclusion closes it.
        let mut scope = RequestScope::start_at(
            parts.started,
            parts.read_timeout,
            parts.timeout,
            self.cancel.clone(),
            parts.request_data,
        );
        if let Some(record) = parts.record {
            record.job_started();
            scope = scope.recorded(Record::Boxed(record));
        }
        let _ = self.scope.set(scope.clone());
        drop(st);
        let call: Call<T> = me;
        if catch_unwind(AssertUnwindSafe(|| body(&call, scope))).is_err() {
            call.fail((self.rules.panicked)());
        }
    }

    fn refuse(&self, why: Refusal) {
        // Any thread (without the state's lock): the watch concludes it.
        self.note_refusal(why);
        self.wake();
    }

    fn discard(&self) {}
}

/// The watch's view of the call: its deadline, cancellation and refusals,
/// or the waiting side a read installed.
impl<T, B, Th, Fl> Watched for AsyncCall<T, B, Th, Fl>
where
    T: Outcome,
    B: FnOnce(&Call<T>, RequestScope) + Send + 'static,
    Th: FnOnce(T) + Send + 'static,
    Fl: FnOnce(Failure) -> T + Send + 'static,
{
    fn look(&self, now: Instant) -> Option<Instant> {
        let mut st = self.lock();
        let open = st.open.as_mut()?;
        if let Some(steps) = open.steps.as_mut() {
            let outcome = match steps.step(&open.executor) {
                Next::At(at) => return Some(at),
                Next::Over(t) => Ok(t),
            };
            let open = st.open.take()?;
            let body = st.body.take();
            drop(st);
            self.deliver(open, outcome, body);
            return None;
        }
        let refused = self.refusal();
        let failure = if let Some(why) = refused {
            why.failure(self.rules.refused)
        } else if self.cancel.as_ref().is_some_and(CancelToken::is_canceled) {
            Failure::new(FailureKind::Canceled)
        } else if now >= self.deadline {
            Failure::new(FailureKind::DeadlineExceeded)
        } else {
            // Until a read installs its waiting side, often enough that a
            // body read is looked at by its item deadline.
            let deadline = self.deadline;
            return Some(
                self.steps_in
                    .and_then(|d| now.checked_add(d))
                    .map_or(deadline, |at| at.min(deadline)),
            );
        };
        if refused.is_none() {
            // Dropped if it had not started, else abandoned (its worker
            // hung until it returns, and replaced).
            if let Some(me) = self.me.upgrade() {
                open.executor.give_up(&JobHandle::of(me));
            }
        }
        let open = st.open.take()?;
        let body = st.body.take();
        drop(st);
        self.deliver(open, Err(failure), body);
        None
    }

    fn wake(&self) {
        if let Some(key) = self.key.get() {
            key.wake();
        }
    }
}
