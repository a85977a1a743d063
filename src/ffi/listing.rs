//! `mcpr_listing_fingerprint`: which definitions a caller can discover,
//! as a digest, for list changes after a permission change.

use super::error::{guard_status, mcpr_error};
use super::handle::need_out;
use super::read::{mcpr_read_options, read_options_of};
use super::resources::mcpr_resources;
use super::status::mcpr_status;

/// The caller's listing fingerprint: a 32-byte digest of which resources
/// and templates of the registry it can discover (`discover` asked for
/// every definition, under `options->request_data`, in
/// `MCPR_PHASE_SUBSCRIPTION`). Take one for each caller whose permissions
/// are about to change, and pass it as `mcpr_subscriber.listing` to
/// `mcpr_notify_listing_changed` afterwards. Fingerprints of one caller are
/// equal exactly when the same definitions were discoverable; those of
/// different registries always differ. Private to the host: never send it.
///
/// \param resources A registry reference.
/// \param options The caller's options (request data, deadline,
///   cancellation, executor; the protocol revision is not used), or NULL
///   for all defaults.
/// \param out Receives the 32 bytes on `MCPR_OK`.
/// \param err Receives an error object on failure; may be NULL.
/// \return `MCPR_OK`; `MCPR_POLICY` when a `discover` fails (or a saturated
///   executor); `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`;
///   `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `out` or bad options.
/// \pre `resources` is NULL or a live registry reference (see `mcpr_read`);
///   `options` is NULL or points at options as for `mcpr_read`; `out` is
///   NULL or points at 32 writable bytes; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_listing_fingerprint(
    resources: *const mcpr_resources,
    options: *const mcpr_read_options,
    out: *mut u8,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        let options = unsafe { read_options_of(options) }?;
        let f = r.inner.listing_fingerprint(&options)?;
        // SAFETY: `out` is non-null (checked above) and points at 32
        // writable bytes (the caller's guarantee).
        unsafe { std::ptr::copy_nonoverlapping(f.0.as_ptr(), out, 32) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}
