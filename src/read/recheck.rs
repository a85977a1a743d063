//! The final authorization check (docs/BEHAVIOUR.md §5, step 6): discovery,
//! the requested target, and every planned item's current visibility and
//! read permission.
//!
//! - now hidden: removed without an issue or a count (an issue it had is
//!   dropped too: hidden items are never reported);
//! - still visible but revoked: removed with `unavailable` (an item that
//!   already has an issue keeps its first code);
//! - newly visible (hidden at the first check): reported `unavailable`,
//!   never read late.

use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure};
use crate::plan::ResourceTarget;
use crate::policy::{ResourcePolicy, Visibility};
use crate::report::IssueCode;
use crate::scope::{CallContext, RequestScope};

use super::authorize::{check_scope, discover, permitted, requested, visibility};
use super::{ItemState, Outcome, Step};

/// `call` is the call context of the recheck phase. Returns the requested
/// target's final visibility decision.
pub(super) fn recheck(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    definition: &ResourceDefinition,
    requested_target: &ResourceTarget,
    targets: &[ResourceTarget],
    states: &mut [ItemState],
    call: &CallContext,
) -> Result<Visibility, Failure> {
    discover(policy, scope, definition, call)?;
    let requested_visibility = requested(policy, scope, requested_target, call)?;
    for (i, (t, state)) in targets.iter().zip(states.iter_mut()).enumerate() {
        if i % 8 == 7 {
            check_scope(scope)?;
        }
        let vis = visibility(policy, scope, t, call)?;
        state.final_visibility = vis;
        if !vis.visible {
            if state.first_visible {
                state.step = Step::Recheck;
            }
            state.outcome = Outcome::Hidden;
            continue;
        }
        let allowed = permitted(policy, scope, t, call)?;
        if !state.first_visible {
            state.step = Step::Recheck;
            state.outcome = Outcome::Issue(
                IssueCode::Unavailable,
                Some(Box::new(CauseText(
                    "item became visible after the reads".into(),
                ))),
            );
            continue;
        }
        if !allowed {
            if let Outcome::Admitted(_) | Outcome::Pending | Outcome::Hidden | Outcome::Input(_) =
                state.outcome
            {
                state.step = Step::Recheck;
                state.outcome = Outcome::Issue(
                    IssueCode::Unavailable,
                    Some(Box::new(CauseText("item read permission revoked".into()))),
                );
            }
        }
    }
    Ok(requested_visibility)
}
