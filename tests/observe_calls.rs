//! Call events and metrics (docs/BEHAVIOUR.md §19): every call of every
//! method, through every entry point, gives exactly one call event with
//! its outcome; what it carries; an observer that panics changes nothing;
//! the observer is released once; metrics count every call without one.

mod observe_support;
mod read_support;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use mcp_resources::*;
use observe_support::*;
use read_support::*;

fn complete_params(template: &str) -> CompleteParams {
    CompleteParams {
        template: template.to_string(),
        argument: "id".to_string(),
        value: String::new(),
        context: Vec::new(),
    }
}

fn request_options(scope: &str) -> RequestOptions {
    RequestOptions {
        scope_key: scope.as_bytes().to_vec(),
        ..RequestOptions::default()
    }
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
fn every_call_kind_emits_exactly_one_call_event_with_its_outcome() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.handler.body("x://i/1", Body::Fail);
    let keep = Keep::new(Interests::default());
    let r = build_observed(&fx, keep.clone());
    let ex = Executor::new(2).unwrap();
    for options in [ReadOptions::default(), with_executor(&ex)] {
        let e = one(&keep, || {
            r.read(BUNDLE.as_bytes(), &options).unwrap();
        });
        assert_eq!(
            (e.method, e.failure),
            (CallMethod::ResourcesRead, None),
            "partial read"
        );
        assert!(e.summary.unwrap().partial);
        let e = one(&keep, || {
            r.read(b"nothing://here", &options).unwrap_err();
        });
        assert_eq!(e.failure, Some(FailureKind::Unavailable));
        let e = one(&keep, || {
            r.read(b"not a uri", &options).unwrap_err();
        });
        assert_eq!(e.failure, Some(FailureKind::InvalidRequest));
        let list = ListOptions {
            call: options.call.clone(),
            ..list_options("tenant")
        };
        let e = one(&keep, || {
            r.list(&list).unwrap();
        });
        assert_eq!((e.method, e.failure), (CallMethod::ResourcesList, None));
        let e = one(&keep, || {
            r.list_templates(&list).unwrap();
        });
        assert_eq!(
            (e.method, e.failure),
            (CallMethod::ResourcesTemplatesList, None)
        );
        let bad_cursor = ListOptions {
            cursor: Some(b"forged".to_vec()),
            ..list.clone()
        };
        let e = one(&keep, || {
            r.list(&bad_cursor).unwrap_err();
        });
        assert_eq!(e.failure, Some(FailureKind::InvalidRequest));
        let no_key = ListOptions {
            scope_key: Vec::new(),
            ..list.clone()
        };
        let e = one(&keep, || {
            r.list(&no_key).unwrap_err();
        });
        assert_eq!(
            (e.method, e.failure),
            (
                CallMethod::ResourcesList,
                Some(FailureKind::InvalidArgument)
            )
        );
        let complete = CompleteOptions {
            call: options.call.clone(),
        };
        let e = one(&keep, || {
            r.complete(&complete_params(TEMPLATE), &complete).unwrap();
        });
        assert_eq!(
            (e.method, e.failure),
            (CallMethod::CompletionComplete, None)
        );
        let e = one(&keep, || {
            r.complete(&complete_params("x://none/{id}"), &complete)
                .unwrap_err();
        });
        assert_eq!(e.failure, Some(FailureKind::Unavailable));
    }
}

#[test]
fn every_request_emits_exactly_one_call_event_and_unserved_ones_none() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::new(Interests::default());
    let r = build_observed(&fx, keep.clone());
    let o = request_options("tenant");
    let cases: [(&str, &str, CallMethod, Option<FailureKind>); 8] = [
        (
            "resources/read",
            r#"{"uri":"bundle://b"}"#,
            CallMethod::ResourcesRead,
            None,
        ),
        (
            "resources/read",
            r#"{"uri":"nothing://x"}"#,
            CallMethod::ResourcesRead,
            Some(FailureKind::Unavailable),
        ),
        // Refused by the strict params reader, before any frame.
        (
            "resources/read",
            r#"{"uri":1}"#,
            CallMethod::ResourcesRead,
            Some(FailureKind::InvalidRequest),
        ),
        (
            "resources/read",
            r#"{"uri":"bundle://b","_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}"#,
            CallMethod::ResourcesRead,
            Some(FailureKind::InvalidRequest),
        ),
        ("resources/list", "", CallMethod::ResourcesList, None),
        (
            "resources/templates/list",
            "{}",
            CallMethod::ResourcesTemplatesList,
            None,
        ),
        (
            "resources/list",
            r#"{"cursor":7}"#,
            CallMethod::ResourcesList,
            Some(FailureKind::InvalidRequest),
        ),
        (
            "completion/complete",
            r#"{"ref":{"type":"ref/resource","uri":"bundle://t/{id}"},"argument":{"name":"id","value":""}}"#,
            CallMethod::CompletionComplete,
            None,
        ),
    ];
    for (method, params, want_method, want) in cases {
        let e = one(&keep, || {
            r.request(method.as_bytes(), params.as_bytes(), &o).unwrap();
        });
        assert_eq!(
            (e.method, e.failure),
            (want_method, want),
            "{method} {params}"
        );
    }
    // A host mistake: no response, one event.
    let e = one(&keep, || {
        r.request(b"resources/list", b"", &RequestOptions::default())
            .unwrap_err();
    });
    assert_eq!(e.failure, Some(FailureKind::InvalidArgument));
    // Not this library's: no event.
    assert!(calls_of(&keep, || {
        r.request(b"tools/list", b"", &o).unwrap_err();
        let prompt =
            r#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}"#;
        r.request(b"completion/complete", prompt.as_bytes(), &o)
            .unwrap_err();
    })
    .is_empty());
}

#[test]
fn a_call_event_carries_revision_sizes_cache_uri_hash_and_request_data() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::new(Interests::default());
    let r = build_observed(&fx, keep.clone());
    let options = ReadOptions {
        call: CallOptions {
            request_data: Some(Arc::new(42u64)),
            protocol_revision: ProtocolRevision::V2025_06_18,
            ..CallOptions::default()
        },
        ..ReadOptions::default()
    };
    let mut json_len = 0;
    let e = one(&keep, || {
        json_len = r.read(BUNDLE.as_bytes(), &options).unwrap().json().len();
    });
    assert_eq!(e.revision, ProtocolRevision::V2025_06_18);
    assert_eq!(e.request_data, Some(42));
    let s = e.summary.unwrap();
    assert_eq!((s.items, s.bytes, s.partial), (1, json_len as u64, false));
    assert_eq!(s.cache, Some(ResultCache::default()));
    // The fixture's policy discloses: the URI in plain, and its hash.
    assert_eq!(e.uri.as_deref(), Some(BUNDLE));
    assert_eq!(e.uri_hash, Some(r.event_hash(BUNDLE.as_bytes())));
    assert!(e.queue_wait.is_none() && e.callbacks.is_none());
    let v: serde_json::Value = serde_json::from_str(e.public.as_deref().unwrap()).unwrap();
    assert_eq!(v["method"], "resources/read");
    assert_eq!(v["protocolRevision"], "2025-06-18");
    assert_eq!(v["outcome"], "ok");
    assert!(v["durationNs"].as_u64().unwrap() > 0);
    assert!(v.get("private").is_none());
    // A listing names its scope key only by its keyed hash.
    let e = one(&keep, || {
        r.list(&list_options("tenant-SCOPE-KEY")).unwrap();
    });
    assert_eq!(e.scope_key_hash, Some(r.event_hash(b"tenant-SCOPE-KEY")));
    assert!(!keep.all_bytes().contains("SCOPE-KEY"));
    // A failure: its safe message and code in public, its cause in private.
    fx.policy.discover(Perm::Fail, Perm::Allow);
    fx.policy.reset();
    let e = one(&keep, || {
        r.read(BUNDLE.as_bytes(), &ReadOptions::default())
            .unwrap_err();
    });
    let v: serde_json::Value = serde_json::from_str(e.public.as_deref().unwrap()).unwrap();
    assert_eq!(v["outcome"], "policy");
    assert_eq!(v["jsonrpcCode"], -32603);
    assert!(!e.public.as_deref().unwrap().contains("PRIVATE-CAUSE"));
    assert!(e.private.contains(SECRET_CAUSE));
    assert!(e.cause.unwrap().contains(SECRET_CAUSE));
}

#[test]
fn queue_wait_is_measured_on_an_executor_and_only_there() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::new(Interests::default());
    let r = build_observed(&fx, keep.clone());
    let ex = Executor::new(1).unwrap();
    let e = one(&keep, || {
        r.read(BUNDLE.as_bytes(), &with_executor(&ex)).unwrap();
    });
    assert!(e.queue_wait.is_some());
    let list = ListOptions {
        call: with_executor(&ex).call,
        ..list_options("t")
    };
    let e = one(&keep, || {
        r.list(&list).unwrap();
    });
    assert!(e.queue_wait.is_some());
    let e = one(&keep, || {
        r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    });
    assert!(e.queue_wait.is_none());
}

#[test]
fn callback_counts_and_times_per_kind_only_when_asked() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    let keep = Keep::new(Interests {
        decisions: false,
        callback_timings: true,
    });
    let r = build_observed(&fx, keep.clone());
    let ex = Executor::new(2).unwrap();
    for options in [ReadOptions::default(), with_executor(&ex)] {
        let e = one(&keep, || {
            r.read(BUNDLE.as_bytes(), &options).unwrap();
        });
        let cb = e.callbacks.expect("timed");
        // discover twice; the requested target and two items, visibility
        // and permission, twice each; one resolve; two body reads.
        assert_eq!(cb.calls(CallbackKind::Discover), 2);
        assert_eq!(cb.calls(CallbackKind::Visibility), 6);
        assert_eq!(cb.calls(CallbackKind::Permission), 6);
        assert_eq!(cb.calls(CallbackKind::Resolve), 1);
        assert_eq!(cb.calls(CallbackKind::BodyRead), 2);
        assert_eq!(cb.calls(CallbackKind::Complete), 0);
        assert!(cb.time(CallbackKind::BodyRead) > Duration::ZERO);
        // Private: only in the private JSON.
        assert!(!e.public.as_deref().unwrap().contains("callbacks"));
        assert!(e.private.contains("\"body_read\":{\"calls\":2"));
    }
    let e = one(&keep, || {
        r.complete(&complete_params(TEMPLATE), &CompleteOptions::default())
            .unwrap();
    });
    assert_eq!(e.callbacks.unwrap().calls(CallbackKind::Discover), 1);
    let e = one(&keep, || {
        r.list(&list_options("t")).unwrap();
    });
    assert_eq!(e.callbacks.unwrap().calls(CallbackKind::Discover), 1);
}

#[test]
fn an_observer_that_panics_changes_no_result() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    fx.handler.body("x://i/1", Body::Fail);
    let plain = builder(&fx).build().unwrap();
    let panicking = Keep::panicking(Interests {
        decisions: true,
        callback_timings: true,
    });
    let observed = build_observed(&fx, panicking.clone());
    let ex = Executor::new(2).unwrap();
    for options in [ReadOptions::default(), with_executor(&ex)] {
        let a = plain.read(BUNDLE.as_bytes(), &options).unwrap();
        let b = observed.read(BUNDLE.as_bytes(), &options).unwrap();
        // Equal but for the warning's random URI.
        assert_eq!(a.report_json(), b.report_json());
        assert_eq!(a.item_count(), b.item_count());
        let a = plain.read(b"x://none", &options).unwrap_err();
        let b = observed.read(b"x://none", &options).unwrap_err();
        assert_eq!((a.kind(), a.message()), (b.kind(), b.message()));
        let list = ListOptions {
            call: options.call.clone(),
            ..list_options("t")
        };
        assert_eq!(
            plain.list(&list).unwrap().json(),
            observed.list(&list).unwrap().json()
        );
        let o = request_options("t");
        assert_eq!(
            plain.request(b"resources/read", b"{}", &o).unwrap().json(),
            observed
                .request(b"resources/read", b"{}", &o)
                .unwrap()
                .json()
        );
    }
    // It was called (and panicked) every time.
    assert!(panicking.calls().len() >= 8);
    assert!(!panicking.decisions_seen().is_empty());

    /// Panics when asked what it wants: read as nothing but call events.
    struct BadInterests;
    impl Observer for BadInterests {
        fn interests(&self) -> Interests {
            panic!("interests")
        }
        fn call(&self, _: &CallEvent<'_>) {}
    }
    let r = builder(&fx)
        .observer(Arc::new(BadInterests))
        .build()
        .unwrap();
    r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
}

#[test]
fn the_observer_is_released_once_when_the_last_registry_reference_goes() {
    let fx = Fx::new(&["x://i/0"]);
    let keep = Keep::decisions();
    let drops = keep.drops.clone();
    let r = Arc::new(build_observed(&fx, keep));
    let ex = Executor::new(2).unwrap();
    r.read(BUNDLE.as_bytes(), &with_executor(&ex)).unwrap();
    let r2 = r.clone();
    drop(r);
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    drop(r2);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    // A builder dropped without building releases it too, once.
    let keep = Keep::decisions();
    let drops = keep.drops.clone();
    drop(builder(&fx).observer(keep));
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn metrics_count_every_call_per_method_and_outcome_without_an_observer() {
    let fx = Fx::new(&["x://i/0", "x://i/1"]);
    let r = builder(&fx).build().unwrap();
    for _ in 0..3 {
        r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    }
    fx.handler.body("x://i/1", Body::Fail);
    r.read(BUNDLE.as_bytes(), &ReadOptions::default()).unwrap();
    r.read(b"x://none", &ReadOptions::default()).unwrap_err();
    r.list(&list_options("t")).unwrap();
    r.list(&list_options("")).unwrap_err();
    r.request(b"resources/read", b"[]", &request_options("t"))
        .unwrap();
    let ok = r.metrics(CallMethod::ResourcesRead, None);
    assert_eq!((ok.calls, ok.partial), (4, 1));
    assert_eq!(ok.buckets.iter().sum::<u64>(), 4);
    assert!(ok.total_ns > 0);
    let missing = r.metrics(CallMethod::ResourcesRead, Some(FailureKind::Unavailable));
    assert_eq!(missing.calls, 1);
    let bad = r.metrics(CallMethod::ResourcesRead, Some(FailureKind::InvalidRequest));
    assert_eq!(bad.calls, 1);
    assert_eq!(r.metrics(CallMethod::ResourcesList, None).calls, 1);
    let host = r.metrics(
        CallMethod::ResourcesList,
        Some(FailureKind::InvalidArgument),
    );
    assert_eq!(host.calls, 1);
    assert_eq!(r.metrics(CallMethod::CompletionComplete, None).calls, 0);
    assert_eq!(
        OutcomeMetrics::bucket_lower_ns(1),
        1024,
        "the first bucket ends at 1,024 ns"
    );
}
