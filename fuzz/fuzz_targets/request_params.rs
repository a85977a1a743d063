//! The one-call request function: a method name and raw JSON-RPC params.
//!
//! The input is one byte that picks the method and the negotiated revision,
//! then the params text (empty, blank or `null`: params omitted). Checks that
//! the one params reader never accepts what `serde_json` refuses, for every
//! method: `RequestParams::parse` reads each method's own member (and
//! `_meta`: the protocol version, and the trace members when they are
//! strings) as `serde_json` does, and `CompleteParams::parse` (the
//! completion shapes: `ref`, `argument`, `context.arguments`, a prompt
//! reference) reads what `serde_json` reads, without a repeated name, and
//! a read's retry members (`requestState`, `inputResponses`, `_meta`
//! client capabilities) as `serde_json` does; that
//! `Resources::request` on a small registry (an
//! exact resource, a template with a completer, a hidden resource whose
//! reader and authorization data carry a secret) always answers a served
//! method with JSON, an error object whose code is one the revision allows,
//! and never a secret; and that the hidden resource answers exactly like an
//! unregistered one (also through the resource tools' `tools/call`).
#![no_main]

use mcp_resources::request::TRACE_META_KEYS;
use mcp_resources::CallOptions;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mcp_resources::completion::{
    CompleteParams, CompleteRef, CompletionRequest, CompletionSink, ResourceCompleter,
};
use mcp_resources::{
    CallContext, CallbackError, ProtocolRevision, RequestMethod, RequestOptions, RequestParams,
    ResourceBinding, ResourceDefinition, ResourceHandler, ResourceMatch, ResourcePayload,
    ResourcePolicy, ResourceReadPlan, ResourceTarget, Resources, Visibility,
};
use mcp_resources_fuzz::Input;

const SECRET: &str = "fuzz-secret-7f3a";
const HIDDEN: &str = "fz://hidden";

const METHODS: [&str; 7] = [
    "resources/read",
    "resources/list",
    "resources/templates/list",
    "completion/complete",
    "tools/list",
    "",
    "tools/call",
];

/// Hides one resource; everything else is visible and permitted.
struct Policy;

impl ResourcePolicy for Policy {
    fn discover(&self, _: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        if d.uri_or_template() == HIDDEN {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

/// Plans the matched URI with the secret as authorization data; reads a
/// body that names the secret only for the hidden resource.
struct Reader;

impl ResourceHandler for Reader {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let auth = format!("{{\"k\":\"{SECRET}\"}}");
        let t = ResourceTarget::new(m.uri(), "", Some(&auth)).map_err(CallbackError::failed)?;
        ResourceReadPlan::new(t.clone(), vec![t]).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        let body = if t.uri() == HIDDEN { SECRET } else { "" };
        ResourcePayload::text("text/plain", body).map_err(CallbackError::failed)
    }
}

/// Completes with a few values, one of them invalid as a capture.
struct Completer;

impl ResourceCompleter for Completer {
    fn complete(
        &self,
        _: &CallContext,
        request: &CompletionRequest,
        sink: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        for v in ["a", "b%2Fc", "..", request.value()] {
            // A refused value is dropped by the library's rules.
            let _ = sink.add(v);
        }
        Ok(())
    }
}

fn registry() -> Resources {
    let mut b = Resources::builder().policy(Arc::new(Policy));
    for (json, completer) in [
        (r#"{"uri":"fz://doc","name":"doc"}"#, false),
        (r#"{"uri":"fz://hidden","name":"hidden"}"#, false),
        (r#"{"uriTemplate":"fz://t/{a}/{b}","name":"t"}"#, true),
    ] {
        let mut binding = ResourceBinding::new(json, Arc::new(Reader)).expect("valid definition");
        if completer {
            binding = binding.with_completer(Arc::new(Completer));
        }
        b = b.binding(binding);
    }
    b.build().expect("valid registry")
}

/// The codes an error object may carry on `revision`.
fn allowed_codes(revision: ProtocolRevision) -> &'static [i64] {
    if revision == ProtocolRevision::V2026_07_28 {
        &[-32602, -32603, -32022]
    } else {
        &[-32602, -32603, -32002, -32022]
    }
}

/// The params as serde_json reads them (absent params are an empty
/// object); panics when the text is no JSON object, which every accepted
/// params text is. `None` when the text is JSON that a `serde_json::Value`
/// cannot hold: a number beyond the range of `f64` (RFC 8259 allows any
/// magnitude; the reader ignores members it does not act on, whatever
/// they hold, and acts on strings only).
fn params_value(params: &[u8]) -> Option<serde_json::Map<String, serde_json::Value>> {
    // Empty (or whitespace-only) params text and `null` mean params were
    // omitted.
    if params.iter().all(|b| b" \t\n\r".contains(b)) {
        return Some(serde_json::Map::new());
    }
    match serde_json::from_slice(params) {
        Ok(serde_json::Value::Null) => Some(serde_json::Map::new()),
        Ok(serde_json::Value::Object(o)) => Some(o),
        Ok(other) => panic!("accepted params are an object or null: {other}"),
        Err(e) => {
            serde_json::from_slice::<serde::de::IgnoredAny>(params)
                .expect("accepted params are JSON");
            assert!(
                e.to_string().starts_with("number out of range"),
                "accepted params serde_json refuses: {e}"
            );
            None
        }
    }
}

/// Completion params: what the reader accepts, serde_json reads the same
/// way (the reference, the argument and every context argument, in order
/// and without a repeated name); a prompt reference is routed only when
/// the text is JSON naming one.
fn check_completion_params(params: &[u8]) {
    match CompleteParams::parse(params) {
        Ok(CompleteRef::Resource(p)) => {
            let Some(v) = params_value(params) else {
                return;
            };
            assert_eq!(v["ref"]["type"], "ref/resource");
            assert_eq!(v["ref"]["uri"].as_str(), Some(p.template.as_str()));
            assert_eq!(v["argument"]["name"].as_str(), Some(p.argument.as_str()));
            assert_eq!(v["argument"]["value"].as_str(), Some(p.value.as_str()));
            let given: Vec<(String, String)> = v
                .get("context")
                .and_then(|c| c.get("arguments"))
                .and_then(|a| a.as_object())
                .map(|a| {
                    a.iter()
                        .map(|(k, v)| (k.clone(), v.as_str().expect("a string value").to_string()))
                        .collect()
                })
                .unwrap_or_default();
            // serde_json keeps one entry per name: equal lengths mean no
            // repeated name was accepted.
            assert_eq!(p.context, given, "context.arguments");
        }
        Ok(CompleteRef::Prompt) => {
            let Some(v) = params_value(params) else {
                return;
            };
            assert_eq!(v["ref"]["type"], "ref/prompt");
        }
        Err(e) => assert!(!e.message().contains('{'), "messages never echo the input"),
    }
}

/// The resource tools' `tools/call` params, read by the one reader,
/// against serde_json: what it accepts is JSON whose `name` and arguments
/// it read as serde_json does (a string kept, any other value marked), in
/// document order, with no argument twice; what it refuses has a message
/// that never echoes the input.
fn check_tool_call_params(params: &[u8]) {
    match mcp_resources::fuzzing::tool_call_params(params) {
        Ok((name, arguments, version)) => {
            let Some(v) = params_value(params) else {
                return;
            };
            assert_eq!(name.as_deref(), v.get("name").and_then(|n| n.as_str()));
            let meta = v
                .get("_meta")
                .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
                .and_then(|v| v.as_str());
            assert_eq!(version.as_deref(), meta, "_meta protocolVersion");
            let given: Vec<(String, Option<String>)> = v
                .get("arguments")
                .and_then(|a| a.as_object())
                .map(|a| {
                    a.iter()
                        .map(|(k, v)| (k.clone(), v.as_str().map(str::to_string)))
                        .collect()
                })
                .unwrap_or_default();
            // serde_json's object keeps the last of a repeated key: the
            // reader refuses repeats, so the two lists are equal.
            assert_eq!(arguments, given, "arguments");
        }
        Err(e) => assert!(!e.contains('{'), "messages never echo the input"),
    }
}

fuzz_target!(|data: &[u8]| {
    thread_local!(static REGISTRY: Resources = registry());
    let mut input = Input::new(data);
    let method = input.pick(&METHODS);
    let revision = input.pick(&ProtocolRevision::ALL);
    let params = input.rest();

    // The one params reader against serde_json, for every method: it
    // accepts no text serde_json refuses, and the members it reads are
    // serde_json's.
    if let Some(m) = RequestMethod::parse(method.as_bytes()) {
        let parsed = RequestParams::parse(m, params).ok();
        if let Some((p, v)) = parsed.and_then(|p| Some((p, params_value(params)?))) {
            let member = |k: &str| v.get(k).and_then(|v| v.as_str());
            let meta = v
                .get("_meta")
                .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
                .and_then(|v| v.as_str());
            assert_eq!(p.protocol_version.as_deref(), meta, "_meta protocolVersion");
            // Trace members: strings as serde_json reads them, anything
            // else left out.
            for (i, key) in TRACE_META_KEYS.iter().enumerate() {
                let want = v
                    .get("_meta")
                    .and_then(|m| m.get(*key))
                    .and_then(|v| v.as_str());
                assert_eq!(p.trace[i].as_deref(), want, "_meta {key}");
            }
            // Each method reads its own member and nothing else.
            match m {
                RequestMethod::ResourcesRead => {
                    assert_eq!(p.uri.as_deref(), member("uri"), "uri");
                    assert_eq!(p.cursor, None, "cursor");
                    // The retry members of an input-required read: the
                    // state a string, the responses and the client
                    // capabilities objects kept as their raw text, which
                    // serde_json reads as the object it found.
                    assert_eq!(
                        p.request_state.as_deref(),
                        member("requestState"),
                        "requestState"
                    );
                    let raw = |text: Option<&str>, want: Option<&serde_json::Value>, what: &str| {
                        let got = text.map(|t| {
                            serde_json::from_str::<serde_json::Value>(t)
                                .expect("a raw object is JSON")
                        });
                        assert_eq!(got.as_ref(), want, "{what}");
                        assert!(got.is_none_or(|g| g.is_object()), "{what} is an object");
                    };
                    raw(
                        p.input_responses.as_deref(),
                        v.get("inputResponses"),
                        "inputResponses",
                    );
                    raw(
                        p.client_capabilities.as_deref(),
                        v.get("_meta")
                            .and_then(|m| m.get("io.modelcontextprotocol/clientCapabilities")),
                        "clientCapabilities",
                    );
                }
                RequestMethod::CompletionComplete | RequestMethod::ToolsCall => {
                    assert_eq!(
                        (&p.uri, &p.cursor),
                        (&None, &None),
                        "completion and tools/call read _meta only"
                    );
                    assert!(p.request_state.is_none() && p.input_responses.is_none());
                }
                _ => {
                    assert_eq!(p.cursor.as_deref(), member("cursor"), "cursor");
                    assert_eq!(p.uri, None, "uri");
                    assert!(p.request_state.is_none() && p.input_responses.is_none());
                }
            }
        }
        if m == RequestMethod::CompletionComplete {
            check_completion_params(params);
        }
        if m == RequestMethod::ToolsCall {
            check_tool_call_params(params);
        }
    }

    REGISTRY.with(|r| {
        let options = RequestOptions {
            scope_key: b"fuzz".to_vec(),
            call: CallOptions {
                protocol_revision: revision,
                ..CallOptions::default()
            },
            resource_tools: true,
            ..RequestOptions::default()
        };
        let Ok(response) = r.request(method.as_bytes(), params, &options) else {
            // Not handled: other methods, ref/prompt completions, other tools.
            assert!(
                RequestMethod::parse(method.as_bytes()).is_none()
                    || method == METHODS[3]
                    || method == METHODS[6]
            );
            return;
        };
        let json = response.json();
        assert!(
            !json.contains(SECRET),
            "a secret reached a response: {json}"
        );
        let v: serde_json::Value = serde_json::from_str(json).expect("responses are JSON");
        if response.is_error() {
            let code = v["code"].as_i64().expect("an error object has a code");
            assert!(
                allowed_codes(response.protocol_revision()).contains(&code),
                "{code} on {:?}",
                response.protocol_revision()
            );
            assert!(v["message"].is_string());
        } else {
            assert!(v.is_object());
        }
        // The hidden resource answers exactly like an unregistered one.
        if method == METHODS[0] || method == METHODS[6] {
            let text = std::str::from_utf8(params).unwrap_or("");
            if text.contains(HIDDEN) {
                let swapped = text.replace(HIDDEN, "fz://absnt");
                if let Ok(other) = r.request(method.as_bytes(), swapped.as_bytes(), &options) {
                    assert_eq!(
                        json.replace(HIDDEN, "fz://absnt"),
                        other.json(),
                        "hidden and unregistered differ"
                    );
                }
            }
        }
    });
});
