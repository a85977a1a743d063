//! A small host for the protocol tests: a policy configured by URI sets and
//! a handler whose plan and bodies are configured per registry.
#![allow(dead_code)]

use mcp_resources::CallOptions;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use mcp_resources::*;

/// Appears in every private cause and authorization the host makes; must
/// never appear in an error object or a result.
pub const CANARY: &str = "CANARY-7c1e-private";
pub const AUTH: &str = r#"{"token":"CANARY-7c1e-private-token"}"#;

#[derive(Default)]
pub struct Pol {
    /// Definitions (uri or uriTemplate) whose discovery is denied.
    pub undiscoverable: Mutex<HashSet<String>>,
    /// Targets that are hidden.
    pub hidden: Mutex<HashSet<String>>,
    /// Targets whose read permission is denied.
    pub denied: Mutex<HashSet<String>>,
    /// Fail every discover with a canary cause.
    pub fail: Mutex<bool>,
    /// Visible targets whose URI issues may not name.
    pub undisclosed: Mutex<HashSet<String>>,
}

impl Pol {
    pub fn hide(&self, uri: &str) {
        self.hidden.lock().unwrap().insert(uri.to_string());
    }
    pub fn deny(&self, uri: &str) {
        self.denied.lock().unwrap().insert(uri.to_string());
    }
    pub fn undiscover(&self, key: &str) {
        self.undiscoverable.lock().unwrap().insert(key.to_string());
    }
    pub fn undisclose(&self, uri: &str) {
        self.undisclosed.lock().unwrap().insert(uri.to_string());
    }
}

impl ResourcePolicy for Pol {
    fn discover(&self, _: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        if *self.fail.lock().unwrap() {
            return Err(CallbackError::failed(CANARY));
        }
        if self
            .undiscoverable
            .lock()
            .unwrap()
            .contains(d.uri_or_template())
        {
            return Err(CallbackError::Unavailable);
        }
        Ok(())
    }
    fn visibility(&self, _: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(if self.hidden.lock().unwrap().contains(t.uri()) {
            Visibility::HIDDEN
        } else if self.undisclosed.lock().unwrap().contains(t.uri()) {
            Visibility::VISIBLE
        } else {
            Visibility::DISCLOSED
        })
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        if self.denied.lock().unwrap().contains(t.uri()) {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    }
}

/// What one item's body read returns.
#[derive(Clone)]
pub enum Body {
    Text(String),
    Blob(Vec<u8>),
    Fail,
}

#[derive(Default)]
pub struct Handler {
    /// Plan items per requested URI (absent = the requested URI alone).
    pub plans: Mutex<HashMap<String, Vec<String>>>,
    pub bodies: Mutex<HashMap<String, Body>>,
    pub hints: Mutex<HashMap<String, CacheHints>>,
    /// Resolve fails with a canary cause.
    pub fail_resolve: Mutex<bool>,
    /// Requested URIs whose resolve answers unavailable (a root denial).
    pub unresolvable: Mutex<HashSet<String>>,
    /// Body reads made.
    pub reads: std::sync::atomic::AtomicUsize,
}

impl Handler {
    pub fn plan(&self, uri: &str, items: &[&str]) {
        self.plans.lock().unwrap().insert(
            uri.to_string(),
            items.iter().map(|s| s.to_string()).collect(),
        );
    }
    pub fn body(&self, uri: &str, b: Body) {
        self.bodies.lock().unwrap().insert(uri.to_string(), b);
    }
    pub fn hint(&self, uri: &str, h: CacheHints) {
        self.hints.lock().unwrap().insert(uri.to_string(), h);
    }
}

impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        if *self.fail_resolve.lock().unwrap() {
            return Err(CallbackError::failed(CANARY));
        }
        if self.unresolvable.lock().unwrap().contains(m.uri()) {
            return Err(CallbackError::Unavailable);
        }
        let requested =
            ResourceTarget::new(m.uri(), "", Some(AUTH)).map_err(CallbackError::failed)?;
        let items = match self.plans.lock().unwrap().get(m.uri()) {
            Some(items) => items.clone(),
            None => vec![m.uri().to_string()],
        };
        let targets = items
            .iter()
            .map(|u| ResourceTarget::new(u, "", Some(AUTH)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(CallbackError::failed)?;
        ResourceReadPlan::new(requested, targets).map_err(CallbackError::failed)
    }

    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let body = self
            .bodies
            .lock()
            .unwrap()
            .get(t.uri())
            .cloned()
            .unwrap_or_else(|| Body::Text(format!("body of {}", t.uri())));
        let p = match body {
            Body::Text(s) => ResourcePayload::text_owned("text/plain", s),
            Body::Blob(b) => ResourcePayload::blob_owned("application/octet-stream", b),
            Body::Fail => return Err(CallbackError::failed(CANARY)),
        }
        .map_err(CallbackError::failed)?;
        match self.hints.lock().unwrap().get(t.uri()) {
            Some(h) => p.with_cache_hints(*h).map_err(CallbackError::failed),
            None => Ok(p),
        }
    }
}

/// A host: the policy, the handler and what the registry is built from.
pub struct Host {
    pub pol: Arc<Pol>,
    pub handler: Arc<Handler>,
    pub defs: Vec<(String, Option<CacheHints>)>,
    pub registry: RegistryCacheHints,
    pub limits: Vec<(Limit, i64)>,
}

impl Host {
    pub fn new(defs: &[&str]) -> Host {
        Host {
            pol: Arc::new(Pol::default()),
            handler: Arc::new(Handler::default()),
            defs: defs.iter().map(|d| (def_json(d), None)).collect(),
            registry: RegistryCacheHints::default(),
            limits: Vec::new(),
        }
    }

    /// Declares hints for the definition whose key is `key`.
    pub fn binding_hints(mut self, key: &str, h: CacheHints) -> Host {
        let json = def_json(key);
        for d in &mut self.defs {
            if d.0 == json {
                d.1 = Some(h);
            }
        }
        self
    }

    pub fn registry_hints(mut self, h: RegistryCacheHints) -> Host {
        self.registry = h;
        self
    }

    pub fn limit(mut self, l: Limit, v: i64) -> Host {
        self.limits.push((l, v));
        self
    }

    pub fn build(&self) -> Resources {
        let mut b = Resources::builder()
            .policy(self.pol.clone())
            .cache_hints(self.registry);
        for (json, hints) in &self.defs {
            let mut binding = ResourceBinding::new(json, self.handler.clone()).unwrap();
            if let Some(h) = hints {
                binding = binding.with_cache_hints(*h);
            }
            b.push(binding);
        }
        for (l, v) in &self.limits {
            b.set_limit(*l, *v);
        }
        b.build().unwrap()
    }
}

/// A definition: a template when the key has a brace, else an exact URI.
pub fn def_json(key: &str) -> String {
    let name = key.replace(['{', '}', ':', '/'], "_");
    if key.contains('{') {
        format!(r#"{{"uriTemplate":"{key}","name":"{name}"}}"#)
    } else {
        format!(r#"{{"uri":"{key}","name":"{name}","mimeType":"text/plain"}}"#)
    }
}

pub fn read_opts(revision: ProtocolRevision) -> ReadOptions {
    ReadOptions::from(CallOptions {
        protocol_revision: revision,
        ..CallOptions::default()
    })
}

pub fn list_opts(revision: ProtocolRevision, cursor: Option<&str>, page_size: u32) -> ListOptions {
    ListOptions {
        scope_key: b"tenant".to_vec(),
        cursor: cursor.map(|c| c.as_bytes().to_vec()),
        page_size,
        call: CallOptions {
            protocol_revision: revision,
            ..CallOptions::default()
        },
    }
}

pub fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).expect("valid JSON")
}
