//! The one-call request for an asynchronous call (docs/BEHAVIOUR.md §20):
//! the same rows as the blocking [`Resources::request`], read the same way
//! (`method.rs`: each method's params reader and its response), with the
//! method run by its asynchronous driver in place of its blocking call.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crate::asynccall::{Call, OwnedSubject, Served, ServedSeen, Summarized};
use crate::call::{CallOptions, Frame};
use crate::error::Failure;
use crate::input::InputOptions;
use crate::jsonrpc;
use crate::observe::{Observed, Subject};
use crate::protocol::ProtocolRevision;
use crate::read::{OwnedInput, Owner};
use crate::registry::Resources;
use crate::scope::RequestScope;

use super::method::{
    complete_call, complete_response, from_params, list_call, list_response, read_call,
    read_response, ReadCall,
};
use super::{call_method, RequestError, RequestMethod, RequestOptions, Response};

/// What an asynchronous request concludes with: the response to send, or
/// why there is none.
pub(crate) type RequestOutcome = Result<Response, RequestError>;

/// The revision an asynchronous request is shaped for, once its params
/// were read (until then the negotiated one).
pub(crate) type RevisionCell = Arc<OnceLock<ProtocolRevision>>;

/// The response to a failure of the request as a whole (its deadline, a
/// cancellation, a saturated executor), shaped as the blocking request
/// shapes the failure of its method's frame.
pub(crate) fn failed_response(f: Failure, protocol_revision: ProtocolRevision) -> RequestOutcome {
    let json = jsonrpc::error_object(&f, protocol_revision, None);
    Ok(Response::error(f, json, protocol_revision))
}

/// The detached frame of the request's job, with the call `options` its
/// params made; `revision` learns their revision.
fn in_frame<'a>(
    call: &Call<Served>,
    scope: &RequestScope,
    options: &'a CallOptions,
    revision: &RevisionCell,
) -> Result<Frame<'a>, Failure> {
    let _ = revision.set(options.protocol_revision);
    Frame::detached(
        scope.clone(),
        options,
        options.protocol_revision,
        call.rules(),
    )
}

impl Resources {
    /// Serves `method` with the params `text` as the first job of the
    /// asynchronous `call`, on a worker, in `scope`; `revision` learns the
    /// revision the response is shaped for. The call's outcome carries
    /// what its call event reports (the served method's revision, subject
    /// and result summary, kept only when the registry has an observer),
    /// as the blocking request's method frame reports it.
    pub(crate) fn request_detached(
        &self,
        call: &Call<Served>,
        scope: RequestScope,
        method: RequestMethod,
        (text, options): (&[u8], &RequestOptions),
        owner: Owner,
        revision: &RevisionCell,
    ) {
        let observed = self.telemetry().observes();
        // Refused before the method's frame: observed as the blocking
        // request observes it.
        let refused = |response| call.finish(Served::unframed(response, true));
        match method {
            RequestMethod::ResourcesRead => match read_call(text, options) {
                Err(response) => refused(response),
                Ok(c) => {
                    self.read_request_detached(call, scope, c, (text, options), owner, revision)
                }
            },
            RequestMethod::ResourcesList | RequestMethod::ResourcesTemplatesList => {
                match list_call(text, options) {
                    Err(response) => refused(response),
                    Ok(list) => {
                        let protocol_revision = list.call.protocol_revision;
                        call.learned(protocol_revision, Subject::ScopeKey(&list.scope_key));
                        let templates = method == RequestMethod::ResourcesTemplatesList;
                        let page = in_frame(call, &scope, &list.call, revision)
                            .and_then(|frame| frame.leave(self.list_in(&frame, templates, &list)));
                        let subject = Subject::ScopeKey(&list.scope_key);
                        let seen = seen(observed, protocol_revision, subject, &page);
                        call.finish(Served {
                            outcome: Ok(list_response(page, protocol_revision)),
                            seen: Some(seen),
                        });
                    }
                }
            }
            // The resource tools and the subscription methods observe
            // themselves (their blocking call).
            RequestMethod::ToolsCall
            | RequestMethod::ResourcesSubscribe
            | RequestMethod::ResourcesUnsubscribe
            | RequestMethod::SubscriptionsListen => call.finish(Served {
                outcome: self.request_inline(&scope, method, text, options),
                seen: None,
            }),
            RequestMethod::CompletionComplete => match complete_call(text, options) {
                // Not handled (a prompt's): no call event, as from the
                // blocking request.
                Err(e) => call.finish(Served {
                    outcome: Err(e),
                    seen: None,
                }),
                Ok(Err(response)) => refused(response),
                Ok(Ok((params, complete))) => {
                    let protocol_revision = complete.call.protocol_revision;
                    call.learned(protocol_revision, Subject::Template(&params.template));
                    let result = in_frame(call, &scope, &complete.call, revision)
                        .and_then(|frame| frame.leave(self.complete_in(&frame, &params)));
                    let subject = Subject::Template(&params.template);
                    let seen = seen(observed, protocol_revision, subject, &result);
                    call.finish(Served {
                        outcome: Ok(complete_response(result, &params, protocol_revision)),
                        seen: Some(seen),
                    });
                }
            },
        }
    }

    /// `resources/read` as the first job of `call` (see
    /// [`request_detached`](Self::request_detached)), its params read.
    fn read_request_detached(
        &self,
        call: &Call<Served>,
        scope: RequestScope,
        c: ReadCall<'_>,
        (text, options): (&[u8], &RequestOptions),
        owner: Owner,
        revision: &RevisionCell,
    ) {
        let observed = self.telemetry().observes();
        let protocol_revision = c.protocol_revision;
        let _ = revision.set(protocol_revision);
        call.learned(protocol_revision, Subject::Uri(c.uri.as_bytes()));
        let call_options = options.call_for(from_params(protocol_revision, c.trace.clone()));
        let input = OwnedInput {
            options: InputOptions {
                scope_key: options.scope_key.clone(),
                client_capabilities: options.client_capabilities,
                request_state: c.request_state.map(Cow::into_owned),
                input_responses: c.input_responses.map(Cow::into_owned),
                // Params that were read are UTF-8 JSON.
                params: std::str::from_utf8(text).ok().map(str::to_owned),
            },
            raw_capabilities: c.client_capabilities.map(Cow::into_owned),
        };
        let uri = c.uri.into_owned();
        let named = uri.clone();
        self.read_detached(
            call,
            scope.clone(),
            &call_options,
            (uri.as_bytes(), input),
            owner,
            Box::new(move |read| {
                let subject = Subject::Uri(named.as_bytes());
                let seen = seen(observed, protocol_revision, subject, &read);
                Served {
                    outcome: Ok(read_response(read, &named, protocol_revision)),
                    seen: Some(seen),
                }
            }),
            crate::read::Spare::default(),
        );
    }

    /// `tools/call` for the resource tools and the subscription methods
    /// (`resources/subscribe`, `resources/unsubscribe`,
    /// `subscriptions/listen`; docs/BEHAVIOUR.md §15), inline on the call's
    /// worker: the method's blocking row with no executor (its callbacks
    /// are this job's), under what is left of the call's deadline and its
    /// cancellation token, so the response (and a subscription's decision)
    /// is the blocking request's. A callback that hangs holds this worker
    /// as a hung listing callback does; the watch concludes the call at its
    /// deadline or on cancellation all the same (docs/BEHAVIOUR.md §20).
    fn request_inline(
        &self,
        scope: &RequestScope,
        method: RequestMethod,
        text: &[u8],
        options: &RequestOptions,
    ) -> RequestOutcome {
        let started = Instant::now();
        let mut inline = options.clone();
        inline.call.executor = None;
        inline.call.timeout = Some(scope.deadline().saturating_duration_since(started));
        let out = (method.row().serve)(self, text, &inline);
        // A refusal before the method's frame is observed as the blocking
        // request observes it (the resource tools observe their own).
        if method != RequestMethod::ToolsCall {
            self.observe_unframed(call_method(method), started, options, &out);
        }
        out
    }
}

/// What the call event of a served method's `out` reports (its subject
/// copied only when `observed`).
fn seen<X: Observed>(
    observed: bool,
    protocol_revision: ProtocolRevision,
    subject: Subject<'_>,
    out: &Result<X, Failure>,
) -> ServedSeen {
    ServedSeen {
        protocol_revision,
        subject: OwnedSubject::of(observed, subject),
        summary: Summarized::of(observed, out),
    }
}
