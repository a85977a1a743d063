//! The call context a callback receives (`mcpr_call_*`).

use crate::error::{CallbackError, CauseText, Failure, FailureKind};
use crate::input::{InputRequests, InputRequired};
use crate::scope::{CallContext, CallPhase};
use crate::trace::TraceContext;
use std::os::raw::c_void;
use std::sync::Mutex;

use super::boundary::{guard, mcpr_str};
use super::handle::{handle_ref, Handle, Lent};
use super::host::HostPtr;
use super::status::{
    mcpr_cb_result, MCPR_CB_FAILED, MCPR_CB_INPUT_REQUIRED, MCPR_CB_INVALID_CONTENT, MCPR_CB_OK,
    MCPR_CB_UNAVAILABLE,
};

/// The context of one callback invocation: cancellation, remaining time,
/// request data, item byte limit, and a slot for a private failure cause.
/// A borrowed view, valid only until the callback returns; the accessors
/// may be called from any thread during that time, also concurrently.
///
/// \ingroup callbacks
pub struct mcpr_call {
    ctx: *const CallContext,
    cause: Mutex<Option<String>>,
    /// What the callback asks for before it returns
    /// `MCPR_CB_INPUT_REQUIRED` (`ffi/input.rs` fills it).
    input: Mutex<InputSlot>,
}

/// The input requests and state a C callback adds before it returns
/// `MCPR_CB_INPUT_REQUIRED`; a refused addition spoils them.
#[derive(Default)]
pub(super) struct InputSlot {
    pub requests: InputRequests,
    pub state: Vec<u8>,
    pub refused: bool,
}

impl Handle for mcpr_call {
    type Kind = Lent;
}

impl mcpr_call {
    pub(super) fn new(ctx: &CallContext) -> mcpr_call {
        mcpr_call {
            ctx,
            cause: Mutex::new(None),
            input: Mutex::new(InputSlot::default()),
        }
    }

    /// The input slot (see `ffi/input.rs`).
    pub(super) fn input_slot(&self) -> std::sync::MutexGuard<'_, InputSlot> {
        self.input.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The call context, for the accessors of `ffi/input.rs`.
    pub(super) fn context(&self) -> &CallContext {
        // SAFETY: `ctx` was taken from a reference that outlives the
        // callback, and a `mcpr_call` lives only as long as its callback.
        unsafe { &*self.ctx }
    }

    /// Maps a callback's return value to the Rust callback result.
    #[inline]
    pub(super) fn outcome(&self, rc: mcpr_cb_result) -> Result<(), CallbackError> {
        if rc == MCPR_CB_OK {
            return Ok(());
        }
        self.failure(rc)
    }

    /// The private cause set with `mcpr_call_set_cause`, if any.
    pub(super) fn take_cause(&self) -> Option<String> {
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
            MCPR_CB_INPUT_REQUIRED => {
                let slot = std::mem::take(&mut *self.input_slot());
                if slot.refused {
                    return Err(CallbackError::Failed(Box::new(CauseText(
                        "callback returned MCPR_CB_INPUT_REQUIRED after a refused input request or state"
                            .into(),
                    ))));
                }
                match InputRequired::new(slot.requests).with_state(&slot.state) {
                    Ok(asked) => Err(CallbackError::InputRequired(Box::new(asked))),
                    Err(e) => Err(CallbackError::Failed(Box::new(CauseText(
                        e.message().into(),
                    )))),
                }
            }
            other => Err(CallbackError::Failed(Box::new(CauseText(format!(
                "callback returned the unknown result {other}"
            ))))),
        }
    }
}

/// Borrows the call context behind `c`.
///
/// # Safety
/// `c` is NULL or a call context passed to a callback that has not returned.
unsafe fn call_ref<'a>(c: *const mcpr_call) -> Option<(&'a mcpr_call, &'a CallContext)> {
    let call = unsafe { handle_ref(c) }?;
    // SAFETY: `ctx` was taken from a reference that outlives the callback.
    let ctx = unsafe { &*call.ctx };
    Some((call, ctx))
}

/// Whether the callback should stop: the caller cancelled, this callback's
/// deadline (the item deadline for body reads, the whole-call deadline
/// otherwise) passed, or the call it serves has already returned (a body
/// read abandoned on an executor). Long callbacks should poll it.
///
/// \param call The callback's call context, or NULL.
/// \return True when the callback should stop; false otherwise and when
///   `call` is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_is_canceled(call: *const mcpr_call) -> bool {
    guard(|| unsafe { call_ref(call) }.is_some_and(|(_, ctx)| ctx.is_canceled()))
}

/// Milliseconds left before this callback's deadline, rounded down.
///
/// \param call The callback's call context, or NULL.
/// \return The time left; 0 once the deadline passed and when `call` is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_remaining_ms(call: *const mcpr_call) -> u64 {
    guard(|| {
        unsafe { call_ref(call) }.map_or(0, |(_, ctx)| {
            u64::try_from(ctx.remaining().as_millis()).unwrap_or(u64::MAX)
        })
    })
}

/// The `request_data` of the options of the call this callback serves. The
/// library never dereferences it.
///
/// \param call The callback's call context, or NULL.
/// \return The pointer given in the options; NULL when none was given and
///   when `call` is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_request_data(call: *const mcpr_call) -> *mut c_void {
    guard(|| {
        unsafe { call_ref(call) }
            .and_then(|(_, ctx)| ctx.request_data())
            .and_then(|d| d.downcast_ref::<HostPtr>())
            .map_or(std::ptr::null_mut(), |p| p.0)
    })
}

/// The request's `traceparent` (W3C Trace Context), as the client sent it in
/// the request's `params._meta` (through `mcpr_request`) or as the host
/// gave it in the options' `trace`: the library hands it over without
/// interpreting it (a string of at most 8 KiB; any other value is left
/// out). Read it to join the client's trace.
///
/// \param call The callback's call context, or NULL.
/// \return The value, borrowed from the call context (valid until the
///   callback returns; not NUL-terminated); empty (length 0) when the
///   call has none and when `call` is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_traceparent(call: *const mcpr_call) -> mcpr_str {
    guard(|| trace_member(unsafe { call_ref(call) }, TraceContext::traceparent))
}

/// The request's `tracestate` (W3C Trace Context), as sent (see
/// `mcpr_call_traceparent`).
///
/// \param call The callback's call context, or NULL.
/// \return The value, borrowed from the call context (valid until the
///   callback returns); empty (length 0) when absent and when `call` is
///   NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_tracestate(call: *const mcpr_call) -> mcpr_str {
    guard(|| trace_member(unsafe { call_ref(call) }, TraceContext::tracestate))
}

/// The request's `baggage` (W3C Baggage), as sent (see
/// `mcpr_call_traceparent`).
///
/// \param call The callback's call context, or NULL.
/// \return The value, borrowed from the call context (valid until the
///   callback returns); empty (length 0) when absent and when `call` is
///   NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_baggage(call: *const mcpr_call) -> mcpr_str {
    guard(|| trace_member(unsafe { call_ref(call) }, TraceContext::baggage))
}

/// One trace member of a call context, borrowed from it.
fn trace_member<C>(
    call: Option<(C, &CallContext)>,
    member: fn(&TraceContext) -> Option<&str>,
) -> mcpr_str {
    call.and_then(|(_, ctx)| ctx.trace_context())
        .and_then(member)
        .map_or_else(mcpr_str::empty, mcpr_str::from_str)
}

/// For body reads: the item byte limit (`max_item_bytes`, in payload bytes).
/// A hint: the library enforces it whatever the callback does.
///
/// \param call The callback's call context, or NULL.
/// \return The limit for a body read; 0 for other callbacks and when `call`
///   is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_max_bytes(call: *const mcpr_call) -> u64 {
    guard(|| {
        unsafe { call_ref(call) }
            .and_then(|(_, ctx)| ctx.max_bytes())
            .unwrap_or(0)
    })
}

/// Which step of which call a callback serves (`mcpr_call_phase`). A plain
/// integer: later versions may add values, so treat unknown ones like
/// `MCPR_PHASE_UNKNOWN`.
///
/// \ingroup callbacks
pub type mcpr_phase = u32;

// The `u32` suffixes make cbindgen write `0u`, `1u`, ...: unsigned int, the
// type of uint32_t (the typedef), so that C++ (`decltype`) and Swift see one
// type for the constants and the values they are compared with, not int
// (c-tests/header_cxx.cpp asserts it). A cast would carry the typedef's
// name but warns under -Wold-style-cast in C++.
/// NULL call context (or a phase this header does not name).
///
/// \ingroup callbacks
pub const MCPR_PHASE_UNKNOWN: mcpr_phase = 0u32;

/// A read's first authorization (policy `discover`, `visibility`, `read`
/// before any body is read).
///
/// \ingroup callbacks
pub const MCPR_PHASE_FIRST_CHECK: mcpr_phase = 1u32;

/// A read's final authorization after the body reads (the same policy
/// callbacks asked again; docs/BEHAVIOUR.md §5 step 6).
///
/// \ingroup callbacks
pub const MCPR_PHASE_RECHECK: mcpr_phase = 2u32;

/// A binding's `resolve`.
///
/// \ingroup callbacks
pub const MCPR_PHASE_RESOLVE: mcpr_phase = 3u32;

/// A binding's body `read`.
///
/// \ingroup callbacks
pub const MCPR_PHASE_BODY_READ: mcpr_phase = 4u32;

/// Policy `discover` during `mcpr_list` / `mcpr_list_templates`.
///
/// \ingroup callbacks
pub const MCPR_PHASE_LISTING: mcpr_phase = 5u32;

/// Policy `discover` and a template's `complete` during `mcpr_complete`.
///
/// \ingroup callbacks
pub const MCPR_PHASE_COMPLETION: mcpr_phase = 6u32;

/// Policy `discover`, `visibility` and `read` deciding a subscription or a
/// change notification (`resources/subscribe`, `subscriptions/listen`,
/// `mcpr_notify_updated`, `mcpr_notify_list_changed`,
/// `mcpr_notify_listing_changed`, `mcpr_listing_fingerprint`); `resolve`
/// runs in `MCPR_PHASE_RESOLVE` there too.
///
/// \ingroup callbacks
pub const MCPR_PHASE_SUBSCRIPTION: mcpr_phase = 7u32;

/// The C value of a phase.
fn phase_value(p: CallPhase) -> mcpr_phase {
    match p {
        CallPhase::FirstCheck => MCPR_PHASE_FIRST_CHECK,
        CallPhase::Recheck => MCPR_PHASE_RECHECK,
        CallPhase::Resolve => MCPR_PHASE_RESOLVE,
        CallPhase::BodyRead => MCPR_PHASE_BODY_READ,
        CallPhase::Listing => MCPR_PHASE_LISTING,
        CallPhase::Completion => MCPR_PHASE_COMPLETION,
        CallPhase::Subscription => MCPR_PHASE_SUBSCRIPTION,
    }
}

/// Which step of which call this callback serves: `MCPR_PHASE_FIRST_CHECK`
/// or `MCPR_PHASE_RECHECK` for the policy callbacks of a read (each read asks
/// the policy once before and once after its body reads),
/// `MCPR_PHASE_RESOLVE`, `MCPR_PHASE_BODY_READ`, `MCPR_PHASE_LISTING`,
/// `MCPR_PHASE_COMPLETION`, `MCPR_PHASE_SUBSCRIPTION`. The same whether the
/// call runs inline or on an executor.
///
/// \param call The callback's call context, or NULL.
/// \return The phase; `MCPR_PHASE_UNKNOWN` when `call` is NULL.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_phase(call: *const mcpr_call) -> mcpr_phase {
    guard(|| {
        unsafe { call_ref(call) }.map_or(MCPR_PHASE_UNKNOWN, |(_, ctx)| phase_value(ctx.phase()))
    })
}

/// Longest private cause kept, in bytes (longer causes are cut at a
/// character boundary).
const MAX_CAUSE_BYTES: usize = 4096;

/// Sets the private cause reported when this callback returns
/// `MCPR_CB_FAILED` or `MCPR_CB_INVALID_CONTENT` (copied; invalid UTF-8 is
/// replaced, and the text is cut at 4 KiB; a later call replaces it). The
/// cause reaches the host only, through `mcpr_error_cause` of a whole-call
/// failure; item issues never expose it.
///
/// \param call The callback's call context, or NULL (then nothing happens).
/// \param message The cause text; a `(NULL, n > 0)` string is ignored.
/// \pre `call` is NULL or the call context the library passed to a callback
///   that has not returned yet; `message` follows the `mcpr_str` rules.
/// \note Thread-safe: any thread may call it, also concurrently, while the
///   callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_call_set_cause(call: *const mcpr_call, message: mcpr_str) {
    guard(|| {
        let Some((state, _)) = (unsafe { call_ref(call) }) else {
            return;
        };
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
        *state.cause.lock().unwrap_or_else(|p| p.into_inner()) = Some(text);
    })
}
