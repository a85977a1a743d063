//! SPEC "Resource contracts" and "Selection and identity": targets, plans
//! and payloads are validated, copied constructions.

use mcp_resources::plan::{
    check_authorization_json, is_media_type, parse_meta, DEFAULT_REPRESENTATION,
};
use mcp_resources::*;

fn target(uri: &str, rep: &str) -> ResourceTarget {
    ResourceTarget::new(uri, rep, None).unwrap()
}

#[test]
fn targets_own_uri_representation_and_authorization() {
    let auth = r#"{"tenant":"t1","scopes":["read"]}"#;
    let t = ResourceTarget::new("doc://x", "thumb", Some(auth)).unwrap();
    assert_eq!(t.uri(), "doc://x");
    assert_eq!(t.representation(), "thumb");
    assert_eq!(
        t.authorization(),
        Some(auth),
        "authorization bytes are kept exactly"
    );
    assert_eq!(
        ResourceTarget::new("doc://x", "", None)
            .unwrap()
            .representation(),
        DEFAULT_REPRESENTATION
    );
}

#[test]
fn target_debug_output_never_shows_authorization_data() {
    let t = ResourceTarget::new("doc://x", "", Some(r#"{"secret":"hunter2"}"#)).unwrap();
    assert!(!format!("{t:?}").contains("hunter2"));
}

#[test]
fn target_identifiers_are_validated() {
    for bad in [
        "rel",
        "s://u@h/x",
        "mcp-warning://read/00000000000000000000000000000000",
        "s://h/%zz",
        "",
    ] {
        let e = ResourceTarget::new(bad, "", None).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidPlan, "{bad}");
    }
}

#[test]
fn authorization_json_must_parse_and_fit_64_kib() {
    for bad in ["", "{", "nope", "{\"a\":1} x"] {
        assert_eq!(
            ResourceTarget::new("d://x", "", Some(bad))
                .unwrap_err()
                .kind(),
            FailureKind::InvalidPlan,
            "{bad:?}"
        );
    }
    let big = format!("\"{}\"", "a".repeat(64 * 1024 - 1));
    assert_eq!(
        ResourceTarget::new("d://x", "", Some(&big))
            .unwrap_err()
            .kind(),
        FailureKind::InvalidPlan
    );
    let fits = format!("\"{}\"", "a".repeat(64 * 1024 - 2));
    ResourceTarget::new("d://x", "", Some(&fits)).unwrap();
    for good in ["null", "1", "[]", "{}"] {
        ResourceTarget::new("d://x", "", Some(good)).unwrap();
    }
}

fn auth_err(json: &str) -> Failure {
    ResourceTarget::new("d://x", "", Some(json)).unwrap_err()
}

fn meta_err(json: &str) -> Failure {
    ResourcePayload::text("text/plain", "x")
        .unwrap()
        .with_meta_json(json)
        .unwrap_err()
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn nested_objects(depth: usize) -> String {
    format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
}

#[test]
fn authorization_json_nesting_deeper_than_127_is_refused() {
    ResourceTarget::new("d://x", "", Some(&nested(127))).unwrap();
    ResourceTarget::new("d://x", "", Some(&nested_objects(127))).unwrap();
    for bad in [nested(128), nested_objects(128), nested(10_000)] {
        let e = auth_err(&bad);
        assert_eq!(e.kind(), FailureKind::InvalidPlan);
        assert!(e.message().contains("nesting too deep"), "{}", e.message());
    }
}

#[test]
fn authorization_json_with_a_repeated_key_at_any_depth_is_refused() {
    for bad in [
        r#"{"tenant":"a","tenant":"b"}"#,
        r#"{"x":{"tenant":"a","scopes":[],"tenant":"b"}}"#,
        r#"[1,{"k":1,"\u006b":2}]"#,
    ] {
        let e = auth_err(bad);
        assert_eq!(e.kind(), FailureKind::InvalidPlan, "{bad}");
        assert_eq!(
            e.message(),
            "target authorization JSON repeats an object key"
        );
    }
    // The same key in sibling objects is not a repeat.
    ResourceTarget::new("d://x", "", Some(r#"[{"k":1},{"k":2}]"#)).unwrap();
}

#[test]
fn authorization_json_with_a_lone_surrogate_is_refused() {
    for bad in [
        r#""\ud800""#,
        r#"{"k":"\udc00"}"#,
        r#"{"\ud83d":1}"#,
        r#"["\ud83dx"]"#,
    ] {
        let e = auth_err(bad);
        assert_eq!(e.kind(), FailureKind::InvalidPlan, "{bad}");
        assert!(e.message().contains("not valid JSON"), "{}", e.message());
    }
    ResourceTarget::new("d://x", "", Some(r#""\ud83d\ude00""#)).unwrap();
}

#[test]
fn authorization_json_with_a_non_finite_number_is_refused() {
    for bad in ["1e999", "-1e999", r#"{"n":[1e400]}"#] {
        let e = auth_err(bad);
        assert_eq!(e.kind(), FailureKind::InvalidPlan, "{bad}");
        assert!(e.message().contains("invalid number"), "{}", e.message());
    }
    for good in ["1e308", "-1.5e-400", "18446744073709551616"] {
        ResourceTarget::new("d://x", "", Some(good)).unwrap();
    }
}

#[test]
fn authorization_json_may_use_the_reserved_metadata_key() {
    // Authorization data is private and never becomes metadata.
    let auth = r#"{"go.phpboyscout.uk/mcp.resourceRead":1}"#;
    let t = ResourceTarget::new("d://x", "", Some(auth)).unwrap();
    assert_eq!(t.authorization(), Some(auth));
    check_authorization_json(auth).unwrap();
}

#[test]
fn accepted_authorization_json_is_kept_byte_for_byte() {
    let auth = " { \"b\" : 1.50 ,\n\"a\":\"\\u00e9\" } ";
    let t = ResourceTarget::new("d://x", "", Some(auth)).unwrap();
    assert_eq!(t.authorization(), Some(auth));
}

#[test]
fn payload_meta_nesting_deeper_than_127_is_refused() {
    let ok = format!(r#"{{"a":{}}}"#, nested(126));
    ResourcePayload::text("text/plain", "x")
        .unwrap()
        .with_meta_json(&ok)
        .unwrap();
    for bad in [
        format!(r#"{{"a":{}}}"#, nested(127)),
        nested_objects(128),
        format!(r#"{{"a":{}}}"#, nested(10_000)),
    ] {
        let e = meta_err(&bad);
        assert_eq!(e.kind(), FailureKind::InvalidContent);
        assert!(e.message().contains("nesting too deep"), "{}", e.message());
    }
}

#[test]
fn payload_meta_with_a_repeated_key_at_any_depth_is_refused() {
    for bad in [
        r#"{"a":1,"a":2}"#,
        r#"{"a":{"b":[{"c":1,"c":1}]}}"#,
        r#"{"a":1,"\u0061":2}"#,
    ] {
        let e = meta_err(bad);
        assert_eq!(e.kind(), FailureKind::InvalidContent, "{bad}");
        assert_eq!(e.message(), "_meta repeats an object key");
        assert!(parse_meta(bad).is_err());
    }
}

#[test]
fn payload_meta_with_a_lone_surrogate_is_refused() {
    for bad in [r#"{"a":"\ud800"}"#, r#"{"\udfff":1}"#] {
        let e = meta_err(bad);
        assert_eq!(e.kind(), FailureKind::InvalidContent, "{bad}");
        assert!(e.message().contains("not valid JSON"), "{}", e.message());
    }
}

#[test]
fn payload_meta_with_a_non_finite_number_is_refused() {
    for bad in [r#"{"n":1e999}"#, r#"{"n":[-1e400]}"#] {
        let e = meta_err(bad);
        assert_eq!(e.kind(), FailureKind::InvalidContent, "{bad}");
        assert!(e.message().contains("invalid number"), "{}", e.message());
    }
}

#[test]
fn representation_labels_are_bounded_and_printable() {
    assert!(ResourceTarget::new("d://x", &"r".repeat(257), None).is_err());
    assert!(ResourceTarget::new("d://x", &"r".repeat(256), None).is_ok());
    assert!(ResourceTarget::new("d://x", "a\nb", None).is_err());
}

#[test]
fn duplicate_item_uris_fail_plan_construction() {
    let e = ResourceReadPlan::new(
        target("d://b", ""),
        vec![target("d://1", ""), target("d://1", "")],
    )
    .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidPlan);
}

#[test]
fn duplicate_item_uris_fail_even_with_different_representations() {
    let e = ResourceReadPlan::new(
        target("d://b", ""),
        vec![target("d://1", "png"), target("d://1", "jpeg")],
    )
    .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidPlan);
}

#[test]
fn requested_target_may_equal_an_item() {
    let p = ResourceReadPlan::new(
        target("d://1", "png"),
        vec![target("d://1", "png"), target("d://2", "")],
    )
    .unwrap();
    assert_eq!(p.items().len(), 2);
}

#[test]
fn requested_uri_with_another_representation_fails() {
    let e =
        ResourceReadPlan::new(target("d://1", "png"), vec![target("d://1", "jpeg")]).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidPlan);
}

#[test]
fn plans_preserve_item_order() {
    let items: Vec<ResourceTarget> = ["d://3", "d://1", "d://2"]
        .iter()
        .map(|u| target(u, ""))
        .collect();
    let p = ResourceReadPlan::new(target("d://b", ""), items).unwrap();
    let uris: Vec<&str> = p.items().iter().map(|t| t.uri()).collect();
    assert_eq!(uris, ["d://3", "d://1", "d://2"]);
}

#[test]
fn a_plan_with_zero_items_is_an_empty_bundle() {
    let p = ResourceReadPlan::new(target("d://b", ""), vec![]).unwrap();
    assert!(p.items().is_empty());
}

#[test]
fn explicit_empty_text_and_empty_blobs_are_valid() {
    let t = ResourcePayload::text("text/plain", "").unwrap();
    assert_eq!(t.body(), &PayloadBody::Text(String::new()));
    assert_eq!(t.payload_bytes(), 0);
    let b = ResourcePayload::blob("application/octet-stream", &[]).unwrap();
    assert_eq!(b.body(), &PayloadBody::Blob(Vec::new()));
}

#[test]
fn each_item_declares_its_own_mime_type() {
    let p = ResourcePayload::blob("image/png", &[1, 2, 3]).unwrap();
    assert_eq!(p.mime_type(), "image/png");
    assert_eq!(p.payload_bytes(), 3);
}

#[test]
fn mime_types_are_kept_exactly_as_given_common_or_not() {
    for m in [
        "text/plain",
        "Text/Plain",
        "text/plain;charset=utf-8",
        "text/plain; charset=utf-8",
        "application/json",
        "application/vnd.example+json",
    ] {
        assert_eq!(ResourcePayload::text(m, "x").unwrap().mime_type(), m);
        assert_eq!(ResourcePayload::blob(m, b"x").unwrap().mime_type(), m);
    }
}

#[test]
fn mime_types_follow_rfc_9110() {
    for good in [
        "text/plain",
        "text/plain;charset=utf-8",
        "text/plain; charset=\"utf-8\"",
        "application/vnd.api+json",
        "multipart/mixed; boundary=\"a b\\\"c\"",
        "a/b ; x=y",
    ] {
        assert!(is_media_type(good), "{good}");
    }
    for bad in [
        "",
        "text",
        "text/",
        "/plain",
        "text/plain;",
        "text/plain; charset",
        "text/plain charset=x",
        "te xt/plain",
        "text/plain; a=\"unterminated",
        "text/plain ",
        "text/pl@in",
        "text/plain;a=\u{1}",
    ] {
        assert!(!is_media_type(bad), "{bad:?}");
        assert_eq!(
            ResourcePayload::text(bad, "x").unwrap_err().kind(),
            FailureKind::InvalidContent
        );
    }
    assert!(!is_media_type(&format!("a/{}", "b".repeat(254))));
}

#[test]
fn payload_meta_must_be_an_object_without_the_reserved_key() {
    let p = ResourcePayload::text("text/plain", "x")
        .unwrap()
        .with_meta_json(r#"{"app/k":1}"#)
        .unwrap();
    assert_eq!(p.meta().unwrap()["app/k"], 1);
    for bad in [
        "[]",
        "1",
        "{",
        r#"{"go.phpboyscout.uk/mcp.resourceRead":{}}"#,
        r#"{"a":[{"go.phpboyscout.uk/mcp.resourceRead":1}]}"#,
    ] {
        let e = ResourcePayload::text("text/plain", "x")
            .unwrap()
            .with_meta_json(bad)
            .unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidContent, "{bad}");
    }
    let big = format!(r#"{{"k":"{}"}}"#, "a".repeat(64 * 1024));
    assert_eq!(
        parse_meta(&big).unwrap_err().kind(),
        FailureKind::InvalidContent
    );
}

#[test]
fn constructors_copy_their_input() {
    let mut bytes = vec![1u8, 2, 3];
    let p = ResourcePayload::blob("a/b", &bytes).unwrap();
    bytes[0] = 9;
    assert_eq!(p.body(), &PayloadBody::Blob(vec![1, 2, 3]));
    let mut uri = String::from("d://x");
    let t = ResourceTarget::new(&uri, "", None).unwrap();
    uri.push('y');
    assert_eq!(t.uri(), "d://x");
}

#[test]
fn single_for_plans_the_matched_uri_as_requested_target_and_only_item() {
    let def = std::sync::Arc::new(
        ResourceDefinition::from_json(r#"{"uriTemplate":"d://x/{id}","name":"t"}"#).unwrap(),
    );
    let m = ResourceMatch::new(def, "d://x/7".into(), vec![("id".into(), "7".into())]);
    let p = ResourceReadPlan::single_for(&m).unwrap();
    assert_eq!(p.requested(), &target("d://x/7", ""));
    assert_eq!(p.items(), [target("d://x/7", "")]);
    assert_eq!(p.requested().representation(), "default");
    assert_eq!(p.requested().authorization(), None);
}

#[test]
fn a_single_item_plan_has_the_same_parts_as_the_explicit_plan() {
    let t = target("d://x/7", "");
    let single = ResourceReadPlan::single(t.clone());
    let explicit = ResourceReadPlan::new(t.clone(), vec![t.clone()]).unwrap();
    assert_eq!(single.items(), explicit.items());
    assert_eq!(format!("{single:?}"), format!("{explicit:?}"));
    let (requested, items) = single.clone().into_parts();
    assert_eq!(requested, t);
    assert_eq!(items, std::slice::from_ref(&t));
    assert_eq!(explicit.into_parts(), (t.clone(), vec![t]));
}

/// Counts drops of a shared blob owner.
struct Owner(Vec<u8>, std::sync::Arc<std::sync::atomic::AtomicUsize>);
impl AsRef<[u8]> for Owner {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}
impl Drop for Owner {
    fn drop(&mut self) {
        self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn shared_blobs_are_not_copied_and_are_sent_like_blobs() {
    let drops = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let owner = Owner(vec![0, 1, 2, 0xff], drops.clone());
    let at = owner.0.as_ptr();
    let p =
        ResourcePayload::blob_shared("application/octet-stream", SharedBytes::new(owner)).unwrap();
    let bytes = p.body().blob_bytes().unwrap();
    assert_eq!(bytes.as_ptr(), at, "the payload reads the owner's bytes");
    assert_eq!(p.payload_bytes(), 4);
    assert_eq!(
        p.body(),
        &PayloadBody::SharedBlob(SharedBytes::new(vec![0u8, 1, 2, 0xff]))
    );
    assert!(ResourcePayload::blob_shared("nope", SharedBytes::new(Vec::<u8>::new())).is_err());
    drop(p);
    assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
}

/// Hands out a shared blob whose owner counts its drops.
struct SharedReader(std::sync::Arc<std::sync::atomic::AtomicUsize>);
impl ResourceHandler for SharedReader {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        let owner = Owner(vec![0, 1, 2, 0xff], self.0.clone());
        ResourcePayload::blob_shared("application/octet-stream", SharedBytes::new(owner))
            .map_err(CallbackError::failed)
    }
}

#[test]
fn a_shared_blob_is_written_as_base64_and_released_by_the_end_of_the_read() {
    let drops = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let r = Resources::builder()
        .policy(std::sync::Arc::new(AllowAll))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"blob://s","name":"s"}"#,
                std::sync::Arc::new(SharedReader(drops.clone())),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let b = r.read(b"blob://s", &ReadOptions::default()).unwrap();
    assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
    let item = b.items().next().unwrap();
    assert_eq!(item.blob_base64(), Some("AAEC/w=="));
    assert!(b
        .json()
        .starts_with(r#"{"contents":[{"uri":"blob://s","mimeType":"application/octet-stream","blob":"AAEC/w=="}]"#));
}

#[test]
fn shared_text_is_not_copied_and_must_be_utf8() {
    let drops = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let owner = Owner(b"shared \"text\"".to_vec(), drops.clone());
    let at = owner.0.as_ptr();
    let text = SharedText::new(SharedBytes::new(owner)).unwrap();
    let p = ResourcePayload::text_shared("text/plain", text).unwrap();
    let body = p.body().text().unwrap();
    assert_eq!(body.as_ptr(), at, "the payload reads the owner's bytes");
    assert_eq!(body, "shared \"text\"");
    assert_eq!(p.payload_bytes(), 13);
    assert_eq!(p.body().blob_bytes(), None);
    assert!(SharedText::new(SharedBytes::new(vec![b'a', 0xff])).is_none());
    assert!(ResourcePayload::text_shared("nope", SharedText::from_static("")).is_err());
    drop(p);
    assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
    let s = SharedText::from_static("static");
    assert_eq!(
        SharedBytes::from_static(b"static").as_bytes(),
        s.as_str().as_bytes()
    );
}

/// Hands out static shared text.
struct StaticTextReader;
impl ResourceHandler for StaticTextReader {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text_shared("text/plain", SharedText::from_static("a \"lent\"\ntext"))
            .map_err(CallbackError::failed)
    }
}

#[test]
fn shared_text_is_written_escaped_like_text() {
    let r = Resources::builder()
        .policy(std::sync::Arc::new(AllowAll))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"text://s","name":"s"}"#,
                std::sync::Arc::new(StaticTextReader),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let b = r.read(b"text://s", &ReadOptions::default()).unwrap();
    let item = b.items().next().unwrap();
    assert_eq!(item.text().as_deref(), Some("a \"lent\"\ntext"));
    assert!(b.json().starts_with(
        r#"{"contents":[{"uri":"text://s","mimeType":"text/plain","text":"a \"lent\"\ntext"}]"#
    ));
}
