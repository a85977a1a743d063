//! `mcpr_embed` and its options: resources embedded in a tool result (the
//! options' shared fields are converted by `call_options.rs`).

use crate::tools::{EmbedForm, EmbedOptions};
use std::os::raw::c_void;

use super::boundary::{guard, mcpr_str};
use super::call_options::{call_options_of, mcpr_trace_context, shared_call_fields};
use super::cancel::mcpr_cancel;
use super::embedding::mcpr_embedding;
use super::error::{guard_status, mcpr_error};
use super::executor::mcpr_executor;
use super::growth::{field_end, init_out, read_grown_opt, Grows};
use super::handle::{need_out, write_handle};
use super::resources::mcpr_resources;
use super::result_meta::mcpr_result_meta;
use super::status::Error;

/// Which content blocks `mcpr_embed` makes (`mcpr_embed_options.form`). A
/// plain integer so that an unknown value is reported as
/// `MCPR_INVALID_ARGUMENT` rather than being undefined behaviour.
///
/// \ingroup read
pub type mcpr_embed_form = u32;

// `u32` suffixes: see `ffi/limits.rs`.
/// Embedded `resource` blocks: the items a read of each URI gives (the
/// default).
///
/// \ingroup read
pub const MCPR_EMBED_RESOURCE: mcpr_embed_form = 0u32;

/// One `resource_link` block per URI the caller may read, built from its
/// registered description; no body is read.
///
/// \ingroup read
pub const MCPR_EMBED_LINK: mcpr_embed_form = 1u32;

/// Per-call options of `mcpr_embed`. NULL options mean all defaults. The
/// first fields are those of `mcpr_read_options`, with the same meaning
/// for the whole embedding. The library copies what it needs before
/// `mcpr_embed` returns.
///
/// Growth: set `struct_size` to `sizeof(mcpr_embed_options)`, or start from
/// `MCPR_EMBED_OPTIONS_INIT` / `mcpr_embed_options_init` (every field at its
/// default). Later versions append fields; the library reads only the fields
/// lying wholly within `struct_size` (the others take their defaults),
/// refuses a `struct_size` below `sizeof(size_t)` or above 4096, and refuses
/// set bytes beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
///
/// \ingroup read
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mcpr_embed_options {
    /// `sizeof(mcpr_embed_options)` as the caller compiled it (see above).
    pub struct_size: usize,
    /// Caller deadline in milliseconds for the whole embedding (0 = only
    /// the registry's `read_timeout`, which also bounds the whole
    /// embedding).
    pub timeout_ms: u64,
    /// Optional cancellation token.
    pub cancel: *const mcpr_cancel,
    /// Handed to every callback via `mcpr_call_request_data` (same rules as
    /// `mcpr_read_options.request_data`).
    pub request_data: *mut c_void,
    /// Optional worker pool running every callback (as for `mcpr_read`: the
    /// embedding then returns by its deadline whatever a callback does).
    pub executor: *const mcpr_executor,
    /// The negotiated MCP protocol revision the blocks are written for
    /// (`"2024-11-05"`, `"2025-03-26"`, `"2025-06-18"`, `"2025-11-25"`,
    /// `"2026-07-28"`; empty = the newest; anything else is
    /// `MCPR_INVALID_ARGUMENT`). Before 2025-06-18 there are no
    /// `resource_link` blocks: `MCPR_EMBED_LINK` is `MCPR_INVALID_ARGUMENT`
    /// and `over_budget_links` is ignored.
    pub protocol_revision: mcpr_str,
    /// `MCPR_EMBED_RESOURCE` (0, the default) or `MCPR_EMBED_LINK`; any
    /// other value is `MCPR_INVALID_ARGUMENT`.
    pub form: mcpr_embed_form,
    /// With `MCPR_EMBED_RESOURCE`: an item that would be a `budget_exceeded`
    /// issue becomes a `resource_link` block instead when the caller may
    /// learn its URI (it is the requested target, or its final visibility
    /// discloses it), and a URI the embedding has no budget left for
    /// becomes a link when the read's root checks pass.
    pub over_budget_links: bool,
    /// Optional result `_meta` members of the host (from
    /// `mcpr_result_meta_new`; NULL = none): the `_meta` of the whole tool
    /// result `mcpr_embedding_tool_result_json` gives (never of the blocks),
    /// charged once to the embedding's budget. The call keeps its own
    /// reference: the handle may be freed once the call has begun.
    pub result_meta: *const mcpr_result_meta,
    /// Optional trace context handed to every callback of the embedding
    /// (see `mcpr_trace_context`); all zero = none.
    pub trace: mcpr_trace_context,
}

shared_call_fields!(mcpr_embed_options);

// SAFETY: repr(C), `struct_size` first, every field valid (and default)
// when zero, and every field's end listed.
unsafe impl Grows for mcpr_embed_options {
    const FIELD_ENDS: &'static [usize] = &[
        field_end!(mcpr_embed_options, timeout_ms),
        field_end!(mcpr_embed_options, cancel),
        field_end!(mcpr_embed_options, request_data),
        field_end!(mcpr_embed_options, executor),
        field_end!(mcpr_embed_options, protocol_revision),
        field_end!(mcpr_embed_options, form),
        field_end!(mcpr_embed_options, over_budget_links),
        field_end!(mcpr_embed_options, result_meta),
        field_end!(mcpr_embed_options, trace),
    ];
}

/// Fills options with the defaults: every field at its default and
/// `struct_size` set to `sizeof(mcpr_embed_options)`, as
/// `MCPR_EMBED_OPTIONS_INIT` does.
///
/// \param options The options to fill, or NULL (then nothing happens).
/// \pre `options` is NULL or points at a writable `mcpr_embed_options`.
/// \note Thread-safe: touches only `*options`.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embed_options_init(options: *mut mcpr_embed_options) {
    guard(|| unsafe { init_out(options) })
}

/// The core options of `mcpr_embed_options` (NULL: all defaults).
///
/// # Safety
/// `opt` is NULL or points at options of `struct_size` readable bytes whose
/// pointers are NULL or live and whose `protocol_revision` follows the
/// `mcpr_str` rules.
unsafe fn embed_options_of(opt: *const mcpr_embed_options) -> Result<EmbedOptions, Error> {
    // SAFETY: `opt` is NULL or points at options of `struct_size` readable
    // bytes (caller's guarantee).
    let Some(o) = unsafe { read_grown_opt(opt) }? else {
        return Ok(EmbedOptions::default());
    };
    Ok(EmbedOptions {
        // SAFETY: the pointers are NULL or live, the revision follows the
        // `mcpr_str` rules (caller's guarantee).
        call: unsafe { call_options_of(&o) }?,
        form: match o.form {
            MCPR_EMBED_RESOURCE => EmbedForm::Resource,
            MCPR_EMBED_LINK => EmbedForm::Link,
            _ => return Err(Error::argument("unknown mcpr_embed_form")),
        },
        over_budget_links: o.over_budget_links,
    })
}

/// The URIs of `mcpr_embed`: `count` strings from `uris`.
///
/// # Safety
/// `uris` is NULL with `count` 0, or points at `count` readable `mcpr_str`
/// that follow the `mcpr_str` rules.
unsafe fn uris_of<'a>(uris: *const mcpr_str, count: usize) -> Result<Vec<&'a [u8]>, Error> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if uris.is_null() {
        return Err(Error::argument("uris is NULL with a non-zero count"));
    }
    if count > isize::MAX as usize / std::mem::size_of::<mcpr_str>() {
        return Err(Error::argument("uri count is impossible"));
    }
    // SAFETY: non-null (checked above), `count` readable elements (the
    // caller's guarantee), and a size within `isize::MAX` (checked above).
    let all = unsafe { std::slice::from_raw_parts(uris, count) };
    // SAFETY: each element follows the `mcpr_str` rules.
    all.iter().map(|s| unsafe { s.bytes() }).collect()
}

/// Embeds resources in a tool result: for each URI, in order, the
/// `resource` content blocks a read of it gives (the same items, the
/// warning item of a partial read first), or one `resource_link` block
/// built from its registered description (`MCPR_EMBED_LINK`, after the
/// read's root checks: discovery, resolve, the requested target's
/// visibility and read permission). Every URI runs through the read
/// pipeline for the caller; the URIs share the budgets of one read
/// (payload, items, encoded bytes) and one deadline.
///
/// A URI whose read fails gives no block, whatever the failure: hidden,
/// undiscoverable, unregistered and invalid URIs look the same in every
/// byte of the blocks. Why each URI gave what it gave is for the host:
/// `mcpr_embedding_uri_status` and `mcpr_embedding_uri_cause`. Place the
/// blocks (`mcpr_embedding_blocks_json`, `mcpr_embedding_block`) in your
/// own `CallToolResult`, or send `mcpr_embedding_tool_result_json`.
///
/// \param resources A registry reference.
/// \param uris The URIs, as an array of `uri_count` strings (NULL when
///   `uri_count` is 0).
/// \param uri_count How many URIs (at most `max_plan_targets`, else
///   `MCPR_INVALID_REQUEST`).
/// \param options The embed options (deadline, cancellation, request data,
///   executor, protocol revision, form, over-budget links, result `_meta`,
///   trace context), or NULL for all defaults; read during the call only.
/// \param out Receives the embedding on success; the caller owns it: free
///   it with `mcpr_embedding_free`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK` (also when some URIs gave nothing);
///   `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `out`, a NULL `uris`
///   with a non-zero count, a string breaking the `mcpr_str` rules, an
///   unknown protocol revision or form, `MCPR_EMBED_LINK` before
///   2025-06-18, a trace member that is not UTF-8, or options with a bad `struct_size`
///   or set fields beyond it that this library does not know;
///   `MCPR_INVALID_REQUEST` for more URIs than `max_plan_targets`;
///   `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`; `MCPR_READ_FAILED` when the
///   executor is saturated at the start (the embedding is one call, as a
///   read is); `MCPR_SIZE` when the blocks exceed `max_encoded_bytes` minus
///   the wire reserve.
/// \pre `resources` is NULL or a live registry reference when the call is
///   made: one that no other thread may be releasing at that moment.
/// \pre `uris` is NULL or points at `uri_count` readable `mcpr_str`, each
///   following the `mcpr_str` rules; `options` is NULL or points at options
///   of `struct_size` readable bytes whose `cancel`, `executor` and
///   `result_meta` are NULL or not yet freed and whose `protocol_revision`
///   and `trace` members follow the `mcpr_str` rules; `out` is NULL or points at writable storage for one
///   `mcpr_embedding *`; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \post The call holds its own registry reference from entry to return, as
///   `mcpr_read` does.
/// \note Thread-safe: many threads may embed from one registry at once.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embed(
    resources: *const mcpr_resources,
    uris: *const mcpr_str,
    uri_count: usize,
    options: *const mcpr_embed_options,
    out: *mut *mut mcpr_embedding,
    err: *mut *mut mcpr_error,
) -> super::status::mcpr_status {
    let body = || {
        let r = unsafe { super::resources::resources(resources) }?;
        need_out(out)?;
        // SAFETY: `uris` holds `uri_count` strings (caller's guarantee).
        let uris = unsafe { uris_of(uris, uri_count) }?;
        // SAFETY: `options` is NULL or points at options (caller's guarantee).
        let options = unsafe { embed_options_of(options) }?;
        let embedding = r.inner.embed(&uris, &options).map_err(Error::from)?;
        unsafe { write_handle(out, mcpr_embedding::new(embedding)) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}
