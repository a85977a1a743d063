//! Assembly (docs/BEHAVIOUR.md §5 step 7, §6 and §7): issues in plan
//! order, whole-read failure when no application item survives a non-empty
//! final visible selection, the report shrunk into its reserved space, the
//! warning item first, admitted items in plan order, the members the
//! protocol revision adds (`resultType`, `ttlMs`, `cacheScope` on
//! 2026-07-28, after `_meta`), the final size check.
//!
//! The envelope (`{"contents":[`, `],"_meta":{…:`, `}}`) and the revision's
//! members together are at most 135 bytes, inside the 256-byte
//! configuration overhead admission holds back, so a result whose items and
//! report were admitted always fits.

use std::borrow::Cow;
use std::ops::Range;

use crate::cache::{CacheHints, RegistryCacheHints, ResultCache};
use crate::error::{BoxError, Failure, FailureKind};
use crate::limits::{Limits, WIRE_RESERVE_BYTES};
use crate::plan::{ResourceTarget, RESERVED_META_KEY};
use crate::protocol::ProtocolRevision;
use crate::report::{
    warning_item_len, warning_uri, write_warning_item, Issue, IssueCode, Report,
    COMPLETE_REPORT_JSON,
};
use crate::result_meta::ResultMeta;
use crate::sizing::{write_item, ItemSpans};

use super::{ItemStates, LinkedItem, Outcome, ResourceBundle};

const CONTENTS_OPEN: &str = "{\"contents\":[";

/// What shapes the result beyond its items: the protocol revision, the
/// host's result `_meta` members, the declared cache hints, and whether
/// over-budget items become links.
#[derive(Clone)]
pub(super) struct Shape {
    pub protocol_revision: ProtocolRevision,
    /// Merged after the report in the result `_meta` (never empty).
    pub result_meta: Option<ResultMeta>,
    pub registry: RegistryCacheHints,
    pub binding: CacheHints,
    /// An embedding asked for it (`crate::tools`): a visible item that would
    /// be a `budget_exceeded` issue is a link instead when the caller may
    /// learn its URI (see [`links_instead`]).
    pub over_budget_links: bool,
}

/// Whether an over-budget item becomes a link instead of an issue: only in
/// an embedding that asked for it, and only when the caller may learn the
/// item's URI: it is the requested target (authorized at the root), or the
/// final visibility decision discloses it (as the report would).
fn links_instead(
    shape: &Shape,
    code: IssueCode,
    item: &ResourceTarget,
    requested: &ResourceTarget,
    disclosed: bool,
) -> bool {
    shape.over_budget_links
        && code == IssueCode::BudgetExceeded
        && (disclosed || item.uri() == requested.uri())
}

/// The result of a read from its final item states: the issues, the
/// whole-read failure when no application item survives a non-empty final
/// visible selection, the report, the cache hints and the JSON.
pub(super) fn assemble(
    requested: &ResourceTarget,
    targets: &[ResourceTarget],
    mut states: ItemStates,
    limits: &Limits,
    shape: &Shape,
) -> Result<ResourceBundle, Failure> {
    let tally = tally(requested, targets, &mut states, limits, shape);
    if tally.admitted == 0 && tally.links.is_empty() && tally.visible > 0 {
        let (code, cause) = tally
            .first_issue
            .expect("a visible item without a survivor has an issue");
        let failure = Failure::new(code.failure_kind());
        return Err(match cause {
            Some(c) => failure.caused_by(c),
            None => failure,
        });
    }
    let partial = tally.total_issues > 0;
    let (report_json, issues, issues_omitted) = if partial {
        let shown = tally.issues.len() as u64;
        let extra = shape.result_meta.as_ref().map_or(0, |m| m.merged_len(true));
        let report = Report::partial(tally.issues, tally.total_issues - shown)
            .shrink_to_fit_with(limits, extra)?;
        let json = report.json();
        let omitted = report.issues_omitted();
        (Cow::Owned(json), report.into_issues(), omitted)
    } else {
        (Cow::Borrowed(COMPLETE_REPORT_JSON), Vec::new(), 0)
    };
    let cache = ResultCache::for_read(
        &shape.registry,
        shape.binding,
        states.iter().filter_map(|s| match &s.outcome {
            Outcome::Admitted(a) if s.final_visibility.visible => {
                Some(match a.payload.cache_hints() {
                    Some(h) => shape.binding.meet(h),
                    None => shape.binding,
                })
            }
            _ => None,
        }),
        tally.filtered,
        partial,
    );
    let written = write_result(
        targets,
        &mut states,
        Sizes {
            items_bytes: tally.items_bytes,
            admitted: tally.admitted,
            partial,
        },
        &report_json,
        cache,
        shape,
    );
    if written.json.len() as u64 > limits.max_encoded_bytes - WIRE_RESERVE_BYTES {
        return Err(
            Failure::new(FailureKind::Size).caused_by(crate::error::CauseText(
                "the assembled read result exceeds max_encoded_bytes - 8192".into(),
            )),
        );
    }
    Ok(ResourceBundle {
        json: written.json,
        partial,
        spans: written.spans,
        issues,
        issues_omitted,
        report: written.report,
        cache,
        protocol_revision: shape.protocol_revision,
        disclosed: false,
        input_required: false,
        asked: None,
        payload_bytes: tally.payload_bytes,
        links: tally.links,
    })
}

/// What the final item states add up to.
struct Tally {
    /// Items in the final visible selection.
    visible: usize,
    /// Any hidden planned item: the selection was filtered by the policy.
    filtered: bool,
    /// The first visible issue's code and cause (the whole-read failure
    /// when nothing survives).
    first_issue: Option<(IssueCode, Option<BoxError>)>,
    /// The detailed issues, at most `max_issues`, in plan order.
    issues: Vec<Issue>,
    total_issues: u64,
    /// Admitted items (they stay in the states, written from there).
    admitted: usize,
    /// Their encoded cost.
    items_bytes: u64,
    /// Their payload bytes (an embedding's accounting).
    payload_bytes: u64,
    /// Over-budget items given as links instead of issues (only when an
    /// embedding asked for them, see [`links_instead`]), in plan order.
    links: Vec<LinkedItem>,
}

/// Counts the final item states: visible, hidden, admitted items and the
/// issues in plan order (an undecided visible item was not attempted), and
/// the over-budget items `shape` turns into links.
#[inline]
fn tally(
    requested: &ResourceTarget,
    targets: &[ResourceTarget],
    states: &mut ItemStates,
    limits: &Limits,
    shape: &Shape,
) -> Tally {
    let mut t = Tally {
        visible: 0,
        filtered: false,
        first_issue: None,
        issues: Vec::new(),
        total_issues: 0,
        admitted: 0,
        items_bytes: 0,
        payload_bytes: 0,
        links: Vec::new(),
    };
    for (target, s) in targets.iter().zip(states.iter_mut()) {
        if !s.final_visibility.visible {
            t.filtered = true;
            continue;
        }
        let (code, cause) = match &mut s.outcome {
            // An asking item the recheck kept makes the read ask before
            // assembly (`pipeline.rs`): none is left here.
            Outcome::Hidden | Outcome::Input(_) => {
                t.filtered = true;
                continue;
            }
            Outcome::Admitted(a) => {
                t.visible += 1;
                t.admitted += 1;
                t.items_bytes += a.cost;
                t.payload_bytes += a.payload.payload_bytes();
                continue;
            }
            Outcome::Issue(code, cause) => (*code, cause),
            // Every visible permitted item is decided by admission; an
            // undecided one was not attempted.
            Outcome::Pending => (IssueCode::BudgetExceeded, &mut None),
        };
        t.visible += 1;
        if links_instead(
            shape,
            code,
            target,
            requested,
            s.final_visibility.disclose_issue_uri,
        ) {
            t.links.push(LinkedItem {
                uri: target.uri().to_owned(),
                requested: target.uri() == requested.uri(),
            });
            continue;
        }
        t.total_issues += 1;
        if t.issues.len() < limits.max_issues {
            t.issues.push(Issue::new(
                code,
                target.uri(),
                s.final_visibility.disclose_issue_uri,
            ));
        }
        if t.first_issue.is_none() {
            t.first_issue = Some((code, cause.take()));
        }
    }
    t
}

/// What the result's size depends on beyond its report.
struct Sizes {
    /// The admitted items' encoded cost.
    items_bytes: u64,
    admitted: usize,
    partial: bool,
}

/// The result JSON and where its parts are.
struct Written {
    json: String,
    spans: Vec<ItemSpans>,
    report: Range<usize>,
}

/// Writes the result: the warning item first when partial, the admitted
/// items in plan order (each payload dropped once written), the report in
/// `_meta` and the host's members after it, and the revision's cache
/// members.
#[inline]
fn write_result(
    targets: &[ResourceTarget],
    states: &mut ItemStates,
    sizes: Sizes,
    report_json: &str,
    cache: ResultCache,
    shape: &Shape,
) -> Written {
    let Sizes {
        items_bytes,
        admitted,
        partial,
    } = sizes;
    let fields = shape.protocol_revision.has_result_fields();
    let capacity = CONTENTS_OPEN.len()
        + items_bytes as usize
        + if partial {
            warning_item_len(report_json) + 1
        } else {
            0
        }
        + RESERVED_META_KEY.len()
        + report_json.len()
        + shape.result_meta.as_ref().map_or(0, |m| m.merged_len(true))
        + if fields { cache.fields_len() } else { 0 }
        + 16;
    let (mut json, mut spans) = super::spare::buffers(capacity, admitted + usize::from(partial));
    json.push_str(CONTENTS_OPEN);
    if partial {
        spans.push(write_warning_item(
            &mut json,
            &warning_uri(),
            report_json,
            shape.protocol_revision.has_item_meta(),
        ));
    }
    for (t, s) in targets.iter().zip(states.iter_mut()) {
        let Outcome::Admitted(a) = &s.outcome else {
            continue;
        };
        if !s.final_visibility.visible {
            continue;
        }
        if !spans.is_empty() {
            json.push(',');
        }
        spans.push(write_item(
            &mut json,
            t.uri(),
            &a.payload,
            a.meta_json.as_deref(),
            a.size.as_ref(),
        ));
        // The payload goes as soon as it is written (a large blob's bytes
        // are not held while later items are written).
        s.outcome = Outcome::Hidden;
    }
    json.push_str("],\"_meta\":{\"");
    json.push_str(RESERVED_META_KEY);
    json.push_str("\":");
    let report_start = json.len();
    json.push_str(report_json);
    let report = report_start..json.len();
    if let Some(m) = &shape.result_meta {
        m.write_merged(&mut json, true);
    }
    json.push('}');
    if fields {
        cache.write_fields(&mut json);
    }
    json.push('}');
    Written {
        json,
        spans,
        report,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::MAX_FIELDS_BYTES;
    use crate::limits::CONFIG_OVERHEAD_BYTES;

    /// Admission holds back the 256-byte configuration overhead; the
    /// envelope and the longest 2026-07-28 members must fit inside it, so
    /// that a result whose items and report were admitted always fits.
    #[test]
    fn envelope_and_revision_members_fit_the_configuration_overhead() {
        let envelope = CONTENTS_OPEN.len()
            + "],\"_meta\":{\"".len()
            + RESERVED_META_KEY.len()
            + "\":".len()
            + "}}".len();
        assert!((envelope + MAX_FIELDS_BYTES) as u64 <= CONFIG_OVERHEAD_BYTES);
    }
}
