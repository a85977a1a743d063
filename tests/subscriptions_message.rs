//! The subscription methods through the one-call message
//! (`Resources::message`, docs/BEHAVIOUR.md §15 and §17): a listen is
//! served with the message's own id as its stream id and its reply is the
//! acknowledgement to send as it is; the decision comes with the reply;
//! hidden answers like unregistered there too.

mod subscription_support;

use mcp_resources::*;
use subscription_support::*;

fn msg(id: &str, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#)
}

#[test]
fn a_listen_message_is_acknowledged_with_its_own_id_as_the_stream_id() {
    let fx = fixture();
    fx.policy.hide("t1", "doc://b");
    let mut o = req_opts("t1", NEW);
    // The host's request_id option is for request(); a message has its own.
    o.request_id = Some(b"999".to_vec());
    let text = msg(
        r#""l\u002d1""#,
        "subscriptions/listen",
        r#"{"notifications":{"resourceSubscriptions":["doc://b","doc://a"]}}"#,
    );
    let reply = fx.registry.message(text.as_bytes(), &o).unwrap();
    assert!(reply.is_handled() && reply.is_notification() && !reply.is_error());
    assert_eq!(reply.kind(), MessageKind::Request);
    assert_eq!(
        reply.id(),
        r#""l\u002d1""#,
        "the raw id, for the closing result"
    );
    assert_eq!(
        reply.json(),
        r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"l-1"},"notifications":{"resourceSubscriptions":["doc://a"]}}}"#
    );
    let d = reply.subscription().expect("a decision");
    assert_eq!(d.method(), SubscriptionMethod::Listen);
    assert_eq!(d.uris(), ["doc://a".to_string()]);
    assert_eq!(d.subscription_id().unwrap().json(), r#""l-1""#);
    // The same listen without the host's option: the message's id serves.
    o.request_id = None;
    let again = fx.registry.message(text.as_bytes(), &o).unwrap();
    assert_eq!(again.json(), reply.json());
    // hidden and unregistered leave the acknowledgement alike
    let one = msg(
        "5",
        "subscriptions/listen",
        r#"{"notifications":{"resourceSubscriptions":["doc://b"]}}"#,
    );
    let other = msg(
        "5",
        "subscriptions/listen",
        r#"{"notifications":{"resourceSubscriptions":["doc://none"]}}"#,
    );
    assert_eq!(
        fx.registry.message(one.as_bytes(), &o).unwrap().json(),
        fx.registry.message(other.as_bytes(), &o).unwrap().json()
    );
    assert_eq!(*fx.handler.reads.lock().unwrap(), 0, "no body is read");
}

#[test]
fn a_subscribe_message_is_answered_as_the_one_call_request_answers_it_with_its_decision() {
    let fx = fixture();
    fx.policy.hide("t1", "doc://b");
    let o = req_opts("t1", OLD);
    let ok = fx
        .registry
        .message(
            msg("7", "resources/subscribe", r#"{"uri":"doc://a"}"#).as_bytes(),
            &o,
        )
        .unwrap();
    assert_eq!(ok.json(), r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
    assert!(!ok.is_notification());
    let d = ok.subscription().expect("a decision");
    assert_eq!(d.method(), SubscriptionMethod::Subscribe);
    assert_eq!(d.uris(), ["doc://a".to_string()]);
    let hidden = fx
        .registry
        .message(
            msg("7", "resources/subscribe", r#"{"uri":"doc://b"}"#).as_bytes(),
            &o,
        )
        .unwrap();
    let none = fx
        .registry
        .message(
            msg("7", "resources/subscribe", r#"{"uri":"doc://z"}"#).as_bytes(),
            &o,
        )
        .unwrap();
    assert!(hidden.is_error() && hidden.subscription().is_none());
    assert_eq!(
        hidden.json().replace("doc://b", "URI"),
        none.json().replace("doc://z", "URI")
    );
    let request = fx
        .registry
        .request(b"resources/subscribe", br#"{"uri":"doc://b"}"#, &o)
        .unwrap();
    assert_eq!(
        hidden.json(),
        format!(r#"{{"jsonrpc":"2.0","id":7,"error":{}}}"#, request.json())
    );
    assert_private_free(hidden.json());
}

#[test]
fn subscription_messages_keep_the_message_rules() {
    let fx = fixture();
    let o = req_opts("t1", NEW);
    // A notification of a served method is never answered, never decided.
    let note = r#"{"jsonrpc":"2.0","method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["doc://a"]}}}"#;
    let r = fx.registry.message(note.as_bytes(), &o).unwrap();
    assert!(r.is_handled() && r.json().is_empty() && r.subscription().is_none());
    assert!(!r.is_notification());
    assert_eq!(fx.policy.calls(), 0);
    // An id too long to repeat on every message is the -32600 error, with it.
    let long = format!("\"{}\"", "x".repeat(300));
    let r = fx
        .registry
        .message(
            msg(&long, "subscriptions/listen", r#"{"notifications":{}}"#).as_bytes(),
            &o,
        )
        .unwrap();
    assert!(r.is_error() && !r.is_notification());
    assert_eq!(
        r.json(),
        format!(
            r#"{{"jsonrpc":"2.0","id":{long},"error":{{"code":-32600,"message":"Invalid request id"}}}}"#
        )
    );
    // Bad listen params are the one-call request's -32602, with the id.
    let r = fx
        .registry
        .message(
            msg("3", "subscriptions/listen", r#"{"notifications":[]}"#).as_bytes(),
            &o,
        )
        .unwrap();
    assert_eq!(
        r.json(),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"params notifications must be an object"}}"#
    );
    // Before 2026-07-28 a listen is handed to the host.
    let r = fx
        .registry
        .message(
            msg("4", "subscriptions/listen", r#"{"notifications":{}}"#).as_bytes(),
            &req_opts("t1", OLD),
        )
        .unwrap();
    assert!(!r.is_handled() && r.json().is_empty());
    assert_eq!(r.method(), "subscriptions/listen");
}

#[test]
fn hidden_undiscoverable_revoked_unregistered_and_invalid_answer_alike_through_messages() {
    let fx = fixture();
    fx.policy.hide("t1", "doc://a");
    fx.policy.undiscover("t1", "doc://b");
    fx.policy.revoke("t1", "doc://secret");
    // doc://gone: resolve answers unavailable; doc://none: unregistered.
    let not_honored = [
        "doc://a",
        "doc://b",
        "doc://secret",
        "doc://gone",
        "doc://none",
    ];
    let old = req_opts("t1", OLD);
    let subscribe = |uri: &str| {
        let text = msg("7", "resources/subscribe", &format!(r#"{{"uri":"{uri}"}}"#));
        let reply = fx.registry.message(text.as_bytes(), &old).unwrap();
        assert!(reply.is_error() && reply.subscription().is_none() && !reply.is_notification());
        assert_private_free(reply.json());
        reply.json().replace(uri, "URI")
    };
    let read = |uri: &str, o: &RequestOptions| {
        let text = msg("7", "resources/read", &format!(r#"{{"uri":"{uri}"}}"#));
        fx.registry
            .message(text.as_bytes(), o)
            .unwrap()
            .json()
            .to_string()
    };
    let first = subscribe(not_honored[0]);
    for uri in not_honored {
        assert_eq!(subscribe(uri), first, "{uri}: the same bytes");
    }
    assert_eq!(first, read("doc://none", &old).replace("doc://none", "URI"));
    // An invalid URI: the read's own request error, byte for byte.
    let invalid = "doc://a b";
    let text = msg(
        "7",
        "resources/subscribe",
        &format!(r#"{{"uri":"{invalid}"}}"#),
    );
    let reply = fx.registry.message(text.as_bytes(), &old).unwrap();
    assert!(reply.is_error() && reply.subscription().is_none());
    assert_eq!(reply.json(), read(invalid, &old));
    // 2026-07-28: the acknowledgement of each is the same bytes (nothing
    // honored), and an invalid URI is the read's request error.
    let new = req_opts("t1", NEW);
    let listen = |uris: &str| {
        let text = msg(
            "5",
            "subscriptions/listen",
            &format!(r#"{{"notifications":{{"resourceSubscriptions":[{uris}]}}}}"#),
        );
        fx.registry.message(text.as_bytes(), &new).unwrap()
    };
    let acks: Vec<String> = not_honored
        .iter()
        .map(|u| listen(&format!("\"{u}\"")).json().to_string())
        .collect();
    for (uri, ack) in not_honored.iter().zip(&acks) {
        assert_eq!(ack, &acks[0], "{uri}: the same acknowledgement");
        assert!(!ack.contains(uri));
    }
    let all = not_honored.map(|u| format!("\"{u}\"")).join(",");
    let reply = listen(&all);
    assert_eq!(reply.json(), acks[0], "any mix of them: the same bytes");
    assert_eq!(reply.subscription().unwrap().uris(), [] as [String; 0]);
    let reply = listen(&format!("\"doc://a\",\"{invalid}\""));
    assert!(reply.is_error() && reply.subscription().is_none() && !reply.is_notification());
    let read_error = read(invalid, &new);
    let error_of = |json: &str| json.split_once(r#""error":"#).unwrap().1.to_string();
    assert_eq!(error_of(reply.json()), error_of(&read_error));
    assert_eq!(*fx.handler.reads.lock().unwrap(), 0, "no body is read");
}
