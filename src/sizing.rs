//! Exact JSON sizes used by admission, and the matching writers.
//!
//! Every size here is the number of bytes of compact JSON (UTF-8) that the
//! writers in this module produce, and the writers escape exactly as
//! `serde_json` does: `"` and `\` become `\"` and `\\`; the controls
//! U+0008, U+0009, U+000A, U+000C and U+000D become `\b`, `\t`, `\n`, `\f`
//! and `\r`; every other control below U+0020 becomes `\u00XX` with
//! lowercase hex; everything else (DEL and non-ASCII included) is copied.
//! Blobs are standard base64 with padding.

use std::ops::Range;

use crate::plan::{PayloadBody, ResourcePayload, ResourceTarget};

/// Extra bytes the escaping of each byte adds (0, 1 or 5).
const EXTRA: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = 5;
        i += 1;
    }
    t[0x08] = 1;
    t[0x09] = 1;
    t[0x0a] = 1;
    t[0x0c] = 1;
    t[0x0d] = 1;
    t[b'"' as usize] = 1;
    t[b'\\' as usize] = 1;
    t
};

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Whether any byte of the little-endian word `x` needs escaping (exact:
/// the "has zero byte" / "has byte less than" tricks have no false
/// positives when only existence is asked).
#[inline(always)]
fn dirty(x: u64) -> bool {
    let lt = x.wrapping_sub(LO * 0x20) & !x & HI;
    let q = x ^ (LO * b'"' as u64);
    let q = q.wrapping_sub(LO) & !q & HI;
    let b = x ^ (LO * b'\\' as u64);
    let b = b.wrapping_sub(LO) & !b & HI;
    (lt | q | b) != 0
}

#[inline(always)]
fn word(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

/// Index of the first byte at or after `from` that needs escaping.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn next_escape(b: &[u8], i: usize) -> Option<usize> {
    next_escape_swar(b, i)
}

/// Index of the first byte at or after `from` that needs escaping: 64
/// bytes per step with AVX2 when the CPU has it (detected once, then a
/// cached flag) and the string is long enough, else SSE2.
#[cfg(target_arch = "x86_64")]
#[inline]
fn next_escape(b: &[u8], i: usize) -> Option<usize> {
    if b.len() >= 64 && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present (checked just above).
        return unsafe { next_escape_avx2(b, i) };
    }
    next_escape_sse2(b, i)
}

/// [`next_escape`] 32 bytes per compare (two per step) with AVX2, the tail
/// (under 32 bytes) by [`next_escape_sse2`].
///
/// # Safety
/// The CPU supports AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn next_escape_avx2(b: &[u8], mut i: usize) -> Option<usize> {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8,
    };
    let n = b.len();
    let p = b.as_ptr();
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let control = _mm256_set1_epi8(0x1f);
    // SAFETY: every load reads the 32 bytes at an offset `at` with
    // `at + 32 <= n`, inside `b`; AVX2 is present (caller's guarantee).
    let mask_at = |at: usize| -> u32 {
        let x = unsafe { _mm256_loadu_si256(p.add(at).cast::<__m256i>()) };
        let m = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, backslash)),
            _mm256_cmpeq_epi8(_mm256_min_epu8(x, control), x),
        );
        _mm256_movemask_epi8(m) as u32
    };
    while i + 64 <= n {
        let (a, c) = (mask_at(i), mask_at(i + 32));
        if (a | c) != 0 {
            let m = u64::from(a) | (u64::from(c) << 32);
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 64;
    }
    if i + 32 <= n {
        let m = mask_at(i);
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 32;
    }
    next_escape_sse2(b, i)
}

/// [`next_escape`] 16 bytes at a time with SSE2 (part of the x86_64
/// baseline, so always present): a byte needs escaping when it is `"` or
/// `\` or at most 0x1f (unsigned `min(x, 0x1f) == x`). The last partial
/// block is one overlapping load of the final 16 bytes with the bytes
/// already looked at masked off; strings shorter than 16 bytes go word by
/// word.
#[cfg(target_arch = "x86_64")]
#[inline]
fn next_escape_sse2(b: &[u8], mut i: usize) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let n = b.len();
    if n < 16 || i >= n {
        return next_escape_swar(b, i);
    }
    let p = b.as_ptr();
    // SAFETY: SSE2 is enabled on every x86_64 target; every load reads the
    // 16 bytes at an offset `at` with `at + 16 <= n`, inside `b`.
    unsafe {
        let quote = _mm_set1_epi8(b'"' as i8);
        let backslash = _mm_set1_epi8(b'\\' as i8);
        let control = _mm_set1_epi8(0x1f);
        let mask_at = |at: usize| -> u32 {
            let x = _mm_loadu_si128(p.add(at).cast::<__m128i>());
            let m = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                _mm_cmpeq_epi8(_mm_min_epu8(x, control), x),
            );
            _mm_movemask_epi8(m) as u32
        };
        while i + 32 <= n {
            let (a, c) = (mask_at(i), mask_at(i + 16));
            if (a | c) != 0 {
                let m = a | (c << 16);
                return Some(i + m.trailing_zeros() as usize);
            }
            i += 32;
        }
        if i + 16 <= n {
            let m = mask_at(i);
            if m != 0 {
                return Some(i + m.trailing_zeros() as usize);
            }
            i += 16;
        }
        if i < n {
            // The final 16 bytes, without the `i - (n - 16)` already seen.
            let at = n - 16;
            let m = mask_at(at) >> (i - at);
            if m != 0 {
                return Some(i + m.trailing_zeros() as usize);
            }
        }
    }
    None
}

/// [`next_escape`] eight bytes at a time (the portable fallback, and short
/// strings on x86_64).
#[inline]
fn next_escape_swar(b: &[u8], mut i: usize) -> Option<usize> {
    while i + 32 <= b.len() {
        if dirty(word(b, i))
            || dirty(word(b, i + 8))
            || dirty(word(b, i + 16))
            || dirty(word(b, i + 24))
        {
            break;
        }
        i += 32;
    }
    while i + 8 <= b.len() {
        if dirty(word(b, i)) {
            break;
        }
        i += 8;
    }
    while i < b.len() {
        if EXTRA[b[i] as usize] != 0 {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// A text copied for a payload, with what sizing and validation need to
/// know about it from the same pass.
pub(crate) struct CopiedText {
    /// The bytes, copied.
    pub bytes: Vec<u8>,
    /// Whether every byte is ASCII (then the bytes are valid UTF-8).
    pub ascii: bool,
    /// The escaping extra of the bytes, as [`escape_extra`] counts it on
    /// their text (exact for any valid UTF-8: no byte of a multi-byte
    /// sequence needs escaping).
    pub escape_extra: usize,
}

/// Copies `b` in one pass that also checks for non-ASCII bytes and counts
/// the escaping extra: 32 bytes per step with AVX2 when the CPU has it and
/// `b` is at least 32 bytes long, else a copy and the usual two scans.
pub(crate) fn copy_text(b: &[u8]) -> CopiedText {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 32 && std::arch::is_x86_feature_detected!("avx2") {
        let mut bytes = Vec::with_capacity(b.len());
        // SAFETY: AVX2 is present (checked just above); `bytes` has room
        // for `b.len()` bytes, all of which the call writes.
        let (ascii, escape_extra) = unsafe { copy_scan_avx2(b, bytes.as_mut_ptr()) };
        // SAFETY: every byte up to `b.len()` was written.
        unsafe { bytes.set_len(b.len()) };
        return CopiedText {
            bytes,
            ascii,
            escape_extra,
        };
    }
    CopiedText {
        bytes: b.to_vec(),
        ascii: b.iter().fold(0u8, |acc, &x| acc | x) < 0x80,
        escape_extra: escape_extra_bytes(b),
    }
}

/// The AVX2 pass of [`copy_text`]: copies `src` (at least 32 bytes) to
/// `dst`, returns whether every byte is ASCII and the escaping extra. The
/// last partial block is one overlapping load of the final 32 bytes, with
/// the bytes already counted masked off.
///
/// # Safety
/// The CPU supports AVX2; `src.len() >= 32`; `dst` is valid for
/// `src.len()` byte writes and does not overlap `src`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn copy_scan_avx2(src: &[u8], dst: *mut u8) -> (bool, usize) {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    let n = src.len();
    debug_assert!(n >= 32);
    let p = src.as_ptr();
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let control = _mm256_set1_epi8(0x1f);
    let mut high = _mm256_setzero_si256();
    let mut extra = 0usize;
    // Copies the 32 bytes at `at` and returns them.
    let copy = |at: usize| -> __m256i {
        // SAFETY: `at + 32 <= n`: inside `src`, and inside `dst` (valid
        // for `n` bytes, caller's guarantee); AVX2 is present.
        unsafe {
            let x = _mm256_loadu_si256(p.add(at).cast::<__m256i>());
            _mm256_storeu_si256(dst.add(at).cast::<__m256i>(), x);
            x
        }
    };
    // The bytes of `x` that need escaping (0xff each).
    let escapes = |x: __m256i| -> __m256i {
        _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, backslash)),
            _mm256_cmpeq_epi8(_mm256_min_epu8(x, control), x),
        )
    };
    let mask = |e: __m256i| -> u32 { _mm256_movemask_epi8(e) as u32 };
    let count = |base: usize, mut m: u32| -> usize {
        let mut extra = 0;
        while m != 0 {
            extra += EXTRA[src[base + m.trailing_zeros() as usize] as usize] as usize;
            m &= m - 1;
        }
        extra
    };
    let mut i = 0;
    // 64 bytes per step, one test for both halves.
    while i + 64 <= n {
        let (a, b) = (copy(i), copy(i + 32));
        high = _mm256_or_si256(high, _mm256_or_si256(a, b));
        let (ea, eb) = (escapes(a), escapes(b));
        if mask(_mm256_or_si256(ea, eb)) != 0 {
            extra += count(i, mask(ea)) + count(i + 32, mask(eb));
        }
        i += 64;
    }
    if i + 32 <= n {
        let a = copy(i);
        high = _mm256_or_si256(high, a);
        extra += count(i, mask(escapes(a)));
        i += 32;
    }
    if i < n {
        // The final 32 bytes, without the `i - (n - 32)` already counted
        // (copied again, with the same bytes).
        let at = n - 32;
        let a = copy(at);
        high = _mm256_or_si256(high, a);
        extra += count(i, mask(escapes(a)) >> (i - at));
    }
    (_mm256_movemask_epi8(high) == 0, extra)
}

// Defined with the JSON scanner (which depends on nothing), so that
// `cache` can use it without depending on this module.
pub use crate::jsonscan::decimal_len;

/// Extra bytes that escaping `s` adds to its length (0 when it is copied
/// verbatim).
pub fn escape_extra(s: &str) -> usize {
    escape_extra_bytes(s.as_bytes())
}

/// [`escape_extra`] of the bytes of a text.
fn escape_extra_bytes(b: &[u8]) -> usize {
    let mut extra = 0usize;
    let mut i = 0;
    while let Some(at) = next_escape(b, i) {
        extra += EXTRA[b[at] as usize] as usize;
        i = at + 1;
    }
    extra
}

/// Bytes of `s` as a JSON string literal, quotes included.
pub fn json_str_len(s: &str) -> usize {
    s.len() + 2 + escape_extra(s)
}

/// Length of the standard padded base64 encoding of `n` bytes.
pub fn base64_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as a JSON string literal (quotes included), escaping as
/// `serde_json` does.
pub fn write_json_str(out: &mut String, s: &str) {
    out.push('"');
    let b = s.as_bytes();
    let mut start = 0;
    while let Some(at) = next_escape(b, start) {
        out.push_str(&s[start..at]);
        match b[at] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            0x09 => out.push_str("\\t"),
            0x0a => out.push_str("\\n"),
            0x0c => out.push_str("\\f"),
            0x0d => out.push_str("\\r"),
            c => {
                out.push_str("\\u00");
                out.push(HEX[(c >> 4) as usize] as char);
                out.push(HEX[(c & 0xf) as usize] as char);
            }
        }
        start = at + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends `s` as a JSON string literal whose escaping cost is already
/// known (`extra` from [`escape_extra`]); copies verbatim when it is zero.
pub fn write_json_str_known(out: &mut String, s: &str, extra: usize) {
    if extra == 0 {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        write_json_str(out, s);
    }
}

/// Appends the standard padded base64 encoding of `data` as a JSON string
/// literal (base64 never needs escaping). The encoding is written straight
/// into `out`'s spare capacity with SIMD (`base64-simd`, which picks AVX2,
/// SSE4.1 or NEON at run time): no intermediate buffer, and no growth when
/// `out` was sized exactly, as the read result is.
pub fn write_base64_str(out: &mut String, data: &[u8]) {
    out.push('"');
    base64_simd::STANDARD.encode_append(data, out);
    out.push('"');
}

/// The exact encoded size of one content item
/// `{"uri":…,"mimeType":…,"text"|"blob":…[,"_meta":…]}`, and the pieces
/// needed to write it without measuring again.
#[derive(Debug, Clone)]
pub struct ItemSize {
    /// Bytes of the item object.
    pub object: u64,
    /// Escaping extra of the URI.
    pub uri_extra: usize,
    /// Escaping extra of the MIME type.
    pub mime_extra: usize,
    /// Escaping extra of the text (0 for blobs).
    pub text_extra: usize,
}

const ITEM_FIXED_TEXT: usize = r#"{"uri":,"mimeType":,"text":}"#.len();
const ITEM_FIXED_BLOB: usize = r#"{"uri":,"mimeType":,"blob":}"#.len();
const META_FIELD: usize = r#","_meta":"#.len();

/// Measures the item object a payload becomes under `uri`. `meta_json` is
/// the payload's `_meta` already serialised compactly, when it has one.
pub fn item_size(uri: &str, payload: &ResourcePayload, meta_json: Option<&str>) -> ItemSize {
    let mime_extra = escape_extra(payload.mime_type());
    measure(uri, escape_extra(uri), payload, mime_extra, meta_json)
}

/// [`item_size`] of a payload bound to `target`, without scanning what
/// cannot need escaping: a target's URI is a valid identifier (no `"`, `\`
/// or control character, see `identity`), and neither is any of the
/// common media types a payload keeps borrowed.
pub(crate) fn target_item_size(
    target: &ResourceTarget,
    payload: &ResourcePayload,
    meta_json: Option<&str>,
) -> ItemSize {
    let uri = target.uri();
    debug_assert_eq!(escape_extra(uri), 0, "a target URI never needs escaping");
    let mime_extra = if payload.has_common_media_type() {
        debug_assert_eq!(escape_extra(payload.mime_type()), 0);
        0
    } else {
        escape_extra(payload.mime_type())
    };
    measure(uri, 0, payload, mime_extra, meta_json)
}

fn measure(
    uri: &str,
    uri_extra: usize,
    payload: &ResourcePayload,
    mime_extra: usize,
    meta_json: Option<&str>,
) -> ItemSize {
    let mut object = uri.len() + 2 + uri_extra + payload.mime_type().len() + 2 + mime_extra;
    let mut text_extra = 0;
    match payload.body() {
        PayloadBody::Text(t) => {
            text_extra = match payload.known_text_escape_extra() {
                Some(extra) => {
                    debug_assert_eq!(extra, escape_extra(t));
                    extra
                }
                None => escape_extra(t),
            };
            object += ITEM_FIXED_TEXT + t.len() + 2 + text_extra;
        }
        PayloadBody::Blob(_) | PayloadBody::SharedBlob(_) => {
            let n = payload.body().blob_bytes().map_or(0, <[u8]>::len);
            object += ITEM_FIXED_BLOB + base64_len(n) + 2;
        }
    }
    if let Some(m) = meta_json {
        object += META_FIELD + m.len();
    }
    ItemSize {
        object: object as u64,
        uri_extra,
        mime_extra,
        text_extra,
    }
}

/// Byte ranges of one written item object inside the output buffer.
/// String ranges include their quotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemSpans {
    /// The whole object.
    pub object: Range<usize>,
    /// The `uri` string literal.
    pub uri: Range<usize>,
    /// The `mimeType` string literal.
    pub mime_type: Range<usize>,
    /// The `text` or `blob` string literal.
    pub body: Range<usize>,
    /// Whether the body is a base64 `blob`.
    pub is_blob: bool,
    /// The `_meta` object, if any.
    pub meta: Option<Range<usize>>,
}

/// Writes the item object measured by [`item_size`] (`size` may be `None`
/// when a host sizer replaced the exact measurement) and returns where its
/// parts are.
pub fn write_item(
    out: &mut String,
    uri: &str,
    payload: &ResourcePayload,
    meta_json: Option<&str>,
    size: Option<&ItemSize>,
) -> ItemSpans {
    let start = out.len();
    out.push_str("{\"uri\":");
    let u0 = out.len();
    match size {
        Some(s) => write_json_str_known(out, uri, s.uri_extra),
        None => write_json_str(out, uri),
    }
    let u1 = out.len();
    out.push_str(",\"mimeType\":");
    let m0 = out.len();
    match size {
        Some(s) => write_json_str_known(out, payload.mime_type(), s.mime_extra),
        None => write_json_str(out, payload.mime_type()),
    }
    let m1 = out.len();
    let (b0, is_blob) = match payload.body() {
        PayloadBody::Text(t) => {
            out.push_str(",\"text\":");
            let b0 = out.len();
            match size {
                Some(s) => write_json_str_known(out, t, s.text_extra),
                None => write_json_str(out, t),
            }
            (b0, false)
        }
        PayloadBody::Blob(_) | PayloadBody::SharedBlob(_) => {
            out.push_str(",\"blob\":");
            let b0 = out.len();
            write_base64_str(out, payload.body().blob_bytes().unwrap_or_default());
            (b0, true)
        }
    };
    let b1 = out.len();
    let meta = meta_json.map(|m| {
        out.push_str(",\"_meta\":");
        let x0 = out.len();
        out.push_str(m);
        x0..out.len()
    });
    out.push('}');
    ItemSpans {
        object: start..out.len(),
        uri: u0..u1,
        mime_type: m0..m1,
        body: b0..b1,
        is_blob,
        meta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn serde_len(s: &str) -> usize {
        serde_json::to_string(s).unwrap().len()
    }

    #[test]
    fn escaping_matches_serde_json_for_every_ascii_byte() {
        for c in 0u8..0x80 {
            let s = format!("a{}b", c as char);
            let mut out = String::new();
            write_json_str(&mut out, &s);
            assert_eq!(out, serde_json::to_string(&s).unwrap(), "byte {c:#x}");
            assert_eq!(json_str_len(&s), out.len(), "byte {c:#x}");
        }
    }

    #[test]
    fn escaping_handles_words_and_tails() {
        let s = "0123456789abcdef0123456789abcdef0123456789\"abcdef\u{1}x\\é\u{7f}\u{2028}";
        let mut out = String::new();
        write_json_str(&mut out, s);
        assert_eq!(out, serde_json::to_string(s).unwrap());
        assert_eq!(json_str_len(s), serde_len(s));
        assert_eq!(escape_extra(&"x".repeat(1000)), 0);
    }

    /// Every escaped byte is found wherever it sits: at each offset of
    /// strings of every length up to 80 (across the 16- and 32-byte blocks
    /// and the overlapping final block), alone and after another one.
    #[test]
    fn escaping_finds_every_special_at_every_offset() {
        for len in 1..80 {
            for at in 0..len {
                for special in ['"', '\\', '\n', '\u{1}', '\u{1f}'] {
                    let mut v: Vec<char> = vec!['a'; len];
                    v[at] = special;
                    v[len - 1 - (len - 1 - at) / 2] = special;
                    let s: String = v.into_iter().collect();
                    let mut out = String::new();
                    write_json_str(&mut out, &s);
                    assert_eq!(out, serde_json::to_string(&s).unwrap(), "{len} {at}");
                    assert_eq!(json_str_len(&s), out.len(), "{len} {at}");
                    for from in 0..=len {
                        let b = s.as_bytes();
                        assert_eq!(next_escape(b, from), next_escape_swar(b, from));
                    }
                }
                let s = format!("{}\u{7f}é{}", "a".repeat(at), "b".repeat(len - at));
                assert_eq!(escape_extra(&s), 0);
            }
        }
    }

    /// The vector scans (AVX2 when present, SSE2) agree with the portable
    /// one for every length up to 200, every start and every position of
    /// one or two escaped bytes.
    #[test]
    fn vector_scans_agree_with_the_portable_scan() {
        for len in 0..200usize {
            let mut v = vec![b'a'; len];
            for at in 0..=len {
                if at < len {
                    v[at] = b'"';
                }
                for from in [0, at.saturating_sub(1), at, (at + 1).min(len), len] {
                    assert_eq!(
                        next_escape(&v, from),
                        next_escape_swar(&v, from),
                        "{len} {at} {from}"
                    );
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(next_escape_sse2(&v, from), next_escape_swar(&v, from));
                }
                if at < len {
                    v[at] = if at % 3 == 0 { 0x1f } else { b'a' };
                }
            }
        }
    }

    #[test]
    fn base64_lengths() {
        for n in 0..20 {
            let data = vec![7u8; n];
            let mut out = String::new();
            write_base64_str(&mut out, &data);
            assert_eq!(out.len(), base64_len(n) + 2);
        }
    }

    #[test]
    fn item_size_is_exact_for_text_blob_empty_and_meta() {
        let cases = [
            ResourcePayload::text("text/plain", "").unwrap(),
            ResourcePayload::text("text/plain; q=\"a\\\"b\"", "line\n\"x\"\u{0}").unwrap(),
            ResourcePayload::blob("image/png", &[]).unwrap(),
            ResourcePayload::blob("image/png", &[1, 2, 3, 4]).unwrap(),
            ResourcePayload::blob_shared("image/png", crate::plan::SharedBytes::new(vec![9u8; 7]))
                .unwrap(),
            ResourcePayload::text("text/plain", "m")
                .unwrap()
                .with_meta_json(r#"{"a": [1, "\u00e9"]}"#)
                .unwrap(),
        ];
        for p in cases {
            let meta = p.meta().map(|m| serde_json::to_string(m).unwrap());
            let size = item_size("x://a/é", &p, meta.as_deref());
            let mut out = String::new();
            write_item(&mut out, "x://a/é", &p, meta.as_deref(), Some(&size));
            assert_eq!(out.len() as u64, size.object);
            let mut out2 = String::new();
            write_item(&mut out2, "x://a/é", &p, meta.as_deref(), None);
            assert_eq!(out, out2);
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                out,
                "canonical compact JSON"
            );
        }
    }

    /// The sizing of a payload bound to a target skips scans that cannot
    /// find anything to escape; it must measure exactly what `item_size`
    /// measures, common media types or not (a quoted parameter needs
    /// escaping), with every target URI shape a plan can hold.
    #[test]
    fn target_item_size_measures_as_item_size() {
        let payloads = [
            ResourcePayload::text("text/plain", "a\"b\n").unwrap(),
            ResourcePayload::text("text/plain; charset=utf-8", "x").unwrap(),
            ResourcePayload::text("text/plain; q=\"a\\\"b\"", "y").unwrap(),
            ResourcePayload::blob("application/octet-stream", &[1, 2]).unwrap(),
            ResourcePayload::blob("image/png", &[3]).unwrap(),
        ];
        let uris = ["mem://doc/1", "x://a/é?q=1#f", "urn:x:%41'()*+,;=!$&~"];
        for uri in uris {
            let target = ResourceTarget::new(uri, "", None).unwrap();
            for p in &payloads {
                let a = item_size(uri, p, None);
                let b = target_item_size(&target, p, None);
                assert_eq!(
                    (a.object, a.uri_extra, a.mime_extra, a.text_extra),
                    (b.object, b.uri_extra, b.mime_extra, b.text_extra),
                    "{uri} {:?}",
                    p.mime_type()
                );
            }
        }
    }

    fn check_copy(b: &[u8]) {
        let c = copy_text(b);
        assert_eq!(c.bytes, b);
        assert_eq!(c.ascii, b.is_ascii(), "{b:?}");
        if let Ok(s) = std::str::from_utf8(b) {
            assert_eq!(c.escape_extra, escape_extra(s), "{s:?}");
        }
    }

    /// The one-pass copy of a payload text copies every byte, tells ASCII
    /// from non-ASCII and counts escaping as `escape_extra` does, at every
    /// length around the block sizes and with a special or non-ASCII
    /// character at every offset.
    #[test]
    fn copy_text_agrees_with_the_separate_scans() {
        for n in 0..200 {
            let base = "x".repeat(n);
            check_copy(base.as_bytes());
            for at in 0..n {
                for special in [
                    "\"",
                    "\\",
                    "\n",
                    "\u{1}",
                    "\u{1f}",
                    "\u{7f}",
                    "é",
                    "\u{10348}",
                ] {
                    let mut s = base.clone();
                    s.replace_range(at..at + 1, special);
                    check_copy(s.as_bytes());
                }
                let mut bad = base.clone().into_bytes();
                bad[at] = 0xff;
                check_copy(&bad);
            }
        }
        check_copy("\"\\\u{0}\t".repeat(100).as_bytes());
    }

    proptest! {
        #[test]
        fn copy_text_agrees_on_any_text(s in any::<String>(), pad in 0usize..70) {
            let s = format!("{}{s}", "a".repeat(pad));
            check_copy(s.as_bytes());
        }

        #[test]
        fn escaping_matches_serde_json(s in any::<String>()) {
            let mut out = String::new();
            write_json_str(&mut out, &s);
            prop_assert_eq!(&out, &serde_json::to_string(&s).unwrap());
            prop_assert_eq!(json_str_len(&s), out.len());
        }

        #[test]
        fn escaping_matches_serde_json_on_dense_specials(v in proptest::collection::vec(prop_oneof![Just('"'), Just('\\'), Just('\n'), Just('\u{1f}'), Just('a'), Just('é'), Just('\u{7f}')], 0..100)) {
            let s: String = v.into_iter().collect();
            let mut out = String::new();
            write_json_str(&mut out, &s);
            prop_assert_eq!(&out, &serde_json::to_string(&s).unwrap());
            prop_assert_eq!(json_str_len(&s), out.len());
        }
    }
}
