//! One call deciding for many subscribers: the frame rules of every
//! subscription call (each runs in `CallOptions::frame`), the host's
//! mistakes in its subscribers, and the [`Notifications`] it returns (one
//! message, or nothing, per subscriber, in order).

use std::sync::Arc;

use crate::call::FrameRules;
use crate::error::{CauseText, Failure, FailureKind};
use crate::protocol::ProtocolRevision;

use super::message;
use super::{ListingFingerprint, Subscriber, SubscriptionId};

/// The frame rules of every subscription call: a saturated executor is
/// `policy` (as a policy callback that cannot be asked), and so is a panic
/// of the library inside the call's job.
pub(crate) const SUBSCRIPTION_RULES: FrameRules = FrameRules {
    method: crate::observe::CallMethod::Subscriptions,
    refused: FailureKind::Policy,
    panicked: subscription_panicked,
};

fn subscription_panicked() -> Failure {
    Failure::new(FailureKind::Policy).caused_by(CauseText("the subscription job panicked".into()))
}

/// The refusal of a subscriber the host made wrongly (a host mistake, never
/// the client's): `invalid_argument`.
pub(crate) fn host_mistake(message: &'static str) -> Failure {
    Failure::with_message(FailureKind::InvalidArgument, message)
}

/// Checks what every notification call needs of its subscribers (before
/// the call's frame starts: a host mistake is reported whatever else
/// happens): a stream id from 2026-07-28 on.
pub(crate) fn check_subscribers(subscribers: &[Subscriber]) -> Result<(), Failure> {
    for s in subscribers {
        if s.protocol_revision >= ProtocolRevision::V2026_07_28 && s.subscription_id.is_none() {
            return Err(host_mistake(
                "a subscriber on 2026-07-28 needs the subscription id of its stream",
            ));
        }
    }
    Ok(())
}

/// What one subscriber gets.
#[derive(Debug)]
enum Entry {
    /// The message at `json[at..at + len]`.
    Send { at: u32, len: u32 },
    /// Nothing: the subscriber may not be told (never said why).
    Skip,
    /// Nothing: its decision failed (the failure, for the host's logs).
    Failed(Box<Failure>),
}

/// What one subscriber gets from a notification call.
#[derive(Debug, Clone, Copy)]
pub enum Delivery<'a> {
    /// Send this complete JSON-RPC notification message to the subscriber.
    Send(&'a str),
    /// Send nothing: the subscriber may not learn of this change (it cannot
    /// see the URI or any changed definition now, or it was revoked). Never
    /// distinguished further.
    Skip,
    /// Send nothing: deciding for this subscriber failed (a policy callback
    /// failed or panicked, `resolve` failed); the failure's private cause
    /// is for the host's logs.
    Failed(&'a Failure),
}

impl Delivery<'_> {
    /// The message to send, if any.
    pub fn message(&self) -> Option<&str> {
        match self {
            Delivery::Send(m) => Some(m),
            _ => None,
        }
    }
}

/// The result of a notification call: per subscriber, in the order given,
/// the exact message to send or nothing.
#[derive(Debug)]
pub struct Notifications {
    json: String,
    entries: Vec<Entry>,
    /// [`Resources::notify_listing_changed`](crate::Resources::notify_listing_changed):
    /// each subscriber's fingerprint now.
    listings: Vec<ListingFingerprint>,
}

impl Notifications {
    /// How many subscribers (the length of the list given).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the list given was empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What subscriber `i` gets (`None` past the end).
    pub fn get(&self, i: usize) -> Option<Delivery<'_>> {
        self.entries.get(i).map(|e| match e {
            Entry::Send { at, len } => {
                Delivery::Send(&self.json[*at as usize..(*at + *len) as usize])
            }
            Entry::Skip => Delivery::Skip,
            Entry::Failed(f) => Delivery::Failed(f),
        })
    }

    /// Every subscriber's delivery, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Delivery<'_>> + '_ {
        (0..self.entries.len()).map(|i| self.get(i).expect("in range"))
    }

    /// How many subscribers get a message.
    pub fn sent(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e, Entry::Send { .. }))
            .count()
    }

    /// [`Resources::notify_listing_changed`](crate::Resources::notify_listing_changed)
    /// only: subscriber `i`'s listing fingerprint now, to keep for the next
    /// permission change (`None` for the other calls and for a failed
    /// decision).
    pub fn listing(&self, i: usize) -> Option<ListingFingerprint> {
        match self.entries.get(i) {
            Some(Entry::Failed(_)) | None => None,
            Some(_) => self.listings.get(i).copied(),
        }
    }
}

/// Builds [`Notifications`]: messages go into one buffer, and a message
/// that carries no stream id (every revision before 2026-07-28 gets the
/// same bytes) is written once and shared.
pub(crate) struct Builder {
    json: String,
    entries: Vec<Entry>,
    listings: Vec<ListingFingerprint>,
    shared: Option<(u32, u32)>,
}

/// Which message a call sends.
#[derive(Clone, Copy)]
pub(crate) enum Message<'a> {
    /// `notifications/resources/updated` for this URI.
    Updated(&'a str),
    /// `notifications/resources/list_changed`.
    ListChanged,
}

impl Builder {
    pub(crate) fn with_capacity(n: usize) -> Builder {
        Builder {
            json: String::new(),
            entries: Vec::with_capacity(n),
            listings: Vec::new(),
            shared: None,
        }
    }

    /// Subscriber `s` gets `message`.
    pub(crate) fn send(&mut self, s: &Subscriber, message: Message<'_>) {
        let id: Option<&SubscriptionId> = s.subscription_id.as_ref();
        let stream = s.protocol_revision >= ProtocolRevision::V2026_07_28;
        if !stream {
            if let Some((at, len)) = self.shared {
                self.entries.push(Entry::Send { at, len });
                return;
            }
        }
        let at = self.json.len();
        match message {
            Message::Updated(uri) => {
                message::write_updated(&mut self.json, s.protocol_revision, id, uri)
            }
            Message::ListChanged => {
                message::write_list_changed(&mut self.json, s.protocol_revision, id)
            }
        }
        let (at, len) = (at as u32, (self.json.len() - at) as u32);
        if !stream {
            self.shared = Some((at, len));
        }
        self.entries.push(Entry::Send { at, len });
    }

    /// Subscriber `i` gets nothing.
    pub(crate) fn skip(&mut self) {
        self.entries.push(Entry::Skip);
    }

    /// Deciding for the next subscriber failed.
    pub(crate) fn failed(&mut self, f: Failure) {
        self.entries.push(Entry::Failed(Box::new(f)));
    }

    /// Records the next subscriber's decision: `Ok(true)` sends `message`,
    /// `Ok(false)` skips; a failure is recorded, except cancellation and the
    /// call's deadline, which end the whole call.
    pub(crate) fn decided(
        &mut self,
        s: &Subscriber,
        decision: Result<bool, Failure>,
        message: Message<'_>,
    ) -> Result<(), Failure> {
        match decision {
            Ok(true) => self.send(s, message),
            Ok(false) => self.skip(),
            Err(f) if ends_the_call(&f) => return Err(f),
            Err(f) => self.failed(f),
        }
        Ok(())
    }

    /// Keeps the subscriber's listing fingerprint now (policy changes).
    pub(crate) fn listing(&mut self, f: ListingFingerprint) {
        self.listings.push(f);
    }

    pub(crate) fn finish(self) -> Notifications {
        Notifications {
            json: self.json,
            entries: self.entries,
            listings: self.listings,
        }
    }
}

/// Whether a failure ends the whole call rather than one subscriber's
/// decision: cancellation and the call's deadline.
pub(crate) fn ends_the_call(f: &Failure) -> bool {
    matches!(
        f.kind(),
        FailureKind::Canceled | FailureKind::DeadlineExceeded
    )
}

/// The subscribers of a call, owned, for a job on an executor.
pub(crate) fn owned(subscribers: &[Subscriber]) -> Arc<[Subscriber]> {
    subscribers.into()
}

/// A subscription decision's call event summarizes nothing and names no
/// URI (docs/BEHAVIOUR.md §19): what was honored, for whom, stays the
/// host's to record.
macro_rules! observed_as_nothing {
    ($($t:ty),*) => {$(
        impl crate::observe::Observed for $t {
            fn summary(&self) -> crate::observe::ResultSummary {
                crate::observe::ResultSummary::default()
            }
            fn discloses_subject(&self) -> bool {
                false
            }
            fn is_partial(&self) -> bool {
                false
            }
        }
    )*};
}

observed_as_nothing!(Notifications, super::ListingFingerprint, Vec<bool>, ());
