//! The JSON byte class every scanner of the library looks for: the bytes
//! that end the plain run of a JSON string (a quote `"`, a backslash `\`,
//! or a control character below 0x20). The same bytes are those
//! `serde_json` escapes when it writes a string, so one scan serves
//! - sizing and writing results (`sizing`: the escaping cost of a string,
//!   and where to escape),
//! - scanning definitions (`jsonscan`: where a string's plain run ends),
//! - the fast path of request params (`request`: strings without escapes),
//! - and copying payload texts in one pass that also counts their escaping
//!   ([`copy_text`]).
//!
//! [`next_special`] finds the next such byte with AVX2 (x86_64, detected at
//! run time, 64 bytes per step), SSE2 (16 bytes, the x86_64 baseline) or
//! eight bytes at a time elsewhere; the tests hold every variant to a
//! byte-by-byte search and the writers built on it to `serde_json`.

/// Extra bytes the escaping of each byte adds (0, 1 or 5): non-zero
/// exactly for the special bytes.
pub(crate) const ESCAPE_EXTRA: [u8; 256] = {
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

/// Index of the first special byte at or after `i` (see the module
/// documentation), `None` when there is none.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(crate) fn next_special(b: &[u8], i: usize) -> Option<usize> {
    next_special_swar(b, i)
}

/// Index of the first special byte at or after `i` (see the module
/// documentation), `None` when there is none: 64 bytes per step with AVX2 when the CPU has it (detected once, then a
/// cached flag) and the string is long enough, else SSE2.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn next_special(b: &[u8], i: usize) -> Option<usize> {
    if b.len() >= 64 && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present (checked just above).
        return unsafe { next_special_avx2(b, i) };
    }
    next_special_sse2(b, i)
}

/// [`next_special`] 32 bytes per compare (two per step) with AVX2, the tail
/// (under 32 bytes) by [`next_special_sse2`].
///
/// # Safety
/// The CPU supports AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn next_special_avx2(b: &[u8], mut i: usize) -> Option<usize> {
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
    next_special_sse2(b, i)
}

/// [`next_special`] 16 bytes at a time with SSE2 (part of the x86_64
/// baseline, so always present): a byte needs escaping when it is `"` or
/// `\` or at most 0x1f (unsigned `min(x, 0x1f) == x`). The last partial
/// block is one overlapping load of the final 16 bytes with the bytes
/// already looked at masked off; strings shorter than 16 bytes go word by
/// word.
#[cfg(target_arch = "x86_64")]
#[inline]
fn next_special_sse2(b: &[u8], mut i: usize) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let n = b.len();
    if n < 16 || i >= n {
        return next_special_swar(b, i);
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

/// [`next_special`] eight bytes at a time (the portable fallback, and short
/// strings on x86_64).
#[inline]
fn next_special_swar(b: &[u8], mut i: usize) -> Option<usize> {
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
        if ESCAPE_EXTRA[b[i] as usize] != 0 {
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
    /// The escaping extra of the bytes, as [`escape_extra_bytes`] counts it on
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
        let (ascii, escape_extra) = unsafe { copy_scan_avx2::<true>(b, bytes.as_mut_ptr()) };
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

/// What [`copy_text`] tells about a text, without the copy: whether every
/// byte is ASCII and the escaping extra (for a text the library borrows
/// instead of copying, such as `mcpr_payload_set_text_borrowed`'s).
pub(crate) fn scan_text(b: &[u8]) -> (bool, usize) {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 32 && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present (checked just above); nothing is
        // written (`COPY` false), so `dst` is never used.
        return unsafe { copy_scan_avx2::<false>(b, std::ptr::null_mut()) };
    }
    (
        b.iter().fold(0u8, |acc, &x| acc | x) < 0x80,
        escape_extra_bytes(b),
    )
}

/// The AVX2 pass of [`copy_text`] (`COPY`) and [`scan_text`]: copies `src`
/// (at least 32 bytes) to `dst` when `COPY`, returns whether every byte is
/// ASCII and the escaping extra. The last partial block is one overlapping
/// load of the final 32 bytes, with the bytes already counted masked off.
///
/// # Safety
/// The CPU supports AVX2; `src.len() >= 32`; with `COPY`, `dst` is valid
/// for `src.len()` byte writes and does not overlap `src` (without, it is
/// not used).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn copy_scan_avx2<const COPY: bool>(src: &[u8], dst: *mut u8) -> (bool, usize) {
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
            if COPY {
                _mm256_storeu_si256(dst.add(at).cast::<__m256i>(), x);
            }
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
            extra += ESCAPE_EXTRA[src[base + m.trailing_zeros() as usize] as usize] as usize;
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

/// Extra bytes that escaping the bytes of a text adds to its length (0
/// when it is copied verbatim).
pub(crate) fn escape_extra_bytes(b: &[u8]) -> usize {
    let mut extra = 0usize;
    let mut i = 0;
    while let Some(at) = next_special(b, i) {
        extra += ESCAPE_EXTRA[b[at] as usize] as usize;
        i = at + 1;
    }
    extra
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive(b: &[u8], from: usize) -> Option<usize> {
        b.get(from..)?
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            .map(|p| from + p)
    }

    #[test]
    fn the_class_is_quote_backslash_and_controls() {
        for c in 0..=255u8 {
            assert_eq!(
                ESCAPE_EXTRA[c as usize] != 0,
                c == b'"' || c == b'\\' || c < 0x20,
                "{c:#x}"
            );
        }
    }

    /// Every special byte is found wherever it sits: at each offset of
    /// strings of every length up to 80 (across the 16- and 32-byte blocks
    /// and the overlapping final block), alone and after another one, from
    /// every start.
    #[test]
    fn every_special_is_found_at_every_offset() {
        for len in 1..80 {
            for at in 0..len {
                for special in [b'"', b'\\', b'\n', 1, 0x1f] {
                    let mut v = vec![b'a'; len];
                    v[at] = special;
                    v[len - 1 - (len - 1 - at) / 2] = special;
                    for from in 0..=len {
                        assert_eq!(next_special(&v, from), naive(&v, from), "{len} {at} {from}");
                        assert_eq!(next_special_swar(&v, from), naive(&v, from));
                    }
                }
            }
        }
    }

    /// The vector scans (AVX2 when present, SSE2) agree with the portable
    /// one for every length up to 200, every start and every position of
    /// one or two special bytes.
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
                        next_special(&v, from),
                        next_special_swar(&v, from),
                        "{len} {at} {from}"
                    );
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(next_special_sse2(&v, from), next_special_swar(&v, from));
                }
                if at < len {
                    v[at] = if at % 3 == 0 { 0x1f } else { b'a' };
                }
            }
        }
    }

    fn check_copy(b: &[u8]) {
        let c = copy_text(b);
        assert_eq!(c.bytes, b);
        assert_eq!(c.ascii, b.is_ascii(), "{b:?}");
        assert_eq!(scan_text(b), (c.ascii, c.escape_extra), "{b:?}");
        if let Ok(s) = std::str::from_utf8(b) {
            let serde_extra = serde_json::to_string(s).unwrap().len() - s.len() - 2;
            assert_eq!(c.escape_extra, serde_extra, "{s:?}");
            assert_eq!(escape_extra_bytes(b), serde_extra, "{s:?}");
        }
    }

    /// The one-pass copy of a payload text copies every byte, tells ASCII
    /// from non-ASCII and counts escaping as `serde_json` escapes, at every
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

        /// The scan agrees with a byte-by-byte search on any bytes, from
        /// any start (the params fast path and the definition scanner stop
        /// where it says).
        #[test]
        fn next_special_agrees_with_the_naive_search(
            bytes in proptest::collection::vec(prop_oneof![
                any::<u8>(),
                Just(b'"'),
                Just(b'\\'),
                Just(0x1f),
                Just(0x20),
                Just(b'a'),
            ], 0..140),
            from in 0usize..140,
        ) {
            let from = from.min(bytes.len());
            prop_assert_eq!(next_special(&bytes, from), naive(&bytes, from));
        }
    }
}
