//! `resources/list` and `resources/templates/list` pages.
//!
//! Both methods enumerate registered descriptions only (no resolving, no body
//! reads, no dynamic assets), in the order fixed at construction: resources
//! by URI then name, templates by template then name. Every page rechecks
//! `discover` for each candidate it visits and skips hidden ones. A page
//! stops at the page size or at the page byte budget (`max_page_bytes` minus
//! the 256-byte envelope, each description costing its compact JSON length
//! plus one separator byte, in the form listed on the page's revision:
//! without the members that revision does not define, written at build;
//! the host's result `_meta` members are charged to the same budget); a
//! single visible description that cannot fit an empty page fails the call
//! with kind `size`.
//!
//! Pages after the first are addressed by sealed (encrypted and
//! authenticated), expiring cursors bound to the method, the registry
//! content hash and a hash of the scope key, carrying the position in the
//! sorted order (see `cursor.rs`); a caller can read none of it. The position is an index into the
//! sorted order, so a page costs the same wherever it starts and however many
//! resources are registered. Pagination is not a transactional snapshot:
//! a page reflects the policy at the time it is made.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crate::binding::ResourceBinding;
use crate::cache::{CacheScope, ResultCache};
use crate::call::{CallOptions, Frame, FrameRules};
use crate::cursor::{self, Binding, Method};
use crate::definition::ResourceDefinition;
use crate::error::{CallbackError, CauseText, Failure, FailureKind};
use crate::limits::PAGE_ENVELOPE_BYTES;
use crate::observe::{
    self, CallMethod, CallbackKind, DecisionEvent, DecisionPhase, DecisionRule, DecisionSubject,
    Observed, ResultSummary, Subject, MAX_DISCLOSED_URI_BYTES,
};
use crate::policy::ResourcePolicy;
use crate::prefetch::{populate_for_write, prefetch_bytes, prefetch_object};
use crate::protocol::ProtocolRevision;
use crate::registry::Resources;
use crate::result_meta::{self, ResultMeta};
use crate::scope::RequestScope;

/// Per-call options of a list page: its own (scope key, cursor, page
/// size) and the call frame's (see [`CallOptions`]; with an executor the
/// call returns by its deadline whatever `discover` does, see
/// [`Resources::list`]).
#[derive(Clone, Default)]
pub struct ListOptions {
    /// Opaque caller scope; required and non-empty (an empty one is a host
    /// mistake: `invalid_argument`). Cursors are bound to a SHA-256 of
    /// these exact bytes.
    pub scope_key: Vec<u8>,
    /// The cursor from the previous page (`None` or empty = first page).
    pub cursor: Option<Vec<u8>>,
    /// Requested page size (0 = `default_page_size`; clamped to `max_page_size`).
    pub page_size: u32,
    /// The options every call takes.
    pub call: CallOptions,
}

/// The frame rules of a listing: a saturated executor is `policy` (only
/// `discover` runs there), and so is a panic of the listing job.
pub(crate) const LIST_RULES: FrameRules = FrameRules {
    method: CallMethod::ResourcesList,
    refused: FailureKind::Policy,
    panicked: list_panicked,
};

/// The frame rules of a template listing: those of a listing.
pub(crate) const LIST_TEMPLATES_RULES: FrameRules = FrameRules {
    method: CallMethod::ResourcesTemplatesList,
    ..LIST_RULES
};

/// The frame rules of the `list_resources` tool: those of a listing, its
/// calls counted and observed as `tools/call`.
const TOOL_LIST_RULES: FrameRules = FrameRules {
    method: CallMethod::ToolsCall,
    ..LIST_RULES
};

fn list_panicked() -> Failure {
    Failure::new(FailureKind::Policy).caused_by(CauseText("the listing job panicked".into()))
}

/// The host's own rule of the list methods: a scope key is required. An
/// empty one is a host mistake, never the client's (the host supplies the
/// key), so it is `invalid_argument` like every other programming error,
/// whichever entry point is called (the list methods, the one-call request
/// function, the C ABI), and it is reported before anything else.
pub(crate) fn require_scope_key(scope_key: &[u8]) -> Result<(), Failure> {
    if scope_key.is_empty() {
        return Err(Failure::with_message(
            FailureKind::InvalidArgument,
            EMPTY_SCOPE_KEY,
        ));
    }
    Ok(())
}

/// The message of [`require_scope_key`]'s failure.
pub(crate) const EMPTY_SCOPE_KEY: &str = "list scope key must not be empty";

/// One list page: the MCP list result JSON and the next cursor.
#[derive(Debug, Clone)]
pub struct Page {
    json: String,
    next_cursor: Option<String>,
    len: usize,
    cache: ResultCache,
    /// The descriptions' array (`[…]`) in `json`.
    array: std::ops::Range<usize>,
}

impl Page {
    /// The derived cache hints of this page: the registry's TTL, and the
    /// cacheScope of the pagination's first page (written into the JSON
    /// only for revisions that carry them).
    pub fn cache(&self) -> ResultCache {
        self.cache
    }

    /// The MCP list result as JSON text: `{"resources":[...]}` or
    /// `{"resourceTemplates":[...]}`, with `"nextCursor"` when candidates
    /// remain.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The MCP list result as owned JSON text.
    pub fn into_json(self) -> String {
        self.json
    }

    /// The cursor of the next page, when candidates remain. The library
    /// never issues an empty cursor.
    pub fn next_cursor(&self) -> Option<&str> {
        self.next_cursor.as_deref()
    }

    /// The number of descriptions on this page.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether this page holds no description (possible when every
    /// candidate it visited was hidden, or the registry is empty).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The descriptions as the JSON array the page holds (`[…]`).
    pub(crate) fn array_json(&self) -> &str {
        &self.json[self.array.clone()]
    }
}

impl Observed for Page {
    fn summary(&self) -> ResultSummary {
        ResultSummary {
            items: self.len as u64,
            bytes: self.json.len() as u64,
            cache: Some(self.cache),
            ..ResultSummary::default()
        }
    }

    fn discloses_subject(&self) -> bool {
        false
    }

    fn is_partial(&self) -> bool {
        false
    }
}

impl Resources {
    /// One page of `resources/list`: registered exact-URI descriptions the
    /// caller may discover, by URI then name.
    ///
    /// Errors: an empty scope key is `invalid_argument` (a host mistake);
    /// an invalid, expired, cross-method, cross-registry or cross-scope
    /// cursor is `invalid_request`; a
    /// `discover` error other than `Unavailable` (or a panic in it) is
    /// `policy`; a visible description too large for an empty page is
    /// `size`; cancellation is `canceled`; a passed deadline is
    /// `deadline_exceeded`.
    ///
    /// With an executor in the options the `discover` callbacks run on a
    /// worker and this call returns by its deadline (`deadline_exceeded`)
    /// or at once on cancellation (`canceled`) whatever they do; a
    /// `discover` still running is abandoned (it keeps running, its result
    /// is discarded, the registry's tables stay alive until it returns). A
    /// saturated executor fails the call at once with `policy` (private
    /// cause "executor saturated"). Without one, `discover` runs on the
    /// calling thread and the deadline is checked between callbacks.
    pub fn list(&self, options: &ListOptions) -> Result<Page, Failure> {
        self.list_page(Method::Resources, options)
    }

    /// One page of `resources/templates/list`: registered template
    /// descriptions the caller may discover, by template then name. Errors
    /// as for [`list`](Self::list).
    pub fn list_templates(&self, options: &ListOptions) -> Result<Page, Failure> {
        self.list_page(Method::Templates, options)
    }

    /// The `list_resources` tool's page: of templates when `templates`,
    /// in a frame observed as `tools/call`.
    pub(crate) fn list_for_tool(
        &self,
        templates: bool,
        options: &ListOptions,
    ) -> Result<Page, Failure> {
        let method = if templates {
            Method::Templates
        } else {
            Method::Resources
        };
        self.list_page_as(method, options, &TOOL_LIST_RULES)
    }

    fn list_page(&self, method: Method, options: &ListOptions) -> Result<Page, Failure> {
        let rules = match method {
            Method::Resources => &LIST_RULES,
            Method::Templates => &LIST_TEMPLATES_RULES,
        };
        self.list_page_as(method, options, rules)
    }

    /// One page of `method` in a frame of `rules`.
    fn list_page_as(
        &self,
        method: Method,
        options: &ListOptions,
        rules: &'static FrameRules,
    ) -> Result<Page, Failure> {
        if let Err(f) = require_scope_key(&options.scope_key) {
            let ended = options.call.refused(rules.method);
            self.telemetry().unframed(ended, &f);
            return Err(f);
        }
        options.call.frame(
            self,
            rules,
            Subject::ScopeKey(&options.scope_key),
            |frame| self.page_in(frame, method, options),
        )
    }

    /// One page of `resources/list` (or `resources/templates/list`:
    /// `templates`) in `frame`, for a driver that made the frame itself
    /// (an asynchronous call's job; its scope key was checked when it
    /// started).
    pub(crate) fn list_in(
        &self,
        frame: &Frame<'_>,
        templates: bool,
        options: &ListOptions,
    ) -> Result<Page, Failure> {
        let method = if templates {
            Method::Templates
        } else {
            Method::Resources
        };
        self.page_in(frame, method, options)
    }

    /// One page in its call frame: where it starts (the cursor), what it
    /// admits (the scan, on the executor when there is one), and its JSON.
    fn page_in(
        &self,
        frame: &Frame<'_>,
        method: Method,
        options: &ListOptions,
    ) -> Result<Page, Failure> {
        let limits = self.limits();
        let (order, field) = match method {
            Method::Resources => (self.resource_order(), "resources"),
            Method::Templates => (self.template_order(), "resourceTemplates"),
        };
        let content_hash = self.content_hash();
        let scope_hash = cursor::scope_hash(&options.scope_key);
        let binding = Binding {
            method,
            content_hash: &content_hash,
            scope_hash: &scope_hash,
        };
        let now_ms = self.now_unix_ms();
        let sealer = self.cursor_sealer();
        // The first page decides the pagination's cacheScope; later pages
        // carry it in their cursor (MCP: one cacheScope for every page).
        let (start, bound_scope) = match options.cursor.as_deref() {
            None | Some([]) => (0, None),
            Some(c) => {
                let (start, scope) = sealer
                    .verify_scoped(binding, c, now_ms, order.len())
                    .map_err(|e| Failure::from(e).with_rpc_message("Invalid cursor"))?;
                (start, Some(scope))
            }
        };
        let registry_cache = self.cache_hints();
        let fields = frame.protocol_revision().has_result_fields();
        // Reserved for the revision's members: exact for "private", one
        // byte more than needed for "public".
        let fields_len = if fields {
            ResultCache {
                ttl_ms: registry_cache.ttl_ms,
                scope: CacheScope::Private,
            }
            .fields_len() as u64
        } else {
            0
        };
        let page_size = match options.page_size as usize {
            0 => limits.default_page_size,
            n => n.min(limits.max_page_size),
        };
        // The host's result `_meta` members are charged to the page.
        let host_meta = result_meta::member_len(frame.result_meta());
        let window = PageWindow {
            start,
            page_size,
            budget: (limits.max_page_bytes - PAGE_ENVELOPE_BYTES)
                .saturating_sub(fields_len)
                .saturating_sub(host_meta as u64),
            field,
            // What follows the descriptions: the array's end, a cursor (79
            // characters), the host's `_meta`, the revision's members and
            // the object's end.
            tail_room: 128 + fields_len as usize + host_meta,
            revision: frame.protocol_revision(),
        };
        let found = match frame.executor() {
            None => scan(
                self.policy().as_ref(),
                self.bindings(),
                order,
                frame.scope(),
                window,
            )?,
            Some(executor) => {
                let (bindings, order) = self.shared_order(method == Method::Templates);
                let policy = self.policy().clone();
                let scope = frame.scope().clone();
                frame.run_job(executor, move || {
                    scan(policy.as_ref(), &bindings, &order, &scope, window)
                })?
            }
        };
        let scope = pagination_scope(
            bound_scope,
            registry_cache.policy_caller_independent,
            found.filtered,
        );
        let cache = ResultCache {
            ttl_ms: registry_cache.ttl_ms,
            scope,
        };
        let next_cursor = (found.position < order.len())
            .then(|| sealer.issue_scoped(binding, found.position as u64, scope, now_ms));
        let tail = PageTail {
            field,
            next_cursor,
            result_meta: frame.result_meta(),
            cache,
            fields,
        };
        Ok(finish_page(found, tail, limits))
    }
}

/// The cacheScope of a page: its cursor's (`bound`; the first page's), or
/// for a first page `"public"` only when the policy is declared
/// caller-independent and it filtered nothing. Never more than is declared
/// now: a `"public"` cursor presented to a registry (same content, so the
/// same content hash) that no longer declares its policy
/// caller-independent gives `"private"`.
fn pagination_scope(
    bound: Option<CacheScope>,
    policy_caller_independent: bool,
    filtered: bool,
) -> CacheScope {
    match bound {
        Some(CacheScope::Public) if policy_caller_independent => CacheScope::Public,
        Some(_) => CacheScope::Private,
        None if policy_caller_independent && !filtered => CacheScope::Public,
        None => CacheScope::Private,
    }
}

/// What a page's JSON ends with after its descriptions.
struct PageTail<'a> {
    /// The page's array member (`{"<field>":[` starts the JSON).
    field: &'a str,
    /// `nextCursor`, when candidates remain.
    next_cursor: Option<String>,
    /// The host's result `_meta` members (the page's `_meta`).
    result_meta: Option<&'a ResultMeta>,
    /// The cache members, written when the revision carries them
    /// (`fields`).
    cache: ResultCache,
    fields: bool,
}

/// Closes a page's JSON after its descriptions: the array, `nextCursor`
/// when candidates remain, the host's `_meta`, the cache members and the
/// object.
fn finish_page(found: Scan, tail: PageTail<'_>, limits: &crate::limits::Limits) -> Page {
    let PageTail {
        field,
        next_cursor,
        result_meta,
        cache,
        fields,
    } = tail;
    let Scan {
        mut json, admitted, ..
    } = found;
    json.push(']');
    let array = field.len() + 4..json.len();
    if let Some(c) = &next_cursor {
        json.push_str(",\"nextCursor\":\"");
        json.push_str(c);
        json.push('"');
    }
    if let Some(m) = result_meta {
        m.write_member(&mut json);
    }
    if fields {
        cache.write_fields(&mut json);
    }
    json.push('}');
    if json.capacity() - json.len() > SLACK_KEPT_BYTES {
        // In place (the allocator gives back the tail; no copy).
        json.shrink_to_fit();
    }
    debug_assert!(json.len() as u64 <= limits.max_page_bytes);
    Page {
        json,
        next_cursor,
        len: admitted,
        cache,
        array,
    }
}

/// What one page visits: from `start` in the sorted order, at most
/// `page_size` admitted descriptions costing at most `budget` bytes, written
/// after `{"<field>":[` with room for `tail_room` bytes after them.
#[derive(Clone, Copy)]
struct PageWindow {
    start: usize,
    page_size: usize,
    budget: u64,
    field: &'static str,
    tail_room: usize,
    /// The revision the descriptions are listed for.
    revision: ProtocolRevision,
}

/// What one page admits: the page's JSON up to its last description (the
/// array still open), how many descriptions it holds, where the next page
/// starts, and whether `discover` filtered out a candidate it visited.
struct Scan {
    json: String,
    admitted: usize,
    position: usize,
    filtered: bool,
}

/// A page buffer keeps at most this many unused bytes past its end; beyond
/// that it is shrunk in place (its size is estimated before the page is
/// written: see [`start_page`]). A page whose estimate was right (every
/// description as long as the first) is left as it is.
const SLACK_KEPT_BYTES: usize = 64;

/// Page buffers from this size up are mapped ahead of the writing, a
/// [`POPULATE_CHUNK_BYTES`] at a time ([`populate_for_write`]); below it a
/// page is usually made in memory the allocator reuses, already mapped,
/// where the request would only cost a system call.
const POPULATE_FROM_BYTES: usize = 256 * 1024;

/// How far ahead of the writing a large page buffer is mapped: one request
/// per 256 pages instead of 256 faults. In steps, not the whole estimate at
/// once: a long first description makes a large estimate that shorter ones
/// after it never fill (the unused rest is given back, unmapped).
const POPULATE_CHUNK_BYTES: usize = 1024 * 1024;

/// Candidates visited between two clock reads when `discover` is trivial.
const CLOCK_EVERY: usize = 64;

/// How far ahead of the current candidate [`prefetch_ahead`] starts
/// fetching a binding; its definition is fetched at half that distance and
/// the definition's text at a quarter.
const PREFETCH_DISTANCE: usize = 16;

/// Asks the CPU to start loading what the candidates a few positions ahead
/// will read: the sorted order visits bindings, definitions and their JSON
/// text scattered across the heap (registration order is not sorted
/// order), and each is otherwise a cache miss met one after the other.
/// Only addresses already in cache are dereferenced (the binding two steps
/// back fetched its definition's pointer); a hint, no effect on results.
///
/// Each hint covers every line of what is read: the binding's
/// `definition` field, the whole definition (an `Arc` payload at a
/// 16-byte boundary straddles two lines three times in four) and the
/// JSON text (about 70 bytes in a typical description: usually two
/// lines).
#[inline(always)]
fn prefetch_ahead(bindings: &[ResourceBinding], order: &[usize], position: usize) {
    if let Some(&b) = order.get(position + PREFETCH_DISTANCE) {
        prefetch_object(&bindings[b].definition as *const Arc<ResourceDefinition>);
    }
    if let Some(&b) = order.get(position + PREFETCH_DISTANCE / 2) {
        prefetch_object(Arc::as_ptr(&bindings[b].definition));
    }
    if let Some(&b) = order.get(position + PREFETCH_DISTANCE / 4) {
        let json = bindings[b].definition.json();
        prefetch_bytes(json.as_ptr(), json.len());
    }
}

/// Visits `order` from `start`, asking `discover` for each candidate,
/// until the page is full (`page_size` descriptions or `budget` bytes).
fn scan(
    policy: &dyn ResourcePolicy,
    bindings: &[ResourceBinding],
    order: &[usize],
    scope: &RequestScope,
    page: PageWindow,
) -> Result<Scan, Failure> {
    let PageWindow {
        start,
        page_size,
        budget,
        field,
        tail_room,
        revision,
    } = page;
    let call = scope.call_in(crate::scope::CallPhase::Listing);
    // Allocated when the first description is admitted (its size sets the
    // estimate), or at the end for a page with none.
    let mut json = String::new();
    let mut populate_at = usize::MAX;
    let mut filtered = false;
    let mut admitted = 0usize;
    let mut used = 0u64;
    let mut position = start;
    // With a trivial `discover` no host code runs between candidates: the
    // clock is read every `CLOCK_EVERY` candidates (cancellation is still
    // checked at each).
    let clock_every = if policy.discover_is_trivial() {
        CLOCK_EVERY
    } else {
        1
    };
    while position < order.len() && admitted < page_size {
        if (position - start).is_multiple_of(clock_every) {
            scope.check()?;
        } else if scope.is_over() {
            return Err(Failure::new(FailureKind::Canceled));
        }
        prefetch_ahead(bindings, order, position);
        let definition = bindings[order[position]].definition();
        let discovered = observe::timed(scope.recorder(), CallbackKind::Discover, || {
            catch_unwind(AssertUnwindSafe(|| policy.discover(&call, definition)))
        })
        .map_err(|_| {
            Failure::new(FailureKind::Policy)
                .caused_by(CauseText("discover callback panicked".into()))
        })?;
        match discovered {
            Ok(()) => {}
            // Asking for input is no answer a listing can give: a denial
            // (docs/BEHAVIOUR.md §18).
            Err(CallbackError::Unavailable | CallbackError::InputRequired(_)) => {
                visited(scope, definition, false);
                filtered = true;
                position += 1;
                continue;
            }
            Err(e) => return Err(Failure::new(FailureKind::Policy).caused_by(e)),
        }
        let text = definition.json_for(revision);
        let cost = text.len() as u64 + 1;
        if used + cost > budget {
            if admitted == 0 {
                return Err(Failure::new(FailureKind::Size).caused_by(CauseText(
                    "a visible description does not fit an empty list page".into(),
                )));
            }
            // Rechecked on the next page.
            break;
        }
        used += cost;
        if admitted == 0 {
            let candidates = page_size.min(order.len() - position);
            populate_at = start_page(&mut json, field, cost, candidates, budget, tail_room);
        } else {
            json.push(',');
        }
        // Copied while its text is in cache (prefetched a few candidates
        // back), one pass over the candidates.
        json.push_str(text);
        visited(scope, definition, true);
        if json.len() >= populate_at {
            populate_at = populate_ahead(&mut json);
        }
        admitted += 1;
        position += 1;
    }
    if admitted == 0 {
        start_page(&mut json, field, 0, 0, 0, tail_room);
    }
    Ok(Scan {
        json,
        admitted,
        position,
        filtered,
    })
}

/// The decision event of a definition a listing visited, for an
/// observer that asks for decisions: listed (its URI or template in
/// plain: the page shows it), or hidden (private, neither URI nor hash).
#[inline]
fn visited(scope: &RequestScope, definition: &ResourceDefinition, listed: bool) {
    let Some(r) = scope.recorder().filter(|r| r.decisions()) else {
        return;
    };
    let uri = definition.uri_or_template();
    r.decide(&DecisionEvent {
        call_id: r.call_id,
        method: r.method,
        protocol_revision: r.protocol_revision,
        rule: if listed {
            DecisionRule::Allowed
        } else {
            DecisionRule::Hidden
        },
        phase: Some(DecisionPhase::Listing),
        issue: None,
        request_data: scope.request_data().map(|d| &**d),
        subject: DecisionSubject::Definition,
        item: None,
        private: !listed,
        uri: (listed && uri.len() <= MAX_DISCLOSED_URI_BYTES).then_some(uri),
        hashed: listed.then_some(uri.as_bytes()),
        cause: None,
        failure: None,
        hasher: r.hasher(),
    });
}

/// Allocates the page buffer and writes `{"<field>":[` once the first
/// description (`cost` bytes with its separator) is known: room for each
/// of the `candidates` left costing as much, within the byte `budget`,
/// plus `tail_room`. A page of descriptions of one size is sized exactly;
/// larger ones grow the buffer as usual, and slack is given back at the
/// end. (An estimate with a margin, an eighth more, made every page
/// shrink, and in the C harness's pattern, all pages kept then all freed,
/// glibc then gave the heap back and faulted it in again on every pass.)
/// Returns where to map the buffer further (see [`populate_ahead`]).
fn start_page(
    json: &mut String,
    field: &str,
    cost: u64,
    candidates: usize,
    budget: u64,
    tail_room: usize,
) -> usize {
    let estimate = cost.saturating_mul(candidates as u64).min(budget) as usize;
    json.reserve_exact(3 + field.len() + estimate + tail_room);
    json.push_str("{\"");
    json.push_str(field);
    json.push_str("\":[");
    if json.capacity() >= POPULATE_FROM_BYTES {
        populate_ahead(json)
    } else {
        usize::MAX
    }
}

/// Maps the next [`POPULATE_CHUNK_BYTES`] of a large page buffer's spare
/// capacity in one request (the page is written from end to end at once,
/// mostly into fresh memory: otherwise a fault every 4 KiB); returns the
/// length at which to call again (`usize::MAX` once the capacity is
/// covered).
fn populate_ahead(json: &mut String) -> usize {
    let len = json.len();
    let end = json.capacity().min(len + POPULATE_CHUNK_BYTES);
    // SAFETY: `len <= end <= capacity`: an offset within the allocation.
    let spare = unsafe { json.as_mut_ptr().add(len) };
    populate_for_write(spare, end - len);
    if end == json.capacity() {
        usize::MAX
    } else {
        end
    }
}
