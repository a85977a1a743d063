//! Whether a caller may subscribe to a URI: the read's own root checks
//! (docs/BEHAVIOUR.md §5 steps 1 to 3; the pipeline's `read::root` step),
//! asked without reading anything.
//!
//! Selection is static and done first, for every URI of a request, before
//! any callback: an invalid identifier, an ambiguous match or a bad capture
//! is the read's request error; nothing registered is *not honored* without
//! asking the policy. Then, per URI, [`root`]: `discover`, `resolve` (it
//! reads no body), the requested target's visibility and read permission.
//! A denial anywhere is *not honored*, the same answer as nothing
//! registered; any other callback failure fails the call as it fails a
//! read.

use crate::observe::Subject;
use std::sync::Arc;

use crate::binding::ResourceHandler;
use crate::call::{CallOptions, Frame};
use crate::definition::ResourceDefinition;
use crate::error::{Failure, FailureKind};
use crate::identity::validate_uri;
use crate::limits::Limits;
use crate::plan::ResourceMatch;
use crate::policy::ResourcePolicy;
use crate::read::{root, ReadOptions, RootStop};
use crate::registry::Resources;
use crate::scope::{CallContext, CallPhase, RequestScope};

use super::batch::SUBSCRIPTION_RULES;

/// A URI selected for a decision, with what deciding it needs, owned (so
/// that a job on an executor can hold it past an abandoned callback).
#[derive(Clone)]
pub(crate) struct Candidate {
    definition: Arc<ResourceDefinition>,
    handler: Arc<dyn ResourceHandler>,
    matched: ResourceMatch,
}

/// Selects `uri` as a read does: `Ok(None)` when nothing is registered for
/// it (not honored; no callback is asked), the read's request error for an
/// invalid identifier, an ambiguous match or a bad capture.
pub(crate) fn select(resources: &Resources, uri: &[u8]) -> Result<Option<Candidate>, Failure> {
    match resources.select(uri) {
        Ok(s) => Ok(Some(Candidate {
            definition: s.binding.definition().clone(),
            handler: s.binding.handler().clone(),
            matched: s.matched,
        })),
        Err(f) if f.kind() == FailureKind::Unavailable => Ok(None),
        Err(f) => Err(f),
    }
}

/// Whether the caller of `call` may be told about `candidate` now: the
/// read's root checks pass (`false` for any denial). `call` is the
/// caller's call context; it is left in [`CallPhase::Subscription`].
pub(crate) fn honored(
    policy: &dyn ResourcePolicy,
    candidate: &Candidate,
    scope: &RequestScope,
    limits: &Limits,
    call: &mut CallContext,
) -> Result<bool, Failure> {
    let c = candidate;
    let r = root(
        policy,
        c.handler.as_ref(),
        &c.definition,
        &c.matched,
        scope,
        limits,
        call,
        CallPhase::Subscription,
    );
    match r {
        Ok(_) => Ok(true),
        Err(RootStop::Denied(_)) => Ok(false),
        Err(RootStop::Failed(f)) => Err(f),
    }
}

/// The decisions of one caller about selected URIs, in order (`None`:
/// nothing registered).
fn decide_all(
    policy: &dyn ResourcePolicy,
    candidates: &[Option<Candidate>],
    scope: &RequestScope,
    limits: &Limits,
) -> Result<Vec<bool>, Failure> {
    let mut call = scope.call_in(CallPhase::Subscription);
    let mut out = Vec::with_capacity(candidates.len());
    for (i, c) in candidates.iter().enumerate() {
        if i % 8 == 7 {
            scope.check()?;
        }
        out.push(match c {
            None => false,
            Some(c) => honored(policy, c, scope, limits, &mut call)?,
        });
    }
    Ok(out)
}

impl Resources {
    /// Which of `uris` the caller may subscribe to, in order: `true` when a
    /// read of the URI would pass its root checks (selection, `discover`,
    /// `resolve`, the requested target's visibility and read permission;
    /// nothing is read), `false` otherwise, whatever the reason
    /// (docs/BEHAVIOUR.md §15). Every URI is selected before any callback
    /// runs. The call runs in its call frame ([`CallOptions`]: the
    /// options' request data is the caller's).
    ///
    /// Errors: an empty list of URIs is fine (no callback runs); an invalid
    /// identifier, an ambiguous match or a bad capture is the read's
    /// `invalid_request` (for the first such URI); a policy failure is
    /// `policy` and a `resolve` failure `invalid_plan`, as for a read;
    /// cancellation `canceled`, the deadline `deadline_exceeded`. With an
    /// executor every callback runs there as one job, and the call returns
    /// by its deadline; a saturated executor is `policy`.
    pub fn honored<U: AsRef<[u8]>>(
        &self,
        uris: &[U],
        options: &ReadOptions,
    ) -> Result<Vec<bool>, Failure> {
        let uris: Vec<&[u8]> = uris.iter().map(AsRef::as_ref).collect();
        self.honored_in(&uris, &options.call)
    }

    /// Whether the caller of `call` may unsubscribe from `uri`: always, for
    /// a valid identifier (nothing is asked, so nothing is learnt; the
    /// read's `invalid_request` otherwise). In the call's frame, so that an
    /// unsubscribe is observed and counted as every subscription call is
    /// (docs/BEHAVIOUR.md §19); no callback runs and no executor is used.
    pub(crate) fn unsubscribable_in(&self, uri: &[u8], call: &CallOptions) -> Result<(), Failure> {
        call.frame(self, &SUBSCRIPTION_RULES, Subject::None, |_| {
            validate_uri(uri, self.limits().max_uri_bytes)
                .map(drop)
                .map_err(|e| e.into_request_failure())
        })
    }

    /// [`honored`](Self::honored) with the call options of `call` (the
    /// request layer's).
    pub(crate) fn honored_in(
        &self,
        uris: &[&[u8]],
        call: &CallOptions,
    ) -> Result<Vec<bool>, Failure> {
        call.frame(self, &SUBSCRIPTION_RULES, Subject::None, |frame| {
            let candidates = uris
                .iter()
                .map(|u| select(self, u))
                .collect::<Result<Vec<_>, Failure>>()?;
            self.decide_candidates(frame, candidates)
        })
    }

    /// The decisions of the caller of `frame` about `candidates`, inline or
    /// as one job on the frame's executor.
    fn decide_candidates(
        &self,
        frame: &Frame<'_>,
        candidates: Vec<Option<Candidate>>,
    ) -> Result<Vec<bool>, Failure> {
        let limits = *self.limits();
        match frame.executor() {
            None => decide_all(self.policy().as_ref(), &candidates, frame.scope(), &limits),
            Some(executor) => {
                let policy = self.policy().clone();
                let scope = frame.scope().clone();
                frame.run_job(executor, move || {
                    decide_all(policy.as_ref(), &candidates, &scope, &limits)
                })
            }
        }
    }
}
