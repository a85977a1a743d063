//! docs/BEHAVIOUR.md §18 and §2: no oracle through input-required reads.
//! A read can answer "input required" only after discovery and the
//! requested target's visibility passed, so hidden, undiscoverable and
//! unregistered stay one not found; a bad `requestState` is one refusal
//! whatever the URI names; callbacks of listings and completions that ask
//! for input answer a denial.

mod input_support;

use std::sync::Arc;

use input_support::*;
use mcp_resources::*;

/// The response with the URI the client sent replaced (the only bytes in
/// which hidden and unregistered may differ: the client's own identifier).
fn masked(resp: &Response, uri: &str) -> String {
    resp.json().replace(uri, "<uri>")
}

#[test]
fn hidden_undiscoverable_and_unregistered_never_ask_for_input() {
    let h = host();
    // The policy asks for consent for all three, were it ever asked.
    let answers: Vec<String> = [HIDDEN, INVISIBLE, UNREGISTERED]
        .iter()
        .map(|uri| {
            let resp = read(&h.resources, &params(uri, ""), SCOPE);
            assert!(resp.is_error() && !resp.is_input_required(), "{uri}");
            masked(&resp, uri)
        })
        .collect();
    assert_eq!(
        answers[0],
        r#"{"code":-32602,"message":"Resource not found","data":{"uri":"<uri>"}}"#
    );
    assert!(answers.iter().all(|a| a == &answers[0]), "{answers:?}");
    // On an older revision too (no input-required error for them either).
    let old: Vec<String> = [HIDDEN, INVISIBLE, UNREGISTERED]
        .iter()
        .map(|uri| {
            let p = format!(r#"{{"uri":"{uri}","_meta":{{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}}"#);
            masked(&read(&h.resources, &p, SCOPE), uri)
        })
        .collect();
    assert!(
        old.iter().all(|a| a == &old[0] && a.contains("-32002")),
        "{old:?}"
    );
    // Nor when the client lacks every capability: not found, not -32021.
    for uri in [HIDDEN, INVISIBLE, UNREGISTERED] {
        let p = format!(
            r#"{{"uri":"{uri}","_meta":{{"io.modelcontextprotocol/clientCapabilities":{{}}}}}}"#
        );
        assert_eq!(masked(&read(&h.resources, &p, SCOPE), uri), answers[0]);
    }
}

#[test]
fn a_forged_request_state_is_the_same_refusal_for_every_uri() {
    let h = host();
    let real = state_of(&read(&h.resources, &params(CONSENT, ""), SCOPE));
    for forged in [
        "forged",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        real.as_str(),
    ] {
        let answers: Vec<String> = [CONSENT, PLAIN, HIDDEN, INVISIBLE, UNREGISTERED, "not a uri"]
            .iter()
            .filter(|uri| !(forged == real && **uri == CONSENT))
            .map(|uri| read(&h.resources, &params(uri, &retry(forged, ACCEPT)), SCOPE).into_json())
            .collect();
        for a in &answers {
            assert_eq!(a, r#"{"code":-32602,"message":"Invalid request state"}"#);
        }
    }
}

#[test]
fn a_genuine_state_for_a_target_hidden_since_is_not_found() {
    let h = host();
    let state = state_of(&read(&h.resources, &params(CONSENT, ""), SCOPE));
    h.hide.lock().unwrap().push(CONSENT.to_string());
    let resp = read(
        &h.resources,
        &params(CONSENT, &retry(&state, ACCEPT)),
        SCOPE,
    );
    let unregistered = read(&h.resources, &params(UNREGISTERED, ""), SCOPE);
    assert_eq!(masked(&resp, CONSENT), masked(&unregistered, UNREGISTERED));
}

/// A template whose completer asks for input, a policy whose discover asks
/// for one definition.
struct Asking;

impl ResourcePolicy for Asking {
    fn discover(&self, _: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        if d.uri_or_template().contains("asks") {
            return Err(CallbackError::input_required(InputRequired::new(
                InputRequests::new(),
            )));
        }
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::DISCLOSED)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

struct AskingCompleter;

impl ResourceCompleter for AskingCompleter {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        _: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        Err(CallbackError::input_required(InputRequired::new(
            InputRequests::new()
                .with("k", InputRequest::roots())
                .unwrap(),
        )))
    }
}

#[test]
fn listing_and_completion_callbacks_that_ask_answer_a_denial() {
    let reader = Arc::new(AskingReader {
        log: Log::default(),
    });
    let r = Resources::builder()
        .policy(in_form(Arc::new(Asking)))
        .binding(
            ResourceBinding::new(r#"{"uri":"doc://asks/x","name":"x"}"#, reader.clone()).unwrap(),
        )
        .binding(
            ResourceBinding::new(r#"{"uri":"doc://shown","name":"s"}"#, reader.clone()).unwrap(),
        )
        .binding(
            ResourceBinding::new(
                r#"{"uriTemplate":"doc://asks/{v}","name":"t"}"#,
                reader.clone(),
            )
            .unwrap()
            .with_completer(Arc::new(AskingCompleter)),
        )
        .binding(
            ResourceBinding::new(r#"{"uriTemplate":"doc://t/{v}","name":"u"}"#, reader)
                .unwrap()
                .with_completer(Arc::new(AskingCompleter)),
        )
        .build()
        .unwrap();
    let o = request_options(SCOPE);
    let list = r.request(b"resources/list", b"", &o).unwrap();
    let v = json(list.json());
    let uris: Vec<&str> = v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["doc://shown"]);
    let templates = json(
        r.request(b"resources/templates/list", b"", &o)
            .unwrap()
            .json(),
    );
    assert_eq!(templates["resourceTemplates"].as_array().unwrap().len(), 1);
    let complete = |template: &str| {
        let p = format!(
            r#"{{"ref":{{"type":"ref/resource","uri":"{template}"}},"argument":{{"name":"v","value":""}}}}"#
        );
        r.request(b"completion/complete", p.as_bytes(), &o).unwrap()
    };
    let unregistered = complete("doc://none/{v}");
    for template in ["doc://asks/{v}", "doc://t/{v}"] {
        let resp = complete(template);
        assert_eq!(
            masked(&resp, template),
            masked(&unregistered, "doc://none/{v}"),
            "{template}"
        );
    }
}

#[test]
fn an_embedding_and_the_read_resource_tool_never_ask_for_input() {
    // A tool result cannot carry an input request: a URI whose read asks
    // (the policy's first check, or a body read) is embedded exactly as a
    // hidden or unregistered one, and the read_resource tool answers it
    // exactly as it answers those.
    let h = host();
    let o = EmbedOptions::default();
    let nothing = h.resources.embed(&[UNREGISTERED], &o).unwrap();
    assert_eq!(nothing.blocks_json(), "[]");
    for uri in [CONSENT, BODY, HIDDEN, INVISIBLE, UNREGISTERED] {
        let e = h.resources.embed(&[uri], &o).unwrap();
        assert_eq!(e.blocks_json(), nothing.blocks_json(), "{uri}");
        assert_eq!(e.call_tool_result(), nothing.call_tool_result(), "{uri}");
        let EmbedOutcome::Failed(f) = &e.outcomes()[0] else {
            panic!("{uri}: {:?}", e.outcomes());
        };
        assert_eq!(f.kind(), FailureKind::Unavailable, "{uri}");
    }
    let tools = RequestOptions {
        resource_tools: true,
        ..request_options(SCOPE)
    };
    let call = |uri: &str| {
        let p = format!(
            r#"{{"name":"read_resource","arguments":{{"uri":"{uri}"}},"_meta":{{"io.modelcontextprotocol/clientCapabilities":{CAPS}}}}}"#
        );
        let resp = h
            .resources
            .request(b"tools/call", p.as_bytes(), &tools)
            .unwrap();
        assert!(!resp.is_input_required(), "{uri}");
        resp.into_json().replace(uri, "<uri>")
    };
    let unregistered = call(UNREGISTERED);
    assert!(!unregistered.contains("input_required"), "{unregistered}");
    for uri in [CONSENT, BODY, HIDDEN, INVISIBLE] {
        assert_eq!(call(uri), unregistered, "{uri}");
    }
}
