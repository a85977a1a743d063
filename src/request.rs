//! One call per request: a method name and the raw JSON-RPC `params` text
//! in, the complete JSON-RPC `result` or `error` object out.
//!
//! [`Resources::request`] serves `resources/read`, `resources/list`,
//! `resources/templates/list` and `completion/complete` for `ref/resource`
//! references (see [`crate::completion`]); any other method, and
//! `completion/complete` for a `ref/prompt`, is
//! [`RequestError::MethodNotHandled`] so that the host routes it elsewhere.
//!
//! Params are parsed strictly ([`RequestParams::parse`]):
//! - absent params (empty or whitespace-only text, or `null`) are an empty
//!   object; anything else must be one JSON object of at most
//!   [`MAX_PARAMS_BYTES`] whose keys are unique;
//! - `resources/read` requires `uri`, a string; the list methods take an
//!   optional `cursor`, a string (absent or empty = the first page);
//! - `_meta`, when present, must be an object; its
//!   `io.modelcontextprotocol/protocolVersion`, when present, must be a
//!   string naming a known revision, and then shapes the response instead
//!   of the host's option (MCP 2026-07-28 carries the revision per request);
//!   an unknown one is an `UnsupportedProtocolVersion` (`-32022`) error
//!   object listing the supported revisions; its `traceparent`,
//!   `tracestate` and `baggage` (OpenTelemetry trace context), when strings
//!   of at most 8 KiB, are handed to every callback as sent
//!   ([`CallContext::trace_context`](crate::CallContext::trace_context)),
//!   replacing the host's [`RequestOptions::trace`]; another value is left
//!   out (W3C asks receivers to ignore what they cannot use), a repeat is
//!   refused;
//! - every other member is ignored, whatever its type: the MCP schemas
//!   leave params open (no `additionalProperties: false`) and define
//!   members this library does not act on (`_meta` keys such as
//!   `progressToken` or `io.modelcontextprotocol/clientCapabilities`,
//!   `inputResponses`, `requestState`). Checking the per-request protocol
//!   fields that 2026-07-28 requires (client capabilities) stays with the
//!   host's transport.
//!
//! Malformed params are `-32602` error objects with a fixed message that
//! never echoes the input.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use crate::completion::{CompleteOptions, CompleteParams, CompleteRef};
use crate::error::{CauseText, Failure, FailureKind};
use crate::executor::Executor;
use crate::jsonrpc;
use crate::listing::ListOptions;
use crate::protocol::ProtocolRevision;
use crate::read::ReadOptions;
use crate::registry::Resources;
use crate::result_meta::ResultMeta;
use crate::scope::{CancelToken, RequestData};
use crate::trace::TraceContext;

/// The largest params text accepted (256 KiB); larger is `-32602`.
///
/// cbindgen:ignore
pub const MAX_PARAMS_BYTES: usize = 256 * 1024;

/// Longest per-request revision string echoed in an
/// `UnsupportedProtocolVersion` error (longer ones are malformed params).
const MAX_ECHOED_REVISION_BYTES: usize = 64;

/// The `_meta` key of the per-request protocol revision.
pub const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// A method [`Resources::request`] serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestMethod {
    /// `resources/read`.
    ResourcesRead,
    /// `resources/list`.
    ResourcesList,
    /// `resources/templates/list`.
    ResourcesTemplatesList,
    /// `completion/complete` (a `ref/resource` reference; a `ref/prompt`
    /// one is not handled).
    CompletionComplete,
}

impl RequestMethod {
    /// The method of an exact method name, or `None` when this library does
    /// not serve it.
    pub fn parse(name: &[u8]) -> Option<RequestMethod> {
        match name {
            b"resources/read" => Some(RequestMethod::ResourcesRead),
            b"resources/list" => Some(RequestMethod::ResourcesList),
            b"resources/templates/list" => Some(RequestMethod::ResourcesTemplatesList),
            b"completion/complete" => Some(RequestMethod::CompletionComplete),
            _ => None,
        }
    }

    /// The method name.
    pub fn as_str(self) -> &'static str {
        match self {
            RequestMethod::ResourcesRead => "resources/read",
            RequestMethod::ResourcesList => "resources/list",
            RequestMethod::ResourcesTemplatesList => "resources/templates/list",
            RequestMethod::CompletionComplete => "completion/complete",
        }
    }
}

/// The members of request params this library acts on (borrowed from the
/// params text when they hold no escape sequence).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestParams<'a> {
    /// `uri` (`resources/read` only; required there).
    pub uri: Option<Cow<'a, str>>,
    /// `cursor` (list methods only).
    pub cursor: Option<Cow<'a, str>>,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]`, as given.
    pub protocol_version: Option<Cow<'a, str>>,
    /// `_meta` `traceparent`, `tracestate` and `baggage`, when strings (as
    /// sent; another value is left out, never refused).
    pub trace: [Option<Cow<'a, str>>; 3],
}

/// The trace context `_meta` keys, in [`RequestParams::trace`] order.
pub const TRACE_META_KEYS: [&str; 3] = ["traceparent", "tracestate", "baggage"];

impl RequestParams<'_> {
    /// The trace context the params carry, if any member was a string.
    pub fn trace_context(&self) -> Option<TraceContext> {
        let [p, s, b] = &self.trace;
        let t = TraceContext::new(p.as_deref(), s.as_deref(), b.as_deref());
        (!t.is_empty()).then_some(t)
    }
}

/// Why params were refused: a fixed, safe message (the `-32602` error
/// object's message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamsError(&'static str);

impl ParamsError {
    /// The safe message.
    pub fn message(&self) -> &'static str {
        self.0
    }
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ParamsError {}

enum Field {
    Uri,
    Cursor,
    Meta,
    ProtocolVersion,
    /// A trace member of `_meta` (its index in [`TRACE_META_KEYS`]).
    Trace(usize),
    Other,
}

struct FieldVisitor {
    in_meta: bool,
    read: bool,
}

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
        Ok(match (self.in_meta, v) {
            (false, "uri") if self.read => Field::Uri,
            (false, "cursor") if !self.read => Field::Cursor,
            (false, "_meta") => Field::Meta,
            (true, PROTOCOL_VERSION_META_KEY) => Field::ProtocolVersion,
            (true, k) => TRACE_META_KEYS
                .iter()
                .position(|t| *t == k)
                .map_or(Field::Other, Field::Trace),
            _ => Field::Other,
        })
    }
}

struct FieldSeed {
    in_meta: bool,
    read: bool,
}

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = Field;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Field, D::Error> {
        d.deserialize_str(FieldVisitor {
            in_meta: self.in_meta,
            read: self.read,
        })
    }
}

/// A string member; any other JSON type is refused with `message`.
struct StringSeed(&'static str);

impl<'de> DeserializeSeed<'de> for StringSeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_any(StringVisitor(self.0))
    }
}

struct StringVisitor(&'static str);

impl<'de> Visitor<'de> for StringVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Cow<'de, str>, A::Error> {
        Err(de::Error::custom(self.0))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Cow<'de, str>, A::Error> {
        Err(de::Error::custom(self.0))
    }
}

/// A trace member: its text when it is a string; any other value is
/// consumed and left out.
struct TraceSeed;

impl<'de> DeserializeSeed<'de> for TraceSeed {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(TraceVisitor)
    }
}

struct TraceVisitor;

impl<'de> Visitor<'de> for TraceVisitor {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a trace member")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(v.to_string())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// The params object (or `_meta` inside it).
struct ObjectVisitor {
    in_meta: bool,
    read: bool,
    not_object: &'static str,
}

impl<'de> Visitor<'de> for ObjectVisitor {
    type Value = RequestParams<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.not_object)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RequestParams<'de>, A::Error> {
        let mut out = RequestParams::default();
        let mut seen_meta = false;
        let mut seen_trace = [false; 3];
        while let Some(field) = map.next_key_seed(FieldSeed {
            in_meta: self.in_meta,
            read: self.read,
        })? {
            match field {
                Field::Uri => {
                    if out.uri.is_some() {
                        return Err(de::Error::custom("params repeat uri"));
                    }
                    out.uri = Some(map.next_value_seed(StringSeed("params uri must be a string"))?);
                }
                Field::Cursor => {
                    if out.cursor.is_some() {
                        return Err(de::Error::custom("params repeat cursor"));
                    }
                    out.cursor =
                        Some(map.next_value_seed(StringSeed("params cursor must be a string"))?);
                }
                Field::Meta => {
                    if seen_meta {
                        return Err(de::Error::custom("params repeat _meta"));
                    }
                    seen_meta = true;
                    let meta = map.next_value_seed(ObjectSeed {
                        in_meta: true,
                        read: self.read,
                        not_object: "params _meta must be an object",
                    })?;
                    out.protocol_version = meta.protocol_version;
                    out.trace = meta.trace;
                }
                Field::ProtocolVersion => {
                    if out.protocol_version.is_some() {
                        return Err(de::Error::custom("params _meta repeat protocolVersion"));
                    }
                    out.protocol_version = Some(map.next_value_seed(StringSeed(
                        "params _meta protocolVersion must be a string",
                    ))?);
                }
                Field::Trace(i) => {
                    if seen_trace[i] {
                        return Err(de::Error::custom("params _meta repeat a trace member"));
                    }
                    seen_trace[i] = true;
                    out.trace[i] = map.next_value_seed(TraceSeed)?;
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<RequestParams<'de>, E> {
        Err(E::custom(self.not_object))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<RequestParams<'de>, E> {
        Err(E::custom(self.not_object))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<RequestParams<'de>, E> {
        Err(E::custom(self.not_object))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<RequestParams<'de>, E> {
        Err(E::custom(self.not_object))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<RequestParams<'de>, E> {
        Err(E::custom(self.not_object))
    }
    fn visit_unit<E: de::Error>(self) -> Result<RequestParams<'de>, E> {
        Err(E::custom(self.not_object))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<RequestParams<'de>, A::Error> {
        Err(de::Error::custom(self.not_object))
    }
}

struct ObjectSeed {
    in_meta: bool,
    read: bool,
    not_object: &'static str,
}

impl<'de> DeserializeSeed<'de> for ObjectSeed {
    type Value = RequestParams<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RequestParams<'de>, D::Error> {
        d.deserialize_any(ObjectVisitor {
            in_meta: self.in_meta,
            read: self.read,
            not_object: self.not_object,
        })
    }
}

/// The fixed messages a serde error may carry (anything else, such as a
/// syntax error, becomes the generic one: serde_json's own texts may quote
/// the input).
const KNOWN_MESSAGES: &[&str] = &[
    "params uri must be a string",
    "params cursor must be a string",
    "params _meta must be an object",
    "params _meta protocolVersion must be a string",
    "params must be an object",
    "params repeat uri",
    "params repeat cursor",
    "params repeat _meta",
    "params _meta repeat protocolVersion",
    "params _meta repeat a trace member",
];

fn safe_message(e: &serde_json::Error) -> &'static str {
    if e.is_syntax() || e.is_eof() || e.is_io() {
        return "params are not valid JSON";
    }
    let text = e.to_string();
    KNOWN_MESSAGES
        .iter()
        .find(|m| text.starts_with(**m))
        .copied()
        .unwrap_or("params are invalid")
}

impl<'a> RequestParams<'a> {
    /// Parses the params text of `method` strictly (see the module
    /// documentation): `uri` is read for `resources/read` only, `cursor`
    /// for the list methods only; the other is ignored like any unknown
    /// member. Does not check that a required member is present: that is
    /// [`Resources::request`]'s job. This is the whole params parser, with
    /// no registry involved (a fuzzing entry point).
    pub fn parse(method: RequestMethod, text: &'a [u8]) -> Result<RequestParams<'a>, ParamsError> {
        if text.len() > MAX_PARAMS_BYTES {
            return Err(ParamsError("params exceed 256 KiB"));
        }
        let trimmed = trim_json_whitespace(text);
        if trimmed.is_empty() || trimmed == b"null" {
            return Ok(RequestParams::default());
        }
        // One UTF-8 check of the whole text lets the parsers skip it per string.
        let trimmed =
            std::str::from_utf8(trimmed).map_err(|_| ParamsError("params are not valid JSON"))?;
        let read = method == RequestMethod::ResourcesRead;
        if let Some(params) = flat_params(trimmed, read) {
            return Ok(params);
        }
        let mut de = serde_json::Deserializer::from_str(trimmed);
        let params = ObjectSeed {
            in_meta: false,
            read,
            not_object: "params must be an object",
        }
        .deserialize(&mut de)
        .map_err(|e| ParamsError(safe_message(&e)))?;
        de.end()
            .map_err(|_| ParamsError("params are not valid JSON"))?;
        Ok(params)
    }
}

/// Whether `b` is JSON whitespace (space, tab, line feed, carriage return).
fn is_json_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// `text` without leading and trailing JSON whitespace.
fn trim_json_whitespace(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|b| !is_json_whitespace(*b))
        .unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|b| !is_json_whitespace(*b))
        .map_or(start, |i| i + 1);
    &text[start..end]
}

/// How deep the fast path follows nested values before leaving the params
/// to serde_json.
const FLAT_MAX_DEPTH: u32 = 16;

/// The fast path of [`RequestParams::parse`] for the usual params: an
/// object whose strings have no escape sequence or control character, with
/// nested objects, arrays, `true`, `false` and `null` (what MCP clients
/// send, `_meta` included). Anything else (an escape, a number, a repeated
/// member that is acted on, a wrong type, nesting deeper than 16, a syntax
/// error) is `None` and goes to the serde_json parser, which decides; a
/// property test holds that whatever this accepts, serde_json parses to the
/// same value.
fn flat_params(text: &str, read: bool) -> Option<RequestParams<'_>> {
    let mut p = Flat {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    let mut out = RequestParams::default();
    let mut seen_meta = false;
    p.object(&mut |p, key| {
        let slot = match key {
            "uri" if read => &mut out.uri,
            "cursor" if !read => &mut out.cursor,
            "_meta" => {
                if seen_meta || p.b.get(p.i) != Some(&b'{') {
                    return None;
                }
                seen_meta = true;
                let version = &mut out.protocol_version;
                let trace = &mut out.trace;
                let mut seen_trace = [false; 3];
                return p.object(&mut |p, key| {
                    if let Some(i) = TRACE_META_KEYS.iter().position(|t| *t == key) {
                        // A repeat goes to serde_json, which refuses it.
                        if std::mem::replace(&mut seen_trace[i], true) {
                            return None;
                        }
                        if p.b.get(p.i) == Some(&b'"') {
                            trace[i] = Some(Cow::Borrowed(p.string()?));
                            return Some(());
                        }
                        return p.skip_value(2);
                    }
                    if key != PROTOCOL_VERSION_META_KEY {
                        return p.skip_value(2);
                    }
                    if version.is_some() {
                        return None;
                    }
                    *version = Some(Cow::Borrowed(p.string()?));
                    Some(())
                });
            }
            _ => return p.skip_value(1),
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(Cow::Borrowed(p.string()?));
        Some(())
    })?;
    (p.i == p.b.len()).then_some(out)
}

/// The index of the first quote, backslash or control character at or
/// after `i`, eight bytes at a time: in each word, the lowest byte the
/// "has a byte below / equal to" masks flag is a true match (their false
/// positives only ever lie above a true one), so its position is exact.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let x = u64::from_le_bytes(w);
        let control = x.wrapping_sub(LO * 0x20) & !x & HI;
        let q = x ^ (LO * u64::from(b'"'));
        let quote = q.wrapping_sub(LO) & !q & HI;
        let s = x ^ (LO * u64::from(b'\\'));
        let slash = s.wrapping_sub(LO) & !s & HI;
        let m = control | quote | slash;
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b[i..]
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map(|p| i + p)
}

/// The fast path's cursor over UTF-8 params text.
struct Flat<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Flat<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && is_json_whitespace(self.b[self.i]) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// A string without escapes or controls (at its opening quote). The
    /// text is UTF-8 and quotes are ASCII, so the slice is on character
    /// boundaries.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let end = string_end(self.b, start)?;
        if self.b[end] != b'"' {
            return None;
        }
        self.i = end + 1;
        Some(&self.text[start..end])
    }

    /// An object (at its opening brace), calling `member` with each key
    /// once the cursor is on the member's value; `member` consumes it.
    fn object(
        &mut self,
        member: &mut dyn FnMut(&mut Flat<'a>, &'a str) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.ws();
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            let key = self.string()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            member(self, key)?;
            self.ws();
            if self.eat(b',').is_some() {
                self.ws();
            } else {
                return self.eat(b'}');
            }
        }
    }

    /// Any value the fast path can check: a string, an object, an array,
    /// `true`, `false` or `null`.
    fn skip_value(&mut self, depth: u32) -> Option<()> {
        if depth > FLAT_MAX_DEPTH {
            return None;
        }
        match self.b.get(self.i)? {
            b'"' => self.string().map(drop),
            b'{' => self.object(&mut |p, _| p.skip_value(depth + 1)),
            b'[' => {
                self.i += 1;
                self.ws();
                if self.eat(b']').is_some() {
                    return Some(());
                }
                loop {
                    self.skip_value(depth + 1)?;
                    self.ws();
                    if self.eat(b',').is_some() {
                        self.ws();
                    } else {
                        return self.eat(b']');
                    }
                }
            }
            _ => {
                for word in [&b"true"[..], b"false", b"null"] {
                    if self.b[self.i..].starts_with(word) {
                        self.i += word.len();
                        return Some(());
                    }
                }
                None
            }
        }
    }
}

/// Per-call options of [`Resources::request`].
#[derive(Clone, Default)]
pub struct RequestOptions {
    /// The negotiated protocol revision (a per-request revision in
    /// `params._meta` takes precedence).
    pub revision: ProtocolRevision,
    /// Opaque caller scope for the list methods (required and non-empty
    /// for them; see [`ListOptions::scope_key`]).
    pub scope_key: Vec<u8>,
    /// Page size of the list methods (0 = `default_page_size`).
    pub page_size: u32,
    /// The caller's deadline, relative to the call's start.
    pub timeout: Option<Duration>,
    /// The caller's cancellation token.
    pub cancel: Option<CancelToken>,
    /// Opaque data handed to every callback.
    pub request_data: Option<RequestData>,
    /// Worker pool running every callback of the call (`None` = inline):
    /// with one the call returns by its deadline whatever a callback does.
    pub executor: Option<Executor>,
    /// The host's result `_meta` members, merged into every result
    /// (docs/BEHAVIOUR.md §14; error objects are not results).
    pub result_meta: Option<ResultMeta>,
    /// The request's trace context, when the host read it itself (the
    /// members in the request's own `params._meta` win).
    pub trace: Option<Arc<TraceContext>>,
}

/// Why [`Resources::request`] made no response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestError {
    /// The method is not one this library serves: route it elsewhere.
    MethodNotHandled,
    /// A host programming error (no response must be sent for it as if it
    /// were the client's fault): an empty scope key for a list method.
    InvalidArgument(&'static str),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::MethodNotHandled => f.write_str("method not handled by this library"),
            RequestError::InvalidArgument(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RequestError {}

/// The response to one request: the JSON-RPC `result` object, or the
/// JSON-RPC `error` object with the failure behind it (whose private cause
/// is for the host's logs).
#[derive(Debug)]
pub struct Response {
    json: String,
    failure: Option<Failure>,
    revision: ProtocolRevision,
    partial: bool,
}

impl Response {
    /// The `result` object (success) or the `error` object (failure), as
    /// compact JSON: put it under `"result"` or `"error"` of the JSON-RPC
    /// response with the request's id.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The JSON, by value.
    pub fn into_json(self) -> String {
        self.json
    }

    /// Whether this is an error object.
    pub fn is_error(&self) -> bool {
        self.failure.is_some()
    }

    /// The failure behind an error object (kind, safe message, private
    /// cause).
    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Whether a read result is a partial bundle.
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// The revision the response is shaped for (the per-request one when
    /// the params named one).
    pub fn revision(&self) -> ProtocolRevision {
        self.revision
    }

    fn error(failure: Failure, json: String, revision: ProtocolRevision) -> Response {
        Response {
            json,
            failure: Some(failure),
            revision,
            partial: false,
        }
    }
}

impl Resources {
    /// Serves one request: `method` is the JSON-RPC method name,
    /// `params` the raw params text (empty when the request had none).
    ///
    /// Returns the response to send (a `result` or an `error` object; see
    /// [`Response`]), [`RequestError::MethodNotHandled`] for a method this
    /// library does not serve (and for `completion/complete` with a
    /// `ref/prompt` reference: prompts are the host's), or
    /// [`RequestError::InvalidArgument`] for a list method called with an
    /// empty scope key (completion needs none).
    ///
    /// A request the client cancelled gets no response at all (MCP): drop a
    /// `canceled` error instead of sending it.
    pub fn request(
        &self,
        method: &[u8],
        params: &[u8],
        options: &RequestOptions,
    ) -> Result<Response, RequestError> {
        let method = RequestMethod::parse(method).ok_or(RequestError::MethodNotHandled)?;
        if method == RequestMethod::CompletionComplete {
            return self.request_completion(params, options);
        }
        if method != RequestMethod::ResourcesRead && options.scope_key.is_empty() {
            return Err(RequestError::InvalidArgument(
                "list scope key must not be empty",
            ));
        }
        let params = match RequestParams::parse(method, params) {
            Ok(p) => p,
            Err(e) => return Ok(params_error(e, options.revision)),
        };
        let revision = match request_revision(params.protocol_version.as_deref(), options.revision)
        {
            Ok(r) => r,
            Err(response) => return Ok(response),
        };
        // The request's own trace members win over the host's.
        let trace = params
            .trace_context()
            .map(Arc::new)
            .or_else(|| options.trace.clone());
        match method {
            RequestMethod::ResourcesRead => {
                let Some(uri) = params.uri else {
                    return Ok(params_error(
                        ParamsError("params uri is required"),
                        revision,
                    ));
                };
                let read = ReadOptions {
                    timeout: options.timeout,
                    cancel: options.cancel.clone(),
                    request_data: options.request_data.clone(),
                    executor: options.executor.clone(),
                    revision,
                    result_meta: options.result_meta.clone(),
                    trace: trace.clone(),
                };
                Ok(match self.read(uri.as_bytes(), &read) {
                    Ok(bundle) => Response {
                        partial: bundle.is_partial(),
                        json: bundle.into_json(),
                        failure: None,
                        revision,
                    },
                    Err(f) => {
                        let json = jsonrpc::error_object(&f, revision, Some(uri.as_ref()));
                        Response::error(f, json, revision)
                    }
                })
            }
            RequestMethod::ResourcesList | RequestMethod::ResourcesTemplatesList => {
                let list = ListOptions {
                    scope_key: options.scope_key.clone(),
                    cursor: params.cursor.map(|c| c.into_owned().into_bytes()),
                    page_size: options.page_size,
                    timeout: options.timeout,
                    cancel: options.cancel.clone(),
                    request_data: options.request_data.clone(),
                    executor: options.executor.clone(),
                    revision,
                    result_meta: options.result_meta.clone(),
                    trace: trace.clone(),
                };
                let page = if method == RequestMethod::ResourcesList {
                    self.list(&list)
                } else {
                    self.list_templates(&list)
                };
                Ok(match page {
                    Ok(page) => Response {
                        json: page.into_json(),
                        failure: None,
                        revision,
                        partial: false,
                    },
                    Err(f) => {
                        let json = jsonrpc::error_object(&f, revision, None);
                        Response::error(f, json, revision)
                    }
                })
            }
            RequestMethod::CompletionComplete => unreachable!("answered above"),
        }
    }

    /// `completion/complete`: its own params (see [`CompleteParams::parse`]);
    /// a `ref/prompt` reference is [`RequestError::MethodNotHandled`].
    fn request_completion(
        &self,
        params: &[u8],
        options: &RequestOptions,
    ) -> Result<Response, RequestError> {
        let (reference, version, trace) = match CompleteParams::parse_request(params) {
            Ok(parsed) => parsed,
            Err(e) => return Ok(params_error(ParamsError(e.message()), options.revision)),
        };
        let CompleteRef::Resource(params) = reference else {
            return Err(RequestError::MethodNotHandled);
        };
        let revision = match request_revision(version.as_deref(), options.revision) {
            Ok(r) => r,
            Err(response) => return Ok(response),
        };
        let complete = CompleteOptions {
            timeout: options.timeout,
            cancel: options.cancel.clone(),
            request_data: options.request_data.clone(),
            executor: options.executor.clone(),
            revision,
            result_meta: options.result_meta.clone(),
            trace: trace.map(Arc::new).or_else(|| options.trace.clone()),
        };
        Ok(match self.complete(&params, &complete) {
            Ok(result) => Response {
                json: result.into_json(),
                failure: None,
                revision,
                partial: false,
            },
            Err(f) => {
                // Not found names the reference the client sent, as a read
                // names its URI.
                let json = jsonrpc::error_object(&f, revision, Some(&params.template));
                Response::error(f, json, revision)
            }
        })
    }
}

/// The revision a response is shaped for: the per-request one in
/// `params._meta` when given, else the host's; an unknown per-request
/// revision is the `UnsupportedProtocolVersion` error response (or a
/// params error when it is too long to echo).
fn request_revision(
    requested: Option<&str>,
    negotiated: ProtocolRevision,
) -> Result<ProtocolRevision, Response> {
    let Some(v) = requested else {
        return Ok(negotiated);
    };
    match ProtocolRevision::parse(v.as_bytes()) {
        Ok(r) if !v.is_empty() => Ok(r),
        _ if v.len() <= MAX_ECHOED_REVISION_BYTES && !v.is_empty() => {
            let failure = Failure::request("unsupported protocol version").caused_by(CauseText(
                "the params name an unknown protocol revision".into(),
            ));
            Err(Response::error(
                failure,
                jsonrpc::unsupported_revision(v),
                negotiated,
            ))
        }
        _ => Err(params_error(
            ParamsError("params _meta protocolVersion is not a protocol revision"),
            negotiated,
        )),
    }
}

fn params_error(e: ParamsError, revision: ProtocolRevision) -> Response {
    let json = jsonrpc::object(jsonrpc::INVALID_PARAMS, e.message(), None);
    let failure = Failure::with_message(FailureKind::InvalidRequest, Cow::Borrowed(e.message()));
    Response::error(failure, json, revision)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses as `resources/read`, and checks that the list methods agree
    /// on everything but `uri`/`cursor`.
    fn parse(s: &str) -> Result<RequestParams<'_>, &'static str> {
        let read = RequestParams::parse(RequestMethod::ResourcesRead, s.as_bytes());
        let list = RequestParams::parse(RequestMethod::ResourcesList, s.as_bytes());
        let list_t = RequestParams::parse(RequestMethod::ResourcesTemplatesList, s.as_bytes());
        assert_eq!(list, list_t);
        if let (Ok(r), Ok(l)) = (&read, &list) {
            assert_eq!(r.protocol_version, l.protocol_version);
            assert!(r.cursor.is_none() && l.uri.is_none());
        }
        read.map_err(|e| e.message())
    }

    fn parse_list(s: &str) -> Result<RequestParams<'_>, &'static str> {
        RequestParams::parse(RequestMethod::ResourcesList, s.as_bytes()).map_err(|e| e.message())
    }

    #[test]
    fn absent_params_are_an_empty_object() {
        for s in ["", "  \n", "null", " null "] {
            assert_eq!(parse(s), Ok(RequestParams::default()), "{s:?}");
        }
    }

    #[test]
    fn known_members_are_read_and_others_ignored() {
        let p = parse(
            r#"{"x":[1,{"y":null}],"uri":"a:\u0062","cursor":"c","_meta":{"progressToken":1,"io.modelcontextprotocol/protocolVersion":"2025-11-25"},"requestState":"s"}"#,
        )
        .unwrap();
        assert_eq!(p.uri.as_deref(), Some("a:b"));
        assert_eq!(p.cursor, None);
        assert_eq!(p.protocol_version.as_deref(), Some("2025-11-25"));
        let p = parse_list(r#"{"uri":7,"cursor":"c"}"#).unwrap();
        assert_eq!((p.uri, p.cursor.as_deref()), (None, Some("c")));
        assert_eq!(
            parse(r#"{"uri":"a:b","cursor":7}"#).unwrap().uri.as_deref(),
            Some("a:b")
        );
    }

    #[test]
    fn malformed_params_have_fixed_messages() {
        let cases = [
            (r#"{"uri":1}"#, "params uri must be a string"),
            (r#"{"uri":null}"#, "params uri must be a string"),
            (r#"{"uri":["a"]}"#, "params uri must be a string"),
            (r#"{"_meta":[]}"#, "params _meta must be an object"),
            (r#"{"_meta":"x"}"#, "params _meta must be an object"),
            (
                r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}"#,
                "params _meta protocolVersion must be a string",
            ),
            (r#"[]"#, "params must be an object"),
            (r#""uri""#, "params must be an object"),
            (r#"42"#, "params must be an object"),
            (r#"{"uri":"a:b","uri":"c:d"}"#, "params repeat uri"),
            (r#"{"_meta":{},"_meta":{}}"#, "params repeat _meta"),
            (r#"{"uri":"a:b""#, "params are not valid JSON"),
            (r#"{"uri":"a:b"} x"#, "params are not valid JSON"),
            (r#"{"uri":"a:b"}{}"#, "params are not valid JSON"),
            ("{\"uri\":\"\\ud800\"}", "params are not valid JSON"),
            ("{'uri':'a:b'}", "params are not valid JSON"),
        ];
        for (s, m) in cases {
            assert_eq!(parse(s), Err(m), "{s}");
        }
        assert_eq!(
            RequestParams::parse(RequestMethod::ResourcesRead, b"{\"uri\":\"\xff\"}")
                .map_err(|e| e.message()),
            Err("params are not valid JSON")
        );
        for (s, m) in [
            (r#"{"cursor":{}}"#, "params cursor must be a string"),
            (r#"{"cursor":true}"#, "params cursor must be a string"),
            (r#"{"cursor":"a","cursor":"a"}"#, "params repeat cursor"),
        ] {
            assert_eq!(parse_list(s), Err(m), "{s}");
        }
    }

    #[test]
    fn huge_and_deep_params_are_refused() {
        let huge = format!(
            r#"{{"uri":"a:b","pad":"{}"}}"#,
            "x".repeat(MAX_PARAMS_BYTES)
        );
        assert_eq!(parse(&huge), Err("params exceed 256 KiB"));
        // Ignored members are skipped without recursion: deep nesting within
        // the size bound neither overflows the stack nor matters.
        let deep = format!(
            "{{\"x\":{}{},\"uri\":\"a:b\"}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(parse(&deep).unwrap().uri.as_deref(), Some("a:b"));
        let deep_uri = format!("{{\"uri\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(parse(&deep_uri), Err("params uri must be a string"));
        let unbalanced = format!("{{\"x\":{}}}", "[".repeat(100_000));
        assert_eq!(parse(&unbalanced), Err("params are not valid JSON"));
    }

    #[test]
    fn usual_params_take_the_flat_path_and_the_rest_serde() {
        for (text, read) in [
            (r#"{"uri":"doc://a"}"#, true),
            (" {\t\"uri\" : \"doc://é\" ,\"x\":\"y\"}\n", true),
            (r#"{"cursor":"abc-_"}"#, false),
            (r#"{}"#, false),
            (r#"{"uri":"ignored","cursor":""}"#, false),
            (
                r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"x":[null,false,{}]},"io.modelcontextprotocol/clientInfo":{"name":"n","version":"1"}}}"#,
                true,
            ),
            (r#"{"_meta":{"uri":"inner"},"x":[[],{}]}"#, true),
            (
                r#"{"uri":"bench://small/item","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0"}}}"#,
                true,
            ),
        ] {
            let flat = flat_params(text.trim(), read).expect(text);
            let method = if read {
                RequestMethod::ResourcesRead
            } else {
                RequestMethod::ResourcesList
            };
            assert_eq!(RequestParams::parse(method, text.as_bytes()), Ok(flat));
        }
        for text in [
            r#"{"uri":"a\u0062"}"#,
            r#"{"uri":"doc://a","_meta":[]}"#,
            r#"{"uri":"doc://a","_meta":{},"_meta":{}}"#,
            r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":1}}"#,
            r#"{"uri":1}"#,
            r#"{"uri":"doc://a","n":1}"#,
            r#"{"uri":"doc://a","x":tru}"#,
            r#"{"uri":"doc://a","x":[1]}"#,
            r#"{"uri":"doc://a","x":[true,]}"#,
            r#"{"uri":"doc://a","uri":"doc://b"}"#,
            r#"{"uri":"doc://a",}"#,
            r#"{"uri":"doc://a"} "#,
            r#"{"uri":"doc://a"}x"#,
            "{\"uri\":\"a\u{1}\"}",
            r#"{"uri" "doc://a"}"#,
            r#"["uri"]"#,
        ] {
            assert_eq!(flat_params(text, true), None, "{text}");
        }
    }

    #[test]
    fn only_json_whitespace_is_trimmed() {
        assert_eq!(
            parse("\u{c}{\"uri\":\"a:b\"}"),
            Err("params are not valid JSON")
        );
        assert_eq!(
            parse(" \t\r\n{\"uri\":\"a:b\"} \n").unwrap().uri.as_deref(),
            Some("a:b")
        );
    }

    fn json_token() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            Just("\"uri\"".to_string()),
            Just("\"cursor\"".to_string()),
            Just("\"_meta\"".to_string()),
            "[a-z_]{0,5}".prop_map(|s| format!("\"{s}\"")),
            "[a-z:/\\\\\"\u{e9}\u{1}\u{7f}]{0,6}".prop_map(|s| format!("\"{s}\"")),
            Just("1".to_string()),
            Just("{}".to_string()),
            Just("null".to_string()),
            Just("true".to_string()),
            Just("[]".to_string()),
            Just("[\"a\",{\"b\":false},[null]]".to_string()),
            Just("{\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\",\"c\":{}}".to_string()),
            Just("{\"io.modelcontextprotocol/protocolVersion\":\"x\",\"io.modelcontextprotocol/protocolVersion\":\"y\"}".to_string()),
            Just("{\"io.modelcontextprotocol/protocolVersion\":7}".to_string()),
            Just("{\"a\":{\"a\":\"b\",\"a\":[]}}".to_string()),
        ]
    }

    proptest::proptest! {
        /// Whatever the flat path accepts, serde_json parses to the same
        /// value (the flat path only ever saves time). Inputs are mostly
        /// well-formed flat objects, some with a random token inserted.
        #[test]
        fn flat_path_agrees_with_serde(
            members in proptest::collection::vec((json_token(), json_token(), "[ \t\n]{0,2}"), 0..5),
            insert in proptest::option::of((0usize..200, proptest::prop_oneof![
                proptest::strategy::Just(",".to_string()),
                proptest::strategy::Just(":".to_string()),
                proptest::strategy::Just("\"".to_string()),
                proptest::strategy::Just("\\".to_string()),
                proptest::strategy::Just("}".to_string()),
                proptest::strategy::Just("{".to_string()),
                proptest::strategy::Just("\u{c}".to_string()),
                proptest::arbitrary::any::<String>(),
            ])),
            read in proptest::arbitrary::any::<bool>(),
        ) {
            let body: Vec<String> = members
                .iter()
                .map(|(k, v, w)| format!("{w}{k}{w}:{w}{v}{w}"))
                .collect();
            let mut text = format!("{{{}}}", body.join(","));
            if let Some((at, token)) = insert {
                let mut at = at.min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.insert_str(at, &token);
            }
            if let Some(flat) = flat_params(&text, read) {
                let method = if read { RequestMethod::ResourcesRead } else { RequestMethod::ResourcesList };
                let mut de = serde_json::Deserializer::from_str(&text);
                let slow = ObjectSeed { in_meta: false, read, not_object: "x" }.deserialize(&mut de);
                proptest::prop_assert!(de.end().is_ok(), "{}", text);
                proptest::prop_assert_eq!(slow.ok(), Some(flat.clone()), "{}", text);
                proptest::prop_assert_eq!(RequestParams::parse(method, text.as_bytes()), Ok(flat));
            }
        }

        /// The word-at-a-time string end agrees with a byte-by-byte search.
        #[test]
        fn string_end_agrees_with_the_naive_search(
            bytes in proptest::collection::vec(proptest::prop_oneof![
                proptest::arbitrary::any::<u8>(),
                proptest::strategy::Just(b'"'),
                proptest::strategy::Just(b'\\'),
                proptest::strategy::Just(0x1f),
                proptest::strategy::Just(0x20),
                proptest::strategy::Just(b'a'),
            ], 0..40),
            from in 0usize..40,
        ) {
            let from = from.min(bytes.len());
            let naive = bytes[from..]
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .map(|p| from + p);
            proptest::prop_assert_eq!(string_end(&bytes, from), naive);
        }

        /// The whole parser never panics, whatever the bytes.
        #[test]
        fn params_parser_never_panics(bytes in proptest::collection::vec(proptest::arbitrary::any::<u8>(), 0..64)) {
            let _ = RequestParams::parse(RequestMethod::ResourcesRead, &bytes);
            let _ = RequestParams::parse(RequestMethod::ResourcesList, &bytes);
        }
    }

    #[test]
    fn methods_parse_exactly() {
        for m in [
            RequestMethod::ResourcesRead,
            RequestMethod::ResourcesList,
            RequestMethod::ResourcesTemplatesList,
            RequestMethod::CompletionComplete,
        ] {
            assert_eq!(RequestMethod::parse(m.as_str().as_bytes()), Some(m));
        }
        for bad in [
            &b"resources/Read"[..],
            b"resources/read ",
            b"completion/Complete",
            b"prompts/get",
            b"",
        ] {
            assert_eq!(RequestMethod::parse(bad), None);
        }
    }
}
