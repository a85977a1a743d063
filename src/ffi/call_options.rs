//! The C face of the call frame: the fields every option struct shares
//! (`timeout_ms`, `cancel`, `request_data`, `executor`,
//! `protocol_revision`, `result_meta`, `trace`) converted once into the
//! core's [`CallOptions`](crate::CallOptions), and `mcpr_trace_context`,
//! the type of the `trace` field. The option structs stay flat; each
//! names its shared fields through [`SharedCallFields`].

use std::os::raw::c_void;
use std::sync::Arc;
use std::time::Duration;

use crate::call::CallOptions;
use crate::error::FailureKind;
use crate::protocol::ProtocolRevision;
use crate::scope::RequestData;
use crate::trace::TraceContext;

use super::boundary::mcpr_str;
use super::cancel::{cancel_of, mcpr_cancel};
use super::executor::mcpr_executor;
use super::host::HostPtr;
use super::result_meta::{mcpr_result_meta, result_meta_of};
use super::status::Error;

/// A request's trace context as the host read it (W3C Trace Context
/// `traceparent` and `tracestate`, W3C Baggage `baggage`), the `trace`
/// field of every option struct: handed to every callback of the call
/// through `mcpr_call_traceparent`, `mcpr_call_tracestate` and
/// `mcpr_call_baggage`, as given. Each member is UTF-8 text (else the call
/// is `MCPR_INVALID_ARGUMENT`); an empty one is absent, and one longer than
/// 8 KiB is left out. All zero (the default) = no trace context. For
/// `mcpr_request` it is the host's default: trace members in the request's
/// `params._meta` take its place.
///
/// \ingroup read
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_trace_context {
    /// `traceparent`, e.g. `00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01`.
    pub traceparent: mcpr_str,
    /// `tracestate`.
    pub tracestate: mcpr_str,
    /// `baggage`.
    pub baggage: mcpr_str,
}

/// The shared fields of one C option struct, as the caller set them.
pub(super) struct CallFields {
    pub timeout_ms: u64,
    pub cancel: *const mcpr_cancel,
    pub request_data: *mut c_void,
    pub executor: *const mcpr_executor,
    pub protocol_revision: mcpr_str,
    pub result_meta: *const mcpr_result_meta,
    pub trace: mcpr_trace_context,
}

/// A C option struct carrying the shared fields under their usual names
/// (each option struct's file implements it with `shared_call_fields!`, so
/// that this file depends on none of them).
pub(super) trait SharedCallFields {
    /// Its shared fields.
    fn call_fields(&self) -> CallFields;
}

/// Implements [`SharedCallFields`] for an option struct whose shared fields
/// have their usual names; `shared_call_fields!(t: timeout_ms, cancel,
/// executor, trace)` for one that has only those four (a call deciding for
/// many callers, each bringing its own request data and revision, whose
/// messages are notifications, not results: request data, revision and
/// result `_meta` are NULL and empty).
macro_rules! shared_call_fields {
    ($t:ty: timeout_ms, cancel, executor, trace) => {
        impl super::call_options::SharedCallFields for $t {
            fn call_fields(&self) -> super::call_options::CallFields {
                super::call_options::CallFields {
                    timeout_ms: self.timeout_ms,
                    cancel: self.cancel,
                    request_data: std::ptr::null_mut(),
                    executor: self.executor,
                    protocol_revision: super::boundary::mcpr_str::empty(),
                    result_meta: std::ptr::null(),
                    trace: self.trace,
                }
            }
        }
    };
    ($t:ty) => {
        impl super::call_options::SharedCallFields for $t {
            fn call_fields(&self) -> super::call_options::CallFields {
                super::call_options::CallFields {
                    timeout_ms: self.timeout_ms,
                    cancel: self.cancel,
                    request_data: self.request_data,
                    executor: self.executor,
                    protocol_revision: self.protocol_revision,
                    result_meta: self.result_meta,
                    trace: self.trace,
                }
            }
        }
    };
}
pub(super) use shared_call_fields;

/// The core's call options of `o`'s shared fields: `timeout_ms` 0 = no
/// caller deadline, NULL `cancel`, `request_data`, `executor` and
/// `result_meta` = none, an empty `protocol_revision` = the newest, an
/// all-empty `trace` = none; an unknown revision or a trace member that is
/// not UTF-8 is `MCPR_INVALID_ARGUMENT`.
///
/// # Safety
/// `o.cancel`, `o.executor` and `o.result_meta` are NULL or live;
/// `o.protocol_revision` and the members of `o.trace` follow the
/// `mcpr_str` rules.
#[inline]
pub(super) unsafe fn call_options_of(o: &impl SharedCallFields) -> Result<CallOptions, Error> {
    let f = o.call_fields();
    Ok(CallOptions {
        timeout: (f.timeout_ms > 0).then(|| Duration::from_millis(f.timeout_ms)),
        // SAFETY: `f.cancel` is NULL or a live token (caller's guarantee).
        cancel: unsafe { cancel_of(f.cancel) },
        request_data: request_data_of(f.request_data),
        // SAFETY: `f.executor` is NULL or a live executor (caller's
        // guarantee).
        executor: unsafe { f.executor.as_ref() }.map(|e| e.inner.clone()),
        // SAFETY: forwarded to the caller's guarantee.
        protocol_revision: unsafe { revision_of(f.protocol_revision) }?,
        // SAFETY: `f.result_meta` is NULL or a live handle (caller's
        // guarantee).
        result_meta: unsafe { result_meta_of(f.result_meta) },
        // SAFETY: forwarded to the caller's guarantee.
        trace: unsafe { trace_of(&f.trace) }?,
    })
}

/// The request data of a `request_data` field (NULL = none).
pub(super) fn request_data_of(p: *mut c_void) -> Option<RequestData> {
    (!p.is_null()).then(|| Arc::new(HostPtr(p)) as RequestData)
}

/// The trace context of a `trace` field (`None` when every member is
/// empty or left out).
///
/// # Safety
/// Its members follow the `mcpr_str` rules.
unsafe fn trace_of(t: &mcpr_trace_context) -> Result<Option<Arc<TraceContext>>, Error> {
    // All empty (no trace context, the common call): nothing to look at.
    if t.traceparent.len | t.tracestate.len | t.baggage.len == 0 {
        return Ok(None);
    }
    // SAFETY: forwarded to the caller's guarantee.
    let member = |m: mcpr_str, what: &str| -> Result<Option<&str>, Error> {
        // SAFETY: forwarded to the caller's guarantee.
        let v = unsafe { m.text(FailureKind::InvalidArgument, what) }?;
        Ok((!v.is_empty()).then_some(v))
    };
    let t = TraceContext::new(
        member(t.traceparent, "trace traceparent")?,
        member(t.tracestate, "trace tracestate")?,
        member(t.baggage, "trace baggage")?,
    );
    Ok((!t.is_empty()).then(|| Arc::new(t)))
}

/// The protocol revision of an options field (empty = the newest; unknown
/// = `MCPR_INVALID_ARGUMENT`).
///
/// # Safety
/// `s` follows the `mcpr_str` rules.
pub(super) unsafe fn revision_of(s: mcpr_str) -> Result<ProtocolRevision, Error> {
    // SAFETY: forwarded to the caller's guarantee.
    let b = unsafe { s.bytes() }?;
    ProtocolRevision::parse(b).map_err(|_| {
        Error::argument(
            "unknown protocol_revision (known: \"2024-11-05\", \"2025-03-26\", \"2025-06-18\", \"2025-11-25\", \"2026-07-28\"; empty = newest)",
        )
    })
}
