//! `tools/call` params of the resource tools, read by the one strict
//! reader: `name`, the arguments kept as given, `_meta`; the fixed
//! messages; the fast path against `serde_json`; the linear repeat check.

use std::cell::Cell;

use super::super::tests::COMPARISONS;
use super::super::{flat_params, read as read_params, Values, TOOLS_CALL};
use super::Arg;
use crate::request::{ToolCallParams, MAX_PARAMS_BYTES};

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
    // Every other type is an argument too, kept as "other".
    let p = parse(r#"{"name":"a","arguments":{"a":true,"b":null,"c":{},"d":1.5,"e":"\u00e9"}}"#)
        .unwrap();
    let kinds: Vec<_> = p.arguments.iter().map(|(k, v)| (k.as_ref(), v)).collect();
    assert_eq!(
        kinds,
        [
            ("a", &Arg::Other),
            ("b", &Arg::Other),
            ("c", &Arg::Other),
            ("d", &Arg::Other),
            ("e", &Arg::Str("\u{e9}".into())),
        ]
    );
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
            r#"{"name":"a","arguments":{"uri":1,"uri":[2]}}"#,
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
        (
            r#"{"name":"a","arguments":{"uri":"a",}}"#,
            "params are not valid JSON",
        ),
    ];
    for (s, m) in cases {
        assert_eq!(parse(s), Err(m), "{s}");
    }
    assert_eq!(
        ToolCallParams::parse(b"{\"name\":\"\xff\"}").map_err(|e| e.message()),
        Err("params are not valid JSON")
    );
    // Invalid UTF-8 in an argument nobody acts on: not JSON either.
    assert_eq!(
        ToolCallParams::parse(b"{\"name\":\"a\",\"arguments\":{\"x\":\"\xff\"}}")
            .map_err(|e| e.message()),
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
    let deep_argument = format!(
        "{{\"name\":\"a\",\"arguments\":{{\"x\":{}{}}}}}",
        "[".repeat(100),
        "]".repeat(100)
    );
    assert_eq!(
        parse(&deep_argument).unwrap().argument("x"),
        Some(&Arg::Other)
    );
}

#[test]
fn the_name_of_refused_params_is_read_alone() {
    let name = |s: &str| {
        let e = ToolCallParams::parse(s.as_bytes()).unwrap_err();
        ToolCallParams::name_of_refused(s.as_bytes(), e).map(|n| n.into_owned())
    };
    assert_eq!(
        name(r#"{"name":"other","arguments":[]}"#).as_deref(),
        Some("other")
    );
    assert_eq!(
        name(r#"{"name":"o\u0074her","arguments":{"a":1,"a":2}}"#).as_deref(),
        Some("other")
    );
    // No name when the text is no object, or the name itself is malformed.
    for s in [
        r#"{"name":"other","arguments":[]"#,
        r#"{"name":7,"arguments":[]}"#,
        r#"{"name":"a","name":"b","arguments":[]}"#,
        r#"{"arguments":[]}"#,
        r#"[]"#,
    ] {
        assert_eq!(name(s), None, "{s}");
    }
}

#[test]
fn usual_tool_params_take_the_flat_path_and_the_rest_serde() {
    for text in [
        r#"{"name":"read_resource","arguments":{"uri":"doc://a"}}"#,
        r#"{"name":"list_resources","arguments":{}}"#,
        r#"{"name":"list_resources","arguments":{"cursor":"r-abc"},"_meta":{"progressToken":"t","io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#,
        r#"{"arguments":{"a":[true,{"b":null}],"c":"d"},"name":"x"}"#,
    ] {
        let mut flat = Values::default();
        flat_params(text, TOOLS_CALL, &mut flat).expect(text);
        assert!(flat.args.is_some(), "{text}");
        assert_eq!(read_params(text.as_bytes(), TOOLS_CALL), Ok(flat));
    }
    let many: Vec<String> = (0..17).map(|i| format!("\"k{i}\":\"v\"")).collect();
    let many = format!(r#"{{"name":"a","arguments":{{{}}}}}"#, many.join(","));
    for text in [
        r#"{"name":"a","arguments":{"uri":"a\u0062"}}"#,
        r#"{"name":"a","arguments":{"n":1}}"#,
        r#"{"name":"a","arguments":{"u":"a","u":"b"}}"#,
        r#"{"name":"a","arguments":[]}"#,
        many.as_str(),
    ] {
        assert_eq!(
            flat_params(text, TOOLS_CALL, &mut Values::default()),
            None,
            "{text}"
        );
        // The serde path decides; the 17 plain arguments are read.
        let _ = read_params(text.as_bytes(), TOOLS_CALL);
    }
    assert_eq!(parse(&many).unwrap().arguments.len(), 17);
}

/// A repeated argument name is found with a constant number of key
/// comparisons per name (hashing), not one per earlier name.
#[test]
fn argument_names_are_checked_for_repeats_in_linear_time() {
    let params = |n: usize, last: &str| {
        let mut s = String::from(r#"{"name":"a","arguments":{"#);
        for i in 0..n {
            s.push_str(&format!("\"k{i}\":0,"));
        }
        s.push_str(&format!("\"{last}\":0}}}}"));
        s
    };
    for n in [1_000, 4_000, 16_000] {
        COMPARISONS.with(|c| c.set(0));
        assert_eq!(parse(&params(n, "last")).unwrap().arguments.len(), n + 1);
        let made = COMPARISONS.with(Cell::get);
        assert!(made <= 2 * n, "{made} comparisons for {n} names");
        COMPARISONS.with(|c| c.set(0));
        assert_eq!(
            parse(&params(n, &format!("k{}", n / 2))),
            Err("params repeat an argument")
        );
        assert!(COMPARISONS.with(Cell::get) <= 2 * n);
    }
}

fn json_token() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        Just("\"name\"".to_string()),
        Just("\"arguments\"".to_string()),
        Just("\"uri\"".to_string()),
        Just("\"_meta\"".to_string()),
        "[a-z_]{0,3}".prop_map(|s| format!("\"{s}\"")),
        "[a-z:/\\\\\"\u{e9}\u{1}]{0,4}".prop_map(|s| format!("\"{s}\"")),
        Just("1".to_string()),
        Just("{}".to_string()),
        Just("null".to_string()),
        Just("[true,{\"a\":[]}]".to_string()),
        Just("{\"uri\":\"doc://a\",\"x\":[null]}".to_string()),
        Just("{\"a\":\"b\",\"a\":\"c\"}".to_string()),
        Just("{\"a\":{\"a\":1}}".to_string()),
    ]
}

proptest::proptest! {
    /// Whatever the flat path accepts for `tools/call`, the reader's
    /// `serde_json` path reads the same (the flat path only saves time).
    #[test]
    fn the_flat_path_agrees_with_serde_for_tool_params(
        members in proptest::collection::vec((json_token(), json_token()), 0..5),
    ) {
        let body: Vec<String> = members.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        let text = format!("{{{}}}", body.join(","));
        let mut flat = Values::default();
        if flat_params(&text, TOOLS_CALL, &mut flat).is_some() {
            let v: Result<serde_json::Value, _> = serde_json::from_str(&text);
            proptest::prop_assert!(v.is_ok(), "{}", text);
            let mut slow = Values::default();
            // Through the serde path only: the flat path given up at once.
            let refused = Cell::new(None);
            let mut de = serde_json::Deserializer::from_str(&text);
            let r = serde::de::DeserializeSeed::deserialize(
                super::super::ObjectSeed { spec: TOOLS_CALL, out: &mut slow, refused: &refused, not_object: "x" },
                &mut de,
            );
            proptest::prop_assert!(r.is_ok(), "{}", text);
            proptest::prop_assert_eq!(slow, flat, "{}", text);
        }
    }

    /// The parser never panics, whatever the bytes.
    #[test]
    fn the_parser_never_panics(bytes in proptest::collection::vec(proptest::arbitrary::any::<u8>(), 0..64)) {
        let _ = ToolCallParams::parse(&bytes);
    }
}
