//! Call events of the resource tools, embeddings and messages
//! (docs/BEHAVIOUR.md §19): each `tools/call` of a resource tool (through
//! the request function, a message or `call_resource_tool`), each
//! embedding and each served request in a message gives exactly one call
//! event with its outcome, refusals before the frame included; and where
//! the client cannot tell a hidden, undiscoverable, unregistered, denied or
//! invalid URI apart (the tools' results, an embedding's blocks), no public
//! byte of any event can either.

mod observe_support;
mod read_support;

use std::sync::Arc;

use mcp_resources::*;
use observe_support::*;
use read_support::*;

const KEY: &[u8] = b"one event key for the whole fleet";

fn everything() -> Interests {
    Interests {
        decisions: true,
        callback_timings: true,
    }
}

fn tool_options(call: CallOptions) -> RequestOptions {
    RequestOptions {
        scope_key: b"tenant".to_vec(),
        resource_tools: true,
        call,
        ..RequestOptions::default()
    }
}

fn read_tool(uri: &str) -> String {
    serde_json::json!({"name":"read_resource","arguments":{"uri":uri}}).to_string()
}

fn message(method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":7,"method":"{method}","params":{params}}}"#)
}

/// Runs `f` and returns the call events it caused.
fn calls_of(keep: &Keep, f: impl FnOnce()) -> Vec<Event> {
    keep.take();
    f();
    keep.calls()
}

fn one(keep: &Keep, f: impl FnOnce()) -> Event {
    let calls = calls_of(keep, f);
    assert_eq!(calls.len(), 1, "{calls:?}");
    calls.into_iter().next().unwrap()
}

#[test]
fn every_resource_tool_call_embedding_and_message_emits_exactly_one_call_event() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::new(Interests::default());
    let r = build_observed(&fx, keep.clone());
    let o = tool_options(CallOptions::default());
    let tool = |params: &str| {
        let resp = r.request(b"tools/call", params.as_bytes(), &o).unwrap();
        assert!(!resp.is_error(), "{}", resp.json());
    };
    let cases: [(&str, Option<FailureKind>); 6] = [
        (&read_tool(BUNDLE), None),
        (&read_tool("nothing://x"), Some(FailureKind::Unavailable)),
        // The input schema refuses these arguments: before the frame.
        (
            r#"{"name":"read_resource","arguments":{"uri":7}}"#,
            Some(FailureKind::InvalidRequest),
        ),
        (r#"{"name":"list_resources"}"#, None),
        (
            r#"{"name":"list_resources","arguments":{"cursor":"t"}}"#,
            None,
        ),
        (
            r#"{"name":"list_resources","arguments":{"cursor":"x"}}"#,
            Some(FailureKind::InvalidRequest),
        ),
    ];
    for (params, want) in cases {
        let e = one(&keep, || tool(params));
        assert_eq!(
            (e.method, e.failure),
            (CallMethod::ToolsCall, want),
            "{params}"
        );
        // The same through the public entry point of the tools.
        let e = one(&keep, || {
            r.call_resource_tool(params.as_bytes(), &o).unwrap();
        });
        assert_eq!(
            (e.method, e.failure),
            (CallMethod::ToolsCall, want),
            "{params}"
        );
    }
    // Params the strict reader refuses are a protocol error, one event.
    let e = one(&keep, || {
        let resp = r.request(b"tools/call", br#"{"name":7}"#, &o).unwrap();
        assert!(resp.is_error());
    });
    assert_eq!(
        (e.method, e.failure),
        (CallMethod::ToolsCall, Some(FailureKind::InvalidRequest))
    );
    // A host mistake (list_resources without a scope key): one event.
    let no_key = RequestOptions {
        scope_key: Vec::new(),
        ..o.clone()
    };
    let e = one(&keep, || {
        r.request(b"tools/call", br#"{"name":"list_resources"}"#, &no_key)
            .unwrap_err();
    });
    assert_eq!(e.failure, Some(FailureKind::InvalidArgument));
    // Not this library's tools, or the tools not asked for: no event.
    assert!(calls_of(&keep, || {
        r.request(b"tools/call", br#"{"name":"weather"}"#, &o)
            .unwrap_err();
        let without = RequestOptions {
            resource_tools: false,
            ..o.clone()
        };
        r.request(b"tools/call", read_tool(BUNDLE).as_bytes(), &without)
            .unwrap_err();
    })
    .is_empty());

    // An embedding: one event for all its URIs, partial when one gives no
    // block.
    let e = one(&keep, || {
        let em = r
            .embed(&[BUNDLE, "nothing://x"], &EmbedOptions::default())
            .unwrap();
        assert_eq!(em.block_count(), 1);
    });
    assert_eq!((e.method, e.failure), (CallMethod::Embed, None));
    let s = e.summary.unwrap();
    assert_eq!((s.items, s.partial), (1, true));
    assert_eq!(e.uri, None, "an embedding names no URI");
    let e = one(&keep, || {
        let link = EmbedOptions {
            form: EmbedForm::Link,
            ..EmbedOptions::default()
        };
        r.embed(&[BUNDLE], &link).unwrap();
    });
    assert_eq!(e.method, CallMethod::Embed);
    assert!(!e.summary.unwrap().partial);
    // The link form on a revision without resource_link blocks: a host
    // mistake refused before the frame, one event.
    let e = one(&keep, || {
        let old = EmbedOptions {
            form: EmbedForm::Link,
            call: CallOptions {
                protocol_revision: ProtocolRevision::parse(b"2025-03-26").unwrap(),
                ..CallOptions::default()
            },
            ..EmbedOptions::default()
        };
        r.embed(&[BUNDLE], &old).unwrap_err();
    });
    assert_eq!(
        (e.method, e.failure),
        (CallMethod::Embed, Some(FailureKind::InvalidArgument))
    );
    // Too many URIs: refused before the frame, one event.
    let many = vec![BUNDLE; 10_000];
    let e = one(&keep, || {
        r.embed(&many, &EmbedOptions::default()).unwrap_err();
    });
    assert_eq!(
        (e.method, e.failure),
        (CallMethod::Embed, Some(FailureKind::InvalidRequest))
    );

    // Messages: the served request's one event, and none for the rest.
    let read = format!(r#"{{"uri":"{BUNDLE}"}}"#);
    let e = one(&keep, || {
        r.message(message("resources/read", &read).as_bytes(), &o)
            .unwrap();
    });
    assert_eq!((e.method, e.failure), (CallMethod::ResourcesRead, None));
    let e = one(&keep, || {
        r.message(message("tools/call", &read_tool(BUNDLE)).as_bytes(), &o)
            .unwrap();
    });
    assert_eq!((e.method, e.failure), (CallMethod::ToolsCall, None));
    assert!(calls_of(&keep, || {
        let notification =
            format!(r#"{{"jsonrpc":"2.0","method":"resources/read","params":{read}}}"#);
        for m in [
            notification.as_str(),
            "{not json",
            "[]",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            " ",
        ] {
            r.message(m.as_bytes(), &o).unwrap();
        }
    })
    .is_empty());

    // The metrics count them under their methods.
    assert_eq!(r.metrics(CallMethod::ToolsCall, None).calls, 7);
    assert_eq!(r.metrics(CallMethod::Embed, None).calls, 2);
    assert_eq!(
        r.metrics(CallMethod::Embed, Some(FailureKind::InvalidRequest))
            .calls,
        1
    );
    assert_eq!(
        r.metrics(CallMethod::Embed, Some(FailureKind::InvalidArgument))
            .calls,
        1
    );
}

/// A template URI too long for the `invalid` registry (max_uri_bytes 51).
fn long_uri() -> String {
    format!("bundle://t/{}", "CANARY-7c1e-".repeat(4))
}

/// Registries where `uri` cannot be read in each of the ways the tools'
/// results and an embedding's blocks do not tell apart; `true` when the
/// way also gives no link (its root checks fail).
fn unreadable_ways(uri: &str) -> Vec<(&'static str, Resources, Arc<Keep>, bool)> {
    type Setup = fn(&Fx, &str);
    let ways: [(&str, Setup, bool); 5] = [
        (
            "undiscoverable",
            |fx, _| fx.policy.discover(Perm::Deny, Perm::Deny),
            true,
        ),
        ("hidden", |fx, u| fx.policy.vis(u, HIDDEN, HIDDEN), true),
        (
            "denied",
            |fx, u| fx.policy.perm(u, Perm::Deny, Perm::Deny),
            true,
        ),
        (
            "resolve answers unavailable",
            |fx, _| *fx.handler.resolve.lock().unwrap() = ResolveMode::Unavailable,
            true,
        ),
        (
            "revoked at the recheck",
            |fx, u| fx.policy.perm(u, Perm::Allow, Perm::Deny),
            false,
        ),
    ];
    let mut out = Vec::new();
    for (what, setup, no_link) in ways {
        let fx = Fx::new(&["x://i/0"]);
        setup(&fx, uri);
        let keep = Keep::new(everything());
        let r = builder(&fx)
            .event_key(KEY)
            .observer(keep.clone())
            .build()
            .unwrap();
        out.push((what, r, keep, no_link));
    }
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::new(everything());
    let r = Resources::builder()
        .policy(fx.policy.clone())
        .event_key(KEY)
        .observer(keep.clone())
        .binding(
            ResourceBinding::new(r#"{"uri":"other://x","name":"o"}"#, fx.handler.clone()).unwrap(),
        )
        .build()
        .unwrap();
    out.push(("unregistered", r, keep, true));
    let fx = Fx::new(&["x://i/0"]).limit(Limit::MaxUriBytes, 51);
    let keep = Keep::new(everything());
    let r = builder(&fx)
        .event_key(KEY)
        .observer(keep.clone())
        .build()
        .unwrap();
    out.push(("invalid (too long here)", r, keep, true));
    out
}

#[test]
fn hidden_undiscoverable_unregistered_denied_and_invalid_look_the_same_in_tool_and_embedding_events(
) {
    let uri = long_uri();
    let ex = Executor::new(2).unwrap();
    for call in [CallOptions::default(), with_executor(&ex).call] {
        let o = tool_options(call.clone());
        let mut seen = std::collections::BTreeMap::new();
        let mut links = std::collections::BTreeMap::new();
        for (what, r, keep, no_link) in unreadable_ways(&uri) {
            let mut client = Vec::new();
            let params = read_tool(&uri);
            let resp = r.request(b"tools/call", params.as_bytes(), &o).unwrap();
            client.push(resp.json().to_string());
            let reply = r
                .message(message("tools/call", &params).as_bytes(), &o)
                .unwrap();
            client.push(reply.json().to_string());
            let embed = EmbedOptions {
                call: call.clone(),
                ..EmbedOptions::default()
            };
            let em = r.embed(&[uri.as_str()], &embed).unwrap();
            assert!(
                matches!(em.outcomes()[0], EmbedOutcome::Failed(_)),
                "{what}"
            );
            client.push(em.blocks().next().unwrap_or("").len().to_string());
            let events = keep.take();
            let lines = public_lines(&events);
            // Only the call events are public (every root decision of a
            // call about a URI it cannot find is private), and none names
            // the URI in plain.
            assert_eq!(
                events.iter().filter(|e| e.kind == "call").count(),
                3,
                "{what}: {events:?}"
            );
            assert!(
                lines.iter().all(|l| !l.contains("CANARY")),
                "{what}: {lines:?}"
            );
            let tool_calls = events
                .iter()
                .filter(|e| e.kind == "call" && e.method == CallMethod::ToolsCall);
            for e in tool_calls {
                assert_eq!(e.uri_hash, Some(r.event_hash(uri.as_bytes())), "{what}");
                assert_eq!(e.failure, Some(FailureKind::Unavailable), "{what}");
            }
            seen.entry((client, lines))
                .or_insert_with(Vec::new)
                .push(what);
            if no_link {
                let link = EmbedOptions {
                    form: EmbedForm::Link,
                    ..embed.clone()
                };
                let em = r.embed(&[uri.as_str()], &link).unwrap();
                assert_eq!(em.block_count(), 0, "{what}");
                let lines = public_lines(&keep.take());
                links.entry(lines).or_insert_with(Vec::new).push(what);
            }
        }
        assert_eq!(seen.len(), 1, "{seen:#?}");
        assert_eq!(links.len(), 1, "{links:#?}");
    }
}

#[test]
fn a_tool_read_names_its_uri_in_plain_only_under_the_disclosure_rule() {
    let uri = "bundle://t/plain";
    for (vis, plain) in [(SHOWN, true), (QUIET, false)] {
        let fx = Fx::new(&["x://i/0"]);
        fx.policy.vis(uri, vis, vis);
        let keep = Keep::new(Interests::default());
        let r = build_observed(&fx, keep.clone());
        let o = tool_options(CallOptions::default());
        let e = one(&keep, || {
            r.request(b"tools/call", read_tool(uri).as_bytes(), &o)
                .unwrap();
        });
        assert_eq!(e.failure, None);
        assert_eq!(e.uri.as_deref(), plain.then_some(uri));
        assert_eq!(e.uri_hash, Some(r.event_hash(uri.as_bytes())));
        // An embedding of the same URI names none.
        let e = one(&keep, || {
            r.embed(&[uri], &EmbedOptions::default()).unwrap();
        });
        assert_eq!((e.uri, e.uri_hash), (None, None));
    }
}
