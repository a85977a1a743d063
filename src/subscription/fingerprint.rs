//! List changes when only permissions changed: a caller's *listing
//! fingerprint* is a digest of which definitions it can discover (every
//! resource and template of the registry, a full recheck); the host takes
//! one before it changes permissions and asks again after. Never sent to a
//! client: it would tell what the caller can see.

use crate::observe::Subject;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::binding::ResourceBinding;
use crate::error::Failure;
use crate::policy::ResourcePolicy;
use crate::read::{discovered_among, ReadOptions, RootStop};
use crate::registry::Resources;
use crate::scope::{CallPhase, RequestScope};

use super::batch::{self, host_mistake, Builder, Message, Notifications, SUBSCRIPTION_RULES};
use super::{ListingFingerprint, NotifyOptions, Subscriber};

/// What a fingerprint covers, owned (a job on an executor holds it): every
/// definition in listing order, the content hash and the policy.
struct Catalogue {
    bindings: Arc<Vec<ResourceBinding>>,
    orders: [Arc<Vec<usize>>; 2],
    content_hash: [u8; 32],
    policy: Arc<dyn ResourcePolicy>,
}

impl Catalogue {
    fn of(r: &Resources) -> Catalogue {
        let (bindings, resources) = r.shared_order(false);
        let (_, templates) = r.shared_order(true);
        Catalogue {
            bindings,
            orders: [resources, templates],
            content_hash: r.content_hash(),
            policy: r.policy().clone(),
        }
    }
}

/// The fingerprint of the caller of `scope`: `discover` for every
/// definition (the clock checked every 64).
fn fingerprint(catalogue: &Catalogue, scope: &RequestScope) -> Result<ListingFingerprint, Failure> {
    let call = scope.call_in(CallPhase::Subscription);
    let policy = catalogue.policy.as_ref();
    let mut h = Sha256::new();
    h.update(b"mcp-resources listing v1\n");
    h.update(catalogue.content_hash);
    for order in &catalogue.orders {
        h.update((order.len() as u64).to_be_bytes());
        let mut bits = vec![0u8; order.len().div_ceil(8)];
        for (k, &i) in order.iter().enumerate() {
            if k % 64 == 63 {
                scope.check()?;
            }
            let d = catalogue.bindings[i].definition();
            match discovered_among(policy, scope, d, &call) {
                Ok(()) => bits[k / 8] |= 1 << (k % 8),
                Err(RootStop::Denied(_)) => {}
                Err(RootStop::Failed(f)) => return Err(f),
            }
        }
        h.update(&bits);
    }
    Ok(ListingFingerprint(h.finalize().into()))
}

impl Resources {
    /// The caller's listing fingerprint (see [`ListingFingerprint`]): asks
    /// `discover` about every resource and template of the registry, under
    /// the options' request data. Take one for each caller whose
    /// permissions are about to change, then hand them to
    /// [`notify_listing_changed`](Self::notify_listing_changed).
    ///
    /// Errors: a `discover` failure other than a denial is `policy`;
    /// cancellation, deadline and executor as for [`Resources::list`].
    pub fn listing_fingerprint(
        &self,
        options: &ReadOptions,
    ) -> Result<ListingFingerprint, Failure> {
        options
            .call
            .frame(self, &SUBSCRIPTION_RULES, Subject::None, |frame| {
                let catalogue = Catalogue::of(self);
                match frame.executor() {
                    None => fingerprint(&catalogue, frame.scope()),
                    Some(executor) => {
                        let scope = frame.scope().clone();
                        frame.run_job(executor, move || fingerprint(&catalogue, &scope))
                    }
                }
            })
    }

    /// Decides a list change after a permission change, for many
    /// subscribers: each subscriber's fingerprint is taken again (a full
    /// recheck, as [`listing_fingerprint`](Self::listing_fingerprint)) and
    /// compared with [`Subscriber::listing`], the one from before the
    /// change; a subscriber whose fingerprint differs gets the exact
    /// `notifications/resources/list_changed` message for its revision,
    /// the others nothing. [`Notifications::listing`] gives each new
    /// fingerprint, for the next change.
    ///
    /// Errors: a subscriber without `listing` is `invalid_argument`;
    /// otherwise as for [`Resources::notify_updated`]. A `discover` failure
    /// is that subscriber's [`Delivery::Failed`](super::Delivery::Failed).
    pub fn notify_listing_changed(
        &self,
        subscribers: &[Subscriber],
        options: &NotifyOptions,
    ) -> Result<Notifications, Failure> {
        batch::check_subscribers(subscribers)?;
        if subscribers.iter().any(|s| s.listing.is_none()) {
            return Err(host_mistake(
                "every subscriber needs its listing fingerprint from before the change",
            ));
        }
        options
            .call
            .frame(self, &SUBSCRIPTION_RULES, Subject::None, |frame| {
                let catalogue = Catalogue::of(self);
                match frame.executor() {
                    None => compare_all(&catalogue, subscribers, frame.scope()),
                    Some(executor) => {
                        let scope = frame.scope().clone();
                        let subscribers = batch::owned(subscribers);
                        frame.run_job(executor, move || {
                            compare_all(&catalogue, &subscribers, &scope)
                        })
                    }
                }
            })
    }
}

/// Every subscriber's fingerprint now, compared with its `listing`.
fn compare_all(
    catalogue: &Catalogue,
    subscribers: &[Subscriber],
    scope: &RequestScope,
) -> Result<Notifications, Failure> {
    let mut out = Builder::with_capacity(subscribers.len());
    for s in subscribers {
        let caller = scope.for_caller(s.request_data.clone());
        let decision = match fingerprint(catalogue, &caller) {
            Ok(now) => {
                out.listing(now);
                Ok(Some(now) != s.listing)
            }
            Err(f) => {
                out.listing(ListingFingerprint([0; 32]));
                Err(f)
            }
        };
        out.decided(s, decision, Message::ListChanged)?;
    }
    Ok(out.finish())
}
