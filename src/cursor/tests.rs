//! Sealed cursors: what they carry, what they hide, and every way to alter
//! or move one.

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
        content_hash: &REV,
        scope_hash: scope,
    }
}

fn good() -> String {
    Sealer::new(&KEY).issue(binding(Method::Resources, &scope()), 42, NOW)
}

fn check(cursor: &[u8], now: u64) -> Result<usize, CursorError> {
    Sealer::new(&KEY).verify(binding(Method::Resources, &scope()), cursor, now, 100)
}

fn decoded(c: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(c).unwrap()
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
fn contents_encode_and_decode_every_field() {
    let c = Contents {
        method: Method::Templates,
        position: 0x0102_0304_0506_0708,
        issued_at_ms: u64::MAX - 1,
        cache_scope: CacheScope::Public,
    };
    let bytes = c.encode();
    assert_eq!(bytes[0], 2);
    assert_eq!(&bytes[1..9], &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(Contents::decode(&bytes), Some(c));
    let mut unknown = bytes;
    unknown[0] = 9;
    assert_eq!(Contents::decode(&unknown), None);
}

#[test]
fn sealed_bytes_contain_neither_position_nor_issue_time_nor_content_hash_nor_scope() {
    let sealer = Sealer::new(&KEY);
    let s = scope();
    let content_hash = [0x5a; 32];
    let b = Binding {
        method: Method::Resources,
        content_hash: &content_hash,
        scope_hash: &s,
    };
    for position in [1u64, 41, 255, 256, 65_537, 1 << 40] {
        let raw = decoded(&sealer.issue(b, position, NOW));
        let needles: [&[u8]; 7] = [
            &position.to_be_bytes(),
            &position.to_le_bytes(),
            &NOW.to_be_bytes(),
            &NOW.to_le_bytes(),
            &content_hash[..8],
            &s[..8],
            &s[24..],
        ];
        for needle in needles {
            assert!(
                !raw.windows(needle.len()).any(|w| w == needle),
                "position {position}: {needle:?} visible"
            );
        }
    }
}

#[test]
fn no_byte_but_the_version_is_the_same_in_every_cursor_for_one_page() {
    // A readable field would sit at a fixed offset with a fixed value.
    let sealer = Sealer::new(&KEY);
    let s = scope();
    let cursors: Vec<Vec<u8>> = (0..48)
        .map(|_| decoded(&sealer.issue(binding(Method::Resources, &s), 42, NOW)))
        .collect();
    for i in 1..TOKEN_LEN {
        assert!(
            cursors.iter().any(|c| c[i] != cursors[0][i]),
            "byte {i} is constant"
        );
    }
    assert!(cursors.iter().all(|c| c[0] == VERSION));
    assert_ne!(cursors[0], cursors[1]);
}

#[test]
fn every_character_tampered_fails() {
    let c = good();
    for i in 0..c.len() {
        for replacement in [b'A', b'z', b'-', b'_', b'0'] {
            let mut t = c.clone().into_bytes();
            if t[i] == replacement {
                continue;
            }
            t[i] = replacement;
            assert!(check(&t, NOW).is_err(), "tampered character {i}");
        }
    }
}

#[test]
fn every_decoded_bit_flip_fails() {
    let c = good();
    let raw = decoded(&c);
    for i in 0..raw.len() {
        for bit in 0..8 {
            let mut t = raw.clone();
            t[i] ^= 1 << bit;
            let e = check(URL_SAFE_NO_PAD.encode(&t).as_bytes(), NOW);
            let want = if i == 0 {
                CursorError::BadVersion
            } else {
                CursorError::NotAuthentic
            };
            assert_eq!(e, Err(want), "byte {i} bit {bit}");
        }
    }
}

#[test]
fn truncated_and_extended_fail() {
    let c = good();
    for n in 0..c.len() {
        assert!(check(&c.as_bytes()[..n], NOW).is_err(), "prefix {n}");
    }
    let raw = decoded(&c);
    for n in 0..raw.len() {
        let t = URL_SAFE_NO_PAD.encode(&raw[..n]);
        assert_eq!(
            check(t.as_bytes(), NOW),
            Err(CursorError::BadLength),
            "decoded prefix {n}"
        );
    }
    let longer = format!("{c}AAAA");
    assert_eq!(check(longer.as_bytes(), NOW), Err(CursorError::BadLength));
}

#[test]
fn empty_ciphertext_fails() {
    // The version and a nonce, then nothing; and then a tag alone.
    let raw = decoded(&good());
    let header = URL_SAFE_NO_PAD.encode(&raw[..1 + NONCE_LEN]);
    assert_eq!(check(header.as_bytes(), NOW), Err(CursorError::BadLength));
    let tag_only = [&raw[..1 + NONCE_LEN], &raw[raw.len() - TAG_LEN..]].concat();
    let tag_only = URL_SAFE_NO_PAD.encode(tag_only);
    assert_eq!(check(tag_only.as_bytes(), NOW), Err(CursorError::BadLength));
    assert_eq!(check(b"", NOW), Err(CursorError::BadLength));
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
    let huge = vec![b'!'; MAX_CURSOR_BYTES + 1];
    assert_eq!(check(&huge, NOW), Err(CursorError::Oversized));
    // At the ceiling, the input is decoded: 4096 `A`s are zero bytes.
    let at_ceiling = vec![b'A'; MAX_CURSOR_BYTES];
    assert_eq!(check(&at_ceiling, NOW), Err(CursorError::BadVersion));
    let at_ceiling = [b"Ag".as_slice(), &[b'A'; MAX_CURSOR_BYTES - 2]].concat();
    assert_eq!(check(&at_ceiling, NOW), Err(CursorError::BadLength));
}

#[test]
fn another_key_fails() {
    let other = [8u8; 32];
    let c = Sealer::new(&other).issue(binding(Method::Resources, &scope()), 42, NOW);
    assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::NotAuthentic));
}

#[test]
fn the_raw_cursor_key_never_keys_the_cipher() {
    // A cursor sealed directly under the raw key does not open.
    let raw_keyed = Sealer {
        aead: XChaCha20Poly1305::new(Key::from_slice(&KEY)),
    };
    let c = raw_keyed.issue(binding(Method::Resources, &scope()), 42, NOW);
    assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::NotAuthentic));
}

#[test]
fn long_keys_derive_working_distinct_keys() {
    let long = [9u8; 1024];
    let longer_by_one = [9u8; 1023];
    let s = scope();
    let c = Sealer::new(&long).issue(binding(Method::Resources, &s), 42, NOW);
    let b = binding(Method::Resources, &s);
    assert_eq!(Sealer::new(&long).verify(b, c.as_bytes(), NOW, 100), Ok(42));
    assert_eq!(
        Sealer::new(&longer_by_one).verify(b, c.as_bytes(), NOW, 100),
        Err(CursorError::NotAuthentic)
    );
}

#[test]
fn another_method_fails() {
    let s = scope();
    let c = Sealer::new(&KEY).issue(binding(Method::Templates, &s), 42, NOW);
    assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::WrongMethod));
    assert_eq!(
        Sealer::new(&KEY).verify(binding(Method::Templates, &s), c.as_bytes(), NOW, 100),
        Ok(42)
    );
}

#[test]
fn another_content_hash_fails() {
    let s = scope();
    let c = Sealer::new(&KEY).issue(
        Binding {
            method: Method::Resources,
            content_hash: &[2; 32],
            scope_hash: &s,
        },
        42,
        NOW,
    );
    assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::NotAuthentic));
}

#[test]
fn another_scope_fails() {
    let other = scope_hash(b"tenant-b");
    let c = Sealer::new(&KEY).issue(binding(Method::Resources, &other), 42, NOW);
    assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::NotAuthentic));
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
        let c = Sealer::new(&KEY).issue(binding(Method::Resources, &s), p, NOW);
        assert_eq!(
            check(c.as_bytes(), NOW),
            Err(CursorError::BadPosition),
            "{p}"
        );
    }
    let c = Sealer::new(&KEY).issue(binding(Method::Resources, &s), 99, NOW);
    assert_eq!(check(c.as_bytes(), NOW), Ok(99));
}

#[test]
fn cache_scope_travels_in_the_cursor() {
    let s = scope();
    let b = binding(Method::Resources, &s);
    for want in [CacheScope::Private, CacheScope::Public] {
        let c = Sealer::new(&KEY).issue_scoped(b, 42, want, NOW);
        assert_eq!(
            Sealer::new(&KEY).verify_scoped(b, c.as_bytes(), NOW, 100),
            Ok((42, want))
        );
    }
}

#[test]
fn unknown_cache_scope_fails_even_when_authenticated() {
    let s = scope();
    let b = binding(Method::Resources, &s);
    let mut bytes = Contents::new(Method::Resources, 42, NOW).encode();
    *bytes.last_mut().unwrap() = 2;
    assert_eq!(Contents::decode(&bytes), None);
    // Sealed as is, it opens but cannot be decoded.
    let sealed = Sealer::new(&KEY).seal_as(VERSION, b, &bytes, &[5; NONCE_LEN]);
    assert_eq!(check(sealed.as_bytes(), NOW), Err(CursorError::WrongMethod));
}

#[test]
fn unknown_version_fails_even_when_authenticated() {
    let s = scope();
    let b = binding(Method::Resources, &s);
    let contents = Contents::new(Method::Resources, 42, NOW);
    for version in [0u8, 1, 3, 255] {
        let c = Sealer::new(&KEY).seal_as(version, b, &contents.encode(), &[5; NONCE_LEN]);
        assert_eq!(
            check(c.as_bytes(), NOW),
            Err(CursorError::BadVersion),
            "{version}"
        );
    }
}

#[test]
fn the_version_is_authenticated_too() {
    // Sealed as version 3, relabelled 2: the associated data differs.
    let s = scope();
    let b = binding(Method::Resources, &s);
    let contents = Contents::new(Method::Resources, 42, NOW);
    let c = Sealer::new(&KEY).seal_as(3, b, &contents.encode(), &[5; NONCE_LEN]);
    let mut raw = decoded(&c);
    raw[0] = VERSION;
    let c = URL_SAFE_NO_PAD.encode(raw);
    assert_eq!(check(c.as_bytes(), NOW), Err(CursorError::NotAuthentic));
}

#[test]
fn a_cursor_fits_the_page_envelope_with_room_to_spare() {
    // The longest list envelope around a cursor, with the fields the
    // 2026-07-28 protocol revision adds (at their longest), fits the
    // 256 bytes every page reserves.
    let c = good();
    assert_eq!(c.len(), 79);
    let envelope = format!(
        r#"{{"resourceTemplates":[],"nextCursor":"{c}","resultType":"complete","ttlMs":18446744073709551615,"cacheScope":"private"}}"#
    );
    // 195 bytes; the 152-character signed cursor of version 1 would
    // have made it 268.
    assert!(
        envelope.len() as u64 <= crate::limits::PAGE_ENVELOPE_BYTES,
        "{}",
        envelope.len()
    );
}

#[test]
fn failures_are_invalid_request_with_a_private_cause() {
    let f = Failure::from(CursorError::WrongMethod);
    assert_eq!(f.kind(), crate::error::FailureKind::InvalidRequest);
    assert_eq!(f.message(), "invalid cursor");
    assert_eq!(f.cause_text(), "cursor was issued for another list method");
    let f = Failure::from(CursorError::NotAuthentic);
    assert_eq!(f.message(), "invalid cursor");
    assert!(f.cause_text().contains("another scope"));
    let f = Failure::from(CursorError::Expired);
    assert_eq!(f.kind(), crate::error::FailureKind::InvalidRequest);
    assert_eq!(f.message(), "cursor expired");
}
