//! Tool results under the rules every result follows: the host's result
//! `_meta` members (BEHAVIOUR §14) and the revision's shapes (§11), for the
//! embedding and the resource tools (§16 rules 13 and 14).

mod protocol_support;

use mcp_resources::tools::{EmbedForm, EmbedOptions, NOT_FOUND_TEXT};
use mcp_resources::*;
use protocol_support::*;

const SERVER_INFO: &str = r#"{"io.modelcontextprotocol/serverInfo":{"name":"host","version":"1"}}"#;

fn host() -> Resources {
    let h = Host::new(&[
        "doc://a",
        "doc://hidden",
        "doc://undiscoverable",
        "doc://t/{id}",
    ]);
    h.pol.hide("doc://hidden");
    h.pol.undiscover("doc://undiscoverable");
    h.build()
}

fn call(revision: ProtocolRevision, meta: bool) -> CallOptions {
    CallOptions {
        protocol_revision: revision,
        result_meta: meta.then(|| ResultMeta::from_json(SERVER_INFO).unwrap()),
        ..CallOptions::default()
    }
}

fn tools(revision: ProtocolRevision, meta: bool) -> RequestOptions {
    RequestOptions {
        scope_key: b"tenant".to_vec(),
        resource_tools: true,
        call: call(revision, meta),
        ..RequestOptions::default()
    }
}

fn tool_call(r: &Resources, params: &str, o: &RequestOptions) -> String {
    r.request(b"tools/call", params.as_bytes(), o)
        .unwrap()
        .json()
        .to_string()
}

fn read_params(uri: &str) -> String {
    serde_json::json!({"name":"read_resource","arguments":{"uri":uri}}).to_string()
}

#[test]
fn tool_results_carry_the_host_result_meta_on_every_revision() {
    let r = host();
    let want = json(SERVER_INFO);
    for revision in ProtocolRevision::ALL {
        let o = tools(revision, true);
        for params in [
            read_params("doc://a"),
            r#"{"name":"list_resources"}"#.to_string(),
            r#"{"name":"list_resources","arguments":{"cursor":"bogus"}}"#.to_string(),
            r#"{"name":"read_resource","arguments":{}}"#.to_string(),
        ] {
            let v = json(&tool_call(&r, &params, &o));
            assert_eq!(v["_meta"], want, "{revision} {params}");
        }
        let embed = EmbedOptions {
            call: call(revision, true),
            ..EmbedOptions::default()
        };
        let e = r.embed(&["doc://a"], &embed).unwrap();
        assert_eq!(json(&e.call_tool_result())["_meta"], want);
        // The blocks are the same with and without: the members are the
        // tool result's, never a block's.
        let plain = EmbedOptions {
            call: call(revision, false),
            ..EmbedOptions::default()
        };
        let without = r.embed(&["doc://a"], &plain).unwrap();
        assert_eq!(e.blocks_json(), without.blocks_json());
        assert!(json(&without.call_tool_result()).get("_meta").is_none());
    }
}

#[test]
fn a_not_found_tool_result_is_the_same_for_hidden_undiscoverable_unregistered_and_invalid() {
    let r = host();
    for revision in ProtocolRevision::ALL {
        for meta in [false, true] {
            let o = tools(revision, meta);
            let answers: Vec<String> = [
                "doc://hidden",
                "doc://undiscoverable",
                "doc://nothing",
                "not a uri",
            ]
            .iter()
            .map(|u| tool_call(&r, &read_params(u), &o))
            .collect();
            assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
            let v = json(&answers[0]);
            assert_eq!(v["content"][0]["text"], NOT_FOUND_TEXT);
            assert_eq!(v.get("_meta").is_some(), meta);
        }
    }
}

#[test]
fn before_2025_06_18_tool_results_have_no_structured_content_and_no_links() {
    let r = host();
    for revision in [ProtocolRevision::V2024_11_05, ProtocolRevision::V2025_03_26] {
        let o = tools(revision, false);
        for params in [
            read_params("doc://a"),
            r#"{"name":"list_resources"}"#.into(),
        ] {
            let v = json(&tool_call(&r, &params, &o));
            assert!(v.get("structuredContent").is_none(), "{revision} {v}");
            assert!(v.get("resultType").is_none());
        }
        // No resource_link block exists: the link form is the host's
        // mistake, and over-budget items stay issues.
        let link = EmbedOptions {
            call: call(revision, false),
            form: EmbedForm::Link,
            ..EmbedOptions::default()
        };
        let f = r.embed(&["doc://a"], &link).unwrap_err();
        assert_eq!(f.kind(), FailureKind::InvalidArgument);
        let over = EmbedOptions {
            call: call(revision, false),
            over_budget_links: true,
            ..EmbedOptions::default()
        };
        let e = r.embed(&["doc://a", "doc://hidden"], &over).unwrap();
        assert!(!e.blocks_json().contains("resource_link"));
        // The embedded items are the read's items on that revision.
        let read = r
            .read(b"doc://a", &ReadOptions::from(call(revision, false)))
            .unwrap();
        assert_eq!(
            json(e.blocks().next().unwrap())["resource"],
            json(read.json())["contents"][0]
        );
    }
    // From 2025-06-18 on the link form works.
    let link = EmbedOptions {
        call: call(ProtocolRevision::V2025_06_18, false),
        form: EmbedForm::Link,
        ..EmbedOptions::default()
    };
    assert!(r
        .embed(&["doc://a"], &link)
        .unwrap()
        .blocks_json()
        .contains("resource_link"));
}

#[test]
fn the_host_result_meta_is_charged_to_an_embedding_once() {
    // A host `_meta` of nearly 63 KiB and a registry whose encoded budget
    // holds it once beside small items: charged per URI, the later URIs
    // would find no budget left.
    let big = format!(r#"{{"com.example/pad":"{}"}}"#, "x".repeat(60 * 1024));
    let meta = ResultMeta::from_json(&big).unwrap();
    let r = Host::new(&["doc://a", "doc://b", "doc://c"])
        .limit(Limit::MaxEncodedBytes, 96 * 1024)
        .build();
    let embed = EmbedOptions {
        call: CallOptions {
            result_meta: Some(meta),
            ..CallOptions::default()
        },
        ..EmbedOptions::default()
    };
    let e = r.embed(&["doc://a", "doc://b", "doc://c"], &embed).unwrap();
    assert_eq!(e.block_count(), 3, "{:?}", e.outcomes());
    let result = e.call_tool_result();
    assert!(result.len() as u64 <= 96 * 1024 - 8192);
}

#[test]
fn a_whole_message_answers_in_the_revisions_shape_with_the_host_result_meta() {
    let r = host();
    let want = json(SERVER_INFO);
    for revision in [ProtocolRevision::V2024_11_05, ProtocolRevision::V2025_03_26] {
        let o = tools(revision, true);
        for (body, error) in [
            (
                r#""method":"resources/read","params":{"uri":"doc://a"}"#,
                false,
            ),
            (r#""method":"resources/list""#, false),
            (
                r#""method":"tools/call","params":{"name":"read_resource","arguments":{"uri":"doc://a"}}"#,
                false,
            ),
            (
                r#""method":"resources/read","params":{"uri":"doc://hidden"}"#,
                true,
            ),
        ] {
            let text = format!(r#"{{"jsonrpc":"2.0","id":7,{body}}}"#);
            let reply = r.message(text.as_bytes(), &o).unwrap();
            let v = json(reply.json());
            assert_eq!(v["id"], 7);
            if error {
                // Not found before 2026-07-28 is -32002, and an error
                // object carries no host members.
                assert_eq!(v["error"]["code"], -32002, "{v}");
                assert!(!reply.json().contains("serverInfo"));
                continue;
            }
            let result = &v["result"];
            assert_eq!(
                result["_meta"]["io.modelcontextprotocol/serverInfo"],
                want["io.modelcontextprotocol/serverInfo"],
                "{revision} {body}"
            );
            for later in ["resultType", "ttlMs", "cacheScope", "structuredContent"] {
                assert!(result.get(later).is_none(), "{revision} {body}: {later}");
            }
            let items = result
                .get("contents")
                .or_else(|| result.get("content"))
                .or_else(|| result.get("resources"));
            for item in items.and_then(|i| i.as_array()).into_iter().flatten() {
                let item = item.get("resource").unwrap_or(item);
                assert!(item.get("_meta").is_none(), "{revision} {body}: {item}");
                assert!(item.get("title").is_none(), "{revision} {body}: {item}");
            }
        }
    }
}
