//! `resources/list` and `resources/templates/list` pages.
//!
//! SKELETON: filled in by the listing work (issue 4).

use std::time::Duration;

use crate::error::Failure;
use crate::registry::Resources;
use crate::scope::{CancelToken, RequestData};

/// Per-call options of a list page.
#[derive(Clone, Default)]
pub struct ListOptions {
    /// Opaque caller scope; required and non-empty. Cursors are bound to a
    /// SHA-256 of these exact bytes.
    pub scope_key: Vec<u8>,
    /// The cursor from the previous page (`None` or empty = first page).
    pub cursor: Option<Vec<u8>>,
    /// Requested page size (0 = `default_page_size`; clamped to `max_page_size`).
    pub page_size: u32,
    /// The caller's deadline, relative to the call's start.
    pub timeout: Option<Duration>,
    /// The caller's cancellation token.
    pub cancel: Option<CancelToken>,
    /// Opaque data handed to every callback.
    pub request_data: Option<RequestData>,
}

/// One list page: the MCP list result JSON and the next cursor.
#[derive(Debug, Clone)]
pub struct Page {
    json: String,
    next_cursor: Option<String>,
}

impl Page {
    /// The MCP list result as JSON text.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The cursor of the next page, when candidates remain.
    pub fn next_cursor(&self) -> Option<&str> {
        self.next_cursor.as_deref()
    }
}

impl Resources {
    /// One page of `resources/list`.
    pub fn list(&self, options: &ListOptions) -> Result<Page, Failure> {
        let _ = options;
        todo!("issue 4")
    }

    /// One page of `resources/templates/list`.
    pub fn list_templates(&self, options: &ListOptions) -> Result<Page, Failure> {
        let _ = options;
        todo!("issue 4")
    }
}
