//! `mcpr_subscriber`: one subscriber of a change notification, as the host
//! stored it, and its conversion to the core's `Subscriber`.

use std::os::raw::c_void;

use crate::protocol::ProtocolRevision;
use crate::subscription::{ListingFingerprint, Subscriber, SubscriptionId};

use super::boundary::{guard, mcpr_str};
use super::call_options::{request_data_of, revision_of};
use super::growth::{field_end, init_out, read_grown_array, Grows};
use super::status::Error;

/// One subscriber of a change notification (`mcpr_notify_updated`,
/// `mcpr_notify_list_changed`, `mcpr_notify_listing_changed`), as the host
/// recorded it when the subscription was decided. The library copies what
/// it needs before the call returns.
///
/// Growth: set `struct_size` to `sizeof(mcpr_subscriber)`, or start from
/// `MCPR_SUBSCRIBER_INIT` / `mcpr_subscriber_init`. The functions take an
/// array: every element states the same `struct_size`, which is the
/// array's stride, and the rules of every growing struct apply to each
/// (fields beyond `struct_size` take their defaults; set bytes beyond the
/// fields this library knows are `MCPR_INVALID_ARGUMENT`).
///
/// \ingroup subscriptions
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_subscriber {
    /// `sizeof(mcpr_subscriber)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// The subscriber's identity: handed to every policy callback deciding
    /// for it via `mcpr_call_request_data`, as `request_data` of a request
    /// is (NULL = none).
    pub request_data: *mut c_void,
    /// The protocol revision of the subscriber's session or stream
    /// (`mcpr_subscription_protocol_revision`; empty = the newest; an unknown one is
    /// `MCPR_INVALID_ARGUMENT`).
    pub protocol_revision: mcpr_str,
    /// The subscription id of its `subscriptions/listen` stream, as JSON
    /// text (`mcpr_subscription_id`): required from 2026-07-28 on
    /// (`MCPR_INVALID_ARGUMENT` without it), ignored before.
    pub subscription_id: mcpr_str,
    /// `mcpr_notify_updated` only: the URI the subscriber subscribed to,
    /// when it is not the URI that changed (it must still be honored too);
    /// empty = the changed URI itself.
    pub uri: mcpr_str,
    /// `mcpr_notify_listing_changed` only (required there): the 32-byte
    /// listing fingerprint from before the permission change
    /// (`mcpr_listing_fingerprint`); NULL elsewhere.
    pub listing: *const u8,
}

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_subscriber {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_subscriber, request_data),
        field_end!(mcpr_subscriber, protocol_revision),
        field_end!(mcpr_subscriber, subscription_id),
        field_end!(mcpr_subscriber, uri),
        field_end!(mcpr_subscriber, listing),
    ];
}

/// Fills a subscriber with the defaults: every field at its default and
/// `struct_size` set to `sizeof(mcpr_subscriber)`, as
/// `MCPR_SUBSCRIBER_INIT` does.
///
/// \param subscriber The subscriber to fill, or NULL (then nothing happens).
/// \pre `subscriber` is NULL or points at a writable `mcpr_subscriber`.
/// \note Thread-safe: touches only `*subscriber`.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_subscriber_init(subscriber: *mut mcpr_subscriber) {
    guard(|| unsafe { init_out(subscriber) })
}

/// The core subscribers of a C array.
///
/// # Safety
/// `p` is NULL with `count` 0, or points at `count` subscribers whose
/// strings follow the `mcpr_str` rules and whose `listing` is NULL or
/// points at 32 readable bytes.
pub(super) unsafe fn subscribers_of(
    p: *const mcpr_subscriber,
    count: usize,
) -> Result<Vec<Subscriber>, Error> {
    let raw = unsafe { read_grown_array(p, count) }?;
    raw.iter().map(|s| unsafe { subscriber_of(s) }).collect()
}

/// # Safety
/// As for [`subscribers_of`], for one subscriber.
unsafe fn subscriber_of(s: &mcpr_subscriber) -> Result<Subscriber, Error> {
    let protocol_revision = unsafe { revision_of(s.protocol_revision) }?;
    let id = unsafe { s.subscription_id.bytes() }?;
    let subscription_id = if id.is_empty() {
        None
    } else {
        Some(SubscriptionId::parse(id).map_err(|_| {
            Error::argument("subscriber subscription_id is not the JSON of a request id")
        })?)
    };
    if protocol_revision >= ProtocolRevision::V2026_07_28 && subscription_id.is_none() {
        return Err(Error::argument(
            "a subscriber on 2026-07-28 needs the subscription id of its stream",
        ));
    }
    let uri = unsafe { s.uri.bytes() }?;
    let uri = match uri {
        [] => None,
        u => Some(
            std::str::from_utf8(u)
                .map_err(|_| Error::argument("subscriber uri is not valid UTF-8"))?
                .to_string(),
        ),
    };
    let listing = (!s.listing.is_null()).then(|| {
        let mut f = [0u8; 32];
        // SAFETY: a non-null `listing` points at 32 readable bytes (the
        // caller's guarantee), which cannot overlap `f`.
        unsafe { std::ptr::copy_nonoverlapping(s.listing, f.as_mut_ptr(), 32) };
        ListingFingerprint(f)
    });
    Ok(Subscriber {
        request_data: request_data_of(s.request_data),
        protocol_revision,
        subscription_id,
        uri,
        listing,
    })
}
