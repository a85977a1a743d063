//! Resources in tool results (docs/BEHAVIOUR.md §16): embedding ten
//! resources in a tool result against ten plain reads of the same
//! resources (1 KiB text each, exact URIs, the built-in allow-all policy,
//! inline), and, for scale, the link form and the `read_resource` tool.
//!
//! Run with `cargo bench --bench embed`. Prints a `GOAL` line: embedding
//! ten resources costs at most 1.2x ten reads (each read's result made and
//! dropped, as a host sending ten read results would).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use mcp_resources::tools::{EmbedForm, EmbedOptions};
use mcp_resources::*;

mod common;
use common::Small;

/// The best of `rounds` timings of `iters` calls of `f`, in microseconds
/// per call (the best round is the one least disturbed by the machine).
fn best_us(rounds: u32, iters: u32, mut f: impl FnMut()) -> f64 {
    for _ in 0..iters / 10 {
        f();
    }
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        for _ in 0..iters {
            f();
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / iters as f64);
    }
    best
}

fn main() {
    let small = Arc::new(Small {
        text: "abcdefghijklmnop".repeat(64),
    });
    let mut b = Resources::builder().policy(Arc::new(AllowAll));
    let uris: Vec<String> = (0..10).map(|i| format!("doc://small/{i}")).collect();
    for u in &uris {
        b.push(
            ResourceBinding::new(&format!(r#"{{"uri":"{u}","name":"n"}}"#), small.clone()).unwrap(),
        );
    }
    let r = b.build().unwrap();
    let read = ReadOptions::default();
    let embed = EmbedOptions::default();
    let links = EmbedOptions {
        form: EmbedForm::Link,
        ..EmbedOptions::default()
    };
    let uri_bytes: Vec<&[u8]> = uris.iter().map(|u| u.as_bytes()).collect();
    let (rounds, iters) = (7, 20_000);

    let ten_reads = best_us(rounds, iters, || {
        for u in &uri_bytes {
            black_box(r.read(black_box(u), &read).unwrap());
        }
    });
    let embedded = best_us(rounds, iters, || {
        black_box(r.embed(black_box(&uri_bytes), &embed).unwrap());
    });
    let whole = best_us(rounds, iters, || {
        black_box(
            r.embed(black_box(&uri_bytes), &embed)
                .unwrap()
                .call_tool_result(),
        );
    });
    let linked = best_us(rounds, iters, || {
        black_box(r.embed(black_box(&uri_bytes), &links).unwrap());
    });
    let tool_options = RequestOptions::default();
    let params = br#"{"name":"read_resource","arguments":{"uri":"doc://small/3"}}"#;
    let one_read = best_us(rounds, iters, || {
        black_box(r.read(black_box(b"doc://small/3"), &read).unwrap());
    });
    let tool = best_us(rounds, iters, || {
        black_box(
            r.call_resource_tool(black_box(params), &tool_options)
                .unwrap(),
        );
    });

    println!("mcp-resources embedding benchmark (10 resources of 1 KiB text, inline, allow-all)");
    println!("{:<52} {ten_reads:>9.3} us", "ten reads");
    println!(
        "{:<52} {embedded:>9.3} us",
        "embed the ten (resource blocks)"
    );
    println!(
        "{:<52} {whole:>9.3} us",
        "embed the ten and make the CallToolResult"
    );
    println!(
        "{:<52} {linked:>9.3} us",
        "embed the ten as links (root checks, no body)"
    );
    println!("{:<52} {one_read:>9.3} us", "one read");
    println!(
        "{:<52} {tool:>9.3} us",
        "read_resource tool call (params parsed)"
    );
    let ratio = embedded / ten_reads;
    println!(
        "GOAL embed_10_resources_over_10_reads {ratio:.2} x (goal <= 1.2 x) {}",
        if ratio <= 1.2 { "met" } else { "not met" }
    );
}
