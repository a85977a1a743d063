//! Blob benchmark (plain main, no harness): one 16 MiB blob read into the
//! result JSON, each figure from a fresh process (so that the result's pages
//! are new, as in a server that has not read such a blob before), through
//! the C ABI (a reader lending its bytes with
//! `mcpr_payload_set_blob_borrowed`, and one handing a copy with
//! `mcpr_payload_set_blob`) and through the Rust API
//! (`ResourcePayload::blob_shared`, `blob_owned`). Prints MB/s of JSON
//! output, the reference (base64 of the same bytes into a fresh buffer,
//! same process), their ratio, and the memory rise (peak RSS during the
//! read minus RSS before it, from /proc/self/status) over the output size,
//! with GOAL lines for the goals (throughput at least 0.9x the reference,
//! memory rise at most 1.1x the output).
//!
//! Run with `cargo bench --bench blob`. The C ABI is called from Rust here
//! (same exports, same code path as a C host; the callbacks are
//! `extern "C-unwind"` functions).

// The handles are opaque Rust types behind pointers, as in the library.
#![allow(improper_ctypes)]

use std::ffi::c_void;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use mcp_resources::ffi::{
    mcpr_binding_callbacks, mcpr_builder, mcpr_bundle, mcpr_call, mcpr_cb_result, mcpr_error,
    mcpr_limit, mcpr_match, mcpr_payload_builder, mcpr_plan_builder, mcpr_read_options,
    mcpr_resources, mcpr_status, mcpr_str, mcpr_target, MCPR_CB_FAILED, MCPR_CB_OK,
    MCPR_LIMIT_MAX_ITEM_BYTES,
};
use mcp_resources::*;

mod common;
use common::status_kib;

const N: usize = 16 * 1024 * 1024;
/// Fresh processes per mode; the best time and the largest rise are kept.
const RUNS: usize = 3;

extern "C" {
    fn mcpr_builder_new() -> *mut mcpr_builder;
    fn mcpr_builder_set_policy_allow_all(
        b: *mut mcpr_builder,
        err: *mut *mut mcpr_error,
    ) -> mcpr_status;
    fn mcpr_builder_set_limit(
        b: *mut mcpr_builder,
        which: mcpr_limit,
        value: i64,
        err: *mut *mut mcpr_error,
    ) -> mcpr_status;
    fn mcpr_builder_add(
        b: *mut mcpr_builder,
        definition_json: mcpr_str,
        cb: *const mcpr_binding_callbacks,
        err: *mut *mut mcpr_error,
    ) -> mcpr_status;
    fn mcpr_builder_build(
        b: *mut mcpr_builder,
        out: *mut *mut mcpr_resources,
        err: *mut *mut mcpr_error,
    ) -> mcpr_status;
    fn mcpr_builder_free(b: *mut mcpr_builder);
    fn mcpr_resources_free(r: *mut mcpr_resources);
    fn mcpr_read(
        r: *const mcpr_resources,
        uri: mcpr_str,
        opt: *const mcpr_read_options,
        out: *mut *mut mcpr_bundle,
        err: *mut *mut mcpr_error,
    ) -> mcpr_status;
    fn mcpr_bundle_json(b: *const mcpr_bundle) -> mcpr_str;
    fn mcpr_bundle_free(b: *mut mcpr_bundle);
    fn mcpr_payload_set_blob(
        o: *mut mcpr_payload_builder,
        mime_type: mcpr_str,
        data: *const u8,
        len: usize,
        err: *mut *mut mcpr_error,
    ) -> mcpr_status;
    fn mcpr_payload_set_blob_borrowed(
        o: *mut mcpr_payload_builder,
        mime_type: mcpr_str,
        data: *const u8,
        len: usize,
        release: Option<unsafe extern "C-unwind" fn(*mut c_void)>,
        release_data: *mut c_void,
        err: *mut *mut mcpr_error,
    ) -> mcpr_status;
}

extern "C-unwind" {
    fn mcpr_resolve_single(
        ud: *mut c_void,
        call: *const mcpr_call,
        m: *const mcpr_match,
        plan: *mut mcpr_plan_builder,
    ) -> mcpr_cb_result;
}

fn s(text: &'static str) -> mcpr_str {
    mcpr_str {
        ptr: text.as_ptr().cast(),
        len: text.len(),
    }
}

/// The host's bytes (`user_data` of the C binding).
struct Host {
    data: Vec<u8>,
    borrowed: bool,
}

unsafe extern "C-unwind" fn release_nothing(_: *mut c_void) {}

unsafe extern "C-unwind" fn c_read(
    ud: *mut c_void,
    _: *const mcpr_call,
    _: *const mcpr_target,
    out: *mut mcpr_payload_builder,
) -> mcpr_cb_result {
    // SAFETY: `ud` is the `Host` registered below, alive for the run.
    let host = unsafe { &*ud.cast::<Host>() };
    let mime = s("application/octet-stream");
    let (p, n) = (host.data.as_ptr(), host.data.len());
    // SAFETY: `out` is this callback's payload builder; the bytes outlive
    // the registry.
    let st = unsafe {
        if host.borrowed {
            mcpr_payload_set_blob_borrowed(
                out,
                mime,
                p,
                n,
                Some(release_nothing),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        } else {
            mcpr_payload_set_blob(out, mime, p, n, std::ptr::null_mut())
        }
    };
    if st == mcpr_status::MCPR_OK {
        MCPR_CB_OK
    } else {
        MCPR_CB_FAILED
    }
}

/// Runs `read` once, returning (seconds, JSON bytes, memory rise in bytes).
/// `read` returns the JSON length and what to free afterwards, outside the
/// timing (as the reference's buffer is).
fn measure<T>(read: impl FnOnce() -> (usize, T), free: impl FnOnce(T)) -> (f64, usize, u64) {
    let before = status_kib("VmRSS:");
    // Resets VmHWM to the current RSS (root or own process: allowed).
    if std::fs::write("/proc/self/clear_refs", "5").is_err() {
        eprintln!("warning: could not reset VmHWM; the memory rise may include earlier peaks");
    }
    let start = Instant::now();
    let (len, keep) = read();
    let secs = start.elapsed().as_secs_f64();
    let hwm = status_kib("VmHWM:");
    free(keep);
    (secs, len, hwm.saturating_sub(before) * 1024)
}

/// Base64 of `data` into a fresh buffer (the reference), in seconds.
fn reference(data: &[u8]) -> f64 {
    let start = Instant::now();
    let out: String = base64_simd::STANDARD.encode_type(data);
    let secs = start.elapsed().as_secs_f64();
    black_box(out);
    secs
}

struct Blob(Vec<u8>);
struct Handler {
    data: std::sync::Mutex<Option<Vec<u8>>>,
    shared: Option<SharedBytes>,
}
impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        let mime = "application/octet-stream";
        match &self.shared {
            Some(b) => ResourcePayload::blob_shared(mime, b.clone()),
            None => {
                let data = self.data.lock().unwrap().take().unwrap_or_default();
                ResourcePayload::blob_owned(mime, data)
            }
        }
        .map_err(CallbackError::failed)
    }
}
impl AsRef<[u8]> for Blob {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// One read in this (fresh) process; prints `child secs len rise ref_secs`.
fn child(mode: &str) {
    let data: Vec<u8> = (0..N).map(|i| (i * 31 % 251) as u8).collect();
    let (m, ref_secs) = match mode {
        "c_borrowed" | "c_copied" => {
            let host = Box::new(Host {
                data,
                borrowed: mode == "c_borrowed",
            });
            let cb = mcpr_binding_callbacks {
                struct_size: std::mem::size_of::<mcpr_binding_callbacks>(),
                user_data: (&*host as *const Host).cast_mut().cast(),
                resolve: Some(mcpr_resolve_single),
                read: Some(c_read),
                release: None,
                complete: None,
                size_hint: None,
            };
            let mut r: *mut mcpr_resources = std::ptr::null_mut();
            // SAFETY: plain C ABI use: live builder, valid strings and
            // out-parameters; the binding's user data outlives the registry.
            unsafe {
                let b = mcpr_builder_new();
                let ok = mcpr_builder_set_policy_allow_all(b, std::ptr::null_mut())
                    == mcpr_status::MCPR_OK
                    && mcpr_builder_set_limit(
                        b,
                        MCPR_LIMIT_MAX_ITEM_BYTES,
                        32 << 20,
                        std::ptr::null_mut(),
                    ) == mcpr_status::MCPR_OK
                    && mcpr_builder_add(
                        b,
                        s(r#"{"uri":"blob://big","name":"big"}"#),
                        &cb,
                        std::ptr::null_mut(),
                    ) == mcpr_status::MCPR_OK
                    && mcpr_builder_build(b, &mut r, std::ptr::null_mut()) == mcpr_status::MCPR_OK;
                mcpr_builder_free(b);
                assert!(ok, "C ABI setup failed");
            }
            let m = measure(
                || {
                    let mut out: *mut mcpr_bundle = std::ptr::null_mut();
                    // SAFETY: as above.
                    unsafe {
                        let st = mcpr_read(
                            r,
                            s("blob://big"),
                            std::ptr::null(),
                            &mut out,
                            std::ptr::null_mut(),
                        );
                        assert_eq!(st, mcpr_status::MCPR_OK);
                        let j = mcpr_bundle_json(out);
                        black_box(*j.ptr.add(j.len - 1));
                        (j.len, out)
                    }
                },
                // SAFETY: the bundle is freed once.
                |out| unsafe { mcpr_bundle_free(out) },
            );
            // SAFETY: the registry is freed once, after its last read.
            unsafe { mcpr_resources_free(r) };
            black_box(&host.data[0]);
            let data = host.data;
            (m, reference(&data).min(reference(&data)))
        }
        "rust_shared" | "rust_owned" => {
            let shared = (mode == "rust_shared").then(|| SharedBytes::new(Blob(data.clone())));
            let handler = Arc::new(Handler {
                data: std::sync::Mutex::new((mode == "rust_owned").then(|| data.clone())),
                shared,
            });
            let r = Resources::builder()
                .policy(Arc::new(AllowAll))
                .limits(ResourceLimits::new().with(Limit::MaxItemBytes, 32 << 20))
                .binding(
                    ResourceBinding::new(r#"{"uri":"blob://big","name":"big"}"#, handler).unwrap(),
                )
                .build()
                .unwrap();
            let m = measure(
                || {
                    let b = r.read(b"blob://big", &ReadOptions::default()).unwrap();
                    (b.json().len(), b)
                },
                drop,
            );
            (m, reference(&data).min(reference(&data)))
        }
        _ => panic!("unknown mode {mode}"),
    };
    let (secs, len, rise) = m;
    println!("child {secs} {len} {rise} {ref_secs}");
}

fn main() {
    if let Ok(mode) = std::env::var("BLOB_BENCH_CHILD") {
        child(&mode);
        return;
    }
    let exe = std::env::current_exe().expect("own executable");
    println!("mcp-resources blob benchmark: one 16 MiB blob per fresh process, best of {RUNS}");
    for (mode, label, goals) in [
        (
            "c_borrowed",
            "C ABI, mcpr_payload_set_blob_borrowed",
            Some("blob_c"),
        ),
        ("c_copied", "C ABI, mcpr_payload_set_blob (copies)", None),
        (
            "rust_shared",
            "Rust, ResourcePayload::blob_shared",
            Some("blob_rust"),
        ),
        ("rust_owned", "Rust, ResourcePayload::blob_owned", None),
    ] {
        let (mut best, mut best_ref, mut rise, mut len) = (f64::MAX, f64::MAX, 0u64, 0usize);
        for _ in 0..RUNS {
            // A fixed mmap threshold: every large buffer is fresh pages from
            // the OS and goes back to it when freed (glibc otherwise raises
            // the threshold after the first large free).
            let out = std::process::Command::new(&exe)
                .env("BLOB_BENCH_CHILD", mode)
                .env("MALLOC_MMAP_THRESHOLD_", "1048576")
                .output()
                .expect("child runs");
            let text = String::from_utf8_lossy(&out.stdout);
            let Some(line) = text.lines().find(|l| l.starts_with("child ")) else {
                eprintln!(
                    "{mode}: child failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                break;
            };
            let f: Vec<f64> = line[6..]
                .split(' ')
                .map(|v| v.parse().unwrap_or(f64::NAN))
                .collect();
            best = best.min(f[0]);
            len = f[1] as usize;
            rise = rise.max(f[2] as u64);
            best_ref = best_ref.min(f[3]);
        }
        if len == 0 {
            continue;
        }
        let mbs = len as f64 / best / 1e6;
        let ref_mbs = len as f64 / best_ref / 1e6;
        let ratio = mbs / ref_mbs;
        let mem = rise as f64 / len as f64;
        println!(
            "16 MiB blob, {label:<40} {:>7.2} ms, {mbs:>6.0} MB/s of JSON ({len} bytes); reference base64 into a fresh buffer {ref_mbs:>6.0} MB/s; ratio {ratio:.2}; memory rise {:.1} MB = {mem:.2}x the output",
            best * 1e3,
            rise as f64 / 1e6
        );
        if let Some(name) = goals {
            let verdict = |met: bool| if met { "met" } else { "NOT met" };
            println!(
                "GOAL {name}_throughput {ratio:.2}x the reference ({mbs:.0} vs {ref_mbs:.0} MB/s) (goal >= 0.9x) {}",
                verdict(ratio >= 0.9)
            );
            println!(
                "GOAL {name}_memory {mem:.2}x the output (goal <= 1.1x) {}",
                verdict(mem <= 1.1)
            );
        }
    }
}
