//! Cancellation tokens (`mcpr_cancel_*`).

use crate::scope::CancelToken;

use super::boundary::guard;
use super::handle::{free_handle, handle_ref, new_handle};

/// A cancellation token. `mcpr_cancel_cancel` is safe from any thread at
/// any time, including while reads using it run on other threads. Free
/// with `mcpr_cancel_free`.
pub struct mcpr_cancel {
    pub(super) inner: CancelToken,
}

/// A new, uncancelled token, owned by the caller (free with
/// `mcpr_cancel_free`). NULL only on a caught panic.
#[no_mangle]
pub extern "C" fn mcpr_cancel_new() -> *mut mcpr_cancel {
    guard(|| {
        new_handle(mcpr_cancel {
            inner: CancelToken::new(),
        })
    })
}

/// Cancels the token (idempotent). Safe from any thread at any time while
/// the handle is alive; reads and listings using it stop with
/// `MCPR_CANCELED`, and callbacks see `mcpr_call_is_canceled` true.
/// Ignores NULL.
///
/// # Safety
/// `c` is NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_cancel(c: *const mcpr_cancel) {
    guard(|| {
        if let Some(c) = unsafe { handle_ref(c) } {
            c.inner.cancel();
        }
    })
}

/// Whether the token was cancelled (false for NULL). Any thread.
///
/// # Safety
/// `c` is NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_is_canceled(c: *const mcpr_cancel) -> bool {
    guard(|| unsafe { handle_ref(c) }.is_some_and(|c| c.inner.is_canceled()))
}

/// Frees a token handle. Calls in flight that were given it keep their own
/// reference. Accepts NULL.
///
/// # Safety
/// `c` is NULL or a token from `mcpr_cancel_new`, freed once, not used by
/// any thread afterwards.
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_free(c: *mut mcpr_cancel) {
    guard(|| unsafe { free_handle(c) })
}

/// # Safety
/// `c` is NULL or a live token.
pub(super) unsafe fn cancel_of(c: *const mcpr_cancel) -> Option<CancelToken> {
    unsafe { handle_ref(c) }.map(|c| c.inner.clone())
}
