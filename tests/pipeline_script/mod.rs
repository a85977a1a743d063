//! The read pipeline driven by scripted callbacks: the harness shared by
//! the `read_pipeline` fuzz target (fuzz/fuzz_targets/read_pipeline.rs) and
//! the property test `read_drivers.rs`, so that both run the same scripts.
//!
//! The input scripts a small registry's limits, the request, the policy's
//! answers (discovery, visibility and read permission, separately for the
//! first check and the recheck), the resolve plan, and every item's body
//! read (payloads of several sizes and kinds, `_meta`, errors, panics, a
//! cancellation, malformed payloads, right and wrong size hints). Zero
//! bytes script the plain successful read, so every input is a complete
//! script.
//!
//! [`run`] reads every script three times, with the three drivers of the
//! pipeline (inline, on an executor with the caller waiting, and as an
//! asynchronous call on an executor), each with a fresh registry, and
//! requires:
//! - the three results byte for byte identical (JSON, kind, messages,
//!   causes, issues), apart from the random warning identity
//!   (`mcp-warning://read/<32 hex>`);
//! - every table released when the registry is dropped after the read
//!   (only a body read the call gave up on, after a scripted cancellation,
//!   may keep it a moment longer: the documented case; and an asynchronous
//!   call lets go of its references just after its completion returned);
//! - and, on each result: nothing panics but the scripted callback panics
//!   (which the library contains); a bundle is valid JSON with `contents`
//!   and the report in `_meta`; a complete bundle has no warning item and
//!   the complete report; a partial bundle starts with the one warning item
//!   and reports at least one issue; items hidden at the recheck never
//!   appear anywhere in the result, and items hidden at the first check are
//!   never read (the specification reports a newly visible one as
//!   unavailable); application items come from the plan, once each, in plan
//!   order, within the item limits; an issue names a URI only when the
//!   final visibility discloses it and it is at most 256 bytes long;
//!   private authorization and private causes never appear in a result or
//!   an error message.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_resources::{
    CallContext, CallOptions, CallbackError, CancelToken, Executor, Failure, FailureKind, Limit,
    ReadOptions, ResourceBinding, ResourceBundle, ResourceDefinition, ResourceHandler,
    ResourceLimits, ResourceMatch, ResourcePayload, ResourcePolicy, ResourceReadPlan,
    ResourceTarget, Resources, Visibility, RESERVED_META_KEY,
};

/// Reads decisions from the input; past its end every read is zero, so
/// every input is a complete script.
pub struct Input<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Input { data, pos: 0 }
    }

    /// The next byte (zero past the end).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A value below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// One of `options`.
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[self.below(options.len())]
    }
}

/// The payload of a panic the script makes inside a host callback.
pub struct ScriptedPanic;

fn scripted_panic() -> ! {
    std::panic::panic_any(ScriptedPanic)
}

/// Installs a panic hook that ignores [`ScriptedPanic`] payloads (the
/// library catches them) and hands every other panic to the previous hook
/// (under libFuzzer: a crash).
pub fn allow_scripted_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<ScriptedPanic>().is_none() {
                previous(info);
            }
        }));
    });
}

const SECRET: &str = "SECRET-7f3e";
/// Item URIs: none is a substring of another; the last is too long for
/// an issue to name it (over 256 bytes).
const ITEMS: [&str; 9] = [
    "fz://i/0",
    "fz://i/1",
    "fz://i/2",
    "fz://i/3",
    "fz://i/4",
    "fz://i/5",
    "fz://i/6",
    "fz://i/7",
    concat!(
        "fz://i/long/",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    ),
];
const REQUESTS: [&str; 6] = [
    "fz://bundle",
    "fz://t/x1",
    "fz://t/%2F",
    "fz://nope",
    "bad uri",
    "fz://i/0",
];
const LABELS: [&str; 3] = ["", "default", "thumbnail"];
const SIZES: [usize; 7] = [0, 1, 7, 100, 1000, 5000, 20000];
const METAS: [&str; 6] = [
    r#"{"k":1}"#,
    r#"{"a":{"b":[1,2,{"c":"d\u00e9"}]},"z":null}"#,
    r#"{"x":{"go.phpboyscout.uk/mcp.resourceRead":1}}"#,
    "[1]",
    "{",
    r#"{"a":1,"a":2}"#,
];
const MIMES: [&str; 4] = [
    "text/plain",
    "application/json; charset=utf-8",
    "bad mime",
    "",
];

#[derive(Clone, Copy, Debug)]
enum Perm {
    Allow,
    Deny,
    Fail,
    Panic,
}

fn perm(input: &mut Input<'_>) -> Perm {
    match input.byte() {
        0..=199 => Perm::Allow,
        200..=229 => Perm::Deny,
        230..=249 => Perm::Fail,
        _ => Perm::Panic,
    }
}

fn apply(p: Perm) -> Result<(), CallbackError> {
    match p {
        Perm::Allow => Ok(()),
        Perm::Deny => Err(CallbackError::Unavailable),
        Perm::Fail => Err(CallbackError::failed(SECRET)),
        Perm::Panic => scripted_panic(),
    }
}

#[derive(Clone, Copy, Debug)]
enum Vis {
    Show(Visibility),
    Deny,
    Fail,
    Panic,
}

fn vis(input: &mut Input<'_>) -> Vis {
    match input.byte() {
        0..=119 => Vis::Show(Visibility::DISCLOSED),
        120..=169 => Vis::Show(Visibility::VISIBLE),
        170..=229 => Vis::Show(Visibility::HIDDEN),
        230..=239 => Vis::Deny,
        240..=249 => Vis::Fail,
        _ => Vis::Panic,
    }
}

#[derive(Clone, Debug)]
enum Body {
    Text(usize, &'static str),
    Blob(usize),
    Meta(usize, &'static str),
    Fail,
    Unavailable,
    Panic,
    /// A payload constructor's `invalid_content` failure, returned as is.
    Malformed,
    /// Cancels the caller's token, then returns text.
    Cancel,
}

fn body(input: &mut Input<'_>) -> Body {
    match input.byte() {
        0..=99 => Body::Text(input.pick(&SIZES), "text/plain"),
        100..=129 => Body::Blob(input.pick(&SIZES)),
        130..=159 => Body::Meta(input.pick(&SIZES), input.pick(&METAS)),
        160..=179 => Body::Text(input.pick(&SIZES), input.pick(&MIMES)),
        180..=199 => Body::Fail,
        200..=219 => Body::Unavailable,
        220..=234 => Body::Malformed,
        235..=244 => Body::Cancel,
        _ => Body::Panic,
    }
}

#[derive(Clone, Debug)]
struct Item {
    uri: &'static str,
    label: &'static str,
    secret_auth: bool,
    vis: [Vis; 2],
    perm: [Perm; 2],
    body: Body,
    hint: Hint,
}

/// The reader's `encoded_size_hint` for an item (a host promise the
/// library cannot check; a wrong one must still never break a result).
#[derive(Clone, Copy, Debug)]
enum Hint {
    Exact,
    Zero,
    Large,
    Max,
    Panic,
}

fn hint(input: &mut Input<'_>) -> Hint {
    match input.byte() {
        0..=199 => Hint::Exact,
        200..=219 => Hint::Zero,
        220..=239 => Hint::Large,
        240..=249 => Hint::Max,
        _ => Hint::Panic,
    }
}

#[derive(Clone, Copy, Debug)]
enum Resolve {
    Plan,
    Unavailable,
    Fail,
    Panic,
}

#[derive(Clone, Debug)]
struct Script {
    discover: [Perm; 2],
    resolve: Resolve,
    requested: Option<&'static str>,
    requested_vis: [Vis; 2],
    requested_perm: [Perm; 2],
    items: Vec<Item>,
}

/// Policy and handler in one, following the script. The phase (first
/// check or recheck) switches at the second `discover` call.
struct Scripted {
    script: Script,
    discovers: AtomicUsize,
    cancel: CancelToken,
    /// URIs whose body was read.
    read: Mutex<Vec<String>>,
}

impl Scripted {
    fn phase(&self) -> usize {
        usize::from(self.discovers.load(Ordering::SeqCst) >= 2)
    }
    fn item(&self, uri: &str) -> Option<&Item> {
        self.script.items.iter().find(|i| i.uri == uri)
    }
}

impl ResourcePolicy for Scripted {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        let n = self.discovers.fetch_add(1, Ordering::SeqCst);
        apply(self.script.discover[usize::from(n >= 1)])
    }
    fn visibility(&self, _: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        let phase = self.phase();
        let v = match self.item(t.uri()) {
            Some(i) => i.vis[phase],
            None => self.script.requested_vis[phase],
        };
        match v {
            Vis::Show(v) => Ok(v),
            Vis::Deny => Err(CallbackError::Unavailable),
            Vis::Fail => Err(CallbackError::failed(SECRET)),
            Vis::Panic => scripted_panic(),
        }
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        let phase = self.phase();
        apply(match self.item(t.uri()) {
            Some(i) => i.perm[phase],
            None => self.script.requested_perm[phase],
        })
    }
}

fn auth(secret: bool) -> Option<String> {
    secret.then(|| format!(r#"{{"token":"{SECRET}"}}"#))
}

impl ResourceHandler for Scripted {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        match self.script.resolve {
            Resolve::Plan => {}
            Resolve::Unavailable => return Err(CallbackError::Unavailable),
            Resolve::Fail => return Err(CallbackError::failed(SECRET)),
            Resolve::Panic => scripted_panic(),
        }
        let requested = self.script.requested.unwrap_or(m.uri());
        let requested = ResourceTarget::new(requested, "", auth(true).as_deref())
            .map_err(CallbackError::failed)?;
        let mut items = Vec::new();
        for i in &self.script.items {
            let a = auth(i.secret_auth);
            items.push(
                ResourceTarget::new(i.uri, i.label, a.as_deref()).map_err(CallbackError::failed)?,
            );
        }
        ResourceReadPlan::new(requested, items).map_err(CallbackError::failed)
    }

    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.read.lock().unwrap().push(t.uri().to_string());
        let Some(item) = self.item(t.uri()) else {
            return Err(CallbackError::failed(SECRET));
        };
        let text = |n: usize| "ab".repeat(n / 2 + 1)[..n].to_string();
        match &item.body {
            Body::Text(n, mime) => {
                ResourcePayload::text_owned(mime, text(*n)).map_err(CallbackError::failed)
            }
            Body::Blob(n) => {
                ResourcePayload::blob_owned("application/octet-stream", vec![0xa5; *n])
                    .map_err(CallbackError::failed)
            }
            Body::Meta(n, meta) => ResourcePayload::text_owned("text/plain", text(*n))
                .and_then(|p| p.with_meta_json(meta))
                .map_err(CallbackError::failed),
            Body::Fail => Err(CallbackError::failed(SECRET)),
            Body::Unavailable => Err(CallbackError::Unavailable),
            Body::Panic => scripted_panic(),
            Body::Malformed => {
                ResourcePayload::text("no slash", "x").map_err(CallbackError::failed)
            }
            Body::Cancel => {
                self.cancel.cancel();
                ResourcePayload::text("text/plain", "c").map_err(CallbackError::failed)
            }
        }
    }

    fn encoded_size_hint(&self, t: &ResourceTarget, _: &ResourcePayload) -> Option<u64> {
        match self.item(t.uri())?.hint {
            Hint::Exact => None,
            Hint::Zero => Some(0),
            Hint::Large => Some(1 << 20),
            Hint::Max => Some(u64::MAX),
            Hint::Panic => scripted_panic(),
        }
    }
}

fn executor() -> Executor {
    static EXECUTOR: OnceLock<Executor> = OnceLock::new();
    EXECUTOR
        .get_or_init(|| Executor::new(2).expect("an executor"))
        .clone()
}

fn limits(input: &mut Input<'_>) -> (ResourceLimits, usize, u64) {
    let mut l = ResourceLimits::new();
    let flags = input.byte();
    let mut max_items = Limit::MaxItems.default_value() as usize;
    let mut max_item_bytes = Limit::MaxItemBytes.default_value();
    if flags & 1 != 0 {
        max_items = 1 + input.below(4);
        l.set(Limit::MaxItems, max_items as i64);
    }
    if flags & 2 != 0 {
        max_item_bytes = 1 + u64::from(input.u16() % 8000);
        l.set(Limit::MaxItemBytes, max_item_bytes as i64);
    }
    if flags & 4 != 0 {
        l.set(Limit::MaxIssues, 1 + input.below(3) as i64);
    }
    if flags & 8 != 0 {
        l.set(Limit::MaxPlanTargets, 1 + input.below(6) as i64);
    }
    if flags & 16 != 0 {
        l.set(
            Limit::MaxPayloadBytes,
            4097 + i64::from(input.u16() % 20000),
        );
    }
    if flags & 32 != 0 {
        l.set(
            Limit::MaxEncodedBytes,
            24833 + i64::from(input.u16() % 30000),
        );
    }
    if flags & 64 != 0 {
        l.set(
            Limit::ReportEncodedBytes,
            1024 + i64::from(input.u16() % 2000),
        );
        l.set(
            Limit::ReportPayloadBytes,
            256 + i64::from(input.u16() % 1000),
        );
    }
    (l, max_items, max_item_bytes)
}

fn script(input: &mut Input<'_>) -> Script {
    let discover = [perm(input), perm(input)];
    let resolve = match input.byte() {
        0..=229 => Resolve::Plan,
        230..=239 => Resolve::Unavailable,
        240..=249 => Resolve::Fail,
        _ => Resolve::Panic,
    };
    let requested = match input.byte() {
        0..=199 => None,
        b => Some(ITEMS[usize::from(b) % ITEMS.len()]),
    };
    let requested_vis = [vis(input), vis(input)];
    let requested_perm = [perm(input), perm(input)];
    let count = input.below(7);
    let mut items = Vec::with_capacity(count);
    for _ in 0..count {
        items.push(Item {
            uri: input.pick(&ITEMS),
            label: input.pick(&LABELS),
            secret_auth: input.byte() & 1 == 1,
            vis: [vis(input), vis(input)],
            perm: [perm(input), perm(input)],
            body: body(input),
            hint: Hint::Exact,
        });
    }
    // Size hints last, so that scripts without them keep their meaning.
    for item in &mut items {
        item.hint = hint(input);
    }
    Script {
        discover,
        resolve,
        requested,
        requested_vis,
        requested_perm,
        items,
    }
}

/// What is known about a script before it runs.
struct Expect<'s> {
    /// Hidden at the recheck: never anywhere in the result.
    hidden: Vec<&'s str>,
    /// Hidden at the first check: never read (a newly visible item is
    /// reported unavailable, but has no content).
    unread: Vec<&'s str>,
    plan_uris: Vec<&'s str>,
    max_items: usize,
    max_item_bytes: u64,
}

/// How a read is driven.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Driver {
    Inline,
    /// On the executor, the caller waiting.
    Waiting,
    /// On the executor, as an asynchronous call.
    Detached,
}

/// One read of `request` under `script` with a fresh registry, by
/// `driver`; checks the invariants and that every table is released when
/// the registry goes.
fn read_once(
    request: &str,
    limits: ResourceLimits,
    script: &Script,
    expect: &Expect<'_>,
    driver: Driver,
) -> Result<ResourceBundle, Failure> {
    let cancel = CancelToken::new();
    let scripted = Arc::new(Scripted {
        script: script.clone(),
        discovers: AtomicUsize::new(0),
        cancel: cancel.clone(),
        read: Mutex::new(Vec::new()),
    });
    let registry = Arc::new(
        Resources::builder()
            .policy(scripted.clone())
            .limits(limits)
            .binding(
                ResourceBinding::new(r#"{"uri":"fz://bundle","name":"b"}"#, scripted.clone())
                    .expect("valid definition"),
            )
            .binding(
                ResourceBinding::new(
                    r#"{"uriTemplate":"fz://t/{id}","name":"t"}"#,
                    scripted.clone(),
                )
                .expect("valid definition"),
            )
            .build()
            .expect("valid limits"),
    );
    let on_executor = driver != Driver::Inline;
    let options = ReadOptions::from(CallOptions {
        cancel: Some(cancel),
        executor: on_executor.then(executor),
        ..CallOptions::default()
    });
    let result = if driver == Driver::Detached {
        let (tx, rx) = std::sync::mpsc::channel();
        registry
            .read_start(request.as_bytes(), &options, move |r| {
                let _ = tx.send(r);
            })
            .expect("started");
        rx.recv().expect("completed once")
    } else {
        registry.read(request.as_bytes(), &options)
    };
    drop((registry, options));
    // The registry was the last holder of the tables (besides this
    // harness): all gone now, unless the call gave up on a callback still
    // running (a scripted cancellation on an executor), which lets go of
    // them as soon as it returns.
    let canceled = matches!(&result, Err(e) if e.kind() == FailureKind::Canceled);
    if driver == Driver::Detached || (on_executor && canceled) {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while Arc::strong_count(&scripted) > 1 && std::time::Instant::now() < until {
            std::thread::yield_now();
        }
    }
    assert_eq!(
        Arc::strong_count(&scripted),
        1,
        "a table outlived the registry ({driver:?})"
    );
    for uri in scripted.read.lock().unwrap().iter() {
        assert!(
            !expect.unread.contains(&uri.as_str()),
            "{uri} was read though hidden at the first check"
        );
        assert!(
            expect.plan_uris.contains(&uri.as_str()),
            "{uri} was read but not planned"
        );
    }
    match &result {
        Ok(bundle) => check_bundle(bundle, &scripted, expect),
        Err(e) => {
            assert!(!e.message().contains(SECRET), "secret in an error message");
            assert!(!format!("{e:?}").contains(SECRET), "secret in Debug");
            if e.kind() == FailureKind::InvalidConfiguration {
                panic!("a read failed as a configuration error: {e}");
            }
        }
    }
    result
}

/// `json` with the random warning identity (`mcp-warning://read/` and 32
/// hex digits) zeroed.
fn without_warning_identity(json: &str) -> String {
    const PREFIX: &str = "mcp-warning://read/";
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    while let Some(at) = rest.find(PREFIX) {
        let end = (at + PREFIX.len() + 32).min(rest.len());
        out.push_str(&rest[..at + PREFIX.len()]);
        out.push_str(&"0".repeat(end - at - PREFIX.len()));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// How a script's read ended (the same for both drivers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Complete,
    Partial,
    Failed(FailureKind),
}

/// Runs the script of `data` inline and on an executor and compares.
pub fn run(data: &[u8]) -> Ended {
    let mut input = Input::new(data);
    let request = REQUESTS[input.below(REQUESTS.len())];
    // Once the inline-or-executor choice; kept so that every committed
    // seed keeps its meaning (both drivers run every script now).
    let _ = input.byte();
    let (limits, max_items, max_item_bytes) = limits(&mut input);
    let script = script(&mut input);
    let is_hidden = |v: &Vis| matches!(v, Vis::Show(v) if !v.visible);
    let uris = |f: &dyn Fn(&Item) -> bool| -> Vec<&str> {
        script
            .items
            .iter()
            .filter(|i| f(i))
            .map(|i| i.uri)
            .collect()
    };
    let expect = Expect {
        hidden: uris(&|i| is_hidden(&i.vis[1])),
        unread: uris(&|i| is_hidden(&i.vis[0])),
        plan_uris: uris(&|_| true),
        max_items,
        max_item_bytes,
    };
    let inline = read_once(request, limits, &script, &expect, Driver::Inline);
    for driver in [Driver::Waiting, Driver::Detached] {
        let other = read_once(request, limits, &script, &expect, driver);
        same_outcome(&inline, &other, driver);
    }
    match &inline {
        Ok(a) if a.is_partial() => Ended::Partial,
        Ok(_) => Ended::Complete,
        Err(a) => Ended::Failed(a.kind()),
    }
}

/// The inline result and `driver`'s are the same, byte for byte.
fn same_outcome(
    inline: &Result<ResourceBundle, Failure>,
    other: &Result<ResourceBundle, Failure>,
    driver: Driver,
) {
    match (inline, other) {
        (Ok(a), Ok(b)) => {
            assert_eq!(
                without_warning_identity(a.json()),
                without_warning_identity(b.json()),
                "inline and {driver:?} results differ"
            );
            assert_eq!(a.is_partial(), b.is_partial());
            assert_eq!(a.issues(), b.issues());
            assert_eq!(a.issues_omitted(), b.issues_omitted());
            assert_eq!(a.cache(), b.cache());
            assert_eq!(a.item_count(), b.item_count());
        }
        (Err(a), Err(b)) => assert_eq!(
            (a.kind(), a.message(), a.jsonrpc_code(), a.cause_text()),
            (b.kind(), b.message(), b.jsonrpc_code(), b.cause_text()),
            "inline and {driver:?} failures differ"
        ),
        (a, b) => panic!(
            "inline and {driver:?} disagree: {:?} against {:?}",
            a.as_ref().map(|b| b.json()).map_err(|e| e.kind()),
            b.as_ref().map(|b| b.json()).map_err(|e| e.kind())
        ),
    }
}

/// The invariants of one bundle.
fn check_bundle(bundle: &ResourceBundle, scripted: &Scripted, expect: &Expect<'_>) {
    let Expect {
        hidden,
        unread,
        plan_uris,
        max_items,
        max_item_bytes,
    } = expect;
    let (max_items, max_item_bytes) = (*max_items, *max_item_bytes);
    let json = bundle.json();
    assert!(!json.contains(SECRET), "secret in a bundle");
    let value: serde_json::Value = serde_json::from_str(json).expect("a bundle is JSON");
    let top = value.as_object().expect("an object");
    // The newest revision (the default) adds its three result members.
    assert_eq!(
        top.len(),
        5,
        "contents, _meta and the 2026-07-28 members only"
    );
    assert_eq!(value["resultType"], "complete");
    assert!(value["ttlMs"].is_u64());
    assert!(matches!(
        value["cacheScope"].as_str(),
        Some("private" | "public")
    ));
    if bundle.is_partial() {
        assert_eq!(value["ttlMs"], 0, "a partial bundle is never cacheable");
    }
    let contents = value["contents"].as_array().expect("contents");
    let report = &value["_meta"][RESERVED_META_KEY];
    assert_eq!(
        report,
        &serde_json::from_str::<serde_json::Value>(bundle.report_json()).expect("report JSON")
    );
    assert_eq!(contents.len(), bundle.item_count());
    for uri in hidden.iter() {
        assert!(!json.contains(uri), "hidden item {uri} appears in {json}");
    }
    let uris: Vec<&str> = contents
        .iter()
        .map(|c| c["uri"].as_str().expect("an item URI"))
        .collect();
    for (item, uri) in bundle.items().zip(&uris) {
        assert_eq!(item.uri(), *uri);
    }
    let warnings = uris
        .iter()
        .filter(|u| u.starts_with("mcp-warning:"))
        .count();
    let app: &[&str] = if bundle.is_partial() {
        assert_eq!(report["partial"], true);
        assert!(uris[0].starts_with("mcp-warning://read/") && uris[0].len() == 51);
        assert_eq!(warnings, 1, "one warning item");
        let text = contents[0]["text"].as_str().expect("warning text");
        assert!(text.starts_with("Incomplete bundle.\n"));
        assert!(!bundle.issues().is_empty() || bundle.issues_omitted() > 0);
        assert!(bundle.items().next().is_some_and(|i| i.is_warning()));
        &uris[1..]
    } else {
        assert_eq!(warnings, 0, "a complete bundle has a warning item");
        assert_eq!(
            bundle.report_json(),
            r#"{"version":1,"partial":false,"issues":[],"issuesOmitted":0}"#
        );
        assert!(bundle.issues().is_empty());
        &uris[..]
    };
    assert!(app.len() <= max_items);
    // Application items: from the plan, once each, in plan order.
    let mut last = None;
    for uri in app {
        assert!(
            !unread.contains(uri),
            "an item hidden at the first check was read"
        );
        let at = plan_uris
            .iter()
            .position(|p| p == uri)
            .expect("an item of the plan");
        assert!(last.is_none_or(|l| l < at), "items out of plan order");
        last = Some(at);
    }
    for c in contents.iter().skip(usize::from(bundle.is_partial())) {
        let len = match (c["text"].as_str(), c["blob"].as_str()) {
            (Some(t), None) => t.len() as u64,
            (None, Some(b)) => (b.len() as u64 / 4) * 3,
            other => panic!("an item with text and blob: {other:?}"),
        };
        assert!(len <= max_item_bytes + 2, "an item above max_item_bytes");
    }
    for issue in bundle.issues() {
        if let Some(u) = issue.resource_uri() {
            assert!(plan_uris.contains(&u) && !hidden.contains(&u));
            assert!(u.len() <= 256, "an issue names a URI over 256 bytes");
            let item = scripted.item(u).expect("a planned item");
            assert!(
                matches!(item.vis[1], Vis::Show(v) if v.disclose_issue_uri),
                "an issue names {u} though the final visibility does not disclose it"
            );
        }
    }
}
