//! `subscriptions/listen` for [`Resources::request`] (2026-07-28 on): the
//! `notifications/subscriptions/acknowledged` message to send and the
//! [`SubscriptionDecision`] the host records with the stream (the
//! decisions are [`crate::subscription`]'s). On an earlier revision the
//! method is not handled.

use crate::call::CallOptions;
use crate::error::{CauseText, Failure};
use crate::jsonrpc;
use crate::protocol::ProtocolRevision;
use crate::registry::Resources;
use crate::subscription::{
    ack, NotificationTypes, SubscriptionDecision, SubscriptionId, SubscriptionIdError,
    SubscriptionMethod,
};

use super::members::ListenParams;
use super::{from_params, params_error, request_revision, RequestError, RequestOptions, Response};

/// The host's mistakes of a listen without a usable request id.
const NO_REQUEST_ID: &str = "subscriptions/listen needs the request id";
const BAD_REQUEST_ID: &str = "the request id is not a JSON string or number";

/// The row's check: a request id the host passes is the JSON of a
/// JSON-RPC id (a string or a number), whatever the client sent. Its
/// absence is a mistake only where the method exists (2026-07-28 on, which
/// the params may name): [`serve`] finds it there, so that a host passing
/// no id keeps `MethodNotHandled` on the revisions without the method.
pub(super) fn valid_request_id(options: &RequestOptions) -> Result<(), RequestError> {
    match options.request_id.as_deref().map(SubscriptionId::parse) {
        Some(Err(SubscriptionIdError::Invalid)) => {
            Err(RequestError::InvalidArgument(BAD_REQUEST_ID))
        }
        _ => Ok(()),
    }
}

/// Serves `subscriptions/listen`: the acknowledgement and the decision.
pub(super) fn serve(
    resources: &Resources,
    text: &[u8],
    options: &RequestOptions,
) -> Result<Response, RequestError> {
    let negotiated = options.call.protocol_revision;
    let parsed = match ListenParams::parse(text) {
        Ok(p) => p,
        Err(e) => return Ok(params_error(e, negotiated)),
    };
    let protocol_revision = match request_revision(parsed.protocol_version.as_deref(), negotiated) {
        Ok(r) => r,
        Err(response) => return Ok(response),
    };
    if protocol_revision < ProtocolRevision::V2026_07_28 {
        return Err(RequestError::MethodNotHandled);
    }
    let id = match options.request_id.as_deref().map(SubscriptionId::parse) {
        Some(Ok(id)) => id,
        Some(Err(SubscriptionIdError::TooLong)) => {
            // The client's id, too long to repeat on every message.
            let f = Failure::request("Invalid request id")
                .caused_by(CauseText("the request id is longer than 256 bytes".into()));
            let json = jsonrpc::object(-32600, "Invalid request id", None);
            return Ok(Response::error(f, json, protocol_revision));
        }
        None => return Err(RequestError::InvalidArgument(NO_REQUEST_ID)),
        // The row's check refused it before the params were read.
        Some(Err(SubscriptionIdError::Invalid)) => {
            return Err(RequestError::InvalidArgument(BAD_REQUEST_ID))
        }
    };
    let requested = NotificationTypes {
        resource_updates: parsed.uris.is_some(),
        resources_list_changed: parsed.resources_list_changed,
        tools_list_changed: parsed.tools_list_changed,
        prompts_list_changed: parsed.prompts_list_changed,
    };
    let honored = honored_types(requested, resources, options);
    // The params' trace context reaches the policy callbacks (§14).
    let call = options.call_for(from_params(protocol_revision, parsed.trace));
    let uris = match parsed.uris.filter(|_| honored.resource_updates) {
        None => Vec::new(),
        Some(uris) => match honored_uris(resources, uris, &call) {
            Ok(uris) => uris,
            Err(f) => {
                let json = jsonrpc::error_object(&f, protocol_revision, None);
                return Ok(Response::error(f, json, protocol_revision));
            }
        },
    };
    let json = ack(&id, honored, honored.resource_updates.then_some(&uris[..]));
    let decision = SubscriptionDecision::new(
        SubscriptionMethod::Listen,
        uris,
        honored,
        requested,
        Some(id),
        protocol_revision,
    );
    Ok(Response::decided(json, protocol_revision, decision))
}

/// The types honored of those `requested`: the resource types the
/// registry declares, the tool and prompt types the host delivers.
fn honored_types(
    requested: NotificationTypes,
    resources: &Resources,
    options: &RequestOptions,
) -> NotificationTypes {
    let declared = resources.notification_support();
    let host = options.host_notifications;
    NotificationTypes {
        resource_updates: requested.resource_updates && declared.resource_updates,
        resources_list_changed: requested.resources_list_changed && declared.resources_list_changed,
        tools_list_changed: requested.tools_list_changed && host.tools_list_changed,
        prompts_list_changed: requested.prompts_list_changed && host.prompts_list_changed,
    }
}

/// The honored subset of a listen's URIs, in request order: every URI is
/// selected first (a request error for the first invalid one), then the
/// caller's decisions are made in one call frame.
fn honored_uris(
    resources: &Resources,
    uris: Vec<std::borrow::Cow<'_, str>>,
    call: &CallOptions,
) -> Result<Vec<String>, Failure> {
    let bytes: Vec<&[u8]> = uris.iter().map(|u| u.as_bytes()).collect();
    let decided = resources.honored_in(&bytes, call)?;
    Ok(uris
        .into_iter()
        .zip(decided)
        .filter_map(|(u, ok)| ok.then(|| u.into_owned()))
        .collect())
}
