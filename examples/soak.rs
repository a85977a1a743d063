//! Soak run: many mixed reads and list pages on several threads, watching
//! resident memory and the thread count for growth.
//!
//! Run through `scripts/soak.sh` (release mode). By default 1,000,000 reads
//! and 100,000 list pages on 8 threads. Reads mix complete bundles (exact
//! URI and template), partial bundles (one failing item of three), failing
//! reads (the only item fails) and hung readers (which ignore cancellation
//! and block past their 50 ms item deadline, until released, on an executor;
//! one read in 1,000). Half of the other reads run inline, half on the
//! executor. List pages walk a registry of 1,000 resources and 100
//! templates, following cursors.
//!
//! A sampler records RSS (`VmRSS`) and the thread count (`Threads`) from
//! `/proc/self/status` every second and prints a table. The verdict compares
//! the largest RSS over the second half of the samples with the largest over
//! the first samples after warm-up (the first 10% of operations): flat when
//! it grew by at most 10% plus 2 MiB. Thread counts must stay below the
//! bound the executor allows and fall back once hung readers are released.
//! Every read and page outcome is checked; the program exits non-zero on a
//! wrong outcome or a growth verdict.
//!
//! Options (environment): `SOAK_READS`, `SOAK_PAGES`, `SOAK_THREADS`,
//! `SOAK_SAMPLE_MS`, `SOAK_HANG_EVERY` (one hung read per this many reads;
//! 0 for none).

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use mcp_resources::*;

/// How long a hung reader blocks unless released first (its item deadline
/// is [`ITEM_TIMEOUT_MS`]).
const HANG: Duration = Duration::from_millis(200);
const ITEM_TIMEOUT_MS: i64 = 50;
const EXECUTOR_THREADS: usize = 4;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Blocks hung readers until it is opened (or their own bound passes).
#[derive(Default)]
struct Gate {
    open: Mutex<bool>,
    changed: Condvar,
}

impl Gate {
    fn wait(&self, at_most: Duration) {
        let open = self.open.lock().unwrap();
        let _unused = self
            .changed
            .wait_timeout_while(open, at_most, |open| !*open)
            .unwrap();
    }
    fn release(&self) {
        *self.open.lock().unwrap() = true;
        self.changed.notify_all();
    }
}

/// Plans by URI: `soak://partial` has three items, the second failing;
/// every other URI is its own single item. Bodies: `soak://fail…` fail,
/// `soak://hung` blocks, the rest are 1 KiB of text.
struct Handler {
    text: String,
    gate: Arc<Gate>,
    hung_running: AtomicUsize,
}

impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        if m.uri() == "soak://partial" {
            let t = |u: &str| ResourceTarget::new(u, "", None).map_err(CallbackError::failed);
            let items = vec![
                t("soak://part/1")?,
                t("soak://fail/2")?,
                t("soak://part/3")?,
            ];
            return ResourceReadPlan::new(t(m.uri())?, items).map_err(CallbackError::failed);
        }
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }

    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        let uri = t.uri();
        if uri.starts_with("soak://fail") {
            return Err(CallbackError::failed("scripted failure"));
        }
        if uri == "soak://hung" {
            self.hung_running.fetch_add(1, Ordering::SeqCst);
            self.gate.wait(HANG);
            self.hung_running.fetch_sub(1, Ordering::SeqCst);
        }
        ResourcePayload::text("text/plain", &self.text).map_err(CallbackError::failed)
    }
}

#[derive(Clone, Copy)]
struct Sample {
    at: Duration,
    ops: u64,
    rss_kib: u64,
    threads: u64,
}

fn status() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("Threads:"))
}

#[derive(Default)]
struct Counts {
    complete: AtomicU64,
    partial: AtomicU64,
    failed: AtomicU64,
    hung: AtomicU64,
    /// Reads of well-behaved readers that hit their item deadline anyway
    /// (a loaded machine, or an executor whose workers are all busy with
    /// hung readers until their replacements start): correct, but counted.
    late: AtomicU64,
    pages: AtomicU64,
    wrong: AtomicU64,
}

fn main() {
    let reads = env("SOAK_READS", 1_000_000);
    let pages = env("SOAK_PAGES", 100_000);
    let threads = env("SOAK_THREADS", 8).max(1);
    let sample_ms = env("SOAK_SAMPLE_MS", 1000).max(10);
    let hang_every = env("SOAK_HANG_EVERY", 1000);

    let gate = Arc::new(Gate::default());
    let handler = Arc::new(Handler {
        text: "0123456789abcdef".repeat(64),
        gate: gate.clone(),
        hung_running: AtomicUsize::new(0),
    });
    let mut builder = Resources::builder()
        .policy(Arc::new(AllowAll))
        .limits(ResourceLimits::new().with(Limit::ItemTimeoutMs, ITEM_TIMEOUT_MS));
    let mut bind = |json: String| {
        builder.push(ResourceBinding::new(&json, handler.clone()).expect("valid definition"));
    };
    for uri in [
        "soak://small",
        "soak://partial",
        "soak://failing",
        "soak://hung",
    ] {
        bind(format!(r#"{{"uri":"{uri}","name":"{uri}"}}"#));
    }
    bind(r#"{"uriTemplate":"soak://doc/{id}","name":"doc"}"#.to_string());
    for i in 0..1000 {
        bind(format!(r#"{{"uri":"list://r/{i:04}","name":"r{i:04}"}}"#));
    }
    for i in 0..100 {
        bind(format!(
            r#"{{"uriTemplate":"list://t/{i:03}/{{id}}","name":"t{i:03}"}}"#
        ));
    }
    let registry = Arc::new(builder.build().expect("valid registry"));
    let executor = Executor::new(EXECUTOR_THREADS).expect("an executor");
    // Regular workers, their capped replacements, the soak threads, the
    // sampler and main.
    let thread_bound = (EXECUTOR_THREADS + (8 * EXECUTOR_THREADS).max(64)) as u64 + threads + 2;

    let (rss0, threads0) = status();
    println!(
        "soak: {reads} reads, {pages} list pages, {threads} threads, executor of {EXECUTOR_THREADS}, \
         one hung read per {hang_every}; start RSS {rss0} KiB, {threads0} threads"
    );
    println!(
        "{:>8} {:>10} {:>10} {:>8}",
        "seconds", "ops", "RSS KiB", "threads"
    );

    let ops_done = Arc::new(AtomicU64::new(0));
    let total_ops = reads + pages;
    let finished = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let sampler = {
        let ops_done = ops_done.clone();
        let finished = finished.clone();
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            while !finished.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(sample_ms));
                let (rss_kib, threads) = status();
                let s = Sample {
                    at: start.elapsed(),
                    ops: ops_done.load(Ordering::SeqCst),
                    rss_kib,
                    threads,
                };
                println!(
                    "{:>8.1} {:>10} {:>10} {:>8}",
                    s.at.as_secs_f64(),
                    s.ops,
                    s.rss_kib,
                    s.threads
                );
                samples.push(s);
            }
            samples
        })
    };

    let counts = Arc::new(Counts::default());
    let workers: Vec<_> = (0..threads)
        .map(|w| {
            let registry = registry.clone();
            let executor = executor.clone();
            let counts = counts.clone();
            let ops_done = ops_done.clone();
            std::thread::spawn(move || {
                let my_reads = reads / threads + u64::from(w < reads % threads);
                let my_pages = pages / threads + u64::from(w < pages % threads);
                let pooled = ReadOptions::from(CallOptions {
                    executor: Some(executor),
                    ..CallOptions::default()
                });
                let inline = ReadOptions::default();
                let scope = format!("soak-{w}");
                let mut cursor: Option<String> = None;
                let mut templates = false;
                let mut pages_done = 0;
                for i in 0..my_reads {
                    // Every thread runs the same mix (an offset per thread
                    // keeps them out of step): categories cycle over ten
                    // reads, inline and executor alternate per cycle.
                    let k = i + w * 131;
                    let hung = hang_every > 0 && k % hang_every == hang_every - 1;
                    let uri = if hung {
                        "soak://hung".to_string()
                    } else {
                        match k % 10 {
                            0..=3 => "soak://small".to_string(),
                            4..=6 => format!("soak://doc/{}", k % 100),
                            7 | 8 => "soak://partial".to_string(),
                            _ => "soak://failing".to_string(),
                        }
                    };
                    let options = if hung || (k / 10).is_multiple_of(2) {
                        &pooled
                    } else {
                        &inline
                    };
                    let got = registry.read(uri.as_bytes(), options);
                    let timed_out = match &got {
                        Err(e) => e.kind() == FailureKind::Timeout,
                        Ok(b) => b.issues().iter().any(|i| i.code() == IssueCode::Timeout),
                    };
                    let right = match (uri.as_str(), &got) {
                        _ if timed_out && !hung => {
                            counts.late.fetch_add(1, Ordering::Relaxed);
                            true
                        }
                        ("soak://hung", Err(e)) => {
                            counts.hung.fetch_add(1, Ordering::Relaxed);
                            e.kind() == FailureKind::Timeout
                        }
                        ("soak://partial", Ok(b)) => {
                            counts.partial.fetch_add(1, Ordering::Relaxed);
                            b.is_partial() && b.item_count() == 3
                        }
                        ("soak://failing", Err(e)) => {
                            counts.failed.fetch_add(1, Ordering::Relaxed);
                            e.kind() == FailureKind::ReadFailed
                        }
                        (_, Ok(b)) => {
                            counts.complete.fetch_add(1, Ordering::Relaxed);
                            !b.is_partial() && b.item_count() == 1
                        }
                        _ => false,
                    };
                    if !right && counts.wrong.fetch_add(1, Ordering::Relaxed) < 5 {
                        eprintln!("wrong outcome for {uri}: {:?}", got.map(|b| b.into_json()));
                    }
                    ops_done.fetch_add(1, Ordering::Relaxed);
                    // List pages spread evenly between the reads.
                    while pages_done < my_pages && pages_done * my_reads.max(1) <= i * my_pages {
                        page(&registry, &scope, &mut cursor, &mut templates, &counts);
                        pages_done += 1;
                        ops_done.fetch_add(1, Ordering::Relaxed);
                    }
                }
                while pages_done < my_pages {
                    page(&registry, &scope, &mut cursor, &mut templates, &counts);
                    pages_done += 1;
                    ops_done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a soak thread");
    }
    let elapsed = start.elapsed();
    gate.release();
    // Let released hung readers return and their workers retire.
    let settle = Instant::now();
    while (handler.hung_running.load(Ordering::SeqCst) > 0 || executor.replacement_workers() > 0)
        && settle.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(50));
    finished.store(true, Ordering::SeqCst);
    let samples = sampler.join().expect("the sampler");
    let (rss_end, threads_end) = status();

    let c = |a: &AtomicU64| a.load(Ordering::SeqCst);
    println!(
        "done in {:.1} s: {} complete, {} partial, {} failing, {} hung reads ({} others timed out under load); \
         {} list pages; {} wrong outcomes",
        elapsed.as_secs_f64(),
        c(&counts.complete),
        c(&counts.partial),
        c(&counts.failed),
        c(&counts.hung),
        c(&counts.late),
        c(&counts.pages),
        c(&counts.wrong)
    );
    println!(
        "{:.0} operations/s; after release: RSS {rss_end} KiB, {threads_end} threads \
         ({} executor workers alive, {} replacements)",
        total_ops as f64 / elapsed.as_secs_f64(),
        executor.live_workers(),
        executor.replacement_workers()
    );

    let mut ok = c(&counts.wrong) == 0;
    let warm = samples
        .iter()
        .position(|s| s.ops >= total_ops / 10)
        .unwrap_or(samples.len());
    let after_warmup = &samples[warm.min(samples.len())..];
    if after_warmup.len() < 4 {
        println!(
            "verdict: too few samples after warm-up to judge growth ({} samples)",
            samples.len()
        );
    } else {
        let early = &after_warmup[..after_warmup.len().min(3)];
        let late = &samples[samples.len() / 2..];
        let early_max = early.iter().map(|s| s.rss_kib).max().unwrap_or(0);
        let late_max = late.iter().map(|s| s.rss_kib).max().unwrap_or(0);
        let allowed = early_max + early_max / 10 + 2 * 1024;
        let flat = late_max <= allowed;
        println!(
            "verdict: RSS {} (first samples after warm-up: max {early_max} KiB; last half: max {late_max} KiB; allowed {allowed} KiB)",
            if flat { "FLAT" } else { "GROWING" }
        );
        let (first, last) = (late[0], late[late.len() - 1]);
        let ops = last.ops.saturating_sub(first.ops).max(1);
        println!(
            "RSS over the last half: {:+} KiB in {ops} operations ({:.1} bytes per 1,000 operations)",
            last.rss_kib as i64 - first.rss_kib as i64,
            (last.rss_kib as f64 - first.rss_kib as f64) * 1024.0 * 1000.0 / ops as f64
        );
        ok &= flat;
    }
    let max_threads = samples.iter().map(|s| s.threads).max().unwrap_or(0);
    let threads_ok = max_threads <= thread_bound
        && threads_end <= threads0 + executor.replacement_workers() as u64;
    println!(
        "verdict: threads {} (max {max_threads}, bound {thread_bound}; {threads_end} at the end, {threads0} at the start)",
        if threads_ok { "BOUNDED" } else { "UNBOUNDED" }
    );
    ok &= threads_ok;
    if !ok {
        std::process::exit(1);
    }
}

fn page(
    registry: &Resources,
    scope: &str,
    cursor: &mut Option<String>,
    templates: &mut bool,
    counts: &Counts,
) {
    let options = ListOptions {
        scope_key: scope.as_bytes().to_vec(),
        cursor: cursor.as_ref().map(|c| c.as_bytes().to_vec()),
        ..ListOptions::default()
    };
    let got = if *templates {
        registry.list_templates(&options)
    } else {
        registry.list(&options)
    };
    counts.pages.fetch_add(1, Ordering::Relaxed);
    match got {
        Ok(p) if !p.is_empty() => {
            *cursor = p.next_cursor().map(str::to_string);
            if cursor.is_none() {
                *templates = !*templates;
            }
        }
        _ => {
            counts.wrong.fetch_add(1, Ordering::Relaxed);
            *cursor = None;
        }
    }
}
