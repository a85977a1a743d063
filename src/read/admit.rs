//! Body reads and admission (docs/BEHAVIOUR.md §5 step 5, §7 and §8).
//!
//! Bodies are read sequentially in plan order. Admission starts with the
//! payload budget `max_payload_bytes - report_payload_bytes` and the encoded
//! budget `max_encoded_bytes - report_encoded_bytes - 8192 - 256`, so the
//! report and the wire reserve are held back from the start. An item whose
//! payload exceeds `max_item_bytes` is a `budget_exceeded` issue and later
//! items may still fit; an item that does not fit what is left stops
//! admission (the complete prefix is kept) and every later visible,
//! unattempted item gets `budget_exceeded`; reaching `max_items` stops
//! before another body read.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

use crate::error::{BoxError, CauseText, Failure, FailureKind};
use crate::executor::{Executor, RunOutcome};
use crate::limits::{Limits, MAX_META_BYTES};
use crate::plan::{ResourcePayload, ResourceTarget};
use crate::registry::ResourceHandler;
use crate::report::IssueCode;
use crate::scope::{CancelSubscription, RequestScope};
use crate::sizing::{item_size, ItemSize};

use super::authorize::{check_scope, check_scope_at, guarded, CallbackFailure};
use super::{ItemState, Outcome};

/// An admitted item, ready to be written.
pub(super) struct Admitted {
    pub payload: ResourcePayload,
    /// The payload's `_meta`, serialised compactly.
    pub meta_json: Option<String>,
    /// The exact measurement (absent when a host sizer replaced it).
    pub size: Option<ItemSize>,
    /// What the item was charged against the encoded budget (object + 1).
    pub cost: u64,
}

struct Budget {
    payload_left: u64,
    encoded_left: u64,
    admitted: usize,
    stopped: bool,
}

fn issue(code: IssueCode, cause: Option<BoxError>) -> Outcome {
    Outcome::Issue(code, cause)
}

fn cause(text: &str) -> Option<BoxError> {
    Some(Box::new(CauseText(text.to_string())))
}

/// Reads every pending item in plan order under admission.
pub(super) fn read_bodies(
    handler: &Arc<dyn ResourceHandler>,
    scope: &RequestScope,
    targets: &[ResourceTarget],
    states: &mut [ItemState],
    limits: &Limits,
    executor: Option<&Executor>,
) -> Result<(), Failure> {
    let mut budget = Budget {
        payload_left: limits.admission_payload_budget(),
        encoded_left: limits.admission_encoded_budget(),
        admitted: 0,
        stopped: false,
    };
    let mut subscription: Option<CancelSubscription> = None;
    for (t, state) in targets.iter().zip(states.iter_mut()) {
        if !matches!(state.outcome, Outcome::Pending) {
            continue;
        }
        if budget.stopped || budget.admitted >= limits.max_items {
            budget.stopped = true;
            state.outcome = issue(IssueCode::BudgetExceeded, cause("not attempted"));
            continue;
        }
        let now = Instant::now();
        check_scope_at(scope, now)?;
        let item_deadline = now
            .checked_add(limits.item_timeout)
            .map_or(scope.deadline(), |d| d.min(scope.deadline()));
        let call = scope.item_call(item_deadline, limits.max_item_bytes);
        let result = match executor {
            None => guarded(|| handler.read(&call, t)),
            Some(ex) => {
                if subscription.is_none() {
                    subscription = scope.cancel_token().map(|c| c.subscribe());
                }
                let h = handler.clone();
                let target = t.clone();
                let job = move || h.read(&call, &target);
                match ex.run(
                    job,
                    item_deadline,
                    subscription.as_ref().map(|s| s.receiver()),
                ) {
                    RunOutcome::Done(r) => r.map_err(CallbackFailure::from),
                    RunOutcome::Panicked => Err(CallbackFailure::Panicked),
                    RunOutcome::Canceled => return Err(Failure::new(FailureKind::Canceled)),
                    RunOutcome::Expired => {
                        check_scope(scope)?;
                        state.outcome = issue(IssueCode::Timeout, cause("item deadline passed"));
                        continue;
                    }
                }
            }
        };
        let now = Instant::now();
        check_scope_at(scope, now)?;
        if now >= item_deadline {
            state.outcome = issue(IssueCode::Timeout, cause("item deadline passed"));
            continue;
        }
        state.outcome = match result {
            Ok(payload) => admit(handler.as_ref(), t, payload, limits, &mut budget),
            Err(CallbackFailure::Unavailable) => {
                issue(IssueCode::Unavailable, cause("reader unavailable"))
            }
            Err(CallbackFailure::Panicked) => {
                issue(IssueCode::ReadFailed, cause("reader panicked"))
            }
            Err(CallbackFailure::Failed(e)) => {
                let invalid = e
                    .downcast_ref::<Failure>()
                    .is_some_and(|f| f.kind() == FailureKind::InvalidContent);
                let code = if invalid {
                    IssueCode::InvalidContent
                } else {
                    IssueCode::ReadFailed
                };
                issue(code, Some(e))
            }
        };
    }
    Ok(())
}

/// Decides whether a read payload is admitted.
fn admit(
    handler: &dyn ResourceHandler,
    target: &ResourceTarget,
    payload: ResourcePayload,
    limits: &Limits,
    budget: &mut Budget,
) -> Outcome {
    let payload_bytes = payload.payload_bytes();
    if payload_bytes > limits.max_item_bytes {
        return issue(
            IssueCode::BudgetExceeded,
            cause("item exceeds max_item_bytes"),
        );
    }
    let meta_json = match payload.meta() {
        None => None,
        Some(m) => match serde_json::to_string(m) {
            Ok(s) if s.len() <= MAX_META_BYTES => Some(s),
            _ => {
                return issue(
                    IssueCode::InvalidContent,
                    cause("item _meta exceeds 64 KiB"),
                )
            }
        },
    };
    let hint = match catch_unwind(AssertUnwindSafe(|| {
        handler.encoded_size_hint(target, &payload)
    })) {
        Ok(h) => h,
        Err(_) => return issue(IssueCode::ReadFailed, cause("size hint panicked")),
    };
    let (size, cost) = match hint {
        Some(h) => (None, h),
        None => {
            let s = item_size(target.uri(), &payload, meta_json.as_deref());
            let cost = s.object + 1;
            (Some(s), cost)
        }
    };
    if payload_bytes > budget.payload_left || cost > budget.encoded_left {
        budget.stopped = true;
        return issue(
            IssueCode::BudgetExceeded,
            cause("item exceeds the remaining aggregate budget"),
        );
    }
    budget.payload_left -= payload_bytes;
    budget.encoded_left -= cost;
    budget.admitted += 1;
    Outcome::Admitted(Admitted {
        payload,
        meta_json,
        size,
        cost,
    })
}
