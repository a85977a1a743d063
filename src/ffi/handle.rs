//! Handles, borrowed views and out-parameters: the helpers every export
//! uses, and their safety reasoning, stated once.
//!
//! Every opaque type the header declares is one [`Handle`] kind, fixed by
//! its `impl Handle` (an associated type, so one kind per type):
//! - [`Boxed`]: one owner; made by [`new_handle`] (or [`write_handle`]) and
//!   ended, exactly once, by [`free_handle`] or (for a handle a call
//!   consumes, as `mcpr_builder_build` does) [`take_handle`];
//! - [`Counted`]: reference counted (the registry); made by [`new_counted`],
//!   each reference taken with [`retain`] or [`hold`] and given back with
//!   [`release`];
//! - [`Lent`]: an object the library lends to one callback (the call
//!   context, the plan, payload and completion builders); it has no free.
//!
//! Each helper requires the kind it works with, so freeing a handle with
//! the wrong helper (a `Box` freed as an `Arc`, a lent builder freed at
//! all) does not compile. Borrowed handles of any kind are read through
//! [`handle_ref`]; borrowed views (the core values a callback is shown)
//! through [`view_ref`], made by [`view_ptr`]; out-parameters are written
//! through [`write_out`] / [`write_handle`] after [`need_out`] checked them.
//!
//! The SAFETY rule of the C layer: each export documents its pointer
//! arguments in its `\pre` paragraphs ("NULL or a live X", "freed once",
//! "valid for one write", "follows the `mcpr_str` rules"). An unsafe call
//! whose requirement is exactly such a documented precondition (passing an
//! argument to one of these helpers, to `error::guard_status` for its
//! `err`, to the `growth` readers, to `mcpr_str::bytes` or to a per-type
//! borrower stating the same contract in its `# Safety`) carries no SAFETY
//! comment: the `\pre` is its justification. A SAFETY comment is written
//! where the reasoning is the library's own: a check made just before, a
//! length computed here, an invariant of a type.

use std::sync::Arc;

use super::status::Error;

/// An opaque C type the library hands out, and how it is owned.
pub(crate) trait Handle: Sized {
    /// [`Boxed`], [`Counted`] or [`Lent`].
    type Kind;
}

/// One owner, freed once ([`new_handle`], [`free_handle`]).
pub(crate) enum Boxed {}
/// Reference counted ([`new_counted`], [`retain`], [`hold`], [`release`]).
pub(crate) enum Counted {}
/// Lent to one callback, never freed by the host.
pub(crate) enum Lent {}

/// Borrows the object behind `p`; `None` for NULL.
///
/// # Safety
/// `p` is NULL or points at a live `T` that stays alive, and is not freed
/// or mutated through another pointer, for `'a` (in practice: the export's
/// call, or the callback's invocation for lent objects).
pub(crate) unsafe fn handle_ref<'a, T: Handle>(p: *const T) -> Option<&'a T> {
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
pub(crate) fn new_handle<T: Handle<Kind = Boxed>>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Takes back ownership of a handle made by [`new_handle`] (`None` for
/// NULL): the handle is freed when the returned box is dropped.
///
/// # Safety
/// `p` is NULL or a pointer [`new_handle`] returned for this `T`, not yet
/// taken or freed, and not used by any thread afterwards.
pub(crate) unsafe fn take_handle<T: Handle<Kind = Boxed>>(p: *mut T) -> Option<Box<T>> {
    // SAFETY: `p` came from `Box::into_raw` in `new_handle` and is taken
    // once (the caller's guarantee).
    (!p.is_null()).then(|| unsafe { Box::from_raw(p) })
}

/// Frees a handle made by [`new_handle`]; does nothing for NULL.
///
/// # Safety
/// As for [`take_handle`].
pub(crate) unsafe fn free_handle<T: Handle<Kind = Boxed>>(p: *mut T) {
    drop(unsafe { take_handle(p) });
}

/// Moves `value` into a new reference-counted handle holding one
/// reference, to be given back with [`release`].
pub(crate) fn new_counted<T: Handle<Kind = Counted>>(value: T) -> *mut T {
    Arc::into_raw(Arc::new(value)).cast_mut()
}

/// A new reference to the object behind `p`, owned by the returned `Arc`
/// (`None` for NULL): what an export holds from entry to return.
///
/// # Safety
/// `p` is NULL or a live reference made by [`new_counted`] or [`retain`]
/// for this `T`, that no other thread may be releasing at that moment.
pub(crate) unsafe fn hold<T: Handle<Kind = Counted>>(p: *const T) -> Option<Arc<T>> {
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` came from `Arc::into_raw` and a reference is still held
    // (the caller's guarantee), so the count is at least one; the increment
    // gives `from_raw` its own reference to take over.
    unsafe {
        Arc::increment_strong_count(p);
        Some(Arc::from_raw(p))
    }
}

/// Takes one more reference to the object behind `p`, owned by the caller
/// of this function; returns `p` (NULL for NULL).
///
/// # Safety
/// As for [`hold`].
pub(crate) unsafe fn retain<T: Handle<Kind = Counted>>(p: *const T) -> *mut T {
    if !p.is_null() {
        // SAFETY: `p` came from `Arc::into_raw` and a reference is still
        // held (the caller's guarantee), so the count is at least one.
        unsafe { Arc::increment_strong_count(p) };
    }
    p.cast_mut()
}

/// Gives back one reference made by [`new_counted`] or [`retain`]; does
/// nothing for NULL.
///
/// # Safety
/// `p` is NULL or a reference owned by the caller, given back only once.
pub(crate) unsafe fn release<T: Handle<Kind = Counted>>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: `p` came from `Arc::into_raw`; the caller gives up one
        // reference.
        drop(unsafe { Arc::from_raw(p.cast_const()) });
    }
}

/// Writes `value` through the out-parameter `out`.
///
/// # Safety
/// `out` is non-null (checked with [`need_out`]) and valid for one write.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) {
    unsafe { out.write(value) }
}

/// Makes `value` a new owned handle ([`new_handle`]) and writes it through
/// the out-parameter `out`.
///
/// # Safety
/// As for [`write_out`].
pub(crate) unsafe fn write_handle<T: Handle<Kind = Boxed>>(out: *mut *mut T, value: T) {
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
