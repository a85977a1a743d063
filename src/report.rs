//! The read report: issue codes, safe issues, the version-one report JSON,
//! the generated warning item, and shrinking the report into its reserved
//! space.
//!
//! Report JSON (key order fixed):
//! `{"version":1,"partial":true,"issues":[{"code":…,"message":…,"retryable":…,"resourceUri":…}],"issuesOmitted":0}`.
//! Messages are fixed templates, one per code; an issue names its URI only
//! when the final visibility decision discloses it and it is at most 256
//! bytes. Private causes and authorization JSON never enter a report.

use rand::RngCore;

use crate::error::{Failure, FailureKind};
use crate::limits::{Limits, MAX_DISCLOSED_URI_BYTES, MAX_META_BYTES};
use crate::plan::{ResourcePayload, RESERVED_META_KEY};
use crate::sizing::{decimal_len, escape_extra, json_str_len, write_json_str, ItemSpans};

/// The fixed issue codes of a partial bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IssueCode {
    /// The item is not available to the caller (denied, revoked, newly
    /// visible after the reads, or the reader said so).
    Unavailable,
    /// The reader failed (or panicked). The only retryable code.
    ReadFailed,
    /// The item's read passed its item deadline.
    Timeout,
    /// The reader returned a malformed payload.
    InvalidContent,
    /// The item did not fit the item, aggregate or item-count budget, or
    /// was not attempted because admission had stopped.
    BudgetExceeded,
}

impl IssueCode {
    /// The wire code.
    pub fn as_str(self) -> &'static str {
        match self {
            IssueCode::Unavailable => "unavailable",
            IssueCode::ReadFailed => "read_failed",
            IssueCode::Timeout => "timeout",
            IssueCode::InvalidContent => "invalid_content",
            IssueCode::BudgetExceeded => "budget_exceeded",
        }
    }

    /// The fixed message template of this code.
    pub fn message(self) -> &'static str {
        match self {
            IssueCode::Unavailable => "The resource item is unavailable.",
            IssueCode::ReadFailed => "The resource item could not be read.",
            IssueCode::Timeout => "The resource item read timed out.",
            IssueCode::InvalidContent => "The resource item content is invalid.",
            IssueCode::BudgetExceeded => "The resource item exceeds the read budget.",
        }
    }

    /// Whether a later retry may succeed (only `read_failed`). The module
    /// never retries by itself.
    pub fn retryable(self) -> bool {
        self == IssueCode::ReadFailed
    }

    /// The whole-read failure kind used when no item survives and this is
    /// the first visible issue.
    pub fn failure_kind(self) -> FailureKind {
        match self {
            IssueCode::Unavailable => FailureKind::Unavailable,
            IssueCode::ReadFailed => FailureKind::ReadFailed,
            IssueCode::Timeout => FailureKind::Timeout,
            IssueCode::InvalidContent => FailureKind::InvalidContent,
            IssueCode::BudgetExceeded => FailureKind::BudgetExceeded,
        }
    }
}

impl std::fmt::Display for IssueCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One safe, bounded issue of a partial bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    code: IssueCode,
    resource_uri: Option<String>,
}

impl Issue {
    /// An issue; `resource_uri` is kept only when `disclose` is set and the
    /// URI is at most 256 bytes (a longer URI is omitted, never truncated
    /// or hashed).
    pub fn new(code: IssueCode, uri: &str, disclose: bool) -> Self {
        Issue {
            code,
            resource_uri: (disclose && uri.len() <= MAX_DISCLOSED_URI_BYTES)
                .then(|| uri.to_string()),
        }
    }

    /// The code.
    pub fn code(&self) -> IssueCode {
        self.code
    }

    /// The fixed message.
    pub fn message(&self) -> &'static str {
        self.code.message()
    }

    /// Whether a retry may succeed (only `read_failed`).
    pub fn retryable(&self) -> bool {
        self.code.retryable()
    }

    /// The item's URI, when disclosed.
    pub fn resource_uri(&self) -> Option<&str> {
        self.resource_uri.as_deref()
    }

    fn json_len(&self) -> usize {
        let mut n = r#"{"code":,"message":,"retryable":}"#.len()
            + json_str_len(self.code.as_str())
            + json_str_len(self.code.message())
            + if self.retryable() { 4 } else { 5 };
        if let Some(u) = &self.resource_uri {
            n += r#","resourceUri":"#.len() + json_str_len(u);
        }
        n
    }

    fn write_json(&self, out: &mut String) {
        out.push_str("{\"code\":");
        write_json_str(out, self.code.as_str());
        out.push_str(",\"message\":");
        write_json_str(out, self.code.message());
        out.push_str(",\"retryable\":");
        out.push_str(if self.retryable() { "true" } else { "false" });
        if let Some(u) = &self.resource_uri {
            out.push_str(",\"resourceUri\":");
            write_json_str(out, u);
        }
        out.push('}');
    }
}

/// A version-one read report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    partial: bool,
    issues: Vec<Issue>,
    issues_omitted: u64,
}

/// The report of a complete read, as JSON.
pub const COMPLETE_REPORT_JSON: &str =
    r#"{"version":1,"partial":false,"issues":[],"issuesOmitted":0}"#;

/// The first line of a warning item's text.
pub const WARNING_TEXT_PREFIX: &str = "Incomplete bundle.\n";

/// The prefix of a generated warning identity.
pub const WARNING_URI_PREFIX: &str = "mcp-warning://read/";

const WARNING_META: &str =
    r#"{"go.phpboyscout.uk/mcp.resourceRead":{"diagnostic":true,"inlineOnly":true}}"#;

impl Report {
    /// The report of a complete read.
    pub fn complete() -> Self {
        Report {
            partial: false,
            issues: Vec::new(),
            issues_omitted: 0,
        }
    }

    /// A partial report with detailed `issues` and `issues_omitted` more.
    pub fn partial(issues: Vec<Issue>, issues_omitted: u64) -> Self {
        Report {
            partial: true,
            issues,
            issues_omitted,
        }
    }

    /// Whether the bundle is partial.
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// The detailed issues.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// The detailed issues, by value.
    pub fn into_issues(self) -> Vec<Issue> {
        self.issues
    }

    /// How many further visible failures / unattempted items are counted
    /// without detail.
    pub fn issues_omitted(&self) -> u64 {
        self.issues_omitted
    }

    /// Bytes of [`json`](Self::json).
    pub fn json_len(&self) -> usize {
        let flag = if self.partial { 4 } else { 5 };
        let issues: usize = self.issues.iter().map(Issue::json_len).sum::<usize>()
            + self.issues.len().saturating_sub(1);
        r#"{"version":1,"partial":,"issues":[],"issuesOmitted":}"#.len()
            + flag
            + issues
            + decimal_len(self.issues_omitted)
    }

    /// The report as compact JSON.
    pub fn json(&self) -> String {
        let mut out = String::with_capacity(self.json_len());
        out.push_str("{\"version\":1,\"partial\":");
        out.push_str(if self.partial { "true" } else { "false" });
        out.push_str(",\"issues\":[");
        for (i, issue) in self.issues.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            issue.write_json(&mut out);
        }
        out.push_str("],\"issuesOmitted\":");
        out.push_str(&self.issues_omitted.to_string());
        out.push('}');
        out
    }

    /// Whether the warning item and this report fit their reserved space:
    /// warning text <= `report_payload_bytes`, warning item + 1 + report <=
    /// `report_encoded_bytes`, and the `_meta` object holding the report
    /// <= 64 KiB.
    pub fn fits(&self, limits: &Limits) -> bool {
        self.fits_with(limits, 0)
    }

    /// [`fits`](Self::fits) in a result `_meta` that also holds
    /// `extra_meta` bytes of the host's members (with their separator).
    pub fn fits_with(&self, limits: &Limits, extra_meta: usize) -> bool {
        let report = self.json();
        let text_bytes = (WARNING_TEXT_PREFIX.len() + report.len()) as u64;
        let encoded = (warning_item_len(&report) + 1 + report.len()) as u64;
        text_bytes <= limits.report_payload_bytes
            && encoded <= limits.report_encoded_bytes
            && result_meta_len(report.len()) + extra_meta <= MAX_META_BYTES
    }

    /// Shrinks a partial report until it fits: detailed issues are dropped
    /// from the end and counted in `issuesOmitted`; the partial flag and the
    /// total count are kept. Fails with kind `size` when even the report
    /// without detailed issues does not fit.
    ///
    /// Linear in the number of issues: sizes are computed from per-issue
    /// lengths and escaping costs instead of re-serialising each candidate.
    pub fn shrink_to_fit(self, limits: &Limits) -> Result<Self, Failure> {
        self.shrink_to_fit_with(limits, 0)
    }

    /// [`shrink_to_fit`](Self::shrink_to_fit) for a result `_meta` that
    /// also holds `extra_meta` bytes of the host's members.
    pub fn shrink_to_fit_with(
        mut self,
        limits: &Limits,
        extra_meta: usize,
    ) -> Result<Self, Failure> {
        let n = self.issues.len();
        // Prefix sums of each issue's JSON length and of the bytes escaping
        // adds when the report is embedded in the warning text.
        let mut sum_len = Vec::with_capacity(n + 1);
        let mut sum_extra = Vec::with_capacity(n + 1);
        sum_len.push(0usize);
        sum_extra.push(0usize);
        let mut buf = String::new();
        for issue in &self.issues {
            buf.clear();
            issue.write_json(&mut buf);
            sum_len.push(sum_len.last().copied().unwrap_or(0) + buf.len());
            sum_extra.push(sum_extra.last().copied().unwrap_or(0) + escape_extra(&buf));
        }
        for k in (0..=n).rev() {
            let omitted = self.issues_omitted + (n - k) as u64;
            let skeleton = Report {
                partial: self.partial,
                issues: Vec::new(),
                issues_omitted: omitted,
            }
            .json();
            let report_len = skeleton.len() + sum_len[k] + k.saturating_sub(1);
            let report_extra = escape_extra(&skeleton) + sum_extra[k];
            let text_bytes = WARNING_TEXT_PREFIX.len() + report_len;
            let text_json = text_bytes + 2 + escape_extra(WARNING_TEXT_PREFIX) + report_extra;
            let warning = WARNING_ITEM_FIXED
                + crate::identity::WARNING_URI_BYTES
                + 2
                + text_json
                + WARNING_META.len();
            let fits = text_bytes as u64 <= limits.report_payload_bytes
                && (warning + 1 + report_len) as u64 <= limits.report_encoded_bytes
                && result_meta_len(report_len) + extra_meta <= MAX_META_BYTES;
            if fits {
                self.issues.truncate(k);
                self.issues_omitted = omitted;
                debug_assert!(self.fits_with(limits, extra_meta));
                return Ok(self);
            }
        }
        Err(
            Failure::new(FailureKind::Size).caused_by(crate::error::CauseText(
                "the minimal read report does not fit".into(),
            )),
        )
    }
}

const WARNING_ITEM_FIXED: usize = r#"{"uri":,"mimeType":"text/plain","text":,"_meta":}"#.len();

/// Bytes of the result `_meta` object `{"<reserved key>":<report>}`.
pub fn result_meta_len(report_len: usize) -> usize {
    RESERVED_META_KEY.len() + 5 + report_len
}

/// A fresh warning identity: the prefix and 128 random bits from the
/// operating system's CSPRNG as 32 lowercase hex characters.
pub fn warning_uri() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let mut uri = String::with_capacity(WARNING_URI_PREFIX.len() + 32);
    uri.push_str(WARNING_URI_PREFIX);
    for b in bytes {
        uri.push(char::from(b"0123456789abcdef"[(b >> 4) as usize]));
        uri.push(char::from(b"0123456789abcdef"[(b & 0xf) as usize]));
    }
    uri
}

/// The warning item's text: the fixed first line and the report JSON.
pub fn warning_text(report_json: &str) -> String {
    let mut t = String::with_capacity(WARNING_TEXT_PREFIX.len() + report_json.len());
    t.push_str(WARNING_TEXT_PREFIX);
    t.push_str(report_json);
    t
}

/// Bytes of the warning item object for a report.
pub fn warning_item_len(report_json: &str) -> usize {
    WARNING_ITEM_FIXED
        + crate::identity::WARNING_URI_BYTES
        + 2
        + json_str_len(&warning_text(report_json))
        + WARNING_META.len()
}

/// Writes the warning item object and returns where its parts are (the
/// same writer as application items, with the fixed warning `_meta` when
/// `marked`: the revision defines content `_meta`). Its reserved space is
/// measured with the marks either way ([`warning_item_len`]).
pub fn write_warning_item(
    out: &mut String,
    uri: &str,
    report_json: &str,
    marked: bool,
) -> ItemSpans {
    let payload = ResourcePayload::text_owned("text/plain", warning_text(report_json))
        .expect("text/plain is a valid media type");
    let meta = marked.then_some(WARNING_META);
    crate::sizing::write_item(out, uri, &payload, meta, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(code: IssueCode, uri: &str, disclose: bool) -> Issue {
        Issue::new(code, uri, disclose)
    }

    #[test]
    fn complete_report_json_is_the_specified_text() {
        assert_eq!(Report::complete().json(), COMPLETE_REPORT_JSON);
        assert_eq!(Report::complete().json_len(), COMPLETE_REPORT_JSON.len());
    }

    #[test]
    fn report_json_length_and_key_order() {
        let r = Report::partial(
            vec![
                issue(IssueCode::ReadFailed, "x://a", true),
                issue(IssueCode::Timeout, "x://b", false),
            ],
            12345,
        );
        let j = r.json();
        assert_eq!(j.len(), r.json_len());
        assert!(j.starts_with(
            r#"{"version":1,"partial":true,"issues":[{"code":"read_failed","message":"#
        ));
        assert!(j.contains(r#""retryable":true,"resourceUri":"x://a"}"#));
        assert!(j.ends_with(r#""retryable":false}],"issuesOmitted":12345}"#));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), j);
    }

    #[test]
    fn only_read_failed_is_retryable() {
        for c in [
            IssueCode::Unavailable,
            IssueCode::Timeout,
            IssueCode::InvalidContent,
            IssueCode::BudgetExceeded,
        ] {
            assert!(!c.retryable());
        }
        assert!(IssueCode::ReadFailed.retryable());
    }

    #[test]
    fn warning_uri_is_51_bytes_of_prefix_and_lowercase_hex_and_fresh() {
        let a = warning_uri();
        let b = warning_uri();
        assert_eq!(a.len(), crate::identity::WARNING_URI_BYTES);
        assert!(a.starts_with(WARNING_URI_PREFIX));
        assert!(a[WARNING_URI_PREFIX.len()..]
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
        assert_ne!(a, b);
    }

    #[test]
    fn warning_item_length_is_exact() {
        let r = Report::partial(vec![issue(IssueCode::Unavailable, "x://q\"", true)], 1);
        let j = r.json();
        let mut out = String::new();
        write_warning_item(&mut out, &warning_uri(), &j, true);
        assert_eq!(out.len(), warning_item_len(&j));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v["text"].as_str().unwrap(),
            format!("Incomplete bundle.\n{j}")
        );
    }

    /// The reference: drop one issue at a time and re-measure everything.
    fn shrink_brute_force(mut r: Report, limits: &Limits) -> Option<Report> {
        loop {
            if r.fits(limits) {
                return Some(r);
            }
            r.issues.pop()?;
            r.issues_omitted += 1;
        }
    }

    #[test]
    fn shrinking_agrees_with_re_measuring_every_candidate() {
        use crate::limits::{Limit, ResourceLimits};
        for (payload, encoded) in [
            (256, 1024),
            (300, 1024),
            (600, 1500),
            (4096, 1024),
            (4096, 16384),
        ] {
            let limits = ResourceLimits::new()
                .with(Limit::ReportPayloadBytes, payload)
                .with(Limit::ReportEncodedBytes, encoded)
                .resolve()
                .unwrap();
            for n in [0usize, 1, 3, 40] {
                let issues: Vec<Issue> = (0..n)
                    .map(|i| {
                        let code = [
                            IssueCode::ReadFailed,
                            IssueCode::Timeout,
                            IssueCode::Unavailable,
                        ][i % 3];
                        Issue::new(
                            code,
                            &format!("x://i/{i}/\u{e9}{}", "z".repeat(i * 7)),
                            i % 2 == 0,
                        )
                    })
                    .collect();
                let r = Report::partial(issues, 9);
                let fast = r.clone().shrink_to_fit(&limits).ok();
                assert_eq!(
                    fast,
                    shrink_brute_force(r, &limits),
                    "{payload}/{encoded}/{n}"
                );
            }
        }
    }

    #[test]
    fn shrinking_drops_issues_from_the_end_and_counts_them() {
        let limits = crate::limits::ResourceLimits::new()
            .with(crate::limits::Limit::ReportPayloadBytes, 300)
            .resolve()
            .unwrap();
        let issues: Vec<Issue> = (0..10)
            .map(|i| issue(IssueCode::ReadFailed, &format!("x://item/{i}"), true))
            .collect();
        let r = Report::partial(issues.clone(), 5)
            .shrink_to_fit(&limits)
            .unwrap();
        assert!(r.is_partial());
        assert!(r.issues().len() < 10);
        assert_eq!(r.issues(), &issues[..r.issues().len()]);
        assert_eq!(r.issues().len() as u64 + r.issues_omitted(), 15);
        assert!(r.fits(&limits));
    }
}
