//! Change notifications decided for many subscribers (`mcpr_notify_*`),
//! their options, and the notification-type bits.

use crate::subscription::{listen_closed_result, NotificationTypes, NotifyOptions, SubscriptionId};

use super::boundary::{guard, mcpr_str};
use super::call_options::{call_options_of, mcpr_trace_context, shared_call_fields};
use super::cancel::mcpr_cancel;
use super::error::{guard_status, mcpr_error};
use super::executor::mcpr_executor;
use super::growth::{field_end, init_out, read_grown_opt, Grows};
use super::handle::{handle_ref, need_out, write_handle};
use super::list_change::mcpr_list_change;
use super::notifications::mcpr_notifications;
use super::resources::mcpr_resources;
use super::response::mcpr_response;
use super::status::{mcpr_status, Error};
use super::subscriber::{mcpr_subscriber, subscribers_of};

/// A set of MCP change-notification types, as bits (`MCPR_NOTIFY_*`).
///
/// \ingroup subscriptions
pub type mcpr_notification_types = u32;

/// `notifications/resources/updated` for subscribed URIs (the `resources`
/// capability's `subscribe`; a listen filter's `resourceSubscriptions`).
///
/// \ingroup subscriptions
pub const MCPR_NOTIFY_RESOURCE_UPDATES: mcpr_notification_types = 1;
/// `notifications/resources/list_changed` (the capability's
/// `listChanged`; a listen filter's `resourcesListChanged`).
///
/// \ingroup subscriptions
pub const MCPR_NOTIFY_RESOURCES_LIST_CHANGED: mcpr_notification_types = 2;
/// `notifications/tools/list_changed` (the host's own: see
/// `mcpr_request_options.host_notifications`).
///
/// \ingroup subscriptions
pub const MCPR_NOTIFY_TOOLS_LIST_CHANGED: mcpr_notification_types = 4;
/// `notifications/prompts/list_changed` (the host's own).
///
/// \ingroup subscriptions
pub const MCPR_NOTIFY_PROMPTS_LIST_CHANGED: mcpr_notification_types = 8;

/// The core set of `bits` (an unknown bit is `MCPR_INVALID_ARGUMENT`).
pub(super) fn types_of(bits: mcpr_notification_types) -> Result<NotificationTypes, Error> {
    NotificationTypes::from_bits(bits)
        .ok_or_else(|| Error::argument("unknown notification type bit"))
}

/// Per-call options of the `mcpr_notify_*` functions and
/// `mcpr_list_change_notify`: the call's deadline, cancellation, executor
/// and trace context (each subscriber brings its own request data and
/// revision; a notification is no result, so there is no result `_meta`).
/// NULL options mean all defaults. The library copies what it needs before
/// the call returns.
///
/// Growth: set `struct_size` to `sizeof(mcpr_notify_options)`, or start
/// from `MCPR_NOTIFY_OPTIONS_INIT` / `mcpr_notify_options_init`; the rules
/// of every growing struct apply.
///
/// \ingroup subscriptions
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_notify_options {
    /// `sizeof(mcpr_notify_options)` as the caller compiled it.
    pub struct_size: usize,
    /// Deadline of the whole call in milliseconds (0 = only the registry's
    /// `read_timeout`): every subscriber is decided by then, or the call
    /// fails with `MCPR_DEADLINE_EXCEEDED` and nothing is sent.
    pub timeout_ms: u64,
    /// Optional cancellation token (`MCPR_CANCELED`, nothing sent).
    pub cancel: *const mcpr_cancel,
    /// Optional worker pool: every callback of the call runs there as one
    /// job and the call returns by its deadline whatever a callback does
    /// (an abandoned callback keeps running; what it was given stays valid
    /// until it returns). A saturated executor fails the call at once with
    /// `MCPR_POLICY`.
    pub executor: *const mcpr_executor,
    /// Optional trace context of the operation that sends the
    /// notifications (the change, the reload), handed to every callback of
    /// the call (`mcpr_call_traceparent`, ...); all zero = none (see
    /// `mcpr_trace_context`). It is the call's, the same for every
    /// subscriber, and appears in no message.
    pub trace: mcpr_trace_context,
}

// Request data and revision are each subscriber's; a notification carries
// no result `_meta`.
shared_call_fields!(mcpr_notify_options: timeout_ms, cancel, executor, trace);

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_notify_options {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_notify_options, timeout_ms),
        field_end!(mcpr_notify_options, cancel),
        field_end!(mcpr_notify_options, executor),
        field_end!(mcpr_notify_options, trace),
    ];
}

/// Fills notify options with the defaults, as `MCPR_NOTIFY_OPTIONS_INIT`
/// does.
///
/// \param options The options to fill, or NULL (then nothing happens).
/// \pre `options` is NULL or points at a writable `mcpr_notify_options`.
/// \note Thread-safe: touches only `*options`.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notify_options_init(options: *mut mcpr_notify_options) {
    guard(|| unsafe { init_out(options) })
}

/// The core options of `mcpr_notify_options` (NULL: all defaults).
///
/// # Safety
/// `o` is NULL or points at options of `struct_size` readable bytes whose
/// `cancel` and `executor` are NULL or live.
pub(super) unsafe fn notify_options_of(
    o: *const mcpr_notify_options,
) -> Result<NotifyOptions, Error> {
    Ok(match unsafe { read_grown_opt(o) }? {
        Some(o) => NotifyOptions {
            call: unsafe { call_options_of(&o) }?,
        },
        None => NotifyOptions::default(),
    })
}

/// Decides one resource update for many subscribers: `uri` changed, and
/// each subscriber gets the exact `notifications/resources/updated`
/// message for its revision, or nothing (`mcpr_notifications_message`).
///
/// Each subscriber is rechecked now, under its own `request_data`, with
/// the question subscribing asked (docs/BEHAVIOUR.md §15): the read's root
/// checks (selection, `discover`, `resolve`, the requested target's
/// `visibility` and policy `read`) pass for `uri`, and for the URI it
/// subscribed to when that is another one. A subscriber who can no longer
/// see it, or whose read permission was revoked, gets nothing, silently; a
/// decision that failed gets nothing and its status says why
/// (`mcpr_notifications_status`). Nothing is read. The callbacks run in
/// `MCPR_PHASE_SUBSCRIPTION` (`resolve` in `MCPR_PHASE_RESOLVE`).
///
/// \param resources A registry reference.
/// \param uri The URI that changed (the URI the messages name).
/// \param subscribers The subscribers (an array of `count`; NULL when
///   `count` is 0); read during the call only.
/// \param count How many subscribers.
/// \param options The options (deadline, cancellation, executor), or NULL
///   for all defaults.
/// \param out Receives the result on `MCPR_OK`; the caller owns it: free it
///   with `mcpr_notifications_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` with one outcome per subscriber, in order;
///   `MCPR_INVALID_REQUEST` when `uri` is not a valid identifier (or is
///   ambiguous); `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `out`,
///   bad strings, a subscriber with an unknown revision, a bad
///   `subscription_id`, none from 2026-07-28 on, or a bad `struct_size`;
///   `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`; `MCPR_POLICY` for a
///   saturated executor. On a failure nothing is to be sent.
/// \pre `resources` is NULL or a live registry reference (see `mcpr_read`).
/// \pre `uri` follows the `mcpr_str` rules; `subscribers` is NULL with
///   `count` 0 or points at `count` subscribers of the `struct_size` the
///   first states, whose strings follow the `mcpr_str` rules and whose
///   `listing` is NULL or points at 32 readable bytes; `options` is NULL or
///   points at options of `struct_size` readable bytes whose `cancel` and
///   `executor` are NULL or not yet freed; `out` is NULL or points at
///   writable storage for one `mcpr_notifications *`; `err` is NULL or
///   points at writable storage for one `mcpr_error *`.
/// \note Thread-safe: many threads may call it on one registry at once.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notify_updated(
    resources: *const mcpr_resources,
    uri: mcpr_str,
    subscribers: *const mcpr_subscriber,
    count: usize,
    options: *const mcpr_notify_options,
    out: *mut *mut mcpr_notifications,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        let uri = unsafe { uri.bytes() }?;
        let subscribers = unsafe { subscribers_of(subscribers, count) }?;
        let options = unsafe { notify_options_of(options) }?;
        let n = r.inner.notify_updated(uri, &subscribers, &options)?;
        unsafe { write_handle(out, mcpr_notifications::new(n)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Decides one list change (`mcpr_list_change_new`) for many subscribers:
/// each gets the exact `notifications/resources/list_changed` message for
/// its revision when it can discover at least one definition that differs
/// (a removed or changed one under the old registry's policy, an added or
/// changed one under the new registry's, with its own `request_data`), and
/// nothing otherwise. Only the differing definitions are asked about: the
/// cost grows with the change, not with the catalogue. A subscriber whose
/// `discover` failed for some and allowed none gets nothing, with its
/// failure status. The callbacks run in `MCPR_PHASE_SUBSCRIPTION`.
///
/// \param change The list change.
/// \param subscribers The subscribers (an array of `count`; NULL when
///   `count` is 0); read during the call only.
/// \param count How many subscribers.
/// \param options The options, or NULL for all defaults (`read_timeout` is
///   the new registry's).
/// \param out Receives the result on `MCPR_OK`; free it with
///   `mcpr_notifications_free`.
/// \param err Receives an error object on failure; may be NULL.
/// \return `MCPR_OK` with one outcome per subscriber; `MCPR_INVALID_ARGUMENT`
///   for a NULL `change` or `out` or a bad subscriber (as for
///   `mcpr_notify_updated`); `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`,
///   `MCPR_POLICY` (a saturated executor).
/// \pre `change` is NULL or a list change from `mcpr_list_change_new`, not
///   yet freed; `subscribers`, `options`, `out` and `err` as for
///   `mcpr_notify_updated`.
/// \note Thread-safe: many threads may use one list change at once.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notify_list_changed(
    change: *const mcpr_list_change,
    subscribers: *const mcpr_subscriber,
    count: usize,
    options: *const mcpr_notify_options,
    out: *mut *mut mcpr_notifications,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let change =
            unsafe { handle_ref(change) }.ok_or_else(|| Error::argument("list change is NULL"))?;
        need_out(out)?;
        let subscribers = unsafe { subscribers_of(subscribers, count) }?;
        let options = unsafe { notify_options_of(options) }?;
        let n = change.inner.notify(&subscribers, &options)?;
        unsafe { write_handle(out, mcpr_notifications::new(n)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Decides a list change after a permission change, for many subscribers:
/// each subscriber's listing fingerprint is taken again (a full recheck:
/// `discover` for every definition, as `mcpr_listing_fingerprint`) and
/// compared with its `listing`, taken before the change; a subscriber
/// whose fingerprint differs gets the exact
/// `notifications/resources/list_changed` message for its revision, the
/// others nothing. `mcpr_notifications_listing` gives each new fingerprint,
/// for the next change.
///
/// \param resources A registry reference.
/// \param subscribers The subscribers, each with its `listing` (an array
///   of `count`; NULL when `count` is 0); read during the call only.
/// \param count How many subscribers.
/// \param options The options, or NULL for all defaults.
/// \param out Receives the result on `MCPR_OK`; free it with
///   `mcpr_notifications_free`.
/// \param err Receives an error object on failure; may be NULL.
/// \return As for `mcpr_notify_updated`; a subscriber without `listing` is
///   `MCPR_INVALID_ARGUMENT`.
/// \pre As for `mcpr_notify_updated` (without `uri`).
/// \note Thread-safe: many threads may call it on one registry at once.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notify_listing_changed(
    resources: *const mcpr_resources,
    subscribers: *const mcpr_subscriber,
    count: usize,
    options: *const mcpr_notify_options,
    out: *mut *mut mcpr_notifications,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        let subscribers = unsafe { subscribers_of(subscribers, count) }?;
        let options = unsafe { notify_options_of(options) }?;
        let n = r.inner.notify_listing_changed(&subscribers, &options)?;
        unsafe { write_handle(out, mcpr_notifications::new(n)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// The result that ends a `subscriptions/listen` stream gracefully: send
/// its `mcpr_response_json` as the JSON-RPC `result` of the listen request
/// (with the request's id) when the server tears the stream down, before
/// closing it: `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":<id>}}`.
///
/// \param subscription_id The stream's subscription id as JSON text
///   (`mcpr_subscription_id`).
/// \param out Receives the response on `MCPR_OK`; free it with
///   `mcpr_response_free`.
/// \param err Receives an error object on failure; may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out` or an id that
///   is not the JSON of a request id (at most 256 bytes).
/// \pre `subscription_id` follows the `mcpr_str` rules; `out` is NULL or
///   points at writable storage for one `mcpr_response *`; `err` is NULL or
///   points at writable storage for one `mcpr_error *`.
/// \note Thread-safe: touches nothing shared.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_notify_listen_closed(
    subscription_id: mcpr_str,
    out: *mut *mut mcpr_response,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        need_out(out)?;
        let id = unsafe { subscription_id.bytes() }?;
        let id = SubscriptionId::parse(id)
            .map_err(|_| Error::argument("subscription_id is not the JSON of a request id"))?;
        let response = mcpr_response::result(listen_closed_result(&id));
        unsafe { write_handle(out, response) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}
