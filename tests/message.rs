//! One call per message: `Resources::message` (docs/BEHAVIOUR.md §17), one
//! test per rule, named after it, with bad input as much as good.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mcp_resources::message::{MessageKind, MAX_MESSAGE_BYTES};
use mcp_resources::*;

const SECRET: &str = "secret-4e1d";

/// Hides `doc://hidden` and the template `doc://h/{id}`.
struct Policy;

impl ResourcePolicy for Policy {
    fn discover(&self, _: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        if d.uri_or_template().starts_with("doc://h") {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

/// Reads "body of URI" (a secret for hidden ones), counting reads.
#[derive(Default)]
struct Reader(AtomicUsize);

impl ResourceHandler for Reader {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.0.fetch_add(1, Ordering::SeqCst);
        if t.uri().starts_with("doc://h") {
            return Err(CallbackError::failed(SECRET));
        }
        ResourcePayload::text("text/plain", &format!("body of {}", t.uri()))
            .map_err(CallbackError::failed)
    }
}

/// Offers "alpha", "beta" (and a secret for the hidden template).
struct Completer;

impl ResourceCompleter for Completer {
    fn complete(
        &self,
        _: &CallContext,
        r: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        if r.definition().uri_or_template().starts_with("doc://h") {
            let _ = out.add(SECRET);
        }
        for v in ["alpha", "beta"] {
            let _ = out.add(v);
        }
        Ok(())
    }
}

fn registry() -> (Resources, Arc<Reader>) {
    let reader = Arc::new(Reader::default());
    let mut b = Resources::builder().policy(Arc::new(Policy));
    for def in [
        r#"{"uri":"doc://a","name":"a"}"#,
        r#"{"uri":"doc://b","name":"b"}"#,
        r#"{"uri":"doc://hidden","name":"hidden"}"#,
    ] {
        b.push(ResourceBinding::new(def, reader.clone()).unwrap());
    }
    for def in [
        r#"{"uriTemplate":"doc://t/{id}","name":"t"}"#,
        r#"{"uriTemplate":"doc://h/{id}","name":"h"}"#,
    ] {
        b.push(
            ResourceBinding::new(def, reader.clone())
                .unwrap()
                .with_completer(Arc::new(Completer)),
        );
    }
    (b.build().unwrap(), reader)
}

fn options() -> RequestOptions {
    RequestOptions {
        scope_key: b"tenant".to_vec(),
        page_size: 1,
        call: CallOptions {
            protocol_revision: ProtocolRevision::V2025_11_25,
            ..CallOptions::default()
        },
        ..RequestOptions::default()
    }
}

fn message(r: &Resources, text: &[u8]) -> Reply {
    r.message(text, &options()).expect("a reply")
}

/// A request message with this id, method and raw params text.
fn req(id: &str, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#)
}

const PARSE_ERROR: &str =
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;

fn invalid_request(id: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"message":"Invalid Request"}}}}"#
    )
}

/// The text with a `nextCursor` value blanked (cursors are sealed with a
/// fresh nonce: two pages of the same list differ only there).
fn without_cursor(json: &str) -> String {
    match json.find(r#""nextCursor":""#) {
        None => json.to_string(),
        Some(at) => {
            let start = at + r#""nextCursor":""#.len();
            let end = start + json[start..].find('"').expect("a closed cursor");
            format!("{}{}", &json[..start], &json[end..])
        }
    }
}

#[test]
fn the_id_is_kept_byte_exact() {
    let (r, _) = registry();
    for id in [
        "1",
        "0",
        "-7",
        "12345678901234567890123456789",
        r#""a""#,
        r#""""#,
        r#""a\u0062\n\"é""#,
        "\"\u{1F600}\"",
        r#""\ud83d\ude00""#,
    ] {
        let reply = message(
            &r,
            req(id, "resources/read", r#"{"uri":"doc://a"}"#).as_bytes(),
        );
        assert_eq!(reply.kind(), MessageKind::Request);
        assert!(reply.is_handled() && !reply.is_error());
        assert!(
            reply.json().starts_with(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"contents""#
            )),
            "{id}: {}",
            reply.json()
        );
        assert_eq!(reply.id(), id);
        assert_eq!(reply.method(), "resources/read");
        let v: serde_json::Value = serde_json::from_str(reply.json()).expect("the reply is JSON");
        assert_eq!(v["result"]["contents"][0]["text"], "body of doc://a");
    }
}

#[test]
fn a_request_is_answered_exactly_as_the_one_call_request_answers_its_method_and_params() {
    let (r, _) = registry();
    let ref_t = r#""ref":{"type":"ref/resource","uri":"doc://t/{id}"}"#;
    for (method, params) in [
        ("resources/read", r#"{"uri":"doc://a"}"#.to_string()),
        (
            "resources/read",
            r#" { "uri" : "doc://b" , "x":[1,{"y":null}] } "#.to_string(),
        ),
        ("resources/read", r#"{"uri":"doc://missing"}"#.to_string()),
        (
            "resources/read",
            r#"{"uri":"doc://a","uri":"doc://b"}"#.to_string(),
        ),
        ("resources/read", r#"{"uri":5}"#.to_string()),
        ("resources/read", r#"{}"#.to_string()),
        ("resources/read", r#"[]"#.to_string()),
        ("resources/read", r#""doc://a""#.to_string()),
        ("resources/read", "null".to_string()),
        ("resources/read", r#"{"uri":"doc://\ud800"}"#.to_string()),
        (
            "resources/read",
            "{\"uri\":\"doc://a\",\"x\":\"\u{e9}\"}".to_string(),
        ),
        (
            "resources/read",
            format!(r#"{{"uri":"doc://a","pad":"{}"}}"#, "x".repeat(300 * 1024)),
        ),
        (
            "resources/read",
            r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#
                .to_string(),
        ),
        (
            "resources/read",
            r#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}"#
                .to_string(),
        ),
        ("resources/list", r#"{}"#.to_string()),
        ("resources/list", r#"{"cursor":"forged"}"#.to_string()),
        ("resources/templates/list", r#"{"cursor":5}"#.to_string()),
        (
            "completion/complete",
            format!(r#"{{{ref_t},"argument":{{"name":"id","value":"a"}}}}"#),
        ),
        (
            "completion/complete",
            format!(r#"{{{ref_t},"argument":{{"name":"nope","value":""}}}}"#),
        ),
        (
            "completion/complete",
            format!(
                r#"{{{ref_t},"argument":{{"name":"id","value":""}},"context":{{"arguments":{{"a":"1","a":"2"}}}}}}"#
            ),
        ),
    ] {
        let want = r
            .request(method.as_bytes(), params.as_bytes(), &options())
            .unwrap();
        let reply = message(&r, req("3", method, &params).as_bytes());
        let member = if want.is_error() { "error" } else { "result" };
        let expected = format!(r#"{{"jsonrpc":"2.0","id":3,"{member}":{}}}"#, want.json());
        assert_eq!(
            without_cursor(reply.json()),
            without_cursor(&expected),
            "{method} {:.200}",
            params
        );
        assert_eq!(reply.is_error(), want.is_error());
        assert_eq!(
            reply.failure().map(|f| f.kind()),
            want.failure().map(|f| f.kind())
        );
        assert!(reply.params().is_empty(), "handled: params not kept");
    }
    // Without a params member, exactly as with empty params text.
    let reply = message(&r, br#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#);
    let want = r.request(b"resources/list", b"", &options()).unwrap();
    assert_eq!(
        without_cursor(reply.json()),
        without_cursor(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            want.json()
        ))
    );
}

#[test]
fn params_reach_the_library_raw_never_reserialised() {
    let (r, _) = registry();
    // Invalid UTF-8 inside params is the params parser's -32602 (with the
    // id), not a parse error of the message: the envelope is JSON.
    let mut text =
        br#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"doc://"#.to_vec();
    text.extend_from_slice(b"\xff\"}}");
    let reply = message(&r, &text);
    assert_eq!(
        reply.json(),
        r#"{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"params are not valid JSON"}}"#
    );
    // A repeated member a re-serialising host would have dropped.
    let reply = message(
        &r,
        req(
            "9",
            "resources/read",
            r#"{"uri":"doc://a","uri":"doc://b"}"#,
        )
        .as_bytes(),
    );
    assert!(
        reply.json().contains("params repeat uri"),
        "{}",
        reply.json()
    );
    // Member order and escapes as sent: the URI in data.uri is the one sent.
    let reply = message(
        &r,
        req("9", "resources/read", r#"{"x":1,"uri":"doc://\u00e9"}"#).as_bytes(),
    );
    assert!(
        reply.json().contains(r#""data":{"uri":"doc://é"}"#),
        "{}",
        reply.json()
    );
}

#[test]
fn a_message_that_is_not_json_is_a_parse_error_with_id_null() {
    let (r, reader) = registry();
    let mut cases: Vec<Vec<u8>> = [
        "garbage",
        "\0",
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read""#,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read"} x"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read"}{}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read",}"#,
        r#"{'jsonrpc':'2.0'}"#,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\nb\"}",
        r#"{"jsonrpc":"2.0","id":1,"method":"\x"}"#,
        "\u{feff}{}",
        "\u{c}{}",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    cases.push(format!("{}{}", "[".repeat(10_001), "]".repeat(10_001)).into_bytes());
    cases.push(
        req(
            "1",
            "resources/read",
            &format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
        )
        .into_bytes(),
    );
    for text in cases {
        let reply = message(&r, &text);
        assert_eq!(
            reply.json(),
            PARSE_ERROR,
            "{:.40?}",
            String::from_utf8_lossy(&text)
        );
        assert_eq!(reply.kind(), MessageKind::Invalid);
        assert!(reply.is_handled() && reply.is_error() && reply.id().is_empty());
        assert_eq!(reply.failure().unwrap().kind(), FailureKind::InvalidRequest);
    }
    assert_eq!(reader.0.load(Ordering::SeqCst), 0);
    // 1,000 levels is JSON (and a batch): -32600.
    let deep = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
    assert_eq!(message(&r, deep.as_bytes()).json(), invalid_request("null"));
}

#[test]
fn json_that_is_no_json_rpc_message_is_an_invalid_request() {
    let (r, reader) = registry();
    let read = r#""method":"resources/read","params":{"uri":"doc://a"}"#;
    for (text, id) in [
        // A batch (refused whole) and other values.
        (
            format!("[{}]", req("1", "resources/read", r#"{"uri":"doc://a"}"#)),
            "null",
        ),
        ("[]".into(), "null"),
        ("42".into(), "null"),
        (r#""resources/read""#.into(), "null"),
        ("null".into(), "null"),
        // Repeated JSON-RPC members: which one would count is not defined.
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,"id":2,{read}}}"#),
            "null",
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,{read}}}"#),
            "null",
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,{read},"method":"tools/list"}}"#),
            "null",
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,{read},"params":{{}}}}"#),
            "null",
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","\u0069d":1,"id":1,{read}}}"#),
            "null",
        ),
        // Ids MCP does not allow.
        (format!(r#"{{"jsonrpc":"2.0","id":null,{read}}}"#), "null"),
        (format!(r#"{{"jsonrpc":"2.0","id":true,{read}}}"#), "null"),
        (format!(r#"{{"jsonrpc":"2.0","id":1.5,{read}}}"#), "null"),
        (format!(r#"{{"jsonrpc":"2.0","id":1e2,{read}}}"#), "null"),
        (format!(r#"{{"jsonrpc":"2.0","id":1.0,{read}}}"#), "null"),
        (format!(r#"{{"jsonrpc":"2.0","id":[1],{read}}}"#), "null"),
        (format!(r#"{{"jsonrpc":"2.0","id":{{}},{read}}}"#), "null"),
        (
            format!(r#"{{"jsonrpc":"2.0","id":"\ud800",{read}}}"#),
            "null",
        ),
        // The envelope itself, with the id when it is valid.
        (format!(r#"{{"id":1,{read}}}"#), "1"),
        (format!(r#"{{"jsonrpc":"1.0","id":"x",{read}}}"#), r#""x""#),
        (format!(r#"{{"jsonrpc":2.0,"id":1,{read}}}"#), "1"),
        (format!(r#"{{"jsonrpc":null,"id":1,{read}}}"#), "1"),
        (r#"{"jsonrpc":"2.0","id":1,"method":5}"#.into(), "1"),
        (r#"{"jsonrpc":"2.0","id":1,"method":null}"#.into(), "1"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#.into(), "1"),
        (r#"{"jsonrpc":"2.0","id":1}"#.into(), "1"),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{}}"#.into(),
            "1",
        ),
        (r#"{"jsonrpc":"2.0","result":{}}"#.into(), "null"),
        (r#"{}"#.into(), "null"),
    ] {
        let reply = message(&r, text.as_bytes());
        assert_eq!(reply.json(), invalid_request(id), "{text:.80}");
        assert_eq!(reply.kind(), MessageKind::Invalid, "{text:.80}");
        assert!(reply.is_handled() && reply.is_error());
        assert_eq!(reply.id(), if id == "null" { "" } else { id });
    }
    // Longer than 16 MiB: refused unread.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","pad":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    assert_eq!(message(&r, huge.as_bytes()).json(), invalid_request("null"));
    assert_eq!(
        reader.0.load(Ordering::SeqCst),
        0,
        "no invalid message was served"
    );
}

#[test]
fn an_unhandled_method_is_handed_to_the_host_with_its_method_raw_id_and_raw_params() {
    let (r, _) = registry();
    for (method, id, params) in [
        (
            "initialize",
            "1",
            r#"{"protocolVersion":"2025-11-25","capabilities":{}}"#,
        ),
        ("tools/list", r#""t-\u0031""#, r#"{ "cursor" : "x" }"#),
        ("ping", "0", ""),
        ("resources/Read", "2", r#"{"uri":"doc://a"}"#),
        (
            "completion/complete",
            "3",
            r#"{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"wo"}}"#,
        ),
    ] {
        let text = if params.is_empty() {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
        } else {
            req(id, method, params)
        };
        let reply = message(&r, text.as_bytes());
        assert_eq!(reply.kind(), MessageKind::Request);
        assert!(!reply.is_handled(), "{method}");
        assert_eq!(reply.json(), "", "nothing to send: the host answers");
        assert_eq!((reply.method(), reply.id()), (method, id));
        assert_eq!(reply.params(), params.as_bytes());
        assert!(reply.failure().is_none() && !reply.is_error());
    }
    // An escaped method name is the name it decodes to.
    let reply = message(&r, br#"{"jsonrpc":"2.0","id":1,"method":"tools\/list"}"#);
    assert_eq!(reply.method(), "tools/list");
    let reply = message(
        &r,
        br#"{"jsonrpc":"2.0","id":1,"method":"resources\/read","params":{"uri":"doc://a"}}"#,
    );
    assert!(reply.is_handled() && reply.json().contains("body of doc://a"));
}

#[test]
fn notifications_are_never_answered() {
    let (r, reader) = registry();
    // A method the library serves, without an id: ignored, nothing runs.
    for text in [
        r#"{"jsonrpc":"2.0","method":"resources/read","params":{"uri":"doc://a"}}"#,
        r#"{"jsonrpc":"2.0","method":"resources/list"}"#,
        r#"{"jsonrpc":"2.0","method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"doc://t/{id}"},"argument":{"name":"id","value":""}}}"#,
        r#"{"jsonrpc":"2.0","method":"resources/read","params":"not an object"}"#,
    ] {
        let reply = message(&r, text.as_bytes());
        assert_eq!(reply.kind(), MessageKind::Notification);
        assert!(reply.is_handled());
        assert_eq!(reply.json(), "");
        assert!(reply.id().is_empty() && reply.failure().is_none());
    }
    assert_eq!(reader.0.load(Ordering::SeqCst), 0);
    // Any other: handed to the host, with its params, still unanswered.
    let text = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"x"}}"#;
    let reply = message(&r, text);
    assert_eq!(reply.kind(), MessageKind::Notification);
    assert!(!reply.is_handled());
    assert_eq!(
        (reply.json(), reply.method(), reply.id()),
        ("", "notifications/cancelled", "")
    );
    assert_eq!(reply.params(), br#"{"requestId":7,"reason":"x"}"#);
    let reply = message(
        &r,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert!(!reply.is_handled() && reply.params().is_empty());
}

#[test]
fn a_response_from_the_client_is_handed_to_the_host() {
    let (r, _) = registry();
    for (text, id) in [
        (r#"{"jsonrpc":"2.0","id":4,"result":{"roots":[]}}"#, "4"),
        (
            r#"{"jsonrpc":"2.0","id":"s-1","error":{"code":-1,"message":"no"}}"#,
            r#""s-1""#,
        ),
    ] {
        let reply = message(&r, text.as_bytes());
        assert_eq!(reply.kind(), MessageKind::Response);
        assert!(!reply.is_handled());
        assert_eq!((reply.json(), reply.method(), reply.id()), ("", "", id));
    }
}

#[test]
fn a_blank_message_is_ignored() {
    let (r, _) = registry();
    for text in ["", " ", "\r\n", "\t \n"] {
        let reply = message(&r, text.as_bytes());
        assert_eq!(reply.kind(), MessageKind::Blank);
        assert!(reply.is_handled() && reply.json().is_empty() && reply.failure().is_none());
    }
}

#[test]
fn a_cancelled_request_gets_no_response() {
    let (r, _) = registry();
    let cancel = CancelToken::new();
    cancel.cancel();
    let mut o = options();
    o.call.cancel = Some(cancel);
    let reply = r
        .message(
            req("5", "resources/read", r#"{"uri":"doc://a"}"#).as_bytes(),
            &o,
        )
        .unwrap();
    assert_eq!(reply.kind(), MessageKind::Request);
    assert!(reply.is_handled());
    assert_eq!(reply.json(), "", "MCP: no response to a cancelled request");
    assert_eq!(reply.failure().unwrap().kind(), FailureKind::Canceled);
    assert_eq!(reply.id(), "5");
}

#[test]
fn a_list_without_a_scope_key_is_the_hosts_error_not_the_clients() {
    let (r, _) = registry();
    let o = RequestOptions::default();
    assert!(matches!(
        r.message(req("1", "resources/list", "{}").as_bytes(), &o),
        Err(RequestError::InvalidArgument(_))
    ));
    // A read needs none.
    assert!(r
        .message(
            req("1", "resources/read", r#"{"uri":"doc://a"}"#).as_bytes(),
            &o
        )
        .unwrap()
        .json()
        .contains("body of doc://a"));
}

#[test]
fn hidden_and_unregistered_answer_the_same_bytes_and_no_secret() {
    let (r, _) = registry();
    let pairs = [
        (
            req("1", "resources/read", r#"{"uri":"doc://hidden"}"#),
            req("1", "resources/read", r#"{"uri":"doc://absent"}"#),
        ),
        (
            req(
                "1",
                "completion/complete",
                r#"{"ref":{"type":"ref/resource","uri":"doc://h/{id}"},"argument":{"name":"id","value":""}}"#,
            ),
            req(
                "1",
                "completion/complete",
                r#"{"ref":{"type":"ref/resource","uri":"doc://x/{id}"},"argument":{"name":"id","value":""}}"#,
            ),
        ),
        (
            req(
                "1",
                "completion/complete",
                r#"{"ref":{"type":"ref/resource","uri":"doc://h/{id}"},"argument":{"name":"nope","value":""}}"#,
            ),
            req(
                "1",
                "completion/complete",
                r#"{"ref":{"type":"ref/resource","uri":"doc://x/{id}"},"argument":{"name":"nope","value":""}}"#,
            ),
        ),
    ];
    for (hidden, absent) in pairs {
        let h = message(&r, hidden.as_bytes());
        let a = message(&r, absent.as_bytes());
        assert!(!h.json().contains(SECRET));
        assert_eq!(
            h.json()
                .replace("doc://hidden", "doc://absent")
                .replace("doc://h/{id}", "doc://x/{id}"),
            a.json()
        );
        assert_eq!(h.failure().unwrap().kind(), a.failure().unwrap().kind());
    }
}
