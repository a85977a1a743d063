//! The pool: the queue, the workers and their counts. Unlike a channel,
//! pushing a job does not wake a parked worker while another idle worker is
//! polling, so back-to-back short jobs cost no futex round trip. Hung
//! workers are replaced up to `max_hung`; callers may tag abandoned
//! callbacks with a key and ask how many of a key are hung.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use crate::error::CauseText;

use super::cpu::{move_off_this_cpu, CpuHint, MOVE_EVERY};
use super::job::{Entry, Refusal, DONE, DROPPED, PENDING, REFUSED, RUNNING};
use super::wait::{spin_poll, SPIN};

pub(super) struct QueueState {
    pub(super) jobs: VecDeque<Arc<dyn Entry>>,
    pub(super) closed: bool,
    pub(super) sleepers: usize,
}

/// The pool shared by the workers, the executor handles and the jobs.
/// Unlike a channel, pushing a job does not wake a parked worker while
/// another idle worker is polling (that one takes the job), so
/// back-to-back short jobs cost no futex round trip.
///
/// `live` and `hung` change under the state lock (so that replacement and
/// retirement decisions see a consistent pair) and are read lock-free.
pub(crate) struct Pool {
    pub(super) state: Mutex<QueueState>,
    pub(super) wake: Condvar,
    /// Jobs queued (a lock-free hint for the polling worker, and a stat).
    pub(super) len: AtomicUsize,
    /// Idle workers currently polling (at most one).
    pub(super) spinning: AtomicUsize,
    /// Where the worker that polls for or runs jobs last ran (a hint).
    pub(super) worker_cpu: CpuHint,
    /// Where the thread that submits jobs and waits for them last ran (a
    /// hint).
    pub(super) submitter_cpu: CpuHint,
    /// Where the last job started (a hint).
    pub(super) job_cpu: CpuHint,
    /// Waits that found the worker on the waiter's CPU.
    pub(super) shared_waits: AtomicU32,
    /// When a polling worker may next move off the waiter's CPU (see
    /// [`move_off_this_cpu`]); `None` before the first move.
    pub(super) next_move: Mutex<Option<Instant>>,
    pub(super) threads: usize,
    pub(super) max_hung: usize,
    pub(super) max_queued: usize,
    /// Worker threads alive (or starting).
    pub(super) live: AtomicUsize,
    /// Workers running an abandoned job.
    pub(super) hung: AtomicUsize,
    /// Workers running a job (hung ones included).
    pub(super) running: AtomicUsize,
    pub(super) started: AtomicU64,
    pub(super) abandoned: AtomicU64,
    pub(super) returned: AtomicU64,
    pub(super) dropped: AtomicU64,
    pub(super) refused: AtomicU64,
    pub(super) replaced: AtomicU64,
    /// Most jobs waiting at once, most workers busy at once, most hung at
    /// once (high-water marks since the executor was made).
    pub(super) queued_high_water: AtomicUsize,
    pub(super) busy_high_water: AtomicUsize,
    pub(super) hung_high_water: AtomicUsize,
    /// Times the executor became saturated
    /// ([`ExecutorStats::saturations`](super::ExecutorStats::saturations)).
    pub(super) saturations: AtomicU64,
    /// Refusals because the queue was full (a part of `refused`).
    pub(super) refused_queue_full: AtomicU64,
    /// Abandoned callbacks hung now, per caller-chosen key (key, count):
    /// a read counts its hung body readers per binding here.
    pub(super) hung_keys: Mutex<Vec<(usize, usize)>>,
}

impl Pool {
    /// Counts a refusal of a new job for `why`.
    pub(super) fn count_refusal_of(&self, why: Refusal) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        if why == Refusal::QueueFull {
            self.refused_queue_full.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn healthy(&self) -> usize {
        self.live
            .load(Ordering::Acquire)
            .saturating_sub(self.hung.load(Ordering::Acquire))
    }

    /// Waits on the calling thread (which submitted the job) until
    /// `ready()` holds or `until` passes, briefly polling, then parking
    /// (see `wait.rs`); returns whether `ready()` held. Whoever makes
    /// `ready()` true must unpark this thread afterwards.
    pub(crate) fn park_until(&self, ready: impl Fn() -> bool, until: Instant) -> bool {
        super::wait::park_until(
            &self.submitter_cpu,
            &self.worker_cpu,
            &self.shared_waits,
            ready,
            until,
        )
    }

    /// Records the calling thread as the one that submits jobs (an
    /// asynchronous call's start, which does not wait): a polling worker
    /// then moves off its CPU as it does for a waiting caller, so that the
    /// next handoff needs no context switch.
    pub(crate) fn note_submitter(&self) {
        self.submitter_cpu.set_here();
    }

    /// Whether `max_hung` workers are hung: a further hung worker would
    /// not be replaced.
    pub(crate) fn at_hung_bound(&self) -> bool {
        self.hung.load(Ordering::Acquire) >= self.max_hung
    }

    /// Counts a refusal the caller made on the pool's behalf (a call that
    /// declines work because the pool is saturated): part of
    /// [`ExecutorStats::refused`](super::ExecutorStats::refused).
    pub(crate) fn count_refusal(&self) {
        self.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether callbacks that the caller tagged with `key` are hung now
    /// (see [`key_hung`](Self::key_hung)).
    pub(crate) fn has_hung(&self, key: usize) -> bool {
        self.hung_keys
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .any(|&(k, n)| k == key && n > 0)
    }

    /// A callback tagged with `key` (an identity the caller chooses, such
    /// as a binding's) was abandoned while it ran: counted until
    /// [`key_returned`](Self::key_returned).
    pub(crate) fn key_hung(&self, key: usize) {
        let mut list = self.hung_keys.lock().unwrap_or_else(|p| p.into_inner());
        match list.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => list.push((key, 1)),
        }
    }

    /// An abandoned callback tagged with `key` returned.
    pub(crate) fn key_returned(&self, key: usize) {
        let mut list = self.hung_keys.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = list.iter().position(|(k, _)| *k == key) {
            list[i].1 -= 1;
            if list[i].1 == 0 {
                list.swap_remove(i);
            }
        }
    }

    /// The refusal a new job would meet now, if any.
    pub(super) fn admission(&self, st: &QueueState) -> Option<Refusal> {
        if self.healthy() == 0 {
            Some(Refusal::Saturated)
        } else if st.jobs.len() >= self.max_queued {
            Some(Refusal::QueueFull)
        } else {
            None
        }
    }

    pub(super) fn try_pop(&self) -> Option<Arc<dyn Entry>> {
        if self.len.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let mut st = self.lock();
        let job = st.jobs.pop_front();
        if job.is_some() {
            self.len.fetch_sub(1, Ordering::SeqCst);
        }
        job
    }

    /// Called by the polling worker before it polls: when the thread that
    /// submits jobs last ran on this worker's CPU, moves this worker to
    /// another allowed CPU (at most once per [`MOVE_EVERY`] for the pool),
    /// so that the next handoff needs no context switch.
    pub(super) fn move_off_submitter(&self) {
        if !self.submitter_cpu.shares_this_cpu() {
            return;
        }
        let now = Instant::now();
        {
            let Ok(mut next) = self.next_move.try_lock() else {
                return;
            };
            if next.is_some_and(|t| now < t) {
                return;
            }
            *next = Some(now + MOVE_EVERY);
        }
        if move_off_this_cpu() {
            self.worker_cpu.set_here();
        }
    }

    /// The next job for a worker; `None` once the executor is dropped.
    pub(super) fn next(&self) -> Option<Arc<dyn Entry>> {
        // At most one idle worker polls; the others park at once, so idle
        // workers never crowd out the threads doing work.
        if self
            .spinning
            .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            self.move_off_submitter();
            // A poll gives up (as if its time were up) while another worker
            // runs a job that is not hung on another CPU: that worker polls
            // when it is done, on the CPU that ran the job, and this one
            // would only take CPU time from the waiting caller. (On the
            // running worker's own CPU, the poll yields to it instead: a
            // park would cost a futex round trip per job when every thread
            // shares one CPU.)
            let job = spin_poll(
                || match self.try_pop() {
                    Some(job) => Some(Some(job)),
                    None if self.running.load(Ordering::Acquire)
                        > self.hung.load(Ordering::Acquire)
                        && !self.job_cpu.shares_this_cpu() =>
                    {
                        Some(None)
                    }
                    None => None,
                },
                &self.worker_cpu,
                &self.submitter_cpu,
                Instant::now() + SPIN,
            )
            .flatten();
            // Stop polling before looking under the lock: a push that saw
            // this worker polling did not wake anyone, and is seen below.
            self.spinning.store(0, Ordering::SeqCst);
            if job.is_some() {
                // The pushes that saw this worker polling woke no one: the
                // jobs they queued behind this one need a sleeper (else
                // they wait until this job returns, which a hung callback
                // never does). A push after the store above wakes one
                // itself.
                if self.len.load(Ordering::SeqCst) > 0 {
                    self.wake_one_if_queued(&self.lock());
                }
                return job;
            }
        }
        let mut st = self.lock();
        loop {
            if st.closed {
                return None;
            }
            if let Some(job) = st.jobs.pop_front() {
                self.len.fetch_sub(1, Ordering::SeqCst);
                // Passes a wake-up on while jobs remain (one push may have
                // queued several behind a poll).
                self.wake_one_if_queued(&st);
                return Some(job);
            }
            st.sleepers += 1;
            st = self.wake.wait(st).unwrap_or_else(|p| p.into_inner());
            st.sleepers -= 1;
        }
    }

    /// Wakes a sleeping worker when jobs are queued and nobody polls.
    fn wake_one_if_queued(&self, st: &QueueState) {
        if !st.jobs.is_empty() && st.sleepers > 0 && self.spinning.load(Ordering::SeqCst) == 0 {
            self.wake.notify_one();
        }
    }

    /// Removes a job from the queue (after its status left `PENDING`).
    pub(super) fn unqueue(&self, entry: &Arc<dyn Entry>) {
        let mut st = self.lock();
        if let Some(i) = st.jobs.iter().position(|e| Arc::ptr_eq(e, entry)) {
            st.jobs.remove(i);
            self.len.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// With no healthy worker left, every queued job is refused (its
    /// waiter is told at once). Called with the lock held; returns the
    /// jobs to tell once the lock is released.
    pub(super) fn refuse_queued(&self, st: &mut QueueState) -> Vec<Arc<dyn Entry>> {
        if self.healthy() > 0 || st.jobs.is_empty() {
            return Vec::new();
        }
        let jobs: Vec<_> = st.jobs.drain(..).collect();
        self.len.store(0, Ordering::SeqCst);
        jobs.into_iter()
            .filter(|e| {
                e.status()
                    .compare_exchange(PENDING, REFUSED, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
            })
            .collect()
    }

    pub(super) fn tell_refused(&self, jobs: Vec<Arc<dyn Entry>>) {
        for e in jobs {
            self.refused.fetch_add(1, Ordering::Relaxed);
            e.refuse(Refusal::Saturated);
        }
    }

    pub(super) fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        // Jobs still queued were abandoned by their waiters (a waiter holds
        // an executor clone); drop them with the queue's lock released.
        let jobs = std::mem::take(&mut st.jobs);
        self.len.store(0, Ordering::SeqCst);
        drop(st);
        for e in &jobs {
            if e.status()
                .compare_exchange(PENDING, DROPPED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                e.discard();
            }
        }
        drop(jobs);
        self.wake.notify_all();
    }
}

/// Decrements the live count when a worker thread ends, however it ends
/// (a retiring worker has already decremented it).
struct LiveGuard {
    pool: Arc<Pool>,
    counted: bool,
}

impl Drop for LiveGuard {
    fn drop(&mut self) {
        if self.counted {
            let _st = self.pool.lock();
            self.pool.live.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

pub(super) fn worker(pool: Arc<Pool>) {
    let mut guard = LiveGuard {
        pool: pool.clone(),
        counted: true,
    };
    while let Some(entry) = pool.next() {
        let status = entry.status();
        if Instant::now() >= entry.deadline() {
            // Nobody can use its result any more: it never starts. What it
            // holds is dropped by its waiter (whose deadline passed too)
            // when it gives up, on the waiter's thread before its call
            // returns, never later on this worker.
            if status
                .compare_exchange(PENDING, DROPPED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                pool.dropped.fetch_add(1, Ordering::Relaxed);
            }
            drop(entry);
            continue;
        }
        if status
            .compare_exchange(PENDING, RUNNING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            continue; // dropped or refused before it started
        }
        pool.job_cpu.set(pool.worker_cpu.set_here());
        pool.started.fetch_add(1, Ordering::Relaxed);
        let running = pool.running.fetch_add(1, Ordering::AcqRel) + 1;
        raise(
            &pool.busy_high_water,
            running.saturating_sub(pool.hung.load(Ordering::Acquire)),
        );
        // Jobs catch their callbacks' panics themselves; this only keeps a
        // library bug from killing the worker.
        let _ = catch_unwind(AssertUnwindSafe(|| entry.run()));
        pool.running.fetch_sub(1, Ordering::AcqRel);
        if status
            .compare_exchange(RUNNING, DONE, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            continue;
        }
        // ABANDONED: the job's waiter gave up while it ran. The status was
        // changed under the lock together with `hung`, so taking the lock
        // here sees the matching count.
        drop(entry);
        let st = pool.lock();
        pool.hung.fetch_sub(1, Ordering::AcqRel);
        pool.returned.fetch_add(1, Ordering::Relaxed);
        let live = pool.live.load(Ordering::Acquire);
        if live.saturating_sub(pool.hung.load(Ordering::Acquire)) > pool.threads {
            // A replacement took this worker's place: retire.
            pool.live.fetch_sub(1, Ordering::AcqRel);
            guard.counted = false;
            drop(st);
            return;
        }
    }
}

/// Starts a worker already counted in `live` (a failure gives the place
/// back).
pub(super) fn spawn_worker(pool: &Arc<Pool>) -> std::io::Result<()> {
    let worker_pool = pool.clone();
    std::thread::Builder::new()
        .name("mcp-resources-worker".into())
        .spawn(move || worker(worker_pool))
        .map(drop)
        .map_err(|e| {
            pool.live.fetch_sub(1, Ordering::AcqRel);
            std::io::Error::new(
                e.kind(),
                CauseText(format!("spawning a worker failed: {e}")),
            )
        })
}

/// Raises a high-water mark to `now` (a load first: the mark rarely moves,
/// and an atomic read-modify-write on every job would cost more).
pub(super) fn raise(mark: &AtomicUsize, now: usize) {
    if now > mark.load(Ordering::Relaxed) {
        mark.fetch_max(now, Ordering::Relaxed);
    }
}
