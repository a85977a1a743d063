//! Listing: what a page holds, its order, its shape, page sizes and the
//! page byte budget.

mod common;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::*;
use mcp_resources::*;

#[test]
fn resources_sorted_by_uri_then_name_regardless_of_registration_order() {
    let defs = [
        r#"{"uri":"b://z","name":"n1"}"#,
        r#"{"uri":"a://b/c","name":"n2"}"#,
        r#"{"uri":"a://b","name":"n3"}"#,
        r#"{"uri":"B://x","name":"n4"}"#,
        r#"{"uri":"a://b/%C3%A9","name":"n5"}"#,
    ];
    let r = builder(&defs, FnPolicy::allow()).build().unwrap();
    let page = r.list(&opts("s", None)).unwrap();
    // Byte order: uppercase before lowercase, '%' before letters.
    assert_eq!(
        keys(&page, "resources", "uri"),
        ["B://x", "a://b", "a://b/%C3%A9", "a://b/c", "b://z"]
    );
    assert_eq!(page.len(), 5);
    assert!(page.next_cursor().is_none());
}

#[test]
fn templates_sorted_by_template_then_name() {
    let defs = [
        r#"{"uriTemplate":"t://b/{x}","name":"one"}"#,
        r#"{"uriTemplate":"t://a/{x}/c","name":"two"}"#,
        r#"{"uriTemplate":"t://a/{x}","name":"three"}"#,
    ];
    let r = builder(&defs, FnPolicy::allow()).build().unwrap();
    let page = r.list_templates(&opts("s", None)).unwrap();
    assert_eq!(
        keys(&page, "resourceTemplates", "uriTemplate"),
        ["t://a/{x}", "t://a/{x}/c", "t://b/{x}"]
    );
}

#[test]
fn resources_and_templates_are_listed_separately() {
    let defs = [
        r#"{"uri":"a://one","name":"exact"}"#,
        r#"{"uriTemplate":"a://h/{id}","name":"template"}"#,
    ];
    let r = builder(&defs, FnPolicy::allow()).build().unwrap();
    assert_eq!(
        r.list(&opts("s", None)).unwrap().json(),
        r#"{"resources":[{"uri":"a://one","name":"exact"}]}"#
    );
    assert_eq!(
        r.list_templates(&opts("s", None)).unwrap().json(),
        r#"{"resourceTemplates":[{"uriTemplate":"a://h/{id}","name":"template"}]}"#
    );
}

#[test]
fn descriptions_are_the_registered_compact_json_in_key_order() {
    let def = r#"{ "name" : "Doc", "uri":"doc://x", "title":"T\u00e9 \"q\"",
        "description":"d", "mimeType":"text/markdown", "size":12,
        "annotations":{"priority":0.5,"audience":["user"]}, "_meta":{"k":[1,{"z":null}]} }"#;
    let r = builder(&[def], FnPolicy::allow()).build().unwrap();
    let page = r.list(&opts("s", None)).unwrap();
    let expected = ResourceDefinition::from_json(def)
        .unwrap()
        .json()
        .to_string();
    assert_eq!(page.json(), format!(r#"{{"resources":[{expected}]}}"#));
    assert!(expected.starts_with(r#"{"name":"Doc","uri":"doc://x","title":"Té \"q\"""#));
    assert_eq!(page.clone().into_json(), page.json());
}

#[test]
fn empty_registry_gives_an_empty_last_page() {
    let r = builder::<&str>(&[], FnPolicy::allow()).build().unwrap();
    let page = r.list(&opts("s", None)).unwrap();
    assert_eq!(page.json(), r#"{"resources":[]}"#);
    assert!(page.is_empty());
    assert!(page.next_cursor().is_none());
    let page = r.list_templates(&opts("s", None)).unwrap();
    assert_eq!(page.json(), r#"{"resourceTemplates":[]}"#);
}

#[test]
fn listing_never_resolves_or_reads() {
    let handler = Arc::new(CountingHandler::default());
    let dyn_handler: Arc<dyn ResourceHandler> = handler.clone();
    let r = Resources::builder()
        .policy(FnPolicy::allow())
        .binding(
            ResourceBinding::new(r#"{"uri":"a://x","name":"x"}"#, dyn_handler.clone()).unwrap(),
        )
        .binding(
            ResourceBinding::new(r#"{"uriTemplate":"a://h/{y}/z","name":"y"}"#, dyn_handler)
                .unwrap(),
        )
        .build()
        .unwrap();
    assert_eq!(r.list(&opts("s", None)).unwrap().len(), 1);
    assert_eq!(r.list_templates(&opts("s", None)).unwrap().len(), 1);
    assert_eq!(handler.resolves.load(Ordering::SeqCst), 0);
    assert_eq!(handler.reads.load(Ordering::SeqCst), 0);
}

#[test]
fn page_size_zero_means_default() {
    let r = builder(&resource_defs(120), FnPolicy::allow())
        .build()
        .unwrap();
    let page = r.list(&opts("s", None)).unwrap();
    assert_eq!(page.len(), 50);
    assert!(page.next_cursor().is_some());

    let r = builder(&resource_defs(120), FnPolicy::allow())
        .limits(ResourceLimits::new().with(Limit::DefaultPageSize, 7))
        .build()
        .unwrap();
    assert_eq!(r.list(&opts("s", None)).unwrap().len(), 7);
}

#[test]
fn page_size_requested_is_honoured_up_to_the_maximum() {
    let r = builder(&resource_defs(700), FnPolicy::allow())
        .build()
        .unwrap();
    for (asked, got) in [(1, 1), (3, 3), (500, 500), (501, 500), (u32::MAX, 500)] {
        let mut o = opts("s", None);
        o.page_size = asked;
        assert_eq!(r.list(&o).unwrap().len(), got, "asked {asked}");
    }
    let r = builder(&resource_defs(30), FnPolicy::allow())
        .limits(
            ResourceLimits::new()
                .with(Limit::MaxPageSize, 10)
                .with(Limit::DefaultPageSize, 4),
        )
        .build()
        .unwrap();
    let mut o = opts("s", None);
    o.page_size = 11;
    assert_eq!(r.list(&o).unwrap().len(), 10);
    o.page_size = 0;
    assert_eq!(r.list(&o).unwrap().len(), 4);
}

#[test]
fn next_cursor_only_when_candidates_remain() {
    let r = builder(&resource_defs(6), FnPolicy::allow())
        .build()
        .unwrap();
    let mut o = opts("s", None);
    o.page_size = 3;
    let first = r.list(&o).unwrap();
    let cursor = first.next_cursor().expect("three more remain").to_string();
    assert!(first
        .json()
        .ends_with(&format!(r#"],"nextCursor":"{cursor}"}}"#)));
    o.cursor = Some(cursor.into_bytes());
    let last = r.list(&o).unwrap();
    assert_eq!(
        keys(&last, "resources", "uri"),
        ["res://item/00003", "res://item/00004", "res://item/00005"]
    );
    assert!(
        last.next_cursor().is_none(),
        "an exactly full last page has no cursor"
    );
    assert!(!last.json().contains("nextCursor"));
}

#[test]
fn hidden_descriptions_are_skipped() {
    let policy = FnPolicy::new(|_, d| {
        if d.name().ends_with('1') || d.name().ends_with('3') {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = builder(&resource_defs(5), policy).build().unwrap();
    let page = r.list(&opts("s", None)).unwrap();
    assert_eq!(
        keys(&page, "resources", "uri"),
        ["res://item/00000", "res://item/00002", "res://item/00004"]
    );
}

#[test]
fn candidates_remaining_but_hidden_give_an_empty_last_page() {
    // A cursor is issued while candidates remain, even if they turn out hidden.
    let policy = FnPolicy::new(|_, d| {
        if d.name() == "item 00002" {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = builder(&resource_defs(3), policy).build().unwrap();
    let mut o = opts("s", None);
    o.page_size = 2;
    let first = r.list(&o).unwrap();
    assert_eq!(first.len(), 2);
    o.cursor = Some(first.next_cursor().unwrap().as_bytes().to_vec());
    let last = r.list(&o).unwrap();
    assert_eq!(last.json(), r#"{"resources":[]}"#);
    assert!(last.next_cursor().is_none());
}

#[test]
fn every_page_rechecks_discovery_for_the_candidates_it_visits() {
    let hide_odd = Arc::new(AtomicBool::new(false));
    let flag = hide_odd.clone();
    let policy = FnPolicy::new(move |_, d| {
        let n: u32 = d.name()[5..].parse().unwrap();
        if flag.load(Ordering::SeqCst) && n % 2 == 1 {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = builder(&resource_defs(8), policy.clone()).build().unwrap();
    let mut o = opts("s", None);
    o.page_size = 3;
    let first = r.list(&o).unwrap();
    assert_eq!(policy.calls(), 3);
    // The policy changes between pages: the next page follows it.
    hide_odd.store(true, Ordering::SeqCst);
    o.cursor = Some(first.next_cursor().unwrap().as_bytes().to_vec());
    let second = r.list(&o).unwrap();
    assert_eq!(
        keys(&second, "resources", "uri"),
        ["res://item/00004", "res://item/00006"]
    );
    // Only candidates from the cursor's position on were visited (3..8).
    assert_eq!(policy.calls(), 3 + 5);
}

#[test]
fn ten_thousand_with_half_hidden_each_visible_exactly_once_in_order() {
    let policy = FnPolicy::new(|_, d| {
        let n: u32 = d.name()[5..].parse().unwrap();
        if n.is_multiple_of(2) {
            Ok(())
        } else {
            Err(CallbackError::Unavailable)
        }
    });
    let r = builder(&resource_defs(10_000), policy.clone())
        .build()
        .unwrap();
    let got = list_all(&r, "tenant", 37);
    let expected: Vec<String> = (0..10_000)
        .filter(|n| n % 2 == 0)
        .map(|n| format!("res://item/{n:05}"))
        .collect();
    assert_eq!(got.len(), 5_000);
    assert_eq!(got, expected);
    assert_eq!(got.iter().collect::<HashSet<_>>().len(), 5_000);
    // Every candidate was asked about once: no page rescans earlier ones.
    assert_eq!(policy.calls(), 10_000);
}

/// Budget for descriptions with `max_page_bytes = 256 + budget`.
fn byte_limited(defs: &[String], budget: u64) -> Resources {
    builder(defs, FnPolicy::allow())
        .limits(ResourceLimits::new().with(Limit::MaxPageBytes, 256 + budget as i64))
        .build()
        .unwrap()
}

/// A definition whose compact JSON is exactly `len` bytes.
fn def_of_len(uri: &str, len: usize) -> String {
    let base = format!(r#"{{"uri":"{uri}","name":""}}"#).len();
    assert!(len > base);
    let def = format!(r#"{{"uri":"{uri}","name":"{}"}}"#, "n".repeat(len - base));
    assert_eq!(
        ResourceDefinition::from_json(&def).unwrap().json().len(),
        len
    );
    def
}

#[test]
fn page_bytes_exactly_fitting_description_is_admitted() {
    // Cost = jsize + 1; budget = max_page_bytes - 256.
    let def = def_of_len("a://x", 99);
    let r = byte_limited(std::slice::from_ref(&def), 100);
    let page = r.list(&opts("s", None)).unwrap();
    assert_eq!(page.len(), 1);
    assert!(page.json().len() as u64 <= 356);
}

#[test]
fn page_bytes_one_byte_more_fails_with_size_rather_than_vanishing() {
    let def = def_of_len("a://x", 100);
    let r = byte_limited(&[def], 100);
    let e = r.list(&opts("s", None)).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Size);
}

#[test]
fn page_bytes_oversized_hidden_description_is_just_skipped() {
    let defs = [def_of_len("a://big", 500), def_of_len("a://small", 40)];
    let policy = FnPolicy::new(|_, d| {
        if d.uri_or_template() == "a://big" {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = builder(&defs, policy)
        .limits(ResourceLimits::new().with(Limit::MaxPageBytes, 356))
        .build()
        .unwrap();
    let page = r.list(&opts("s", None)).unwrap();
    assert_eq!(keys(&page, "resources", "uri"), ["a://small"]);
}

#[test]
fn page_bytes_full_page_stops_and_the_next_page_continues() {
    // Three descriptions of 49 bytes (cost 50) with a 120-byte budget: two
    // fit (100), the third (150) does not and opens the next page.
    let defs = [
        def_of_len("a://1", 49),
        def_of_len("a://2", 49),
        def_of_len("a://3", 49),
    ];
    let r = byte_limited(&defs, 120);
    let first = r.list(&opts("s", None)).unwrap();
    assert_eq!(keys(&first, "resources", "uri"), ["a://1", "a://2"]);
    let cursor = first.next_cursor().expect("one remains");
    let second = r.list(&opts("s", Some(cursor))).unwrap();
    assert_eq!(keys(&second, "resources", "uri"), ["a://3"]);
    assert!(second.next_cursor().is_none());

    // With exactly 150 bytes all three fit.
    let r = byte_limited(&defs, 150);
    assert_eq!(r.list(&opts("s", None)).unwrap().len(), 3);
    let r = byte_limited(&defs, 149);
    assert_eq!(r.list(&opts("s", None)).unwrap().len(), 2);
}

#[test]
fn page_json_with_cursor_stays_within_max_page_bytes() {
    let defs = template_defs(200);
    // All 200 descriptions have the same length.
    let cost = ResourceDefinition::from_json(&defs[0])
        .unwrap()
        .json()
        .len() as i64
        + 1;
    for max in [257i64, 256 + cost - 1, 256 + cost, 600, 4096] {
        let r = builder(&defs, FnPolicy::allow())
            .limits(ResourceLimits::new().with(Limit::MaxPageBytes, max))
            .build()
            .unwrap();
        let mut cursor: Option<String> = None;
        let mut seen = 0;
        loop {
            let page = match r.list_templates(&opts("s", cursor.as_deref())) {
                Ok(p) => p,
                Err(e) => {
                    // Only a budget too small for a single description fails.
                    assert_eq!(e.kind(), FailureKind::Size);
                    assert!(max - 256 < cost, "max {max}");
                    assert_eq!(seen, 0);
                    break;
                }
            };
            assert!(
                page.json().len() as i64 <= max,
                "max {max}: {}",
                page.json().len()
            );
            seen += page.len();
            match page.next_cursor() {
                Some(c) => cursor = Some(c.to_string()),
                None => {
                    assert_eq!(seen, 200);
                    break;
                }
            }
        }
    }
}

// "a single visible description that cannot fit an empty page fails rather
// than disappearing": when it comes after descriptions that filled part of
// a page, that page ends before it (with a cursor), and the next page -
// where it is alone on an empty page - fails with `size` instead of being
// skipped or ending the listing.
#[test]
fn oversized_description_after_a_partial_page_fails_on_the_next_page() {
    let defs = [
        def_of_len("a://1", 40),
        def_of_len("a://2", 200),
        def_of_len("a://3", 40),
    ];
    let r = byte_limited(&defs, 100);
    let first = r.list(&opts("s", None)).unwrap();
    assert_eq!(keys(&first, "resources", "uri"), ["a://1"]);
    let cursor = first.next_cursor().expect("the oversized one remains");
    let e = r.list(&opts("s", Some(cursor))).unwrap_err();
    assert_eq!(e.kind(), FailureKind::Size);
}

// "Changing scope or permissions does not turn pagination into a
// transactional catalogue snapshot": a description hidden on the first
// page and visible later is not revisited, one listed before is not
// withdrawn, and the next page follows the current policy.
#[test]
fn pagination_is_not_a_snapshot_of_permissions() {
    let reveal = Arc::new(AtomicBool::new(false));
    let flag = reveal.clone();
    let policy = FnPolicy::new(move |_, d| {
        let n: u32 = d.name()[5..].parse().unwrap();
        if n == 1 || (n == 4 && !flag.load(Ordering::SeqCst)) {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    });
    let r = builder(&resource_defs(6), policy).build().unwrap();
    let mut o = opts("s", None);
    o.page_size = 2;
    let first = r.list(&o).unwrap();
    assert_eq!(
        keys(&first, "resources", "uri"),
        ["res://item/00000", "res://item/00002"]
    );
    reveal.store(true, Ordering::SeqCst);
    o.cursor = Some(first.next_cursor().unwrap().as_bytes().to_vec());
    let second = r.list(&o).unwrap();
    assert_eq!(
        keys(&second, "resources", "uri"),
        ["res://item/00003", "res://item/00004"]
    );
}

/// The exact list JSON of `defs` (already in sorted order) with `cursor`.
fn concatenation(defs: &[String], cursor: Option<&str>) -> String {
    let objects: Vec<&str> = defs.iter().map(String::as_str).collect();
    match cursor {
        None => format!(r#"{{"resources":[{}]}}"#, objects.join(",")),
        Some(c) => format!(
            r#"{{"resources":[{}],"nextCursor":"{c}"}}"#,
            objects.join(",")
        ),
    }
}

#[test]
fn descriptions_longer_or_shorter_than_the_first_are_written_whole() {
    // The page buffer is sized from the first description: later ones
    // much longer (the buffer grows) and shorter (slack is given back).
    let defs: Vec<String> = (0..40)
        .map(|i| {
            let len = match i % 4 {
                0 => 40,
                1 => 900,
                2 => 31,
                _ => 4000,
            };
            def_of_len(&format!("x://d/{i:02}"), len)
        })
        .collect();
    let r = builder(&defs, FnPolicy::allow())
        .limits(
            ResourceLimits::new()
                .with(Limit::DefaultPageSize, 40)
                .with(Limit::MaxPageSize, 40),
        )
        .build()
        .unwrap();
    let first = r
        .list(&ListOptions {
            page_size: 25,
            ..opts("s", None)
        })
        .unwrap();
    assert_eq!(
        first.json(),
        concatenation(&defs[..25], first.next_cursor())
    );
    assert!(first.next_cursor().is_some());
    let all = r
        .list(&ListOptions {
            page_size: 40,
            ..opts("s", None)
        })
        .unwrap();
    assert_eq!(all.json(), concatenation(&defs, None));
    assert_eq!(all.len(), 40);
}

#[test]
fn a_page_of_more_than_a_megabyte_is_the_exact_concatenation() {
    // Past 256 KiB the page buffer is mapped ahead of the writing, a MiB at
    // a time; a long first description makes an estimate the short ones
    // after it never fill.
    let defs: Vec<String> = (0..12_000)
        .map(|i| def_of_len(&format!("x://big/{i:05}"), if i == 0 { 4000 } else { 120 }))
        .collect();
    let r = builder(&defs, FnPolicy::allow())
        .limits(
            ResourceLimits::new()
                .with(Limit::DefaultPageSize, 12_000)
                .with(Limit::MaxPageSize, 12_000)
                .with(Limit::MaxPageBytes, 2 << 20),
        )
        .build()
        .unwrap();
    let page = r
        .list(&ListOptions {
            page_size: 12_000,
            ..opts("s", None)
        })
        .unwrap();
    assert!(page.json().len() > 1 << 20);
    assert_eq!(page.json(), concatenation(&defs, None));
}
