//! docs/SPEC-TESTS.md section "Resource contracts": "It owns no listener, background worker
//! or application job." Alone in its binary so that no other test's thread
//! changes the thread count while it measures.

use std::sync::Arc;

use mcp_resources::*;

struct Single;

impl ResourceHandler for Single {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

fn registry() -> Resources {
    Resources::builder()
        .policy(Arc::new(AllowAll))
        .binding(
            ResourceBinding::new(r#"{"uri":"bundle://b","name":"b"}"#, Arc::new(Single)).unwrap(),
        )
        .build()
        .unwrap()
}

// "NewResources owns an immutable set of explicit ResourceBinding values
// and a separate ResourcePolicy. It owns no listener, background worker or
// application job." Building a registry and reading inline starts no
// thread.
#[cfg(target_os = "linux")]
#[test]
fn resources_own_no_background_worker() {
    fn threads() -> usize {
        std::fs::read_dir("/proc/self/task").unwrap().count()
    }
    let before = threads();
    let r = registry();
    r.read(b"bundle://b", &ReadOptions::default()).unwrap();
    r.list(&ListOptions {
        scope_key: b"s".to_vec(),
        ..ListOptions::default()
    })
    .unwrap();
    assert_eq!(threads(), before);
    drop(r);
    assert_eq!(threads(), before);
}
