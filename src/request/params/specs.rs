//! Each method's spec of members for the one strict params reader
//! (`params.rs`): which members it acts on, where their values go, and the
//! fixed messages of their refusals.

use super::{
    Kind, Member, Slot, Spec, CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY,
    TRACE_META_KEYS,
};

/// `_meta["io.modelcontextprotocol/protocolVersion"]`, as every method
/// reads it.
const PROTOCOL_VERSION: Member = Member {
    name: PROTOCOL_VERSION_META_KEY,
    kind: Kind::Str(Slot::ProtocolVersion),
    wrong_type: "params _meta protocolVersion must be a string",
    repeated: "params _meta repeat protocolVersion",
};

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

/// The trace context members of `_meta`.
const TRACE_TRACEPARENT: Member = trace_member(TRACE_META_KEYS[0], Slot::Traceparent);
const TRACE_TRACESTATE: Member = trace_member(TRACE_META_KEYS[1], Slot::Tracestate);
const TRACE_BAGGAGE: Member = trace_member(TRACE_META_KEYS[2], Slot::Baggage);

/// `_meta`, as every method reads it: the per-request revision and the
/// trace context.
const META: Member = Member {
    name: "_meta",
    kind: Kind::Object(&[
        PROTOCOL_VERSION,
        TRACE_TRACEPARENT,
        TRACE_TRACESTATE,
        TRACE_BAGGAGE,
    ]),
    wrong_type: "params _meta must be an object",
    repeated: "params repeat _meta",
};

/// `uri` of `resources/read`.
const URI: Member = Member {
    name: "uri",
    kind: Kind::Str(Slot::Uri),
    wrong_type: "params uri must be a string",
    repeated: "params repeat uri",
};

/// `resources/read`: `uri`, the retry members of an input-required read
/// and `_meta` with the client capabilities (docs/BEHAVIOUR.md §18).
pub(crate) const READ: Spec = &[
    URI,
    Member {
        name: "requestState",
        kind: Kind::Str(Slot::RequestState),
        wrong_type: "params requestState must be a string",
        repeated: "params repeat requestState",
    },
    Member {
        name: "inputResponses",
        kind: Kind::RawObject(Slot::InputResponses),
        wrong_type: "params inputResponses must be an object",
        repeated: "params repeat inputResponses",
    },
    Member {
        name: "_meta",
        kind: Kind::Object(&[
            PROTOCOL_VERSION,
            TRACE_TRACEPARENT,
            TRACE_TRACESTATE,
            TRACE_BAGGAGE,
            Member {
                name: CLIENT_CAPABILITIES_META_KEY,
                kind: Kind::RawObject(Slot::ClientCapabilities),
                wrong_type: "params _meta clientCapabilities must be an object",
                repeated: "params _meta repeat clientCapabilities",
            },
        ]),
        wrong_type: "params _meta must be an object",
        repeated: "params repeat _meta",
    },
];

/// `resources/read` as revisions before 2026-07-28 define it: `uri` and
/// `_meta` (the retry members do not exist there, so they are ignored
/// whatever they hold).
pub(crate) const READ_LEGACY: Spec = &[URI, META];

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

/// Only `_meta` (what `RequestParams` reads of completion params).
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
