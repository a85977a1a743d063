//! SPEC "Selection and identity": resource identifiers must be absolute URIs
//! without credentials, with valid UTF-8 and percent escapes; mcp-warning is
//! reserved; raw bytes are kept exactly.

use mcp_resources::identity::{is_reserved_scheme, validate_uri, UriError, WARNING_URI_BYTES};

const MAX: usize = 2048;

fn ok(uri: &[u8]) {
    let got = validate_uri(uri, MAX)
        .unwrap_or_else(|e| panic!("{:?} refused: {e}", String::from_utf8_lossy(uri)));
    assert_eq!(
        got.as_bytes(),
        uri,
        "validation must return the exact bytes"
    );
}

fn refused(uri: &[u8]) -> UriError {
    validate_uri(uri, MAX).expect_err(&format!("{:?} accepted", String::from_utf8_lossy(uri)))
}

#[test]
fn identifiers_must_be_absolute_uris() {
    ok(b"file:///etc/x");
    ok(b"asset://project/42/thumbnail");
    ok(b"x+y-z.w://h/p");
    for bad in [
        &b"/relative/path"[..],
        b"relative",
        b"1x://h",
        b"://h",
        b"-x:y",
        b"x y:z",
        b"h/p:q",
    ] {
        assert_eq!(
            refused(bad),
            UriError::NotAbsolute,
            "{:?}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn empty_identifier_is_refused() {
    assert_eq!(refused(b""), UriError::Empty);
}

#[test]
fn identifiers_with_credentials_are_refused() {
    for bad in [
        &b"s://u@h/x"[..],
        b"s://u:p@h/x",
        b"s://@h/x",
        b"s://u%40x@h",
        b"s://h@",
        b"https://user:secret@example.com:8080/",
    ] {
        assert_eq!(
            refused(bad),
            UriError::Credentials,
            "{:?}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn at_sign_outside_the_authority_is_not_userinfo() {
    ok(b"mailto:someone@example.com");
    ok(b"s://h/path/@x");
    ok(b"s://h/p?who=a@b");
    ok(b"s://h/p#a@b");
}

#[test]
fn percent_escapes_must_be_well_formed() {
    ok(b"s://h/a%20b");
    ok(b"s://h/%2F%2f%C3%A9");
    for bad in [
        &b"s://h/%zz"[..],
        b"s://h/%2",
        b"s://h/%",
        b"s://h/a%g0",
        b"s://h%2/x",
        b"s://h/%%41",
    ] {
        assert_eq!(
            refused(bad),
            UriError::BadPercentEscape,
            "{:?}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn identifiers_must_be_valid_utf8() {
    for bad in [
        &b"s://h/\xff"[..],
        b"s://h/\xc3",
        b"s://h/\xed\xa0\x80",
        b"s://h/\xc0\xaf",
    ] {
        assert_eq!(refused(bad), UriError::InvalidUtf8);
    }
}

#[test]
fn non_ascii_scalars_are_kept_exactly() {
    ok("s://h/café/日本".as_bytes());
    ok("urn:x:é".as_bytes());
}

#[test]
fn control_characters_space_and_unsafe_ascii_are_refused() {
    for bad in [
        "s://h/a b",
        "s://h/a\tb",
        "s://h/a\nb",
        "s://h/\u{7f}",
        "s://h/\u{85}",
        "s://h/\"",
        "s://h/<",
        "s://h/>",
        "s://h/\\",
        "s://h/^",
        "s://h/`",
        "s://h/{x}",
        "s://h/|",
        "s://h/}",
        "s://h/a\0b",
    ] {
        assert!(
            matches!(refused(bad.as_bytes()), UriError::BadCharacter(_)),
            "{bad:?}"
        );
    }
}

#[test]
fn brackets_only_in_the_authority() {
    ok(b"s://[::1]:80/x");
    assert!(matches!(refused(b"s://h/[x]"), UriError::BadCharacter(_)));
}

#[test]
fn mcp_warning_scheme_is_reserved_in_any_case() {
    for bad in [
        &b"mcp-warning://read/0123"[..],
        b"MCP-Warning:x",
        b"Mcp-WARNING://x",
    ] {
        assert_eq!(refused(bad), UriError::ReservedScheme);
    }
    assert!(is_reserved_scheme("MCP-WARNING:x"));
    assert!(!is_reserved_scheme("mcp-warnings:x"));
    ok(b"mcp-warnings://x");
    ok(b"mcp:warning");
}

#[test]
fn identifiers_longer_than_max_uri_bytes_are_refused() {
    let mut uri = b"s://h/".to_vec();
    uri.resize(MAX, b'a');
    ok(&uri);
    uri.push(b'a');
    assert_eq!(refused(&uri), UriError::TooLong);
    assert_eq!(validate_uri(b"s://h/abc", 8), Err(UriError::TooLong));
    assert!(validate_uri(b"s://h/abc", 9).is_ok());
}

#[test]
fn opaque_uris_keep_their_exact_bytes() {
    ok(b"urn:isbn:0451450523");
    ok(b"urn:ISBN:0451450523");
    ok(b"tag:example.com,2024:%7Efoo");
    ok(b"s://H/A/./b/../C%7e?Q#F");
}

#[test]
fn warning_identity_is_51_bytes() {
    assert_eq!("mcp-warning://read/".len() + 32, WARNING_URI_BYTES);
}

#[test]
fn a_fragment_cannot_contain_another_number_sign() {
    ok(b"a://h/p?q#frag");
    ok(b"a://h/p#frag?with/slash");
    assert!(matches!(
        refused(b"a://h#frag#2"),
        UriError::BadCharacter(10)
    ));
    assert!(matches!(refused(b"urn:x#a#b"), UriError::BadCharacter(7)));
}
