//! Request scopes: the deadline and cancellation of one call, and the call
//! context every host callback receives.

use std::any::Any;
use std::ptr::NonNull;

use crate::error::{Failure, FailureKind};
use crate::input::InputResponses;
use crate::observe::{DecisionPhase, Recorder};
use crate::trace::TraceContext;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Opaque per-request data the caller hands to every callback.
pub type RequestData = Arc<dyn Any + Send + Sync>;

#[derive(Default)]
struct CancelInner {
    canceled: AtomicBool,
    lock: Mutex<Subscribers>,
    wake: Condvar,
}

/// Waiters woken by `cancel`, so that a waiter can wait on a result and
/// on cancellation at once.
#[derive(Default)]
struct Subscribers {
    next_id: u64,
    list: Vec<(u64, Waiter)>,
}

/// Who a cancellation wakes: a waiting thread, or an asynchronous call
/// that nobody waits for (its function asks the executor's watch to look
/// at it; it must not block).
enum Waiter {
    Thread(std::thread::Thread),
    Call(Box<dyn Fn() + Send + Sync>),
}

/// A cancellation token. Cloning shares the token; `cancel` is safe from any
/// thread at any time and is idempotent.
#[derive(Clone, Default)]
pub struct CancelToken {
    inner: Arc<CancelInner>,
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken")
            .field("canceled", &self.is_canceled())
            .finish()
    }
}

impl CancelToken {
    /// A fresh, uncancelled token.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels the token and wakes every waiter.
    pub fn cancel(&self) {
        self.inner.canceled.store(true, Ordering::SeqCst);
        let guard = self.inner.lock.lock().unwrap_or_else(|p| p.into_inner());
        for (_, waiter) in &guard.list {
            match waiter {
                Waiter::Thread(t) => t.unpark(),
                Waiter::Call(wake) => wake(),
            }
        }
        self.inner.wake.notify_all();
    }

    /// A subscription that unparks `waiter` when the token is cancelled
    /// (the waiter checks [`is_canceled`](Self::is_canceled) after every
    /// wake-up). Dropping it unsubscribes.
    pub(crate) fn subscribe_thread(&self, waiter: std::thread::Thread) -> CancelSubscription {
        self.subscribe(Waiter::Thread(waiter))
    }

    /// A subscription that calls `wake` when the token is cancelled (at
    /// once if it already is): for a call nobody waits for. `wake` runs on
    /// the cancelling thread, under the token's lock: it must only signal.
    /// Dropping the subscription unsubscribes.
    pub(crate) fn subscribe_call(&self, wake: Box<dyn Fn() + Send + Sync>) -> CancelSubscription {
        let subscription = self.subscribe(Waiter::Call(wake));
        if self.is_canceled() {
            let guard = self.inner.lock.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((_, Waiter::Call(wake))) =
                guard.list.iter().find(|(id, _)| *id == subscription.id)
            {
                wake();
            }
        }
        subscription
    }

    fn subscribe(&self, waiter: Waiter) -> CancelSubscription {
        let mut guard = self.inner.lock.lock().unwrap_or_else(|p| p.into_inner());
        let id = guard.next_id;
        guard.next_id += 1;
        guard.list.push((id, waiter));
        drop(guard);
        CancelSubscription {
            token: self.clone(),
            id,
        }
    }

    /// Whether the token has been cancelled.
    pub fn is_canceled(&self) -> bool {
        self.inner.canceled.load(Ordering::SeqCst)
    }

    /// Blocks until the token is cancelled or `deadline` passes; returns
    /// whether it was cancelled.
    pub fn wait_until(&self, deadline: Instant) -> bool {
        let mut guard = self.inner.lock.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if self.is_canceled() {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            guard = match self.inner.wake.wait_timeout(guard, deadline - now) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
    }
}

/// A registration with a [`CancelToken`]: its thread is unparked when the
/// token is cancelled.
pub(crate) struct CancelSubscription {
    token: CancelToken,
    id: u64,
}

impl Drop for CancelSubscription {
    fn drop(&mut self) {
        let mut guard = self
            .token
            .inner
            .lock
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        guard.list.retain(|(id, _)| *id != self.id);
    }
}

/// The deadline and cancellation of one call (read or list page).
///
/// The direct API closes the scope when the call returns
/// ([`close`](Self::close)): from then on every call context made from it
/// reports cancellation, so a callback that kept one learns that its call
/// is over.
#[derive(Clone)]
pub struct RequestScope {
    deadline: Instant,
    cancel: Option<CancelToken>,
    request_data: Option<RequestData>,
    trace: Option<Arc<TraceContext>>,
    shared: Arc<ScopeShared>,
    /// The verified input responses of a retried input-required read
    /// (docs/BEHAVIOUR.md §18).
    input: Option<Arc<InputResponses>>,
}

/// What the clones of one scope share: whether it is closed, and the
/// call's record when its registry's observer needs one
/// (`crate::observe`).
struct ScopeShared {
    closed: AtomicBool,
    record: Record,
}

/// A call's record, as its scope holds it.
pub(crate) enum Record {
    /// Not observed.
    None,
    /// A call on an executor: boxed, shared with its jobs.
    Boxed(Box<Recorder>),
    /// An inline call: the record on its frame's stack (see
    /// [`RequestScope::recorder`]).
    Lent(NonNull<Recorder>),
}

// SAFETY: a lent record pointer is only dereferenced as
// `RequestScope::recorder` states; a boxed one is `Send + Sync`.
unsafe impl Send for Record {}
// SAFETY: as above.
unsafe impl Sync for Record {}

impl RequestScope {
    /// A scope starting now: deadline = min(now + `limit`, now + `caller_timeout`).
    pub fn start(
        limit: Duration,
        caller_timeout: Option<Duration>,
        cancel: Option<CancelToken>,
        request_data: Option<RequestData>,
    ) -> Self {
        Self::start_at(Instant::now(), limit, caller_timeout, cancel, request_data)
    }

    /// [`start`](Self::start) with the current time already read (the
    /// caller checks the new scope at that same instant, saving a clock
    /// read).
    pub(crate) fn start_at(
        now: Instant,
        limit: Duration,
        caller_timeout: Option<Duration>,
        cancel: Option<CancelToken>,
        request_data: Option<RequestData>,
    ) -> Self {
        Self::start_recorded(
            now,
            limit,
            caller_timeout,
            cancel,
            request_data,
            Record::None,
        )
    }

    /// [`start_at`](Self::start_at) recording its call in `record` from
    /// the start (as [`recorded`](Self::recorded) does, under the same
    /// contract for a lent record, without replacing a first record).
    #[inline]
    pub(crate) fn start_recorded(
        now: Instant,
        limit: Duration,
        caller_timeout: Option<Duration>,
        cancel: Option<CancelToken>,
        request_data: Option<RequestData>,
        record: Record,
    ) -> Self {
        RequestScope {
            deadline: Self::deadline_at(now, limit, caller_timeout),
            cancel,
            request_data,
            trace: None,
            input: None,
            shared: Arc::new(ScopeShared {
                closed: AtomicBool::new(false),
                record,
            }),
        }
    }

    /// This new scope recording its call in `record` (a scope already
    /// cloned keeps none). A lent record must outlive every use of
    /// [`recorder`](Self::recorder) on this scope and its clones: the call
    /// frame of an inline call lends its own, and the library uses it only
    /// while that frame runs, on its thread (no job of an inline call
    /// runs elsewhere or later; a callback that keeps a clone of its call
    /// context cannot reach the record).
    pub(crate) fn recorded(mut self, record: Record) -> Self {
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.record = record;
        }
        self
    }

    /// The call's record, if it is observed.
    #[inline]
    pub(crate) fn recorder(&self) -> Option<&Recorder> {
        match &self.shared.record {
            Record::None => None,
            Record::Boxed(r) => Some(r),
            // SAFETY: a lent record outlives every use of this function
            // (the contract of `recorded`).
            Record::Lent(p) => Some(unsafe { p.as_ref() }),
        }
    }

    /// The deadline of a scope starting at `now`: min(`now` + `limit`,
    /// `now` + `caller_timeout`).
    pub(crate) fn deadline_at(
        now: Instant,
        limit: Duration,
        caller_timeout: Option<Duration>,
    ) -> Instant {
        let budget = match caller_timeout {
            Some(t) if t < limit => t,
            _ => limit,
        };
        now.checked_add(budget).unwrap_or(now + limit)
    }

    /// This scope (the same deadline, cancellation, request data, trace
    /// context and closing) carrying the verified input responses of a
    /// retried read, which every call context made from it hands its
    /// callback.
    pub(crate) fn with_input(&self, input: Arc<InputResponses>) -> RequestScope {
        RequestScope {
            input: Some(input),
            ..self.clone()
        }
    }

    /// Whether this scope is a verified retry's (see [`Self::with_input`]).
    pub(crate) fn is_retry(&self) -> bool {
        self.input.is_some()
    }

    /// This scope with the request's trace context (handed to every
    /// callback through [`CallContext::trace_context`]); an empty one is
    /// none.
    pub(crate) fn with_trace(mut self, trace: Option<Arc<TraceContext>>) -> Self {
        self.trace = trace.filter(|t| !t.is_empty());
        self
    }

    /// Closes the scope: every call context made from it (clones kept by
    /// callbacks included) reports cancellation from now on. Idempotent.
    pub fn close(&self) {
        self.shared.closed.store(true, Ordering::Release);
    }

    /// A guard that closes the scope when dropped (on every return path).
    pub(crate) fn close_on_drop(&self) -> CloseOnDrop {
        CloseOnDrop(self.shared.clone())
    }

    /// Whether [`close`](Self::close) was called.
    pub fn is_closed(&self) -> bool {
        self.shared.closed.load(Ordering::Acquire)
    }

    /// The whole-call deadline.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Whether the caller cancelled.
    pub fn is_canceled(&self) -> bool {
        self.cancel.as_ref().is_some_and(CancelToken::is_canceled)
    }

    /// Whether the call is over for the library's own work: the caller
    /// cancelled, or the call has returned (the scope is closed; only a job
    /// its call gave up on, still running on an executor, can see that).
    pub(crate) fn is_over(&self) -> bool {
        self.is_canceled() || self.is_closed()
    }

    /// Whether the whole-call deadline has passed.
    pub fn is_expired(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// The caller's cancellation token, if any.
    pub fn cancel_token(&self) -> Option<&CancelToken> {
        self.cancel.as_ref()
    }

    /// Fails with `canceled` when the caller cancelled (or the call has
    /// already returned: a job its call gave up on stops there), else with
    /// `deadline_exceeded` when the whole-call deadline has passed.
    pub fn check(&self) -> Result<(), Failure> {
        self.check_at(Instant::now())
    }

    /// [`check`](Self::check) with the current time already read.
    pub fn check_at(&self, now: Instant) -> Result<(), Failure> {
        if self.is_over() {
            return Err(Failure::new(FailureKind::Canceled));
        }
        if now >= self.deadline {
            return Err(Failure::new(FailureKind::DeadlineExceeded));
        }
        Ok(())
    }

    /// The caller's request data, if any.
    pub fn request_data(&self) -> Option<&RequestData> {
        self.request_data.as_ref()
    }

    /// This scope for another caller: the same deadline, cancellation and
    /// closing (closing one closes both), with `request_data` handed to
    /// the callbacks instead. One call that decides for many callers (a
    /// change notification, docs/BEHAVIOUR.md §15) runs each caller's
    /// callbacks in one of these; the trace context is the call's.
    pub(crate) fn for_caller(&self, request_data: Option<RequestData>) -> RequestScope {
        RequestScope {
            deadline: self.deadline,
            cancel: self.cancel.clone(),
            request_data,
            shared: self.shared.clone(),
            trace: self.trace.clone(),
            // A change notification is never a read's retry.
            input: None,
        }
    }

    /// A call context for a policy or resolve callback (whole-call
    /// deadline), in the phase [`CallPhase::FirstCheck`].
    pub fn call(&self) -> CallContext {
        self.call_in(CallPhase::FirstCheck)
    }

    /// A call context for a policy, resolve, listing or completion callback
    /// (whole-call deadline) in `phase`.
    pub fn call_in(&self, phase: CallPhase) -> CallContext {
        CallContext {
            scope: self.clone(),
            deadline: self.deadline,
            max_bytes: None,
            phase,
        }
    }

    /// A call context for a body read with its own (earlier or equal)
    /// deadline and the item byte limit as a hint.
    pub fn item_call(&self, deadline: Instant, max_bytes: u64) -> CallContext {
        CallContext {
            scope: self.clone(),
            deadline: deadline.min(self.deadline),
            max_bytes: Some(max_bytes),
            phase: CallPhase::BodyRead,
        }
    }
}

/// Closes a [`RequestScope`] when dropped.
pub(crate) struct CloseOnDrop(Arc<ScopeShared>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.closed.store(true, Ordering::Release);
    }
}

/// Why the library is calling a callback: which step of which call.
///
/// A read asks the policy twice about the same definition and targets: once
/// before any body is read ([`FirstCheck`](Self::FirstCheck)) and once after
/// the reads ([`Recheck`](Self::Recheck), docs/BEHAVIOUR.md §5 step 6), so
/// that a permission revoked during the reads is honoured. A policy that
/// logs or counts decisions can tell the two apart with
/// [`CallContext::phase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallPhase {
    /// A read's first authorization: `discover`, then the requested
    /// target's and every item's `visibility` and policy `read`, before any
    /// body is read.
    FirstCheck,
    /// A read's final authorization after the body reads: the same policy
    /// callbacks asked again.
    Recheck,
    /// A binding's `resolve` (turning a match into a read plan).
    Resolve,
    /// A binding's body `read` of one item.
    BodyRead,
    /// `discover` asked while building a `resources/list` or
    /// `resources/templates/list` page.
    Listing,
    /// `discover` and a template's completer during `completion/complete`.
    Completion,
    /// The policy callbacks that decide a subscription or a change
    /// notification (docs/BEHAVIOUR.md §15): `discover`, the requested
    /// target's `visibility` and policy `read` when a client subscribes and
    /// again when an update is about to be sent, and `discover` of the
    /// changed definitions for a list change. (`resolve` runs in
    /// [`Resolve`](Self::Resolve) there too.)
    Subscription,
}

/// What a callback learns about the call it serves. It owns what it holds,
/// so a body read abandoned at its deadline may keep it safely.
#[derive(Clone)]
pub struct CallContext {
    scope: RequestScope,
    deadline: Instant,
    max_bytes: Option<u64>,
    phase: CallPhase,
}

impl CallContext {
    /// Turns this context into the one of a policy, resolve, listing or
    /// completion callback in `phase` (whole-call deadline), as
    /// [`RequestScope::call_in`] makes it: one context serves every
    /// callback of a call in turn, instead of one clone of the scope per
    /// callback. A callback that cloned it keeps what it was given.
    pub(crate) fn enter_phase(&mut self, phase: CallPhase) {
        self.deadline = self.scope.deadline;
        self.max_bytes = None;
        self.phase = phase;
    }

    /// Turns this context into the one of a body read, as
    /// [`RequestScope::item_call`] makes it.
    pub(crate) fn enter_body_read(&mut self, deadline: Instant, max_bytes: u64) {
        self.deadline = deadline.min(self.scope.deadline);
        self.max_bytes = Some(max_bytes);
        self.phase = CallPhase::BodyRead;
    }

    /// A context detached from any call, with `timeout` left (for tests and
    /// hosts calling their own callbacks).
    pub fn detached(timeout: Duration) -> Self {
        RequestScope::start(timeout, None, None, None).call()
    }

    /// Whether the callback should stop: the caller cancelled, this
    /// callback's deadline passed, or the call it served has returned (its
    /// request scope is closed).
    pub fn is_canceled(&self) -> bool {
        self.scope.is_canceled() || self.scope.is_closed() || Instant::now() >= self.deadline
    }

    /// Time left before this callback's deadline (zero when passed).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// This callback's deadline.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// The caller's request data, if any.
    pub fn request_data(&self) -> Option<&(dyn Any + Send + Sync)> {
        self.scope.request_data().map(|d| d.as_ref())
    }

    /// For body reads: the item byte limit (a hint; the gateway enforces it).
    pub fn max_bytes(&self) -> Option<u64> {
        self.max_bytes
    }

    /// The caller's cancellation token, if any.
    pub fn cancel_token(&self) -> Option<&CancelToken> {
        self.scope.cancel_token()
    }

    /// The trace context of the request this call serves (`traceparent`,
    /// `tracestate` and `baggage` from its `params._meta`, each as sent),
    /// when it had any: a callback that traces its work joins the
    /// client's trace with it.
    pub fn trace_context(&self) -> Option<&TraceContext> {
        self.scope.trace.as_deref()
    }

    /// Which step of which call this callback serves (a detached context is
    /// in [`CallPhase::FirstCheck`]).
    pub fn phase(&self) -> CallPhase {
        self.phase
    }

    /// On the verified retry of an input-required read (docs/BEHAVIOUR.md
    /// §18): what the previous round asked for, the client's responses and
    /// the state the asking callback sealed. `None` on every other call.
    /// Every callback of the retried read sees it (policy, resolve, body
    /// reads, the recheck).
    pub fn input(&self) -> Option<&InputResponses> {
        self.scope.input.as_deref()
    }

    /// The call's record, if it is observed (`crate::observe`).
    #[inline]
    pub(crate) fn recorder(&self) -> Option<&Recorder> {
        self.scope.recorder()
    }
}

impl CallPhase {
    /// The phase as a decision event names it; `None` for a subscription
    /// decision, which gives no decision event (docs/BEHAVIOUR.md §19).
    pub(crate) fn decision_phase(self) -> Option<DecisionPhase> {
        Some(match self {
            CallPhase::Subscription => return None,
            CallPhase::FirstCheck => DecisionPhase::FirstCheck,
            CallPhase::Recheck => DecisionPhase::Recheck,
            CallPhase::Resolve => DecisionPhase::Resolve,
            CallPhase::BodyRead => DecisionPhase::BodyRead,
            CallPhase::Listing => DecisionPhase::Listing,
            CallPhase::Completion => DecisionPhase::Completion,
        })
    }
}
