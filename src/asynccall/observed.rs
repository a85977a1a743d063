//! What an asynchronous call tells the registry's observer and metrics
//! (docs/BEHAVIOUR.md §19, §20): exactly one call event per call, the one
//! its blocking form gives, emitted when the call concludes, after its
//! scope closed and before its completion runs, on the thread that
//! concludes it (a worker or the executor's watch thread).
//!
//! The call's record (decision events, callback timings, queue wait) is
//! made by the start call only when the observer needs one, boxed, and
//! handed to the request scope its first job makes; the call's subject is
//! copied only when there is an observer, so that a registry without one
//! allocates nothing more for an asynchronous call.

use std::sync::OnceLock;
use std::time::Instant;

use crate::error::Failure;
use crate::observe::Recorder;
use crate::observe::{CallMethod, Ended, Observed, ResultSummary, Subject, Telemetry};
use crate::protocol::ProtocolRevision;
use crate::request::{RequestOutcome, Response};
use crate::scope::RequestData;

/// A call's subject, owned (a read's URI, a completion's template, a
/// listing's scope key): kept only when the registry has an observer.
#[derive(Default)]
pub(crate) enum OwnedSubject {
    /// Nothing (a request refused before its method's frame, or no
    /// observer).
    #[default]
    None,
    /// A read's URI, as the client sent it.
    Uri(Vec<u8>),
    /// A completion's template URI.
    Template(String),
    /// A listing's scope key.
    ScopeKey(Vec<u8>),
}

impl OwnedSubject {
    /// `subject`, copied when `observed` (else nothing).
    pub(crate) fn of(observed: bool, subject: Subject<'_>) -> OwnedSubject {
        if !observed {
            return OwnedSubject::None;
        }
        match subject {
            Subject::None => OwnedSubject::None,
            Subject::Uri(u) => OwnedSubject::Uri(u.to_vec()),
            Subject::Template(t) => OwnedSubject::Template(t.to_owned()),
            Subject::ScopeKey(k) => OwnedSubject::ScopeKey(k.to_vec()),
        }
    }

    fn subject(&self) -> Subject<'_> {
        match self {
            OwnedSubject::None => Subject::None,
            OwnedSubject::Uri(u) => Subject::Uri(u),
            OwnedSubject::Template(t) => Subject::Template(t),
            OwnedSubject::ScopeKey(k) => Subject::ScopeKey(k),
        }
    }
}

/// What the start call fixed for the call's event.
pub(crate) struct Observing {
    pub method: CallMethod,
    pub protocol_revision: ProtocolRevision,
    pub started: Instant,
    pub subject: OwnedSubject,
    pub request_data: Option<RequestData>,
    /// The call's body gives its own event once it started (an
    /// asynchronous `tools/call`: its resource tool runs inline on the
    /// call's worker, as the blocking tool call, which observes itself).
    pub body_observes: bool,
    /// Whether the registry has an observer.
    pub observes: bool,
    /// The revision and subject the call's job read (a request's params),
    /// for an event of a call that concludes without its method's outcome.
    pub learned: OnceLock<(ProtocolRevision, OwnedSubject)>,
}

/// What a call's outcome reports in its call event.
pub(crate) struct Seen<'a> {
    pub result: Result<&'a dyn Observed, &'a Failure>,
    /// The revision it is shaped for, when not the call's own (a
    /// request's per-request revision).
    pub protocol_revision: Option<ProtocolRevision>,
    /// Its subject, when not the start call's (a request's, read from
    /// its params).
    pub subject: Option<Subject<'a>>,
}

/// An outcome an asynchronous call concludes with.
pub(crate) trait Outcome: Send + 'static {
    /// Whether a call with this outcome gives a call event at all (`false`:
    /// a message's reply that serves no request, whatever happens to the
    /// call).
    const CALLED: bool = true;

    /// What its call event reports; `None`: no call event (a request this
    /// library does not serve, a reply to no request).
    fn seen(&self) -> Option<Seen<'_>>;
}

impl<X: Observed + Send + 'static> Outcome for Result<X, Failure> {
    fn seen(&self) -> Option<Seen<'_>> {
        Some(Seen {
            result: self.as_ref().map(|x| x as &dyn Observed),
            protocol_revision: None,
            subject: None,
        })
    }
}

/// A reply that serves no request (a message's).
impl Outcome for () {
    const CALLED: bool = false;

    fn seen(&self) -> Option<Seen<'_>> {
        None
    }
}

/// What the served method's result was, as the request's response no
/// longer says (its summary is kept only when there is an observer).
#[derive(Default)]
pub(crate) struct Summarized {
    pub summary: ResultSummary,
    pub disclosed: bool,
    pub partial: bool,
}

impl Summarized {
    /// `out`'s summary (`observed`: whether anyone looks at it).
    pub(crate) fn of<X: Observed>(observed: bool, out: &Result<X, Failure>) -> Summarized {
        match out {
            Ok(x) if observed => Summarized {
                summary: x.summary(),
                disclosed: x.discloses_subject(),
                partial: x.is_partial(),
            },
            Ok(x) => Summarized {
                partial: x.is_partial(),
                ..Summarized::default()
            },
            Err(_) => Summarized::default(),
        }
    }
}

impl Observed for Summarized {
    fn summary(&self) -> ResultSummary {
        self.summary
    }
    fn discloses_subject(&self) -> bool {
        self.disclosed
    }
    fn is_partial(&self) -> bool {
        self.partial
    }
}

/// An asynchronous request's outcome as its call sees it: what its
/// completion receives, and what its served method's frame saw.
pub(crate) struct Served {
    pub outcome: RequestOutcome,
    /// `None`: no call event from here (the resource tools observe
    /// themselves).
    pub seen: Option<ServedSeen>,
}

/// What a served request's method saw (see [`Served`]).
pub(crate) struct ServedSeen {
    pub protocol_revision: ProtocolRevision,
    pub subject: OwnedSubject,
    pub summary: Summarized,
}

impl Served {
    /// A request refused before its method's frame (or served by a method
    /// that observes itself: `seen` = `false`).
    pub(crate) fn unframed(response: Response, seen: bool) -> Served {
        let protocol_revision = response.protocol_revision();
        Served {
            outcome: Ok(response),
            seen: seen.then(|| ServedSeen {
                protocol_revision,
                subject: OwnedSubject::None,
                summary: Summarized::default(),
            }),
        }
    }
}

impl Outcome for Served {
    fn seen(&self) -> Option<Seen<'_>> {
        let (Ok(response), Some(seen)) = (&self.outcome, &self.seen) else {
            return None;
        };
        Some(Seen {
            result: match response.failure() {
                Some(f) => Err(f),
                None => Ok(&seen.summary),
            },
            protocol_revision: Some(seen.protocol_revision),
            subject: Some(seen.subject.subject()),
        })
    }
}

impl Observing {
    /// See [`Observing::learned`] (nothing kept without an observer).
    pub(crate) fn learned(&self, protocol_revision: ProtocolRevision, subject: Subject<'_>) {
        if self.observes {
            let _ = self
                .learned
                .set((protocol_revision, OwnedSubject::of(true, subject)));
        }
    }

    /// The call concluded with `outcome` (`Err`: a failure of the call as
    /// a whole: its deadline, a cancellation, a refusal, a panic), its
    /// body started or not: counted, and observed through `recorder`.
    pub(crate) fn end<T: Outcome>(
        &self,
        telemetry: &Telemetry,
        outcome: &Result<T, Failure>,
        started_body: bool,
        recorder: Option<&Recorder>,
    ) {
        if !T::CALLED || (self.body_observes && started_body) {
            return;
        }
        let seen = match outcome {
            Err(f) => {
                let learned = self.learned.get();
                Seen {
                    result: Err(f),
                    protocol_revision: learned.map(|l| l.0),
                    subject: learned.map(|l| l.1.subject()),
                }
            }
            Ok(t) => match t.seen() {
                Some(seen) => seen,
                None => return,
            },
        };
        let call = Ended {
            method: self.method,
            protocol_revision: seen.protocol_revision.unwrap_or(self.protocol_revision),
            started: self.started,
            ended: None,
            subject: seen.subject.unwrap_or(self.subject.subject()),
            request_data: self.request_data.as_deref(),
        };
        telemetry.end(call, seen.result, recorder);
    }
}
