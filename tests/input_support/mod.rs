//! A registry whose policy and readers ask for input (docs/BEHAVIOUR.md
//! §18), for the input-required tests.
//!
//! - `doc://consent`: the policy's `read` permission asks for consent (a
//!   form elicitation, key `consent`) until the retry's response accepts
//!   with `confirm: true`;
//! - `doc://body`: the body read asks for a summary (sampling, key
//!   `summary`) until the retry carries one, then returns its text;
//! - `doc://plain`: asks for nothing;
//! - `doc://hidden`: undiscoverable; `doc://invisible`: requested target
//!   hidden; both would ask for consent if they were ever asked;
//! - `doc://asks/discover`, `doc://asks/visibility`, `doc://asks/resolve`,
//!   `doc://asks/recheck`: a callback that may not ask asks anyway;
//! - `doc://bundle`: two items whose body reads both ask (keys `a`, `b`);
//!   `doc://clash`: two items whose body reads ask with the same key;
//! - `doc://revoked`: the body read asks, and the recheck revokes the item.
//!
//! Every callback records the phase, the URI and the input responses it
//! saw.
#![allow(dead_code)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use mcp_resources::*;

// The policy form of this test binary (`plan_form`, `in_form`, `PlanOnly`).
#[path = "../policy_form/mod.rs"]
mod policy_form;
pub use policy_form::*;

pub const CONSENT: &str = "doc://consent";
pub const BODY: &str = "doc://body";
pub const PLAIN: &str = "doc://plain";
pub const HIDDEN: &str = "doc://hidden";
pub const INVISIBLE: &str = "doc://invisible";
pub const UNREGISTERED: &str = "doc://nowhere";
pub const KEY: &[u8] = b"input-required-test-key-0123456789abcdef";
pub const SCOPE: &[u8] = b"principal:alice";

/// What a callback saw: phase, URI and the input responses (JSON of each
/// asked key, or none).
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    pub phase: CallPhase,
    pub uri: String,
    pub input: Option<InputResponses>,
}

pub type Log = Arc<Mutex<Vec<Seen>>>;

fn note(log: &Log, call: &CallContext, uri: &str) {
    log.lock().unwrap().push(Seen {
        phase: call.phase(),
        uri: uri.to_string(),
        input: call.input().cloned(),
    });
}

/// The form the consent elicitation shows.
pub const CONSENT_SCHEMA: &str = r#"{"type":"object","properties":{"confirm":{"type":"boolean","title":"Read the sensitive document?"}},"required":["confirm"]}"#;

pub fn consent_request() -> InputRequest {
    InputRequest::elicit_form("May I read the sensitive document?", CONSENT_SCHEMA).unwrap()
}

pub fn summary_request() -> InputRequest {
    InputRequest::sampling(
        r#"{"messages":[{"role":"user","content":{"type":"text","text":"Summarise"}}],"maxTokens":50}"#,
    )
    .unwrap()
}

fn ask(key: &str, request: InputRequest) -> CallbackError {
    CallbackError::input_required(InputRequired::new(
        InputRequests::new().with(key, request).unwrap(),
    ))
}

/// Whether the retry carries an accepted consent with `confirm: true`.
pub fn consented(call: &CallContext) -> bool {
    call.input()
        .and_then(|i| i.get("consent"))
        .is_some_and(|r| {
            r.action() == Some(ElicitAction::Accept) && r.content("confirm") == Some("true")
        })
}

pub struct AskingPolicy {
    pub log: Log,
    /// Makes `doc://revoked` revoked at the recheck.
    pub revoke: bool,
    /// Targets hidden from now on (visibility).
    pub hide: Arc<Mutex<Vec<String>>>,
}

impl ResourcePolicy for AskingPolicy {
    fn discover(&self, call: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        let uri = d.uri_or_template();
        note(&self.log, call, uri);
        match uri {
            HIDDEN => Err(CallbackError::Unavailable),
            "doc://asks/discover" => Err(ask("consent", consent_request())),
            _ => Ok(()),
        }
    }

    fn visibility(
        &self,
        call: &CallContext,
        t: &ResourceTarget,
    ) -> Result<Visibility, CallbackError> {
        note(&self.log, call, t.uri());
        if self.hide.lock().unwrap().iter().any(|h| h == t.uri()) {
            return Ok(Visibility::HIDDEN);
        }
        match t.uri() {
            INVISIBLE => Ok(Visibility::HIDDEN),
            "doc://asks/visibility" => Err(ask("consent", consent_request())),
            _ => Ok(Visibility::DISCLOSED),
        }
    }

    fn read(&self, call: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        note(&self.log, call, t.uri());
        match t.uri() {
            CONSENT | HIDDEN | INVISIBLE if !consented(call) => {
                Err(ask("consent", consent_request()))
            }
            "doc://asks/recheck" if call.phase() == CallPhase::Recheck => {
                Err(ask("consent", consent_request()))
            }
            "doc://revoked/item" if self.revoke && call.phase() == CallPhase::Recheck => {
                Err(CallbackError::Unavailable)
            }
            _ => Ok(()),
        }
    }
}

/// Reads every target as text; asks where the module documentation says.
pub struct AskingReader {
    pub log: Log,
}

impl ResourceHandler for AskingReader {
    fn resolve(
        &self,
        call: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        note(&self.log, call, m.uri());
        let items = |uris: &[&str]| {
            let targets = uris
                .iter()
                .map(|u| ResourceTarget::new(u, "", None).unwrap())
                .collect::<Vec<_>>();
            ResourceReadPlan::new(ResourceTarget::new(m.uri(), "", None).unwrap(), targets)
                .map_err(CallbackError::failed)
        };
        match m.uri() {
            "doc://asks/resolve" => Err(ask("consent", consent_request())),
            "doc://bundle" => items(&["doc://bundle/a", "doc://bundle/b", "doc://bundle/c"]),
            "doc://clash" => items(&["doc://clash/a", "doc://clash/b"]),
            "doc://revoked" => items(&["doc://revoked/item", "doc://revoked/other"]),
            _ => ResourceReadPlan::single_for(m).map_err(CallbackError::failed),
        }
    }

    fn read(
        &self,
        call: &CallContext,
        t: &ResourceTarget,
    ) -> Result<ResourcePayload, CallbackError> {
        note(&self.log, call, t.uri());
        let answered = |key: &str| call.input().and_then(|i| i.get(key)).is_some();
        match t.uri() {
            BODY | "doc://revoked/item" => match call.input().and_then(|i| i.get("summary")) {
                Some(r) => ResourcePayload::text("text/plain", &format!("summary: {}", r.json()))
                    .map_err(CallbackError::failed),
                None => Err(ask("summary", summary_request())),
            },
            "doc://bundle/a" if !answered("a") => Err(ask("a", summary_request())),
            "doc://bundle/b" if !answered("b") => Err(CallbackError::input_required(
                InputRequired::new(
                    InputRequests::new()
                        .with("b", InputRequest::roots())
                        .unwrap(),
                )
                .with_state(b"own state of b")
                .unwrap(),
            )),
            "doc://clash/a" | "doc://clash/b" => Err(ask("same", summary_request())),
            uri => ResourcePayload::text("text/plain", &format!("body of {uri}"))
                .map_err(CallbackError::failed),
        }
    }
}

/// The registry, its clock (Unix ms, settable) and the callback log.
pub struct Host {
    pub resources: Resources,
    pub clock: Arc<AtomicU64>,
    pub log: Log,
    pub hide: Arc<Mutex<Vec<String>>>,
}

pub const URIS: &[&str] = &[
    CONSENT,
    BODY,
    PLAIN,
    HIDDEN,
    INVISIBLE,
    "doc://asks/discover",
    "doc://asks/visibility",
    "doc://asks/resolve",
    "doc://asks/recheck",
    "doc://bundle",
    "doc://clash",
    "doc://revoked",
];

/// The registry of `URIS` plus `extra` definitions, keyed by `key`,
/// public cache hints declared (so that a retry's `private` shows).
pub fn host_with(key: &[u8], extra: &[&str], revoke: bool) -> Host {
    let log: Log = Arc::default();
    let hide: Arc<Mutex<Vec<String>>> = Arc::default();
    let clock = Arc::new(AtomicU64::new(1_800_000_000_000));
    let c = clock.clone();
    let reader = Arc::new(AskingReader { log: log.clone() });
    let mut b = Resources::builder()
        .policy(in_form(Arc::new(AskingPolicy {
            log: log.clone(),
            revoke,
            hide: hide.clone(),
        })))
        .cursor_key(key)
        .clock(Arc::new(move || c.load(Ordering::SeqCst)))
        .cache_hints(RegistryCacheHints::new(60_000, true));
    for uri in URIS.iter().chain(extra) {
        let def = format!(
            r#"{{"uri":"{uri}","name":"{}"}}"#,
            uri.replace([':', '/'], "_")
        );
        let binding = ResourceBinding::new(&def, reader.clone())
            .unwrap()
            .with_cache_hints(CacheHints::new(60_000, true));
        b = b.binding(binding);
    }
    Host {
        resources: b.build().unwrap(),
        clock,
        log,
        hide,
    }
}

pub fn host() -> Host {
    host_with(KEY, &[], false)
}

/// Capabilities declaring elicitation (form), sampling and roots.
pub const CAPS: &str = r#"{"elicitation":{},"sampling":{},"roots":{}}"#;

/// The params of a 2026-07-28 read of `uri`, with `extra` members
/// (`,"requestState":…` and so on) and the client capabilities.
pub fn params(uri: &str, extra: &str) -> String {
    format!(
        r#"{{"uri":"{uri}"{extra},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{CAPS}}}}}"#
    )
}

pub fn request_options(scope: &[u8]) -> RequestOptions {
    RequestOptions {
        scope_key: scope.to_vec(),
        ..RequestOptions::default()
    }
}

/// `resources/read` through the one-call request.
pub fn read(r: &Resources, params: &str, scope: &[u8]) -> Response {
    r.request(
        b"resources/read",
        params.as_bytes(),
        &request_options(scope),
    )
    .unwrap()
}

pub fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

/// The `requestState` of an input-required response.
pub fn state_of(resp: &Response) -> String {
    assert!(resp.is_input_required(), "{}", resp.json());
    json(resp.json())["requestState"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The retry members: the state and the responses object.
pub fn retry(state: &str, responses: &str) -> String {
    format!(r#","requestState":"{state}","inputResponses":{responses}"#)
}

pub const ACCEPT: &str = r#"{"consent":{"action":"accept","content":{"confirm":true}}}"#;
