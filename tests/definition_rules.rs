//! The standard members of a definition, checked at build (BEHAVIOUR §1):
//! each refusal is `invalid_configuration` with a message naming the
//! member, so that no listed description is one a client rejects.

use mcp_resources::*;

fn refused(json: &str) -> Failure {
    match ResourceDefinition::from_json(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => e,
    }
}

fn assert_refused_naming(json: &str, member: &str) {
    let e = refused(json);
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration, "{json}");
    assert!(
        e.message().contains(member),
        "{json}: message {:?} does not name {member}",
        e.message()
    );
}

fn accepted(json: &str) {
    if let Err(e) = ResourceDefinition::from_json(json) {
        panic!("refused {json}: {}", e.message());
    }
}

fn resource(members: &str) -> String {
    format!(r#"{{"uri":"doc://a","name":"a",{members}}}"#)
}

fn template(members: &str) -> String {
    format!(r#"{{"uriTemplate":"doc://a/{{id}}","name":"a",{members}}}"#)
}

#[test]
fn size_on_a_template_is_refused_naming_size() {
    for size in ["1", "0", "\"1\"", "null"] {
        assert_refused_naming(&template(&format!(r#""size":{size}"#)), "size");
    }
    accepted(&resource(r#""size":1"#));
}

#[test]
fn size_must_be_a_non_negative_integer() {
    for size in [
        "-1",
        "1.5",
        "1.0",
        "1e3",
        "\"12\"",
        "true",
        "null",
        "9007199254740992",
    ] {
        assert_refused_naming(&resource(&format!(r#""size":{size}"#)), "size");
    }
    for size in ["0", "12", "9007199254740991"] {
        accepted(&resource(&format!(r#""size":{size}"#)));
    }
}

#[test]
fn priority_outside_0_to_1_is_refused_naming_priority() {
    for p in ["-0.01", "1.0000001", "2", "-1", "\"0.5\"", "null", "true"] {
        for d in [
            resource(&format!(r#""annotations":{{"priority":{p}}}"#)),
            template(&format!(r#""annotations":{{"priority":{p}}}"#)),
        ] {
            assert_refused_naming(&d, "annotations.priority");
        }
    }
    for p in ["0", "1", "0.5", "1.0", "0e0", "1e-3"] {
        accepted(&resource(&format!(r#""annotations":{{"priority":{p}}}"#)));
    }
}

#[test]
fn unknown_audience_values_are_refused_naming_audience() {
    for a in [
        r#"["system"]"#,
        r#"["user","tool"]"#,
        r#"["User"]"#,
        r#""user""#,
        r#"[1]"#,
        r#"[null]"#,
        r#"{"user":true}"#,
    ] {
        assert_refused_naming(
            &resource(&format!(r#""annotations":{{"audience":{a}}}"#)),
            "annotations.audience",
        );
    }
    for a in [r#"[]"#, r#"["user"]"#, r#"["assistant","user"]"#] {
        accepted(&resource(&format!(r#""annotations":{{"audience":{a}}}"#)));
    }
}

#[test]
fn last_modified_must_be_an_rfc_3339_date_time_naming_last_modified() {
    for t in [
        "2025-01-12",
        "2025-01-12T15:00:58",
        "2025-01-12 15:00:58Z",
        "2025-01-12t15:00:58z",
        "2025-02-30T15:00:58Z",
        "2025-01-12T15:00:58+0100",
        "2025-01-12T23:59:60Z",
        "yesterday",
        "",
    ] {
        assert_refused_naming(
            &resource(&format!(r#""annotations":{{"lastModified":"{t}"}}"#)),
            "annotations.lastModified",
        );
    }
    assert_refused_naming(
        &resource(r#""annotations":{"lastModified":1736694058}"#),
        "annotations.lastModified",
    );
    for t in [
        "2025-01-12T15:00:58Z",
        "2025-01-12T15:00:58.5-03:30",
        "2024-02-29T00:00:00+00:00",
    ] {
        accepted(&template(&format!(
            r#""annotations":{{"lastModified":"{t}"}}"#
        )));
    }
}

#[test]
fn annotations_must_be_an_object() {
    for a in ["[]", "\"user\"", "null", "1"] {
        assert_refused_naming(&resource(&format!(r#""annotations":{a}"#)), "annotations");
    }
    // Members of the host's own inside annotations are left as given.
    accepted(&resource(r#""annotations":{"x-host":{"a":1}}"#));
}

#[test]
fn icons_whose_src_is_not_a_uri_are_refused_naming_icons_src() {
    for src in [
        "\"/static/icon.png\"",
        "\"icon.png\"",
        "\"//cdn.example.com/i.png\"",
        "\"https://example.com/a b.png\"",
        "\"https://example.com/%zz.png\"",
        "\"\"",
        "7",
        "null",
    ] {
        for d in [
            resource(&format!(r#""icons":[{{"src":{src}}}]"#)),
            template(&format!(r#""icons":[{{"src":{src}}}]"#)),
        ] {
            assert_refused_naming(&d, "icons[].src");
        }
    }
    // src is required.
    assert_refused_naming(
        &resource(r#""icons":[{"mimeType":"image/png"}]"#),
        "icons[].src",
    );
    for src in [
        "https://example.com/icon.png",
        "data:image/png;base64,iVBORw0KGgo=",
        "data:image/svg+xml;base64,PHN2Zz4=",
    ] {
        accepted(&resource(&format!(
            r#""icons":[{{"src":"{src}","mimeType":"image/png","sizes":["48x48","any"],"theme":"light"}}]"#
        )));
    }
    accepted(&resource(r#""icons":[]"#));
}

#[test]
fn icon_members_are_checked_naming_the_member() {
    let src = r#""src":"https://example.com/i.png""#;
    assert_refused_naming(
        &resource(r#""icons":{"src":"https://x.example/i.png"}"#),
        "icons",
    );
    assert_refused_naming(&resource(r#""icons":["https://x.example/i.png"]"#), "icons");
    assert_refused_naming(
        &resource(&format!(r#""icons":[{{{src},"mimeType":1}}]"#)),
        "icons[].mimeType",
    );
    assert_refused_naming(
        &resource(&format!(r#""icons":[{{{src},"sizes":"48x48"}}]"#)),
        "icons[].sizes",
    );
    assert_refused_naming(
        &resource(&format!(r#""icons":[{{{src},"sizes":[48]}}]"#)),
        "icons[].sizes",
    );
    assert_refused_naming(
        &resource(&format!(r#""icons":[{{{src},"theme":"blue"}}]"#)),
        "icons[].theme",
    );
}

#[test]
fn standard_string_members_must_be_strings_naming_the_member() {
    for member in ["title", "description", "mimeType"] {
        for value in ["1", "null", "[]", "{}", "true"] {
            assert_refused_naming(&resource(&format!(r#""{member}":{value}"#)), member);
            assert_refused_naming(&template(&format!(r#""{member}":{value}"#)), member);
        }
        accepted(&resource(&format!(r#""{member}":"""#)));
    }
}

#[test]
fn refusals_reach_the_builder_as_invalid_configuration() {
    let handler: std::sync::Arc<dyn ResourceHandler> = std::sync::Arc::new(Single);
    match ResourceBinding::new(&template(r#""size":1"#), handler) {
        Ok(_) => panic!("a template with a size was accepted"),
        Err(e) => {
            assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
            assert!(e.message().contains("size"));
        }
    }
}

struct Single;

impl ResourceHandler for Single {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}
