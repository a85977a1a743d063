//! docs/SPEC-TESTS.md section "Resource contracts": what the gateway owns, what it depends on,
//! and the identities it hands to policy and storage.

use std::sync::{Arc, Mutex};

use mcp_resources::*;

// The policy form of this test binary (`in_form`).
#[path = "policy_form/mod.rs"]
mod policy_form;
use policy_form::in_form;

type Seen = Arc<Mutex<Vec<(String, String, String, Option<String>)>>>;

fn record(seen: &Seen, who: &str, t: &ResourceTarget) {
    seen.lock().unwrap().push((
        who.to_string(),
        t.uri().to_string(),
        t.representation().to_string(),
        t.authorization().map(str::to_string),
    ));
}

struct RecordingPolicy(Seen);

impl ResourcePolicy for RecordingPolicy {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }
    fn visibility(&self, _: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        record(&self.0, "visibility", t);
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        record(&self.0, "permit", t);
        Ok(())
    }
}

struct RecordingHandler(Seen);

const PLAN: [(&str, &str, Option<&str>); 3] = [
    ("x://a", "thumb", Some(r#"{"tenant":"t1","id":7}"#)),
    ("x://b", "", None),
    ("x://c/\u{e9}", "full", Some("[1,2]")),
];

impl ResourceHandler for RecordingHandler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let requested = ResourceTarget::new(m.uri(), "req", Some(r#"{"r":1}"#))
            .map_err(CallbackError::failed)?;
        let items = PLAN
            .iter()
            .map(|(u, r, a)| ResourceTarget::new(u, r, *a))
            .collect::<Result<Vec<_>, _>>()
            .map_err(CallbackError::failed)?;
        ResourceReadPlan::new(requested, items).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        record(&self.0, "read", t);
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

fn registry(seen: &Seen) -> Resources {
    Resources::builder()
        .policy(in_form(Arc::new(RecordingPolicy(seen.clone()))))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"bundle://b","name":"b"}"#,
                Arc::new(RecordingHandler(seen.clone())),
            )
            .unwrap(),
        )
        .build()
        .unwrap()
}

// "NewResourceTarget owns URI, representation and optional private JSON
// AuthorizationData. The gateway passes these same immutable identities to
// policy and storage." Every policy check (first and final) and the body
// read of an item see exactly the URI, representation and authorization
// data the plan named.
#[test]
fn policy_and_storage_receive_the_same_target_identities() {
    let seen: Seen = Arc::default();
    let b = registry(&seen)
        .read(b"bundle://b", &ReadOptions::default())
        .unwrap();
    assert!(!b.is_partial());
    let seen = seen.lock().unwrap().clone();
    for (uri, rep, auth) in PLAN {
        let rep = if rep.is_empty() { "default" } else { rep };
        let calls: Vec<&str> = seen
            .iter()
            .filter(|(_, u, _, _)| u == uri)
            .map(|(who, _, r, a)| {
                assert_eq!(r, rep, "{who} {uri}");
                assert_eq!(a.as_deref(), auth, "{who} {uri}");
                who.as_str()
            })
            .collect();
        assert_eq!(
            calls,
            ["visibility", "permit", "read", "visibility", "permit"],
            "{uri}"
        );
    }
    for (who, u, r, a) in &seen {
        if u == "bundle://b" {
            assert_eq!(
                (r.as_str(), a.as_deref()),
                ("req", Some(r#"{"r":1}"#)),
                "{who}"
            );
        }
    }
}

// "The root package has no SDK, Cobra, HTTP, gRPC or controls dependency."
// The crate's declared dependencies contain no MCP SDK, CLI, HTTP, RPC or
// async-runtime crate.
#[test]
fn root_crate_has_no_sdk_http_or_rpc_dependency() {
    let manifest = include_str!("../Cargo.toml");
    let mut section = "";
    let mut deps = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section.ends_with("dependencies]") && !section.contains("dev-") {
            if let Some((name, _)) = line.split_once('=') {
                deps.push(name.trim().to_string());
            }
        }
    }
    assert!(deps.contains(&"serde_json".to_string()), "parsed {deps:?}");
    let forbidden = [
        "rmcp",
        "mcp",
        "clap",
        "cobra",
        "http",
        "hyper",
        "reqwest",
        "axum",
        "actix",
        "warp",
        "tonic",
        "prost",
        "grpc",
        "tokio",
        "async-std",
        "tower",
    ];
    for d in &deps {
        for f in forbidden {
            assert!(
                !(d == f || d.starts_with(&format!("{f}-")) || d.contains(f) && f.len() > 4),
                "dependency {d} matches {f}"
            );
        }
    }
}
