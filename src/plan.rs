//! Matches, targets, read plans and payloads: the values host callbacks
//! receive and construct. Every constructor validates and copies its input.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use crate::cache::CacheHints;
use crate::definition::ResourceDefinition;
use crate::error::{Failure, FailureKind};
use crate::identity::validate_uri_str;
use crate::jsonscan::{self, Kind, Refusal};
use crate::limits::{MAX_AUTHORIZATION_BYTES, MAX_META_BYTES};

/// Re-exported from [`crate::definition`], where definitions check it.
pub use crate::definition::RESERVED_META_KEY;

/// Representation label used when a target names none.
pub const DEFAULT_REPRESENTATION: &str = "default";

/// Longest representation label, in bytes.
///
/// cbindgen:ignore
pub const MAX_REPRESENTATION_BYTES: usize = 256;

/// The outcome of selection: which definition matched which URI, with the
/// decoded captures of a template in template order.
#[derive(Debug, Clone)]
pub struct ResourceMatch {
    definition: MatchedDefinition,
    /// Shared with the target [`ResourceTarget::of_match`] makes.
    uri: Arc<str>,
    captures: Vec<(String, String)>,
    /// Whether selection made it (its URI is then a valid identifier).
    selected: bool,
}

/// The matched definition: shared, or lent by the registry for one inline
/// read (which then touches no reference count that other threads' reads
/// of the same binding also write).
enum MatchedDefinition {
    Shared(Arc<ResourceDefinition>),
    /// A definition owned by an `Arc` that outlives this match: made only by
    /// [`ResourceMatch::lent`], whose caller guarantees it.
    Lent(std::ptr::NonNull<ResourceDefinition>),
}

// SAFETY: `Lent` is a shared reference to a `ResourceDefinition` (which is
// `Send + Sync`) kept alive by its `Arc` for the match's whole life (the
// `lent` contract); `Shared` is an `Arc` of it.
unsafe impl Send for MatchedDefinition {}
// SAFETY: as for `Send`: only shared access is ever given out.
unsafe impl Sync for MatchedDefinition {}

impl MatchedDefinition {
    fn get(&self) -> &ResourceDefinition {
        match self {
            MatchedDefinition::Shared(d) => d,
            // SAFETY: the `Arc` owning the definition outlives the match
            // (the `lent` contract), so the pointer is valid.
            MatchedDefinition::Lent(p) => unsafe { p.as_ref() },
        }
    }
}

impl Clone for MatchedDefinition {
    /// A clone is always shared: it may outlive the read that lent the
    /// original.
    fn clone(&self) -> Self {
        match self {
            MatchedDefinition::Shared(d) => MatchedDefinition::Shared(d.clone()),
            MatchedDefinition::Lent(p) => {
                let p = p.as_ptr().cast_const();
                // SAFETY: `p` came from `Arc::as_ptr` of an `Arc` that is
                // still alive (the `lent` contract): taking one more strong
                // reference and wrapping it in an `Arc` is sound.
                MatchedDefinition::Shared(unsafe {
                    Arc::increment_strong_count(p);
                    Arc::from_raw(p)
                })
            }
        }
    }
}

impl std::fmt::Debug for MatchedDefinition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl ResourceMatch {
    /// Builds a match (used by selection; public for tests and simulations).
    pub fn new(
        definition: Arc<ResourceDefinition>,
        uri: String,
        captures: Vec<(String, String)>,
    ) -> Self {
        ResourceMatch {
            definition: MatchedDefinition::Shared(definition),
            uri: Arc::from(uri),
            captures,
            selected: false,
        }
    }

    /// A selection's match (see [`ResourceMatch::selected`]) that borrows
    /// `definition` instead of sharing it.
    ///
    /// # Safety
    /// `definition` (the `Arc`, or another reference to its value) must
    /// stay alive as long as the match: the match must be dropped before
    /// the last `Arc` of the definition is. Clones of the match share the
    /// definition and carry no such condition.
    pub(crate) unsafe fn lent(
        definition: &Arc<ResourceDefinition>,
        uri: &str,
        captures: Vec<(String, String)>,
    ) -> Self {
        let p = std::ptr::NonNull::new(Arc::as_ptr(definition).cast_mut())
            .expect("an Arc points at its value");
        ResourceMatch {
            definition: MatchedDefinition::Lent(p),
            uri: Arc::from(uri),
            captures,
            selected: true,
        }
    }

    /// The match selection makes for `uri`, which it has validated.
    pub(crate) fn selected(
        definition: Arc<ResourceDefinition>,
        uri: &str,
        captures: Vec<(String, String)>,
    ) -> Self {
        ResourceMatch {
            definition: MatchedDefinition::Shared(definition),
            uri: Arc::from(uri),
            captures,
            selected: true,
        }
    }

    /// The matched definition.
    pub fn definition(&self) -> &ResourceDefinition {
        self.definition.get()
    }

    /// The matched definition, shared (a new reference).
    pub fn definition_arc(&self) -> Arc<ResourceDefinition> {
        match self.definition.clone() {
            MatchedDefinition::Shared(d) => d,
            MatchedDefinition::Lent(_) => unreachable!("clones are shared"),
        }
    }

    /// The requested URI, exactly as received.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// `(name, decoded value)` pairs in template order (empty for exact URIs).
    pub fn captures(&self) -> &[(String, String)] {
        &self.captures
    }

    /// The decoded value of the named capture.
    pub fn capture(&self, name: &str) -> Option<&str> {
        self.captures
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// An immutable identity the gateway hands to policy and storage: URI,
/// representation label and optional private authorization JSON.
///
/// The authorization JSON is private: it is passed to the host's callbacks
/// and never serialised into any result, report or error.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ResourceTarget {
    /// Shared: a plan's requested target is often also its item (a clone
    /// then copies no bytes).
    uri: Arc<str>,
    /// Borrowed when it is the default label (no allocation per read).
    representation: Cow<'static, str>,
    authorization: Option<String>,
}

impl std::fmt::Debug for ResourceTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceTarget")
            .field("uri", &self.uri)
            .field("representation", &self.representation)
            .field("has_authorization", &self.authorization.is_some())
            .finish()
    }
}

fn plan_error(message: &'static str) -> Failure {
    Failure::with_message(FailureKind::InvalidPlan, message)
}

/// Checks a target's private authorization JSON: at most 64 KiB, and held
/// to the rules registered definitions are held to (valid JSON of any kind,
/// nesting at most 127 deep, no lone surrogate escape, no number out of
/// range such as `1e999`, no object repeating a key at any depth). The
/// reserved metadata key is not refused here: authorization data is
/// private and never becomes metadata. Errors are `invalid_plan`.
pub fn check_authorization_json(json: &str) -> Result<(), Failure> {
    if json.len() > MAX_AUTHORIZATION_BYTES {
        return Err(plan_error("target authorization JSON exceeds 64 KiB"));
    }
    match jsonscan::check(json, None) {
        Ok(_) => Ok(()),
        Err(Refusal::Invalid(e)) => Err(Failure::with_message(
            FailureKind::InvalidPlan,
            format!("target authorization is not valid JSON: {e}"),
        )
        .caused_by(e)),
        Err(Refusal::DuplicateKey) => Err(plan_error(
            "target authorization JSON repeats an object key",
        )),
        // Nothing is reserved in authorization data, so this never happens.
        Err(Refusal::ReservedKey) => {
            Err(plan_error("target authorization JSON uses a reserved key"))
        }
    }
}

impl ResourceTarget {
    /// The default target of a match (its URI, the default representation,
    /// no authorization), as `ResourceTarget::new(m.uri(), "", None)` makes
    /// it; the URI is shared with the match, and not validated again when
    /// selection made the match.
    pub(crate) fn of_match(m: &ResourceMatch) -> Result<Self, Failure> {
        if !m.selected {
            return Self::new(m.uri(), "", None);
        }
        Ok(ResourceTarget {
            uri: m.uri.clone(),
            representation: Cow::Borrowed(DEFAULT_REPRESENTATION),
            authorization: None,
        })
    }

    /// Validates and copies a target.
    ///
    /// - `uri` must be a valid identifier (length against `max_uri_bytes` is
    ///   checked when the plan is validated for a read);
    /// - `representation` is a label of at most 256 bytes without control
    ///   characters; empty means `"default"`;
    /// - `authorization_json`, when given, must pass
    ///   [`check_authorization_json`] (a JSON document of at most 64 KiB
    ///   held to the rules definitions are held to). Its exact bytes are kept.
    pub fn new(
        uri: &str,
        representation: &str,
        authorization_json: Option<&str>,
    ) -> Result<Self, Failure> {
        validate_uri_str(uri).map_err(|e| {
            Failure::with_message(FailureKind::InvalidPlan, "target URI is invalid").caused_by(e)
        })?;
        let representation = if representation.is_empty() {
            DEFAULT_REPRESENTATION
        } else {
            representation
        };
        if representation.len() > MAX_REPRESENTATION_BYTES {
            return Err(plan_error("target representation is too long"));
        }
        if representation.chars().any(char::is_control) {
            return Err(plan_error("target representation has control characters"));
        }
        let authorization = match authorization_json {
            None => None,
            Some(json) => {
                if json.len() > MAX_AUTHORIZATION_BYTES {
                    return Err(plan_error("target authorization JSON exceeds 64 KiB"));
                }
                check_authorization_json(json)?;
                Some(json.to_string())
            }
        };
        Ok(ResourceTarget {
            uri: Arc::from(uri),
            representation: if representation == DEFAULT_REPRESENTATION {
                Cow::Borrowed(DEFAULT_REPRESENTATION)
            } else {
                Cow::Owned(representation.to_string())
            },
            authorization,
        })
    }

    /// The target URI (the wire URI of its item).
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The representation label (never empty).
    pub fn representation(&self) -> &str {
        &self.representation
    }

    /// The private authorization JSON, exactly as given.
    pub fn authorization(&self) -> Option<&str> {
        self.authorization.as_deref()
    }
}

/// A constructed read plan: the canonical requested bundle and its ordered
/// item targets.
#[derive(Clone)]
pub struct ResourceReadPlan {
    requested: ResourceTarget,
    /// Empty when `single`.
    items: Vec<ResourceTarget>,
    /// The requested target is also the only item (kept once: the common
    /// plan allocates no item list).
    single: bool,
}

impl std::fmt::Debug for ResourceReadPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceReadPlan")
            .field("requested", &self.requested)
            .field("items", &self.items())
            .finish()
    }
}

impl ResourceReadPlan {
    /// Validates a plan: item URIs are unique (even across representation
    /// labels); a URI that appears as both requested target and item must
    /// carry the same representation. Zero items is a valid, empty bundle.
    /// The `max_plan_targets` limit is checked when a read validates the plan.
    pub fn new(requested: ResourceTarget, items: Vec<ResourceTarget>) -> Result<Self, Failure> {
        let mut seen: HashMap<&str, &str> = HashMap::with_capacity(items.len());
        for item in &items {
            if seen.insert(item.uri(), item.representation()).is_some() {
                return Err(plan_error("duplicate item URI in read plan"));
            }
        }
        if let Some(rep) = seen.get(requested.uri()) {
            if *rep != requested.representation() {
                return Err(plan_error(
                    "requested URI appears with a different representation",
                ));
            }
        }
        Ok(ResourceReadPlan {
            requested,
            items,
            single: false,
        })
    }

    /// A plan whose requested target is also its single item.
    pub fn single(target: ResourceTarget) -> Self {
        ResourceReadPlan {
            requested: target,
            items: Vec::new(),
            single: true,
        }
    }

    /// The plan of a match whose requested URI is both the requested target
    /// and the single item (representation `"default"`, no authorization
    /// JSON): the Rust counterpart of the C ABI's `mcpr_resolve_single`.
    pub fn single_for(m: &ResourceMatch) -> Result<Self, Failure> {
        Ok(Self::single(ResourceTarget::of_match(m)?))
    }

    /// The canonical requested target.
    pub fn requested(&self) -> &ResourceTarget {
        &self.requested
    }

    /// The ordered item targets.
    pub fn items(&self) -> &[ResourceTarget] {
        if self.single {
            std::slice::from_ref(&self.requested)
        } else {
            &self.items
        }
    }

    /// Splits the plan into its parts.
    pub fn into_parts(self) -> (ResourceTarget, Vec<ResourceTarget>) {
        if self.single {
            let item = self.requested.clone();
            (self.requested, vec![item])
        } else {
            (self.requested, self.items)
        }
    }
}

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
