//! Pagination cursors: opaque, sealed, expiring tokens bound to a method,
//! a registry content hash and a scope, carrying a position and an issue time.
//!
//! A cursor is confidential as well as authentic: nothing in it can be read
//! without the key. (A readable cursor would tell a caller how many hidden
//! definitions precede a page, the server clock and the registry content hash.)
//!
//! Wire form: base64url without padding of
//!
//! ```text
//! version (1) | nonce (24) | sealed contents (18) | tag (16)
//! ```
//!
//! 59 bytes, 79 characters. The contents are sealed with XChaCha20-Poly1305
//! under a fresh random 24-byte nonce per cursor (random nonces of that
//! size never repeat in practice). The AEAD key is derived with HKDF-SHA256
//! (fixed info label) from the registry's cursor key: the host's key when it
//! sets one (so replicas sharing a key accept each other's cursors), else a
//! random key made per registry. The raw key itself never keys the cipher.
//!
//! The sealed [`Contents`] are, in this order:
//!
//! ```text
//! method (1) | position (8, BE) | issued_at_ms (8, BE) | cache scope (1)
//! ```
//!
//! The cache scope (0 = private, 1 = public) is the `cacheScope` of the
//! pagination's first page, carried so that every page of one pagination
//! declares the same one.
//!
//! The associated data (authenticated, never sent) is:
//!
//! ```text
//! domain label | version (1) | content hash (32) | SHA-256(scope key) (32)
//! ```
//!
//! Where the bindings live, and why: the content hash and the scope hash are
//! associated data. The verifier knows both already, so sending them,
//! even sealed, would only make every cursor 64 bytes longer, and a cursor
//! must fit the 256-byte page envelope beside the rest of the list result.
//! A cursor presented to another registry or scope fails authentication
//! exactly as a tampered one does, so those refusals share one private
//! cause. The method is sealed in the contents instead (one byte): a cursor
//! of the other list method then opens and is refused with its own cause,
//! the one mix-up a client can make with a genuine cursor of its own.
//!
//! To add a value the cursor carries, add a field to [`Contents`] and to its
//! `encode`/`decode` (and [`Contents::LEN`]); to bind one the verifier
//! knows, add it to [`Binding`] and to `associated`. Bump [`VERSION`] when
//! old cursors must no longer open.
//!
//! Every failure is `invalid_request`; a bad cursor never means "first page".

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use chacha20poly1305::aead::{AeadInPlace, KeyInit};
use chacha20poly1305::{Key, Tag, XChaCha20Poly1305, XNonce};
use hkdf::Hkdf;
use sha2::{Digest, Sha256};
use zeroize::Zeroize;

use crate::cache::CacheScope;
use crate::error::{CauseText, Failure};
use crate::limits::MAX_CURSOR_BYTES;

/// Cursor format version (1 was the signed, readable format).
pub(crate) const VERSION: u8 = 2;
/// HKDF info label: the AEAD key is used for cursors of this format only.
const KEY_INFO: &[u8] = b"mcp-resources list cursor v2 XChaCha20-Poly1305 key";
/// Domain label at the start of the associated data.
const AD_LABEL: &[u8] = b"mcp-resources list cursor\0";
/// How long a cursor stays valid after it was issued.
pub(crate) const CURSOR_LIFETIME_MS: u64 = 10 * 60 * 1000;
/// How far in the future an issue time may lie (clock skew between replicas,
/// or a clock that stepped back) before the cursor is refused.
pub(crate) const MAX_FUTURE_SKEW_MS: u64 = 60 * 1000;

const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;
/// Decoded length of every cursor of this version.
const TOKEN_LEN: usize = 1 + NONCE_LEN + Contents::LEN + TAG_LEN;

/// The list method a cursor belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    /// `resources/list`.
    Resources = 1,
    /// `resources/templates/list`.
    Templates = 2,
}

impl Method {
    fn from_u8(v: u8) -> Option<Method> {
        match v {
            1 => Some(Method::Resources),
            2 => Some(Method::Templates),
            _ => None,
        }
    }
}

/// SHA-256 of the exact scope-key bytes.
pub(crate) fn scope_hash(scope_key: &[u8]) -> [u8; 32] {
    Sha256::digest(scope_key).into()
}

/// What a cursor binds and what it is checked against.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Binding<'a> {
    /// The list method.
    pub method: Method,
    /// The registry content hash.
    pub content_hash: &'a [u8; 32],
    /// SHA-256 of the scope key.
    pub scope_hash: &'a [u8; 32],
}

/// The sealed contents of a cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Contents {
    /// The list method it was issued for.
    pub method: Method,
    /// The index into the method's sorted order where the next page starts.
    pub position: u64,
    /// When it was issued, in Unix milliseconds of the issuing registry's clock.
    pub issued_at_ms: u64,
    /// The `cacheScope` of the pagination's first page.
    pub cache_scope: CacheScope,
}

impl Contents {
    /// Encoded length.
    pub(crate) const LEN: usize = 1 + 8 + 8 + 1;

    /// The contents for `position` in `method`, issued at `issued_at_ms`,
    /// carrying a private cache scope.
    pub(crate) fn new(method: Method, position: u64, issued_at_ms: u64) -> Contents {
        Contents {
            method,
            position,
            issued_at_ms,
            cache_scope: CacheScope::Private,
        }
    }

    /// The fixed-layout encoding (integers big-endian).
    fn encode(&self) -> [u8; Contents::LEN] {
        let mut out = [0u8; Contents::LEN];
        let mut w = Writer(&mut out[..]);
        w.put(&[self.method as u8]);
        w.put(&self.position.to_be_bytes());
        w.put(&self.issued_at_ms.to_be_bytes());
        w.put(&[u8::from(self.cache_scope == CacheScope::Public)]);
        debug_assert!(w.0.is_empty());
        out
    }

    /// Decodes [`encode`](Self::encode)'s layout; `None` for an unknown
    /// method or cache scope.
    fn decode(bytes: &[u8; Contents::LEN]) -> Option<Contents> {
        let mut r = Reader(&bytes[..]);
        Some(Contents {
            method: Method::from_u8(r.take::<1>()[0])?,
            position: u64::from_be_bytes(r.take()),
            issued_at_ms: u64::from_be_bytes(r.take()),
            cache_scope: match r.take::<1>()[0] {
                0 => CacheScope::Private,
                1 => CacheScope::Public,
                _ => return None,
            },
        })
    }
}

/// Writes fields one after another into a buffer of exactly their size.
struct Writer<'b>(&'b mut [u8]);

impl Writer<'_> {
    fn put(&mut self, bytes: &[u8]) {
        let (head, tail) = std::mem::take(&mut self.0).split_at_mut(bytes.len());
        head.copy_from_slice(bytes);
        self.0 = tail;
    }
}

/// Reads fixed-size fields one after another.
struct Reader<'b>(&'b [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, tail) = self.0.split_at(N);
        self.0 = tail;
        head.try_into().expect("split at N")
    }
}

/// Why a cursor was refused (the private cause; the public message is fixed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CursorError {
    /// Longer than the 4 KiB input ceiling.
    Oversized,
    /// Not base64url without padding.
    NotBase64Url,
    /// Wrong decoded length (truncated, extended, or no ciphertext).
    BadLength,
    /// The AEAD does not open it: altered, sealed under another key, or
    /// issued by a registry with other content or for another scope (both
    /// are associated data).
    NotAuthentic,
    /// An unknown format version.
    BadVersion,
    /// Issued for the other list method.
    WrongMethod,
    /// Older than ten minutes.
    Expired,
    /// Issued too far in the future.
    FromTheFuture,
    /// A position no page of this registry can produce.
    BadPosition,
}

impl fmt::Display for CursorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CursorError::Oversized => "cursor exceeds the 4 KiB input ceiling",
            CursorError::NotBase64Url => "cursor is not unpadded base64url",
            CursorError::BadLength => "cursor has the wrong length",
            CursorError::NotAuthentic => {
                "cursor authentication failed (altered, another key, another registry \
                 content hash or another scope)"
            }
            CursorError::BadVersion => "cursor has an unknown version",
            CursorError::WrongMethod => "cursor was issued for another list method",
            CursorError::Expired => "cursor expired",
            CursorError::FromTheFuture => "cursor issue time lies in the future",
            CursorError::BadPosition => "cursor position is out of range",
        })
    }
}

impl From<CursorError> for Failure {
    fn from(e: CursorError) -> Failure {
        let message = match e {
            CursorError::Expired => "cursor expired",
            _ => "invalid cursor",
        };
        Failure::request(message).caused_by(CauseText(e.to_string()))
    }
}

/// Seals and opens a registry's cursors: the AEAD keyed once, when the
/// registry is built. The same sealing serves the registry's other sealed
/// tokens (the `requestState` of input-required reads, `src/input/state.rs`)
/// under a key derived with another label: [`Sealer::derived`],
/// [`Sealer::seal_token`], [`Sealer::open_token`].
pub(crate) struct Sealer {
    aead: XChaCha20Poly1305,
}

/// Length of the header of every sealed token: the version and the nonce.
pub(crate) const TOKEN_HEADER_LEN: usize = 1 + NONCE_LEN;

impl Sealer {
    /// Derives the AEAD key from the registry's cursor key (HKDF-SHA256,
    /// no salt, fixed info label). Any key length works; the registry
    /// accepts 32 to 1024 bytes.
    pub(crate) fn new(cursor_key: &[u8]) -> Sealer {
        Sealer::derived(cursor_key, KEY_INFO)
    }

    /// A sealer whose AEAD key is derived from `key` with HKDF-SHA256 (no
    /// salt) under the info label `info`: keys of different labels are
    /// independent, so a token of one kind never opens as another.
    pub(crate) fn derived(key: &[u8], info: &[u8]) -> Sealer {
        let mut okm = [0u8; 32];
        Hkdf::<Sha256>::new(None, key)
            .expand(info, &mut okm)
            .expect("32 bytes is a valid HKDF-SHA256 output length");
        let aead = XChaCha20Poly1305::new(Key::from_slice(&okm));
        okm.zeroize();
        Sealer { aead }
    }

    /// Seals in place a token laid out as `version | nonce | plaintext |
    /// tag` (the tag bytes are written here) under the associated data
    /// `ad`. Every sealed token of the library goes through here.
    fn seal_in_place(&self, token: &mut [u8], ad: &[u8]) {
        let (head, rest) = token.split_at_mut(TOKEN_HEADER_LEN);
        let (sealed, tag) = rest.split_at_mut(rest.len() - TAG_LEN);
        let t = self
            .aead
            .encrypt_in_place_detached(XNonce::from_slice(&head[1..]), ad, sealed)
            .expect("a sealed token is far below the AEAD's length limit");
        tag.copy_from_slice(&t);
    }

    /// Opens in place a token laid out as [`seal_in_place`](Self::seal_in_place)
    /// writes it; the plaintext on success. Every sealed token of the
    /// library is opened here.
    fn open_in_place<'t>(&self, token: &'t mut [u8], ad: &[u8]) -> Option<&'t [u8]> {
        if token.len() < TOKEN_HEADER_LEN + TAG_LEN {
            return None;
        }
        let (head, rest) = token.split_at_mut(TOKEN_HEADER_LEN);
        let at = rest.len() - TAG_LEN;
        let (sealed, tag) = rest.split_at_mut(at);
        self.aead
            .decrypt_in_place_detached(
                XNonce::from_slice(&head[1..]),
                ad,
                sealed,
                Tag::from_slice(tag),
            )
            .ok()?;
        Some(sealed)
    }

    /// Seals `plain` as a token of format `version` under the associated
    /// data `ad` with a fresh random nonce: base64url without padding of
    /// `version | nonce (24) | ciphertext | tag (16)`.
    pub(crate) fn seal_token(&self, version: u8, ad: &[u8], plain: &[u8]) -> String {
        let mut token = vec![0u8; TOKEN_HEADER_LEN + plain.len() + TAG_LEN];
        token[0] = version;
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut token[1..TOKEN_HEADER_LEN]);
        token[TOKEN_HEADER_LEN..TOKEN_HEADER_LEN + plain.len()].copy_from_slice(plain);
        self.seal_in_place(&mut token, ad);
        URL_SAFE_NO_PAD.encode(token)
    }

    /// Opens a token [`seal_token`](Self::seal_token) made: at most
    /// `max_text` bytes of strict unpadded base64url, the format `version`,
    /// then the AEAD (which fails for any change to any byte, for another
    /// key and for other associated data). Returns the plaintext.
    pub(crate) fn open_token(
        &self,
        version: u8,
        ad: &[u8],
        text: &[u8],
        max_text: usize,
    ) -> Result<Vec<u8>, CursorError> {
        if text.len() > max_text {
            return Err(CursorError::Oversized);
        }
        let mut token = URL_SAFE_NO_PAD
            .decode(text)
            .map_err(|_| CursorError::NotBase64Url)?;
        match token.first() {
            None => return Err(CursorError::BadLength),
            Some(&v) if v != version => return Err(CursorError::BadVersion),
            Some(_) => {}
        }
        if token.len() < TOKEN_HEADER_LEN + TAG_LEN {
            return Err(CursorError::BadLength);
        }
        let plain = self
            .open_in_place(&mut token, ad)
            .ok_or(CursorError::NotAuthentic)?
            .to_vec();
        token.zeroize();
        Ok(plain)
    }

    /// Seals `contents` under `binding` with a fresh random nonce.
    pub(crate) fn seal(&self, binding: Binding<'_>, contents: &Contents) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut nonce);
        self.seal_as(VERSION, binding, &contents.encode(), &nonce)
    }

    /// Seals encoded contents as cursor format `version`.
    fn seal_as(
        &self,
        version: u8,
        binding: Binding<'_>,
        plain: &[u8; Contents::LEN],
        nonce: &[u8; NONCE_LEN],
    ) -> String {
        let mut token = [0u8; TOKEN_LEN];
        token[0] = version;
        token[1..TOKEN_HEADER_LEN].copy_from_slice(nonce);
        token[TOKEN_HEADER_LEN..TOKEN_HEADER_LEN + Contents::LEN].copy_from_slice(plain);
        self.seal_in_place(&mut token, &associated(version, binding));
        URL_SAFE_NO_PAD.encode(token)
    }

    /// Opens a cursor sealed under `binding`'s content hash and scope: the input
    /// ceiling, strict unpadded base64url, the version, the length, then the
    /// AEAD (which fails for any change to any byte, for another key, and
    /// for another content hash or scope).
    pub(crate) fn open(
        &self,
        binding: Binding<'_>,
        cursor: &[u8],
    ) -> Result<Contents, CursorError> {
        if cursor.len() > MAX_CURSOR_BYTES {
            return Err(CursorError::Oversized);
        }
        let mut token = URL_SAFE_NO_PAD
            .decode(cursor)
            .map_err(|_| CursorError::NotBase64Url)?;
        match token.first() {
            None => return Err(CursorError::BadLength),
            Some(&v) if v != VERSION => return Err(CursorError::BadVersion),
            Some(_) => {}
        }
        if token.len() != TOKEN_LEN {
            return Err(CursorError::BadLength);
        }
        let sealed = self
            .open_in_place(&mut token, &associated(VERSION, binding))
            .ok_or(CursorError::NotAuthentic)?;
        let sealed: &[u8; Contents::LEN] = sealed.try_into().expect("Contents::LEN bytes");
        // Authentic contents always name a known method and cache scope;
        // anything else is a cursor this version cannot have issued.
        Contents::decode(sealed).ok_or(CursorError::WrongMethod)
    }

    /// Issues a cursor for `position`, stamped `issued_at_ms`, carrying a
    /// private cache scope.
    #[cfg(test)]
    pub(crate) fn issue(&self, binding: Binding<'_>, position: u64, issued_at_ms: u64) -> String {
        self.issue_scoped(binding, position, CacheScope::Private, issued_at_ms)
    }

    /// Issues a cursor for `position`, stamped `issued_at_ms`, carrying the
    /// pagination's cache scope.
    pub(crate) fn issue_scoped(
        &self,
        binding: Binding<'_>,
        position: u64,
        cache_scope: CacheScope,
        issued_at_ms: u64,
    ) -> String {
        let contents = Contents {
            cache_scope,
            ..Contents::new(binding.method, position, issued_at_ms)
        };
        self.seal(binding, &contents)
    }

    /// Opens a cursor and returns its position.
    ///
    /// After [`open`](Self::open) (which refuses another content hash or scope),
    /// checks in order: the method, the issue time against `now_ms` (expired
    /// after ten minutes; refused when more than a minute in the future),
    /// and that the position is below `candidates` (the size of the sorted
    /// order it indexes).
    #[cfg(test)]
    pub(crate) fn verify(
        &self,
        binding: Binding<'_>,
        cursor: &[u8],
        now_ms: u64,
        candidates: usize,
    ) -> Result<usize, CursorError> {
        self.verify_scoped(binding, cursor, now_ms, candidates)
            .map(|(p, _)| p)
    }

    /// Verifies a cursor (as [`verify`](Self::verify)) and returns its
    /// position and the cache scope it carries.
    pub(crate) fn verify_scoped(
        &self,
        binding: Binding<'_>,
        cursor: &[u8],
        now_ms: u64,
        candidates: usize,
    ) -> Result<(usize, CacheScope), CursorError> {
        let c = self.open(binding, cursor)?;
        if c.method != binding.method {
            return Err(CursorError::WrongMethod);
        }
        if c.issued_at_ms > now_ms.saturating_add(MAX_FUTURE_SKEW_MS) {
            return Err(CursorError::FromTheFuture);
        }
        if now_ms.saturating_sub(c.issued_at_ms) >= CURSOR_LIFETIME_MS {
            return Err(CursorError::Expired);
        }
        // A page always advances, and a cursor is only issued while candidates
        // remain, so a genuine position lies in 1..candidates.
        match usize::try_from(c.position) {
            Ok(p) if p > 0 && p < candidates => Ok((p, c.cache_scope)),
            _ => Err(CursorError::BadPosition),
        }
    }
}

/// Length of the associated data.
const AD_LEN: usize = AD_LABEL.len() + 1 + 32 + 32;

/// The associated data of a cursor of `version` under `binding`: the label,
/// the version, the content hash and the scope hash (the method is sealed in
/// the contents).
fn associated(version: u8, binding: Binding<'_>) -> [u8; AD_LEN] {
    let mut ad = [0u8; AD_LEN];
    let mut w = Writer(&mut ad[..]);
    w.put(AD_LABEL);
    w.put(&[version]);
    w.put(binding.content_hash);
    w.put(binding.scope_hash);
    debug_assert!(w.0.is_empty());
    ad
}

#[cfg(test)]
mod tests;
