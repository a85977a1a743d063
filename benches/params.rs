//! Params parsing benchmark (plain main, no harness): the cost of the
//! worst params a client can send within the 256 KiB bound, on the calling
//! thread before any deadline or executor applies (docs/BEHAVIOUR.md §11,
//! §13): `completion/complete` with as many short distinct
//! `context.arguments` names as fit (a duplicate check comparing every
//! name with every earlier one made this cost seconds), parsed alone
//! (`CompleteParams::parse`) and served whole (`Resources::request`:
//! parsing, discovery and the context rules), and `resources/read` params
//! of the same size. Prints each figure, and `GOAL` lines for the goal
//! (each under 5 ms).
//!
//! Run with `cargo bench --bench params`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use mcp_resources::request::MAX_PARAMS_BYTES;
use mcp_resources::*;

struct Reader;

impl ResourceHandler for Reader {
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

/// The `i`-th shortest name over `[A-Za-z0-9]` (`"A"`, `"B"`, ...,
/// `"AA"`, ...): the most distinct names that fit.
fn short_name(mut i: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut name = Vec::new();
    loop {
        name.push(ALPHABET[i % ALPHABET.len()]);
        if i < ALPHABET.len() {
            break;
        }
        i = i / ALPHABET.len() - 1;
    }
    String::from_utf8(name).expect("ASCII")
}

/// Completion params with `n` context arguments of the shortest distinct
/// names, each with an empty value.
fn completion_params(n: usize) -> String {
    let mut s = String::from(
        r#"{"ref":{"type":"ref/resource","uri":"bench://t/{id}"},"argument":{"name":"id","value":""},"context":{"arguments":{"#,
    );
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push('"');
        s.push_str(&short_name(i));
        s.push_str(r#"":"""#);
    }
    s.push_str("}}}");
    s
}

/// The largest such params within the bound, and how many names they hold.
fn worst_completion_params() -> (String, usize) {
    let (mut lo, mut hi) = (0usize, MAX_PARAMS_BYTES);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if completion_params(mid).len() <= MAX_PARAMS_BYTES {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    (completion_params(lo), lo)
}

/// `resources/read` params of about 256 KiB: the URI and as many ignored
/// short members as fit.
fn worst_read_params() -> String {
    let mut s = String::from(r#"{"uri":"bench://a""#);
    let mut i = 0;
    loop {
        let member = format!(r#","{}":"""#, short_name(i));
        if s.len() + member.len() + 1 > MAX_PARAMS_BYTES {
            break;
        }
        s.push_str(&member);
        i += 1;
    }
    s.push('}');
    s
}

/// Median milliseconds of `rounds` runs of `f`.
fn median_ms(rounds: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[rounds / 2]
}

fn goal(name: &str, ms: f64) {
    println!(
        "GOAL {name} {ms:.3} ms (goal < 5 ms) {}",
        if ms < 5.0 { "met" } else { "not met" }
    );
}

fn main() {
    let r = Resources::builder()
        .policy(Arc::new(AllowAll))
        .binding(
            ResourceBinding::new(r#"{"uri":"bench://a","name":"a"}"#, Arc::new(Reader)).unwrap(),
        )
        .binding(
            ResourceBinding::new(
                r#"{"uriTemplate":"bench://t/{id}","name":"t"}"#,
                Arc::new(Reader),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let (complete, names) = worst_completion_params();
    let read = worst_read_params();
    // The heap grows to its working size first (the first rounds of
    // whichever figure came first were slower: page faults).
    for _ in 0..5 {
        black_box(CompleteParams::parse(black_box(complete.as_bytes())).unwrap());
        black_box(serde_json::from_str::<serde_json::Value>(&complete).unwrap());
    }
    let parse = median_ms(21, || {
        black_box(CompleteParams::parse(black_box(complete.as_bytes())).unwrap());
    });
    // For scale: serde_json parsing the same text into a `Value`.
    let value = median_ms(21, || {
        black_box(serde_json::from_str::<serde_json::Value>(black_box(&complete)).unwrap());
    });
    let served = median_ms(21, || {
        let resp = r
            .request(
                b"completion/complete",
                complete.as_bytes(),
                &RequestOptions::default(),
            )
            .unwrap();
        assert!(!resp.is_error());
        black_box(resp);
    });
    let read_served = median_ms(21, || {
        let resp = r
            .request(
                b"resources/read",
                read.as_bytes(),
                &RequestOptions::default(),
            )
            .unwrap();
        assert!(!resp.is_error());
        black_box(resp);
    });
    println!(
        "params/completion_256k_worst/parse      {parse:8.3} ms  ({names} context names, {} bytes)",
        complete.len()
    );
    println!("params/completion_256k_worst/request    {served:8.3} ms  (parse, discovery, context rules)");
    println!("params/completion_256k_worst/serde_json_value {value:8.3} ms  (for scale: the same text as a serde_json Value)");
    println!(
        "params/read_256k_ignored_members/request {read_served:8.3} ms  ({} bytes)",
        read.len()
    );
    goal("completion_params_256k_worst_parse", parse);
    goal("completion_params_256k_worst_request", served);
    goal("read_params_256k_worst_request", read_served);
}
