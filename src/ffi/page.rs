//! List pages (`mcpr_page_*`).

use crate::listing::Page;

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref, Boxed, Handle};

/// A list page. Owned by the caller; free with `mcpr_page_free`.
/// Immutable: safe to read from any thread.
///
/// \ingroup list
pub struct mcpr_page {
    pub(super) inner: Page,
}

impl Handle for mcpr_page {
    type Kind = Boxed;
}

/// The MCP list result JSON (`{"resources":[...],"nextCursor":...}` or
/// `{"resourceTemplates":[...]}`): send it as the JSON-RPC `result`.
///
/// \param page The page, or NULL.
/// \return Compact JSON, borrowed from `page` (valid until
///   `mcpr_page_free(page)`); empty when `page` is NULL.
/// \pre `page` is NULL or a page from `mcpr_list` / `mcpr_list_templates`,
///   not yet freed.
/// \note Thread-safe: a page is immutable; any thread may read it, also
///   concurrently.
///
/// \ingroup list
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_json(page: *const mcpr_page) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(page) }.map_or(mcpr_str::empty(), |page| {
            mcpr_str::from_str(page.inner.json())
        })
    })
}

/// The cursor of the next page (also in the JSON as `nextCursor`), to pass
/// as `mcpr_list_options.cursor` for the next page.
///
/// \param page The page, or NULL.
/// \return The cursor, borrowed from `page` (valid until
///   `mcpr_page_free(page)`); length 0 on the last page and when `page` is
///   NULL.
/// \pre `page` is NULL or a page from `mcpr_list` / `mcpr_list_templates`,
///   not yet freed.
/// \note Thread-safe (see `mcpr_page_json`).
///
/// \ingroup list
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_next_cursor(page: *const mcpr_page) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(page) }
            .and_then(|page| page.inner.next_cursor())
            .map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

/// Frees a page.
///
/// \param page The page to free, or NULL (then nothing happens).
/// \pre `page` is NULL or a page from `mcpr_list` / `mcpr_list_templates`,
///   freed only once; no thread uses it (or a string borrowed from it)
///   afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup list
#[no_mangle]
pub unsafe extern "C" fn mcpr_page_free(page: *mut mcpr_page) {
    guard(|| unsafe { free_handle(page) })
}
