//! Read results (`mcpr_bundle_*`).

use crate::read::ResourceBundle;

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref};

/// A read result. Owned by the caller; free with `mcpr_bundle_free`.
/// Immutable: safe to read from any thread.
pub struct mcpr_bundle {
    pub(super) inner: ResourceBundle,
}

/// The MCP `resources/read` result JSON (send it as the JSON-RPC
/// `result`). Owned by `b`, valid until `mcpr_bundle_free(b)`. Empty for
/// NULL.
///
/// # Safety
/// `b` is NULL or a live bundle.
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_json(b: *const mcpr_bundle) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(b) }.map_or(mcpr_str::empty(), |b| mcpr_str::from_str(b.inner.json()))
    })
}

/// Whether the bundle is partial (its first item is then the diagnostic
/// warning). False for NULL.
///
/// # Safety
/// `b` is NULL or a live bundle.
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_is_partial(b: *const mcpr_bundle) -> bool {
    guard(|| unsafe { handle_ref(b) }.is_some_and(|b| b.inner.is_partial()))
}

/// Frees a bundle. Accepts NULL.
///
/// # Safety
/// `b` is NULL or a bundle from `mcpr_read`, freed once.
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_free(b: *mut mcpr_bundle) {
    guard(|| unsafe { free_handle(b) })
}
