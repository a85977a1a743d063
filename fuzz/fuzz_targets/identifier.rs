//! Identifier validation: arbitrary bytes through `validate_uri`.
//!
//! Checks that the check never panics, that its one-pass fast path agrees
//! with the thorough path, that both agree with an independent reference
//! written from the rules (RFC 3986 characters, well-formed escapes,
//! non-control non-ASCII scalars, brackets only in the authority, no
//! userinfo, one `#` at most, the reserved scheme refused), that the parts
//! it returns are consistent, and that an accepted identifier registers as
//! a definition with the same `uri`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_resources::fuzzing::{identifier_fast_path, identifier_thorough};
use mcp_resources::identity::{split_parts, validate_uri, validate_uri_str, UriError};
use mcp_resources::ResourceDefinition;

/// The reference check, written from the rules without the library's code.
fn reference(s: &str) -> bool {
    let Some(colon) = s.find(':') else {
        return false;
    };
    let scheme = &s[..colon];
    let mut sc = scheme.chars();
    if !sc.next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    if !sc.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) {
        return false;
    }
    if scheme.eq_ignore_ascii_case("mcp-warning") {
        return false;
    }
    let rest = &s[colon + 1..];
    let (authority, after) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find(['/', '?', '#']).unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    let chars_ok = |part: &str, brackets: bool| -> bool {
        let b = part.as_bytes();
        let mut i = 0;
        for (at, c) in part.char_indices() {
            if at < i {
                continue; // inside an escape
            }
            i = at + c.len_utf8();
            if c == '%' {
                let hex = |k: usize| b.get(at + k).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(1) && hex(2)) {
                    return false;
                }
                i = at + 3;
            } else if c.is_ascii() {
                let ok = c.is_ascii_alphanumeric()
                    || "-._~:/?#@!$&'()*+,;=".contains(c)
                    || (brackets && (c == '[' || c == ']'));
                if !ok {
                    return false;
                }
            } else if c.is_control() {
                return false;
            }
        }
        true
    };
    if let Some(a) = authority {
        if a.contains('@') || !chars_ok(a, true) {
            return false;
        }
    }
    chars_ok(after, false) && s.matches('#').count() <= 1
}

fuzz_target!(|data: &[u8]| {
    let result = validate_uri(data, usize::MAX);
    let Ok(s) = std::str::from_utf8(data) else {
        assert!(result.is_err(), "accepted bytes that are not UTF-8");
        return;
    };
    if s.is_empty() {
        assert_eq!(result, Err(UriError::Empty));
        return;
    }
    let thorough = identifier_thorough(s);
    if let Some(parts) = identifier_fast_path(s) {
        assert_eq!(thorough, Ok(parts), "fast path disagrees on {s:?}");
    }
    assert_eq!(validate_uri_str(s), thorough, "{s:?}");
    assert_eq!(
        thorough.is_ok(),
        reference(s),
        "reference disagrees on {s:?}: {thorough:?}"
    );
    // The length limit applies before anything else.
    if data.len() > 1 {
        assert_eq!(validate_uri(data, data.len() - 1), Err(UriError::TooLong));
    }
    let Ok(parts) = thorough else {
        return;
    };
    assert_eq!(result, Ok(s));
    assert_eq!(split_parts(s), Some(parts));
    assert_eq!(s.as_bytes()[parts.scheme_end], b':');
    assert!(parts.scheme_end < parts.path_start);
    assert!(parts.path_start <= parts.path_end && parts.path_end <= s.len());
    if let Some((a, e)) = parts.authority {
        assert_eq!(a, parts.scheme_end + 3);
        assert!(a <= e && e == parts.path_start);
        assert!(!s[a..e].contains('@'));
    }
    assert!(!s[parts.path_start..parts.path_end].contains(['?', '#']));
    // An accepted identifier registers as a definition's `uri`, unchanged.
    let json = serde_json::json!({ "uri": s, "name": "n" }).to_string();
    let def = ResourceDefinition::from_json(&json)
        .unwrap_or_else(|e| panic!("valid identifier {s:?} refused as a definition: {e}"));
    assert_eq!(def.uri_or_template(), s);
    assert!(!def.is_template());
});
