//! Payloads: what a body read returns (a media type, text or blob, owned
//! or shared without a copy, optional `_meta`), and the checks of media
//! types and application `_meta`. Re-exported from [`crate::plan`].

use std::borrow::Cow;
use std::sync::Arc;

use crate::cache::CacheHints;

use crate::error::{Failure, FailureKind};
use crate::jsonscan::{self, Kind, Refusal};
use crate::limits::MAX_META_BYTES;
use crate::plan::RESERVED_META_KEY;

/// The body of a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayloadBody {
    /// UTF-8 text (may be empty).
    Text(String),
    /// Raw bytes (may be empty), sent base64-encoded.
    Blob(Vec<u8>),
    /// Raw bytes owned elsewhere and shared without a copy (may be empty),
    /// sent base64-encoded like [`Blob`](Self::Blob).
    SharedBlob(SharedBytes),
    /// UTF-8 text owned elsewhere and shared without a copy (may be empty),
    /// sent like [`Text`](Self::Text): escaped straight into the result.
    SharedText(SharedText),
}

impl PayloadBody {
    /// The raw bytes of a blob body (either kind); `None` for text.
    pub fn blob_bytes(&self) -> Option<&[u8]> {
        match self {
            PayloadBody::Text(_) | PayloadBody::SharedText(_) => None,
            PayloadBody::Blob(b) => Some(b),
            PayloadBody::SharedBlob(b) => Some(b.as_bytes()),
        }
    }

    /// The text of a text body (either kind); `None` for a blob.
    pub fn text(&self) -> Option<&str> {
        match self {
            PayloadBody::Text(t) => Some(t),
            PayloadBody::SharedText(t) => Some(t.as_str()),
            PayloadBody::Blob(_) | PayloadBody::SharedBlob(_) => None,
        }
    }
}

/// UTF-8 text owned elsewhere, shared without a copy: [`SharedBytes`]
/// checked once to be UTF-8. A payload made with
/// [`ResourcePayload::text_shared`] copies no byte of it before the result
/// is written.
#[derive(Clone, PartialEq, Eq)]
pub struct SharedText(SharedBytes);

impl SharedText {
    /// The text of `bytes`, or `None` when they are not UTF-8.
    pub fn new(bytes: SharedBytes) -> Option<Self> {
        std::str::from_utf8(bytes.as_bytes()).ok()?;
        Some(SharedText(bytes))
    }

    /// Text in static storage (no allocation, no copy).
    pub fn from_static(text: &'static str) -> Self {
        SharedText(SharedBytes::from_static(text.as_bytes()))
    }

    /// Bytes already known to be UTF-8.
    ///
    /// # Safety
    /// `bytes.as_bytes()` is valid UTF-8, every time.
    pub(crate) unsafe fn new_unchecked(bytes: SharedBytes) -> Self {
        SharedText(bytes)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // SAFETY: checked (or known) to be UTF-8 when made, and the
        // owner gives the same bytes every time (`SharedBytes`'s rule).
        unsafe { std::str::from_utf8_unchecked(self.0.as_bytes()) }
    }
}

impl std::fmt::Debug for SharedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedText")
            .field("len", &self.as_str().len())
            .finish()
    }
}

/// Blob bytes owned elsewhere (a memory map, a cache entry, a host
/// buffer), shared by reference counting: a payload made with
/// [`ResourcePayload::blob_shared`] copies no byte, and the bytes are
/// base64-encoded straight into the result. The owner is dropped when the
/// last clone is (after the read has written the result, or when an
/// abandoned read's late payload is discarded), on any thread. Its
/// `as_ref()` must give the same bytes every time.
#[derive(Clone)]
pub struct SharedBytes(Shared);

/// The owner of shared bytes: reference-counted, or none (static bytes).
#[derive(Clone)]
enum Shared {
    Counted(Arc<dyn AsRef<[u8]> + Send + Sync>),
    Static(&'static [u8]),
}

impl SharedBytes {
    /// Shares the bytes of `owner` (one allocation for the reference
    /// count; the bytes are not copied).
    pub fn new(owner: impl AsRef<[u8]> + Send + Sync + 'static) -> Self {
        SharedBytes(Shared::Counted(Arc::new(owner)))
    }

    /// Shares the bytes of an owner already behind an `Arc`.
    pub fn from_arc(owner: Arc<dyn AsRef<[u8]> + Send + Sync>) -> Self {
        SharedBytes(Shared::Counted(owner))
    }

    /// Bytes in static storage (no allocation, no reference count).
    pub fn from_static(bytes: &'static [u8]) -> Self {
        SharedBytes(Shared::Static(bytes))
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Shared::Counted(owner) => (**owner).as_ref(),
            Shared::Static(bytes) => bytes,
        }
    }
}

impl std::ops::Deref for SharedBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl std::fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedBytes")
            .field("len", &self.as_bytes().len())
            .finish()
    }
}

/// Equal when the bytes are equal.
impl PartialEq for SharedBytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for SharedBytes {}

/// What a body read returns: a MIME type, text or blob, optional `_meta`.
/// It carries no URI: the gateway binds it to its authorized target.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourcePayload {
    /// Borrowed when it is one of [`COMMON_MEDIA_TYPES`] (no allocation
    /// per read for the usual types).
    mime_type: Cow<'static, str>,
    body: PayloadBody,
    /// Boxed: most payloads have none, and a smaller payload is cheaper to
    /// move through the pipeline.
    meta: Option<Box<serde_json::Map<String, serde_json::Value>>>,
    cache: Option<CacheHints>,
    /// The escaping extra of a text body, when the copy that made it
    /// counted it (sizing then does not scan the text again).
    text_escape: KnownEscape,
}

/// A text body's escaping extra, when known. Derived from the body, so it
/// takes no part in comparisons.
#[derive(Debug, Clone, Copy, Default)]
struct KnownEscape(Option<usize>);

impl PartialEq for KnownEscape {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Media types a payload keeps without a copy of their own, compared
/// exactly (a type spelled differently is copied as given).
pub(crate) const COMMON_MEDIA_TYPES: [&str; 6] = [
    "text/plain",
    "application/json",
    "application/octet-stream",
    "text/markdown",
    "text/html",
    "text/plain; charset=utf-8",
];

/// `mime_type` kept as given (borrowed when it is a common type, which is
/// valid without a parse); `None` when it is not an RFC 9110 media type.
fn kept_media_type(mime_type: &str) -> Option<Cow<'static, str>> {
    match COMMON_MEDIA_TYPES.iter().find(|c| **c == mime_type) {
        Some(c) => Some(Cow::Borrowed(c)),
        None => is_media_type(mime_type).then(|| Cow::Owned(mime_type.to_string())),
    }
}

fn content_error(message: &'static str) -> Failure {
    Failure::with_message(FailureKind::InvalidContent, message)
}

impl ResourcePayload {
    /// A text payload.
    pub fn text(mime_type: &str, text: &str) -> Result<Self, Failure> {
        Self::with_body(mime_type, PayloadBody::Text(text.to_string()))
    }

    /// A text payload taking ownership of `text`.
    pub fn text_owned(mime_type: &str, text: String) -> Result<Self, Failure> {
        Self::with_body(mime_type, PayloadBody::Text(text))
    }

    /// A blob payload.
    pub fn blob(mime_type: &str, data: &[u8]) -> Result<Self, Failure> {
        Self::with_body(mime_type, PayloadBody::Blob(data.to_vec()))
    }

    /// A blob payload taking ownership of `data`.
    pub fn blob_owned(mime_type: &str, data: Vec<u8>) -> Result<Self, Failure> {
        Self::with_body(mime_type, PayloadBody::Blob(data))
    }

    /// A blob payload over bytes owned elsewhere, shared without a copy
    /// (see [`SharedBytes`]).
    pub fn blob_shared(mime_type: &str, data: SharedBytes) -> Result<Self, Failure> {
        Self::with_body(mime_type, PayloadBody::SharedBlob(data))
    }

    /// A text payload whose text is owned elsewhere and shared without a
    /// copy (see [`SharedText`]): it is escaped straight into the result.
    pub fn text_shared(mime_type: &str, text: SharedText) -> Result<Self, Failure> {
        Self::with_body(mime_type, PayloadBody::SharedText(text))
    }

    /// [`text_shared`](Self::text_shared) with the text's escaping extra
    /// already counted (the C ABI's borrowed text setter scans the text
    /// once, for UTF-8 and escaping, when it is set).
    pub(crate) fn text_shared_scanned(
        mime_type: &str,
        text: SharedText,
        escape_extra: usize,
    ) -> Result<Self, Failure> {
        let mut payload = Self::text_shared(mime_type, text)?;
        payload.text_escape = KnownEscape(Some(escape_extra));
        Ok(payload)
    }

    fn with_body(mime_type: &str, body: PayloadBody) -> Result<Self, Failure> {
        let Some(mime_type) = kept_media_type(mime_type) else {
            return Err(content_error("payload MIME type is invalid"));
        };
        Ok(ResourcePayload {
            mime_type,
            body,
            meta: None,
            cache: None,
            text_escape: KnownEscape(None),
        })
    }

    /// A text payload over text already copied by
    /// [`copy_text`](crate::jsonbytes::copy_text), whose escaping extra that
    /// copy counted.
    pub(crate) fn text_copied(
        mime_type: &str,
        text: String,
        escape_extra: usize,
    ) -> Result<Self, Failure> {
        let mut payload = Self::with_body(mime_type, PayloadBody::Text(text))?;
        payload.text_escape = KnownEscape(Some(escape_extra));
        Ok(payload)
    }

    /// The escaping extra of the text body, when it is known without a scan.
    pub(crate) fn known_text_escape_extra(&self) -> Option<usize> {
        self.text_escape.0
    }

    /// Attaches `_meta` given as JSON text, checked by [`parse_meta`].
    /// Errors are `invalid_content`.
    pub fn with_meta_json(mut self, meta_json: &str) -> Result<Self, Failure> {
        self.meta = Some(Box::new(parse_meta(meta_json)?));
        Ok(self)
    }

    /// Declares this item's cache hints: its TTL, and whether its content
    /// is the same for every caller. They can only lower what the binding
    /// declared (the smaller TTL; caller-independent only when both say so).
    /// A TTL above 2^53 - 1 is `invalid_content`.
    pub fn with_cache_hints(mut self, hints: CacheHints) -> Result<Self, Failure> {
        CacheHints::check_ttl(hints.ttl_ms).map_err(content_error)?;
        self.cache = Some(hints);
        Ok(self)
    }

    /// The item's declared cache hints, if any.
    pub fn cache_hints(&self) -> Option<CacheHints> {
        self.cache
    }

    /// The MIME type.
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }

    /// Whether the MIME type is one of [`COMMON_MEDIA_TYPES`] (none of
    /// which needs JSON escaping).
    pub(crate) fn has_common_media_type(&self) -> bool {
        matches!(self.mime_type, Cow::Borrowed(_))
    }

    /// The body.
    pub fn body(&self) -> &PayloadBody {
        &self.body
    }

    /// The `_meta` object, if any.
    pub fn meta(&self) -> Option<&serde_json::Map<String, serde_json::Value>> {
        self.meta.as_deref()
    }

    /// Payload bytes: text bytes or raw blob bytes.
    pub fn payload_bytes(&self) -> u64 {
        match &self.body {
            PayloadBody::Text(t) => t.len() as u64,
            PayloadBody::Blob(b) => b.len() as u64,
            PayloadBody::SharedBlob(b) => b.len() as u64,
            PayloadBody::SharedText(t) => t.as_str().len() as u64,
        }
    }
}

/// Parses application `_meta`: a JSON object of at most 64 KiB (as given),
/// held to the rules registered definitions are held to (nesting at most
/// 127 deep, no lone surrogate escape, no number out of range such as
/// `1e999`, no object repeating a key at any depth) and without the
/// reserved key at any depth. Errors are `invalid_content`.
pub fn parse_meta(json: &str) -> Result<serde_json::Map<String, serde_json::Value>, Failure> {
    if json.len() > MAX_META_BYTES {
        return Err(content_error("_meta exceeds 64 KiB"));
    }
    match jsonscan::check(json, Some(RESERVED_META_KEY)) {
        Ok(Kind::Object) => {}
        Ok(_) => return Err(content_error("_meta is not a JSON object")),
        Err(Refusal::Invalid(e)) => {
            return Err(Failure::with_message(
                FailureKind::InvalidContent,
                format!("_meta is not valid JSON: {e}"),
            )
            .caused_by(e))
        }
        Err(Refusal::DuplicateKey) => return Err(content_error("_meta repeats an object key")),
        Err(Refusal::ReservedKey) => return Err(content_error("_meta uses the reserved key")),
    }
    // The scan accepted it, so serde_json does too (the scanner's
    // differential tests hold them to each other).
    serde_json::from_str(json).map_err(|e| content_error("_meta is not valid JSON").caused_by(e))
}

/// Whether the reserved metadata key appears as an object key at any depth.
pub fn uses_reserved_key(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(map) => map
            .iter()
            .any(|(k, v)| k == RESERVED_META_KEY || uses_reserved_key(v)),
        serde_json::Value::Array(items) => items.iter().any(uses_reserved_key),
        _ => false,
    }
}

/// RFC 9110 `tchar`, one table lookup per byte (media types are checked
/// on every body read).
const TCHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        c += 1;
    }
    t
};

#[inline]
fn is_tchar(c: u8) -> bool {
    TCHAR[c as usize]
}

/// RFC 9110 media type: `type "/" subtype *( OWS ";" OWS parameter )`,
/// parameter = `token "=" ( token / quoted-string )`; at most 255 bytes.
pub fn is_media_type(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 255 {
        return false;
    }
    let mut i = 0;
    let token = |i: &mut usize| -> bool {
        let start = *i;
        while *i < b.len() && is_tchar(b[*i]) {
            *i += 1;
        }
        *i > start
    };
    let ows = |i: &mut usize| {
        while *i < b.len() && (b[*i] == b' ' || b[*i] == b'\t') {
            *i += 1;
        }
    };
    if !token(&mut i) || i >= b.len() || b[i] != b'/' {
        return false;
    }
    i += 1;
    if !token(&mut i) {
        return false;
    }
    loop {
        ows(&mut i);
        if i == b.len() {
            // Trailing whitespace after the subtype or a parameter is not allowed.
            return b[b.len() - 1] != b' ' && b[b.len() - 1] != b'\t';
        }
        if b[i] != b';' {
            return false;
        }
        i += 1;
        ows(&mut i);
        if !token(&mut i) || i >= b.len() || b[i] != b'=' {
            return false;
        }
        i += 1;
        if i < b.len() && b[i] == b'"' {
            i += 1;
            loop {
                if i >= b.len() {
                    return false;
                }
                match b[i] {
                    b'"' => {
                        i += 1;
                        break;
                    }
                    b'\\' => {
                        if i + 1 >= b.len()
                            || b[i + 1] < 0x20 && b[i + 1] != b'\t'
                            || b[i + 1] == 0x7f
                        {
                            return false;
                        }
                        i += 2;
                    }
                    c if c == b'\t' || (0x20..0x7f).contains(&c) || c >= 0x80 => i += 1,
                    _ => return false,
                }
            }
        } else if !token(&mut i) {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_common_media_type_is_an_rfc_9110_media_type() {
        for m in COMMON_MEDIA_TYPES {
            assert!(is_media_type(m), "{m}");
        }
    }
}
