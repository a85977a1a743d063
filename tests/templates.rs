//! SPEC "Selection and identity": template syntax and capture decoding.

use mcp_resources::template::{decode_capture, CaptureError, Segment, Template};
use mcp_resources::FailureKind;
use proptest::prelude::*;

fn parse_err(t: &str) -> String {
    let e = Template::parse(t).expect_err(t);
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration, "{t}");
    e.message().to_string()
}

#[test]
fn named_whole_path_segments_are_supported() {
    let t = Template::parse("asset://project/{id}/thumbnail").unwrap();
    assert_eq!(t.names(), ["id"]);
    assert_eq!(t.prefix(), "asset://project");
    assert_eq!(
        t.segments(),
        [
            Segment::Literal(String::new()),
            Segment::Variable(0),
            Segment::Literal("thumbnail".into())
        ]
    );
    let t = Template::parse("x://h/{a}/{_b9}/{C}").unwrap();
    assert_eq!(t.names(), ["a", "_b9", "C"]);
    let t = Template::parse("urn:{id}").unwrap();
    assert_eq!(t.names(), ["id"]);
    assert!(Template::parse("x://h/static").unwrap().names().is_empty());
}

#[test]
fn variable_names_must_match_the_identifier_pattern() {
    for bad in [
        "x://h/{}",
        "x://h/{9a}",
        "x://h/{a-b}",
        "x://h/{é}",
        "x://h/{a b}",
    ] {
        assert!(parse_err(bad).contains("byte 6"), "{bad}");
    }
}

#[test]
fn variable_names_cannot_repeat() {
    assert!(parse_err("x://h/{a}/{a}").contains("repeated variable name"));
}

#[test]
fn authority_variables_are_unsupported() {
    assert!(parse_err("x://{host}/a").contains("authority"));
    assert!(parse_err("x://h:{port}/a").contains("authority"));
    assert!(parse_err("{s}://h/a").contains("scheme"));
}

#[test]
fn query_and_fragment_variables_are_unsupported() {
    assert!(parse_err("x://h/a?q={v}").contains("query"));
    assert!(parse_err("x://h/a?{q}").contains("query"));
    assert!(parse_err("x://h/a#{f}").contains("fragment"));
    assert!(parse_err("x://h/a?x=1#{f}").contains("fragment"));
}

#[test]
fn partial_segment_variables_are_unsupported() {
    for bad in [
        "x://h/a{id}",
        "x://h/{id}.png",
        "x://h/pre{id}post",
        "x://h/{a}{b}",
    ] {
        assert!(parse_err(bad).contains("whole path segment"), "{bad}");
    }
}

#[test]
fn exploded_prefix_and_list_expressions_are_unsupported() {
    assert!(parse_err("x://h/{id*}").contains("exploded"));
    assert!(parse_err("x://h/{id:3}").contains("prefix"));
    assert!(parse_err("x://h/{a,b}").contains("list"));
}

#[test]
fn operator_expressions_are_unsupported() {
    for op in ['+', '#'] {
        assert!(parse_err(&format!("x://h/{{{op}x}}")).contains("reserved-operator"));
    }
    for op in ['.', '/', ';', '?', '&'] {
        assert!(
            parse_err(&format!("x://h/{{{op}x}}")).contains("operator"),
            "{op}"
        );
    }
}

#[test]
fn unbalanced_braces_are_refused() {
    assert!(parse_err("x://h/{id").contains("unterminated"));
    assert!(parse_err("x://h/id}").contains("unmatched"));
    assert!(parse_err("x://h/{{id}}").contains("nested"));
}

#[test]
fn template_literals_must_be_valid_identifiers() {
    assert!(parse_err("x://h/a b/{id}").contains("forbidden character"));
    parse_err("x://u@h/{id}");
    parse_err("mcp-warning://read/{id}");
    parse_err("relative/{id}");
}

#[test]
fn static_query_and_fragment_remain_literal() {
    let t = Template::parse("x://h/{id}?format=png#top").unwrap();
    assert_eq!(t.suffix(), "?format=png#top");
    assert_eq!(t.match_raw("x://h/7?format=png#top"), Some(vec!["7"]));
    assert_eq!(t.match_raw("x://h/7?format=jpg#top"), None);
    assert_eq!(t.match_raw("x://h/7"), None);
    assert_eq!(t.match_raw("x://h/7?format=png"), None);
}

#[test]
fn matching_compares_literal_bytes_exactly() {
    let t = Template::parse("x://h/Files/{id}").unwrap();
    assert_eq!(t.match_raw("x://h/Files/1"), Some(vec!["1"]));
    assert_eq!(t.match_raw("x://h/files/1"), None);
    assert_eq!(t.match_raw("X://h/Files/1"), None);
    assert_eq!(t.match_raw("x://h/%46iles/1"), None);
    assert_eq!(t.match_raw("x://h/Files/1/2"), None);
    assert_eq!(
        t.match_raw("x://h/Files/"),
        None,
        "empty capture never matches"
    );
}

#[test]
fn captures_decode_exactly_once() {
    assert_eq!(decode_capture("%252F").unwrap(), "%2F");
    assert_eq!(decode_capture("%2525").unwrap(), "%25");
    assert_eq!(decode_capture("a%20b").unwrap(), "a b");
    assert_eq!(decode_capture("%C3%A9").unwrap(), "é");
    assert_eq!(decode_capture("é").unwrap(), "é");
}

#[test]
fn decoded_slash_backslash_and_nul_fail() {
    assert_eq!(decode_capture("%2F"), Err(CaptureError::Slash));
    assert_eq!(decode_capture("a%2fb"), Err(CaptureError::Slash));
    assert_eq!(decode_capture("%5C"), Err(CaptureError::Backslash));
    assert_eq!(decode_capture("%00"), Err(CaptureError::Nul));
}

#[test]
fn decoded_dot_segments_fail() {
    assert_eq!(decode_capture("."), Err(CaptureError::DotSegment));
    assert_eq!(decode_capture(".."), Err(CaptureError::DotSegment));
    assert_eq!(decode_capture("%2E%2E"), Err(CaptureError::DotSegment));
    assert_eq!(decode_capture("%2e"), Err(CaptureError::DotSegment));
    assert_eq!(decode_capture(".%2E"), Err(CaptureError::DotSegment));
    assert_eq!(decode_capture("...").unwrap(), "...");
    assert_eq!(decode_capture(".a").unwrap(), ".a");
}

#[test]
fn captures_must_decode_to_valid_utf8() {
    assert_eq!(decode_capture("%C3"), Err(CaptureError::InvalidUtf8));
    assert_eq!(decode_capture("%FF%FE"), Err(CaptureError::InvalidUtf8));
}

#[test]
fn empty_capture_fails() {
    assert_eq!(decode_capture(""), Err(CaptureError::Empty));
}

/// Every byte that is not unreserved is escaped, as a client would do.
fn encode_component(s: &str) -> String {
    const SET: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(s, SET).to_string()
}

proptest! {
    #[test]
    fn any_capture_value_round_trips_through_percent_encoding(value in "\\PC{1,40}") {
        prop_assume!(!value.contains(['/', '\\', '\0']) && value != "." && value != "..");
        let t = Template::parse("x://h/items/{id}/v").unwrap();
        let uri = format!("x://h/items/{}/v", encode_component(&value));
        mcp_resources::identity::validate_uri(uri.as_bytes(), 1 << 20).unwrap();
        let raw = t.match_raw(&uri).expect("structural match");
        prop_assert_eq!(decode_capture(raw[0]).unwrap(), value);
    }

    #[test]
    fn percent_sequences_in_values_survive_one_decoding(value in "[a-z%0-9A-F]{1,20}") {
        prop_assume!(value != "." && value != "..");
        let encoded = encode_component(&value);
        prop_assert_eq!(decode_capture(&encoded).unwrap(), value);
    }

    #[test]
    fn unsafe_decoded_values_never_pass(prefix in "[a-z]{0,5}", bad in prop::sample::select(vec!["%2F", "%2f", "%5C", "%5c", "%00"]), suffix in "[a-z]{0,5}") {
        let raw = format!("{prefix}{bad}{suffix}");
        prop_assert!(decode_capture(&raw).is_err());
    }
}

#[test]
fn templates_with_many_variables_keep_every_rule() {
    let names: Vec<String> = (0..12).map(|i| format!("v{i}")).collect();
    let text = format!(
        "x://h/{}",
        names
            .iter()
            .map(|n| format!("{{{n}}}"))
            .collect::<Vec<_>>()
            .join("/")
    );
    let t = Template::parse(&text).unwrap();
    assert_eq!(t.names(), names);
    assert_eq!(t.segments().len(), 13);
    let repeated = format!("{text}/{{v10}}");
    assert!(parse_err(&repeated).contains("repeated variable name"));
    let partial = format!("{text}/a{{w}}");
    assert!(parse_err(&partial).contains("whole path segment"));
}
