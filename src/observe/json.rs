//! Events as JSON lines, for logs (docs/BEHAVIOUR.md §19): the public
//! members at the top level, the private ones under `"private"` when the
//! host asks for them. A log a client-facing operator reads is written
//! without them.

use serde_json::{json, Map, Value};

use super::event::{CallEvent, CallbackKind, DecisionEvent, DecisionSubject};

impl CallEvent<'_> {
    /// The event as one line of JSON, its private members under
    /// `"private"` when `private` is true (see docs/BEHAVIOUR.md §19).
    pub fn to_json(&self, private: bool) -> String {
        call(self, private)
    }
}

impl DecisionEvent<'_> {
    /// The event as one line of JSON, its private members under
    /// `"private"` when `private` is true. A private event has no public
    /// form: `None` unless `private` is true (see docs/BEHAVIOUR.md §19).
    pub fn to_json(&self, private: bool) -> Option<String> {
        (private || !self.is_private()).then(|| decision(self, private))
    }
}

fn call(e: &CallEvent<'_>, private: bool) -> String {
    let mut m = Map::new();
    m.insert("event".into(), "call".into());
    m.insert("callId".into(), e.call_id.into());
    m.insert("method".into(), e.method.as_str().into());
    m.insert(
        "protocolRevision".into(),
        e.protocol_revision.as_str().into(),
    );
    match e.failure_kind() {
        None => {
            m.insert("outcome".into(), "ok".into());
        }
        Some(k) => {
            m.insert("outcome".into(), k.as_str().into());
            m.insert("jsonrpcCode".into(), e.jsonrpc_code().into());
            m.insert("message".into(), e.failure_message().into());
        }
    }
    m.insert("durationNs".into(), nanos(e.duration).into());
    if let Some(q) = e.queue_wait {
        m.insert("queueWaitNs".into(), nanos(q).into());
    }
    if let Some(s) = e.summary() {
        m.insert("items".into(), s.items.into());
        m.insert("bytes".into(), s.bytes.into());
        m.insert("partial".into(), s.partial.into());
        let i = &s.issues;
        m.insert(
            "issues".into(),
            json!({
                "unavailable": i.unavailable, "read_failed": i.read_failed,
                "timeout": i.timeout, "invalid_content": i.invalid_content,
                "budget_exceeded": i.budget_exceeded, "omitted": i.omitted,
            }),
        );
        if let Some(c) = s.cache {
            m.insert(
                "cache".into(),
                json!({"ttlMs": c.ttl_ms, "scope": c.scope.as_str()}),
            );
        }
    }
    if let Some(u) = e.uri() {
        m.insert("uri".into(), u.into());
    }
    if let Some(h) = e.uri_hash() {
        m.insert("uriHash".into(), h.to_hex().into());
    }
    if let Some(h) = e.scope_key_hash() {
        m.insert("scopeKeyHash".into(), h.to_hex().into());
    }
    if private {
        let mut p = Map::new();
        if let Some(c) = e.private_cause() {
            p.insert("cause".into(), c.into());
        }
        if let Some(cb) = e.private_callbacks() {
            let mut kinds = Map::new();
            for k in CallbackKind::ALL {
                if cb.calls(k) > 0 {
                    kinds.insert(
                        k.as_str().into(),
                        json!({"calls": cb.calls(k), "ns": nanos(cb.time(k))}),
                    );
                }
            }
            p.insert("callbacks".into(), Value::Object(kinds));
        }
        m.insert("private".into(), Value::Object(p));
    }
    Value::Object(m).to_string()
}

fn decision(e: &DecisionEvent<'_>, private: bool) -> String {
    let mut top = Map::new();
    top.insert("event".into(), "decision".into());
    top.insert("callId".into(), e.call_id.into());
    let mut m = Map::new();
    m.insert("method".into(), e.method.as_str().into());
    m.insert(
        "protocolRevision".into(),
        e.protocol_revision.as_str().into(),
    );
    m.insert(
        "subject".into(),
        match e.subject {
            DecisionSubject::Root => "root",
            DecisionSubject::Item => "item",
            DecisionSubject::Definition => "definition",
        }
        .into(),
    );
    m.insert("rule".into(), e.rule.as_str().into());
    m.insert(
        "phase".into(),
        e.phase.map_or(Value::Null, |p| p.as_str().into()),
    );
    if let Some(i) = e.issue {
        m.insert("issue".into(), i.as_str().into());
    }
    if let Some(u) = e.uri() {
        m.insert("uri".into(), u.into());
    }
    if let Some(h) = e.uri_hash() {
        m.insert("uriHash".into(), h.to_hex().into());
    }
    let mut p = Map::new();
    if private {
        if let Some(i) = e.private_item_index() {
            p.insert("itemIndex".into(), i.into());
        }
        if let Some(c) = e.private_cause() {
            p.insert("cause".into(), c.into());
        }
    }
    if e.is_private() {
        // Nothing of a private event at the top level but what says so.
        p.extend(m);
        top.insert("private".into(), Value::Object(p));
    } else {
        top.extend(m);
        if private {
            top.insert("private".into(), Value::Object(p));
        }
    }
    Value::Object(top).to_string()
}

fn nanos(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}
