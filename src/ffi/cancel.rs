//! Cancellation tokens (`mcpr_cancel_*`).

use crate::scope::CancelToken;

use super::boundary::guard;
use super::handle::{free_handle, handle_ref, new_handle, Boxed, Handle};

/// A cancellation token. `mcpr_cancel_cancel` is safe from any thread at
/// any time, including while reads using it run on other threads. Free
/// with `mcpr_cancel_free`.
///
/// \ingroup read
pub struct mcpr_cancel {
    pub(super) inner: CancelToken,
}

impl Handle for mcpr_cancel {
    type Kind = Boxed;
}

/// A new, uncancelled cancellation token.
///
/// \return The token, owned by the caller: free it with `mcpr_cancel_free`.
///   NULL only if the library failed internally.
/// \note Thread-safe: any thread may create tokens.
///
/// \ingroup read
#[no_mangle]
pub extern "C" fn mcpr_cancel_new() -> *mut mcpr_cancel {
    guard(|| {
        new_handle(mcpr_cancel {
            inner: CancelToken::new(),
        })
    })
}

/// Cancels the token (idempotent). Reads, listings, completions and requests
/// given it stop with `MCPR_CANCELED`, and their callbacks see
/// `mcpr_call_is_canceled` return true.
///
/// \param cancel The token, or NULL (then nothing happens).
/// \pre `cancel` is NULL or a token from `mcpr_cancel_new`, not yet freed.
/// \note Thread-safe: any thread may cancel at any time, also while calls
///   using the token run on other threads.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_cancel(cancel: *const mcpr_cancel) {
    guard(|| {
        if let Some(token) = unsafe { handle_ref(cancel) } {
            token.inner.cancel();
        }
    })
}

/// Whether the token was cancelled.
///
/// \param cancel The token, or NULL.
/// \return True once `mcpr_cancel_cancel` was called on it; false otherwise
///   and when `cancel` is NULL.
/// \pre `cancel` is NULL or a token from `mcpr_cancel_new`, not yet freed.
/// \note Thread-safe: any thread, at any time.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_is_canceled(cancel: *const mcpr_cancel) -> bool {
    guard(|| unsafe { handle_ref(cancel) }.is_some_and(|cancel| cancel.inner.is_canceled()))
}

/// Frees the caller's token handle. Calls in flight that were given it keep
/// their own reference, so it may be freed as soon as the calls that use it
/// have begun.
///
/// \param cancel The token to free, or NULL (then nothing happens).
/// \pre `cancel` is NULL or a token from `mcpr_cancel_new`, freed only once;
///   no thread uses this handle afterwards (including to start a call with
///   it).
/// \note Any thread may free it, once no other thread uses the handle.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_cancel_free(cancel: *mut mcpr_cancel) {
    guard(|| unsafe { free_handle(cancel) })
}

/// # Safety
/// `c` is NULL or a live token.
pub(super) unsafe fn cancel_of(c: *const mcpr_cancel) -> Option<CancelToken> {
    unsafe { handle_ref(c) }.map(|c| c.inner.clone())
}
