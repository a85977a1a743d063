//! SPEC "Resource contracts" and "Selection and identity": registry
//! construction and binding selection.

mod fixtures;

use std::sync::Arc;

use fixtures::*;
use mcp_resources::*;

fn config_err(defs: &[String]) -> String {
    let e = registry(defs).expect_err("construction must fail");
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
    e.message().to_string()
}

fn name_of(r: &Resources, uri: &str) -> String {
    r.select(uri.as_bytes())
        .unwrap()
        .matched
        .definition()
        .name()
        .to_string()
}

#[test]
fn each_definition_has_exactly_one_uri_or_uri_template() {
    assert!(config_err(&[r#"{"name":"n"}"#.into()]).contains("neither"));
    assert!(
        config_err(&[r#"{"name":"n","uri":"x://a","uriTemplate":"x://{a}"}"#.into()])
            .contains("both")
    );
    assert!(config_err(&[r#"{"name":"n","uri":5}"#.into()]).contains("string"));
    assert!(config_err(&[r#"{"name":"n","uriTemplate":null}"#.into()]).contains("string"));
}

#[test]
fn definitions_must_be_json_objects_with_a_name() {
    assert!(config_err(&["[]".into()]).contains("object"));
    assert!(config_err(&["{".into()]).contains("JSON"));
    assert!(config_err(&[r#"{"uri":"x://a"}"#.into()]).contains("name"));
    assert!(config_err(&[r#"{"uri":"x://a","name":""}"#.into()]).contains("name"));
    assert!(config_err(&[r#"{"uri":"x://a","name":7}"#.into()]).contains("name"));
}

#[test]
fn definition_identifiers_are_validated() {
    assert!(config_err(&[exact("s://u@h/x", "n")]).contains("credentials"));
    assert!(config_err(&[exact("relative", "n")]).contains("absolute"));
    config_err(&[exact(
        "mcp-warning://read/00000000000000000000000000000000",
        "n",
    )]);
    config_err(&[template("MCP-WARNING://read/{id}", "n")]);
}

#[test]
fn definitions_are_bounded_at_64_kib() {
    let pad = "a".repeat(64 * 1024);
    let big = format!(r#"{{"uri":"x://a","name":"n","description":"{pad}"}}"#);
    assert!(config_err(&[big]).contains("64 KiB"));
    let fits = format!(
        r#"{{"uri":"x://a","name":"n","description":"{}"}}"#,
        "a".repeat(60 * 1024)
    );
    registry(&[fits]).unwrap();
}

#[test]
fn definition_meta_must_be_a_bounded_object() {
    assert!(config_err(&[r#"{"uri":"x://a","name":"n","_meta":[]}"#.into()]).contains("_meta"));
    let ok = r#"{"uri":"x://a","name":"n","_meta":{"app/x":{"k":1}}}"#;
    registry(&[ok.into()]).unwrap();
}

#[test]
fn reserved_metadata_key_cannot_appear_in_a_definition() {
    for def in [
        r#"{"uri":"x://a","name":"n","_meta":{"go.phpboyscout.uk/mcp.resourceRead":{}}}"#,
        r#"{"uri":"x://a","name":"n","_meta":{"a":{"go.phpboyscout.uk/mcp.resourceRead":1}}}"#,
        r#"{"uri":"x://a","name":"n","annotations":[{"go.phpboyscout.uk/mcp.resourceRead":1}]}"#,
    ] {
        assert!(config_err(&[def.into()]).contains("reserved"), "{def}");
    }
}

#[test]
fn duplicate_uris_fail_construction() {
    assert!(config_err(&[exact("x://a", "one"), exact("x://a", "two")]).contains("duplicate"));
}

#[test]
fn duplicate_templates_fail_construction() {
    assert!(
        config_err(&[template("x://a/{id}", "one"), template("x://a/{id}", "two")])
            .contains("duplicate")
    );
}

#[test]
fn uri_and_template_with_the_same_text_are_distinct_registrations() {
    let r = registry(&[exact("x://a/b", "exact"), template("x://a/b", "tmpl")]).unwrap();
    assert_eq!(name_of(&r, "x://a/b"), "exact");
}

#[test]
fn policy_is_required() {
    let e = Resources::builder()
        .binding(ResourceBinding::new(&exact("x://a", "n"), Arc::new(Single)).unwrap())
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
    assert!(e.message().contains("policy"));
}

#[test]
fn an_empty_registry_is_valid() {
    let r = registry(&[]).unwrap();
    assert_eq!(
        r.select(b"x://a").unwrap_err().kind(),
        FailureKind::Unavailable
    );
}

#[test]
fn definitions_are_checked_against_the_final_max_uri_bytes() {
    let uri = format!("x://h/{}", "a".repeat(60));
    let e = builder(&[exact(&uri, "n")])
        .unwrap()
        .limits(ResourceLimits::new().with(Limit::MaxUriBytes, 60))
        .build()
        .unwrap_err();
    assert!(e.message().contains("max_uri_bytes"));
    builder(&[exact(&uri, "n")])
        .unwrap()
        .limits(ResourceLimits::new().with(Limit::MaxUriBytes, 66))
        .build()
        .unwrap();
}

#[test]
fn limits_are_validated_at_build() {
    let e = builder(&[])
        .unwrap()
        .limits(ResourceLimits::new().with(Limit::MaxItems, -1))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
    assert!(e.message().contains("max_items"));
}

#[test]
fn cursor_keys_must_be_32_to_1024_bytes() {
    for (len, ok) in [
        (0, false),
        (31, false),
        (32, true),
        (1024, true),
        (1025, false),
    ] {
        let r = builder(&[]).unwrap().cursor_key(&vec![7u8; len]).build();
        assert_eq!(r.is_ok(), ok, "{len}");
        if let Err(e) = r {
            assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
        }
    }
}

#[test]
fn random_cursor_keys_differ_per_registry() {
    // Without a host key, each registry makes its own: identical registries
    // refuse each other's cursors (the cursor key itself is not exposed).
    let defs: Vec<String> = (0..3).map(|i| exact(&format!("x://{i}"), "n")).collect();
    let a = registry(&defs).unwrap();
    let b = registry(&defs).unwrap();
    assert_eq!(a.content_hash(), b.content_hash());
    let mut o = ListOptions {
        scope_key: b"s".to_vec(),
        page_size: 1,
        ..ListOptions::default()
    };
    let c = a.list(&o).unwrap().next_cursor().unwrap().to_string();
    o.cursor = Some(c.into_bytes());
    assert!(a.list(&o).is_ok());
    assert_eq!(b.list(&o).unwrap_err().kind(), FailureKind::InvalidRequest);
}

#[test]
fn content_hash_depends_only_on_content() {
    let a = registry(&[exact("x://a", "a"), exact("x://b", "b")]).unwrap();
    let b = registry(&[exact("x://b", "b"), exact("x://a", "a")]).unwrap();
    let reordered_keys =
        registry(&[r#"{"name":"b","uri":"x://b"}"#.into(), exact("x://a", "a")]).unwrap();
    assert_eq!(a.content_hash(), b.content_hash());
    assert_eq!(a.content_hash(), reordered_keys.content_hash());
    let c = registry(&[
        exact("x://a", "a"),
        exact("x://b", "b"),
        exact("x://c", "c"),
    ])
    .unwrap();
    assert_ne!(a.content_hash(), c.content_hash());
    let d = registry(&[exact("x://a", "a"), template("x://b", "b")]).unwrap();
    assert_ne!(a.content_hash(), d.content_hash());
}

#[test]
fn listing_orders_are_sorted_by_uri_then_name() {
    let r = registry(&[
        exact("x://c", "c"),
        template("x://h/{b}", "t"),
        exact("x://a", "z"),
        exact("x://b", "b"),
    ])
    .unwrap();
    let uris: Vec<&str> = r
        .resource_order()
        .iter()
        .map(|&i| r.bindings()[i].definition().uri_or_template())
        .collect();
    assert_eq!(uris, ["x://a", "x://b", "x://c"]);
    assert_eq!(r.template_order().len(), 1);
}

#[test]
fn listing_order_compares_whole_keys_past_the_shared_prefix() {
    // Keys equal for the common prefix plus sixteen more bytes (the sort's
    // integer radix) still order byte by byte; a key that is a prefix of
    // another comes first; the prefix shrinks when a later key diverges.
    let keys = [
        "x://p/0123456789abcdefZ",
        "x://p/0123456789abcdef",
        "x://p/0123456789abcdefA2",
        "x://p/0123456789abcdefA10",
        "x://p/0123456789abcdeg",
        "x://p/01",
        "x://o",
        "x://p/0123456789abcdefA1",
    ];
    let defs: Vec<String> = keys.iter().map(|k| exact(k, "n")).collect();
    let r = registry(&defs).unwrap();
    let uris: Vec<&str> = r
        .resource_order()
        .iter()
        .map(|&i| r.bindings()[i].definition().uri_or_template())
        .collect();
    let mut sorted = keys.to_vec();
    sorted.sort_unstable();
    assert_eq!(uris, sorted);
    let templates = [
        "t://q/{a}/0123456789abcdef/z",
        "t://q/{a}/0123456789abcdef/b",
        "t://q/{a}/0123456789abcdef",
    ];
    let defs: Vec<String> = templates.iter().map(|t| template(t, "n")).collect();
    let r = registry(&defs).unwrap();
    let order: Vec<&str> = r
        .template_order()
        .iter()
        .map(|&i| r.bindings()[i].definition().uri_or_template())
        .collect();
    let mut sorted = templates.to_vec();
    sorted.sort_unstable();
    assert_eq!(order, sorted);
}

#[test]
fn an_exact_registration_wins_before_template_matching() {
    let r = registry(&[
        template("x://a/{p}/c", "t1"),
        exact("x://a/b/c", "exact"),
        template("x://a/b/{q}", "t2"),
    ])
    .unwrap();
    assert_eq!(name_of(&r, "x://a/b/c"), "exact");
    assert!(r
        .select(b"x://a/b/c")
        .unwrap()
        .matched
        .captures()
        .is_empty());
}

#[test]
fn ambiguity_is_a_request_error_not_an_arbitrary_selection() {
    let r = registry(&[
        template("x://a/{p}/c", "first"),
        template("x://a/b/{q}", "second"),
    ])
    .unwrap();
    let e = r.select(b"x://a/b/c").unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    assert_eq!(e.message(), "ambiguous resource URI");
    let text = format!("{e} {e:?} {}", e.cause_text());
    assert!(!text.contains("first") && !text.contains("second") && !text.contains("{p}"));
    assert_eq!(name_of(&r, "x://a/z/c"), "first");
    assert_eq!(name_of(&r, "x://a/b/z"), "second");
}

#[test]
fn templates_equal_up_to_variable_names_are_refused_at_registration() {
    for (a, b) in [
        ("a://x/{id}", "a://x/{name}"),
        ("x://a/{p}", "x://a/{q}"),
        ("a://x/{a}/y/{b}", "a://x/{c}/y/{d}"),
        ("a://x/{a}/y/{b}", "a://x/{b}/y/{a}"),
        (
            "a://x/{id}/t?format=json#top",
            "a://x/{k}/t?format=json#top",
        ),
        ("urn:{id}", "urn:{other}"),
        ("file:///{dir}/{file}", "file:///{d}/{f}"),
    ] {
        let message = config_err(&[template(a, "one"), template(b, "two")]);
        assert!(message.contains("duplicate"), "{a} {b}: {message}");
        assert!(message.contains("variable names"), "{a} {b}: {message}");
        // Whatever the registration order.
        assert!(config_err(&[template(b, "two"), template(a, "one")]).contains("variable names"));
    }
    // Among many others, and with an exact URI of the same text alongside.
    let mut defs: Vec<String> = (0..50)
        .map(|i| template(&format!("t://{i}/{{v}}"), "t"))
        .collect();
    defs.push(exact("t://7/x", "exact"));
    defs.push(template("t://7/{w}", "late"));
    assert!(config_err(&defs).contains("variable names"));
}

#[test]
fn templates_with_a_different_literal_are_not_duplicates() {
    let r = registry(&[
        template("a://x/{id}", "x"),
        template("a://y/{id}", "y"),
        template("a://x/{id}/a", "xa"),
        template("a://x/{id}/b", "xb"),
        template("a://x/{id}/a?f=1", "xaq1"),
        template("a://x/{id}/a?f=2", "xaq2"),
        template("a://z/{id}/{part}", "two vars"),
        template("a://z/{id}", "one var"),
        template("a://x/lit/{id}", "literal first"),
        template("a://h:1/{id}", "port 1"),
        template("a://h:2/{id}", "port 2"),
        template("a:{id}", "opaque"),
    ])
    .unwrap();
    assert_eq!(name_of(&r, "a://y/v"), "y");
    assert_eq!(name_of(&r, "a://x/v/b"), "xb");
    assert_eq!(name_of(&r, "a://x/v/a?f=2"), "xaq2");
    assert_eq!(name_of(&r, "a://h:2/v"), "port 2");
    assert_eq!(name_of(&r, "a://z/v/w"), "two vars");
    // Shapes that differ but overlap register; the URIs both match stay
    // ambiguous, the others select normally.
    assert_eq!(
        r.select(b"a://x/lit/a").unwrap_err().kind(),
        FailureKind::InvalidRequest
    );
}

#[test]
fn a_template_and_exact_uris_of_its_shape_still_register() {
    let r = registry(&[
        template("a://x/{id}", "template"),
        exact("a://x/1", "one"),
        template("a://x/{id}/y", "deeper"),
    ])
    .unwrap();
    assert_eq!(name_of(&r, "a://x/1"), "one");
    assert_eq!(name_of(&r, "a://x/2"), "template");
    assert_eq!(name_of(&r, "a://x/2/y"), "deeper");
}

#[test]
fn no_match_is_unavailable() {
    let r = registry(&[exact("x://a/b", "e"), template("x://a/{p}/c", "t")]).unwrap();
    for uri in [
        "x://a/c",
        "x://a/b/c/d",
        "x://a//c",
        "y://a/b",
        "x://A/b",
        "x://a/b?q",
        "x://a/b/",
    ] {
        let e = r.select(uri.as_bytes()).unwrap_err();
        assert_eq!(e.kind(), FailureKind::Unavailable, "{uri}");
        assert_eq!(e.message(), FailureKind::Unavailable.default_message());
    }
}

#[test]
fn invalid_identifiers_are_request_errors() {
    let r = registry(&[exact("x://a", "e")]).unwrap();
    for uri in [
        &b"s://u@h/x"[..],
        b"s://u:p@h/x",
        b"s://@h/x",
        b"x://a/%zz",
        b"x://a/%2",
        b"x://a/b c",
        b"x://a/\xff",
        b"MCP-Warning:x",
        b"",
        b"rel",
    ] {
        let e = r.select(uri).unwrap_err();
        assert_eq!(
            e.kind(),
            FailureKind::InvalidRequest,
            "{:?}",
            String::from_utf8_lossy(uri)
        );
        assert_eq!(e.jsonrpc_code(), -32602);
    }
    let long = format!("x://a/{}", "b".repeat(2048));
    assert_eq!(
        r.select(long.as_bytes()).unwrap_err().message(),
        "resource URI too long"
    );
}

#[test]
fn bad_captures_fail_rather_than_fall_through() {
    let r = registry(&[
        template("x://f/{name}", "t"),
        exact("x://f/%2F", "never-chosen-for-other-bytes"),
    ])
    .unwrap();
    for (uri, msg) in [
        ("x://f/a%2Fb", "slash"),
        ("x://f/%5C", "backslash"),
        ("x://f/%00", "NUL"),
        ("x://f/.", "dot"),
        ("x://f/..", "dot"),
        ("x://f/%2E%2E", "dot"),
        ("x://f/%2e", "dot"),
        ("x://f/%C3", "UTF-8"),
    ] {
        let e = r.select(uri.as_bytes()).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidRequest, "{uri}");
        assert!(e.message().contains(msg), "{uri}: {}", e.message());
    }
    assert_eq!(name_of(&r, "x://f/%2F"), "never-chosen-for-other-bytes");
}

#[test]
fn captures_are_decoded_once_in_template_order() {
    let r = registry(&[template("asset://project/{id}/{size}/thumbnail", "t")]).unwrap();
    let s = r.select(b"asset://project/%252F/%C3%A9/thumbnail").unwrap();
    assert_eq!(
        s.matched.captures(),
        [
            ("id".to_string(), "%2F".to_string()),
            ("size".to_string(), "é".to_string())
        ]
    );
    assert_eq!(s.matched.uri(), "asset://project/%252F/%C3%A9/thumbnail");
}

#[test]
fn empty_segments_never_match_a_variable() {
    let r = registry(&[template("x://a/{p}/c", "t")]).unwrap();
    assert_eq!(
        r.select(b"x://a//c").unwrap_err().kind(),
        FailureKind::Unavailable
    );
}

#[test]
fn literal_opaque_uris_retain_their_exact_registered_bytes() {
    let r = registry(&[
        exact("urn:isbn:0451450523", "book"),
        exact("x://h/a%7e", "escaped"),
    ])
    .unwrap();
    assert_eq!(name_of(&r, "urn:isbn:0451450523"), "book");
    assert_eq!(
        r.select(b"urn:ISBN:0451450523").unwrap_err().kind(),
        FailureKind::Unavailable
    );
    assert_eq!(
        r.select(b"x://h/a%7E").unwrap_err().kind(),
        FailureKind::Unavailable
    );
    assert_eq!(
        r.select(b"x://h/a~").unwrap_err().kind(),
        FailureKind::Unavailable
    );
    assert_eq!(name_of(&r, "x://h/a%7e"), "escaped");
}

#[test]
fn templates_without_variables_are_allowed() {
    let r = registry(&[template("x://static/thing", "t")]).unwrap();
    assert_eq!(name_of(&r, "x://static/thing"), "t");
}

#[test]
fn opaque_templates_match_whole_segments() {
    let r = registry(&[template("urn:item:{id}", "colon-literal-is-not-a-segment")]);
    // `urn:item:{id}` has a partial segment (`item:{id}`), refused.
    assert!(r.is_err());
    let r = registry(&[template("urn:{id}", "t")]).unwrap();
    assert_eq!(
        r.select(b"urn:abc").unwrap().matched.capture("id"),
        Some("abc")
    );
}

#[test]
fn warning_identities_can_never_be_selected() {
    let r = registry(&[template("mcp-warning2://read/{id}", "t")]).unwrap();
    let e = r
        .select(b"mcp-warning://read/0123456789abcdef0123456789abcdef")
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
}

#[test]
fn selection_scales_with_many_templates() {
    let defs: Vec<String> = (0..2000)
        .map(|i| template(&format!("x://h/t{i}/{{id}}/v"), &format!("t{i}")))
        .collect();
    let r = registry(&defs).unwrap();
    for i in [0, 999, 1999] {
        let s = r.select(format!("x://h/t{i}/q/v").as_bytes()).unwrap();
        assert_eq!(s.matched.definition().name(), format!("t{i}"));
        assert_eq!(s.matched.capture("id"), Some("q"));
    }
}

#[test]
fn definitions_that_repeat_a_key_are_refused() {
    assert!(config_err(&[r#"{"uri":"x://a","name":"n","name":"m"}"#.into()]).contains("repeats"));
    assert!(
        config_err(&[r#"{"uri":"x://a","name":"n","_meta":{"k":1,"\u006b":2}}"#.into()])
            .contains("repeats")
    );
}

#[test]
fn descriptions_are_kept_as_compact_json_in_the_given_key_order() {
    let r = registry(&[r#" { "uri" : "x://a", "name" : "n", "title" : "caf\u00e9" } "#.into()])
        .unwrap();
    assert_eq!(
        r.bindings()[0].definition().json(),
        r#"{"uri":"x://a","name":"n","title":"café"}"#
    );
}

proptest::proptest! {
    #[test]
    fn listing_order_is_the_byte_order_of_identifiers(
        tails in proptest::collection::hash_set("([a-c0-9/._~-]|%2[05F]){0,24}", 1..60),
        prefix in "(x://h/|x://h/common/prefix/that/is/long/)",
    ) {
        let uris: Vec<String> = tails.iter().map(|t| format!("{prefix}{t}")).collect();
        let defs: Vec<String> = uris.iter().enumerate().map(|(i, u)| exact(u, &format!("n{i}"))).collect();
        let r = registry(&defs).unwrap();
        let got: Vec<&str> = r.resource_order().iter().map(|&i| r.bindings()[i].definition().uri_or_template()).collect();
        let mut want: Vec<&str> = uris.iter().map(String::as_str).collect();
        want.sort_unstable();
        proptest::prop_assert_eq!(got, want);
    }
}

/// Resolve keeps a clone of the match it was given.
struct KeepsMatch {
    kept: std::sync::Mutex<Option<ResourceMatch>>,
}

impl ResourceHandler for KeepsMatch {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        *self.kept.lock().unwrap() = Some(m.clone());
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

#[test]
fn a_match_kept_by_a_callback_shares_its_definition_and_outlives_the_registry() {
    let handler = Arc::new(KeepsMatch {
        kept: std::sync::Mutex::new(None),
    });
    let r = Resources::builder()
        .policy(Arc::new(AllowAll))
        .binding(
            ResourceBinding::new(r#"{"uri":"x://kept","name":"kept"}"#, handler.clone()).unwrap(),
        )
        .build()
        .unwrap();
    let definition = r.bindings()[0].definition();
    assert_eq!(Arc::strong_count(definition), 1);
    r.read(b"x://kept", &ReadOptions::default()).unwrap();
    // The inline read lent the definition to its match; the clone resolve
    // kept holds a reference of its own.
    assert_eq!(Arc::strong_count(r.bindings()[0].definition()), 2);
    drop(r);
    let kept = handler.kept.lock().unwrap().take().unwrap();
    assert_eq!(kept.definition().name(), "kept");
    assert_eq!(Arc::strong_count(&kept.definition_arc()), 2);
}
