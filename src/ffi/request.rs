//! One call per request: `mcpr_request` and its options.

use crate::request::{RequestError, RequestOptions, Response};
use std::os::raw::c_void;

use super::boundary::{guard, mcpr_str};
use super::call_options::{call_options_of, mcpr_trace_context, shared_call_fields};
use super::cancel::mcpr_cancel;
use super::error::{guard_status, mcpr_error};
use super::executor::mcpr_executor;
use super::growth::{field_end, init_out, read_grown_opt, Grows};
use super::handle::{need_out, write_handle};
use super::resources::mcpr_resources;
use super::response::mcpr_response;
use super::result_meta::mcpr_result_meta;
use super::status::{mcpr_status, Error};

/// Per-call options of `mcpr_request`. NULL options mean all defaults
/// (then the list methods, which need a scope key, are
/// `MCPR_INVALID_ARGUMENT`). The library copies what it needs before
/// `mcpr_request` returns.
///
/// Growth: set `struct_size` to `sizeof(mcpr_request_options)`, or start from
/// `MCPR_REQUEST_OPTIONS_INIT` / `mcpr_request_options_init` (every field at
/// its default). Later versions append fields; the library reads only the
/// fields lying wholly within `struct_size` (the others take their defaults),
/// refuses a `struct_size` below `sizeof(size_t)` or above 4096, and refuses
/// set bytes beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
///
/// \ingroup request
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_request_options {
    /// `sizeof(mcpr_request_options)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// The protocol revision negotiated with the client (`"2024-11-05"`,
    /// `"2025-03-26"`, `"2025-06-18"`, `"2025-11-25"`, `"2026-07-28"`;
    /// empty = the newest; anything else is `MCPR_INVALID_ARGUMENT`). A
    /// known revision in the request's
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]` takes
    /// precedence.
    pub protocol_revision: mcpr_str,
    /// Opaque caller scope of `resources/list` and
    /// `resources/templates/list` (required and non-empty for them, else
    /// `MCPR_INVALID_ARGUMENT`), and of a `resources/read` whose callback
    /// asks for input (its `requestState` is bound to it, as
    /// `mcpr_read_options.scope_key`). Cursors are bound to a hash of these
    /// bytes: use the caller's authorization context (for example a hash of
    /// its access token's subject).
    pub scope_key: mcpr_str,
    /// Page size of the list methods (0 = `default_page_size`; clamped to
    /// `max_page_size`).
    pub page_size: u32,
    /// Caller deadline in milliseconds (0 = only the registry's
    /// `read_timeout`).
    pub timeout_ms: u64,
    /// Optional cancellation token.
    pub cancel: *const mcpr_cancel,
    /// Handed to every callback via `mcpr_call_request_data` (same rules as
    /// `mcpr_read_options.request_data`).
    pub request_data: *mut c_void,
    /// Optional worker pool running every callback of the call (reads and
    /// listings alike): the call then returns by its deadline whatever a
    /// callback does (see `mcpr_read` and `mcpr_list`).
    pub executor: *const mcpr_executor,
    /// Serve `tools/call` for the resource tools `read_resource` and
    /// `list_resources` (as `mcpr_resource_tools_call` does); any other tool
    /// stays `MCPR_METHOD_NOT_HANDLED`. False (the default): `tools/call` is
    /// not handled at all.
    pub resource_tools: bool,
    /// Optional result `_meta` members of the host (from
    /// `mcpr_result_meta_new`; NULL = none), merged into the `_meta` of
    /// every result (error objects are not results) after the library's
    /// own members, which they never replace, and charged to the result's
    /// budget. The call keeps its own reference: the handle may be freed
    /// once the call has begun.
    pub result_meta: *const mcpr_result_meta,
    /// Optional trace context, when the host read it itself (for example
    /// from its transport), handed to every callback of the call; all zero
    /// = none (see `mcpr_trace_context`). Trace members in the request's
    /// `params._meta` take its place.
    pub trace: mcpr_trace_context,
    /// The client's `ClientCapabilities` as JSON, as the host knows them
    /// from `initialize`, for a `resources/read` whose callback asks for
    /// input (docs/BEHAVIOUR.md §18); empty = nothing declared. A
    /// `params._meta["io.modelcontextprotocol/clientCapabilities"]` in the
    /// request wins. Not a JSON object whose `elicitation`, `sampling` and
    /// `roots` are objects: `MCPR_INVALID_ARGUMENT`.
    pub client_capabilities: mcpr_str,
}

shared_call_fields!(mcpr_request_options);

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_request_options {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_request_options, protocol_revision),
        field_end!(mcpr_request_options, scope_key),
        field_end!(mcpr_request_options, page_size),
        field_end!(mcpr_request_options, timeout_ms),
        field_end!(mcpr_request_options, cancel),
        field_end!(mcpr_request_options, request_data),
        field_end!(mcpr_request_options, executor),
        field_end!(mcpr_request_options, resource_tools),
        field_end!(mcpr_request_options, result_meta),
        field_end!(mcpr_request_options, trace),
        field_end!(mcpr_request_options, client_capabilities),
    ];
}

/// Fills options with the defaults: every field at its default and
/// `struct_size` set to `sizeof(mcpr_request_options)`, as
/// `MCPR_REQUEST_OPTIONS_INIT` does.
///
/// \param options The options to fill, or NULL (then nothing happens).
/// \pre `options` is NULL or points at a writable `mcpr_request_options`.
/// \note Thread-safe: touches only `*options`.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_request_options_init(options: *mut mcpr_request_options) {
    guard(|| unsafe { init_out(options) })
}

/// The status of a request that made no response.
pub(super) fn request_error(e: RequestError) -> Error {
    match e {
        RequestError::MethodNotHandled => Error::with_status(
            mcpr_status::MCPR_METHOD_NOT_HANDLED,
            "method not handled by this library",
        ),
        RequestError::InvalidArgument(m) => Error::argument(m),
    }
}

/// The response handle of a response (with its failure's private cause).
pub(super) fn response_of(response: Response) -> mcpr_response {
    let cause = response
        .failure()
        .or(response.tool_failure())
        .map(|f| f.cause_text())
        .unwrap_or_default();
    mcpr_response {
        inner: response,
        cause,
    }
}

/// Serves one MCP request by method name: `resources/read`,
/// `resources/list`, `resources/templates/list`, `completion/complete`
/// for a `ref/resource` reference (as `mcpr_complete` does; a `ref/prompt`
/// reference is `MCPR_METHOD_NOT_HANDLED`: answer it with your prompts),
/// and, when `options->resource_tools` is set, `tools/call` for the
/// resource tools (as `mcpr_resource_tools_call` does; any other tool is
/// `MCPR_METHOD_NOT_HANDLED`: call your own).
///
/// On `MCPR_OK` the response is to be sent: its `mcpr_response_json` goes
/// under `"result"` when `mcpr_response_is_error` is false and under
/// `"error"` when it is true, with the request's id. Client mistakes
/// (malformed params: invalid JSON, a non-object, `uri` or `cursor` of the
/// wrong type, a repeated member, more than 256 KiB; unknown URIs; bad
/// cursors; an unknown per-request protocol revision) and failures of the
/// call are error responses, not statuses. Params members other than `uri`,
/// `cursor` and `_meta` (and `_meta` keys other than the protocol version
/// and the trace context) are ignored, as the MCP schemas allow. The trace
/// context of `params._meta` (`traceparent`, `tracestate`, `baggage`:
/// strings as sent, at most 8 KiB each; another value is left out, a
/// repeat is malformed params) reaches every callback of the call through
/// `mcpr_call_traceparent`, `mcpr_call_tracestate` and `mcpr_call_baggage`,
/// in place of `options->trace`. A request the client cancelled
/// gets no response at all in MCP: after cancelling through the token, drop
/// the response instead of sending it.
///
/// \param resources A registry reference.
/// \param method The JSON-RPC method name.
/// \param params_json The raw text of the request's `params`; `{NULL, 0}`
///   when the request had none.
/// \param options The request options (protocol revision, scope key of the
///   list methods, page size, deadline, cancellation, request data,
///   executor, result `_meta`, trace context), or NULL for all defaults (then the list methods, which need a
///   scope key, are `MCPR_INVALID_ARGUMENT`); read during the call only.
/// \param out Receives the response on `MCPR_OK`; the caller owns it: free it
///   with `mcpr_response_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` with a response (result or error) to send;
///   `MCPR_METHOD_NOT_HANDLED` for any other method, for `ref/prompt`
///   completions and for `tools/call` of other tools (or of any tool
///   without `resource_tools`) (no response: route the request elsewhere,
///   or answer `-32601`); `MCPR_INVALID_ARGUMENT` for programming errors (NULL
///   `resources` or `out`, bad strings, an unknown `protocol_revision`
///   option, a trace member that is not UTF-8, an empty scope key for a list method, options with a bad
///   `struct_size` or set fields beyond it that this library does not know);
///   `MCPR_INTERNAL` for a library failure (answer `-32603`).
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \pre `method` and `params_json` follow the `mcpr_str` rules; `options` is
///   NULL or points at options of `struct_size` readable bytes whose strings
///   follow the `mcpr_str` rules and whose `cancel`, `executor` and
///   `result_meta` are NULL or not yet freed; `out` is NULL or points at writable storage for one
///   `mcpr_response *`; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: many threads may serve one registry at once. The call
///   holds its own registry reference from entry to return, as `mcpr_read`
///   does, and with `options->executor` it returns by its deadline whatever
///   a callback does, as `mcpr_read` and `mcpr_list` do.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_request(
    resources: *const mcpr_resources,
    method: mcpr_str,
    params_json: mcpr_str,
    options: *const mcpr_request_options,
    out: *mut *mut mcpr_response,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        // SAFETY: both strings follow the `mcpr_str` rules.
        let (method, params) = unsafe { (method.bytes()?, params_json.bytes()?) };
        let options = unsafe { request_options_of(options) }?;
        let response = r.inner.request(method, params, &options);
        unsafe { write_response(out, response) }
    };
    unsafe { guard_status(err, body) }
}

/// The core options of `mcpr_request_options` (NULL: all defaults); used by
/// `mcpr_request` and `mcpr_resource_tools_call`.
///
/// # Safety
/// `options` is NULL or points at options of `struct_size` readable bytes
/// whose strings follow the `mcpr_str` rules and whose pointers are NULL or
/// live.
pub(super) unsafe fn request_options_of(
    options: *const mcpr_request_options,
) -> Result<RequestOptions, Error> {
    let given = unsafe { read_grown_opt(options) }?;
    Ok(match given {
        Some(o) => unsafe {
            RequestOptions {
                call: call_options_of(&o)?,
                scope_key: o.scope_key.bytes()?.to_vec(),
                page_size: o.page_size,
                resource_tools: o.resource_tools,
                client_capabilities: super::read::capabilities_of(o.client_capabilities)?,
            }
        },
        None => RequestOptions::default(),
    })
}

/// Writes the response of a request (or the status of a request with none)
/// through `out`; the cause kept for `mcpr_response_cause` is that of an
/// error object or of a resource tool's execution error.
///
/// # Safety
/// `out` is non-null (checked with `need_out`) and valid for one write.
pub(super) unsafe fn write_response(
    out: *mut *mut mcpr_response,
    response: Result<Response, RequestError>,
) -> Result<(), Error> {
    let response = response.map_err(request_error)?;
    unsafe { write_handle(out, response_of(response)) };
    Ok(())
}
