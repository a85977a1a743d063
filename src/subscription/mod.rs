//! Subscriptions and change notifications that never tell a caller about
//! what it may not see (docs/BEHAVIOUR.md §15).
//!
//! The library makes the decisions and writes the JSON; the host keeps its
//! sessions, listeners and delivery. The registry stays stateless per call
//! and owns no thread: nothing here remembers a subscriber between calls.
//!
//! - **Subscribing** (`resources/subscribe` before 2026-07-28,
//!   `subscriptions/listen` from it, both through [`Resources::request`]):
//!   a URI is *honored* when a read of it would pass the read's root
//!   checks (BEHAVIOUR §5 steps 1 to 3: selection, `discover`, `resolve`,
//!   the requested target's visibility and read permission); nothing is
//!   read. Not honored, unregistered, undiscoverable and hidden are the
//!   same bytes; a syntactically invalid URI is the same request error a
//!   read of it gets. The host records what the response's
//!   [`SubscriptionDecision`] says.
//! - **Updates** ([`Resources::notify_updated`]): the host names the URI
//!   that changed and its subscribers; each is rechecked now, and gets the
//!   exact `notifications/resources/updated` message for its revision, or
//!   nothing.
//! - **List changes** ([`ListChange`]): after a registry swap the two
//!   registries are compared once, and each subscriber is told only when
//!   it can discover a changed definition; when only permissions changed,
//!   [`Resources::listing_fingerprint`] and
//!   [`Resources::notify_listing_changed`] recheck those callers in full.
//! - **Capabilities**: [`Resources::resources_capability`] is the
//!   `resources` capability object to declare.
//!
//! The request layer (`src/request/subscribe.rs`, `src/request/listen.rs`)
//! serves the three methods with these decisions. Every decision call runs
//! in its call frame (`CallOptions::frame`: deadline, cancellation,
//! optional executor, the panic barrier), like a read.

mod batch;
mod decide;
mod decision;
mod diff;
mod fingerprint;
mod id;
mod message;
mod updated;

pub use batch::{Delivery, Notifications};
pub use decision::{SubscriptionDecision, SubscriptionMethod};
pub use diff::ListChange;
pub use id::{SubscriptionId, SubscriptionIdError, MAX_SUBSCRIPTION_ID_BYTES};
pub use message::{listen_closed_result, SUBSCRIPTION_ID_META_KEY};

// For the request layer (`crate::request`), which serves the methods.
pub(crate) use batch::SUBSCRIPTION_RULES;
pub(crate) use message::ack;

use crate::call::CallOptions;
use crate::protocol::ProtocolRevision;
use crate::scope::RequestData;

pub use crate::notification_types::NotificationTypes;

/// One subscriber of a change notification, as the host stored it: who it
/// is (the request data its policy callbacks receive), the revision its
/// messages are shaped for, and what it subscribed with.
///
/// The same type serves [`Resources::notify_updated`] (`uri`),
/// [`ListChange::notify`] and [`Resources::notify_listing_changed`]
/// (`listing`); members a call does not use are ignored.
#[derive(Clone, Default)]
pub struct Subscriber {
    /// Handed to every policy callback deciding for this subscriber, as
    /// `RequestOptions::request_data` is (the caller's identity).
    pub request_data: Option<RequestData>,
    /// The protocol revision of the subscriber's session or stream.
    pub protocol_revision: ProtocolRevision,
    /// The subscription id of its `subscriptions/listen` stream: required
    /// from 2026-07-28 on (every message on a stream carries it), ignored
    /// before (those revisions have no streams).
    pub subscription_id: Option<SubscriptionId>,
    /// Updates: the URI the subscriber subscribed to, when it is not the
    /// URI that changed (MCP allows notifying a sub-resource); it must
    /// still be honored too. `None` = the changed URI itself.
    pub uri: Option<String>,
    /// Policy changes: the subscriber's listing fingerprint from before the
    /// change ([`Resources::listing_fingerprint`]); required by
    /// [`Resources::notify_listing_changed`].
    pub listing: Option<ListingFingerprint>,
}

impl std::fmt::Debug for Subscriber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscriber")
            .field("protocol_revision", &self.protocol_revision)
            .field("subscription_id", &self.subscription_id)
            .field("uri", &self.uri)
            .finish_non_exhaustive()
    }
}

/// Per-call options of a notification decision: the call frame's deadline,
/// cancellation and executor (see [`CallOptions`]). Its `request_data` and
/// `protocol_revision` are not used: each [`Subscriber`] brings its own.
#[derive(Clone, Default)]
pub struct NotifyOptions {
    /// The options every call takes (its executor runs every callback of
    /// the call as one job: the call then returns by its deadline whatever
    /// a callback does).
    pub call: CallOptions,
}

impl From<CallOptions> for NotifyOptions {
    fn from(call: CallOptions) -> NotifyOptions {
        NotifyOptions { call }
    }
}

/// A digest of which definitions of one registry a caller can discover
/// (SHA-256 of the registry's content hash and one bit per resource and
/// template, in listing order; see [`Resources::listing_fingerprint`]).
/// Two fingerprints of the same caller are equal exactly when the same
/// definitions were discoverable (barring a hash collision); fingerprints
/// of different registries always differ. Private to the host: never send
/// it (it would tell what the caller can see).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListingFingerprint(pub [u8; 32]);

impl std::fmt::Debug for ListingFingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ListingFingerprint(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notification_bits_round_trip_and_unknown_bits_are_refused() {
        for bits in 0..16 {
            assert_eq!(NotificationTypes::from_bits(bits).unwrap().bits(), bits);
        }
        assert_eq!(NotificationTypes::from_bits(16), None);
        assert_eq!(NotificationTypes::from_bits(u32::MAX), None);
        assert_eq!(NotificationTypes::RESOURCES.bits(), 3);
        let all = NotificationTypes::from_bits(15).unwrap();
        assert_eq!(all.resources_only(), NotificationTypes::RESOURCES);
    }
}
