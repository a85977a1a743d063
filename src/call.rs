//! The call frame: what every call of the library shares, whatever its
//! method (docs/BEHAVIOUR.md §8).
//!
//! - [`CallOptions`]: the caller's deadline, cancellation token, request
//!   data, executor, protocol revision, result `_meta` members and trace
//!   context, embedded once in the options of every method
//!   ([`ReadOptions`](crate::ReadOptions),
//!   [`ListOptions`](crate::ListOptions),
//!   [`CompleteOptions`](crate::CompleteOptions),
//!   [`RequestOptions`](crate::RequestOptions)).
//! - `CallOptions::frame`: runs one call in its frame, in this order:
//!   the request scope starts (deadline = min(now + `read_timeout`, the
//!   caller's deadline); it carries the trace context to every callback)
//!   and is checked at once (a call already cancelled or past its
//!   deadline fails before its request is looked at); a
//!   saturated executor refuses the call before its request is looked at
//!   (so a refusal never depends on the request); the method's body runs;
//!   the scope is checked once more (a result made after the deadline is
//!   not returned); the scope is closed on every return path, so that a
//!   callback that kept a call context learns that its call is over.
//! - `Frame::run_job`: runs the method's callbacks as one job on the
//!   frame's executor, waiting until the deadline or cancellation; a panic
//!   of the library inside the job becomes the method's failure (a panic
//!   cannot cross threads), a refusal the method's saturation failure.
//!
//! A method brings only its own rules: a `FrameRules` (how a saturated
//! executor and a panic in its job read), the checks of its own options
//! made before the frame starts (host mistakes such as an empty scope key,
//! which are [`FailureKind::InvalidArgument`] everywhere), and its body.
//! Adding an MCP method is: an options struct embedding [`CallOptions`],
//! a `FrameRules` constant, a body run by `CallOptions::frame`, a row in
//! the request method table (`request/method.rs`) naming its params
//! members, and, for the C ABI, a flat option struct whose shared fields
//! `ffi/call_options.rs` converts. An observer of calls (telemetry) hooks
//! in `CallOptions::frame`: it sees the method's rules, the start and the
//! outcome of every call: the frame counts every call in the registry's
//! metrics and hands its outcome to the registry's observer
//! (`crate::observe`, docs/BEHAVIOUR.md §19), so a method gets its call
//! event by running in the frame, naming its method in its `FrameRules`
//! and its subject (the URI, template or scope key the call is about).

use std::ptr::NonNull;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Failure, FailureKind};
use crate::executor::Executor;
use crate::limits::Limits;
use crate::observe::{CallMethod, Ended, Observed, Subject, Telemetry};
use crate::protocol::ProtocolRevision;
use crate::registry::Resources;
use crate::result_meta::ResultMeta;
use crate::scope::{CancelToken, CloseOnDrop, Record, RequestData, RequestScope};
use crate::trace::TraceContext;

/// The options every call takes, whatever its method: embedded as `call`
/// in the options of each method.
#[derive(Clone, Default)]
pub struct CallOptions {
    /// The caller's deadline, relative to the call's start (`None` = only
    /// the registry's `read_timeout`).
    pub timeout: Option<Duration>,
    /// The caller's cancellation token.
    pub cancel: Option<CancelToken>,
    /// Opaque data handed to every callback of the call.
    pub request_data: Option<RequestData>,
    /// Worker pool running the call's callbacks (`None` = every callback
    /// inline on the calling thread, and deadlines only take effect when
    /// callbacks honour [`CallContext::is_canceled`](crate::CallContext::is_canceled)).
    /// With an executor the call returns by its deadline whatever any
    /// callback does.
    pub executor: Option<Executor>,
    /// The MCP protocol revision the result (or error object) is shaped
    /// for (default: the newest). For [`Resources::request`](crate::Resources::request)
    /// the negotiated one: a per-request revision in the params wins.
    pub protocol_revision: ProtocolRevision,
    /// The host's result `_meta` members (such as
    /// `io.modelcontextprotocol/serverInfo`), merged into the `_meta` of
    /// the call's result after the library's own members, which they never
    /// replace, and charged to the result's budget (docs/BEHAVIOUR.md
    /// §14; error objects are not results).
    pub result_meta: Option<ResultMeta>,
    /// The trace context of the request (`traceparent`, `tracestate`,
    /// `baggage`), handed to every callback of the call through
    /// [`CallContext::trace_context`](crate::CallContext::trace_context).
    /// For [`Resources::request`](crate::Resources::request) the host's
    /// default: trace members in the request's `params._meta` take its
    /// place.
    pub trace: Option<Arc<TraceContext>>,
}

/// What a request's params set for its call in place of the options' own
/// (the one-call request function reads them; no copy of the options).
#[derive(Clone, Default)]
pub(crate) struct FromParams {
    /// The per-request protocol revision (`None` = the options' own).
    pub protocol_revision: Option<ProtocolRevision>,
    /// The request's trace context (`None` = the options' own).
    pub trace: Option<Arc<TraceContext>>,
}

/// What a method tells its frame: how the frame's own failures read for
/// this method.
pub(crate) struct FrameRules {
    /// The method, as its call events and metrics name it.
    pub method: CallMethod,
    /// The kind of the failure when a saturated executor refuses the call
    /// (private cause "executor saturated").
    pub refused: FailureKind,
    /// The failure when the library panics inside the call's job on an
    /// executor.
    pub panicked: fn() -> Failure,
}

/// One call in its frame, handed to the method's body.
pub(crate) struct Frame<'a> {
    scope: RequestScope,
    options: &'a CallOptions,
    /// The executor a blocking call waits on (`None` inline, and for the
    /// job of an asynchronous call, which is already on a worker).
    executor: Option<&'a Executor>,
    protocol_revision: ProtocolRevision,
    rules: &'static FrameRules,
}

impl CallOptions {
    /// Runs `body` in the frame of one call of `registry` about `subject`
    /// (see the module documentation for the steps and their order).
    #[inline]
    pub(crate) fn frame<T: Observed>(
        &self,
        registry: &Resources,
        rules: &'static FrameRules,
        subject: Subject<'_>,
        body: impl FnOnce(&Frame<'_>) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        self.frame_at(FromParams::default(), registry, rules, subject, body)
    }

    /// [`frame`](Self::frame) with what the request's params set (a
    /// per-request revision, the request's trace context) in place of the
    /// options' own; no copy of the options.
    ///
    /// The steps are written out in one function, so that the body's
    /// result is moved as few times as in a frame without telemetry (a
    /// bundle is a few hundred bytes).
    #[inline]
    pub(crate) fn frame_at<T: Observed>(
        &self,
        from_params: FromParams,
        registry: &Resources,
        rules: &'static FrameRules,
        subject: Subject<'_>,
        body: impl FnOnce(&Frame<'_>) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        self.frame_with(
            from_params,
            registry.limits(),
            registry.telemetry(),
            rules,
            subject,
            body,
        )
    }

    /// [`frame_at`](Self::frame_at) under `limits`, observed through
    /// `telemetry` (a registry's; a list change, which belongs to no one
    /// registry, passes [`unobserved`](crate::observe::unobserved)).
    #[inline(always)]
    pub(crate) fn frame_with<T: Observed>(
        &self,
        from_params: FromParams,
        limits: &Limits,
        telemetry: &Telemetry,
        rules: &'static FrameRules,
        subject: Subject<'_>,
        body: impl FnOnce(&Frame<'_>) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let started = Instant::now();
        let protocol_revision = from_params
            .protocol_revision
            .unwrap_or(self.protocol_revision);
        let on_executor = self.executor.is_some();
        let mut recorder = telemetry.begin(rules.method, protocol_revision, started, on_executor);
        // An inline call's record stays here, lent to the scope (it
        // outlives every use: see `RequestScope::recorded`); a call on an
        // executor boxes it for its jobs.
        let record = match &mut recorder {
            None => Record::None,
            Some(_) if on_executor => Record::Boxed(Box::new(recorder.take().expect("some"))),
            Some(r) => Record::Lent(NonNull::from(&*r)),
        };
        // Made with its record (no second write of the scope's shared
        // part, no move of the scope).
        let scope = self
            .scope_at(started, limits, record)
            .with_trace(from_params.trace.or_else(|| self.trace.clone()));
        let mut call = Ended {
            method: rules.method,
            protocol_revision,
            started,
            ended: None,
            subject,
            request_data: self.request_data.as_deref(),
        };
        // Closed on every return path (BEHAVIOUR §8: the direct API
        // creates and closes its scope), before the call is observed.
        let closer = scope.close_on_drop();
        let end = |closer: CloseOnDrop,
                   scope: &RequestScope,
                   call: Ended<'_>,
                   out: Result<&T, &Failure>| {
            drop(closer);
            telemetry.end(call, out, scope.recorder());
        };
        // At the instant it started: no clock read.
        let opened = scope.check_at(started).and_then(|()| self.admit(rules));
        if let Err(f) = opened {
            end(closer, &scope, call, Err(&f));
            return Err(f);
        }
        let frame = Frame {
            scope,
            options: self,
            executor: self.executor.as_ref(),
            protocol_revision,
            rules,
        };
        // The body's result stays where it was made (a bundle is a few
        // hundred bytes): replaced by the deadline's failure, never moved
        // out and back.
        let mut out = body(&frame);
        if out.is_ok() {
            let now = Instant::now();
            call.ended = Some(now);
            if let Err(f) = frame.scope.check_at(now) {
                out = Err(f);
            }
        }
        end(closer, &frame.scope, call, out.as_ref());
        out
    }

    /// The call's request scope, started at `started` and recording the
    /// call in `record`: deadline =
    /// min(`started` + `read_timeout`, the caller's deadline), without the
    /// trace context (the frame's first step; an asynchronous call's job
    /// makes it from its start call's instant, so that its deadline counts
    /// from there).
    #[inline]
    pub(crate) fn scope_at(
        &self,
        started: Instant,
        limits: &Limits,
        record: Record,
    ) -> RequestScope {
        RequestScope::start_recorded(
            started,
            limits.read_timeout,
            self.timeout,
            self.cancel.clone(),
            self.request_data.clone(),
            record,
        )
    }

    /// Executor admission: a saturated executor refuses the call (with the
    /// method's saturation failure) before its request is looked at.
    #[inline]
    pub(crate) fn admit(&self, rules: &FrameRules) -> Result<(), Failure> {
        match &self.executor {
            Some(executor) => executor
                .admission()
                .map_err(|why| why.failure(rules.refused)),
            None => Ok(()),
        }
    }
}

/// The frame's last step, for every driver: a result made after the
/// deadline (or once the caller cancelled) is not returned.
#[inline]
pub(crate) fn leave<T>(scope: &RequestScope, out: Result<T, Failure>) -> Result<T, Failure> {
    let out = out?;
    scope.check()?;
    Ok(out)
}

impl CallOptions {
    /// How a call of `method` with these options, refused before its
    /// frame (a host mistake, a request refused whole), ends: now, about
    /// nothing, for its call event and metrics.
    pub(crate) fn refused(&self, method: CallMethod) -> Ended<'_> {
        Ended {
            method,
            protocol_revision: self.protocol_revision,
            started: Instant::now(),
            ended: None,
            subject: Subject::None,
            request_data: self.request_data.as_deref(),
        }
    }
}

impl Frame<'_> {
    /// The call's request scope (deadline, cancellation, request data).
    pub(crate) fn scope(&self) -> &RequestScope {
        &self.scope
    }

    /// The frame of an asynchronous call's job, on a worker: its scope
    /// was started (and the executor's admission given) by the start
    /// call; checked here, as the blocking frame checks it before the
    /// request is looked at. `options` are the call's (their result
    /// `_meta` and trace context apply); its executor is `None`: the job
    /// is already on a worker, and the executor's watch looks after the
    /// deadline and cancellation.
    pub(crate) fn detached<'a>(
        scope: RequestScope,
        options: &'a CallOptions,
        protocol_revision: ProtocolRevision,
        rules: &'static FrameRules,
    ) -> Result<Frame<'a>, Failure> {
        scope.check()?;
        Ok(Frame {
            scope: scope.with_trace(options.trace.clone()),
            options,
            executor: None,
            protocol_revision,
            rules,
        })
    }

    /// The frame's last step: `out`, unless the deadline passed or the
    /// caller cancelled meanwhile.
    pub(crate) fn leave<T>(&self, out: Result<T, Failure>) -> Result<T, Failure> {
        leave(&self.scope, out)
    }

    /// The executor a blocking call runs its callbacks on, if any.
    pub(crate) fn executor(&self) -> Option<&Executor> {
        self.executor
    }

    /// The protocol revision the call's result is shaped for.
    pub(crate) fn protocol_revision(&self) -> ProtocolRevision {
        self.protocol_revision
    }

    /// This frame with `scope` instead of its own: the same call (the
    /// scope made from the frame's carries more for the callbacks, such as
    /// the verified input responses of a retried read).
    pub(crate) fn with_scope(&self, scope: RequestScope) -> Frame<'_> {
        Frame {
            scope,
            options: self.options,
            executor: self.executor,
            protocol_revision: self.protocol_revision,
            rules: self.rules,
        }
    }

    /// The host's result `_meta` members to merge into the call's result
    /// (`None` when there is none, or no member to merge).
    pub(crate) fn result_meta(&self) -> Option<&ResultMeta> {
        self.options.result_meta.as_ref().filter(|m| !m.is_empty())
    }

    /// The method's rules (for a method that runs its own jobs, as the
    /// read pipeline does).
    pub(crate) fn rules(&self) -> &'static FrameRules {
        self.rules
    }

    /// Runs `job` (the method's callbacks) as one job on `executor` and
    /// waits for it until the call's deadline or cancellation: then
    /// `deadline_exceeded` or `canceled`, the job abandoned (dropped if
    /// it had not started). A refusal is the method's saturation failure,
    /// a panic inside the job the method's panic failure. The job owns what
    /// it uses: an abandoned callback keeps it alive until it returns, and
    /// a job that completes drops it before the caller sees the result.
    pub(crate) fn run_job<T: Send + 'static>(
        &self,
        executor: &Executor,
        job: impl FnOnce() -> Result<T, Failure> + Send + 'static,
    ) -> Result<T, Failure> {
        // The queue wait of an observed call: from here to the job's start.
        let observed = self.scope.recorder().map(|r| {
            r.submitted();
            self.scope.clone()
        });
        let job = move || {
            if let Some(r) = observed.as_ref().and_then(RequestScope::recorder) {
                r.job_started();
            }
            drop(observed);
            job()
        };
        executor
            .call(job, self.scope.deadline(), self.scope.cancel_token())
            .into_result(self.rules.refused, self.rules.panicked)
    }
}
