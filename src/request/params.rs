//! One strict params reader for every method (docs/BEHAVIOUR.md §11, §13
//! rule 9 and §15): each method names the members it acts on in a [`Spec`]
//! (strings, booleans, objects of named members, an object of strings, an
//! array of distinct strings, an object kept as its raw text, the open
//! object of a tool's arguments; the specs are in `params/specs.rs`), and
//! [`read`] reads exactly those, the same way for every method:
//!
//! - absent params (empty or whitespace-only text, or `null`) are an empty
//!   object; anything else must be one JSON object of at most
//!   [`MAX_PARAMS_BYTES`], valid UTF-8 throughout (ignored members
//!   included);
//! - a member the method acts on must have its type (`null` is no string,
//!   no boolean, no object and no array) and may not repeat; an object of
//!   strings may not repeat a key, an array of strings may not repeat a
//!   string (compared decoded; both found in linear time, whatever their
//!   number) nor hold more than its limit; a lenient string (the trace
//!   context members of `_meta`) is kept when it is a string and left out
//!   otherwise, never refused, but may not repeat;
//! - every other member is ignored, whatever its type: the MCP schemas
//!   leave params open;
//! - errors are fixed messages that never echo the input.
//!
//! Usual params (strings without escapes, nested objects, arrays, `true`,
//! `false`, `null`) take a fast path (`params/fast.rs`; an array the method
//! acts on always goes to `serde_json`); anything else goes to `serde_json`,
//! which decides. A property test holds that whatever the fast path
//! accepts, `serde_json` reads the same, and the `request_params` fuzz
//! target holds the reader to `serde_json` for every method.

use std::borrow::Cow;
use std::fmt;

mod args;
mod fast;
mod full;
mod specs;

use fast::flat_params;
use full::full_params;

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

/// Where a boolean member's value goes, or where an object's presence is
/// recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    ToolsListChanged,
    PromptsListChanged,
    ResourcesListChanged,
    /// `subscriptions/listen`'s `notifications` was present.
    Notifications,
}

const FLAGS: usize = 4;

/// What a member the method acts on holds.
pub(crate) enum Kind {
    /// A string, kept in its slot.
    Str(Slot),
    /// A boolean, kept in its flag.
    Bool(Flag),
    /// A string kept in its slot when it is one; any other value is read
    /// and left out, never refused (W3C asks a receiver to ignore a trace
    /// header it cannot use).
    LenientStr(Slot),
    /// An object whose own members are read by their spec.
    Object(Spec),
    /// An object read by its spec whose presence is kept as `true` in the
    /// flag (for a method that requires it).
    Present(Flag, Spec),
    /// An object of strings whose keys do not repeat.
    StrMap,
    /// An array of distinct strings, at most the rule's number.
    StrList(&'static ListRule),
    /// An object, kept as its raw JSON text in its slot (read by the
    /// method itself when it needs it).
    RawObject(Slot),
    /// A tool's `arguments`: an object whose keys do not repeat (the
    /// message when one does), of any values, kept as given (a string, or
    /// another value) for the tool to judge (`args.rs`).
    Args(&'static str),
}

/// The rules of an array of strings: its most elements and the messages of
/// its refusals.
pub(crate) struct ListRule {
    pub max: usize,
    /// The message when it holds more than `max` strings.
    pub too_many: &'static str,
    /// The message when a string repeats (compared decoded).
    pub repeated: &'static str,
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
    COMPLETE, COMPLETE_REF, COMPLETE_SHAPE, LIST, LISTEN, META_ONLY, READ, READ_LEGACY, SUBSCRIBE,
    TOOLS_CALL, TOOLS_CALL_NAME,
};

/// The most resource URIs one `subscriptions/listen` filter may list; more
/// is a `-32602` error for the whole request.
///
/// cbindgen:ignore
pub const MAX_LISTEN_URIS: usize = 1000;

/// What [`read`] found: the strings of the spec's string members, its
/// booleans, the object of strings, the array of strings and a tool's
/// arguments, borrowed from the params text when they hold no escape
/// sequence.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Values<'a> {
    strings: [Option<Cow<'a, str>>; SLOTS],
    flags: [Option<bool>; FLAGS],
    /// The object of strings, in document order.
    pub map: Option<Vec<(Cow<'a, str>, Cow<'a, str>)>>,
    /// The array of strings, in document order.
    pub list: Option<Vec<Cow<'a, str>>>,
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

    /// The boolean of `flag` (`None`: absent).
    pub fn flag(&self, flag: Flag) -> Option<bool> {
        self.flags[flag as usize]
    }

    fn set_flag(&mut self, flag: Flag, v: bool) {
        self.flags[flag as usize] = Some(v);
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
    full_params(trimmed, spec, out)
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

#[cfg(test)]
mod tests;
