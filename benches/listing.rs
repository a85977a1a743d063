//! Listing benchmarks (plain `main`, `harness = false`): run with
//! `cargo bench --bench listing`.
//!
//! Figures printed:
//! - one page of 100 from 1,000,000 registered resources, first page and a
//!   page from the middle (per-page cost must not depend on the position or
//!   on the registry size: middle / first <= 1.2);
//! - listing all 100,000 resources in pages of 500, following cursors, next
//!   to its floor measured in the same run (the same pages made by
//!   concatenating the pre-rendered description objects; goal <= 1.5x);
//! - registering 100,000 resources: parsing the definitions plus builder and
//!   build (target <= 50 ms), and builder + build alone, both as the median
//!   of repeated runs in one process; and the first registration in fresh
//!   processes (which also pays for the kernel handing out fresh pages);
//! - registering 100,000 templates, parsing included (goal <= 0.1 s).
//!
//! Lines starting with `GOAL ` state a goal and whether this run met it.
//! `cargo bench --bench listing -- register` runs the registration figures
//! only, `-- list` the listing figures only.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_resources::*;

struct Handler;

impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

fn definition_json(i: usize) -> String {
    format!(
        r#"{{"uri":"file:///project/src/module{:04}/file{i:07}.rs","name":"file{i:07}.rs","mimeType":"text/x-rust"}}"#,
        i % 1000
    )
}

fn definitions(n: usize) -> Vec<ResourceDefinition> {
    (0..n)
        .map(|i| ResourceDefinition::from_json(&definition_json(i)).expect("valid definition"))
        .collect()
}

fn bindings(defs: Vec<ResourceDefinition>) -> Vec<ResourceBinding> {
    let handler: Arc<dyn ResourceHandler> = Arc::new(Handler);
    defs.into_iter()
        .map(|d| ResourceBinding::from_definition(d, handler.clone()))
        .collect()
}

/// Builder + build from ready bindings (cloning a binding clones two `Arc`s).
fn build(bindings: &[ResourceBinding]) -> Resources {
    let mut b = Resources::builder().policy(Arc::new(AllowAll));
    for binding in bindings {
        b.push(binding.clone());
    }
    b.build().expect("registry builds")
}

/// Median time of `runs` calls of `f`; what `f` returns is dropped outside
/// the timed region (freeing a large registry is not part of building it).
fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let out = f();
            let elapsed = t.elapsed();
            drop(black_box(out));
            elapsed
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn options(cursor: Option<&str>, page_size: u32) -> ListOptions {
    ListOptions {
        scope_key: b"bench-scope".to_vec(),
        cursor: cursor.map(|c| c.as_bytes().to_vec()),
        page_size,
        ..ListOptions::default()
    }
}

/// A cursor pointing near `target` (the first position reached by pages of
/// `step` at or after it).
fn cursor_near(r: &Resources, target: usize, step: u32) -> String {
    let mut cursor: Option<String> = None;
    let mut at = 0usize;
    while at < target {
        let page = r.list(&options(cursor.as_deref(), step)).expect("page");
        at += page.len();
        cursor = Some(page.next_cursor().expect("more pages").to_string());
    }
    cursor.expect("a cursor")
}

/// Prints a goal line: `GOAL name value unit (goal OP target unit) met|not met`.
fn goal(name: &str, value: f64, unit: &str, op: &str, target: f64) {
    let met = match op {
        "<=" => value <= target,
        _ => value >= target,
    };
    println!(
        "GOAL {name} {value:.3} {unit} (goal {op} {target} {unit}) {}",
        if met { "met" } else { "not met" }
    );
}

/// A template definition: 1,000 modules of 100 templates, two variables each.
fn template_json(i: usize) -> String {
    format!(
        r#"{{"uriTemplate":"asset://project/module{:04}/item{i:07}/{{id}}/thumbnail/{{size}}","name":"thumb{i:07}","mimeType":"image/png"}}"#,
        i % 1000
    )
}

fn main() {
    if std::env::var_os(COLD_CHILD).is_some() {
        cold_child();
        return;
    }
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if only.as_deref() != Some("register") {
        listing();
    }
    if only.as_deref() != Some("list") {
        registration();
    }
}

fn listing() {
    // 1. One page of 100 from 1,000,000.
    let million = build(&bindings(definitions(1_000_000)));
    let mid = cursor_near(&million, 500_000, 500);
    let first = median(201, || {
        black_box(million.list(&options(None, 100)).expect("first page"));
    });
    let middle = median(201, || {
        black_box(
            million
                .list(&options(Some(&mid), 100))
                .expect("middle page"),
        );
    });
    println!(
        "page of 100 from 1,000,000: first {:.1} us, middle {:.1} us, middle/first {:.2}",
        us(first),
        us(middle),
        middle.as_secs_f64() / first.as_secs_f64()
    );
    drop(million);

    // Same page from a small registry (size independence).
    let small = build(&bindings(definitions(1_000)));
    let small_first = median(201, || {
        black_box(small.list(&options(None, 100)).expect("first page"));
    });
    println!(
        "page of 100 from 1,000: first {:.1} us (1,000,000 / 1,000 = {:.2})",
        us(small_first),
        first.as_secs_f64() / small_first.as_secs_f64()
    );
    drop(small);

    // 2. All 100,000 in pages of 500.
    let prepared = bindings(definitions(100_000));
    let hundred_k = build(&prepared);
    let all = median(21, || {
        let mut cursor: Option<String> = None;
        let mut n = 0usize;
        loop {
            let page = hundred_k
                .list(&options(cursor.as_deref(), 500))
                .expect("page");
            n += page.len();
            match page.next_cursor() {
                Some(c) => cursor = Some(c.to_string()),
                None => break,
            }
        }
        assert_eq!(n, 100_000);
    });
    // The floor: the same pages made by concatenating the pre-rendered
    // description objects, in the same order, with nothing else.
    let floor = median(21, || {
        let order = hundred_k.resource_order();
        let bindings = hundred_k.bindings();
        let mut n = 0usize;
        for page in order.chunks(500) {
            let len: usize = page
                .iter()
                .map(|&i| bindings[i].definition().json().len() + 1)
                .sum();
            let mut json = String::with_capacity(len + 32);
            json.push_str("{\"resources\":[");
            for (k, &i) in page.iter().enumerate() {
                if k > 0 {
                    json.push(',');
                }
                json.push_str(bindings[i].definition().json());
            }
            json.push_str("]}");
            n += page.len();
            black_box(json);
        }
        assert_eq!(n, 100_000);
    });
    let ratio = all.as_secs_f64() / floor.as_secs_f64();
    println!(
        "list all 100,000 in pages of 500: {:.2} ms; floor (concatenating the pre-rendered objects) {:.2} ms; ratio {ratio:.2} (goal <= 1.5x)",
        ms(all),
        ms(floor)
    );
    goal("list_100k_pages_500_over_floor", ratio, "x", "<=", 1.5);
    drop(hundred_k);
}

fn registration() {
    // 3. Registering 100,000.
    let prepared = bindings(definitions(100_000));
    let jsons: Vec<String> = (0..100_000).map(definition_json).collect();
    let full = median(15, || register(&jsons));
    let build_only = median(15, || build(&prepared));
    println!(
        "register 100,000 (parse JSON + builder + build), warm: {:.2} ms (target <= 50 ms)",
        ms(full)
    );
    goal(
        "resources_register_100k",
        full.as_secs_f64(),
        "s",
        "<=",
        0.05,
    );
    println!(
        "register 100,000 (builder + build of parsed definitions), warm: {:.2} ms",
        ms(build_only)
    );
    match cold_registrations(5) {
        Some(cold) => println!(
            "register 100,000, first in a fresh process (median of 5 processes): {:.2} ms",
            ms(cold)
        ),
        None => println!("register 100,000, first in a fresh process: could not start one"),
    }

    // 4. Registering 100,000 templates (parsing included).
    let templates: Vec<String> = (0..100_000).map(template_json).collect();
    let full = median(7, || register(&templates));
    println!(
        "register 100,000 templates (parse JSON + builder + build), warm: {:.2} ms",
        ms(full)
    );
    goal(
        "templates_register_100k",
        full.as_secs_f64(),
        "s",
        "<=",
        0.1,
    );
}

/// Parses and registers `jsons`, as a host does at startup.
fn register(jsons: &[String]) -> Resources {
    let handler: Arc<dyn ResourceHandler> = Arc::new(Handler);
    let mut b = Resources::builder().policy(Arc::new(AllowAll));
    for j in jsons {
        b.push(ResourceBinding::new(j, handler.clone()).expect("valid definition"));
    }
    b.build().expect("registry builds")
}

/// Set in a child process started by [`cold_registrations`].
const COLD_CHILD: &str = "MCPR_BENCH_COLD_REGISTRATION";

/// The median time of registering 100,000 as the first thing a fresh
/// process does. The warm figures reuse memory the allocator already holds;
/// a server registering at startup also pays for fresh pages, which is what
/// this measures. `None` when the child process cannot be run.
fn cold_registrations(processes: usize) -> Option<Duration> {
    let exe = std::env::current_exe().ok()?;
    let mut times = Vec::with_capacity(processes);
    for _ in 0..processes {
        let out = std::process::Command::new(&exe)
            .env(COLD_CHILD, "1")
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        let nanos: u64 = text.trim().parse().ok()?;
        times.push(Duration::from_nanos(nanos));
    }
    times.sort();
    Some(times[processes / 2])
}

/// The child side of [`cold_registrations`]: prints nanoseconds.
fn cold_child() {
    let jsons: Vec<String> = (0..100_000).map(definition_json).collect();
    let t = Instant::now();
    let r = register(&jsons);
    let elapsed = t.elapsed();
    black_box(&r);
    println!("{}", elapsed.as_nanos());
}
