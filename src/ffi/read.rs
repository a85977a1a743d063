//! `mcpr_read` and its options (their shared fields are converted by
//! `call_options.rs`).

use crate::call::{CallOptions, FromParams};
use crate::error::{CauseText, Failure, FailureKind};
use crate::input::{ClientCapabilities, InputOptions, ReadInput};
use crate::read::ReadOptions;
use std::os::raw::c_void;

use super::boundary::{guard, mcpr_str};
use super::bundle::mcpr_bundle;
use super::call_options::{call_options_of, mcpr_trace_context, shared_call_fields};
use super::cancel::mcpr_cancel;
use super::error::{guard_status, mcpr_error};
use super::executor::mcpr_executor;
use super::growth::{field_end, init_out, read_grown_opt, Grows};
use super::handle::{need_out, write_handle};
use super::resources::mcpr_resources;
use super::result_meta::mcpr_result_meta;
use super::status::{mcpr_status, Error};

/// Per-call options of `mcpr_read`. NULL options mean all defaults. The
/// library copies what it needs before `mcpr_read` returns.
///
/// Growth: set `struct_size` to `sizeof(mcpr_read_options)`, or start from
/// `MCPR_READ_OPTIONS_INIT` / `mcpr_read_options_init` (every field at its
/// default). Later versions append fields; the library reads only the fields
/// lying wholly within `struct_size` (the others take their defaults), refuses
/// a `struct_size` below `sizeof(size_t)` or above 4096, and refuses set bytes
/// beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
///
/// \ingroup read
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_read_options {
    /// `sizeof(mcpr_read_options)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// Caller deadline in milliseconds from the start of the call (0 = only
    /// the registry's `read_timeout`).
    pub timeout_ms: u64,
    /// Optional cancellation token (the read keeps its own reference, so
    /// the token may be freed once `mcpr_read` returns).
    pub cancel: *const mcpr_cancel,
    /// Handed to every callback of this read via `mcpr_call_request_data`,
    /// possibly on executor threads; never dereferenced by the library.
    /// With an executor, a body reader abandoned at its item deadline (or
    /// on cancellation) keeps running after `mcpr_read` returns and still
    /// sees this pointer: whatever such a reader reaches through it must
    /// stay valid until the reader returns (for example, reference-count it
    /// and let the reader drop its reference), or body readers must not use
    /// it.
    pub request_data: *mut c_void,
    /// Optional worker pool running this read's callbacks. NULL = every
    /// callback runs inline on the calling thread, and the read and item
    /// deadlines only take effect between callbacks and through callbacks
    /// that honour `mcpr_call_is_canceled`. With an executor, `mcpr_read`
    /// returns by the read deadline whatever any callback does (see
    /// `mcpr_read`).
    pub executor: *const mcpr_executor,
    /// The negotiated MCP protocol revision the result is shaped for:
    /// `"2024-11-05"`, `"2025-03-26"`, `"2025-06-18"`, `"2025-11-25"` or
    /// `"2026-07-28"`; empty (`{NULL, 0}`) = the newest this library knows
    /// (`"2026-07-28"`). Any other value is `MCPR_INVALID_ARGUMENT`. On
    /// 2026-07-28 the result carries `resultType`, `ttlMs` and
    /// `cacheScope`; before, none of them. Before 2025-06-18 content items
    /// carry no `_meta` (those revisions define none; the warning item of a
    /// partial bundle is then known by its `mcp-warning:` URI and the
    /// result's report).
    pub protocol_revision: mcpr_str,
    /// Optional result `_meta` members of the host (from
    /// `mcpr_result_meta_new`; NULL = none), merged into the `_meta` of
    /// the result after the library's own members, which they never
    /// replace, and charged to the result's budget. The call keeps its own
    /// reference: the handle may be freed once the call has begun.
    pub result_meta: *const mcpr_result_meta,
    /// Optional trace context of the request, handed to every callback of
    /// the call (`mcpr_call_traceparent`, ...); all zero = none (see
    /// `mcpr_trace_context`).
    pub trace: mcpr_trace_context,
    /// The caller's principal (for example a hash of its access token's
    /// subject), for a read whose callback asks for input
    /// (`MCPR_CB_INPUT_REQUIRED`, docs/BEHAVIOUR.md §18): its
    /// `requestState` is bound to SHA-256 of these bytes, and the retry must
    /// bring the same. Empty: such a read is `MCPR_INVALID_ARGUMENT`. Only
    /// `mcpr_read` uses it (and the next four fields).
    pub scope_key: mcpr_str,
    /// The client's `ClientCapabilities` as JSON (from its `initialize`, or
    /// the request's `_meta["io.modelcontextprotocol/clientCapabilities"]`);
    /// empty = nothing declared. An input request of a kind the client did
    /// not declare is never sent: the read fails with `MCPR_INPUT_REQUIRED`
    /// and a `-32021` error. Not a JSON object whose `elicitation`,
    /// `sampling` and `roots` are objects: `MCPR_INVALID_ARGUMENT`.
    pub client_capabilities: mcpr_str,
    /// The retry's `requestState`, exactly as the client sent it (UTF-8,
    /// else `MCPR_INVALID_ARGUMENT`); empty = none. Verified before anything
    /// else about the read: tampered,
    /// expired, or issued for another scope key, URI, registry content or
    /// params is `MCPR_INVALID_REQUEST` (`-32602`), never a fresh read.
    pub request_state: mcpr_str,
    /// The retry's `inputResponses` object as JSON text; empty = none. Given
    /// without `request_state` it is `MCPR_INVALID_REQUEST`.
    pub input_responses: mcpr_str,
    /// The request's whole `params` object as JSON text, for binding the
    /// `requestState` to the params other than `uri`, `_meta`,
    /// `inputResponses` and `requestState`; empty = no other params. Not a
    /// JSON object: `MCPR_INVALID_ARGUMENT` when the state is sealed or
    /// opened.
    pub params: mcpr_str,
}

shared_call_fields!(mcpr_read_options);

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_read_options {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_read_options, timeout_ms),
        field_end!(mcpr_read_options, cancel),
        field_end!(mcpr_read_options, request_data),
        field_end!(mcpr_read_options, executor),
        field_end!(mcpr_read_options, protocol_revision),
        field_end!(mcpr_read_options, result_meta),
        field_end!(mcpr_read_options, trace),
        field_end!(mcpr_read_options, scope_key),
        field_end!(mcpr_read_options, client_capabilities),
        field_end!(mcpr_read_options, request_state),
        field_end!(mcpr_read_options, input_responses),
        field_end!(mcpr_read_options, params),
    ];
}

/// Fills options with the defaults: every field at its default and
/// `struct_size` set to `sizeof(mcpr_read_options)`, as
/// `MCPR_READ_OPTIONS_INIT` does.
///
/// \param options The options to fill, or NULL (then nothing happens).
/// \pre `options` is NULL or points at a writable `mcpr_read_options`.
/// \note Thread-safe: touches only `*options`.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_read_options_init(options: *mut mcpr_read_options) {
    guard(|| unsafe { init_out(options) })
}

/// The core options of `mcpr_read_options` (NULL: all defaults); used by
/// `mcpr_read` and `mcpr_complete`.
///
/// # Safety
/// `opt` is NULL or points at options of `struct_size` readable bytes whose
/// pointers are NULL or live and whose strings (`protocol_revision`, the
/// members of `trace`) follow the `mcpr_str` rules.
pub(super) unsafe fn read_options_of(opt: *const mcpr_read_options) -> Result<ReadOptions, Error> {
    // SAFETY: `opt` is NULL or points at options of `struct_size` readable
    // bytes (caller's guarantee).
    Ok(match unsafe { read_grown_opt(opt) }? {
        // SAFETY: the pointers are NULL or live, the strings follow the
        // `mcpr_str` rules (caller's guarantee).
        Some(o) => ReadOptions {
            call: unsafe { call_options_of(&o) }?,
            input: unsafe { input_options_of(&o) }?,
        },
        None => ReadOptions::default(),
    })
}

/// The core call options and the borrowed input members of
/// `mcpr_read_options` (NULL: all defaults), for `mcpr_read`: the same
/// checks, in the same order, as [`read_options_of`], without copying the
/// input members.
///
/// # Safety
/// As for [`read_options_of`]; the strings stay valid for `'a`.
unsafe fn read_parts_of<'a>(
    opt: *const mcpr_read_options,
) -> Result<(CallOptions, ReadInput<'a>), Error> {
    // SAFETY: `opt` is NULL or points at options of `struct_size` readable
    // bytes (caller's guarantee).
    Ok(match unsafe { read_grown_opt(opt) }? {
        // SAFETY: the pointers are NULL or live, the strings follow the
        // `mcpr_str` rules and outlive `'a` (caller's guarantee).
        Some(o) => (unsafe { call_options_of(&o) }?, unsafe {
            read_input_of(&o)
        }?),
        None => (CallOptions::default(), ReadInput::default()),
    })
}

/// The input members of `mcpr_read_options`, borrowed (docs/BEHAVIOUR.md
/// §18): the checks of [`input_options_of`] in its order; all empty (the
/// common read) is the default without a look at any of them.
///
/// # Safety
/// The strings of `o` follow the `mcpr_str` rules and outlive `'a`.
unsafe fn read_input_of<'a>(o: &mcpr_read_options) -> Result<ReadInput<'a>, Error> {
    let lens = o.scope_key.len
        | o.client_capabilities.len
        | o.request_state.len
        | o.input_responses.len
        | o.params.len;
    if lens == 0 {
        return Ok(ReadInput::default());
    }
    // SAFETY: the strings follow the `mcpr_str` rules (caller's guarantee).
    let text = |s: mcpr_str, what: &str| -> Result<Option<&'a str>, Error> {
        let t = unsafe { s.text(FailureKind::InvalidArgument, what) }?;
        Ok((!t.is_empty()).then_some(t))
    };
    let given_capabilities = unsafe { capabilities_of(o.client_capabilities) }?;
    Ok(ReadInput {
        scope_key: unsafe { o.scope_key.bytes() }?,
        raw_capabilities: None,
        given_capabilities,
        request_state: text(o.request_state, "request_state")?,
        input_responses: text(o.input_responses, "input_responses")?,
        params: text(o.params, "params")?.map(str::as_bytes),
    })
}

/// The input members of `mcpr_read_options` (docs/BEHAVIOUR.md §18).
///
/// # Safety
/// The strings of `o` follow the `mcpr_str` rules.
unsafe fn input_options_of(o: &mcpr_read_options) -> Result<InputOptions, Error> {
    // SAFETY: the strings follow the `mcpr_str` rules (caller's guarantee).
    let text = |s: mcpr_str, what: &str| -> Result<Option<String>, Error> {
        let t = unsafe { s.text(FailureKind::InvalidArgument, what) }?;
        Ok((!t.is_empty()).then(|| t.to_string()))
    };
    let client_capabilities = unsafe { capabilities_of(o.client_capabilities) }?;
    Ok(InputOptions {
        scope_key: unsafe { o.scope_key.bytes() }?.to_vec(),
        client_capabilities,
        request_state: text(o.request_state, "request_state")?,
        input_responses: text(o.input_responses, "input_responses")?,
        params: text(o.params, "params")?,
    })
}

/// A `client_capabilities` option (empty: none).
///
/// # Safety
/// `json` follows the `mcpr_str` rules.
pub(super) unsafe fn capabilities_of(json: mcpr_str) -> Result<Option<ClientCapabilities>, Error> {
    // SAFETY: `json` follows the `mcpr_str` rules (caller's guarantee).
    let text = unsafe { json.text(FailureKind::InvalidArgument, "client_capabilities") }?;
    if text.is_empty() {
        return Ok(None);
    }
    ClientCapabilities::from_json(text).map(Some).map_err(|e| {
        Error::from(
            Failure::with_message(
                FailureKind::InvalidArgument,
                "client_capabilities is not a valid ClientCapabilities object",
            )
            .caused_by(CauseText(e.message().into())),
        )
    })
}

/// Answers `resources/read` for a URI: validation, selection, the policy
/// sequence, body reads under budgets and deadlines, the recheck and
/// assembly. A usable partial bundle is a success, with
/// `mcpr_bundle_is_partial` true. On failure no bundle is made: send the
/// error's `mcpr_error_jsonrpc_json` to the client and log its
/// `mcpr_error_cause`.
///
/// Without an executor every callback runs on this thread, and deadlines
/// only take effect between callbacks and through callbacks that honour
/// `mcpr_call_is_canceled`. With an executor (`options->executor`) every
/// callback of the read runs on its workers and this call returns by the
/// read deadline whatever any callback does: a policy (`discover`,
/// `visibility`, `read`) or `resolve` callback still running at the read
/// deadline makes the read `MCPR_DEADLINE_EXCEEDED`, or `MCPR_CANCELED` at
/// once on cancellation; a body `read` still running at its item deadline
/// makes that item a `timeout` issue while the read continues with the other
/// items. Such a callback is abandoned: it keeps running on its worker, its
/// late result is discarded, the views it was given stay valid and the
/// binding's table stays alive until it returns (`release` runs after the
/// last call returns), and it still sees `request_data`. A saturated
/// executor (see `mcpr_executor_get_stats`) fails the read at once with
/// `MCPR_READ_FAILED`, or fails the body reads it can no longer risk as
/// `read_failed` items; the private cause says "executor saturated".
///
/// \param resources A registry reference.
/// \param uri The raw bytes of the request's `params.uri`.
/// \param options The read options (deadline, cancellation, request data,
///   executor, protocol revision, result `_meta`, trace context), or NULL
///   for all defaults; read during the call only.
/// \param out Receives the bundle on success; the caller owns it: free it
///   with `mcpr_bundle_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` (also for a partial bundle); `MCPR_INVALID_ARGUMENT` for
///   a NULL `resources` or `out`, a `(NULL, n > 0)` string, an unknown
///   protocol revision, a trace member that is not UTF-8, or options with a
///   bad `struct_size` or set fields beyond it that this library does not
///   know; otherwise the failure of the read (`MCPR_INVALID_REQUEST`,
///   `MCPR_UNAVAILABLE`, `MCPR_INVALID_PLAN`, `MCPR_POLICY`,
///   `MCPR_READ_FAILED`, `MCPR_TIMEOUT`, `MCPR_INVALID_CONTENT`,
///   `MCPR_BUDGET_EXCEEDED`, `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`,
///   `MCPR_SIZE`).
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \pre `uri` follows the `mcpr_str` rules; `options` is NULL or points at
///   options of `struct_size` readable bytes whose `cancel`, `executor` and
///   `result_meta` are NULL or not yet freed and whose strings
///   (`protocol_revision`, the members of `trace`) follow the `mcpr_str`
///   rules; `out` is NULL or points at writable storage for one
///   `mcpr_bundle *`; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \post The call holds its own registry reference from entry to return:
///   once it has begun, other threads (or its own callbacks) may release any
///   reference, even the last; the `release` callbacks then run no earlier
///   than the end of this call (on this thread, just before it returns, when
///   it is the last user), or when an abandoned callback returns.
/// \note Thread-safe: many threads may read one registry at once.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_read(
    resources: *const mcpr_resources,
    uri: mcpr_str,
    options: *const mcpr_read_options,
    out: *mut *mut mcpr_bundle,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        // SAFETY: `uri` follows the `mcpr_str` rules.
        let uri = unsafe { uri.bytes() }?;
        // SAFETY: `options` is NULL or points at options (caller's
        // guarantee); its strings are read during the call only.
        let (call, input) = unsafe { read_parts_of(options) }?;
        let bundle = r
            .inner
            .read_at(uri, &call, FromParams::default(), &input)
            .map_err(|f| {
                // A not-found failure implies a valid (UTF-8) identifier.
                let uri = std::str::from_utf8(uri).ok();
                Error::of_request(f, call.protocol_revision, uri)
            })?;
        unsafe { write_handle(out, mcpr_bundle { inner: bundle }) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}
