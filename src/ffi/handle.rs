//! Shared handle and out-parameter helpers, and their safety reasoning,
//! stated once.
//!
//! Every owned handle except the registry (an `Arc`, see `resources.rs`) is
//! a `Box` turned into a raw pointer by [`new_handle`] and turned back,
//! exactly once, by [`free_handle`] or (for a handle a call consumes, as
//! `mcpr_builder_build` does) [`take_handle`]. Borrowed handles are read
//! through [`handle_ref`], borrowed views through [`view_ref`];
//! out-parameters are written through [`write_out`] / [`write_handle`]
//! after [`need_out`] checked them.
//!
//! Each export documents its pointer arguments in its `\pre` paragraphs
//! ("NULL or a live X", "freed once", "valid for one write"). When an
//! export passes such an argument straight to one of these helpers (or to
//! `boundary::guard_status` for its `err`, to the `growth` readers for its
//! option struct or table, or to a per-type borrower built on them that
//! states the same contract: `with_builder`, `resources`,
//! `mcpr_resources::hold`, `call_ref`, `payload_ref`, `builder_ref`,
//! `list_with`, `plan_set`), the helper's own `# Safety` requirement is
//! exactly that documented contract, so the call forwards it and carries
//! no SAFETY comment of its own. Any other unsafe operation keeps its own
//! SAFETY comment.

use super::error::Error;

/// Borrows the object behind `p`; `None` for NULL.
///
/// # Safety
/// `p` is NULL or points at a live `T` that stays alive, and is not freed
/// or mutated through another pointer, for `'a` (in practice: the export's
/// call, or the callback's invocation for borrowed views).
pub(crate) unsafe fn handle_ref<'a, T>(p: *const T) -> Option<&'a T> {
    // SAFETY: guaranteed by the caller.
    unsafe { p.as_ref() }
}

/// A borrowed view: an opaque C type standing for a core value the library
/// lends to a callback. Every pointer of the type is a cast `&Self::Core`
/// made by [`view_ptr`], valid until the callback returns.
///
/// # Safety
/// Pointers of the implementing type are only ever made by [`view_ptr`].
pub(crate) unsafe trait View {
    /// The core value the view stands for.
    type Core;
}

/// The view of `core`, to hand to a callback.
pub(crate) fn view_ptr<V: View>(core: &V::Core) -> *const V {
    (core as *const V::Core).cast()
}

/// Borrows the core value behind a view; `None` for NULL.
///
/// # Safety
/// `p` is NULL or a view of this type whose callback has not returned.
pub(crate) unsafe fn view_ref<'a, V: View>(p: *const V) -> Option<&'a V::Core> {
    // SAFETY: every `V` pointer is a cast `&V::Core` (the `View` contract),
    // still valid (the caller's guarantee).
    unsafe { p.cast::<V::Core>().as_ref() }
}

/// Moves `value` to the heap and returns it as an owned handle, to be
/// released once with [`free_handle`].
pub(crate) fn new_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Takes back ownership of a handle made by [`new_handle`] (`None` for
/// NULL): the handle is freed when the returned box is dropped.
///
/// # Safety
/// `p` is NULL or a pointer [`new_handle`] returned for this `T`, not yet
/// taken or freed, and not used by any thread afterwards.
pub(crate) unsafe fn take_handle<T>(p: *mut T) -> Option<Box<T>> {
    // SAFETY: `p` came from `Box::into_raw` in `new_handle` and is taken
    // once (the caller's guarantee).
    (!p.is_null()).then(|| unsafe { Box::from_raw(p) })
}

/// Frees a handle made by [`new_handle`]; does nothing for NULL.
///
/// # Safety
/// As for [`take_handle`].
pub(crate) unsafe fn free_handle<T>(p: *mut T) {
    // SAFETY: forwarded to the caller.
    drop(unsafe { take_handle(p) });
}

/// Writes `value` through the out-parameter `out`.
///
/// # Safety
/// `out` is non-null (checked with [`need_out`]) and valid for one write.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) {
    // SAFETY: guaranteed by the caller.
    unsafe { out.write(value) }
}

/// Makes `value` a new owned handle ([`new_handle`]) and writes it through
/// the out-parameter `out`.
///
/// # Safety
/// As for [`write_out`].
pub(crate) unsafe fn write_handle<T>(out: *mut *mut T, value: T) {
    // SAFETY: forwarded to the caller.
    unsafe { write_out(out, new_handle(value)) }
}

/// Checks an out-parameter for NULL.
pub(crate) fn need_out<T>(out: *mut T) -> Result<(), Error> {
    if out.is_null() {
        Err(Error::argument("out-parameter is NULL"))
    } else {
        Ok(())
    }
}
