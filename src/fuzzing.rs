//! Entry points into private parts of the library for the fuzz targets in
//! `fuzz/` (built only with the `fuzzing` feature; not a public API and not
//! covered by any compatibility promise).
//!
//! Everything here returns plain owned data, so that a target can compare
//! it with an independent implementation (`serde_json`, a reference
//! identifier check) without reaching into the private types.

use crate::identity::{self, UriError, UriParts};
use crate::jsonscan::{self, Kind};

/// What a JSON value scanned by the definition scanner is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScannedKind {
    /// A string, with its decoded text.
    Str(String),
    /// A number, boolean or null.
    Scalar,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl From<&Kind<'_>> for ScannedKind {
    fn from(k: &Kind<'_>) -> Self {
        match k {
            Kind::Str(s) => ScannedKind::Str(s.to_string()),
            Kind::Scalar => ScannedKind::Scalar,
            Kind::Array => ScannedKind::Array,
            Kind::Object => ScannedKind::Object,
        }
    }
}

/// One top-level member found by the scanner.
#[derive(Debug, Clone)]
pub struct ScannedMember {
    /// The decoded key.
    pub key: String,
    /// The member's bytes (`"key":value`) in the compact output.
    pub bytes: std::ops::Range<usize>,
    /// The value's bytes in the compact output.
    pub value_bytes: std::ops::Range<usize>,
    /// What the value is.
    pub value: ScannedKind,
}

/// Everything a scan reports, owned.
#[derive(Debug, Clone)]
pub struct ScanSummary {
    /// The compact serialisation written by the scanner.
    pub compact: String,
    /// What the whole document is.
    pub root: ScannedKind,
    /// The top-level object's members in document order.
    pub members: Vec<ScannedMember>,
    /// Some object at some depth repeats a key.
    pub duplicate_key: bool,
    /// The key looked for appears in some object at some depth.
    pub has_key: bool,
    /// The compact form is already canonical (keys sorted at every depth).
    pub is_canonical: bool,
    /// The canonical form (only meaningful without repeated keys).
    pub canonical: Option<String>,
}

/// Runs the definition scanner over `json`, looking for `find_key`; the
/// error is the scanner's message.
pub fn scan(json: &str, find_key: &str) -> Result<ScanSummary, String> {
    let mut compact = String::new();
    let scanned = jsonscan::scan(json, &mut compact, find_key).map_err(|e| e.to_string())?;
    let canonical = if scanned.duplicate_key {
        None
    } else {
        scanned.canonical(&compact)
    };
    Ok(ScanSummary {
        root: ScannedKind::from(&scanned.root),
        members: scanned
            .members
            .iter()
            .map(|m| ScannedMember {
                key: m.key.to_string(),
                bytes: m.bytes.clone(),
                value_bytes: m.value_bytes.clone(),
                value: ScannedKind::from(&m.value),
            })
            .collect(),
        duplicate_key: scanned.duplicate_key,
        has_key: scanned.has_key,
        is_canonical: scanned.is_canonical(),
        canonical,
        compact,
    })
}

/// The identifier check's one-pass fast path: `Some` only for identifiers
/// it settles (see `identity.rs`).
pub fn identifier_fast_path(s: &str) -> Option<UriParts> {
    identity::validate_common(s)
}

/// The identifier check's thorough path, which names the first problem.
pub fn identifier_thorough(s: &str) -> Result<UriParts, UriError> {
    identity::validate_thoroughly(s)
}

/// What the one params reader read of `tools/call` params for the resource
/// tools, owned: `name`, the arguments in document order (a string, or
/// `None` for any other value), the per-request revision; the error is the
/// fixed message.
pub type ToolCallSummary = (
    Option<String>,
    Vec<(String, Option<String>)>,
    Option<String>,
);

/// Reads `tools/call` params with the one strict reader (the resource
/// tools' spec).
pub fn tool_call_params(text: &[u8]) -> Result<ToolCallSummary, &'static str> {
    let p = crate::request::ToolCallParams::parse(text).map_err(|e| e.message())?;
    let arguments = p
        .arguments
        .iter()
        .map(|(k, v)| {
            let v = match v {
                crate::request::Arg::Str(s) => Some(s.to_string()),
                crate::request::Arg::Other => None,
            };
            (k.to_string(), v)
        })
        .collect();
    Ok((
        p.name.map(|n| n.into_owned()),
        arguments,
        p.protocol_version.map(|v| v.into_owned()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_summary_reports_members_and_canonical_form() {
        let s = scan(r#" {"b":1, "a":"x\n"} "#, "a").unwrap();
        assert_eq!(s.compact, r#"{"b":1,"a":"x\n"}"#);
        assert_eq!(s.root, ScannedKind::Object);
        assert_eq!(s.members.len(), 2);
        assert_eq!(s.members[1].value, ScannedKind::Str("x\n".into()));
        assert!(s.has_key && !s.duplicate_key && !s.is_canonical);
        assert_eq!(s.canonical.as_deref(), Some(r#"{"a":"x\n","b":1}"#));
        assert!(scan("{", "").is_err());
    }

    #[test]
    fn tool_call_params_are_reachable() {
        let (name, args, version) =
            tool_call_params(br#"{"name":"t","arguments":{"a":"b","c":1}}"#).unwrap();
        assert_eq!(name.as_deref(), Some("t"));
        assert_eq!(args, [("a".into(), Some("b".into())), ("c".into(), None)]);
        assert_eq!(version, None);
        assert_eq!(tool_call_params(b"[]"), Err("params must be an object"));
    }

    #[test]
    fn identifier_paths_are_reachable() {
        assert!(identifier_fast_path("x://h/a").is_some());
        assert_eq!(identifier_fast_path("x://u@h/"), None);
        assert_eq!(identifier_thorough("x://u@h/"), Err(UriError::Credentials));
    }
}

/// Whether an `icons[].src` is accepted: an absolute RFC 3986 URI (the
/// `fluent-uri` crate decides; the definition target checks the rules
/// around it independently).
pub fn is_icon_src(s: &str) -> bool {
    crate::description::is_uri(s)
}
