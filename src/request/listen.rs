//! The params of `subscriptions/listen`, parsed strictly: one JSON object
//! of at most 256 KiB with `notifications` (a `SubscriptionFilter`: three
//! optional booleans and an optional array of at most
//! [`MAX_LISTEN_URIS`] distinct strings) and an optional `_meta` whose
//! `io.modelcontextprotocol/protocolVersion`, when present, is a string.
//! A member the library acts on may not repeat; other members are ignored,
//! as the MCP schemas allow. Every refusal has a fixed message that never
//! echoes the input.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{MAX_PARAMS_BYTES, PROTOCOL_VERSION_META_KEY};

/// The most resource URIs one `subscriptions/listen` filter may list; more
/// is a `-32602` error for the whole request.
///
/// cbindgen:ignore
pub const MAX_LISTEN_URIS: usize = 1000;

/// What a `subscriptions/listen` request asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct ListenParams {
    pub(crate) tools_list_changed: bool,
    pub(crate) prompts_list_changed: bool,
    pub(crate) resources_list_changed: bool,
    /// `resourceSubscriptions`, when present (in the order sent).
    pub(crate) uris: Option<Vec<String>>,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]`, as given.
    pub(crate) protocol_version: Option<String>,
}

const NOT_JSON: &str = "params are not valid JSON";
const NOT_OBJECT: &str = "params must be an object";
const NO_FILTER: &str = "listen params need notifications";
const FILTER_NOT_OBJECT: &str = "params notifications must be an object";
const META_NOT_OBJECT: &str = "params _meta must be an object";
const VERSION_NOT_STRING: &str = "params _meta protocolVersion must be a string";
const REPEATED: &str = "params repeat a member";
const FLAG_NOT_BOOL: &str = "notifications filter flags must be booleans";
const URIS_NOT_STRINGS: &str = "notifications resourceSubscriptions must be an array of strings";
const TOO_MANY_URIS: &str = "notifications resourceSubscriptions lists more than 1000 URIs";
const REPEATED_URI: &str = "notifications resourceSubscriptions repeats a URI";

/// Every fixed message a serde error may carry.
const KNOWN: &[&str] = &[
    NOT_OBJECT,
    FILTER_NOT_OBJECT,
    META_NOT_OBJECT,
    VERSION_NOT_STRING,
    REPEATED,
    FLAG_NOT_BOOL,
    URIS_NOT_STRINGS,
    TOO_MANY_URIS,
];

/// Parses `subscriptions/listen` params (see the module documentation).
pub(crate) fn parse(text: &[u8]) -> Result<ListenParams, &'static str> {
    if text.len() > MAX_PARAMS_BYTES {
        return Err("params exceed 256 KiB");
    }
    let text = std::str::from_utf8(text).map_err(|_| NOT_JSON)?;
    let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    if trimmed.is_empty() || trimmed == "null" {
        return Err(NO_FILTER);
    }
    let mut de = serde_json::Deserializer::from_str(trimmed);
    let (params, seen_filter) = de.deserialize_any(Top).map_err(|e| known_message(&e))?;
    de.end().map_err(|_| NOT_JSON)?;
    if !seen_filter {
        return Err(NO_FILTER);
    }
    if let Some(uris) = &params.uris {
        let mut seen = HashSet::with_capacity(uris.len());
        if !uris.iter().all(|u| seen.insert(u.as_str())) {
            return Err(REPEATED_URI);
        }
    }
    Ok(params)
}

fn known_message(e: &serde_json::Error) -> &'static str {
    if e.is_syntax() || e.is_eof() || e.is_io() {
        return NOT_JSON;
    }
    let text = e.to_string();
    KNOWN
        .iter()
        .find(|m| text.starts_with(**m))
        .copied()
        .unwrap_or("params are invalid")
}

/// A visitor refusing every JSON type but the one its `Visitor` methods
/// accept, with `$message`.
macro_rules! refuse_others {
    ($message:expr; $($method:ident($($arg:ty),*)),*) => {$(
        fn $method<E: de::Error>(self, $(_: $arg),*) -> Result<Self::Value, E> {
            Err(E::custom($message))
        }
    )*};
}

macro_rules! refuse_scalars {
    ($message:expr) => {
        refuse_others!($message; visit_bool(bool), visit_i64(i64), visit_u64(u64),
            visit_f64(f64), visit_str(&str), visit_unit());
    };
}

/// The params object: the filter and `_meta`.
struct Top;

impl<'de> Visitor<'de> for Top {
    type Value = (ListenParams, bool);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(NOT_OBJECT)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = ListenParams::default();
        let (mut filter, mut meta) = (false, false);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "notifications" => {
                    if std::mem::replace(&mut filter, true) {
                        return Err(de::Error::custom(REPEATED));
                    }
                    map.next_value_seed(Filter(&mut out))?;
                }
                "_meta" => {
                    if std::mem::replace(&mut meta, true) {
                        return Err(de::Error::custom(REPEATED));
                    }
                    out.protocol_version = map.next_value_seed(Meta)?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok((out, filter))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(de::Error::custom(NOT_OBJECT))
    }

    refuse_scalars!(NOT_OBJECT);
}

/// `notifications`: its known members into the params.
struct Filter<'a>(&'a mut ListenParams);

impl<'de> DeserializeSeed<'de> for Filter<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Filter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(FILTER_NOT_OBJECT)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let out = self.0;
        let mut seen = [false; 4];
        while let Some(key) = map.next_key::<String>()? {
            let at = match key.as_str() {
                "toolsListChanged" => 0,
                "promptsListChanged" => 1,
                "resourcesListChanged" => 2,
                "resourceSubscriptions" => 3,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            if std::mem::replace(&mut seen[at], true) {
                return Err(de::Error::custom(REPEATED));
            }
            match at {
                0 => out.tools_list_changed = map.next_value_seed(Flag)?,
                1 => out.prompts_list_changed = map.next_value_seed(Flag)?,
                2 => out.resources_list_changed = map.next_value_seed(Flag)?,
                _ => out.uris = Some(map.next_value_seed(Uris)?),
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(de::Error::custom(FILTER_NOT_OBJECT))
    }

    refuse_scalars!(FILTER_NOT_OBJECT);
}

/// A boolean filter flag.
struct Flag;

impl<'de> DeserializeSeed<'de> for Flag {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Flag {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(FLAG_NOT_BOOL)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<bool, A::Error> {
        Err(de::Error::custom(FLAG_NOT_BOOL))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<bool, A::Error> {
        Err(de::Error::custom(FLAG_NOT_BOOL))
    }

    refuse_others!(FLAG_NOT_BOOL; visit_i64(i64), visit_u64(u64), visit_f64(f64),
        visit_str(&str), visit_unit());
}

/// `resourceSubscriptions`: at most [`MAX_LISTEN_URIS`] strings.
struct Uris;

impl<'de> DeserializeSeed<'de> for Uris {
    type Value = Vec<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<String>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Uris {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(URIS_NOT_STRINGS)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
        let mut out = Vec::new();
        while let Some(uri) = seq.next_element_seed(UriString)? {
            if out.len() == MAX_LISTEN_URIS {
                return Err(de::Error::custom(TOO_MANY_URIS));
            }
            out.push(uri);
        }
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Vec<String>, A::Error> {
        Err(de::Error::custom(URIS_NOT_STRINGS))
    }

    refuse_scalars!(URIS_NOT_STRINGS);
}

/// One element of `resourceSubscriptions`.
struct UriString;

impl<'de> DeserializeSeed<'de> for UriString {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(StringOnly(URIS_NOT_STRINGS))
    }
}

/// A string, or the refusal `0`.
struct StringOnly(&'static str);

impl<'de> Visitor<'de> for StringOnly {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(de::Error::custom(self.0))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(de::Error::custom(self.0))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<String, E> {
        Err(E::custom(self.0))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<String, E> {
        Err(E::custom(self.0))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<String, E> {
        Err(E::custom(self.0))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<String, E> {
        Err(E::custom(self.0))
    }
    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Err(E::custom(self.0))
    }
}

/// `_meta`: its protocol version, when present.
struct Meta;

impl<'de> DeserializeSeed<'de> for Meta {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Meta {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(META_NOT_OBJECT)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        let mut version = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == PROTOCOL_VERSION_META_KEY {
                if version.is_some() {
                    return Err(de::Error::custom(REPEATED));
                }
                version = Some(map.next_value_seed(VersionString)?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(version)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Option<String>, A::Error> {
        Err(de::Error::custom(META_NOT_OBJECT))
    }

    refuse_scalars!(META_NOT_OBJECT);
}

struct VersionString;

impl<'de> DeserializeSeed<'de> for VersionString {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(StringOnly(VERSION_NOT_STRING))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<ListenParams, &'static str> {
        parse(s.as_bytes())
    }

    #[test]
    fn the_filter_and_the_revision_are_read_and_others_ignored() {
        let got = p(r#"{"x":[1,{"y":null}],"notifications":{"toolsListChanged":true,"resourcesListChanged":false,"resourceSubscriptions":["a:b","a:\u0063"],"future":{"z":1}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"n"}}}"#)
            .unwrap();
        assert_eq!(
            got,
            ListenParams {
                tools_list_changed: true,
                prompts_list_changed: false,
                resources_list_changed: false,
                uris: Some(vec!["a:b".into(), "a:c".into()]),
                protocol_version: Some("2026-07-28".into()),
            }
        );
        assert_eq!(
            p(r#"{"notifications":{}}"#).unwrap(),
            ListenParams::default()
        );
        assert_eq!(
            p(r#"{"notifications":{"resourceSubscriptions":[]}}"#)
                .unwrap()
                .uris,
            Some(vec![])
        );
    }

    #[test]
    fn malformed_params_have_fixed_messages() {
        let cases = [
            ("", NO_FILTER),
            ("null", NO_FILTER),
            ("{}", NO_FILTER),
            (r#"{"_meta":{}}"#, NO_FILTER),
            ("[]", NOT_OBJECT),
            ("7", NOT_OBJECT),
            (r#""x""#, NOT_OBJECT),
            (r#"{"notifications":[]}"#, FILTER_NOT_OBJECT),
            (r#"{"notifications":null}"#, FILTER_NOT_OBJECT),
            (r#"{"notifications":{},"notifications":{}}"#, REPEATED),
            (r#"{"notifications":{"toolsListChanged":1}}"#, FLAG_NOT_BOOL),
            (
                r#"{"notifications":{"resourcesListChanged":null}}"#,
                FLAG_NOT_BOOL,
            ),
            (
                r#"{"notifications":{"promptsListChanged":"true"}}"#,
                FLAG_NOT_BOOL,
            ),
            (
                r#"{"notifications":{"toolsListChanged":true,"toolsListChanged":false}}"#,
                REPEATED,
            ),
            (
                r#"{"notifications":{"resourceSubscriptions":"a:b"}}"#,
                URIS_NOT_STRINGS,
            ),
            (
                r#"{"notifications":{"resourceSubscriptions":null}}"#,
                URIS_NOT_STRINGS,
            ),
            (
                r#"{"notifications":{"resourceSubscriptions":[1]}}"#,
                URIS_NOT_STRINGS,
            ),
            (
                r#"{"notifications":{"resourceSubscriptions":[["a:b"]]}}"#,
                URIS_NOT_STRINGS,
            ),
            (
                r#"{"notifications":{"resourceSubscriptions":["a:b","a:b"]}}"#,
                REPEATED_URI,
            ),
            (
                r#"{"notifications":{"resourceSubscriptions":["a:b","a:\u0062"]}}"#,
                REPEATED_URI,
            ),
            (r#"{"notifications":{},"_meta":[]}"#, META_NOT_OBJECT),
            (
                r#"{"notifications":{},"_meta":{"io.modelcontextprotocol/protocolVersion":7}}"#,
                VERSION_NOT_STRING,
            ),
            (r#"{"notifications":{},"_meta":{},"_meta":{}}"#, REPEATED),
            (r#"{"notifications":{}"#, NOT_JSON),
            (r#"{"notifications":{}} x"#, NOT_JSON),
            (
                "{\"notifications\":{\"resourceSubscriptions\":[\"\\ud800\"]}}",
                NOT_JSON,
            ),
        ];
        for (text, want) in cases {
            assert_eq!(p(text), Err(want), "{text}");
        }
        assert_eq!(
            parse(b"{\"notifications\":{\"resourceSubscriptions\":[\"\xff\"]}}"),
            Err(NOT_JSON)
        );
    }

    #[test]
    fn at_most_1000_uris_and_256_kib() {
        let list = |n: usize| {
            let uris: Vec<String> = (0..n).map(|i| format!("\"a:{i}\"")).collect();
            format!(
                r#"{{"notifications":{{"resourceSubscriptions":[{}]}}}}"#,
                uris.join(",")
            )
        };
        assert_eq!(p(&list(MAX_LISTEN_URIS)).unwrap().uris.unwrap().len(), 1000);
        assert_eq!(p(&list(MAX_LISTEN_URIS + 1)), Err(TOO_MANY_URIS));
        assert_eq!(p(&list(10_000)), Err(TOO_MANY_URIS));
        let huge = format!(
            r#"{{"notifications":{{}},"pad":"{}"}}"#,
            "x".repeat(MAX_PARAMS_BYTES)
        );
        assert_eq!(p(&huge), Err("params exceed 256 KiB"));
    }
}
