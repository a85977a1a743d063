//! The root checks of a read without its body reads (docs/BEHAVIOUR.md §5
//! steps 1 to 3): select the binding, then the pipeline's own [`root`]
//! step (`discover`, `resolve` and plan validation, the requested target's
//! visibility and read permission). What an embedding runs before it gives
//! a `resource_link` (`crate::tools`): a link exactly when a read of the
//! URI would not fail at its root. This file only drives that step, inline
//! or as one job on the frame's executor, as `mod.rs` and `pooled.rs` drive
//! the whole pipeline.
//!
//! [`root`]: super::pipeline::root

use std::sync::Arc;

use crate::call::Frame;
use crate::definition::ResourceDefinition;
use crate::error::Failure;
use crate::registry::Resources;
use crate::scope::CallPhase;

use super::pipeline;

impl Resources {
    /// The root checks of a read of `uri` in `frame` (nothing is read), and
    /// the selected registered description. Fails exactly as a read fails
    /// at these steps: an invalid URI (`invalid_request`), not found and a
    /// root denial (`unavailable`), an invalid plan, a policy failure,
    /// cancellation, the deadline. With an executor the checks run there as
    /// one job (a saturated executor is `read_failed`, as for a read), and
    /// this returns by the deadline whatever a callback does.
    pub(crate) fn root_in(
        &self,
        frame: &Frame<'_>,
        uri: &[u8],
    ) -> Result<Arc<ResourceDefinition>, Failure> {
        let limits = self.limits();
        let scope = frame.scope();
        let Some(executor) = frame.executor() else {
            // Lent: the match is dropped before this returns.
            let selection = self.select_lent(uri)?;
            let mut call = scope.call_in(CallPhase::FirstCheck);
            pipeline::root(
                self.policy().as_ref(),
                selection.binding.handler().as_ref(),
                selection.binding.definition(),
                &selection.matched,
                scope,
                limits,
                &mut call,
            )?;
            return Ok(selection.binding.definition().clone());
        };
        let selection = self.select(uri)?;
        let definition = selection.binding.definition().clone();
        let (policy, handler) = (self.policy().clone(), selection.binding.handler().clone());
        let (matched, limits, job_scope) = (selection.matched, *limits, scope.clone());
        let job_definition = definition.clone();
        frame.run_job(executor, move || {
            let mut call = job_scope.call_in(CallPhase::FirstCheck);
            pipeline::root(
                policy.as_ref(),
                handler.as_ref(),
                &job_definition,
                &matched,
                &job_scope,
                &limits,
                &mut call,
            )
            .map(drop)
        })?;
        Ok(definition)
    }
}
