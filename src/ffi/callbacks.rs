//! The binding's C callback table (`mcpr_binding_callbacks`: `resolve`,
//! the body `read`, `complete`, `size_hint`) as a [`ResourceHandler`] and
//! [`ResourceCompleter`]. The policy's table is `policy.rs`.

use super::growth::{field_end, init_out, Grows};
use super::handle::view_ptr;
use super::host::{mcpr_release_fn, HostPtr, Release, Required};
use crate::completion::{CompletionRequest, CompletionSink, ResourceCompleter};
use crate::error::CallbackError;
use crate::plan::{ResourceMatch, ResourcePayload, ResourceReadPlan, ResourceTarget};
use crate::registry::ResourceHandler;
use crate::scope::CallContext;
use std::os::raw::c_void;
use std::sync::Mutex;

use super::boundary::guard;
use super::call::mcpr_call;
use super::completion::mcpr_completion_builder;
use super::payload::{mcpr_payload_builder, PayloadState};
use super::plan::{mcpr_plan_builder, mcpr_resolve_single};
use super::status::{mcpr_cb_result, MCPR_CB_OK};
use super::views::{mcpr_completion_request, mcpr_match, mcpr_target};

/// A binding's `resolve` callback (`mcpr_binding_callbacks.resolve`;
/// `mcpr_resolve_single` is a ready-made one).
///
/// Turns the match of a `resources/read` request into a read plan by
/// calling `mcpr_plan_set_requested` (once) and `mcpr_plan_add_item` (per
/// item) on `plan`. Metadata only: it must not read bodies or perform
/// application effects.
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param call The call context (cancellation, deadline, request data).
/// \param match The matched definition, URI and template captures.
/// \param plan The plan to fill.
/// \return `MCPR_CB_OK` with a requested target set; `MCPR_CB_UNAVAILABLE`
///   for a root denial (the read is `MCPR_UNAVAILABLE`); anything else, a
///   refused plan setter or no requested target make the read fail with
///   `MCPR_INVALID_PLAN`.
/// \note `call`, `match` and `plan` are borrowed: valid until the callback
///   returns, usable from any thread until then.
///
/// \ingroup callbacks
pub type mcpr_resolve_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        call: *const mcpr_call,
        r#match: *const mcpr_match,
        plan: *mut mcpr_plan_builder,
    ) -> mcpr_cb_result,
>;

/// A binding's body `read` callback (`mcpr_binding_callbacks.read`).
///
/// Reads one item's body into `payload` (`mcpr_payload_set_text` or
/// `mcpr_payload_set_blob`, optionally `mcpr_payload_set_meta` and
/// `mcpr_payload_set_cache_hints`). Should poll `mcpr_call_is_canceled`
/// and respect `mcpr_call_max_bytes`.
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param call The call context (item deadline, cancellation, byte limit).
/// \param target The item to read (URI, representation, authorization).
/// \param payload The payload to fill.
/// \return `MCPR_CB_OK` with a body set; `MCPR_CB_UNAVAILABLE` for an
///   `unavailable` issue; `MCPR_CB_INVALID_CONTENT` for an
///   `invalid_content` issue; `MCPR_CB_FAILED` or any other value for a
///   `read_failed` issue (`timeout` when its deadline passed). `MCPR_CB_OK`
///   with no body, or after a refused setter, is an `invalid_content` issue.
/// \note `call`, `target` and `payload` are borrowed: valid until the
///   callback returns, usable from any thread until then.
///
/// \ingroup callbacks
pub type mcpr_body_read_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        call: *const mcpr_call,
        target: *const mcpr_target,
        payload: *mut mcpr_payload_builder,
    ) -> mcpr_cb_result,
>;

/// A template binding's `complete` callback
/// (`mcpr_binding_callbacks.complete`).
///
/// Proposes values for `mcpr_completion_request_argument(request)`
/// starting from `mcpr_completion_request_value(request)`, most relevant
/// first, with `mcpr_completion_add_value` (and optionally
/// `mcpr_completion_set_total` / `mcpr_completion_set_has_more`). Metadata
/// only: it must not read bodies or perform application effects.
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param call The call context (deadline, cancellation, request data).
/// \param request What the client asks to complete.
/// \param completion_builder The values to fill.
/// \return `MCPR_CB_OK`; `MCPR_CB_UNAVAILABLE` answers like not found
///   (`MCPR_UNAVAILABLE`); any other value fails the call with
///   `MCPR_READ_FAILED`.
/// \note `call`, `request` and `completion_builder` are borrowed: valid
///   until the callback returns, usable from any thread until then.
///
/// \ingroup callbacks
pub type mcpr_complete_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        call: *const mcpr_call,
        request: *const mcpr_completion_request,
        completion_builder: *mut mcpr_completion_builder,
    ) -> mcpr_cb_result,
>;

/// A binding's optional `size_hint` callback
/// (`mcpr_binding_callbacks.size_hint`): a pure, conservative sizer of a
/// payload that `read` produced.
///
/// Writes to `estimate` an upper bound on the bytes the item adds to the
/// encoded result: the item object, with its `uri`, `mimeType`, `_meta` and
/// escaped or base64 body, plus one separating comma. The estimate replaces
/// the exact measurement in the budgets; an estimate below the real size
/// fails the read's final size check (`MCPR_SIZE`). Runs after each
/// successful `read`, on the same thread; it must not block.
///
/// \param user_data The table's `user_data` (may be NULL).
/// \param target The item that was read (URI, representation,
///   authorization).
/// \param payload_bytes The body's size: text bytes, or raw blob bytes
///   before base64.
/// \param is_blob True for a blob body, false for text.
/// \param estimate Where to write the upper bound.
/// \return `MCPR_CB_OK` with `*estimate` written; any other value means no
///   estimate (the library measures the item exactly).
/// \note `target` and `estimate` are borrowed: valid until the callback
///   returns.
///
/// \ingroup callbacks
pub type mcpr_size_hint_fn = Option<
    unsafe extern "C-unwind" fn(
        user_data: *mut c_void,
        target: *const mcpr_target,
        payload_bytes: u64,
        is_blob: bool,
        estimate: *mut u64,
    ) -> mcpr_cb_result,
>;

/// The binding callback table given to `mcpr_builder_add` (copied by the
/// call; the struct itself need not outlive it).
///
/// `resolve` and `read` are required; `release`, `complete` and `size_hint` are
/// optional. `resolve` and `read` may be called concurrently from many reads on
/// any thread, with the same `user_data`; they run on the calling thread of
/// `mcpr_read`, or on an executor worker when the read is given an executor.
/// There, a callback still running at its deadline (the item deadline for
/// `read`, the read deadline for `resolve`) or on cancellation is abandoned: it
/// keeps running on its worker, its result is discarded, and its views stay
/// valid until it returns. Callbacks should not throw: a C++ exception escaping
/// one is stopped inside the library (the process aborts), never reaching the
/// caller; `longjmp` out of a callback is undefined behaviour.
///
/// `release(user_data)` runs exactly once, on any thread, if and only if
/// `mcpr_builder_add` succeeded, after the last call into this table has
/// returned, and after any abandoned callback of a read or listing on an
/// executor that involves this binding (a reader, or a policy callback)
/// has returned: when the builder is freed without building, when a build
/// fails, or when the last reference to the registry goes away.
///
/// Growth: set `struct_size` to `sizeof(mcpr_binding_callbacks)`, or start
/// from `MCPR_BINDING_CALLBACKS_INIT` / `mcpr_binding_callbacks_init` (every
/// callback NULL). Later versions append fields; the library reads only the
/// fields lying wholly within `struct_size` (the others are NULL), refuses a
/// `struct_size` below `sizeof(size_t)` or above 4096, and refuses set bytes
/// beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
///
/// \ingroup callbacks
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_binding_callbacks {
    /// `sizeof(mcpr_binding_callbacks)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// Passed as the first argument of every callback.
    pub user_data: *mut c_void,
    /// Required: turns a match into a read plan (see `mcpr_resolve_fn`), or
    /// `mcpr_resolve_single` for the matched URI alone.
    pub resolve: mcpr_resolve_fn,
    /// Required: reads one item's body (see `mcpr_body_read_fn`).
    pub read: mcpr_body_read_fn,
    /// Optional (NULL = none): the finalizer of `user_data` (see above).
    pub release: mcpr_release_fn,
    /// Optional completion callback of a template binding (see
    /// `mcpr_complete_fn`; a non-NULL one on an exact-URI definition is
    /// `MCPR_INVALID_CONFIGURATION`). NULL (the default of a positional
    /// initialiser that stops before it): the template answers an empty
    /// completion. Runs after the policy's `discover` allowed the template, on
    /// the thread calling `mcpr_complete` or `mcpr_request` (or on an executor
    /// worker when its options give one), under the call's deadline and
    /// cancellation.
    pub complete: mcpr_complete_fn,
    /// Optional (NULL = the library measures each item exactly): a sizer of
    /// the payloads `read` produces (see `mcpr_size_hint_fn`). Added with
    /// `struct_size`: a table built against an older header leaves it NULL.
    pub size_hint: mcpr_size_hint_fn,
}

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_binding_callbacks {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_binding_callbacks, user_data),
        field_end!(mcpr_binding_callbacks, resolve),
        field_end!(mcpr_binding_callbacks, read),
        field_end!(mcpr_binding_callbacks, release),
        field_end!(mcpr_binding_callbacks, complete),
        field_end!(mcpr_binding_callbacks, size_hint),
    ];
}

/// Fills a binding callback table with the defaults: `user_data` and every
/// callback NULL, and `struct_size` set to `sizeof(mcpr_binding_callbacks)`,
/// as `MCPR_BINDING_CALLBACKS_INIT` does.
///
/// \param callbacks The table to fill, or NULL (then nothing happens).
/// \pre `callbacks` is NULL or points at a writable `mcpr_binding_callbacks`.
/// \note Thread-safe: touches only `*callbacks`.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_binding_callbacks_init(callbacks: *mut mcpr_binding_callbacks) {
    guard(|| unsafe { init_out(callbacks) })
}

/// A C binding table as a [`ResourceHandler`].
pub(crate) struct CBinding {
    ud: HostPtr,
    resolve: Required<mcpr_resolve_fn>,
    read: Required<mcpr_body_read_fn>,
    complete: mcpr_complete_fn,
    size_hint: mcpr_size_hint_fn,
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
            size_hint: t.size_hint,
            _release: Release {
                ud,
                release: t.release,
            },
        })
    }

    /// What identifies a table for sharing its copy between adds (see
    /// `HandlerCache` in the builder): every field but `struct_size`, as
    /// addresses; `None` for a table with a `release`, which must run once
    /// per add and so gets a copy of its own each time.
    pub(crate) fn share_key(t: &mcpr_binding_callbacks) -> Option<[usize; 5]> {
        if t.release.is_some() {
            return None;
        }
        Some([
            t.user_data as usize,
            t.resolve.map_or(0, |f| f as usize),
            t.read.map_or(0, |f| f as usize),
            t.complete.map_or(0, |f| f as usize),
            t.size_hint.map_or(0, |f| f as usize),
        ])
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
        let rc = unsafe { complete(self.ud.0, &c, view_ptr(request), &mut builder) };
        c.outcome(rc)?;
        *out = builder
            .state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner());
        Ok(())
    }
}

impl ResourceHandler for CBinding {
    fn resolve(
        &self,
        call: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let c = mcpr_call::new(call);
        // `m` outlives the builder, dropped when this returns.
        let mut plan = mcpr_plan_builder::new(m);
        // SAFETY: the host supplied this callback for `ud`; every pointer
        // passed is valid for the duration of the call.
        let rc = unsafe { (self.resolve)(self.ud.0, &c, view_ptr(m), &mut plan) };
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
        let rc = unsafe { (self.read)(self.ud.0, &c, view_ptr(target), &mut out) };
        c.outcome(rc)?;
        let out = out.state.into_inner().unwrap_or_else(|p| p.into_inner());
        out.finish().map_err(|f| CallbackError::Failed(Box::new(f)))
    }

    fn resolves_single(&self) -> bool {
        // The ready-made `resolve` (set from C by its address): the library
        // plans the match itself.
        self.resolve as usize == mcpr_resolve_single as *const () as usize
    }

    fn encoded_size_hint(&self, target: &ResourceTarget, payload: &ResourcePayload) -> Option<u64> {
        let size_hint = self.size_hint?;
        let is_blob = payload.body().blob_bytes().is_some();
        let mut out = 0u64;
        // SAFETY: the host supplied this callback for `ud`; the target view
        // and `out` are valid for the duration of the call.
        let rc = unsafe {
            size_hint(
                self.ud.0,
                view_ptr(target),
                payload.payload_bytes(),
                is_blob,
                &mut out,
            )
        };
        (rc == MCPR_CB_OK).then_some(out)
    }
}
