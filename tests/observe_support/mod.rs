//! An observer that keeps every event it is given, as JSON lines (public
//! and private) and as the facts the tests check, and registries of the
//! read tests' scripted fixture with it.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mcp_resources::*;

use super::read_support::*;

/// One event as the tests see it.
#[derive(Clone, Debug)]
pub struct Event {
    /// "call" or "decision".
    pub kind: &'static str,
    pub call_id: u64,
    pub method: CallMethod,
    /// The public JSON line (`None` for a private decision).
    pub public: Option<String>,
    /// The JSON line with its private members.
    pub private: String,
    pub rule: Option<DecisionRule>,
    pub phase: Option<DecisionPhase>,
    pub issue: Option<IssueCode>,
    pub subject: Option<DecisionSubject>,
    pub is_private: bool,
    pub uri: Option<String>,
    pub uri_hash: Option<EventHash>,
    pub scope_key_hash: Option<EventHash>,
    pub item: Option<usize>,
    pub cause: Option<String>,
    pub failure: Option<FailureKind>,
    pub summary: Option<ResultSummary>,
    pub queue_wait: Option<std::time::Duration>,
    pub callbacks: Option<CallbackStats>,
    pub request_data: Option<u64>,
    pub revision: ProtocolRevision,
    pub thread: std::thread::ThreadId,
}

/// Keeps every event; counts how often it is dropped.
pub struct Keep {
    pub interests: Interests,
    pub seen: Mutex<Vec<Event>>,
    pub drops: Arc<AtomicUsize>,
    /// Panics in every callback after keeping the event.
    pub panics: bool,
}

impl Keep {
    pub fn new(interests: Interests) -> Arc<Keep> {
        Arc::new(Keep {
            interests,
            seen: Mutex::new(Vec::new()),
            drops: Arc::new(AtomicUsize::new(0)),
            panics: false,
        })
    }
    /// One that panics in every callback (after keeping the event).
    pub fn panicking(interests: Interests) -> Arc<Keep> {
        Arc::new(Keep {
            interests,
            seen: Mutex::new(Vec::new()),
            drops: Arc::new(AtomicUsize::new(0)),
            panics: true,
        })
    }
    pub fn decisions() -> Arc<Keep> {
        Keep::new(Interests {
            decisions: true,
            callback_timings: false,
        })
    }
    pub fn events(&self) -> Vec<Event> {
        self.seen.lock().unwrap().clone()
    }
    pub fn take(&self) -> Vec<Event> {
        std::mem::take(&mut *self.seen.lock().unwrap())
    }
    pub fn calls(&self) -> Vec<Event> {
        self.events()
            .into_iter()
            .filter(|e| e.kind == "call")
            .collect()
    }
    pub fn decisions_seen(&self) -> Vec<Event> {
        self.events()
            .into_iter()
            .filter(|e| e.kind == "decision")
            .collect()
    }
    /// Every byte of every event, private members included.
    pub fn all_bytes(&self) -> String {
        self.events()
            .iter()
            .map(|e| e.private.clone() + "\n")
            .collect()
    }
}

impl Drop for Keep {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

fn request_data(d: Option<&(dyn std::any::Any + Send + Sync)>) -> Option<u64> {
    d.and_then(|d| d.downcast_ref::<u64>().copied())
}

impl Observer for Keep {
    fn interests(&self) -> Interests {
        self.interests
    }
    fn call(&self, e: &CallEvent<'_>) {
        self.seen.lock().unwrap().push(Event {
            kind: "call",
            call_id: e.call_id,
            method: e.method,
            public: Some(e.to_json(false)),
            private: e.to_json(true),
            rule: None,
            phase: None,
            issue: None,
            subject: None,
            is_private: false,
            uri: e.uri().map(str::to_string),
            uri_hash: e.uri_hash(),
            scope_key_hash: e.scope_key_hash(),
            item: None,
            cause: e.private_cause(),
            failure: e.failure_kind(),
            summary: e.summary().copied(),
            queue_wait: e.queue_wait,
            callbacks: e.private_callbacks().copied(),
            request_data: request_data(e.request_data),
            revision: e.protocol_revision,
            thread: std::thread::current().id(),
        });
        if self.panics {
            panic!("observer panic in call");
        }
    }
    fn decision(&self, e: &DecisionEvent<'_>) {
        self.seen.lock().unwrap().push(Event {
            kind: "decision",
            call_id: e.call_id,
            method: e.method,
            public: e.to_json(false),
            private: e.to_json(true).unwrap(),
            rule: Some(e.rule),
            phase: e.phase,
            issue: e.issue,
            subject: Some(e.subject),
            is_private: e.is_private(),
            uri: e.uri().map(str::to_string),
            uri_hash: e.uri_hash(),
            scope_key_hash: None,
            item: e.private_item_index(),
            cause: e.private_cause(),
            failure: None,
            summary: None,
            queue_wait: None,
            callbacks: None,
            request_data: request_data(e.request_data),
            revision: e.protocol_revision,
            thread: std::thread::current().id(),
        });
        if self.panics {
            panic!("observer panic in decision");
        }
    }
}

/// The fixture's registry (one exact bundle, one template) with `observer`.
pub fn build_observed(fx: &Fx, observer: Arc<dyn Observer>) -> Resources {
    builder(fx).observer(observer).build().unwrap()
}

/// The fixture's builder.
pub fn builder(fx: &Fx) -> ResourcesBuilder {
    Resources::builder()
        .policy(fx.policy.clone())
        .limits(fx.limits)
        .binding(
            ResourceBinding::new(
                &format!(r#"{{"uri":"{BUNDLE}","name":"bundle"}}"#),
                fx.handler.clone(),
            )
            .unwrap(),
        )
        .binding(
            ResourceBinding::new(
                &format!(r#"{{"uriTemplate":"{TEMPLATE}","name":"tmpl"}}"#),
                fx.handler.clone(),
            )
            .unwrap(),
        )
}

/// A public JSON line without its timings (which differ run to run).
pub fn without_timings(line: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
    if let Some(o) = v.as_object_mut() {
        o.remove("durationNs");
        o.remove("queueWaitNs");
        o.remove("callId");
    }
    // Members in one order (removal may reorder them).
    let sorted: std::collections::BTreeMap<String, serde_json::Value> =
        serde_json::from_value(v).unwrap();
    serde_json::to_string(&sorted).unwrap()
}

/// The public lines of the events, without timings and call numbers.
pub fn public_lines(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e.public.as_deref())
        .map(without_timings)
        .collect()
}

/// List options with a scope key.
pub fn list_options(scope: &str) -> ListOptions {
    ListOptions {
        scope_key: scope.as_bytes().to_vec(),
        ..ListOptions::default()
    }
}
