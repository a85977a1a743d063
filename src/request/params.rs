//! One strict params reader for every method (docs/BEHAVIOUR.md §11 and
//! §13 rule 9): each method names the members it acts on in a [`Spec`]
//! (strings, objects of named members, an object of strings, the open
//! object of a tool's arguments), and [`read`]
//! reads exactly those, the same way for every method:
//!
//! - absent params (empty or whitespace-only text, or `null`) are an empty
//!   object; anything else must be one JSON object of at most
//!   [`MAX_PARAMS_BYTES`], valid UTF-8 throughout (ignored members
//!   included);
//! - a member the method acts on must have its type (`null` is no string
//!   and no object) and may not repeat; an object of strings may not repeat
//!   a key (found in linear time, whatever the number of keys); a lenient
//!   string (the trace context members of `_meta`) is kept when it is a
//!   string and left out otherwise, never refused, but may not repeat;
//! - every other member is ignored, whatever its type: the MCP schemas
//!   leave params open;
//! - errors are fixed messages that never echo the input.
//!
//! Usual params (strings without escapes, nested objects, arrays, `true`,
//! `false`, `null`) take a fast path; anything else goes to `serde_json`,
//! which decides. A property test holds that whatever the fast path
//! accepts, `serde_json` reads the same, and the `request_params` fuzz
//! target holds the reader to `serde_json` for every method.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

pub(crate) use args::Arg;

/// The largest params text accepted (256 KiB); larger is `-32602`.
///
/// cbindgen:ignore
pub const MAX_PARAMS_BYTES: usize = 256 * 1024;

/// The `_meta` key of the per-request protocol revision.
pub const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The `_meta` key of the per-request client capabilities.
pub const CLIENT_CAPABILITIES_META_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// Where a string member's value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Uri,
    Cursor,
    ProtocolVersion,
    RefType,
    RefUri,
    ArgumentName,
    ArgumentValue,
    ToolName,
    /// `resources/read` `requestState` (docs/BEHAVIOUR.md §18).
    RequestState,
    /// `resources/read` `inputResponses`: the raw JSON text of an object.
    InputResponses,
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]`: the raw JSON
    /// text of an object.
    ClientCapabilities,
    /// The trace context members of `_meta`, in [`TRACE_META_KEYS`] order.
    Traceparent,
    Tracestate,
    Baggage,
}

const SLOTS: usize = 14;

/// The trace context keys of params `_meta` (W3C Trace Context and W3C
/// Baggage, as MCP reserves them), in
/// [`RequestParams::trace`](super::RequestParams::trace) order.
pub const TRACE_META_KEYS: [&str; 3] = ["traceparent", "tracestate", "baggage"];

/// What a member the method acts on holds.
pub(crate) enum Kind {
    /// A string, kept in its slot.
    Str(Slot),
    /// A string kept in its slot when it is one; any other value is read
    /// and left out, never refused (W3C asks a receiver to ignore a trace
    /// header it cannot use).
    LenientStr(Slot),
    /// An object whose own members are read by their spec.
    Object(Spec),
    /// An object of strings whose keys do not repeat.
    StrMap,
    /// An object, kept as its raw JSON text in its slot (read by the
    /// method itself when it needs it).
    RawObject(Slot),
    /// A tool's `arguments`: an object whose keys do not repeat (the
    /// message when one does), of any values, kept as given (a string, or
    /// another value) for the tool to judge (`args.rs`).
    Args(&'static str),
}

/// A member a method acts on, with the messages of its refusals.
pub(crate) struct Member {
    pub name: &'static str,
    pub kind: Kind,
    /// The message when its value has another type.
    pub wrong_type: &'static str,
    /// The message when it repeats (or, for an object of strings, when a
    /// key repeats).
    pub repeated: &'static str,
}

/// The members a method acts on (at most 32 per object).
pub(crate) type Spec = &'static [Member];

pub(crate) use specs::{
    COMPLETE, COMPLETE_REF, COMPLETE_SHAPE, LIST, META_ONLY, READ, READ_LEGACY, TOOLS_CALL,
    TOOLS_CALL_NAME,
};

/// What [`read`] found: the strings of the spec's string members, the
/// object of strings and a tool's arguments, borrowed from the params text
/// when they hold no escape sequence.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Values<'a> {
    strings: [Option<Cow<'a, str>>; SLOTS],
    /// The object of strings, in document order.
    pub map: Option<Vec<(Cow<'a, str>, Cow<'a, str>)>>,
    /// A tool's arguments, in document order.
    pub args: Option<Vec<(Cow<'a, str>, Arg<'a>)>>,
}

impl<'a> Values<'a> {
    /// The string of `slot`, taken.
    pub fn take(&mut self, slot: Slot) -> Option<Cow<'a, str>> {
        self.strings[slot as usize].take()
    }

    /// The string of `slot`.
    pub fn get(&self, slot: Slot) -> Option<&str> {
        self.strings[slot as usize].as_deref()
    }

    fn set(&mut self, slot: Slot, v: Cow<'a, str>) {
        self.strings[slot as usize] = Some(v);
    }
}

/// Why params were refused: a fixed, safe message (the `-32602` error
/// object's message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamsError(pub(crate) &'static str);

impl ParamsError {
    /// The safe message.
    pub fn message(&self) -> &'static str {
        self.0
    }

    /// Whether the text is no JSON object at all (too large, not UTF-8,
    /// not JSON), rather than an object with a malformed member.
    pub(crate) fn is_syntax(&self) -> bool {
        matches!(
            self.0,
            NOT_JSON | TOO_LARGE | "params must be an object" | "params are invalid"
        )
    }
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ParamsError {}

const NOT_JSON: &str = "params are not valid JSON";
const TOO_LARGE: &str = "params exceed 256 KiB";

/// Reads the members `spec` names from the params text (see the module
/// documentation for the rules).
pub(crate) fn read<'a>(text: &'a [u8], spec: Spec) -> Result<Values<'a>, ParamsError> {
    let mut values = Values::default();
    read_into(text, spec, &mut values)?;
    Ok(values)
}

/// [`read`] into `out` (empty; the hot path fills it in place instead of
/// moving a `Values` through every layer).
#[inline]
pub(crate) fn read_into<'a>(
    text: &'a [u8],
    spec: Spec,
    out: &mut Values<'a>,
) -> Result<(), ParamsError> {
    if text.len() > MAX_PARAMS_BYTES {
        return Err(ParamsError(TOO_LARGE));
    }
    let trimmed = trim_json_whitespace(text);
    if trimmed.is_empty() || trimmed == b"null" {
        return Ok(());
    }
    // One UTF-8 check of the whole text (ignored members included) lets
    // the parsers skip it per string.
    let trimmed = std::str::from_utf8(trimmed).map_err(|_| ParamsError(NOT_JSON))?;
    if flat_params(trimmed, spec, out).is_some() {
        return Ok(());
    }
    // The fast path may have read some members before it gave up.
    *out = Values::default();
    let refused = Cell::new(None);
    let mut de = serde_json::Deserializer::from_str(trimmed);
    ObjectSeed {
        spec,
        out,
        refused: &refused,
        not_object: "params must be an object",
    }
    .deserialize(&mut de)
    .map_err(|e| {
        ParamsError(if e.is_syntax() || e.is_eof() || e.is_io() {
            NOT_JSON
        } else {
            refused.get().unwrap_or("params are invalid")
        })
    })?;
    de.end().map_err(|_| ParamsError(NOT_JSON))
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

// ------------------------------------------------------------ serde path

/// Records the fixed message of a refusal and makes the serde error.
fn refuse<E: de::Error>(refused: &Cell<Option<&'static str>>, message: &'static str) -> E {
    refused.set(Some(message));
    E::custom(message)
}

/// The index of a member name in a spec (`None`: ignored).
struct KeySeed(Spec);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|m| m.name == v))
    }
}

/// A string; any other JSON type is refused with `message`.
struct StringSeed<'r> {
    message: &'static str,
    refused: &'r Cell<Option<&'static str>>,
}

impl<'de> DeserializeSeed<'de> for StringSeed<'_> {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_any(self)
    }
}

macro_rules! refuse_other_types {
    ($value:ty) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_unit<E: de::Error>(self) -> Result<$value, E> {
            Err(refuse(self.refused, self.message()))
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<$value, A::Error> {
            Err(refuse(self.refused, self.message()))
        }
    };
}

impl StringSeed<'_> {
    fn message(&self) -> &'static str {
        self.message
    }
}

impl<'de> Visitor<'de> for StringSeed<'_> {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
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

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Cow<'de, str>, A::Error> {
        Err(refuse(self.refused, self.message))
    }

    refuse_other_types!(Cow<'de, str>);
}

/// A string, or `None` for any other JSON value (read and left out).
struct LenientStringSeed;

impl<'de> DeserializeSeed<'de> for LenientStringSeed {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LenientStringSeed {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
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

/// An object read by `spec` into `out`; any other JSON type is refused with
/// `not_object`.
struct ObjectSeed<'v, 'a, 'r> {
    spec: Spec,
    out: &'v mut Values<'a>,
    refused: &'r Cell<Option<&'static str>>,
    not_object: &'static str,
}

impl ObjectSeed<'_, '_, '_> {
    fn message(&self) -> &'static str {
        self.not_object
    }
}

impl<'de> DeserializeSeed<'de> for ObjectSeed<'_, 'de, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ObjectSeed<'_, 'de, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.not_object)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = 0u32;
        while let Some(at) = map.next_key_seed(KeySeed(self.spec))? {
            let Some(i) = at else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let member = &self.spec[i];
            if seen & (1 << i) != 0 {
                return Err(refuse(self.refused, member.repeated));
            }
            seen |= 1 << i;
            match member.kind {
                Kind::Str(slot) => {
                    let v = map.next_value_seed(StringSeed {
                        message: member.wrong_type,
                        refused: self.refused,
                    })?;
                    self.out.set(slot, v);
                }
                Kind::LenientStr(slot) => {
                    if let Some(v) = map.next_value_seed(LenientStringSeed)? {
                        self.out.set(slot, v);
                    }
                }
                Kind::Object(spec) => map.next_value_seed(ObjectSeed {
                    spec,
                    out: &mut *self.out,
                    refused: self.refused,
                    not_object: member.wrong_type,
                })?,
                Kind::StrMap => {
                    let entries = map.next_value_seed(StrMapSeed {
                        message: member.wrong_type,
                        repeated: member.repeated,
                        refused: self.refused,
                    })?;
                    self.out.map = Some(entries);
                }
                Kind::RawObject(slot) => {
                    let raw: &'de serde_json::value::RawValue = map.next_value()?;
                    if !raw.get().starts_with('{') {
                        return Err(refuse(self.refused, member.wrong_type));
                    }
                    self.out.set(slot, Cow::Borrowed(raw.get()));
                }
                Kind::Args(repeated_key) => {
                    let entries = map.next_value_seed(args::ArgsSeed {
                        message: member.wrong_type,
                        repeated: repeated_key,
                        refused: self.refused,
                    })?;
                    self.out.args = Some(entries);
                }
            }
        }
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(refuse(self.refused, self.not_object))
    }

    refuse_other_types!(());
}

/// An object of strings whose keys do not repeat.
struct StrMapSeed<'r> {
    message: &'static str,
    repeated: &'static str,
    refused: &'r Cell<Option<&'static str>>,
}

impl StrMapSeed<'_> {
    fn message(&self) -> &'static str {
        self.message
    }
}

type Entries<'de> = Vec<(Cow<'de, str>, Cow<'de, str>)>;

impl<'de> DeserializeSeed<'de> for StrMapSeed<'_> {
    type Value = Entries<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Entries<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrMapSeed<'_> {
    type Value = Entries<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<'de>, A::Error> {
        let string = || StringSeed {
            message: self.message,
            refused: self.refused,
        };
        let mut entries: Entries<'de> = Vec::new();
        // Linear: one hash lookup per key (the keys are a client's: a
        // comparison with every earlier key made 256 KiB of short names
        // cost seconds).
        let mut seen: HashSet<Key<'de>> = HashSet::new();
        while let Some(k) = map.next_key_seed(string())? {
            let v = map.next_value_seed(string())?;
            if !seen.insert(Key(k.clone())) {
                return Err(refuse(self.refused, self.repeated));
            }
            entries.push((k, v));
        }
        Ok(entries)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Entries<'de>, E> {
        Err(refuse(self.refused, self.message))
    }

    refuse_other_types!(Entries<'de>);
}

/// A key of an object of strings, hashed and compared as its text (the
/// tests count the comparisons: linear, not quadratic).
#[derive(Hash)]
struct Key<'a>(Cow<'a, str>);

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        #[cfg(test)]
        tests::COMPARISONS.with(|c| c.set(c.get() + 1));
        self.0 == other.0
    }
}

impl Eq for Key<'_> {}

// ------------------------------------------------------------ fast path

/// How deep the fast path follows nested values before leaving the params
/// to serde_json.
const FLAT_MAX_DEPTH: u32 = 16;

/// The fast path of [`read`] for the usual params: an object whose
/// strings have no escape sequence or control character, with nested
/// objects, arrays, `true`, `false` and `null` (what MCP clients send,
/// `_meta` included). Anything else (an escape, a number, a repeated member
/// that is acted on, a wrong type, an object of strings, nesting deeper
/// than 16, a syntax error) is `None` and goes to the serde_json parser,
/// which decides.
fn flat_params<'a>(text: &'a str, spec: Spec, out: &mut Values<'a>) -> Option<()> {
    let mut p = Flat {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    flat_object(&mut p, spec, out, 1)?;
    (p.i == p.b.len()).then_some(())
}

/// An object read by `spec` (at its opening brace).
fn flat_object<'a>(p: &mut Flat<'a>, spec: Spec, out: &mut Values<'a>, depth: u32) -> Option<()> {
    let mut seen = 0u32;
    p.object(&mut |p, key| {
        let Some(i) = spec.iter().position(|m| m.name == key) else {
            return p.skip_value(depth);
        };
        if seen & (1 << i) != 0 {
            return None;
        }
        seen |= 1 << i;
        match spec[i].kind {
            Kind::Str(slot) => {
                out.set(slot, Cow::Borrowed(p.string()?));
                Some(())
            }
            Kind::LenientStr(slot) if p.b.get(p.i) == Some(&b'"') => {
                out.set(slot, Cow::Borrowed(p.string()?));
                Some(())
            }
            Kind::LenientStr(_) => p.skip_value(depth),
            Kind::Object(sub) if p.b.get(p.i) == Some(&b'{') => flat_object(p, sub, out, depth + 1),
            Kind::RawObject(slot) if p.b.get(p.i) == Some(&b'{') => {
                let start = p.i;
                p.skip_value(depth + 1)?;
                out.set(slot, Cow::Borrowed(&p.text[start..p.i]));
                Some(())
            }
            Kind::Args(_) if p.b.get(p.i) == Some(&b'{') => {
                out.args = Some(args::flat_args(p, depth + 1)?);
                Some(())
            }
            Kind::Object(_) | Kind::StrMap | Kind::RawObject(_) | Kind::Args(_) => None,
        }
    })
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
        let end = crate::jsonbytes::next_special(self.b, start)?;
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

// After the macro it uses.
mod args;
mod specs;

#[cfg(test)]
mod tests;
