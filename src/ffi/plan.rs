//! The plan builder a `resolve` callback fills (`mcpr_plan_*`,
//! `mcpr_resolve_single`).

use super::handle::{handle_ref, view_ref};
use crate::error::{Failure, FailureKind};
use crate::plan::{ResourceReadPlan, ResourceTarget};
use std::os::raw::c_void;
use std::sync::Mutex;

use super::boundary::{
    guard, guard_status, mcpr_cb_result, mcpr_status, mcpr_str, MCPR_CB_FAILED, MCPR_CB_OK,
};
use super::call::mcpr_call;
use super::error::{mcpr_error, Error};
use super::views::mcpr_match;

/// The plan a `resolve` callback fills (borrowed, valid until the callback
/// returns; the library copies everything it is given). Internally locked:
/// the setters may be called from any thread while the callback runs, also
/// concurrently (items added concurrently keep no particular order).
pub struct mcpr_plan_builder {
    pub(super) state: Mutex<PlanState>,
}

/// The contents of a plan builder.
pub(super) struct PlanState {
    pub(super) requested: Option<ResourceTarget>,
    pub(super) items: Vec<ResourceTarget>,
    /// Set by `mcpr_resolve_single`: the requested target is also the only
    /// item (kept implicit so that the common plan costs no extra copy).
    pub(super) single: bool,
    pub(super) refused: Option<Failure>,
}

impl mcpr_plan_builder {
    /// Locks the contents (a panic while locked cannot leave them
    /// inconsistent in a way that matters: the plan is then refused or
    /// incomplete).
    fn lock(&self) -> std::sync::MutexGuard<'_, PlanState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl PlanState {
    pub(super) fn finish(self) -> Result<ResourceReadPlan, Failure> {
        if let Some(f) = self.refused {
            return Err(f);
        }
        let Some(requested) = self.requested else {
            return Err(Failure::with_message(
                FailureKind::InvalidPlan,
                "resolve set no requested target",
            ));
        };
        if self.single {
            return Ok(ResourceReadPlan::single(requested));
        }
        if self.items.len() == 1 && self.items[0] == requested {
            return Ok(ResourceReadPlan::single(requested));
        }
        ResourceReadPlan::new(requested, self.items)
    }

    fn refuse(&mut self, e: Failure) -> Error {
        let out = Error::from(Failure::with_message(e.kind(), e.message().to_string()));
        self.refused.get_or_insert(e);
        out
    }

    /// Records that a setter was refused for a bad argument, returning `e`.
    fn refuse_argument(&mut self, e: Error) -> Error {
        self.refused.get_or_insert(Failure::with_message(
            FailureKind::InvalidPlan,
            "a plan setter was refused",
        ));
        e
    }
}

/// # Safety
/// Each argument follows the `mcpr_str` rules.
unsafe fn make_target(
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
) -> Result<Result<ResourceTarget, Failure>, Error> {
    let plan = FailureKind::InvalidPlan;
    // SAFETY: forwarded to the caller's guarantee (three times).
    let (uri, rep, auth) = unsafe {
        (
            uri.text(plan, "target URI")?,
            representation.text(plan, "target representation")?,
            authorization_json.text(plan, "target authorization")?,
        )
    };
    let auth = if auth.is_empty() { None } else { Some(auth) };
    Ok(ResourceTarget::new(uri, rep, auth))
}

/// # Safety
/// `p` is NULL or a live plan builder; the strings follow the `mcpr_str` rules.
unsafe fn plan_set(
    p: *mut mcpr_plan_builder,
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
    item: bool,
) -> Result<(), Error> {
    // SAFETY: the caller guarantees `p` is NULL or live; only shared
    // references are made (the contents are behind a mutex), so concurrent
    // calls from several threads are sound.
    let p = unsafe { p.as_ref() }.ok_or_else(|| Error::argument("plan builder is NULL"))?;
    // SAFETY: forwarded to the caller's guarantee.
    let made = unsafe { make_target(uri, representation, authorization_json) };
    let mut guard = p.lock();
    let p = &mut *guard;
    // A plan started by `mcpr_resolve_single` and then extended: its
    // implicit single item becomes explicit first.
    if p.single {
        p.single = false;
        if let Some(r) = &p.requested {
            p.items.insert(0, r.clone());
        }
    }
    let target = match made {
        Ok(Ok(t)) => t,
        Ok(Err(f)) => return Err(p.refuse(f)),
        Err(e) => return Err(p.refuse_argument(e)),
    };
    if item {
        p.items.push(target);
    } else {
        p.requested = Some(target);
    }
    Ok(())
}

/// Sets the plan's canonical requested target (copied; a later call replaces
/// it). A refused target makes the whole plan invalid: the read fails with
/// `MCPR_INVALID_PLAN` even if `resolve` then returns `MCPR_CB_OK`.
///
/// \param plan The plan builder of the `resolve` callback.
/// \param uri The target's URI.
/// \param representation The representation label; empty means
///   `"default"`.
/// \param authorization_json Private JSON handed to policy and body-read
///   callbacks, never to the client; length 0 = none. At most 64 KiB, held
///   to the rules definitions are held to (nesting at most 127 deep, no
///   object repeating a key at any depth, no lone surrogate escape, no
///   number out of range such as `1e999`).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_PLAN` for a refused target;
///   `MCPR_INVALID_ARGUMENT` for a NULL `plan` or a bad string.
/// \pre `plan` is NULL or the plan builder the library passed to a `resolve`
///   callback that has not returned yet; the strings follow the `mcpr_str`
///   rules; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: any thread may call the plan setters, also
///   concurrently, while the callback runs (items added concurrently keep no
///   particular order).
#[no_mangle]
pub unsafe extern "C" fn mcpr_plan_set_requested(
    plan: *mut mcpr_plan_builder,
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // SAFETY: `plan` and the strings are valid (caller's guarantee).
    let body = || unsafe { plan_set(plan, uri, representation, authorization_json, false) };
    unsafe { guard_status(err, body) }
}

/// Appends an item target to the plan (copied), in read order. Item URIs must
/// be unique (even across representations); a URI equal to the requested
/// target's must carry the same representation (checked when `resolve`
/// returns). Refusals as for `mcpr_plan_set_requested`.
///
/// \param plan The plan builder of the `resolve` callback.
/// \param uri The target's URI.
/// \param representation The representation label; empty means
///   `"default"`.
/// \param authorization_json Private JSON handed to policy and body-read
///   callbacks, never to the client; length 0 = none. At most 64 KiB, held
///   to the rules definitions are held to (nesting at most 127 deep, no
///   object repeating a key at any depth, no lone surrogate escape, no
///   number out of range such as `1e999`).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_PLAN` for a refused target;
///   `MCPR_INVALID_ARGUMENT` for a NULL `plan` or a bad string.
/// \pre `plan` is NULL or the plan builder the library passed to a `resolve`
///   callback that has not returned yet; the strings follow the `mcpr_str`
///   rules; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: any thread may call the plan setters, also
///   concurrently, while the callback runs (items added concurrently keep no
///   particular order).
#[no_mangle]
pub unsafe extern "C" fn mcpr_plan_add_item(
    plan: *mut mcpr_plan_builder,
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // SAFETY: `plan` and the strings are valid (caller's guarantee).
    let body = || unsafe { plan_set(plan, uri, representation, authorization_json, true) };
    unsafe { guard_status(err, body) }
}

/// A ready-made `resolve` callback (an `mcpr_resolve_fn`): plans the matched
/// URI (representation `"default"`, no authorization JSON) as both the
/// requested target and the single item.
///
/// \param user_data Ignored.
/// \param call Ignored.
/// \param match The match view of the `resolve` callback.
/// \param plan The plan builder of the `resolve` callback.
/// \return `MCPR_CB_OK`; `MCPR_CB_FAILED` when `match` or `plan` is NULL or
///   the URI is refused.
/// \pre `match` and `plan` are NULL or the views the library passed to a
///   `resolve` callback that has not returned yet.
/// \note Thread-safe: may be called concurrently, like any `resolve`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_resolve_single(
    user_data: *mut c_void,
    call: *const mcpr_call,
    r#match: *const mcpr_match,
    plan: *mut mcpr_plan_builder,
) -> mcpr_cb_result {
    let _ = (user_data, call);
    let result = guard(|| {
        let (Some(m), Some(p)) = (unsafe { view_ref(r#match) }, unsafe { handle_ref(plan) }) else {
            return MCPR_CB_FAILED;
        };
        let mut p = p.lock();
        match ResourceTarget::of_match(m) {
            Ok(t) => {
                p.items.clear();
                p.requested = Some(t);
                p.single = true;
                MCPR_CB_OK
            }
            Err(f) => {
                p.refuse(f);
                MCPR_CB_FAILED
            }
        }
    });
    // A caught panic is a failure, not `MCPR_CB_OK`.
    if result == MCPR_CB_OK {
        MCPR_CB_OK
    } else {
        MCPR_CB_FAILED
    }
}
