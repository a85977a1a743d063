//! What the host records after a successful subscription request.

use crate::protocol::ProtocolRevision;

use super::{NotificationTypes, SubscriptionId};

/// Which request a [`SubscriptionDecision`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SubscriptionMethod {
    /// `resources/subscribe`: record the URI for the session.
    Subscribe,
    /// `resources/unsubscribe`: forget the URI for the session.
    Unsubscribe,
    /// `subscriptions/listen`: record the stream (its id, the honored URIs
    /// and types) until the client cancels it.
    Listen,
}

/// What the host records after a successful subscription request: the
/// URIs to record (subscribe, listen) or forget (unsubscribe), byte for
/// byte as the client sent them, the notification types honored, the
/// stream's subscription id and the revision its messages are shaped for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionDecision {
    method: SubscriptionMethod,
    uris: Vec<String>,
    honored: NotificationTypes,
    requested: NotificationTypes,
    id: Option<SubscriptionId>,
    protocol_revision: ProtocolRevision,
}

impl SubscriptionDecision {
    /// The request this decision answers.
    pub fn method(&self) -> SubscriptionMethod {
        self.method
    }

    /// The URIs: the one subscribed to, the one to forget, or a listen's
    /// honored subset in request order (maybe none).
    pub fn uris(&self) -> &[String] {
        &self.uris
    }

    /// The notification types honored (a listen's acknowledged filter;
    /// `resource_updates` for a subscribe; none for an unsubscribe).
    pub fn honored(&self) -> NotificationTypes {
        self.honored
    }

    /// The notification types the client asked for (a listen's whole
    /// filter, tools and prompts included, so that a host answering those
    /// itself can see them).
    pub fn requested(&self) -> NotificationTypes {
        self.requested
    }

    /// A listen stream's subscription id (the request's id); `None` for
    /// subscribe and unsubscribe.
    pub fn subscription_id(&self) -> Option<&SubscriptionId> {
        self.id.as_ref()
    }

    /// The revision of the request (the per-request one when the params
    /// named one): the subscriber's revision for later notifications.
    pub fn protocol_revision(&self) -> ProtocolRevision {
        self.protocol_revision
    }
}

impl SubscriptionDecision {
    pub(crate) fn new(
        method: SubscriptionMethod,
        uris: Vec<String>,
        honored: NotificationTypes,
        requested: NotificationTypes,
        id: Option<SubscriptionId>,
        protocol_revision: ProtocolRevision,
    ) -> SubscriptionDecision {
        SubscriptionDecision {
            method,
            uris,
            honored,
            requested,
            id,
            protocol_revision,
        }
    }
}
