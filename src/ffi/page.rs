//! List pages (`mcpr_page_*`).

use crate::listing::Page;

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref};

/// A list page. Owned by the caller; free with `mcpr_page_free`.
/// Immutable: safe to read from any thread.
pub struct mcpr_page {
    pub(super) inner: Page,
}

/// The MCP list result JSON (`{"resources":[...],"nextCursor":...}` or
/// `{"resourceTemplates":[...]}`). Owned by `p`, valid until
/// `mcpr_page_free(p)`. Empty for NULL.
///
/// # Safety
/// `p` is NULL or a live page.
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_json(p: *const mcpr_page) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(p) }.map_or(mcpr_str::empty(), |p| mcpr_str::from_str(p.inner.json()))
    })
}

/// The cursor of the next page (also in the JSON as `nextCursor`); length 0
/// on the last page and for NULL. Owned by `p`.
///
/// # Safety
/// `p` is NULL or a live page.
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_next_cursor(p: *const mcpr_page) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(p) }
            .and_then(|p| p.inner.next_cursor())
            .map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

/// Frees a page. Accepts NULL.
///
/// # Safety
/// `p` is NULL or a page from `mcpr_list` / `mcpr_list_templates`, freed
/// once.
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_free(p: *mut mcpr_page) {
    guard(|| unsafe { free_handle(p) })
}
