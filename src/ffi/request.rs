//! One call per request: `mcpr_request` and its options.

use crate::request::{RequestError, RequestOptions};
use std::os::raw::c_void;

use super::boundary::{guard, guard_status, mcpr_status, mcpr_str};
use super::cancel::{cancel_of, mcpr_cancel};
use super::error::{mcpr_error, Error};
use super::executor::mcpr_executor;
use super::growth::{field_end, init_out, read_grown_opt, Grows};
use super::handle::{need_out, write_out};
use super::read::{request_data, revision_of, timeout};
use super::resources::{mcpr_resources, resources};
use super::response::mcpr_response;

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
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_request_options {
    /// `sizeof(mcpr_request_options)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// The protocol revision negotiated with the client (`"2025-06-18"`,
    /// `"2025-11-25"`, `"2026-07-28"`; empty = the newest; anything else is
    /// `MCPR_INVALID_ARGUMENT`). A known revision in the request's
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]` takes
    /// precedence.
    pub protocol_revision: mcpr_str,
    /// Opaque caller scope of `resources/list` and
    /// `resources/templates/list` (required and non-empty for them, else
    /// `MCPR_INVALID_ARGUMENT`; unused by `resources/read`). Cursors are
    /// bound to a hash of these bytes: use the caller's authorization
    /// context (for example a hash of its access token's subject).
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
}

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_request_options {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_request_options, protocol_revision: mcpr_str),
        field_end!(mcpr_request_options, scope_key: mcpr_str),
        field_end!(mcpr_request_options, page_size: u32),
        field_end!(mcpr_request_options, timeout_ms: u64),
        field_end!(mcpr_request_options, cancel: *const mcpr_cancel),
        field_end!(mcpr_request_options, request_data: *mut c_void),
        field_end!(mcpr_request_options, executor: *const mcpr_executor),
    ];
}

/// Fills `*o` with every default and `struct_size =
/// sizeof(mcpr_request_options)`, as `MCPR_REQUEST_OPTIONS_INIT` does. Ignores NULL.
///
/// # Safety
/// `o` is NULL or valid for one write of an `mcpr_request_options`.
#[no_mangle]
pub unsafe extern "C" fn mcpr_request_options_init(o: *mut mcpr_request_options) {
    guard(|| unsafe { init_out(o) })
}

/// Serves one MCP request: `method` is the JSON-RPC method name and
/// `params_json` the raw text of its `params` (`{NULL, 0}` when the
/// request had none). Served methods: `resources/read`, `resources/list`,
/// `resources/templates/list`, and `completion/complete` for a
/// `ref/resource` reference (as `mcpr_complete` does; a `ref/prompt`
/// reference is `MCPR_METHOD_NOT_HANDLED`: answer it with your prompts).
///
/// On `MCPR_OK`, `*out` receives a response to send: its
/// `mcpr_response_json` goes under `"result"` when
/// `mcpr_response_is_error` is false and under `"error"` when it is true,
/// with the request's id. Client mistakes (malformed params: invalid JSON,
/// a non-object, `uri` or `cursor` of the wrong type, a repeated member,
/// more than 256 KiB; unknown URIs; bad cursors; an unknown per-request
/// protocol revision) and failures of the call are error responses, not
/// statuses.
///
/// Other statuses make no response: `MCPR_METHOD_NOT_HANDLED` for any other
/// method and for `ref/prompt` completions (route it elsewhere, or answer
/// `-32601`); `MCPR_INVALID_ARGUMENT`
/// for programming errors (NULL registry or `out`, bad strings, an unknown
/// `protocol_revision` option, an empty scope key for a list method);
/// `MCPR_INTERNAL` for a caught panic (answer `-32603`). `*err`, when `err`
/// is not NULL, then receives the error.
///
/// Params members other than `uri`, `cursor` and `_meta` (and `_meta` keys
/// other than the protocol version) are ignored, as the MCP schemas allow.
/// A request the client cancelled gets no response at all in MCP: after
/// cancelling through the token, drop the response instead of sending it.
///
/// Safe to call from many threads at once on one registry. The call holds
/// its own registry reference from entry to return, as `mcpr_read` does,
/// and with `opt->executor` it returns by its deadline whatever a callback
/// does, as `mcpr_read` and `mcpr_list` do.
///
/// # Safety
/// `r` is NULL or a live registry reference; `method` and `params_json` follow
/// the `mcpr_str` rules; `opt` is NULL or points at options of `struct_size`
/// readable bytes whose strings follow the `mcpr_str` rules and whose pointers
/// are NULL or live; `out` and `err` are NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn mcpr_request(
    r: *const mcpr_resources,
    method: mcpr_str,
    params_json: mcpr_str,
    opt: *const mcpr_request_options,
    out: *mut *mut mcpr_response,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { resources(r) }?;
        need_out(out)?;
        // SAFETY: both strings follow the `mcpr_str` rules.
        let (method, params) = unsafe { (method.bytes()?, params_json.bytes()?) };
        let mut options = RequestOptions::default();
        // SAFETY: `opt` is NULL or points at options of `struct_size`
        // readable bytes (caller's guarantee).
        if let Some(o) = unsafe { read_grown_opt(opt) }? {
            // SAFETY: the strings follow the `mcpr_str` rules; the pointers
            // are NULL or live.
            unsafe {
                options.revision = revision_of(o.protocol_revision)?;
                options.scope_key = o.scope_key.bytes()?.to_vec();
                options.cancel = cancel_of(o.cancel);
                options.executor = o.executor.as_ref().map(|e| e.inner.clone());
            }
            options.page_size = o.page_size;
            options.timeout = timeout(o.timeout_ms);
            options.request_data = request_data(o.request_data);
        }
        let response = r
            .inner
            .request(method, params, &options)
            .map_err(|e| match e {
                RequestError::MethodNotHandled => Error::with_status(
                    mcpr_status::MCPR_METHOD_NOT_HANDLED,
                    "method not handled by this library",
                ),
                RequestError::InvalidArgument(m) => Error::argument(m),
            })?;
        let cause = response
            .failure()
            .map(|f| f.cause_text())
            .unwrap_or_default();
        let handle = Box::new(mcpr_response {
            inner: response,
            cause,
        });
        // SAFETY: `out` is non-null (checked) and valid for one write.
        unsafe { write_out(out, Box::into_raw(handle)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}
