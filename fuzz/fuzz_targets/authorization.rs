//! Authorization JSON, through the plan constructors.
//!
//! The input is a target's private authorization JSON (after one byte that
//! picks the target's URI and representation label). Checks that
//! `ResourceTarget::new` refuses whatever `serde_json` refuses, keeps an
//! accepted document byte for byte, and never shows it in `Debug`; and
//! that a read whose plan carries it on the requested target and an item
//! hands it unchanged to the policy and the reader, while the result is
//! byte for byte the result of the same read without it.
#![no_main]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mcp_resources::{
    AllowAll, CallContext, CallbackError, FailureKind, ReadOptions, ResourceBinding,
    ResourceDefinition, ResourceHandler, ResourceMatch, ResourcePayload, ResourcePolicy,
    ResourceReadPlan, ResourceTarget, Resources, Visibility,
};
use mcp_resources_fuzz::Input;

const URIS: [&str; 4] = ["fz://item/a", "fz://bundle", "not a uri", "mcp-warning://x"];
const LABELS: [&str; 4] = ["", "default", "thumbnail", "bad\u{1}label"];

/// Hands the authorization JSON it was built with to every target it plans
/// (except the second item), and notes any callback that sees other bytes.
struct Carrier {
    auth: Option<String>,
    label: &'static str,
    mismatch: Arc<AtomicBool>,
}

impl Carrier {
    fn check(&self, t: &ResourceTarget) {
        let expected = if t.uri() == "fz://item/b" {
            None
        } else {
            self.auth.as_deref()
        };
        if t.authorization() != expected {
            self.mismatch.store(true, Ordering::SeqCst);
        }
    }
}

impl ResourceHandler for Carrier {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let auth = self.auth.as_deref();
        let requested = ResourceTarget::new(m.uri(), "", auth).map_err(CallbackError::failed)?;
        let items = vec![
            ResourceTarget::new("fz://item/a", self.label, auth).map_err(CallbackError::failed)?,
            ResourceTarget::new("fz://item/b", "", None).map_err(CallbackError::failed)?,
        ];
        ResourceReadPlan::new(requested, items).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        self.check(t);
        ResourcePayload::text("text/plain", t.representation()).map_err(CallbackError::failed)
    }
}

impl ResourcePolicy for Carrier {
    fn discover(&self, c: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        AllowAll.discover(c, d)
    }
    fn visibility(&self, _: &CallContext, t: &ResourceTarget) -> Result<Visibility, CallbackError> {
        self.check(t);
        Ok(Visibility::DISCLOSED)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        self.check(t);
        Ok(())
    }
}

fn read_with(auth: Option<&str>, label: &'static str) -> (String, bool) {
    let mismatch = Arc::new(AtomicBool::new(false));
    let carrier = Arc::new(Carrier {
        auth: auth.map(str::to_string),
        label,
        mismatch: mismatch.clone(),
    });
    let registry = Resources::builder()
        .policy(carrier.clone())
        .binding(
            ResourceBinding::new(r#"{"uri":"fz://bundle","name":"b"}"#, carrier)
                .expect("valid definition"),
        )
        .build()
        .expect("valid registry");
    let bundle = registry
        .read(b"fz://bundle", &ReadOptions::default())
        .expect("a complete read");
    assert!(!bundle.is_partial());
    (bundle.into_json(), mismatch.load(Ordering::SeqCst))
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let pick = input.byte();
    let uri = URIS[usize::from(pick & 3)];
    let label = LABELS[usize::from(pick >> 2 & 3)];
    let Ok(auth) = std::str::from_utf8(input.rest()) else {
        return;
    };
    let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(auth).is_ok();
    let target = ResourceTarget::new(uri, label, Some(auth));
    let uri_ok = uri.starts_with("fz:");
    let label_ok = !label.contains('\u{1}');
    match &target {
        Ok(t) => {
            assert!(
                serde_ok,
                "authorization {auth:?} accepted but it is not JSON"
            );
            assert!(uri_ok && label_ok && auth.len() <= 64 * 1024);
            assert_eq!(t.authorization(), Some(auth));
            assert_eq!(t.uri(), uri);
            let expected_label = if label.is_empty() { "default" } else { label };
            assert_eq!(t.representation(), expected_label);
            let bare = ResourceTarget::new(uri, label, None).expect("the same target without");
            let shown = format!("{t:?}");
            assert_eq!(
                shown.replace("has_authorization: true", "has_authorization: false"),
                format!("{bare:?}"),
                "Debug shows more than whether there is authorization"
            );
        }
        Err(e) => {
            assert_eq!(e.kind(), FailureKind::InvalidPlan);
            return;
        }
    }
    if !label_ok || uri != "fz://item/a" {
        return;
    }
    // Carried through a read: callbacks see it unchanged, the result is the
    // result without it.
    let (with, mismatch) = read_with(Some(auth), label);
    assert!(!mismatch, "a callback saw other authorization bytes");
    let (without, _) = read_with(None, label);
    assert_eq!(with, without, "authorization changed the result");
});
