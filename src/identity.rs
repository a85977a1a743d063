//! Resource identifier validation.
//!
//! Identifiers are absolute URIs compared byte for byte: nothing here folds
//! case, normalises escapes or removes dot segments. A valid identifier is
//! `scheme ":" rest` where the scheme follows RFC 3986 and `rest` consists of
//! RFC 3986 characters, well-formed `%XX` escapes and non-ASCII UTF-8 scalars
//! that are not control characters. Userinfo (any `@` in the authority) is
//! refused, as is the reserved scheme `mcp-warning` in any letter case.

use crate::error::{Failure, FailureKind};

/// The scheme reserved for the module's generated warning items.
pub const RESERVED_SCHEME: &str = "mcp-warning";

/// Length in bytes of a generated warning identity
/// (`mcp-warning://read/` + 32 hex characters).
///
/// cbindgen:ignore
pub const WARNING_URI_BYTES: usize = 51;

/// Why an identifier was refused. The `Display` text is safe to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UriError {
    /// Empty identifier.
    Empty,
    /// Longer than the configured `max_uri_bytes`.
    TooLong,
    /// Not valid UTF-8.
    InvalidUtf8,
    /// Missing or malformed scheme (not an absolute URI).
    NotAbsolute,
    /// The reserved `mcp-warning` scheme.
    ReservedScheme,
    /// Userinfo (credentials) in the authority.
    Credentials,
    /// A `%` not followed by two hexadecimal digits.
    BadPercentEscape,
    /// A character not allowed in a URI (controls, space, `"<>\^`{|}` …),
    /// at this byte offset.
    BadCharacter(usize),
}

impl std::fmt::Display for UriError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.request_message())?;
        if let UriError::BadCharacter(at) = self {
            write!(f, " at byte {at}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UriError {}

impl UriError {
    /// A fixed safe message for a request error (no offsets, no echo).
    pub fn request_message(&self) -> &'static str {
        match self {
            UriError::Empty => "empty resource URI",
            UriError::TooLong => "resource URI too long",
            UriError::InvalidUtf8 => "resource URI is not valid UTF-8",
            UriError::NotAbsolute => "resource URI is not absolute",
            UriError::ReservedScheme => "resource URI uses a reserved scheme",
            UriError::Credentials => "resource URI contains credentials",
            UriError::BadPercentEscape => "resource URI has a malformed percent escape",
            UriError::BadCharacter(_) => "resource URI has a forbidden character",
        }
    }

    /// This error as an `invalid_request` failure with a fixed message.
    pub fn into_request_failure(self) -> Failure {
        Failure::with_message(FailureKind::InvalidRequest, self.request_message())
    }
}

/// The parts of a URI as byte ranges of the original text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UriParts {
    /// End of the scheme (index of the `:`).
    pub scheme_end: usize,
    /// Start and end of the authority (after `//`), if there is one.
    pub authority: Option<(usize, usize)>,
    /// Start of the path (after the authority, or after `:`).
    pub path_start: usize,
    /// End of the path: index of the first `?` or `#` after it, or the length.
    pub path_end: usize,
}

/// Splits `s` (already known to start with a valid scheme) into its parts.
pub fn split_parts(s: &str) -> Option<UriParts> {
    let scheme_end = scheme_end(s.as_bytes())?;
    let b = s.as_bytes();
    let after = scheme_end + 1;
    let (authority, path_start) = if b[after..].starts_with(b"//") {
        let a_start = after + 2;
        let a_end = b[a_start..]
            .iter()
            .position(|&c| c == b'/' || c == b'?' || c == b'#')
            .map_or(b.len(), |p| a_start + p);
        (Some((a_start, a_end)), a_end)
    } else {
        (None, after)
    };
    let path_end = b[path_start..]
        .iter()
        .position(|&c| c == b'?' || c == b'#')
        .map_or(b.len(), |p| path_start + p);
    Some(UriParts {
        scheme_end,
        authority,
        path_start,
        path_end,
    })
}

/// Index of the `:` ending a valid RFC 3986 scheme, if `b` starts with one.
fn scheme_end(b: &[u8]) -> Option<usize> {
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return None;
    }
    for (i, &c) in b.iter().enumerate().skip(1) {
        match c {
            b':' => return Some(i),
            c if c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.' => {}
            _ => return None,
        }
    }
    None
}

/// ASCII characters RFC 3986 allows literally in a URI: unreserved,
/// gen-delims other than `[]`, sub-delims (`%` is checked separately).
const URI_ASCII: [bool; 128] = {
    let mut table = [false; 128];
    let allowed = b"-._~:/?#@!$&'()*+,;=";
    let mut i = 0;
    while i < allowed.len() {
        table[allowed[i] as usize] = true;
        i += 1;
    }
    let mut c = 0;
    while c < 128 {
        if (c as u8).is_ascii_alphanumeric() {
            table[c] = true;
        }
        c += 1;
    }
    table
};

fn is_uri_ascii(c: u8) -> bool {
    c < 128 && URI_ASCII[c as usize]
}

/// Checks the characters of `s[from..to]`: allowed ASCII, well-formed
/// percent escapes, non-control non-ASCII scalars; `[` and `]` only when
/// `brackets_ok`.
fn check_chars(s: &str, from: usize, to: usize, brackets_ok: bool) -> Result<(), UriError> {
    let b = s.as_bytes();
    let mut i = from;
    while i < to {
        let c = b[i];
        if c == b'%' {
            if i + 2 >= to || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                return Err(UriError::BadPercentEscape);
            }
            i += 3;
            continue;
        }
        if c < 0x80 {
            if is_uri_ascii(c) || (brackets_ok && (c == b'[' || c == b']')) {
                i += 1;
                continue;
            }
            return Err(UriError::BadCharacter(i));
        }
        // Non-ASCII: s is valid UTF-8, so decode the scalar at i.
        let ch = s[i..].chars().next().expect("valid UTF-8 boundary");
        if ch.is_control() {
            return Err(UriError::BadCharacter(i));
        }
        i += ch.len_utf8();
    }
    Ok(())
}

/// Validates a resource identifier given as raw bytes, returning it as text.
///
/// `max_bytes` is the configured `max_uri_bytes`.
pub fn validate_uri(bytes: &[u8], max_bytes: usize) -> Result<&str, UriError> {
    validate_uri_parts(bytes, max_bytes).map(|(s, _)| s)
}

/// Like [`validate_uri`], also returning the URI's parts.
pub fn validate_uri_parts(bytes: &[u8], max_bytes: usize) -> Result<(&str, UriParts), UriError> {
    if bytes.is_empty() {
        return Err(UriError::Empty);
    }
    if bytes.len() > max_bytes {
        return Err(UriError::TooLong);
    }
    let s = if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8 (checked faster than full validation
        // on the short, usually ASCII identifiers).
        unsafe { std::str::from_utf8_unchecked(bytes) }
    } else {
        std::str::from_utf8(bytes).map_err(|_| UriError::InvalidUtf8)?
    };
    let parts = validate_uri_str(s)?;
    Ok((s, parts))
}

/// Validates identifier text of any length (callers enforce length limits).
pub fn validate_uri_str(s: &str) -> Result<UriParts, UriError> {
    match validate_common(s) {
        Some(parts) => Ok(parts),
        None => validate_thoroughly(s),
    }
}

/// How [`validate_common`] treats an ASCII byte after the scheme.
const PLAIN: u8 = 0;
const SLASH: u8 = 1;
const QUESTION: u8 = 2;
const HASH: u8 = 3;
const PERCENT: u8 = 4;
const AT: u8 = 5;
/// Anything else (brackets, forbidden ASCII, non-ASCII bytes).
const OTHER: u8 = 6;

const COMMON_CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut c = 0;
    while c < 128 {
        if URI_ASCII[c] {
            table[c] = PLAIN;
        }
        c += 1;
    }
    table[b'/' as usize] = SLASH;
    table[b'?' as usize] = QUESTION;
    table[b'#' as usize] = HASH;
    table[b'%' as usize] = PERCENT;
    table[b'@' as usize] = AT;
    table
};

/// One pass over the common shape of an identifier: ASCII without brackets,
/// no userinfo, well-formed escapes, at most one `#`. Returns the parts of
/// an identifier it accepts; `None` means "not settled here" (the thorough
/// check decides and names the error), never "invalid". Whatever it
/// accepts, the thorough check accepts with the same parts.
pub(crate) fn validate_common(s: &str) -> Option<UriParts> {
    let b = s.as_bytes();
    let scheme_end = scheme_end(b)?;
    if s[..scheme_end].eq_ignore_ascii_case(RESERVED_SCHEME) {
        return None;
    }
    let after = scheme_end + 1;
    let has_authority = b[after..].starts_with(b"//");
    let mut i = if has_authority { after + 2 } else { after };
    let mut authority_end = if has_authority { None } else { Some(after) };
    let mut path_end = None;
    let mut hashes = 0;
    while i < b.len() {
        match COMMON_CLASS[b[i] as usize] {
            PLAIN => {}
            SLASH => {
                authority_end.get_or_insert(i);
            }
            QUESTION => {
                authority_end.get_or_insert(i);
                path_end.get_or_insert(i);
            }
            HASH => {
                authority_end.get_or_insert(i);
                path_end.get_or_insert(i);
                hashes += 1;
                if hashes > 1 {
                    return None;
                }
            }
            PERCENT => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    return None;
                }
                i += 2;
            }
            AT if authority_end.is_some() => {}
            _ => return None,
        }
        i += 1;
    }
    let path_start = authority_end.unwrap_or(b.len());
    Some(UriParts {
        scheme_end,
        authority: has_authority.then_some((after + 2, path_start)),
        path_start,
        path_end: path_end.unwrap_or(b.len()),
    })
}

/// Validates any identifier, naming the first problem found.
pub(crate) fn validate_thoroughly(s: &str) -> Result<UriParts, UriError> {
    if s.is_empty() {
        return Err(UriError::Empty);
    }
    let parts = split_parts(s).ok_or(UriError::NotAbsolute)?;
    if s[..parts.scheme_end].eq_ignore_ascii_case(RESERVED_SCHEME) {
        return Err(UriError::ReservedScheme);
    }
    if let Some((a, e)) = parts.authority {
        if s.as_bytes()[a..e].contains(&b'@') {
            return Err(UriError::Credentials);
        }
        check_chars(s, a, e, true)?;
    }
    check_chars(s, parts.path_start, s.len(), false)?;
    // RFC 3986: a fragment is `*( pchar / "/" / "?" )`, so the first `#`
    // is the only one.
    if let Some(first) = s.find('#') {
        if let Some(second) = s[first + 1..].find('#') {
            return Err(UriError::BadCharacter(first + 1 + second));
        }
    }
    Ok(parts)
}

/// Whether `s` uses the reserved warning scheme (any letter case).
pub fn is_reserved_scheme(s: &str) -> bool {
    match scheme_end(s.as_bytes()) {
        Some(end) => s[..end].eq_ignore_ascii_case(RESERVED_SCHEME),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The one-pass check only accepts what the thorough check accepts,
        /// with the same parts.
        #[test]
        fn common_shape_check_agrees_with_the_thorough_check(
            scheme in prop::sample::select(vec!["x", "file", "a+b.c-d", "mcp-warning", "MCP-Warning", "1x", ""]),
            slashes in prop::sample::select(vec!["", "/", "//"]),
            rest in prop::collection::vec(prop_oneof![
                12 => prop::sample::select(vec![
                    "a", "Z", "0", "/", "/", "?", "#", "@", ":", ".", "-", "_", "~", "!", "$", "&",
                    "'", "(", ")", "*", "+", ",", ";", "=", "%41", "%fF",
                ]),
                1 => prop::sample::select(vec![
                    "%", "%4", "%zz", "[", "]", "é", "{", "}", "^", " ", "\\", "\"", "<", "\u{7f}",
                    "\u{85}", "|", "`",
                ]),
            ], 0..16),
        ) {
            let s = format!("{scheme}:{slashes}{}", rest.concat());
            let common = validate_common(&s);
            if let Some(parts) = common {
                prop_assert_eq!(validate_thoroughly(&s), Ok(parts), "{}", s);
            }
            prop_assert_eq!(validate_uri_str(&s), validate_thoroughly(&s));
        }
    }

    #[test]
    fn common_shape_check_settles_the_usual_identifiers() {
        for uri in [
            "file:///project/src/main.rs",
            "https://example.com/a/b?q=1&r=%20#frag",
            "urn:isbn:0451450523",
            "asset://project/42/thumbnail",
            "x://host?q@x",
            "x://h/a@b",
        ] {
            assert_eq!(
                validate_common(uri),
                Some(validate_thoroughly(uri).unwrap()),
                "{uri}"
            );
        }
        for unsettled in [
            "x://u@h/",
            "x://[::1]/",
            "x://h/é",
            "x://h/%4",
            "x:#a#b",
            "mcp-warning://x",
        ] {
            assert_eq!(validate_common(unsettled), None, "{unsettled}");
        }
    }

    #[test]
    fn split_parts_finds_authority_path_and_suffix() {
        let p = split_parts("x://host/a/b?q#f").unwrap();
        assert_eq!(p.scheme_end, 1);
        assert_eq!(p.authority, Some((4, 8)));
        assert_eq!((p.path_start, p.path_end), (8, 12));
        let p = split_parts("urn:isbn:1").unwrap();
        assert_eq!(p.authority, None);
        assert_eq!((p.path_start, p.path_end), (4, 10));
    }
}
