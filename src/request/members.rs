//! What each method's params hold, read by the one strict reader
//! (`params.rs`): [`RequestParams`] for `resources/read` and the list
//! methods (parsed per method in `method.rs`), [`CompleteParams`] for
//! `completion/complete`, [`ToolCallParams`] for `tools/call` of the
//! resource tools (`crate::tools`).

use std::borrow::Cow;

use crate::completion::{CompleteParams, CompleteParamsError, CompleteRef};
use crate::trace::TraceContext;

use super::params::{self, Arg, ParamsError, Slot, Values, COMPLETE_SHAPE};

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
    /// `requestState` (`resources/read` only; docs/BEHAVIOUR.md §18).
    pub request_state: Option<Cow<'a, str>>,
    /// `inputResponses` (`resources/read` only): the raw JSON text of the
    /// object, as sent.
    pub input_responses: Option<Cow<'a, str>>,
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]`
    /// (`resources/read` only): the raw JSON text of the object, as sent.
    pub client_capabilities: Option<Cow<'a, str>>,
    /// `_meta` `traceparent`, `tracestate` and `baggage` (in
    /// [`TRACE_META_KEYS`](super::TRACE_META_KEYS) order), when strings, as
    /// sent; another value is left out, never refused.
    pub trace: [Option<Cow<'a, str>>; 3],
}

impl RequestParams<'_> {
    /// The trace context the params carry, if any member was a string (of
    /// at most [`MAX_TRACE_VALUE_BYTES`](crate::trace::MAX_TRACE_VALUE_BYTES)).
    pub fn trace_context(&self) -> Option<TraceContext> {
        let [p, s, b] = &self.trace;
        trace_of(p.as_deref(), s.as_deref(), b.as_deref())
    }
}

/// The trace context of the read members, taken (`None` when none is
/// there).
pub(super) fn take_trace<'a>(v: &mut Values<'a>) -> [Option<Cow<'a, str>>; 3] {
    [
        v.take(Slot::Traceparent),
        v.take(Slot::Tracestate),
        v.take(Slot::Baggage),
    ]
}

/// A trace context of these members, `None` when it holds none.
fn trace_of(p: Option<&str>, s: Option<&str>, b: Option<&str>) -> Option<TraceContext> {
    let t = TraceContext::new(p, s, b);
    (!t.is_empty()).then_some(t)
}

impl CompleteParams {
    /// Parses the params text of `completion/complete` strictly, with the
    /// reader every method uses (the same UTF-8, `_meta`, type, repetition
    /// and size rules as `resources/*` params): one JSON object with `ref`
    /// (`{"type":"ref/resource","uri":…}` or `{"type":"ref/prompt",…}`),
    /// `argument` (`name` and `value`, strings) and optionally
    /// `context.arguments` (an object of strings, no name twice); no member
    /// may repeat; other members are ignored. A `ref/prompt` reference is
    /// [`CompleteRef::Prompt`] whatever the rest of the object holds.
    pub fn parse(text: &[u8]) -> Result<CompleteRef, CompleteParamsError> {
        Self::parse_request(text).map(|(r, _, _)| r)
    }

    /// [`parse`](Self::parse), also returning
    /// `_meta["io.modelcontextprotocol/protocolVersion"]` as given (`_meta`,
    /// when present, must be an object and that member a string) and the
    /// trace context of `_meta` (`traceparent`, `tracestate`, `baggage`:
    /// strings as sent; other values left out).
    #[allow(clippy::type_complexity)]
    pub fn parse_request(
        text: &[u8],
    ) -> Result<(CompleteRef, Option<String>, Option<TraceContext>), CompleteParamsError> {
        let refused = |e: ParamsError| CompleteParamsError::new(e.message());
        let mut v = match params::read(text, params::COMPLETE) {
            Ok(v) => v,
            // A malformed member: still not this library's when the
            // reference is a prompt.
            Err(e) if !e.is_syntax() && is_prompt(text) => {
                return Ok((CompleteRef::Prompt, None, None))
            }
            Err(e) => return Err(refused(e)),
        };
        let version = v.take(Slot::ProtocolVersion).map(Cow::into_owned);
        let [p, s, b] = take_trace(&mut v);
        let trace = trace_of(p.as_deref(), s.as_deref(), b.as_deref());
        if v.get(Slot::RefType) == Some("ref/prompt") {
            return Ok((CompleteRef::Prompt, version, trace));
        }
        let trimmed = text.trim_ascii();
        if trimmed.is_empty() || trimmed == b"null" {
            return Err(CompleteParamsError::new(
                "completion params must have ref and argument",
            ));
        }
        let (Some(kind), Some(argument), Some(value)) = (
            v.take(Slot::RefType),
            v.take(Slot::ArgumentName),
            v.take(Slot::ArgumentValue),
        ) else {
            return Err(CompleteParamsError::new(COMPLETE_SHAPE));
        };
        if kind != "ref/resource" {
            return Err(CompleteParamsError::new("completion ref type is unknown"));
        }
        let Some(template) = v.take(Slot::RefUri) else {
            return Err(CompleteParamsError::new(
                "completion ref/resource needs a uri",
            ));
        };
        let params = CompleteParams {
            template: template.into_owned(),
            argument: argument.into_owned(),
            value: value.into_owned(),
            context: owned(v),
        };
        Ok((CompleteRef::Resource(params), version, trace))
    }
}

/// The context arguments, owned.
fn owned(v: Values<'_>) -> Vec<(String, String)> {
    v.map.map_or_else(Vec::new, |m| {
        m.into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    })
}

/// Whether params whose other members are malformed name a `ref/prompt`
/// reference (read with the same reader, `ref.type` alone).
fn is_prompt(text: &[u8]) -> bool {
    params::read(text, params::COMPLETE_REF)
        .is_ok_and(|v| v.get(Slot::RefType) == Some("ref/prompt"))
}

/// The `tools/call` params members the resource tools act on (borrowed
/// from the params text when they hold no escape sequence).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ToolCallParams<'a> {
    /// `name` (required).
    pub name: Option<Cow<'a, str>>,
    /// `arguments`, in the order given (empty when absent), each a string
    /// or another value, for the tool to judge.
    pub arguments: Vec<(Cow<'a, str>, Arg<'a>)>,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]`, as given.
    pub protocol_version: Option<Cow<'a, str>>,
    /// The trace context members of `_meta`, as [`RequestParams::trace`].
    pub trace: [Option<Cow<'a, str>>; 3],
}

impl<'a> ToolCallParams<'a> {
    /// The trace context the params carry, if any member was a string.
    pub(crate) fn trace_context(&self) -> Option<TraceContext> {
        let [p, s, b] = &self.trace;
        trace_of(p.as_deref(), s.as_deref(), b.as_deref())
    }

    /// Parses `tools/call` params strictly, with the reader every method
    /// uses (the same UTF-8, `_meta`, type, repetition and size rules):
    /// `name` a string, `arguments` an object whose keys do not repeat,
    /// kept as given; other members ignored. Does not check that `name` is
    /// present: that is the caller's job.
    pub(crate) fn parse(text: &'a [u8]) -> Result<ToolCallParams<'a>, ParamsError> {
        let mut v = params::read(text, params::TOOLS_CALL)?;
        Ok(ToolCallParams {
            name: v.take(Slot::ToolName),
            arguments: v.args.take().unwrap_or_default(),
            protocol_version: v.take(Slot::ProtocolVersion),
            trace: take_trace(&mut v),
        })
    }

    /// The `name` of params [`parse`](Self::parse) refused for a malformed
    /// member other than `name` (read with the same reader, `name` alone),
    /// to tell whether the call is the host's: its own tools' params are
    /// not this library's to judge. `None` when the text is no JSON object
    /// or `name` itself is malformed or absent.
    pub(crate) fn name_of_refused(text: &'a [u8], refusal: ParamsError) -> Option<Cow<'a, str>> {
        if refusal.is_syntax() {
            return None;
        }
        params::read(text, params::TOOLS_CALL_NAME)
            .ok()
            .and_then(|mut v| v.take(Slot::ToolName))
    }

    /// The argument `key`, if given.
    pub(crate) fn argument(&self, key: &str) -> Option<&Arg<'a>> {
        self.arguments
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}
