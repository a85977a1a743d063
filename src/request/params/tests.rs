//! The strict params reader: what it accepts and refuses for every method,
//! its fixed messages, its fast path against `serde_json`, and its linear
//! duplicate check.

use std::cell::Cell;

use serde::de::DeserializeSeed;

use super::{flat_params, read as read_params, ObjectSeed, Values, LIST, MAX_PARAMS_BYTES, READ};
use crate::completion::{CompleteParams, CompleteRef};
use crate::request::{RequestMethod, RequestParams};

thread_local! {
    /// Key comparisons made by the duplicate check of objects of strings
    /// on this thread.
    pub(super) static COMPARISONS: Cell<usize> = const { Cell::new(0) };
}

/// Parses as `resources/read`, and checks that the list methods agree
/// on everything but `uri`/`cursor`.
fn parse(s: &str) -> Result<RequestParams<'_>, &'static str> {
    let read = RequestParams::parse(RequestMethod::ResourcesRead, s.as_bytes());
    let list = RequestParams::parse(RequestMethod::ResourcesList, s.as_bytes());
    let list_t = RequestParams::parse(RequestMethod::ResourcesTemplatesList, s.as_bytes());
    assert_eq!(list, list_t);
    if let (Ok(r), Ok(l)) = (&read, &list) {
        assert_eq!(r.protocol_version, l.protocol_version);
        assert!(r.cursor.is_none() && l.uri.is_none());
    }
    read.map_err(|e| e.message())
}

fn parse_list(s: &str) -> Result<RequestParams<'_>, &'static str> {
    RequestParams::parse(RequestMethod::ResourcesList, s.as_bytes()).map_err(|e| e.message())
}

#[test]
fn absent_params_are_an_empty_object() {
    for s in ["", "  \n", "null", " null "] {
        assert_eq!(parse(s), Ok(RequestParams::default()), "{s:?}");
    }
}

#[test]
fn known_members_are_read_and_others_ignored() {
    let p = parse(
        r#"{"x":[1,{"y":null}],"uri":"a:\u0062","cursor":"c","_meta":{"progressToken":1,"io.modelcontextprotocol/protocolVersion":"2025-11-25"},"requestState":"s"}"#,
    )
    .unwrap();
    assert_eq!(p.uri.as_deref(), Some("a:b"));
    assert_eq!(p.cursor, None);
    assert_eq!(p.protocol_version.as_deref(), Some("2025-11-25"));
    let p = parse_list(r#"{"uri":7,"cursor":"c"}"#).unwrap();
    assert_eq!((p.uri, p.cursor.as_deref()), (None, Some("c")));
    assert_eq!(
        parse(r#"{"uri":"a:b","cursor":7}"#).unwrap().uri.as_deref(),
        Some("a:b")
    );
}

#[test]
fn malformed_params_have_fixed_messages() {
    let cases = [
        (r#"{"uri":1}"#, "params uri must be a string"),
        (r#"{"uri":null}"#, "params uri must be a string"),
        (r#"{"uri":["a"]}"#, "params uri must be a string"),
        (r#"{"_meta":[]}"#, "params _meta must be an object"),
        (r#"{"_meta":"x"}"#, "params _meta must be an object"),
        (
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}"#,
            "params _meta protocolVersion must be a string",
        ),
        (r#"[]"#, "params must be an object"),
        (r#""uri""#, "params must be an object"),
        (r#"42"#, "params must be an object"),
        (r#"{"uri":"a:b","uri":"c:d"}"#, "params repeat uri"),
        (r#"{"_meta":{},"_meta":{}}"#, "params repeat _meta"),
        (r#"{"uri":"a:b""#, "params are not valid JSON"),
        (r#"{"uri":"a:b"} x"#, "params are not valid JSON"),
        (r#"{"uri":"a:b"}{}"#, "params are not valid JSON"),
        ("{\"uri\":\"\\ud800\"}", "params are not valid JSON"),
        ("{'uri':'a:b'}", "params are not valid JSON"),
    ];
    for (s, m) in cases {
        assert_eq!(parse(s), Err(m), "{s}");
    }
    assert_eq!(
        RequestParams::parse(RequestMethod::ResourcesRead, b"{\"uri\":\"\xff\"}")
            .map_err(|e| e.message()),
        Err("params are not valid JSON")
    );
    for (s, m) in [
        (r#"{"cursor":{}}"#, "params cursor must be a string"),
        (r#"{"cursor":true}"#, "params cursor must be a string"),
        (r#"{"cursor":"a","cursor":"a"}"#, "params repeat cursor"),
    ] {
        assert_eq!(parse_list(s), Err(m), "{s}");
    }
}

#[test]
fn huge_and_deep_params_are_refused() {
    let huge = format!(
        r#"{{"uri":"a:b","pad":"{}"}}"#,
        "x".repeat(MAX_PARAMS_BYTES)
    );
    assert_eq!(parse(&huge), Err("params exceed 256 KiB"));
    // Ignored members are skipped without recursion: deep nesting within
    // the size bound neither overflows the stack nor matters.
    let deep = format!(
        "{{\"x\":{}{},\"uri\":\"a:b\"}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(parse(&deep).unwrap().uri.as_deref(), Some("a:b"));
    let deep_uri = format!("{{\"uri\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(parse(&deep_uri), Err("params uri must be a string"));
    let unbalanced = format!("{{\"x\":{}}}", "[".repeat(100_000));
    assert_eq!(parse(&unbalanced), Err("params are not valid JSON"));
}

#[test]
fn usual_params_take_the_flat_path_and_the_rest_serde() {
    for (text, read) in [
        (r#"{"uri":"doc://a"}"#, true),
        (" {\t\"uri\" : \"doc://é\" ,\"x\":\"y\"}\n", true),
        (r#"{"cursor":"abc-_"}"#, false),
        (r#"{}"#, false),
        (r#"{"uri":"ignored","cursor":""}"#, false),
        (
            r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"x":[null,false,{}]},"io.modelcontextprotocol/clientInfo":{"name":"n","version":"1"}}}"#,
            true,
        ),
        (r#"{"_meta":{"uri":"inner"},"x":[[],{}]}"#, true),
        (
            r#"{"uri":"bench://small/item","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0"}}}"#,
            true,
        ),
    ] {
        let spec = if read { READ } else { LIST };
        let mut flat = Values::default();
        flat_params(text.trim(), spec, &mut flat).expect(text);
        assert_eq!(read_params(text.as_bytes(), spec), Ok(flat));
    }
    for text in [
        r#"{"uri":"a\u0062"}"#,
        r#"{"uri":"doc://a","_meta":[]}"#,
        r#"{"uri":"doc://a","_meta":{},"_meta":{}}"#,
        r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":1}}"#,
        r#"{"uri":1}"#,
        r#"{"uri":"doc://a","n":1}"#,
        r#"{"uri":"doc://a","x":tru}"#,
        r#"{"uri":"doc://a","x":[1]}"#,
        r#"{"uri":"doc://a","x":[true,]}"#,
        r#"{"uri":"doc://a","uri":"doc://b"}"#,
        r#"{"uri":"doc://a",}"#,
        r#"{"uri":"doc://a"} "#,
        r#"{"uri":"doc://a"}x"#,
        "{\"uri\":\"a\u{1}\"}",
        r#"{"uri" "doc://a"}"#,
        r#"["uri"]"#,
    ] {
        assert_eq!(
            flat_params(text, READ, &mut Values::default()),
            None,
            "{text}"
        );
    }
}

#[test]
fn only_json_whitespace_is_trimmed() {
    assert_eq!(
        parse("\u{c}{\"uri\":\"a:b\"}"),
        Err("params are not valid JSON")
    );
    assert_eq!(
        parse(" \t\r\n{\"uri\":\"a:b\"} \n").unwrap().uri.as_deref(),
        Some("a:b")
    );
}

fn json_token() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        Just("\"uri\"".to_string()),
        Just("\"cursor\"".to_string()),
        Just("\"_meta\"".to_string()),
        "[a-z_]{0,5}".prop_map(|s| format!("\"{s}\"")),
        "[a-z:/\\\\\"\u{e9}\u{1}\u{7f}]{0,6}".prop_map(|s| format!("\"{s}\"")),
        Just("1".to_string()),
        Just("{}".to_string()),
        Just("null".to_string()),
        Just("true".to_string()),
        Just("[]".to_string()),
        Just("[\"a\",{\"b\":false},[null]]".to_string()),
        Just("{\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\",\"c\":{}}".to_string()),
        Just("{\"io.modelcontextprotocol/protocolVersion\":\"x\",\"io.modelcontextprotocol/protocolVersion\":\"y\"}".to_string()),
        Just("{\"io.modelcontextprotocol/protocolVersion\":7}".to_string()),
        Just("{\"a\":{\"a\":\"b\",\"a\":[]}}".to_string()),
        Just("{\"traceparent\":\"00-ab-cd-01\",\"tracestate\":[1],\"baggage\":{\"k\":\"v\"}}".to_string()),
        Just("{\"baggage\":null,\"tracestate\":\"v=1\",\"traceparent\":true}".to_string()),
        Just("{\"traceparent\":\"a\",\"traceparent\":\"b\"}".to_string()),
    ]
}

proptest::proptest! {
    /// Whatever the flat path accepts, serde_json parses to the same
    /// value (the flat path only ever saves time). Inputs are mostly
    /// well-formed flat objects, some with a random token inserted.
    #[test]
    fn flat_path_agrees_with_serde(
        members in proptest::collection::vec((json_token(), json_token(), "[ \t\n]{0,2}"), 0..5),
        insert in proptest::option::of((0usize..200, proptest::prop_oneof![
            proptest::strategy::Just(",".to_string()),
            proptest::strategy::Just(":".to_string()),
            proptest::strategy::Just("\"".to_string()),
            proptest::strategy::Just("\\".to_string()),
            proptest::strategy::Just("}".to_string()),
            proptest::strategy::Just("{".to_string()),
            proptest::strategy::Just("\u{c}".to_string()),
            proptest::arbitrary::any::<String>(),
        ])),
        read in proptest::arbitrary::any::<bool>(),
    ) {
        let body: Vec<String> = members
            .iter()
            .map(|(k, v, w)| format!("{w}{k}{w}:{w}{v}{w}"))
            .collect();
        let mut text = format!("{{{}}}", body.join(","));
        if let Some((at, token)) = insert {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, &token);
        }
        let spec = if read { READ } else { LIST };
        let mut flat = Values::default();
        if flat_params(&text, spec, &mut flat).is_some() {
            let mut de = serde_json::Deserializer::from_str(&text);
            let mut slow = Values::default();
            let refused = Cell::new(None);
            let r = ObjectSeed { spec, out: &mut slow, refused: &refused, not_object: "x" }.deserialize(&mut de);
            proptest::prop_assert!(r.is_ok() && de.end().is_ok(), "{}", text);
            proptest::prop_assert_eq!(&slow, &flat, "{}", text);
            proptest::prop_assert_eq!(read_params(text.as_bytes(), spec), Ok(flat));
        }
    }

    /// The whole parser never panics, whatever the bytes.
    #[test]
    fn params_parser_never_panics(bytes in proptest::collection::vec(proptest::arbitrary::any::<u8>(), 0..64)) {
        let _ = RequestParams::parse(RequestMethod::ResourcesRead, &bytes);
        let _ = RequestParams::parse(RequestMethod::ResourcesList, &bytes);
    }
}

/// Completion params with `n` context arguments of distinct short names
/// (the worst case for a duplicate check that compares every name with
/// every earlier one), the last one `last`.
fn completion_with_context(n: usize, last: &str) -> String {
    let mut s = String::from(
        r#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":""},"context":{"arguments":{"#,
    );
    for i in 0..n {
        s.push_str(&format!("\"k{i}\":\"\","));
    }
    s.push_str(&format!("\"{last}\":\"\"}}}}}}"));
    s
}

/// A repeated context name is found with a constant number of key
/// comparisons per name (hashing), not one per earlier name: the rule test
/// of linear parsing, without timing.
#[test]
fn context_argument_names_are_checked_for_repeats_in_linear_time() {
    for n in [1_000, 4_000, 16_000] {
        COMPARISONS.with(|c| c.set(0));
        let text = completion_with_context(n, "last");
        let CompleteRef::Resource(p) = CompleteParams::parse(text.as_bytes()).unwrap() else {
            panic!("a resource reference");
        };
        assert_eq!(p.context.len(), n + 1);
        let made = COMPARISONS.with(Cell::get);
        assert!(made <= 2 * n, "{made} comparisons for {n} names");
        // A repeat is still found, wherever it is.
        COMPARISONS.with(|c| c.set(0));
        let repeated = completion_with_context(n, &format!("k{}", n / 2));
        assert_eq!(
            CompleteParams::parse(repeated.as_bytes())
                .unwrap_err()
                .message(),
            "params context.arguments repeat a name"
        );
        assert!(COMPARISONS.with(Cell::get) <= 2 * n);
    }
    // The worst case the size bound allows still parses.
    let mut n = 0;
    while completion_with_context(n + 1024, "x").len() <= MAX_PARAMS_BYTES {
        n += 1024;
    }
    assert!(CompleteParams::parse(completion_with_context(n, "x").as_bytes()).is_ok());
}

/// Completion params accept and refuse what `resources/*` params do: the
/// same reader, the same UTF-8, `_meta` and type rules (a member acted on
/// may not be `null`).
#[test]
fn completion_params_are_held_to_the_rules_of_every_method() {
    const REF: &str =
        r#""ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":""}"#;
    let resource = |rest: &str| format!("{{{REF}{rest}}}");
    let read = |rest: &str| format!(r#"{{"uri":"a://x/1"{rest}}}"#);
    for (rest, message) in [
        (r#","_meta":null"#, "params _meta must be an object"),
        (r#","_meta":[]"#, "params _meta must be an object"),
        (r#","_meta":{},"_meta":{}"#, "params repeat _meta"),
        (
            r#","_meta":{"io.modelcontextprotocol/protocolVersion":null}"#,
            "params _meta protocolVersion must be a string",
        ),
        (
            r#","_meta":{"io.modelcontextprotocol/protocolVersion":"a","io.modelcontextprotocol/protocolVersion":"b"}"#,
            "params _meta repeat protocolVersion",
        ),
    ] {
        let c = CompleteParams::parse(resource(rest).as_bytes()).unwrap_err();
        let r =
            RequestParams::parse(RequestMethod::ResourcesRead, read(rest).as_bytes()).unwrap_err();
        assert_eq!((c.message(), r.message()), (message, message), "{rest}");
    }
    // Invalid UTF-8 in a member nobody acts on: not JSON, for every method.
    let mut bad = resource(r#","x":"?""#).into_bytes();
    let at = bad.iter().position(|&b| b == b'?').unwrap();
    bad[at] = 0xff;
    assert_eq!(
        CompleteParams::parse(&bad).unwrap_err().message(),
        "params are not valid JSON"
    );
    let mut bad_read = read(r#","x":"?""#).into_bytes();
    let at = bad_read.iter().position(|&b| b == b'?').unwrap();
    bad_read[at] = 0xff;
    assert_eq!(
        RequestParams::parse(RequestMethod::ResourcesRead, &bad_read)
            .unwrap_err()
            .message(),
        "params are not valid JSON"
    );
    // `null` is no object for the completion members either.
    for (rest, message) in [
        (r#","context":null"#, "params context must be an object"),
        (
            r#","context":{"arguments":null}"#,
            "params context.arguments must be an object of strings",
        ),
        (
            r#","context":{"arguments":{"a":null}}"#,
            "params context.arguments must be an object of strings",
        ),
        (r#","context":{},"context":{}"#, "params repeat context"),
    ] {
        assert_eq!(
            CompleteParams::parse(resource(rest).as_bytes())
                .unwrap_err()
                .message(),
            message,
            "{rest}"
        );
    }
    for text in [
        r#"{"ref":null,"argument":{"name":"id","value":""}}"#,
        r#"{"ref":{"type":"ref/resource","uri":null},"argument":{"name":"id","value":""}}"#,
        r#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":null}"#,
        r#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":null,"value":""}}"#,
    ] {
        assert!(CompleteParams::parse(text.as_bytes()).is_err(), "{text}");
    }
    // The same members absent or in order: accepted alike.
    assert!(CompleteParams::parse(resource(r#","_meta":{},"context":{}"#).as_bytes()).is_ok());
    assert!(RequestParams::parse(
        RequestMethod::ResourcesRead,
        read(r#","_meta":{}"#).as_bytes()
    )
    .is_ok());
    // A prompt reference is not this library's, whatever the rest holds
    // (as long as the params are JSON).
    for rest in [r#","_meta":null"#, r#","context":null"#, r#","argument":7"#] {
        let text = format!(r#"{{"ref":{{"type":"ref/prompt","name":"p"}}{rest}}}"#);
        assert_eq!(
            CompleteParams::parse(text.as_bytes()).unwrap(),
            CompleteRef::Prompt,
            "{rest}"
        );
    }
    let mut bad_prompt = br#"{"ref":{"type":"ref/prompt"},"x":"?"}"#.to_vec();
    let at = bad_prompt.iter().position(|&b| b == b'?').unwrap();
    bad_prompt[at] = 0xff;
    assert_eq!(
        CompleteParams::parse(&bad_prompt).unwrap_err().message(),
        "params are not valid JSON"
    );
}

#[test]
fn trace_members_are_kept_when_strings_left_out_otherwise_and_never_repeat() {
    let p = parse(
        r#"{"uri":"a://b","_meta":{"traceparent":"00-ab-cd-01","tracestate":7,"baggage":{"k":[1]}}}"#,
    )
    .unwrap();
    assert_eq!(p.trace[0].as_deref(), Some("00-ab-cd-01"));
    assert_eq!((&p.trace[1], &p.trace[2]), (&None, &None));
    // Escaped strings (the serde path) are decoded.
    let p = parse(r#"{"_meta":{"baggage":"k=\u0076","tracestate":null}}"#).unwrap();
    assert_eq!(p.trace[2].as_deref(), Some("k=v"));
    assert_eq!(p.trace[1], None);
    for s in [
        r#"{"_meta":{"traceparent":"a","traceparent":"b"}}"#,
        r#"{"_meta":{"baggage":1,"baggage":"b"}}"#,
        r#"{"_meta":{"tracestate":"\u0061","tracestate":null}}"#,
    ] {
        assert_eq!(parse(s), Err("params _meta repeat a trace member"), "{s}");
    }
    // Completion params read them with the same reader.
    let c = r#"{"ref":{"type":"ref/resource","uri":"a://x/{id}"},"argument":{"name":"id","value":""},"_meta":{"baggage":"k=v","traceparent":1}}"#;
    let (_, _, trace) = CompleteParams::parse_request(c.as_bytes()).unwrap();
    assert_eq!(
        trace,
        Some(crate::trace::TraceContext::new(None, None, Some("k=v")))
    );
    let repeated = c.replace(r#""traceparent":1"#, r#""baggage":"x""#);
    assert_eq!(
        CompleteParams::parse_request(repeated.as_bytes())
            .unwrap_err()
            .message(),
        "params _meta repeat a trace member"
    );
}
