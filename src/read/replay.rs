//! A plan-level policy decision ([`ResourcePolicy::decide_plan`]) read as
//! the per-item calls it answers: the authorization steps (`authorize.rs`,
//! `recheck.rs`) ask a [`Replay`] exactly what they ask a per-item policy,
//! in the same order, and get the decision's answers one by one. So the
//! two forms share every rule (denials, disclosure, no oracle, input
//! required where it is allowed, decision events, deadlines checked
//! between answers): only where the answers come from differs.

use std::sync::Mutex;

use crate::definition::ResourceDefinition;
use crate::error::{CallbackError, CauseText};
use crate::observe::{self, CallbackKind};
use crate::plan::ResourceTarget;
use crate::policy::{PlanDecision, PlanQuestions, ResourcePolicy, TargetDecision, Visibility};
use crate::scope::CallContext;

use super::authorize::guarded;

/// The answers of one plan decision, served in the order they are asked.
pub(super) struct Replay {
    state: Mutex<State>,
}

struct State {
    /// The whole decision failed (panicked): the first question asked
    /// gets this.
    failed: Option<CallbackError>,
    discover: Option<Result<(), CallbackError>>,
    /// One slot per target asked about: the requested target (when asked)
    /// then the items; `None` where the decision left it out.
    targets: std::vec::IntoIter<Option<TargetDecision>>,
    /// The read permission of the target whose visibility was served last.
    read: Option<Result<(), CallbackError>>,
}

fn left_out() -> CallbackError {
    CallbackError::Failed(Box::new(CauseText(
        "plan decision left out an answer".into(),
    )))
}

impl Replay {
    /// Asks `policy` for the answers to `questions` (one call, panics
    /// contained), timed as the first kind of callback it answers for.
    pub(super) fn decide(
        policy: &dyn ResourcePolicy,
        call: &CallContext,
        questions: &PlanQuestions<'_>,
    ) -> Replay {
        let kind = if questions.definition.is_some() {
            CallbackKind::Discover
        } else {
            CallbackKind::Visibility
        };
        let r = observe::timed_uncounted(call.recorder(), kind, || {
            guarded(|| Ok(policy.decide_plan(call, questions)))
        });
        match r {
            Ok(d) => Replay::of(d, questions),
            Err(e) => Replay {
                state: Mutex::new(State {
                    failed: Some(CallbackError::Failed(e.into_cause("plan decision"))),
                    discover: None,
                    targets: Vec::new().into_iter(),
                    read: None,
                }),
            },
        }
    }

    fn of(d: PlanDecision, questions: &PlanQuestions<'_>) -> Replay {
        let mut targets = Vec::with_capacity(1 + questions.items.len());
        if questions.requested.is_some() {
            targets.push(d.requested);
        }
        let mut items = d.items.into_iter();
        for _ in questions.items {
            targets.push(items.next());
        }
        Replay {
            state: Mutex::new(State {
                failed: None,
                discover: d.discover,
                targets: targets.into_iter(),
                read: None,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl ResourcePolicy for Replay {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        let mut s = self.state();
        if let Some(e) = s.failed.take() {
            return Err(e);
        }
        s.discover.take().unwrap_or_else(|| Err(left_out()))
    }

    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        let mut s = self.state();
        if let Some(e) = s.failed.take() {
            return Err(e);
        }
        match s.targets.next().flatten() {
            Some(t) => {
                s.read = t.read;
                t.visibility
            }
            None => {
                s.read = None;
                Err(left_out())
            }
        }
    }

    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        self.state().read.take().unwrap_or_else(|| Err(left_out()))
    }
}
