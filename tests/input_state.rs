//! docs/BEHAVIOUR.md §18: the sealed `requestState` of an input-required
//! read. A state that was tampered with, expired, or presented by another
//! scope, for another URI, to another registry or with other params is a
//! `-32602` refusal, never a fresh start (as the cursor tests hold cursors).

mod input_support;

use input_support::*;
use mcp_resources::*;

const INVALID: &str = r#"{"code":-32602,"message":"Invalid request state"}"#;
const EXPIRED: &str = r#"{"code":-32602,"message":"Request state expired"}"#;

fn consent_state(h: &Host) -> String {
    state_of(&read(&h.resources, &params(CONSENT, ""), SCOPE))
}

/// Asserts the refusal, and that the read did not start over (no callback
/// ran).
fn refused(h: &Host, params: &str, scope: &[u8], want: &str) {
    h.log.lock().unwrap().clear();
    let resp = read(&h.resources, params, scope);
    assert_eq!(resp.json(), want, "{params}");
    assert_eq!(resp.failure().unwrap().kind(), FailureKind::InvalidRequest);
    assert!(
        h.log.lock().unwrap().is_empty(),
        "a refused state starts nothing"
    );
}

fn accepted(h: &Host, uri: &str, state: &str, scope: &[u8]) {
    let resp = read(&h.resources, &params(uri, &retry(state, ACCEPT)), scope);
    assert!(
        !resp.is_error() && !resp.is_input_required(),
        "{}",
        resp.json()
    );
}

#[test]
fn a_genuine_request_state_is_accepted() {
    let h = host();
    accepted(&h, CONSENT, &consent_state(&h), SCOPE);
}

#[test]
fn a_tampered_request_state_is_refused() {
    let h = host();
    let state = consent_state(&h);
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for i in 0..state.len() {
        let mut bytes = state.clone().into_bytes();
        let at = alphabet.iter().position(|&c| c == bytes[i]).unwrap();
        bytes[i] = alphabet[(at + 1) % alphabet.len()];
        let tampered = String::from_utf8(bytes).unwrap();
        let resp = read(
            &h.resources,
            &params(CONSENT, &retry(&tampered, ACCEPT)),
            SCOPE,
        );
        assert_eq!(resp.json(), INVALID, "character {i}");
    }
    // Truncated, extended, not base64url, empty.
    for bad in [
        &state[..state.len() - 1],
        &format!("{state}A"),
        &state.replace(|c: char| c.is_ascii_digit(), "+"),
        "",
        "forged",
    ] {
        refused(&h, &params(CONSENT, &retry(bad, ACCEPT)), SCOPE, INVALID);
    }
}

#[test]
fn an_expired_request_state_is_refused() {
    let h = host();
    let issued = h.clock.load(std::sync::atomic::Ordering::SeqCst);
    let state = consent_state(&h);
    h.clock.store(
        issued + 10 * 60 * 1000 - 1,
        std::sync::atomic::Ordering::SeqCst,
    );
    accepted(&h, CONSENT, &state, SCOPE);
    h.clock
        .store(issued + 10 * 60 * 1000, std::sync::atomic::Ordering::SeqCst);
    refused(&h, &params(CONSENT, &retry(&state, ACCEPT)), SCOPE, EXPIRED);
}

#[test]
fn a_request_state_from_the_future_is_refused() {
    let h = host();
    let issued = h.clock.load(std::sync::atomic::Ordering::SeqCst);
    let state = consent_state(&h);
    h.clock
        .store(issued - 60 * 1000, std::sync::atomic::Ordering::SeqCst);
    accepted(&h, CONSENT, &state, SCOPE);
    h.clock
        .store(issued - 60 * 1000 - 1, std::sync::atomic::Ordering::SeqCst);
    refused(&h, &params(CONSENT, &retry(&state, ACCEPT)), SCOPE, INVALID);
}

#[test]
fn a_request_state_of_another_scope_is_refused() {
    let h = host();
    let state = consent_state(&h);
    for other in [
        &b"principal:bob"[..],
        b"principal:alic",
        b"principal:alice ",
    ] {
        refused(&h, &params(CONSENT, &retry(&state, ACCEPT)), other, INVALID);
    }
}

#[test]
fn a_request_state_for_another_uri_is_refused() {
    let h = host();
    let state = consent_state(&h);
    for other in [PLAIN, BODY, "doc://consenT", HIDDEN, UNREGISTERED] {
        refused(&h, &params(other, &retry(&state, ACCEPT)), SCOPE, INVALID);
    }
}

#[test]
fn a_request_state_presented_to_another_registry_is_refused() {
    let h = host();
    let state = consent_state(&h);
    // Other content, the same key.
    let other = host_with(KEY, &["doc://extra"], false);
    refused(
        &other,
        &params(CONSENT, &retry(&state, ACCEPT)),
        SCOPE,
        INVALID,
    );
    // The same content, another key.
    let other = host_with(b"another-cursor-key-of-32-bytes-or-more!!", &[], false);
    refused(
        &other,
        &params(CONSENT, &retry(&state, ACCEPT)),
        SCOPE,
        INVALID,
    );
    // A replica: the same content and key.
    let replica = host();
    accepted(&replica, CONSENT, &state, SCOPE);
}

#[test]
fn a_request_state_with_other_params_is_refused() {
    let h = host();
    let with = |extra: &str, retry_members: &str| {
        format!(
            r#"{{"uri":"{CONSENT}"{extra}{retry_members},"_meta":{{"io.modelcontextprotocol/clientCapabilities":{CAPS}}}}}"#
        )
    };
    let state = state_of(&read(
        &h.resources,
        &with(r#","x":{"b":1,"a":[1,2]}"#, ""),
        SCOPE,
    ));
    // Without the member, or with another value: refused.
    for extra in [
        "",
        r#","x":{"b":1,"a":[2,1]}"#,
        r#","x":{"b":1,"a":[1,2]},"y":0"#,
    ] {
        refused(&h, &with(extra, &retry(&state, ACCEPT)), SCOPE, INVALID);
    }
    // The same params, keys in another order and another _meta (a fresh
    // progress token): accepted.
    let same = format!(
        r#"{{"requestState":"{state}","x":{{"a":[1,2],"b":1}},"inputResponses":{ACCEPT},"uri":"{CONSENT}","_meta":{{"progressToken":9,"io.modelcontextprotocol/clientCapabilities":{CAPS}}}}}"#
    );
    let resp = read(&h.resources, &same, SCOPE);
    assert!(
        !resp.is_error() && !resp.is_input_required(),
        "{}",
        resp.json()
    );
}

#[test]
fn a_list_cursor_is_no_request_state() {
    let h = host();
    let page = h
        .resources
        .request(
            b"resources/list",
            b"",
            &RequestOptions {
                scope_key: SCOPE.to_vec(),
                page_size: 1,
                ..RequestOptions::default()
            },
        )
        .unwrap();
    let cursor = json(page.json())["nextCursor"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", page.json()))
        .to_string();
    refused(
        &h,
        &params(CONSENT, &retry(&cursor, ACCEPT)),
        SCOPE,
        INVALID,
    );
}

#[test]
fn an_oversized_request_state_is_refused_unread() {
    let h = host();
    let long = "A".repeat(8 * 1024 + 1);
    refused(&h, &params(CONSENT, &retry(&long, ACCEPT)), SCOPE, INVALID);
}

#[test]
fn input_responses_without_request_state_are_refused() {
    let h = host();
    refused(
        &h,
        &params(CONSENT, &format!(r#","inputResponses":{ACCEPT}"#)),
        SCOPE,
        r#"{"code":-32602,"message":"Invalid params: inputResponses without requestState"}"#,
    );
}

#[test]
fn malformed_input_responses_are_refused() {
    let h = host();
    let state = consent_state(&h);
    for responses in [
        r#"{"consent":{"action":"maybe"}}"#,
        r#"{"consent":{"content":{"confirm":true}}}"#,
        r#"{"consent":"accept"}"#,
        r#"{"consent":{"action":"accept","content":{"confirm":{"nested":true}}}}"#,
        r#"{"consent":{"action":"accept","content":[true]}}"#,
        r#"{"consent":{"action":"accept"},"consent":{"action":"decline"}}"#,
        r#"{"consent":{"action":"accept","action":"decline"}}"#,
    ] {
        refused(
            &h,
            &params(CONSENT, &retry(&state, responses)),
            SCOPE,
            r#"{"code":-32602,"message":"Invalid input responses"}"#,
        );
    }
    // Of the wrong kind: a sampling answer to an elicitation.
    refused(
        &h,
        &params(CONSENT, &retry(&state, r#"{"consent":{"roots":[]}}"#)),
        SCOPE,
        r#"{"code":-32602,"message":"Invalid input responses"}"#,
    );
    // Not an object at all: the params reader's refusal.
    let resp = read(
        &h.resources,
        &params(
            CONSENT,
            &format!(r#","requestState":"{state}","inputResponses":[]"#),
        ),
        SCOPE,
    );
    assert_eq!(
        resp.json(),
        r#"{"code":-32602,"message":"params inputResponses must be an object"}"#
    );
}

#[test]
fn responses_to_keys_never_asked_are_ignored() {
    let h = host();
    let state = consent_state(&h);
    let responses = r#"{"consent":{"action":"accept","content":{"confirm":true}},"extra":{"anything":[1,2,3]},"other":"not even an object"}"#;
    h.log.lock().unwrap().clear();
    let resp = read(
        &h.resources,
        &params(CONSENT, &retry(&state, responses)),
        SCOPE,
    );
    assert!(
        !resp.is_error() && !resp.is_input_required(),
        "{}",
        resp.json()
    );
    let log = h.log.lock().unwrap();
    let input = log[0].input.as_ref().unwrap();
    assert!(input.get("extra").is_none() && input.get("other").is_none());
    assert_eq!(input.asked().count(), 1);
}

#[test]
fn request_states_are_never_reused_nor_readable() {
    let h = host();
    let a = consent_state(&h);
    let b = consent_state(&h);
    assert_ne!(a, b, "a fresh nonce per state");
    // Nothing of what it binds appears in it.
    for leak in ["consent", "alice", "doc:", "resources"] {
        assert!(!a.contains(leak));
    }
}
