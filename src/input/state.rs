//! The sealed `requestState` of an input-required read
//! (docs/BEHAVIOUR.md §18): what the asking callback needs back on the
//! retry, sealed with the registry's cursor sealing (`src/cursor.rs`)
//! under a key of its own, derived from the same cursor key with another
//! HKDF label.
//!
//! Wire form: base64url without padding of
//!
//! ```text
//! version (1) | nonce (24) | sealed contents | tag (16)
//! ```
//!
//! The sealed contents, in this order:
//!
//! ```text
//! issued_at_ms (8, BE) | n (1) | n × (kind (1) | key length (1) | key) | state length (2, BE) | state
//! ```
//!
//! The associated data (authenticated, never sent: the verifier knows it):
//!
//! ```text
//! domain label | version (1) | content hash (32) | SHA-256(scope key) (32)
//!   | method length (1) | method | SHA-256(requested URI) (32) | params digest (32)
//! ```
//!
//! So a state presented by another scope (principal), for another URI,
//! to a registry with other content, with other params or for another
//! method fails authentication exactly as a tampered one does; an expired
//! one (ten minutes after it was issued, by the registry's clock) or one
//! issued more than a minute in the future is refused after it opened.
//! Nothing in it is readable without the key.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::cursor::{scope_hash, Sealer, MAX_FUTURE_SKEW_MS};
use crate::error::{CauseText, Failure};

use super::ask::{
    InputKind, InputRequests, MAX_INPUT_KEY_BYTES, MAX_INPUT_REQUESTS, MAX_INPUT_STATE_BYTES,
};

/// The request-state format version.
const VERSION: u8 = 1;
/// HKDF info label of the request-state key (independent of the cursor
/// key's label, so a cursor never opens as a state or the reverse).
pub(crate) const KEY_INFO: &[u8] = b"mcp-resources request state v1 XChaCha20-Poly1305 key";
/// Domain label at the start of the associated data.
const AD_LABEL: &[u8] = b"mcp-resources request state\0";
/// How long a request state stays valid after it was issued.
pub(crate) const STATE_LIFETIME_MS: u64 = 10 * 60 * 1000;
/// Longest `requestState` text read; longer is refused unread.
pub(crate) const MAX_STATE_TEXT_BYTES: usize = 8 * 1024;

/// What a request state is bound to (the associated data).
pub(crate) struct StateBinding<'a> {
    /// The registry content hash.
    pub content_hash: &'a [u8; 32],
    /// The scope key (the caller's principal).
    pub scope_key: &'a [u8],
    /// The MCP method (`resources/read`).
    pub method: &'a str,
    /// The requested URI, exact bytes.
    pub uri: &'a [u8],
    /// The digest of the params other than `uri`, `_meta`,
    /// `inputResponses` and `requestState` (see `mod.rs`).
    pub params_digest: [u8; 32],
}

impl StateBinding<'_> {
    fn associated(&self) -> Vec<u8> {
        let mut ad = Vec::with_capacity(AD_LABEL.len() + 1 + 32 + 32 + 1 + self.method.len() + 64);
        ad.extend_from_slice(AD_LABEL);
        ad.push(VERSION);
        ad.extend_from_slice(self.content_hash);
        ad.extend_from_slice(&scope_hash(self.scope_key));
        ad.push(u8::try_from(self.method.len()).unwrap_or(u8::MAX));
        ad.extend_from_slice(self.method.as_bytes());
        ad.extend_from_slice(&Sha256::digest(self.uri));
        ad.extend_from_slice(&self.params_digest);
        ad
    }
}

/// What a verified request state gives back.
pub(crate) struct Opened {
    /// The keys and kinds the previous round asked for.
    pub asked: Vec<(String, InputKind)>,
    /// The asking callback's own state.
    pub state: Vec<u8>,
}

/// Seals a request state for `requests` and `state`, issued at
/// `issued_at_ms`.
pub(crate) fn seal(
    sealer: &Sealer,
    binding: &StateBinding<'_>,
    issued_at_ms: u64,
    requests: &InputRequests,
    state: &[u8],
) -> String {
    debug_assert!(requests.len() <= MAX_INPUT_REQUESTS && state.len() <= MAX_INPUT_STATE_BYTES);
    let mut plain = Vec::with_capacity(8 + 1 + requests.len() * 16 + 2 + state.len());
    plain.extend_from_slice(&issued_at_ms.to_be_bytes());
    plain.push(requests.len() as u8);
    for (key, r) in requests.iter() {
        plain.push(r.kind() as u8);
        plain.push(key.len() as u8);
        plain.extend_from_slice(key.as_bytes());
    }
    plain.extend_from_slice(&(state.len() as u16).to_be_bytes());
    plain.extend_from_slice(state);
    sealer.seal_token(VERSION, &binding.associated(), &plain)
}

/// Why a request state was refused (the private cause).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StateError {
    /// Longer than 8 KiB.
    Oversized,
    /// Not base64url, an unknown version or too short to be a state.
    Malformed,
    /// The AEAD does not open it: altered, another key, or bound to
    /// another registry content hash, scope, method, URI or params.
    NotAuthentic,
    /// Authentic contents this version cannot have written.
    BadContents,
    /// Older than ten minutes.
    Expired,
    /// Issued more than a minute in the future.
    FromTheFuture,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StateError::Oversized => "request state exceeds 8 KiB",
            StateError::Malformed => "request state is not a sealed state of this version",
            StateError::NotAuthentic => {
                "request state authentication failed (altered, another key, or another \
                 registry content hash, scope, method, URI or params)"
            }
            StateError::BadContents => "request state contents are malformed",
            StateError::Expired => "request state expired",
            StateError::FromTheFuture => "request state issue time lies in the future",
        })
    }
}

/// The safe message (and JSON-RPC message) of every refused request state
/// but an expired one.
pub(crate) const INVALID_STATE: &str = "Invalid request state";
/// The safe message of an expired request state.
pub(crate) const EXPIRED_STATE: &str = "Request state expired";

impl From<StateError> for Failure {
    fn from(e: StateError) -> Failure {
        let message = if e == StateError::Expired {
            EXPIRED_STATE
        } else {
            INVALID_STATE
        };
        Failure::request(message)
            .with_rpc_message(message)
            .caused_by(CauseText(e.to_string()))
    }
}

/// Opens and verifies a request state: its size, its form, the AEAD
/// (every binding), its contents, then its issue time against `now_ms`.
pub(crate) fn open(
    sealer: &Sealer,
    binding: &StateBinding<'_>,
    text: &[u8],
    now_ms: u64,
) -> Result<Opened, StateError> {
    use crate::cursor::CursorError;
    let plain = sealer
        .open_token(VERSION, &binding.associated(), text, MAX_STATE_TEXT_BYTES)
        .map_err(|e| match e {
            CursorError::Oversized => StateError::Oversized,
            CursorError::NotAuthentic => StateError::NotAuthentic,
            _ => StateError::Malformed,
        })?;
    let (issued_at_ms, opened) = decode(&plain).ok_or(StateError::BadContents)?;
    if issued_at_ms > now_ms.saturating_add(MAX_FUTURE_SKEW_MS) {
        return Err(StateError::FromTheFuture);
    }
    if now_ms.saturating_sub(issued_at_ms) >= STATE_LIFETIME_MS {
        return Err(StateError::Expired);
    }
    Ok(opened)
}

/// Decodes the contents [`seal`] writes.
fn decode(plain: &[u8]) -> Option<(u64, Opened)> {
    let mut r = plain;
    let mut take = |n: usize| -> Option<&[u8]> {
        let (head, tail) = (r.get(..n)?, r.get(n..)?);
        r = tail;
        Some(head)
    };
    let issued = u64::from_be_bytes(take(8)?.try_into().ok()?);
    let n = take(1)?[0] as usize;
    if n > MAX_INPUT_REQUESTS {
        return None;
    }
    let mut asked = Vec::with_capacity(n);
    for _ in 0..n {
        let kind = InputKind::from_u8(take(1)?[0])?;
        let len = take(1)?[0] as usize;
        if len == 0 || len > MAX_INPUT_KEY_BYTES {
            return None;
        }
        let key = std::str::from_utf8(take(len)?).ok()?.to_string();
        asked.push((key, kind));
    }
    let state_len = u16::from_be_bytes(take(2)?.try_into().ok()?) as usize;
    if state_len > MAX_INPUT_STATE_BYTES {
        return None;
    }
    let state = take(state_len)?.to_vec();
    if !r.is_empty() {
        return None;
    }
    Some((issued, Opened { asked, state }))
}
