//! The one-call request function: a method name and raw JSON-RPC params.
//!
//! The input is one byte that picks the method and the negotiated revision,
//! then the params text (empty, blank or `null`: params omitted). Checks that
//! `RequestParams::parse` never accepts what `serde_json` refuses and that
//! the member its method reads is the one `serde_json` reads; that `Resources::request` on a small registry (an
//! exact resource, a template with a completer, a hidden resource whose
//! reader and authorization data carry a secret) always answers a served
//! method with JSON, an error object whose code is one the revision allows,
//! and never a secret; and that the hidden resource answers exactly like an
//! unregistered one (also through the resource tools' `tools/call`).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mcp_resources::completion::{CompletionRequest, CompletionSink, ResourceCompleter};
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

fuzz_target!(|data: &[u8]| {
    thread_local!(static REGISTRY: Resources = registry());
    let mut input = Input::new(data);
    let method = input.pick(&METHODS);
    let revision = input.pick(&ProtocolRevision::ALL);
    let params = input.rest();

    // The parser against serde_json: it accepts no text serde_json refuses,
    // and the members it reads are serde_json's.
    if let Some(m) = RequestMethod::parse(method.as_bytes()) {
        if m != RequestMethod::CompletionComplete {
            if let Ok(p) = RequestParams::parse(m, params) {
                // Empty (or whitespace-only) params text and `null` mean
                // params were omitted.
                let v: serde_json::Value = if params.iter().all(|b| b" \t\n\r".contains(b)) {
                    serde_json::Value::Null
                } else {
                    serde_json::from_slice(params).expect("accepted params are JSON")
                };
                let empty = serde_json::Map::new();
                let obj = match &v {
                    serde_json::Value::Null => &empty,
                    v => v
                        .as_object()
                        .expect("accepted params are an object or null"),
                };
                let member = |k: &str| obj.get(k).and_then(|v| v.as_str());
                // Each method reads its own member and nothing else.
                if m == RequestMethod::ResourcesRead {
                    assert_eq!(p.uri.as_deref(), member("uri"), "uri");
                    assert_eq!(p.cursor, None, "cursor");
                } else {
                    assert_eq!(p.cursor.as_deref(), member("cursor"), "cursor");
                    assert_eq!(p.uri, None, "uri");
                }
            }
        }
    }

    REGISTRY.with(|r| {
        let options = RequestOptions {
            revision,
            scope_key: b"fuzz".to_vec(),
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
                allowed_codes(response.revision()).contains(&code),
                "{code} on {:?}",
                response.revision()
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
