//! Helpers of the executor tests: a gate never-returning callbacks wait on
//! (opened at the end of each test, also on panic), readers and a policy
//! that may wait on it, and thread counts.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use mcp_resources::*;

#[derive(Default)]
pub struct Gate {
    open: Mutex<bool>,
    cv: Condvar,
    pub entered: AtomicUsize,
}

impl Gate {
    pub fn wait(&self) {
        self.entered.fetch_add(1, Ordering::SeqCst);
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.cv.wait(open).unwrap();
        }
    }
    pub fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.cv.notify_all();
    }
}

pub struct Opener(pub Arc<Gate>);
impl Drop for Opener {
    fn drop(&mut self) {
        self.0.open();
    }
}

/// Plans the matched URI alone; its body read waits on the gate when
/// `hang` is set.
pub struct Reader {
    pub gate: Option<Arc<Gate>>,
}

impl ResourceHandler for Reader {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        if let Some(g) = &self.gate {
            g.wait();
        }
        ResourcePayload::text_owned("text/plain", format!("body of {}", t.uri()))
            .map_err(CallbackError::failed)
    }
}

/// Allows everything; `discover` waits on the gate when set.
pub struct Policy {
    pub gate: Option<Arc<Gate>>,
}

impl ResourcePolicy for Policy {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        if let Some(g) = &self.gate {
            g.wait();
        }
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::DISCLOSED)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

/// `hang://{n}` never returns (until the gate opens); `ok://{n}` is healthy.
pub fn registry(gate: &Arc<Gate>, item_timeout_ms: i64) -> Resources {
    Resources::builder()
        .policy(Arc::new(Policy { gate: None }))
        .limits(ResourceLimits::new().with(Limit::ItemTimeoutMs, item_timeout_ms))
        .binding(
            ResourceBinding::new(
                r#"{"uriTemplate":"hang://h/{n}","name":"hang"}"#,
                Arc::new(Reader {
                    gate: Some(gate.clone()),
                }),
            )
            .unwrap(),
        )
        .binding(
            ResourceBinding::new(
                r#"{"uriTemplate":"ok://k/{n}","name":"ok"}"#,
                Arc::new(Reader { gate: None }),
            )
            .unwrap(),
        )
        .build()
        .unwrap()
}

#[cfg(target_os = "linux")]
pub fn os_threads() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}

#[cfg(not(target_os = "linux"))]
pub fn os_threads() -> usize {
    0
}

pub fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(20);
    while !cond() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub fn cause(f: &Failure) -> String {
    f.cause_text()
}
