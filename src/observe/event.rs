//! The events an observer receives (docs/BEHAVIOUR.md §19): one
//! [`CallEvent`] per call and, when the observer asks, [`DecisionEvent`]s.
//!
//! Events borrow what they describe: building one allocates nothing, and
//! it is valid only during the observer's callback. What a client-facing
//! operator may see is the event's public part; what it must not see is
//! marked private: the `private_*` accessors, and every decision event
//! whose [`DecisionEvent::is_private`] is true. A URI appears in plain only
//! under the report's disclosure rule (§6: the final visibility decision
//! set *disclose issue URI* and the URI is at most 256 bytes); other URIs
//! the caller may know of appear only as a keyed hash ([`EventHash`]), and
//! hidden ones not at all.

use std::time::Duration;

use crate::cache::ResultCache;
use crate::error::{BoxError, Failure, FailureKind};
use crate::jsonrpc;
use crate::protocol::ProtocolRevision;
use crate::report::IssueCode;

use super::hash::{EventHash, EventHasher};

/// Longest URI an event names in plain (the report's bound).
pub(crate) const MAX_DISCLOSED_URI_BYTES: usize = 256;

/// The methods whose calls are observed and counted.
///
/// cbindgen:ignore
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallMethod {
    /// `resources/read`.
    ResourcesRead,
    /// `resources/list`.
    ResourcesList,
    /// `resources/templates/list`.
    ResourcesTemplatesList,
    /// `completion/complete`.
    CompletionComplete,
    /// `tools/call` of a resource tool (`read_resource`, `list_resources`)
    /// served by the request function or a message.
    ToolsCall,
    /// An embedding of resources in a host's tool result
    /// (`Resources::embed`; `"embed"`, no MCP method of its own).
    Embed,
    /// A subscription decision on one registry (`"subscriptions"`, one
    /// name for them all): `resources/subscribe`, `subscriptions/listen`,
    /// an update's or a listing change's notifications, a listing
    /// fingerprint (docs/BEHAVIOUR.md §15). Its events name no URI and
    /// summarize nothing. A list change between two registries belongs to
    /// neither and is not observed.
    Subscriptions,
}

impl CallMethod {
    /// How many methods there are.
    ///
    /// cbindgen:ignore
    pub const COUNT: usize = 7;
    /// Every method, in index order.
    ///
    /// cbindgen:ignore
    pub const ALL: [CallMethod; CallMethod::COUNT] = [
        CallMethod::ResourcesRead,
        CallMethod::ResourcesList,
        CallMethod::ResourcesTemplatesList,
        CallMethod::CompletionComplete,
        CallMethod::ToolsCall,
        CallMethod::Embed,
        CallMethod::Subscriptions,
    ];

    /// The method's position in [`ALL`](Self::ALL).
    pub const fn index(self) -> usize {
        match self {
            CallMethod::ResourcesRead => 0,
            CallMethod::ResourcesList => 1,
            CallMethod::ResourcesTemplatesList => 2,
            CallMethod::CompletionComplete => 3,
            CallMethod::ToolsCall => 4,
            CallMethod::Embed => 5,
            CallMethod::Subscriptions => 6,
        }
    }

    /// The MCP method name (`"embed"` for an embedding).
    pub fn as_str(self) -> &'static str {
        match self {
            CallMethod::ResourcesRead => "resources/read",
            CallMethod::ResourcesList => "resources/list",
            CallMethod::ResourcesTemplatesList => "resources/templates/list",
            CallMethod::CompletionComplete => "completion/complete",
            CallMethod::ToolsCall => "tools/call",
            CallMethod::Embed => "embed",
            CallMethod::Subscriptions => "subscriptions",
        }
    }

    /// The method of a name [`as_str`](Self::as_str) gives.
    pub fn parse(name: &[u8]) -> Option<CallMethod> {
        CallMethod::ALL
            .into_iter()
            .find(|m| m.as_str().as_bytes() == name)
    }
}

/// The issues of a read's report, by code (the detailed ones), and how
/// many more it counts without detail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IssueCounts {
    /// `unavailable` issues.
    pub unavailable: u32,
    /// `read_failed` issues.
    pub read_failed: u32,
    /// `timeout` issues.
    pub timeout: u32,
    /// `invalid_content` issues.
    pub invalid_content: u32,
    /// `budget_exceeded` issues.
    pub budget_exceeded: u32,
    /// The report's `issuesOmitted`.
    pub omitted: u64,
}

impl IssueCounts {
    /// Counts one detailed issue.
    pub(crate) fn add(&mut self, code: IssueCode) {
        let n = match code {
            IssueCode::Unavailable => &mut self.unavailable,
            IssueCode::ReadFailed => &mut self.read_failed,
            IssueCode::Timeout => &mut self.timeout,
            IssueCode::InvalidContent => &mut self.invalid_content,
            IssueCode::BudgetExceeded => &mut self.budget_exceeded,
        };
        *n += 1;
    }

    /// The detailed issues counted.
    pub fn detailed(&self) -> u64 {
        u64::from(self.unavailable)
            + u64::from(self.read_failed)
            + u64::from(self.timeout)
            + u64::from(self.invalid_content)
            + u64::from(self.budget_exceeded)
    }
}

/// What a successful call returned, as the client sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultSummary {
    /// Items in the result: a read's content items (its warning item
    /// included), a page's descriptions, a completion's values.
    pub items: u64,
    /// The result JSON's length in bytes.
    pub bytes: u64,
    /// Whether a read's bundle is partial.
    pub partial: bool,
    /// A read's report issues.
    pub issues: IssueCounts,
    /// The result's cache hints (reads and pages; `None` for completions).
    pub cache: Option<ResultCache>,
}

/// A result a call frame can describe in its call event.
pub(crate) trait Observed {
    /// What the client sees of it.
    fn summary(&self) -> ResultSummary;
    /// Whether the call's subject URI may be named in plain (the
    /// disclosure rule; see [`CallEvent::uri`]).
    fn discloses_subject(&self) -> bool;
    /// Whether it is a partial bundle (counted in the metrics).
    fn is_partial(&self) -> bool;
}

/// The kinds of host callbacks, for per-kind timings.
///
/// cbindgen:ignore
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallbackKind {
    /// The policy's `discover`.
    Discover,
    /// The policy's `visibility`.
    Visibility,
    /// The policy's `read` permission.
    Permission,
    /// A binding's `resolve`.
    Resolve,
    /// A binding's body `read`.
    BodyRead,
    /// A template's completer.
    Complete,
}

impl CallbackKind {
    /// How many kinds there are.
    ///
    /// cbindgen:ignore
    pub const COUNT: usize = 6;
    /// Every kind, in index order.
    ///
    /// cbindgen:ignore
    pub const ALL: [CallbackKind; CallbackKind::COUNT] = [
        CallbackKind::Discover,
        CallbackKind::Visibility,
        CallbackKind::Permission,
        CallbackKind::Resolve,
        CallbackKind::BodyRead,
        CallbackKind::Complete,
    ];

    /// The kind's position in [`ALL`](Self::ALL).
    pub const fn index(self) -> usize {
        match self {
            CallbackKind::Discover => 0,
            CallbackKind::Visibility => 1,
            CallbackKind::Permission => 2,
            CallbackKind::Resolve => 3,
            CallbackKind::BodyRead => 4,
            CallbackKind::Complete => 5,
        }
    }

    /// A short snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            CallbackKind::Discover => "discover",
            CallbackKind::Visibility => "visibility",
            CallbackKind::Permission => "permission",
            CallbackKind::Resolve => "resolve",
            CallbackKind::BodyRead => "body_read",
            CallbackKind::Complete => "complete",
        }
    }
}

/// How many host callbacks of each kind a call made, and how long they
/// took (measured only when the observer asks for callback timings).
/// Private: the counts reveal work done for what the caller may not see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallbackStats {
    pub(crate) calls: [u64; CallbackKind::COUNT],
    pub(crate) ns: [u64; CallbackKind::COUNT],
}

impl CallbackStats {
    /// Callbacks of `kind` called.
    pub fn calls(&self, kind: CallbackKind) -> u64 {
        self.calls[kind.index()]
    }

    /// Their total time.
    pub fn time(&self, kind: CallbackKind) -> Duration {
        Duration::from_nanos(self.ns[kind.index()])
    }
}

/// What a call was about, for its event: the URI it names, a template, or
/// a listing's scope key (only ever hashed).
#[derive(Clone, Copy)]
pub(crate) enum Subject<'a> {
    /// Nothing (a call refused before its request was read).
    None,
    /// A read's URI, as the client sent it.
    Uri(&'a [u8]),
    /// A completion's template URI, as the client sent it.
    Template(&'a str),
    /// A listing's scope key.
    ScopeKey(&'a [u8]),
}

/// The event of one call: every call of a method in [`CallMethod`] gets
/// exactly one, when it returns, on the calling thread.
pub struct CallEvent<'a> {
    /// A number identifying the call within the process (its decision
    /// events carry it too).
    pub call_id: u64,
    /// The call's method.
    pub method: CallMethod,
    /// The protocol revision the result or error is shaped for.
    pub protocol_revision: ProtocolRevision,
    /// From the call's start to its return.
    pub duration: Duration,
    /// With an executor: from the submission of the call's first job to
    /// its start on a worker.
    pub queue_wait: Option<Duration>,
    /// The caller's request data (so the host can attach its own
    /// identity of the caller).
    pub request_data: Option<&'a (dyn std::any::Any + Send + Sync)>,
    pub(crate) result: Result<ResultSummary, &'a Failure>,
    pub(crate) callbacks: Option<CallbackStats>,
    pub(crate) subject: Subject<'a>,
    pub(crate) disclosed: bool,
    pub(crate) hasher: &'a EventHasher,
}

impl CallEvent<'_> {
    /// What the call returned, when it succeeded.
    pub fn summary(&self) -> Option<&ResultSummary> {
        self.result.as_ref().ok()
    }

    /// The failure's kind, when it failed.
    pub fn failure_kind(&self) -> Option<FailureKind> {
        self.result.as_ref().err().map(|f| f.kind())
    }

    /// The failure's safe message, when it failed (what the client is
    /// told).
    pub fn failure_message(&self) -> Option<&str> {
        self.result.as_ref().err().map(|f| f.message())
    }

    /// The JSON-RPC error code the client is sent, when it failed.
    pub fn jsonrpc_code(&self) -> Option<i32> {
        self.failure_kind()
            .map(|k| jsonrpc::kind_code(k, self.protocol_revision))
    }

    /// The URI the call was about, in plain, only where the disclosure
    /// rule allows: a read's URI when its requested target's final
    /// visibility decision set *disclose issue URI*; a completion's
    /// template once discovery allowed it. Never longer than 256 bytes.
    pub fn uri(&self) -> Option<&str> {
        if !self.disclosed {
            return None;
        }
        let uri = match self.subject {
            Subject::Uri(u) => std::str::from_utf8(u).ok()?,
            Subject::Template(t) => t,
            _ => return None,
        };
        if uri.len() > MAX_DISCLOSED_URI_BYTES {
            return None;
        }
        Some(uri)
    }

    /// The keyed hash of the URI the client sent (a read's URI, a
    /// completion's template), disclosed or not: the client's own input,
    /// the same for a hidden and an unregistered URI.
    pub fn uri_hash(&self) -> Option<EventHash> {
        match self.subject {
            Subject::Uri(u) => Some(self.hasher.hash(u)),
            Subject::Template(t) => Some(self.hasher.hash(t.as_bytes())),
            _ => None,
        }
    }

    /// The keyed hash of a listing's scope key (never the key).
    pub fn scope_key_hash(&self) -> Option<EventHash> {
        match self.subject {
            Subject::ScopeKey(k) => Some(self.hasher.hash(k)),
            _ => None,
        }
    }

    /// Private: the callbacks the call made, by kind, when the observer
    /// asked for callback timings.
    pub fn private_callbacks(&self) -> Option<&CallbackStats> {
        self.callbacks.as_ref()
    }

    /// Private: the failure's private cause (host text, identifiers), for
    /// the host's own logs only.
    pub fn private_cause(&self) -> Option<String> {
        self.result.as_ref().err().map(|f| f.cause_text())
    }
}

/// What a decision decided (C `MCPR_DECISION_*`, same values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecisionRule {
    /// A listing showed a definition (a call that succeeded has no root
    /// decision: its call event says so).
    Allowed = 1,
    /// A planned item was read and is in the bundle.
    Admitted = 2,
    /// Outside the caller's visible selection: an undiscoverable
    /// definition, a hidden requested target or item (at the first check
    /// or, now hidden, at the recheck). Always private, never with a URI
    /// or a hash.
    Hidden = 3,
    /// Read permission denied at the first check (an item's
    /// `unavailable` issue; for the root, not found), or `resolve`
    /// answered unavailable.
    Denied = 4,
    /// Still visible at the recheck but no longer permitted (an item's
    /// `unavailable` issue; for the root, not found).
    Revoked = 5,
    /// Hidden at the first check, visible at the recheck: never read,
    /// an `unavailable` issue.
    NewlyVisible = 6,
    /// The item's body read failed: its issue says how (`unavailable`,
    /// `read_failed`, `invalid_content`).
    ItemFailed = 7,
    /// The item did not fit a budget or was not attempted
    /// (`budget_exceeded`).
    BudgetExceeded = 8,
    /// The item's read passed its item deadline (`timeout`).
    Timeout = 9,
    /// The root: nothing registered matches the URI.
    NotFound = 10,
    /// The root: an invalid request (identifier, ambiguous selection,
    /// capture, cursor, argument) or a host mistake in the options.
    Invalid = 11,
    /// The root: a callback failed operationally, the plan was invalid,
    /// or the result could not fit (the call's failure says which).
    Failed = 12,
    /// The root: the caller cancelled.
    Canceled = 13,
    /// The root: the whole-call deadline passed.
    DeadlineExceeded = 14,
}

impl DecisionRule {
    /// The rule's snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionRule::Allowed => "allowed",
            DecisionRule::Admitted => "admitted",
            DecisionRule::Hidden => "hidden",
            DecisionRule::Denied => "denied",
            DecisionRule::Revoked => "revoked",
            DecisionRule::NewlyVisible => "newly_visible",
            DecisionRule::ItemFailed => "item_failed",
            DecisionRule::BudgetExceeded => "budget_exceeded",
            DecisionRule::Timeout => "timeout",
            DecisionRule::NotFound => "not_found",
            DecisionRule::Invalid => "invalid",
            DecisionRule::Failed => "failed",
            DecisionRule::Canceled => "canceled",
            DecisionRule::DeadlineExceeded => "deadline_exceeded",
        }
    }

    /// The root decision a failure of `kind` reads as, when no callback
    /// decided it.
    pub(crate) fn of_failure(kind: FailureKind) -> DecisionRule {
        match kind {
            FailureKind::Unavailable => DecisionRule::NotFound,
            FailureKind::InvalidRequest | FailureKind::InvalidArgument => DecisionRule::Invalid,
            FailureKind::Canceled => DecisionRule::Canceled,
            FailureKind::DeadlineExceeded => DecisionRule::DeadlineExceeded,
            _ => DecisionRule::Failed,
        }
    }
}

/// When in its call a decision was made (the phase its callbacks were
/// asked in; C `MCPR_PHASE_*`, same values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecisionPhase {
    /// A read's first authorization, before any body read.
    FirstCheck,
    /// A read's final authorization, after the body reads.
    Recheck,
    /// A binding's `resolve`.
    Resolve,
    /// A body read and its admission.
    BodyRead,
    /// A listing's `discover` calls.
    Listing,
    /// A completion's `discover` and completer.
    Completion,
}

impl DecisionPhase {
    /// The phase's snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionPhase::FirstCheck => "first_check",
            DecisionPhase::Recheck => "recheck",
            DecisionPhase::Resolve => "resolve",
            DecisionPhase::BodyRead => "body_read",
            DecisionPhase::Listing => "listing",
            DecisionPhase::Completion => "completion",
        }
    }
}

/// What a decision is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionSubject {
    /// The call's root: what the client asked for (a read's URI, a
    /// completion's template, a listing).
    Root,
    /// A planned item of a read (its index in the plan is private: it
    /// counts hidden items).
    Item,
    /// A definition a listing visited.
    Definition,
}

/// One decision of a call, when the observer asks for them: every
/// planned item's final decision, every definition a listing visited,
/// and for a call that failed one root decision saying which rule ended
/// it. A call's decision events come before its call event, on the thread
/// running the step (a worker with an executor), the root decision last.
pub struct DecisionEvent<'a> {
    /// The call's number (its call event has the same).
    pub call_id: u64,
    /// The call's method.
    pub method: CallMethod,
    /// The protocol revision of the call.
    pub protocol_revision: ProtocolRevision,
    /// What was decided.
    pub rule: DecisionRule,
    /// When (the step of the call, as callbacks see it; `None` when no
    /// callback decided, as for a URI nothing matches).
    pub phase: Option<DecisionPhase>,
    /// The issue the decision gave an item, if any.
    pub issue: Option<IssueCode>,
    /// The caller's request data.
    pub request_data: Option<&'a (dyn std::any::Any + Send + Sync)>,
    /// What the decision is about.
    pub subject: DecisionSubject,
    pub(crate) item: Option<usize>,
    pub(crate) private: bool,
    pub(crate) uri: Option<&'a str>,
    pub(crate) hashed: Option<&'a [u8]>,
    pub(crate) cause: Option<&'a BoxError>,
    pub(crate) failure: Option<&'a Failure>,
    pub(crate) hasher: &'a EventHasher,
}

impl DecisionEvent<'_> {
    /// Whether the whole event is private: it concerns what the caller
    /// may not learn (anything hidden, and every root decision of a call
    /// that answered not found). A log a client-facing operator reads
    /// must leave private events out.
    pub fn is_private(&self) -> bool {
        self.private
    }

    /// The URI decided about, in plain, only under the disclosure rule.
    pub fn uri(&self) -> Option<&str> {
        self.uri
    }

    /// The keyed hash of the URI decided about; never for anything hidden.
    pub fn uri_hash(&self) -> Option<EventHash> {
        self.hashed.map(|b| self.hasher.hash(b))
    }

    /// Private: the item's index in the plan.
    pub fn private_item_index(&self) -> Option<usize> {
        self.item
    }

    /// Private: the decision's private cause, if any.
    pub fn private_cause(&self) -> Option<String> {
        match (self.cause, self.failure) {
            (Some(c), _) => Some(cause_chain(c.as_ref())),
            (None, Some(f)) => Some(f.cause_text()),
            _ => None,
        }
    }
}

/// An error and its sources, joined by `": "` (as [`Failure::cause_text`]).
fn cause_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(e) = next {
        out.push_str(": ");
        out.push_str(&e.to_string());
        next = e.source();
    }
    out
}
