//! Errors: [`Failure`] (what a whole call returns when it fails) and
//! [`CallbackError`] (what host callbacks return).
//!
//! A `Failure` carries a kind, a safe message that may be shown to an MCP
//! client, an optional private cause kept for the host's logs (reachable
//! through [`std::error::Error::source`] and [`Failure::cause_text`], never
//! serialised into any result), and a suggested JSON-RPC error code.

use std::borrow::Cow;
use std::fmt;

use crate::input::ask::{InputFailure, InputRequests, InputRequired};

/// A boxed error usable as a private cause.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// The kind of a [`Failure`]. The discriminants equal the C ABI's
/// `mcpr_status` values and are never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FailureKind {
    /// The request itself is malformed: bad identifier, ambiguous selection,
    /// bad capture, bad cursor.
    InvalidRequest = 1,
    /// The resource does not exist or the caller may not see or read it
    /// (the two are deliberately indistinguishable).
    Unavailable = 2,
    /// The resolve callback failed or returned an invalid plan.
    InvalidPlan = 3,
    /// A policy callback failed operationally (not a denial).
    Policy = 4,
    /// No item survived and the first visible issue was `read_failed`.
    ReadFailed = 5,
    /// No item survived and the first visible issue was `timeout`.
    Timeout = 6,
    /// Invalid content: a malformed payload (as an issue, or as the first
    /// visible issue when no item survived), or an invalid payload/metadata
    /// given to a constructor.
    InvalidContent = 7,
    /// No item survived and the first visible issue was `budget_exceeded`.
    BudgetExceeded = 8,
    /// The caller cancelled the call.
    Canceled = 9,
    /// The whole-call deadline passed.
    DeadlineExceeded = 10,
    /// Even the minimal report or the assembled result does not fit the
    /// configured sizes.
    Size = 11,
    /// A definition, limit, key or registration is invalid.
    InvalidConfiguration = 12,
    /// A host mistake in the call's own options (never the client's), such
    /// as an empty list scope key: the same answer from every entry point,
    /// reported before the request is looked at. Over the C ABI it is
    /// `MCPR_INVALID_ARGUMENT`, with the other programming errors. Its
    /// JSON-RPC error object is `-32603` "internal error": the client did
    /// nothing wrong.
    InvalidArgument = 13,
    /// The read needs input the client cannot be asked for
    /// (docs/BEHAVIOUR.md §18): the protocol revision has no input-required
    /// result (before 2026-07-28; the JSON-RPC error is the host's choice,
    /// [`ResourcesBuilder::input_unsupported_error`](crate::ResourcesBuilder::input_unsupported_error)),
    /// or the client did not declare a capability an input request needs
    /// (`-32021` with `data.requiredCapabilities`). The requests the read
    /// would have sent are [`Failure::input_requests`], for a host that
    /// asks the client its own way. (`14` and `15` are C-only statuses.)
    InputRequired = 16,
}

impl FailureKind {
    /// Every kind, in C ABI order (`1` to `13`, then `16`).
    pub fn all() -> [FailureKind; 14] {
        [
            FailureKind::InvalidRequest,
            FailureKind::Unavailable,
            FailureKind::InvalidPlan,
            FailureKind::Policy,
            FailureKind::ReadFailed,
            FailureKind::Timeout,
            FailureKind::InvalidContent,
            FailureKind::BudgetExceeded,
            FailureKind::Canceled,
            FailureKind::DeadlineExceeded,
            FailureKind::Size,
            FailureKind::InvalidConfiguration,
            FailureKind::InvalidArgument,
            FailureKind::InputRequired,
        ]
    }

    /// The stable snake_case name of the kind (also the issue code for the
    /// five item-level kinds).
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::InvalidRequest => "invalid_request",
            FailureKind::Unavailable => "unavailable",
            FailureKind::InvalidPlan => "invalid_plan",
            FailureKind::Policy => "policy",
            FailureKind::ReadFailed => "read_failed",
            FailureKind::Timeout => "timeout",
            FailureKind::InvalidContent => "invalid_content",
            FailureKind::BudgetExceeded => "budget_exceeded",
            FailureKind::Canceled => "canceled",
            FailureKind::DeadlineExceeded => "deadline_exceeded",
            FailureKind::Size => "size",
            FailureKind::InvalidConfiguration => "invalid_configuration",
            FailureKind::InvalidArgument => "invalid_argument",
            FailureKind::InputRequired => "input_required",
        }
    }

    /// The fixed safe message used when no more specific safe message applies.
    pub fn default_message(self) -> &'static str {
        match self {
            FailureKind::InvalidRequest => "invalid resource request",
            FailureKind::Unavailable => "resource unavailable",
            FailureKind::InvalidPlan => "resource read plan invalid",
            FailureKind::Policy => "resource policy failed",
            FailureKind::ReadFailed => "resource read failed",
            FailureKind::Timeout => "resource read timed out",
            FailureKind::InvalidContent => "resource content invalid",
            FailureKind::BudgetExceeded => "resource read budget exceeded",
            FailureKind::Canceled => "resource request canceled",
            FailureKind::DeadlineExceeded => "resource request deadline exceeded",
            FailureKind::Size => "resource result too large",
            FailureKind::InvalidConfiguration => "invalid resource configuration",
            FailureKind::InvalidArgument => "internal error",
            FailureKind::InputRequired => "resource read needs input the client cannot give",
        }
    }

    /// The JSON-RPC error code on MCP 2026-07-28: `-32602` (invalid params)
    /// for invalid requests and unavailable resources (resource not found),
    /// `-32603` (internal) otherwise. For a given revision (older ones make
    /// not-found `-32002`) use [`crate::jsonrpc::kind_code`], and
    /// [`crate::jsonrpc::error_object`] for the complete error object.
    pub fn jsonrpc_code(self) -> i32 {
        match self {
            FailureKind::InvalidRequest | FailureKind::Unavailable => -32602,
            _ => -32603,
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of a whole call (construction, selection, read, listing).
///
/// `message()` is safe to show to a client: it is a fixed text for request
/// errors, and for configuration errors (which only the host sees) it names
/// the offending limit, field or position. The private cause is only for the
/// host's logs.
pub struct Failure {
    kind: FailureKind,
    message: Cow<'static, str>,
    cause: Option<BoxError>,
    /// The message of the JSON-RPC error object, when it is not the
    /// kind's usual one (for example "Invalid cursor").
    rpc_message: Option<&'static str>,
    /// What an input-required failure carries (requests, JSON-RPC error).
    input: Option<Box<InputFailure>>,
}

impl Failure {
    /// A failure of `kind` with its default safe message and no cause.
    pub fn new(kind: FailureKind) -> Self {
        Failure {
            kind,
            message: Cow::Borrowed(kind.default_message()),
            cause: None,
            rpc_message: None,
            input: None,
        }
    }

    /// A failure of `kind` with a specific safe message.
    pub fn with_message(kind: FailureKind, message: impl Into<Cow<'static, str>>) -> Self {
        Failure {
            kind,
            message: message.into(),
            cause: None,
            rpc_message: None,
            input: None,
        }
    }

    /// Attaches a private cause (for logs; never serialised).
    pub fn caused_by(mut self, cause: impl Into<BoxError>) -> Self {
        self.cause = Some(cause.into());
        self
    }

    /// Attaches what an [`FailureKind::InputRequired`] failure carries.
    pub(crate) fn with_input(mut self, detail: InputFailure) -> Self {
        self.input = Some(Box::new(detail));
        self
    }

    /// What an [`FailureKind::InputRequired`] failure carries.
    pub(crate) fn input_detail(&self) -> Option<&InputFailure> {
        self.input.as_deref()
    }

    /// For an [`FailureKind::InputRequired`] failure: the input requests
    /// the read would have sent (for a host that asks the client its own
    /// way on an older revision, then retries with the responses).
    pub fn input_requests(&self) -> Option<&InputRequests> {
        self.input.as_deref().map(|d| &d.requests)
    }

    /// Sets the message of the JSON-RPC error object (see
    /// [`crate::jsonrpc`]).
    pub(crate) fn with_rpc_message(mut self, message: &'static str) -> Self {
        self.rpc_message = Some(message);
        self
    }

    /// The message of the JSON-RPC error object, when set specifically.
    pub(crate) fn rpc_message(&self) -> Option<&'static str> {
        self.rpc_message
    }

    /// Shorthand for an `invalid_configuration` failure with a message.
    pub fn config(message: impl Into<Cow<'static, str>>) -> Self {
        Failure::with_message(FailureKind::InvalidConfiguration, message)
    }

    /// Shorthand for an `invalid_request` failure with a message.
    pub fn request(message: &'static str) -> Self {
        Failure::with_message(FailureKind::InvalidRequest, message)
    }

    /// The kind.
    pub fn kind(&self) -> FailureKind {
        self.kind
    }

    /// The safe message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The private cause, if any.
    pub fn cause(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.cause.as_deref()
    }

    /// The private cause rendered as text, with its own sources joined by
    /// `": "`; empty when there is none. For logs only.
    pub fn cause_text(&self) -> String {
        let mut out = String::new();
        let mut next: Option<&(dyn std::error::Error + 'static)> = match &self.cause {
            Some(c) => Some(c.as_ref()),
            None => None,
        };
        while let Some(e) = next {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&e.to_string());
            next = e.source();
        }
        out
    }

    /// The suggested JSON-RPC error code (see [`FailureKind::jsonrpc_code`];
    /// an input-required failure has its own: `-32021`, or the host's).
    pub fn jsonrpc_code(&self) -> i32 {
        match &self.input {
            Some(d) => d.code,
            None => self.kind.jsonrpc_code(),
        }
    }
}

impl fmt::Debug for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Failure")
            .field("kind", &self.kind)
            .field("message", &self.message)
            .field("has_cause", &self.cause.is_some())
            .finish()
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.cause {
            Some(c) => Some(c.as_ref()),
            None => None,
        }
    }
}

/// What a host callback returns when it does not succeed.
#[derive(Debug)]
pub enum CallbackError {
    /// A typed denial / not-found: the caller may not discover or read this.
    /// From `discover` or policy `read` it is a denial; from `resolve` a root
    /// denial; from a body read an `unavailable` issue.
    Unavailable,
    /// An operational failure with a private cause (kept for logs only).
    Failed(BoxError),
    /// The read needs input from the client first (docs/BEHAVIOUR.md §18):
    /// from the policy `read` permission of the first check or from a body
    /// read, the read answers MCP 2026-07-28's `InputRequiredResult`; from
    /// any other callback it counts as [`CallbackError::Unavailable`].
    InputRequired(Box<InputRequired>),
}

impl CallbackError {
    /// An operational failure with a textual private cause.
    pub fn failed(cause: impl Into<BoxError>) -> Self {
        CallbackError::Failed(cause.into())
    }

    /// Input required first (see [`CallbackError::InputRequired`]).
    pub fn input_required(input: InputRequired) -> Self {
        CallbackError::InputRequired(Box::new(input))
    }
}

impl fmt::Display for CallbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallbackError::Unavailable => f.write_str("unavailable"),
            CallbackError::Failed(e) => write!(f, "failed: {e}"),
            CallbackError::InputRequired(i) => {
                write!(f, "input required ({} requests)", i.requests().len())
            }
        }
    }
}

impl std::error::Error for CallbackError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CallbackError::Unavailable | CallbackError::InputRequired(_) => None,
            CallbackError::Failed(e) => Some(e.as_ref()),
        }
    }
}

/// A plain textual private cause.
#[derive(Debug, Clone)]
pub struct CauseText(pub String);

impl fmt::Display for CauseText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CauseText {}
