//! The C face of the call frame: the fields every option struct shares
//! (`timeout_ms`, `cancel`, `request_data`, `executor`,
//! `protocol_revision`) converted once into the core's
//! [`CallOptions`](crate::CallOptions). The option structs stay flat (their
//! C ABI is unchanged); each names its shared fields through
//! [`SharedCallFields`].

use std::os::raw::c_void;
use std::sync::Arc;
use std::time::Duration;

use crate::call::CallOptions;
use crate::protocol::ProtocolRevision;
use crate::scope::RequestData;

use super::boundary::mcpr_str;
use super::cancel::{cancel_of, mcpr_cancel};
use super::executor::mcpr_executor;
use super::host::HostPtr;
use super::status::Error;

/// The shared fields of one C option struct, as the caller set them.
pub(super) struct CallFields {
    pub timeout_ms: u64,
    pub cancel: *const mcpr_cancel,
    pub request_data: *mut c_void,
    pub executor: *const mcpr_executor,
    pub protocol_revision: mcpr_str,
}

/// A C option struct carrying the shared fields under their usual names
/// (each option struct's file implements it with `shared_call_fields!`, so
/// that this file depends on none of them).
pub(super) trait SharedCallFields {
    /// Its shared fields.
    fn call_fields(&self) -> CallFields;
}

/// Implements [`SharedCallFields`] for an option struct whose shared fields
/// have their usual names.
macro_rules! shared_call_fields {
    ($t:ty) => {
        impl super::call_options::SharedCallFields for $t {
            fn call_fields(&self) -> super::call_options::CallFields {
                super::call_options::CallFields {
                    timeout_ms: self.timeout_ms,
                    cancel: self.cancel,
                    request_data: self.request_data,
                    executor: self.executor,
                    protocol_revision: self.protocol_revision,
                }
            }
        }
    };
}
pub(super) use shared_call_fields;

/// The core's call options of `o`'s shared fields: `timeout_ms` 0 = no
/// caller deadline, NULL `cancel`, `request_data` and `executor` = none,
/// an empty `protocol_revision` = the newest; an unknown revision is
/// `MCPR_INVALID_ARGUMENT`.
///
/// # Safety
/// `o.cancel` and `o.executor` are NULL or live; `o.protocol_revision`
/// follows the `mcpr_str` rules.
#[inline]
pub(super) unsafe fn call_options_of(o: &impl SharedCallFields) -> Result<CallOptions, Error> {
    let f = o.call_fields();
    Ok(CallOptions {
        timeout: (f.timeout_ms > 0).then(|| Duration::from_millis(f.timeout_ms)),
        // SAFETY: `f.cancel` is NULL or a live token (caller's guarantee).
        cancel: unsafe { cancel_of(f.cancel) },
        request_data: (!f.request_data.is_null())
            .then(|| Arc::new(HostPtr(f.request_data)) as RequestData),
        // SAFETY: `f.executor` is NULL or a live executor (caller's
        // guarantee).
        executor: unsafe { f.executor.as_ref() }.map(|e| e.inner.clone()),
        // SAFETY: forwarded to the caller's guarantee.
        protocol_revision: unsafe { revision_of(f.protocol_revision) }?,
    })
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
            "unknown protocol_revision (known: \"2025-06-18\", \"2025-11-25\", \"2026-07-28\"; empty = newest)",
        )
    })
}
