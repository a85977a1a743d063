//! The completion-value round trip with the official clients' own RFC 6570
//! substitution (docs/BEHAVIOUR.md §13, rule 5), run by
//! `scripts/client-checks.sh`:
//!
//! 1. `cargo run --example completion_values -- offer DIR` completes
//!    `{file}` of `file:///projects/{project}/files/{file}` with a completer
//!    that offers hostile and ordinary values, and writes what it offered
//!    and the library's `completion/complete` result to
//!    `DIR/completion_values.json`;
//! 2. the client scripts (`tests/clients/expand_values.py`, `.mjs`) parse
//!    that result with their SDK, substitute each value with their SDK's
//!    `UriTemplate`, and write `[{"value": …, "uri": …}]` files;
//! 3. `cargo run --example completion_values -- read FILE…` reads every
//!    URI through the one-call function and checks that the resolver's
//!    capture of `{file}` is the value (prints "N passed, M failed"; exits
//!    non-zero on any failure).

use std::sync::Arc;

use mcp_resources::*;
use serde_json::{json, Value};

const TEMPLATE: &str = "file:///projects/{project}/files/{file}";

/// What the completer offers: the values issue reports named (`%`, `%zz`,
/// controls, `"`, `<script>`, U+202E), the other families the rules drop,
/// and values with every kind of character a client must encode.
const OFFERED: &[&str] = &[
    "%",
    "%zz",
    "%41",
    "a%2Fb",
    "50%",
    "a?b",
    "a#b",
    "a/b",
    "..",
    ".",
    "a\\b",
    "a\0b",
    "a\nb",
    "\t",
    "\u{1b}[31m",
    "\u{7f}",
    "\u{85}",
    "gpj.\u{202e}exe",
    "\u{2066}x",
    "zero\u{200b}width",
    "\u{feff}",
    "\u{2028}",
    "",
    "\"quoted\"",
    "<script>alert(1)",
    "a b",
    "a+b",
    "a&b=c",
    "é",
    "日本語",
    "emoji 😀",
    "[x]",
    "{x}",
    "a|b^c`d",
    "a;b,c:d@e!f$g'h(i)j*k",
    "~tilde_-.",
    "...",
    "plain",
];

/// `OFFERED`, then the longest value of two-byte characters whose encoded
/// URI (with `{project}` = `p`) fits in the default `max_uri_bytes` (2048)
/// and one character more: 2048 bytes minus the template's 24 literal bytes
/// and one byte of project leave 2023 for the value, 337 times `é` (6
/// bytes each encoded) and not 338.
fn offered() -> Vec<String> {
    let mut all: Vec<String> = OFFERED.iter().map(|v| v.to_string()).collect();
    all.push("é".repeat(337));
    all.push("é".repeat(338));
    all
}

/// Offers `offered()`, in order.
struct Offer;

impl ResourceCompleter for Offer {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        for v in offered() {
            let _ = out.add(&v);
        }
        Ok(())
    }
}

/// Plans the matched URI; its body is the capture of `{file}`.
struct Echo;

impl ResourceHandler for Echo {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let file = m.capture("file").unwrap_or_default();
        let auth =
            serde_json::to_string(&json!({ "file": file })).map_err(CallbackError::failed)?;
        let t = ResourceTarget::new(m.uri(), "", Some(&auth)).map_err(CallbackError::failed)?;
        Ok(ResourceReadPlan::single(t))
    }

    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        let auth: Value = serde_json::from_str(t.authorization().unwrap_or("{}"))
            .map_err(CallbackError::failed)?;
        let file = auth["file"].as_str().unwrap_or_default();
        ResourcePayload::text("text/plain", file).map_err(CallbackError::failed)
    }
}

fn registry() -> Result<Resources, Failure> {
    let def = format!(r#"{{"uriTemplate":"{TEMPLATE}","name":"files"}}"#);
    Resources::builder()
        .policy(Arc::new(AllowAll))
        .binding(ResourceBinding::new(&def, Arc::new(Echo))?.with_completer(Arc::new(Offer)))
        .build()
}

fn request(r: &Resources, method: &str, params: &Value) -> Result<Response, RequestError> {
    let options = RequestOptions {
        call: CallOptions {
            protocol_revision: ProtocolRevision::V2025_11_25,
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    r.request(method.as_bytes(), params.to_string().as_bytes(), &options)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = registry()?;
    match args.first().map(String::as_str) {
        Some("offer") if args.len() == 2 => {
            let params = json!({
                "ref": {"type": "ref/resource", "uri": TEMPLATE},
                "argument": {"name": "file", "value": ""},
                "context": {"arguments": {"project": "p"}},
            });
            let response = request(&r, "completion/complete", &params)?;
            let result: Value = serde_json::from_str(response.json())?;
            let out = json!({
                "template": TEMPLATE,
                "context": {"project": "p"},
                "offered": offered(),
                "result": result,
            });
            let path = std::path::Path::new(&args[1]).join("completion_values.json");
            std::fs::write(path, serde_json::to_string_pretty(&out)?)?;
            Ok(())
        }
        Some("read") if args.len() >= 2 => {
            let (mut passed, mut failed) = (0, 0);
            for file in &args[1..] {
                let expanded: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(file)?)?;
                for e in expanded {
                    let (value, uri) = (e["value"].as_str(), e["uri"].as_str());
                    let (Some(value), Some(uri)) = (value, uri) else {
                        return Err(format!("{file}: malformed entry {e}").into());
                    };
                    let response = request(&r, "resources/read", &json!({ "uri": uri }))?;
                    let result: Value = serde_json::from_str(response.json())?;
                    let text = result["contents"][0]["text"].as_str();
                    if !response.is_error() && text == Some(value) {
                        passed += 1;
                    } else {
                        failed += 1;
                        eprintln!("FAIL: {file}: {value:?} as {uri:?}: {}", response.json());
                    }
                }
            }
            println!("{passed} passed, {failed} failed");
            if failed > 0 || passed == 0 {
                std::process::exit(1);
            }
            Ok(())
        }
        _ => Err("usage: completion_values offer DIR | read FILE...".into()),
    }
}
