//! The read pipeline: authorize -> admit/read -> recheck -> assemble.
//!
//! SKELETON: filled in by the read-pipeline work (issue 3).

use std::time::Duration;

use crate::error::Failure;
use crate::executor::Executor;
use crate::registry::Resources;
use crate::scope::{CancelToken, RequestData};

/// Per-call options of a read.
#[derive(Clone, Default)]
pub struct ReadOptions {
    /// The caller's deadline, relative to the call's start (`None` = only
    /// `read_timeout`).
    pub timeout: Option<Duration>,
    /// The caller's cancellation token.
    pub cancel: Option<CancelToken>,
    /// Opaque data handed to every callback.
    pub request_data: Option<RequestData>,
    /// Worker pool for body reads (`None` = inline on the calling thread).
    pub executor: Option<Executor>,
}

/// The result of a read: the MCP `resources/read` result JSON and accessors.
#[derive(Debug, Clone)]
pub struct ResourceBundle {
    json: String,
    partial: bool,
}

impl ResourceBundle {
    /// The MCP read result as JSON text.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// Whether the bundle is partial (it then starts with a warning item).
    pub fn is_partial(&self) -> bool {
        self.partial
    }
}

impl Resources {
    /// Reads a resource bundle.
    pub fn read(&self, uri: &[u8], options: &ReadOptions) -> Result<ResourceBundle, Failure> {
        let _ = (uri, options);
        todo!("issue 3")
    }
}
