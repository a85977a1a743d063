//! The read pipeline driven by scripted callbacks.
//!
//! The input scripts a small registry's limits, the request, the policy's
//! answers (discovery, visibility and read permission, separately for the
//! first check and the recheck), the resolve plan, and every item's body
//! read (payloads of several sizes and kinds, `_meta`, errors, panics, a
//! cancellation, malformed payloads, right and wrong size hints), inline or
//! on an executor. Zero bytes script the plain successful read, so every
//! input is a complete script.
//!
//! Invariants: nothing panics but the scripted callback panics (which the
//! library contains); a bundle is valid JSON with `contents` and the
//! report in `_meta`; a complete bundle has no warning item and the
//! complete report; a partial bundle starts with the one warning item and
//! reports at least one issue; items hidden at the recheck never appear
//! anywhere in the result, and items hidden at the first check are never
//! read (the specification reports a newly visible one as unavailable);
//! application items come from the plan, once each, in plan order, within
//! the item limits; an issue names a URI only when the final visibility
//! discloses it and it is at most 256 bytes long; private
//! authorization and private causes never appear in a result or an error
//! message.
#![no_main]

use mcp_resources::CallOptions;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use mcp_resources::{
    CallContext, CallbackError, CancelToken, Executor, FailureKind, Limit, ReadOptions,
    ResourceBinding, ResourceDefinition, ResourceHandler, ResourceLimits, ResourceMatch,
    ResourcePayload, ResourcePolicy, ResourceReadPlan, ResourceTarget, Resources, Visibility,
    RESERVED_META_KEY,
};
use mcp_resources_fuzz::{allow_scripted_panics, scripted_panic, Input};

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

#[derive(Debug)]
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

fuzz_target!(init: allow_scripted_panics(), |data: &[u8]| {
    let mut input = Input::new(data);
    let request = REQUESTS[input.below(REQUESTS.len())];
    let on_executor = input.byte() & 1 == 1;
    let (limits, max_items, max_item_bytes) = limits(&mut input);
    let script = script(&mut input);
    // Hidden at the recheck: never anywhere in the result. Hidden at the
    // first check only: never read (a newly visible item is reported
    // unavailable, but has no content).
    let is_hidden = |v: &Vis| matches!(v, Vis::Show(v) if !v.visible);
    let hidden: Vec<&str> = script
        .items
        .iter()
        .filter(|i| is_hidden(&i.vis[1]))
        .map(|i| i.uri)
        .collect();
    let unread: Vec<&str> = script
        .items
        .iter()
        .filter(|i| is_hidden(&i.vis[0]))
        .map(|i| i.uri)
        .collect();
    let plan_uris: Vec<&str> = script.items.iter().map(|i| i.uri).collect();
    let cancel = CancelToken::new();
    let scripted = Arc::new(Scripted {
        script,
        discovers: AtomicUsize::new(0),
        cancel: cancel.clone(),
        read: Mutex::new(Vec::new()),
    });
    let registry = Resources::builder()
        .policy(scripted.clone())
        .limits(limits)
        .binding(
            ResourceBinding::new(r#"{"uri":"fz://bundle","name":"b"}"#, scripted.clone())
                .expect("valid definition"),
        )
        .binding(
            ResourceBinding::new(r#"{"uriTemplate":"fz://t/{id}","name":"t"}"#, scripted.clone())
                .expect("valid definition"),
        )
        .build()
        .expect("valid limits");
    let options = ReadOptions {
        call: CallOptions {
            cancel: Some(cancel),
            executor: on_executor.then(executor),
            ..CallOptions::default()
        },
    };

    let result = registry.read(request.as_bytes(), &options);
    for uri in scripted.read.lock().unwrap().iter() {
        assert!(!unread.contains(&uri.as_str()), "{uri} was read though hidden at the first check");
        assert!(plan_uris.contains(&uri.as_str()), "{uri} was read but not planned");
    }
    let bundle = match result {
        Ok(b) => b,
        Err(e) => {
            assert!(!e.message().contains(SECRET), "secret in an error message");
            assert!(!format!("{e:?}").contains(SECRET), "secret in Debug");
            if e.kind() == FailureKind::InvalidConfiguration {
                panic!("a read failed as a configuration error: {e}");
            }
            return;
        }
    };
    let json = bundle.json();
    assert!(!json.contains(SECRET), "secret in a bundle");
    let value: serde_json::Value = serde_json::from_str(json).expect("a bundle is JSON");
    let top = value.as_object().expect("an object");
    // The newest revision (the default) adds its three result members.
    assert_eq!(top.len(), 5, "contents, _meta and the 2026-07-28 members only");
    assert_eq!(value["resultType"], "complete");
    assert!(value["ttlMs"].is_u64());
    assert!(matches!(value["cacheScope"].as_str(), Some("private" | "public")));
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
    for uri in &hidden {
        assert!(!json.contains(uri), "hidden item {uri} appears in {json}");
    }
    let uris: Vec<&str> = contents
        .iter()
        .map(|c| c["uri"].as_str().expect("an item URI"))
        .collect();
    for (item, uri) in bundle.items().zip(&uris) {
        assert_eq!(item.uri(), *uri);
    }
    let warnings = uris.iter().filter(|u| u.starts_with("mcp-warning:")).count();
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
        assert!(!unread.contains(uri), "an item hidden at the first check was read");
        let at = plan_uris.iter().position(|p| p == uri).expect("an item of the plan");
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
});
