//! Pieces the benchmarks share (each bench is its own crate and includes
//! this module with `mod common;`; not every bench uses every item).
#![allow(dead_code)]

use mcp_resources::*;

/// The small exact read's handler: plans the matched URI as its single
/// item and reads `text`.
pub struct Small {
    /// The body every read returns.
    pub text: String,
}

impl ResourceHandler for Small {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", &self.text).map_err(CallbackError::failed)
    }
}

/// A field of /proc/self/status in KiB (`VmRSS:`, `VmHWM:`); 0 where it
/// cannot be read.
pub fn status_kib(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
