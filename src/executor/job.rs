//! Jobs and their states: what the queue holds ([`Entry`], [`Slot`]
//! around any [`Job`]), the state machine a job moves through (pending,
//! running, done, dropped, refused, abandoned), why a job was refused, and
//! the job and result slot of [`Executor::call`](super::Executor::call).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::Instant;

use crate::error::{CauseText, Failure, FailureKind};

/// Waiting in the queue.
pub(super) const PENDING: u8 = 0;
/// Taken by a worker.
pub(super) const RUNNING: u8 = 1;
/// Ran to completion while its waiter still waited.
pub(super) const DONE: u8 = 2;
/// Dropped before it started (its waiter gave up, its deadline passed, or
/// the executor went away).
pub(super) const DROPPED: u8 = 3;
/// Refused after it was queued (the pool became saturated).
pub(super) const REFUSED: u8 = 4;
/// Abandoned while running: its worker is hung until the job returns.
pub(super) const ABANDONED: u8 = 5;

/// Why the executor refused a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Every worker is hung in an abandoned callback (or the hung bound
    /// was reached, for body reads).
    Saturated,
    /// `max_queued` jobs are already waiting.
    QueueFull,
}

impl Refusal {
    /// The private cause of a refusal (for the host's logs only).
    pub(crate) fn cause(self) -> &'static str {
        match self {
            Refusal::Saturated => {
                "executor saturated: every worker is hung in an abandoned callback"
            }
            Refusal::QueueFull => "executor saturated: max_queued jobs are already waiting",
        }
    }

    /// A whole-call failure of `kind` for this refusal.
    pub(crate) fn failure(self, kind: FailureKind) -> Failure {
        Failure::new(kind).caused_by(CauseText(self.cause().to_string()))
    }
}

/// Work for the pool. Exactly one of `run` and `refuse` is called, or
/// neither (the job is then dropped: its waiter gave up, or its deadline
/// passed before it started).
pub(crate) trait Job: Send + 'static {
    /// Runs the job on a worker.
    fn run(self);
    /// Tells the job it will never run (called on any thread).
    fn refuse(self, why: Refusal);
}

/// A queued job and its state (one allocation per job).
pub(super) struct Slot<J> {
    pub(super) status: AtomicU8,
    pub(super) deadline: Instant,
    pub(super) job: Mutex<Option<J>>,
}

impl<J> Slot<J> {
    fn take(&self) -> Option<J> {
        self.job.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// What the queue holds: a job with its own queue state. [`Slot`] wraps
/// any [`Job`] (one allocation); a caller that already shares an object
/// with its job can implement this on it and submit it with
/// [`Executor::submit_entry`](super::Executor::submit_entry), allocating nothing. Exactly one of `run`,
/// `refuse` and `discard` is called.
pub(crate) trait Entry: Send + Sync {
    /// The job's status, [`new_status`] when submitted, then the
    /// executor's alone.
    fn status(&self) -> &AtomicU8;
    /// A worker drops the job unstarted once this has passed.
    fn deadline(&self) -> Instant;
    /// Runs the job on a worker.
    fn run(&self);
    /// The job will never run (saturation), said on any thread.
    fn refuse(&self, why: Refusal);
    /// The job will never run: its waiter gave up, or its deadline passed.
    fn discard(&self);
}

/// The status of an [`Entry`] not submitted yet.
pub(crate) fn new_status() -> AtomicU8 {
    AtomicU8::new(PENDING)
}

impl<J: Job> Entry for Slot<J> {
    fn status(&self) -> &AtomicU8 {
        &self.status
    }
    fn deadline(&self) -> Instant {
        self.deadline
    }
    fn run(&self) {
        if let Some(job) = self.take() {
            job.run();
        }
    }
    fn refuse(&self, why: Refusal) {
        if let Some(job) = self.take() {
            job.refuse(why);
        }
    }
    fn discard(&self) {
        drop(self.take());
    }
}

/// The submitter's handle of a job, used to give up on it.
pub(crate) struct JobHandle(pub(super) Arc<dyn Entry>);

impl JobHandle {
    /// The handle of `entry`, a job already submitted with
    /// [`Executor::submit_entry`](super::Executor::submit_entry) (for a job
    /// that refers to itself, as an asynchronous call does).
    pub(crate) fn of(entry: Arc<dyn Entry>) -> JobHandle {
        JobHandle(entry)
    }
}

/// What giving up on a job found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GaveUp {
    /// It had not started: dropped, everything it held released.
    Dropped,
    /// It was running: abandoned, its worker hung until it returns.
    Abandoned,
    /// It had already finished (or been refused or dropped).
    Finished,
}

/// How a job submitted with [`Executor::call`](super::Executor::call) ended, from the waiter's view.
pub(crate) enum CallOutcome<T> {
    /// The function returned in time.
    Done(T),
    /// The function panicked (its payload is dropped).
    Panicked,
    /// The deadline passed first; the job was given up.
    Expired,
    /// The caller cancelled first; the job was given up.
    Canceled,
    /// The executor refused the job.
    Refused(Refusal),
}

impl<T> CallOutcome<Result<T, Failure>> {
    /// The result of a whole call run as one job: the job's own result, or
    /// `panicked` when it panicked, `canceled` / `deadline_exceeded` when
    /// the caller stopped waiting, and a failure of `refused` (private cause
    /// "executor saturated" or "queue full") when the executor refused it.
    pub(crate) fn into_result(
        self,
        refused: FailureKind,
        panicked: fn() -> Failure,
    ) -> Result<T, Failure> {
        match self {
            CallOutcome::Done(r) => r,
            CallOutcome::Panicked => Err(panicked()),
            CallOutcome::Canceled => Err(Failure::new(FailureKind::Canceled)),
            CallOutcome::Expired => Err(Failure::new(FailureKind::DeadlineExceeded)),
            CallOutcome::Refused(why) => Err(why.failure(refused)),
        }
    }
}

/// The result slot of an [`Executor::call`](super::Executor::call).
pub(super) struct Done<T> {
    pub(super) ready: AtomicBool,
    pub(super) value: Mutex<Option<Result<T, CallOutcome<T>>>>,
    pub(super) waiter: Thread,
}

impl<T> Done<T> {
    fn set(&self, v: Result<T, CallOutcome<T>>) {
        *self.value.lock().unwrap_or_else(|p| p.into_inner()) = Some(v);
        self.ready.store(true, Ordering::Release);
        self.waiter.unpark();
    }
}

pub(super) struct CallJob<F, T> {
    pub(super) f: F,
    pub(super) done: Arc<Done<T>>,
}

impl<T: Send + 'static, F: FnOnce() -> T + Send + 'static> Job for CallJob<F, T> {
    fn run(self) {
        let r = catch_unwind(AssertUnwindSafe(self.f)).map_err(|_| CallOutcome::Panicked);
        self.done.set(r);
    }
    fn refuse(self, why: Refusal) {
        // What the job holds goes before its waiter is told (and may
        // return): on this thread, while the waiter's call still holds its
        // own references.
        let CallJob { f, done } = self;
        drop(f);
        done.set(Err(CallOutcome::Refused(why)));
    }
}
