//! A stdio MCP server (one JSON-RPC message per line) whose reads ask for
//! input first (docs/BEHAVIOUR.md §18), for the end-to-end check with the
//! official clients (`scripts/input-e2e.sh`): `Resources::message` answers
//! the library's methods, this loop answers `initialize`,
//! `server/discover` and `ping`, and -32601 for anything else.
//!
//! - `doc://consent`: the policy asks the user's consent (a form
//!   elicitation with a boolean `confirm`); accepted with `confirm` true it
//!   reads "consented body", declined it is not found;
//! - `doc://roots`: the body read asks for the client's roots and reads
//!   "roots: <the ListRootsResult>";
//! - `doc://plain`: "plain body"; `doc://hidden`: hidden (never asks).
//!
//! Usage: `cargo run --example input_stdio`

use std::io::{BufRead, Write};
use std::sync::Arc;

use mcp_resources::*;

const CAPS: &str = r#""capabilities":{"resources":{}}"#;
const INFO: &str = r#"{"name":"mcpr-input-stdio","version":"0.1.0"}"#;
const CONSENT: &str = r#"{"method":"elicitation/create","params":{"mode":"form","message":"Read the sensitive document?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean","title":"Read it?"}},"required":["confirm"]}}}"#;

struct Consent;

impl ResourcePolicy for Consent {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }

    fn visibility(&self, _: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(if t.uri() == "doc://hidden" {
            Visibility::HIDDEN
        } else {
            Visibility::DISCLOSED
        })
    }

    fn read(&self, call: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        if t.uri() != "doc://consent" && t.uri() != "doc://hidden" {
            return Ok(());
        }
        let answer = call.input().and_then(|i| i.get("consent"));
        match answer.and_then(|r| r.action()) {
            Some(ElicitAction::Accept)
                if answer.and_then(|r| r.content("confirm")) == Some("true") =>
            {
                Ok(())
            }
            Some(ElicitAction::Decline) | Some(ElicitAction::Cancel) => {
                Err(CallbackError::Unavailable)
            }
            _ if call.phase() != CallPhase::FirstCheck => Err(CallbackError::Unavailable),
            _ => {
                let requests = InputRequests::new()
                    .with(
                        "consent",
                        InputRequest::from_json(CONSENT).map_err(CallbackError::failed)?,
                    )
                    .map_err(CallbackError::failed)?;
                Err(CallbackError::input_required(InputRequired::new(requests)))
            }
        }
    }
}

struct Reader;

impl ResourceHandler for Reader {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }

    fn read(
        &self,
        call: &CallContext,
        t: &ResourceTarget,
    ) -> Result<ResourcePayload, CallbackError> {
        let text = match t.uri() {
            "doc://roots" => match call.input().and_then(|i| i.get("roots")) {
                Some(r) => format!("roots: {}", r.json()),
                None => {
                    let requests = InputRequests::new()
                        .with("roots", InputRequest::roots())
                        .map_err(CallbackError::failed)?;
                    return Err(CallbackError::input_required(InputRequired::new(requests)));
                }
            },
            "doc://consent" => "consented body".to_string(),
            _ => "plain body".to_string(),
        };
        ResourcePayload::text("text/plain", &text).map_err(CallbackError::failed)
    }
}

fn registry() -> Resources {
    let mut b = Resources::builder().policy(Arc::new(Consent));
    for uri in [
        "doc://consent",
        "doc://roots",
        "doc://plain",
        "doc://hidden",
    ] {
        let def = format!(
            r#"{{"uri":"{uri}","name":"{}","mimeType":"text/plain"}}"#,
            &uri[6..]
        );
        b = b.binding(ResourceBinding::new(&def, Arc::new(Reader)).expect("a valid definition"));
    }
    b.build().expect("a valid registry")
}

fn main() {
    let r = registry();
    let options = RequestOptions {
        scope_key: b"stdio-session".to_vec(),
        call: CallOptions {
            protocol_revision: ProtocolRevision::V2025_11_25,
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    let init = format!(r#"{{"protocolVersion":"2025-11-25",{CAPS},"serverInfo":{INFO}}}"#);
    let discover = format!(
        r#"{{"supportedVersions":["2025-11-25","2026-07-28"],{CAPS},"_meta":{{"io.modelcontextprotocol/serverInfo":{INFO}}},"resultType":"complete","ttlMs":0,"cacheScope":"public"}}"#
    );
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(reply) = r.message(line.as_bytes(), &options) else {
            continue;
        };
        if !reply.json().is_empty() {
            let _ = writeln!(out, "{}", reply.json());
        } else if !reply.is_handled() && reply.kind() == MessageKind::Request {
            let result = match reply.method() {
                "initialize" => Some(init.as_str()),
                "server/discover" => Some(discover.as_str()),
                "ping" => Some("{}"),
                _ => None,
            };
            let _ = match result {
                Some(res) => writeln!(
                    out,
                    r#"{{"jsonrpc":"2.0","id":{},"result":{res}}}"#,
                    reply.id()
                ),
                None => writeln!(
                    out,
                    r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32601,"message":"Method not found"}}}}"#,
                    reply.id()
                ),
            };
        }
        let _ = out.flush();
    }
}
