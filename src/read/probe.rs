//! The root checks of a read without its reads (docs/BEHAVIOUR.md §5 steps
//! 1 to 3): validate the URI and select the binding, `discover`, `resolve`
//! and validate the plan, then the requested target's visibility and read
//! permission. What an embedding runs before it gives a `resource_link`
//! (`crate::tools`): a link exactly when a read of the URI would not fail
//! at its root, through the same functions a read calls.

use std::sync::Arc;
use std::time::Instant;

use crate::binding::ResourceHandler;
use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure, FailureKind};
use crate::limits::Limits;
use crate::plan::ResourceMatch;
use crate::policy::ResourcePolicy;
use crate::registry::Resources;
use crate::scope::{CallPhase, RequestScope};

use super::authorize;
use super::ReadOptions;

impl Resources {
    /// Runs the root checks of a read of `uri` under the read's request
    /// scope and executor rules (a saturated executor is `read_failed`;
    /// with an executor the checks run there as one job and this returns by
    /// the deadline), and returns the selected registered description.
    /// Fails exactly as a read fails at these steps: invalid URI
    /// (`invalid_request`), not found and root denial (`unavailable`), an
    /// invalid plan, a policy failure, cancellation, the deadline.
    pub(crate) fn authorize_root(
        &self,
        uri: &[u8],
        options: &ReadOptions,
    ) -> Result<Arc<ResourceDefinition>, Failure> {
        let limits = self.limits();
        let started = Instant::now();
        let scope = RequestScope::start_at(
            started,
            limits.read_timeout,
            options.timeout,
            options.cancel.clone(),
            options.request_data.clone(),
        );
        let _closer = scope.close_on_drop();
        scope.check_at(started)?;
        if let Some(executor) = &options.executor {
            executor
                .admission()
                .map_err(|why| why.failure(FailureKind::ReadFailed))?;
        }
        let selection = self.select(uri)?;
        let definition = selection.binding.definition().clone();
        let checks = RootChecks {
            policy: self.policy().clone(),
            definition: definition.clone(),
            handler: selection.binding.handler().clone(),
            matched: selection.matched,
            limits: *limits,
            scope: scope.clone(),
        };
        match &options.executor {
            None => checks.run()?,
            Some(executor) => executor
                .call(move || checks.run(), scope.deadline(), scope.cancel_token())
                .into_result(
                    FailureKind::ReadFailed,
                    Failure::new(FailureKind::ReadFailed)
                        .caused_by(CauseText("the root checks panicked".into())),
                )?,
        }
        scope.check()?;
        Ok(definition)
    }
}

/// What the root checks need, owned (they may run as a job).
struct RootChecks {
    policy: Arc<dyn ResourcePolicy>,
    definition: Arc<ResourceDefinition>,
    handler: Arc<dyn ResourceHandler>,
    matched: ResourceMatch,
    limits: Limits,
    scope: RequestScope,
}

impl RootChecks {
    /// Steps 1 to 3 of the read sequence, in their phases.
    fn run(self) -> Result<(), Failure> {
        let scope = &self.scope;
        let policy = self.policy.as_ref();
        let mut call = scope.call_in(CallPhase::FirstCheck);
        authorize::discover(policy, scope, &self.definition, &call)?;
        call.enter_phase(CallPhase::Resolve);
        let plan = authorize::resolve(
            self.handler.as_ref(),
            scope,
            &self.matched,
            &self.limits,
            &call,
        )?;
        authorize::check_scope(scope)?;
        call.enter_phase(CallPhase::FirstCheck);
        authorize::requested(policy, scope, plan.requested(), &call)
    }
}
