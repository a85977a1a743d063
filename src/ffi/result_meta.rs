//! Host result `_meta` members (`mcpr_result_meta_*`).

use crate::result_meta::ResultMeta;

use super::boundary::{guard, mcpr_str};
use super::error::{guard_status, mcpr_error};
use super::handle::{free_handle, handle_ref, need_out, write_handle, Boxed, Handle};
use super::status::mcpr_status;

/// Result `_meta` members the host adds to every result of the calls given
/// it (for example `io.modelcontextprotocol/serverInfo`, which MCP asks
/// servers to put in every result), validated once by
/// `mcpr_result_meta_new` and then shared by any number of calls on any
/// threads. Immutable; free with `mcpr_result_meta_free`.
///
/// \ingroup request
pub struct mcpr_result_meta {
    pub(super) inner: ResultMeta,
}

impl Handle for mcpr_result_meta {
    type Kind = Boxed;
}

/// Validates result `_meta` members once: a JSON object held to the rules
/// definitions are held to (no repeated key at any depth, no lone
/// surrogate, no non-finite number, nesting at most 127 deep), at most
/// 63 KiB compact (the result `_meta` holds 64 KiB, the library's own members
/// need the rest), without the library's reserved key
/// `go.phpboyscout.uk/mcp.resourceRead` anywhere (the only key the library
/// writes into a result `_meta`). Calls given it in their options merge
/// its members into the `_meta` of every result they make, after the
/// library's own members, which are never replaced.
///
/// \param json The object, e.g. `{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`.
/// \param out Receives the new handle (caller owns it; free with
///   `mcpr_result_meta_free`); written only on success.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for JSON that breaks the
///   rules above (the message says which); `MCPR_INVALID_ARGUMENT` for a
///   NULL `out` or a `(NULL, n > 0)` string.
/// \pre `json` follows the `mcpr_str` rules; `out` is NULL or valid for one
///   pointer write; `err` is NULL or points at writable storage for one
///   `mcpr_error *`.
/// \post On success `*out` is a new handle the caller owns.
/// \note Thread-safe: any thread may create handles.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_result_meta_new(
    json: mcpr_str,
    out: *mut *mut mcpr_result_meta,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        need_out(out)?;
        let text = unsafe { json.bytes() }?;
        let text = std::str::from_utf8(text).map_err(|_| {
            crate::error::Failure::config("result _meta is not valid JSON (not UTF-8)")
        })?;
        let inner = ResultMeta::from_json(text)?;
        unsafe { write_handle(out, mcpr_result_meta { inner }) };
        Ok(())
    };
    unsafe { guard_status(err, body) }
}

/// The compact JSON of the members (without the enclosing braces; empty for
/// `{}`), as they are merged into results.
///
/// \param meta The handle, or NULL.
/// \return The members, borrowed from `meta` (valid until it is freed; not
///   NUL-terminated); empty when `meta` is NULL.
/// \pre `meta` is NULL or a handle from `mcpr_result_meta_new`, not yet
///   freed.
/// \note Thread-safe: the handle is immutable; any thread may read it.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_result_meta_members(meta: *const mcpr_result_meta) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(meta) }
            .map_or_else(mcpr_str::empty, |m| mcpr_str::from_str(m.inner.members()))
    })
}

/// Frees a result `_meta` handle. Calls in flight that were given it keep
/// their own reference, so it may be freed as soon as they have begun.
///
/// \param meta The handle to free, or NULL (then nothing happens).
/// \pre `meta` is NULL or a handle from `mcpr_result_meta_new`, freed only
///   once; no thread uses this handle afterwards (including to start a call
///   with it).
/// \note Any thread may free it, once no other thread uses the handle.
///
/// \ingroup request
#[no_mangle]
pub unsafe extern "C" fn mcpr_result_meta_free(meta: *mut mcpr_result_meta) {
    guard(|| unsafe { free_handle(meta) })
}

/// The members behind a handle given in call options.
///
/// # Safety
/// `m` is NULL or a live handle.
pub(super) unsafe fn result_meta_of(m: *const mcpr_result_meta) -> Option<ResultMeta> {
    unsafe { handle_ref(m) }.map(|m| m.inner.clone())
}
