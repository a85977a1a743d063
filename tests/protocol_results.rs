//! Protocol revisions, derived cache hints and JSON-RPC error objects.

mod protocol_support;

use mcp_resources::jsonrpc::error_object;
use mcp_resources::*;
use protocol_support::*;

const R2025_06: ProtocolRevision = ProtocolRevision::V2025_06_18;
const R2025_11: ProtocolRevision = ProtocolRevision::V2025_11_25;
const R2026: ProtocolRevision = ProtocolRevision::V2026_07_28;

fn has_fields(v: &serde_json::Value) -> [bool; 3] {
    [
        v.get("resultType").is_some(),
        v.get("ttlMs").is_some(),
        v.get("cacheScope").is_some(),
    ]
}

// ---------------------------------------------------------------- revisions

#[test]
fn result_fields_appear_exactly_on_2026_for_every_result_kind() {
    let host = Host::new(&[
        "doc://a",
        "doc://b",
        "doc://partial",
        "doc://empty",
        "doc://t/{id}",
    ]);
    host.handler
        .plan("doc://partial", &["doc://partial/1", "doc://partial/2"]);
    host.handler.body("doc://partial/2", Body::Fail);
    host.handler.plan("doc://empty", &[]);
    let r = host.build();
    for revision in ProtocolRevision::ALL {
        let want = revision == R2026;
        let o = read_opts(revision);
        let results = [
            r.read(b"doc://a", &o).unwrap().into_json(),
            r.read(b"doc://partial", &o).unwrap().into_json(),
            r.read(b"doc://empty", &o).unwrap().into_json(),
            r.list(&list_opts(revision, None, 1)).unwrap().into_json(),
            r.list(&list_opts(revision, None, 0)).unwrap().into_json(),
            r.list_templates(&list_opts(revision, None, 0))
                .unwrap()
                .into_json(),
        ];
        for j in results {
            let v = json(&j);
            assert_eq!(has_fields(&v), [want; 3], "{revision}: {j}");
            if want {
                assert_eq!(v["resultType"], "complete");
                assert!(v["ttlMs"].as_u64().is_some());
                assert!(["public", "private"].contains(&v["cacheScope"].as_str().unwrap()));
                // Written after everything else, once each.
                assert!(j.ends_with(r#""cacheScope":"private"}"#));
                assert_eq!(j.matches("\"resultType\"").count(), 1);
            }
        }
    }
}

#[test]
fn default_revision_is_the_newest() {
    let r = Host::new(&["doc://a"]).build();
    let v = json(r.read(b"doc://a", &ReadOptions::default()).unwrap().json());
    assert_eq!(has_fields(&v), [true; 3]);
    let v = json(
        r.list(&ListOptions {
            scope_key: b"s".to_vec(),
            ..ListOptions::default()
        })
        .unwrap()
        .json(),
    );
    assert_eq!(has_fields(&v), [true; 3]);
}

#[test]
fn explicit_empty_text_and_blob_survive_on_every_revision() {
    let host = Host::new(&["doc://pair"]);
    host.handler
        .plan("doc://pair", &["doc://pair/t", "doc://pair/b"]);
    host.handler.body("doc://pair/t", Body::Text(String::new()));
    host.handler.body("doc://pair/b", Body::Blob(Vec::new()));
    let r = host.build();
    for revision in ProtocolRevision::ALL {
        let j = r
            .read(b"doc://pair", &read_opts(revision))
            .unwrap()
            .into_json();
        assert!(j.contains(r#"{"uri":"doc://pair/t","mimeType":"text/plain","text":""}"#));
        assert!(
            j.contains(r#"{"uri":"doc://pair/b","mimeType":"application/octet-stream","blob":""}"#)
        );
        let v = json(&j);
        assert_eq!(v["contents"][0]["text"], "");
        assert_eq!(v["contents"][1]["blob"], "");
    }
}

// The invariant that an admitted result always fits holds with the 2026
// members: items admitted up to the last byte of the encoded budget.
#[test]
fn result_with_2026_fields_fits_when_items_fill_the_encoded_budget_exactly() {
    let max_encoded: u64 = 64 * 1024;
    let report_encoded: u64 = 16 * 1024;
    let budget = max_encoded - report_encoded - 8192 - 256;
    // One item whose object + 1 is exactly the budget.
    let fixed = r#"{"uri":"doc://big","mimeType":"text/plain","text":""}"#.len() as u64 + 1;
    let text = "x".repeat((budget - fixed) as usize);
    let host = Host::new(&["doc://big"])
        .limit(Limit::MaxEncodedBytes, max_encoded as i64)
        .limit(Limit::MaxItemBytes, max_encoded as i64)
        .registry_hints(RegistryCacheHints::new(cache::MAX_TTL_MS, true));
    host.handler.body("doc://big", Body::Text(text.clone()));
    let r = host.build();
    for revision in ProtocolRevision::ALL {
        let b = r.read(b"doc://big", &read_opts(revision)).unwrap();
        assert!(!b.is_partial(), "{revision}");
        assert!(b.json().len() as u64 <= max_encoded - 8192, "{revision}");
    }
    // One byte more does not fit admission (a budget issue, no survivor).
    host.handler
        .body("doc://big", Body::Text(format!("{text}x")));
    let r = host.build();
    assert_eq!(
        r.read(b"doc://big", &read_opts(R2026)).unwrap_err().kind(),
        FailureKind::BudgetExceeded
    );
}

#[test]
fn list_pages_with_2026_fields_stay_within_max_page_bytes() {
    let defs: Vec<String> = (0..40).map(|i| format!("doc://p/{i:02}")).collect();
    let refs: Vec<&str> = defs.iter().map(String::as_str).collect();
    for page_bytes in [400i64, 512, 700, 1000, 1500] {
        let host = Host::new(&refs)
            .limit(Limit::MaxPageBytes, page_bytes)
            .registry_hints(RegistryCacheHints::new(cache::MAX_TTL_MS, false));
        let r = host.build();
        let mut cursor: Option<String> = None;
        let mut seen = 0;
        loop {
            let page = r.list(&list_opts(R2026, cursor.as_deref(), 0)).unwrap();
            assert!(
                page.json().len() as u64 <= page_bytes as u64,
                "{page_bytes}: {}",
                page.json()
            );
            seen += page.len();
            match page.next_cursor() {
                Some(c) => cursor = Some(c.to_string()),
                None => break,
            }
        }
        assert_eq!(seen, 40);
    }
}

// ---------------------------------------------------------------- cache hints

fn read_cache(r: &Resources, uri: &str) -> ResultCache {
    let b = r.read(uri.as_bytes(), &read_opts(R2026)).unwrap();
    let v = json(b.json());
    assert_eq!(v["ttlMs"], b.cache().ttl_ms);
    assert_eq!(v["cacheScope"], b.cache().scope.as_str());
    b.cache()
}

fn cache(ttl_ms: u64, scope: CacheScope) -> ResultCache {
    ResultCache { ttl_ms, scope }
}

#[test]
fn cache_hints_default_to_ttl_0_private() {
    let r = Host::new(&["doc://a"]).build();
    assert_eq!(read_cache(&r, "doc://a"), ResultCache::UNDECLARED);
    assert_eq!(ResultCache::UNDECLARED, cache(0, CacheScope::Private));
    let page = r.list(&list_opts(R2026, None, 0)).unwrap();
    assert_eq!(page.cache(), cache(0, CacheScope::Private));
}

#[test]
fn cache_public_only_when_content_and_policy_are_declared_caller_independent() {
    for (content, policy, public) in [
        (false, false, false),
        (true, false, false),
        (false, true, false),
        (true, true, true),
    ] {
        let r = Host::new(&["doc://a"])
            .binding_hints("doc://a", CacheHints::new(60_000, content))
            .registry_hints(RegistryCacheHints::new(5, policy))
            .build();
        let want = if public {
            CacheScope::Public
        } else {
            CacheScope::Private
        };
        assert_eq!(
            read_cache(&r, "doc://a"),
            cache(60_000, want),
            "{content}/{policy}"
        );
    }
}

#[test]
fn cache_binding_without_hints_gets_the_registry_ttl_and_is_private() {
    let r = Host::new(&["doc://a"])
        .registry_hints(RegistryCacheHints::new(1234, true))
        .build();
    assert_eq!(read_cache(&r, "doc://a"), cache(1234, CacheScope::Private));
}

#[test]
fn cache_selection_filtered_by_the_policy_is_private() {
    let host = Host::new(&["doc://a"])
        .binding_hints("doc://a", CacheHints::new(100, true))
        .registry_hints(RegistryCacheHints::new(0, true));
    host.handler.plan("doc://a", &["doc://a/1", "doc://a/2"]);
    let r = host.build();
    assert_eq!(read_cache(&r, "doc://a"), cache(100, CacheScope::Public));
    // One planned item hidden: the rest is still served, privately.
    host.pol.hide("doc://a/2");
    assert_eq!(read_cache(&r, "doc://a"), cache(100, CacheScope::Private));
    // Every item hidden: an empty bundle, still private.
    host.pol.hide("doc://a/1");
    let b = r.read(b"doc://a", &read_opts(R2026)).unwrap();
    assert_eq!(b.item_count(), 0);
    assert_eq!(b.cache(), cache(100, CacheScope::Private));
}

#[test]
fn cache_empty_plan_is_not_filtered() {
    let host = Host::new(&["doc://none"])
        .binding_hints("doc://none", CacheHints::new(9, true))
        .registry_hints(RegistryCacheHints::new(0, true));
    host.handler.plan("doc://none", &[]);
    assert_eq!(
        read_cache(&host.build(), "doc://none"),
        cache(9, CacheScope::Public)
    );
}

#[test]
fn cache_partial_bundle_is_ttl_0_private() {
    let host = Host::new(&["doc://a"])
        .binding_hints("doc://a", CacheHints::new(100, true))
        .registry_hints(RegistryCacheHints::new(100, true));
    host.handler.plan("doc://a", &["doc://a/1", "doc://a/2"]);
    // A denied item and a failed item each make the bundle partial.
    host.pol.deny("doc://a/2");
    let r = host.build();
    let b = r.read(b"doc://a", &read_opts(R2026)).unwrap();
    assert!(b.is_partial());
    assert_eq!(b.cache(), ResultCache::UNDECLARED);
    host.pol.denied.lock().unwrap().clear();
    host.handler.body("doc://a/1", Body::Fail);
    let b = r.read(b"doc://a", &read_opts(R2026)).unwrap();
    assert!(b.is_partial());
    assert_eq!(json(b.json())["ttlMs"], 0);
    assert_eq!(json(b.json())["cacheScope"], "private");
}

#[test]
fn cache_bundle_ttl_is_the_smallest_of_its_items() {
    let host = Host::new(&["doc://a"])
        .binding_hints("doc://a", CacheHints::new(1000, true))
        .registry_hints(RegistryCacheHints::new(0, true));
    host.handler
        .plan("doc://a", &["doc://a/1", "doc://a/2", "doc://a/3"]);
    host.handler.hint("doc://a/1", CacheHints::new(500, true));
    host.handler.hint("doc://a/2", CacheHints::new(70, true));
    let r = host.build();
    assert_eq!(read_cache(&r, "doc://a"), cache(70, CacheScope::Public));
}

#[test]
fn cache_payload_hints_never_raise_what_the_binding_declared() {
    // A longer item TTL is capped by the binding; an item claiming
    // independence cannot make a caller-dependent binding public.
    let host = Host::new(&["doc://a"])
        .binding_hints("doc://a", CacheHints::new(10, false))
        .registry_hints(RegistryCacheHints::new(0, true));
    host.handler.hint("doc://a", CacheHints::new(99_999, true));
    assert_eq!(
        read_cache(&host.build(), "doc://a"),
        cache(10, CacheScope::Private)
    );
    // An item declared caller-dependent makes an independent binding private.
    let host = Host::new(&["doc://a"])
        .binding_hints("doc://a", CacheHints::new(10, true))
        .registry_hints(RegistryCacheHints::new(0, true));
    host.handler.hint("doc://a", CacheHints::new(10, false));
    assert_eq!(
        read_cache(&host.build(), "doc://a"),
        cache(10, CacheScope::Private)
    );
}

#[test]
fn cache_ttl_above_the_json_safe_integer_is_refused() {
    let too_big = CacheHints::new(cache::MAX_TTL_MS + 1, true);
    let h = Host::new(&["doc://a"]);
    let e = Resources::builder()
        .policy(h.pol.clone())
        .binding(
            ResourceBinding::new(&def_json("doc://a"), h.handler.clone())
                .unwrap()
                .with_cache_hints(too_big),
        )
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
    let e = Resources::builder()
        .policy(h.pol.clone())
        .cache_hints(RegistryCacheHints::new(cache::MAX_TTL_MS + 1, false))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
    assert_eq!(
        ResourcePayload::text("text/plain", "x")
            .unwrap()
            .with_cache_hints(too_big)
            .unwrap_err()
            .kind(),
        FailureKind::InvalidContent
    );
}

fn paginate(
    r: &Resources,
    method: fn(&Resources, &ListOptions) -> Result<Page, Failure>,
) -> Vec<Page> {
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = method(r, &list_opts(R2026, cursor.as_deref(), 2)).unwrap();
        cursor = page.next_cursor().map(str::to_string);
        pages.push(page);
        if cursor.is_none() {
            return pages;
        }
    }
}

#[test]
fn cache_every_page_of_one_pagination_keeps_the_first_pages_scope() {
    let keys = [
        "doc://1", "doc://2", "doc://3", "doc://4", "doc://5", "doc://6",
    ];
    // Policy declared caller-independent, first page unfiltered: public on
    // every page, even one on which a description turns out hidden.
    let host = Host::new(&keys).registry_hints(RegistryCacheHints::new(300, true));
    host.pol.undiscover("doc://4");
    let r = host.build();
    let pages = paginate(&r, Resources::list);
    assert_eq!(pages.len(), 3);
    for p in &pages {
        assert_eq!(p.cache(), cache(300, CacheScope::Public));
        assert_eq!(json(p.json())["cacheScope"], "public");
        assert_eq!(json(p.json())["ttlMs"], 300);
    }
    // First page filtered: private on every page, even unfiltered ones.
    let host = Host::new(&keys).registry_hints(RegistryCacheHints::new(300, true));
    host.pol.undiscover("doc://2");
    let r = host.build();
    let pages = paginate(&r, Resources::list);
    assert!(pages.len() >= 2);
    for p in &pages {
        assert_eq!(json(p.json())["cacheScope"], "private");
    }
    // Policy not declared caller-independent: private throughout.
    let r = Host::new(&keys).build();
    for p in paginate(&r, Resources::list) {
        assert_eq!(p.cache(), cache(0, CacheScope::Private));
    }
}

#[test]
fn cache_public_cursor_gives_private_once_the_declaration_is_withdrawn() {
    let keys = ["doc://1", "doc://2", "doc://3"];
    let mut host = Host::new(&keys).registry_hints(RegistryCacheHints::new(5, true));
    // One cursor key for both registries: same content, same revision, so
    // the second accepts the first's cursors.
    let key = [9u8; 32];
    let build = |h: &Host| {
        let mut b = Resources::builder()
            .policy(h.pol.clone())
            .cache_hints(h.registry)
            .cursor_key(&key);
        for (json, _) in &h.defs {
            b.push(ResourceBinding::new(json, h.handler.clone()).unwrap());
        }
        b.build().unwrap()
    };
    let first = build(&host).list(&list_opts(R2026, None, 1)).unwrap();
    assert_eq!(first.cache().scope, CacheScope::Public);
    host.registry = RegistryCacheHints::new(5, false);
    let next = build(&host)
        .list(&list_opts(R2026, first.next_cursor(), 1))
        .unwrap();
    assert_eq!(next.cache().scope, CacheScope::Private);
}

#[test]
fn cache_templates_pages_follow_the_same_rules() {
    let keys = ["t://h/{a}", "t://h/x/{b}", "t://h/y/{c}"];
    let r = Host::new(&keys)
        .registry_hints(RegistryCacheHints::new(42, true))
        .build();
    for p in paginate(&r, Resources::list_templates) {
        assert_eq!(p.cache(), cache(42, CacheScope::Public));
    }
}

// ---------------------------------------------------------------- errors

fn read_err(r: &Resources, uri: &str, revision: ProtocolRevision) -> String {
    let f = r.read(uri.as_bytes(), &read_opts(revision)).unwrap_err();
    error_object(&f, revision, Some(uri))
}

#[test]
fn not_found_error_object_is_identical_for_all_five_causes() {
    let uri = "doc://asked";
    for revision in ProtocolRevision::ALL {
        let mut objects = Vec::new();
        // 1. no registration at all
        objects.push(read_err(&Host::new(&["other://x"]).build(), uri, revision));
        // 2. a template with the same shape elsewhere but no match
        objects.push(read_err(
            &Host::new(&["doc://x/{id}"]).build(),
            uri,
            revision,
        ));
        // 3. discovery denied
        let h = Host::new(&[uri]);
        h.pol.undiscover(uri);
        objects.push(read_err(&h.build(), uri, revision));
        // 4. requested target hidden
        let h = Host::new(&[uri]);
        h.pol.hide(uri);
        objects.push(read_err(&h.build(), uri, revision));
        // 5. requested target unavailable (read permission denied)
        let h = Host::new(&[uri]);
        h.pol.deny(uri);
        objects.push(read_err(&h.build(), uri, revision));
        let code = if revision == R2026 { -32602 } else { -32002 };
        let want = format!(
            r#"{{"code":{code},"message":"Resource not found","data":{{"uri":"doc://asked"}}}}"#
        );
        for (i, o) in objects.iter().enumerate() {
            assert_eq!(o, &want, "{revision} cause {}", i + 1);
        }
    }
}

#[test]
fn not_found_data_uri_is_the_requested_uri_escaped() {
    let uri = "doc://x/%22q%22/é";
    let o = read_err(&Host::new(&["doc://y"]).build(), uri, R2025_06);
    assert_eq!(json(&o)["data"]["uri"], uri);
    assert_eq!(json(&o)["code"], -32002);
}

#[test]
fn canaries_in_causes_and_authorization_never_enter_error_objects() {
    let mut failures: Vec<(Failure, Option<&str>)> = Vec::new();
    // policy failure with a canary cause
    let h = Host::new(&["doc://a"]);
    *h.pol.fail.lock().unwrap() = true;
    failures.push((
        h.build()
            .read(b"doc://a", &ReadOptions::default())
            .unwrap_err(),
        Some("doc://a"),
    ));
    // resolve failure (invalid_plan) with a canary cause
    let h = Host::new(&["doc://a"]);
    *h.handler.fail_resolve.lock().unwrap() = true;
    failures.push((
        h.build()
            .read(b"doc://a", &ReadOptions::default())
            .unwrap_err(),
        Some("doc://a"),
    ));
    // every item failed (read_failed) with a canary cause
    let h = Host::new(&["doc://a"]);
    h.handler.body("doc://a", Body::Fail);
    failures.push((
        h.build()
            .read(b"doc://a", &ReadOptions::default())
            .unwrap_err(),
        Some("doc://a"),
    ));
    // hidden item URIs and denied items: not found names only the request
    let h = Host::new(&["doc://a"]);
    h.handler
        .plan("doc://a", &["doc://secret-item-CANARY-7c1e-private"]);
    h.pol.deny("doc://secret-item-CANARY-7c1e-private");
    failures.push((
        h.build()
            .read(b"doc://a", &ReadOptions::default())
            .unwrap_err(),
        Some("doc://a"),
    ));
    // bad cursor
    let r = Host::new(&["doc://a", "doc://b"]).build();
    failures.push((
        r.list(&list_opts(R2026, Some("CANARY-7c1e-private"), 1))
            .unwrap_err(),
        None,
    ));
    assert!(failures
        .iter()
        .any(|(f, _)| f.cause_text().contains(CANARY)));
    for (f, uri) in &failures {
        for revision in ProtocolRevision::ALL {
            let o = error_object(f, revision, *uri);
            assert!(!o.contains("CANARY"), "{o}");
            assert!(!o.contains("token"), "{o}");
            let v = json(&o);
            assert!(v["code"].is_i64() && v["message"].is_string());
        }
    }
}

#[test]
fn invalid_cursors_are_32602_invalid_cursor() {
    let r = Host::new(&["doc://a", "doc://b", "doc://c"]).build();
    let first = r.list(&list_opts(R2026, None, 1)).unwrap();
    let good = first.next_cursor().unwrap().to_string();
    let mut tampered = good.clone().into_bytes();
    tampered[5] = if tampered[5] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let other_scope = ListOptions {
        scope_key: b"other".to_vec(),
        ..list_opts(R2026, Some(&good), 1)
    };
    let failures = [
        r.list(&list_opts(R2026, Some(&tampered), 1)).unwrap_err(),
        r.list(&list_opts(R2026, Some("!!"), 1)).unwrap_err(),
        r.list(&other_scope).unwrap_err(),
        r.list_templates(&list_opts(R2026, Some(&good), 1))
            .unwrap_err(),
    ];
    for f in &failures {
        for revision in ProtocolRevision::ALL {
            assert_eq!(
                error_object(f, revision, None),
                r#"{"code":-32602,"message":"Invalid cursor"}"#
            );
        }
    }
    // A cursor still works on any revision of the same pagination.
    assert!(r.list(&list_opts(R2025_11, Some(&good), 1)).is_ok());
}

#[test]
fn other_request_errors_are_32602_and_internal_ones_32603() {
    let r = Host::new(&["doc://a", "doc://t/{x}"]).build();
    let bad = r.read(b"not a uri", &ReadOptions::default()).unwrap_err();
    let v = json(&error_object(&bad, R2026, Some("not a uri")));
    assert_eq!(v["code"], -32602);
    assert!(v.get("data").is_none());
    let h = Host::new(&["doc://a"]);
    h.handler.body("doc://a", Body::Fail);
    let f = h
        .build()
        .read(b"doc://a", &ReadOptions::default())
        .unwrap_err();
    assert_eq!(f.kind(), FailureKind::ReadFailed);
    for revision in ProtocolRevision::ALL {
        assert_eq!(
            error_object(&f, revision, Some("doc://a")),
            r#"{"code":-32603,"message":"resource read failed"}"#
        );
    }
}
