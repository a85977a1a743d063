//! What the host lends the library: its opaque pointers (`user_data`,
//! `request_data`, lent bytes), the finalizer that takes them back
//! (`mcpr_release_fn`), and the function type inside each callback
//! typedef.
//!
//! Ground floor of the C layer: it uses nothing of `ffi`.

use std::os::raw::c_void;

/// The host's `void *user_data` (or `request_data`).
///
/// The library never dereferences it; it only hands it back to the host's
/// callbacks, which may run concurrently on any thread. Making whatever it
/// points at safe for that is the host's responsibility (documented in the
/// header), which is what these `Send`/`Sync` implementations rely on.
#[derive(Clone, Copy)]
pub(crate) struct HostPtr(pub(crate) *mut c_void);

// SAFETY: the pointer is opaque to the library and only passed back to host
// callbacks; the header documents that callbacks (and thus whatever the
// pointer designates) may be used concurrently from any thread.
unsafe impl Send for HostPtr {}
// SAFETY: as above; the library never reads or writes through it.
unsafe impl Sync for HostPtr {}

/// The finalizer of a callback table's `user_data`
/// (`mcpr_binding_callbacks.release`, `mcpr_policy_callbacks.release`).
///
/// \param user_data The table's `user_data` (may be NULL).
/// \note Runs exactly once, on any thread, after the last call into its
///   table has returned (see the table for when).
///
/// \ingroup callbacks
pub type mcpr_release_fn = Option<unsafe extern "C-unwind" fn(user_data: *mut c_void)>;

/// Runs a release callback once, when dropped.
pub(crate) struct Release {
    pub(crate) ud: HostPtr,
    pub(crate) release: mcpr_release_fn,
}

impl Drop for Release {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            // SAFETY: the host supplied `release` for this `user_data`; the
            // owner of this value is dropped exactly once, after the last
            // callback through the table returned (the core keeps `Arc`
            // clones of handlers for abandoned readers).
            unsafe { release(self.ud.0) }
        }
    }
}

/// A callback typedef's function type: every typedef is `Option<F>` (NULL
/// allowed), and a required callback, checked once when its table is
/// copied, is stored as `F`. Written as `Required<mcpr_resolve_fn>`, so that
/// each signature is spelled once, in its public typedef.
pub(crate) type Required<T> = <T as Nullable>::Fn;

/// A nullable function pointer, `Option<F>` (see [`Required`]).
pub(crate) trait Nullable {
    /// The function pointer type.
    type Fn: Copy;
}

impl<F: Copy> Nullable for Option<F> {
    type Fn = F;
}
