//! `resources/subscribe`, `resources/unsubscribe` and
//! `subscriptions/listen` for [`Resources::request`]: the response to send
//! and the [`SubscriptionDecision`] the host records (the decisions
//! themselves are [`crate::subscription`]'s).
//!
//! | method | revisions | answer |
//! |---|---|---|
//! | `resources/subscribe` | before 2026-07-28, registry declares updates | `{}` when honored; else the read's not-found error object |
//! | `resources/unsubscribe` | the same | `{}` for every valid identifier |
//! | `subscriptions/listen` | 2026-07-28 on | the `notifications/subscriptions/acknowledged` message |
//!
//! Anywhere else the method is not handled (the host answers `-32601`).

use crate::error::{CauseText, Failure, FailureKind};
use crate::identity::validate_uri;
use crate::jsonrpc;
use crate::protocol::ProtocolRevision;
use crate::read::ReadOptions;
use crate::registry::Resources;
use crate::subscription::{
    ack, select, Call, NotificationTypes, SubscriptionDecision, SubscriptionId,
    SubscriptionIdError, SubscriptionMethod,
};

use super::listen;
use super::{
    params_error, request_revision, ParamsError, RequestError, RequestMethod, RequestOptions,
    RequestParams, Response,
};

/// Serves one of the three methods (see the module documentation).
pub(crate) fn serve(
    resources: &Resources,
    method: RequestMethod,
    params: &[u8],
    options: &RequestOptions,
) -> Result<Response, RequestError> {
    match method {
        RequestMethod::SubscriptionsListen => listen(resources, params, options),
        _ => subscribe(resources, method, params, options),
    }
}

fn read_options(options: &RequestOptions, revision: ProtocolRevision) -> ReadOptions {
    ReadOptions {
        timeout: options.timeout,
        cancel: options.cancel.clone(),
        request_data: options.request_data.clone(),
        executor: options.executor.clone(),
        revision,
    }
}

/// `resources/subscribe` and `resources/unsubscribe`.
fn subscribe(
    resources: &Resources,
    method: RequestMethod,
    params: &[u8],
    options: &RequestOptions,
) -> Result<Response, RequestError> {
    if !resources.notification_support().resource_updates {
        return Err(RequestError::MethodNotHandled);
    }
    // The read's own params parser: `uri` a string, strictly.
    let params = match RequestParams::parse(RequestMethod::ResourcesRead, params) {
        Ok(p) => p,
        Err(e) => return Ok(params_error(e, options.revision)),
    };
    let revision = match request_revision(params.protocol_version.as_deref(), options.revision) {
        Ok(r) => r,
        Err(response) => return Ok(response),
    };
    if revision >= ProtocolRevision::V2026_07_28 {
        // Replaced by subscriptions/listen: no longer a method.
        return Err(RequestError::MethodNotHandled);
    }
    let Some(uri) = params.uri else {
        return Ok(params_error(
            ParamsError::new("params uri is required"),
            revision,
        ));
    };
    let error = |f: Failure| {
        let json = jsonrpc::error_object(&f, revision, Some(&uri));
        Ok(Response::error(f, json, revision))
    };
    let decision = |method| {
        let honored = if method == SubscriptionMethod::Subscribe {
            updates()
        } else {
            NotificationTypes::NONE
        };
        Some(Box::new(SubscriptionDecision::new(
            method,
            vec![uri.to_string()],
            honored,
            updates(),
            None,
            revision,
        )))
    };
    if method == RequestMethod::ResourcesUnsubscribe {
        // Always succeeds for a valid identifier: nothing is asked, so
        // nothing is learnt.
        if let Err(e) = validate_uri(uri.as_bytes(), resources.limits().max_uri_bytes) {
            return error(e.into_request_failure());
        }
        return Ok(Response::result(
            "{}".into(),
            revision,
            decision(SubscriptionMethod::Unsubscribe),
        ));
    }
    match resources.honored(&[uri.as_bytes()], &read_options(options, revision)) {
        Err(f) => error(f),
        Ok(v) if v == [true] => Ok(Response::result(
            "{}".into(),
            revision,
            decision(SubscriptionMethod::Subscribe),
        )),
        // The read's not-found object, byte for byte.
        Ok(_) => error(
            Failure::new(FailureKind::Unavailable)
                .caused_by(CauseText("subscription not honored".into())),
        ),
    }
}

fn updates() -> NotificationTypes {
    NotificationTypes {
        resource_updates: true,
        ..NotificationTypes::NONE
    }
}

/// `subscriptions/listen`: the acknowledgement and the decision.
fn listen(
    resources: &Resources,
    params: &[u8],
    options: &RequestOptions,
) -> Result<Response, RequestError> {
    let parsed = match listen::parse(params) {
        Ok(p) => p,
        Err(m) => return Ok(params_error(ParamsError::new(m), options.revision)),
    };
    let revision = match request_revision(parsed.protocol_version.as_deref(), options.revision) {
        Ok(r) => r,
        Err(response) => return Ok(response),
    };
    if revision < ProtocolRevision::V2026_07_28 {
        return Err(RequestError::MethodNotHandled);
    }
    let id = match options.request_id.as_deref().map(SubscriptionId::parse) {
        None => {
            return Err(RequestError::InvalidArgument(
                "subscriptions/listen needs the request id",
            ))
        }
        Some(Err(SubscriptionIdError::Invalid)) => {
            return Err(RequestError::InvalidArgument(
                "the request id is not a JSON string or number",
            ))
        }
        Some(Err(SubscriptionIdError::TooLong)) => {
            let f = Failure::request("Invalid request id")
                .caused_by(CauseText("the request id is longer than 256 bytes".into()));
            let json = jsonrpc::object(-32600, "Invalid request id", None);
            return Ok(Response::error(f, json, revision));
        }
        Some(Ok(id)) => id,
    };
    let declared = resources.notification_support();
    let host = options.host_notifications;
    let requested = NotificationTypes {
        resource_updates: parsed.uris.is_some(),
        resources_list_changed: parsed.resources_list_changed,
        tools_list_changed: parsed.tools_list_changed,
        prompts_list_changed: parsed.prompts_list_changed,
    };
    let honored = NotificationTypes {
        resource_updates: requested.resource_updates && declared.resource_updates,
        resources_list_changed: requested.resources_list_changed && declared.resources_list_changed,
        tools_list_changed: requested.tools_list_changed && host.tools_list_changed,
        prompts_list_changed: requested.prompts_list_changed && host.prompts_list_changed,
    };
    let uris = match parsed.uris.filter(|_| honored.resource_updates) {
        None => Vec::new(),
        Some(uris) => match honored_uris(resources, uris, &read_options(options, revision)) {
            Ok(uris) => uris,
            Err(f) => {
                let json = jsonrpc::error_object(&f, revision, None);
                return Ok(Response::error(f, json, revision));
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
        revision,
    );
    Ok(Response::result(json, revision, Some(Box::new(decision))))
}

/// The honored subset of a listen's URIs, in request order: every URI is
/// selected first (a request error for the first invalid one), then the
/// caller's decisions are made in one call.
fn honored_uris(
    resources: &Resources,
    uris: Vec<String>,
    options: &ReadOptions,
) -> Result<Vec<String>, Failure> {
    let call = Call::start(
        resources.limits(),
        options.timeout,
        options.cancel.clone(),
        options.request_data.clone(),
        options.executor.as_ref(),
    )?;
    let candidates = uris
        .iter()
        .map(|u| select(resources, u.as_bytes()))
        .collect::<Result<Vec<_>, Failure>>()?;
    let decided = resources.decide_candidates(&call, candidates, options.executor.as_ref())?;
    Ok(uris
        .into_iter()
        .zip(decided)
        .filter_map(|(u, ok)| ok.then_some(u))
        .collect())
}
