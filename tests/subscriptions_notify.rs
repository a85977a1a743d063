//! Change notifications (docs/BEHAVIOUR.md §15): updates rechecked at send
//! time, list changes computed per caller after a registry swap, and list
//! changes after a permission change.

mod subscription_support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_resources::*;
use subscription_support::*;

fn updated(uri: &str, rev: ProtocolRevision, id: i64) -> String {
    let mut out =
        String::from(r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"#);
    if rev >= NEW {
        out.push_str(&format!(
            r#""_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}},"#
        ));
    }
    out.push_str(&format!(
        r#""uri":{}}}}}"#,
        serde_json::to_string(uri).unwrap()
    ));
    out
}

fn list_changed(rev: ProtocolRevision, id: i64) -> String {
    if rev >= NEW {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}}}}}}"#
        )
    } else {
        r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#.to_string()
    }
}

fn notify(fx: &Fx, uri: &str, subs: &[Subscriber]) -> Notifications {
    fx.registry
        .notify_updated(uri.as_bytes(), subs, &NotifyOptions::default())
        .unwrap()
}

#[test]
fn visible_subscribers_get_the_exact_message_of_their_revision() {
    let fx = fixture();
    let subs = [
        sub("t1", OLD, 0),
        sub("t2", NEW, 7),
        sub("t3", ProtocolRevision::V2025_06_18, 0),
        sub("t4", NEW, 8),
    ];
    let n = notify(&fx, "file://docs/a.md", &subs);
    assert_eq!(
        outcomes(&n),
        [
            updated("file://docs/a.md", OLD, 0),
            updated("file://docs/a.md", NEW, 7),
            updated("file://docs/a.md", OLD, 0),
            updated("file://docs/a.md", NEW, 8),
        ]
    );
    assert_eq!(n.sent(), 4);
    // each subscriber was asked under its own identity
    let tenants: Vec<_> = fx.policy.log.lock().unwrap().iter().map(|e| e.2).collect();
    for t in ["t1", "t2", "t3", "t4"] {
        assert!(tenants.contains(&t), "{t} was not asked");
    }
    assert!(fx
        .policy
        .phases()
        .iter()
        .all(|p| *p == CallPhase::Subscription));
    assert_eq!(*fx.handler.reads.lock().unwrap(), 0);
}

#[test]
fn a_uri_made_hidden_after_subscribing_is_never_notified() {
    let fx = fixture();
    let r = request(
        &fx.registry,
        "resources/subscribe",
        r#"{"uri":"doc://a"}"#,
        &req_opts("t1", OLD),
    )
    .unwrap();
    assert_eq!(r.json(), "{}");
    let listen = request(
        &fx.registry,
        "subscriptions/listen",
        &listen_params(&["doc://a"], false),
        &req_opts("t2", NEW),
    )
    .unwrap();
    assert_eq!(acked(&listen), ["doc://a"]);
    fx.policy.hide("t1", "doc://a");
    fx.policy.undiscover("t2", "doc://a");
    let subs = [sub("t1", OLD, 0), sub("t2", NEW, 1), sub("t3", OLD, 0)];
    let n = notify(&fx, "doc://a", &subs);
    assert_eq!(outcomes(&n), ["skip", "skip", &updated("doc://a", OLD, 0)]);
    // and visible again: notified again (decided now, every time)
    fx.policy.unhide("t1", "doc://a");
    assert_eq!(
        outcomes(&notify(&fx, "doc://a", &subs[..1])),
        [updated("doc://a", OLD, 0)]
    );
}

#[test]
fn a_revoked_caller_is_never_notified() {
    let fx = fixture();
    fx.policy.revoke("t1", "doc://b");
    let n = notify(&fx, "doc://b", &[sub("t1", NEW, 1), sub("t2", NEW, 2)]);
    assert_eq!(outcomes(&n), ["skip", &updated("doc://b", NEW, 2)]);
}

#[test]
fn skipped_and_unregistered_look_the_same_and_nothing_private_leaks() {
    let fx = fixture();
    fx.policy.undiscover("t1", "doc://a");
    fx.policy.hide("t2", "doc://a");
    fx.policy.revoke("t3", "doc://a");
    let subs = [sub("t1", NEW, 1), sub("t2", NEW, 2), sub("t3", NEW, 3)];
    let n = notify(&fx, "doc://a", &subs);
    assert_eq!(outcomes(&n), ["skip", "skip", "skip"]);
    let calls = fx.policy.calls();
    let gone = notify(&fx, "doc://unregistered", &subs);
    assert_eq!(outcomes(&gone), ["skip", "skip", "skip"]);
    assert_eq!(fx.policy.calls(), calls, "nothing registered: nobody asked");
    // resolve answering unavailable is a skip too
    assert_eq!(
        outcomes(&notify(&fx, "doc://gone", &subs)),
        ["skip", "skip", "skip"]
    );
    for m in notify(&fx, "doc://b", &subs)
        .iter()
        .filter_map(|d| d.message().map(str::to_string))
    {
        assert_private_free(&m);
    }
}

#[test]
fn a_subscribed_uri_other_than_the_changed_one_must_still_be_honored() {
    let fx = fixture();
    let mut s1 = sub("t1", NEW, 1);
    s1.uri = Some("doc://a".into());
    let mut s2 = sub("t2", NEW, 2);
    s2.uri = Some("doc://a".into());
    let mut s3 = sub("t3", NEW, 3);
    s3.uri = Some("doc://unregistered".into());
    fx.policy.hide("t2", "doc://a"); // its subscription is no longer honored
    let n = notify(&fx, "file://docs/a/b", &[s1, s2, s3]);
    // file://docs/a/b matches no template (two segments): nothing at all
    assert_eq!(outcomes(&n), ["skip", "skip", "skip"]);
    let mut s1 = sub("t1", NEW, 1);
    s1.uri = Some("doc://a".into());
    let mut s2 = sub("t2", NEW, 2);
    s2.uri = Some("doc://a".into());
    let mut s3 = sub("t3", NEW, 3);
    s3.uri = Some("doc://unregistered".into());
    let n = notify(&fx, "file://docs/sub", &[s1, s2, s3]);
    assert_eq!(
        outcomes(&n),
        [
            updated("file://docs/sub", NEW, 1),
            "skip".into(),
            "skip".into()
        ]
    );
}

#[test]
fn a_policy_failure_is_that_subscribers_failure_only() {
    let fx = fixture();
    fx.policy.fail("t2", "doc://a");
    let n = notify(
        &fx,
        "doc://a",
        &[sub("t1", NEW, 1), sub("t2", NEW, 2), sub("t3", NEW, 3)],
    );
    assert_eq!(outcomes(&n)[1], "failed");
    assert_eq!(n.sent(), 2);
    match n.get(1).unwrap() {
        Delivery::Failed(f) => {
            assert_eq!(f.kind(), FailureKind::Policy);
            assert!(
                f.cause_text().contains(CANARY),
                "the host's logs get the cause"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(n.get(3).is_none());
}

#[test]
fn bad_update_calls_are_refused_before_anyone_is_asked() {
    let fx = fixture();
    let e = fx
        .registry
        .notify_updated(
            b"not a uri",
            &[sub("t1", OLD, 0)],
            &NotifyOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    let mut no_id = sub("t1", NEW, 1);
    no_id.subscription_id = None;
    let e = fx
        .registry
        .notify_updated(
            b"doc://a",
            &[sub("t2", NEW, 1), no_id],
            &NotifyOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidArgument);
    assert_eq!(fx.policy.calls(), 0);
    // an empty list is an empty answer
    assert!(notify(&fx, "doc://a", &[]).is_empty());
}

#[test]
fn ten_thousand_subscribers_in_one_call() {
    let fx = fixture();
    let tenants = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"];
    fx.policy.hide("t3", "doc://a");
    let subs: Vec<Subscriber> = (0..10_000)
        .map(|i| {
            sub(
                tenants[i % 10],
                if i % 2 == 0 { NEW } else { OLD },
                i as i64,
            )
        })
        .collect();
    let n = notify(&fx, "doc://a", &subs);
    assert_eq!(n.len(), 10_000);
    assert_eq!(n.sent(), 9_000);
    assert_eq!(n.get(13).unwrap().message(), None);
    assert_eq!(
        n.get(9_998).unwrap().message(),
        Some(&*updated("doc://a", NEW, 9_998))
    );
    assert_eq!(
        n.get(9_999).unwrap().message(),
        Some(&*updated("doc://a", OLD, 0))
    );
}

/// A policy whose discover sleeps until its call is cancelled.
struct Slow;
impl ResourcePolicy for Slow {
    fn discover(&self, call: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        while !call.is_canceled() {
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(300));
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

#[test]
fn with_an_executor_an_update_returns_by_its_deadline_and_inline_equals_pooled() {
    let h: Arc<dyn ResourceHandler> = Arc::new(Handler::default());
    let r = Resources::builder()
        .policy(Arc::new(Slow))
        .binding(ResourceBinding::new(r#"{"uri":"doc://a","name":"a"}"#, h).unwrap())
        .build()
        .unwrap();
    let o = NotifyOptions {
        call: CallOptions {
            timeout: Some(Duration::from_millis(100)),
            executor: Some(Executor::new(2).unwrap()),
            ..CallOptions::default()
        },
    };
    let started = Instant::now();
    let e = r
        .notify_updated(b"doc://a", &[sub("t1", OLD, 0)], &o)
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_millis(290));
    assert_eq!(e.kind(), FailureKind::DeadlineExceeded);

    let fx = fixture();
    fx.policy.hide("t2", "doc://a");
    let subs = [sub("t1", NEW, 1), sub("t2", NEW, 2), sub("t3", OLD, 0)];
    let pooled = fx
        .registry
        .notify_updated(
            b"doc://a",
            &subs,
            &NotifyOptions {
                call: CallOptions {
                    executor: Some(Executor::new(2).unwrap()),
                    ..CallOptions::default()
                },
            },
        )
        .unwrap();
    assert_eq!(outcomes(&pooled), outcomes(&notify(&fx, "doc://a", &subs)));
}

#[test]
fn cancellation_ends_the_whole_call() {
    let fx = fixture();
    let cancel = CancelToken::new();
    cancel.cancel();
    let o = NotifyOptions {
        call: CallOptions {
            cancel: Some(cancel),
            ..CallOptions::default()
        },
    };
    let e = fx
        .registry
        .notify_updated(b"doc://a", &[sub("t1", OLD, 0)], &o)
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::Canceled);
}

// ---- list changes after a registry swap ----

/// Two registries over the same policy: the old definitions and `new`.
fn swap(old: &[&str], new: &[&str]) -> (Arc<Tenants>, Resources, Resources) {
    let policy = Tenants::new();
    let h = Arc::new(Handler::default());
    let a = build(old, policy.clone(), h.clone(), NotificationTypes::RESOURCES);
    let b = build(new, policy.clone(), h, NotificationTypes::RESOURCES);
    (policy, a, b)
}

fn defs(n: usize, prefix: &str) -> Vec<String> {
    (0..n)
        .map(|i| format!(r#"{{"uri":"{prefix}{i:03}","name":"n{i}"}}"#))
        .collect()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_list_change_reaches_only_callers_who_can_discover_a_changed_definition() {
    let mut old = defs(50, "tenant-a://doc/");
    old.extend(defs(50, "tenant-b://doc/"));
    let mut new = old.clone();
    new[3] = r#"{"uri":"tenant-a://doc/003","name":"renamed"}"#.to_string(); // changed
    new.push(r#"{"uri":"tenant-a://doc/new","name":"added"}"#.to_string()); // added
    new.remove(10); // removed: tenant-a://doc/010
    let (policy, a, b) = swap(&refs(&old), &refs(&new));
    // tenant b discovers only its own catalogue, tenant a only its own
    for i in 0..50 {
        policy.undiscover("b", &format!("tenant-a://doc/{i:03}"));
        policy.undiscover("a", &format!("tenant-b://doc/{i:03}"));
    }
    policy.undiscover("b", "tenant-a://doc/new");
    let change = ListChange::between(&a, &b);
    assert_eq!(change.len(), 3);
    policy.clear_log();
    let n = change
        .notify(
            &[sub("a", NEW, 1), sub("b", NEW, 2), sub("a", OLD, 0)],
            &NotifyOptions::default(),
        )
        .unwrap();
    assert_eq!(
        outcomes(&n),
        [list_changed(NEW, 1), "skip".into(), list_changed(OLD, 0)]
    );
    // only the changed definitions were asked about
    let asked: Vec<String> = policy
        .log
        .lock()
        .unwrap()
        .iter()
        .map(|e| e.3.clone())
        .collect();
    assert!(
        asked.iter().all(|k| [
            "tenant-a://doc/003",
            "tenant-a://doc/010",
            "tenant-a://doc/new"
        ]
        .contains(&k.as_str())),
        "{asked:?}"
    );
    assert!(policy
        .phases()
        .iter()
        .all(|p| *p == CallPhase::Subscription));
    // the same registry: no change, nobody told, nobody asked
    policy.clear_log();
    let same = ListChange::between(&a, &a);
    assert!(same.is_empty());
    let n = same
        .notify(&[sub("a", OLD, 0)], &NotifyOptions::default())
        .unwrap();
    assert_eq!(outcomes(&n), ["skip"]);
    assert_eq!(policy.calls(), 0);
}

#[test]
fn removed_definitions_count_under_the_old_registrys_policy_and_templates_count_too() {
    let old = [
        r#"{"uriTemplate":"t://a/{x}","name":"a"}"#,
        r#"{"uri":"d://keep","name":"k"}"#,
    ];
    let new = [
        r#"{"uri":"d://keep","name":"k"}"#,
        r#"{"uriTemplate":"t://b/{x}","name":"b"}"#,
    ];
    let (policy, a, b) = swap(&old, &new);
    policy.undiscover("x", "t://a/{x}");
    policy.undiscover("x", "t://b/{x}");
    policy.undiscover("y", "t://b/{x}");
    let change = ListChange::between(&a, &b);
    assert_eq!(change.len(), 2);
    let n = change
        .notify(
            &[sub("x", OLD, 0), sub("y", OLD, 0), sub("z", NEW, 5)],
            &NotifyOptions::default(),
        )
        .unwrap();
    // x saw neither template; y saw the removed one; z both
    assert_eq!(
        outcomes(&n),
        ["skip".into(), list_changed(OLD, 0), list_changed(NEW, 5)]
    );
}

#[test]
fn a_description_change_is_a_change_and_a_failing_discover_tells_nobody() {
    let old = [r#"{"uri":"d://a","name":"a"}"#];
    let new = [r#"{"uri":"d://a","name":"a","description":"now described"}"#];
    let (policy, a, b) = swap(&old, &new);
    policy.fail("f", "d://a");
    let change = ListChange::between(&a, &b);
    assert_eq!(change.len(), 1);
    let n = change
        .notify(
            &[sub("f", OLD, 0), sub("ok", OLD, 0)],
            &NotifyOptions::default(),
        )
        .unwrap();
    assert_eq!(outcomes(&n), ["failed".into(), list_changed(OLD, 0)]);
}

#[test]
fn the_list_change_decision_cost_follows_the_change_not_the_catalogue() {
    for size in [100, 10_000] {
        let old = defs(size, "c://x/");
        let mut new = old.clone();
        new[0] = r#"{"uri":"c://x/000","name":"changed"}"#.to_string();
        let (policy, a, b) = swap(&refs(&old), &refs(&new));
        let change = ListChange::between(&a, &b);
        policy.undiscover("t", "c://x/000");
        policy.clear_log();
        change
            .notify(&[sub("t", OLD, 0)], &NotifyOptions::default())
            .unwrap();
        // one definition changed: asked twice (old and new version), whatever the size
        assert_eq!(policy.calls(), 2, "size {size}");
    }
}

#[test]
fn with_an_executor_a_list_change_decides_as_inline() {
    let (policy, a, b) = swap(&[r#"{"uri":"d://a","name":"a"}"#], &[]);
    policy.undiscover("no", "d://a");
    let change = ListChange::between(&a, &b);
    let subs = [sub("no", NEW, 1), sub("yes", NEW, 2)];
    let inline = change.notify(&subs, &NotifyOptions::default()).unwrap();
    let pooled = change
        .notify(
            &subs,
            &NotifyOptions {
                call: CallOptions {
                    executor: Some(Executor::new(2).unwrap()),
                    ..CallOptions::default()
                },
            },
        )
        .unwrap();
    assert_eq!(outcomes(&inline), outcomes(&pooled));
    assert_eq!(outcomes(&inline), ["skip".into(), list_changed(NEW, 2)]);
}

// ---- list changes after a permission change ----

#[test]
fn a_permission_change_tells_exactly_the_callers_whose_listing_changed() {
    let fx = fixture();
    let callers = ["t1", "t2", "t3"];
    let before: Vec<ListingFingerprint> = callers
        .iter()
        .map(|t| {
            fx.registry
                .listing_fingerprint(&ReadOptions {
                    call: CallOptions {
                        request_data: tenant(t),
                        ..CallOptions::default()
                    },
                    ..ReadOptions::default()
                })
                .unwrap()
        })
        .collect();
    fx.policy.undiscover("t1", "doc://b"); // t1 loses a definition
    fx.policy.hide("t2", "doc://a"); // visibility is no listing change
    let subs: Vec<Subscriber> = callers
        .iter()
        .zip(&before)
        .map(|(t, f)| Subscriber {
            listing: Some(*f),
            ..sub(t, NEW, 9)
        })
        .collect();
    let n = fx
        .registry
        .notify_listing_changed(&subs, &NotifyOptions::default())
        .unwrap();
    assert_eq!(
        outcomes(&n),
        [list_changed(NEW, 9), "skip".into(), "skip".into()]
    );
    assert_ne!(n.listing(0), Some(before[0]));
    assert_eq!(n.listing(1), Some(before[1]));
    // a subscriber without its fingerprint is a host mistake
    let e = fx
        .registry
        .notify_listing_changed(&[sub("t1", OLD, 0)], &NotifyOptions::default())
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidArgument);
}

#[test]
fn fingerprints_tell_listings_apart_and_no_registry_shares_them() {
    let fx = fixture();
    let fp = |t| {
        fx.registry
            .listing_fingerprint(&ReadOptions {
                call: CallOptions {
                    request_data: tenant(t),
                    ..CallOptions::default()
                },
                ..ReadOptions::default()
            })
            .unwrap()
    };
    assert_eq!(fp("t1"), fp("t2"));
    fx.policy.undiscover("t1", "file://docs/{name}");
    assert_ne!(fp("t1"), fp("t2"));
    let other = fixture_with(&DEFS[..3]);
    let fo = other
        .registry
        .listing_fingerprint(&ReadOptions::default())
        .unwrap();
    assert_ne!(fo, fp("t2"));
    fx.policy.fail("t3", "doc://a");
    let e = fx
        .registry
        .listing_fingerprint(&ReadOptions {
            call: CallOptions {
                request_data: tenant("t3"),
                ..CallOptions::default()
            },
            ..ReadOptions::default()
        })
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::Policy);
}
