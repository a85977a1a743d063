//! Update notifications, rechecked at send time: the host names the URI
//! that changed and the subscribers it recorded; each is asked the
//! subscription question again, now, under its own request data.

use crate::observe::Subject;
use std::collections::HashMap;

use crate::error::{CauseText, Failure};
use crate::limits::Limits;
use crate::policy::ResourcePolicy;
use crate::registry::Resources;
use crate::scope::{CallPhase, RequestScope};

use super::batch::{self, Builder, Message, Notifications, SUBSCRIPTION_RULES};
use super::decide::{self, Candidate};
use super::{NotifyOptions, Subscriber};

/// What deciding an update needs besides the policy: the changed URI's
/// selection, and the selections of the other URIs subscribers subscribed
/// to (each `None` when nothing is registered for it now, or, for a
/// subscribed URI, the failure selecting it).
struct Plan {
    uri: String,
    changed: Option<Candidate>,
    subscribed: HashMap<String, Result<Option<Candidate>, Failure>>,
    limits: Limits,
}

impl Resources {
    /// Decides one update for many subscribers: `uri` changed (the URI the
    /// notification names); for each subscriber, in order, the exact
    /// `notifications/resources/updated` message for its revision (with
    /// its stream's subscription id from 2026-07-28 on), or nothing.
    ///
    /// Each subscriber is rechecked now, under its own request data, with
    /// the question subscribing asked (docs/BEHAVIOUR.md §15): the read's
    /// root checks pass for `uri`, and for the URI it subscribed to when
    /// that is another one. A subscriber who can no longer see either, or
    /// whose read permission was revoked, gets nothing, silently
    /// ([`Delivery::Skip`](super::Delivery::Skip)); a failed decision is
    /// [`Delivery::Failed`](super::Delivery::Failed) and gets nothing
    /// either. Nothing is read.
    ///
    /// Errors (no notification at all): `uri` is not a valid identifier
    /// (or is ambiguous) is `invalid_request`; a subscriber from
    /// 2026-07-28 on without a subscription id is `invalid_argument`;
    /// cancellation is `canceled` and the deadline `deadline_exceeded`
    /// (one deadline for the whole call, `read_timeout` at most); a
    /// saturated executor is `policy`. With an executor every callback
    /// runs there as one job, and the call returns by its deadline. The
    /// options' request data and protocol revision are not used: each
    /// subscriber brings its own.
    pub fn notify_updated(
        &self,
        uri: &[u8],
        subscribers: &[Subscriber],
        options: &NotifyOptions,
    ) -> Result<Notifications, Failure> {
        batch::check_subscribers(subscribers)?;
        options
            .call
            .frame(self, &SUBSCRIPTION_RULES, Subject::None, |frame| {
                let plan = self.update_plan(uri, subscribers)?;
                match frame.executor() {
                    None => {
                        decide_updates(self.policy().as_ref(), &plan, subscribers, frame.scope())
                    }
                    Some(executor) => {
                        let (policy, scope) = (self.policy().clone(), frame.scope().clone());
                        let subscribers = batch::owned(subscribers);
                        frame.run_job(executor, move || {
                            decide_updates(policy.as_ref(), &plan, &subscribers, &scope)
                        })
                    }
                }
            })
    }

    /// Selects the changed URI and every other URI a subscriber subscribed
    /// to, before any callback runs.
    fn update_plan(&self, uri: &[u8], subscribers: &[Subscriber]) -> Result<Plan, Failure> {
        let changed = decide::select(self, uri)?;
        // Valid UTF-8 once selected (Ok(None) included): nothing is lost.
        let uri = String::from_utf8_lossy(uri).into_owned();
        let mut subscribed = HashMap::new();
        if changed.is_some() {
            for s in subscribers {
                if let Some(other) = s.uri.as_deref().filter(|u| *u != uri) {
                    if !subscribed.contains_key(other) {
                        let selected = decide::select(self, other.as_bytes());
                        subscribed.insert(other.to_string(), selected);
                    }
                }
            }
        }
        Ok(Plan {
            uri,
            changed,
            subscribed,
            limits: *self.limits(),
        })
    }
}

/// Every subscriber's update decision, in order.
fn decide_updates(
    policy: &dyn ResourcePolicy,
    plan: &Plan,
    subscribers: &[Subscriber],
    scope: &RequestScope,
) -> Result<Notifications, Failure> {
    let mut out = Builder::with_capacity(subscribers.len());
    let Some(changed) = &plan.changed else {
        // Nothing is registered for the URI now: nobody may be told.
        subscribers.iter().for_each(|_| out.skip());
        return Ok(out.finish());
    };
    let message = Message::Updated(&plan.uri);
    for (i, s) in subscribers.iter().enumerate() {
        if i % 16 == 15 {
            scope.check()?;
        }
        let caller = scope.for_caller(s.request_data.clone());
        let mut call = caller.call_in(CallPhase::Subscription);
        let decision =
            decide::honored(policy, changed, &caller, &plan.limits, &mut call).and_then(|ok| {
                let Some(other) = s.uri.as_deref().filter(|u| ok && *u != plan.uri) else {
                    return Ok(ok);
                };
                match &plan.subscribed[other] {
                    Ok(None) => Ok(false),
                    Ok(Some(c)) => decide::honored(policy, c, &caller, &plan.limits, &mut call),
                    Err(f) => Err(copied(f)),
                }
            });
        out.decided(s, decision, message)?;
    }
    Ok(out.finish())
}

/// A copy of a selection failure, for each subscriber it concerns (the
/// host's mistake: a subscribed URI that is no valid identifier).
fn copied(f: &Failure) -> Failure {
    Failure::with_message(f.kind(), f.message().to_string()).caused_by(CauseText(f.cause_text()))
}
