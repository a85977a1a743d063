//! Complete JSON-RPC `error` objects for a failed call, per protocol
//! revision: `{"code":…,"message":…}` plus `"data":{"uri":…}` for
//! resource-not-found.
//!
//! | failure kind | code | message | data |
//! |---|---|---|---|
//! | `unavailable` (no registration, no template match, discovery denied, requested target hidden or unavailable: byte-identical) | `-32602` on 2026-07-28, `-32002` before (2024-11-05 to 2025-11-25, as each of those revisions' resources page says) | `Resource not found` | `{"uri": <the requested URI>}` |
//! | `invalid_request`, cursor failures | `-32602` | the failure's fixed safe message; `Invalid cursor` for every cursor failure | none |
//! | `input_required`, a capability the client did not declare (docs/BEHAVIOUR.md §18) | `-32021` | `Missing required client capability` | `{"requiredCapabilities": {…}}` |
//! | `input_required` on a revision without input-required results | the host's choice (default `-32603`) | the host's choice | none |
//! | every other kind (internal errors, timeouts, sizing, cancellation) | `-32603` | the kind's fixed default message | none |
//!
//! Nothing private enters an error object: no cause, no authorization
//! data, no URI other than the one the client itself requested, and only
//! for not-found (where the client's own request names it).
//!
//! Cancellation: MCP sends no response to a request the client cancelled
//! (`notifications/cancelled`); a host that cancelled a call through its
//! token drops the `canceled` failure instead of sending its error object.

use crate::error::{Failure, FailureKind};
use crate::protocol::ProtocolRevision;
use crate::sizing::write_json_str;

/// JSON-RPC "Invalid params".
///
/// cbindgen:ignore
pub const INVALID_PARAMS: i32 = -32602;
/// JSON-RPC "Internal error".
///
/// cbindgen:ignore
pub const INTERNAL_ERROR: i32 = -32603;
/// JSON-RPC "Method not found".
///
/// cbindgen:ignore
pub const METHOD_NOT_FOUND: i32 = -32601;
/// MCP 2026-07-28 `UnsupportedProtocolVersion`.
///
/// cbindgen:ignore
pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;
/// The message of every resource-not-found error object.
pub const NOT_FOUND_MESSAGE: &str = "Resource not found";

/// The JSON-RPC code of `failure` on `revision`.
pub fn error_code(failure: &Failure, revision: ProtocolRevision) -> i32 {
    match failure.input_detail() {
        Some(d) => d.code,
        None => kind_code(failure.kind(), revision),
    }
}

/// The JSON-RPC code of a failure kind on `revision`.
pub fn kind_code(kind: FailureKind, revision: ProtocolRevision) -> i32 {
    match kind {
        FailureKind::Unavailable => revision.not_found_code(),
        FailureKind::InvalidRequest => INVALID_PARAMS,
        _ => INTERNAL_ERROR,
    }
}

/// The JSON-RPC `error` object of a failed `resources/read`,
/// `resources/list` or `resources/templates/list` on `revision`, as compact
/// JSON. `requested_uri` is the URI the client asked to read (the
/// `data.uri` of not-found; `None` for listings).
pub fn error_object(
    failure: &Failure,
    revision: ProtocolRevision,
    requested_uri: Option<&str>,
) -> String {
    if let Some(d) = failure.input_detail() {
        return match &d.missing {
            Some(required) => {
                let mut out = object_open(d.code, &d.message);
                out.push_str(",\"data\":{\"requiredCapabilities\":");
                out.push_str(required);
                out.push_str("}}");
                out
            }
            None => object(d.code, &d.message, None),
        };
    }
    let kind = failure.kind();
    let message = match kind {
        FailureKind::Unavailable => NOT_FOUND_MESSAGE,
        FailureKind::InvalidRequest => failure.rpc_message().unwrap_or(failure.message()),
        _ => kind.default_message(),
    };
    let uri = (kind == FailureKind::Unavailable)
        .then_some(requested_uri)
        .flatten();
    object(kind_code(kind, revision), message, uri)
}

/// `{"code":code,"message":message}` with `"data":{"uri":uri}` when a URI
/// is given.
pub(crate) fn object(code: i32, message: &str, uri: Option<&str>) -> String {
    let mut out = object_open(code, message);
    if let Some(u) = uri {
        out.push_str(",\"data\":{\"uri\":");
        write_json_str(&mut out, u);
        out.push('}');
    }
    out.push('}');
    out
}

/// `{"code":code,"message":message`, the object left open.
fn object_open(code: i32, message: &str) -> String {
    let mut out = String::with_capacity(48 + message.len());
    out.push_str("{\"code\":");
    out.push_str(&code.to_string());
    out.push_str(",\"message\":");
    write_json_str(&mut out, message);
    out
}

/// The `UnsupportedProtocolVersion` (`-32022`) object for a per-request
/// revision this library does not know.
pub(crate) fn unsupported_revision(requested: &str) -> String {
    let mut out = String::from(
        "{\"code\":-32022,\"message\":\"Unsupported protocol version\",\"data\":{\"supported\":[",
    );
    for (i, r) in ProtocolRevision::ALL.iter().rev().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(r.as_str());
        out.push('"');
    }
    out.push_str("],\"requested\":");
    write_json_str(&mut out, requested);
    out.push_str("}}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::CauseText;

    #[test]
    fn not_found_code_follows_the_revision_with_data_uri() {
        let f = Failure::new(FailureKind::Unavailable).caused_by(CauseText("secret".into()));
        let new = error_object(&f, ProtocolRevision::V2026_07_28, Some("x://a\"b"));
        assert_eq!(
            new,
            r#"{"code":-32602,"message":"Resource not found","data":{"uri":"x://a\"b"}}"#
        );
        let old = error_object(&f, ProtocolRevision::V2025_11_25, Some("x://a\"b"));
        assert_eq!(
            old,
            r#"{"code":-32002,"message":"Resource not found","data":{"uri":"x://a\"b"}}"#
        );
        assert!(!new.contains("secret"));
    }

    #[test]
    fn internal_kinds_are_32603_with_the_fixed_message_and_no_data() {
        for kind in FailureKind::all() {
            let f = Failure::with_message(kind, "specific detail").caused_by(CauseText("c".into()));
            let o = error_object(&f, ProtocolRevision::LATEST, Some("x://a"));
            let v: serde_json::Value = serde_json::from_str(&o).unwrap();
            match kind {
                FailureKind::Unavailable => assert_eq!(v["code"], -32602),
                FailureKind::InvalidRequest => {
                    assert_eq!(v["code"], -32602);
                    assert_eq!(v["message"], "specific detail");
                    assert!(v.get("data").is_none());
                }
                _ => {
                    assert_eq!(v["code"], -32603);
                    assert_eq!(v["message"], kind.default_message());
                    assert!(v.get("data").is_none());
                }
            }
        }
    }

    #[test]
    fn unsupported_revision_lists_what_is_supported() {
        let v: serde_json::Value =
            serde_json::from_str(&unsupported_revision("1999-01-01\"")).unwrap();
        assert_eq!(v["code"], -32022);
        assert_eq!(v["data"]["requested"], "1999-01-01\"");
        assert_eq!(
            v["data"]["supported"],
            serde_json::json!([
                "2026-07-28",
                "2025-11-25",
                "2025-06-18",
                "2025-03-26",
                "2024-11-05"
            ])
        );
    }
}
