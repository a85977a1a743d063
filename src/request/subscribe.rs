//! `resources/subscribe` and `resources/unsubscribe` for
//! [`Resources::request`]: the response to send and the
//! [`SubscriptionDecision`] the host records (the decision itself is
//! [`crate::subscription`]'s).
//!
//! | method | revisions | answer |
//! |---|---|---|
//! | `resources/subscribe` | before 2026-07-28, registry declares updates | `{}` when honored; else the read's not-found error object |
//! | `resources/unsubscribe` | the same | `{}` for every valid identifier |
//!
//! Anywhere else the method is not handled (the host answers `-32601`).
//! `subscriptions/listen` is `listen.rs`.

use crate::error::{CauseText, Failure, FailureKind};
use crate::jsonrpc;
use crate::protocol::ProtocolRevision;
use crate::registry::Resources;
use crate::subscription::{NotificationTypes, SubscriptionDecision, SubscriptionMethod};

use super::members::{take_trace, trace_of};
use super::params::{self, ParamsError, Slot};
use super::{from_params, params_error, request_revision, RequestError, RequestOptions, Response};

/// The one notification type a `resources/subscribe` is about.
const UPDATES: NotificationTypes = NotificationTypes {
    resource_updates: true,
    ..NotificationTypes::NONE
};

/// Serves `resources/subscribe` (`method` [`SubscriptionMethod::Subscribe`])
/// or `resources/unsubscribe` (see the module documentation).
pub(super) fn serve(
    resources: &Resources,
    text: &[u8],
    options: &RequestOptions,
    method: SubscriptionMethod,
) -> Result<Response, RequestError> {
    if !resources.notification_support().resource_updates {
        return Err(RequestError::MethodNotHandled);
    }
    let negotiated = options.call.protocol_revision;
    // The read's `uri` and `_meta`, strictly (no retry members).
    let mut params = match params::read(text, params::SUBSCRIBE) {
        Ok(p) => p,
        Err(e) => return Ok(params_error(e, negotiated)),
    };
    let protocol_revision = match request_revision(params.get(Slot::ProtocolVersion), negotiated) {
        Ok(r) => r,
        Err(response) => return Ok(response),
    };
    if protocol_revision >= ProtocolRevision::V2026_07_28 {
        // Replaced by subscriptions/listen: no longer a method.
        return Err(RequestError::MethodNotHandled);
    }
    let [p, s, b] = take_trace(&mut params);
    let trace = trace_of(p.as_deref(), s.as_deref(), b.as_deref());
    let Some(uri) = params.take(Slot::Uri) else {
        return Ok(params_error(
            ParamsError("params uri is required"),
            protocol_revision,
        ));
    };
    let error = |f: Failure| {
        let json = jsonrpc::error_object(&f, protocol_revision, Some(&uri));
        Ok(Response::error(f, json, protocol_revision))
    };
    let decided = |honored| {
        let decision = SubscriptionDecision::new(
            method,
            vec![uri.to_string()],
            honored,
            UPDATES,
            None,
            protocol_revision,
        );
        Ok(Response::decided(
            empty_result(options),
            protocol_revision,
            decision,
        ))
    };
    // The params' trace context reaches the policy callbacks (§14).
    let call = options.call_for(from_params(protocol_revision, trace));
    if method == SubscriptionMethod::Unsubscribe {
        // Always succeeds for a valid identifier: nothing is asked, so
        // nothing is learnt.
        return match resources.unsubscribable_in(uri.as_bytes(), &call) {
            Err(f) => error(f),
            Ok(()) => decided(NotificationTypes::NONE),
        };
    }
    match resources.honored_in(&[uri.as_bytes()], &call) {
        Err(f) => error(f),
        Ok(v) if v == [true] => decided(UPDATES),
        // The read's not-found object, byte for byte.
        Ok(_) => error(
            Failure::new(FailureKind::Unavailable)
                .caused_by(CauseText("subscription not honored".into())),
        ),
    }
}

/// The empty result of both methods: `{}`, with the host's result `_meta`
/// members when it gave any (§14; an error object never carries them).
fn empty_result(options: &RequestOptions) -> String {
    match options.call.result_meta.as_ref().filter(|m| !m.is_empty()) {
        Some(m) => format!("{{\"_meta\":{{{}}}}}", m.members()),
        None => "{}".into(),
    }
}
