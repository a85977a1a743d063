//! The start functions of the asynchronous calls (docs/BEHAVIOUR.md §20),
//! one per method: each copies its inputs, checks the host's own mistakes
//! at once (as the blocking call does before anything else), and starts an
//! [`AsyncCall`] whose first job runs the method's steps in a detached
//! frame. The Rust API (`Resources::*_start`) and the C ABI
//! (`ffi/async_call.rs`) both start here, with any owner of a registry.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::call::{CallOptions, Frame};
use crate::completion::{CompleteOptions, CompleteParams, CompletionResult, COMPLETE_RULES};
use crate::error::Failure;
use crate::listing::{require_scope_key, ListOptions, Page, LIST_RULES, LIST_TEMPLATES_RULES};
use crate::observe::Subject;
use crate::read::{spare_buffer, OwnedInput, Owner, ReadOptions, ResourceBundle, READ_RULES};
use crate::registry::Resources;
use crate::request::{
    call_method, checked_method, failed_response, method_rules, RequestError, RequestMethod,
    RequestOptions, RequestOutcome, Response, RevisionCell,
};
use crate::scope::RequestScope;

use super::{start, Call, OwnedSubject, Served};

/// A registry is its own owner (the Rust API starts calls of an
/// `Arc<Resources>`).
impl AsRef<Resources> for Resources {
    fn as_ref(&self) -> &Resources {
        self
    }
}

/// Why an asynchronous request did not start (its completion never runs).
#[derive(Debug)]
pub enum RequestStartError {
    /// As for [`Resources::request`]: a method this library does not
    /// serve (known from its name), or a host mistake in the options (an
    /// empty scope key for a list method).
    Request(RequestError),
    /// The call could not start: no executor in the options
    /// (`invalid_argument`), or the executor's watch thread could not
    /// start.
    Failed(Failure),
}

impl fmt::Display for RequestStartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestStartError::Request(e) => e.fmt(f),
            RequestStartError::Failed(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RequestStartError {}

impl Resources {
    /// Starts `resources/read` of `uri` as an asynchronous call on the
    /// executor of `options` (required): returns at once, and `done` runs
    /// exactly once with what [`read`](Self::read) would return, on an
    /// executor thread (a worker, or the executor's watch thread at the
    /// deadline or on cancellation), never inside this call. The deadline
    /// counts from this call; every guarantee of the blocking read on an
    /// executor holds (docs/BEHAVIOUR.md §20): `done` runs by the deadline
    /// and at once on cancellation whatever any callback does. `done` must
    /// return promptly (signal and return): it may run on the watch thread,
    /// which looks after every asynchronous call of the executor.
    ///
    /// Errors (then `done` never runs): no executor in the options
    /// (`invalid_argument`), or the executor's watch thread could not start
    /// (`read_failed`). Everything else, a saturated executor included, is
    /// the outcome `done` receives.
    pub fn read_start(
        self: &Arc<Self>,
        uri: &[u8],
        options: &ReadOptions,
        done: impl FnOnce(Result<ResourceBundle, Failure>) + Send + 'static,
    ) -> Result<(), Failure> {
        start_read(self.clone(), uri, options, done)
    }

    /// Starts one page of `resources/list` as an asynchronous call (see
    /// [`read_start`](Self::read_start)); `done` receives what
    /// [`list`](Self::list) would return. An empty scope key fails at once
    /// (`invalid_argument`), as from `list`.
    pub fn list_start(
        self: &Arc<Self>,
        options: &ListOptions,
        done: impl FnOnce(Result<Page, Failure>) + Send + 'static,
    ) -> Result<(), Failure> {
        start_list(self.clone(), false, options, done)
    }

    /// Starts one page of `resources/templates/list` as an asynchronous
    /// call (see [`list_start`](Self::list_start)).
    pub fn list_templates_start(
        self: &Arc<Self>,
        options: &ListOptions,
        done: impl FnOnce(Result<Page, Failure>) + Send + 'static,
    ) -> Result<(), Failure> {
        start_list(self.clone(), true, options, done)
    }

    /// Starts `completion/complete` as an asynchronous call (see
    /// [`read_start`](Self::read_start)); `done` receives what
    /// [`complete`](Self::complete) would return.
    pub fn complete_start(
        self: &Arc<Self>,
        params: &CompleteParams,
        options: &CompleteOptions,
        done: impl FnOnce(Result<CompletionResult, Failure>) + Send + 'static,
    ) -> Result<(), Failure> {
        start_complete(self.clone(), params, options, done)
    }

    /// Starts one request as an asynchronous call (see
    /// [`read_start`](Self::read_start)); `done` receives what
    /// [`request`](Self::request) would return: the response to send, or
    /// [`RequestError::MethodNotHandled`] for a `completion/complete` with
    /// a `ref/prompt` reference. A method name this library does not serve,
    /// and an empty scope key for a list method, fail at once.
    pub fn request_start(
        self: &Arc<Self>,
        method: &[u8],
        params: &[u8],
        options: &RequestOptions,
        done: impl FnOnce(Result<Response, RequestError>) + Send + 'static,
    ) -> Result<(), RequestStartError> {
        start_request(self.clone(), method, params, options, done)
    }
}

/// [`Resources::read_start`] for any owner of a registry.
pub(crate) fn start_read<R>(
    registry: Arc<R>,
    uri: &[u8],
    options: &ReadOptions,
    then: impl FnOnce(Result<ResourceBundle, Failure>) + Send + 'static,
) -> Result<(), Failure>
where
    R: AsRef<Resources> + Send + Sync + 'static,
{
    let limits = *(*registry).as_ref().limits();
    let uri = Inline::from_slice(uri);
    let call_options = options.call.clone();
    let input = OwnedInput {
        options: options.input.clone(),
        raw_capabilities: None,
    };
    let owner: Owner = registry.clone();
    let spare = spare_buffer();
    let observed = (*registry).as_ref().telemetry().observes();
    let subject = OwnedSubject::of(observed, Subject::Uri(&uri));
    start(
        registry,
        &options.call,
        &limits,
        Some(limits.item_timeout),
        &READ_RULES,
        (subject, false),
        Err,
        then,
        move |r: &R, call, scope| {
            let read = Box::new(|read| read);
            r.as_ref().read_detached(
                call,
                scope,
                &call_options,
                (&uri, input),
                owner,
                read,
                spare,
            )
        },
    )
}

/// [`Resources::list_start`] (`templates`: the templates list) for any
/// owner of a registry.
pub(crate) fn start_list<R>(
    registry: Arc<R>,
    templates: bool,
    options: &ListOptions,
    then: impl FnOnce(Result<Page, Failure>) + Send + 'static,
) -> Result<(), Failure>
where
    R: AsRef<Resources> + Send + Sync + 'static,
{
    let rules = if templates {
        &LIST_TEMPLATES_RULES
    } else {
        &LIST_RULES
    };
    let resources = (*registry).as_ref();
    if let Err(f) = require_scope_key(&options.scope_key) {
        // The blocking listing's event of this host mistake.
        let ended = options.call.refused(rules.method);
        resources.telemetry().unframed(ended, &f);
        return Err(f);
    }
    let limits = *resources.limits();
    let observed = resources.telemetry().observes();
    let subject = OwnedSubject::of(observed, Subject::ScopeKey(&options.scope_key));
    let list = options.clone();
    start(
        registry,
        &options.call,
        &limits,
        None,
        rules,
        (subject, false),
        Err,
        then,
        move |r: &R, call, scope| {
            let page = in_frame(call, scope, &list.call)
                .and_then(|frame| frame.leave(r.as_ref().list_in(&frame, templates, &list)));
            call.finish(page);
        },
    )
}

/// [`Resources::complete_start`] for any owner of a registry.
pub(crate) fn start_complete<R>(
    registry: Arc<R>,
    params: &CompleteParams,
    options: &CompleteOptions,
    then: impl FnOnce(Result<CompletionResult, Failure>) + Send + 'static,
) -> Result<(), Failure>
where
    R: AsRef<Resources> + Send + Sync + 'static,
{
    let limits = *(*registry).as_ref().limits();
    let (params, call_options) = (params.clone(), options.call.clone());
    let observed = (*registry).as_ref().telemetry().observes();
    let subject = OwnedSubject::of(observed, Subject::Template(&params.template));
    start(
        registry,
        &options.call,
        &limits,
        None,
        &COMPLETE_RULES,
        (subject, false),
        Err,
        then,
        move |r: &R, call, scope| {
            let result = in_frame(call, scope, &call_options)
                .and_then(|frame| frame.leave(r.as_ref().complete_in(&frame, &params)));
            call.finish(result);
        },
    )
}

/// [`Resources::request_start`] for any owner of a registry.
pub(crate) fn start_request<R>(
    registry: Arc<R>,
    method: &[u8],
    params: &[u8],
    options: &RequestOptions,
    then: impl FnOnce(RequestOutcome) + Send + 'static,
) -> Result<(), RequestStartError>
where
    R: AsRef<Resources> + Send + Sync + 'static,
{
    let resources = (*registry).as_ref();
    let method = checked_method(method, options)
        .map_err(|e| RequestStartError::Request(refused_request(resources, method, options, e)))?;
    let limits = *resources.limits();
    let (params, request) = (params.to_vec(), options.clone());
    let negotiated = options.call.protocol_revision;
    let revision: RevisionCell = Arc::new(OnceLock::new());
    let shaped = revision.clone();
    let owner: Owner = registry.clone();
    let fail = move |f| Served {
        outcome: failed_response(f, *shaped.get().unwrap_or(&negotiated)),
        seen: None,
    };
    let about = (OwnedSubject::None, method == RequestMethod::ToolsCall);
    start(
        registry,
        &options.call,
        &limits,
        (method == RequestMethod::ResourcesRead).then_some(limits.item_timeout),
        method_rules(method),
        about,
        fail,
        move |served: Served| then(served.outcome),
        move |r: &R, call, scope| {
            r.as_ref()
                .request_detached(call, scope, method, (&params, &request), owner, &revision)
        },
    )
    .map_err(RequestStartError::Failed)
}

/// A request refused at its start, `e` (a method this library does not
/// serve, a host mistake in the options): observed as the blocking request
/// observes it (a host mistake gives its call event; the resource tools
/// observe their own refusals).
pub(crate) fn refused_request(
    resources: &Resources,
    method: &[u8],
    options: &RequestOptions,
    e: RequestError,
) -> RequestError {
    match RequestMethod::parse(method) {
        Some(m) if m != RequestMethod::ToolsCall => {
            let started = std::time::Instant::now();
            resources.observe_unframed(call_method(m), started, options, &Err(e));
            e
        }
        _ => e,
    }
}

/// The detached frame of `call`'s job in `scope`, with the call's
/// `options` (shaped for their revision).
fn in_frame<'a, T: Send + 'static>(
    call: &Call<T>,
    scope: RequestScope,
    options: &'a CallOptions,
) -> Result<Frame<'a>, Failure> {
    Frame::detached(scope, options, options.protocol_revision, call.rules())
}

/// A call's copy of a short input (a URI): inline up to this size, so that
/// the call stays one allocation.
pub(crate) type Inline = smallvec::SmallVec<[u8; 128]>;
