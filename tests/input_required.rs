//! docs/BEHAVIOUR.md §18: input-required reads. A callback that needs
//! input first makes the read answer MCP 2026-07-28's
//! `InputRequiredResult`; the client's retry hands the responses to every
//! callback of the retried read.

mod input_support;

use std::sync::Arc;

use input_support::*;
use mcp_resources::*;

/// The exact `inputRequests` of the consent read.
const CONSENT_REQUESTS: &str = concat!(
    r#"{"consent":{"method":"elicitation/create","params":{"mode":"form","#,
    r#""message":"May I read the sensitive document?","requestedSchema":"#,
    r#"{"type":"object","properties":{"confirm":{"type":"boolean","title":"Read the sensitive document?"}},"required":["confirm"]}}}}"#
);

#[test]
fn an_input_required_read_answers_the_exact_input_required_result() {
    let h = host();
    let resp = read(&h.resources, &params(CONSENT, ""), SCOPE);
    assert!(!resp.is_error() && resp.is_input_required() && !resp.is_partial());
    let state = state_of(&resp);
    assert_eq!(
        resp.json(),
        format!(
            r#"{{"resultType":"input_required","inputRequests":{CONSENT_REQUESTS},"requestState":"{state}"}}"#
        )
    );
    // Sealed: base64url of at least version, nonce and tag.
    assert!(state.len() >= 55);
    assert!(state
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    // Nothing was read: the first check asked.
    let log = h.log.lock().unwrap();
    assert!(log
        .iter()
        .all(|s| s.phase != CallPhase::BodyRead && s.phase != CallPhase::Recheck));
}

#[test]
fn an_input_required_result_carries_no_cache_hints_and_no_meta() {
    let h = host();
    for uri in [CONSENT, BODY, "doc://bundle"] {
        let resp = read(&h.resources, &params(uri, ""), SCOPE);
        let v = json(resp.json());
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["resultType", "inputRequests", "requestState"],
            "{uri}"
        );
    }
    // The direct API too: no cache hints are claimed.
    let bundle = h
        .resources
        .read(
            CONSENT.as_bytes(),
            &ReadOptions {
                input: InputOptions {
                    scope_key: SCOPE.to_vec(),
                    client_capabilities: Some(ClientCapabilities::all()),
                    ..InputOptions::default()
                },
                ..ReadOptions::default()
            },
        )
        .unwrap();
    assert!(bundle.is_input_required());
    assert_eq!(bundle.cache(), ResultCache::default());
    assert_eq!(bundle.item_count(), 0);
    assert!(!bundle.json().contains("ttlMs") && !bundle.json().contains("cacheScope"));
}

#[test]
fn the_retry_hands_the_input_responses_to_every_callback_of_the_read() {
    let h = host();
    let first = read(&h.resources, &params(CONSENT, ""), SCOPE);
    let state = state_of(&first);
    h.log.lock().unwrap().clear();
    let resp = read(
        &h.resources,
        &params(CONSENT, &retry(&state, ACCEPT)),
        SCOPE,
    );
    assert!(
        !resp.is_error() && !resp.is_input_required(),
        "{}",
        resp.json()
    );
    let v = json(resp.json());
    assert_eq!(v["contents"][0]["text"], "body of doc://consent");
    assert_eq!(v["resultType"], "complete");
    let log = h.log.lock().unwrap();
    let phases: Vec<CallPhase> = log.iter().map(|s| s.phase).collect();
    for phase in [
        CallPhase::FirstCheck,
        CallPhase::Resolve,
        CallPhase::BodyRead,
        CallPhase::Recheck,
    ] {
        assert!(phases.contains(&phase), "{phase:?} not called: {phases:?}");
    }
    for seen in log.iter() {
        let input = seen.input.as_ref().expect("every callback sees the input");
        assert_eq!(
            input.asked().collect::<Vec<_>>(),
            [("consent", InputKind::Elicitation)]
        );
        let consent = input.get("consent").unwrap();
        assert_eq!(consent.kind(), InputKind::Elicitation);
        assert_eq!(consent.action(), Some(ElicitAction::Accept));
        assert_eq!(consent.content("confirm"), Some("true"));
        assert_eq!(consent.content("other"), None);
        assert_eq!(
            consent.json(),
            r#"{"action":"accept","content":{"confirm":true}}"#
        );
        assert!(input.state().is_empty());
    }
}

#[test]
fn callbacks_of_a_read_that_is_no_retry_see_no_input() {
    let h = host();
    let resp = read(&h.resources, &params(PLAIN, ""), SCOPE);
    assert!(!resp.is_error() && !resp.is_input_required());
    assert!(h.log.lock().unwrap().iter().all(|s| s.input.is_none()));
}

#[test]
fn a_retried_result_is_never_cacheable() {
    let h = host();
    // The same hints make a plain read public.
    let plain = json(read(&h.resources, &params(PLAIN, ""), SCOPE).json());
    assert_eq!(
        (plain["ttlMs"].as_u64(), plain["cacheScope"].as_str()),
        (Some(60_000), Some("public"))
    );
    let state = state_of(&read(&h.resources, &params(CONSENT, ""), SCOPE));
    let retried = json(
        read(
            &h.resources,
            &params(CONSENT, &retry(&state, ACCEPT)),
            SCOPE,
        )
        .json(),
    );
    assert_eq!(retried["ttlMs"], 0);
    assert_eq!(retried["cacheScope"], "private");
    // A retry of a read that no longer asks (state-only): still private.
    let state = state_of(&read(&h.resources, &params(BODY, ""), SCOPE));
    let body = json(
        read(
            &h.resources,
            &params(BODY, &retry(&state, r#"{"summary":{"role":"assistant","content":{"type":"text","text":"short"},"model":"m"}}"#)),
            SCOPE,
        )
        .json(),
    );
    assert_eq!(
        (body["ttlMs"].as_u64(), body["cacheScope"].as_str()),
        (Some(0), Some("private"))
    );
}

#[test]
fn a_retry_that_does_not_give_what_was_needed_asks_again_with_a_fresh_state() {
    let h = host();
    let first = state_of(&read(&h.resources, &params(CONSENT, ""), SCOPE));
    for responses in [
        r#"{"consent":{"action":"decline"}}"#,
        r#"{"consent":{"action":"accept","content":{"confirm":false}}}"#,
        r#"{}"#,
    ] {
        let again = read(
            &h.resources,
            &params(CONSENT, &retry(&first, responses)),
            SCOPE,
        );
        assert!(again.is_input_required(), "{responses}: {}", again.json());
        assert_ne!(state_of(&again), first);
    }
    // A state-only retry (no inputResponses) asks again too.
    let again = read(
        &h.resources,
        &params(CONSENT, &format!(r#","requestState":"{first}""#)),
        SCOPE,
    );
    assert!(again.is_input_required());
}

#[test]
fn a_body_read_may_ask_for_input_after_the_first_check() {
    let h = host();
    let first = read(&h.resources, &params(BODY, ""), SCOPE);
    let v = json(first.json());
    assert_eq!(
        v["inputRequests"]["summary"]["method"],
        "sampling/createMessage"
    );
    assert_eq!(v["inputRequests"]["summary"]["params"]["maxTokens"], 50);
    let state = state_of(&first);
    let response = r#"{"summary":{"role":"assistant","content":{"type":"text","text":"It is short."},"model":"test-model","stopReason":"endTurn"}}"#;
    let done = json(read(&h.resources, &params(BODY, &retry(&state, response)), SCOPE).json());
    assert_eq!(
        done["contents"][0]["text"],
        r#"summary: {"role":"assistant","content":{"type":"text","text":"It is short."},"model":"test-model","stopReason":"endTurn"}"#
    );
}

#[test]
fn the_body_reads_that_ask_are_merged_in_plan_order() {
    let h = host();
    let first = read(&h.resources, &params("doc://bundle", ""), SCOPE);
    let v = json(first.json());
    let keys: Vec<&str> = v["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["a", "b"]);
    assert_eq!(
        v["inputRequests"]["b"],
        serde_json::json!({"method": "roots/list"})
    );
    // The sibling that asked for nothing was read; its body is not sent.
    assert!(!first.json().contains("body of"));
    h.log.lock().unwrap().clear();
    let responses = r#"{"a":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"},"b":{"roots":[{"uri":"file:///srv/projects/a","name":"a"}]}}"#;
    let done = read(
        &h.resources,
        &params("doc://bundle", &retry(&state_of(&first), responses)),
        SCOPE,
    );
    let v = json(done.json());
    assert_eq!(v["contents"].as_array().unwrap().len(), 3, "{v}");
    let log = h.log.lock().unwrap();
    let input = log[0].input.as_ref().unwrap();
    assert_eq!(input.state(), b"own state of b");
    assert_eq!(
        input.get("b").unwrap().json(),
        r#"{"roots":[{"uri":"file:///srv/projects/a","name":"a"}]}"#
    );
    assert_eq!(input.answered(), 2);
}

#[test]
fn two_body_reads_asking_with_one_key_fail_the_read() {
    let h = host();
    let resp = read(&h.resources, &params("doc://clash", ""), SCOPE);
    assert!(resp.is_error());
    assert_eq!(resp.failure().unwrap().kind(), FailureKind::ReadFailed);
    assert!(resp
        .failure()
        .unwrap()
        .cause_text()
        .contains("input key is already used"));
    assert_eq!(json(resp.json())["code"], -32603);
}

#[test]
fn a_body_read_that_asked_and_was_revoked_at_the_recheck_does_not_ask() {
    let h = host_with(KEY, &[], true);
    let resp = read(&h.resources, &params("doc://revoked", ""), SCOPE);
    assert!(
        !resp.is_error() && !resp.is_input_required(),
        "{}",
        resp.json()
    );
    assert!(resp.is_partial());
    let v = json(resp.json());
    let uris: Vec<&str> = v["contents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris[1..], ["doc://revoked/other"]);
    assert!(resp.json().contains("unavailable"));
}

#[test]
fn callbacks_that_may_not_ask_are_read_as_unavailable() {
    let h = host();
    let not_found = |uri: &str| {
        format!(r#"{{"code":-32602,"message":"Resource not found","data":{{"uri":"{uri}"}}}}"#)
    };
    for uri in [
        "doc://asks/discover",
        "doc://asks/resolve",
        "doc://asks/recheck",
    ] {
        let resp = read(&h.resources, &params(uri, ""), SCOPE);
        assert_eq!(resp.json(), not_found(uri), "{uri}");
        assert_eq!(resp.failure().unwrap().kind(), FailureKind::Unavailable);
    }
    // Visibility answers no denial: its unavailable is a policy failure.
    let resp = read(&h.resources, &params("doc://asks/visibility", ""), SCOPE);
    assert_eq!(resp.failure().unwrap().kind(), FailureKind::Policy);
    assert!(!resp.json().contains("input"));
}

#[test]
fn older_revisions_fail_with_the_hosts_chosen_error() {
    let h = host();
    for revision in ["2025-06-18", "2025-11-25"] {
        let p = format!(
            r#"{{"uri":"{CONSENT}","_meta":{{"io.modelcontextprotocol/protocolVersion":"{revision}"}}}}"#
        );
        let resp = read(&h.resources, &p, SCOPE);
        assert!(resp.is_error() && !resp.is_input_required());
        assert_eq!(
            resp.json(),
            r#"{"code":-32603,"message":"Input required: this protocol revision cannot carry the request for input"}"#
        );
        let f = resp.failure().unwrap();
        assert_eq!(f.kind(), FailureKind::InputRequired);
        assert_eq!(f.jsonrpc_code(), -32603);
        let requests = f.input_requests().expect("the requests stay with the host");
        assert_eq!(requests.json(), CONSENT_REQUESTS);
    }
    // The host's own choice.
    let r = Resources::builder()
        .policy(in_form(Arc::new(AskingPolicy {
            log: Log::default(),
            revoke: false,
            hide: Arc::default(),
        })))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"doc://consent","name":"c"}"#,
                Arc::new(AskingReader {
                    log: Log::default(),
                }),
            )
            .unwrap(),
        )
        .input_unsupported_error(-31001, "Consent needed: please update your client")
        .build()
        .unwrap();
    let f = r
        .read(
            CONSENT.as_bytes(),
            &ReadOptions::from(CallOptions {
                protocol_revision: ProtocolRevision::V2025_11_25,
                ..CallOptions::default()
            }),
        )
        .unwrap_err();
    assert_eq!(f.kind(), FailureKind::InputRequired);
    assert_eq!(
        jsonrpc::error_object(&f, ProtocolRevision::V2025_11_25, Some(CONSENT)),
        r#"{"code":-31001,"message":"Consent needed: please update your client"}"#
    );
    assert_eq!(
        jsonrpc::error_code(&f, ProtocolRevision::V2025_11_25),
        -31001
    );
}

#[test]
fn the_hosts_error_for_older_revisions_is_checked_at_build() {
    let build = |code: i32, message: &str| {
        Resources::builder()
            .policy(Arc::new(AllowAll))
            .input_unsupported_error(code, message)
            .build()
    };
    for code in [-32099, -32042, -32021, -32020] {
        let e = build(code, "x").unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
        assert!(e.message().contains("reserved"), "{}", e.message());
    }
    for message in ["", "line\nbreak", &"x".repeat(257)] {
        let e = build(-31000, message).unwrap_err();
        assert!(e.message().contains("1 to 256 bytes"), "{}", e.message());
    }
    assert!(build(-32100, &"x".repeat(256)).is_ok());
    assert!(build(-32019, "ok").is_ok());
    assert!(build(1, "ok").is_ok());
}

#[test]
fn requests_of_a_capability_the_client_did_not_declare_are_never_sent() {
    let h = host();
    let with_caps = |uri: &str, caps: &str| {
        format!(
            r#"{{"uri":"{uri}","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}}}}"#
        )
    };
    let cases = [
        (CONSENT, "{}", r#"{"elicitation":{"form":{}}}"#),
        (
            CONSENT,
            r#"{"elicitation":{"url":{}}}"#,
            r#"{"elicitation":{"form":{}}}"#,
        ),
        (
            CONSENT,
            r#"{"sampling":{},"roots":{}}"#,
            r#"{"elicitation":{"form":{}}}"#,
        ),
        (BODY, r#"{"elicitation":{}}"#, r#"{"sampling":{}}"#),
        ("doc://bundle", r#"{"sampling":{}}"#, r#"{"roots":{}}"#),
        ("doc://bundle", "{}", r#"{"sampling":{},"roots":{}}"#),
    ];
    for (uri, caps, missing) in cases {
        let resp = read(&h.resources, &with_caps(uri, caps), SCOPE);
        assert!(resp.is_error() && !resp.is_input_required(), "{uri} {caps}");
        assert_eq!(
            resp.json(),
            format!(
                r#"{{"code":-32021,"message":"Missing required client capability","data":{{"requiredCapabilities":{missing}}}}}"#
            ),
            "{uri} {caps}"
        );
        assert_eq!(resp.failure().unwrap().kind(), FailureKind::InputRequired);
        assert!(!resp.json().contains("method"), "no input request is sent");
    }
    // Declared: asked.
    for caps in [
        r#"{"elicitation":{}}"#,
        r#"{"elicitation":{"form":{},"url":{}}}"#,
    ] {
        assert!(read(&h.resources, &with_caps(CONSENT, caps), SCOPE).is_input_required());
    }
}

#[test]
fn the_capabilities_of_the_params_win_over_the_hosts() {
    let h = host();
    let all = RequestOptions {
        scope_key: SCOPE.to_vec(),
        client_capabilities: Some(ClientCapabilities::all()),
        ..RequestOptions::default()
    };
    let with_caps = format!(
        r#"{{"uri":"{CONSENT}","_meta":{{"io.modelcontextprotocol/clientCapabilities":{{}}}}}}"#
    );
    let resp = h
        .resources
        .request(b"resources/read", with_caps.as_bytes(), &all)
        .unwrap();
    assert_eq!(json(resp.json())["code"], -32021);
    // Without capabilities in the params, the host's count.
    let bare = format!(r#"{{"uri":"{CONSENT}"}}"#);
    let resp = h
        .resources
        .request(b"resources/read", bare.as_bytes(), &all)
        .unwrap();
    assert!(resp.is_input_required());
    // Neither: nothing is declared.
    let resp = read(&h.resources, &bare, SCOPE);
    assert_eq!(json(resp.json())["code"], -32021);
}

#[test]
fn malformed_client_capabilities_are_refused_when_a_read_asks() {
    let h = host();
    for caps in [
        r#"{"elicitation":true}"#,
        r#"{"sampling":{"tools":1}}"#,
        r#"{"roots":[]}"#,
        r#"{"elicitation":{},"elicitation":{}}"#,
    ] {
        let p = format!(
            r#"{{"uri":"{CONSENT}","_meta":{{"io.modelcontextprotocol/clientCapabilities":{caps}}}}}"#
        );
        let resp = read(&h.resources, &p, SCOPE);
        assert_eq!(
            resp.json(),
            r#"{"code":-32602,"message":"params _meta clientCapabilities is invalid"}"#,
            "{caps}"
        );
        // A read that asks for nothing never looks at them.
        let p = format!(
            r#"{{"uri":"{PLAIN}","_meta":{{"io.modelcontextprotocol/clientCapabilities":{caps}}}}}"#
        );
        assert!(!read(&h.resources, &p, SCOPE).is_error());
    }
}

#[test]
fn an_input_required_read_needs_a_scope_key() {
    let h = host();
    let resp = read(&h.resources, &params(CONSENT, ""), b"");
    assert!(resp.is_error());
    assert_eq!(resp.failure().unwrap().kind(), FailureKind::InvalidArgument);
    assert_eq!(resp.json(), r#"{"code":-32603,"message":"internal error"}"#);
    // A read that asks for nothing needs none.
    assert!(!read(&h.resources, &params(PLAIN, ""), b"").is_error());
}

#[test]
fn the_executor_driver_asks_and_retries_as_the_inline_one() {
    let h = host();
    let ex = Executor::new(2).unwrap();
    let o = RequestOptions {
        scope_key: SCOPE.to_vec(),
        call: CallOptions {
            executor: Some(ex),
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    };
    for uri in [CONSENT, BODY, "doc://bundle"] {
        let inline = read(&h.resources, &params(uri, ""), SCOPE);
        let pooled = h
            .resources
            .request(b"resources/read", params(uri, "").as_bytes(), &o)
            .unwrap();
        let strip = |r: &Response| {
            let mut v = json(r.json());
            v["requestState"] = serde_json::Value::Null;
            v
        };
        assert_eq!(strip(&inline), strip(&pooled), "{uri}");
    }
    let state = state_of(
        &h.resources
            .request(b"resources/read", params(CONSENT, "").as_bytes(), &o)
            .unwrap(),
    );
    let done = h
        .resources
        .request(
            b"resources/read",
            params(CONSENT, &retry(&state, ACCEPT)).as_bytes(),
            &o,
        )
        .unwrap();
    assert_eq!(
        json(done.json())["contents"][0]["text"],
        "body of doc://consent"
    );
}

#[test]
fn the_direct_read_takes_its_retry_from_the_options() {
    let h = host();
    let options = |state: Option<String>, responses: Option<&str>| ReadOptions {
        input: InputOptions {
            scope_key: SCOPE.to_vec(),
            client_capabilities: Some(ClientCapabilities::all()),
            request_state: state,
            input_responses: responses.map(str::to_string),
            params: None,
        },
        ..ReadOptions::default()
    };
    let first = h
        .resources
        .read(CONSENT.as_bytes(), &options(None, None))
        .unwrap();
    assert!(first.is_input_required());
    let state = json(first.json())["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    // The one-call request and the direct read bind the same params: a
    // state issued by one is good for the other.
    let via_request = read(
        &h.resources,
        &params(CONSENT, &retry(&state, ACCEPT)),
        SCOPE,
    );
    assert!(
        !via_request.is_error() && !via_request.is_input_required(),
        "{}",
        via_request.json()
    );
    let done = h
        .resources
        .read(CONSENT.as_bytes(), &options(Some(state), Some(ACCEPT)))
        .unwrap();
    assert!(!done.is_input_required());
    assert_eq!(
        done.items().next().unwrap().text().unwrap(),
        "body of doc://consent"
    );
    assert_eq!(done.cache(), ResultCache::default());
}
