//! Argument completion for resource templates (`completion/complete` with a
//! `ref/resource` reference), checked against the policy
//! (docs/BEHAVIOUR.md §13).
//!
//! A template binding may carry a [`ResourceCompleter`]. [`Resources::complete`]
//! answers a completion request for one of the template's variables:
//!
//! 1. the reference must be a registered template, byte for byte (an exact
//!    resource URI, or anything else, is not found);
//! 2. `discover` is asked about the template's definition before anything
//!    else is looked at: a denial is the same public error as not found;
//! 3. the argument must name one of the template's variables, its partial
//!    value be at most `max_uri_bytes`, and every context argument naming
//!    another variable of the template be a valid capture (else
//!    `invalid_request`); context arguments naming no other variable are
//!    ignored, and so are empty ones (not chosen yet);
//! 4. the completer runs under the call's request scope (deadline,
//!    cancellation, request data), like every callback of a read;
//! 5. its values pass the capture rules of [`crate::template`]
//!    ([`decode_capture`]) and must fit, with the template's literal text,
//!    in `max_uri_bytes`; other values are dropped, never sent;
//! 6. at most [`MAX_COMPLETION_VALUES`] values are sent, within the list
//!    page budget (`max_page_bytes` minus the 256-byte envelope, each value
//!    costing its JSON string length plus one), in the completer's order;
//!    the rest is cut off, never an error; `hasMore` and `total` say so.
//!
//! With an executor in the options, steps 2 to 6 run as one job on it,
//! and the call returns by its deadline whatever the callbacks do (as
//! reads and listings do).
//!
//! A template binding without a completer answers an empty completion
//! (after steps 1 to 3). The result carries no cache fields; `resultType`
//! only on MCP 2026-07-28 (see [`CompleteOptions`]).

use std::sync::Arc;

use crate::binding::ResourceBinding;
pub use crate::completer::{
    CompletionRequest, CompletionSink, DroppedValue, ResourceCompleter, MAX_COMPLETION_TOTAL,
    MAX_COMPLETION_VALUES,
};
use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure, FailureKind};
use crate::limits::Limits;
use crate::policy::ResourcePolicy;
use crate::protocol::ProtocolRevision;
use crate::read::{discover, guarded, settle, CallbackFailure, ReadOptions};
use crate::registry::Resources;
use crate::result_meta::{self, ResultMeta};
use crate::scope::RequestScope;
use crate::sizing::{json_str_len, write_json_str};
use crate::template::{decode_capture, TemplateRef};
use crate::trace::TraceContext;

/// A completion request's client input: the `ref/resource` URI, the
/// argument and the context (the params of `completion/complete`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompleteParams {
    /// `ref.uri`: the template text, compared byte for byte.
    pub template: String,
    /// `argument.name`.
    pub argument: String,
    /// `argument.value` (the partial value).
    pub value: String,
    /// `context.arguments`, as given (any order; names need not be
    /// variables).
    pub context: Vec<(String, String)>,
}

/// What a `completion/complete` request refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompleteRef {
    /// `ref/resource`: served by [`Resources::complete`].
    Resource(CompleteParams),
    /// `ref/prompt`: not this library's (prompts are the host's); route it
    /// elsewhere.
    Prompt,
}

/// Why completion params were refused: a fixed, safe message (never
/// echoing the input).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompleteParamsError(&'static str);

impl CompleteParamsError {
    /// The safe message.
    pub fn message(&self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for CompleteParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for CompleteParamsError {}

/// Largest completion params text accepted (256 KiB).
///
/// cbindgen:ignore
pub const MAX_COMPLETE_PARAMS_BYTES: usize = 256 * 1024;

mod raw {
    use std::marker::PhantomData;

    use serde::de::value::MapAccessDeserializer;
    use serde::de::{Deserializer, MapAccess, Visitor};
    use serde::Deserialize;

    /// `T` from a JSON object only (derived struct impls also accept
    /// arrays, which the MCP schemas do not).
    pub(super) struct Obj<T>(pub(super) T);

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V<T>(PhantomData<T>);
            impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
                type Value = Obj<T>;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                    T::deserialize(MapAccessDeserializer::new(map)).map(Obj)
                }
            }
            d.deserialize_map(V(PhantomData))
        }
    }

    #[derive(Deserialize)]
    pub(super) struct Params {
        #[serde(rename = "ref")]
        pub(super) reference: Obj<Ref>,
        pub(super) argument: Obj<Argument>,
        #[serde(default)]
        pub(super) context: Option<Obj<Context>>,
        #[serde(rename = "_meta", default)]
        pub(super) meta: Option<Obj<Meta>>,
    }

    /// The members of `_meta` this library acts on: the per-request
    /// revision, and the trace context handed to callbacks (a trace member
    /// that is not a string is left out, never refused).
    #[derive(Deserialize)]
    pub(super) struct Meta {
        #[serde(rename = "io.modelcontextprotocol/protocolVersion", default)]
        pub(super) protocol_version: Option<String>,
        #[serde(default)]
        pub(super) traceparent: TraceValue,
        #[serde(default)]
        pub(super) tracestate: TraceValue,
        #[serde(default)]
        pub(super) baggage: TraceValue,
    }

    /// A trace member: its text when it is a string, else nothing.
    #[derive(Default)]
    pub(super) struct TraceValue(pub(super) Option<String>);

    impl<'de> Deserialize<'de> for TraceValue {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Ok(TraceValue(match serde_json::Value::deserialize(d)? {
                serde_json::Value::String(s) => Some(s),
                _ => None,
            }))
        }
    }

    #[derive(Deserialize)]
    pub(super) struct Ref {
        #[serde(rename = "type")]
        pub(super) kind: String,
        #[serde(default)]
        pub(super) uri: Option<String>,
    }

    /// Only `ref.type`, to route `ref/prompt` however the rest looks.
    #[derive(Deserialize)]
    pub(super) struct RefOnly {
        #[serde(rename = "ref")]
        pub(super) reference: Obj<RefKind>,
    }

    #[derive(Deserialize)]
    pub(super) struct RefKind {
        #[serde(rename = "type")]
        pub(super) kind: String,
    }

    #[derive(Deserialize)]
    pub(super) struct Argument {
        pub(super) name: String,
        pub(super) value: String,
    }

    #[derive(Deserialize)]
    pub(super) struct Context {
        #[serde(default)]
        pub(super) arguments: Option<Arguments>,
    }

    /// A string-to-string object whose keys are unique.
    pub(super) struct Arguments(pub(super) Vec<(String, String)>);

    impl<'de> Deserialize<'de> for Arguments {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Arguments;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("an object of strings")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Arguments, A::Error> {
                    let mut out: Vec<(String, String)> = Vec::new();
                    while let Some((k, v)) = map.next_entry::<String, String>()? {
                        if out.iter().any(|(n, _)| *n == k) {
                            return Err(serde::de::Error::custom("repeated"));
                        }
                        out.push((k, v));
                    }
                    Ok(Arguments(out))
                }
            }
            d.deserialize_map(V)
        }
    }
}

impl CompleteParams {
    /// Parses the params text of `completion/complete` strictly: one JSON
    /// object (at most 256 KiB) with `ref` (`{"type":"ref/resource","uri":…}`
    /// or `{"type":"ref/prompt",…}`), `argument` (`name` and `value`,
    /// strings) and optionally `context.arguments` (an object of strings);
    /// no member may repeat; other members are ignored. A `ref/prompt`
    /// reference is [`CompleteRef::Prompt`] whatever the rest holds.
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
        if text.len() > MAX_COMPLETE_PARAMS_BYTES {
            return Err(CompleteParamsError("params exceed 256 KiB"));
        }
        let trimmed = text.trim_ascii();
        if trimmed.is_empty() || trimmed == b"null" {
            return Err(CompleteParamsError(
                "completion params must have ref and argument",
            ));
        }
        let full = serde_json::from_slice::<raw::Obj<raw::Params>>(text);
        let params = match full {
            Ok(p) => p.0,
            Err(e) => {
                if let Ok(r) = serde_json::from_slice::<raw::Obj<raw::RefOnly>>(text) {
                    if r.0.reference.0.kind == "ref/prompt" {
                        return Ok((CompleteRef::Prompt, None, None));
                    }
                }
                return Err(CompleteParamsError(
                    if e.is_syntax() || e.is_eof() || e.is_io() {
                        "params are not valid JSON"
                    } else {
                        "completion params must have ref, argument.name and argument.value \
                         of the right types, without repeated members"
                    },
                ));
            }
        };
        let (reference, argument) = (params.reference.0, params.argument.0);
        let (version, trace) = match params.meta {
            None => (None, None),
            Some(m) => {
                let m = m.0;
                let trace = TraceContext::new(
                    m.traceparent.0.as_deref(),
                    m.tracestate.0.as_deref(),
                    m.baggage.0.as_deref(),
                );
                (m.protocol_version, (!trace.is_empty()).then_some(trace))
            }
        };
        match reference.kind.as_str() {
            "ref/prompt" => Ok((CompleteRef::Prompt, version, trace)),
            "ref/resource" => {
                let Some(template) = reference.uri else {
                    return Err(CompleteParamsError("completion ref/resource needs a uri"));
                };
                let params = CompleteParams {
                    template,
                    argument: argument.name,
                    value: argument.value,
                    context: params
                        .context
                        .and_then(|c| c.0.arguments)
                        .map_or_else(Vec::new, |a| a.0),
                };
                Ok((CompleteRef::Resource(params), version, trace))
            }
            _ => Err(CompleteParamsError("completion ref type is unknown")),
        }
    }
}

/// Per-call options of a completion: the same as a read's (the C ABI's
/// `mcpr_complete` takes `mcpr_read_options` too). The executor runs the
/// call's callbacks (`discover` and the completer) as one job, so that the
/// call returns by its deadline whatever they do; the revision decides
/// `"resultType":"complete"` (2026-07-28 on). Completion results never
/// carry cache fields.
pub type CompleteOptions = ReadOptions;

/// The result of a completion: the MCP `CompleteResult` JSON and the
/// values in it.
#[derive(Debug, Clone)]
pub struct CompletionResult {
    json: String,
    values: Vec<String>,
    total: Option<u64>,
    has_more: bool,
}

impl CompletionResult {
    /// The MCP `CompleteResult` as compact JSON:
    /// `{"completion":{"values":[…],"total":N,"hasMore":b}}` (`total` only
    /// when known; `"resultType":"complete"` last when the options ask
    /// for it).
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The JSON, by value.
    pub fn into_json(self) -> String {
        self.json
    }

    /// The values sent, in order.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// The `total` sent, if any.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// The `hasMore` sent.
    pub fn has_more(&self) -> bool {
        self.has_more
    }
}

/// Whether completion results on `revision` carry `resultType` (2026-07-28
/// on; they never carry the cache fields reads and listings add then).
fn carries_result_type(revision: ProtocolRevision) -> bool {
    revision >= ProtocolRevision::V2026_07_28
}

/// Writes the result JSON; `result_type` is the one revision-dependent
/// part.
fn write_result(
    values: &[String],
    total: Option<u64>,
    has_more: bool,
    meta: Option<&ResultMeta>,
    result_type: bool,
) -> String {
    let len: usize = values.iter().map(|v| json_str_len(v) + 1).sum();
    let mut json = String::with_capacity(len + 96 + result_meta::member_len(meta));
    json.push_str("{\"completion\":{\"values\":[");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        write_json_str(&mut json, v);
    }
    json.push(']');
    if let Some(t) = total {
        json.push_str(",\"total\":");
        json.push_str(&t.to_string());
    }
    json.push_str(if has_more {
        ",\"hasMore\":true}"
    } else {
        ",\"hasMore\":false}"
    });
    if let Some(m) = meta {
        m.write_member(&mut json);
    }
    if result_type {
        json.push_str(",\"resultType\":\"complete\"");
    }
    json.push('}');
    json
}

/// The not-found failure of a reference that names no registered template
/// (the same public error as every other not-found).
pub(crate) fn not_found() -> Failure {
    Failure::new(FailureKind::Unavailable)
        .caused_by(CauseText("no registered template matches".into()))
}

impl Resources {
    /// Whether some template binding has a completer (a host declares the
    /// MCP `completions` capability only then).
    pub fn completes(&self) -> bool {
        self.template_order()
            .iter()
            .any(|&i| self.bindings()[i].completer().is_some())
    }

    /// Answers `completion/complete` for a `ref/resource` reference (see
    /// the module documentation for the rules, in order).
    ///
    /// Errors: an unregistered template or a discovery denial is
    /// `unavailable` (not found); a discover failure is `policy`; an
    /// argument that is not a variable of the template, a partial value
    /// longer than `max_uri_bytes`, or an invalid context value is
    /// `invalid_request`; a completer failure or panic is `read_failed`
    /// and its `Unavailable` is `unavailable`; cancellation is `canceled`
    /// and a passed deadline `deadline_exceeded`; a saturated executor is
    /// `read_failed` (cause "executor saturated"), whatever the request.
    pub fn complete(
        &self,
        params: &CompleteParams,
        options: &CompleteOptions,
    ) -> Result<CompletionResult, Failure> {
        // The host's result `_meta` is charged to the values' page budget.
        let host_meta = result_meta::member_len(options.result_meta.as_ref());
        let mut limits = *self.limits();
        limits.max_page_bytes = limits.max_page_bytes.saturating_sub(host_meta as u64);
        let limits = &limits;
        let scope = RequestScope::start(
            limits.read_timeout,
            options.timeout,
            options.cancel.clone(),
            options.request_data.clone(),
        )
        .with_trace(options.trace.clone());
        // Closed on every return path, as for reads.
        let _closer = scope.close_on_drop();
        scope.check()?;
        if let Some(executor) = &options.executor {
            // Before the request is looked at: a saturated executor refuses
            // every completion alike, registered template or not.
            executor
                .admission()
                .map_err(|why| why.failure(FailureKind::ReadFailed))?;
        }
        let binding = self.template_binding(&params.template)?;
        let (values, total, has_more) = match &options.executor {
            None => run_completion(self.policy().as_ref(), &scope, binding, params, limits)?,
            Some(executor) => {
                // The job owns what it uses: an abandoned completer keeps
                // its binding and the policy alive until it returns.
                let (policy, binding, params, limits) = (
                    self.policy().clone(),
                    binding.clone(),
                    params.clone(),
                    *limits,
                );
                let job_scope = scope.clone();
                let job =
                    move || run_completion(policy.as_ref(), &job_scope, &binding, &params, &limits);
                executor
                    .call(job, scope.deadline(), scope.cancel_token())
                    .into_result(
                        FailureKind::ReadFailed,
                        Failure::with_message(
                            FailureKind::ReadFailed,
                            "resource completion failed",
                        )
                        .caused_by(CauseText("the completion job panicked".into())),
                    )?
            }
        };
        scope.check()?;
        let json = write_result(
            &values,
            total,
            has_more,
            options.result_meta.as_ref(),
            carries_result_type(options.revision),
        );
        Ok(CompletionResult {
            json,
            values,
            total,
            has_more,
        })
    }

    /// The template binding registered with exactly this template text.
    fn template_binding(&self, template: &str) -> Result<&ResourceBinding, Failure> {
        let bindings = self.bindings();
        // Sorted by template text (unique at build), byte order.
        let order = self.template_order();
        order
            .binary_search_by(|&i| bindings[i].definition().uri_or_template().cmp(template))
            .map(|at| &bindings[order[at]])
            .map_err(|_| not_found())
    }
}

/// Rules 2 to 6 for one template binding: discovery, the argument and
/// context checks, the completer under `scope`, and the sink's verdict.
/// Takes only what a job on another thread could own (clones of the
/// policy and binding, the scope, the params, the limits).
fn run_completion(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    binding: &ResourceBinding,
    params: &CompleteParams,
    limits: &Limits,
) -> Result<(Vec<String>, Option<u64>, bool), Failure> {
    let definition = binding.definition();
    let call = scope.call_in(crate::scope::CallPhase::Completion);
    discover(policy, scope, definition, &call)?;
    let template = definition.template().expect("template bindings");
    let request = checked_request(definition, template, params, limits)?;
    let mut sink = CompletionSink::new(template, limits);
    if let Some(completer) = binding.completer() {
        let r = guarded(|| completer.complete(&call, &request, &mut sink));
        settle(scope, r.is_err())?;
        match r {
            Ok(()) => {}
            Err(CallbackFailure::Unavailable) => {
                return Err(Failure::new(FailureKind::Unavailable)
                    .caused_by(CauseText("completion denied".into())))
            }
            Err(e) => {
                return Err(Failure::with_message(
                    FailureKind::ReadFailed,
                    "resource completion failed",
                )
                .caused_by(e.into_cause("complete")))
            }
        }
    }
    scope.check()?;
    Ok(sink.finish())
}

/// Applies the argument and context rules, making the completer's request.
fn checked_request(
    definition: &Arc<ResourceDefinition>,
    template: TemplateRef<'_>,
    params: &CompleteParams,
    limits: &Limits,
) -> Result<CompletionRequest, Failure> {
    let names = template.name_iter();
    if !names.clone().any(|n| n == params.argument) {
        return Err(Failure::request(
            "completion argument is not a variable of the template",
        ));
    }
    if params.value.len() > limits.max_uri_bytes {
        return Err(Failure::request(
            "completion argument value exceeds max_uri_bytes",
        ));
    }
    let mut context = Vec::new();
    for name in names.filter(|n| *n != params.argument) {
        let mut given = params.context.iter().filter(|(n, _)| n == name);
        let Some((_, value)) = given.next() else {
            continue;
        };
        if given.next().is_some() {
            return Err(Failure::request("completion context repeats an argument"));
        }
        if value.is_empty() {
            continue;
        }
        if value.len() > limits.max_uri_bytes || decode_capture(value).is_err() {
            return Err(Failure::request(
                "completion context value is not a valid template capture",
            ));
        }
        context.push((name.to_string(), value.clone()));
    }
    Ok(CompletionRequest {
        definition: definition.clone(),
        argument: params.argument.clone(),
        value: params.value.clone(),
        context,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sink(template: &str, limits: &Limits) -> CompletionSink {
        CompletionSink::new(
            crate::template::Template::parse(template).unwrap().view(),
            limits,
        )
    }

    #[test]
    fn finish_is_truthful() {
        let limits = Limits::default();
        // All sent, nothing more: no total, hasMore false.
        let mut s = sink("a://x/{id}", &limits);
        s.add("a").unwrap();
        assert_eq!(s.finish(), (vec!["a".to_string()], None, false));
        // Dropped values come off the completer's total.
        let mut s = sink("a://x/{id}", &limits);
        for v in ["a", "..", "b"] {
            let _ = s.add(v);
        }
        s.set_total(3);
        assert_eq!(s.finish().1, Some(2));
        // A total below the valid values is raised to them.
        let mut s = sink("a://x/{id}", &limits);
        for i in 0..150 {
            s.add(&format!("v{i}")).unwrap();
        }
        s.set_total(5);
        let (values, total, more) = s.finish();
        assert_eq!((values.len(), total, more), (100, Some(150), true));
        // "More" with a total no larger than what is sent: total unknown.
        let mut s = sink("a://x/{id}", &limits);
        s.add("a").unwrap();
        s.set_total(1);
        s.set_has_more(true);
        assert_eq!(s.finish(), (vec!["a".to_string()], None, true));
        // Totals are capped at 2^53 - 1.
        let mut s = sink("a://x/{id}", &limits);
        s.set_total(u64::MAX);
        assert_eq!(s.finish().1, Some(MAX_COMPLETION_TOTAL));
    }

    #[test]
    fn result_json_shape() {
        let v = vec!["a\"b".to_string()];
        assert_eq!(
            write_result(&v, Some(3), true, None, true),
            r#"{"completion":{"values":["a\"b"],"total":3,"hasMore":true},"resultType":"complete"}"#
        );
        assert_eq!(
            write_result(&[], None, false, None, false),
            r#"{"completion":{"values":[],"hasMore":false}}"#
        );
    }
}
