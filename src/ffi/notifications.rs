//! The result of a notification call (`mcpr_notifications_*`): per
//! subscriber, the message to send or nothing.

use crate::subscription::{Delivery, Notifications};

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref, Boxed, Handle};
use super::status::mcpr_status;

/// The outcome of a notification call for each subscriber given, in order.
/// Owned by the caller; free with `mcpr_notifications_free`. Immutable:
/// safe to read from any thread.
///
/// \ingroup subscriptions
pub struct mcpr_notifications {
    inner: Notifications,
    /// Each failed decision's private cause (empty for the others).
    causes: Vec<String>,
}

impl Handle for mcpr_notifications {
    type Kind = Boxed;
}

impl mcpr_notifications {
    pub(super) fn new(inner: Notifications) -> mcpr_notifications {
        let causes = inner
            .iter()
            .map(|d| match d {
                Delivery::Failed(f) => f.cause_text(),
                _ => String::new(),
            })
            .collect();
        mcpr_notifications { inner, causes }
    }

    fn get(&self, i: usize) -> Option<Delivery<'_>> {
        self.inner.get(i)
    }
}

/// How many subscribers the result covers (the `count` given).
///
/// \param notifications The result, or NULL.
/// \return The count; 0 when `notifications` is NULL.
/// \pre `notifications` is NULL or a result from an `mcpr_notify_*`
///   function, not yet freed.
/// \note Thread-safe: a result is immutable; any thread may read it, also
///   concurrently.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notifications_count(
    notifications: *const mcpr_notifications,
) -> usize {
    guard(|| unsafe { handle_ref(notifications) }.map_or(0, |n| n.inner.len()))
}

/// The message to send to subscriber `index`: a complete JSON-RPC
/// notification (`{"jsonrpc":"2.0","method":...}`), to be written to the
/// subscriber's session or stream as it is; empty when the subscriber is to
/// get nothing.
///
/// \param notifications The result, or NULL.
/// \param index The subscriber's position in the array given.
/// \return The message, borrowed from `notifications` (valid until
///   `mcpr_notifications_free(notifications)`); empty when nothing is to be
///   sent, when `index` is out of range and when `notifications` is NULL.
/// \pre `notifications` is NULL or a result from an `mcpr_notify_*`
///   function, not yet freed.
/// \note Thread-safe (see `mcpr_notifications_count`).
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notifications_message(
    notifications: *const mcpr_notifications,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(notifications) }
            .and_then(|n| n.get(index))
            .and_then(|d| d.message().map(mcpr_str::from_str))
            .unwrap_or(mcpr_str::empty())
    })
}

/// Whether deciding for subscriber `index` succeeded: `MCPR_OK` whether a
/// message is to be sent or not (a subscriber who may not be told is never
/// distinguished further), else the failure of its decision (`MCPR_POLICY`
/// for a failing policy callback, `MCPR_INVALID_PLAN` for a failing
/// `resolve`, ...), for which nothing is sent either.
///
/// \param notifications The result, or NULL.
/// \param index The subscriber's position in the array given.
/// \return The status; `MCPR_INVALID_ARGUMENT` when `notifications` is NULL
///   or `index` out of range.
/// \pre `notifications` is NULL or a result from an `mcpr_notify_*`
///   function, not yet freed.
/// \note Thread-safe (see `mcpr_notifications_count`).
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notifications_status(
    notifications: *const mcpr_notifications,
    index: usize,
) -> mcpr_status {
    guard(
        || match unsafe { handle_ref(notifications) }.and_then(|n| n.get(index)) {
            None => mcpr_status::MCPR_INVALID_ARGUMENT,
            Some(Delivery::Failed(f)) => mcpr_status::of_kind(f.kind()),
            Some(_) => mcpr_status::MCPR_OK,
        },
    )
}

/// The private cause of subscriber `index`'s failed decision, for the
/// host's logs only: never send it.
///
/// \param notifications The result, or NULL.
/// \param index The subscriber's position in the array given.
/// \return The cause, borrowed from `notifications` (valid until
///   `mcpr_notifications_free(notifications)`); empty for a decision that
///   succeeded, out of range and for NULL.
/// \pre `notifications` is NULL or a result from an `mcpr_notify_*`
///   function, not yet freed.
/// \note Thread-safe (see `mcpr_notifications_count`).
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notifications_cause(
    notifications: *const mcpr_notifications,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(notifications) }
            .and_then(|n| n.causes.get(index))
            .map_or(mcpr_str::empty(), |c| mcpr_str::from_str(c))
    })
}

/// `mcpr_notify_listing_changed` only: subscriber `index`'s listing
/// fingerprint now, to keep for the next permission change.
///
/// \param notifications The result, or NULL.
/// \param index The subscriber's position in the array given.
/// \param out Receives the 32-byte fingerprint when there is one.
/// \return True with `out` written; false (nothing written) for the results
///   of the other calls, a failed decision, `index` out of range, a NULL
///   `notifications` or `out`.
/// \pre `notifications` is NULL or a result from an `mcpr_notify_*`
///   function, not yet freed; `out` is NULL or points at 32 writable bytes.
/// \note Thread-safe (see `mcpr_notifications_count`).
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notifications_listing(
    notifications: *const mcpr_notifications,
    index: usize,
    out: *mut u8,
) -> bool {
    guard(|| {
        let Some(f) = unsafe { handle_ref(notifications) }.and_then(|n| n.inner.listing(index))
        else {
            return false;
        };
        if out.is_null() {
            return false;
        }
        // SAFETY: `out` is non-null and points at 32 writable bytes (the
        // caller's guarantee), which cannot overlap the fingerprint copy.
        unsafe { std::ptr::copy_nonoverlapping(f.0.as_ptr(), out, 32) };
        true
    })
}

/// Frees a notification result.
///
/// \param notifications The result to free, or NULL (then nothing happens).
/// \pre `notifications` is NULL or a result from an `mcpr_notify_*`
///   function, freed only once; no thread uses it (or a string borrowed
///   from it) afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notifications_free(notifications: *mut mcpr_notifications) {
    guard(|| unsafe { free_handle(notifications) })
}
