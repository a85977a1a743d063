//! Embedding resources in a tool result: [`Resources::embed`].
//!
//! The embedding is one call in one call frame (`crate::call`: one
//! deadline, one cancellation token, one executor admission for all its
//! URIs, with the read's frame rules). In it, for each URI in order: the
//! URI is read by the read pipeline itself (`Resources::read_in`, the
//! driver [`Resources::read`] runs, under the embedding's share of the
//! budgets, see `budget.rs`), and its items become `resource` content
//! blocks exactly as the read gives them (the warning item with the
//! partial report first when the read is partial); or, in the link form,
//! the pipeline's root step runs alone (`Resources::root_in`: no body is
//! read) and the URI becomes one `resource_link` block built from its
//! registered description. A URI whose read or checks fail gives no block
//! at all, the same for every failure: a hidden, undiscoverable,
//! unregistered or invalid URI cannot be told apart by any byte of the
//! blocks.

use std::ops::Range;

use crate::call::{CallOptions, Frame, FrameRules};
use crate::error::{CauseText, Failure, FailureKind};
use crate::limits::Limits;
use crate::observe::{CallMethod, Observed, ResultSummary, Subject};
use crate::protocol::ProtocolRevision;
use crate::read::{ResourceBundle, READ_RULES};
use crate::registry::Resources;
use crate::result_meta::{self, ResultMeta};

use super::budget::{Budget, WRAPPER_BYTES};
use super::link::{write_item_link, write_link};
use super::result::tool_result_with_meta;

/// The message of a link-form embedding for a revision before 2025-06-18
/// (which has no `resource_link` block): a host mistake.
pub(crate) const NO_LINKS_BEFORE_2025_06_18: &str =
    "the link form needs protocol revision 2025-06-18 or later (resource_link blocks)";

/// The frame rules of an embedding: a read's, its calls counted and
/// observed as `embed` (docs/BEHAVIOUR.md §19).
const EMBED_RULES: FrameRules = FrameRules {
    method: CallMethod::Embed,
    ..READ_RULES
};

/// The frame rules of the `read_resource` tool: a read's, its calls
/// counted and observed as `tools/call`.
pub(crate) const TOOL_READ_RULES: FrameRules = FrameRules {
    method: CallMethod::ToolsCall,
    ..READ_RULES
};

/// Which content blocks an embedding makes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EmbedForm {
    /// Embedded `resource` blocks: the items a read of each URI gives.
    #[default]
    Resource,
    /// One `resource_link` block per URI the caller may read, built from
    /// its registered description; nothing is read.
    Link,
}

/// Per-call options of [`Resources::embed`].
#[derive(Clone, Default)]
pub struct EmbedOptions {
    /// The options every call takes, for the whole embedding: one deadline
    /// (`timeout`, else `read_timeout`, bounds all its URIs together), the
    /// cancellation token, the request data handed to every callback, the
    /// executor (as for a read: the embedding then returns by its deadline
    /// whatever any callback does) and the protocol revision the blocks are
    /// written for.
    pub call: CallOptions,
    /// Embedded resources or links.
    pub form: EmbedForm,
    /// In the resource form: a visible item that would be a
    /// `budget_exceeded` issue becomes a `resource_link` block instead when
    /// the caller may learn its URI (it is the requested target, or its
    /// final visibility discloses it), and a URI left no budget at all
    /// becomes a link when its root checks pass.
    pub over_budget_links: bool,
}

/// What became of one URI of an embedding (for the host; the client sees
/// only the blocks).
#[derive(Debug)]
pub enum EmbedOutcome {
    /// Read: `blocks` blocks, the warning first when `partial`, then the
    /// admitted items, then `links` links for over-budget items.
    Read {
        /// Blocks made for this URI.
        blocks: usize,
        /// Whether the read was partial (its first block is the warning).
        partial: bool,
        /// How many of its blocks are links for over-budget items.
        links: usize,
    },
    /// One `resource_link` block (the link form, or an over-budget URI).
    Linked,
    /// No block. The failure of the read or of its root checks: not found
    /// and root denial are `unavailable`, an invalid URI `invalid_request`,
    /// a URI left no budget `budget_exceeded`, and so on; its private cause
    /// is for the host's logs.
    Failed(Failure),
}

/// The content blocks of an embedding and what became of each URI.
#[derive(Debug)]
pub struct Embedding {
    /// `[block,block,…]`.
    blocks: String,
    spans: Vec<Range<usize>>,
    /// `[item,item,…]`: the items again, when the caller asked for them
    /// (the structured content of the `read_resource` tool).
    contents: Option<String>,
    outcomes: Vec<EmbedOutcome>,
    protocol_revision: ProtocolRevision,
    /// Whether every URI read so far disclosed its URI (the disclosure
    /// rule of a read; the `read_resource` tool's call event names its URI
    /// only then).
    disclosed: bool,
    /// The host's result `_meta` members, for the whole tool result (its
    /// bytes are charged to the embedding's budget once).
    result_meta: Option<ResultMeta>,
}

impl Embedding {
    /// The content blocks as one JSON array, in URI order.
    pub fn blocks_json(&self) -> &str {
        &self.blocks
    }

    /// How many blocks there are.
    pub fn block_count(&self) -> usize {
        self.spans.len()
    }

    /// Each block's JSON object, in order (to place among the tool's own
    /// content blocks).
    pub fn blocks(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.spans.iter().map(|s| &self.blocks[s.clone()])
    }

    /// What became of each URI, in the order given.
    pub fn outcomes(&self) -> &[EmbedOutcome] {
        &self.outcomes
    }

    /// The protocol revision the blocks are written for.
    pub fn protocol_revision(&self) -> ProtocolRevision {
        self.protocol_revision
    }

    /// A whole `CallToolResult` holding the blocks as its `content` (with
    /// the host's result `_meta` members of the call, when given, as its
    /// `_meta`, and `resultType` on 2026-07-28).
    pub fn call_tool_result(&self) -> String {
        tool_result_with_meta(
            self.protocol_revision,
            &self.blocks,
            None,
            false,
            self.result_meta.as_ref(),
        )
    }

    /// The outcome of the last URI, taken out (the tools' one URI).
    pub(crate) fn take_outcome(&mut self) -> Option<EmbedOutcome> {
        self.outcomes.pop()
    }

    /// The read items again, as a JSON array (when asked for).
    pub(crate) fn contents_json(&self) -> Option<&str> {
        self.contents.as_deref()
    }
}

impl Observed for Embedding {
    /// The blocks, as the tool result's `content` holds them; partial when
    /// some URI gave no block or a partial read.
    fn summary(&self) -> ResultSummary {
        ResultSummary {
            items: self.spans.len() as u64,
            bytes: self.blocks.len() as u64,
            partial: self.is_partial(),
            ..ResultSummary::default()
        }
    }

    fn discloses_subject(&self) -> bool {
        self.disclosed
    }

    fn is_partial(&self) -> bool {
        self.outcomes.iter().any(|o| {
            matches!(
                o,
                EmbedOutcome::Failed(_) | EmbedOutcome::Read { partial: true, .. }
            )
        })
    }
}

impl Resources {
    /// Embeds resources in a tool result: for each URI, in order, the
    /// `resource` blocks a read gives (or one `resource_link` block in
    /// [`EmbedForm::Link`]), under the read pipeline's rules for the
    /// caller: discovery, visibility, read permission, the recheck, the
    /// budgets (shared by all the URIs, as one read's), the deadline (one
    /// for the whole embedding) and the partial report (each partial read's
    /// warning block).
    ///
    /// A URI whose read fails gives no block (its failure is in
    /// [`Embedding::outcomes`]), whatever the failure: hidden, undiscoverable,
    /// unregistered and invalid URIs look the same in every byte of the
    /// blocks. The embedding is one call, in one call frame (the read's
    /// frame rules): the whole embedding fails only when it is cancelled
    /// (`canceled`), passes its deadline (`deadline_exceeded`), finds its
    /// executor saturated at its start (`read_failed`, as a read does), is
    /// given more URIs than `max_plan_targets` (`invalid_request`), or its
    /// blocks exceed `max_encoded_bytes` minus the wire reserve (`size`).
    pub fn embed<U: AsRef<[u8]>>(
        &self,
        uris: &[U],
        options: &EmbedOptions,
    ) -> Result<Embedding, Failure> {
        self.embed_copies(uris, options, 1)
    }

    /// [`embed`](Self::embed), writing the items `copies` times (2: also as
    /// the structured content's array, for `read_resource`).
    pub(crate) fn embed_copies<U: AsRef<[u8]>>(
        &self,
        uris: &[U],
        options: &EmbedOptions,
        copies: u64,
    ) -> Result<Embedding, Failure> {
        self.embed_framed(uris, options, copies, &EMBED_RULES, Subject::None)
    }

    /// The `read_resource` tool's read of `uri`: its embedding (the items
    /// twice) in a frame observed as `tools/call` about `uri`; the URI's
    /// failure is the call's.
    pub(crate) fn embed_for_tool(
        &self,
        uri: &[u8],
        options: &EmbedOptions,
    ) -> Result<Embedding, Failure> {
        self.embed_framed(&[uri], options, 2, &TOOL_READ_RULES, Subject::Uri(uri))
    }

    /// An embedding in a frame of `rules` about `subject` (its refusals
    /// before the frame observed too). For the tool (`subject` a URI), the
    /// one URI's failure is the call's: as the tool answers it (an invalid
    /// URI as one it cannot find, see [`as_not_found`]) in the call event,
    /// as it was for the caller.
    fn embed_framed<U: AsRef<[u8]>>(
        &self,
        uris: &[U],
        options: &EmbedOptions,
        copies: u64,
        rules: &'static FrameRules,
        subject: Subject<'_>,
    ) -> Result<Embedding, Failure> {
        let limits = self.limits();
        let links = options.call.protocol_revision.has_tool_output();
        let refused = if uris.len() > limits.max_plan_targets {
            Some(Failure::request("too many URIs to embed"))
        } else if options.form == EmbedForm::Link && !links {
            Some(Failure::with_message(
                FailureKind::InvalidArgument,
                NO_LINKS_BEFORE_2025_06_18,
            ))
        } else {
            None
        };
        if let Some(f) = refused {
            let ended = options.call.refused(rules.method);
            self.telemetry().unframed(ended, &f);
            return Err(f);
        }
        // Before 2025-06-18 there is no resource_link block: over-budget
        // items stay budget_exceeded issues.
        let options = &EmbedOptions {
            over_budget_links: options.over_budget_links && links,
            ..options.clone()
        };
        // The host's result `_meta` is the tool result's, once: the reads of
        // the URIs run without it (their result `_meta` is not sent).
        let mut call = options.call.clone();
        let meta = call.result_meta.take();
        let tool = matches!(subject, Subject::Uri(_));
        let mut failed = None;
        let out = call.frame(self, rules, subject, |frame| {
            let mut embedding = self.embed_in(frame, uris, options, copies, meta)?;
            if !tool {
                return Ok(embedding);
            }
            // As the frame would, before the URI's failure is the call's.
            frame.scope().check()?;
            match embedding.outcomes.pop() {
                Some(EmbedOutcome::Failed(f)) => match as_not_found(&f) {
                    Some(seen) => {
                        failed = Some(f);
                        Err(seen)
                    }
                    None => Err(f),
                },
                Some(o) => {
                    embedding.outcomes.push(o);
                    Ok(embedding)
                }
                None => Ok(embedding),
            }
        });
        match failed {
            Some(f) => Err(f),
            None => out,
        }
    }

    /// The embedding in its call frame: each URI in turn (the frame checked
    /// the scope before the first and checks it after the last).
    fn embed_in<U: AsRef<[u8]>>(
        &self,
        frame: &Frame<'_>,
        uris: &[U],
        options: &EmbedOptions,
        copies: u64,
        result_meta: Option<ResultMeta>,
    ) -> Result<Embedding, Failure> {
        let limits = self.limits();
        let meta_len = result_meta::member_len(result_meta.as_ref()) as u64;
        let mut run = Run {
            out: Embedding {
                blocks: String::from("["),
                spans: Vec::new(),
                contents: (copies > 1).then(|| String::from("[")),
                outcomes: Vec::with_capacity(uris.len()),
                protocol_revision: frame.protocol_revision(),
                disclosed: true,
                result_meta,
            },
            budget: Budget::new(limits, copies),
            meta_len,
        };
        run.budget.charge(0, 0, meta_len);
        for (i, uri) in uris.iter().enumerate() {
            if i > 0 {
                frame.scope().check()?;
            }
            let uri = uri.as_ref();
            let outcome = match options.form {
                EmbedForm::Link => self.link_uri(frame, &mut run, uri),
                EmbedForm::Resource => match run.budget.limits_for(limits) {
                    Some(share) => self.read_uri(frame, &mut run, uri, &share, options),
                    None if options.over_budget_links => self.link_uri(frame, &mut run, uri),
                    None => Err(Failure::new(FailureKind::BudgetExceeded)
                        .caused_by(CauseText("the embedding's budget is used up".into()))),
                },
            };
            match outcome {
                Err(f)
                    if matches!(
                        f.kind(),
                        FailureKind::Canceled | FailureKind::DeadlineExceeded
                    ) =>
                {
                    return Err(f)
                }
                Err(f) => run.out.outcomes.push(EmbedOutcome::Failed(f)),
                Ok(o) => run.out.outcomes.push(o),
            }
            if i == 0 {
                run.reserve_for(uris.len() - 1, limits);
            }
        }
        run.finish(limits)
    }

    /// The link form of one URI: its root checks, then its link.
    fn link_uri(
        &self,
        frame: &Frame<'_>,
        run: &mut Run,
        uri: &[u8],
    ) -> Result<EmbedOutcome, Failure> {
        let definition = self.root_in(frame, uri)?;
        // Always UTF-8 here: the URI passed validation.
        let uri = std::str::from_utf8(uri)
            .map_err(|_| Failure::request("resource URI is not valid UTF-8"))?;
        let start = run.begin_block();
        write_link(&mut run.out.blocks, uri, &definition);
        let used = run.end_block(start);
        run.budget.charge(0, 0, used);
        Ok(EmbedOutcome::Linked)
    }

    /// The resource form of one URI: its read under `share`, its items as
    /// blocks, its linked items as links.
    fn read_uri(
        &self,
        frame: &Frame<'_>,
        run: &mut Run,
        uri: &[u8],
        share: &Limits,
        options: &EmbedOptions,
    ) -> Result<EmbedOutcome, Failure> {
        let bundle = self.read_in(frame, uri, share, options.over_budget_links)?;
        run.out.disclosed &= bundle.discloses_subject();
        let before = run.used();
        run.push_items(&bundle);
        let mut links = 0;
        for item in bundle.links() {
            let start = run.begin_block();
            if item.requested {
                // The read selected this binding moments ago; the registry
                // is immutable, so it selects the same one again.
                match self.select(uri) {
                    Ok(s) => write_link(&mut run.out.blocks, &item.uri, s.binding.definition()),
                    Err(_) => write_item_link(&mut run.out.blocks, &item.uri),
                }
            } else {
                write_item_link(&mut run.out.blocks, &item.uri);
            }
            run.end_block(start);
            links += 1;
        }
        let used = run.used() - before;
        let items = bundle.item_count() - usize::from(bundle.is_partial());
        run.budget.charge(bundle.payload_bytes(), items, used);
        Ok(EmbedOutcome::Read {
            blocks: bundle.item_count() + links,
            partial: bundle.is_partial(),
            links,
        })
    }
}

/// The failure a `read_resource` call event shows for the URI's failure
/// `f`: the tool answers an invalid URI exactly as one it cannot find
/// (`NOT_FOUND_TEXT`), so its event does too (`unavailable`, the original
/// kind and cause only in the private cause); `None`: any other failure
/// shows as it is.
fn as_not_found(f: &Failure) -> Option<Failure> {
    (f.kind() == FailureKind::InvalidRequest).then(|| {
        Failure::new(FailureKind::Unavailable).caused_by(CauseText(format!(
            "invalid_request: {}: {}",
            f.message(),
            f.cause_text()
        )))
    })
}

/// An embedding being made.
struct Run {
    out: Embedding,
    budget: Budget,
    /// What the host's result `_meta` adds to the tool result.
    meta_len: u64,
}

impl Run {
    /// Bytes written so far (blocks and the copy of the items).
    fn used(&self) -> u64 {
        (self.out.blocks.len() + self.out.contents.as_ref().map_or(0, String::len)) as u64
    }

    /// Starts a block: the separator, and where the block begins.
    fn begin_block(&mut self) -> usize {
        if !self.out.spans.is_empty() {
            self.out.blocks.push(',');
        }
        self.out.blocks.len()
    }

    /// Ends the block begun at `start`; returns the bytes it took.
    fn end_block(&mut self, start: usize) -> u64 {
        self.out.spans.push(start..self.out.blocks.len());
        (self.out.blocks.len() - start + 1) as u64
    }

    /// The bundle's items, in wire order, as `resource` blocks (and again
    /// as the copy of the items, when one is made).
    fn push_items(&mut self, bundle: &ResourceBundle) {
        self.out
            .blocks
            .reserve(bundle.json().len() + bundle.item_count() * WRAPPER_BYTES as usize);
        for item in bundle.items() {
            let start = self.begin_block();
            self.out
                .blocks
                .push_str("{\"type\":\"resource\",\"resource\":");
            self.out.blocks.push_str(item.json());
            self.out.blocks.push('}');
            self.end_block(start);
            if let Some(contents) = &mut self.out.contents {
                if contents.len() > 1 {
                    contents.push(',');
                }
                contents.push_str(item.json());
            }
        }
    }

    /// After the first of `uris + 1` URIs: its blocks estimate the others'
    /// (one growth of the buffer instead of one per URI), within the
    /// budget.
    fn reserve_for(&mut self, uris: usize, limits: &Limits) {
        let per_uri = self.out.blocks.len();
        let room = Budget::total_encoded(limits) as usize;
        self.out
            .blocks
            .reserve(per_uri.saturating_mul(uris).min(room));
        let spans = self.out.spans.len().saturating_mul(uris);
        self.out.spans.reserve(spans.min(limits.max_items));
    }

    /// Closes the arrays and checks the final size.
    fn finish(mut self, limits: &Limits) -> Result<Embedding, Failure> {
        self.out.blocks.push(']');
        if let Some(c) = &mut self.out.contents {
            c.push(']');
        }
        if self.used() + self.meta_len > Budget::total_encoded(limits) {
            return Err(Failure::new(FailureKind::Size).caused_by(CauseText(
                "the embedded blocks exceed max_encoded_bytes - 8192 - 256".into(),
            )));
        }
        Ok(self.out)
    }
}
