//! Pagination cursors: opaque, signed, expiring tokens bound to a method,
//! a registry revision, a position, an issue time and a scope.
//!
//! Wire form: base64url without padding of
//!
//! ```text
//! version (1) | method (1) | revision (32) | position (8, BE) |
//! issued_at_ms (8, BE) | SHA-256(scope key) (32) | cache scope (1) |
//! HMAC-SHA256 (32)
//! ```
//!
//! The cache scope (0 = private, 1 = public) is the `cacheScope` of the
//! pagination's first page, carried so that every page of one pagination
//! declares the same one.
//!
//! The MAC covers a fixed domain label followed by every byte before it, and
//! is keyed with the registry's cursor key (random per registry unless the
//! host sets one, so replicas sharing a key accept each other's cursors).
//! Every failure is `invalid_request`; a bad cursor never means "first page".

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::cache::CacheScope;
use crate::error::{CauseText, Failure};
use crate::limits::MAX_CURSOR_BYTES;

type HmacSha256 = Hmac<Sha256>;

/// Cursor format version.
const VERSION: u8 = 1;
/// Domain separation for the MAC input.
const MAC_LABEL: &[u8] = b"mcp-resources list cursor\0";
/// How long a cursor stays valid after it was issued.
pub(crate) const CURSOR_LIFETIME_MS: u64 = 10 * 60 * 1000;
/// How far in the future an issue time may lie (clock skew between replicas,
/// or a clock that stepped back) before the cursor is refused.
pub(crate) const MAX_FUTURE_SKEW_MS: u64 = 60 * 1000;

const BODY_LEN: usize = 1 + 1 + 32 + 8 + 8 + 32 + 1;
const MAC_LEN: usize = 32;
/// Decoded length of every cursor.
const TOKEN_LEN: usize = BODY_LEN + MAC_LEN;

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
    /// The registry revision.
    pub revision: &'a [u8; 32],
    /// SHA-256 of the scope key.
    pub scope_hash: &'a [u8; 32],
}

/// Why a cursor was refused (the private cause; the public message is fixed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CursorError {
    /// Longer than the 4 KiB input ceiling.
    Oversized,
    /// Not base64url without padding.
    NotBase64Url,
    /// Wrong decoded length.
    BadLength,
    /// The MAC does not verify (tampered, truncated, or another key).
    BadMac,
    /// An unknown format version.
    BadVersion,
    /// Issued for the other list method.
    WrongMethod,
    /// Issued by a registry with other content.
    WrongRevision,
    /// Issued for another scope key.
    WrongScope,
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
            CursorError::BadMac => "cursor authentication failed",
            CursorError::BadVersion => "cursor has an unknown version",
            CursorError::WrongMethod => "cursor was issued for another list method",
            CursorError::WrongRevision => "cursor was issued by a registry with other content",
            CursorError::WrongScope => "cursor was issued for another scope",
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

/// The cursor MAC keyed once per call (keying HMAC costs two SHA-256
/// blocks; a page that verifies and issues a cursor keys it once).
pub(crate) struct Signer(HmacSha256);

impl Signer {
    /// Keys the MAC with the registry's cursor key.
    pub(crate) fn new(key: &[u8]) -> Signer {
        let mut m = HmacSha256::new_from_slice(key).expect("HMAC accepts keys of any length");
        m.update(MAC_LABEL);
        Signer(m)
    }

    fn mac(&self, body: &[u8]) -> HmacSha256 {
        let mut m = self.0.clone();
        m.update(body);
        m
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
        let mut token = [0u8; TOKEN_LEN];
        token[0] = VERSION;
        token[1] = binding.method as u8;
        token[2..34].copy_from_slice(binding.revision);
        token[34..42].copy_from_slice(&position.to_be_bytes());
        token[42..50].copy_from_slice(&issued_at_ms.to_be_bytes());
        token[50..82].copy_from_slice(binding.scope_hash);
        token[82] = u8::from(cache_scope == CacheScope::Public);
        let tag = self.mac(&token[..BODY_LEN]).finalize().into_bytes();
        token[BODY_LEN..].copy_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(token)
    }

    /// Verifies a cursor and returns its position.
    ///
    /// Checks, in order: the input ceiling, strict unpadded base64url, the
    /// length, the MAC (constant time), the version, the method, the
    /// revision, the scope, the issue time against `now_ms` (expired after
    /// ten minutes; refused when more than a minute in the future), and that
    /// the position is below `candidates` (the size of the sorted order it
    /// indexes).
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
        if cursor.len() > MAX_CURSOR_BYTES {
            return Err(CursorError::Oversized);
        }
        let token = URL_SAFE_NO_PAD
            .decode(cursor)
            .map_err(|_| CursorError::NotBase64Url)?;
        if token.len() != TOKEN_LEN {
            return Err(CursorError::BadLength);
        }
        self.mac(&token[..BODY_LEN])
            .verify_slice(&token[BODY_LEN..])
            .map_err(|_| CursorError::BadMac)?;

        if token[0] != VERSION {
            return Err(CursorError::BadVersion);
        }
        if Method::from_u8(token[1]) != Some(binding.method) {
            return Err(CursorError::WrongMethod);
        }
        if token[2..34] != binding.revision[..] {
            return Err(CursorError::WrongRevision);
        }
        if token[50..82] != binding.scope_hash[..] {
            return Err(CursorError::WrongScope);
        }
        let position = u64::from_be_bytes(token[34..42].try_into().expect("8 bytes"));
        let issued_at = u64::from_be_bytes(token[42..50].try_into().expect("8 bytes"));
        if issued_at > now_ms.saturating_add(MAX_FUTURE_SKEW_MS) {
            return Err(CursorError::FromTheFuture);
        }
        if now_ms.saturating_sub(issued_at) >= CURSOR_LIFETIME_MS {
            return Err(CursorError::Expired);
        }
        let cache_scope = match token[82] {
            0 => CacheScope::Private,
            1 => CacheScope::Public,
            _ => return Err(CursorError::BadVersion),
        };
        // A page always advances, and a cursor is only issued while candidates
        // remain, so a genuine position lies in 1..candidates.
        match usize::try_from(position) {
            Ok(p) if p > 0 && p < candidates => Ok((p, cache_scope)),
            _ => Err(CursorError::BadPosition),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: [u8; 32] = [7; 32];
    const REV: [u8; 32] = [1; 32];
    const NOW: u64 = 1_800_000_000_000;

    fn scope() -> [u8; 32] {
        scope_hash(b"tenant-a")
    }

    fn binding<'a>(method: Method, scope: &'a [u8; 32]) -> Binding<'a> {
        Binding {
            method,
            revision: &REV,
            scope_hash: scope,
        }
    }

    fn good() -> String {
        Signer::new(&KEY).issue(binding(Method::Resources, &scope()), 42, NOW)
    }

    fn check(cursor: &[u8], now: u64) -> Result<usize, CursorError> {
        Signer::new(&KEY).verify(binding(Method::Resources, &scope()), cursor, now, 100)
    }

    #[test]
    fn round_trip_returns_the_position() {
        let c = good();
        assert_eq!(c.len(), base64::encoded_len(TOKEN_LEN, false).unwrap());
        assert!(c
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(check(c.as_bytes(), NOW), Ok(42));
    }

    #[test]
    fn every_byte_tampered_fails() {
        let c = good();
        for i in 0..c.len() {
            for replacement in [b'A', b'z', b'-', b'_', b'0'] {
                let mut t = c.clone().into_bytes();
                if t[i] == replacement {
                    continue;
                }
                t[i] = replacement;
                assert!(check(&t, NOW).is_err(), "tampered byte {i}");
            }
        }
    }

    #[test]
    fn every_decoded_bit_flip_fails_authentication() {
        let c = good();
        let raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
        for i in 0..raw.len() {
            for bit in 0..8 {
                let mut t = raw.clone();
                t[i] ^= 1 << bit;
                let e = check(URL_SAFE_NO_PAD.encode(&t).as_bytes(), NOW);
                assert_eq!(e, Err(CursorError::BadMac), "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn truncated_and_extended_fail() {
        let c = good();
        for n in 0..c.len() {
            assert!(check(&c.as_bytes()[..n], NOW).is_err(), "prefix {n}");
        }
        let longer = format!("{c}AAAA");
        assert_eq!(check(longer.as_bytes(), NOW), Err(CursorError::BadLength));
    }

    #[test]
    fn not_base64url_fails() {
        let c = good();
        // Standard-alphabet characters, padding, whitespace, non-ASCII.
        for bad in [b'+', b'/', b'=', b' ', b'.', 0xC3] {
            let mut t = c.clone().into_bytes();
            t[10] = bad;
            assert_eq!(check(&t, NOW), Err(CursorError::NotBase64Url), "{bad}");
        }
        // 114 bytes encode to 152 characters exactly; padding is refused.
        let padded = format!("{c}=");
        assert_eq!(
            check(padded.as_bytes(), NOW),
            Err(CursorError::NotBase64Url)
        );
        let padded = format!("{c}AA==");
        assert_eq!(
            check(padded.as_bytes(), NOW),
            Err(CursorError::NotBase64Url)
        );
    }

    #[test]
    fn oversized_input_fails_before_decoding() {
        let huge = vec![b'A'; MAX_CURSOR_BYTES + 1];
        assert_eq!(check(&huge, NOW), Err(CursorError::Oversized));
        let at_ceiling = vec![b'A'; MAX_CURSOR_BYTES];
        assert_eq!(check(&at_ceiling, NOW), Err(CursorError::BadLength));
    }

    #[test]
    fn another_key_fails() {
        let other = [8u8; 32];
        let c = Signer::new(&other).issue(binding(Method::Resources, &scope()), 42, NOW);
        assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::BadMac));
    }

    #[test]
    fn another_method_fails() {
        let s = scope();
        let c = Signer::new(&KEY).issue(binding(Method::Templates, &s), 42, NOW);
        assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::WrongMethod));
        assert_eq!(
            Signer::new(&KEY).verify(binding(Method::Templates, &s), c.as_bytes(), NOW, 100),
            Ok(42)
        );
    }

    #[test]
    fn another_revision_fails() {
        let s = scope();
        let c = Signer::new(&KEY).issue(
            Binding {
                method: Method::Resources,
                revision: &[2; 32],
                scope_hash: &s,
            },
            42,
            NOW,
        );
        assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::WrongRevision));
    }

    #[test]
    fn another_scope_fails() {
        let other = scope_hash(b"tenant-b");
        let c = Signer::new(&KEY).issue(binding(Method::Resources, &other), 42, NOW);
        assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::WrongScope));
        // The hash covers the exact bytes: a prefix or an extension differs.
        assert_ne!(scope_hash(b"tenant-a"), scope_hash(b"tenant-a\0"));
    }

    #[test]
    fn expires_after_ten_minutes() {
        let c = good();
        assert_eq!(check(c.as_bytes(), NOW + CURSOR_LIFETIME_MS - 1), Ok(42));
        assert_eq!(
            check(c.as_bytes(), NOW + CURSOR_LIFETIME_MS),
            Err(CursorError::Expired)
        );
        assert_eq!(check(c.as_bytes(), u64::MAX), Err(CursorError::Expired));
    }

    #[test]
    fn issue_time_in_the_future_beyond_skew_fails() {
        let c = good();
        assert_eq!(check(c.as_bytes(), NOW - MAX_FUTURE_SKEW_MS), Ok(42));
        assert_eq!(
            check(c.as_bytes(), NOW - MAX_FUTURE_SKEW_MS - 1),
            Err(CursorError::FromTheFuture)
        );
        assert_eq!(check(c.as_bytes(), 0), Err(CursorError::FromTheFuture));
    }

    #[test]
    fn position_out_of_range_fails() {
        let s = scope();
        for p in [0u64, 100, 101, u64::MAX] {
            let c = Signer::new(&KEY).issue(binding(Method::Resources, &s), p, NOW);
            assert_eq!(
                check(c.as_bytes(), NOW),
                Err(CursorError::BadPosition),
                "{p}"
            );
        }
        let c = Signer::new(&KEY).issue(binding(Method::Resources, &s), 99, NOW);
        assert_eq!(check(c.as_bytes(), NOW), Ok(99));
    }

    #[test]
    fn unknown_version_fails_even_when_authenticated() {
        let mut raw = URL_SAFE_NO_PAD.decode(good()).unwrap();
        raw[0] = 2;
        let tag = Signer::new(&KEY)
            .mac(&raw[..BODY_LEN])
            .finalize()
            .into_bytes();
        raw[BODY_LEN..].copy_from_slice(&tag);
        let c = URL_SAFE_NO_PAD.encode(&raw);
        assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::BadVersion));
    }

    #[test]
    fn cache_scope_travels_in_the_cursor() {
        let s = scope();
        for want in [CacheScope::Private, CacheScope::Public] {
            let c = Signer::new(&KEY).issue_scoped(binding(Method::Resources, &s), 42, want, NOW);
            assert_eq!(
                Signer::new(&KEY).verify_scoped(
                    binding(Method::Resources, &s),
                    c.as_bytes(),
                    NOW,
                    100
                ),
                Ok((42, want))
            );
        }
        // The scope byte is authenticated: a forged "public" fails the MAC.
        let c = Signer::new(&KEY).issue_scoped(
            binding(Method::Resources, &s),
            42,
            CacheScope::Private,
            NOW,
        );
        let mut raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
        raw[82] = 1;
        assert_eq!(
            check(URL_SAFE_NO_PAD.encode(&raw).as_bytes(), NOW),
            Err(CursorError::BadMac)
        );
        // An authenticated but unknown scope value is refused.
        raw[82] = 2;
        let tag = Signer::new(&KEY)
            .mac(&raw[..BODY_LEN])
            .finalize()
            .into_bytes();
        raw[BODY_LEN..].copy_from_slice(&tag);
        assert_eq!(
            check(URL_SAFE_NO_PAD.encode(&raw).as_bytes(), NOW),
            Err(CursorError::BadVersion)
        );
    }

    #[test]
    fn failures_are_invalid_request_with_a_private_cause() {
        let f = Failure::from(CursorError::WrongScope);
        assert_eq!(f.kind(), crate::error::FailureKind::InvalidRequest);
        assert_eq!(f.message(), "invalid cursor");
        assert_eq!(f.cause_text(), "cursor was issued for another scope");
        let f = Failure::from(CursorError::Expired);
        assert_eq!(f.kind(), crate::error::FailureKind::InvalidRequest);
        assert_eq!(f.message(), "cursor expired");
    }
}
