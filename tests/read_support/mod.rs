//! Scriptable in-memory policy and readers for the read-pipeline tests.
//!
//! The policy decides per URI and per phase: the first check (before the
//! body reads) and the final check (after them). The phase switches when
//! `discover` is called the second time, i.e. at the recheck. Every
//! callback appends to a shared event log so tests can assert ordering.
#![allow(dead_code)]

use mcp_resources::CallOptions;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_resources::*;

pub const BUNDLE: &str = "bundle://b";

// The policy form of this test binary (`plan_form`, `in_form`, `PlanOnly`).
#[path = "../policy_form/mod.rs"]
mod policy_form;
pub use policy_form::*;
pub const TEMPLATE: &str = "bundle://t/{id}";
pub const SECRET_AUTH: &str = r#"{"token":"AUTH-SECRET-7f3e"}"#;
pub const SECRET_CAUSE: &str = "PRIVATE-CAUSE-disk-/var/secret";

pub type Log = Arc<Mutex<Vec<String>>>;

#[derive(Clone, Copy, Debug)]
pub enum Perm {
    Allow,
    Deny,
    Fail,
    Panic,
}

#[derive(Clone, Copy, Debug)]
pub enum Vis {
    Show(Visibility),
    Fail,
    Deny,
    Panic,
}

pub const SHOWN: Vis = Vis::Show(Visibility::DISCLOSED);
pub const QUIET: Vis = Vis::Show(Visibility::VISIBLE);
pub const HIDDEN: Vis = Vis::Show(Visibility::HIDDEN);

#[derive(Default)]
struct Rules {
    discover: [Option<Perm>; 2],
    vis: HashMap<String, [Vis; 2]>,
    perm: HashMap<String, [Perm; 2]>,
}

/// A policy scripted per URI and phase.
pub struct ScriptPolicy {
    discovers: AtomicUsize,
    rules: Mutex<Rules>,
    pub log: Log,
}

fn apply(p: Perm) -> Result<(), CallbackError> {
    match p {
        Perm::Allow => Ok(()),
        Perm::Deny => Err(CallbackError::Unavailable),
        Perm::Fail => Err(CallbackError::failed(SECRET_CAUSE)),
        Perm::Panic => panic!("policy panic {SECRET_CAUSE}"),
    }
}

impl ScriptPolicy {
    pub fn new(log: Log) -> Self {
        ScriptPolicy {
            discovers: AtomicUsize::new(0),
            rules: Mutex::new(Rules::default()),
            log,
        }
    }
    fn phase(&self) -> usize {
        usize::from(self.discovers.load(Ordering::SeqCst) >= 2)
    }
    /// Restarts the phase count (for a fresh read on the same registry).
    pub fn reset(&self) {
        self.discovers.store(0, Ordering::SeqCst);
    }
    pub fn discover(&self, first: Perm, last: Perm) {
        self.rules.lock().unwrap().discover = [Some(first), Some(last)];
    }
    pub fn vis(&self, uri: &str, first: Vis, last: Vis) {
        self.rules
            .lock()
            .unwrap()
            .vis
            .insert(uri.to_string(), [first, last]);
    }
    pub fn perm(&self, uri: &str, first: Perm, last: Perm) {
        self.rules
            .lock()
            .unwrap()
            .perm
            .insert(uri.to_string(), [first, last]);
    }
}

impl ResourcePolicy for ScriptPolicy {
    fn discover(&self, _: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        let n = self.discovers.fetch_add(1, Ordering::SeqCst);
        let phase = usize::from(n >= 1);
        self.log
            .lock()
            .unwrap()
            .push(format!("discover {}", d.uri_or_template()));
        let p = self.rules.lock().unwrap().discover[phase].unwrap_or(Perm::Allow);
        apply(p)
    }
    fn visibility(&self, _: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        let phase = self.phase();
        self.log
            .lock()
            .unwrap()
            .push(format!("visibility {}", t.uri()));
        let v = self
            .rules
            .lock()
            .unwrap()
            .vis
            .get(t.uri())
            .map_or(SHOWN, |r| r[phase]);
        match v {
            Vis::Show(v) => Ok(v),
            Vis::Fail => Err(CallbackError::failed(SECRET_CAUSE)),
            Vis::Deny => Err(CallbackError::Unavailable),
            Vis::Panic => panic!("visibility panic"),
        }
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        let phase = self.phase();
        self.log.lock().unwrap().push(format!("permit {}", t.uri()));
        let p = self
            .rules
            .lock()
            .unwrap()
            .perm
            .get(t.uri())
            .map_or(Perm::Allow, |r| r[phase]);
        apply(p)
    }
}

/// What a body read does.
#[derive(Clone, Debug)]
pub enum Body {
    Text(String),
    Mime(String, String),
    Blob(Vec<u8>),
    Meta(String, String),
    Fail,
    Unavailable,
    Panic,
    /// Ignores cancellation: sleeps, then returns text.
    Sleep(Duration),
    /// Polls its call context and fails once it is cancelled.
    Cooperative,
    /// Tries to build a payload with an invalid MIME type.
    Malformed,
}

#[derive(Clone, Debug)]
pub enum ResolveMode {
    Plan,
    Unavailable,
    Fail,
    Panic,
    /// Returns an item with the given URI instead of the scripted ones.
    Replace(String),
}

/// What a callback saw of its call context.
#[derive(Clone, Debug)]
pub struct Seen {
    pub what: String,
    pub remaining: Duration,
    pub max_bytes: Option<u64>,
    pub request_data: Option<u64>,
    pub canceled: bool,
}

/// A host sizer used as `encoded_size_hint`.
pub type Sizer = Arc<dyn Fn(&ResourcePayload) -> u64 + Send + Sync>;

/// A binding handler with scripted items and bodies.
pub struct ScriptHandler {
    pub items: Mutex<Vec<(String, String, Option<String>)>>,
    pub bodies: Mutex<HashMap<String, Body>>,
    pub resolve: Mutex<ResolveMode>,
    pub hint: Mutex<Option<Sizer>>,
    pub seen: Mutex<Vec<Seen>>,
    pub reads: AtomicUsize,
    pub log: Log,
}

fn seen(what: &str, c: &CallContext) -> Seen {
    Seen {
        what: what.to_string(),
        remaining: c.remaining(),
        max_bytes: c.max_bytes(),
        request_data: c
            .request_data()
            .and_then(|d| d.downcast_ref::<u64>().copied()),
        canceled: c.is_canceled(),
    }
}

impl ScriptHandler {
    pub fn new(log: Log, items: &[&str]) -> Self {
        ScriptHandler {
            items: Mutex::new(
                items
                    .iter()
                    .map(|u| (u.to_string(), String::new(), Some(SECRET_AUTH.to_string())))
                    .collect(),
            ),
            bodies: Mutex::new(HashMap::new()),
            resolve: Mutex::new(ResolveMode::Plan),
            hint: Mutex::new(None),
            seen: Mutex::new(Vec::new()),
            reads: AtomicUsize::new(0),
            log,
        }
    }
    pub fn body(&self, uri: &str, b: Body) {
        self.bodies.lock().unwrap().insert(uri.to_string(), b);
    }
    pub fn reads_logged(&self) -> Vec<String> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter_map(|e| e.strip_prefix("read ").map(str::to_string))
            .collect()
    }
}

impl ResourceHandler for ScriptHandler {
    fn resolve(
        &self,
        c: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        self.log
            .lock()
            .unwrap()
            .push(format!("resolve {}", m.uri()));
        self.seen.lock().unwrap().push(seen("resolve", c));
        let mode = self.resolve.lock().unwrap().clone();
        let items: Vec<(String, String, Option<String>)> = match mode {
            ResolveMode::Plan => self.items.lock().unwrap().clone(),
            ResolveMode::Unavailable => return Err(CallbackError::Unavailable),
            ResolveMode::Fail => return Err(CallbackError::failed(SECRET_CAUSE)),
            ResolveMode::Panic => panic!("resolve panic"),
            ResolveMode::Replace(u) => vec![(u, String::new(), None)],
        };
        let requested =
            ResourceTarget::new(m.uri(), "", Some(SECRET_AUTH)).map_err(CallbackError::failed)?;
        let mut targets = Vec::new();
        for (u, rep, auth) in items {
            targets.push(
                ResourceTarget::new(&u, &rep, auth.as_deref()).map_err(CallbackError::failed)?,
            );
        }
        ResourceReadPlan::new(requested, targets).map_err(CallbackError::failed)
    }

    fn read(&self, c: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        self.log.lock().unwrap().push(format!("read {}", t.uri()));
        self.seen.lock().unwrap().push(seen(t.uri(), c));
        let body = self
            .bodies
            .lock()
            .unwrap()
            .get(t.uri())
            .cloned()
            .unwrap_or_else(|| Body::Text(format!("body of {}", t.uri())));
        let p = match body {
            Body::Text(s) => ResourcePayload::text_owned("text/plain", s),
            Body::Mime(m, s) => ResourcePayload::text_owned(&m, s),
            Body::Blob(b) => ResourcePayload::blob_owned("application/octet-stream", b),
            Body::Meta(s, m) => {
                ResourcePayload::text_owned("text/plain", s).and_then(|p| p.with_meta_json(&m))
            }
            Body::Fail => return Err(CallbackError::failed(SECRET_CAUSE)),
            Body::Unavailable => return Err(CallbackError::Unavailable),
            Body::Panic => panic!("reader panic {SECRET_CAUSE}"),
            Body::Sleep(d) => {
                std::thread::sleep(d);
                ResourcePayload::text("text/plain", "late")
            }
            Body::Cooperative => {
                let until = Instant::now() + Duration::from_secs(20);
                while !c.is_canceled() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(1));
                }
                return Err(CallbackError::failed("noticed cancellation"));
            }
            Body::Malformed => ResourcePayload::text("not a mime type", "x"),
        };
        p.map_err(CallbackError::failed)
    }

    fn encoded_size_hint(&self, _: &ResourceTarget, p: &ResourcePayload) -> Option<u64> {
        self.hint.lock().unwrap().as_ref().map(|h| h(p))
    }
}

/// A registry with one exact bundle definition and one template, both bound
/// to the scripted handler.
pub struct Fx {
    pub log: Log,
    pub policy: Arc<ScriptPolicy>,
    pub handler: Arc<ScriptHandler>,
    pub limits: ResourceLimits,
}

impl Fx {
    pub fn new(items: &[&str]) -> Fx {
        let log: Log = Arc::new(Mutex::new(Vec::new()));
        Fx {
            policy: Arc::new(ScriptPolicy::new(log.clone())),
            handler: Arc::new(ScriptHandler::new(log.clone(), items)),
            log,
            limits: ResourceLimits::new(),
        }
    }
    pub fn limit(mut self, l: Limit, v: i64) -> Fx {
        self.limits.set(l, v);
        self
    }
    pub fn build(&self) -> Resources {
        Resources::builder()
            .policy(in_form(self.policy.clone()))
            .limits(self.limits)
            .binding(
                ResourceBinding::new(
                    &format!(r#"{{"uri":"{BUNDLE}","name":"bundle"}}"#),
                    self.handler.clone(),
                )
                .unwrap(),
            )
            .binding(
                ResourceBinding::new(
                    &format!(r#"{{"uriTemplate":"{TEMPLATE}","name":"tmpl"}}"#),
                    self.handler.clone(),
                )
                .unwrap(),
            )
            .build()
            .unwrap()
    }
    pub fn events(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
    pub fn read(&self, opts: &ReadOptions) -> Result<ResourceBundle, Failure> {
        self.build().read(BUNDLE.as_bytes(), opts)
    }
}

/// Item URIs `x://i/0` .. `x://i/{n-1}`.
pub fn uris(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("x://i/{i}")).collect()
}

pub fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The application item URIs of a bundle, in wire order.
pub fn item_uris(b: &ResourceBundle) -> Vec<String> {
    b.items()
        .filter(|i| !i.is_warning())
        .map(|i| i.uri().into_owned())
        .collect()
}

/// The report of a bundle, parsed from the result `_meta`.
pub fn report(b: &ResourceBundle) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(b.json()).unwrap();
    v["_meta"]["go.phpboyscout.uk/mcp.resourceRead"].clone()
}

/// `(code, resourceUri)` of every detailed issue.
pub fn issue_list(b: &ResourceBundle) -> Vec<(String, Option<String>)> {
    b.issues()
        .iter()
        .map(|i| {
            (
                i.code().as_str().to_string(),
                i.resource_uri().map(str::to_string),
            )
        })
        .collect()
}

/// Asserts that no secret appears anywhere in the bytes.
pub fn assert_no_secrets(text: &str) {
    for s in [
        SECRET_AUTH,
        "AUTH-SECRET",
        SECRET_CAUSE,
        "PRIVATE-CAUSE",
        "noticed cancellation",
        "panic",
    ] {
        assert!(!text.contains(s), "output leaks {s:?}: {text}");
    }
}

pub fn opts() -> ReadOptions {
    ReadOptions::default()
}

pub fn with_executor(ex: &Executor) -> ReadOptions {
    ReadOptions::from(CallOptions {
        executor: Some(ex.clone()),
        ..CallOptions::default()
    })
}
