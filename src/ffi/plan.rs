//! The plan builder a `resolve` callback fills (`mcpr_plan_*`,
//! `mcpr_resolve_single`).

use super::handle::{handle_ref, view_ref, Handle, Lent};
use crate::error::{Failure, FailureKind};
use crate::plan::{ResourceMatch, ResourceReadPlan, ResourceTarget};
use std::os::raw::c_void;
use std::sync::Mutex;

use super::boundary::{guard, mcpr_str};
use super::call::mcpr_call;
use super::error::{guard_status, mcpr_error};
use super::status::{mcpr_cb_result, mcpr_status, Error, MCPR_CB_FAILED, MCPR_CB_OK};
use super::views::mcpr_match;

/// The plan a `resolve` callback fills (borrowed, valid until the callback
/// returns; the library copies everything it is given). Internally locked:
/// the setters may be called from any thread while the callback runs, also
/// concurrently (items added concurrently keep no particular order).
///
/// \ingroup callbacks
pub struct mcpr_plan_builder {
    pub(super) state: Mutex<PlanState>,
    /// The match the `resolve` callback was given (alive as long as the
    /// builder: both are lent for the duration of the callback).
    pub(super) matched: MatchRef,
}

impl Handle for mcpr_plan_builder {
    type Kind = Lent;
}

/// The match a plan builder was made for: a setter given the match's own
/// URI (the common plan) shares its validated URI instead of validating
/// and copying it again.
pub(super) struct MatchRef(*const ResourceMatch);

// SAFETY: the pointer is only read, through a shared reference, while the
// `resolve` callback that owns both the match and the builder runs; a
// `ResourceMatch` is `Sync`, so reading it from the thread the host calls a
// setter on is sound.
unsafe impl Send for MatchRef {}
// SAFETY: as for `Send`.
unsafe impl Sync for MatchRef {}

impl MatchRef {
    /// Refers to `m`, which must outlive every use of the builder.
    pub(super) fn new(m: &ResourceMatch) -> MatchRef {
        MatchRef(m)
    }

    /// The match's default target when `uri` is the match's URI and no
    /// representation or authorization is given (what `ResourceTarget::new`
    /// would make, without validating or copying the URI again).
    ///
    /// # Safety
    /// The match is alive (the `resolve` callback has not returned), and
    /// `uri` follows the `mcpr_str` rules.
    unsafe fn default_target(
        &self,
        uri: mcpr_str,
        representation: mcpr_str,
        authorization_json: mcpr_str,
    ) -> Option<Result<ResourceTarget, Failure>> {
        let m = unsafe { self.0.as_ref() }?;
        if representation.len != 0 || authorization_json.len != 0 || uri.ptr.is_null() {
            return None;
        }
        let own = m.uri().as_bytes();
        if uri.len != own.len() {
            return None;
        }
        // SAFETY: `uri` is non-null with `len` readable bytes (the
        // `mcpr_str` rules), and `len` is the length of a live string.
        let given = unsafe { std::slice::from_raw_parts(uri.ptr.cast::<u8>(), uri.len) };
        (given == own).then(|| ResourceTarget::of_match(m))
    }
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
    /// An empty plan for `m`, which must outlive the builder (both are lent
    /// to one `resolve` callback).
    pub(super) fn new(m: &ResourceMatch) -> Self {
        mcpr_plan_builder {
            state: Mutex::new(PlanState {
                requested: None,
                items: Vec::new(),
                single: false,
                refused: None,
            }),
            matched: MatchRef::new(m),
        }
    }

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
    // Only shared references are made (the contents are behind a mutex),
    // so concurrent calls from several threads are sound.
    let p = unsafe { handle_ref(p) }.ok_or_else(|| Error::argument("plan builder is NULL"))?;
    // SAFETY: a live builder means its `resolve` callback has not returned,
    // so the match lent to that callback with it is alive too.
    let made = match unsafe {
        p.matched
            .default_target(uri, representation, authorization_json)
    } {
        Some(t) => Ok(t),
        None => unsafe { make_target(uri, representation, authorization_json) },
    };
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
        // The first item equal to the requested target is kept implicit,
        // as `mcpr_resolve_single` keeps it (a later setter makes it
        // explicit first, above), so the common plan costs no extra list.
        if p.items.is_empty() && p.requested.as_ref() == Some(&target) {
            p.single = true;
        } else {
            p.items.push(target);
        }
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
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_plan_set_requested(
    plan: *mut mcpr_plan_builder,
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
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
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_plan_add_item(
    plan: *mut mcpr_plan_builder,
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || unsafe { plan_set(plan, uri, representation, authorization_json, true) };
    unsafe { guard_status(err, body) }
}

/// A ready-made `resolve` callback (an `mcpr_resolve_fn`): plans the matched
/// URI (representation `"default"`, no authorization JSON) as both the
/// requested target and the single item.
///
/// \param user_data Ignored (may be NULL).
/// \param call Ignored.
/// \param match The match view of the `resolve` callback.
/// \param plan The plan builder of the `resolve` callback.
/// \return `MCPR_CB_OK`; `MCPR_CB_FAILED` when `match` or `plan` is NULL or
///   the URI is refused.
/// \pre `match` and `plan` are NULL or the views the library passed to a
///   `resolve` callback that has not returned yet.
/// \note Thread-safe: may be called concurrently, like any `resolve`.
///
/// \ingroup callbacks
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

#[cfg(test)]
mod tests {
    //! The plan builder's shortcuts: the match's own URI is shared, not
    //! validated and copied again, and an item equal to the requested
    //! target stays implicit without changing the plan a host builds.

    use super::*;
    use crate::definition::ResourceDefinition;
    use std::sync::Arc;

    fn matched(uri: &str) -> ResourceMatch {
        let def = ResourceDefinition::from_json(&format!(r#"{{"uri":"{uri}","name":"n"}}"#))
            .expect("a valid definition");
        ResourceMatch::selected(Arc::new(def), uri, Vec::new())
    }

    fn s(text: &str) -> mcpr_str {
        mcpr_str::from_str(text)
    }

    fn set(p: &mut mcpr_plan_builder, uri: &str, rep: &str, auth: &str) -> mcpr_status {
        // SAFETY: a live builder and live strings.
        unsafe { mcpr_plan_set_requested(p, s(uri), s(rep), s(auth), std::ptr::null_mut()) }
    }

    fn add(p: &mut mcpr_plan_builder, uri: &str, rep: &str, auth: &str) -> mcpr_status {
        // SAFETY: a live builder and live strings.
        unsafe { mcpr_plan_add_item(p, s(uri), s(rep), s(auth), std::ptr::null_mut()) }
    }

    fn finish(p: mcpr_plan_builder) -> Result<ResourceReadPlan, Failure> {
        p.state.into_inner().expect("not poisoned").finish()
    }

    fn uris(plan: &ResourceReadPlan) -> Vec<&str> {
        plan.items().iter().map(|t| t.uri()).collect()
    }

    #[test]
    fn the_match_uri_given_back_is_shared_with_the_match() {
        let m = matched("mem://doc/7");
        let mut p = mcpr_plan_builder::new(&m);
        // A copy of the bytes, not the match's own pointer: equal bytes suffice.
        let copy = String::from("mem://doc/7");
        assert_eq!(set(&mut p, &copy, "", ""), mcpr_status::MCPR_OK);
        assert_eq!(add(&mut p, &copy, "", ""), mcpr_status::MCPR_OK);
        let plan = finish(p).expect("a valid plan");
        assert_eq!(plan.requested().uri().as_ptr(), m.uri().as_ptr());
        assert_eq!(uris(&plan), ["mem://doc/7"]);
        assert_eq!(plan.items()[0], *plan.requested());
    }

    #[test]
    fn the_match_uri_with_a_representation_or_authorization_is_checked_as_any_target() {
        let m = matched("mem://doc/7");
        let mut p = mcpr_plan_builder::new(&m);
        assert_eq!(
            set(&mut p, "mem://doc/7", "summary", ""),
            mcpr_status::MCPR_OK
        );
        let plan = finish(p).expect("a valid plan");
        assert_eq!(plan.requested().representation(), "summary");

        let mut p = mcpr_plan_builder::new(&m);
        assert_eq!(
            set(&mut p, "mem://doc/7", "", "{nope"),
            mcpr_status::MCPR_INVALID_PLAN
        );
        assert!(finish(p).is_err());

        let mut p = mcpr_plan_builder::new(&m);
        assert_eq!(
            set(&mut p, "mem://doc/7", "", r#"{"k":1}"#),
            mcpr_status::MCPR_OK
        );
        let plan = finish(p).expect("a valid plan");
        assert_eq!(plan.requested().authorization(), Some(r#"{"k":1}"#));
    }

    #[test]
    fn other_uris_are_still_validated() {
        let m = matched("mem://doc/7");
        let mut p = mcpr_plan_builder::new(&m);
        assert_eq!(set(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert_eq!(
            add(&mut p, "not a uri", "", ""),
            mcpr_status::MCPR_INVALID_PLAN
        );
        assert!(finish(p).is_err());
    }

    #[test]
    fn an_item_equal_to_the_requested_target_keeps_its_place_when_more_follow() {
        let m = matched("mem://doc/7");
        let mut p = mcpr_plan_builder::new(&m);
        assert_eq!(set(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert_eq!(add(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert_eq!(add(&mut p, "mem://doc/8", "", ""), mcpr_status::MCPR_OK);
        let plan = finish(p).expect("a valid plan");
        assert_eq!(uris(&plan), ["mem://doc/7", "mem://doc/8"]);

        // The requested target replaced after the implicit item: the item stays.
        let mut p = mcpr_plan_builder::new(&m);
        assert_eq!(set(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert_eq!(add(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert_eq!(set(&mut p, "mem://doc/9", "", ""), mcpr_status::MCPR_OK);
        let plan = finish(p).expect("a valid plan");
        assert_eq!(plan.requested().uri(), "mem://doc/9");
        assert_eq!(uris(&plan), ["mem://doc/7"]);

        // A second equal item is a duplicate, as before.
        let mut p = mcpr_plan_builder::new(&m);
        assert_eq!(set(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert_eq!(add(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert_eq!(add(&mut p, "mem://doc/7", "", ""), mcpr_status::MCPR_OK);
        assert!(finish(p).is_err());
    }
}
