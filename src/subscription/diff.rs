//! List changes computed per caller: two registries compared once (the
//! registry swap of a configuration reload), then, per subscriber, whether
//! *its* listing changed: only the changed definitions are asked about, so
//! the cost of a decision grows with the change, not with the catalogue.

use crate::observe::Subject;
use std::cmp::Ordering;
use std::sync::Arc;

use crate::definition::ResourceDefinition;
use crate::error::Failure;
use crate::limits::Limits;
use crate::policy::ResourcePolicy;
use crate::read::{discovered_among, RootStop};
use crate::registry::Resources;
use crate::scope::{CallPhase, RequestScope};

use super::batch::{self, Builder, Message, Notifications, SUBSCRIPTION_RULES};
use super::{NotifyOptions, Subscriber};

/// The definitions that differ between two registries, each with the
/// policy of the registry it belongs to.
///
/// A definition (a `resources/list` or `resources/templates/list` entry)
/// *differs* when it was removed, added, or listed differently (its
/// description JSON changed); definitions are matched by `uri` or
/// `uriTemplate`, byte for byte. `Send + Sync`: one change serves every
/// subscriber, from any thread.
#[derive(Clone)]
pub struct ListChange {
    /// The old registry's definitions removed or changed, with its policy.
    old: Side,
    /// The new registry's definitions added or changed, with its policy.
    new: Side,
    /// Definitions that differ (a changed one counted once).
    count: usize,
    limits: Limits,
}

#[derive(Clone)]
struct Side {
    policy: Arc<dyn ResourcePolicy>,
    definitions: Vec<Arc<ResourceDefinition>>,
}

impl std::fmt::Debug for ListChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListChange")
            .field("definitions", &self.count)
            .finish_non_exhaustive()
    }
}

/// The binding indices of `order` (sorted by key) as definitions.
fn definitions<'r>(
    r: &'r Resources,
    order: &'r [usize],
) -> impl Iterator<Item = &'r Arc<ResourceDefinition>> + 'r {
    order.iter().map(|&i| r.bindings()[i].definition())
}

impl ListChange {
    /// Compares `old` and `new` once: resources and templates, by key, in
    /// their sorted orders (one pass over each; registries with the same
    /// content hash differ in nothing, at once). The result holds what the
    /// decisions need (the differing definitions and both policies), not
    /// the registries.
    pub fn between(old: &Resources, new: &Resources) -> ListChange {
        let mut change = ListChange {
            old: Side {
                policy: old.policy().clone(),
                definitions: Vec::new(),
            },
            new: Side {
                policy: new.policy().clone(),
                definitions: Vec::new(),
            },
            count: 0,
            limits: *new.limits(),
        };
        if old.content_hash() == new.content_hash() {
            return change;
        }
        change.compare(
            definitions(old, old.resource_order()),
            definitions(new, new.resource_order()),
        );
        change.compare(
            definitions(old, old.template_order()),
            definitions(new, new.template_order()),
        );
        change
    }

    /// Merges two key-sorted lists of definitions, keeping what differs.
    fn compare<'a>(
        &mut self,
        mut old: impl Iterator<Item = &'a Arc<ResourceDefinition>>,
        mut new: impl Iterator<Item = &'a Arc<ResourceDefinition>>,
    ) {
        let (mut o, mut n) = (old.next(), new.next());
        loop {
            let ordering = match (o, n) {
                (None, None) => return,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(a), Some(b)) => a.uri_or_template().cmp(b.uri_or_template()),
            };
            match ordering {
                Ordering::Less => {
                    self.old.definitions.extend(o.cloned());
                    self.count += 1;
                    o = old.next();
                }
                Ordering::Greater => {
                    self.new.definitions.extend(n.cloned());
                    self.count += 1;
                    n = new.next();
                }
                Ordering::Equal => {
                    let (a, b) = (o.expect("equal keys"), n.expect("equal keys"));
                    if !Arc::ptr_eq(a, b) && a.json() != b.json() {
                        self.old.definitions.push(a.clone());
                        self.new.definitions.push(b.clone());
                        self.count += 1;
                    }
                    (o, n) = (old.next(), new.next());
                }
            }
        }
    }

    /// Whether no definition differs (then no subscriber is ever told).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// How many definitions differ (a changed one counted once).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Decides the list change for many subscribers: for each, in order,
    /// the exact `notifications/resources/list_changed` message for its
    /// revision (with its stream's subscription id from 2026-07-28 on), or
    /// nothing.
    ///
    /// A subscriber is told when it can discover at least one definition
    /// that differs: a removed or changed one under the old registry's
    /// policy, an added or changed one under the new registry's, with its
    /// own request data (docs/BEHAVIOUR.md §15). A subscriber who can
    /// discover none of them gets nothing, silently; one whose `discover`
    /// failed for some of them and allowed none is
    /// [`Delivery::Failed`](super::Delivery::Failed) and gets nothing.
    /// Only the differing definitions are asked about. Errors as for
    /// [`Resources::notify_updated`] (`read_timeout` is the new registry's).
    pub fn notify(
        &self,
        subscribers: &[Subscriber],
        options: &NotifyOptions,
    ) -> Result<Notifications, Failure> {
        batch::check_subscribers(subscribers)?;
        options.call.frame_with(
            crate::call::FromParams::default(),
            &self.limits,
            crate::observe::unobserved(),
            &SUBSCRIPTION_RULES,
            Subject::None,
            |frame| match frame.executor() {
                None => self.decide(subscribers, frame.scope()),
                Some(executor) => {
                    let (change, scope) = (self.clone(), frame.scope().clone());
                    let subscribers = batch::owned(subscribers);
                    frame.run_job(executor, move || change.decide(&subscribers, &scope))
                }
            },
        )
    }

    fn decide(
        &self,
        subscribers: &[Subscriber],
        scope: &RequestScope,
    ) -> Result<Notifications, Failure> {
        let mut out = Builder::with_capacity(subscribers.len());
        for (i, s) in subscribers.iter().enumerate() {
            if i % 16 == 15 {
                scope.check()?;
            }
            if self.is_empty() {
                out.skip();
                continue;
            }
            let caller = scope.for_caller(s.request_data.clone());
            out.decided(s, self.caller_sees(&caller), Message::ListChanged)?;
        }
        Ok(out.finish())
    }

    /// Whether the caller of `scope` can discover a differing definition:
    /// `Ok(true)` at the first one, a failure only when none was
    /// discoverable and some `discover` failed.
    fn caller_sees(&self, scope: &RequestScope) -> Result<bool, Failure> {
        let call = scope.call_in(CallPhase::Subscription);
        let mut failed = None;
        for side in [&self.old, &self.new] {
            for d in &side.definitions {
                match discovered_among(side.policy.as_ref(), scope, d, &call) {
                    Ok(()) => return Ok(true),
                    Err(RootStop::Denied(_)) => {}
                    Err(RootStop::Failed(f)) if batch::ends_the_call(&f) => return Err(f),
                    Err(RootStop::Failed(f)) => failed = failed.or(Some(f)),
                }
            }
        }
        failed.map_or(Ok(false), Err)
    }
}
