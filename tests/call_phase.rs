//! docs/SPEC-TESTS.md "Call phases": every callback learns which step of
//! which call it serves through `CallContext::phase`. A read asks the policy
//! in the first check (before any body read) and again in the recheck
//! (after them), inline and on an executor; resolve, body reads and
//! listings have their own phases.

use mcp_resources::CallOptions;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_resources::*;

// The policy form of this test binary (`in_form`).
#[path = "policy_form/mod.rs"]
mod policy_form;
use policy_form::in_form;

type Log = Arc<Mutex<Vec<(&'static str, CallPhase)>>>;

struct Recorder(Log);

impl Recorder {
    fn note(&self, who: &'static str, c: &CallContext) {
        self.0.lock().unwrap().push((who, c.phase()));
    }
}

impl ResourcePolicy for Recorder {
    fn discover(&self, c: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        self.note("discover", c);
        Ok(())
    }
    fn visibility(&self, c: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        self.note("visibility", c);
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, c: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        self.note("permit", c);
        Ok(())
    }
}

impl ResourceHandler for Recorder {
    fn resolve(
        &self,
        c: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        self.note("resolve", c);
        let t = |u: &str| ResourceTarget::new(u, "", None).unwrap();
        Ok(ResourceReadPlan::new(t(m.uri()), vec![t("x://a"), t("x://b")]).unwrap())
    }
    fn read(&self, c: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.note("body", c);
        Ok(ResourcePayload::text("text/plain", "hi").unwrap())
    }
}

fn registry(log: &Log) -> Resources {
    let rec = Arc::new(Recorder(log.clone()));
    Resources::builder()
        .policy(in_form(rec.clone()))
        .binding(ResourceBinding::new(r#"{"uri":"x://bundle","name":"b"}"#, rec).unwrap())
        .build()
        .unwrap()
}

fn assert_read_phases(events: &[(&'static str, CallPhase)]) {
    let first_body = events.iter().position(|e| e.0 == "body").unwrap();
    let last_body = events.iter().rposition(|e| e.0 == "body").unwrap();
    let mut first = Vec::new();
    let mut recheck = Vec::new();
    for (i, (who, phase)) in events.iter().enumerate() {
        match *who {
            "resolve" => assert_eq!(*phase, CallPhase::Resolve),
            "body" => assert_eq!(*phase, CallPhase::BodyRead),
            _ if i < first_body => {
                assert_eq!(*phase, CallPhase::FirstCheck, "{who} at {i}");
                first.push(*who);
            }
            _ => {
                assert!(i > last_body);
                assert_eq!(*phase, CallPhase::Recheck, "{who} at {i}");
                recheck.push(*who);
            }
        }
    }
    // discover, then the requested target and both items: the same
    // questions in both checks.
    assert_eq!(first.len(), 7);
    assert_eq!(first, recheck);
}

#[test]
fn policy_callbacks_see_first_check_then_recheck_inline() {
    let log: Log = Arc::default();
    let r = registry(&log);
    r.read(b"x://bundle", &ReadOptions::default()).unwrap();
    assert_read_phases(&log.lock().unwrap());
}

#[test]
fn policy_callbacks_see_first_check_then_recheck_on_an_executor() {
    let log: Log = Arc::default();
    let r = registry(&log);
    let options = ReadOptions::from(CallOptions {
        executor: Some(Executor::new(2).unwrap()),
        timeout: Some(Duration::from_secs(30)),
        ..CallOptions::default()
    });
    r.read(b"x://bundle", &options).unwrap();
    assert_read_phases(&log.lock().unwrap());
}

#[test]
fn listing_discover_runs_in_the_listing_phase() {
    let log: Log = Arc::default();
    let r = registry(&log);
    let options = ListOptions {
        scope_key: b"scope".to_vec(),
        ..ListOptions::default()
    };
    r.list(&options).unwrap();
    let events = log.lock().unwrap();
    assert_eq!(*events, vec![("discover", CallPhase::Listing)]);
}

#[test]
fn a_detached_context_is_in_the_first_check_phase() {
    assert_eq!(
        CallContext::detached(Duration::from_secs(1)).phase(),
        CallPhase::FirstCheck
    );
}
