//! Registered descriptions: the MCP `Resource` / `ResourceTemplate` object
//! of each binding, parsed, validated and held compactly.
//!
//! Depends on neither plans, policies nor the registry (they depend on it).

use std::borrow::Cow;

use crate::description;
use crate::error::Failure;
use crate::identity::validate_uri_str;
use crate::jsonscan::{self, Kind};
use crate::limits::{MAX_DEFINITION_BYTES, MAX_META_BYTES};
use crate::protocol::ProtocolRevision;
use crate::template::{TemplateLayout, TemplateRef};

/// The reserved metadata key of the module's read report and warning marks
/// (no definition may use it).
pub const RESERVED_META_KEY: &str = "go.phpboyscout.uk/mcp.resourceRead";

/// A registered description: the MCP `Resource` or `ResourceTemplate`
/// object, with exactly one of `uri` / `uriTemplate`.
///
/// Held compactly, because registries hold many: one text allocation holds
/// the compact JSON, and the identifier, name and canonical form are spans
/// of it wherever possible.
#[derive(Debug, Clone)]
pub struct ResourceDefinition {
    /// The compact JSON (keys in the order given), then the decoded text of
    /// an identifier or name that had escape sequences, then the canonical
    /// form when it had to be written out, then the forms listed on
    /// revisions that do not define some of its members (see
    /// `description::form_for`), when it has such members.
    pub(crate) text: Box<str>,
    /// Length of the compact JSON at the start of `text`.
    json_len: u32,
    key: Span,
    name: Span,
    canonical: Canonical,
    /// For a template definition, where the parts of its template (the
    /// `key` span) end: the template is a view of the text, not a copy.
    template: Option<TemplateLayout>,
}

/// A byte range of a definition's `text`.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    fn of(self, text: &str) -> &str {
        &text[self.start as usize..self.end as usize]
    }
}

/// How a definition keeps its canonical form (keys sorted at every depth).
#[derive(Debug, Clone)]
enum Canonical {
    /// The compact JSON is already canonical.
    Same,
    /// Only the top level is out of order: `{`, then the whole
    /// `"key":value` members of the compact JSON in key order, separated
    /// by commas, then `}`; exactly as long as the compact JSON. Each entry
    /// (in key order) is a member's start (low 12 bits) and its position in
    /// document order (high 4 bits): a member ends where the next one in
    /// document order starts, less its comma, or before the closing `}`.
    Reordered {
        members: [u16; REORDERED_MEMBERS],
        len: u8,
    },
    /// Written out in the definition's text.
    Written(Span),
}

/// Top-level members a [`Canonical::Reordered`] holds inline (an MCP
/// description has at most eight standard members).
const REORDERED_MEMBERS: usize = 8;

/// Appends `text` to `out`, returning its span.
fn append(out: &mut String, text: &str) -> Span {
    let start = out.len() as u32;
    out.push_str(text);
    Span {
        start,
        end: out.len() as u32,
    }
}

/// The span of a string member's decoded text: inside its serialised bytes
/// (quotes excluded) when the scanner lent it unchanged from the input (it
/// had no escape sequence, so its JSON bytes are its text), else a copy
/// appended to `out`. Callers pass string members only (anything else
/// gets an empty span).
fn text_span(out: &mut String, member: &jsonscan::Member<'_>) -> Span {
    match &member.value {
        Kind::Str(Cow::Borrowed(_)) => Span {
            start: member.value_bytes.start as u32 + 1,
            end: member.value_bytes.end as u32 - 1,
        },
        Kind::Str(Cow::Owned(decoded)) => append(out, decoded),
        _ => Span { start: 0, end: 0 },
    }
}

/// Compact JSON at most this long keeps a reordered canonical form as
/// [`Canonical::Reordered`] (member starts in 12 bits).
const REORDERED_MAX_JSON: usize = 1 << 12;

/// The top-level members in key order as [`Canonical::Reordered`] entries,
/// for compact JSON of `json_len` bytes (at most [`REORDERED_MAX_JSON`])
/// with at most [`REORDERED_MEMBERS`] members that follow one another with
/// a comma between them.
fn reordered(members: &[jsonscan::Member<'_>], json_len: usize) -> Option<Canonical> {
    if members.len() > REORDERED_MEMBERS || json_len > REORDERED_MAX_JSON {
        return None;
    }
    let mut next = json_len - 1;
    for m in members.iter().rev() {
        if m.bytes.end != next {
            return None;
        }
        next = m.bytes.start.checked_sub(1)?;
    }
    let mut order = [0usize; REORDERED_MEMBERS];
    for (i, slot) in order.iter_mut().enumerate() {
        *slot = i;
    }
    let order = &mut order[..members.len()];
    order.sort_unstable_by(|&a, &b| members[a].key.cmp(&members[b].key));
    let mut entries = [0u16; REORDERED_MEMBERS];
    for (slot, &i) in entries.iter_mut().zip(order.iter()) {
        // Both fit: a start below 2^12, a position below 8.
        *slot = ((i as u16) << 12) | members[i].bytes.start as u16;
    }
    Some(Canonical::Reordered {
        members: entries,
        len: members.len() as u8,
    })
}

fn def_error(message: &'static str) -> Failure {
    Failure::config(message)
}

/// Where the canonical form of a scanned definition is: the compact text
/// itself, its members reordered, or written after the compact text (the
/// first `json_len` bytes of `text`).
fn canonical_of(
    scanned: &jsonscan::Scanned<'_>,
    text: &mut String,
    json_len: usize,
) -> Result<Canonical, Failure> {
    if scanned.is_canonical() {
        return Ok(Canonical::Same);
    }
    let top_only = scanned
        .nested_sorted
        .then(|| reordered(&scanned.members, json_len));
    Ok(match top_only.flatten() {
        Some(reordered) => reordered,
        None => {
            let written = scanned
                .canonical(&text[..json_len])
                .ok_or_else(|| def_error("definition is not valid JSON"))?;
            Canonical::Written(append(text, &written))
        }
    })
}

impl ResourceDefinition {
    /// Parses a definition from its JSON description (at most 64 KiB).
    ///
    /// Requires a JSON object with a string `name` and exactly one of a
    /// string `uri` (a valid identifier) or a string `uriTemplate` (a valid
    /// template); `_meta`, when present, is an object of at most 64 KiB; the
    /// reserved metadata key may appear nowhere; no object may repeat a key;
    /// the standard members follow their rules (docs/BEHAVIOUR.md §1: their
    /// types, no `size` on a template, `annotations` and `icons` checked).
    /// The identifier length is checked against `max_uri_bytes` when the
    /// registry is built.
    pub fn from_json(json: &str) -> Result<Self, Failure> {
        Self::parse(json, true)
    }

    /// [`from_json`](Self::from_json) without the standard members' rules
    /// (their types, `size`, `annotations`, `icons`): only for tests of
    /// code that must stay safe with any description (the link writer's
    /// type checks, `crate::tools`), which the registry no longer admits.
    #[cfg(test)]
    pub(crate) fn from_json_without_member_rules(json: &str) -> Result<Self, Failure> {
        Self::parse(json, false)
    }

    /// The definition of `json`; `member_rules`: whether the standard
    /// members' rules apply (always but in tests).
    fn parse(json: &str, member_rules: bool) -> Result<Self, Failure> {
        if json.len() > MAX_DEFINITION_BYTES {
            return Err(def_error("definition exceeds 64 KiB"));
        }
        let mut text = String::with_capacity(json.len());
        let scanned = jsonscan::scan(json, &mut text, RESERVED_META_KEY)
            .map_err(|e| def_error("definition is not valid JSON").caused_by(e))?;
        let json_len = text.len();
        if scanned.root != Kind::Object {
            return Err(def_error("definition is not a JSON object"));
        }
        if scanned.duplicate_key {
            return Err(def_error("definition repeats an object key"));
        }
        // One pass finds the members that matter (keys are unique by now).
        let (mut name, mut uri, mut uri_template, mut meta) = (None, None, None, None);
        // Whether a standard member other than these (and a string
        // `mimeType`, the common one, checked here) needs its rules.
        let mut others = false;
        for m in &scanned.members {
            match m.key.as_ref() {
                "name" => name = Some(m),
                "uri" => uri = Some(m),
                "uriTemplate" => uri_template = Some(m),
                "_meta" => meta = Some(m),
                "mimeType" if matches!(m.value, Kind::Str(_)) => {}
                _ => others = true,
            }
        }
        let name = match name {
            Some(m) => match &m.value {
                Kind::Str(s) if !s.is_empty() => text_span(&mut text, m),
                _ => return Err(def_error("definition name must be a non-empty string")),
            },
            None => return Err(def_error("definition has no name")),
        };
        let (key, template) = match (uri, uri_template) {
            (Some(_), Some(_)) => return Err(def_error("definition has both uri and uriTemplate")),
            (None, None) => return Err(def_error("definition has neither uri nor uriTemplate")),
            (Some(m), None) => {
                let Kind::Str(uri) = &m.value else {
                    return Err(def_error("definition uri/uriTemplate must be a string"));
                };
                validate_uri_str(uri)
                    .map_err(|e| Failure::config(format!("definition uri is invalid: {e}")))?;
                (text_span(&mut text, m), None)
            }
            (None, Some(m)) => {
                let Kind::Str(t) = &m.value else {
                    return Err(def_error("definition uri/uriTemplate must be a string"));
                };
                let template = TemplateLayout::parse(t)?;
                (text_span(&mut text, m), Some(template))
            }
        };
        if let Some(meta) = meta {
            if meta.value != Kind::Object {
                return Err(def_error("definition _meta must be an object"));
            }
            if meta.value_bytes.len() > MAX_META_BYTES {
                return Err(def_error("definition _meta exceeds 64 KiB"));
            }
        }
        if scanned.has_key {
            return Err(def_error("definition uses the reserved metadata key"));
        }
        // After the reserved key: a description using it is refused for
        // that, whatever else is wrong with it.
        let found = if member_rules && (others || meta.is_some()) {
            description::check(&scanned.members, &text[..json_len], template.is_some())?
        } else {
            description::Found::default()
        };
        if json_len > MAX_DEFINITION_BYTES {
            return Err(def_error("definition exceeds 64 KiB"));
        }
        let canonical = canonical_of(&scanned, &mut text, json_len)?;
        // Last: everything before them ends where they begin (`forms_at`).
        if found.needs_forms() {
            let compact = text[..json_len].to_owned();
            description::write_forms(&mut text, &scanned.members, &compact, found);
        }
        Ok(ResourceDefinition {
            text: text.into_boxed_str(),
            json_len: json_len as u32,
            key,
            name,
            canonical,
            template,
        })
    }

    /// Builds a definition from an already parsed JSON object.
    pub fn from_object(
        object: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Self, Failure> {
        let json = serde_json::to_string(object).expect("a JSON object serialises");
        Self::from_json(&json)
    }

    /// The description as compact JSON (keys in the order given).
    pub fn json(&self) -> &str {
        &self.text[..self.json_len as usize]
    }

    /// The description as listed on `revision`: [`json`](Self::json)
    /// without the members that revision does not define (`icons` before
    /// 2025-11-25; `title`, `_meta` and `annotations.lastModified` before
    /// 2025-06-18), written once at build.
    #[inline]
    pub fn json_for(&self, revision: ProtocolRevision) -> &str {
        if revision.has_icons() {
            return self.json();
        }
        let region = &self.text[self.forms_at()..];
        description::form_for(self.json(), region, revision)
    }

    /// Where the older forms begin in `text`: after the compact JSON, the
    /// decoded identifier and name and the written canonical form,
    /// whichever ends last.
    fn forms_at(&self) -> usize {
        let mut end = self.json_len.max(self.key.end).max(self.name.end);
        if let Canonical::Written(span) = self.canonical {
            end = end.max(span.end);
        }
        end as usize
    }

    /// The description parsed into a JSON object (a fresh copy).
    pub fn to_object(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::from_str(self.json()).expect("stored definitions are JSON objects")
    }

    /// The `uri` or the `uriTemplate`, exactly as registered.
    pub fn uri_or_template(&self) -> &str {
        self.key.of(&self.text)
    }

    /// Whether this is a template definition.
    pub fn is_template(&self) -> bool {
        self.template.is_some()
    }

    /// The parsed template, for template definitions.
    pub fn template(&self) -> Option<TemplateRef<'_>> {
        self.template
            .map(|layout| TemplateRef::new(self.uri_or_template(), layout))
    }

    /// The `name`.
    pub fn name(&self) -> &str {
        self.name.of(&self.text)
    }

    /// A canonical serialisation (object keys sorted at every depth, compact,
    /// escaped as `serde_json` does), used for the registry content hash.
    pub fn canonical_json(&self) -> Cow<'_, str> {
        match self.canonical {
            Canonical::Same => Cow::Borrowed(self.json()),
            Canonical::Written(span) => Cow::Borrowed(span.of(&self.text)),
            Canonical::Reordered { .. } => {
                let mut out = Vec::with_capacity(self.json_len as usize);
                self.write_canonical(&mut out);
                Cow::Owned(String::from_utf8(out).expect("whole members of JSON text"))
            }
        }
    }

    /// Asks the CPU to load the text (a hint).
    pub(crate) fn prefetch_text(&self) {
        crate::prefetch::prefetch(self.text.as_ptr());
    }

    /// Appends the canonical serialisation to `out`.
    pub(crate) fn write_canonical(&self, out: &mut Vec<u8>) {
        match &self.canonical {
            Canonical::Same => out.extend_from_slice(self.json().as_bytes()),
            Canonical::Written(span) => out.extend_from_slice(span.of(&self.text).as_bytes()),
            Canonical::Reordered { members, len } => {
                let json = self.json().as_bytes();
                let members = &members[..usize::from(*len)];
                // Member starts in document order.
                let mut starts = [0usize; REORDERED_MEMBERS];
                for &e in members {
                    starts[usize::from(e >> 12)] = usize::from(e & 0xfff);
                }
                out.push(b'{');
                for (i, &e) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    let at = usize::from(e >> 12);
                    let end = if at + 1 < members.len() {
                        starts[at + 1] - 1
                    } else {
                        json.len() - 1
                    };
                    out.extend_from_slice(&json[starts[at]..end]);
                }
                out.push(b'}');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ResourceDefinition;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_definition_and_its_reference_counts_take_one_96_byte_block() {
        // 72 bytes, 88 with the `Arc` counts: glibc's 96-byte chunk.
        assert_eq!(std::mem::size_of::<ResourceDefinition>(), 72);
    }

    #[test]
    fn members_out_of_order_are_written_in_key_order_whatever_their_lengths() {
        for json in [
            r#"{"uri":"a://x","name":"n"}"#,
            r#"{"uriTemplate":"app1://project/{id}/thumbnail","name":"thumb1","mimeType":"text/plain"}"#,
            r#"{"uri":"a://x","name":"n","mimeType":"m","title":"t","size":12,"description":"d","annotations":{"audience":["user"],"priority":0.5}}"#,
            r#"{"z":[1,{"a":2}],"uri":"a://x","name":"n","a":{}}"#,
        ] {
            let d = ResourceDefinition::from_json(json).expect("valid");
            let value: serde_json::Value = serde_json::from_str(json).expect("JSON");
            let sorted = serde_json::to_string(&value).expect("serialises");
            let expected: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&sorted).expect("object");
            let expected = serde_json::to_string(
                &expected
                    .into_iter()
                    .collect::<std::collections::BTreeMap<_, _>>(),
            )
            .expect("serialises");
            assert_eq!(d.canonical_json(), expected, "{json}");
        }
    }
}
