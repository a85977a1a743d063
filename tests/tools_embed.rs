//! Resources embedded in tool results (docs/BEHAVIOUR.md §16): the blocks
//! are exactly what a read gives, nothing for what a read would not give,
//! links from registered descriptions, one budget and one deadline.

mod protocol_support;

use std::sync::atomic::Ordering;
use std::time::Duration;

use mcp_resources::tools::{call_tool_result, EmbedForm, EmbedOptions, EmbedOutcome};
use mcp_resources::*;
use protocol_support::*;

fn host() -> Host {
    let h = Host::new(&[
        "doc://a",
        "doc://b",
        "doc://bundle",
        "doc://partial",
        "doc://blob",
        "doc://hidden",
        "doc://undiscoverable",
        "doc://denied",
        "doc://unresolvable",
        "files://p/{name}",
        "secret://s/{name}",
    ]);
    h.handler
        .plan("doc://bundle", &["doc://bundle/1", "doc://bundle/2"]);
    h.handler
        .plan("doc://partial", &["doc://partial/ok", "doc://partial/bad"]);
    h.handler.body("doc://partial/bad", Body::Fail);
    h.handler.body("doc://blob", Body::Blob(vec![0, 1, 2, 255]));
    h.pol.hide("doc://hidden");
    h.pol.undiscover("doc://undiscoverable");
    h.pol.undiscover("secret://s/{name}");
    h.pol.deny("doc://denied");
    h.handler
        .unresolvable
        .lock()
        .unwrap()
        .insert("doc://unresolvable".into());
    h
}

fn opts(revision: ProtocolRevision) -> EmbedOptions {
    EmbedOptions {
        call: CallOptions {
            protocol_revision: revision,
            ..CallOptions::default()
        },
        ..EmbedOptions::default()
    }
}

/// `opts(LATEST)` with `call` changed.
fn with_call(call: CallOptions) -> EmbedOptions {
    EmbedOptions {
        call,
        ..opts(ProtocolRevision::LATEST)
    }
}

fn links(revision: ProtocolRevision) -> EmbedOptions {
    EmbedOptions {
        form: EmbedForm::Link,
        ..opts(revision)
    }
}

/// The warning item's URI is fresh per read: masked to compare two reads.
fn masked(v: &serde_json::Value) -> serde_json::Value {
    let mut v = v.clone();
    if let Some(uri) = v.get("uri").and_then(|u| u.as_str()) {
        if uri.starts_with("mcp-warning://read/") {
            v["uri"] = "mcp-warning://read/*".into();
        }
    }
    v
}

/// Every URI a read answers as not found or refuses as invalid (the read's
/// root denials included), for the oracle tests.
const NOTHING: &[&str] = &[
    "doc://hidden",
    "doc://undiscoverable",
    "doc://unregistered",
    "doc://denied",
    "doc://unresolvable",
    "secret://s/x",
    "files://p/..",
    "not a uri",
    "",
    "mcp-warning://read/00",
];

#[test]
fn embedding_returns_exactly_what_a_read_would() {
    let r = host().build();
    for revision in ProtocolRevision::ALL {
        for uri in [
            "doc://a",
            "doc://bundle",
            "doc://partial",
            "doc://blob",
            "files://p/x",
        ] {
            let read = r.read(uri.as_bytes(), &read_opts(revision)).unwrap();
            let embedded = r.embed(&[uri], &opts(revision)).unwrap();
            let blocks = json(embedded.blocks_json());
            let contents = json(read.json())["contents"].clone();
            let blocks = blocks.as_array().unwrap();
            assert_eq!(blocks.len(), contents.as_array().unwrap().len(), "{uri}");
            for (block, item) in blocks.iter().zip(contents.as_array().unwrap()) {
                assert_eq!(block["type"], "resource");
                assert_eq!(block.as_object().unwrap().len(), 2, "{block}");
                assert_eq!(masked(&block["resource"]), masked(item), "{uri}");
            }
            // Byte for byte: each application item's JSON is the read's.
            for (b, item) in embedded.blocks().zip(read.items()) {
                if !item.is_warning() {
                    assert_eq!(
                        b,
                        format!("{{\"type\":\"resource\",\"resource\":{}}}", item.json())
                    );
                }
            }
            match &embedded.outcomes()[0] {
                EmbedOutcome::Read {
                    blocks,
                    partial,
                    links,
                } => {
                    assert_eq!(*blocks, read.item_count());
                    assert_eq!(*partial, read.is_partial());
                    assert_eq!(*links, 0);
                }
                o => panic!("{uri}: {o:?}"),
            }
        }
    }
}

#[test]
fn a_partial_read_is_embedded_with_its_warning_first() {
    let r = host().build();
    let e = r
        .embed(&["doc://partial"], &opts(ProtocolRevision::LATEST))
        .unwrap();
    let blocks = json(e.blocks_json());
    let warning = &blocks[0]["resource"];
    assert!(warning["uri"]
        .as_str()
        .unwrap()
        .starts_with("mcp-warning://read/"));
    assert_eq!(warning["mimeType"], "text/plain");
    assert!(warning["text"]
        .as_str()
        .unwrap()
        .starts_with("Incomplete bundle.\n"));
    assert_eq!(blocks[1]["resource"]["uri"], "doc://partial/ok");
    assert_eq!(blocks.as_array().unwrap().len(), 2);
}

#[test]
fn nothing_for_hidden_undiscoverable_unregistered_or_invalid_targets() {
    let r = host().build();
    for revision in ProtocolRevision::ALL {
        for form in [EmbedForm::Resource, EmbedForm::Link] {
            for over_budget_links in [false, true] {
                let o = EmbedOptions {
                    form,
                    over_budget_links,
                    ..opts(revision)
                };
                if form == EmbedForm::Link && !revision.has_tool_output() {
                    // No resource_link before 2025-06-18: the host's
                    // mistake, whatever the URI (BEHAVIOUR §16 rule 13).
                    for uri in NOTHING.iter().chain(&["doc://a"]) {
                        let f = r.embed(&[*uri], &o).unwrap_err();
                        assert_eq!(f.kind(), FailureKind::InvalidArgument, "{uri}");
                    }
                    continue;
                }
                let alone = r.embed(&["doc://a"], &o).unwrap();
                for uri in NOTHING {
                    let e = r.embed(&[*uri], &o).unwrap();
                    assert_eq!(e.blocks_json(), "[]", "{uri}");
                    assert_eq!(e.block_count(), 0);
                    assert!(matches!(e.outcomes()[0], EmbedOutcome::Failed(_)));
                    assert_eq!(
                        e.call_tool_result(),
                        call_tool_result(revision, "[]", None, false)
                    );
                    // Around a visible URI: exactly the visible URI's blocks.
                    let e = r.embed(&[*uri, "doc://a", *uri], &o).unwrap();
                    assert_eq!(e.blocks_json(), alone.blocks_json(), "{uri}");
                    assert!(!e.blocks_json().contains(CANARY));
                }
            }
        }
    }
}

#[test]
fn the_host_learns_why_a_uri_gave_nothing() {
    let r = host().build();
    let e = r
        .embed(
            &["doc://hidden", "not a uri", "files://p/.."],
            &opts(ProtocolRevision::LATEST),
        )
        .unwrap();
    let kinds: Vec<_> = e
        .outcomes()
        .iter()
        .map(|o| match o {
            EmbedOutcome::Failed(f) => f.kind(),
            o => panic!("{o:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            FailureKind::Unavailable,
            FailureKind::InvalidRequest,
            FailureKind::InvalidRequest
        ]
    );
}

#[test]
fn links_are_built_from_registered_descriptions_without_reading() {
    let h = host();
    let r = h.build();
    let e = r
        .embed(
            &["doc://a", "files://p/x%20y"],
            &links(ProtocolRevision::LATEST),
        )
        .unwrap();
    assert_eq!(h.handler.reads.load(Ordering::SeqCst), 0);
    assert_eq!(
        json(e.blocks_json()),
        serde_json::json!([
            {"type":"resource_link","uri":"doc://a","name":"doc___a","mimeType":"text/plain"},
            {"type":"resource_link","uri":"files://p/x%20y","name":"files___p__name_"}
        ])
    );
    assert!(e
        .outcomes()
        .iter()
        .all(|o| matches!(o, EmbedOutcome::Linked)));
}

#[test]
fn links_follow_the_policy_at_the_moment_of_the_call() {
    let h = host();
    let r = h.build();
    let o = links(ProtocolRevision::LATEST);
    assert_eq!(r.embed(&["doc://b"], &o).unwrap().block_count(), 1);
    h.pol.hide("doc://b");
    assert_eq!(r.embed(&["doc://b"], &o).unwrap().blocks_json(), "[]");
}

#[test]
fn a_policy_failure_gives_nothing_and_tells_the_host() {
    let h = host();
    let r = h.build();
    *h.pol.fail.lock().unwrap() = true;
    for o in [
        opts(ProtocolRevision::LATEST),
        links(ProtocolRevision::LATEST),
    ] {
        let e = r.embed(&["doc://a"], &o).unwrap();
        assert_eq!(e.blocks_json(), "[]");
        match &e.outcomes()[0] {
            EmbedOutcome::Failed(f) => assert_eq!(f.kind(), FailureKind::Policy),
            o => panic!("{o:?}"),
        }
    }
}

#[test]
fn the_uris_share_one_reads_item_budget() {
    let h = host().limit(Limit::MaxItems, 3);
    let r = h.build();
    let uris = ["doc://a", "doc://bundle", "doc://b"];
    let e = r.embed(&uris, &opts(ProtocolRevision::LATEST)).unwrap();
    // doc://a (1) + doc://bundle (2) use the three items.
    assert_eq!(e.block_count(), 3);
    match &e.outcomes()[2] {
        EmbedOutcome::Failed(f) => assert_eq!(f.kind(), FailureKind::BudgetExceeded),
        o => panic!("{o:?}"),
    }
    // Asked for: the URI left no budget is a link (its root checks pass).
    let o = EmbedOptions {
        over_budget_links: true,
        ..opts(ProtocolRevision::LATEST)
    };
    let e = r.embed(&uris, &o).unwrap();
    let blocks = json(e.blocks_json());
    assert_eq!(blocks[3]["type"], "resource_link");
    assert_eq!(blocks[3]["uri"], "doc://b");
    assert!(matches!(e.outcomes()[2], EmbedOutcome::Linked));
    // ... but never for a URI a read would not give.
    let e = r
        .embed(&["doc://a", "doc://bundle", "doc://hidden"], &o)
        .unwrap();
    assert_eq!(e.block_count(), 3);
}

#[test]
fn a_later_read_is_admitted_against_what_the_earlier_ones_left() {
    // 40 KiB of payload: the first URI's 30 KiB leave too little for the
    // second's 30 KiB, which is then a budget issue of its own read.
    let h = host()
        .limit(Limit::MaxPayloadBytes, 40 * 1024)
        .limit(Limit::ReportPayloadBytes, 1024);
    h.handler.body("doc://a", Body::Text("x".repeat(30 * 1024)));
    h.handler.body("doc://b", Body::Text("y".repeat(30 * 1024)));
    let r = h.build();
    // Each alone fits.
    assert!(r
        .read(b"doc://b", &read_opts(ProtocolRevision::LATEST))
        .is_ok());
    let e = r
        .embed(&["doc://a", "doc://b"], &opts(ProtocolRevision::LATEST))
        .unwrap();
    assert_eq!(e.block_count(), 1);
    match &e.outcomes()[1] {
        EmbedOutcome::Failed(f) => assert_eq!(f.kind(), FailureKind::BudgetExceeded),
        o => panic!("{o:?}"),
    }
}

#[test]
fn an_over_budget_requested_item_becomes_a_link_when_asked() {
    let h = host().limit(Limit::MaxItemBytes, 16);
    h.handler.body("doc://a", Body::Text("x".repeat(17)));
    let r = h.build();
    let plain = r
        .embed(&["doc://a"], &opts(ProtocolRevision::LATEST))
        .unwrap();
    assert_eq!(plain.blocks_json(), "[]");
    match &plain.outcomes()[0] {
        EmbedOutcome::Failed(f) => assert_eq!(f.kind(), FailureKind::BudgetExceeded),
        o => panic!("{o:?}"),
    }
    let o = EmbedOptions {
        over_budget_links: true,
        ..opts(ProtocolRevision::LATEST)
    };
    // Undisclosed: the requested target's URI is the caller's own.
    h.pol.undisclose("doc://a");
    let e = r.embed(&["doc://a"], &o).unwrap();
    assert_eq!(
        json(e.blocks_json()),
        serde_json::json!([{"type":"resource_link","uri":"doc://a","name":"doc___a","mimeType":"text/plain"}])
    );
    match &e.outcomes()[0] {
        EmbedOutcome::Read {
            blocks,
            partial,
            links,
        } => assert_eq!((*blocks, *partial, *links), (1, false, 1)),
        o => panic!("{o:?}"),
    }
}

#[test]
fn an_over_budget_plan_item_is_a_link_only_when_its_uri_is_disclosed() {
    let h = host().limit(Limit::MaxItemBytes, 64);
    h.handler.plan(
        "doc://b",
        &["doc://b/small", "doc://b/big", "doc://b/quiet"],
    );
    h.handler.body("doc://b/big", Body::Text("x".repeat(65)));
    h.handler.body("doc://b/quiet", Body::Text("y".repeat(65)));
    h.pol.undisclose("doc://b/quiet");
    let r = h.build();
    let o = EmbedOptions {
        over_budget_links: true,
        ..opts(ProtocolRevision::LATEST)
    };
    let e = r.embed(&["doc://b"], &o).unwrap();
    let blocks = json(e.blocks_json());
    // The warning (doc://b/quiet stays a budget issue, unnamed), the
    // admitted item, then the link for the disclosed item.
    let report = blocks[0]["resource"]["text"].as_str().unwrap();
    let report = json(report.strip_prefix("Incomplete bundle.\n").unwrap());
    assert_eq!(report["issues"].as_array().unwrap().len(), 1);
    assert_eq!(report["issues"][0]["code"], "budget_exceeded");
    assert!(report["issues"][0].get("resourceUri").is_none());
    assert_eq!(blocks[1]["resource"]["uri"], "doc://b/small");
    assert_eq!(
        blocks[2],
        serde_json::json!({"type":"resource_link","uri":"doc://b/big","name":"doc://b/big"})
    );
    assert_eq!(blocks.as_array().unwrap().len(), 3);
    // Without the option the read is the plain read.
    let plain = r
        .embed(&["doc://b"], &opts(ProtocolRevision::LATEST))
        .unwrap();
    let read = r
        .read(b"doc://b", &read_opts(ProtocolRevision::LATEST))
        .unwrap();
    assert_eq!(plain.block_count(), read.item_count());
}

#[test]
fn one_deadline_and_one_cancellation_for_the_whole_embedding() {
    let r = host().build();
    let cancel = CancelToken::new();
    cancel.cancel();
    let o = with_call(CallOptions {
        cancel: Some(cancel),
        ..CallOptions::default()
    });
    assert_eq!(
        r.embed(&["doc://a"], &o).unwrap_err().kind(),
        FailureKind::Canceled
    );
    let o = with_call(CallOptions {
        timeout: Some(Duration::ZERO),
        ..CallOptions::default()
    });
    assert_eq!(
        r.embed(&["doc://a"], &o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
    // No URI at all: an empty embedding.
    let none: [&str; 0] = [];
    assert_eq!(
        r.embed(&none, &opts(ProtocolRevision::LATEST))
            .unwrap()
            .blocks_json(),
        "[]"
    );
}

#[test]
fn more_uris_than_a_plan_may_hold_are_refused() {
    let r = host().limit(Limit::MaxPlanTargets, 2).build();
    let f = r
        .embed(
            &["doc://a", "doc://b", "doc://a"],
            &opts(ProtocolRevision::LATEST),
        )
        .unwrap_err();
    assert_eq!(f.kind(), FailureKind::InvalidRequest);
}

#[test]
fn an_executor_embeds_what_the_inline_path_embeds() {
    let r = host().build();
    let executor = Executor::new(2).unwrap();
    for form in [EmbedForm::Resource, EmbedForm::Link] {
        let inline = EmbedOptions {
            form,
            ..opts(ProtocolRevision::LATEST)
        };
        let pooled = EmbedOptions {
            call: CallOptions {
                executor: Some(executor.clone()),
                ..inline.call.clone()
            },
            ..inline.clone()
        };
        let uris = ["doc://a", "doc://hidden", "doc://bundle", "files://p/z"];
        let a = r.embed(&uris, &inline).unwrap();
        let b = r.embed(&uris, &pooled).unwrap();
        assert_eq!(a.blocks_json(), b.blocks_json());
    }
}

#[test]
fn a_whole_call_tool_result_holds_the_blocks() {
    let r = host().build();
    for revision in ProtocolRevision::ALL {
        let e = r.embed(&["doc://a"], &opts(revision)).unwrap();
        let v = json(&e.call_tool_result());
        assert_eq!(v["content"], json(e.blocks_json()));
        assert_eq!(v.get("resultType").is_some(), revision.has_result_fields());
        assert!(v.get("isError").is_none());
        assert_eq!(e.protocol_revision(), revision);
    }
}

#[test]
fn the_blocks_never_exceed_one_reads_encoded_budget() {
    // 64 KiB of result, ten URIs of 10 KiB: the blocks stop within the
    // budget, the later URIs get budget issues of their own reads or none.
    let max = 64 * 1024;
    let h = host().limit(Limit::MaxEncodedBytes, max);
    for i in 0..10 {
        h.handler
            .body(&format!("doc://n/{i}"), Body::Text("z".repeat(10 * 1024)));
    }
    let mut h = h;
    for i in 0..10 {
        h.defs.push((def_json(&format!("doc://n/{i}")), None));
    }
    let r = h.build();
    let uris: Vec<String> = (0..10).map(|i| format!("doc://n/{i}")).collect();
    for over_budget_links in [false, true] {
        let o = EmbedOptions {
            over_budget_links,
            ..opts(ProtocolRevision::LATEST)
        };
        let e = r.embed(&uris, &o).unwrap();
        assert!(
            e.blocks_json().len() as i64 <= max - 8192 - 256,
            "{} bytes",
            e.blocks_json().len()
        );
        let read = e
            .outcomes()
            .iter()
            .filter(|o| matches!(o, EmbedOutcome::Read { links: 0, .. }))
            .count();
        assert!((3..10).contains(&read), "{read} URIs read");
        if over_budget_links {
            // What no longer fits is linked, not lost.
            assert_eq!(e.block_count(), 10, "{:?}", e.outcomes());
        }
    }
}

/// A policy whose `discover` blocks while `hang` is set (to hang workers).
struct Hanging {
    hang: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl ResourcePolicy for Hanging {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        while self.hang.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
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

/// The embedding is one call in one call frame: its executor admission is
/// made once, at its start, and a saturated executor refuses the whole
/// embedding (`read_failed`, "executor saturated") as it refuses a read,
/// in both forms, whatever the URIs; it recovers with the executor.
#[test]
fn an_embedding_is_one_call_refused_at_its_start_by_a_saturated_executor_as_a_read_is() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let hang = Arc::new(AtomicBool::new(true));
    let h = host();
    let r = Resources::builder()
        .policy(Arc::new(Hanging { hang: hang.clone() }))
        .binding(ResourceBinding::new(&def_json("doc://a"), h.handler.clone()).unwrap())
        .build()
        .unwrap();
    let ex = Executor::with_options(ExecutorOptions {
        threads: 1,
        max_hung: 1,
        max_queued: 0,
    })
    .unwrap();
    let call = |ms| CallOptions {
        timeout: Some(Duration::from_millis(ms)),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    };
    // Two blocking discovers hang the worker and its one replacement.
    for _ in 0..2 {
        let f = r
            .read(b"doc://a", &ReadOptions::from(call(50)))
            .unwrap_err();
        assert_eq!(f.kind(), FailureKind::DeadlineExceeded);
    }
    let read = r
        .read(b"doc://a", &ReadOptions::from(call(30_000)))
        .unwrap_err();
    for form in [EmbedForm::Resource, EmbedForm::Link] {
        for uris in [&["doc://a"][..], &["doc://missing", "doc://a"]] {
            let o = EmbedOptions {
                form,
                ..with_call(call(30_000))
            };
            let f = r.embed(uris, &o).unwrap_err();
            assert_eq!(f.kind(), read.kind(), "{form:?} {uris:?}");
            assert_eq!(f.kind(), FailureKind::ReadFailed);
            assert!(
                f.cause_text().contains("executor saturated"),
                "{}",
                f.cause_text()
            );
        }
    }
    hang.store(false, Ordering::SeqCst);
    let start = std::time::Instant::now();
    while ex.stats().hung > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the hung workers return"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let e = r.embed(&["doc://a"], &with_call(call(30_000))).unwrap();
    assert_eq!(e.block_count(), 1);
}
