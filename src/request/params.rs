//! One strict params reader for every method (docs/BEHAVIOUR.md §11, §13
//! rule 9 and §15): each method names the members it acts on in a [`Spec`]
//! (strings, booleans, objects of named members, an object of strings, an
//! array of distinct strings, the open object of a tool's arguments), and
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

use fast::flat_params;
use full::full_params;

pub(crate) use args::Arg;

/// The largest params text accepted (256 KiB); larger is `-32602`.
///
/// cbindgen:ignore
pub const MAX_PARAMS_BYTES: usize = 256 * 1024;

/// The `_meta` key of the per-request protocol revision.
pub const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

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
    /// The trace context members of `_meta`, in [`TRACE_META_KEYS`] order.
    Traceparent,
    Tracestate,
    Baggage,
}

const SLOTS: usize = 11;

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

/// The message of a repeated trace context member.
const TRACE_REPEATED: &str = "params _meta repeat a trace member";

/// A trace context member of `_meta`.
const fn trace_member(name: &'static str, slot: Slot) -> Member {
    Member {
        name,
        kind: Kind::LenientStr(slot),
        // Never used: a lenient string refuses no type.
        wrong_type: TRACE_REPEATED,
        repeated: TRACE_REPEATED,
    }
}

/// `_meta`, as every method reads it: the per-request revision and the
/// trace context.
const META: Member = Member {
    name: "_meta",
    kind: Kind::Object(&[
        Member {
            name: PROTOCOL_VERSION_META_KEY,
            kind: Kind::Str(Slot::ProtocolVersion),
            wrong_type: "params _meta protocolVersion must be a string",
            repeated: "params _meta repeat protocolVersion",
        },
        trace_member(TRACE_META_KEYS[0], Slot::Traceparent),
        trace_member(TRACE_META_KEYS[1], Slot::Tracestate),
        trace_member(TRACE_META_KEYS[2], Slot::Baggage),
    ]),
    wrong_type: "params _meta must be an object",
    repeated: "params repeat _meta",
};

/// `resources/read`.
pub(crate) const READ: Spec = &[
    Member {
        name: "uri",
        kind: Kind::Str(Slot::Uri),
        wrong_type: "params uri must be a string",
        repeated: "params repeat uri",
    },
    META,
];

/// `resources/list` and `resources/templates/list`.
pub(crate) const LIST: Spec = &[
    Member {
        name: "cursor",
        kind: Kind::Str(Slot::Cursor),
        wrong_type: "params cursor must be a string",
        repeated: "params repeat cursor",
    },
    META,
];

/// Only `_meta` (what [`RequestParams`] reads of completion params).
pub(crate) const META_ONLY: Spec = &[META];

/// The message of every malformed `ref` and `argument` member.
pub(crate) const COMPLETE_SHAPE: &str = "completion params must have ref, argument.name and \
     argument.value of the right types, without repeated members";

/// `completion/complete`.
pub(crate) const COMPLETE: Spec = &[
    Member {
        name: "ref",
        kind: Kind::Object(&[
            Member {
                name: "type",
                kind: Kind::Str(Slot::RefType),
                wrong_type: COMPLETE_SHAPE,
                repeated: COMPLETE_SHAPE,
            },
            Member {
                name: "uri",
                kind: Kind::Str(Slot::RefUri),
                wrong_type: COMPLETE_SHAPE,
                repeated: COMPLETE_SHAPE,
            },
        ]),
        wrong_type: COMPLETE_SHAPE,
        repeated: COMPLETE_SHAPE,
    },
    Member {
        name: "argument",
        kind: Kind::Object(&[
            Member {
                name: "name",
                kind: Kind::Str(Slot::ArgumentName),
                wrong_type: COMPLETE_SHAPE,
                repeated: COMPLETE_SHAPE,
            },
            Member {
                name: "value",
                kind: Kind::Str(Slot::ArgumentValue),
                wrong_type: COMPLETE_SHAPE,
                repeated: COMPLETE_SHAPE,
            },
        ]),
        wrong_type: COMPLETE_SHAPE,
        repeated: COMPLETE_SHAPE,
    },
    Member {
        name: "context",
        kind: Kind::Object(&[Member {
            name: "arguments",
            kind: Kind::StrMap,
            wrong_type: "params context.arguments must be an object of strings",
            repeated: "params context.arguments repeat a name",
        }]),
        wrong_type: "params context must be an object",
        repeated: "params repeat context",
    },
    META,
];

/// Only `ref.type`: how completion params are routed when the rest is
/// malformed (a `ref/prompt` reference is not this library's, whatever the
/// rest holds).
pub(crate) const COMPLETE_REF: Spec = &[Member {
    name: "ref",
    kind: Kind::Object(&[Member {
        name: "type",
        kind: Kind::Str(Slot::RefType),
        wrong_type: COMPLETE_SHAPE,
        repeated: COMPLETE_SHAPE,
    }]),
    wrong_type: COMPLETE_SHAPE,
    repeated: COMPLETE_SHAPE,
}];

/// The most resource URIs one `subscriptions/listen` filter may list; more
/// is a `-32602` error for the whole request.
///
/// cbindgen:ignore
pub const MAX_LISTEN_URIS: usize = 1000;

/// The refusal of a repeated member of `subscriptions/listen`.
const LISTEN_REPEATED: &str = "params repeat a member";

/// The refusal of a filter flag that is no boolean.
const FLAG_NOT_BOOL: &str = "notifications filter flags must be booleans";

/// A boolean flag of the `subscriptions/listen` filter.
const fn listen_flag(name: &'static str, flag: Flag) -> Member {
    Member {
        name,
        kind: Kind::Bool(flag),
        wrong_type: FLAG_NOT_BOOL,
        repeated: LISTEN_REPEATED,
    }
}

/// `subscriptions/listen`: `notifications` (a `SubscriptionFilter`: three
/// booleans and at most [`MAX_LISTEN_URIS`] distinct URIs) and `_meta`.
pub(crate) const LISTEN: Spec = &[
    Member {
        name: "notifications",
        kind: Kind::Present(
            Flag::Notifications,
            &[
                listen_flag("toolsListChanged", Flag::ToolsListChanged),
                listen_flag("promptsListChanged", Flag::PromptsListChanged),
                listen_flag("resourcesListChanged", Flag::ResourcesListChanged),
                Member {
                    name: "resourceSubscriptions",
                    kind: Kind::StrList(&ListRule {
                        max: MAX_LISTEN_URIS,
                        too_many: "notifications resourceSubscriptions lists more than 1000 URIs",
                        repeated: "notifications resourceSubscriptions repeats a URI",
                    }),
                    wrong_type: "notifications resourceSubscriptions must be an array of strings",
                    repeated: LISTEN_REPEATED,
                },
            ],
        ),
        wrong_type: "params notifications must be an object",
        repeated: LISTEN_REPEATED,
    },
    META,
];

/// `name` of `tools/call`, as [`TOOLS_CALL`] reads it.
const TOOL_NAME: Member = Member {
    name: "name",
    kind: Kind::Str(Slot::ToolName),
    wrong_type: "params name must be a string",
    repeated: "params repeat name",
};

/// `tools/call` (the resource tools, `crate::tools`): `name`, the tool's
/// `arguments` as given, `_meta`.
pub(crate) const TOOLS_CALL: Spec = &[
    TOOL_NAME,
    Member {
        name: "arguments",
        kind: Kind::Args("params repeat an argument"),
        wrong_type: "params arguments must be an object",
        repeated: "params repeat arguments",
    },
    META,
];

/// Only `name`: how `tools/call` params are routed when the rest is
/// malformed (another tool is not this library's, whatever the rest
/// holds).
pub(crate) const TOOLS_CALL_NAME: Spec = &[TOOL_NAME];

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
