//! What a read tells its observer (docs/BEHAVIOUR.md §19): the summary of
//! its bundle for the call event, and, after the recheck, one decision
//! event per planned item from its final state, under the report's
//! disclosure rule (a URI in plain only when the final visibility
//! decision set *disclose issue URI* and it is at most 256 bytes; a
//! hidden item with neither its URI nor a hash, and private).

use crate::observe::{
    DecisionEvent, DecisionPhase, DecisionRule, DecisionSubject, IssueCounts, Observed, Recorder,
    ResultSummary, MAX_DISCLOSED_URI_BYTES,
};
use crate::plan::ResourceTarget;
use crate::report::IssueCode;
use crate::scope::RequestScope;

use super::{ItemState, Outcome, ResourceBundle, Step};

impl Observed for ResourceBundle {
    fn summary(&self) -> ResultSummary {
        let mut issues = IssueCounts {
            omitted: self.issues_omitted,
            ..IssueCounts::default()
        };
        for i in &self.issues {
            issues.add(i.code());
        }
        ResultSummary {
            items: self.spans.len() as u64,
            bytes: self.json.len() as u64,
            partial: self.partial,
            issues,
            cache: Some(self.cache),
        }
    }

    fn discloses_subject(&self) -> bool {
        self.disclosed
    }

    fn is_partial(&self) -> bool {
        self.partial
    }
}

/// The rule, phase and issue of an item's final state.
fn decided(s: &ItemState) -> (DecisionRule, DecisionPhase, Option<IssueCode>) {
    let phase = match s.step {
        Step::FirstCheck => DecisionPhase::FirstCheck,
        Step::BodyRead => DecisionPhase::BodyRead,
        Step::Recheck => DecisionPhase::Recheck,
    };
    if !s.final_visibility.visible {
        return (DecisionRule::Hidden, phase, None);
    }
    if !s.first_visible {
        return (
            DecisionRule::NewlyVisible,
            DecisionPhase::Recheck,
            Some(IssueCode::Unavailable),
        );
    }
    match &s.outcome {
        Outcome::Admitted(_) => (DecisionRule::Admitted, DecisionPhase::BodyRead, None),
        Outcome::Hidden => (DecisionRule::Hidden, phase, None),
        // Not left by the time decisions are made (an asking read answers
        // "input required" with no item decisions; the others' asking items
        // were hidden or revoked): private, as hidden.
        Outcome::Input(_) => (DecisionRule::Hidden, phase, None),
        // Never attempted: admission stopped before it.
        Outcome::Pending => (
            DecisionRule::BudgetExceeded,
            DecisionPhase::BodyRead,
            Some(IssueCode::BudgetExceeded),
        ),
        Outcome::Issue(code, _) => {
            let rule = match (s.step, code) {
                (Step::FirstCheck, _) => DecisionRule::Denied,
                (Step::Recheck, _) => DecisionRule::Revoked,
                (Step::BodyRead, IssueCode::Timeout) => DecisionRule::Timeout,
                (Step::BodyRead, IssueCode::BudgetExceeded) => DecisionRule::BudgetExceeded,
                (Step::BodyRead, _) => DecisionRule::ItemFailed,
            };
            (rule, phase, Some(*code))
        }
    }
}

/// Hands the observer one decision event per planned item (their final
/// states, after the recheck).
pub(super) fn items(
    recorder: &Recorder,
    scope: &RequestScope,
    targets: &[ResourceTarget],
    states: &[ItemState],
) {
    for (index, (t, s)) in targets.iter().zip(states).enumerate() {
        let (rule, phase, issue) = decided(s);
        let private = rule == DecisionRule::Hidden;
        let disclosed = !private
            && s.final_visibility.disclose_issue_uri
            && t.uri().len() <= MAX_DISCLOSED_URI_BYTES;
        let cause = match &s.outcome {
            Outcome::Issue(_, Some(c)) if !private => Some(c),
            _ => None,
        };
        recorder.decide(&DecisionEvent {
            call_id: recorder.call_id,
            method: recorder.method,
            protocol_revision: recorder.protocol_revision,
            rule,
            phase: Some(phase),
            issue,
            request_data: scope.request_data().map(|d| &**d),
            subject: DecisionSubject::Item,
            item: Some(index),
            private,
            uri: disclosed.then(|| t.uri()),
            hashed: (!private).then(|| t.uri().as_bytes()),
            cause,
            failure: None,
            hasher: recorder.hasher(),
        });
    }
}
