//! The payload builder a body `read` callback fills (`mcpr_payload_*`).

use super::hints::hints_of;
use crate::cache::CacheHints;
use crate::error::{Failure, FailureKind};
use crate::jsonbytes::scan_text;
use crate::plan::{ResourcePayload, SharedBytes, SharedText};
use crate::sizing::copy_text;
use std::os::raw::c_void;
use std::sync::Mutex;

use super::boundary::mcpr_str;
use super::error::{guard_status, mcpr_error};
use super::handle::{handle_ref, Handle, Lent};
use super::hints::mcpr_cache_hints;
use super::host::{mcpr_release_fn, HostPtr, Release};
use super::status::{mcpr_status, Error};

/// The payload a body `read` callback fills (borrowed, valid until the
/// callback returns; the library copies everything it is given, except
/// what the `_borrowed` setters lend it until their release callback).
/// Internally locked: the setters may be called from any thread while the
/// callback runs, also concurrently.
///
/// \ingroup callbacks
pub struct mcpr_payload_builder {
    pub(super) state: Mutex<PayloadState>,
}

impl Handle for mcpr_payload_builder {
    type Kind = Lent;
}

/// The contents of a payload builder.
pub(super) struct PayloadState {
    pub(super) payload: Option<ResourcePayload>,
    pub(super) meta: Option<String>,
    pub(super) refused: Option<Failure>,
    /// Set by `mcpr_payload_set_cache_hints`.
    pub(super) cache: Option<crate::cache::CacheHints>,
}

impl mcpr_payload_builder {
    /// Locks the contents.
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, PayloadState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl PayloadState {
    pub(super) fn finish(self) -> Result<ResourcePayload, Failure> {
        if let Some(f) = self.refused {
            return Err(f);
        }
        let Some(payload) = self.payload else {
            return Err(Failure::with_message(
                FailureKind::InvalidContent,
                "reader returned MCPR_CB_OK without setting a body",
            ));
        };
        let payload = match self.cache {
            Some(hints) => payload.with_cache_hints(hints)?,
            None => payload,
        };
        match self.meta {
            Some(meta) => payload.with_meta_json(&meta),
            None => Ok(payload),
        }
    }

    pub(super) fn refuse(&mut self, e: Failure) -> Error {
        let out = Error::from(Failure::with_message(e.kind(), e.message().to_string()));
        self.refused.get_or_insert(e);
        out
    }

    /// Records that a setter was refused for a bad argument, returning `e`.
    pub(super) fn refuse_argument(&mut self, e: Error) -> Error {
        self.refused.get_or_insert(Failure::with_message(
            FailureKind::InvalidContent,
            "a payload setter was refused",
        ));
        e
    }

    /// The media type and bytes given to a blob setter; a bad one refuses
    /// the payload.
    ///
    /// # Safety
    /// `mime_type` follows the `mcpr_str` rules; `data` is NULL or points at
    /// `data_len` readable bytes that outlive `'a`.
    unsafe fn blob_arguments<'a>(
        &mut self,
        mime_type: mcpr_str,
        data: *const u8,
        data_len: usize,
    ) -> Result<(&'a str, &'a [u8]), Error> {
        let blob = mcpr_str {
            ptr: data.cast(),
            len: data_len,
        };
        let parts = unsafe {
            (
                mime_type.text(FailureKind::InvalidContent, "payload MIME type"),
                blob.bytes(),
            )
        };
        match parts {
            (Ok(m), Ok(b)) => Ok((m, b)),
            (Err(e), _) | (_, Err(e)) => Err(self.refuse_argument(e)),
        }
    }

    fn set_body(
        &mut self,
        made: impl FnOnce() -> Result<ResourcePayload, Failure>,
    ) -> Result<(), Error> {
        if self.payload.is_some() {
            return Err(self.refuse(Failure::with_message(
                FailureKind::InvalidContent,
                "payload body already set",
            )));
        }
        match made() {
            Ok(p) => {
                self.payload = Some(p);
                Ok(())
            }
            Err(e) => Err(self.refuse(e)),
        }
    }
}

/// # Safety
/// `o` is NULL or a live payload builder.
pub(super) unsafe fn payload_ref<'a>(
    o: *mut mcpr_payload_builder,
) -> Result<&'a mcpr_payload_builder, Error> {
    // Only shared references are made (the contents are behind a mutex),
    // so concurrent calls from several threads are sound.
    unsafe { handle_ref(o) }.ok_or_else(|| Error::argument("payload builder is NULL"))
}

/// Sets a text body (copied). Exactly one body per payload: a second body
/// setter is refused. A refused setter makes the item an `invalid_content`
/// issue even if the callback then returns `MCPR_CB_OK`.
///
/// \param payload The payload builder of the body `read` callback.
/// \param mime_type An RFC 9110 media type.
/// \param text The text: valid UTF-8, may be empty.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type, invalid
///   UTF-8 or a second body; `MCPR_INVALID_ARGUMENT` for a NULL `payload` or a
///   `(NULL, n > 0)` string.
/// \pre `mime_type` and `text` follow the `mcpr_str` rules.
/// \pre `payload` is NULL or the payload builder the library passed to a body
///   `read` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the payload setters, also
///   concurrently, while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_text(
    payload: *mut mcpr_payload_builder,
    mime_type: mcpr_str,
    text: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let o = unsafe { payload_ref(payload) }?;
        let mut o = o.lock();
        let content = FailureKind::InvalidContent;
        let texts = unsafe { (mime_type.text(content, "payload MIME type"), text.bytes()) };
        let (mime, text) = match texts {
            (Ok(m), Ok(t)) => (m, t),
            (Err(e), _) | (_, Err(e)) => return Err(o.refuse_argument(e)),
        };
        // One pass copies the text, checks it for non-ASCII bytes and
        // counts its escaping for sizing; only non-ASCII text is then
        // validated as UTF-8.
        let copied = copy_text(text);
        if !copied.ascii && std::str::from_utf8(text).is_err() {
            return Err(o.refuse_argument(Error::not_utf8(content, "payload text")));
        }
        // SAFETY: ASCII, or just validated as UTF-8.
        let text = unsafe { String::from_utf8_unchecked(copied.bytes) };
        let extra = copied.escape_extra;
        o.set_body(|| ResourcePayload::text_copied(mime, text, extra))
    };
    unsafe { guard_status(err, body) }
}

/// Sets a binary body (the bytes are copied; may be empty; sent base64). Same
/// rules as `mcpr_payload_set_text`.
///
/// \param payload The payload builder of the body `read` callback.
/// \param mime_type An RFC 9110 media type.
/// \param data The bytes; may be NULL when `data_len` is 0.
/// \param data_len The number of bytes at `data`.
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type or a second
///   body; `MCPR_INVALID_ARGUMENT` for a NULL `payload`, a `(NULL, n > 0)`
///   string or NULL `data` with a non-zero `data_len`.
/// \pre `mime_type` follows the `mcpr_str` rules; `data` is NULL (with
///   `data_len` 0) or points at `data_len` readable bytes.
/// \pre `payload` is NULL or the payload builder the library passed to a body
///   `read` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the payload setters, also
///   concurrently, while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_blob(
    payload: *mut mcpr_payload_builder,
    mime_type: mcpr_str,
    data: *const u8,
    data_len: usize,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let o = unsafe { payload_ref(payload) }?;
        let mut o = o.lock();
        let (mime, bytes) = unsafe { o.blob_arguments(mime_type, data, data_len) }?;
        o.set_body(|| ResourcePayload::blob(mime, bytes))
    };
    unsafe { guard_status(err, body) }
}

/// Host bytes lent to a payload (`mcpr_payload_set_blob_borrowed`,
/// `mcpr_payload_set_text_borrowed`) until its release callback runs, when
/// this is dropped.
struct LentBytes {
    data: HostPtr,
    len: usize,
    release: Release,
}

impl LentBytes {
    /// The host's `len` bytes at `data`, released through `release` with
    /// `release_data` (unchecked here: the setter checks them).
    fn new(
        data: *const u8,
        len: usize,
        release: mcpr_release_fn,
        release_data: *mut c_void,
    ) -> Self {
        LentBytes {
            data: HostPtr(data.cast_mut().cast()),
            len,
            release: Release {
                ud: HostPtr(release_data),
                release,
            },
        }
    }
}

impl AsRef<[u8]> for LentBytes {
    fn as_ref(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: checked non-NULL with `len <= isize::MAX` when lent; the
        // host keeps the bytes valid and unchanged until `release` runs,
        // which is when this is dropped.
        unsafe { std::slice::from_raw_parts(self.data.0.cast::<u8>(), self.len) }
    }
}

/// The lent bytes as shared bytes: without a release callback they outlive
/// every read (the setters' contract) and are shared without an owner (no
/// allocation); with one, its owner runs it when the last share is dropped.
fn shared_lent(lent: LentBytes) -> SharedBytes {
    if lent.release.release.is_none() {
        let bytes: &[u8] = lent.as_ref();
        // SAFETY: without a release callback the host keeps the bytes valid
        // and unchanged for longer than any read may look at them (the
        // setters' documented contract: static storage, or storage that
        // outlives every read), which is as long as the library holds them.
        let bytes: &'static [u8] =
            unsafe { std::slice::from_raw_parts(bytes.as_ptr(), bytes.len()) };
        return SharedBytes::from_static(bytes);
    }
    SharedBytes::new(lent)
}

/// Sets a text body without copying it: the library checks the text (UTF-8)
/// when it is set and escapes it straight from `text` into the result JSON,
/// so a text body costs no copy and no allocation of its own.
///
/// Ownership: the bytes stay the host's. The library calls
/// `release(release_data)` exactly once, on any thread, whatever this
/// function returns: when the read has written its result or no longer
/// needs the payload (before `mcpr_read` returns, except for a body read
/// abandoned on an executor: then once its late payload is discarded), or,
/// when the setter is refused, before it returns. Until then the bytes must
/// stay valid and unchanged. With a NULL `release` the bytes must outlive
/// every read of the registry (static storage, or a buffer the host frees
/// only after the registry's last reference is gone). Otherwise the same
/// rules as `mcpr_payload_set_text`.
///
/// \param payload The payload builder of the body `read` callback.
/// \param mime_type An RFC 9110 media type (copied).
/// \param text The text: valid UTF-8, may be empty; lent, not copied.
/// \param release Called once with `release_data` when the library no
///   longer reads `text`; may be NULL for text that outlives every read
///   (static storage). It must not call the library with this payload
///   builder.
/// \param release_data Passed to `release` (may be NULL).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type, invalid
///   UTF-8 or a second body; `MCPR_INVALID_ARGUMENT` for a NULL `payload` or
///   a `(NULL, n > 0)` string. `release` runs in every case.
/// \pre `mime_type` follows the `mcpr_str` rules; `text` follows them and
///   its bytes stay valid and unchanged until `release` runs (or, with a
///   NULL `release`, for longer than any read of the registry); `release` is
///   NULL or safe to call once with `release_data` from any thread.
/// \pre `payload` is NULL or the payload builder the library passed to a body
///   `read` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the payload setters, also
///   concurrently, while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_text_borrowed(
    payload: *mut mcpr_payload_builder,
    mime_type: mcpr_str,
    text: mcpr_str,
    release: mcpr_release_fn,
    release_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // Made first, so that `release` runs exactly once on every path (a
    // refusal, a panic, or the payload's end).
    let mut lent = Some(LentBytes::new(
        text.ptr.cast(),
        text.len,
        release,
        release_data,
    ));
    let body = || {
        let o = unsafe { payload_ref(payload) }?;
        let mut o = o.lock();
        let content = FailureKind::InvalidContent;
        let texts = unsafe { (mime_type.text(content, "payload MIME type"), text.bytes()) };
        let (mime, bytes) = match texts {
            (Ok(m), Ok(t)) => (m, t),
            (Err(e), _) | (_, Err(e)) => return Err(o.refuse_argument(e)),
        };
        // One pass checks for non-ASCII bytes and counts the escaping for
        // sizing; only non-ASCII text is then validated as UTF-8.
        let (ascii, extra) = scan_text(bytes);
        if !ascii && std::str::from_utf8(bytes).is_err() {
            return Err(o.refuse_argument(Error::not_utf8(content, "payload text")));
        }
        // SAFETY: ASCII, or just validated as UTF-8; the host keeps the
        // bytes unchanged while they are lent.
        let shared = lent
            .take()
            .map(|l| unsafe { SharedText::new_unchecked(shared_lent(l)) });
        o.set_body(|| match shared {
            Some(t) => ResourcePayload::text_shared_scanned(mime, t, extra),
            None => Err(Failure::with_message(
                FailureKind::InvalidContent,
                "text already handed over",
            )),
        })
    };
    let status = unsafe { guard_status(err, body) };
    // A refused setter releases here, with no lock of the library held.
    drop(lent);
    status
}

/// Sets a binary body without copying it (may be empty; sent base64): the
/// library encodes the bytes at `data` straight into the result JSON, so a
/// large blob costs no second copy of its bytes.
///
/// The library calls `release(release_data)` exactly once, on any thread,
/// whatever this function returns: when the read has written its result or
/// no longer needs the payload (before `mcpr_read` returns, except for a body
/// read abandoned on an executor: then once its late payload is discarded),
/// or, when the setter is refused, before it returns. Otherwise the same
/// rules as `mcpr_payload_set_blob`.
///
/// \param payload The payload builder of the body `read` callback.
/// \param mime_type An RFC 9110 media type.
/// \param data The bytes; may be NULL when `data_len` is 0.
/// \param data_len The number of bytes at `data`.
/// \param release Called once with `release_data` when the library no
///   longer reads `data`; may be NULL for bytes that outlive every read
///   (static storage). It must not call the library with this payload
///   builder.
/// \param release_data Passed to `release` (may be NULL).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type or a second
///   body; `MCPR_INVALID_ARGUMENT` for a NULL `payload`, a `(NULL, n > 0)`
///   string or NULL `data` with a non-zero `data_len`. `release` runs in
///   every case.
/// \pre `mime_type` follows the `mcpr_str` rules; `data` is NULL (with
///   `data_len` 0) or points at `data_len` readable bytes that stay valid and
///   unchanged until `release` runs; `release` is NULL or safe to call once
///   with `release_data` from any thread.
/// \pre `payload` is NULL or the payload builder the library passed to a body
///   `read` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the payload setters, also
///   concurrently, while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_blob_borrowed(
    payload: *mut mcpr_payload_builder,
    mime_type: mcpr_str,
    data: *const u8,
    data_len: usize,
    release: mcpr_release_fn,
    release_data: *mut c_void,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    // Made first, so that `release` runs exactly once on every path (a
    // refusal, a panic, or the payload's end).
    let mut lent = Some(LentBytes::new(data, data_len, release, release_data));
    let body = || {
        let o = unsafe { payload_ref(payload) }?;
        let mut o = o.lock();
        let (mime, _) = unsafe { o.blob_arguments(mime_type, data, data_len) }?;
        let bytes = lent.take().map(shared_lent);
        o.set_body(|| match bytes {
            Some(b) => ResourcePayload::blob_shared(mime, b),
            None => Err(Failure::with_message(
                FailureKind::InvalidContent,
                "blob bytes already handed over",
            )),
        })
    };
    let status = unsafe { guard_status(err, body) };
    // A refused setter releases here, with no lock of the library held.
    drop(lent);
    status
}

/// Sets the item's `_meta` (copied; a later call replaces it). A refused setter
/// makes the item an `invalid_content` issue even if the callback then returns
/// `MCPR_CB_OK`.
///
/// \param payload The payload builder of the body `read` callback.
/// \param meta_json A JSON object of at most 64 KiB that does not use the
///   reserved key `go.phpboyscout.uk/mcp.resourceRead` at any depth, held to
///   the rules definitions are held to (nesting at most 127 deep, no object
///   repeating a key at any depth, no lone surrogate escape, no number out of
///   range such as `1e999`).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for JSON breaking those rules;
///   `MCPR_INVALID_ARGUMENT` for a NULL `payload` or a `(NULL, n > 0)` string.
/// \pre `meta_json` follows the `mcpr_str` rules.
/// \pre `payload` is NULL or the payload builder the library passed to a body
///   `read` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the payload setters, also
///   concurrently, while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_meta(
    payload: *mut mcpr_payload_builder,
    meta_json: mcpr_str,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let o = unsafe { payload_ref(payload) }?;
        let mut o = o.lock();
        let meta = match unsafe { meta_json.text(FailureKind::InvalidContent, "payload _meta") } {
            Ok(m) => m,
            Err(e) => return Err(o.refuse_argument(e)),
        };
        match crate::plan::parse_meta(meta) {
            Ok(_) => {
                o.meta = Some(meta.to_string());
                Ok(())
            }
            Err(e) => Err(o.refuse(e)),
        }
    };
    unsafe { guard_status(err, body) }
}

/// Declares this item's cache hints (copied; a later call replaces them). They
/// can only lower what its binding declared: the item's TTL is the smaller of
/// the two, and it is caller-independent only when both say so; a bundle's TTL
/// is the smallest of its items'. A refused setter makes the item an
/// `invalid_content` issue even if the callback then returns `MCPR_CB_OK`.
///
/// \param payload The payload builder of the body `read` callback.
/// \param hints The hints (`struct_size` set, see `mcpr_cache_hints`).
/// \param err Receives an error object on failure (caller owns it; free with
///   `mcpr_error_free`); may be NULL.
/// \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `payload` or `hints`,
///   or hints with a bad `struct_size` or set fields beyond it that this
///   library does not know; `MCPR_INVALID_CONTENT` for a TTL above
///   `MCPR_MAX_TTL_MS`.
/// \pre `hints` is NULL or points at hints of `struct_size` readable bytes.
/// \pre `payload` is NULL or the payload builder the library passed to a body
///   `read` callback that has not returned yet; `err` is NULL or points at
///   writable storage for one `mcpr_error *`.
/// \note Thread-safe: any thread may call the payload setters, also
///   concurrently, while the callback runs.
///
/// \ingroup callbacks
#[no_mangle]
pub unsafe extern "C" fn mcpr_payload_set_cache_hints(
    payload: *mut mcpr_payload_builder,
    hints: *const mcpr_cache_hints,
    err: *mut *mut mcpr_error,
) -> mcpr_status {
    let body = || {
        let o = unsafe { payload_ref(payload) }?;
        let mut o = o.lock();
        let hints = match unsafe { hints_of(hints) } {
            Ok(h) => h,
            Err(e) => return Err(o.refuse_argument(e)),
        };
        if let Err(why) = CacheHints::check_ttl(hints.ttl_ms) {
            return Err(o.refuse(Failure::with_message(FailureKind::InvalidContent, why)));
        }
        o.cache = Some(hints);
        Ok(())
    };
    unsafe { guard_status(err, body) }
}
