//! Cursor decoding, through the public listing API.
//!
//! A small registry (exact and template definitions in an order, a
//! discovery policy hiding some, a page size and page byte budget, all from
//! the input) is listed with:
//! - arbitrary cursor bytes: the first page when empty, otherwise always
//!   `invalid_request` (a cursor cannot be forged);
//! - the cursors it issues, each page's cursor altered as the input says
//!   (a changed byte, a cut, an extra byte, the other list method, another
//!   scope key, a clock far ahead or behind, or a clock a little ahead):
//!   every alteration is `invalid_request`, the harmless ones change
//!   nothing, and following the unaltered cursors lists every visible
//!   description exactly once, in order.
#![no_main]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mcp_resources::{
    AllowAll, CallContext, CallbackError, FailureKind, Limit, ListOptions, Page, ResourceBinding,
    ResourceDefinition, ResourceLimits, ResourcePolicy, ResourceTarget, Resources, Visibility,
};
use mcp_resources_fuzz::{Input, NoBodies};

const START_MS: u64 = 1_800_000_000_000;
const HOUR_MS: u64 = 60 * 60 * 1000;

/// Hides the definitions whose name is in the list.
struct Hide(Vec<String>);

impl ResourcePolicy for Hide {
    fn discover(&self, _: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        if self.0.iter().any(|n| n == d.name()) {
            Err(CallbackError::Unavailable)
        } else {
            Ok(())
        }
    }
    fn visibility(&self, c: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        AllowAll.visibility(c, t)
    }
    fn read(&self, c: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        AllowAll.read(c, t)
    }
}

fn options(scope: &[u8], cursor: Option<&[u8]>, page_size: u32) -> ListOptions {
    ListOptions {
        scope_key: scope.to_vec(),
        cursor: cursor.map(<[u8]>::to_vec),
        page_size,
        ..ListOptions::default()
    }
}

fn names(page: &Page, field: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(page.json()).expect("a page is JSON");
    let list = v[field].as_array().expect("a page has its array");
    assert_eq!(list.len(), page.len());
    assert_eq!(
        v.get("nextCursor").and_then(|c| c.as_str()),
        page.next_cursor()
    );
    list.iter()
        .map(|d| d["name"].as_str().expect("a name").to_string())
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let exact = input.below(25);
    let templates = input.below(9);
    let mask = u32::from(input.u16()) | (u32::from(input.u16()) << 16);
    let rotate = input.below(32);
    let page_size = input.below(9) as u32;
    let page_bytes = input.byte();
    let mode = input.below(2);

    // Definitions, registered in a rotated order; names give the sort order.
    let mut defs: Vec<(bool, String, String)> = Vec::new();
    for i in 0..exact {
        let name = format!("r{i:02}");
        defs.push((
            false,
            format!(r#"{{"uri":"res://k/{i:02}","name":"{name}"}}"#),
            name,
        ));
    }
    for i in 0..templates {
        let name = format!("t{i:02}");
        let json = format!(r#"{{"uriTemplate":"tpl://k/{i:02}/{{id}}","name":"{name}"}}"#);
        defs.push((true, json, name));
    }
    if !defs.is_empty() {
        let by = rotate % defs.len();
        defs.rotate_left(by);
    }
    let hidden: Vec<String> = defs
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << (i % 32)) != 0)
        .map(|(_, d)| d.2.clone())
        .collect();
    let longest = defs.iter().map(|d| d.1.len() as i64 + 1).max().unwrap_or(1);
    // Pages are shaped for the newest revision: its result members
    // (`resultType`, `ttlMs` 0, `cacheScope` "private", as nothing is
    // declared) take page bytes too, so that every description still fits
    // an empty page.
    let fields = r#","resultType":"complete","ttlMs":0,"cacheScope":"private""#.len() as i64;
    let mut limits = ResourceLimits::new();
    if page_bytes != 0 {
        limits.set(
            Limit::MaxPageBytes,
            256 + longest + fields + i64::from(page_bytes % 100),
        );
    }
    let now = Arc::new(AtomicU64::new(START_MS));
    let clock = now.clone();
    let mut builder = Resources::builder()
        .policy(Arc::new(Hide(hidden.clone())))
        .limits(limits)
        .cursor_key(&[7u8; 32])
        .clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    for (_, json, _) in &defs {
        builder.push(ResourceBinding::new(json, Arc::new(NoBodies)).expect("valid definition"));
    }
    let registry = builder.build().expect("valid registry");
    let scope = b"scope-a".as_slice();

    if mode == 0 {
        let raw = input.rest();
        for templates_list in [false, true] {
            let o = options(scope, Some(raw), page_size);
            let page = if templates_list {
                registry.list_templates(&o)
            } else {
                registry.list(&o)
            };
            match page {
                Ok(_) => assert!(raw.is_empty(), "forged cursor {raw:?} accepted"),
                Err(e) => {
                    assert!(!raw.is_empty(), "first page failed: {e}");
                    assert_eq!(e.kind(), FailureKind::InvalidRequest);
                }
            }
        }
        return;
    }

    for (templates_list, field) in [(false, "resources"), (true, "resourceTemplates")] {
        let list = |o: &ListOptions, other_method: bool| {
            if templates_list != other_method {
                registry.list_templates(o)
            } else {
                registry.list(o)
            }
        };
        let mut expected: Vec<&str> = defs
            .iter()
            .filter(|d| d.0 == templates_list && !hidden.contains(&d.2))
            .map(|d| d.2.as_str())
            .collect();
        expected.sort_unstable();
        let mut seen: Vec<String> = Vec::new();
        let mut cursor: Option<String> = None;
        let mut finished = false;
        for _ in 0..64 {
            if let Some(c) = &cursor {
                // An alteration of this page's cursor first.
                let mut bytes = c.as_bytes().to_vec();
                let op = input.below(10);
                let at = usize::from(input.u16()) % bytes.len();
                let mut scope_used = scope;
                let mut other_method = false;
                let mut must_fail = true;
                match op {
                    0 => bytes[at] ^= 1 << input.below(8),
                    1 => bytes.truncate(at.max(1)),
                    2 => bytes.insert(at, input.byte()),
                    3 => other_method = true,
                    4 => scope_used = b"scope-b",
                    5 => {
                        now.fetch_add(HOUR_MS, Ordering::SeqCst);
                    }
                    6 => {
                        now.fetch_sub(HOUR_MS, Ordering::SeqCst);
                    }
                    7 => {
                        now.fetch_add(u64::from(input.u16()), Ordering::SeqCst);
                        must_fail = false;
                    }
                    _ => must_fail = false,
                }
                if op < 3 && bytes == c.as_bytes() {
                    must_fail = false;
                }
                let got = list(&options(scope_used, Some(&bytes), page_size), other_method);
                if must_fail {
                    let e = got.expect_err("an altered cursor was accepted");
                    assert_eq!(e.kind(), FailureKind::InvalidRequest);
                } else {
                    got.expect("an unaltered cursor was refused");
                }
                now.store(START_MS, Ordering::SeqCst);
            }
            let page = list(
                &options(scope, cursor.as_deref().map(str::as_bytes), page_size),
                false,
            )
            .expect("a page");
            let got = names(&page, field);
            assert!(page_size == 0 || got.len() <= page_size as usize);
            seen.extend(got);
            match page.next_cursor() {
                Some(c) => {
                    assert!(!c.is_empty());
                    cursor = Some(c.to_string());
                }
                None => {
                    finished = true;
                    break;
                }
            }
        }
        assert!(finished, "more pages than descriptions");
        assert_eq!(seen, expected, "pages of {field}");
    }
});
