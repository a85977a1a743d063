//! The policy's C callback table (`mcpr_policy_callbacks`: `discover`,
//! `visibility`, `read` and the optional plan-level `decide_plan`) as a
//! [`ResourcePolicy`].

use super::growth::{field_end, init_out, Grows};
use super::handle::view_ptr;
use super::host::{mcpr_release_fn, HostPtr, Release, Required};
use crate::error::{CallbackError, CauseText};
use crate::plan::ResourceTarget;
use crate::policy::{PlanDecision, PlanQuestions, ResourcePolicy, TargetDecision, Visibility};
use crate::registry::ResourceDefinition;
use crate::scope::CallContext;
use std::os::raw::c_void;

use super::boundary::guard;
use super::call::mcpr_call;
use super::status::{mcpr_cb_result, MCPR_CB_FAILED};
use super::views::{mcpr_definition, mcpr_target};

/// A visibility decision written by the `visibility` policy callback.
///
/// The callback must write `visible` (true or false) before returning
/// `MCPR_CB_OK`; `disclose_issue_uri` is pre-filled with false. On entry
/// `visible` holds a sentinel byte that is neither true nor false (do not
/// read it): a callback that returns `MCPR_CB_OK` without writing `visible`
/// fails the call with `MCPR_POLICY` (private cause "visibility callback
/// returned OK without deciding"), instead of silently hiding the target
/// from reads while listings still show its definition.
///
/// \ingroup callbacks
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mcpr_visibility {
    /// Whether the caller may know the target exists (hidden targets are
    /// outside the selection and never reported).
    pub visible: bool,
    /// Whether an issue about this target may name its URI (when it is at
    /// most 256 bytes); only the final decision counts.
    pub disclose_issue_uri: bool,
}

/// The policy's `discover` callback (`mcpr_policy_callbacks.discover`):
/// may the caller discover this definition? Asked by reads, listings and
/// completions.
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param call The call context (`mcpr_call_phase` says which step).
/// \param definition The registered definition.
/// \return `MCPR_CB_OK` to allow; `MCPR_CB_UNAVAILABLE` to deny (the
///   definition is treated as absent); any other value fails the whole call
///   with `MCPR_POLICY`.
/// \note `call` and `definition` are borrowed: valid until the callback
///   returns, usable from any thread until then.
///
/// \ingroup callbacks
pub type mcpr_discover_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        call: *const mcpr_call,
        definition: *const mcpr_definition,
    ) -> mcpr_cb_result,
>;

/// The policy's `visibility` callback (`mcpr_policy_callbacks.visibility`):
/// is this target visible, and may issues name its URI?
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param call The call context (`mcpr_call_phase` says which step).
/// \param target The target asked about.
/// \param decision Where to write the decision: `visible` must be written
///   (true or false) before returning `MCPR_CB_OK`, else the call fails with
///   `MCPR_POLICY`; `disclose_issue_uri` is pre-filled false (see
///   `mcpr_visibility`).
/// \return `MCPR_CB_OK` with `decision->visible` written; any other value
///   fails the whole call with `MCPR_POLICY`.
/// \note `call`, `target` and `decision` are borrowed: valid until the
///   callback returns, usable from any thread until then.
///
/// \ingroup callbacks
pub type mcpr_visibility_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        call: *const mcpr_call,
        target: *const mcpr_target,
        decision: *mut mcpr_visibility,
    ) -> mcpr_cb_result,
>;

/// The policy's `read` callback (`mcpr_policy_callbacks.read`): may the
/// caller read this visible target?
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param call The call context (`mcpr_call_phase` says which step).
/// \param target The target asked about.
/// \return `MCPR_CB_OK` to allow; `MCPR_CB_UNAVAILABLE` to deny; any other
///   value fails the whole call with `MCPR_POLICY`.
/// \note `call` and `target` are borrowed: valid until the callback
///   returns, usable from any thread until then.
///
/// \ingroup callbacks
pub type mcpr_policy_read_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        call: *const mcpr_call,
        target: *const mcpr_target,
    ) -> mcpr_cb_result,
>;

/// One target's answers in a plan decision (`mcpr_plan_decision`), written
/// by the `decide_plan` policy callback.
///
/// `visibility_result` and `read_result` are what the `visibility` and
/// `read` callbacks would return for the target (`MCPR_CB_OK`,
/// `MCPR_CB_UNAVAILABLE`, `MCPR_CB_FAILED`, `MCPR_CB_INPUT_REQUIRED`), and
/// `visibility` what `visibility` would write. The library pre-fills both
/// results with `MCPR_CB_FAILED` (an answer left as it is fails the call
/// with `MCPR_POLICY`, when the library needs it) and `visibility.visible`
/// with the same sentinel as for `visibility` (a `visibility_result` of
/// `MCPR_CB_OK` without `visible` written is a policy failure).
/// `read_result` is used only when the target is visible.
///
/// \ingroup callbacks
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcpr_target_decision {
    /// What `visibility` would return for this target.
    pub visibility_result: mcpr_cb_result,
    /// What `visibility` would write (see `mcpr_visibility`).
    pub visibility: mcpr_visibility,
    /// What the policy `read` would return for this (visible) target.
    pub read_result: mcpr_cb_result,
}

/// What one `decide_plan` call is asked (`mcpr_policy_callbacks.decide_plan`),
/// in the order the per-item callbacks would be: `discover(definition)`
/// when `definition` is not NULL; then the requested target's visibility
/// and (when visible) read permission when `requested` is not NULL; then
/// every item's, in plan order. A single-item plan whose item is the
/// requested target lists it both as `requested` and as `items[0]`. Every
/// pointer is borrowed until the callback returns.
///
/// \ingroup callbacks
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcpr_plan_questions {
    /// The definition whose discovery is asked, or NULL (not asked).
    pub definition: *const mcpr_definition,
    /// The requested target, or NULL (not asked).
    pub requested: *const mcpr_target,
    /// `items_len` item views (NULL when `items_len` is 0); the array is
    /// the library's, not to be written.
    pub items: *mut *const mcpr_target,
    /// The number of items asked about (the length of `items`, and of
    /// `mcpr_plan_decision.items`).
    pub items_len: usize,
}

/// Where a `decide_plan` callback writes its answers. The library owns it
/// and pre-fills every result with `MCPR_CB_FAILED` (see
/// `mcpr_target_decision`); the callback writes `discover` (when a
/// definition is asked), `requested` (when a requested target is asked)
/// and `items[0 .. items_len)`, and nothing else: the library reads the
/// answers back from its own storage, whatever `items` and `items_len`
/// hold when the callback returns.
///
/// \ingroup callbacks
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcpr_plan_decision {
    /// What `discover` would return for the definition asked.
    pub discover: mcpr_cb_result,
    /// The requested target's answers.
    pub requested: mcpr_target_decision,
    /// `items_len` decisions, one per item asked about, in plan order
    /// (NULL when `items_len` is 0).
    pub items: *mut mcpr_target_decision,
    /// The length of `items` (the same as `mcpr_plan_questions.items_len`).
    pub items_len: usize,
}

/// The policy's optional plan-level callback
/// (`mcpr_policy_callbacks.decide_plan`): every answer of one step of a
/// read in one call (docs/BEHAVIOUR.md §5), for hosts whose every callback
/// is costly (one crossing into another language each).
///
/// When the table has one, the library asks it instead of the per-item
/// callbacks in a read's first check (one call for discovery and every
/// target when the binding plans with `mcpr_resolve_single`; otherwise one
/// for discovery before `resolve` and one for the targets after it), in
/// its recheck (one call), and in the root checks of an embedding or a
/// subscription; `mcpr_call_phase` says which. Listings, completion and a
/// list change still ask `discover` per definition. The answers mean what
/// the per-item callbacks' results mean and are read with the same rules
/// in the same order, stopping where the per-item form stops (a denied or
/// failed discovery, a hidden or denied requested target, a failure, an
/// item asking for input in the first check): answers after that are never
/// used. A cause set with `mcpr_call_set_cause` goes to the first failing
/// answer the library reads; input requests added before returning
/// `MCPR_CB_INPUT_REQUIRED` as an answer go to the first such answer it
/// reads (only the first check's read permission may ask, as for `read`).
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param call The call context (`mcpr_call_phase` says which step).
/// \param questions What is asked (see `mcpr_plan_questions`).
/// \param decision Where to write the answers (see `mcpr_plan_decision`).
/// \return `MCPR_CB_OK` with the answers written; any other value fails the
///   whole call with `MCPR_POLICY` (its cause, if set, the private cause).
/// \note `call`, `questions` (and every view it points at) and `decision`
///   are borrowed: valid until the callback returns, usable from any thread
///   until then.
///
/// \ingroup callbacks
pub type mcpr_decide_plan_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        call: *const mcpr_call,
        questions: *const mcpr_plan_questions,
        decision: *mut mcpr_plan_decision,
    ) -> mcpr_cb_result,
>;

/// The policy callback table given to `mcpr_builder_set_policy` (copied by
/// the call).
///
/// All three callbacks are required; `release` is optional. They may be
/// called concurrently from many reads and listings on any thread, with the
/// same `user_data`; they run on the thread calling `mcpr_read`,
/// `mcpr_list` or `mcpr_list_templates`, or on an executor worker when the
/// call is given an executor. There, a callback still running at the call's
/// deadline or on cancellation is abandoned: it keeps running, its result
/// is discarded, its views stay valid until it returns, and `release` runs
/// after it returns. Callbacks should not throw (see
/// `mcpr_binding_callbacks`); `longjmp` out of one is undefined behaviour.
/// `MCPR_CB_UNAVAILABLE` from `discover` or `read` is a denial; any other
/// failure (and any failure of `visibility`) fails the whole call with
/// `MCPR_POLICY`.
///
/// `release(user_data)` runs exactly once, on any thread, if and only if
/// `mcpr_builder_set_policy` succeeded, after the last call into this
/// table has returned: when it is replaced by another
/// `mcpr_builder_set_policy`, when the builder is freed without building,
/// when a build fails, or when the last reference to the registry goes away.
///
/// Growth: set `struct_size` to `sizeof(mcpr_policy_callbacks)`, or start from
/// `MCPR_POLICY_CALLBACKS_INIT` / `mcpr_policy_callbacks_init` (every callback
/// NULL). Later versions append fields; the library reads only the fields lying
/// wholly within `struct_size` (the others are NULL), refuses a `struct_size`
/// below `sizeof(size_t)` or above 4096, and refuses set bytes beyond the
/// fields it knows (`MCPR_INVALID_ARGUMENT`).
///
/// \ingroup callbacks
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_policy_callbacks {
    /// `sizeof(mcpr_policy_callbacks)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// Passed as the first argument of every callback.
    pub user_data: *mut c_void,
    /// Required: may the caller discover this definition (see
    /// `mcpr_discover_fn`)?
    pub discover: mcpr_discover_fn,
    /// Required: is this target visible, and may issues name its URI (see
    /// `mcpr_visibility_fn`)?
    pub visibility: mcpr_visibility_fn,
    /// Required: may the caller read this visible target (see
    /// `mcpr_policy_read_fn`)?
    pub read: mcpr_policy_read_fn,
    /// Optional finalizer of `user_data` (see above).
    pub release: mcpr_release_fn,
    /// Optional (NULL = the per-item callbacks answer every question): the
    /// plan-level entry that answers a whole step of a read in one call (see
    /// `mcpr_decide_plan_fn`). Added with `struct_size`: a table built
    /// against an older header leaves it NULL.
    pub decide_plan: mcpr_decide_plan_fn,
}

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_policy_callbacks {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_policy_callbacks, user_data),
        field_end!(mcpr_policy_callbacks, discover),
        field_end!(mcpr_policy_callbacks, visibility),
        field_end!(mcpr_policy_callbacks, read),
        field_end!(mcpr_policy_callbacks, release),
        field_end!(mcpr_policy_callbacks, decide_plan),
    ];
}

/// Fills a policy callback table with the defaults: `user_data` and every
/// callback NULL, and `struct_size` set to `sizeof(mcpr_policy_callbacks)`,
/// as `MCPR_POLICY_CALLBACKS_INIT` does.
///
/// \param callbacks The table to fill, or NULL (then nothing happens).
/// \pre `callbacks` is NULL or points at a writable `mcpr_policy_callbacks`.
/// \note Thread-safe: touches only `*callbacks`.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_policy_callbacks_init(callbacks: *mut mcpr_policy_callbacks) {
    guard(|| unsafe { init_out(callbacks) })
}

/// A C policy table as a [`ResourcePolicy`].
pub(crate) struct CPolicy {
    ud: HostPtr,
    discover: Required<mcpr_discover_fn>,
    visibility: Required<mcpr_visibility_fn>,
    read: Required<mcpr_policy_read_fn>,
    decide_plan: mcpr_decide_plan_fn,
    _release: Release,
}

impl CPolicy {
    /// Copies a table; `None` when a required callback is missing.
    pub(crate) fn new(t: &mcpr_policy_callbacks) -> Option<CPolicy> {
        let ud = HostPtr(t.user_data);
        Some(CPolicy {
            ud,
            discover: t.discover?,
            visibility: t.visibility?,
            read: t.read?,
            decide_plan: t.decide_plan,
            _release: Release {
                ud,
                release: t.release,
            },
        })
    }
}

/// The byte `mcpr_visibility.visible` holds before the callback runs:
/// neither `false` (0) nor `true` (1), so a callback that did not write it
/// is told apart from one that decided.
const VISIBILITY_UNDECIDED: u8 = 0xA5;

impl ResourcePolicy for CPolicy {
    fn discover(
        &self,
        call: &CallContext,
        definition: &ResourceDefinition,
    ) -> Result<(), CallbackError> {
        let c = mcpr_call::new(call);
        // SAFETY: the host supplied this callback for `ud`; every pointer
        // passed is valid for the duration of the call.
        let rc = unsafe { (self.discover)(self.ud.0, &c, view_ptr(definition)) };
        c.outcome(rc)
    }

    fn visibility(
        &self,
        call: &CallContext,
        target: &ResourceTarget,
    ) -> Result<Visibility, CallbackError> {
        let c = mcpr_call::new(call);
        // Two bytes laid out like `mcpr_visibility` (two `bool`s, align 1),
        // read back as integers so that any byte the callback stores is
        // defined behaviour. `visible` starts as a sentinel that no
        // `bool` store writes, so "OK without deciding" is detectable.
        let mut raw = [VISIBILITY_UNDECIDED, 0u8];
        // SAFETY: the host supplied this callback for `ud`; `raw` has the
        // size and alignment of `mcpr_visibility` and every pointer passed
        // is valid for the duration of the call.
        let rc = unsafe {
            (self.visibility)(
                self.ud.0,
                &c,
                view_ptr(target),
                raw.as_mut_ptr().cast::<mcpr_visibility>(),
            )
        };
        c.outcome(rc)?;
        if raw[0] == VISIBILITY_UNDECIDED {
            return Err(CallbackError::Failed(Box::new(CauseText(
                "visibility callback returned OK without deciding".to_string(),
            ))));
        }
        Ok(Visibility {
            visible: raw[0] != 0,
            disclose_issue_uri: raw[1] != 0,
        })
    }

    fn read(&self, call: &CallContext, target: &ResourceTarget) -> Result<(), CallbackError> {
        let c = mcpr_call::new(call);
        // SAFETY: the host supplied this callback for `ud`; every pointer
        // passed is valid for the duration of the call.
        let rc = unsafe { (self.read)(self.ud.0, &c, view_ptr(target)) };
        c.outcome(rc)
    }

    fn decides_plans(&self) -> bool {
        self.decide_plan.is_some()
    }

    fn decide_plan(&self, call: &CallContext, q: &PlanQuestions<'_>) -> PlanDecision {
        let Some(decide) = self.decide_plan else {
            return crate::policy::decide_per_item(self, call, q);
        };
        let c = mcpr_call::new(call);
        // The item views, on the stack for the usual one or few.
        let mut few = [std::ptr::null::<mcpr_target>(); 4];
        let many: Vec<*const mcpr_target>;
        let items: &[*const mcpr_target] = if q.items.len() <= few.len() {
            for (p, t) in few.iter_mut().zip(q.items) {
                *p = view_ptr(t);
            }
            &few[..q.items.len()]
        } else {
            many = q.items.iter().map(view_ptr).collect();
            &many
        };
        let questions = mcpr_plan_questions {
            definition: q.definition.map_or(std::ptr::null(), view_ptr),
            requested: q.requested.map_or(std::ptr::null(), view_ptr),
            items: if items.is_empty() {
                std::ptr::null_mut()
            } else {
                // Never written through (the array is documented read-only),
                // and not read back.
                items.as_ptr().cast_mut()
            },
            items_len: items.len(),
        };
        // Raw answers: the visibility bytes read back as integers, as for
        // `visibility` (any byte the callback stores is defined).
        let undecided = RawDecision {
            visibility_result: MCPR_CB_FAILED,
            visible: VISIBILITY_UNDECIDED,
            disclose: 0,
            read_result: MCPR_CB_FAILED,
        };
        let mut few_out = [undecided; 4];
        let mut many_out: Vec<RawDecision>;
        let out: &mut [RawDecision] = if q.items.len() <= few_out.len() {
            &mut few_out[..q.items.len()]
        } else {
            many_out = vec![undecided; q.items.len()];
            &mut many_out
        };
        let mut decision = RawPlanDecision {
            discover: MCPR_CB_FAILED,
            requested: undecided,
            items: if out.is_empty() {
                std::ptr::null_mut()
            } else {
                out.as_mut_ptr()
            },
            items_len: out.len(),
        };
        // SAFETY: the host supplied this callback for `ud`; `questions`
        // and every view it points at, and `decision` (laid out as
        // `mcpr_plan_decision`) with the `items_len` decisions it points
        // at, are valid for the duration of the call.
        let rc = unsafe {
            decide(
                self.ud.0,
                &c,
                &questions,
                std::ptr::from_mut(&mut decision).cast::<mcpr_plan_decision>(),
            )
        };
        if let Err(e) = c.outcome(rc) {
            return whole_decision_failed(q, e, rc, c.take_cause());
        }
        // Read back from the library's own storage (`decision.items` and
        // `decision.items_len` as the callback left them are not used).
        let target = |d: &RawDecision| answers_of(&c, d);
        PlanDecision {
            discover: q.definition.map(|_| c.outcome(decision.discover)),
            requested: q.requested.map(|_| target(&decision.requested)),
            items: out.iter().map(target).collect(),
        }
    }
}

/// The decision of a `decide_plan` call that failed as a whole: the first
/// answer the library reads is the failure, with the cause the callback
/// set (`cause`, for a value other than `MCPR_CB_FAILED`, whose failure
/// holds it already), or one that names the value it returned.
fn whole_decision_failed(
    q: &PlanQuestions<'_>,
    e: CallbackError,
    rc: mcpr_cb_result,
    cause: Option<String>,
) -> PlanDecision {
    let e = match e {
        CallbackError::Failed(e) => CallbackError::Failed(e),
        _ => CallbackError::Failed(Box::new(CauseText(
            cause.unwrap_or_else(|| format!("decide_plan callback returned {rc}")),
        ))),
    };
    let mut d = PlanDecision::default();
    let failed = |e| TargetDecision {
        visibility: Err(e),
        read: None,
    };
    if q.definition.is_some() {
        d.discover = Some(Err(e));
    } else if q.requested.is_some() {
        d.requested = Some(failed(e));
    } else if !q.items.is_empty() {
        d.items.push(failed(e));
    }
    d
}

/// One target's answers as the callback wrote them into `d` (a
/// visibility left undecided with `MCPR_CB_OK` is a failure).
fn answers_of(c: &mcpr_call, d: &RawDecision) -> TargetDecision {
    let visibility = c.outcome(d.visibility_result).and_then(|()| {
        if d.visible == VISIBILITY_UNDECIDED {
            return Err(CallbackError::Failed(Box::new(CauseText(
                "decide_plan returned a visibility of MCPR_CB_OK without deciding".to_string(),
            ))));
        }
        Ok(Visibility {
            visible: d.visible != 0,
            disclose_issue_uri: d.disclose != 0,
        })
    });
    let read = match &visibility {
        Ok(v) if v.visible => Some(c.outcome(d.read_result)),
        _ => None,
    };
    TargetDecision { visibility, read }
}

/// `mcpr_target_decision` with its visibility as bytes (see
/// `CPolicy::visibility`).
#[repr(C)]
#[derive(Clone, Copy)]
struct RawDecision {
    visibility_result: mcpr_cb_result,
    visible: u8,
    disclose: u8,
    read_result: mcpr_cb_result,
}

/// `mcpr_plan_decision` with [`RawDecision`]s.
#[repr(C)]
struct RawPlanDecision {
    discover: mcpr_cb_result,
    requested: RawDecision,
    items: *mut RawDecision,
    items_len: usize,
}

const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<RawDecision>() == size_of::<mcpr_target_decision>());
    assert!(align_of::<RawDecision>() == align_of::<mcpr_target_decision>());
    assert!(offset_of!(RawDecision, visible) == offset_of!(mcpr_target_decision, visibility));
    assert!(offset_of!(RawDecision, read_result) == offset_of!(mcpr_target_decision, read_result));
    assert!(size_of::<RawPlanDecision>() == size_of::<mcpr_plan_decision>());
    assert!(offset_of!(RawPlanDecision, requested) == offset_of!(mcpr_plan_decision, requested));
    assert!(offset_of!(RawPlanDecision, items) == offset_of!(mcpr_plan_decision, items));
    assert!(offset_of!(RawPlanDecision, items_len) == offset_of!(mcpr_plan_decision, items_len));
};

#[cfg(test)]
mod tests {
    //! The C callback adapters' reading of what a callback returned and
    //! wrote (the C suite's `test_usability.c` covers the same rules end to
    //! end).

    use super::*;
    use crate::error::{Failure, FailureKind};
    use crate::ffi::all::*;
    use crate::scope::CallPhase;
    use std::time::Duration;

    unsafe extern "C-unwind" fn discover_ok(
        _: *mut c_void,
        _: *const mcpr_call,
        _: *const mcpr_definition,
    ) -> mcpr_cb_result {
        MCPR_CB_OK
    }
    unsafe extern "C-unwind" fn permit_ok(
        _: *mut c_void,
        _: *const mcpr_call,
        _: *const mcpr_target,
    ) -> mcpr_cb_result {
        MCPR_CB_OK
    }
    /// Writes `visible` as told by `ud` (NULL: writes nothing; the phase is
    /// checked too).
    unsafe extern "C-unwind" fn visibility_as_told(
        ud: *mut c_void,
        call: *const mcpr_call,
        _: *const mcpr_target,
        out: *mut mcpr_visibility,
    ) -> mcpr_cb_result {
        // SAFETY: `call` is the live view of this call.
        assert_eq!(unsafe { mcpr_call_phase(call) }, MCPR_PHASE_RECHECK);
        // SAFETY: `ud` is NULL or points at a `bool` of the test.
        if let Some(v) = unsafe { ud.cast::<bool>().as_ref() } {
            // SAFETY: `out` is valid for writes during the call.
            unsafe { (*out).visible = *v };
        }
        MCPR_CB_OK
    }

    fn policy(ud: *mut c_void) -> CPolicy {
        CPolicy::new(&mcpr_policy_callbacks {
            struct_size: std::mem::size_of::<mcpr_policy_callbacks>(),
            user_data: ud,
            discover: Some(discover_ok),
            visibility: Some(visibility_as_told),
            read: Some(permit_ok),
            release: None,
            decide_plan: None,
        })
        .unwrap()
    }

    fn recheck_call() -> CallContext {
        crate::scope::RequestScope::start(Duration::from_secs(10), None, None, None)
            .call_in(CallPhase::Recheck)
    }

    #[test]
    fn visibility_ok_without_writing_visible_is_a_failure_not_hidden() {
        let target = ResourceTarget::new("x://a", "", None).unwrap();
        let p = policy(std::ptr::null_mut());
        let r = ResourcePolicy::visibility(&p, &recheck_call(), &target);
        let Err(CallbackError::Failed(cause)) = r else {
            panic!("expected a failure, got {:?}", r.map(|v| v.visible));
        };
        assert!(cause
            .to_string()
            .contains("visibility callback returned OK without deciding"));
    }

    #[test]
    fn visibility_written_false_is_hidden_and_true_is_visible() {
        let target = ResourceTarget::new("x://a", "", None).unwrap();
        for want in [false, true] {
            let mut v = want;
            let p = policy((&mut v as *mut bool).cast());
            let got = ResourcePolicy::visibility(&p, &recheck_call(), &target).unwrap();
            assert_eq!(got.visible, want);
            assert!(!got.disclose_issue_uri);
        }
    }

    #[test]
    fn cb_invalid_content_is_an_invalid_content_failure_with_the_cause() {
        let call = CallContext::detached(Duration::from_secs(10));
        let c = mcpr_call::new(&call);
        let Err(CallbackError::Failed(e)) = c.outcome(MCPR_CB_INVALID_CONTENT) else {
            panic!("expected a failure");
        };
        let f = e.downcast_ref::<Failure>().expect("a Failure");
        assert_eq!(f.kind(), FailureKind::InvalidContent);
        // SAFETY: `c` is live; the message is a valid string.
        unsafe { mcpr_call_set_cause(&c, mcpr_str::from_str("BAD-BYTES")) };
        let Err(CallbackError::Failed(e)) = c.outcome(MCPR_CB_INVALID_CONTENT) else {
            panic!("expected a failure");
        };
        assert!(e.to_string().contains("BAD-BYTES"));
        // Other unknown values stay plain failures.
        let Err(CallbackError::Failed(e)) = c.outcome(5) else {
            panic!("expected a failure");
        };
        assert!(e.downcast_ref::<Failure>().is_none());
    }

    #[test]
    fn call_phase_maps_every_phase_and_null() {
        // SAFETY: NULL is accepted.
        assert_eq!(
            unsafe { mcpr_call_phase(std::ptr::null()) },
            MCPR_PHASE_UNKNOWN
        );
        let scope = crate::scope::RequestScope::start(Duration::from_secs(10), None, None, None);
        for (phase, want) in [
            (CallPhase::FirstCheck, MCPR_PHASE_FIRST_CHECK),
            (CallPhase::Recheck, MCPR_PHASE_RECHECK),
            (CallPhase::Resolve, MCPR_PHASE_RESOLVE),
            (CallPhase::BodyRead, MCPR_PHASE_BODY_READ),
            (CallPhase::Listing, MCPR_PHASE_LISTING),
            (CallPhase::Completion, MCPR_PHASE_COMPLETION),
            (CallPhase::Subscription, MCPR_PHASE_SUBSCRIPTION),
        ] {
            let ctx = scope.call_in(phase);
            let c = mcpr_call::new(&ctx);
            // SAFETY: `c` is live.
            assert_eq!(unsafe { mcpr_call_phase(&c) }, want);
        }
        let body = scope.item_call(scope.deadline(), 1);
        let c = mcpr_call::new(&body);
        // SAFETY: `c` is live.
        assert_eq!(unsafe { mcpr_call_phase(&c) }, MCPR_PHASE_BODY_READ);
    }
}
