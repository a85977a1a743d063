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
//!   a worker also drops, without running it, a job whose deadline passed
//!   while it was queued.
//! - Each hung worker is replaced by a new one while at most `max_hung`
//!   workers are hung, so `threads` healthy workers remain. At that bound
//!   the pool is *saturated*: a body read of a binding that already has a
//!   hung reader fails at once as a `read_failed` item issue (private cause
//!   "executor saturated") instead of risking another worker, while other
//!   bindings' reads still run (one that hangs too is abandoned without a
//!   replacement). Should hung callbacks take every worker, new jobs are
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

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::{Duration, Instant};

use crate::error::{CauseText, Failure, FailureKind};
use crate::scope::CancelToken;

/// How long a waiter polls for a result, and an idle worker for the next
/// job, before blocking. Bounded and short: it only saves the park/unpark
/// round trip of short callbacks and back-to-back jobs.
const SPIN: Duration = Duration::from_micros(20);

/// How long a poll spins on the CPU before it starts yielding, while the
/// thread it polls for runs on another CPU. Longer than a small read's
/// whole pipeline on a worker (about a microsecond): a yield is a system
/// call (about a microsecond in a virtual machine), and a result that
/// arrives just after the spin ended was noticed only after several
/// (docs/benchmarks/NOTES.md). A poll whose peer shares its CPU does not
/// spin at all (see [`CpuHint`]), so the spin only costs the polling
/// thread's own CPU.
const PURE_SPIN: Duration = Duration::from_micros(5);

/// One in this many waits that find the worker on the waiter's CPU parks
/// at once instead of yielding (see [`park_until`]).
const PARK_EVERY_SHARED: u32 = 32;

/// No CPU known.
const NO_CPU: u32 = u32::MAX;

/// The CPU the calling thread runs on now ([`NO_CPU`] where unknown).
/// Cheap on Linux: glibc reads it from the thread's rseq area (or the
/// vDSO), without a system call.
#[cfg(target_os = "linux")]
fn current_cpu() -> u32 {
    // SAFETY: sched_getcpu takes no arguments and only returns a number.
    let cpu = unsafe { libc::sched_getcpu() };
    u32::try_from(cpu).unwrap_or(NO_CPU)
}

#[cfg(not(target_os = "linux"))]
fn current_cpu() -> u32 {
    NO_CPU
}

/// How often at most a polling worker moves itself off the CPU of the
/// thread it serves (see [`move_off_this_cpu`]).
const MOVE_EVERY: Duration = Duration::from_millis(10);

/// Moves the calling thread to another CPU it may run on, if one is likely
/// idle ([`idle_cpu_likely`]), and returns whether it did. The thread's affinity is narrowed to its
/// allowed CPUs minus the current one (the kernel migrates it at once) and
/// then set back to what it was: the thread keeps all its allowed CPUs and
/// stays where it landed until the scheduler moves it. Nothing happens
/// when the current CPU is its only allowed one, or when any call fails
/// (more than 1,024 CPUs, or the affinity changed meanwhile); if only the
/// restoring call failed, the thread is left on its other allowed CPUs.
///
/// Used by an executor worker only (never by a host thread): a worker
/// that polls on the CPU of the thread waiting for it makes every handoff
/// a context switch, and two threads that only yield to each other stay
/// together however idle the other CPUs are (docs/benchmarks/NOTES.md).
#[cfg(target_os = "linux")]
fn move_off_this_cpu() -> bool {
    idle_cpu_likely() && move_to_another_allowed_cpu()
}

/// The move of [`move_off_this_cpu`], without asking whether a CPU is idle.
#[cfg(target_os = "linux")]
fn move_to_another_allowed_cpu() -> bool {
    let cpu = current_cpu();
    let Ok(cpu) = usize::try_from(cpu) else {
        return false;
    };
    if cpu >= libc::CPU_SETSIZE as usize {
        return false;
    }
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: cpu_set_t is plain bits (all zeros is the empty set); both
    // calls get its true size and a valid pointer, and act on this thread
    // (pid 0) only; CPU_ISSET/CPU_CLR/CPU_COUNT stay inside the set (cpu
    // is below CPU_SETSIZE).
    unsafe {
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size, &mut allowed) != 0 || !libc::CPU_ISSET(cpu, &allowed) {
            return false;
        }
        let mut others = allowed;
        libc::CPU_CLR(cpu, &mut others);
        if libc::CPU_COUNT(&others) == 0 || libc::sched_setaffinity(0, size, &others) != 0 {
            return false;
        }
        let _ = libc::sched_setaffinity(0, size, &allowed);
    }
    true
}

#[cfg(not(target_os = "linux"))]
fn move_off_this_cpu() -> bool {
    false
}

/// Whether some CPU is likely idle: fewer runnable threads in the system
/// (the fourth field of `/proc/loadavg`, this thread and the one it
/// shares a CPU with included) than online CPUs plus one. A worker moved
/// onto a busy CPU waits for a time slice before every job (27 us per
/// small read with the other CPU of two spinning, against 6.7 us when it
/// stays), so it moves only when a CPU is free. A hint: on a failed read,
/// no move.
#[cfg(target_os = "linux")]
fn idle_cpu_likely() -> bool {
    let Ok(text) = std::fs::read_to_string("/proc/loadavg") else {
        return false;
    };
    // SAFETY: sysconf only returns a number.
    let online = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    runnable_from_loadavg(&text).is_some_and(|runnable| online > 0 && runnable <= online as u64)
}

/// The number of runnable threads in a `/proc/loadavg` text
/// (`"0.50 0.40 0.30 2/345 6789"` gives 2).
#[cfg(target_os = "linux")]
fn runnable_from_loadavg(text: &str) -> Option<u64> {
    text.split_ascii_whitespace()
        .nth(3)?
        .split_once('/')?
        .0
        .parse()
        .ok()
}

/// The CPU a thread that others poll for last ran on: the worker that
/// polls for or runs jobs, or the thread that submits jobs and waits for
/// them. Only a hint for how to poll (spin, yield or park), never for
/// correctness: it may be stale or overwritten by another thread, and
/// every wait still ends by its own condition, a wake-up, or its time.
///
/// Spinning for a thread that shares this CPU only delays it (it cannot
/// run until this one yields or its slice ends), so a poll whose peer last
/// ran on this CPU yields at once instead of spinning.
pub(crate) struct CpuHint(AtomicU32);

impl CpuHint {
    fn new() -> CpuHint {
        CpuHint(AtomicU32::new(NO_CPU))
    }

    /// Records `cpu` as the thread's CPU.
    fn set(&self, cpu: u32) {
        if self.0.load(Ordering::Relaxed) != cpu {
            self.0.store(cpu, Ordering::Relaxed);
        }
    }

    /// Records the calling thread's CPU, and returns it.
    fn set_here(&self) -> u32 {
        let cpu = current_cpu();
        self.set(cpu);
        cpu
    }

    /// Whether the peer last ran on `cpu` (a known CPU).
    fn is_on(&self, cpu: u32) -> bool {
        let peer = self.0.load(Ordering::Relaxed);
        peer != NO_CPU && peer == cpu
    }

    /// Whether the peer last ran on the calling thread's CPU.
    fn shares_this_cpu(&self) -> bool {
        self.is_on(current_cpu())
    }
}

/// Polls with `try_take` for at most [`SPIN`] (and not past `limit`),
/// keeping `mine` (this thread's hint) current: first spinning (a handoff
/// to another CPU takes a microsecond or two) until `peer` (the thread
/// polled for) is seen on this CPU, then yielding between polls (when the
/// thread polled for shares this CPU, yielding lets it run instead of
/// burning the slice).
fn spin_poll<T>(
    mut try_take: impl FnMut() -> Option<T>,
    mine: &CpuHint,
    peer: &CpuHint,
    limit: Instant,
) -> Option<T> {
    let start = Instant::now();
    let spin_until = (start + PURE_SPIN).min(limit);
    let until = (start + SPIN).min(limit);
    loop {
        if peer.is_on(mine.set_here()) {
            break;
        }
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

/// Waits on the calling thread for a job of `pool` until `ready()` holds
/// or `until` passes (briefly polling, then parking); returns whether
/// `ready()` held. Whoever makes `ready()` true must unpark this thread
/// afterwards.
///
/// When the worker last ran on this thread's CPU, the poll yields instead
/// of spinning, and one such wait in [`PARK_EVERY_SHARED`] parks at once:
/// two threads that only yield to each other are always runnable, so the
/// scheduler's load balancing keeps them together (both look cache-hot)
/// even while another CPU idles; the wake-up of a parked thread is where
/// the scheduler places it on an idle CPU, if there is one.
pub(crate) fn park_until(pool: &Pool, ready: impl Fn() -> bool, until: Instant) -> bool {
    let cpu = pool.submitter_cpu.set_here();
    let park_now = pool.worker_cpu.is_on(cpu)
        && pool
            .shared_waits
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(PARK_EVERY_SHARED);
    if !park_now
        && spin_poll(
            || ready().then_some(()),
            &pool.submitter_cpu,
            &pool.worker_cpu,
            until,
        )
        .is_some()
    {
        return true;
    }
    loop {
        if ready() {
            return true;
        }
        let now = Instant::now();
        if now >= until {
            return false;
        }
        std::thread::park_timeout(until - now);
    }
}

/// Waiting in the queue.
const PENDING: u8 = 0;
/// Taken by a worker.
const RUNNING: u8 = 1;
/// Ran to completion while its waiter still waited.
const DONE: u8 = 2;
/// Dropped before it started (its waiter gave up, its deadline passed, or
/// the executor went away).
const DROPPED: u8 = 3;
/// Refused after it was queued (the pool became saturated).
const REFUSED: u8 = 4;
/// Abandoned while running: its worker is hung until the job returns.
const ABANDONED: u8 = 5;

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

/// The private cause of a body read failed at once because the hung bound
/// was reached and a reader of its binding is hung.
pub(crate) const BODY_READ_SATURATED: &str =
    "executor saturated: max_hung workers are hung and a reader of this binding is one of them";

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
struct Slot<J> {
    status: AtomicU8,
    deadline: Instant,
    job: Mutex<Option<J>>,
}

impl<J> Slot<J> {
    fn take(&self) -> Option<J> {
        self.job.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// What the queue holds: a job with its own queue state. [`Slot`] wraps
/// any [`Job`] (one allocation); a caller that already shares an object
/// with its job can implement this on it and submit it with
/// [`Executor::submit_entry`], allocating nothing. Exactly one of `run`,
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
pub(crate) struct JobHandle(Arc<dyn Entry>);

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

struct QueueState {
    jobs: VecDeque<Arc<dyn Entry>>,
    closed: bool,
    sleepers: usize,
}

/// The pool shared by the workers, the executor handles and the jobs.
/// Unlike a channel, pushing a job does not wake a parked worker while
/// another idle worker is polling (that one takes the job), so
/// back-to-back short jobs cost no futex round trip.
///
/// `live` and `hung` change under the state lock (so that replacement and
/// retirement decisions see a consistent pair) and are read lock-free.
pub(crate) struct Pool {
    state: Mutex<QueueState>,
    wake: Condvar,
    /// Jobs queued (a lock-free hint for the polling worker, and a stat).
    len: AtomicUsize,
    /// Idle workers currently polling (at most one).
    spinning: AtomicUsize,
    /// Where the worker that polls for or runs jobs last ran (a hint).
    worker_cpu: CpuHint,
    /// Where the thread that submits jobs and waits for them last ran (a
    /// hint).
    submitter_cpu: CpuHint,
    /// Where the last job started (a hint).
    job_cpu: CpuHint,
    /// Waits that found the worker on the waiter's CPU.
    shared_waits: AtomicU32,
    /// When a polling worker may next move off the waiter's CPU (see
    /// [`move_off_this_cpu`]); `None` before the first move.
    next_move: Mutex<Option<Instant>>,
    threads: usize,
    max_hung: usize,
    max_queued: usize,
    /// Worker threads alive (or starting).
    live: AtomicUsize,
    /// Workers running an abandoned job.
    hung: AtomicUsize,
    /// Workers running a job (hung ones included).
    running: AtomicUsize,
    started: AtomicU64,
    abandoned: AtomicU64,
    returned: AtomicU64,
    dropped: AtomicU64,
    refused: AtomicU64,
    replaced: AtomicU64,
    /// Most jobs waiting at once, most workers busy at once, most hung at
    /// once (high-water marks since the executor was made).
    queued_high_water: AtomicUsize,
    busy_high_water: AtomicUsize,
    hung_high_water: AtomicUsize,
    /// Times the executor became saturated (see [`ExecutorStats::saturations`]).
    saturations: AtomicU64,
    /// Refusals because the queue was full (a part of `refused`).
    refused_queue_full: AtomicU64,
    /// Body readers hung now, per binding (handler identity, count).
    hung_readers: Mutex<Vec<(usize, usize)>>,
}

impl Pool {
    /// Counts a refusal of a new job for `why`.
    fn count_refusal_of(&self, why: Refusal) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        if why == Refusal::QueueFull {
            self.refused_queue_full.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn healthy(&self) -> usize {
        self.live
            .load(Ordering::Acquire)
            .saturating_sub(self.hung.load(Ordering::Acquire))
    }

    /// Whether a new body read of the binding `handler` should fail at
    /// once: `max_hung` workers are hung (a further hung reader would no
    /// longer be replaced) and a reader of the same binding is among them.
    /// Other bindings' reads still run.
    pub(crate) fn body_read_refused(&self, handler: usize) -> bool {
        if self.hung.load(Ordering::Acquire) < self.max_hung {
            return false;
        }
        let refused = self
            .hung_readers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .any(|&(h, n)| h == handler && n > 0);
        if refused {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
        refused
    }

    /// A body reader of `handler` was abandoned while it ran.
    pub(crate) fn reader_hung(&self, handler: usize) {
        let mut list = self.hung_readers.lock().unwrap_or_else(|p| p.into_inner());
        match list.iter_mut().find(|(h, _)| *h == handler) {
            Some((_, n)) => *n += 1,
            None => list.push((handler, 1)),
        }
    }

    /// An abandoned body reader of `handler` returned.
    pub(crate) fn reader_returned(&self, handler: usize) {
        let mut list = self.hung_readers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = list.iter().position(|(h, _)| *h == handler) {
            list[i].1 -= 1;
            if list[i].1 == 0 {
                list.swap_remove(i);
            }
        }
    }

    /// The refusal a new job would meet now, if any.
    fn admission(&self, st: &QueueState) -> Option<Refusal> {
        if self.healthy() == 0 {
            Some(Refusal::Saturated)
        } else if st.jobs.len() >= self.max_queued {
            Some(Refusal::QueueFull)
        } else {
            None
        }
    }

    fn try_pop(&self) -> Option<Arc<dyn Entry>> {
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
    fn move_off_submitter(&self) {
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
    fn next(&self) -> Option<Arc<dyn Entry>> {
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

    /// Removes a job from the queue (after its status left `PENDING`).
    fn unqueue(&self, entry: &Arc<dyn Entry>) {
        let mut st = self.lock();
        if let Some(i) = st.jobs.iter().position(|e| Arc::ptr_eq(e, entry)) {
            st.jobs.remove(i);
            self.len.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// With no healthy worker left, every queued job is refused (its
    /// waiter is told at once). Called with the lock held; returns the
    /// jobs to tell once the lock is released.
    fn refuse_queued(&self, st: &mut QueueState) -> Vec<Arc<dyn Entry>> {
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

    fn tell_refused(&self, jobs: Vec<Arc<dyn Entry>>) {
        for e in jobs {
            self.refused.fetch_add(1, Ordering::Relaxed);
            e.refuse(Refusal::Saturated);
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

struct Inner {
    pool: Arc<Pool>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.pool.close();
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

/// Raises a high-water mark to `now` (a load first: the mark rarely moves,
/// and an atomic read-modify-write on every job would cost more).
fn raise(mark: &AtomicUsize, now: usize) {
    if now > mark.load(Ordering::Relaxed) {
        mark.fetch_max(now, Ordering::Relaxed);
    }
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

fn worker(pool: Arc<Pool>) {
    let mut guard = LiveGuard {
        pool: pool.clone(),
        counted: true,
    };
    while let Some(entry) = pool.next() {
        let status = entry.status();
        if Instant::now() >= entry.deadline() {
            // Nobody can use its result any more: drop it unstarted.
            if status
                .compare_exchange(PENDING, DROPPED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                pool.dropped.fetch_add(1, Ordering::Relaxed);
                entry.discard();
            }
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
                hung_readers: Mutex::new(Vec::new()),
            }),
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
    /// not started yet is dropped at once, with everything it holds; a
    /// running one is abandoned and its worker replaced while the hung
    /// bound allows.
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
        park_until(
            &self.inner.pool,
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

/// How a job submitted with [`Executor::call`] ended, from the waiter's view.
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
    pub(crate) fn into_result(self, refused: FailureKind, panicked: Failure) -> Result<T, Failure> {
        match self {
            CallOutcome::Done(r) => r,
            CallOutcome::Panicked => Err(panicked),
            CallOutcome::Canceled => Err(Failure::new(FailureKind::Canceled)),
            CallOutcome::Expired => Err(Failure::new(FailureKind::DeadlineExceeded)),
            CallOutcome::Refused(why) => Err(why.failure(refused)),
        }
    }
}

/// The result slot of an [`Executor::call`].
struct Done<T> {
    ready: AtomicBool,
    value: Mutex<Option<Result<T, CallOutcome<T>>>>,
    waiter: Thread,
}

impl<T> Done<T> {
    fn set(&self, v: Result<T, CallOutcome<T>>) {
        *self.value.lock().unwrap_or_else(|p| p.into_inner()) = Some(v);
        self.ready.store(true, Ordering::Release);
        self.waiter.unpark();
    }
}

struct CallJob<F, T> {
    f: F,
    done: Arc<Done<T>>,
}

impl<T: Send + 'static, F: FnOnce() -> T + Send + 'static> Job for CallJob<F, T> {
    fn run(self) {
        let r = catch_unwind(AssertUnwindSafe(self.f)).map_err(|_| CallOutcome::Panicked);
        self.done.set(r);
    }
    fn refuse(self, why: Refusal) {
        self.done.set(Err(CallOutcome::Refused(why)));
    }
}

/// Starts a worker already counted in `live` (a failure gives the place
/// back).
fn spawn_worker(pool: &Arc<Pool>) -> std::io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// This thread's allowed CPUs (at most the first 1,024).
    #[cfg(target_os = "linux")]
    fn allowed_cpus() -> Vec<usize> {
        // SAFETY: as in move_off_this_cpu.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set),
                0
            );
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect()
        }
    }

    /// Restricts this thread to `cpus`.
    #[cfg(target_os = "linux")]
    fn pin(cpus: &[usize]) {
        // SAFETY: as in move_off_this_cpu.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &c in cpus {
                libc::CPU_SET(c, &mut set);
            }
            assert_eq!(
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set),
                0
            );
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn runnable_threads_are_read_from_the_fourth_field_of_loadavg() {
        assert_eq!(
            runnable_from_loadavg("0.50 0.40 0.30 2/345 6789\n"),
            Some(2)
        );
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30 17/2000 1"), Some(17));
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30"), None);
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30 x/3 1"), None);
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30 23 1"), None);
        assert_eq!(runnable_from_loadavg(""), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_worker_moves_to_another_allowed_cpu_and_keeps_its_affinity() {
        std::thread::spawn(|| {
            let cpus = allowed_cpus();
            // One allowed CPU: nowhere to go, and the affinity is unchanged.
            pin(&cpus[..1]);
            assert_eq!(current_cpu() as usize, cpus[0]);
            assert!(!move_to_another_allowed_cpu());
            assert_eq!(allowed_cpus(), &cpus[..1]);
            if cpus.len() < 2 {
                return; // a one-CPU machine: the rest cannot be shown
            }
            // Two allowed CPUs, running on the first: moved to the second,
            // both still allowed.
            let two = [cpus[0], cpus[1]];
            pin(&two);
            assert_eq!(current_cpu() as usize, cpus[0]);
            assert!(move_to_another_allowed_cpu());
            assert_eq!(current_cpu() as usize, cpus[1]);
            assert_eq!(allowed_cpus(), two);
        })
        .join()
        .unwrap();
    }

    fn wait_for(mut cond: impl FnMut() -> bool) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while !cond() {
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }

    #[test]
    fn runs_jobs_and_returns_results() {
        let ex = Executor::new(2).unwrap();
        let d = Instant::now() + Duration::from_secs(5);
        match ex.call(|| 40 + 2, d, None) {
            CallOutcome::Done(v) => assert_eq!(v, 42),
            _ => panic!("expected a result"),
        }
        assert_eq!(ex.stats().started, 1);
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
                        match ex.call(move || t * 1000 + i, d, None) {
                            CallOutcome::Done(v) => assert_eq!(v, t * 1000 + i),
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
        let s = ex.stats();
        assert_eq!((s.started, s.hung, s.queued, s.dropped), (2400, 0, 0, 0));
    }

    #[test]
    fn zero_threads_means_at_least_two_and_bounds_default() {
        let ex = Executor::new(0).unwrap();
        assert!(ex.threads() >= 2);
        let s = ex.stats();
        assert_eq!(s.max_hung, (8 * s.threads).max(64));
        assert_eq!(s.max_queued, (64 * s.threads).max(1024));
        let ex = Executor::with_options(ExecutorOptions {
            threads: 1,
            max_hung: 3,
            max_queued: 5,
        })
        .unwrap();
        let s = ex.stats();
        assert_eq!(
            (s.threads, s.max_hung, s.max_queued, s.workers),
            (1, 3, 5, 1)
        );
    }

    #[test]
    fn panics_are_caught() {
        let ex = Executor::new(1).unwrap();
        let d = Instant::now() + Duration::from_secs(5);
        assert!(matches!(
            ex.call(|| -> u8 { panic!("boom") }, d, None),
            CallOutcome::Panicked
        ));
        // The worker survived the panic.
        assert!(matches!(ex.call(|| 1, d, None), CallOutcome::Done(1)));
    }

    fn hang(ex: &Executor, release: &crossbeam_channel::Receiver<()>, ms: u64) {
        let rx = release.clone();
        let r = ex.call(
            move || {
                let _ = rx.recv();
            },
            Instant::now() + Duration::from_millis(ms),
            None,
        );
        assert!(matches!(r, CallOutcome::Expired));
    }

    #[test]
    fn hung_jobs_are_abandoned_and_replaced() {
        let ex = Executor::new(1).unwrap();
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        hang(&ex, &release_rx, 50);
        assert_eq!(ex.replacement_workers(), 1);
        assert_eq!(ex.stats().hung, 1);
        // The replacement serves the next job although the first hangs.
        let r = ex.call(|| 2, Instant::now() + Duration::from_secs(5), None);
        assert!(matches!(r, CallOutcome::Done(2)));
        drop(release_tx); // the hung job returns; its worker retires
        assert!(wait_for(|| ex.replacement_workers() == 0));
        let s = ex.stats();
        assert_eq!((s.hung, s.abandoned, s.returned, s.replaced), (0, 1, 1, 1));
    }

    #[test]
    fn hung_workers_beyond_max_hung_are_not_replaced_and_new_jobs_fail_fast() {
        let ex = Executor::with_options(ExecutorOptions {
            threads: 1,
            max_hung: 2,
            max_queued: 0,
        })
        .unwrap();
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        hang(&ex, &release_rx, 30);
        hang(&ex, &release_rx, 30);
        assert_eq!((ex.live_workers(), ex.stats().hung), (3, 2));
        let pool = ex.pool();
        assert!(!pool.body_read_refused(7));
        pool.reader_hung(7);
        assert!(pool.body_read_refused(7) && !pool.body_read_refused(8));
        pool.reader_returned(7);
        assert!(!pool.body_read_refused(7));
        // The third hung job takes the last healthy worker.
        hang(&ex, &release_rx, 30);
        let s = ex.stats();
        assert_eq!((s.workers, s.hung), (3, 3));
        assert!(s.saturated());
        let start = Instant::now();
        let r = ex.call(|| 1, Instant::now() + Duration::from_secs(20), None);
        assert!(matches!(r, CallOutcome::Refused(Refusal::Saturated)));
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(ex.admission(), Err(Refusal::Saturated));
        assert_eq!(ex.stats().refused, 3);
        // Capacity returns when the hung callbacks return.
        drop(release_tx);
        assert!(wait_for(|| ex.stats().hung == 0 && ex.live_workers() == 1));
        let r = ex.call(|| 3, Instant::now() + Duration::from_secs(5), None);
        assert!(matches!(r, CallOutcome::Done(3)));
        assert!(!ex.stats().saturated());
    }

    #[test]
    fn queued_jobs_are_refused_when_the_last_healthy_worker_hangs() {
        let ex = Executor::with_options(ExecutorOptions {
            threads: 1,
            max_hung: 1,
            max_queued: 0,
        })
        .unwrap();
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        // One worker hung and replaced: one hung, one healthy.
        hang(&ex, &release_rx, 30);
        // The healthy worker runs a job that hangs; a second job queues
        // behind it with a long deadline.
        let (started_tx, started_rx) = crossbeam_channel::bounded::<()>(1);
        let rx = release_rx.clone();
        let ex2 = ex.clone();
        let hung_waiter = std::thread::spawn(move || {
            ex2.call(
                move || {
                    let _ = started_tx.send(());
                    let _ = rx.recv();
                },
                Instant::now() + Duration::from_millis(300),
                None,
            )
        });
        started_rx.recv().unwrap();
        let ex3 = ex.clone();
        let queued_waiter = std::thread::spawn(move || {
            let start = Instant::now();
            let r = ex3.call(|| 1, Instant::now() + Duration::from_secs(30), None);
            (r, start.elapsed())
        });
        assert!(wait_for(|| ex.stats().queued == 1));
        assert!(matches!(hung_waiter.join().unwrap(), CallOutcome::Expired));
        // The queued job was refused as soon as no healthy worker remained,
        // long before its own deadline.
        let (r, took) = queued_waiter.join().unwrap();
        assert!(matches!(r, CallOutcome::Refused(Refusal::Saturated)));
        assert!(took < Duration::from_secs(10), "took {took:?}");
        assert_eq!(ex.stats().queued, 0);
        drop(release_tx);
        assert!(wait_for(|| ex.stats().hung == 0));
    }

    #[test]
    fn queue_bound_refuses_jobs_beyond_max_queued() {
        let ex = Executor::with_options(ExecutorOptions {
            threads: 1,
            max_hung: 4,
            max_queued: 1,
        })
        .unwrap();
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        let (started_tx, started_rx) = crossbeam_channel::bounded::<()>(1);
        let ex2 = ex.clone();
        let busy = std::thread::spawn(move || {
            ex2.call(
                move || {
                    let _ = started_tx.send(());
                    let _ = release_rx.recv();
                },
                Instant::now() + Duration::from_secs(30),
                None,
            )
        });
        started_rx.recv().unwrap();
        let ex3 = ex.clone();
        let queued = std::thread::spawn(move || {
            ex3.call(|| 1, Instant::now() + Duration::from_secs(30), None)
        });
        assert!(wait_for(|| ex.stats().queued == 1));
        let r = ex.call(|| 2, Instant::now() + Duration::from_secs(30), None);
        assert!(matches!(r, CallOutcome::Refused(Refusal::QueueFull)));
        drop(release_tx);
        assert!(matches!(busy.join().unwrap(), CallOutcome::Done(())));
        assert!(matches!(queued.join().unwrap(), CallOutcome::Done(1)));
    }

    #[test]
    fn jobs_given_up_before_they_start_are_dropped_at_once() {
        struct Held(Arc<AtomicUsize>);
        impl Drop for Held {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let ex = Executor::new(1).unwrap();
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        let (started_tx, started_rx) = crossbeam_channel::bounded::<()>(1);
        let ex2 = ex.clone();
        let busy = std::thread::spawn(move || {
            ex2.call(
                move || {
                    let _ = started_tx.send(());
                    let _ = release_rx.recv();
                },
                Instant::now() + Duration::from_secs(30),
                None,
            )
        });
        started_rx.recv().unwrap();
        let dropped = Arc::new(AtomicUsize::new(0));
        for _ in 0..10 {
            let held = Held(dropped.clone());
            let r = ex.call(
                move || drop(held),
                Instant::now() + Duration::from_millis(20),
                None,
            );
            assert!(matches!(r, CallOutcome::Expired));
        }
        // Released when given up, while the only worker is still busy.
        assert_eq!(dropped.load(Ordering::SeqCst), 10);
        let s = ex.stats();
        assert_eq!((s.queued, s.dropped, s.started), (0, 10, 1));
        drop(release_tx);
        assert!(matches!(busy.join().unwrap(), CallOutcome::Done(())));
    }

    #[test]
    fn dropping_the_last_clone_stops_idle_workers_without_waiting_for_running_ones() {
        let ex = Executor::new(2).unwrap();
        let pool = ex.pool();
        assert_eq!(ex.live_workers(), 2);
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        hang(&ex, &release_rx, 30);
        let clone = ex.clone();
        drop(ex);
        assert_eq!(clone.live_workers(), 3); // a clone keeps the pool
        let start = Instant::now();
        drop(clone); // does not wait for the hung callback
        assert!(start.elapsed() < Duration::from_millis(500));
        assert!(
            wait_for(|| pool.live.load(Ordering::Acquire) == 1),
            "idle workers stopped"
        );
        drop(release_tx);
        assert!(wait_for(|| pool.live.load(Ordering::Acquire) == 0));
    }

    #[test]
    fn cancellation_wakes_the_waiter() {
        let ex = Executor::new(1).unwrap();
        let token = CancelToken::new();
        let t2 = token.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            t2.cancel();
        });
        let start = Instant::now();
        let r = ex.call(
            || std::thread::sleep(Duration::from_millis(600)),
            start + Duration::from_secs(20),
            Some(&token),
        );
        assert!(matches!(r, CallOutcome::Canceled));
        assert!(start.elapsed() < Duration::from_secs(5));
        canceller.join().unwrap();
    }
}
