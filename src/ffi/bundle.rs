//! Read results (`mcpr_bundle_*`).

use crate::read::ResourceBundle;

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref, Boxed, Handle};

/// A read result. Owned by the caller; free with `mcpr_bundle_free`.
/// Immutable: safe to read from any thread.
///
/// \ingroup read
pub struct mcpr_bundle {
    pub(super) inner: ResourceBundle,
}

impl Handle for mcpr_bundle {
    type Kind = Boxed;
}

/// The MCP `resources/read` result JSON: send it as the JSON-RPC `result`.
///
/// \param bundle The bundle, or NULL.
/// \return Compact JSON, borrowed from `bundle` (valid until
///   `mcpr_bundle_free(bundle)`); empty when `bundle` is NULL.
/// \pre `bundle` is NULL or a bundle from `mcpr_read`, not yet freed.
/// \note Thread-safe: a bundle is immutable; any thread may read it, also
///   concurrently.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_json(bundle: *const mcpr_bundle) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(bundle) }.map_or(mcpr_str::empty(), |bundle| {
            mcpr_str::from_str(bundle.inner.json())
        })
    })
}

/// Whether the bundle is partial: its first item is then the diagnostic
/// warning.
///
/// \param bundle The bundle, or NULL.
/// \return True for a partial bundle; false otherwise and when `bundle` is
///   NULL.
/// \pre `bundle` is NULL or a bundle from `mcpr_read`, not yet freed.
/// \note Thread-safe (see `mcpr_bundle_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_is_partial(bundle: *const mcpr_bundle) -> bool {
    guard(|| unsafe { handle_ref(bundle) }.is_some_and(|bundle| bundle.inner.is_partial()))
}

/// Whether the bundle is an MCP 2026-07-28 `InputRequiredResult`: a
/// callback of the read asked for input first (docs/BEHAVIOUR.md §18).
/// Its JSON (`mcpr_bundle_json`) is still the `result` to send: it holds
/// `resultType: "input_required"`, the input requests and the sealed
/// `requestState`, which the client's retry brings back (the retry's
/// `mcpr_read_options.request_state` and `input_responses`).
///
/// \param bundle The bundle, or NULL.
/// \return True for an input-required result; false otherwise and when
///   `bundle` is NULL.
/// \pre `bundle` is NULL or a bundle from `mcpr_read`, not yet freed.
/// \note Thread-safe (see `mcpr_bundle_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_is_input_required(bundle: *const mcpr_bundle) -> bool {
    guard(|| unsafe { handle_ref(bundle) }.is_some_and(|bundle| bundle.inner.is_input_required()))
}

/// Frees a bundle.
///
/// \param bundle The bundle to free, or NULL (then nothing happens).
/// \pre `bundle` is NULL or a bundle from `mcpr_read`, freed only once; no
///   thread uses it (or a string borrowed from it) afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_bundle_free(bundle: *mut mcpr_bundle) {
    guard(|| unsafe { free_handle(bundle) })
}
