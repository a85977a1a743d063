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
//!
//! The budget and the outcomes of body reads; `pipeline.rs` asks for the
//! reads and settles them here, whichever driver runs the callbacks.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use crate::binding::ResourceHandler;
use crate::error::{BoxError, CauseText, Failure, FailureKind};
use crate::limits::{Limits, MAX_META_BYTES};
use crate::plan::{ResourcePayload, ResourceTarget};
use crate::report::IssueCode;
use crate::scope::RequestScope;
use crate::sizing::{target_item_size, ItemSize};

use super::assemble::Shape;
use super::authorize::CallbackFailure;
use super::Outcome;

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

pub(super) struct Budget {
    payload_left: u64,
    encoded_left: u64,
    admitted: usize,
    stopped: bool,
    /// Whether items carry their payload's `_meta` (the revision defines
    /// it: [`ProtocolRevision::has_item_meta`]); when not, it is neither
    /// written nor counted.
    item_meta: bool,
}

impl Budget {
    /// The admission budget of a read shaped by `shape`, before any body:
    /// the host's result `_meta` members are taken from the encoded budget
    /// at once, as the report is.
    pub(super) fn new(limits: &Limits, shape: &Shape) -> Budget {
        let host_meta = shape.result_meta.as_ref().map_or(0, |m| m.merged_len(true));
        Budget {
            payload_left: limits.admission_payload_budget(),
            encoded_left: limits
                .admission_encoded_budget()
                .saturating_sub(host_meta as u64),
            admitted: 0,
            stopped: false,
            item_meta: shape.protocol_revision.has_item_meta(),
        }
    }

    /// Whether admission has stopped before the next body read (an item
    /// did not fit, or `max_items` were admitted); once it has, every
    /// later pending item is `budget_exceeded`.
    pub(super) fn stops_before_read(&mut self, limits: &Limits) -> bool {
        if self.stopped || self.admitted >= limits.max_items {
            self.stopped = true;
        }
        self.stopped
    }
}

pub(super) fn issue(code: IssueCode, cause: Option<BoxError>) -> Outcome {
    Outcome::Issue(code, cause)
}

pub(super) fn cause(text: &str) -> Option<BoxError> {
    Some(Box::new(CauseText(text.to_string())))
}

/// The outcome of a pending item not attempted because admission stopped.
pub(super) fn not_attempted() -> Outcome {
    issue(IssueCode::BudgetExceeded, cause("not attempted"))
}

/// The outcome of a body read that passed its item deadline.
pub(super) fn timed_out() -> Outcome {
    issue(IssueCode::Timeout, cause("item deadline passed"))
}

/// The deadline of a body read starting at `now`.
#[inline]
pub(super) fn item_deadline(scope: &RequestScope, now: Instant, limits: &Limits) -> Instant {
    now.checked_add(limits.item_timeout)
        .map_or(scope.deadline(), |d| d.min(scope.deadline()))
}

/// The outcome of a body read that returned within its item deadline.
pub(super) fn settle(
    handler: &dyn ResourceHandler,
    t: &ResourceTarget,
    result: Result<ResourcePayload, CallbackFailure>,
    limits: &Limits,
    budget: &mut Budget,
) -> Outcome {
    match result {
        Ok(payload) => admit(handler, t, payload, limits, budget),
        Err(CallbackFailure::Unavailable) => {
            issue(IssueCode::Unavailable, cause("reader unavailable"))
        }
        Err(CallbackFailure::Panicked) => issue(IssueCode::ReadFailed, cause("reader panicked")),
        Err(CallbackFailure::InputRequired(asked)) => Outcome::Input(asked),
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
    }
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
        Some(_) if !budget.item_meta => None,
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
            let s = target_item_size(target, &payload, meta_json.as_deref());
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
