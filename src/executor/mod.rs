//! A worker pool for host callbacks, owned by the host.
//!
//! `Resources` owns no thread: the host creates an [`Executor`] and passes
//! it to reads and listings. A read (or listing) given an executor runs its
//! whole pipeline (every policy, resolve and body callback) as one job on a
//! worker, and the calling thread waits at most until the call's deadline
//! or cancellation; a body read that passes its item deadline is abandoned
//! and the read continues with its siblings as a new job (see
//! `read/pooled.rs`).
//!
//! A callback abandoned while it runs keeps running on its worker, which is
//! then *hung*: its late result is discarded. Guarantees:
//!
//! - A job whose waiter gave up (deadline, cancellation, end of the call)
//!   before it started is dropped at once, releasing everything it holds;
//!   a worker also skips, without running it, a job whose deadline passed
//!   while it was queued (its waiter, whose deadline passed too, releases
//!   what it holds). Whatever a job holds is released on the waiter's
//!   thread before its call returns, or by the job itself before it
//!   publishes its result; only a job abandoned while it runs releases
//!   what it holds later, on its worker, when it returns.
//! - Each hung worker is replaced by a new one while at most `max_hung`
//!   workers are hung, so `threads` healthy workers remain. At that bound
//!   the pool is *saturated*: a body read of a binding that already has a
//!   hung reader fails at once as a `read_failed` item issue (private cause
//!   "executor saturated", decided by the read side, see `read/pooled.rs`)
//!   instead of risking another worker, while other bindings' reads still
//!   run (one that hangs too is abandoned without a replacement). Should hung callbacks take every worker, new jobs are
//!   refused at once, and so are jobs still queued: a healthy call never
//!   waits behind hung callbacks. At most `max_queued` jobs wait; beyond
//!   that, new jobs are refused too.
//! - A hung worker whose callback returns becomes healthy again, or retires
//!   when `threads` healthy workers are already alive: capacity returns
//!   when hung callbacks return. Threads never exceed
//!   `threads + max_hung`.
//! - [`Executor::stats`] shows all of it.
//!
//! Dropping the last clone of an executor stops its idle workers; running
//! callbacks are not waited for (their workers exit when they return).
//!
//! Layout: `cpu` (placement hints), `wait` (how threads wait for each
//! other), `job` (job states, the queue entry, refusals), `pool` (queue,
//! workers, counts), `watch` (the thread that looks after asynchronous
//! calls, which nobody waits for); this file is the public executor. The pool knows
//! nothing of reads: a caller that needs per-binding accounting of hung
//! callbacks tags them with a key (`Pool::key_hung`), and the read side
//! decides what a hung reader means for the next body read.

mod cpu;
mod job;
mod pool;
mod wait;
mod watch;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use crate::error::{Failure, FailureKind};
use crate::scope::CancelToken;

use cpu::CpuHint;
use job::{CallJob, Done, Slot, ABANDONED, DROPPED, PENDING, RUNNING};
use pool::{raise, spawn_worker, QueueState};

pub(crate) use job::{new_status, CallOutcome, Entry, GaveUp, Job, JobHandle, Refusal};
pub(crate) use pool::Pool;
pub(crate) use watch::{WatchKey, Watched};

struct Inner {
    pool: Arc<Pool>,
    /// The watch of the asynchronous calls (its thread starts with the
    /// first one).
    watch: watch::Watch,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.pool.close();
        self.watch.close();
    }
}

/// Sizing and bounds of an [`Executor`]. Zero means the default for every
/// field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExecutorOptions {
    /// Regular (healthy) workers: 0 = the available cores, at least 2.
    pub threads: usize,
    /// Most workers hung in abandoned callbacks that are replaced (0 =
    /// `max(8 * threads, 64)`). At this bound new body reads of a binding
    /// with a hung reader fail at once as `read_failed` item issues.
    /// Threads never exceed `threads + max_hung`.
    pub max_hung: usize,
    /// Most jobs (one per read or listing waiting for a worker) queued at
    /// once (0 = `max(64 * threads, 1024)`); further calls are refused.
    pub max_queued: usize,
}

/// A snapshot of an executor's state and counters ([`Executor::stats`]).
/// Counters count since the executor was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExecutorStats {
    /// Regular workers (the configured count).
    pub threads: usize,
    /// The hung-worker bound in effect.
    pub max_hung: usize,
    /// The queue bound in effect.
    pub max_queued: usize,
    /// Worker threads alive (regular, replacements, and hung ones).
    pub workers: usize,
    /// Workers running a job whose caller still waits for it.
    pub busy: usize,
    /// Workers running an abandoned callback (hung until it returns).
    pub hung: usize,
    /// Jobs waiting for a worker.
    pub queued: usize,
    /// Jobs started on a worker.
    pub started: u64,
    /// Running jobs abandoned by their caller (deadline or cancellation).
    pub abandoned: u64,
    /// Abandoned jobs whose callback has since returned.
    pub returned: u64,
    /// Jobs dropped before they started (their caller gave up, or their
    /// deadline passed while queued).
    pub dropped: u64,
    /// Saturation refusals: calls refused at once and body reads failed at
    /// once because the executor was saturated.
    pub refused: u64,
    /// Workers started to replace hung ones.
    pub replaced: u64,
    /// The most jobs that waited for a worker at once (against
    /// `max_queued`: how deep bursts queue).
    pub queued_high_water: usize,
    /// The most workers busy at once with calls whose callers still waited
    /// (against `threads`: whether healthy work needed every worker).
    pub busy_high_water: usize,
    /// The most workers hung at once (against `max_hung`: how close the
    /// hung bound has come).
    pub hung_high_water: usize,
    /// Times the executor became saturated: the hung bound was reached, or
    /// every worker was hung (each time counted once, until a hung worker
    /// returns and it is saturated again).
    pub saturations: u64,
    /// The part of `refused` refused because `max_queued` calls were
    /// waiting (the rest: the executor was saturated).
    pub refused_queue_full: u64,
}

impl ExecutorStats {
    /// Whether the executor is saturated now: `max_hung` workers are hung
    /// (body reads of bindings with a hung reader fail at once), or every
    /// worker is (new calls fail at once).
    pub fn saturated(&self) -> bool {
        self.hung >= self.max_hung || self.workers <= self.hung
    }
}

/// A shareable worker pool (cloning shares it). `Send + Sync`.
#[derive(Clone)]
pub struct Executor {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executor")
            .field("stats", &self.stats())
            .finish()
    }
}

impl Executor {
    /// A pool of `threads` workers (0 = the available cores, at least 2)
    /// with the default bounds (see [`ExecutorOptions`]).
    pub fn new(threads: usize) -> Result<Executor, Failure> {
        Executor::with_options(ExecutorOptions {
            threads,
            ..ExecutorOptions::default()
        })
    }

    /// A pool sized and bounded by `options` (zeros mean defaults).
    pub fn with_options(options: ExecutorOptions) -> Result<Executor, Failure> {
        let threads = if options.threads == 0 {
            std::thread::available_parallelism()
                .map_or(2, |n| n.get())
                .max(2)
        } else {
            options.threads
        };
        let max_hung = match options.max_hung {
            0 => threads.saturating_mul(8).max(64),
            n => n,
        };
        let max_queued = match options.max_queued {
            0 => threads.saturating_mul(64).max(1024),
            n => n,
        };
        let inner = Arc::new(Inner {
            pool: Arc::new(Pool {
                state: Mutex::new(QueueState {
                    jobs: VecDeque::new(),
                    closed: false,
                    sleepers: 0,
                }),
                wake: Condvar::new(),
                len: AtomicUsize::new(0),
                spinning: AtomicUsize::new(0),
                worker_cpu: CpuHint::new(),
                submitter_cpu: CpuHint::new(),
                job_cpu: CpuHint::new(),
                shared_waits: AtomicU32::new(0),
                next_move: Mutex::new(None),
                threads,
                max_hung,
                max_queued,
                live: AtomicUsize::new(0),
                hung: AtomicUsize::new(0),
                running: AtomicUsize::new(0),
                started: AtomicU64::new(0),
                abandoned: AtomicU64::new(0),
                returned: AtomicU64::new(0),
                dropped: AtomicU64::new(0),
                refused: AtomicU64::new(0),
                replaced: AtomicU64::new(0),
                queued_high_water: AtomicUsize::new(0),
                busy_high_water: AtomicUsize::new(0),
                hung_high_water: AtomicUsize::new(0),
                saturations: AtomicU64::new(0),
                refused_queue_full: AtomicU64::new(0),
                hung_keys: Mutex::new(Vec::new()),
            }),
            watch: watch::Watch::new(),
        });
        for _ in 0..threads {
            inner.pool.live.fetch_add(1, Ordering::AcqRel);
            spawn_worker(&inner.pool).map_err(|e| {
                Failure::with_message(
                    FailureKind::InvalidConfiguration,
                    "could not start executor workers",
                )
                .caused_by(e)
            })?;
        }
        Ok(Executor { inner })
    }

    /// The number of regular workers.
    pub fn threads(&self) -> usize {
        self.inner.pool.threads
    }

    /// Worker threads currently alive (regular ones, replacements and hung
    /// ones).
    pub fn live_workers(&self) -> usize {
        self.inner.pool.live.load(Ordering::Acquire)
    }

    /// Workers alive beyond the regular count (replacements of hung ones).
    pub fn replacement_workers(&self) -> usize {
        self.live_workers().saturating_sub(self.threads())
    }

    /// A snapshot of the executor's state and counters. Any thread; the
    /// fields are read one by one, so a snapshot taken while calls run may
    /// be slightly inconsistent (each field is exact on its own).
    pub fn stats(&self) -> ExecutorStats {
        let p = &self.inner.pool;
        let hung = p.hung.load(Ordering::Acquire);
        ExecutorStats {
            threads: p.threads,
            max_hung: p.max_hung,
            max_queued: p.max_queued,
            workers: p.live.load(Ordering::Acquire),
            busy: p.running.load(Ordering::Acquire).saturating_sub(hung),
            hung,
            queued: p.len.load(Ordering::Acquire),
            started: p.started.load(Ordering::Relaxed),
            abandoned: p.abandoned.load(Ordering::Relaxed),
            returned: p.returned.load(Ordering::Relaxed),
            dropped: p.dropped.load(Ordering::Relaxed),
            refused: p.refused.load(Ordering::Relaxed),
            replaced: p.replaced.load(Ordering::Relaxed),
            queued_high_water: p.queued_high_water.load(Ordering::Relaxed),
            busy_high_water: p.busy_high_water.load(Ordering::Relaxed),
            hung_high_water: p.hung_high_water.load(Ordering::Relaxed),
            saturations: p.saturations.load(Ordering::Relaxed),
            refused_queue_full: p.refused_queue_full.load(Ordering::Relaxed),
        }
    }

    /// The pool, for jobs that check saturation while they run (holding it
    /// does not keep idle workers alive once the executor is dropped).
    pub(crate) fn pool(&self) -> Arc<Pool> {
        self.inner.pool.clone()
    }

    /// The watch of the executor's asynchronous calls (see `watch.rs`).
    pub(crate) fn watch(&self) -> &watch::Watch {
        &self.inner.watch
    }

    /// The refusal a new job would meet now, if any (counted as a
    /// refusal). Lets a call fail before it looks at its request, so that
    /// a refusal never depends on the request.
    pub(crate) fn admission(&self) -> Result<(), Refusal> {
        let p = &self.inner.pool;
        if p.healthy() > 0 && p.len.load(Ordering::Acquire) < p.max_queued {
            return Ok(());
        }
        let st = p.lock();
        match p.admission(&st) {
            None => Ok(()),
            Some(why) => {
                p.count_refusal_of(why);
                Err(why)
            }
        }
    }

    /// Queues `job`; a worker drops it unstarted once `deadline` passed.
    /// Refused at once (the job is dropped) when every worker is hung or
    /// the queue is full.
    pub(crate) fn submit<J: Job>(&self, deadline: Instant, job: J) -> Result<JobHandle, Refusal> {
        self.submit_entry(Arc::new(Slot {
            status: new_status(),
            deadline,
            job: Mutex::new(Some(job)),
        }))
    }

    /// Queues a job that carries its own queue state (submitted once).
    /// Refused at once (nothing of it is called) when every worker is hung
    /// or the queue is full.
    pub(crate) fn submit_entry(&self, entry: Arc<dyn Entry>) -> Result<JobHandle, Refusal> {
        let p = &self.inner.pool;
        let mut st = p.lock();
        if let Some(why) = p.admission(&st).or(st.closed.then_some(Refusal::Saturated)) {
            drop(st);
            p.count_refusal_of(why);
            return Err(why);
        }
        st.jobs.push_back(entry.clone());
        p.len.fetch_add(1, Ordering::SeqCst);
        raise(&p.queued_high_water, st.jobs.len());
        let wake = st.sleepers > 0 && p.spinning.load(Ordering::SeqCst) == 0;
        drop(st);
        if wake {
            p.wake.notify_one();
        }
        Ok(JobHandle(entry))
    }

    /// Gives up on a job (its waiter no longer wants the result): a job
    /// not started yet (or left unstarted by a worker because its deadline
    /// passed) is dropped at once, with everything it holds, on this
    /// thread; a running one is abandoned and its worker replaced while
    /// the hung bound allows.
    pub(crate) fn give_up(&self, handle: &JobHandle) -> GaveUp {
        let p = &self.inner.pool;
        let entry = &handle.0;
        let status = entry.status();
        if status
            .compare_exchange(PENDING, DROPPED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            p.dropped.fetch_add(1, Ordering::Relaxed);
            entry.discard();
            p.unqueue(entry);
            return GaveUp::Dropped;
        }
        if status.load(Ordering::Acquire) == DROPPED {
            // A worker found its deadline passed and left it unstarted:
            // what it holds goes here, before the waiter's call returns.
            entry.discard();
            return GaveUp::Dropped;
        }
        let mut st = p.lock();
        if status
            .compare_exchange(RUNNING, ABANDONED, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            return GaveUp::Finished;
        }
        p.abandoned.fetch_add(1, Ordering::Relaxed);
        let hung = p.hung.fetch_add(1, Ordering::AcqRel) + 1;
        let live = p.live.load(Ordering::Acquire);
        raise(&p.hung_high_water, hung);
        let replace = hung <= p.max_hung && live.saturating_sub(hung) < p.threads && !st.closed;
        if replace {
            p.live.fetch_add(1, Ordering::AcqRel);
        }
        // Saturated now (the hung bound reached, or every worker hung, its
        // replacement counted) and not before this worker hung: one more
        // time the executor became saturated.
        let saturated = |hung: usize, live: usize| hung >= p.max_hung || live <= hung;
        if saturated(hung, live + usize::from(replace)) && !saturated(hung - 1, live) {
            p.saturations.fetch_add(1, Ordering::Relaxed);
        }
        let refused = p.refuse_queued(&mut st);
        drop(st);
        if replace {
            if spawn_worker(p).is_ok() {
                p.replaced.fetch_add(1, Ordering::Relaxed);
            } else {
                // `spawn_worker` gave the reserved place back.
                let mut st = p.lock();
                let refused = p.refuse_queued(&mut st);
                drop(st);
                p.tell_refused(refused);
            }
        }
        p.tell_refused(refused);
        GaveUp::Abandoned
    }

    /// Runs `f` on the pool and waits for it until `deadline`, or until
    /// `cancel` is cancelled; on expiry or cancellation the job is given
    /// up (dropped if not started, else abandoned: its late result is
    /// discarded).
    pub(crate) fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
        deadline: Instant,
        cancel: Option<&CancelToken>,
    ) -> CallOutcome<T> {
        let done = Arc::new(Done {
            ready: AtomicBool::new(false),
            value: Mutex::new(None),
            waiter: std::thread::current(),
        });
        let job = CallJob {
            f,
            done: done.clone(),
        };
        let handle = match self.submit(deadline, job) {
            Ok(h) => h,
            Err(why) => return CallOutcome::Refused(why),
        };
        let _wake = cancel.map(|c| c.subscribe_thread(std::thread::current()));
        let canceled = || cancel.is_some_and(CancelToken::is_canceled);
        self.inner.pool.park_until(
            || done.ready.load(Ordering::Acquire) || canceled(),
            deadline,
        );
        if !done.ready.load(Ordering::Acquire) {
            self.give_up(&handle);
        }
        // Taken after giving up: a job that completed meanwhile counts.
        let value = done.value.lock().unwrap_or_else(|p| p.into_inner()).take();
        match value {
            Some(Ok(v)) => CallOutcome::Done(v),
            Some(Err(why)) => why,
            None if canceled() => CallOutcome::Canceled,
            None => CallOutcome::Expired,
        }
    }
}

#[cfg(test)]
mod tests;
