//! `mcpr_list` / `mcpr_list_templates` and their options.

use crate::listing::ListOptions;
use std::os::raw::c_void;

use super::boundary::{guard, mcpr_str};
use super::call_options::{call_options_of, mcpr_trace_context, shared_call_fields};
use super::cancel::mcpr_cancel;
use super::error::{guard_status, mcpr_error};
use super::executor::mcpr_executor;
use super::growth::{field_end, init_out, read_grown_opt, Grows};
use super::handle::{need_out, write_handle};
use super::page::mcpr_page;
use super::resources::{mcpr_resources, resources};
use super::result_meta::mcpr_result_meta;
use super::status::{mcpr_status, Error};

/// Per-call options of `mcpr_list` and `mcpr_list_templates` (required).
///
/// Growth: set `struct_size` to `sizeof(mcpr_list_options)`, or start from
/// `MCPR_LIST_OPTIONS_INIT` / `mcpr_list_options_init` (every field at its
/// default). Later versions append fields; the library reads only the fields
/// lying wholly within `struct_size` (the others take their defaults), refuses
/// a `struct_size` below `sizeof(size_t)` or above 4096, and refuses set bytes
/// beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
///
/// \ingroup list
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_list_options {
    /// `sizeof(mcpr_list_options)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// Opaque caller scope (required, non-empty: an empty one is a host
    /// mistake, `MCPR_INVALID_ARGUMENT`, as from `mcpr_request`); cursors
    /// are bound to a hash of these bytes.
    pub scope_key: mcpr_str,
    /// The previous page's next cursor; `ptr` NULL or `len` 0 = first page.
    pub cursor: mcpr_str,
    /// Requested page size (0 = `default_page_size`; clamped to
    /// `max_page_size`).
    pub page_size: u32,
    /// Caller deadline in milliseconds (0 = only the registry's
    /// `read_timeout`).
    pub timeout_ms: u64,
    /// Optional cancellation token.
    pub cancel: *const mcpr_cancel,
    /// Handed to every policy callback of this call via
    /// `mcpr_call_request_data` (on an executor worker when `executor` is
    /// set; an abandoned `discover` may still see it after the call
    /// returned, as with `mcpr_read_options.request_data`).
    pub request_data: *mut c_void,
    /// Optional worker pool running this call's `discover` callbacks. NULL
    /// = inline on the calling thread (the deadline is checked between
    /// callbacks). With an executor the call returns by its deadline
    /// (`MCPR_DEADLINE_EXCEEDED`), or promptly on cancellation
    /// (`MCPR_CANCELED`), whatever `discover` does; a saturated executor
    /// fails it at once with `MCPR_POLICY` (cause "executor saturated").
    pub executor: *const mcpr_executor,
    /// The negotiated MCP protocol revision (as in `mcpr_read_options`;
    /// empty = the newest). On 2026-07-28 the page carries `resultType`,
    /// `ttlMs` and `cacheScope`, and their bytes count against the page's
    /// byte budget. Descriptions are listed without the members the
    /// revision does not define (`icons` before 2025-11-25; `title`,
    /// `_meta` and `annotations.lastModified` before 2025-06-18).
    pub protocol_revision: mcpr_str,
    /// Optional result `_meta` members of the host (from
    /// `mcpr_result_meta_new`; NULL = none), the `_meta` of the page,
    /// charged to its byte budget. The call keeps its own reference: the
    /// handle may be freed once the call has begun.
    pub result_meta: *const mcpr_result_meta,
    /// Optional trace context of the request, handed to every `discover`
    /// of the call (`mcpr_call_traceparent`, ...); all zero = none (see
    /// `mcpr_trace_context`).
    pub trace: mcpr_trace_context,
}

shared_call_fields!(mcpr_list_options);

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_list_options {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_list_options, scope_key),
        field_end!(mcpr_list_options, cursor),
        field_end!(mcpr_list_options, page_size),
        field_end!(mcpr_list_options, timeout_ms),
        field_end!(mcpr_list_options, cancel),
        field_end!(mcpr_list_options, request_data),
        field_end!(mcpr_list_options, executor),
        field_end!(mcpr_list_options, protocol_revision),
        field_end!(mcpr_list_options, result_meta),
        field_end!(mcpr_list_options, trace),
    ];
}

/// Fills options with the defaults: every field at its default and
/// `struct_size` set to `sizeof(mcpr_list_options)`, as
/// `MCPR_LIST_OPTIONS_INIT` does.
///
/// \param options The options to fill, or NULL (then nothing happens).
/// \pre `options` is NULL or points at a writable `mcpr_list_options`.
/// \note Thread-safe: touches only `*options`.
///
/// \ingroup list
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_options_init(options: *mut mcpr_list_options) {
    guard(|| unsafe { init_out(options) })
}

/// The core's options of `opt` (required: NULL is
/// `MCPR_INVALID_ARGUMENT`).
///
/// # Safety
/// `opt` is NULL or points at options of `struct_size` readable bytes whose
/// strings follow the `mcpr_str` rules and whose `cancel` and `executor`
/// are NULL or live.
pub(super) unsafe fn list_options_of(opt: *const mcpr_list_options) -> Result<ListOptions, Error> {
    // SAFETY: `opt` is NULL or points at options of `struct_size` readable
    // bytes (caller's guarantee).
    let o =
        unsafe { read_grown_opt(opt) }?.ok_or_else(|| Error::argument("list options are NULL"))?;
    // SAFETY: both strings follow the `mcpr_str` rules.
    let (scope_key, cursor) = unsafe { (o.scope_key.bytes()?, o.cursor.bytes()?) };
    Ok(ListOptions {
        scope_key: scope_key.to_vec(),
        cursor: (!cursor.is_empty()).then(|| cursor.to_vec()),
        page_size: o.page_size,
        // SAFETY: the pointers are NULL or live, the strings follow the
        // `mcpr_str` rules (caller's guarantee).
        call: unsafe { call_options_of(&o) }?,
    })
}

/// # Safety
/// As for `mcpr_list`.
unsafe fn list_with(
    r: *const mcpr_resources,
    opt: *const mcpr_list_options,
    out: *mut *mut mcpr_page,
    err: *mut *mut mcpr_error,
    templates: bool,
) -> mcpr_status {
    let body = || {
        let r = unsafe { resources(r) }?;
        need_out(out)?;
        // SAFETY: as for `mcpr_list` (caller's guarantee).
        let options = unsafe { list_options_of(opt) }?;
        let revision = options.call.protocol_revision;
        let page = if templates {
            r.inner.list_templates(&options)
        } else {
            r.inner.list(&options)
        }
        .map_err(|f| Error::of_request(f, revision, None))?;
        unsafe { write_handle(out, mcpr_page { inner: page }) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Answers one page of `resources/list`: the registered exact URIs in URI
/// then name order, each page asking the policy's `discover` again.
///
/// Invalid, expired, cross-method, cross-registry, cross-scope or oversized
/// cursors fail with `MCPR_INVALID_REQUEST` (never restarting at page one).
/// `discover` runs on this thread, or on the executor's workers when
/// `options->executor` is set: the call then returns by its deadline whatever
/// `discover` does.
///
/// \param resources A registry reference.
/// \param options The list options (required: scope key, cursor, page size,
///   deadline, cancellation, executor, protocol revision, result `_meta`,
///   trace context).
/// \param out Receives the page on success; the caller owns it: free it with
///   `mcpr_page_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `resources`,
///   `options` or `out`, a `(NULL, n > 0)` string, an unknown protocol
///   revision, a trace member that is not UTF-8, an empty scope key, or options with a bad `struct_size` or
///   set fields beyond it that this library does not know;
///   `MCPR_INVALID_REQUEST` for a bad cursor; `MCPR_POLICY` when `discover`
///   fails (or the
///   executor is saturated); `MCPR_CANCELED`; `MCPR_DEADLINE_EXCEEDED`;
///   `MCPR_SIZE`.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \pre `options` is NULL or points at options of `struct_size` readable
///   bytes whose strings follow the `mcpr_str` rules and whose `cancel`,
///   `executor` and `result_meta` are NULL or not yet freed; `out` is NULL
///   or points at
///   writable storage for one `mcpr_page *`; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: many threads may list one registry at once. The call
///   holds its own registry reference from entry to return, as `mcpr_read`
///   does.
///
/// \ingroup list
#[no_mangle]
pub unsafe extern "C" fn mcpr_list(
    resources: *const mcpr_resources,
    options: *const mcpr_list_options,
    out: *mut *mut mcpr_page,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    unsafe { list_with(resources, options, out, err, false) }
}

/// Answers one page of `resources/templates/list`: the registered templates
/// in template then name order. Same rules as `mcpr_list`; cursors of one
/// method are refused by the other.
///
/// \param resources A registry reference.
/// \param options The list options (required).
/// \param out Receives the page on success; the caller owns it: free it with
///   `mcpr_page_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return As for `mcpr_list`.
/// \pre As for `mcpr_list`.
/// \note Thread-safe, as `mcpr_list`.
///
/// \ingroup list
#[no_mangle]
pub unsafe extern "C" fn mcpr_list_templates(
    resources: *const mcpr_resources,
    options: *const mcpr_list_options,
    out: *mut *mut mcpr_page,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    unsafe { list_with(resources, options, out, err, true) }
}
