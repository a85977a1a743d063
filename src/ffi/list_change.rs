//! `mcpr_list_change_*`: two registries compared once, for list-change
//! decisions (`mcpr_notify_list_changed`).

use crate::subscription::ListChange;

use super::boundary::guard;
use super::error::{guard_status, mcpr_error};
use super::handle::{free_handle, handle_ref, need_out, write_handle, Boxed, Handle};
use super::resources::{mcpr_resources, resources};
use super::status::mcpr_status;

/// The definitions that differ between two registries (removed, added, or
/// listed differently), each with its registry's policy. Owned by the
/// caller; free with `mcpr_list_change_free`. Immutable: safe to use from
/// any thread. It keeps the policies' callback tables alive (their
/// `release` runs after it is freed), not the registries.
///
/// \ingroup subscriptions
pub struct mcpr_list_change {
    pub(super) inner: ListChange,
}

impl Handle for mcpr_list_change {
    type Kind = Boxed;
}

/// Compares two registries once, for a configuration reload: resources and
/// templates are matched by `uri` / `uriTemplate`, byte for byte, in their
/// sorted orders (one pass over each; two registries of the same content
/// differ in nothing, at once). No callback runs.
///
/// \param old_resources The registry being replaced.
/// \param new_resources The registry replacing it.
/// \param out Receives the change on `MCPR_OK`; the caller owns it: free it
///   with `mcpr_list_change_free`.
/// \param err Receives an error object on failure; may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL registry or `out`.
/// \pre `old_resources` and `new_resources` are NULL or live registry
///   references (see `mcpr_read`); `out` is NULL or points at writable
///   storage for one `mcpr_list_change *`; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_change_new(
    old_resources: *const mcpr_resources,
    new_resources: *const mcpr_resources,
    out: *mut *mut mcpr_list_change,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let old = unsafe { resources(old_resources) }?;
        let new = unsafe { resources(new_resources) }?;
        need_out(out)?;
        let inner = ListChange::between(&old.inner, &new.inner);
        unsafe { write_handle(out, mcpr_list_change { inner }) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// How many definitions differ (a changed one counted once); 0 means no
/// subscriber will ever be told.
///
/// \param change The list change, or NULL.
/// \return The count; 0 when `change` is NULL.
/// \pre `change` is NULL or a list change from `mcpr_list_change_new`, not
///   yet freed.
/// \note Thread-safe.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_change_count(change: *const mcpr_list_change) -> usize {
    guard(|| unsafe { handle_ref(change) }.map_or(0, |c| c.inner.len()))
}

/// Frees a list change.
///
/// \param change The list change to free, or NULL (then nothing happens).
/// \pre `change` is NULL or a list change from `mcpr_list_change_new`,
///   freed only once, that no thread uses afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup subscriptions
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_change_free(change: *mut mcpr_list_change) {
    guard(|| unsafe { free_handle(change) })
}
