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
//!    another variable of the template pass the rules of rule 5 (else
//!    `invalid_request`); context arguments naming no other variable are
//!    ignored, and so are empty ones (not chosen yet);
//! 4. the completer runs under the call's request scope (deadline,
//!    cancellation, request data), like every callback of a read;
//! 5. its values are template variable values as RFC 6570 means them
//!    (clients percent-encode them when they substitute them, as the
//!    official SDKs do): each must be a valid capture as it stands (not
//!    empty, no `/`, `\`, NUL, not `.` or `..`), hold no `%`, `?` or `#`
//!    (a client that substitutes without encoding would reach another
//!    resource), no control, format (bidi override, zero-width) or
//!    line/paragraph separator character, and fit, encoded, with the
//!    template's literal text in `max_uri_bytes`; other values are
//!    dropped, never sent;
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

use std::collections::HashMap;
use std::sync::Arc;

use crate::binding::ResourceBinding;
use crate::call::{CallOptions, Frame, FrameRules};
use crate::completer::ValueRules;
pub use crate::completer::{
    encoded_len, CompletionRequest, CompletionSink, DroppedValue, ResourceCompleter,
    MAX_COMPLETION_TOTAL, MAX_COMPLETION_VALUES,
};
use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure, FailureKind};
use crate::limits::Limits;
use crate::observe::{self, CallMethod, CallbackKind, Observed, ResultSummary, Subject};
use crate::policy::ResourcePolicy;
use crate::protocol::ProtocolRevision;
use crate::read::{discover, guarded, settle, CallbackFailure};
use crate::registry::Resources;
use crate::result_meta::{self, ResultMeta};
use crate::scope::RequestScope;
use crate::sizing::{json_str_len, write_json_str};
use crate::template::TemplateRef;

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
    pub(crate) fn new(message: &'static str) -> CompleteParamsError {
        CompleteParamsError(message)
    }

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

/// Largest completion params text accepted (256 KiB: the bound of every
/// method's params, `request::MAX_PARAMS_BYTES`). Completion params are
/// parsed by the one strict params reader of [`crate::request`]
/// ([`CompleteParams::parse`]).
///
/// cbindgen:ignore
pub const MAX_COMPLETE_PARAMS_BYTES: usize = 256 * 1024;

/// Per-call options of a completion: the call frame's (see
/// [`CallOptions`]; the C ABI's `mcpr_complete` takes `mcpr_read_options`,
/// whose fields are exactly these). The executor runs the call's callbacks
/// (`discover` and the completer) as one job, so that the call returns by
/// its deadline whatever they do; the revision decides
/// `"resultType":"complete"` (2026-07-28 on). Completion results never
/// carry cache fields.
#[derive(Clone, Default)]
pub struct CompleteOptions {
    /// The options every call takes.
    pub call: CallOptions,
}

impl From<CallOptions> for CompleteOptions {
    fn from(call: CallOptions) -> CompleteOptions {
        CompleteOptions { call }
    }
}

/// The frame rules of a completion: a saturated executor is
/// `read_failed`, and so is a panic of the completion job.
pub(crate) const COMPLETE_RULES: FrameRules = FrameRules {
    method: CallMethod::CompletionComplete,
    refused: FailureKind::ReadFailed,
    panicked: complete_panicked,
};

fn complete_panicked() -> Failure {
    Failure::with_message(FailureKind::ReadFailed, "resource completion failed")
        .caused_by(CauseText("the completion job panicked".into()))
}

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

impl Observed for CompletionResult {
    fn summary(&self) -> ResultSummary {
        ResultSummary {
            items: self.values.len() as u64,
            bytes: self.json.len() as u64,
            ..ResultSummary::default()
        }
    }

    /// A completed template was discovered: the caller may know it (a
    /// template listing shows it).
    fn discloses_subject(&self) -> bool {
        true
    }

    fn is_partial(&self) -> bool {
        false
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
        let subject = Subject::Template(&params.template);
        options.call.frame(self, &COMPLETE_RULES, subject, |frame| {
            self.complete_in(frame, params)
        })
    }

    /// The completion of `params` in its call frame (both drivers: the
    /// blocking call's frame, an asynchronous call's job).
    pub(crate) fn complete_in(
        &self,
        frame: &Frame<'_>,
        params: &CompleteParams,
    ) -> Result<CompletionResult, Failure> {
        // The host's result `_meta` is charged to the values' page
        // budget.
        let host_meta = result_meta::member_len(frame.result_meta());
        let mut limits = *self.limits();
        limits.max_page_bytes = limits.max_page_bytes.saturating_sub(host_meta as u64);
        let limits = &limits;
        let binding = self.template_binding(&params.template)?;
        let (values, total, has_more) = match frame.executor() {
            None => run_completion(
                self.policy().as_ref(),
                frame.scope(),
                binding,
                params,
                limits,
            )?,
            Some(executor) => {
                // The job owns what it uses: an abandoned completer
                // keeps its binding and the policy alive until it
                // returns.
                let (policy, binding, params, limits) = (
                    self.policy().clone(),
                    binding.clone(),
                    params.clone(),
                    *limits,
                );
                let scope = frame.scope().clone();
                frame.run_job(executor, move || {
                    run_completion(policy.as_ref(), &scope, &binding, &params, &limits)
                })?
            }
        };
        let json = write_result(
            &values,
            total,
            has_more,
            frame.result_meta(),
            carries_result_type(frame.protocol_revision()),
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
        let r = observe::timed(call.recorder(), CallbackKind::Complete, || {
            guarded(|| completer.complete(&call, &request, &mut sink))
        });
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
    // A context value is a value chosen for another variable: held to the
    // rules of the values the library sends (§13 rule 5).
    let rules = ValueRules::new(template, limits);
    // The other variables of the template, in template order, and what
    // the context gives for each: one pass over the context, whatever its
    // size (a client may send thousands of names; only the template's
    // variables matter).
    let others: Vec<&str> = names.filter(|n| *n != params.argument).collect();
    let at: HashMap<&str, usize> = others.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut given: Vec<(Option<&str>, bool)> = vec![(None, false); others.len()];
    for (name, value) in &params.context {
        if let Some(&i) = at.get(name.as_str()) {
            let g = &mut given[i];
            g.1 |= g.0.is_some();
            g.0.get_or_insert(value);
        }
    }
    let mut context = Vec::new();
    for (name, (value, repeated)) in others.iter().zip(given) {
        let Some(value) = value else {
            continue;
        };
        if repeated {
            return Err(Failure::request("completion context repeats an argument"));
        }
        if value.is_empty() {
            continue;
        }
        if rules.check(value).is_err() {
            return Err(Failure::request(
                "completion context value is not a valid completion value",
            ));
        }
        context.push((name.to_string(), value.to_string()));
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
