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

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::error::{CauseText, Failure, FailureKind};

/// How long a waiter polls for a result, and an idle worker for the next
/// job, before blocking. Bounded and short: it only saves the park/unpark
/// round trip of short callbacks and back-to-back jobs.
const SPIN: Duration = Duration::from_micros(20);

/// Polls `rx` without blocking for at most [`SPIN`] (and not past `limit`).
fn spin_poll<T>(rx: &Receiver<T>, limit: Instant) -> Option<T> {
    let start = Instant::now();
    let until = (start + SPIN).min(limit);
    loop {
        for _ in 0..32 {
            if let Ok(v) = rx.try_recv() {
                return Some(v);
            }
            std::hint::spin_loop();
        }
        if Instant::now() >= until {
            return None;
        }
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

struct Counters {
    /// Workers currently alive (regular and replacements).
    live: AtomicUsize,
    /// Replacement workers currently alive beyond the regular ones.
    extra: AtomicUsize,
    /// Most replacement workers alive at once.
    cap: usize,
}

struct Inner {
    tx: Sender<Job>,
    rx: Receiver<Job>,
    counters: Arc<Counters>,
    threads: usize,
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
            .field(
                "replacements",
                &self.inner.counters.extra.load(Ordering::Relaxed),
            )
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
struct LiveGuard(Arc<Counters>);

impl Drop for LiveGuard {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::AcqRel);
    }
}

fn worker(rx: Receiver<Job>, counters: Arc<Counters>) {
    let _live = LiveGuard(counters.clone());
    loop {
        let far = Instant::now() + SPIN;
        let mut job = match spin_poll(&rx, far) {
            Some(job) => job,
            None => match rx.recv() {
                Ok(job) => job,
                Err(_) => return, // the last executor clone was dropped
            },
        };
        if job.status.load(Ordering::Acquire) == RETIRE {
            counters.extra.fetch_sub(1, Ordering::AcqRel);
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
                counters.extra.fetch_sub(1, Ordering::AcqRel);
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
        let (tx, rx) = crossbeam_channel::unbounded();
        let inner = Arc::new(Inner {
            tx,
            rx,
            counters: Arc::new(Counters {
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
        self.inner.counters.live.load(Ordering::Acquire)
    }

    /// Replacement workers currently alive (for abandoned callbacks).
    pub fn replacement_workers(&self) -> usize {
        self.inner.counters.extra.load(Ordering::Acquire)
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
        if self.inner.tx.send(job).is_err() {
            // Unreachable while `self` holds a receiver, but never hang.
            return RunOutcome::Expired;
        }
        // Short callbacks usually finish within a few microseconds: poll
        // briefly before blocking, which saves a park/unpark round trip.
        if let Some(r) = spin_poll(&result_rx, deadline) {
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
                    let counters = &self.inner.counters;
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
                        let _ = self.inner.tx.send(Job {
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
    let rx = inner.rx.clone();
    let counters = inner.counters.clone();
    counters.live.fetch_add(1, Ordering::AcqRel);
    std::thread::Builder::new()
        .name("mcp-resources-worker".into())
        .spawn(move || worker(rx, counters))
        .map(drop)
        .map_err(|e| {
            inner.counters.live.fetch_sub(1, Ordering::AcqRel);
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
        let counters = ex.inner.counters.clone();
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
