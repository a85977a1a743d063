//! A multi-tenant host for the subscription tests: the caller is a
//! [`Tenant`] in the request data, and a rule table says, per tenant,
//! which definitions it cannot discover, which targets are hidden from it,
//! which it may not read and which make its policy fail. Every callback is
//! logged with its phase.
#![allow(dead_code)]

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use mcp_resources::*;

/// Appears in every private cause and authorization the host makes; must
/// never appear in any output a client sees.
pub const CANARY: &str = "CANARY-5b2d-private";

/// The caller (the request data every callback receives).
pub struct Tenant(pub &'static str);

pub fn tenant(name: &'static str) -> Option<RequestData> {
    Some(Arc::new(Tenant(name)))
}

fn who(call: &CallContext) -> &'static str {
    call.request_data()
        .and_then(|d| d.downcast_ref::<Tenant>())
        .map_or("nobody", |t| t.0)
}

/// One rule: (tenant or "*", uri or uriTemplate).
type Rule = (&'static str, String);

#[derive(Default)]
pub struct Rules {
    pub undiscoverable: HashSet<Rule>,
    pub hidden: HashSet<Rule>,
    pub unreadable: HashSet<Rule>,
    pub failing: HashSet<Rule>,
    /// The policy asks for input (docs/BEHAVIOUR.md §18) in `discover` of
    /// these definitions and in `read` of these targets.
    pub asking: HashSet<Rule>,
}

fn has(set: &HashSet<Rule>, tenant: &'static str, key: &str) -> bool {
    set.contains(&(tenant, key.to_string())) || set.contains(&("*", key.to_string()))
}

/// The policy: rules plus a log of (phase, callback, tenant, key).
#[derive(Default)]
pub struct Tenants {
    pub rules: Mutex<Rules>,
    pub log: Mutex<Vec<(CallPhase, &'static str, &'static str, String)>>,
}

impl Tenants {
    pub fn new() -> Arc<Tenants> {
        Arc::new(Tenants::default())
    }
    pub fn undiscover(&self, tenant: &'static str, key: &str) {
        self.rules
            .lock()
            .unwrap()
            .undiscoverable
            .insert((tenant, key.into()));
    }
    pub fn hide(&self, tenant: &'static str, uri: &str) {
        self.rules
            .lock()
            .unwrap()
            .hidden
            .insert((tenant, uri.into()));
    }
    pub fn unhide(&self, tenant: &'static str, uri: &str) {
        self.rules
            .lock()
            .unwrap()
            .hidden
            .remove(&(tenant, uri.into()));
    }
    pub fn revoke(&self, tenant: &'static str, uri: &str) {
        self.rules
            .lock()
            .unwrap()
            .unreadable
            .insert((tenant, uri.into()));
    }
    pub fn fail(&self, tenant: &'static str, key: &str) {
        self.rules
            .lock()
            .unwrap()
            .failing
            .insert((tenant, key.into()));
    }
    pub fn ask(&self, tenant: &'static str, key: &str) {
        self.rules
            .lock()
            .unwrap()
            .asking
            .insert((tenant, key.into()));
    }
    pub fn calls(&self) -> usize {
        self.log.lock().unwrap().len()
    }
    pub fn clear_log(&self) {
        self.log.lock().unwrap().clear();
    }
    pub fn phases(&self) -> HashSet<CallPhase> {
        self.log.lock().unwrap().iter().map(|e| e.0).collect()
    }
    fn note(&self, call: &CallContext, what: &'static str, key: &str) -> &'static str {
        let t = who(call);
        self.log
            .lock()
            .unwrap()
            .push((call.phase(), what, t, key.to_string()));
        t
    }
}

impl ResourcePolicy for Tenants {
    fn discover(&self, call: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        let t = self.note(call, "discover", d.uri_or_template());
        let r = self.rules.lock().unwrap();
        if has(&r.failing, t, d.uri_or_template()) {
            return Err(CallbackError::failed(CANARY));
        }
        if has(&r.undiscoverable, t, d.uri_or_template()) {
            return Err(CallbackError::Unavailable);
        }
        if has(&r.asking, t, d.uri_or_template()) {
            return Err(asking());
        }
        Ok(())
    }
    fn visibility(
        &self,
        call: &CallContext,
        tg: &ResourceTarget,
    ) -> Result<Visibility, CallbackError> {
        let t = self.note(call, "visibility", tg.uri());
        let r = self.rules.lock().unwrap();
        if has(&r.failing, t, tg.uri()) {
            return Err(CallbackError::failed(CANARY));
        }
        Ok(if has(&r.hidden, t, tg.uri()) {
            Visibility::HIDDEN
        } else {
            Visibility::DISCLOSED
        })
    }
    fn read(&self, call: &CallContext, tg: &ResourceTarget) -> Result<(), CallbackError> {
        let t = self.note(call, "read", tg.uri());
        let r = self.rules.lock().unwrap();
        if has(&r.unreadable, t, tg.uri()) {
            return Err(CallbackError::Unavailable);
        }
        if has(&r.asking, t, tg.uri()) {
            return Err(asking());
        }
        Ok(())
    }
}

/// A policy's request for input: the user's consent (an elicitation) and
/// the client's roots, with private state.
fn asking() -> CallbackError {
    let requests = InputRequests::new()
        .with("roots", InputRequest::roots())
        .expect("an input request");
    let asked = InputRequired::new(requests)
        .with_state(CANARY.as_bytes())
        .expect("a state");
    CallbackError::input_required(asked)
}

/// Plans the matched URI alone, with private authorization data on the
/// target; `doc://gone` answers *unavailable* from `resolve`, and
/// `doc://broken` fails it. Counts body reads (a decision makes none).
#[derive(Default)]
pub struct Handler {
    pub resolves: Mutex<usize>,
    pub reads: Mutex<usize>,
}

impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        *self.resolves.lock().unwrap() += 1;
        match m.uri() {
            "doc://gone" => return Err(CallbackError::Unavailable),
            "doc://broken" => return Err(CallbackError::failed(CANARY)),
            _ => {}
        }
        let auth = format!(r#"{{"grant":"{CANARY}"}}"#);
        let t = ResourceTarget::new(m.uri(), "", Some(&auth)).map_err(CallbackError::failed)?;
        Ok(ResourceReadPlan::single(t))
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        *self.reads.lock().unwrap() += 1;
        ResourcePayload::text("text/plain", "body").map_err(CallbackError::failed)
    }
}

/// The definitions of the fixture registry.
pub const DEFS: &[&str] = &[
    r#"{"uri":"doc://a","name":"a"}"#,
    r#"{"uri":"doc://b","name":"b"}"#,
    r#"{"uri":"doc://secret","name":"secret"}"#,
    r#"{"uri":"doc://gone","name":"gone"}"#,
    r#"{"uri":"doc://broken","name":"broken"}"#,
    r#"{"uriTemplate":"file://docs/{name}","name":"files"}"#,
    r#"{"uriTemplate":"x://amb/{a}/z","name":"amb1"}"#,
    r#"{"uriTemplate":"x://amb/y/{b}","name":"amb2"}"#,
];

pub struct Fx {
    pub policy: Arc<Tenants>,
    pub handler: Arc<Handler>,
    pub registry: Resources,
}

/// The fixture registry with `defs`, declaring both resource
/// notification types.
pub fn fixture_with(defs: &[&str]) -> Fx {
    let policy = Tenants::new();
    let handler = Arc::new(Handler::default());
    let registry = build(
        defs,
        policy.clone(),
        handler.clone(),
        NotificationTypes::RESOURCES,
    );
    Fx {
        policy,
        handler,
        registry,
    }
}

pub fn fixture() -> Fx {
    fixture_with(DEFS)
}

pub fn build(
    defs: &[&str],
    policy: Arc<Tenants>,
    handler: Arc<Handler>,
    notifications: NotificationTypes,
) -> Resources {
    builder(defs, policy, handler, notifications)
        .build()
        .expect("registry")
}

/// The builder [`build`] builds (for a test that adds to it).
pub fn builder(
    defs: &[&str],
    policy: Arc<Tenants>,
    handler: Arc<Handler>,
    notifications: NotificationTypes,
) -> ResourcesBuilder {
    let mut b = Resources::builder()
        .policy(policy)
        .notifications(notifications);
    for d in defs {
        let h: Arc<dyn ResourceHandler> = handler.clone();
        b.push(ResourceBinding::new(d, h).expect("definition"));
    }
    b
}

pub const OLD: ProtocolRevision = ProtocolRevision::V2025_11_25;
pub const NEW: ProtocolRevision = ProtocolRevision::V2026_07_28;

/// Request options of `tenant` on `revision` (with request id `1`).
pub fn req_opts(tenant_name: &'static str, revision: ProtocolRevision) -> RequestOptions {
    RequestOptions {
        call: CallOptions {
            protocol_revision: revision,
            request_data: tenant(tenant_name),
            ..CallOptions::default()
        },
        request_id: Some(b"1".to_vec()),
        ..RequestOptions::default()
    }
}

pub fn request(
    r: &Resources,
    method: &str,
    params: &str,
    o: &RequestOptions,
) -> Result<Response, RequestError> {
    r.request(method.as_bytes(), params.as_bytes(), o)
}

/// `subscriptions/listen` params for these URIs (and list changes).
pub fn listen_params(uris: &[&str], list_changed: bool) -> String {
    let uris: Vec<String> = uris
        .iter()
        .map(|u| serde_json::to_string(u).unwrap())
        .collect();
    format!(
        r#"{{"notifications":{{"resourcesListChanged":{list_changed},"resourceSubscriptions":[{}]}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}"#,
        uris.join(",")
    )
}

/// The URIs a listen acknowledgement honors.
pub fn acked(resp: &Response) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(resp.json()).unwrap();
    v["params"]["notifications"]["resourceSubscriptions"]
        .as_array()
        .map(|a| a.iter().map(|u| u.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// A subscriber of `tenant` on `revision` (stream id `id` from
/// 2026-07-28 on).
pub fn sub(tenant_name: &'static str, revision: ProtocolRevision, id: i64) -> Subscriber {
    Subscriber {
        request_data: tenant(tenant_name),
        protocol_revision: revision,
        subscription_id: (revision >= NEW).then(|| SubscriptionId::from_number(id)),
        ..Subscriber::default()
    }
}

/// What each subscriber gets: its message, or "skip" / "failed".
pub fn outcomes(n: &Notifications) -> Vec<String> {
    n.iter()
        .map(|d| match d {
            Delivery::Send(m) => m.to_string(),
            Delivery::Skip => "skip".into(),
            Delivery::Failed(_) => "failed".into(),
        })
        .collect()
}

/// Fails when `text` holds anything private.
pub fn assert_private_free(text: &str) {
    for secret in [CANARY, "grant", "denied", "hidden", "discover"] {
        assert!(!text.contains(secret), "{secret:?} leaked in {text}");
    }
}
