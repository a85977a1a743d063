//! Definition scanning: the library's one-pass JSON scanner against
//! `serde_json`, and `ResourceDefinition::from_json` against the rules.
//!
//! The scanner must accept exactly what `serde_json` accepts; report
//! repeated keys exactly when an independent walk finds them; and, without
//! repeats, write `serde_json`'s compact form, find keys at any depth as a
//! walk of the value does, and give `serde_json`'s sorted form as the
//! canonical one. A definition must be accepted exactly when the rules
//! hold (the standard members' rules included, written here again from
//! docs/BEHAVIOUR.md §1; only the URI grammar of `icons[].src` is the
//! library's), and then keep the compact form, name, identifier and
//! canonical form the scanner and `serde_json` agree on, and list on each
//! revision the value without the members that revision does not define.
#![no_main]

use std::fmt;

use libfuzzer_sys::fuzz_target;
use mcp_resources::fuzzing::{is_icon_src, scan, ScannedKind};
use mcp_resources::identity::validate_uri_str;
use mcp_resources::template::Template;
use mcp_resources::{ProtocolRevision, ResourceDefinition, RESERVED_META_KEY};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// Whether any object in a document repeats a key (found by walking the
/// document with `serde`, independently of the scanner).
struct Repeats(bool);

impl<'de> Deserialize<'de> for Repeats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RepeatsVisitor)
    }
}

struct RepeatsVisitor;

impl<'de> Visitor<'de> for RepeatsVisitor {
    type Value = Repeats;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Repeats, E> {
        Ok(Repeats(false))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Repeats, E> {
        Ok(Repeats(false))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Repeats, E> {
        Ok(Repeats(false))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Repeats, E> {
        Ok(Repeats(false))
    }
    fn visit_str<E>(self, _: &str) -> Result<Repeats, E> {
        Ok(Repeats(false))
    }
    fn visit_unit<E>(self) -> Result<Repeats, E> {
        Ok(Repeats(false))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Repeats, A::Error> {
        let mut any = false;
        while let Some(Repeats(r)) = seq.next_element()? {
            any |= r;
        }
        Ok(Repeats(any))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Repeats, A::Error> {
        let mut keys: Vec<String> = Vec::new();
        let mut any = false;
        while let Some(k) = map.next_key::<String>()? {
            let Repeats(r) = map.next_value()?;
            any |= r || keys.contains(&k);
            keys.push(k);
        }
        Ok(Repeats(any))
    }
}

fn has_key(v: &Value, key: &str) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, v)| k == key || has_key(v, key)),
        Value::Array(a) => a.iter().any(|v| has_key(v, key)),
        _ => false,
    }
}

/// Whether the registration rules hold for a document `serde_json` parsed
/// (as `value`) and found no repeated key in.
fn definition_rules_hold(json: &str, value: &Value) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    let compact_len = serde_json::to_string(value).unwrap().len();
    if json.len() > 64 * 1024 || compact_len > 64 * 1024 || has_key(value, RESERVED_META_KEY) {
        return false;
    }
    if !matches!(map.get("name"), Some(Value::String(n)) if !n.is_empty()) {
        return false;
    }
    let key_ok = match (map.get("uri"), map.get("uriTemplate")) {
        (Some(Value::String(u)), None) => validate_uri_str(u).is_ok(),
        (None, Some(Value::String(t))) => Template::parse(t).is_ok(),
        _ => false,
    };
    let meta_ok = match map.get("_meta") {
        None => true,
        Some(m @ Value::Object(_)) => serde_json::to_string(m).unwrap().len() <= 64 * 1024,
        Some(_) => false,
    };
    key_ok && meta_ok && members_hold(map)
}

/// The standard members' rules (BEHAVIOUR §1).
fn members_hold(map: &serde_json::Map<String, Value>) -> bool {
    let template = map.contains_key("uriTemplate");
    let strings = ["title", "description", "mimeType"]
        .iter()
        .all(|k| map.get(*k).is_none_or(Value::is_string));
    let size = match map.get("size") {
        None => true,
        Some(_) if template => false,
        Some(Value::Number(n)) => {
            n.as_u64().is_some_and(|n| n < 1 << 53) && !n.to_string().contains('.')
        }
        Some(_) => false,
    };
    let annotations = match map.get("annotations") {
        None => true,
        Some(Value::Object(a)) => {
            a.get("audience").is_none_or(|v| {
                v.as_array()
                    .is_some_and(|r| r.iter().all(|x| x == "user" || x == "assistant"))
            }) && a
                .get("priority")
                .is_none_or(|p| p.as_f64().is_some_and(|p| (0.0..=1.0).contains(&p)))
                && a.get("lastModified")
                    .is_none_or(|t| t.as_str().is_some_and(date_time))
        }
        Some(_) => false,
    };
    let icons = match map.get("icons") {
        None => true,
        Some(Value::Array(icons)) => icons.iter().all(|i| {
            i.as_object().is_some_and(|i| {
                i.get("src")
                    .and_then(Value::as_str)
                    .is_some_and(is_icon_src)
                    && i.get("mimeType").is_none_or(Value::is_string)
                    && i.get("sizes").is_none_or(|s| {
                        s.as_array().is_some_and(|s| s.iter().all(Value::is_string))
                    })
                    && i.get("theme").is_none_or(|t| t == "light" || t == "dark")
            })
        }),
        Some(_) => false,
    };
    strings && size && annotations && icons
}

/// `YYYY-MM-DDTHH:MM:SS[.d+](Z|±HH:MM)`, a real calendar date, hours to
/// 23, minutes and seconds to 59.
fn date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let d = b.get(r)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0')))
    };
    let (Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(se)) = (
        num(0..4),
        num(5..7),
        num(8..10),
        num(11..13),
        num(14..16),
        num(17..19),
    ) else {
        return false;
    };
    if b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return false;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&mo) || d < 1 || d > days[mo as usize - 1] || h > 23 || mi > 59 || se > 59
    {
        return false;
    }
    let mut rest = &s[19..];
    if let Some(f) = rest.strip_prefix('.') {
        let n = f.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &f[n..];
    }
    if rest == "Z" {
        return true;
    }
    let z = rest.as_bytes();
    z.len() == 6
        && (z[0] == b'+' || z[0] == b'-')
        && z[3] == b':'
        && rest[1..3]
            .parse::<u32>()
            .is_ok_and(|h| h <= 23 && rest[1..3].bytes().all(|c| c.is_ascii_digit()))
        && rest[4..6]
            .parse::<u32>()
            .is_ok_and(|m| m <= 59 && rest[4..6].bytes().all(|c| c.is_ascii_digit()))
}

/// The description as listed on `revision`: without `icons` before
/// 2025-11-25, and without `title`, `_meta` and `annotations.lastModified`
/// before 2025-06-18.
fn listed_on(value: &Value, revision: ProtocolRevision) -> String {
    let mut v = value.clone();
    let m = v.as_object_mut().expect("an object");
    if revision < ProtocolRevision::V2025_11_25 {
        m.shift_remove("icons");
    }
    if revision < ProtocolRevision::V2025_06_18 {
        m.shift_remove("title");
        m.shift_remove("_meta");
        if let Some(Value::Object(a)) = m.get_mut("annotations") {
            a.shift_remove("lastModified");
        }
    }
    serde_json::to_string(&v).unwrap()
}

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = serde_json::from_str::<Value>(json);
    let scanned = scan(json, RESERVED_META_KEY);
    assert_eq!(
        scanned.is_ok(),
        parsed.is_ok(),
        "scanner and serde_json disagree on acceptance: {scanned:?} vs {parsed:?}"
    );
    let definition = ResourceDefinition::from_json(json);
    let (Ok(scanned), Ok(mut value)) = (scanned, parsed) else {
        assert!(definition.is_err());
        return;
    };
    let Repeats(repeats) = serde_json::from_str(json).expect("serde_json accepted it before");
    assert_eq!(scanned.duplicate_key, repeats, "repeated-key report");
    match (&scanned.root, &value) {
        (ScannedKind::Str(s), Value::String(v)) => assert_eq!(s, v),
        (ScannedKind::Object, Value::Object(_)) | (ScannedKind::Array, Value::Array(_)) => {}
        (ScannedKind::Scalar, Value::Number(_) | Value::Bool(_) | Value::Null) => {}
        (k, v) => panic!("root kind {k:?} for {v:?}"),
    }
    if repeats {
        assert!(
            definition.is_err(),
            "a definition repeating a key was accepted"
        );
        return;
    }
    // Without repeats: serde_json's exact serialisations.
    assert_eq!(scanned.compact, serde_json::to_string(&value).unwrap());
    assert_eq!(scanned.has_key, has_key(&value, RESERVED_META_KEY));
    let other_key = scan(json, "a").expect("accepted once");
    assert_eq!(other_key.has_key, has_key(&value, "a"));
    if let Value::Object(map) = &value {
        let keys: Vec<&String> = map.keys().collect();
        let member_keys: Vec<&String> = scanned.members.iter().map(|m| &m.key).collect();
        assert_eq!(member_keys, keys);
        for m in &scanned.members {
            let member: Value =
                serde_json::from_str(&format!("{{{}}}", &scanned.compact[m.bytes.clone()]))
                    .expect("a member's bytes are a member");
            assert_eq!(member.get(&m.key), map.get(&m.key));
            let v: Value = serde_json::from_str(&scanned.compact[m.value_bytes.clone()])
                .expect("a value's bytes are a value");
            assert_eq!(Some(&v), map.get(&m.key));
            if let ScannedKind::Str(s) = &m.value {
                assert_eq!(v.as_str(), Some(s.as_str()));
            }
        }
    } else {
        assert!(scanned.members.is_empty());
    }
    let compact_value = value.clone();
    value.sort_all_objects();
    let sorted = serde_json::to_string(&value).unwrap();
    assert_eq!(scanned.canonical.as_deref(), Some(sorted.as_str()));
    assert_eq!(scanned.is_canonical, scanned.compact == sorted);

    // The definition follows the rules, and keeps what the scan found.
    let holds = definition_rules_hold(json, &compact_value);
    match definition {
        Ok(d) => {
            assert!(holds, "a definition breaking the rules was accepted");
            assert_eq!(d.json(), scanned.compact);
            assert_eq!(d.canonical_json(), sorted);
            assert_eq!(Value::Object(d.to_object()), compact_value);
            assert_eq!(Some(d.name()), compact_value["name"].as_str());
            let key = if d.is_template() {
                "uriTemplate"
            } else {
                "uri"
            };
            assert_eq!(Some(d.uri_or_template()), compact_value[key].as_str());
            assert_eq!(d.template().is_some(), d.is_template());
            for revision in ProtocolRevision::ALL {
                assert_eq!(
                    d.json_for(revision),
                    listed_on(&compact_value, revision),
                    "{revision}"
                );
            }
        }
        Err(e) => assert!(!holds, "a definition following the rules was refused: {e}"),
    }
});
