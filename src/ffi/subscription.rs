//! `mcpr_subscription_*`: what the host records after a successful
//! `resources/subscribe`, `resources/unsubscribe` or
//! `subscriptions/listen` (`mcpr_response_subscription`).

use crate::subscription::{SubscriptionDecision, SubscriptionMethod};

use super::boundary::{guard, mcpr_str};
use super::handle::{view_ref, View};

/// A subscription decision, borrowed from the response it came with
/// (`mcpr_response_subscription`; valid until that response is freed):
/// the URIs to record or forget, byte for byte as the client sent them, the
/// notification types honored, the stream's subscription id and the
/// revision of later messages. Immutable: safe to read from any thread.
///
/// \ingroup subscriptions
pub struct mcpr_subscription {
    _private: [u8; 0],
}

// SAFETY: `mcpr_subscription` pointers are only made by `view_ptr`.
unsafe impl View for mcpr_subscription {
    type Core = SubscriptionDecision;
}

/// Which request a subscription decision answers (`MCPR_SUBSCRIPTION_*`).
///
/// \ingroup subscriptions
pub type mcpr_subscription_method = u32;

/// `resources/subscribe`: record the URI for the session.
///
/// \ingroup subscriptions
pub const MCPR_SUBSCRIPTION_SUBSCRIBE: mcpr_subscription_method = 1;
/// `resources/unsubscribe`: forget the URI for the session.
///
/// \ingroup subscriptions
pub const MCPR_SUBSCRIPTION_UNSUBSCRIBE: mcpr_subscription_method = 2;
/// `subscriptions/listen`: record the stream (id, URIs, types) until the
/// client cancels it.
///
/// \ingroup subscriptions
pub const MCPR_SUBSCRIPTION_LISTEN: mcpr_subscription_method = 3;

/// Which request the decision answers.
///
/// \param subscription The decision, or NULL.
/// \return `MCPR_SUBSCRIPTION_SUBSCRIBE`, `MCPR_SUBSCRIPTION_UNSUBSCRIBE`
///   or `MCPR_SUBSCRIPTION_LISTEN`; 0 when `subscription` is NULL.
/// \pre `subscription` is NULL or a decision from
///   `mcpr_response_subscription` whose response is not yet freed.
/// \note Thread-safe: a decision is immutable.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscription_request(
    subscription: *const mcpr_subscription,
) -> mcpr_subscription_method {
    guard(|| {
        unsafe { view_ref(subscription) }.map_or(0, |d| match d.method() {
            SubscriptionMethod::Subscribe => MCPR_SUBSCRIPTION_SUBSCRIBE,
            SubscriptionMethod::Unsubscribe => MCPR_SUBSCRIPTION_UNSUBSCRIBE,
            SubscriptionMethod::Listen => MCPR_SUBSCRIPTION_LISTEN,
        })
    })
}

/// How many URIs the decision names: 1 for subscribe and unsubscribe, the
/// honored subset of a listen (maybe 0).
///
/// \param subscription The decision, or NULL.
/// \return The count; 0 when `subscription` is NULL.
/// \pre `subscription` is NULL or a decision from
///   `mcpr_response_subscription` whose response is not yet freed.
/// \note Thread-safe: a decision is immutable.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscription_uri_count(
    subscription: *const mcpr_subscription,
) -> usize {
    guard(|| unsafe { view_ref(subscription) }.map_or(0, |d| d.uris().len()))
}

/// URI `index` of the decision, in request order: to record (subscribe,
/// listen) or to forget (unsubscribe).
///
/// \param subscription The decision, or NULL.
/// \param index Below `mcpr_subscription_uri_count`.
/// \return The URI, borrowed from the response (valid until it is freed);
///   empty when `index` is out of range or `subscription` is NULL.
/// \pre `subscription` is NULL or a decision from
///   `mcpr_response_subscription` whose response is not yet freed.
/// \note Thread-safe: a decision is immutable.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscription_uri(
    subscription: *const mcpr_subscription,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(subscription) }
            .and_then(|d| d.uris().get(index))
            .map_or(mcpr_str::empty(), |u| mcpr_str::from_str(u))
    })
}

/// The notification types honored: a listen's acknowledged filter,
/// `MCPR_NOTIFY_RESOURCE_UPDATES` for a subscribe, none for an unsubscribe.
///
/// \param subscription The decision, or NULL.
/// \return `MCPR_NOTIFY_*` bits; 0 when `subscription` is NULL.
/// \pre `subscription` is NULL or a decision from
///   `mcpr_response_subscription` whose response is not yet freed.
/// \note Thread-safe: a decision is immutable.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscription_honored(subscription: *const mcpr_subscription) -> u32 {
    guard(|| unsafe { view_ref(subscription) }.map_or(0, |d| d.honored().bits()))
}

/// The notification types the client asked for (a listen's whole filter,
/// tools and prompts included, for a host answering those itself).
///
/// \param subscription The decision, or NULL.
/// \return `MCPR_NOTIFY_*` bits; 0 when `subscription` is NULL.
/// \pre `subscription` is NULL or a decision from
///   `mcpr_response_subscription` whose response is not yet freed.
/// \note Thread-safe: a decision is immutable.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscription_requested(
    subscription: *const mcpr_subscription,
) -> u32 {
    guard(|| unsafe { view_ref(subscription) }.map_or(0, |d| d.requested().bits()))
}

/// A listen stream's subscription id, as the JSON text its messages carry
/// (`1`, `"listen-1"`): store it with the stream and pass it as
/// `mcpr_subscriber.subscription_id`.
///
/// \param subscription The decision, or NULL.
/// \return The id, borrowed from the response (valid until it is freed);
///   empty for subscribe and unsubscribe and when `subscription` is NULL.
/// \pre `subscription` is NULL or a decision from
///   `mcpr_response_subscription` whose response is not yet freed.
/// \note Thread-safe: a decision is immutable.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscription_id(subscription: *const mcpr_subscription) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(subscription) }
            .and_then(|d| d.subscription_id())
            .map_or(mcpr_str::empty(), |id| mcpr_str::from_str(id.json()))
    })
}

/// The protocol revision of the request (the per-request one when its
/// params named one): store it as the subscriber's
/// `mcpr_subscriber.protocol_revision`.
///
/// \param subscription The decision, or NULL.
/// \return `"2025-06-18"`, `"2025-11-25"` or `"2026-07-28"` (static);
///   empty when `subscription` is NULL.
/// \pre `subscription` is NULL or a decision from
///   `mcpr_response_subscription` whose response is not yet freed.
/// \note Thread-safe: a decision is immutable.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscription_protocol_revision(
    subscription: *const mcpr_subscription,
) -> mcpr_str {
    guard(|| {
        unsafe { view_ref(subscription) }.map_or(mcpr_str::empty(), |d| {
            mcpr_str::from_str(d.protocol_revision().as_str())
        })
    })
}
