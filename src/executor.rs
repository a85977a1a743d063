//! A worker pool for host body-read callbacks, owned by the host.
//!
//! `Resources` owns no thread: the host creates an [`Executor`] and passes
//! it to reads. A body read submitted to the pool is waited for at most
//! until its item deadline (or the caller's cancellation); a callback that
//! ignores cancellation is then *abandoned*: it keeps running on its worker,
//! its late result is discarded, and a replacement worker is started (up to
//! a cap) so that hung callbacks never exhaust the pool for good. A worker
//! whose abandoned callback finally returns retires if it was replaced.
//!
//! Dropping the last clone of an executor stops its idle workers; running
//! callbacks are not waited for (their workers exit when they return).

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use crate::error::{CauseText, Failure, FailureKind};

/// How long a waiter polls for a result, and an idle worker for the next
/// job, before blocking. Bounded and short: it only saves the park/unpark
/// round trip of short callbacks and back-to-back jobs.
const SPIN: Duration = Duration::from_micros(20);

/// How long a poll spins on the CPU before it starts yielding.
const PURE_SPIN: Duration = Duration::from_micros(3);

/// Polls with `try_take` for at most [`SPIN`] (and not past `limit`): first
/// spinning (a handoff to another CPU takes a microsecond or two), then
/// yielding between polls (if the thread we wait for shares this CPU,
/// yielding lets it run instead of burning the slice).
fn spin_poll<T>(mut try_take: impl FnMut() -> Option<T>, limit: Instant) -> Option<T> {
    let start = Instant::now();
    let spin_until = (start + PURE_SPIN).min(limit);
    let until = (start + SPIN).min(limit);
    loop {
        for _ in 0..16 {
            if let Some(v) = try_take() {
                return Some(v);
            }
            std::hint::spin_loop();
        }
        if Instant::now() >= spin_until {
            break;
        }
    }
    loop {
        if let Some(v) = try_take() {
            return Some(v);
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::yield_now();
    }
}

const PENDING: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;
/// Abandoned before it started: the worker skips it.
const SKIPPED: u8 = 3;
/// Abandoned while running, without a replacement worker.
const ABANDONED: u8 = 4;
/// Abandoned while running; a replacement was started, so the worker
/// retires when the callback returns.
const REPLACED: u8 = 5;
/// Not a job: tells one worker to retire.
const RETIRE: u8 = 6;

struct Job {
    status: Arc<AtomicU8>,
    run: Option<Box<dyn FnOnce() + Send>>,
}

struct QueueState {
    jobs: VecDeque<Job>,
    closed: bool,
    sleepers: usize,
}

/// The job queue shared by the workers. Unlike a channel, pushing a job
/// does not wake a parked worker while another idle worker is polling (that
/// one takes the job), so back-to-back short jobs cost no futex round trip.
struct Queue {
    state: Mutex<QueueState>,
    wake: Condvar,
    /// Jobs queued (a lock-free hint for the polling worker).
    len: AtomicUsize,
    /// Idle workers currently polling (at most one).
    spinning: AtomicUsize,
    /// Workers currently alive (regular and replacements).
    live: AtomicUsize,
    /// Replacement workers currently alive beyond the regular ones.
    extra: AtomicUsize,
    /// Most replacement workers alive at once.
    cap: usize,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn push(&self, job: Job) -> bool {
        let mut st = self.lock();
        if st.closed {
            return false;
        }
        st.jobs.push_back(job);
        self.len.fetch_add(1, Ordering::SeqCst);
        let wake = st.sleepers > 0 && self.spinning.load(Ordering::SeqCst) == 0;
        drop(st);
        if wake {
            self.wake.notify_one();
        }
        true
    }

    fn try_pop(&self) -> Option<Job> {
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

    /// The next job for a worker; `None` once the executor is dropped.
    fn next(&self) -> Option<Job> {
        // At most one idle worker polls; the others park at once, so idle
        // workers never crowd out the threads doing work.
        if self
            .spinning
            .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            let job = spin_poll(|| self.try_pop(), Instant::now() + SPIN);
            // Stop polling before looking under the lock: a push that saw
            // this worker polling did not wake anyone, and is seen below.
            self.spinning.store(0, Ordering::SeqCst);
            if job.is_some() {
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
                return Some(job);
            }
            st.sleepers += 1;
            st = self.wake.wait(st).unwrap_or_else(|p| p.into_inner());
            st.sleepers -= 1;
        }
    }

    fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        // Jobs still queued were abandoned by their waiters (a waiter holds
        // an executor clone); drop them with the queue's lock released.
        let jobs = std::mem::take(&mut st.jobs);
        self.len.store(0, Ordering::SeqCst);
        drop(st);
        drop(jobs);
        self.wake.notify_all();
    }
}

struct Inner {
    queue: Arc<Queue>,
    threads: usize,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.queue.close();
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
            .field("threads", &self.inner.threads)
            .field("replacements", &self.replacement_workers())
            .finish()
    }
}

/// How a job submitted with [`Executor::run`] ended, from the waiter's view.
pub(crate) enum RunOutcome<T> {
    /// The callback returned in time.
    Done(T),
    /// The callback panicked (its payload is dropped).
    Panicked,
    /// The deadline passed first; the job was abandoned.
    Expired,
    /// The caller cancelled first; the job was abandoned.
    Canceled,
}

/// Decrements the live count when a worker thread ends, however it ends.
struct LiveGuard(Arc<Queue>);

impl Drop for LiveGuard {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::AcqRel);
    }
}

fn worker(queue: Arc<Queue>) {
    let _live = LiveGuard(queue.clone());
    while let Some(mut job) = queue.next() {
        if job.status.load(Ordering::Acquire) == RETIRE {
            queue.extra.fetch_sub(1, Ordering::AcqRel);
            return;
        }
        if job
            .status
            .compare_exchange(PENDING, RUNNING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            continue; // abandoned before it started
        }
        if let Some(run) = job.run.take() {
            run();
        }
        match job
            .status
            .compare_exchange(RUNNING, DONE, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) | Err(ABANDONED) => {}
            Err(_) => {
                // REPLACED: a replacement took this worker's place.
                queue.extra.fetch_sub(1, Ordering::AcqRel);
                return;
            }
        }
    }
}

impl Executor {
    /// A pool of `threads` workers (0 = the available cores, at least 2).
    /// Replacement workers for abandoned callbacks are capped at
    /// `max(8 * threads, 64)`.
    pub fn new(threads: usize) -> Result<Executor, Failure> {
        let threads = if threads == 0 {
            std::thread::available_parallelism()
                .map_or(2, |n| n.get())
                .max(2)
        } else {
            threads
        };
        let inner = Arc::new(Inner {
            queue: Arc::new(Queue {
                state: Mutex::new(QueueState {
                    jobs: VecDeque::new(),
                    closed: false,
                    sleepers: 0,
                }),
                wake: Condvar::new(),
                len: AtomicUsize::new(0),
                spinning: AtomicUsize::new(0),
                live: AtomicUsize::new(0),
                extra: AtomicUsize::new(0),
                cap: (threads.saturating_mul(8)).max(64),
            }),
            threads,
        });
        for _ in 0..threads {
            spawn_worker(&inner).map_err(|e| {
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
        self.inner.threads
    }

    /// Worker threads currently alive (regular ones and replacements).
    pub fn live_workers(&self) -> usize {
        self.inner.queue.live.load(Ordering::Acquire)
    }

    /// Replacement workers currently alive (for abandoned callbacks).
    pub fn replacement_workers(&self) -> usize {
        self.inner.queue.extra.load(Ordering::Acquire)
    }

    /// Runs `f` on the pool and waits for it until `deadline`, or until
    /// `cancel` receives a message. On expiry or cancellation the job is
    /// abandoned: its result is discarded when it arrives.
    pub(crate) fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
        deadline: Instant,
        cancel: Option<&Receiver<()>>,
    ) -> RunOutcome<T> {
        let (result_tx, result_rx) = crossbeam_channel::bounded::<std::thread::Result<T>>(1);
        let status = Arc::new(AtomicU8::new(PENDING));
        let job = Job {
            status: status.clone(),
            run: Some(Box::new(move || {
                let r = catch_unwind(AssertUnwindSafe(f));
                let _ = result_tx.send(r);
            })),
        };
        if !self.inner.queue.push(job) {
            // Unreachable while `self` holds a receiver, but never hang.
            return RunOutcome::Expired;
        }
        // Short callbacks usually finish within a few microseconds: poll
        // briefly before blocking, which saves a park/unpark round trip.
        if let Some(r) = spin_poll(|| result_rx.try_recv().ok(), deadline) {
            return unwrap_result(r);
        }
        let received = match cancel {
            None => result_rx.recv_deadline(deadline).ok(),
            Some(cancel) => {
                let timeout = deadline.saturating_duration_since(Instant::now());
                crossbeam_channel::select! {
                    recv(result_rx) -> r => r.ok(),
                    recv(cancel) -> _ => {
                        return self.abandon(&status, &result_rx, RunOutcome::Canceled);
                    }
                    default(timeout) => None,
                }
            }
        };
        match received {
            Some(r) => unwrap_result(r),
            None => self.abandon(&status, &result_rx, RunOutcome::Expired),
        }
    }

    /// Abandons a job: skipped when it has not started; when running, its
    /// worker is replaced if the cap allows. A job that completed in the
    /// meantime is taken after all.
    fn abandon<T>(
        &self,
        status: &AtomicU8,
        result_rx: &Receiver<std::thread::Result<T>>,
        outcome: RunOutcome<T>,
    ) -> RunOutcome<T> {
        loop {
            match status.load(Ordering::Acquire) {
                PENDING => {
                    if status
                        .compare_exchange(PENDING, SKIPPED, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                    {
                        return outcome;
                    }
                }
                RUNNING => {
                    let counters = &self.inner.queue;
                    let reserved = counters
                        .extra
                        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                            (n < counters.cap).then_some(n + 1)
                        })
                        .is_ok();
                    let replaced = reserved && spawn_worker(&self.inner).is_ok();
                    if reserved && !replaced {
                        counters.extra.fetch_sub(1, Ordering::AcqRel);
                    }
                    let next = if replaced { REPLACED } else { ABANDONED };
                    if status
                        .compare_exchange(RUNNING, next, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                    {
                        return outcome;
                    }
                    if replaced {
                        // The job finished meanwhile: one worker too many.
                        self.inner.queue.push(Job {
                            status: Arc::new(AtomicU8::new(RETIRE)),
                            run: None,
                        });
                    }
                }
                _ => {
                    // DONE: the result was sent before the status changed.
                    return match result_rx.try_recv() {
                        Ok(r) => unwrap_result(r),
                        Err(_) => outcome,
                    };
                }
            }
        }
    }
}

fn unwrap_result<T>(r: std::thread::Result<T>) -> RunOutcome<T> {
    match r {
        Ok(v) => RunOutcome::Done(v),
        Err(_) => RunOutcome::Panicked,
    }
}

fn spawn_worker(inner: &Inner) -> std::io::Result<()> {
    let queue = inner.queue.clone();
    queue.live.fetch_add(1, Ordering::AcqRel);
    std::thread::Builder::new()
        .name("mcp-resources-worker".into())
        .spawn(move || worker(queue))
        .map(drop)
        .map_err(|e| {
            inner.queue.live.fetch_sub(1, Ordering::AcqRel);
            std::io::Error::new(
                e.kind(),
                CauseText(format!("spawning a worker failed: {e}")),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_jobs_and_returns_results() {
        let ex = Executor::new(2).unwrap();
        let d = Instant::now() + Duration::from_secs(5);
        match ex.run(|| 40 + 2, d, None) {
            RunOutcome::Done(v) => assert_eq!(v, 42),
            _ => panic!("expected a result"),
        }
    }

    #[test]
    fn many_short_jobs_from_many_threads_all_complete_without_lost_wakeups() {
        let ex = Executor::new(2).unwrap();
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let ex = ex.clone();
                std::thread::spawn(move || {
                    for i in 0..300u32 {
                        if i % 50 == 0 {
                            // Let the workers go idle and park now and then.
                            std::thread::sleep(Duration::from_millis(2));
                        }
                        let d = Instant::now() + Duration::from_secs(20);
                        match ex.run(move || t * 1000 + i, d, None) {
                            RunOutcome::Done(v) => assert_eq!(v, t * 1000 + i),
                            _ => panic!("job {t}/{i} did not complete"),
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(ex.replacement_workers(), 0);
    }

    #[test]
    fn zero_threads_means_at_least_two() {
        assert!(Executor::new(0).unwrap().threads() >= 2);
    }

    #[test]
    fn panics_are_caught() {
        let ex = Executor::new(1).unwrap();
        let d = Instant::now() + Duration::from_secs(5);
        assert!(matches!(
            ex.run(|| -> u8 { panic!("boom") }, d, None),
            RunOutcome::Panicked
        ));
        // The worker survived the panic.
        assert!(matches!(ex.run(|| 1, d, None), RunOutcome::Done(1)));
    }

    #[test]
    fn hung_jobs_are_abandoned_and_replaced() {
        let ex = Executor::new(1).unwrap();
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        let start = Instant::now();
        let r = ex.run(
            move || {
                let _ = release_rx.recv();
                1
            },
            start + Duration::from_millis(50),
            None,
        );
        assert!(matches!(r, RunOutcome::Expired));
        assert_eq!(ex.replacement_workers(), 1);
        // The replacement serves the next job although the first hangs.
        let r = ex.run(|| 2, Instant::now() + Duration::from_secs(5), None);
        assert!(matches!(r, RunOutcome::Done(2)));
        drop(release_tx); // the hung job returns; its worker retires
        let until = Instant::now() + Duration::from_secs(5);
        while ex.replacement_workers() != 0 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(ex.replacement_workers(), 0);
    }

    #[test]
    fn dropping_the_last_clone_stops_idle_workers_without_waiting_for_running_ones() {
        let ex = Executor::new(2).unwrap();
        let counters = ex.inner.queue.clone();
        assert_eq!(ex.live_workers(), 2);
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        let r = ex.run(
            move || {
                let _ = release_rx.recv();
            },
            Instant::now() + Duration::from_millis(30),
            None,
        );
        assert!(matches!(r, RunOutcome::Expired));
        let clone = ex.clone();
        drop(ex);
        assert_eq!(clone.live_workers(), 3); // a clone keeps the pool
        let start = Instant::now();
        drop(clone); // does not wait for the hung callback
        assert!(start.elapsed() < Duration::from_millis(500));
        let until = Instant::now() + Duration::from_secs(5);
        while counters.live.load(Ordering::Acquire) != 1 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            counters.live.load(Ordering::Acquire),
            1,
            "idle workers stopped"
        );
        drop(release_tx);
        let until = Instant::now() + Duration::from_secs(5);
        while counters.live.load(Ordering::Acquire) != 0 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(counters.live.load(Ordering::Acquire), 0);
    }

    #[test]
    fn cancellation_wakes_the_waiter() {
        let ex = Executor::new(1).unwrap();
        let token = crate::scope::CancelToken::new();
        let sub = token.subscribe();
        let t2 = token.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            t2.cancel();
        });
        let start = Instant::now();
        let r = ex.run(
            || std::thread::sleep(Duration::from_millis(600)),
            start + Duration::from_secs(20),
            Some(sub.receiver()),
        );
        assert!(matches!(r, RunOutcome::Canceled));
        assert!(start.elapsed() < Duration::from_secs(5));
        canceller.join().unwrap();
    }
}
