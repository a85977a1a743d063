//! The policy form a test binary runs in: the per-item methods, or the
//! plan-level entry only (docs/BEHAVIOUR.md §5). The `plan_form_*` test
//! binaries run a rule suite again, unchanged (`#[path]`), with every
//! registry's policy wrapped in [`PlanOnly`] by [`in_form`].
#![allow(dead_code)]

use std::sync::Arc;

use mcp_resources::*;

/// Whether this test binary asks its policies through the plan-level entry
/// only ([`PlanOnly`]): the `plan_form_*` binaries, which run a rule suite
/// again unchanged (`#[path]`), or any binary run with
/// `MCPR_TEST_POLICY_FORM=plan`.
pub fn plan_form() -> bool {
    std::env::var("MCPR_TEST_POLICY_FORM").is_ok_and(|v| v == "plan")
        || std::env::current_exe().is_ok_and(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("plan_form_"))
        })
}

/// The policy a suite's registries get: `policy` itself, or, in the plan
/// form, [`PlanOnly`] of it.
pub fn in_form(policy: Arc<dyn ResourcePolicy>) -> Arc<dyn ResourcePolicy> {
    if plan_form() {
        Arc::new(PlanOnly(policy))
    } else {
        policy
    }
}

/// A policy that implements only the plan-level entry, on top of a per-item
/// policy (`decide_per_item`): its per-item methods panic where a read or
/// the root checks ask (the first check, the recheck), so a suite run
/// through it proves the library asks the plan-level entry there, and its
/// rules hold in both forms. Listings, completion and a list change's
/// discovery still ask `discover` per definition.
pub struct PlanOnly(pub Arc<dyn ResourcePolicy>);

impl PlanOnly {
    fn per_item(&self, call: &CallContext, what: &str) {
        if matches!(call.phase(), CallPhase::FirstCheck | CallPhase::Recheck) {
            panic!("{what} asked per item of a plan-only policy");
        }
    }
}

impl ResourcePolicy for PlanOnly {
    fn discover(&self, call: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        self.per_item(call, "discover");
        self.0.discover(call, d)
    }
    fn visibility(
        &self,
        call: &CallContext,
        t: &ResourceTarget,
    ) -> Result<Visibility, CallbackError> {
        self.per_item(call, "visibility");
        self.0.visibility(call, t)
    }
    fn read(&self, call: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        self.per_item(call, "read");
        self.0.read(call, t)
    }
    fn discover_is_trivial(&self) -> bool {
        self.0.discover_is_trivial()
    }
    fn decides_plans(&self) -> bool {
        true
    }
    fn decide_plan(&self, call: &CallContext, q: &PlanQuestions<'_>) -> PlanDecision {
        decide_per_item(self.0.as_ref(), call, q)
    }
}
