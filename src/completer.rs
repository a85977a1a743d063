//! The completion callback and what it is given: the completer trait, its
//! request and the sink that applies the completion rules to its values
//! (see [`crate::completion`] for the request flow). Depends on neither
//! the registry nor the read pipeline, which depend on it.

use std::sync::Arc;

use crate::definition::ResourceDefinition;
use crate::error::CallbackError;
use crate::limits::{Limits, PAGE_ENVELOPE_BYTES};
use crate::scope::CallContext;
use crate::sizing::json_str_len;
use crate::template::{CaptureError, TemplateRef};

/// Most values one completion result carries (MCP: "must not exceed 100").
///
/// cbindgen:ignore
pub const MAX_COMPLETION_VALUES: usize = 100;

/// Largest `total` written (2^53 - 1: the largest integer every JSON
/// reader keeps exactly); a larger total is written as this.
///
/// cbindgen:ignore
pub const MAX_COMPLETION_TOTAL: u64 = (1 << 53) - 1;

/// A template binding's completion callback. Optional; may be called
/// concurrently from many requests on any thread.
///
/// It is a metadata-only callback, like `resolve`: it may look at bounded
/// identity metadata to propose values, but must not read bodies or cause
/// application effects. It should honour the call context's cancellation
/// and remaining time.
pub trait ResourceCompleter: Send + Sync {
    /// Proposes values for `request.argument()` starting from
    /// `request.value()`, most relevant first, by calling
    /// [`CompletionSink::add`] (and optionally
    /// [`CompletionSink::set_total`] / [`CompletionSink::set_has_more`]).
    ///
    /// [`CallbackError::Unavailable`] answers like not found; any other
    /// error (or a panic) fails the call with `read_failed`.
    fn complete(
        &self,
        call: &CallContext,
        request: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError>;
}

/// What a completer is asked: the template, the variable, the partial
/// value and the other variables already chosen.
#[derive(Debug, Clone)]
pub struct CompletionRequest {
    pub(crate) definition: Arc<ResourceDefinition>,
    pub(crate) argument: String,
    pub(crate) value: String,
    pub(crate) context: Vec<(String, String)>,
}

impl CompletionRequest {
    /// The template's definition.
    pub fn definition(&self) -> &ResourceDefinition {
        &self.definition
    }

    /// The variable being completed (one of the template's variables).
    pub fn argument(&self) -> &str {
        &self.argument
    }

    /// The partial value typed so far (client text, at most
    /// `max_uri_bytes`, possibly empty; not a path).
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The other variables already chosen, `(name, value)` in template
    /// order: only variables of this template other than
    /// [`argument`](Self::argument), each value non-empty and a valid
    /// capture (exactly as the client sent it).
    pub fn context(&self) -> &[(String, String)] {
        &self.context
    }

    /// The chosen value of variable `name`, if any.
    pub fn context_value(&self, name: &str) -> Option<&str> {
        self.context
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a completion value was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DroppedValue {
    /// It breaks a capture rule: empty, contains `/`, `\` or NUL, or is
    /// `.` or `..`.
    Capture(CaptureError),
    /// A URI holding it, RFC 6570-encoded, would exceed `max_uri_bytes`.
    TooLong,
    /// It holds `%`, `?` or `#`: substituted into the template without
    /// RFC 6570 encoding it would name another value (`%41` is `A`) or end
    /// the path (`?`, `#`), so a client that does not encode could reach
    /// another resource.
    Unencoded,
    /// It holds a control character (C0, DEL, C1), a format character
    /// (bidi embeddings, overrides, isolates and marks, zero-width
    /// characters, soft hyphen, byte order mark, tags, ...: Unicode
    /// category Cf) or a line or paragraph separator: shown to the person
    /// choosing a value, it could disguise what they choose.
    Invisible,
}

impl DroppedValue {
    /// A fixed message.
    pub fn message(&self) -> &'static str {
        match self {
            DroppedValue::Capture(e) => e.message(),
            DroppedValue::TooLong => "completion value cannot fit in max_uri_bytes",
            DroppedValue::Unencoded => {
                "completion value holds %, ? or #, which substitution without encoding changes"
            }
            DroppedValue::Invisible => {
                "completion value holds a control, format or separator character"
            }
        }
    }
}

/// Whether RFC 3986 leaves `b` unencoded in every RFC 6570 expansion
/// (ALPHA, DIGIT, `-`, `.`, `_`, `~`); every other byte becomes `%XX`.
fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// The bytes `value` takes in a URI after RFC 6570 simple expansion of
/// `{var}`: three per byte that is not unreserved (the most any client's
/// encoding takes: the Python SDK encodes every such byte, the TypeScript
/// SDK's `encodeURIComponent` a few less).
pub fn encoded_len(value: &str) -> usize {
    value
        .bytes()
        .map(|b| if unreserved(b) { 1 } else { 3 })
        .sum()
}

/// Whether `c` could disguise a value shown to a person: a control, a
/// format character (category Cf) or a line or paragraph separator.
fn invisible(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    c.is_control()
        || matches!(
            c.general_category(),
            GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
}

/// The rules every completion value, and every context value a client
/// sends, is held to (docs/BEHAVIOUR.md §13, rule 5): the value is a
/// template variable's value as RFC 6570 means it (clients percent-encode
/// it when they substitute it, as the official SDKs do, and the library's
/// capture decoding gives it back unchanged), so it is checked as the
/// capture it becomes, without decoding.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ValueRules {
    /// Longest RFC 6570-encoded value that still fits in a URI of at most
    /// `max_uri_bytes` with the template's literal text and one byte per
    /// other variable.
    max_encoded: usize,
}

impl ValueRules {
    pub(crate) fn new(template: TemplateRef<'_>, limits: &Limits) -> Self {
        // Every other variable needs at least one byte in a URI.
        let floor = template.literal_len() + template.variable_count().saturating_sub(1);
        ValueRules {
            max_encoded: limits.max_uri_bytes.saturating_sub(floor),
        }
    }

    /// Why `value` may not be sent (or accepted as a context value), if
    /// it may not.
    pub(crate) fn check(&self, value: &str) -> Result<(), DroppedValue> {
        if value.is_empty() {
            return Err(DroppedValue::Capture(CaptureError::Empty));
        }
        if value.len() > self.max_encoded || encoded_len(value) > self.max_encoded {
            return Err(DroppedValue::TooLong);
        }
        for c in value.chars() {
            match c {
                '/' => return Err(DroppedValue::Capture(CaptureError::Slash)),
                '\\' => return Err(DroppedValue::Capture(CaptureError::Backslash)),
                '\0' => return Err(DroppedValue::Capture(CaptureError::Nul)),
                '%' | '?' | '#' => return Err(DroppedValue::Unencoded),
                c if c.is_ascii() && !c.is_ascii_control() => {}
                c if invisible(c) => return Err(DroppedValue::Invisible),
                _ => {}
            }
        }
        if value == "." || value == ".." {
            return Err(DroppedValue::Capture(CaptureError::DotSegment));
        }
        Ok(())
    }
}

/// Collects a completer's values, and is the one place that applies the
/// completion rules to them: invalid values are dropped, valid ones are
/// kept in order up to [`MAX_COMPLETION_VALUES`] and the byte budget, and
/// further valid ones are only counted. Memory stays bounded however many
/// values a completer offers.
#[derive(Debug)]
pub struct CompletionSink {
    /// What a value must be to be sent.
    rules: ValueRules,
    /// Bytes left for the values array (each value: its JSON length + 1).
    budget: u64,
    kept: Vec<String>,
    /// Set once a valid value did not fit: later ones are not sent either
    /// (the sent values are a prefix of the completer's valid values).
    full: bool,
    valid: u64,
    dropped: u64,
    total: Option<u64>,
    has_more: bool,
}

impl CompletionSink {
    pub(crate) fn new(template: TemplateRef<'_>, limits: &Limits) -> Self {
        CompletionSink::empty(
            ValueRules::new(template, limits),
            limits.max_page_bytes.saturating_sub(PAGE_ENVELOPE_BYTES),
        )
    }

    /// An empty sink with the same rules (for handing to another owner).
    pub(crate) fn fresh(&self) -> Self {
        CompletionSink::empty(self.rules, self.budget)
    }

    /// An empty sink keeping values that pass `rules`, in at most `budget`
    /// bytes of result.
    fn empty(rules: ValueRules, budget: u64) -> Self {
        CompletionSink {
            rules,
            budget,
            kept: Vec::new(),
            full: false,
            valid: 0,
            dropped: 0,
            total: None,
            has_more: false,
        }
    }

    /// Offers one value. `Ok(true)`: it will be sent; `Ok(false)`: it is
    /// valid but past the 100 values or the byte budget (counted, and
    /// `hasMore` will be true); `Err`: it was dropped and is not counted.
    pub fn add(&mut self, value: &str) -> Result<bool, DroppedValue> {
        if let Err(e) = self.rules.check(value) {
            self.dropped += 1;
            return Err(e);
        }
        self.valid += 1;
        if self.full || self.kept.len() >= MAX_COMPLETION_VALUES {
            self.full = true;
            return Ok(false);
        }
        let cost = json_str_len(value) as u64 + 1;
        if cost > self.budget {
            self.full = true;
            return Ok(false);
        }
        self.budget -= cost;
        self.kept.push(value.to_string());
        Ok(true)
    }

    /// Records a value that is not UTF-8 (dropped; only the C ABI has
    /// such values).
    pub(crate) fn add_invalid(&mut self) {
        self.dropped += 1;
    }

    /// The number of completion options available, as the completer
    /// knows it (may exceed what it adds). Values it added that were
    /// dropped are subtracted from it, and it is never reported below the
    /// number of valid values added.
    pub fn set_total(&mut self, total: u64) {
        self.total = Some(total);
    }

    /// Says that more options exist than the completer added (when it
    /// knows no exact total).
    pub fn set_has_more(&mut self, has_more: bool) {
        self.has_more = has_more;
    }

    /// Values that will be sent so far.
    pub fn kept(&self) -> &[String] {
        &self.kept
    }

    /// The values sent and the truthful `total` and `hasMore`.
    pub(crate) fn finish(self) -> (Vec<String>, Option<u64>, bool) {
        let sent = self.kept.len() as u64;
        let total = self
            .total
            .map(|t| t.saturating_sub(self.dropped).max(self.valid));
        let has_more = self.has_more || self.valid > sent || total.is_some_and(|t| t > sent);
        // A total no larger than what is sent contradicts "more exist":
        // the count is then unknown, so it is left out.
        let total = match total {
            Some(t) if has_more && t <= sent => None,
            t => t,
        };
        (
            self.kept,
            total.map(|t| t.min(MAX_COMPLETION_TOTAL)),
            has_more,
        )
    }
}
