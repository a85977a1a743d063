//! The read pipeline on an executor (docs/BEHAVIOUR.md §8): every callback
//! of the read runs on a worker, and the calling thread only waits.
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

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::Thread;
use std::time::Instant;

use crate::binding::ResourceHandler;
use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure, FailureKind};
use crate::executor::{
    new_status, park_until, Entry, Executor, Job, JobHandle, Pool, Refusal, BODY_READ_SATURATED,
};
use crate::limits::Limits;
use crate::plan::{ResourceMatch, ResourceReadPlan, ResourceTarget};
use crate::policy::ResourcePolicy;
use crate::report::IssueCode;
use crate::scope::{CallPhase, RequestScope};

use super::admit::{self, Budget};
use super::assemble::{self, Shape};
use super::authorize::{self, check_scope, check_scope_at, guarded};
use super::{recheck, spare, ItemStates, Outcome, ResourceBundle};

/// `owner` once the read has returned: no job makes progress any more.
const CLOSED: u32 = u32::MAX;

/// The pipeline state after planning and authorization.
struct Pipeline {
    states: ItemStates,
    budget: Budget,
    /// The next item to consider.
    next: usize,
    /// When the scope was last checked with no callback run since (after
    /// the last authorization callback): the first body read starts from
    /// it instead of reading the clock again, as on the inline path.
    fresh: Option<Instant>,
}

struct Shared {
    /// The generation of the job allowed to make progress.
    owner: u32,
    /// The match, for the first job.
    matched: Option<ResourceMatch>,
    /// The pipeline, while a body read runs (or after a takeover).
    pipeline: Option<Pipeline>,
    /// The body read running now: item index and item deadline.
    current: Option<(usize, Instant)>,
    result: Option<Result<ResourceBundle, Failure>>,
    /// The caller's spare result buffer, for the first job's worker (see
    /// `read::spare`): the bundle is built on the worker but dropped on
    /// the caller's thread, so the buffer goes back and forth instead of
    /// being allocated on one thread and freed on the other every read.
    spare: Option<String>,
}

/// One read on an executor, shared by the caller and the jobs.
pub(super) struct ReadTask {
    /// Taken by the caller when the read returns, so that the policy table
    /// is not kept alive by an abandoned body read.
    policy: Mutex<Option<Arc<dyn ResourcePolicy>>>,
    definition: Arc<ResourceDefinition>,
    handler: Arc<dyn ResourceHandler>,
    limits: Limits,
    /// The revision and cache hints the result is shaped with.
    shape: Shape,
    scope: RequestScope,
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
        self.run_guarded(0);
    }
    fn refuse(&self, why: Refusal) {
        self.finish(0, Err(why.failure(FailureKind::ReadFailed)));
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
        self.task
            .finish(self.generation, Err(why.failure(FailureKind::ReadFailed)));
    }
}

/// Whether a job lost the pipeline to the caller (or the read ended).
struct Lost;

impl ReadTask {
    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The identity of the read's binding, for per-binding hung counts.
    fn handler_key(&self) -> usize {
        Arc::as_ptr(&self.handler) as *const () as usize
    }

    fn policy(&self) -> Option<Arc<dyn ResourcePolicy>> {
        self.policy
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Publishes the result of generation `generation`, if it still owns
    /// the read, and wakes the caller.
    fn finish(&self, generation: u32, result: Result<ResourceBundle, Failure>) {
        let mut sh = self.lock();
        if sh.owner != generation {
            return;
        }
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
            self.finish(
                generation,
                Err(Failure::new(FailureKind::ReadFailed)
                    .caused_by(CauseText("the read pipeline panicked".into()))),
            );
        }
    }

    fn run(&self, generation: u32) {
        match self
            .resume(generation)
            .and_then(|p| self.complete(generation, p))
        {
            Ok(bundle) => self.finish(generation, Ok(bundle)),
            Err(Err(f)) => self.finish(generation, Err(f)),
            Err(Ok(Lost)) => {}
        }
    }

    /// The pipeline to continue: planned and authorized by the first job,
    /// taken over from the previous generation by later ones.
    fn resume(&self, generation: u32) -> Result<Pipeline, Result<Lost, Failure>> {
        let mut sh = self.lock();
        if sh.owner != generation {
            return Err(Ok(Lost));
        }
        if generation > 0 {
            return sh.pipeline.take().ok_or(Ok(Lost));
        }
        let matched = sh.matched.take().ok_or(Ok(Lost))?;
        let buffer = sh.spare.take();
        drop(sh);
        if let Some(b) = buffer {
            // This worker's spare from now on: the result is assembled
            // into it.
            spare::keep(b);
        }
        let policy = self.policy().ok_or(Ok(Lost))?;
        let policy = policy.as_ref();
        let scope = &self.scope;
        (|| {
            check_scope(scope)?;
            let first = scope.call_in(CallPhase::FirstCheck);
            authorize::discover(policy, scope, &self.definition, &first)?;
            let plan = authorize::resolve(
                self.handler.as_ref(),
                scope,
                &matched,
                &self.limits,
                &scope.call_in(CallPhase::Resolve),
            )?;
            check_scope(scope)?;
            authorize::requested(policy, scope, plan.requested(), &first)?;
            let (states, checked_at) = authorize::items(policy, scope, plan.items(), &first)?;
            // Only the first job plans, once.
            let _ = self.plan.set(plan);
            Ok(Pipeline {
                states,
                budget: Budget::new(&self.limits, &self.shape),
                next: 0,
                fresh: Some(checked_at),
            })
        })()
        .map_err(Err)
    }

    /// Body reads from `p.next` on, then the recheck and assembly.
    fn complete(
        &self,
        generation: u32,
        mut p: Pipeline,
    ) -> Result<ResourceBundle, Result<Lost, Failure>> {
        let scope = &self.scope;
        let limits = &self.limits;
        let plan = self.plan.get().ok_or(Ok(Lost))?;
        let targets: &[ResourceTarget] = plan.items();
        while p.next < targets.len() {
            let i = p.next;
            p.next += 1;
            if !matches!(p.states[i].outcome, Outcome::Pending) {
                continue;
            }
            if p.budget.stops_before_read(limits) {
                p.states[i].outcome = admit::not_attempted();
                continue;
            }
            let now = match p.fresh.take() {
                Some(t) => t,
                None => Instant::now(),
            };
            check_scope_at(scope, now).map_err(Err)?;
            if self.pool.body_read_refused(self.handler_key()) {
                p.states[i].outcome =
                    admit::issue(IssueCode::ReadFailed, admit::cause(BODY_READ_SATURATED));
                continue;
            }
            let item_deadline = admit::item_deadline(scope, now, limits);
            let call = scope.item_call(item_deadline, limits.max_item_bytes);
            {
                let mut sh = self.lock();
                if sh.owner != generation {
                    return Err(Ok(Lost));
                }
                sh.current = Some((i, item_deadline));
                sh.pipeline = Some(p);
            }
            let result = guarded(|| self.handler.read(&call, &targets[i]));
            {
                let mut sh = self.lock();
                if sh.owner != generation {
                    // The caller took over at the item deadline (or ended
                    // the read) while this reader ran, and counted it as
                    // hung: the late result is discarded.
                    drop(sh);
                    self.pool.reader_returned(self.handler_key());
                    return Err(Ok(Lost));
                }
                sh.current = None;
                p = sh.pipeline.take().ok_or(Ok(Lost))?;
            }
            let now = Instant::now();
            check_scope_at(scope, now).map_err(Err)?;
            p.states[i].outcome = if now >= item_deadline {
                admit::timed_out()
            } else {
                admit::settle(
                    self.handler.as_ref(),
                    &targets[i],
                    result,
                    limits,
                    &mut p.budget,
                )
            };
        }
        let policy = self.policy().ok_or(Ok(Lost))?;
        (|| {
            recheck::recheck(
                policy.as_ref(),
                scope,
                &self.definition,
                plan.requested(),
                targets,
                &mut p.states,
                &scope.call_in(CallPhase::Recheck),
            )?;
            drop(policy);
            let bundle = assemble::assemble(targets, p.states, limits, &self.shape)?;
            check_scope(scope)?;
            Ok(bundle)
        })()
        .map_err(Err)
    }

    /// When the body read of generation `generation` passed its item
    /// deadline: marks the item `timeout`, hands the pipeline to the next
    /// generation and returns `true`. Otherwise returns when the caller
    /// should look again (`None`: the read is not in a body read).
    fn take_over_if_late(&self, generation: u32, now: Instant) -> Result<bool, Option<Instant>> {
        let mut sh = self.lock();
        if sh.owner != generation {
            return Err(None);
        }
        match sh.current {
            Some((i, d)) if d <= now => {
                let Some(p) = sh.pipeline.as_mut() else {
                    return Err(None);
                };
                p.states[i].outcome = admit::timed_out();
                p.next = i + 1;
                sh.current = None;
                sh.owner = generation + 1;
                self.pool.reader_hung(self.handler_key());
                Ok(true)
            }
            Some((_, d)) => Err(Some(d)),
            None => Err(None),
        }
    }

    /// Ends the read from the caller's side: no job makes progress any
    /// more. Returns a result that was published meanwhile.
    fn close(&self) -> Option<Result<ResourceBundle, Failure>> {
        let mut sh = self.lock();
        sh.owner = CLOSED;
        sh.pipeline = None;
        if sh.current.take().is_some() {
            // A body read still runs: its reader is hung from now on.
            self.pool.reader_hung(self.handler_key());
        }
        sh.result.take()
    }
}

/// Reads on `executor`: the pipeline runs on workers, this thread waits
/// until the read deadline or cancellation.
#[allow(clippy::too_many_arguments)]
pub(super) fn read(
    executor: &Executor,
    scope: &RequestScope,
    policy: Arc<dyn ResourcePolicy>,
    definition: Arc<ResourceDefinition>,
    handler: Arc<dyn ResourceHandler>,
    matched: ResourceMatch,
    limits: Limits,
    shape: Shape,
) -> Result<ResourceBundle, Failure> {
    let task = Arc::new(ReadTask {
        shape,
        policy: Mutex::new(Some(policy)),
        definition,
        handler,
        limits,
        scope: scope.clone(),
        pool: executor.pool(),
        caller: std::thread::current(),
        done: AtomicBool::new(false),
        shared: Mutex::new(Shared {
            owner: 0,
            matched: Some(matched),
            pipeline: None,
            current: None,
            result: None,
            spare: spare::take(),
        }),
        plan: OnceLock::new(),
        first: new_status(),
    });
    let result = wait(executor, &task, scope);
    // The read is over: a job still running (abandoned) no longer keeps
    // the policy table alive once its current callback returns.
    let policy = task.policy.lock().unwrap_or_else(|p| p.into_inner()).take();
    drop(policy);
    result
}

fn wait(
    executor: &Executor,
    task: &Arc<ReadTask>,
    scope: &RequestScope,
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
            .map_err(|why| why.failure(FailureKind::ReadFailed))
    };
    let mut handle: JobHandle = executor
        .submit_entry(task.clone())
        .map_err(|why| why.failure(FailureKind::ReadFailed))?;
    let _wake = scope
        .cancel_token()
        .map(|c| c.subscribe_thread(std::thread::current()));
    // When to look at the running body read next: no item deadline can
    // come sooner than one item timeout from now.
    let mut look = Instant::now().checked_add(item_timeout).unwrap_or(deadline);
    loop {
        let ready = || task.done.load(Ordering::Acquire) || scope.is_canceled();
        park_until(&task.pool, ready, look.min(deadline));
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
        match task.take_over_if_late(generation, now) {
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

    use crate::*;

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
        let options = ReadOptions {
            executor: Some(Executor::new(2).unwrap()),
            ..ReadOptions::default()
        };
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
