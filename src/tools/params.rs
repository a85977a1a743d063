//! Strict parsing of `tools/call` params for the resource tools.
//!
//! - absent params (empty, whitespace, `null`) are an empty object (and so
//!   lack the required `name`); anything else must be one JSON object of at
//!   most 256 KiB;
//! - `name` is required and a string; `arguments`, when present, an
//!   object; `_meta`, when present, an object whose
//!   `io.modelcontextprotocol/protocolVersion`, when present, is a string;
//! - no object the parser reads (params, `arguments`, `_meta`) may repeat
//!   a member;
//! - every other params member (`task`, `inputResponses`, `requestState`,
//!   …) is ignored, as the MCP schemas allow;
//! - the arguments are kept as given (a string, or another JSON value) for
//!   the tool to check: a wrong argument is the tool's execution error, not
//!   a malformed request.
//!
//! Each refusal has a fixed message that never echoes the input.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use crate::request::{ParamsError, MAX_PARAMS_BYTES, PROTOCOL_VERSION_META_KEY};

/// One argument value as the tool sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg<'a> {
    /// A string.
    Str(Cow<'a, str>),
    /// Any other JSON value.
    Other,
}

/// The `tools/call` params members the resource tools act on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ToolCallParams<'a> {
    /// `name`.
    pub name: Option<Cow<'a, str>>,
    /// `arguments`, in the order given (empty when absent).
    pub arguments: Vec<(Cow<'a, str>, Arg<'a>)>,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]`.
    pub protocol_version: Option<Cow<'a, str>>,
}

impl<'a> ToolCallParams<'a> {
    /// Parses `tools/call` params strictly (see the module documentation).
    pub(crate) fn parse(text: &'a [u8]) -> Result<ToolCallParams<'a>, ParamsError> {
        if text.len() > MAX_PARAMS_BYTES {
            return Err(ParamsError::new("params exceed 256 KiB"));
        }
        let text =
            std::str::from_utf8(text).map_err(|_| ParamsError::new("params are not valid JSON"))?;
        let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        if trimmed.is_empty() || trimmed == "null" {
            return Ok(ToolCallParams::default());
        }
        let mut de = serde_json::Deserializer::from_str(trimmed);
        let params = de
            .deserialize_any(ParamsVisitor)
            .map_err(|e| ParamsError::new(safe_message(&e)))?;
        de.end()
            .map_err(|_| ParamsError::new("params are not valid JSON"))?;
        Ok(params)
    }

    /// The argument `key`, if given.
    pub(crate) fn argument(&self, key: &str) -> Option<&Arg<'a>> {
        self.arguments
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}

/// The fixed messages a refusal may carry; anything else (a syntax error
/// included: serde_json's own texts may quote the input) is generic.
const MESSAGES: &[&str] = &[
    "params must be an object",
    "params name must be a string",
    "params arguments must be an object",
    "params _meta must be an object",
    "params _meta protocolVersion must be a string",
    "params repeat name",
    "params repeat arguments",
    "params repeat _meta",
    "params repeat an argument",
    "params _meta repeat protocolVersion",
];

fn safe_message(e: &serde_json::Error) -> &'static str {
    if e.is_syntax() || e.is_eof() || e.is_io() {
        return "params are not valid JSON";
    }
    let text = e.to_string();
    MESSAGES
        .iter()
        .find(|m| text.starts_with(**m))
        .copied()
        .unwrap_or("params are invalid")
}

/// Refuses every JSON type but the one a visitor accepts, with `message`.
macro_rules! refuse_others {
    ($value:ty, $message:expr) => {
        refuse_others!(@each $value, $message; visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);
        fn visit_unit<E: de::Error>(self) -> Result<$value, E> {
            Err(E::custom($message))
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<$value, A::Error> {
            Err(de::Error::custom($message))
        }
    };
    (@each $value:ty, $message:expr; $($f:ident: $t:ty),*) => {
        $(
            fn $f<E: de::Error>(self, _: $t) -> Result<$value, E> {
                Err(E::custom($message))
            }
        )*
    };
}

struct ParamsVisitor;

impl<'de> Visitor<'de> for ParamsVisitor {
    type Value = ToolCallParams<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("params must be an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolCallParams<'de>, A::Error> {
        let mut out = ToolCallParams::default();
        let (mut seen_arguments, mut seen_meta) = (false, false);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "name" => {
                    if out.name.is_some() {
                        return Err(de::Error::custom("params repeat name"));
                    }
                    out.name =
                        Some(map.next_value_seed(StringSeed("params name must be a string"))?);
                }
                "arguments" => {
                    if seen_arguments {
                        return Err(de::Error::custom("params repeat arguments"));
                    }
                    seen_arguments = true;
                    out.arguments = map.next_value_seed(ArgumentsSeed)?;
                }
                "_meta" => {
                    if seen_meta {
                        return Err(de::Error::custom("params repeat _meta"));
                    }
                    seen_meta = true;
                    out.protocol_version = map.next_value_seed(MetaSeed)?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }

    refuse_others!(ToolCallParams<'de>, "params must be an object");
}

/// A string value; any other JSON type is refused with its message.
struct StringSeed(&'static str);

impl<'de> DeserializeSeed<'de> for StringSeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_any(StringVisitor(self.0))
    }
}

struct StringVisitor(&'static str);

impl<'de> Visitor<'de> for StringVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Cow<'de, str>, E> {
        Err(E::custom(self.0))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Cow<'de, str>, A::Error> {
        Err(de::Error::custom(self.0))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Cow<'de, str>, A::Error> {
        Err(de::Error::custom(self.0))
    }
}

/// `arguments`: an object whose members are kept as [`Arg`]s.
struct ArgumentsSeed;

impl<'de> DeserializeSeed<'de> for ArgumentsSeed {
    type Value = Vec<(Cow<'de, str>, Arg<'de>)>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(ArgumentsVisitor)
    }
}

struct ArgumentsVisitor;

impl<'de> Visitor<'de> for ArgumentsVisitor {
    type Value = Vec<(Cow<'de, str>, Arg<'de>)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("params arguments must be an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out: Self::Value = Vec::new();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if out.iter().any(|(k, _)| *k == key) {
                return Err(de::Error::custom("params repeat an argument"));
            }
            let value = map.next_value_seed(ArgSeed)?;
            out.push((key, value));
        }
        Ok(out)
    }

    refuse_others!(Self::Value, "params arguments must be an object");
}

/// One argument: a string is kept, anything else is skipped as [`Arg::Other`].
struct ArgSeed;

impl<'de> DeserializeSeed<'de> for ArgSeed {
    type Value = Arg<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Arg<'de>, D::Error> {
        d.deserialize_any(ArgVisitor)
    }
}

struct ArgVisitor;

impl<'de> Visitor<'de> for ArgVisitor {
    type Value = Arg<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Arg<'de>, E> {
        Ok(Arg::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Arg<'de>, E> {
        Ok(Arg::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Arg<'de>, E> {
        Ok(Arg::Str(Cow::Owned(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Arg<'de>, E> {
        Ok(Arg::Other)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Arg<'de>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Arg::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Arg<'de>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Arg::Other)
    }
}

/// `_meta`: an object; its protocol version, when present, a string.
struct MetaSeed;

impl<'de> DeserializeSeed<'de> for MetaSeed {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(MetaVisitor)
    }
}

struct MetaVisitor;

impl<'de> Visitor<'de> for MetaVisitor {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("params _meta must be an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut version = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == PROTOCOL_VERSION_META_KEY {
                if version.is_some() {
                    return Err(de::Error::custom("params _meta repeat protocolVersion"));
                }
                version = Some(map.next_value_seed(StringSeed(
                    "params _meta protocolVersion must be a string",
                ))?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(version)
    }

    refuse_others!(Self::Value, "params _meta must be an object");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<ToolCallParams<'_>, &'static str> {
        ToolCallParams::parse(s.as_bytes()).map_err(|e| e.message())
    }

    #[test]
    fn name_arguments_and_revision_are_read_and_others_ignored() {
        let p = parse(
            r#"{"name":"read_resource","arguments":{"uri":"doc://a","n":[1,{"x":2}]},"_meta":{"progressToken":1,"io.modelcontextprotocol/protocolVersion":"2025-11-25"},"task":{},"requestState":"s"}"#,
        )
        .unwrap();
        assert_eq!(p.name.as_deref(), Some("read_resource"));
        assert_eq!(p.argument("uri"), Some(&Arg::Str("doc://a".into())));
        assert_eq!(p.argument("n"), Some(&Arg::Other));
        assert_eq!(p.argument("x"), None);
        assert_eq!(p.protocol_version.as_deref(), Some("2025-11-25"));
        let p = parse(r#"{"name":"a\u0062"}"#).unwrap();
        assert_eq!(p.name.as_deref(), Some("ab"));
        assert!(p.arguments.is_empty());
    }

    #[test]
    fn absent_params_have_no_name() {
        for s in ["", " \n", "null"] {
            assert_eq!(parse(s), Ok(ToolCallParams::default()), "{s:?}");
        }
    }

    #[test]
    fn malformed_params_have_fixed_messages() {
        let cases = [
            (r#"[]"#, "params must be an object"),
            (r#""x""#, "params must be an object"),
            (r#"7"#, "params must be an object"),
            (r#"{"name":1}"#, "params name must be a string"),
            (r#"{"name":null}"#, "params name must be a string"),
            (r#"{"name":"a","name":"a"}"#, "params repeat name"),
            (
                r#"{"name":"a","arguments":[]}"#,
                "params arguments must be an object",
            ),
            (
                r#"{"name":"a","arguments":"x"}"#,
                "params arguments must be an object",
            ),
            (
                r#"{"name":"a","arguments":null}"#,
                "params arguments must be an object",
            ),
            (
                r#"{"name":"a","arguments":{},"arguments":{}}"#,
                "params repeat arguments",
            ),
            (
                r#"{"name":"a","arguments":{"uri":"a","uri":"b"}}"#,
                "params repeat an argument",
            ),
            (
                r#"{"name":"a","_meta":[]}"#,
                "params _meta must be an object",
            ),
            (
                r#"{"name":"a","_meta":{},"_meta":{}}"#,
                "params repeat _meta",
            ),
            (
                r#"{"name":"a","_meta":{"io.modelcontextprotocol/protocolVersion":1}}"#,
                "params _meta protocolVersion must be a string",
            ),
            (
                r#"{"name":"a","_meta":{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/protocolVersion":"y"}}"#,
                "params _meta repeat protocolVersion",
            ),
            (r#"{"name":"a""#, "params are not valid JSON"),
            (r#"{"name":"a"} {}"#, "params are not valid JSON"),
            ("{\"name\":\"\\ud800\"}", "params are not valid JSON"),
        ];
        for (s, m) in cases {
            assert_eq!(parse(s), Err(m), "{s}");
        }
        assert_eq!(
            ToolCallParams::parse(b"{\"name\":\"\xff\"}").map_err(|e| e.message()),
            Err("params are not valid JSON")
        );
        let huge = format!(r#"{{"name":"a","pad":"{}"}}"#, "x".repeat(MAX_PARAMS_BYTES));
        assert_eq!(parse(&huge), Err("params exceed 256 KiB"));
    }

    #[test]
    fn deep_ignored_members_are_skipped() {
        let deep = format!(
            "{{\"x\":{}{},\"name\":\"a\"}}",
            "[".repeat(100),
            "]".repeat(100)
        );
        assert_eq!(parse(&deep).unwrap().name.as_deref(), Some("a"));
    }

    proptest::proptest! {
        #[test]
        fn the_parser_never_panics(bytes in proptest::collection::vec(proptest::arbitrary::any::<u8>(), 0..64)) {
            let _ = ToolCallParams::parse(&bytes);
        }
    }
}
