//! One call per request: `Resources::request`.

mod protocol_support;

use mcp_resources::CallOptions;
use mcp_resources::*;
use protocol_support::*;

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

fn host() -> Resources {
    let h = Host::new(&[
        "doc://a",
        "doc://b",
        "doc://c",
        "doc://t/{id}",
        "doc://u/{id}",
    ]);
    h.pol.hide("doc://hidden");
    h.build()
}

fn ok(r: &Resources, method: &str, params: &str, o: &RequestOptions) -> serde_json::Value {
    let resp = r.request(method.as_bytes(), params.as_bytes(), o).unwrap();
    assert!(!resp.is_error(), "{}", resp.json());
    json(resp.json())
}

fn err(r: &Resources, method: &str, params: &str, o: &RequestOptions) -> String {
    let resp = r.request(method.as_bytes(), params.as_bytes(), o).unwrap();
    assert!(resp.is_error(), "{}", resp.json());
    assert!(resp.failure().is_some());
    resp.into_json()
}

#[test]
fn request_serves_resources_read_like_read() {
    let r = host();
    for revision in ProtocolRevision::ALL {
        let o = options(revision);
        let resp = r
            .request(b"resources/read", br#"{"uri":"doc://a"}"#, &o)
            .unwrap();
        let direct = r
            .read(b"doc://a", &read_opts(revision))
            .unwrap()
            .into_json();
        assert_eq!(resp.json(), direct);
        assert!(!resp.is_partial());
        assert_eq!(resp.protocol_revision(), revision);
    }
}

#[test]
fn request_serves_both_list_methods_and_follows_cursors() {
    let r = host();
    let mut o = options(ProtocolRevision::V2026_07_28);
    o.page_size = 2;
    let first = ok(&r, "resources/list", "", &o);
    assert_eq!(first["resources"].as_array().unwrap().len(), 2);
    let cursor = first["nextCursor"].as_str().unwrap();
    let second = ok(
        &r,
        "resources/list",
        &format!(r#"{{"cursor":"{cursor}","_meta":{{"progressToken":7}}}}"#),
        &o,
    );
    assert_eq!(second["resources"][0]["uri"], "doc://c");
    assert!(second.get("nextCursor").is_none());
    assert_eq!(second["resultType"], "complete");
    let templates = ok(&r, "resources/templates/list", "null", &o);
    assert_eq!(templates["resourceTemplates"].as_array().unwrap().len(), 2);
    // The cursor of one list method is refused by the other.
    assert_eq!(
        err(
            &r,
            "resources/templates/list",
            &format!(r#"{{"cursor":"{cursor}"}}"#),
            &o
        ),
        r#"{"code":-32602,"message":"Invalid cursor"}"#
    );
}

#[test]
fn request_not_found_carries_the_requested_uri_per_revision() {
    let r = host();
    for (revision, code) in [
        (ProtocolRevision::V2025_06_18, -32002),
        (ProtocolRevision::V2025_11_25, -32002),
        (ProtocolRevision::V2026_07_28, -32602),
    ] {
        let o = options(revision);
        for uri in ["doc://missing", "doc://hidden", "doc://t/x/y"] {
            let e = err(&r, "resources/read", &format!(r#"{{"uri":"{uri}"}}"#), &o);
            assert_eq!(
                e,
                format!(
                    r#"{{"code":{code},"message":"Resource not found","data":{{"uri":"{uri}"}}}}"#
                )
            );
        }
    }
}

#[test]
fn request_per_request_revision_wins_over_the_option() {
    let r = host();
    let o = options(ProtocolRevision::V2026_07_28);
    let old = ok(
        &r,
        "resources/read",
        r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}"#,
        &o,
    );
    assert!(old.get("resultType").is_none());
    let o = options(ProtocolRevision::V2025_06_18);
    let new = ok(
        &r,
        "resources/list",
        r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}"#,
        &o,
    );
    assert_eq!(new["resultType"], "complete");
    let e = err(
        &r,
        "resources/read",
        r#"{"uri":"doc://zz","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}"#,
        &o,
    );
    assert!(e.starts_with(r#"{"code":-32002,"#));
}

#[test]
fn request_unknown_per_request_revision_is_unsupported_protocol_version() {
    let r = host();
    let e = err(
        &r,
        "resources/read",
        r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}"#,
        &options(ProtocolRevision::LATEST),
    );
    assert_eq!(
        e,
        r#"{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"requested":"2099-01-01"}}"#
    );
    // Empty or absurdly long: malformed params, nothing echoed.
    for v in [String::new(), "9".repeat(65)] {
        let e = err(
            &r,
            "resources/read",
            &format!(
                r#"{{"uri":"doc://a","_meta":{{"io.modelcontextprotocol/protocolVersion":"{v}"}}}}"#
            ),
            &options(ProtocolRevision::LATEST),
        );
        assert_eq!(
            e,
            r#"{"code":-32602,"message":"params _meta protocolVersion is not a protocol revision"}"#
        );
    }
}

#[test]
fn request_malformed_params_are_32602_with_safe_messages() {
    let r = host();
    let o = options(ProtocolRevision::LATEST);
    let cases: &[(&str, &str, &str)] = &[
        ("resources/read", "", "params uri is required"),
        ("resources/read", "{}", "params uri is required"),
        (
            "resources/read",
            r#"{"cursor":"x"}"#,
            "params uri is required",
        ),
        (
            "resources/read",
            r#"{"uri":42}"#,
            "params uri must be a string",
        ),
        (
            "resources/read",
            r#"{"uri":"doc://a","uri":"doc://b"}"#,
            "params repeat uri",
        ),
        (
            "resources/read",
            r#"{"uri":"doc://a""#,
            "params are not valid JSON",
        ),
        (
            "resources/read",
            r#"["doc://a"]"#,
            "params must be an object",
        ),
        (
            "resources/read",
            r#"{"uri":"doc://a","_meta":7}"#,
            "params _meta must be an object",
        ),
        (
            "resources/list",
            r#"{"cursor":1}"#,
            "params cursor must be a string",
        ),
        ("resources/list", "{,}", "params are not valid JSON"),
        (
            "resources/templates/list",
            r#"{"cursor":["SECRET-ECHO"]}"#,
            "params cursor must be a string",
        ),
    ];
    for (method, params, message) in cases {
        let e = err(&r, method, params, &o);
        assert_eq!(
            e,
            format!(r#"{{"code":-32602,"message":"{message}"}}"#),
            "{method} {params}"
        );
        assert!(!e.contains("SECRET"));
    }
    let resp = r.request(b"resources/read", b"{", &o).unwrap();
    assert_eq!(resp.failure().unwrap().kind(), FailureKind::InvalidRequest);
}

#[test]
fn request_extra_members_are_ignored_whatever_their_type() {
    let r = host();
    let o = options(ProtocolRevision::LATEST);
    let v = ok(
        &r,
        "resources/read",
        r#"{"task":{"ttl":1},"uri":"doc://a","x":null,"_meta":{"progressToken":"t","other":{"deep":[[[]]]}},"cursor":"ignored"}"#,
        &o,
    );
    assert_eq!(v["contents"][0]["uri"], "doc://a");
    // requestState and inputResponses are a 2026-07-28 read's retry
    // members (docs/BEHAVIOUR.md §18, tests/input_*.rs); the revisions
    // before it do not define them, so they are ignored there whatever
    // they hold.
    for revision in [ProtocolRevision::V2025_06_18, ProtocolRevision::V2025_11_25] {
        for params in [
            r#"{"requestState":"s","inputResponses":{"a":[1,2]},"uri":"doc://a","x":null,"_meta":{"progressToken":"t","other":{"deep":[[[]]]}},"cursor":"ignored"}"#,
            r#"{"requestState":[1],"inputResponses":"x","uri":"doc://a","_meta":{"io.modelcontextprotocol/clientCapabilities":5}}"#,
        ] {
            let v = ok(&r, "resources/read", params, &options(revision));
            assert_eq!(v["contents"][0]["uri"], "doc://a", "{revision:?} {params}");
        }
    }
    let v = ok(&r, "resources/list", r#"{"uri":5,"extra":true}"#, &o);
    assert_eq!(v["resources"].as_array().unwrap().len(), 3);
}

#[test]
fn request_huge_params_are_refused_before_parsing() {
    let r = host();
    let o = options(ProtocolRevision::LATEST);
    let huge = format!(
        r#"{{"uri":"doc://a","pad":"{}"}}"#,
        "x".repeat(request::MAX_PARAMS_BYTES)
    );
    assert_eq!(
        err(&r, "resources/read", &huge, &o),
        r#"{"code":-32602,"message":"params exceed 256 KiB"}"#
    );
    // Just under the bound is fine.
    let fits = format!(
        r#"{{"uri":"doc://a","pad":"{}"}}"#,
        "x".repeat(request::MAX_PARAMS_BYTES - 40)
    );
    assert!(fits.len() <= request::MAX_PARAMS_BYTES);
    ok(&r, "resources/read", &fits, &o);
}

#[test]
fn request_other_methods_are_not_handled_and_host_errors_are_not_responses() {
    let r = host();
    let o = options(ProtocolRevision::LATEST);
    for m in [
        "prompts/get",
        "tools/list",
        "resources/subscribe",
        "",
        "resources/READ",
    ] {
        assert_eq!(
            r.request(m.as_bytes(), b"{}", &o).unwrap_err(),
            RequestError::MethodNotHandled
        );
    }
    // completion/complete is served for ref/resource only (tests/completion.rs).
    assert_eq!(
        r.request(
            b"completion/complete",
            br#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}"#,
            &o
        )
        .unwrap_err(),
        RequestError::MethodNotHandled
    );
    let no_scope = RequestOptions::default();
    assert!(matches!(
        r.request(b"resources/list", b"{}", &no_scope).unwrap_err(),
        RequestError::InvalidArgument(_)
    ));
    // A read needs no scope key.
    assert!(!r
        .request(b"resources/read", br#"{"uri":"doc://a"}"#, &no_scope)
        .unwrap()
        .is_error());
}

#[test]
fn request_partial_bundle_is_flagged_and_private_data_stays_out() {
    let h = Host::new(&["doc://p"]);
    h.handler.plan("doc://p", &["doc://p/1", "doc://p/2"]);
    h.handler.body("doc://p/2", Body::Fail);
    let r = h.build();
    let resp = r
        .request(
            b"resources/read",
            br#"{"uri":"doc://p"}"#,
            &options(ProtocolRevision::LATEST),
        )
        .unwrap();
    assert!(!resp.is_error() && resp.is_partial());
    assert!(!resp.json().contains(CANARY));
    let v = json(resp.json());
    assert_eq!(v["ttlMs"], 0);
    assert_eq!(v["cacheScope"], "private");
    // An error response keeps its private cause for the host only.
    h.handler.body("doc://p/1", Body::Fail);
    let resp = r
        .request(
            b"resources/read",
            br#"{"uri":"doc://p"}"#,
            &options(ProtocolRevision::LATEST),
        )
        .unwrap();
    assert!(resp.is_error());
    assert!(resp.failure().unwrap().cause_text().contains(CANARY));
    assert!(!resp.json().contains(CANARY));
}

#[test]
fn request_explicit_empty_text_and_blob_survive() {
    let h = Host::new(&["doc://e"]);
    h.handler.plan("doc://e", &["doc://e/t", "doc://e/b"]);
    h.handler.body("doc://e/t", Body::Text(String::new()));
    h.handler.body("doc://e/b", Body::Blob(Vec::new()));
    let v = ok(
        &h.build(),
        "resources/read",
        r#"{"uri":"doc://e"}"#,
        &options(ProtocolRevision::LATEST),
    );
    assert_eq!(v["contents"][0]["text"], "");
    assert_eq!(v["contents"][1]["blob"], "");
}

#[test]
fn request_cancelled_call_gives_a_canceled_failure_the_host_drops() {
    let r = host();
    let token = CancelToken::new();
    token.cancel();
    let o = RequestOptions {
        call: CallOptions {
            cancel: Some(token),
            ..options(ProtocolRevision::LATEST).call
        },
        ..options(ProtocolRevision::LATEST)
    };
    let resp = r
        .request(b"resources/read", br#"{"uri":"doc://a"}"#, &o)
        .unwrap();
    assert_eq!(resp.failure().unwrap().kind(), FailureKind::Canceled);
    assert_eq!(
        resp.json(),
        r#"{"code":-32603,"message":"resource request canceled"}"#
    );
}
