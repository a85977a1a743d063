//! The resource tools (`mcpr_resource_tools_*`): `read_resource` and
//! `list_resources` for clients that only call tools.

use crate::tools::resource_tool_definitions;

use super::boundary::mcpr_str;
use super::call_options::revision_of;
use super::error::{guard_status, mcpr_error};
use super::handle::{need_out, write_out};
use super::request::{mcpr_request_options, request_options_of, write_response};
use super::resources::mcpr_resources;
use super::response::mcpr_response;
use super::status::mcpr_status;

/// The `Tool` definitions of the resource tools, `list_resources` and
/// `read_resource`, as one JSON array: merge its two objects into your own
/// `tools/list` result. Both are read-only and take a JSON object with only
/// the members they name (`read_resource`: `uri`; `list_resources`: an
/// optional `cursor`); both have an output schema.
///
/// \param protocol_revision The negotiated revision (`"2025-06-18"`,
///   `"2025-11-25"`, `"2026-07-28"`; empty = the newest).
/// \param out Receives the JSON on `MCPR_OK`, borrowed from the library
///   (static: valid for as long as the library is loaded).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out`, a string
///   breaking the `mcpr_str` rules or an unknown revision.
/// \pre `protocol_revision` follows the `mcpr_str` rules; `out` is NULL or
///   points at writable storage for one `mcpr_str`; `err` is NULL or points
///   at writable storage for one `mcpr_error *`.
/// \note Thread-safe.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_resource_tools_definitions(
    protocol_revision: mcpr_str,
    out: *mut mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        need_out(out)?;
        // SAFETY: `protocol_revision` follows the `mcpr_str` rules.
        let revision = unsafe { revision_of(protocol_revision) }?;
        let json = resource_tool_definitions(revision);
        unsafe { write_out(out, mcpr_str::from_str(json)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// Serves `tools/call` for the resource tools from the raw params text:
/// `read_resource` reads a URI through the read pipeline for the caller
/// and returns its items as embedded resources (and as
/// `structuredContent.contents`); `list_resources` returns one page of the
/// resources, then of the templates, the caller may discover, paginated
/// with the library's sealed cursors (bound to `options->scope_key`).
///
/// On `MCPR_OK` the response is to be sent, as for `mcpr_request`. A
/// `CallToolResult` with `isError: true` is a result (send it under
/// `"result"`): arguments the tool's input schema refuses, a resource it
/// cannot read (one text for hidden, undiscoverable, unregistered and
/// invalid URIs alike: `Resource not found`), a cursor it cannot use
/// (`Invalid cursor`), a failed read (the failure's fixed message); its
/// private cause is `mcpr_response_cause`. Params that are not a valid
/// `CallToolRequest` (not an object, `name` missing or not a string,
/// `arguments` not an object, a repeated member) and an unknown
/// per-request revision are error objects. A request the client cancelled
/// gets no response: drop it.
///
/// \param resources A registry reference.
/// \param params_json The raw text of the request's `params`.
/// \param options The request options (protocol revision, the scope key
///   that `list_resources` needs, page size, deadline, cancellation,
///   request data, executor; `resource_tools` is not needed here), or NULL
///   for all defaults (then `list_resources`, which needs a scope key, is
///   `MCPR_INVALID_ARGUMENT`); read during the call only.
/// \param out Receives the response on `MCPR_OK`; the caller owns it: free
///   it with `mcpr_response_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` with a response to send; `MCPR_METHOD_NOT_HANDLED` for
///   a tool that is not one of the two (call your own tool);
///   `MCPR_INVALID_ARGUMENT` for programming errors (NULL `resources` or
///   `out`, bad strings, an unknown `protocol_revision` option, an empty
///   scope key for `list_resources`, options with a bad `struct_size` or set
///   fields beyond it that this library does not know); `MCPR_INTERNAL` for
///   a library failure.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment.
/// \pre `params_json` follows the `mcpr_str` rules; `options` is NULL or
///   points at options of `struct_size` readable bytes whose strings follow
///   the `mcpr_str` rules and whose `cancel` and `executor` are NULL or not
///   yet freed; `out` is NULL or points at writable storage for one
///   `mcpr_response *`; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \note Thread-safe: many threads may serve one registry at once; the call
///   holds its own registry reference from entry to return.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_resource_tools_call(
    resources: *const mcpr_resources,
    params_json: mcpr_str,
    options: *const mcpr_request_options,
    out: *mut *mut mcpr_response,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        // SAFETY: `params_json` follows the `mcpr_str` rules.
        let params = unsafe { params_json.bytes() }?;
        // SAFETY: `options` is NULL or points at options (caller's guarantee).
        let options = unsafe { request_options_of(options) }?;
        let response = r.inner.call_resource_tool(params, &options);
        unsafe { write_response(out, response) }
    };
    unsafe { guard_status(err, body) }
}
