//! C callback tables as [`ResourceHandler`] / [`ResourcePolicy`]
//! implementations, the call context and the borrowed views callbacks
//! receive, and the plan and payload builders they fill.

use std::os::raw::c_void;
use std::sync::Mutex;

use super::boundary::{
    guard, guard_status, mcpr_cb_result, mcpr_error, mcpr_status, mcpr_str, Error, MCPR_CB_FAILED,
    MCPR_CB_INVALID_CONTENT, MCPR_CB_OK, MCPR_CB_UNAVAILABLE,
};
use super::complete::{mcpr_completion_builder, mcpr_completion_request};
use crate::binding::ResourceHandler;
use crate::completion::{CompletionRequest, CompletionSink, ResourceCompleter};
use crate::definition::ResourceDefinition;
use crate::error::{CallbackError, CauseText, Failure, FailureKind};
use crate::plan::{ResourceMatch, ResourcePayload, ResourceReadPlan, ResourceTarget};
use crate::policy::{ResourcePolicy, Visibility};
use crate::scope::{CallContext, CallPhase};

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

/// A visibility decision written by the `visibility` policy callback.
///
/// The callback must write `visible` (true or false) before returning
/// `MCPR_CB_OK`; `disclose_issue_uri` is pre-filled with false. On entry
/// `visible` holds a sentinel byte that is neither true nor false (do not
/// read it): a callback that returns `MCPR_CB_OK` without writing `visible`
/// fails the call with `MCPR_POLICY` (private cause "visibility callback
/// returned OK without deciding"), instead of silently hiding the target
/// from reads while listings still show its definition.
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

/// The context of one callback invocation: cancellation, remaining time,
/// request data, item byte limit, and a slot for a private failure cause.
/// A borrowed view, valid only until the callback returns; the accessors
/// may be called from any thread during that time, also concurrently.
pub struct mcpr_call {
    ctx: *const CallContext,
    cause: Mutex<Option<String>>,
}

/// A registered definition (borrowed view, valid until the callback returns;
/// its accessors may be called from any thread while the callback runs).
pub struct mcpr_definition {
    _private: [u8; 0],
}

/// The outcome of selection handed to `resolve` (borrowed view, valid until
/// the callback returns; its accessors may be called from any thread while
/// the callback runs).
pub struct mcpr_match {
    _private: [u8; 0],
}

/// A target (URI, representation, private authorization JSON) handed to
/// policy and body-read callbacks (borrowed view, valid until the callback
/// returns; its accessors may be called from any thread while the callback
/// runs).
pub struct mcpr_target {
    _private: [u8; 0],
}

/// The plan a `resolve` callback fills (borrowed, valid until the callback
/// returns; the library copies everything it is given). Internally locked:
/// the setters may be called from any thread while the callback runs, also
/// concurrently (items added concurrently keep no particular order).
pub struct mcpr_plan_builder {
    state: Mutex<PlanState>,
}

/// The contents of a plan builder.
struct PlanState {
    requested: Option<ResourceTarget>,
    items: Vec<ResourceTarget>,
    /// Set by `mcpr_resolve_single`: the requested target is also the only
    /// item (kept implicit so that the common plan costs no extra copy).
    single: bool,
    refused: Option<Failure>,
}

/// The payload a body `read` callback fills (borrowed, valid until the
/// callback returns; the library copies everything it is given).
/// Internally locked: the setters may be called from any thread while the
/// callback runs, also concurrently.
pub struct mcpr_payload_builder {
    state: Mutex<PayloadState>,
}

/// The contents of a payload builder.
pub(super) struct PayloadState {
    payload: Option<ResourcePayload>,
    meta: Option<String>,
    refused: Option<Failure>,
    /// Set by `mcpr_payload_set_cache_hints`.
    pub(super) cache: Option<crate::cache::CacheHints>,
}

/// The binding callback table given to `mcpr_builder_add` (copied by the
/// call; the struct itself need not outlive it).
///
/// `resolve` and `read` are required; `release` is optional. `resolve` and
/// `read` may be called concurrently from many reads on any thread, with
/// the same `user_data`; they run on the calling thread of `mcpr_read`, or
/// on an executor worker when the read is given an executor. There, a
/// callback still running at its deadline (the item deadline for `read`,
/// the read deadline for `resolve`) or on cancellation is abandoned: it
/// keeps running on its worker, its result is discarded, and its views
/// stay valid until it returns. Callbacks should not throw: a C++ exception escaping one is
/// stopped inside the library (current Rust aborts the process), never
/// reaching the caller; `longjmp` out of a callback is undefined behaviour.
///
/// `release(user_data)` runs exactly once, on any thread, if and only if
/// `mcpr_builder_add` succeeded, after the last call into this table has
/// returned, and after any abandoned callback of a read or listing on an
/// executor that involves this binding (a reader, or a policy callback)
/// has returned: when the
/// builder is freed without building, when a build fails, or when the last
/// reference to the registry goes away.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_binding_callbacks {
    /// Passed as the first argument of every callback.
    pub user_data: *mut c_void,
    /// Turns a match into a read plan by calling `mcpr_plan_set_requested`
    /// and `mcpr_plan_add_item` on `plan` (or use `mcpr_resolve_single`).
    /// Must not read bodies or perform application effects.
    /// `MCPR_CB_UNAVAILABLE` is a root denial; `MCPR_CB_FAILED`, any other
    /// value, a refused plan setter or no requested target make the read fail
    /// with `MCPR_INVALID_PLAN`.
    pub resolve: Option<
        unsafe extern "C-unwind" fn(
            ud: *mut c_void,
            call: *const mcpr_call,
            m: *const mcpr_match,
            plan: *mut mcpr_plan_builder,
        ) -> mcpr_cb_result,
    >,
    /// Reads one item's body into `out` (`mcpr_payload_set_text` or
    /// `mcpr_payload_set_blob`, optionally `mcpr_payload_set_meta`).
    /// `MCPR_CB_UNAVAILABLE` makes an `unavailable` issue, `MCPR_CB_FAILED`
    /// (or any other value) a `read_failed` issue (`timeout` when its
    /// deadline passed); `MCPR_CB_OK` with no body set, or after a refused
    /// setter, an `invalid_content` issue. Should poll
    /// `mcpr_call_is_canceled` and respect `mcpr_call_max_bytes`.
    pub read: Option<
        unsafe extern "C-unwind" fn(
            ud: *mut c_void,
            call: *const mcpr_call,
            t: *const mcpr_target,
            out: *mut mcpr_payload_builder,
        ) -> mcpr_cb_result,
    >,
    /// Optional finalizer of `user_data` (see above).
    pub release: Option<unsafe extern "C-unwind" fn(ud: *mut c_void)>,
    /// Optional completion callback of a template binding
    /// (`completion/complete` with `ref/resource`; a non-NULL one on an
    /// exact-URI definition is `MCPR_INVALID_CONFIGURATION`). NULL (the
    /// default of a positional initialiser that stops before it): the
    /// template answers an empty completion. Proposes values for
    /// `mcpr_completion_request_argument(req)` starting from
    /// `mcpr_completion_request_value(req)`, most relevant first, with
    /// `mcpr_completion_add_value` (and optionally
    /// `mcpr_completion_set_total` / `mcpr_completion_set_has_more`).
    /// Metadata only, like `resolve`: must not read bodies or perform
    /// application effects. Runs after the policy's `discover` allowed the
    /// template, on the thread calling `mcpr_complete` (or on an executor
    /// worker when its options give one), under the call's deadline and
    /// cancellation (poll `mcpr_call_is_canceled`).
    /// `MCPR_CB_UNAVAILABLE` answers like not found (`MCPR_UNAVAILABLE`);
    /// `MCPR_CB_FAILED` or any other value fails the call with
    /// `MCPR_READ_FAILED`.
    pub complete: Option<
        unsafe extern "C-unwind" fn(
            ud: *mut c_void,
            call: *const mcpr_call,
            req: *const mcpr_completion_request,
            out: *mut mcpr_completion_builder,
        ) -> mcpr_cb_result,
    >,
}

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
/// `mcpr_binding_callbacks`); `longjmp` out of one is undefined behaviour. `MCPR_CB_UNAVAILABLE` from `discover` or `read` is a denial;
/// any other failure (and any failure of `visibility`) fails the whole call
/// with `MCPR_POLICY`.
///
/// `release(user_data)` runs exactly once, on any thread, if and only if
/// `mcpr_builder_set_policy` succeeded, after the last call into this
/// table has returned: when it is replaced by another
/// `mcpr_builder_set_policy`, when the builder is freed without building,
/// when a build fails, or when the last reference to the registry goes away.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_policy_callbacks {
    /// Passed as the first argument of every callback.
    pub user_data: *mut c_void,
    /// May the caller discover this definition (reads and listings)?
    pub discover: Option<
        unsafe extern "C-unwind" fn(
            ud: *mut c_void,
            call: *const mcpr_call,
            def: *const mcpr_definition,
        ) -> mcpr_cb_result,
    >,
    /// Is this target visible, and may issues name its URI? Write the
    /// decision to `out`: `visible` must be written (true or false) before
    /// returning `MCPR_CB_OK`, otherwise the call fails with `MCPR_POLICY`
    /// (see `mcpr_visibility`); `disclose_issue_uri` is pre-filled false.
    pub visibility: Option<
        unsafe extern "C-unwind" fn(
            ud: *mut c_void,
            call: *const mcpr_call,
            t: *const mcpr_target,
            out: *mut mcpr_visibility,
        ) -> mcpr_cb_result,
    >,
    /// May the caller read this visible target?
    pub read: Option<
        unsafe extern "C-unwind" fn(
            ud: *mut c_void,
            call: *const mcpr_call,
            t: *const mcpr_target,
        ) -> mcpr_cb_result,
    >,
    /// Optional finalizer of `user_data` (see above).
    pub release: Option<unsafe extern "C-unwind" fn(ud: *mut c_void)>,
}

type ResolveFn = unsafe extern "C-unwind" fn(
    *mut c_void,
    *const mcpr_call,
    *const mcpr_match,
    *mut mcpr_plan_builder,
) -> mcpr_cb_result;
type BodyFn = unsafe extern "C-unwind" fn(
    *mut c_void,
    *const mcpr_call,
    *const mcpr_target,
    *mut mcpr_payload_builder,
) -> mcpr_cb_result;
type DiscoverFn = unsafe extern "C-unwind" fn(
    *mut c_void,
    *const mcpr_call,
    *const mcpr_definition,
) -> mcpr_cb_result;
type VisibilityFn = unsafe extern "C-unwind" fn(
    *mut c_void,
    *const mcpr_call,
    *const mcpr_target,
    *mut mcpr_visibility,
) -> mcpr_cb_result;
type PermitFn = unsafe extern "C-unwind" fn(
    *mut c_void,
    *const mcpr_call,
    *const mcpr_target,
) -> mcpr_cb_result;
type ReleaseFn = unsafe extern "C-unwind" fn(*mut c_void);
type CompleteFn = unsafe extern "C-unwind" fn(
    *mut c_void,
    *const mcpr_call,
    *const mcpr_completion_request,
    *mut mcpr_completion_builder,
) -> mcpr_cb_result;

/// Runs a release callback once, when dropped.
struct Release {
    ud: HostPtr,
    release: Option<ReleaseFn>,
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

/// A C binding table as a [`ResourceHandler`].
pub(crate) struct CBinding {
    ud: HostPtr,
    resolve: ResolveFn,
    read: BodyFn,
    complete: Option<CompleteFn>,
    _release: Release,
}

impl CBinding {
    /// Copies a table; `None` when a required callback is missing.
    pub(crate) fn new(t: &mcpr_binding_callbacks) -> Option<CBinding> {
        let ud = HostPtr(t.user_data);
        Some(CBinding {
            ud,
            resolve: t.resolve?,
            read: t.read?,
            complete: t.complete,
            _release: Release {
                ud,
                release: t.release,
            },
        })
    }

    /// Whether the table has a completion callback.
    pub(crate) fn completes(&self) -> bool {
        self.complete.is_some()
    }
}

impl ResourceCompleter for CBinding {
    fn complete(
        &self,
        call: &CallContext,
        request: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        let Some(complete) = self.complete else {
            return Ok(());
        };
        let c = mcpr_call::new(call);
        let mut builder = mcpr_completion_builder {
            state: Mutex::new(out.fresh()),
        };
        // SAFETY: the host supplied this callback for `ud`; every pointer
        // passed is valid for the duration of the call.
        let rc = unsafe {
            complete(
                self.ud.0,
                &c,
                (request as *const CompletionRequest).cast(),
                &mut builder,
            )
        };
        c.outcome(rc)?;
        *out = builder
            .state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner());
        Ok(())
    }
}

/// A C policy table as a [`ResourcePolicy`].
pub(crate) struct CPolicy {
    ud: HostPtr,
    discover: DiscoverFn,
    visibility: VisibilityFn,
    read: PermitFn,
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
            _release: Release {
                ud,
                release: t.release,
            },
        })
    }
}

impl mcpr_call {
    fn new(ctx: &CallContext) -> mcpr_call {
        mcpr_call {
            ctx,
            cause: Mutex::new(None),
        }
    }

    /// Maps a callback's return value to the Rust callback result.
    #[inline]
    fn outcome(&self, rc: mcpr_cb_result) -> Result<(), CallbackError> {
        if rc == MCPR_CB_OK {
            return Ok(());
        }
        self.failure(rc)
    }

    /// The private cause set with `mcpr_call_set_cause`, if any.
    fn take_cause(&self) -> Option<String> {
        self.cause.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    #[cold]
    fn failure(&self, rc: mcpr_cb_result) -> Result<(), CallbackError> {
        match rc {
            MCPR_CB_OK => Ok(()),
            MCPR_CB_UNAVAILABLE => Err(CallbackError::Unavailable),
            MCPR_CB_FAILED => {
                let cause = self
                    .take_cause()
                    .unwrap_or_else(|| "callback returned MCPR_CB_FAILED".to_string());
                Err(CallbackError::Failed(Box::new(CauseText(cause))))
            }
            MCPR_CB_INVALID_CONTENT => {
                // A body reader's `invalid_content`; every other caller
                // turns any `Failed` into its own failure kind.
                let cause = self
                    .take_cause()
                    .unwrap_or_else(|| "callback returned MCPR_CB_INVALID_CONTENT".to_string());
                Err(CallbackError::Failed(Box::new(Failure::with_message(
                    FailureKind::InvalidContent,
                    cause,
                ))))
            }
            other => Err(CallbackError::Failed(Box::new(CauseText(format!(
                "callback returned the unknown result {other}"
            ))))),
        }
    }
}

/// The byte `mcpr_visibility.visible` holds before the callback runs:
/// neither `false` (0) nor `true` (1), so a callback that did not write it
/// is told apart from one that decided.
const VISIBILITY_UNDECIDED: u8 = 0xA5;

pub(super) fn definition_ptr(d: &ResourceDefinition) -> *const mcpr_definition {
    (d as *const ResourceDefinition).cast()
}

fn target_ptr(t: &ResourceTarget) -> *const mcpr_target {
    (t as *const ResourceTarget).cast()
}

impl ResourceHandler for CBinding {
    fn resolve(
        &self,
        call: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let c = mcpr_call::new(call);
        let mut plan = mcpr_plan_builder {
            state: Mutex::new(PlanState {
                requested: None,
                items: Vec::new(),
                single: false,
                refused: None,
            }),
        };
        // SAFETY: the host supplied this callback for `ud`; every pointer
        // passed is valid for the duration of the call.
        let rc =
            unsafe { (self.resolve)(self.ud.0, &c, (m as *const ResourceMatch).cast(), &mut plan) };
        c.outcome(rc)?;
        plan.state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .finish()
            .map_err(|f| CallbackError::Failed(Box::new(f)))
    }

    fn read(
        &self,
        call: &CallContext,
        target: &ResourceTarget,
    ) -> Result<ResourcePayload, CallbackError> {
        let c = mcpr_call::new(call);
        let mut out = mcpr_payload_builder {
            state: Mutex::new(PayloadState {
                payload: None,
                meta: None,
                refused: None,
                cache: None,
            }),
        };
        // SAFETY: the host supplied this callback for `ud`; every pointer
        // passed is valid for the duration of the call.
        let rc = unsafe { (self.read)(self.ud.0, &c, target_ptr(target), &mut out) };
        c.outcome(rc)?;
        let out = out.state.into_inner().unwrap_or_else(|p| p.into_inner());
        out.finish().map_err(|f| CallbackError::Failed(Box::new(f)))
    }
}

impl ResourcePolicy for CPolicy {
    fn discover(
        &self,
        call: &CallContext,
        definition: &ResourceDefinition,
    ) -> Result<(), CallbackError> {
        let c = mcpr_call::new(call);
        // SAFETY: the host supplied this callback for `ud`; every pointer
        // passed is valid for the duration of the call.
        let rc = unsafe { (self.discover)(self.ud.0, &c, definition_ptr(definition)) };
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
                target_ptr(target),
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
        let rc = unsafe { (self.read)(self.ud.0, &c, target_ptr(target)) };
        c.outcome(rc)
    }
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
    fn finish(self) -> Result<ResourceReadPlan, Failure> {
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

impl mcpr_payload_builder {
    /// Locks the contents.
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, PayloadState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl PayloadState {
    fn finish(self) -> Result<ResourcePayload, Failure> {
        if let Some(f) = self.refused {
            return Err(f);
        }
        let Some(payload) = self.payload else {
            return Err(Failure::with_message(
                FailureKind::InvalidContent,
                "reader returned MCPR_CB_OK without setting a body",
            ));
        };
        let payload = match self.cache {
            Some(hints) => payload.with_cache_hints(hints)?,
            None => payload,
        };
        match self.meta {
            Some(meta) => payload.with_meta_json(&meta),
            None => Ok(payload),
        }
    }

    pub(super) fn refuse(&mut self, e: Failure) -> Error {
        let out = Error::from(Failure::with_message(e.kind(), e.message().to_string()));
        self.refused.get_or_insert(e);
        out
    }

    /// Records that a setter was refused for a bad argument, returning `e`.
    pub(super) fn refuse_argument(&mut self, e: Error) -> Error {
        self.refused.get_or_insert(Failure::with_message(
            FailureKind::InvalidContent,
            "a payload setter was refused",
        ));
        e
    }

    fn set_body(
        &mut self,
        made: impl FnOnce() -> Result<ResourcePayload, Failure>,
    ) -> Result<(), Error> {
        if self.payload.is_some() {
            return Err(self.refuse(Failure::with_message(
                FailureKind::InvalidContent,
                "payload body already set",
            )));
        }
        match made() {
            Ok(p) => {
                self.payload = Some(p);
                Ok(())
            }
            Err(e) => Err(self.refuse(e)),
        }
    }
}

// ---------------------------------------------------------------- call context

/// Borrows the call context behind `c`.
///
/// # Safety
/// `c` is NULL or a call context passed to a callback that has not returned.
unsafe fn call_ref<'a>(c: *const mcpr_call) -> Option<(&'a mcpr_call, &'a CallContext)> {
    // SAFETY: the caller guarantees `c` is NULL or live.
    let call = unsafe { c.as_ref() }?;
    // SAFETY: `ctx` was taken from a reference that outlives the callback.
    let ctx = unsafe { &*call.ctx };
    Some((call, ctx))
}

/// Whether the callback should stop: the caller cancelled, this
/// callback's deadline (item deadline for body reads, whole-call deadline
/// otherwise) passed, or the call it serves has already returned (a body
/// read abandoned on an executor). False for NULL.
///
/// # Safety
/// `c` is NULL or the call context of a callback that has not returned.
/// Any thread.
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_is_canceled(c: *const mcpr_call) -> bool {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { call_ref(c) }.is_some_and(|(_, ctx)| ctx.is_canceled())
    })
}

/// Milliseconds left before this callback's deadline (rounded down; 0 when
/// passed, and for NULL).
///
/// # Safety
/// `c` is NULL or the call context of a callback that has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_remaining_ms(c: *const mcpr_call) -> u64 {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { call_ref(c) }.map_or(0, |(_, ctx)| {
            u64::try_from(ctx.remaining().as_millis()).unwrap_or(u64::MAX)
        })
    })
}

/// The `request_data` of the read or list options of this call (NULL when
/// none was given, and for NULL). The library never dereferences it.
///
/// # Safety
/// `c` is NULL or the call context of a callback that has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_request_data(c: *const mcpr_call) -> *mut c_void {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { call_ref(c) }
            .and_then(|(_, ctx)| ctx.request_data())
            .and_then(|d| d.downcast_ref::<HostPtr>())
            .map_or(std::ptr::null_mut(), |p| p.0)
    })
}

/// For body reads: the item byte limit (`max_item_bytes`, payload bytes;
/// a hint, the library enforces it). 0 for other callbacks and for NULL.
///
/// # Safety
/// `c` is NULL or the call context of a callback that has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_max_bytes(c: *const mcpr_call) -> u64 {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { call_ref(c) }
            .and_then(|(_, ctx)| ctx.max_bytes())
            .unwrap_or(0)
    })
}

/// Which step of which call a callback serves (`mcpr_call_phase`). A plain
/// integer: later versions may add values, so treat unknown ones like
/// `MCPR_PHASE_UNKNOWN`.
pub type mcpr_phase = u32;
/// NULL call context (or a phase this header does not name).
pub const MCPR_PHASE_UNKNOWN: mcpr_phase = 0;
/// A read's first authorization (policy `discover`, `visibility`, `read`
/// before any body is read).
pub const MCPR_PHASE_FIRST_CHECK: mcpr_phase = 1;
/// A read's final authorization after the body reads (the same policy
/// callbacks asked again; docs/BEHAVIOUR.md §5 step 6).
pub const MCPR_PHASE_RECHECK: mcpr_phase = 2;
/// A binding's `resolve`.
pub const MCPR_PHASE_RESOLVE: mcpr_phase = 3;
/// A binding's body `read`.
pub const MCPR_PHASE_BODY_READ: mcpr_phase = 4;
/// Policy `discover` during `mcpr_list` / `mcpr_list_templates`.
pub const MCPR_PHASE_LISTING: mcpr_phase = 5;
/// Policy `discover` and a template's `complete` during `mcpr_complete`.
pub const MCPR_PHASE_COMPLETION: mcpr_phase = 6;

/// The C value of a phase.
fn phase_value(p: CallPhase) -> mcpr_phase {
    match p {
        CallPhase::FirstCheck => MCPR_PHASE_FIRST_CHECK,
        CallPhase::Recheck => MCPR_PHASE_RECHECK,
        CallPhase::Resolve => MCPR_PHASE_RESOLVE,
        CallPhase::BodyRead => MCPR_PHASE_BODY_READ,
        CallPhase::Listing => MCPR_PHASE_LISTING,
        CallPhase::Completion => MCPR_PHASE_COMPLETION,
    }
}

/// Which step of which call this callback serves: `MCPR_PHASE_FIRST_CHECK`
/// or `MCPR_PHASE_RECHECK` for the policy callbacks of a read (each read
/// asks the policy once before and once after its body reads),
/// `MCPR_PHASE_RESOLVE`, `MCPR_PHASE_BODY_READ`, `MCPR_PHASE_LISTING`,
/// `MCPR_PHASE_COMPLETION`; `MCPR_PHASE_UNKNOWN` for NULL. The same
/// whether the call runs inline or on an executor.
///
/// # Safety
/// `c` is NULL or the call context of a callback that has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_phase(c: *const mcpr_call) -> mcpr_phase {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { call_ref(c) }.map_or(MCPR_PHASE_UNKNOWN, |(_, ctx)| phase_value(ctx.phase()))
    })
}

/// Longest private cause kept, in bytes (longer causes are cut at a
/// character boundary).
const MAX_CAUSE_BYTES: usize = 4096;

/// Sets the private cause reported when this callback returns
/// `MCPR_CB_FAILED` or `MCPR_CB_INVALID_CONTENT` (copied; invalid UTF-8 is replaced; cut at 4 KiB; a
/// later call replaces it). The cause reaches the host only, through
/// `mcpr_error_cause` of a whole-call failure; item issues never expose it.
/// Ignored for NULL `c` or a `(NULL, n > 0)` message.
///
/// # Safety
/// `c` is NULL or the call context of a callback that has not returned;
/// `message` follows the `mcpr_str` rules.
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_set_cause(c: *const mcpr_call, message: mcpr_str) {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        let Some((call, _)) = (unsafe { call_ref(c) }) else {
            return;
        };
        // SAFETY: `message` follows the `mcpr_str` rules (caller's guarantee).
        let Ok(bytes) = (unsafe { message.bytes() }) else {
            return;
        };
        let mut text = String::from_utf8_lossy(bytes).into_owned();
        if text.len() > MAX_CAUSE_BYTES {
            let mut end = MAX_CAUSE_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        *call.cause.lock().unwrap_or_else(|p| p.into_inner()) = Some(text);
    })
}

// ---------------------------------------------------------------- views

/// # Safety
/// `d` is NULL or a definition view that is still valid.
unsafe fn def_ref<'a>(d: *const mcpr_definition) -> Option<&'a ResourceDefinition> {
    // SAFETY: every `mcpr_definition` pointer is a cast `&ResourceDefinition`.
    unsafe { d.cast::<ResourceDefinition>().as_ref() }
}

/// # Safety
/// `m` is NULL or a match view that is still valid.
unsafe fn match_ref<'a>(m: *const mcpr_match) -> Option<&'a ResourceMatch> {
    // SAFETY: every `mcpr_match` pointer is a cast `&ResourceMatch`.
    unsafe { m.cast::<ResourceMatch>().as_ref() }
}

/// # Safety
/// `t` is NULL or a target view that is still valid.
unsafe fn target_ref<'a>(t: *const mcpr_target) -> Option<&'a ResourceTarget> {
    // SAFETY: every `mcpr_target` pointer is a cast `&ResourceTarget`.
    unsafe { t.cast::<ResourceTarget>().as_ref() }
}

/// The definition's description object as compact JSON (the MCP
/// `Resource` or `ResourceTemplate`). Borrowed from `d`. Empty for NULL.
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_json(d: *const mcpr_definition) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { def_ref(d) }.map_or(mcpr_str::empty(), |d| mcpr_str::from_str(d.json()))
    })
}

/// The `uri` or the `uriTemplate`, exactly as registered. Borrowed from `d`.
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_uri(d: *const mcpr_definition) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { def_ref(d) }.map_or(mcpr_str::empty(), |d| {
            mcpr_str::from_str(d.uri_or_template())
        })
    })
}

/// The definition's `name`. Borrowed from `d`.
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_name(d: *const mcpr_definition) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { def_ref(d) }.map_or(mcpr_str::empty(), |d| mcpr_str::from_str(d.name()))
    })
}

/// Whether the definition is a template (false for NULL).
///
/// # Safety
/// `d` is NULL or a definition view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_definition_is_template(d: *const mcpr_definition) -> bool {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { def_ref(d) }.is_some_and(|d| d.is_template())
    })
}

/// The matched definition (borrowed from `m`; NULL for NULL).
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_definition(m: *const mcpr_match) -> *const mcpr_definition {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { match_ref(m) }.map_or(std::ptr::null(), |m| definition_ptr(m.definition()))
    })
}

/// The requested URI, exactly as received. Borrowed from `m`.
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_uri(m: *const mcpr_match) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { match_ref(m) }.map_or(mcpr_str::empty(), |m| mcpr_str::from_str(m.uri()))
    })
}

/// The number of template captures (0 for exact matches and NULL).
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_count(m: *const mcpr_match) -> usize {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { match_ref(m) }.map_or(0, |m| m.captures().len())
    })
}

/// The name of capture `i`, in template order (empty when out of range).
/// Borrowed from `m`.
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_name(m: *const mcpr_match, i: usize) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { match_ref(m) }
            .and_then(|m| m.captures().get(i))
            .map_or(mcpr_str::empty(), |(n, _)| mcpr_str::from_str(n))
    })
}

/// The decoded value of capture `i` (decoded exactly once; valid UTF-8;
/// never contains `/`, `\`, NUL, nor equals `.` or `..`). Empty when out of
/// range. Borrowed from `m`. Not a filesystem path.
///
/// # Safety
/// `m` is NULL or a match view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_match_capture_value(m: *const mcpr_match, i: usize) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { match_ref(m) }
            .and_then(|m| m.captures().get(i))
            .map_or(mcpr_str::empty(), |(_, v)| mcpr_str::from_str(v))
    })
}

/// The target URI. Borrowed from `t`.
///
/// # Safety
/// `t` is NULL or a target view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_uri(t: *const mcpr_target) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { target_ref(t) }.map_or(mcpr_str::empty(), |t| mcpr_str::from_str(t.uri()))
    })
}

/// The representation label (never empty: `"default"` when none was given).
/// Borrowed from `t`.
///
/// # Safety
/// `t` is NULL or a target view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_representation(t: *const mcpr_target) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { target_ref(t) }.map_or(mcpr_str::empty(), |t| {
            mcpr_str::from_str(t.representation())
        })
    })
}

/// The private authorization JSON, exactly as given (length 0 when none).
/// Borrowed from `t`. Never appears in any result.
///
/// # Safety
/// `t` is NULL or a target view whose callback has not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_target_authorization(t: *const mcpr_target) -> mcpr_str {
    guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        unsafe { target_ref(t) }
            .and_then(|t| t.authorization())
            .map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

// ---------------------------------------------------------------- builders

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

/// Sets the plan's canonical requested target (copied; a later call
/// replaces it). `representation` empty means `"default"`;
/// `authorization_json` (length 0 = none) is private JSON of at most
/// 64 KiB handed to policy and storage callbacks, never to the client; it
/// is held to the rules definitions are held to (nesting at most 127 deep,
/// no object repeating a key at any depth, no lone surrogate escape, no
/// number out of range such as `1e999`). A refused target returns `MCPR_INVALID_PLAN` (or
/// `MCPR_INVALID_ARGUMENT`) and makes the whole plan invalid.
///
/// # Safety
/// `p` is NULL or the plan builder of a `resolve` callback that has not
/// returned; the strings follow the `mcpr_str` rules; `err` is NULL or
/// valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_plan_set_requested(
    p: *mut mcpr_plan_builder,
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // SAFETY: `p` and the strings are valid (caller's guarantee).
    let body = || unsafe { plan_set(p, uri, representation, authorization_json, false) };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Appends an item target to the plan (copied), in read order. Item URIs
/// must be unique (even across representations); a URI equal to the
/// requested target's must carry the same representation (checked when
/// `resolve` returns). Same rules as `mcpr_plan_set_requested` otherwise.
///
/// # Safety
/// As for `mcpr_plan_set_requested`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_plan_add_item(
    p: *mut mcpr_plan_builder,
    uri: mcpr_str,
    representation: mcpr_str,
    authorization_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // SAFETY: `p` and the strings are valid (caller's guarantee).
    let body = || unsafe { plan_set(p, uri, representation, authorization_json, true) };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// A ready-made `resolve` callback: plans the matched URI (representation
/// `"default"`, no authorization JSON) as both the requested target and
/// the single item. Ignores `ud` and `call`. Safe to call concurrently.
///
/// # Safety
/// `m` and `plan` are NULL or the views of a `resolve` callback that has
/// not returned.
#[no_mangle]
pub unsafe extern "C" fn mcpr_resolve_single(
    ud: *mut c_void,
    call: *const mcpr_call,
    m: *const mcpr_match,
    plan: *mut mcpr_plan_builder,
) -> mcpr_cb_result {
    let _ = (ud, call);
    let result = guard(|| {
        // SAFETY: forwarded to the caller's guarantee.
        let (Some(m), Some(p)) = (unsafe { match_ref(m) }, unsafe { plan.as_ref() }) else {
            return MCPR_CB_FAILED;
        };
        let mut p = p.lock();
        match ResourceTarget::new(m.uri(), "", None) {
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

/// # Safety
/// `o` is NULL or a live payload builder.
pub(super) unsafe fn payload_ref<'a>(
    o: *mut mcpr_payload_builder,
) -> Result<&'a mcpr_payload_builder, Error> {
    // SAFETY: the caller guarantees `o` is NULL or live; only shared
    // references are made (the contents are behind a mutex), so concurrent
    // calls from several threads are sound.
    unsafe { o.as_ref() }.ok_or_else(|| Error::argument("payload builder is NULL"))
}

/// Sets a text body (copied): `mime_type` is an RFC 9110 media type,
/// `text` valid UTF-8 (may be empty). Exactly one body per payload: a
/// second body setter is refused. A refused setter returns
/// `MCPR_INVALID_CONTENT` (or `MCPR_INVALID_ARGUMENT`) and makes the item
/// `invalid_content` even if the reader then returns `MCPR_CB_OK`.
///
/// # Safety
/// `o` is NULL or the payload builder of a body `read` callback that has
/// not returned; the strings follow the `mcpr_str` rules; `err` is NULL or
/// valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_text(
    o: *mut mcpr_payload_builder,
    mime_type: mcpr_str,
    text: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `o` is NULL or a live payload builder (caller's guarantee).
        let o = unsafe { payload_ref(o) }?;
        let mut o = o.lock();
        let content = FailureKind::InvalidContent;
        // SAFETY: both strings follow the `mcpr_str` rules (caller's guarantee).
        let texts = unsafe {
            (
                mime_type.text(content, "payload MIME type"),
                text.text(content, "payload text"),
            )
        };
        let (mime, text) = match texts {
            (Ok(m), Ok(t)) => (m, t),
            (Err(e), _) | (_, Err(e)) => return Err(o.refuse_argument(e)),
        };
        o.set_body(|| ResourcePayload::text(mime, text))
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Sets a blob body (the bytes are copied; may be empty; sent base64). Same
/// rules as `mcpr_payload_set_text`.
///
/// # Safety
/// As for `mcpr_payload_set_text`; `data` is NULL (with `len` 0) or points
/// at `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_blob(
    o: *mut mcpr_payload_builder,
    mime_type: mcpr_str,
    data: *const u8,
    len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `o` is NULL or a live payload builder (caller's guarantee).
        let o = unsafe { payload_ref(o) }?;
        let mut o = o.lock();
        let content = FailureKind::InvalidContent;
        let blob = mcpr_str {
            ptr: data.cast(),
            len,
        };
        // SAFETY: `mime_type` follows the `mcpr_str` rules and `data` is
        // NULL or points at `len` readable bytes (caller's guarantee).
        let parts = unsafe { (mime_type.text(content, "payload MIME type"), blob.bytes()) };
        let (mime, bytes) = match parts {
            (Ok(m), Ok(b)) => (m, b),
            (Err(e), _) | (_, Err(e)) => return Err(o.refuse_argument(e)),
        };
        o.set_body(|| ResourcePayload::blob(mime, bytes))
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

/// Sets the item's `_meta` (copied): a JSON object of at most 64 KiB that
/// does not use the reserved key `go.phpboyscout.uk/mcp.resourceRead` at
/// any depth, held to the rules definitions are held to (nesting at most
/// 127 deep, no object repeating a key at any depth, no lone surrogate
/// escape, no number out of range such as `1e999`); otherwise
/// `MCPR_INVALID_CONTENT`. A later call replaces it. Same refusal rules as
/// `mcpr_payload_set_text`.
///
/// # Safety
/// As for `mcpr_payload_set_text`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_meta(
    o: *mut mcpr_payload_builder,
    meta_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        // SAFETY: `o` is NULL or a live payload builder (caller's guarantee).
        let o = unsafe { payload_ref(o) }?;
        let mut o = o.lock();
        // SAFETY: `meta_json` follows the `mcpr_str` rules (caller's guarantee).
        let meta = match unsafe { meta_json.text(FailureKind::InvalidContent, "payload _meta") } {
            Ok(m) => m,
            Err(e) => return Err(o.refuse_argument(e)),
        };
        match crate::plan::parse_meta(meta) {
            Ok(_) => {
                o.meta = Some(meta.to_string());
                Ok(())
            }
            Err(e) => Err(o.refuse(e)),
        }
    };
    // SAFETY: `err` is NULL or valid for one write (caller's guarantee).
    unsafe { guard_status(err, body) }
}

#[cfg(test)]
mod tests {
    //! The C callback adapters' reading of what a callback returned and
    //! wrote (the C suite's `test_usability.c` covers the same rules end to
    //! end).

    use super::*;
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
            user_data: ud,
            discover: Some(discover_ok),
            visibility: Some(visibility_as_told),
            read: Some(permit_ok),
            release: None,
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
        let Err(CallbackError::Failed(e)) = c.outcome(4) else {
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
