//! Completion over the C ABI: `mcpr_complete` and its parameters.

use crate::completion::{not_found, CompleteOptions, CompleteParams};
use crate::error::FailureKind;

use super::boundary::mcpr_str;
use super::completion::mcpr_completion;
use super::error::{guard_status, mcpr_error};
use super::handle::{need_out, write_handle};
use super::read::{mcpr_read_options, read_options_of};
use super::resources::mcpr_resources;
use super::status::{mcpr_status, Error};

/// One named argument of a completion request: `argument` (the variable
/// being completed and its partial value) or one entry of
/// `context.arguments` (a variable already chosen).
///
/// \ingroup completion
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_complete_argument {
    /// The variable name.
    pub name: mcpr_str,
    /// The value (the partial value for the argument being completed).
    pub value: mcpr_str,
}

/// The client's input of `completion/complete` with a `ref/resource`
/// reference (copied by `mcpr_complete`).
///
/// \ingroup completion
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_complete_params {
    /// `ref.uri`: the template text, compared byte for byte with the
    /// registered `uriTemplate`s.
    pub template_uri: mcpr_str,
    /// `argument.name` and `argument.value`.
    pub argument: mcpr_complete_argument,
    /// `context.arguments`: `context_len` entries (NULL when 0), in any
    /// order; entries naming no other variable of the template are
    /// ignored, and so are empty values.
    pub context: *const mcpr_complete_argument,
    /// The number of entries at `context`.
    pub context_len: usize,
}

/// The text of a client-supplied argument: invalid UTF-8 is
/// `MCPR_INVALID_REQUEST`.
///
/// # Safety
/// `s` follows the `mcpr_str` rules.
unsafe fn request_text(s: mcpr_str, what: &str) -> Result<String, Error> {
    Ok(unsafe { s.text(FailureKind::InvalidRequest, what) }?.to_string())
}

/// The core's params of `params`, and whether its template is UTF-8 (when
/// it is not, the template is left empty: it cannot be a registered one,
/// and is not found). NULL params, a NULL `context` with a non-zero
/// length, or a bad string are `MCPR_INVALID_ARGUMENT`; invalid UTF-8 in
/// the argument or context is `MCPR_INVALID_REQUEST`.
///
/// # Safety
/// `params` is NULL or points at params whose strings follow the `mcpr_str`
/// rules and whose `context` points at `context_len` entries (or is NULL
/// with 0).
pub(super) unsafe fn params_of(
    params: *const mcpr_complete_params,
) -> Result<(CompleteParams, bool), Error> {
    let p =
        unsafe { params.as_ref() }.ok_or_else(|| Error::argument("completion params are NULL"))?;
    let context: &[mcpr_complete_argument] = match (p.context.is_null(), p.context_len) {
        (_, 0) => &[],
        (true, _) => {
            return Err(Error::argument(
                "completion context is NULL with a non-zero length",
            ))
        }
        (false, n) => {
            if n > isize::MAX as usize / std::mem::size_of::<mcpr_complete_argument>() {
                return Err(Error::argument("completion context length is impossible"));
            }
            // SAFETY: `context` points at `context_len` entries (caller's
            // guarantee), checked non-null and sized.
            unsafe { std::slice::from_raw_parts(p.context, n) }
        }
    };
    let template = unsafe { p.template_uri.bytes() }?;
    let mut params = CompleteParams {
        template: String::new(),
        argument: unsafe { request_text(p.argument.name, "completion argument name") }?,
        value: unsafe { request_text(p.argument.value, "completion argument value") }?,
        context: Vec::with_capacity(context.len()),
    };
    for a in context {
        let (name, value) = unsafe {
            (
                request_text(a.name, "completion context name")?,
                request_text(a.value, "completion context value")?,
            )
        };
        params.context.push((name, value));
    }
    let utf8 = match std::str::from_utf8(template) {
        Ok(t) => {
            params.template = t.to_string();
            true
        }
        Err(_) => false,
    };
    Ok((params, utf8))
}

/// Answers `completion/complete` for a `ref/resource` reference (a
/// `ref/prompt` is not this library's: the host answers it).
///
/// In order: `params->template_uri` must be a registered `uriTemplate`, byte
/// for byte (else `MCPR_UNAVAILABLE`, the same error as any not-found); the
/// policy's `discover` must allow that definition (a denial is the same
/// `MCPR_UNAVAILABLE`; a failure `MCPR_POLICY`); the argument must name one
/// of its variables, its value be at most `max_uri_bytes`, and each context
/// entry naming another variable be empty or a valid completion value (the
/// rules of `mcpr_completion_add_value`; else `MCPR_INVALID_REQUEST`); then
/// the binding's `complete` callback runs (a binding without one answers an
/// empty completion). Its values that are no valid completion value are
/// dropped; at most 100 are sent, within
/// `max_page_bytes` minus 256, with `hasMore` and `total` set truthfully.
///
/// The result (send `mcpr_completion_json` as the JSON-RPC `result`) carries
/// `"resultType":"complete"` on MCP 2026-07-28 (the options'
/// `protocol_revision`; empty = the newest), nothing of the kind before, and
/// never cache fields. On failure `mcpr_error_jsonrpc_json` is the error
/// object for that revision (not found: `-32602` on 2026-07-28, `-32002`
/// before, with `data.uri` the template URI asked for).
///
/// Without an executor the callbacks (`discover`, then `complete`) run on
/// this thread; with one they run there as one job and this call returns by
/// its deadline whatever they do (a callback still running is abandoned; the
/// tables stay alive until it returns); a saturated executor fails the call
/// at once with `MCPR_READ_FAILED` (cause "executor saturated").
///
/// \param resources A registry reference.
/// \param params The client's completion input (template, argument,
///   context); read during the call only.
/// \param options Read options, or NULL for all defaults: `timeout_ms`,
///   `cancel`, `request_data`, `executor`, `protocol_revision`,
///   `result_meta` (merged into the result's `_meta`, charged to the
///   values' page budget) and `trace` apply as for `mcpr_read`.
/// \param out Receives the completion on success; the caller owns it: free
///   it with `mcpr_completion_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_UNAVAILABLE` (not found, denied, or a template URI
///   that is not UTF-8); `MCPR_INVALID_REQUEST` (bad argument or context,
///   including invalid UTF-8); `MCPR_POLICY`; `MCPR_READ_FAILED` (the
///   callback failed, or a saturated executor); `MCPR_CANCELED`;
///   `MCPR_DEADLINE_EXCEEDED`; `MCPR_INVALID_ARGUMENT` for a NULL
///   `resources`, `params` or `out`, a bad string, a NULL `context` with a
///   non-zero `context_len`, an unknown protocol revision, a trace member
///   that is not UTF-8, or options with a
///   bad `struct_size` or set fields beyond it that this library does not
///   know.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment (retain
///   it under the lock that publishes it; docs/C-API.md shows the pattern).
/// \pre `params` is NULL or points at params whose strings follow the
///   `mcpr_str` rules and whose `context` points at `context_len` entries (or
///   is NULL with 0); `options` is NULL or points at options of `struct_size`
///   readable bytes whose `cancel`, `executor` and `result_meta` are NULL
///   or not yet freed and whose strings follow the `mcpr_str` rules; `out` is NULL or points at writable storage for one `mcpr_completion *`;
///   `err` is NULL or points at writable storage for one `mcpr_error *`.
/// \note Thread-safe: many threads may complete on one registry at once. The
///   call holds its own registry reference from entry to return, as
///   `mcpr_read` does.
///
/// \ingroup completion
#[no_mangle]
pub unsafe extern "C" fn mcpr_complete(
    resources: *const mcpr_resources,
    params: *const mcpr_complete_params,
    options: *const mcpr_read_options,
    out: *mut *mut mcpr_completion,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        // SAFETY: `params` is NULL or points at params (caller's guarantee).
        let (params, utf8) = unsafe { params_of(params) }?;
        // SAFETY: `options` is NULL or points at options (caller's guarantee).
        let options = CompleteOptions {
            call: unsafe { read_options_of(options) }?.call,
        };
        let revision = options.call.protocol_revision;
        if !utf8 {
            // Not UTF-8: it cannot be a registered template (and cannot be
            // echoed in `data.uri`).
            return Err(Error::of_request(not_found(), revision, None));
        }
        let result = r
            .inner
            .complete(&params, &options)
            .map_err(|f| Error::of_request(f, revision, Some(&params.template)))?;
        unsafe { write_handle(out, mcpr_completion { inner: result }) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}
