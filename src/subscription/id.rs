//! Subscription ids: the JSON-RPC id of a `subscriptions/listen` request,
//! which every message of its stream carries under
//! `_meta["io.modelcontextprotocol/subscriptionId"]`.

use std::fmt;

use crate::sizing::write_json_str;

/// The longest subscription id accepted, as compact JSON text (256 bytes):
/// every notification of the stream repeats it.
///
/// cbindgen:ignore
pub const MAX_SUBSCRIPTION_ID_BYTES: usize = 256;

/// A JSON-RPC request id (a string or a number, MCP's `RequestId`) as the
/// compact JSON text written into messages: a string re-serialised with the
/// library's escaping, a number exactly as given (byte-exact, never
/// reformatted).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SubscriptionId(Box<str>);

/// Why a subscription id was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionIdError {
    /// Not one JSON string or number (a host mistake: the host passes the
    /// id of the request it received).
    Invalid,
    /// Longer than [`MAX_SUBSCRIPTION_ID_BYTES`] (the client's choice; the
    /// request is answered `-32600`).
    TooLong,
}

impl fmt::Display for SubscriptionIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SubscriptionIdError::Invalid => "the request id is not a JSON string or number",
            SubscriptionIdError::TooLong => "the request id is longer than 256 bytes of JSON",
        })
    }
}

impl std::error::Error for SubscriptionIdError {}

impl SubscriptionId {
    /// The id of the JSON-RPC id text `json` (a string or a number, with
    /// optional JSON whitespace around it).
    pub fn parse(json: &[u8]) -> Result<SubscriptionId, SubscriptionIdError> {
        let text = std::str::from_utf8(json).map_err(|_| SubscriptionIdError::Invalid)?;
        let text = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|_| SubscriptionIdError::Invalid)?;
        match value {
            serde_json::Value::String(s) => Self::from_string(&s),
            serde_json::Value::Number(_) => Self::checked(text.into()),
            _ => Err(SubscriptionIdError::Invalid),
        }
    }

    /// The id of the string id `s`.
    pub fn from_string(s: &str) -> Result<SubscriptionId, SubscriptionIdError> {
        let mut out = String::with_capacity(s.len() + 2);
        write_json_str(&mut out, s);
        Self::checked(out)
    }

    /// The id of the integer id `n`.
    pub fn from_number(n: i64) -> SubscriptionId {
        SubscriptionId(n.to_string().into_boxed_str())
    }

    fn checked(json: String) -> Result<SubscriptionId, SubscriptionIdError> {
        if json.len() > MAX_SUBSCRIPTION_ID_BYTES {
            return Err(SubscriptionIdError::TooLong);
        }
        Ok(SubscriptionId(json.into_boxed_str()))
    }

    /// The id as compact JSON text (`1`, `"listen-1"`).
    pub fn json(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SubscriptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SubscriptionId({})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_numbers_are_ids_in_compact_json() {
        let ok = [
            ("1", "1"),
            (" 42 \n", "42"),
            ("-7", "-7"),
            ("1.5", "1.5"),
            ("1e3", "1e3"),
            (r#""listen-1""#, r#""listen-1""#),
            (r#""a\u0062\"""#, r#""ab\"""#),
            (r#""""#, r#""""#),
            ("\"\u{e9}\"", "\"\u{e9}\""),
        ];
        for (text, json) in ok {
            assert_eq!(SubscriptionId::parse(text.as_bytes()).unwrap().json(), json);
        }
        assert_eq!(SubscriptionId::from_number(-3).json(), "-3");
        assert_eq!(
            SubscriptionId::from_string("x\n").unwrap().json(),
            r#""x\n""#
        );
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            &b""[..],
            b"null",
            b"true",
            b"[1]",
            b"{}",
            b"01",
            b"1 2",
            b"\"a",
            b"\"\\ud800\"",
            b"\"\xff\"",
            b"NaN",
        ] {
            assert_eq!(
                SubscriptionId::parse(bad),
                Err(SubscriptionIdError::Invalid),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn the_length_bound_counts_the_compact_json() {
        let edge = "x".repeat(MAX_SUBSCRIPTION_ID_BYTES - 2);
        assert!(SubscriptionId::from_string(&edge).is_ok());
        assert_eq!(
            SubscriptionId::from_string(&format!("{edge}x")),
            Err(SubscriptionIdError::TooLong)
        );
        // an escape counts as what is written
        let quoted = "\"".repeat(MAX_SUBSCRIPTION_ID_BYTES / 2);
        assert_eq!(
            SubscriptionId::from_string(&quoted),
            Err(SubscriptionIdError::TooLong)
        );
        let long_number = "1".repeat(MAX_SUBSCRIPTION_ID_BYTES + 1);
        assert_eq!(
            SubscriptionId::parse(long_number.as_bytes()),
            Err(SubscriptionIdError::TooLong)
        );
    }
}
