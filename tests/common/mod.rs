//! Shared helpers for the listing tests.
#![allow(dead_code)]

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use mcp_resources::*;

/// The discover decision of a [`FnPolicy`].
pub type Discover =
    Arc<dyn Fn(&CallContext, &ResourceDefinition) -> Result<(), CallbackError> + Send + Sync>;

/// A policy whose `discover` is a closure and which counts its calls;
/// visibility and read always allow.
pub struct FnPolicy {
    pub discover: Discover,
    pub calls: AtomicUsize,
}

impl FnPolicy {
    pub fn new(
        f: impl Fn(&CallContext, &ResourceDefinition) -> Result<(), CallbackError>
            + Send
            + Sync
            + 'static,
    ) -> Arc<FnPolicy> {
        Arc::new(FnPolicy {
            discover: Arc::new(f),
            calls: AtomicUsize::new(0),
        })
    }

    pub fn allow() -> Arc<FnPolicy> {
        Self::new(|_, _| Ok(()))
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl ResourcePolicy for FnPolicy {
    fn discover(&self, call: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        (self.discover)(call, d)
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

/// A handler that counts resolve and body-read calls (listing must make none).
#[derive(Default)]
pub struct CountingHandler {
    pub resolves: AtomicUsize,
    pub reads: AtomicUsize,
}

impl ResourceHandler for CountingHandler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        self.resolves.fetch_add(1, Ordering::SeqCst);
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

/// A settable wall clock for cursor issue and expiry times.
#[derive(Clone)]
pub struct TestClock(pub Arc<AtomicU64>);

impl TestClock {
    pub fn at(ms: u64) -> TestClock {
        TestClock(Arc::new(AtomicU64::new(ms)))
    }
    pub fn set(&self, ms: u64) {
        self.0.store(ms, Ordering::SeqCst);
    }
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
    pub fn clock(&self) -> Arc<dyn Fn() -> u64 + Send + Sync> {
        let t = self.0.clone();
        Arc::new(move || t.load(Ordering::SeqCst))
    }
}

pub const KEY: [u8; 32] = [0x5a; 32];

/// `n` exact definitions `res://item/NNNNN` named `item NNNNN`.
pub fn resource_defs(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!(r#"{{"uri":"res://item/{i:05}","name":"item {i:05}"}}"#))
        .collect()
}

/// `n` template definitions `tpl://item/NNNNN/{id}` named `tpl NNNNN`.
pub fn template_defs(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!(r#"{{"uriTemplate":"tpl://item/{i:05}/{{id}}","name":"tpl {i:05}"}}"#))
        .collect()
}

/// A builder with these definitions (one shared counting handler) and a policy.
pub fn builder<S: AsRef<str>>(defs: &[S], policy: Arc<dyn ResourcePolicy>) -> ResourcesBuilder {
    let handler: Arc<dyn ResourceHandler> = Arc::new(CountingHandler::default());
    let mut b = Resources::builder().policy(policy);
    for d in defs {
        b.push(ResourceBinding::new(d.as_ref(), handler.clone()).expect("valid definition"));
    }
    b
}

/// List options with a scope key and an optional cursor, shaped for
/// 2025-11-25 (the page shapes these tests pin byte for byte; the members
/// 2026-07-28 adds are tested in `protocol_results.rs`).
pub fn opts(scope: &str, cursor: Option<&str>) -> ListOptions {
    ListOptions {
        scope_key: scope.as_bytes().to_vec(),
        cursor: cursor.map(|c| c.as_bytes().to_vec()),
        call: CallOptions {
            protocol_revision: mcp_resources::ProtocolRevision::V2025_11_25,
            ..CallOptions::default()
        },
        ..ListOptions::default()
    }
}

/// The parsed page JSON.
pub fn parse(page: &Page) -> serde_json::Value {
    serde_json::from_str(page.json()).expect("a page is JSON")
}

/// The `field` entries' `key` strings (`uri` or `uriTemplate`) of a page.
pub fn keys(page: &Page, field: &str, key: &str) -> Vec<String> {
    parse(page)[field]
        .as_array()
        .expect("an array of descriptions")
        .iter()
        .map(|d| d[key].as_str().expect("a string key").to_string())
        .collect()
}

/// Every `uri` over all pages of `list`, following cursors.
pub fn list_all(r: &Resources, scope: &str, page_size: u32) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut o = opts(scope, cursor.as_deref());
        o.page_size = page_size;
        let page = r.list(&o).expect("page");
        out.extend(keys(&page, "resources", "uri"));
        match page.next_cursor() {
            Some(c) => cursor = Some(c.to_string()),
            None => return out,
        }
    }
}
