//! Exact JSON sizes used by admission, and the matching writers.
//!
//! Every size here is the number of bytes of compact JSON (UTF-8) that the
//! writers in this module produce, and the writers escape exactly as
//! `serde_json` does: `"` and `\` become `\"` and `\\`; the controls
//! U+0008, U+0009, U+000A, U+000C and U+000D become `\b`, `\t`, `\n`, `\f`
//! and `\r`; every other control below U+0020 becomes `\u00XX` with
//! lowercase hex; everything else (DEL and non-ASCII included) is copied.
//! Blobs are standard base64 with padding. The bytes to escape are found
//! by the one scan of `jsonbytes`.

use std::ops::Range;

use crate::jsonbytes::{escape_extra_bytes, next_special};
use crate::plan::{ResourcePayload, ResourceTarget};

// The C payload setter copies texts with the scan (kept at its old path).
pub(crate) use crate::jsonbytes::copy_text;

// Defined with the JSON scanner (which depends on nothing), so that
// `cache` can use it without depending on this module.
pub use crate::jsonscan::decimal_len;

/// Extra bytes that escaping `s` adds to its length (0 when it is copied
/// verbatim).
pub fn escape_extra(s: &str) -> usize {
    escape_extra_bytes(s.as_bytes())
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
    while let Some(at) = next_special(b, start) {
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
    match payload.body().text() {
        Some(t) => {
            text_extra = match payload.known_text_escape_extra() {
                Some(extra) => {
                    debug_assert_eq!(extra, escape_extra(t));
                    extra
                }
                None => escape_extra(t),
            };
            object += ITEM_FIXED_TEXT + t.len() + 2 + text_extra;
        }
        None => {
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
    let (b0, is_blob) = match payload.body().text() {
        Some(t) => {
            out.push_str(",\"text\":");
            let b0 = out.len();
            match size {
                Some(s) => write_json_str_known(out, t, s.text_extra),
                None => write_json_str(out, t),
            }
            (b0, false)
        }
        None => {
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
                }
                let s = format!("{}\u{7f}é{}", "a".repeat(at), "b".repeat(len - at));
                assert_eq!(escape_extra(&s), 0);
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

    proptest! {
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
