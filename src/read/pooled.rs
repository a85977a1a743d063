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
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::Thread;
use std::time::Instant;

use crate::binding::ResourceHandler;
use crate::call::{Frame, FrameRules};
use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure, FailureKind};
use crate::executor::{new_status, Entry, Executor, Job, JobHandle, Pool, Refusal};
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
    spare: Option<String>,
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
    caller: Thread,
    done: AtomicBool,
    shared: Mutex<Shared>,
    /// The plan, set once by the first job (read-only after).
    plan: OnceLock<ResourceReadPlan>,
    /// The queue status of the first job: the task itself is that job, so
    /// submitting it allocates nothing.
    first: AtomicU8,
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
        self.run_guarded(0);
    }
    fn refuse(&self, why: Refusal) {
        self.finish(0, Err(why.failure(self.rules.refused)), Tables::default());
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
        self.task.run_guarded(self.generation);
    }

    fn refuse(self, why: Refusal) {
        self.task.finish(
            self.generation,
            Err(why.failure(self.task.rules.refused)),
            Tables::default(),
        );
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
    /// the read, and wakes the caller. The tables the job held go back to
    /// the task first (or, when the job lost the read, are dropped here,
    /// after the lock).
    fn finish(&self, generation: u32, result: Result<ResourceBundle, Failure>, held: Tables) {
        let mut sh = self.lock();
        if sh.owner != generation {
            drop(sh);
            drop(held);
            return;
        }
        give_back(&mut sh.tables, held);
        sh.owner = CLOSED;
        sh.result = Some(result);
        drop(sh);
        self.done.store(true, Ordering::Release);
        self.caller.unpark();
    }

    /// Runs generation `generation`; a panic of the library (callbacks'
    /// panics are caught on their own) fails the read instead of hanging it.
    fn run_guarded(&self, generation: u32) {
        if catch_unwind(AssertUnwindSafe(|| self.run(generation))).is_err() {
            self.finish(generation, Err((self.rules.panicked)()), Tables::default());
        }
    }

    fn run(&self, generation: u32) {
        let mut held = Tables::default();
        match self.drive(generation, &mut held) {
            Ok(bundle) => self.finish(generation, Ok(bundle), held),
            Err(Err(f)) => self.finish(generation, Err(f), held),
            Err(Ok(Lost)) => drop(held),
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
        p.finish(
            policy,
            &self.definition,
            plan,
            scope,
            limits,
            &self.shape,
            &mut call,
        )
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
            // This worker's spare from now on: the result is assembled
            // into it.
            spare::keep(b);
        }
        let (policy, handler) = match (&held.policy, &held.handler) {
            (Some(p), Some(h)) => (p.as_ref(), h.as_ref()),
            _ => return Err(Ok(Lost)),
        };
        // The job may start later than the caller's check.
        check_scope(&self.scope).map_err(Err)?;
        let plan = pipeline::plan(
            policy,
            handler,
            &self.definition,
            &matched,
            &self.scope,
            &self.limits,
            call,
        )
        .map_err(Err)?;
        // Only the first job plans, once.
        let _ = self.plan.set(plan);
        let plan = self.plan.get().ok_or(Ok(Lost))?;
        Pipeline::authorize(policy, plan, &self.scope, &self.limits, &self.shape, call).map_err(Err)
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

/// Reads on `executor`: the pipeline runs on workers, this thread waits
/// until the read deadline or cancellation.
#[allow(clippy::too_many_arguments)]
pub(super) fn read(
    executor: &Executor,
    frame: &Frame<'_>,
    policy: Arc<dyn ResourcePolicy>,
    definition: Arc<ResourceDefinition>,
    handler: &Arc<dyn ResourceHandler>,
    matched: ResourceMatch,
    limits: Limits,
    shape: Shape,
) -> Result<ResourceBundle, Failure> {
    let scope = frame.scope();
    let task = Arc::new(ReadTask {
        definition,
        handler_key: Arc::as_ptr(handler) as *const () as usize,
        limits,
        shape,
        scope: scope.clone(),
        rules: frame.rules(),
        pool: executor.pool(),
        caller: std::thread::current(),
        done: AtomicBool::new(false),
        shared: Mutex::new(Shared {
            owner: 0,
            tables: Tables {
                policy: Some(policy),
                handler: Some(handler.clone()),
            },
            matched: Some(matched),
            pipeline: None,
            current: None,
            result: None,
            spare: spare::take(),
        }),
        plan: OnceLock::new(),
        first: new_status(),
    });
    // `wait` closes the task on every path once the first job was queued,
    // giving the read's table references back on this thread; when it was
    // refused, this thread holds the only reference to the task. `handler`
    // (the registry's, which this call holds) is for a job taking over
    // after an abandoned body read.
    wait(executor, &task, scope, handler)
}

fn wait(
    executor: &Executor,
    task: &Arc<ReadTask>,
    scope: &RequestScope,
    handler: &Arc<dyn ResourceHandler>,
) -> Result<ResourceBundle, Failure> {
    let deadline = scope.deadline();
    let item_timeout = task.limits.item_timeout;
    let mut generation = 0u32;
    let submit = |generation: u32| {
        executor
            .submit(
                deadline,
                Segment {
                    task: task.clone(),
                    generation,
                },
            )
            .map_err(|why| why.failure(task.rules.refused))
    };
    if let Some(r) = scope.recorder() {
        r.submitted();
    }
    let mut handle: JobHandle = executor
        .submit_entry(task.clone())
        .map_err(|why| why.failure(task.rules.refused))?;
    let _wake = scope
        .cancel_token()
        .map(|c| c.subscribe_thread(std::thread::current()));
    // When to look at the running body read next: no item deadline can
    // come sooner than one item timeout from now.
    let mut look = Instant::now().checked_add(item_timeout).unwrap_or(deadline);
    loop {
        let ready = || task.done.load(Ordering::Acquire) || scope.is_canceled();
        task.pool.park_until(ready, look.min(deadline));
        if task.done.load(Ordering::Acquire) {
            break;
        }
        let now = Instant::now();
        if scope.is_canceled() || now >= deadline {
            // Closed first, so that the job makes no further progress.
            if let Some(r) = task.close() {
                return r;
            }
            executor.give_up(&handle);
            return Err(Failure::new(if scope.is_canceled() {
                FailureKind::Canceled
            } else {
                FailureKind::DeadlineExceeded
            }));
        }
        match task.take_over_if_late(generation, now, handler) {
            Ok(_) => {
                // The reader passed its item deadline: abandon it and
                // continue with the siblings on a new job.
                executor.give_up(&handle);
                generation += 1;
                handle = match submit(generation) {
                    Ok(h) => h,
                    Err(f) => {
                        task.close();
                        return Err(f);
                    }
                };
                look = now.checked_add(item_timeout).unwrap_or(deadline);
            }
            Err(Some(d)) => look = d,
            Err(None) => look = now.checked_add(item_timeout).unwrap_or(deadline),
        }
    }
    task.close().unwrap_or_else(|| {
        Err(Failure::new(FailureKind::ReadFailed)
            .caused_by(CauseText("the read finished without a result".into())))
    })
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
