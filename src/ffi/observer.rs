//! Observers (`mcpr_observer_callbacks`, `mcpr_event`, `mcpr_event_*`):
//! the C face of `crate::observe` (docs/BEHAVIOUR.md §19). The event a
//! callback is shown is a struct the library fills on its stack (nothing
//! is allocated to emit one); what it does not hold in fields (the keyed
//! hashes, the private cause, the JSON line) is computed when asked, by
//! the `mcpr_event_*` functions, and lives until the callback returns.

use std::os::raw::c_void;
use std::sync::OnceLock;

use super::boundary::{guard, mcpr_str};
use super::call::{
    mcpr_phase, MCPR_PHASE_BODY_READ, MCPR_PHASE_COMPLETION, MCPR_PHASE_FIRST_CHECK,
    MCPR_PHASE_LISTING, MCPR_PHASE_RECHECK, MCPR_PHASE_RESOLVE, MCPR_PHASE_UNKNOWN,
};
use super::growth::{field_end, init_out, Grows};
use super::host::{mcpr_release_fn, HostPtr, Release, Required};
use super::status::mcpr_status;
use crate::cache::CacheScope;
use crate::observe::{
    CallEvent, CallbackKind, DecisionEvent, DecisionPhase, DecisionSubject, EventHash, Interests,
    Observer,
};

/// A call event: one per call, when the call returns (`mcpr_event.kind`).
///
/// \ingroup callbacks
pub const MCPR_EVENT_CALL: u32 = 1;
/// A decision event (`mcpr_event.kind`), when the observer asks for them.
///
/// \ingroup callbacks
pub const MCPR_EVENT_DECISION: u32 = 2;

/// `mcpr_observer_callbacks.flags`: also send decision events.
///
/// \ingroup callbacks
pub const MCPR_OBSERVE_DECISIONS: u32 = 1;
/// `mcpr_observer_callbacks.flags`: count and time each kind of callback
/// (the `private_*_calls` and `private_*_ns` fields of call events; two
/// clock reads per callback).
///
/// \ingroup callbacks
pub const MCPR_OBSERVE_CALLBACK_TIMINGS: u32 = 2;

/// Decision rules (`mcpr_event.rule`): a listing showed a definition. (A
/// call that succeeded has no root decision: its call event says so.)
///
/// \ingroup callbacks
pub const MCPR_DECISION_ALLOWED: u32 = 1;
/// A planned item was read and is in the bundle.
///
/// \ingroup callbacks
pub const MCPR_DECISION_ADMITTED: u32 = 2;
/// Outside the caller's visible selection (always private, never with a
/// URI or a hash).
///
/// \ingroup callbacks
pub const MCPR_DECISION_HIDDEN: u32 = 3;
/// Read permission denied at the first check, or `resolve` answered
/// unavailable.
///
/// \ingroup callbacks
pub const MCPR_DECISION_DENIED: u32 = 4;
/// Still visible at the recheck, no longer permitted.
///
/// \ingroup callbacks
pub const MCPR_DECISION_REVOKED: u32 = 5;
/// Hidden at the first check, visible at the recheck (never read).
///
/// \ingroup callbacks
pub const MCPR_DECISION_NEWLY_VISIBLE: u32 = 6;
/// The item's body read failed (`issue` says how).
///
/// \ingroup callbacks
pub const MCPR_DECISION_ITEM_FAILED: u32 = 7;
/// The item did not fit a budget or was not attempted.
///
/// \ingroup callbacks
pub const MCPR_DECISION_BUDGET_EXCEEDED: u32 = 8;
/// The item's read passed its item deadline.
///
/// \ingroup callbacks
pub const MCPR_DECISION_TIMEOUT: u32 = 9;
/// The root: nothing registered matches the URI.
///
/// \ingroup callbacks
pub const MCPR_DECISION_NOT_FOUND: u32 = 10;
/// The root: an invalid request or a host mistake in the options.
///
/// \ingroup callbacks
pub const MCPR_DECISION_INVALID: u32 = 11;
/// The root: a callback failed, the plan was invalid, or the result could
/// not fit.
///
/// \ingroup callbacks
pub const MCPR_DECISION_FAILED: u32 = 12;
/// The root: the caller cancelled.
///
/// \ingroup callbacks
pub const MCPR_DECISION_CANCELED: u32 = 13;
/// The root: the whole-call deadline passed.
///
/// \ingroup callbacks
pub const MCPR_DECISION_DEADLINE_EXCEEDED: u32 = 14;

// The C values are the core's.
const _: () = {
    use crate::observe::DecisionRule as R;
    assert!(R::Allowed as u32 == MCPR_DECISION_ALLOWED);
    assert!(R::Admitted as u32 == MCPR_DECISION_ADMITTED);
    assert!(R::Hidden as u32 == MCPR_DECISION_HIDDEN);
    assert!(R::Denied as u32 == MCPR_DECISION_DENIED);
    assert!(R::Revoked as u32 == MCPR_DECISION_REVOKED);
    assert!(R::NewlyVisible as u32 == MCPR_DECISION_NEWLY_VISIBLE);
    assert!(R::ItemFailed as u32 == MCPR_DECISION_ITEM_FAILED);
    assert!(R::BudgetExceeded as u32 == MCPR_DECISION_BUDGET_EXCEEDED);
    assert!(R::Timeout as u32 == MCPR_DECISION_TIMEOUT);
    assert!(R::NotFound as u32 == MCPR_DECISION_NOT_FOUND);
    assert!(R::Invalid as u32 == MCPR_DECISION_INVALID);
    assert!(R::Failed as u32 == MCPR_DECISION_FAILED);
    assert!(R::Canceled as u32 == MCPR_DECISION_CANCELED);
    assert!(R::DeadlineExceeded as u32 == MCPR_DECISION_DEADLINE_EXCEEDED);
};

/// Decision subjects (`mcpr_event.subject`): the call's root (what the
/// client asked for).
///
/// \ingroup callbacks
pub const MCPR_SUBJECT_ROOT: u32 = 1;
/// A planned item of a read.
///
/// \ingroup callbacks
pub const MCPR_SUBJECT_ITEM: u32 = 2;
/// A definition a listing visited.
///
/// \ingroup callbacks
pub const MCPR_SUBJECT_DEFINITION: u32 = 3;

/// The length of an event hash (`mcpr_event_uri_hash`,
/// `mcpr_resources_event_hash`): 16 bytes.
///
/// \ingroup callbacks
pub const MCPR_EVENT_HASH_BYTES: usize = 16;

/// One event of an observed registry (see `mcpr_observer_callbacks`),
/// filled by the library and lent to `on_event` until it returns.
///
/// Fields that do not apply to the event's kind are zero (empty strings).
/// What a log read by client-facing operators may show is the public part:
/// every field without the `private_` prefix, of events whose `is_private`
/// is false. URIs appear in `uri` only under the report's disclosure rule
/// (docs/BEHAVIOUR.md §19); hashes of the others come from
/// `mcpr_event_uri_hash`.
///
/// Growth: `struct_size` is `sizeof(mcpr_event)` as this library knows it;
/// later versions append fields. A program built against a newer header
/// reads a field only when `struct_size` covers it.
///
/// \ingroup callbacks
#[repr(C)]
pub struct mcpr_event {
    /// `sizeof(mcpr_event)` as the library filling it knows it.
    pub struct_size: usize,
    /// `MCPR_EVENT_CALL` or `MCPR_EVENT_DECISION`.
    pub kind: u32,
    /// The MCP method (`"resources/read"`, `"resources/list"`,
    /// `"resources/templates/list"`, `"completion/complete"`,
    /// `"tools/call"` for the resource tools), `"embed"` for
    /// `mcpr_embed` (no MCP method of its own), or `"subscriptions"` for
    /// every subscription decision (`resources/subscribe`,
    /// `resources/unsubscribe`, `subscriptions/listen`, the `mcpr_notify_*`
    /// calls of one registry, listing fingerprints).
    pub method: mcpr_str,
    /// The protocol revision of the call (`"2026-07-28"`, ...).
    pub protocol_revision: mcpr_str,
    /// A number identifying the call in the process; its decision events
    /// carry the same.
    pub call_id: u64,
    /// The call's `request_data` (NULL when none), for the host's own
    /// identity of the caller.
    pub request_data: *mut c_void,
    /// Call events: `MCPR_OK`, or the call's failure.
    pub status: mcpr_status,
    /// Call events: the JSON-RPC error code the client is sent (0 on
    /// success).
    pub jsonrpc_code: i32,
    /// Call events: the failure's safe message, what the client is told
    /// (empty on success).
    pub status_message: mcpr_str,
    /// Call events: from the call's start to its return, in nanoseconds.
    pub duration_ns: u64,
    /// Call events with an executor: from the submission of the call's
    /// first job to its start on a worker (see `has_queue_wait`).
    pub queue_wait_ns: u64,
    /// Whether `queue_wait_ns` was measured (an executor ran the call).
    pub has_queue_wait: bool,
    /// Successful call events: the result's items (a read's content items,
    /// its warning included; a page's descriptions; a completion's values).
    pub items: u64,
    /// Successful call events: the result JSON's length in bytes.
    pub bytes: u64,
    /// Successful read events: whether the bundle is partial.
    pub partial: bool,
    /// Read events: detailed `unavailable` issues of the report.
    pub issues_unavailable: u32,
    /// Read events: detailed `read_failed` issues.
    pub issues_read_failed: u32,
    /// Read events: detailed `timeout` issues.
    pub issues_timeout: u32,
    /// Read events: detailed `invalid_content` issues.
    pub issues_invalid_content: u32,
    /// Read events: detailed `budget_exceeded` issues.
    pub issues_budget_exceeded: u32,
    /// Read events: the report's `issuesOmitted`.
    pub issues_omitted: u64,
    /// Successful read and list events: whether `cache_ttl_ms` and
    /// `cache_public` hold the result's cache hints.
    pub has_cache: bool,
    /// The result's `ttlMs`.
    pub cache_ttl_ms: u64,
    /// Whether the result's `cacheScope` is `"public"`.
    pub cache_public: bool,
    /// The URI the event is about, in plain, only where the disclosure
    /// rule allows (else empty; see `mcpr_event_uri_hash`).
    pub uri: mcpr_str,
    /// Decision events: what was decided (`MCPR_DECISION_*`).
    pub rule: u32,
    /// Decision events: the rule's name (`"admitted"`, `"hidden"`, ...).
    pub rule_name: mcpr_str,
    /// Decision events: what it is about (`MCPR_SUBJECT_*`).
    pub subject: u32,
    /// Decision events: when (`MCPR_PHASE_*`; `MCPR_PHASE_UNKNOWN` when no
    /// callback decided).
    pub phase: mcpr_phase,
    /// Decision events: the issue given to an item (`MCPR_UNAVAILABLE`,
    /// `MCPR_READ_FAILED`, `MCPR_TIMEOUT`, `MCPR_INVALID_CONTENT`,
    /// `MCPR_BUDGET_EXCEEDED`), or `MCPR_OK` for none.
    pub issue: mcpr_status,
    /// Decision events: the whole event is private (it concerns what the
    /// caller may not learn); a log client-facing operators read must
    /// leave it out.
    pub is_private: bool,
    /// Private. Item decisions: the item's index in the plan (it counts
    /// hidden items); `UINT64_MAX` otherwise.
    pub private_item_index: u64,
    /// Private. Call events: whether the callback counts and times below
    /// were measured (`MCPR_OBSERVE_CALLBACK_TIMINGS`).
    pub private_timed: bool,
    /// Private: `discover` callbacks called.
    pub private_discover_calls: u64,
    /// Private: their total time, in nanoseconds.
    pub private_discover_ns: u64,
    /// Private: `visibility` callbacks called.
    pub private_visibility_calls: u64,
    /// Private: their total time, in nanoseconds.
    pub private_visibility_ns: u64,
    /// Private: policy `read` permission callbacks called.
    pub private_permission_calls: u64,
    /// Private: their total time, in nanoseconds.
    pub private_permission_ns: u64,
    /// Private: `resolve` callbacks called.
    pub private_resolve_calls: u64,
    /// Private: their total time, in nanoseconds.
    pub private_resolve_ns: u64,
    /// Private: body `read` callbacks called.
    pub private_body_read_calls: u64,
    /// Private: their total time, in nanoseconds.
    pub private_body_read_ns: u64,
    /// Private: `complete` callbacks called.
    pub private_complete_calls: u64,
    /// Private: their total time, in nanoseconds.
    pub private_complete_ns: u64,
}

/// An observer's `on_event` callback (`mcpr_observer_callbacks.on_event`).
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param event The event, lent until the callback returns (with every
///   string it points at and what `mcpr_event_*` return for it).
/// \note Runs on the calling thread or, with an executor, on a worker,
///   concurrently from many calls: it must not block. An exception must not
///   escape it (the C++ wrapper catches them); nothing it does changes a
///   result.
///
/// \ingroup callbacks
pub type mcpr_event_fn =
    Option<unsafe extern "C-unwind" fn(user_data: *mut c_void, event: *const mcpr_event)>;

/// The observer table given to `mcpr_builder_set_observer` (copied by the
/// call).
///
/// `on_event` is required; `release` is optional. `on_event` receives one
/// `MCPR_EVENT_CALL` event per call of the registry (every `mcpr_read`,
/// `mcpr_list`, `mcpr_list_templates`, `mcpr_complete`, and every
/// `mcpr_request` the library serves, refused ones included), and with
/// `MCPR_OBSERVE_DECISIONS` the decision events of each call before its
/// call event. It runs on the calling thread, or on an executor worker for
/// the decisions made there, concurrently from many calls with the same
/// `user_data`; it must not block; nothing it does changes a result.
///
/// `release(user_data)` runs exactly once, on any thread, if and only if
/// `mcpr_builder_set_observer` succeeded, after the last event was handed
/// over: when the table is replaced, when the builder is freed without
/// building, when a build fails, or when the last reference to the
/// registry goes away (and any job of it abandoned on an executor has
/// returned).
///
/// Growth: set `struct_size` to `sizeof(mcpr_observer_callbacks)`, or start
/// from `MCPR_OBSERVER_CALLBACKS_INIT` / `mcpr_observer_callbacks_init`, as
/// for `mcpr_binding_callbacks`.
///
/// \ingroup callbacks
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_observer_callbacks {
    /// `sizeof(mcpr_observer_callbacks)` as the caller compiled it.
    pub struct_size: usize,
    /// Passed as the first argument of every callback.
    pub user_data: *mut c_void,
    /// Required: receives each event (see `mcpr_event_fn`).
    pub on_event: mcpr_event_fn,
    /// Optional (NULL = none): the finalizer of `user_data` (see above).
    pub release: mcpr_release_fn,
    /// What else to send: `MCPR_OBSERVE_DECISIONS`,
    /// `MCPR_OBSERVE_CALLBACK_TIMINGS`, or both (0 = call events only).
    /// Other bits are `MCPR_INVALID_ARGUMENT`.
    pub flags: u32,
}

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_observer_callbacks {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_observer_callbacks, user_data),
        field_end!(mcpr_observer_callbacks, on_event),
        field_end!(mcpr_observer_callbacks, release),
        field_end!(mcpr_observer_callbacks, flags),
    ];
}

/// Fills an observer table with the defaults: `user_data` and every
/// callback NULL, no flags, and `struct_size` set to
/// `sizeof(mcpr_observer_callbacks)`, as `MCPR_OBSERVER_CALLBACKS_INIT`
/// does.
///
/// \param callbacks The table to fill, or NULL (then nothing happens).
/// \pre `callbacks` is NULL or points at a writable
///   `mcpr_observer_callbacks`.
/// \note Thread-safe: touches only `*callbacks`.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_observer_callbacks_init(callbacks: *mut mcpr_observer_callbacks) {
    guard(|| unsafe { init_out(callbacks) })
}

/// The C observer table as an [`Observer`].
pub(super) struct CObserver {
    ud: HostPtr,
    on_event: Required<mcpr_event_fn>,
    interests: Interests,
    _release: Release,
}

/// Why a table cannot be an observer.
pub(super) enum Refused {
    /// `on_event` is NULL.
    NoCallback,
    /// Unknown flag bits.
    Flags,
}

impl CObserver {
    /// The observer of `table` (its `release` then runs when it drops).
    pub(super) fn new(table: &mcpr_observer_callbacks) -> Result<CObserver, Refused> {
        let known = MCPR_OBSERVE_DECISIONS | MCPR_OBSERVE_CALLBACK_TIMINGS;
        if table.flags & !known != 0 {
            return Err(Refused::Flags);
        }
        let on_event = table.on_event.ok_or(Refused::NoCallback)?;
        Ok(CObserver {
            ud: HostPtr(table.user_data),
            on_event,
            interests: Interests {
                decisions: table.flags & MCPR_OBSERVE_DECISIONS != 0,
                callback_timings: table.flags & MCPR_OBSERVE_CALLBACK_TIMINGS != 0,
            },
            _release: Release {
                ud: HostPtr(table.user_data),
                release: table.release,
            },
        })
    }

    #[inline(always)]
    fn send(&self, view: &EventView<'_>) {
        // SAFETY: the host supplied `on_event` for this `user_data`; the
        // event is a live local, lent until the call returns.
        unsafe { (self.on_event)(self.ud.0, &view.c) }
    }
}

impl Observer for CObserver {
    fn interests(&self) -> Interests {
        self.interests
    }

    fn call(&self, e: &CallEvent<'_>) {
        // Materialised before it is mapped: the optimiser's branchless
        // mapping of the `Option` otherwise reads its unused half, which
        // memcheck reports (as undefined) where a C observer tests the
        // pointer.
        let uri = std::hint::black_box(e.uri());
        let mut view = EventView::new(
            event_base(
                MCPR_EVENT_CALL,
                e.method.as_str(),
                e.protocol_revision.as_str(),
                e.call_id,
                request_data_of(e.request_data),
                str_of(uri),
            ),
            Inner::Call(e),
        );
        fill_call(&mut view.c, e);
        self.send(&view);
    }

    fn decision(&self, e: &DecisionEvent<'_>) {
        let mut view = EventView::new(
            event_base(
                MCPR_EVENT_DECISION,
                e.method.as_str(),
                e.protocol_revision.as_str(),
                e.call_id,
                request_data_of(e.request_data),
                str_of(e.uri()),
            ),
            Inner::Decision(e),
        );
        fill_decision(&mut view.c, e);
        self.send(&view);
    }
}

/// The event behind an `mcpr_event`.
enum Inner<'a> {
    Call(&'a CallEvent<'a>),
    Decision(&'a DecisionEvent<'a>),
}

/// An `mcpr_event` with what its accessors compute on demand. Every
/// `*const mcpr_event` the library hands out points at the `c` field of
/// one of these (the first field of a `repr(C)` struct).
#[repr(C)]
struct EventView<'a> {
    c: mcpr_event,
    inner: Inner<'a>,
    cause: OnceLock<Option<String>>,
    json: [OnceLock<Option<String>>; 2],
}

fn request_data_of(d: Option<&(dyn std::any::Any + Send + Sync)>) -> *mut c_void {
    d.and_then(|d| d.downcast_ref::<HostPtr>())
        .map_or(std::ptr::null_mut(), |p| p.0)
}

fn phase_of(p: Option<DecisionPhase>) -> mcpr_phase {
    match p {
        None => MCPR_PHASE_UNKNOWN,
        Some(DecisionPhase::FirstCheck) => MCPR_PHASE_FIRST_CHECK,
        Some(DecisionPhase::Recheck) => MCPR_PHASE_RECHECK,
        Some(DecisionPhase::Resolve) => MCPR_PHASE_RESOLVE,
        Some(DecisionPhase::BodyRead) => MCPR_PHASE_BODY_READ,
        Some(DecisionPhase::Listing) => MCPR_PHASE_LISTING,
        Some(DecisionPhase::Completion) => MCPR_PHASE_COMPLETION,
        #[allow(unreachable_patterns)]
        Some(_) => MCPR_PHASE_UNKNOWN,
    }
}

fn str_of(s: Option<&str>) -> mcpr_str {
    s.map_or(mcpr_str::empty(), mcpr_str::from_str)
}

/// The fields every event has; the others zero.
#[inline(always)]
fn event_base(
    kind: u32,
    method: &'static str,
    revision: &'static str,
    call_id: u64,
    request_data: *mut c_void,
    uri: mcpr_str,
) -> mcpr_event {
    mcpr_event {
        struct_size: std::mem::size_of::<mcpr_event>(),
        kind,
        method: mcpr_str::from_str(method),
        protocol_revision: mcpr_str::from_str(revision),
        call_id,
        request_data,
        status: mcpr_status::MCPR_OK,
        jsonrpc_code: 0,
        status_message: mcpr_str::empty(),
        duration_ns: 0,
        queue_wait_ns: 0,
        has_queue_wait: false,
        items: 0,
        bytes: 0,
        partial: false,
        issues_unavailable: 0,
        issues_read_failed: 0,
        issues_timeout: 0,
        issues_invalid_content: 0,
        issues_budget_exceeded: 0,
        issues_omitted: 0,
        has_cache: false,
        cache_ttl_ms: 0,
        cache_public: false,
        uri,
        rule: 0,
        rule_name: mcpr_str::empty(),
        subject: 0,
        phase: MCPR_PHASE_UNKNOWN,
        issue: mcpr_status::MCPR_OK,
        is_private: false,
        private_item_index: u64::MAX,
        private_timed: false,
        private_discover_calls: 0,
        private_discover_ns: 0,
        private_visibility_calls: 0,
        private_visibility_ns: 0,
        private_permission_calls: 0,
        private_permission_ns: 0,
        private_resolve_calls: 0,
        private_resolve_ns: 0,
        private_body_read_calls: 0,
        private_body_read_ns: 0,
        private_complete_calls: 0,
        private_complete_ns: 0,
    }
}

impl<'a> EventView<'a> {
    #[inline(always)]
    fn new(c: mcpr_event, inner: Inner<'a>) -> EventView<'a> {
        EventView {
            c,
            inner,
            cause: OnceLock::new(),
            json: [OnceLock::new(), OnceLock::new()],
        }
    }
}

/// Fills the call event's fields of `e` into `c`.
#[inline(always)]
fn fill_call(c: &mut mcpr_event, e: &CallEvent<'_>) {
    if let Some(k) = e.failure_kind() {
        c.status = mcpr_status::of_kind(k);
        c.jsonrpc_code = e.jsonrpc_code().unwrap_or(0);
        c.status_message = str_of(e.failure_message());
    }
    c.duration_ns = nanos(e.duration);
    if let Some(q) = e.queue_wait {
        c.has_queue_wait = true;
        c.queue_wait_ns = nanos(q);
    }
    if let Some(s) = e.summary() {
        c.items = s.items;
        c.bytes = s.bytes;
        c.partial = s.partial;
        c.issues_unavailable = s.issues.unavailable;
        c.issues_read_failed = s.issues.read_failed;
        c.issues_timeout = s.issues.timeout;
        c.issues_invalid_content = s.issues.invalid_content;
        c.issues_budget_exceeded = s.issues.budget_exceeded;
        c.issues_omitted = s.issues.omitted;
        if let Some(cache) = s.cache {
            c.has_cache = true;
            c.cache_ttl_ms = cache.ttl_ms;
            c.cache_public = cache.scope == CacheScope::Public;
        }
    }
    if let Some(cb) = e.private_callbacks() {
        c.private_timed = true;
        let get = |k| (cb.calls(k), nanos(cb.time(k)));
        (c.private_discover_calls, c.private_discover_ns) = get(CallbackKind::Discover);
        (c.private_visibility_calls, c.private_visibility_ns) = get(CallbackKind::Visibility);
        (c.private_permission_calls, c.private_permission_ns) = get(CallbackKind::Permission);
        (c.private_resolve_calls, c.private_resolve_ns) = get(CallbackKind::Resolve);
        (c.private_body_read_calls, c.private_body_read_ns) = get(CallbackKind::BodyRead);
        (c.private_complete_calls, c.private_complete_ns) = get(CallbackKind::Complete);
    }
}

/// Fills the decision event's fields of `e` into `c`.
#[inline(always)]
fn fill_decision(c: &mut mcpr_event, e: &DecisionEvent<'_>) {
    c.rule = e.rule as u32;
    c.rule_name = mcpr_str::from_str(e.rule.as_str());
    c.subject = match e.subject {
        DecisionSubject::Root => MCPR_SUBJECT_ROOT,
        DecisionSubject::Item => MCPR_SUBJECT_ITEM,
        DecisionSubject::Definition => MCPR_SUBJECT_DEFINITION,
    };
    c.phase = phase_of(e.phase);
    if let Some(i) = e.issue {
        c.issue = mcpr_status::of_kind(i.failure_kind());
    }
    c.is_private = e.is_private();
    if let Some(i) = e.private_item_index() {
        c.private_item_index = i as u64;
    }
}

fn nanos(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The view behind an event pointer.
///
/// # Safety
/// `event` is NULL or an event lent to an `on_event` callback that has not
/// returned.
unsafe fn view<'a>(event: *const mcpr_event) -> Option<&'a EventView<'a>> {
    // SAFETY: every event pointer the library lends is the first field of
    // a live `EventView` (see `EventView`), still valid (the caller's
    // guarantee).
    unsafe { event.cast::<EventView<'a>>().as_ref() }
}

/// Writes `hash` to `out` (16 bytes).
///
/// # Safety
/// `out` is non-null and valid for 16 writes.
unsafe fn write_hash(hash: EventHash, out: *mut u8) {
    // SAFETY: the caller's guarantee; a local cannot overlap it.
    unsafe { std::ptr::copy_nonoverlapping(hash.0.as_ptr(), out, MCPR_EVENT_HASH_BYTES) }
}

/// Writes the keyed hash of the URI the event is about (the registry's
/// event hash: HMAC-SHA256 under its event key, first 16 bytes), also when
/// `uri` is empty because the URI may not be named; never for anything
/// hidden.
///
/// \param event The event.
/// \param out Receives `MCPR_EVENT_HASH_BYTES` (16) bytes when this returns
///   true.
/// \return Whether the event is about a URI it may hash (false for a NULL
///   `event` or `out`, a listing's call event, and hidden decisions).
/// \pre `event` is NULL or the event lent to an `on_event` callback that
///   has not returned; `out` is NULL or points at 16 writable bytes.
/// \note Thread-safe, during the callback.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_event_uri_hash(event: *const mcpr_event, out: *mut u8) -> bool {
    guard(|| {
        let (Some(v), false) = (unsafe { view(event) }, out.is_null()) else {
            return false;
        };
        let hash = match v.inner {
            Inner::Call(e) => e.uri_hash(),
            Inner::Decision(e) => e.uri_hash(),
        };
        match hash {
            Some(h) => {
                // SAFETY: `out` is non-null (checked above) and holds 16
                // bytes (the caller's guarantee).
                unsafe { write_hash(h, out) };
                true
            }
            None => false,
        }
    })
}

/// Writes the keyed hash of a listing's scope key (never the key itself).
///
/// \param event The event.
/// \param out Receives `MCPR_EVENT_HASH_BYTES` (16) bytes when this returns
///   true.
/// \return Whether the event is a listing's call event with a scope key.
/// \pre `event` is NULL or the event lent to an `on_event` callback that
///   has not returned; `out` is NULL or points at 16 writable bytes.
/// \note Thread-safe, during the callback.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_event_scope_key_hash(event: *const mcpr_event, out: *mut u8) -> bool {
    guard(|| {
        let (Some(v), false) = (unsafe { view(event) }, out.is_null()) else {
            return false;
        };
        match v.inner {
            Inner::Call(e) => match e.scope_key_hash() {
                Some(h) => {
                    // SAFETY: as in `mcpr_event_uri_hash`.
                    unsafe { write_hash(h, out) };
                    true
                }
                None => false,
            },
            Inner::Decision(_) => false,
        }
    })
}

/// The private cause of the event: a failed call's cause, or an item
/// decision's (host text and identifiers: for the host's own logs only).
///
/// \param event The event.
/// \return The cause, UTF-8, valid until the callback returns; empty when
///   there is none or `event` is NULL.
/// \pre `event` is NULL or the event lent to an `on_event` callback that
///   has not returned.
/// \note Thread-safe, during the callback.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_event_private_cause(event: *const mcpr_event) -> mcpr_str {
    guard(|| {
        let Some(v) = (unsafe { view(event) }) else {
            return mcpr_str::empty();
        };
        let cause = v.cause.get_or_init(|| match v.inner {
            Inner::Call(e) => e.private_cause(),
            Inner::Decision(e) => e.private_cause(),
        });
        str_of(cause.as_deref())
    })
}

/// The event as one line of JSON (no newline): the public members, and the
/// private ones under `"private"` when `with_private` is true
/// (docs/BEHAVIOUR.md §19 lists them).
///
/// \param event The event.
/// \param with_private Whether to include the private members.
/// \return The JSON, valid until the callback returns; empty for a private
///   decision event without `with_private` (it has no public form) and for
///   a NULL `event`.
/// \pre `event` is NULL or the event lent to an `on_event` callback that
///   has not returned.
/// \note Thread-safe, during the callback.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_event_json(event: *const mcpr_event, with_private: bool) -> mcpr_str {
    guard(|| {
        let Some(v) = (unsafe { view(event) }) else {
            return mcpr_str::empty();
        };
        let json = v.json[usize::from(with_private)].get_or_init(|| match v.inner {
            Inner::Call(e) => Some(e.to_json(with_private)),
            Inner::Decision(e) => e.to_json(with_private),
        });
        str_of(json.as_deref())
    })
}
