//! The definition scanner against `serde_json`: compact and canonical
//! forms, members, refusals, nesting, and a differential property test.

use super::*;

fn compact_and_canonical(json: &str) -> (String, String) {
    let mut out = String::new();
    let scanned = scan(json, &mut out, "").unwrap();
    let canon = scanned.canonical(&out).unwrap();
    (out, canon)
}

#[test]
fn compact_form_equals_serde_json_reserialisation() {
    for json in [
        r#" { "b" : [1, -2, 3.5, 1e300, 18446744073709551615, true, null, "\u00e9\n\/"] , "a" : {} } "#,
        r#"{"k":"\"q\" \\ \u0001 \ud83d\ude00","n":-0.0,"e":[],"o":{"z":1,"y":[{}]}}"#,
        "[]",
        "\"s\"",
        "12",
        "-0",
        "[0, -0, 1.0, 1E2, 123456789012345678, 1234567890123456789, 99999999999999999999]",
    ] {
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        let (compact, _) = compact_and_canonical(json);
        assert_eq!(compact, serde_json::to_string(&value).unwrap(), "{json}");
    }
}

#[test]
fn already_compact_input_is_copied_unchanged() {
    let json = r#"{"uri":"file:///a","name":"a","size":12,"annotations":{"priority":0.5}}"#;
    let (compact, _) = compact_and_canonical(json);
    assert_eq!(compact, json);
}

#[test]
fn canonical_form_sorts_keys_at_every_depth() {
    let (_, canon) = compact_and_canonical(r#"{"b":{"d":1,"c":[{"f":0,"e":1}]},"a":"x"}"#);
    assert_eq!(canon, r#"{"a":"x","b":{"c":[{"e":1,"f":0}],"d":1}}"#);
    let (_, canon) = compact_and_canonical(r#"{"b":{"c":1,"d":[{"e":0}]},"a":"x"}"#);
    assert_eq!(canon, r#"{"a":"x","b":{"c":1,"d":[{"e":0}]}}"#);
}

#[test]
fn canonical_form_parses_the_source_not_the_compact_form() {
    // serde_json reads its own shortest float form back as a neighbour
    // (…967e-14 becomes …968e-14), so sorting must start from the source.
    let json = r#"{"a":{"b":1,"a":-0.00000000000006464148589422966}}"#;
    let mut value: serde_json::Value = serde_json::from_str(json).unwrap();
    value.sort_all_objects();
    let (_, canon) = compact_and_canonical(json);
    assert_eq!(canon, serde_json::to_string(&value).unwrap());
}

#[test]
fn members_record_the_top_level_only() {
    let mut out = String::from("prefix");
    let s = scan(r#" {"a" : "x\n", "b":{"a":1}} "#, &mut out, "").unwrap();
    assert_eq!(out, r#"prefix{"a":"x\n","b":{"a":1}}"#);
    assert_eq!(s.members.len(), 2);
    assert_eq!(s.members[0].key, "a");
    assert_eq!(s.members[0].value, Kind::Str("x\n".into()));
    assert_eq!(&out[s.members[0].bytes.clone()], r#""a":"x\n""#);
    assert_eq!(&out[s.members[1].value_bytes.clone()], r#"{"a":1}"#);
    assert_eq!(s.members[1].value, Kind::Object);
}

#[test]
fn keys_are_decoded_for_checks() {
    let s = scan(r#"{"a":{"\u0078y":1}}"#, &mut String::new(), "xy").unwrap();
    assert!(s.has_key);
    let s = scan(r#"{"a":{"\u0078y":1}}"#, &mut String::new(), "a\\u0078y").unwrap();
    assert!(!s.has_key);
    let s = scan(r#"{"a":1,"\u0061":2}"#, &mut String::new(), "").unwrap();
    assert!(s.duplicate_key);
    let s = scan(r#"[{"b":1,"a":2,"b":3}]"#, &mut String::new(), "").unwrap();
    assert!(s.duplicate_key);
    let many: Vec<String> = (0..40).rev().map(|i| format!("\"k{i}\":0")).collect();
    let json = format!("{{{},\"k7\":1}}", many.join(","));
    assert!(scan(&json, &mut String::new(), "").unwrap().duplicate_key);
    let json = format!("{{{}}}", many.join(","));
    assert!(!scan(&json, &mut String::new(), "").unwrap().duplicate_key);
}

#[test]
fn invalid_json_is_refused() {
    for bad in [
        "{",
        "{\"a\":}",
        "[1,]",
        "{} x",
        "",
        "01",
        "-",
        "1.",
        "+1",
        "nul",
        "tru",
        "\"a",
        "\"\\x\"",
        "\"\\ud800\"",
        "{\"a\" 1}",
        "{1:2}",
        "[1 2]",
        "\"\u{1}\"",
        "1e",
        "--1",
        "1.5.3",
        "1e400",
    ] {
        assert!(scan(bad, &mut String::new(), "").is_err(), "{bad:?}");
        assert!(
            serde_json::from_str::<serde_json::Value>(bad).is_err(),
            "{bad:?}"
        );
    }
}

#[test]
fn nesting_limit_matches_serde_json() {
    for depth in [126, 127, 128, 129] {
        let json = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(
            scan(&json, &mut String::new(), "").is_ok(),
            serde_json::from_str::<serde_json::Value>(&json).is_ok(),
            "depth {depth}"
        );
    }
    let deep = "[".repeat(100_000);
    assert!(scan(&deep, &mut String::new(), "").is_err());
}

#[test]
fn check_refuses_what_definitions_refuse() {
    let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
    for bad in [
        deep.as_str(),
        "1e999",
        "[-1e999]",
        r#""\ud800""#,
        r#"{"a":"\udc00x"}"#,
        "{",
    ] {
        assert!(
            matches!(check(bad, None), Err(Refusal::Invalid(_))),
            "{bad}"
        );
    }
    for dup in [r#"{"a":1,"a":2}"#, r#"[{"x":{"b":1,"\u0062":2}}]"#] {
        assert!(
            matches!(check(dup, None), Err(Refusal::DuplicateKey)),
            "{dup}"
        );
    }
    let reserved = r#"{"a":[{"k":1}]}"#;
    assert!(matches!(
        check(reserved, Some("k")),
        Err(Refusal::ReservedKey)
    ));
    assert_eq!(check(reserved, None).unwrap(), Kind::Object);
    // An empty key is an ordinary key when nothing is reserved.
    assert_eq!(check(r#"{"":1}"#, None).unwrap(), Kind::Object);
    let ok = format!("{}{}", "[".repeat(127), "]".repeat(127));
    assert_eq!(check(&ok, None).unwrap(), Kind::Array);
    assert_eq!(check("1e308", None).unwrap(), Kind::Scalar);
    assert_eq!(
        check(r#""\ud83d\ude00""#, None).unwrap(),
        Kind::Str("😀".into())
    );
}

#[test]
fn a_flat_object_of_plain_strings_takes_the_one_pass_scan() {
    let doc = r#"{"uriTemplate":"app1://project/{id}/thumbnail","name":"thumb1","mimeType":"text/plain"}"#;
    let mut out = String::new();
    let scanned = flat_strings(doc, &mut out, "x").expect("flat");
    assert_eq!(out, doc);
    assert_eq!(scanned.members.len(), 3);
    assert!(!scanned.top_sorted && !scanned.duplicate_key && !scanned.has_key);
    for refused in [
        r#"{"a":"b", "c":"d"}"#,
        r#"{"a":"b\n"}"#,
        r#"{"a":1}"#,
        r#"{"a":"b"} "#,
        r#"{}"#,
    ] {
        assert!(
            flat_strings(refused, &mut String::new(), "x").is_none(),
            "{refused}"
        );
    }
}

mod differential {
    use super::*;
    use proptest::prelude::*;

    const FIND: &str = "go.phpboyscout.uk/mcp.resourceRead";

    fn ws() -> impl Strategy<Value = &'static str> {
        prop_oneof![8 => Just(""), 1 => Just(" "), 1 => Just("\n\t"), 1 => Just("\r ")]
    }

    fn number() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => prop::sample::select(vec![
                "0", "-0", "1", "-1", "10", "1.5", "-0.0", "1e5", "1E+2", "-2.5e-3", "0.1",
                "123456789012345678", "-123456789012345678", "1234567890123456789",
                "18446744073709551615", "18446744073709551616", "-9223372036854775808",
                "-9223372036854775809", "2e-400", "123.456e-7",
            ])
            .prop_map(str::to_owned),
            1 => prop::sample::select(vec![
                "1e400", "01", "1.", "-", "1e", "+1", ".5", "1.5e3.2", "00", "-01",
            ])
            .prop_map(str::to_owned),
            2 => any::<i64>().prop_map(|n| n.to_string()),
            2 => any::<f64>().prop_map(|f| f.to_string()),
        ]
    }

    fn string() -> impl Strategy<Value = String> {
        let valid = prop::sample::select(vec![
            "a",
            "b",
            "é",
            "😀",
            " ",
            "/",
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\u0061",
            "\\u00e9",
            "\\ud83d\\ude00",
            "\\u001f",
            "\\u007f",
            "\u{7f}",
            "\\b\\f\\r\\t",
        ]);
        let invalid = prop::sample::select(vec![
            "\\ud800", "\\udc00", "\\x", "\\", "\u{1}", "\"", "\\u12",
        ]);
        let piece = prop_oneof![20 => valid, 1 => invalid];
        prop::collection::vec(piece, 0..5).prop_map(|p| format!("\"{}\"", p.concat()))
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                "\"a\"",
                "\"b\"",
                "\"c\"",
                "\"\\u0061\"",
                "\"ab\"",
                "\"\"",
                "\"go.phpboyscout.uk/mcp.resourceRead\"",
                "\"go.phpboyscout.uk\\/mcp.resourceRead\"",
            ])
            .prop_map(str::to_owned),
            string(),
        ]
    }

    fn value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            number(),
            string(),
            prop::sample::select(vec!["true", "false", "null", "null", "true", "nul"])
                .prop_map(str::to_owned),
        ];
        leaf.prop_recursive(5, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec((ws(), inner.clone(), ws()), 0..6).prop_map(|items| {
                    let parts: Vec<String> = items
                        .into_iter()
                        .map(|(a, v, b)| format!("{a}{v}{b}"))
                        .collect();
                    format!("[{}]", parts.join(","))
                }),
                prop::collection::vec((ws(), key(), ws(), inner, ws()), 0..5).prop_map(|members| {
                    let parts: Vec<String> = members
                        .into_iter()
                        .map(|(a, k, b, v, c)| format!("{a}{k}{b}:{v}{c}"))
                        .collect();
                    format!("{{{}}}", parts.join(","))
                }),
            ]
        })
    }

    /// A document, sometimes with one character inserted or removed.
    fn document() -> impl Strategy<Value = String> {
        (
            ws(),
            value(),
            ws(),
            0..10usize,
            any::<prop::sample::Index>(),
            any::<char>(),
        )
            .prop_map(|(a, v, b, edit, at, c)| {
                let mut chars: Vec<char> = format!("{a}{v}{b}").chars().collect();
                if edit == 1 && !chars.is_empty() {
                    chars.remove(at.index(chars.len()));
                } else if edit == 2 {
                    let i = at.index(chars.len() + 1);
                    chars.insert(i, c);
                } else if edit == 3 {
                    let i = at.index(chars.len() + 1);
                    let structural = [',', ':', '{', '}', '[', ']', '"', '\\', ' '];
                    chars.insert(i, structural[i % structural.len()]);
                }
                chars.into_iter().collect()
            })
    }

    fn has_key(v: &serde_json::Value, key: &str) -> bool {
        match v {
            serde_json::Value::Object(m) => m.iter().any(|(k, v)| k == key || has_key(v, key)),
            serde_json::Value::Array(a) => a.iter().any(|v| has_key(v, key)),
            _ => false,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The scanner accepts exactly what serde_json accepts and, for
        /// documents without repeated keys, writes exactly serde_json's
        /// compact and sorted serialisations.
        #[test]
        fn scanner_agrees_with_serde_json(doc in document()) {
            let expected = serde_json::from_str::<serde_json::Value>(&doc);
            let mut compact = String::new();
            let scanned = scan(&doc, &mut compact, FIND);
            prop_assert_eq!(scanned.is_ok(), expected.is_ok(), "{:?}", doc);
            let (Ok(scanned), Ok(mut value)) = (scanned, expected) else {
                return Ok(());
            };
            if !scanned.duplicate_key {
                prop_assert_eq!(scanned.has_key, has_key(&value, FIND));
                prop_assert_eq!(&compact, &serde_json::to_string(&value).unwrap());
                value.sort_all_objects();
                let sorted = serde_json::to_string(&value).unwrap();
                prop_assert_eq!(scanned.canonical(&compact), Some(sorted.clone()));
                prop_assert_eq!(scanned.is_canonical(), compact == sorted);
            }
            if let serde_json::Value::Object(map) = serde_json::from_str(&doc).unwrap() {
                prop_assert_eq!(scanned.root, Kind::Object);
                for m in &scanned.members {
                    prop_assert!(map.contains_key(m.key.as_ref()));
                    let member: serde_json::Value =
                        serde_json::from_str(&format!("{{{}}}", &compact[m.bytes.clone()]))
                            .unwrap();
                    prop_assert_eq!(member.as_object().unwrap().len(), 1);
                    let v: serde_json::Value =
                        serde_json::from_str(&compact[m.value_bytes.clone()]).unwrap();
                    if let Kind::Str(s) = &m.value {
                        prop_assert_eq!(v.as_str(), Some(s.as_ref()));
                    }
                }
            }
        }
    }

    /// A flat object of string members (what most definitions are), with
    /// now and then an escape, a space, a non-string value or a missing
    /// byte.
    fn flat_document() -> impl Strategy<Value = String> {
        let member = (key(), prop_oneof![6 => string(), 1 => number()]);
        (
            prop::collection::vec(member, 0..6),
            ws(),
            0..12usize,
            any::<prop::sample::Index>(),
        )
            .prop_map(|(members, space, edit, at)| {
                let parts: Vec<String> = members
                    .into_iter()
                    .map(|(k, v)| format!("{k}:{v}"))
                    .collect();
                let doc = format!("{{{}}}", parts.join(","));
                let mut chars: Vec<char> = doc.chars().collect();
                let i = at.index(chars.len() + 1);
                match edit {
                    1 if !chars.is_empty() => {
                        chars.remove(i.min(chars.len() - 1));
                    }
                    2 => chars.insert(i, space.chars().next().unwrap_or(' ')),
                    3 => chars.insert(i, '"'),
                    _ => {}
                }
                chars.into_iter().collect()
            })
    }

    fn summary(scanned: &Scanned<'_>) -> String {
        let members: Vec<String> = scanned
            .members
            .iter()
            .map(|m| {
                format!(
                    "{:?} {:?} {:?} {:?}",
                    m.key, m.bytes, m.value_bytes, m.value
                )
            })
            .collect();
        format!(
            "{:?} {:?} dup={} key={} top={} nested={}",
            scanned.root,
            members,
            scanned.duplicate_key,
            scanned.has_key,
            scanned.top_sorted,
            scanned.nested_sorted
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The flat-object pass gives exactly what the general scanner
        /// gives (output, members, flags) for every document it takes,
        /// after text already in the output, and leaves the output alone
        /// for those it does not.
        #[test]
        fn the_flat_object_pass_agrees_with_the_general_scanner(doc in flat_document(), prefix in "[a-z]{0,3}") {
            let mut general = prefix.clone();
            let expected = scan_any(&doc, &mut general, FIND);
            let mut fast = prefix.clone();
            match flat_strings(&doc, &mut fast, FIND) {
                Some(scanned) => {
                    let expected = expected.expect("the general scanner accepts it too");
                    prop_assert_eq!(&fast, &general);
                    prop_assert_eq!(summary(&scanned), summary(&expected));
                }
                None => prop_assert_eq!(&fast, &prefix),
            }
            let mut whole = prefix.clone();
            let scanned = scan(&doc, &mut whole, FIND);
            let mut again = prefix;
            let expected = scan_any(&doc, &mut again, FIND);
            prop_assert_eq!(scanned.is_ok(), expected.is_ok());
            if let (Ok(scanned), Ok(expected)) = (scanned, expected) {
                prop_assert_eq!(&whole, &again);
                prop_assert_eq!(summary(&scanned), summary(&expected));
            }
        }
    }
}
