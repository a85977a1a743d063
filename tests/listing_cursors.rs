//! Listing: pagination cursors — scope keys, following, confidentiality,
//! binding to the scope, method and registry, expiry, tampering and
//! malformed input.

mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use common::*;
use mcp_resources::*;
use sha2::{Digest, Sha256};

const T0: u64 = 1_800_000_000_000;
const MINUTE: u64 = 60_000;

fn registry(n: usize, clock: &TestClock) -> Resources {
    builder(&resource_defs(n), FnPolicy::allow())
        .cursor_key(&KEY)
        .clock(clock.clock())
        .build()
        .unwrap()
}

/// The cursor after a first page of 10 in scope `scope`.
fn first_cursor(r: &Resources, scope: &str) -> String {
    let mut o = opts(scope, None);
    o.page_size = 10;
    r.list(&o).unwrap().next_cursor().unwrap().to_string()
}

fn second_page(r: &Resources, scope: &str, cursor: &[u8]) -> Result<Page, Failure> {
    let mut o = opts(scope, None);
    o.page_size = 10;
    o.cursor = Some(cursor.to_vec());
    r.list(&o)
}

fn assert_invalid(result: Result<Page, Failure>, what: &str) {
    match result {
        Ok(p) => panic!("{what}: accepted, page {}", p.json()),
        Err(e) => assert_eq!(e.kind(), FailureKind::InvalidRequest, "{what}: {e}"),
    }
}

/// An empty scope key is a host mistake (the host supplies it), the same
/// answer from every entry point (see also `call_frame.rs`).
#[test]
fn empty_scope_key_fails_with_invalid_argument() {
    let clock = TestClock::at(T0);
    let r = registry(3, &clock);
    let e = r.list(&ListOptions::default()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidArgument);
    assert_eq!(e.jsonrpc_code(), -32603);
    let e = r.list_templates(&ListOptions::default()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidArgument);
    // Even with a genuine cursor.
    let c = first_cursor(&registry(30, &clock), "s");
    let mut o = ListOptions {
        cursor: Some(c.into_bytes()),
        ..ListOptions::default()
    };
    assert_eq!(
        registry(30, &clock).list(&o).unwrap_err().kind(),
        FailureKind::InvalidArgument,
        "empty scope with cursor"
    );
    o.scope_key = vec![0];
    assert_invalid(registry(30, &clock).list(&o), "other scope with cursor");
}

#[test]
fn absent_and_empty_cursor_both_mean_the_first_page() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let absent = r.list(&opts("s", None)).unwrap();
    let empty = r.list(&opts("s", Some(""))).unwrap();
    assert_eq!(absent.json(), empty.json());
    assert_eq!(keys(&absent, "resources", "uri")[0], "res://item/00000");
}

#[test]
fn cursors_are_unpadded_base64url() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "s");
    assert!(!c.is_empty());
    assert!(c
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    assert!(URL_SAFE_NO_PAD.decode(&c).is_ok());
}

/// Whether `needle` occurs anywhere in `haystack`.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn cursor_bytes_reveal_neither_position_nor_issue_time_nor_content_hash() {
    let clock = TestClock::at(T0);
    let r = registry(95, &clock);
    let content_hash = r.content_hash();
    let scope_hash: [u8; 32] = Sha256::digest(b"s").into();
    let mut o = opts("s", None);
    o.page_size = 10;
    let mut position = 0u64;
    loop {
        let page = r.list(&o).unwrap();
        let Some(c) = page.next_cursor() else { break };
        position += 10;
        let raw = URL_SAFE_NO_PAD.decode(c).unwrap();
        for (what, needle) in [
            ("position (BE)", position.to_be_bytes().to_vec()),
            ("position (LE)", position.to_le_bytes().to_vec()),
            (
                "position (BE u32)",
                (position as u32).to_be_bytes().to_vec(),
            ),
            ("issue time (BE)", T0.to_be_bytes().to_vec()),
            ("issue time (LE)", T0.to_le_bytes().to_vec()),
            ("issue time (decimal)", T0.to_string().into_bytes()),
            ("content hash", content_hash.to_vec()),
            ("content hash prefix", content_hash[..8].to_vec()),
            ("scope hash prefix", scope_hash[..8].to_vec()),
        ] {
            assert!(!contains(&raw, &needle), "{what} visible at {position}");
            assert!(!contains(c.as_bytes(), &needle), "{what} in the text");
        }
        o.cursor = Some(c.as_bytes().to_vec());
    }
    assert_eq!(position, 90);
}

#[test]
fn two_cursors_for_the_same_page_differ_and_both_work() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let a = first_cursor(&r, "s");
    let b = first_cursor(&r, "s");
    assert_ne!(a, b);
    // Nothing but the leading version byte is shared: no field sits in
    // the clear at a fixed offset.
    let (ra, rb) = (
        URL_SAFE_NO_PAD.decode(&a).unwrap(),
        URL_SAFE_NO_PAD.decode(&b).unwrap(),
    );
    assert_eq!(ra.len(), rb.len());
    assert_eq!(ra[0], rb[0]);
    let shared = ra.iter().zip(&rb).skip(1).filter(|(x, y)| x == y).count();
    assert!(shared < 16, "{shared} equal bytes out of {}", ra.len() - 1);
    let pa = second_page(&r, "s", a.as_bytes()).unwrap();
    let pb = second_page(&r, "s", b.as_bytes()).unwrap();
    assert_eq!(
        pa.json().split("nextCursor").next(),
        pb.json().split("nextCursor").next()
    );
    assert_eq!(keys(&pa, "resources", "uri")[0], "res://item/00010");
}

#[test]
fn following_cursors_lists_everything_once_in_order() {
    let clock = TestClock::at(T0);
    let r = registry(95, &clock);
    let all = list_all(&r, "scope", 10);
    let expected: Vec<String> = (0..95).map(|i| format!("res://item/{i:05}")).collect();
    assert_eq!(all, expected);
}

#[test]
fn scope_key_binds_exact_bytes_and_change_midway_fails() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "tenant-a");
    assert!(second_page(&r, "tenant-a", c.as_bytes()).is_ok());
    for other in ["tenant-b", "tenant-a ", "tenant-", "Tenant-a"] {
        assert_invalid(second_page(&r, other, c.as_bytes()), other);
    }
    // Arbitrary (non-UTF-8) scope bytes work and bind too.
    let mut o = ListOptions {
        scope_key: vec![0xff, 0x00, 0xfe],
        page_size: 10,
        ..ListOptions::default()
    };
    let c = r.list(&o).unwrap().next_cursor().unwrap().to_string();
    o.cursor = Some(c.into_bytes());
    assert!(r.list(&o).is_ok());
    o.scope_key = vec![0xff, 0x00];
    assert_invalid(r.list(&o), "binary scope prefix");
}

#[test]
fn a_registry_with_one_more_resource_rejects_the_others_cursors() {
    let clock = TestClock::at(T0);
    let small = registry(30, &clock);
    let bigger = registry(31, &clock);
    assert_ne!(small.content_hash(), bigger.content_hash());
    let c = first_cursor(&small, "s");
    assert_invalid(
        second_page(&bigger, "s", c.as_bytes()),
        "bigger accepts small",
    );
    let c = first_cursor(&bigger, "s");
    assert_invalid(
        second_page(&small, "s", c.as_bytes()),
        "small accepts bigger",
    );
}

#[test]
fn a_registry_with_a_changed_description_rejects_the_others_cursors() {
    let clock = TestClock::at(T0);
    let mut defs = resource_defs(30);
    let a = builder(&defs, FnPolicy::allow())
        .cursor_key(&KEY)
        .clock(clock.clock())
        .build()
        .unwrap();
    defs[20] = r#"{"uri":"res://item/00020","name":"item 00020","title":"new"}"#.into();
    let b = builder(&defs, FnPolicy::allow())
        .cursor_key(&KEY)
        .clock(clock.clock())
        .build()
        .unwrap();
    let c = first_cursor(&a, "s");
    assert_invalid(second_page(&b, "s", c.as_bytes()), "changed description");
}

#[test]
fn registries_with_the_same_content_and_key_accept_each_others_cursors() {
    let clock = TestClock::at(T0);
    let a = registry(30, &clock);
    // Same content registered in another order, with another key order.
    let mut defs: Vec<String> = (0..30)
        .rev()
        .map(|i| format!(r#"{{"name":"item {i:05}","uri":"res://item/{i:05}"}}"#))
        .collect();
    defs.swap(3, 17);
    let b = builder(&defs, FnPolicy::allow())
        .cursor_key(&KEY)
        .clock(clock.clock())
        .build()
        .unwrap();
    assert_eq!(a.content_hash(), b.content_hash());
    let c = first_cursor(&a, "s");
    let page = second_page(&b, "s", c.as_bytes()).unwrap();
    assert_eq!(keys(&page, "resources", "uri")[0], "res://item/00010");
    let c = page.next_cursor().unwrap();
    let page = second_page(&a, "s", c.as_bytes()).unwrap();
    assert_eq!(keys(&page, "resources", "uri")[0], "res://item/00020");
}

#[test]
fn registries_with_the_same_content_but_random_keys_reject_each_others_cursors() {
    let clock = TestClock::at(T0);
    let build = || {
        builder(&resource_defs(30), FnPolicy::allow())
            .clock(clock.clock())
            .build()
            .unwrap()
    };
    let (a, b) = (build(), build());
    assert_eq!(a.content_hash(), b.content_hash());
    let c = first_cursor(&a, "s");
    assert!(second_page(&a, "s", c.as_bytes()).is_ok());
    assert_invalid(second_page(&b, "s", c.as_bytes()), "other random key");
    let other_key = builder(&resource_defs(30), FnPolicy::allow())
        .cursor_key(&[0x33; 32])
        .clock(clock.clock())
        .build()
        .unwrap();
    assert_invalid(second_page(&other_key, "s", c.as_bytes()), "other host key");
}

#[test]
fn a_cursor_from_a_registry_with_another_host_key_is_refused() {
    let clock = TestClock::at(T0);
    let a = registry(30, &clock);
    let other = builder(&resource_defs(30), FnPolicy::allow())
        .cursor_key(&[0x33; 32])
        .clock(clock.clock())
        .build()
        .unwrap();
    assert_eq!(a.content_hash(), other.content_hash());
    let c = first_cursor(&a, "s");
    assert_invalid(second_page(&other, "s", c.as_bytes()), "other host key");
    let c = first_cursor(&other, "s");
    assert_invalid(second_page(&a, "s", c.as_bytes()), "other host key back");
    // A key that differs in its last byte only.
    let mut near = KEY;
    near[31] ^= 1;
    let near = builder(&resource_defs(30), FnPolicy::allow())
        .cursor_key(&near)
        .clock(clock.clock())
        .build()
        .unwrap();
    let c = first_cursor(&a, "s");
    assert_invalid(second_page(&near, "s", c.as_bytes()), "key one bit apart");
}

#[test]
fn cursor_expires_after_ten_minutes() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "s");
    clock.set(T0 + 10 * MINUTE - 1);
    assert!(second_page(&r, "s", c.as_bytes()).is_ok());
    clock.set(T0 + 10 * MINUTE);
    let e = second_page(&r, "s", c.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    assert_eq!(e.message(), "cursor expired");
    clock.set(T0 + 1000 * MINUTE);
    assert_invalid(second_page(&r, "s", c.as_bytes()), "long expired");
}

#[test]
fn each_page_issues_a_fresh_cursor() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c1 = first_cursor(&r, "s");
    clock.set(T0 + 9 * MINUTE);
    let c2 = second_page(&r, "s", c1.as_bytes())
        .unwrap()
        .next_cursor()
        .unwrap()
        .to_string();
    // The second cursor is timed from its own page, not the first.
    clock.set(T0 + 18 * MINUTE);
    assert_invalid(second_page(&r, "s", c1.as_bytes()), "old first cursor");
    assert!(second_page(&r, "s", c2.as_bytes()).is_ok());
}

#[test]
fn clock_going_backwards_does_not_make_a_cursor_valid_forever() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "s");
    // Small skew between replicas is tolerated...
    clock.set(T0 - MINUTE);
    assert!(second_page(&r, "s", c.as_bytes()).is_ok());
    // ...a clock far behind the issue time is not.
    clock.set(T0 - MINUTE - 1);
    assert_invalid(
        second_page(&r, "s", c.as_bytes()),
        "one minute and 1 ms back",
    );
    clock.set(0);
    assert_invalid(second_page(&r, "s", c.as_bytes()), "clock at epoch");
}

#[test]
fn flipping_any_single_byte_of_a_cursor_is_refused() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "s");
    // Every character of the text form replaced.
    for i in 0..c.len() {
        let mut t = c.clone().into_bytes();
        t[i] = if t[i] == b'A' { b'B' } else { b'A' };
        assert_invalid(second_page(&r, "s", &t), &format!("character {i}"));
    }
    // Every bit of every decoded byte flipped, re-encoded validly.
    let raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
    for i in 0..raw.len() {
        for bit in 0..8 {
            let mut t = raw.clone();
            t[i] ^= 1 << bit;
            let t = URL_SAFE_NO_PAD.encode(&t);
            assert_invalid(
                second_page(&r, "s", t.as_bytes()),
                &format!("decoded byte {i} bit {bit}"),
            );
        }
    }
}

#[test]
fn malformed_cursors_fail_and_never_restart_at_page_one() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    // Cursors carry a random nonce: take one that uses a URL-safe character
    // (`-` or `_`), so that its standard-alphabet spelling differs from it.
    let c = (0..1000)
        .map(|_| first_cursor(&r, "s"))
        .find(|c| c.contains(['-', '_']))
        .expect("a cursor with a URL-safe character");
    let raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
    let decoded_len = raw.len();
    let mut bad: Vec<(String, Vec<u8>)> = vec![
        ("garbage".into(), b"not a cursor".to_vec()),
        ("one char".into(), b"A".to_vec()),
        (
            "zeroes".into(),
            URL_SAFE_NO_PAD.encode(vec![0u8; decoded_len]).into_bytes(),
        ),
        (
            "version and zeroes".into(),
            URL_SAFE_NO_PAD
                .encode([&raw[..1], &vec![0u8; decoded_len - 1]].concat())
                .into_bytes(),
        ),
        ("padded".into(), format!("{c}=").into_bytes()),
        ("extended".into(), format!("{c}AAAA").into_bytes()),
        (
            "standard alphabet".into(),
            c.replace(['-', '_'], "+").into_bytes(),
        ),
        (
            "non-UTF-8".into(),
            [&c.as_bytes()[..10], &[0xff], &c.as_bytes()[11..]].concat(),
        ),
        ("oversized".into(), vec![b'A'; 4097]),
        ("at the ceiling".into(), vec![b'A'; 4096]),
        ("whitespace".into(), format!(" {c}").into_bytes()),
    ];
    for n in [1, 10, c.len() / 2, c.len() - 1] {
        bad.push((format!("truncated to {n}"), c.as_bytes()[..n].to_vec()));
    }
    for (what, cursor) in bad {
        assert_ne!(cursor, c.as_bytes(), "{what}");
        assert_invalid(second_page(&r, "s", &cursor), &what);
        assert_invalid(
            r.list_templates(&ListOptions {
                scope_key: b"s".to_vec(),
                cursor: Some(cursor.clone()),
                ..ListOptions::default()
            }),
            &what,
        );
    }
}

#[test]
fn an_oversized_cursor_is_refused() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "s");
    // A genuine cursor followed by enough padding characters to pass 4 KiB.
    let long = format!("{c}{}", "A".repeat(4097 - c.len()));
    assert_eq!(long.len(), 4097);
    assert_invalid(second_page(&r, "s", long.as_bytes()), "4097 bytes");
    assert_invalid(second_page(&r, "s", &vec![b'!'; 64 * 1024]), "64 KiB");
}

#[test]
fn a_truncated_cursor_is_refused() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "s");
    for n in 1..c.len() {
        assert_invalid(
            second_page(&r, "s", &c.as_bytes()[..n]),
            &format!("first {n} characters"),
        );
    }
    let raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
    for n in 1..raw.len() {
        let t = URL_SAFE_NO_PAD.encode(&raw[..n]);
        assert_invalid(
            second_page(&r, "s", t.as_bytes()),
            &format!("first {n} decoded bytes"),
        );
    }
}

#[test]
fn a_cursor_with_an_empty_ciphertext_is_refused() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let raw = URL_SAFE_NO_PAD.decode(first_cursor(&r, "s")).unwrap();
    // The version byte and the 24-byte nonce, with nothing sealed after them;
    // and the same followed by the 16-byte tag alone.
    let header = &raw[..25];
    let tag = &raw[raw.len() - 16..];
    for t in [header.to_vec(), [header, tag].concat()] {
        let t = URL_SAFE_NO_PAD.encode(t);
        assert_invalid(second_page(&r, "s", t.as_bytes()), "empty ciphertext");
    }
}

#[test]
fn a_cursor_that_is_not_base64url_is_refused() {
    let clock = TestClock::at(T0);
    let r = registry(30, &clock);
    let c = first_cursor(&r, "s");
    let standard = URL_SAFE_NO_PAD
        .decode(&c)
        .map(|raw| base64::engine::general_purpose::STANDARD.encode(raw))
        .unwrap();
    for (what, t) in [
        ("standard alphabet with padding", standard.into_bytes()),
        ("padded", format!("{c}=").into_bytes()),
        (
            "space inside",
            [&c.as_bytes()[..20], b" ", &c.as_bytes()[21..]].concat(),
        ),
        (
            "dot inside",
            [&c.as_bytes()[..20], b".", &c.as_bytes()[21..]].concat(),
        ),
        (
            "non-UTF-8",
            [&c.as_bytes()[..20], &[0xc3], &c.as_bytes()[21..]].concat(),
        ),
        ("trailing newline", format!("{c}\n").into_bytes()),
    ] {
        assert_invalid(second_page(&r, "s", &t), what);
    }
}

#[test]
fn a_list_cursor_given_to_list_templates_fails_and_vice_versa() {
    let clock = TestClock::at(T0);
    let mut defs = resource_defs(30);
    defs.extend(template_defs(30));
    let r = builder(&defs, FnPolicy::allow())
        .cursor_key(&KEY)
        .clock(clock.clock())
        .build()
        .unwrap();
    let mut o = opts("s", None);
    o.page_size = 10;
    let list_cursor = r.list(&o).unwrap().next_cursor().unwrap().to_string();
    let tpl_cursor = r
        .list_templates(&o)
        .unwrap()
        .next_cursor()
        .unwrap()
        .to_string();
    o.cursor = Some(list_cursor.clone().into_bytes());
    assert_invalid(r.list_templates(&o), "list cursor to list_templates");
    assert!(r.list(&o).is_ok());
    o.cursor = Some(tpl_cursor.into_bytes());
    assert_invalid(r.list(&o), "templates cursor to list");
    let page = r.list_templates(&o).unwrap();
    assert_eq!(
        keys(&page, "resourceTemplates", "uriTemplate")[0],
        "tpl://item/00010/{id}"
    );
}

#[test]
fn cursor_failure_does_not_call_the_policy() {
    let clock = TestClock::at(T0);
    let policy = FnPolicy::allow();
    let r = builder(&resource_defs(30), policy.clone())
        .cursor_key(&KEY)
        .clock(clock.clock())
        .build()
        .unwrap();
    assert_invalid(second_page(&r, "s", b"bogus"), "bogus");
    assert_eq!(policy.calls(), 0);
}
