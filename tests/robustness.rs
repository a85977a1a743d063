//! Bad input never panics: arbitrary bytes through every parser a client or
//! host can reach (identifiers, templates, captures, definitions, targets,
//! payload metadata, cursors).

mod fixtures;

use fixtures::*;
use mcp_resources::identity::validate_uri;
use mcp_resources::template::{decode_capture, Template};
use mcp_resources::*;
use proptest::prelude::*;

fn uri_like() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..80),
        "[a-z]{1,5}:(//)?[a-zA-Z0-9%{}/?#@:.\\[\\]~ -]{0,40}".prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn identifier_validation_never_panics_and_keeps_bytes(uri in uri_like()) {
        if let Ok(s) = validate_uri(&uri, 2048) {
            prop_assert_eq!(s.as_bytes(), &uri[..]);
        }
    }

    #[test]
    fn template_parsing_never_panics(t in "[a-z]{1,4}:(//)?[a-z{}/?#.*:,+;&=%0-9A-F]{0,40}") {
        if let Ok(parsed) = Template::parse(&t) {
            prop_assert_eq!(parsed.as_str(), t.as_str());
        }
    }

    #[test]
    fn capture_decoding_never_panics(raw in "[a-zA-Z0-9%./\\\\-]{0,20}") {
        let _ = decode_capture(&raw);
    }

    #[test]
    fn selection_never_panics(uri in uri_like()) {
        let r = registry(&[
            exact("x://h/a", "a"),
            template("x://h/{p}/c", "t1"),
            template("x://h/b/{q}", "t2"),
            template("urn:{id}", "u"),
        ]).unwrap();
        if let Err(e) = r.select(&uri) {
            prop_assert!(matches!(e.kind(), FailureKind::InvalidRequest | FailureKind::Unavailable));
        }
    }

    #[test]
    fn definition_parsing_never_panics(json in "\\PC{0,60}", uri in "[a-z]{1,3}://[a-z{}/]{0,12}") {
        let _ = ResourceDefinition::from_json(&json);
        let composed = format!(r#"{{"uri":"{uri}","name":"n","x":{json:?}}}"#);
        let _ = ResourceDefinition::from_json(&composed);
        let composed = format!(r#"{{"uriTemplate":"{uri}","name":"n"}}"#);
        let _ = ResourceDefinition::from_json(&composed);
    }

    #[test]
    fn target_and_payload_constructors_never_panic(uri in "\\PC{0,30}", rep in "\\PC{0,10}", json in "\\PC{0,30}") {
        let _ = ResourceTarget::new(&uri, &rep, Some(&json));
        if let Ok(p) = ResourcePayload::text(&rep, &uri) {
            let _ = p.with_meta_json(&json);
        }
    }

    #[test]
    fn arbitrary_cursors_are_invalid_requests(cursor in proptest::collection::vec(any::<u8>(), 1..300)) {
        let r = registry(&[exact("x://h/a", "a"), exact("x://h/b", "b")]).unwrap();
        let options = ListOptions {
            scope_key: b"scope".to_vec(),
            cursor: Some(cursor),
            ..ListOptions::default()
        };
        let e = r.list(&options).unwrap_err();
        prop_assert_eq!(e.kind(), FailureKind::InvalidRequest);
    }
}
