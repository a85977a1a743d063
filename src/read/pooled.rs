//! The read pipeline on an executor (docs/BEHAVIOUR.md §8): the steps of
//! `pipeline.rs` run as jobs on workers, and the calling thread only waits.
//! This file is the hand-over between jobs; every rule of the read lives in
//! the steps.
//!
//! The whole pipeline is one job (one handoff per read). The caller waits
//! until the read's deadline or cancellation, whatever any callback does:
//! a policy or resolve callback that blocks is abandoned at the read
//! deadline (`deadline_exceeded`) or on cancellation (`canceled`). A body
//! read that passes its item deadline is abandoned on its own: the caller
//! marks the item `timeout` and hands the rest of the pipeline (the later
//! items, the recheck and assembly) to a new job, so siblings still make
//! progress. The abandoned callback keeps running on its (hung) worker; its
//! late result is discarded.
//!
//! The pipeline's state between body reads lives in [`ReadTask::shared`];
//! a job owns it while its generation (`owner`) is current. A job puts the
//! state there before every body read, so that the caller can take it over
//! if the reader hangs, and takes it back afterwards, unless the caller has
//! taken over meanwhile (the job then stops, its result discarded).
//!
//! Callback tables. The task holds the read's references to the policy
//! and the binding's handler in [`Shared::tables`]. A job moves out the one
//! it calls for as long as it calls it (the policy for the first check and
//! the recheck, the handler for the body reads: no reference count is
//! touched on the worker) and moves it back, under the lock, before it
//! publishes its result; the caller takes the task's references when the
//! read ends and drops them on its own thread. So once the read has
//! returned, no worker holds a table of a read that completed: the host's
//! last free runs every `release`. Only a job the caller gave up on
//! (deadline, cancellation, an abandoned body read) may still hold the
//! table it was calling, until its callback returns (the caller gives the
//! next job its own clone of the handler when it takes over).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::thread::Thread;
use std::time::Instant;

use crate::binding::ResourceHandler;
use crate::call::{Frame, FrameRules};
use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure, FailureKind};
use crate::executor::{new_status, Entry, Executor, Job, JobHandle, Pool, Refusal, Watched};
use crate::limits::Limits;
use crate::observe::{self, CallbackKind};
use crate::plan::{ResourceMatch, ResourceReadPlan};
use crate::policy::ResourcePolicy;
use crate::scope::{CallContext, CallPhase, RequestScope};

use super::assemble::Shape;
use super::authorize::{check_scope, guarded_input};
use super::pipeline::{self, BodyRead, Pipeline};
use super::{spare, ResourceBundle};

/// Whether a new body read of the binding `handler` (its identity) should
/// fail at once: `max_hung` workers are hung (a further hung reader would
/// no longer be replaced) and a reader of the same binding is among them
/// (the read counts its hung readers per binding in the pool). Other
/// bindings' reads still run. A refusal counts in the executor's stats.
fn body_read_refused(pool: &Pool, handler: usize) -> bool {
    let refused = pool.at_hung_bound() && pool.has_hung(handler);
    if refused {
        pool.count_refusal();
    }
    refused
}

/// Moves the tables a job held back into the task's.
fn give_back(tables: &mut Tables, held: Tables) {
    if held.policy.is_some() {
        tables.policy = held.policy;
    }
    if held.handler.is_some() {
        tables.handler = held.handler;
    }
}

/// `owner` once the read has returned: no job makes progress any more.
const CLOSED: u32 = u32::MAX;

/// The read's references to the callback tables it calls; a job moves out
/// the one it calls while it calls it.
#[derive(Default)]
struct Tables {
    policy: Option<Arc<dyn ResourcePolicy>>,
    handler: Option<Arc<dyn ResourceHandler>>,
}

struct Shared {
    /// The generation of the job allowed to make progress.
    owner: u32,
    /// The tables not in use by a job, until the read ends (the caller
    /// takes them then).
    tables: Tables,
    /// The match, for the first job.
    matched: Option<ResourceMatch>,
    /// The pipeline, while a body read runs (or after a takeover).
    pipeline: Option<Pipeline>,
    /// The body read running now.
    current: Option<BodyRead>,
    result: Option<Result<ResourceBundle, Failure>>,
    /// The caller's spare result buffer, for the first job's worker (see
    /// `read::spare`): the bundle is built on the worker but dropped on
    /// the caller's thread, so the buffer goes back and forth instead of
    /// being allocated on one thread and freed on the other every read.
    spare: Option<spare::Spare>,
}

/// One read on an executor, shared by the caller and the jobs.
pub(super) struct ReadTask {
    /// The definition (discovery and the recheck ask about it; it calls
    /// nothing).
    definition: Arc<ResourceDefinition>,
    /// The identity of the read's binding, for per-binding hung counts.
    handler_key: usize,
    limits: Limits,
    /// The revision and cache hints the result is shaped with.
    shape: Shape,
    scope: RequestScope,
    /// How a refusal or a panic of the pipeline reads.
    rules: &'static FrameRules,
    pool: Arc<Pool>,
    /// Who is told when a result is published.
    waiting: Waiting,
    done: AtomicBool,
    shared: Mutex<Shared>,
    /// The plan, set once by the first job (read-only after).
    plan: OnceLock<ResourceReadPlan>,
    /// The queue status of the first job: the task itself is that job, so
    /// submitting it allocates nothing.
    first: AtomicU8,
}

/// Who is told when a read's result is published.
pub(super) enum Waiting {
    /// The calling thread waits for it (the blocking executor read).
    Thread(Thread),
    /// Nobody waits: an asynchronous call (`detached.rs`), looked at by
    /// the worker that published, or by the executor's watch when the
    /// result was published elsewhere (a refusal, on any thread).
    Call(Weak<dyn Watched>),
}

impl Waiting {
    /// A result was published, by a job on its worker (`on_worker`: an
    /// asynchronous call is then concluded there) or by a refusal on any
    /// thread (the watch concludes it).
    pub(super) fn wake(&self, on_worker: bool) {
        match self {
            Waiting::Thread(t) => t.unpark(),
            Waiting::Call(call) => {
                if let Some(call) = call.upgrade() {
                    if on_worker {
                        call.look(Instant::now());
                    } else {
                        call.wake();
                    }
                }
            }
        }
    }
}

/// The first job is the task itself.
impl Entry for ReadTask {
    fn status(&self) -> &AtomicU8 {
        &self.first
    }
    fn deadline(&self) -> Instant {
        self.scope.deadline()
    }
    fn run(&self) {
        if let Some(r) = self.scope.recorder() {
            r.job_started();
        }
        if self.run_guarded(0) {
            self.waiting.wake(true);
        }
    }
    fn refuse(&self, why: Refusal) {
        if self.finish(0, Err(why.failure(self.rules.refused)), Tables::default()) {
            self.waiting.wake(false);
        }
    }
    fn discard(&self) {}
}

/// A later job, continuing the pipeline after an abandoned body read.
struct Segment {
    task: Arc<ReadTask>,
    generation: u32,
}

impl Job for Segment {
    fn run(self) {
        if self.task.run_guarded(self.generation) {
            self.task.waiting.wake(true);
        }
    }

    fn refuse(self, why: Refusal) {
        let failure = Err(why.failure(self.task.rules.refused));
        if self
            .task
            .finish(self.generation, failure, Tables::default())
        {
            self.task.waiting.wake(false);
        }
    }
}

/// Whether a job lost the pipeline to the caller (or the read ended).
struct Lost;

/// What stops a job: it lost the pipeline, or the read fails.
type Stop = Result<Lost, Failure>;

impl ReadTask {
    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Publishes the result of generation `generation`, if it still owns
    /// the read, and returns whether it did (the caller then wakes whoever
    /// waits: [`Waiting::wake`]). The tables the job held go back to the
    /// task first (or, when the job lost the read, are dropped here, after
    /// the lock).
    fn finish(
        &self,
        generation: u32,
        result: Result<ResourceBundle, Failure>,
        held: Tables,
    ) -> bool {
        let mut sh = self.lock();
        if sh.owner != generation {
            drop(sh);
            drop(held);
            return false;
        }
        give_back(&mut sh.tables, held);
        sh.owner = CLOSED;
        sh.result = Some(result);
        drop(sh);
        self.done.store(true, Ordering::Release);
        true
    }

    /// Runs generation `generation`; a panic of the library (callbacks'
    /// panics are caught on their own) fails the read instead of hanging it.
    /// Returns whether this generation published the read's result.
    fn run_guarded(&self, generation: u32) -> bool {
        match catch_unwind(AssertUnwindSafe(|| self.run(generation))) {
            Ok(published) => published,
            Err(_) => self.finish(generation, Err((self.rules.panicked)()), Tables::default()),
        }
    }

    fn run(&self, generation: u32) -> bool {
        let mut held = Tables::default();
        match self.drive(generation, &mut held) {
            Ok(bundle) => self.finish(generation, Ok(bundle), held),
            Err(Err(f)) => self.finish(generation, Err(f), held),
            Err(Ok(Lost)) => {
                drop(held);
                false
            }
        }
    }

    /// The steps from where generation `generation` starts: planning for
    /// the first job, the next body read for the later ones; then the body
    /// reads, the recheck and assembly. The tables the job moved out of the
    /// task are in `held` whenever this returns.
    fn drive(&self, generation: u32, held: &mut Tables) -> Result<ResourceBundle, Stop> {
        let scope = &self.scope;
        let limits = &self.limits;
        let mut call = scope.call_in(CallPhase::FirstCheck);
        let mut p = self.resume(generation, &mut call, held)?;
        let plan = self.plan.get().ok_or(Ok(Lost))?;
        let targets = plan.items();
        let refused = || body_read_refused(&self.pool, self.handler_key);
        loop {
            let Some(read) = p.next_read(scope, targets, limits, refused).map_err(Err)? else {
                break;
            };
            call.enter_body_read(read.deadline, limits.max_item_bytes);
            let target = &targets[read.index];
            // No policy callback during body reads: the policy goes back.
            self.hand_over(generation, read, p, held.policy.take())?;
            let handler = held.handler.as_deref().ok_or(Ok(Lost))?;
            let result = observe::timed(call.recorder(), CallbackKind::BodyRead, || {
                guarded_input(|| handler.read(&call, target))
            });
            p = self.take_back(generation)?;
            p.settle(read, result, handler, target, scope, limits)
                .map_err(Err)?;
        }
        if held.policy.is_none() {
            held.policy = Some(self.take_policy(generation)?);
        }
        let policy = held.policy.as_deref().ok_or(Ok(Lost))?;
        let (definition, shape) = (&self.definition, &self.shape);
        if policy.decides_plans() {
            p.finish::<true>(policy, definition, plan, scope, limits, shape, &mut call)
        } else {
            p.finish::<false>(policy, definition, plan, scope, limits, shape, &mut call)
        }
        .map_err(Err)
    }

    /// The pipeline to continue with: planned and authorized by the first
    /// job (which takes the match and the caller's spare buffer), taken
    /// over from the previous generation by later ones. Moves the tables
    /// the job calls into `held`: the policy and the handler for the first
    /// job, the handler for later ones.
    fn resume(
        &self,
        generation: u32,
        call: &mut CallContext,
        held: &mut Tables,
    ) -> Result<Pipeline, Stop> {
        let mut sh = self.lock();
        if sh.owner != generation {
            return Err(Ok(Lost));
        }
        held.handler = Some(sh.tables.handler.take().ok_or(Ok(Lost))?);
        if generation > 0 {
            return sh.pipeline.take().ok_or(Ok(Lost));
        }
        held.policy = Some(sh.tables.policy.take().ok_or(Ok(Lost))?);
        let matched = sh.matched.take().ok_or(Ok(Lost))?;
        let buffer = sh.spare.take();
        drop(sh);
        if let Some(b) = buffer {
            // This worker's spares from now on: the result is assembled
            // into them.
            spare::adopt(b);
        }
        let (policy, handler) = match (&held.policy, &held.handler) {
            (Some(p), Some(h)) => (p.as_ref(), h.as_ref()),
            _ => return Err(Ok(Lost)),
        };
        // The job may start later than the caller's check.
        check_scope(&self.scope).map_err(Err)?;
        let mut replay = None;
        let (definition, scope, limits) = (&self.definition, &self.scope, &self.limits);
        let plan = if policy.decides_plans() {
            pipeline::plan::<true>(
                policy,
                handler,
                definition,
                &matched,
                scope,
                limits,
                call,
                &mut replay,
            )
        } else {
            pipeline::plan::<false>(
                policy,
                handler,
                definition,
                &matched,
                scope,
                limits,
                call,
                &mut replay,
            )
        }
        .map_err(Err)?;
        // Only the first job plans, once.
        let _ = self.plan.set(plan);
        let plan = self.plan.get().ok_or(Ok(Lost))?;
        // A policy that decides plans has answered the first check already.
        let first = replay.as_deref().map_or(policy, |r| r as _);
        Pipeline::authorize(first, plan, &self.scope, &self.limits, &self.shape, call).map_err(Err)
    }

    /// The policy, moved out of the task, while generation `generation`
    /// owns the read.
    fn take_policy(&self, generation: u32) -> Result<Arc<dyn ResourcePolicy>, Stop> {
        let mut sh = self.lock();
        if sh.owner != generation {
            return Err(Ok(Lost));
        }
        sh.tables.policy.take().ok_or(Ok(Lost))
    }

    /// Before a body read: the pipeline (and the policy, when the job held
    /// it) goes to the shared state, so that the caller can take over if
    /// the reader passes its item deadline.
    fn hand_over(
        &self,
        generation: u32,
        read: BodyRead,
        p: Pipeline,
        policy: Option<Arc<dyn ResourcePolicy>>,
    ) -> Result<(), Stop> {
        let mut sh = self.lock();
        if sh.owner != generation {
            // The read is no longer this job's: what it held goes here.
            drop(sh);
            drop(policy);
            return Err(Ok(Lost));
        }
        if let Some(policy) = policy {
            sh.tables.policy = Some(policy);
        }
        sh.current = Some(read);
        sh.pipeline = Some(p);
        Ok(())
    }

    /// After a body read: the pipeline back from the shared state, unless
    /// the caller took over meanwhile (at the item deadline, or the read
    /// ended) and counted the reader as hung: then its late result is
    /// discarded.
    fn take_back(&self, generation: u32) -> Result<Pipeline, Stop> {
        let mut sh = self.lock();
        if sh.owner != generation {
            drop(sh);
            self.pool.key_returned(self.handler_key);
            return Err(Ok(Lost));
        }
        sh.current = None;
        sh.pipeline.take().ok_or(Ok(Lost))
    }

    /// When the body read of generation `generation` passed its item
    /// deadline: marks the item `timeout`, hands the pipeline to the next
    /// generation and returns `true`. Otherwise returns when the caller
    /// should look again (`None`: the read is not in a body read).
    fn take_over_if_late(
        &self,
        generation: u32,
        now: Instant,
        handler: &Arc<dyn ResourceHandler>,
    ) -> Result<bool, Option<Instant>> {
        let mut sh = self.lock();
        if sh.owner != generation {
            return Err(None);
        }
        match sh.current {
            Some(read) if read.deadline <= now => {
                let Some(p) = sh.pipeline.as_mut() else {
                    return Err(None);
                };
                p.abandon(read);
                sh.current = None;
                sh.owner = generation + 1;
                // The hung job keeps the handler it moved out; the next
                // one gets the caller's.
                sh.tables.handler = Some(handler.clone());
                self.pool.key_hung(self.handler_key);
                Ok(true)
            }
            Some(read) => Err(Some(read.deadline)),
            None => Err(None),
        }
    }

    /// Ends the read from the caller's side: no job makes progress any
    /// more, and the task's table references are given back (dropped by
    /// the caller, outside the lock). Returns a result that was published
    /// meanwhile.
    fn close(&self) -> Option<Result<ResourceBundle, Failure>> {
        let mut sh = self.lock();
        sh.owner = CLOSED;
        sh.pipeline = None;
        if sh.current.take().is_some() {
            // A body read still runs: its reader is hung from now on.
            self.pool.key_hung(self.handler_key);
        }
        let tables = std::mem::take(&mut sh.tables);
        let result = sh.result.take();
        drop(sh);
        drop(tables);
        result
    }
}

/// What a read on an executor starts from: the selection's parts the jobs
/// own (the tables, the definition, the match) and what shapes the result.
pub(super) struct Parts {
    pub policy: Arc<dyn ResourcePolicy>,
    pub definition: Arc<ResourceDefinition>,
    pub handler: Arc<dyn ResourceHandler>,
    pub matched: ResourceMatch,
    pub limits: Limits,
    pub shape: Shape,
}

impl ReadTask {
    /// A read of `parts` in `frame` on `pool`, telling `waiting` when its
    /// result is published. `spare` is the result buffer the first job
    /// assembles into (see `read::spare`).
    pub(super) fn new(
        parts: Parts,
        frame: &Frame<'_>,
        pool: Arc<Pool>,
        waiting: Waiting,
        spare: spare::Spare,
    ) -> ReadTask {
        let Parts {
            policy,
            definition,
            handler,
            matched,
            limits,
            shape,
        } = parts;
        ReadTask {
            definition,
            handler_key: Arc::as_ptr(&handler) as *const () as usize,
            limits,
            shape,
            scope: frame.scope().clone(),
            rules: frame.rules(),
            pool,
            waiting,
            done: AtomicBool::new(false),
            shared: Mutex::new(Shared {
                owner: 0,
                tables: Tables {
                    policy: Some(policy),
                    handler: Some(handler),
                },
                matched: Some(matched),
                pipeline: None,
                current: None,
                result: None,
                spare: Some(spare),
            }),
            plan: OnceLock::new(),
            first: new_status(),
        }
    }

    /// The read's request scope.
    pub(super) fn scope(&self) -> &RequestScope {
        &self.scope
    }

    /// Runs the first generation on this thread, which is already a
    /// worker's (an asynchronous read's own job), then tells whoever
    /// waits when it published the result.
    pub(super) fn run_here(&self) {
        if self.run_guarded(0) {
            self.waiting.wake(true);
        }
    }
}

/// Reads on `executor`: the pipeline runs on workers, this thread waits
/// until the read deadline or cancellation. `handler` (the registry's,
/// which this call holds) is for a job taking over after an abandoned body
/// read.
pub(super) fn read(
    executor: &Executor,
    frame: &Frame<'_>,
    parts: Parts,
) -> Result<ResourceBundle, Failure> {
    let handler = parts.handler.clone();
    let waiting = Waiting::Thread(std::thread::current());
    let task = Arc::new(ReadTask::new(
        parts,
        frame,
        executor.pool(),
        waiting,
        spare::take(),
    ));
    // Once the first job is queued, `step` closes the task on every path
    // that ends the read, giving the read's table references back on this
    // thread; when it was refused, this thread holds the only reference to
    // the task.
    if let Some(r) = frame.scope().recorder() {
        r.submitted();
    }
    let handle = executor
        .submit_entry(task.clone())
        .map_err(|why| why.failure(task.rules.refused))?;
    let mut waiter = Waiter::new(handle, &task, handler);
    let scope = &task.scope;
    let _wake = scope
        .cancel_token()
        .map(|c| c.subscribe_thread(std::thread::current()));
    loop {
        let ready = || task.done.load(Ordering::Acquire) || scope.is_canceled();
        task.pool.park_until(ready, waiter.next());
        if let Step::Over(result) = waiter.step(executor, &task) {
            return result;
        }
    }
}

/// What looking at a read found.
pub(super) enum Step {
    /// The read is over: its result (or failure).
    Over(Result<ResourceBundle, Failure>),
    /// Not yet: look again at this instant (or when woken).
    Later(Instant),
}

/// The side of a read on an executor that is not a job: what the waiting
/// caller does between the jobs (in the blocking driver), or the
/// executor's watch for an asynchronous read (`detached.rs`). The same
/// steps either way: the result once published; `canceled` or
/// `deadline_exceeded` (the job given up) at cancellation or the read
/// deadline; past a body read's item deadline, its item `timeout` and the
/// rest of the pipeline handed to a new job.
pub(super) struct Waiter {
    /// The generation of the job that owns the read.
    generation: u32,
    /// That job.
    handle: JobHandle,
    /// When to look at the running body read next: no item deadline can
    /// come sooner than one item timeout from the last look.
    look: Instant,
    /// The registry's handler, for a job taking over after an abandoned
    /// body read.
    handler: Arc<dyn ResourceHandler>,
    /// The read deadline.
    deadline: Instant,
}

impl Waiter {
    /// The waiting side of `task`, whose first job is `handle`.
    pub(super) fn new(
        handle: JobHandle,
        task: &ReadTask,
        handler: Arc<dyn ResourceHandler>,
    ) -> Waiter {
        let deadline = task.scope.deadline();
        Waiter {
            generation: 0,
            handle,
            look: Instant::now()
                .checked_add(task.limits.item_timeout)
                .unwrap_or(deadline),
            handler,
            deadline,
        }
    }

    /// The next instant to look at the read (unless woken before).
    pub(super) fn next(&self) -> Instant {
        self.look.min(self.deadline)
    }

    /// Looks at `task` now: the read's end, or when to look again.
    pub(super) fn step(&mut self, executor: &Executor, task: &Arc<ReadTask>) -> Step {
        let scope = &task.scope;
        let deadline = self.deadline;
        if task.done.load(Ordering::Acquire) {
            return Step::Over(task.close().unwrap_or_else(|| {
                Err(Failure::new(FailureKind::ReadFailed)
                    .caused_by(CauseText("the read finished without a result".into())))
            }));
        }
        let now = Instant::now();
        if scope.is_canceled() || now >= deadline {
            // Closed first, so that the job makes no further progress.
            if let Some(r) = task.close() {
                return Step::Over(r);
            }
            executor.give_up(&self.handle);
            return Step::Over(Err(Failure::new(if scope.is_canceled() {
                FailureKind::Canceled
            } else {
                FailureKind::DeadlineExceeded
            })));
        }
        let item_timeout = task.limits.item_timeout;
        match task.take_over_if_late(self.generation, now, &self.handler) {
            Ok(_) => {
                // The reader passed its item deadline: abandon it and
                // continue with the siblings on a new job.
                executor.give_up(&self.handle);
                self.generation += 1;
                let segment = Segment {
                    task: task.clone(),
                    generation: self.generation,
                };
                self.handle = match executor.submit(deadline, segment) {
                    Ok(h) => h,
                    Err(why) => {
                        task.close();
                        return Step::Over(Err(why.failure(task.rules.refused)));
                    }
                };
                self.look = now.checked_add(item_timeout).unwrap_or(deadline);
            }
            Err(Some(d)) => self.look = d,
            Err(None) => self.look = now.checked_add(item_timeout).unwrap_or(deadline),
        }
        Step::Later(self.next())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use crate::executor::CallOutcome;
    use crate::*;

    /// A body read is refused only at the hung bound and only for a
    /// binding with a hung reader; each refusal counts in the stats.
    #[test]
    fn body_reads_of_a_binding_with_a_hung_reader_are_refused_at_the_hung_bound() {
        let ex = Executor::with_options(ExecutorOptions {
            threads: 1,
            max_hung: 1,
            max_queued: 0,
        })
        .unwrap();
        let pool = ex.pool();
        pool.key_hung(7);
        // Below the bound: nothing is refused, even for binding 7.
        assert!(!super::body_read_refused(&pool, 7));
        let (release_tx, release_rx) = crossbeam_channel::bounded::<()>(0);
        let r = ex.call(
            move || {
                let _ = release_rx.recv();
            },
            Instant::now() + Duration::from_millis(30),
            None,
        );
        assert!(matches!(r, CallOutcome::Expired));
        // At the bound: binding 7 is refused, binding 8 is not.
        assert!(super::body_read_refused(&pool, 7));
        assert!(!super::body_read_refused(&pool, 8));
        assert_eq!(ex.stats().refused, 1);
        pool.key_returned(7);
        assert!(!super::body_read_refused(&pool, 7));
        drop(release_tx);
    }

    struct Text;

    impl ResourceHandler for Text {
        fn resolve(
            &self,
            _: &CallContext,
            m: &ResourceMatch,
        ) -> Result<ResourceReadPlan, CallbackError> {
            ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
        }
        fn read(
            &self,
            _: &CallContext,
            _: &ResourceTarget,
        ) -> Result<ResourcePayload, CallbackError> {
            ResourcePayload::text("text/plain", &"x".repeat(1200)).map_err(CallbackError::failed)
        }
    }

    /// The result is assembled on a worker and dropped on the caller's
    /// thread: the caller's spare buffer goes with the read to the worker,
    /// so the next read's result reuses the previous one's buffer instead
    /// of a buffer allocated on the worker and freed on the caller.
    #[test]
    fn an_executor_read_assembles_into_the_callers_spare_buffer() {
        let r = Resources::builder()
            .policy(Arc::new(AllowAll))
            .binding(
                ResourceBinding::new(r#"{"uri":"bundle://b","name":"b"}"#, Arc::new(Text)).unwrap(),
            )
            .build()
            .unwrap();
        let options = ReadOptions::from(CallOptions {
            executor: Some(Executor::new(2).unwrap()),
            ..CallOptions::default()
        });
        let first = r.read(b"bundle://b", &options).unwrap();
        let at = first.json().as_ptr();
        // Kept as this thread's spare.
        drop(first);
        for _ in 0..3 {
            let next = r.read(b"bundle://b", &options).unwrap();
            assert_eq!(next.json().as_ptr(), at);
            drop(next);
        }
    }
}
