//! The read pipeline for an asynchronous call (docs/BEHAVIOUR.md §20): the
//! executor driver of `pooled.rs` without a waiting caller. Nothing of the
//! read's rules is here: the steps are `pipeline.rs`'s, the jobs and their
//! hand-over `pooled.rs`'s ([`ReadTask`]), and the waiting side is the
//! blocking driver's [`Waiter`], stepped by the executor's watch (and by
//! the worker that publishes the result) instead of a parked caller.
//!
//! The call's own first job, already on a worker, selects the binding and
//! runs the pipeline's first generation right there (no second handoff);
//! a body read that passes its item deadline is taken over by the watch,
//! which hands the rest to a new job, as the blocking caller would.

use std::sync::Arc;

use crate::asynccall::{Call, Inline, Next, Steps};
use crate::call::{leave, CallOptions, Frame};
use crate::error::Failure;
use crate::executor::Executor;
use crate::input::{InputOptions, ReadInput};
use crate::registry::Resources;
use crate::scope::RequestScope;

use super::pooled::{ReadTask, Step, Waiter, Waiting};
use super::ResourceBundle;

/// How a read's result becomes the call's outcome (the read itself, or the
/// response of a request).
pub(crate) type Map<T> = Box<dyn FnOnce(Result<ResourceBundle, Failure>) -> T + Send>;

/// A registry's owner, as an asynchronous read holds it until its outcome
/// (a read whose callbacks asked for input is answered then).
pub(crate) type Owner = Arc<dyn AsRef<Resources> + Send + Sync>;

/// An asynchronous read's input members (docs/BEHAVIOUR.md §18), owned: a
/// direct read's [`InputOptions`], or those a request's params carry.
#[derive(Default)]
pub(crate) struct OwnedInput {
    pub options: InputOptions,
    /// The params' `_meta` client capabilities (JSON text).
    pub raw_capabilities: Option<String>,
}

impl OwnedInput {
    fn read_input(&self) -> ReadInput<'_> {
        ReadInput {
            raw_capabilities: self.raw_capabilities.as_deref(),
            ..ReadInput::of(&self.options)
        }
    }
}

/// The waiting side of an asynchronous read: the blocking driver's, and
/// the frame's last step.
struct ReadSteps<T> {
    task: Arc<ReadTask>,
    waiter: Waiter,
    map: Option<Map<T>>,
}

impl<T: Send + 'static> Steps<T> for ReadSteps<T> {
    fn step(&mut self, executor: &Executor) -> Next<T> {
        match self.waiter.step(executor, &self.task) {
            Step::Later(at) => Next::At(at),
            Step::Over(result) => match self.map.take() {
                Some(map) => Next::Over(map(leave(self.task.scope(), result))),
                // Over once only: the call has concluded.
                None => Next::At(self.waiter.next()),
            },
        }
    }
}

impl Resources {
    /// The read of `uri` as the first job of the asynchronous `call`, on a
    /// worker, in `scope`, with the call's `options` (their revision, result
    /// `_meta` and trace context) and `input` members (a retry is verified
    /// first, and a read whose callbacks asked for input is answered when
    /// it concludes, through `owner`, as the blocking read answers it); its
    /// outcome goes through `map` to the call. `spare`: the result buffer to assemble into (the
    /// starting thread's, see `read::spare`: the host frees the bundle on
    /// that thread, most likely, so the buffer goes back and forth).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_detached<T: Send + 'static>(
        &self,
        call: &Call<T>,
        scope: RequestScope,
        options: &CallOptions,
        (uri, input): (&[u8], OwnedInput),
        owner: Owner,
        map: Map<T>,
        spare: super::spare::Spare,
    ) {
        let revision = options.protocol_revision;
        let base = match Frame::detached(scope, options, revision, call.rules()) {
            Ok(frame) => frame,
            Err(f) => return call.finish(map(Err(f))),
        };
        let retry = match self.open_retry(uri, &input.read_input(), revision) {
            Ok(retry) => retry,
            Err(f) => return call.finish(map(Err(f))),
        };
        let with_input;
        let frame = match retry {
            Some(responses) => {
                with_input = base.with_scope(base.scope().with_input(responses));
                &with_input
            }
            None => &base,
        };
        let named = Inline::from_slice(uri);
        let map: Map<T> = Box::new(move |read| {
            let answered = read.and_then(|bundle| {
                let r = (*owner).as_ref();
                r.answer_asked(bundle, &named, &input.read_input(), revision)
            });
            map(answered)
        });
        let parts = match self.parts(frame, uri, self.limits(), false) {
            Ok(parts) => parts,
            Err(f) => return call.finish(map(Err(f))),
        };
        let (Some(pool), Some(first_job)) = (call.pool(), call.first_job()) else {
            // Concluded already (its deadline, a cancellation).
            return;
        };
        let handler = parts.handler.clone();
        let task = Arc::new(ReadTask::new(
            parts,
            frame,
            pool,
            Waiting::Call(call.watched()),
            spare,
        ));
        let steps = ReadSteps {
            task: task.clone(),
            waiter: Waiter::new(first_job, &task, handler),
            map: Some(map),
        };
        if call.install(Box::new(steps)) {
            task.run_here();
        }
    }
}
