//! The message entry point: one whole JSON-RPC message in, the reply out.
//!
//! The input is one byte that picks the negotiated revision, then the
//! message text. Checks that `Resources::message` on a small registry (an
//! exact resource, a template with a completer, a hidden resource whose
//! reader and authorization data carry a secret) always replies, with
//! either nothing to send or one JSON-RPC response object (`jsonrpc` "2.0",
//! an id, exactly one of `result` and `error`, an error code the revision
//! allows); that a message serde_json reads as a valid request is answered
//! exactly as `Resources::request` answers its method and raw params text
//! (or handed back when `request` does not serve it), with its id as sent;
//! that text serde_json refuses is a parse error; that no secret reaches a
//! reply; and that the hidden resource answers exactly like an unregistered
//! one.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mcp_resources::completion::{CompletionRequest, CompletionSink, ResourceCompleter};
use mcp_resources::message::MessageKind;
use mcp_resources::{
    CallContext, CallbackError, ProtocolRevision, RequestOptions, ResourceBinding,
    ResourceDefinition, ResourceHandler, ResourceMatch, ResourcePayload, ResourcePolicy,
    ResourceReadPlan, ResourceTarget, Resources, Visibility,
};
use mcp_resources_fuzz::Input;
use serde::Deserialize;
use serde_json::value::RawValue;

const SECRET: &str = "fuzz-secret-7f3a";
const HIDDEN: &str = "fz://hidden";

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

struct Completer;

impl ResourceCompleter for Completer {
    fn complete(
        &self,
        _: &CallContext,
        request: &CompletionRequest,
        sink: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        for v in ["a", "b c", "..", request.value()] {
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

/// A request's envelope as serde_json reads it (a repeated member, or one
/// of the wrong type, is an error, as for the library).
#[derive(Deserialize)]
struct Envelope<'a> {
    jsonrpc: String,
    method: String,
    #[serde(borrow)]
    id: &'a RawValue,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
}

/// The text with a `nextCursor` value blanked (cursors carry a fresh nonce).
fn without_cursor(json: &str) -> String {
    let key = "\"nextCursor\":\"";
    match json.find(key) {
        None => json.to_string(),
        Some(at) => {
            let start = at + key.len();
            let end = start + json[start..].find('"').expect("a closed cursor");
            format!("{}{}", &json[..start], &json[end..])
        }
    }
}

fn check_reply(r: &Resources, text: &[u8], options: &RequestOptions) -> String {
    let reply = r
        .message(text, options)
        .expect("a scope key is set: always a reply");
    let json = reply.json();
    assert!(!json.contains(SECRET), "a secret reached a reply: {json}");
    if json.is_empty() {
        assert!(!reply.is_error());
        return String::new();
    }
    let v: serde_json::Value = serde_json::from_str(json).expect("replies are JSON");
    assert_eq!(v["jsonrpc"], "2.0");
    assert!(v.get("id").is_some());
    assert!(v.get("result").is_some() != v.get("error").is_some());
    if let Some(e) = v.get("error") {
        let code = e["code"].as_i64().expect("an error has a code");
        assert!(
            [-32700, -32600, -32602, -32603, -32002, -32022].contains(&code),
            "{code}"
        );
    }
    json.to_string()
}

fuzz_target!(|data: &[u8]| {
    thread_local!(static REGISTRY: Resources = registry());
    let mut input = Input::new(data);
    let revision = input.pick(&ProtocolRevision::ALL);
    let text = input.rest();
    let options = RequestOptions {
        scope_key: b"fuzz".to_vec(),
        call: mcp_resources::CallOptions {
            protocol_revision: revision,
            ..mcp_resources::CallOptions::default()
        },
        ..RequestOptions::default()
    };
    REGISTRY.with(|r| {
        let json = check_reply(r, text, &options);
        let Ok(s) = std::str::from_utf8(text) else {
            return;
        };
        // Short text without \u escapes (no lone surrogate, no nesting
        // beyond the scan's bound): JSON exactly when serde_json says so.
        if s.len() < 10_000
            && !s.contains("\\u")
            && !s.trim_matches([' ', '\t', '\n', '\r']).is_empty()
        {
            let is_json = serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok();
            let parse_error = json.contains("\"code\":-32700");
            assert_eq!(parse_error, !is_json, "{s:?}: {json}");
        }
        // A valid request: answered as the one-call request answers it.
        let Ok(env) = serde_json::from_str::<Envelope>(s) else {
            return;
        };
        let id = env.id.get();
        let integer = id.bytes().all(|b| b.is_ascii_digit() || b == b'-') && !id.is_empty();
        let string_id = id.starts_with('"') && serde_json::from_str::<String>(id).is_ok();
        if env.jsonrpc != "2.0" || !(string_id || (integer && id.parse::<i128>().is_ok())) {
            return;
        }
        let _ = (env.result, env.error);
        let params = env.params.map_or("", |p| p.get());
        let reply = r.message(text, &options).unwrap();
        assert_eq!(reply.id(), id);
        assert_eq!(reply.kind(), MessageKind::Request);
        match r.request(env.method.as_bytes(), params.as_bytes(), &options) {
            Ok(want) => {
                assert!(reply.is_handled());
                let canceled = want
                    .failure()
                    .is_some_and(|f| f.kind() == mcp_resources::FailureKind::Canceled);
                if !canceled {
                    let member = if want.is_error() { "error" } else { "result" };
                    assert_eq!(
                        without_cursor(reply.json()),
                        without_cursor(&format!(
                            r#"{{"jsonrpc":"2.0","id":{id},"{member}":{}}}"#,
                            want.json()
                        )),
                    );
                }
            }
            Err(mcp_resources::RequestError::MethodNotHandled) => {
                assert!(!reply.is_handled() && reply.json().is_empty());
                assert_eq!(reply.method(), env.method);
                assert_eq!(reply.params(), params.as_bytes());
            }
            Err(e) => panic!("{e}"),
        }
        // The hidden resource answers exactly like an unregistered one.
        if s.contains(HIDDEN) {
            let swapped = s.replace(HIDDEN, "fz://absnt");
            let other = check_reply(r, swapped.as_bytes(), &options);
            assert_eq!(
                without_cursor(&json.replace(HIDDEN, "fz://absnt")),
                without_cursor(&other),
                "hidden and unregistered differ"
            );
        }
    });
});
