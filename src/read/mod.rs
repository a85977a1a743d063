//! The read pipeline: plan and authorize -> body reads under admission ->
//! recheck -> assemble.
//!
//! [`Resources::read`] runs the authorization sequence of
//! docs/BEHAVIOUR.md §5 in its call frame (§8), admits bodies under the
//! budgets of §7, and returns the JSON text of an MCP `resources/read`
//! result (§6) as a [`ResourceBundle`]. The steps exist once
//! (`pipeline.rs`, built from `authorize`, `admit`, `recheck` and
//! `assemble`); this file drives them inline, `pooled.rs` on an executor
//! with the caller waiting, and `detached.rs` on an executor for an
//! asynchronous call (the executor driver without a waiting caller).

mod admit;
mod asking;
mod assemble;
mod authorize;
mod decisions;
mod detached;
mod pipeline;
mod pooled;
mod probe;
mod recheck;
mod replay;
mod spare;

// Shared with `completion` (the same discovery rule and callback guards)
// and `subscription` (the root checks: a subscription is honored when a
// read's root checks pass; a list change's discovery loop).
pub(crate) use authorize::{
    discover, discovered_among, guarded, settle, CallbackFailure, RootStop,
};
pub(crate) use detached::{OwnedInput, Owner};
pub(crate) use pipeline::root;
pub(crate) use spare::Spare;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use base64::Engine as _;

use crate::cache::ResultCache;
use crate::call::{CallOptions, Frame, FrameRules, FromParams};
use crate::error::{BoxError, Failure, FailureKind};
use crate::input::{InputOptions, InputRequired, ReadInput};
use crate::limits::Limits;
use crate::observe::{self, CallMethod, CallbackKind, Subject};
use crate::policy::Visibility;
use crate::protocol::ProtocolRevision;
use crate::registry::{Resources, Selection};
use crate::report::{Issue, IssueCode};
use crate::scope::CallPhase;
use crate::sizing::ItemSpans;

use pipeline::Pipeline;

/// Per-call options of a read: the call frame's (deadline, cancellation,
/// request data, executor, protocol revision, result `_meta`, trace
/// context; see [`CallOptions`]) and what an input-required read and its
/// retry need ([`InputOptions`], docs/BEHAVIOUR.md §18). With an executor
/// the read returns by its deadline whatever any callback does; see
/// [`Resources::read`].
#[derive(Clone, Default)]
pub struct ReadOptions {
    /// The options every call takes.
    pub call: CallOptions,
    /// The scope key, client capabilities and retry members of an
    /// input-required read (all optional).
    pub input: InputOptions,
}

impl From<CallOptions> for ReadOptions {
    fn from(call: CallOptions) -> ReadOptions {
        ReadOptions {
            call,
            input: InputOptions::default(),
        }
    }
}

/// The frame rules of a read: a saturated executor is `read_failed`, and
/// so is a panic of the pipeline on an executor (also those of an
/// embedding, whose reads run in its frame: `crate::tools`).
pub(crate) const READ_RULES: FrameRules = FrameRules {
    method: CallMethod::ResourcesRead,
    refused: FailureKind::ReadFailed,
    panicked: read_panicked,
};

fn read_panicked() -> Failure {
    Failure::new(FailureKind::ReadFailed)
        .caused_by(crate::error::CauseText("the read pipeline panicked".into()))
}

/// The step of a read that last decided an item (its decision event's
/// phase and rule).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    FirstCheck,
    BodyRead,
    Recheck,
}

/// What happened to one planned item.
enum Outcome {
    /// Outside the visible selection.
    Hidden,
    /// Visible and permitted, not read yet.
    Pending,
    /// A safe issue, with its private cause (never serialised).
    Issue(IssueCode, Option<BoxError>),
    /// Read and admitted.
    Admitted(admit::Admitted),
    /// Its body read asked for input first (docs/BEHAVIOUR.md §18).
    Input(Box<InputRequired>),
}

/// The state of one planned item through the pipeline.
struct ItemState {
    /// Visible at the first check.
    first_visible: bool,
    /// The latest visibility decision (the final one after the recheck).
    final_visibility: Visibility,
    outcome: Outcome,
    /// The step that set `outcome`.
    step: Step,
}

/// The item states of a read, in plan order: held inline for a plan of one
/// item (the common plan then allocates no list of states), else a list.
enum ItemStates {
    One([ItemState; 1]),
    Many(Vec<ItemState>),
}

impl std::ops::Deref for ItemStates {
    type Target = [ItemState];
    fn deref(&self) -> &[ItemState] {
        match self {
            ItemStates::One(one) => one,
            ItemStates::Many(v) => v,
        }
    }
}

impl std::ops::DerefMut for ItemStates {
    fn deref_mut(&mut self) -> &mut [ItemState] {
        match self {
            ItemStates::One(one) => one,
            ItemStates::Many(v) => v,
        }
    }
}

/// The result of a read: the MCP `resources/read` result JSON and typed
/// accessors over it.
#[derive(Debug, Clone)]
pub struct ResourceBundle {
    json: String,
    partial: bool,
    spans: Vec<ItemSpans>,
    issues: Vec<Issue>,
    issues_omitted: u64,
    report: Range<usize>,
    cache: ResultCache,
    protocol_revision: ProtocolRevision,
    /// Whether the requested target's final visibility decision set
    /// *disclose issue URI* (the call event may then name the URI).
    disclosed: bool,
    /// An `InputRequiredResult` instead of a read result.
    input_required: bool,
    /// What the read's callbacks asked for, until the caller answers it
    /// (never set on a bundle a caller receives).
    asked: Option<Box<InputRequired>>,
    /// Payload bytes of the admitted application items (an embedding's
    /// accounting, see `crate::tools`).
    payload_bytes: u64,
    /// Over-budget items that became links (only when an embedding asked
    /// for them), in plan order.
    links: Vec<LinkedItem>,
}

/// An over-budget item an embedding gives as a `resource_link` instead of a
/// `budget_exceeded` issue.
#[derive(Debug, Clone)]
pub(crate) struct LinkedItem {
    /// The item URI.
    pub uri: String,
    /// Whether it is the requested target (its link is then built from the
    /// selected registered description).
    pub requested: bool,
}

impl ResourceBundle {
    /// A read whose callbacks asked for input: answered by the caller of
    /// the pipeline (`input::answer`).
    pub(super) fn asking(asked: InputRequired, protocol_revision: ProtocolRevision) -> Self {
        ResourceBundle {
            json: String::new(),
            partial: false,
            spans: Vec::new(),
            issues: Vec::new(),
            issues_omitted: 0,
            report: 0..0,
            cache: ResultCache::default(),
            protocol_revision,
            disclosed: false,
            input_required: false,
            asked: Some(Box::new(asked)),
            payload_bytes: 0,
            links: Vec::new(),
        }
    }

    /// Whether this is an `InputRequiredResult` (MCP 2026-07-28: the read
    /// needs input from the client first; docs/BEHAVIOUR.md §18): its JSON
    /// holds `resultType: "input_required"`, the input requests and the
    /// sealed `requestState`, and no items, report or cache hints.
    pub fn is_input_required(&self) -> bool {
        self.input_required
    }

    /// Payload bytes of the admitted application items.
    pub(crate) fn payload_bytes(&self) -> u64 {
        self.payload_bytes
    }

    /// The over-budget items that became links.
    pub(crate) fn links(&self) -> &[LinkedItem] {
        &self.links
    }

    /// The derived cache hints of this result (written into the JSON as
    /// `ttlMs` and `cacheScope` only for revisions that carry them).
    pub fn cache(&self) -> ResultCache {
        self.cache
    }

    /// The protocol revision the JSON is shaped for.
    pub fn protocol_revision(&self) -> ProtocolRevision {
        self.protocol_revision
    }

    /// The MCP read result as JSON text.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The MCP read result as JSON text, by value.
    pub fn into_json(mut self) -> String {
        std::mem::take(&mut self.json)
    }

    /// Whether the bundle is partial (it then starts with a warning item).
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// The content items in wire order: the warning item first when the
    /// bundle is partial, then the admitted application items in plan order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = BundleItem<'_>> + '_ {
        self.spans.iter().enumerate().map(|(i, spans)| BundleItem {
            json: &self.json,
            spans,
            warning: self.partial && i == 0,
        })
    }

    /// The number of content items (the warning item included).
    pub fn item_count(&self) -> usize {
        self.spans.len()
    }

    /// The detailed issues of the report, in plan order.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// How many further visible failures or unattempted visible items the
    /// report counts without detail.
    pub fn issues_omitted(&self) -> u64 {
        self.issues_omitted
    }

    /// The report JSON (as it appears in the result `_meta` and, for
    /// partial bundles, in the warning text).
    pub fn report_json(&self) -> &str {
        &self.json[self.report.clone()]
    }
}

/// The result text and the list of item spans go to this thread's spares
/// (see `spare`), for the next read's result.
impl Drop for ResourceBundle {
    fn drop(&mut self) {
        spare::keep_both(
            std::mem::take(&mut self.json),
            std::mem::take(&mut self.spans),
        );
    }
}

/// A view of one content item of a [`ResourceBundle`].
#[derive(Debug, Clone, Copy)]
pub struct BundleItem<'a> {
    json: &'a str,
    spans: &'a ItemSpans,
    warning: bool,
}

fn decode_str(literal: &str) -> Cow<'_, str> {
    let inner = &literal[1..literal.len() - 1];
    if inner.contains('\\') {
        Cow::Owned(serde_json::from_str(literal).unwrap_or_default())
    } else {
        Cow::Borrowed(inner)
    }
}

impl<'a> BundleItem<'a> {
    /// Whether this is the module's generated warning item.
    pub fn is_warning(&self) -> bool {
        self.warning
    }

    /// The item object as JSON text.
    pub fn json(&self) -> &'a str {
        &self.json[self.spans.object.clone()]
    }

    /// The item URI.
    pub fn uri(&self) -> Cow<'a, str> {
        decode_str(&self.json[self.spans.uri.clone()])
    }

    /// The item MIME type.
    pub fn mime_type(&self) -> Cow<'a, str> {
        decode_str(&self.json[self.spans.mime_type.clone()])
    }

    /// The text, for text items.
    pub fn text(&self) -> Option<Cow<'a, str>> {
        (!self.spans.is_blob).then(|| decode_str(&self.json[self.spans.body.clone()]))
    }

    /// The base64 text of a blob item.
    pub fn blob_base64(&self) -> Option<&'a str> {
        let b = &self.spans.body;
        self.spans
            .is_blob
            .then(|| &self.json[b.start + 1..b.end - 1])
    }

    /// The decoded bytes of a blob item.
    pub fn blob(&self) -> Option<Vec<u8>> {
        self.blob_base64().map(|b| {
            base64::engine::general_purpose::STANDARD
                .decode(b)
                .unwrap_or_default()
        })
    }

    /// The item `_meta` object as JSON text, if any.
    pub fn meta_json(&self) -> Option<&'a str> {
        self.spans.meta.clone().map(|m| &self.json[m])
    }
}

/// This thread's spares (result buffer, list of item spans), for a read
/// assembled on another thread whose bundle this thread will likely free
/// (an asynchronous read started here).
pub(crate) fn spare_buffer() -> Spare {
    spare::take()
}

impl Resources {
    /// Reads a resource bundle (`resources/read`).
    ///
    /// Sequence: validate the URI and select the binding, `discover`,
    /// `resolve` and validate the plan, check the requested target, decide
    /// visibility and read permission of every item, read bodies in plan
    /// order under admission, recheck discovery, the requested target and
    /// every item, and assemble the result.
    ///
    /// Errors (no bundle): invalid request, root denial or not-found
    /// (`unavailable`), invalid plan, policy failure, cancellation
    /// (`canceled`), whole-read deadline (`deadline_exceeded`), a report or
    /// result that cannot fit (`size`), and, when no application item
    /// survives a non-empty final visible selection, the code of the first
    /// visible issue. Item failures otherwise make a partial bundle.
    ///
    /// Without an executor every callback runs on the calling thread, and
    /// the deadlines only take effect between callbacks and through
    /// callbacks that honour [`CallContext::is_canceled`](crate::CallContext::is_canceled).
    /// With an executor the whole pipeline runs on its workers and this
    /// call returns by the read deadline whatever any callback does: a
    /// policy or resolve callback still running then makes the read
    /// `deadline_exceeded` (`canceled` on cancellation, at once); a body
    /// read still running at its item deadline makes its item `timeout`
    /// and the read continues with the other items. Such a callback is
    /// abandoned: it keeps running on its worker, its late result is
    /// discarded, and what it was given stays valid until it returns. A
    /// saturated executor (see [`Executor`](crate::Executor)) fails the read at once with
    /// `read_failed`, or fails the body reads it can no longer risk as
    /// `read_failed` items; the private cause says "executor saturated".
    ///
    /// A callback may answer that the read needs input first
    /// (docs/BEHAVIOUR.md §18): on 2026-07-28 the bundle is then an
    /// `InputRequiredResult` ([`ResourceBundle::is_input_required`]), and
    /// `options.input` carries the client's retry.
    pub fn read(&self, uri: &[u8], options: &ReadOptions) -> Result<ResourceBundle, Failure> {
        self.read_at(
            uri,
            &options.call,
            FromParams::default(),
            &ReadInput::of(&options.input),
        )
    }

    /// [`read`](Self::read) with `call`'s options and what the request's
    /// params set in their place (the one-call request function's
    /// per-request revision and trace context, without a copy of the
    /// options), with its input members.
    pub(crate) fn read_at(
        &self,
        uri: &[u8],
        call: &CallOptions,
        from_params: FromParams,
        input: &ReadInput<'_>,
    ) -> Result<ResourceBundle, Failure> {
        call.frame_at(from_params, self, &READ_RULES, Subject::Uri(uri), |frame| {
            self.read_framed(frame, uri, self.limits(), input)
        })
    }

    /// The read of `uri` in its call frame, with its input members: a
    /// retry's state is verified before anything else about the request
    /// (a bad one is refused whatever the URI names), and a read whose
    /// callbacks asked for input is answered here, on the calling thread.
    fn read_framed(
        &self,
        frame: &Frame<'_>,
        uri: &[u8],
        limits: &Limits,
        input: &ReadInput<'_>,
    ) -> Result<ResourceBundle, Failure> {
        let revision = frame.protocol_revision();
        let bundle = match asking::open_retry(self, uri, input, revision)? {
            Some(responses) => {
                let frame = frame.with_scope(frame.scope().with_input(responses));
                self.read_asking(&frame, uri, limits, false)?
            }
            None => self.read_asking(frame, uri, limits, false)?,
        };
        // The common bundle asked for nothing: returned where it is (not
        // moved through `answer_asked` and back).
        if bundle.asked.is_none() {
            return Ok(bundle);
        }
        self.answer_asked(bundle, uri, input, revision)
    }

    /// A read's bundle as the caller gets it: one whose callbacks asked
    /// for input becomes the `InputRequiredResult` (both drivers: the
    /// blocking read, and the asynchronous read when it concludes).
    pub(crate) fn answer_asked(
        &self,
        mut bundle: ResourceBundle,
        uri: &[u8],
        input: &ReadInput<'_>,
        revision: ProtocolRevision,
    ) -> Result<ResourceBundle, Failure> {
        let Some(asked) = bundle.asked.take() else {
            return Ok(bundle);
        };
        bundle.json = asking::answer(self, uri, input, revision, *asked)?;
        bundle.input_required = true;
        Ok(bundle)
    }

    /// A retry's verified input responses (`None` for a first read), as
    /// the blocking read verifies them before anything else (both
    /// drivers).
    pub(crate) fn open_retry(
        &self,
        uri: &[u8],
        input: &ReadInput<'_>,
        revision: ProtocolRevision,
    ) -> Result<Option<Arc<crate::input::InputResponses>>, Failure> {
        asking::open_retry(self, uri, input, revision)
    }

    /// The read of `uri` in an embedding's `frame`, whose reads share it:
    /// under `limits` (the embedding's share of the registry's:
    /// `crate::tools`), with the over-budget items the caller may learn
    /// given as links when `over_budget_links`. A tool result cannot carry
    /// a request for input: a read whose callback asks for input fails as
    /// one denied at its root (`unavailable`, not found), so it looks like
    /// a hidden URI (docs/BEHAVIOUR.md §18).
    #[inline]
    pub(crate) fn read_in(
        &self,
        frame: &Frame<'_>,
        uri: &[u8],
        limits: &Limits,
        over_budget_links: bool,
    ) -> Result<ResourceBundle, Failure> {
        let bundle = self.read_asking(frame, uri, limits, over_budget_links)?;
        if bundle.asked.is_some() {
            return Err(
                Failure::new(FailureKind::Unavailable).caused_by(crate::error::CauseText(
                    "a callback asked for input, which a tool result cannot carry".into(),
                )),
            );
        }
        Ok(bundle)
    }

    /// The read pipeline of `uri` in `frame`: the bundle, or one whose
    /// callbacks asked for input (`asked`, answered by the caller). A
    /// frame whose scope holds verified input responses is a retry: its
    /// result is never cacheable (`ttlMs` 0, `"private"`).
    fn read_asking(
        &self,
        frame: &Frame<'_>,
        uri: &[u8],
        limits: &Limits,
        over_budget_links: bool,
    ) -> Result<ResourceBundle, Failure> {
        let scope = frame.scope();
        if let Some(executor) = frame.executor() {
            return pooled::read(
                executor,
                frame,
                self.parts(frame, uri, limits, over_budget_links)?,
            );
        }
        // Lent: the match is dropped before this returns.
        let selection = self.select_lent(uri)?;
        let shape = self.shape(frame, &selection, over_budget_links);
        let policy = self.policy().as_ref();
        let definition = selection.binding.definition().as_ref();
        let handler = selection.binding.handler().as_ref();
        // The per-item path and the plan-level one, each compiled for its
        // form (`pipeline::plan`, `Pipeline::finish`).
        let matched = &selection.matched;
        if policy.decides_plans() {
            return read_lent_decided(policy, definition, handler, matched, scope, limits, &shape);
        }
        read_lent::<false>(policy, definition, handler, matched, scope, limits, &shape)
    }
    /// The selection of `uri` as a read on an executor owns it (both
    /// drivers on workers: `pooled.rs` and `detached.rs`).
    fn parts(
        &self,
        frame: &Frame<'_>,
        uri: &[u8],
        limits: &Limits,
        over_budget_links: bool,
    ) -> Result<pooled::Parts, Failure> {
        let selection = self.select(uri)?;
        let shape = self.shape(frame, &selection, over_budget_links);
        Ok(pooled::Parts {
            policy: self.policy().clone(),
            definition: selection.binding.definition().clone(),
            handler: selection.binding.handler().clone(),
            matched: selection.matched,
            limits: *limits,
            shape,
        })
    }

    /// What shapes a read's result beyond its items: the revision, the
    /// host's result `_meta` members, the declared cache hints of the
    /// registry and the selected binding (none for a retried
    /// input-required read: its result must not be cached), and whether
    /// over-budget items become links.
    fn shape(
        &self,
        frame: &Frame<'_>,
        selection: &Selection<'_>,
        over_budget_links: bool,
    ) -> assemble::Shape {
        let (registry, binding) = if frame.scope().is_retry() {
            Default::default()
        } else {
            let registry = *self.cache_hints();
            let binding = selection
                .binding
                .cache_hints()
                .unwrap_or_else(|| registry.binding_default());
            (registry, binding)
        };
        assemble::Shape {
            over_budget_links,
            protocol_revision: frame.protocol_revision(),
            result_meta: frame.result_meta().cloned(),
            registry,
            binding,
        }
    }
}

/// The inline driver of [`Resources::read_asking`] (see there), for a
/// policy asked per item (`DECIDED` false) or through its plan-level entry.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn read_lent<const DECIDED: bool>(
    policy: &dyn crate::policy::ResourcePolicy,
    definition: &crate::definition::ResourceDefinition,
    handler: &dyn crate::binding::ResourceHandler,
    matched: &crate::plan::ResourceMatch,
    scope: &crate::scope::RequestScope,
    limits: &Limits,
    shape: &assemble::Shape,
) -> Result<ResourceBundle, Failure> {
    // One call context serves every callback in turn (see
    // `CallContext::enter_phase`).
    let mut call = scope.call_in(CallPhase::FirstCheck);
    let mut replay = None;
    let plan = pipeline::plan::<DECIDED>(
        policy,
        handler,
        definition,
        matched,
        scope,
        limits,
        &mut call,
        &mut replay,
    )?;
    // A policy that decides plans has answered the first check already.
    let first = match replay.as_deref() {
        Some(r) if DECIDED => r,
        _ => policy,
    };
    let mut p = Pipeline::authorize(first, &plan, scope, limits, shape, &call)?;
    drop(replay);
    // Borrowed from the plan (a single-item plan has no list of its own).
    let targets = plan.items();
    while let Some(read) = p.next_read(scope, targets, limits, || false)? {
        call.enter_body_read(read.deadline, limits.max_item_bytes);
        let target = &targets[read.index];
        let result = observe::timed(call.recorder(), CallbackKind::BodyRead, || {
            authorize::guarded_input(|| handler.read(&call, target))
        });
        p.settle(read, result, handler, target, scope, limits)?;
    }
    // The frame checks the scope once more.
    p.finish::<DECIDED>(policy, definition, &plan, scope, limits, shape, &mut call)
}

/// [`read_lent`] for a policy that decides plans, out of line: the inline
/// per-item read stays as it was.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn read_lent_decided(
    policy: &dyn crate::policy::ResourcePolicy,
    definition: &crate::definition::ResourceDefinition,
    handler: &dyn crate::binding::ResourceHandler,
    matched: &crate::plan::ResourceMatch,
    scope: &crate::scope::RequestScope,
    limits: &Limits,
    shape: &assemble::Shape,
) -> Result<ResourceBundle, Failure> {
    read_lent::<true>(policy, definition, handler, matched, scope, limits, shape)
}
