//! The resource tools (docs/BEHAVIOUR.md §16): `read_resource` and
//! `list_resources` through `tools/call`, directly and through the
//! one-call request.

mod protocol_support;

use mcp_resources::tools::{
    resource_tool_definitions, EmbedOptions, INVALID_CURSOR_TEXT, NOT_FOUND_TEXT,
};
use mcp_resources::*;
use protocol_support::*;

fn host() -> Host {
    let h = Host::new(&[
        "doc://a",
        "doc://b",
        "doc://c",
        "doc://partial",
        "doc://hidden",
        "doc://undiscoverable",
        "doc://denied",
        "files://p/{name}",
        "logs://l/{day}/x",
        "secret://s/{name}",
    ]);
    h.handler
        .plan("doc://partial", &["doc://partial/ok", "doc://partial/bad"]);
    h.handler.body("doc://partial/bad", Body::Fail);
    h.handler.body("doc://b", Body::Blob(vec![9, 8, 7]));
    h.pol.hide("doc://hidden");
    h.pol.undiscover("doc://undiscoverable");
    h.pol.undiscover("secret://s/{name}");
    h.pol.deny("doc://denied");
    h
}

fn options(revision: ProtocolRevision) -> RequestOptions {
    RequestOptions {
        scope_key: b"tenant".to_vec(),
        call: CallOptions {
            protocol_revision: revision,
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    }
}

fn call(r: &Resources, params: &str, o: &RequestOptions) -> Response {
    r.call_resource_tool(params.as_bytes(), o).unwrap()
}

fn read_params(uri: &str) -> String {
    serde_json::json!({"name":"read_resource","arguments":{"uri":uri}}).to_string()
}

fn tool_error_text(v: &serde_json::Value) -> &str {
    assert_eq!(v["isError"], true, "{v}");
    v["content"][0]["text"].as_str().unwrap()
}

#[test]
fn read_resource_embeds_the_read_and_gives_its_contents_as_structured_content() {
    let r = host().build();
    for revision in ProtocolRevision::ALL {
        for uri in ["doc://a", "doc://b", "files://p/q", "doc://partial"] {
            let resp = call(&r, &read_params(uri), &options(revision));
            assert!(!resp.is_error());
            assert!(resp.tool_failure().is_none());
            let v = json(resp.json());
            let embedded = r
                .embed(
                    &[uri],
                    &EmbedOptions {
                        call: CallOptions {
                            protocol_revision: revision,
                            ..CallOptions::default()
                        },
                        ..EmbedOptions::default()
                    },
                )
                .unwrap();
            let read = json(r.read(uri.as_bytes(), &read_opts(revision)).unwrap().json());
            let n = read["contents"].as_array().unwrap().len();
            assert_eq!(v["content"].as_array().unwrap().len(), n);
            // Structured content from 2025-06-18 on; before it the blocks
            // alone (BEHAVIOUR §16 rule 13).
            let structured = revision.has_tool_output();
            assert_eq!(
                v.get("structuredContent").is_some(),
                structured,
                "{revision}"
            );
            if structured {
                assert_eq!(
                    v["structuredContent"]["contents"].as_array().unwrap().len(),
                    n
                );
            }
            for i in 0..n {
                let item = &read["contents"][i];
                if item["uri"].as_str().unwrap().starts_with("mcp-warning:") {
                    assert_eq!(v["content"][i]["resource"]["text"], item["text"]);
                    continue;
                }
                assert_eq!(v["content"][i]["resource"], *item);
                if structured {
                    assert_eq!(v["structuredContent"]["contents"][i], *item);
                }
                assert_eq!(
                    v["content"][i],
                    json(embedded.blocks_json())[i],
                    "{uri} {i}"
                );
            }
            assert_eq!(resp.is_partial(), uri == "doc://partial");
            assert!(v.get("isError").is_none());
            assert_eq!(
                v.get("resultType").and_then(|t| t.as_str()),
                revision.has_result_fields().then_some("complete")
            );
        }
    }
}

#[test]
fn read_resource_answers_hidden_undiscoverable_unregistered_and_invalid_alike() {
    let r = host().build();
    for revision in ProtocolRevision::ALL {
        let o = options(revision);
        let expected = call(&r, &read_params("doc://unregistered"), &o);
        let v = json(expected.json());
        assert_eq!(tool_error_text(&v), NOT_FOUND_TEXT);
        for uri in [
            "doc://hidden",
            "doc://undiscoverable",
            "doc://denied",
            "secret://s/x",
            "files://p/..",
            "files://p/%2F",
            "not a uri",
            "",
            "MCP-WARNING://read/x",
        ] {
            let resp = call(&r, &read_params(uri), &o);
            // Every byte the client sees; only the host's failure differs.
            assert_eq!(resp.json(), expected.json(), "{uri}");
            assert!(!resp.is_error());
            assert!(resp.tool_failure().is_some());
            assert!(!resp.json().contains(CANARY));
        }
    }
}

#[test]
fn read_resource_arguments_the_input_schema_refuses_are_tool_errors() {
    let r = host().build();
    let o = options(ProtocolRevision::LATEST);
    for params in [
        r#"{"name":"read_resource"}"#,
        r#"{"name":"read_resource","arguments":{}}"#,
        r#"{"name":"read_resource","arguments":{"uri":7}}"#,
        r#"{"name":"read_resource","arguments":{"uri":null}}"#,
        r#"{"name":"read_resource","arguments":{"uri":["doc://a"]}}"#,
        r#"{"name":"read_resource","arguments":{"uri":"doc://a","extra":1}}"#,
        r#"{"name":"read_resource","arguments":{"url":"doc://a"}}"#,
    ] {
        let resp = call(&r, params, &o);
        let v = json(resp.json());
        assert_eq!(
            tool_error_text(&v),
            "read_resource takes one argument: uri, a string",
            "{params}"
        );
        assert_eq!(
            resp.tool_failure().map(Failure::kind),
            Some(FailureKind::InvalidRequest)
        );
    }
}

#[test]
fn malformed_tools_call_params_are_protocol_errors() {
    let r = host().build();
    let o = options(ProtocolRevision::LATEST);
    for (params, message) in [
        ("[]", "params must be an object"),
        ("", "params name is required"),
        ("{}", "params name is required"),
        (r#"{"name":7}"#, "params name must be a string"),
        (
            r#"{"name":"read_resource","arguments":[]}"#,
            "params arguments must be an object",
        ),
        (
            r#"{"name":"read_resource","arguments":{"uri":"a","uri":"b"}}"#,
            "params repeat an argument",
        ),
        (
            r#"{"name":"read_resource","name":"read_resource"}"#,
            "params repeat name",
        ),
        (r#"{"name":"read_resource""#, "params are not valid JSON"),
    ] {
        let resp = call(&r, params, &o);
        assert!(resp.is_error(), "{params}");
        assert_eq!(
            json(resp.json()),
            serde_json::json!({"code":-32602,"message":message}),
            "{params}"
        );
    }
    // An unknown per-request revision, as for every method.
    let resp = call(
        &r,
        r#"{"name":"read_resource","arguments":{"uri":"doc://a"},"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}"#,
        &o,
    );
    assert_eq!(json(resp.json())["code"], -32022);
}

#[test]
fn other_tools_are_the_hosts_even_with_params_this_library_would_refuse() {
    let r = host().build();
    let o = options(ProtocolRevision::LATEST);
    for params in [
        r#"{"name":"get_weather","arguments":{"city":"x"}}"#,
        r#"{"name":"get_weather","arguments":{"a":1,"a":2}}"#,
        r#"{"name":"Read_Resource","arguments":{"uri":"doc://a"}}"#,
        r#"{"name":"read_resource ","arguments":{"uri":"doc://a"}}"#,
    ] {
        assert_eq!(
            r.call_resource_tool(params.as_bytes(), &o).unwrap_err(),
            RequestError::MethodNotHandled,
            "{params}"
        );
    }
}

fn list_params(cursor: Option<&str>) -> String {
    match cursor {
        None => r#"{"name":"list_resources","arguments":{}}"#.to_string(),
        Some(c) => {
            serde_json::json!({"name":"list_resources","arguments":{"cursor":c}}).to_string()
        }
    }
}

/// Walks every page; returns the resources' and templates' keys and the
/// number of pages.
fn walk(r: &Resources, o: &RequestOptions) -> (Vec<String>, Vec<String>, usize) {
    let (mut resources, mut templates, mut pages) = (Vec::new(), Vec::new(), 0);
    let mut cursor: Option<String> = None;
    loop {
        let resp = call(r, &list_params(cursor.as_deref()), o);
        let v = json(resp.json());
        let text = json(v["content"][0]["text"].as_str().unwrap());
        // The text block holds the same JSON as the structured content
        // (from 2025-06-18 on; before it the text block alone).
        let s = match v.get("structuredContent") {
            Some(s) => {
                assert!(o.call.protocol_revision.has_tool_output());
                assert_eq!(text, *s);
                s
            }
            None => {
                assert!(!o.call.protocol_revision.has_tool_output());
                &text
            }
        };
        assert_eq!(v["content"][0]["type"], "text");
        for d in s["resources"].as_array().unwrap() {
            resources.push(d["uri"].as_str().unwrap().to_string());
        }
        for d in s["resourceTemplates"].as_array().unwrap() {
            templates.push(d["uriTemplate"].as_str().unwrap().to_string());
        }
        pages += 1;
        match s.get("nextCursor") {
            Some(c) => cursor = Some(c.as_str().unwrap().to_string()),
            None => return (resources, templates, pages),
        }
    }
}

#[test]
fn list_resources_pages_through_resources_then_templates() {
    let r = host().build();
    for revision in ProtocolRevision::ALL {
        let o = RequestOptions {
            page_size: 2,
            ..options(revision)
        };
        let (resources, templates, pages) = walk(&r, &o);
        assert_eq!(
            resources,
            [
                "doc://a",
                "doc://b",
                "doc://c",
                "doc://denied",
                "doc://hidden",
                "doc://partial"
            ]
        );
        assert_eq!(templates, ["files://p/{name}", "logs://l/{day}/x"]);
        // 3 pages of resources (the 3rd also finds doc://undiscoverable
        // hidden), then templates: one page of 2 and the page that finds
        // only the undiscoverable template.
        assert!(pages >= 5, "{pages}");
        // The same descriptions resources/list gives.
        let page = r.list(&list_opts(revision, None, 50)).unwrap();
        let first = call(&r, &list_params(None), &options(revision));
        let v = json(first.json());
        let listed = if revision.has_tool_output() {
            v["structuredContent"]["resources"].clone()
        } else {
            json(v["content"][0]["text"].as_str().unwrap())["resources"].clone()
        };
        assert_eq!(listed, json(page.json())["resources"]);
    }
}

#[test]
fn list_resources_hides_what_discovery_denies() {
    let r = host().build();
    let o = options(ProtocolRevision::LATEST);
    let (resources, templates, _) = walk(&r, &o);
    assert!(!resources.iter().any(|u| u == "doc://undiscoverable"));
    assert!(!templates.iter().any(|u| u.starts_with("secret:")));
    // A registry without the undiscoverable definitions lists the same.
    let h = Host::new(&[
        "doc://a",
        "doc://b",
        "doc://c",
        "doc://partial",
        "doc://hidden",
        "doc://denied",
        "files://p/{name}",
        "logs://l/{day}/x",
    ]);
    let (r2, t2, _) = walk(&h.build(), &o);
    assert_eq!((resources, templates), (r2, t2));
}

#[test]
fn list_resources_refuses_cursors_it_did_not_issue_as_tool_errors() {
    let h = host();
    let r = h.build();
    let o = RequestOptions {
        page_size: 2,
        ..options(ProtocolRevision::LATEST)
    };
    let first = json(call(&r, &list_params(None), &o).json());
    let next = first["structuredContent"]["nextCursor"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(next.starts_with('r'));
    // A genuine templates cursor.
    let mut c = Some("t".to_string());
    let tcursor = loop {
        let v = json(
            call(
                &r,
                &list_params(c.as_deref()),
                &RequestOptions {
                    page_size: 1,
                    ..o.clone()
                },
            )
            .json(),
        );
        let n = v["structuredContent"]["nextCursor"]
            .as_str()
            .unwrap()
            .to_string();
        if n.len() > 1 {
            break n;
        }
        c = Some(n);
    };
    let other_scope = RequestOptions {
        scope_key: b"someone else".to_vec(),
        ..o.clone()
    };
    let rest = &next[1..];
    for (bad, opts) in [
        ("x".to_string(), &o),
        ("r".to_string(), &o),
        ("rgarbage".to_string(), &o),
        ("tgarbage".to_string(), &o),
        (format!("t{rest}"), &o),
        (format!("r{}", &tcursor[1..]), &o),
        (rest.to_string(), &o),
        (next.clone(), &other_scope),
    ] {
        let resp = call(&r, &list_params(Some(&bad)), opts);
        let v = json(resp.json());
        assert_eq!(tool_error_text(&v), INVALID_CURSOR_TEXT, "{bad}");
        assert!(!resp.is_error());
    }
    // Another registry (other definitions) refuses it too.
    let other = Host::new(&["doc://z"]).build();
    let v = json(call(&other, &list_params(Some(&next)), &o).json());
    assert_eq!(tool_error_text(&v), INVALID_CURSOR_TEXT);
    // Empty means the first page (its cursor sealed with a fresh nonce).
    let again = json(call(&r, &list_params(Some("")), &o).json());
    assert_eq!(
        again["structuredContent"]["resources"],
        first["structuredContent"]["resources"]
    );
    assert!(again["structuredContent"]["nextCursor"]
        .as_str()
        .unwrap()
        .starts_with('r'));
}

#[test]
fn list_resources_arguments_the_input_schema_refuses_are_tool_errors() {
    let r = host().build();
    let o = options(ProtocolRevision::LATEST);
    for params in [
        r#"{"name":"list_resources","arguments":{"cursor":1}}"#,
        r#"{"name":"list_resources","arguments":{"cursor":"","page":2}}"#,
        r#"{"name":"list_resources","arguments":{"uri":"doc://a"}}"#,
    ] {
        let v = json(call(&r, params, &o).json());
        assert_eq!(
            tool_error_text(&v),
            "list_resources takes one optional argument: cursor, a string"
        );
    }
    // No arguments member at all is the first page.
    let v = json(call(&r, r#"{"name":"list_resources"}"#, &o).json());
    assert!(v.get("isError").is_none());
}

#[test]
fn list_resources_needs_a_scope_key() {
    let r = host().build();
    let o = RequestOptions {
        scope_key: Vec::new(),
        ..options(ProtocolRevision::LATEST)
    };
    assert!(matches!(
        r.call_resource_tool(list_params(None).as_bytes(), &o),
        Err(RequestError::InvalidArgument(_))
    ));
    // read_resource does not.
    assert!(r
        .call_resource_tool(read_params("doc://a").as_bytes(), &o)
        .is_ok());
}

#[test]
fn the_one_call_request_serves_the_tools_only_when_asked() {
    let r = host().build();
    let off = options(ProtocolRevision::LATEST);
    assert_eq!(
        r.request(b"tools/call", read_params("doc://a").as_bytes(), &off)
            .unwrap_err(),
        RequestError::MethodNotHandled
    );
    let on = RequestOptions {
        resource_tools: true,
        ..off.clone()
    };
    let via_request = r
        .request(b"tools/call", read_params("doc://a").as_bytes(), &on)
        .unwrap();
    let direct = call(&r, &read_params("doc://a"), &on);
    assert_eq!(via_request.json(), direct.json());
    // Other tools stay the host's; tools/list is the host's too.
    assert_eq!(
        r.request(b"tools/call", br#"{"name":"x"}"#, &on)
            .unwrap_err(),
        RequestError::MethodNotHandled
    );
    assert_eq!(
        r.request(b"tools/list", b"", &on).unwrap_err(),
        RequestError::MethodNotHandled
    );
}

#[test]
fn a_per_request_revision_shapes_the_tool_result() {
    let r = host().build();
    let old = options(ProtocolRevision::V2025_06_18);
    let params = r#"{"name":"read_resource","arguments":{"uri":"doc://a"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
    let resp = call(&r, params, &old);
    assert_eq!(resp.protocol_revision(), ProtocolRevision::V2026_07_28);
    assert_eq!(json(resp.json())["resultType"], "complete");
}

#[test]
fn a_cancelled_tool_call_is_the_canceled_error_never_a_result() {
    let r = host().build();
    let cancel = CancelToken::new();
    cancel.cancel();
    let mut o = options(ProtocolRevision::LATEST);
    o.call.cancel = Some(cancel);
    for params in [read_params("doc://a"), list_params(None)] {
        let resp = call(&r, &params, &o);
        assert!(resp.is_error());
        assert_eq!(resp.failure().unwrap().kind(), FailureKind::Canceled);
    }
}

#[test]
fn a_failing_read_is_a_tool_error_with_the_kinds_fixed_message() {
    let h = host();
    let r = h.build();
    *h.handler.fail_resolve.lock().unwrap() = true;
    let resp = call(
        &r,
        &read_params("doc://a"),
        &options(ProtocolRevision::LATEST),
    );
    let v = json(resp.json());
    assert_eq!(
        tool_error_text(&v),
        FailureKind::InvalidPlan.default_message()
    );
    assert!(!resp.json().contains(CANARY));
    assert!(resp.tool_failure().unwrap().cause_text().contains(CANARY));
}

#[test]
fn the_definitions_describe_what_the_tools_take_and_give() {
    let defs = json(resource_tool_definitions(ProtocolRevision::LATEST));
    let read = &defs[1];
    assert_eq!(read["name"], "read_resource");
    assert_eq!(read["inputSchema"]["required"], serde_json::json!(["uri"]));
    assert_eq!(read["inputSchema"]["additionalProperties"], false);
    assert_eq!(
        read["outputSchema"]["required"],
        serde_json::json!(["contents"])
    );
    let list = &defs[0];
    assert_eq!(list["name"], "list_resources");
    assert!(list["inputSchema"].get("required").is_none());
    assert_eq!(
        list["outputSchema"]["required"],
        serde_json::json!(["resources", "resourceTemplates"])
    );
}

#[test]
fn read_resource_keeps_its_doubled_items_within_one_reads_encoded_budget() {
    let max: i64 = 64 * 1024;
    // Half of 64 KiB less the wire reserve, the envelope and the wrappers
    // is about 27 KiB of result; less the report's 16 KiB reserve, about
    // 10.6 KiB of items.
    for size in [
        1024usize,
        8 * 1024,
        10 * 1024,
        12 * 1024,
        20 * 1024,
        30 * 1024,
    ] {
        let h = host().limit(Limit::MaxEncodedBytes, max);
        h.handler.body("doc://a", Body::Text("q".repeat(size)));
        let r = h.build();
        // The plain read always fits.
        assert!(r
            .read(b"doc://a", &read_opts(ProtocolRevision::LATEST))
            .is_ok());
        let resp = call(
            &r,
            &read_params("doc://a"),
            &options(ProtocolRevision::LATEST),
        );
        assert!(
            resp.json().len() as i64 <= max - 8192,
            "{size}: {} bytes",
            resp.json().len()
        );
        let v = json(resp.json());
        if v.get("isError").is_some() {
            // Too large to carry twice: the read's own budget failure.
            assert!(size >= 12 * 1024, "{size}");
            assert_eq!(
                resp.tool_failure().map(Failure::kind),
                Some(FailureKind::BudgetExceeded)
            );
        } else {
            assert!(size <= 10 * 1024, "{size}");
        }
    }
}
