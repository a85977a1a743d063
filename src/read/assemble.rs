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
use crate::sizing::write_item;

use super::{ItemStates, Outcome, ResourceBundle};

const CONTENTS_OPEN: &str = "{\"contents\":[";

/// What shapes the result beyond its items: the protocol revision, the
/// host's result `_meta` members and the declared cache hints.
#[derive(Clone)]
pub(super) struct Shape {
    pub revision: ProtocolRevision,
    /// Merged after the report in the result `_meta` (never empty).
    pub result_meta: Option<ResultMeta>,
    pub registry: RegistryCacheHints,
    pub binding: CacheHints,
}

pub(super) fn assemble(
    targets: &[ResourceTarget],
    mut states: ItemStates,
    limits: &Limits,
    shape: &Shape,
) -> Result<ResourceBundle, Failure> {
    let mut visible = 0usize;
    // Any hidden planned item: the selection was filtered by the policy.
    let mut filtered = false;
    let mut first_issue: Option<(IssueCode, Option<BoxError>)> = None;
    let mut issues: Vec<Issue> = Vec::new();
    let mut total_issues: u64 = 0;
    // Admitted items stay in `states` (no copy into another list) and are
    // written from there below.
    let mut admitted = 0usize;
    let mut items_bytes: u64 = 0;
    for (t, s) in targets.iter().zip(states.iter_mut()) {
        if !s.final_visibility.visible {
            filtered = true;
            continue;
        }
        let (code, cause) = match &mut s.outcome {
            Outcome::Hidden => {
                filtered = true;
                continue;
            }
            Outcome::Admitted(a) => {
                visible += 1;
                admitted += 1;
                items_bytes += a.cost;
                continue;
            }
            Outcome::Issue(code, cause) => (*code, cause),
            // Every visible permitted item is decided by admission; an
            // undecided one was not attempted.
            Outcome::Pending => (IssueCode::BudgetExceeded, &mut None),
        };
        visible += 1;
        total_issues += 1;
        if issues.len() < limits.max_issues {
            issues.push(Issue::new(
                code,
                t.uri(),
                s.final_visibility.disclose_issue_uri,
            ));
        }
        if first_issue.is_none() {
            first_issue = Some((code, cause.take()));
        }
    }

    if admitted == 0 && visible > 0 {
        let (code, cause) = first_issue.expect("a visible item without a survivor has an issue");
        let failure = Failure::new(code.failure_kind());
        return Err(match cause {
            Some(c) => failure.caused_by(c),
            None => failure,
        });
    }

    let partial = total_issues > 0;
    let (report_json, issues, issues_omitted) = if partial {
        let shown = issues.len() as u64;
        let extra = shape.result_meta.as_ref().map_or(0, |m| m.merged_len(true));
        let report =
            Report::partial(issues, total_issues - shown).shrink_to_fit_with(limits, extra)?;
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
        filtered,
        partial,
    );
    let fields = shape.revision.has_result_fields();

    let capacity = CONTENTS_OPEN.len()
        + items_bytes as usize
        + if partial {
            warning_item_len(&report_json) + 1
        } else {
            0
        }
        + RESERVED_META_KEY.len()
        + report_json.len()
        + shape.result_meta.as_ref().map_or(0, |m| m.merged_len(true))
        + if fields { cache.fields_len() } else { 0 }
        + 16;
    let mut json = super::spare::buffer(capacity);
    let mut spans = Vec::with_capacity(admitted + usize::from(partial));
    json.push_str(CONTENTS_OPEN);
    if partial {
        spans.push(write_warning_item(
            &mut json,
            &warning_uri(),
            &report_json,
            shape.revision.has_item_meta(),
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
    json.push_str(&report_json);
    let report_span = report_start..json.len();
    if let Some(m) = &shape.result_meta {
        m.write_merged(&mut json, true);
    }
    json.push('}');
    if fields {
        cache.write_fields(&mut json);
    }
    json.push('}');

    if json.len() as u64 > limits.max_encoded_bytes - WIRE_RESERVE_BYTES {
        return Err(
            Failure::new(FailureKind::Size).caused_by(crate::error::CauseText(
                "the assembled read result exceeds max_encoded_bytes - 8192".into(),
            )),
        );
    }
    Ok(ResourceBundle {
        json,
        partial,
        spans,
        issues,
        issues_omitted,
        report: report_span,
        cache,
        revision: shape.revision,
    })
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
