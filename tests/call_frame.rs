//! The call frame every method shares (docs/BEHAVIOUR.md §8): host
//! mistakes are `invalid_argument` from every entry point and come first;
//! a call already cancelled or past its deadline fails before its request
//! is looked at; a saturated executor refuses before the request is looked
//! at; the scope is closed when the call returns, whatever the method.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_resources::*;

/// Allows everything and keeps the call contexts its callbacks were given.
#[derive(Default)]
struct Keeper {
    kept: Mutex<Vec<CallContext>>,
}

impl Keeper {
    fn keep(&self, c: &CallContext) {
        self.kept.lock().unwrap().push(c.clone());
    }
    fn all_canceled(&self) -> bool {
        let kept = self.kept.lock().unwrap();
        !kept.is_empty() && kept.iter().all(CallContext::is_canceled)
    }
}

impl ResourcePolicy for Keeper {
    fn discover(&self, c: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        self.keep(c);
        Ok(())
    }
    fn visibility(&self, c: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        self.keep(c);
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, c: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        self.keep(c);
        Ok(())
    }
}

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

struct Values;

impl ResourceCompleter for Values {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        sink: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        let _ = sink.add("a");
        Ok(())
    }
}

fn registry(policy: Arc<Keeper>) -> Resources {
    Resources::builder()
        .policy(policy)
        .binding(ResourceBinding::new(r#"{"uri":"doc://a","name":"a"}"#, Arc::new(Reader)).unwrap())
        .binding(
            ResourceBinding::new(
                r#"{"uriTemplate":"doc://t/{id}","name":"t"}"#,
                Arc::new(Reader),
            )
            .unwrap()
            .with_completer(Arc::new(Values)),
        )
        .build()
        .unwrap()
}

fn params(template: &str) -> CompleteParams {
    CompleteParams {
        template: template.into(),
        argument: "id".into(),
        value: String::new(),
        context: Vec::new(),
    }
}

/// Every way to run one call of each method with `call`: the kind of its
/// failure, or `None` when it succeeded.
fn outcomes(r: &Resources, call: &CallOptions) -> Vec<(&'static str, Option<FailureKind>)> {
    let list = ListOptions {
        scope_key: b"s".to_vec(),
        cursor: Some(b"garbage".to_vec()),
        call: call.clone(),
        ..ListOptions::default()
    };
    let kind = |r: Result<(), Failure>| r.err().map(|f| f.kind());
    let request = RequestOptions {
        scope_key: b"s".to_vec(),
        call: call.clone(),
        ..RequestOptions::default()
    };
    let response = |method: &[u8], params: &[u8]| {
        r.request(method, params, &request)
            .unwrap()
            .failure()
            .map(Failure::kind)
    };
    vec![
        (
            "read",
            kind(r.read(b"doc://none", &call.clone().into()).map(drop)),
        ),
        ("list", kind(r.list(&list).map(drop))),
        ("list_templates", kind(r.list_templates(&list).map(drop))),
        (
            "complete",
            kind(
                r.complete(&params("doc://none/{id}"), &call.clone().into())
                    .map(drop),
            ),
        ),
        (
            "request read",
            response(b"resources/read", br#"{"uri":"doc://none"}"#),
        ),
        (
            "request list",
            response(b"resources/list", br#"{"cursor":"garbage"}"#),
        ),
        (
            "request complete",
            response(
                b"completion/complete",
                br#"{"ref":{"type":"ref/resource","uri":"doc://none/{id}"},"argument":{"name":"id","value":""}}"#,
            ),
        ),
    ]
}

#[test]
fn an_empty_scope_key_is_invalid_argument_from_every_entry_point_before_anything_else() {
    let r = registry(Arc::default());
    let canceled = CancelToken::new();
    canceled.cancel();
    for call in [
        CallOptions::default(),
        // Reported before the frame looks at the deadline or cancellation.
        CallOptions {
            cancel: Some(canceled.clone()),
            ..CallOptions::default()
        },
    ] {
        for cursor in [None, Some(b"garbage".to_vec())] {
            let o = ListOptions {
                cursor,
                call: call.clone(),
                ..ListOptions::default()
            };
            for e in [r.list(&o).unwrap_err(), r.list_templates(&o).unwrap_err()] {
                assert_eq!(e.kind(), FailureKind::InvalidArgument);
                assert_eq!(e.message(), "list scope key must not be empty");
                // Not the client's mistake: an internal error to a client.
                assert_eq!(
                    jsonrpc::error_object(&e, ProtocolRevision::V2026_07_28, None),
                    r#"{"code":-32603,"message":"internal error"}"#
                );
            }
        }
        let o = RequestOptions {
            call: call.clone(),
            ..RequestOptions::default()
        };
        for (method, params) in [
            (&b"resources/list"[..], &b"{}"[..]),
            (b"resources/templates/list", b"{\"cursor\":\"garbage\"}"),
            (b"resources/list", b"not json"),
        ] {
            assert_eq!(
                r.request(method, params, &o).unwrap_err(),
                RequestError::InvalidArgument("list scope key must not be empty")
            );
        }
    }
}

#[test]
fn a_call_already_canceled_or_past_its_deadline_fails_before_its_request_is_looked_at() {
    let r = registry(Arc::default());
    let canceled = CancelToken::new();
    canceled.cancel();
    for (call, want) in [
        (
            CallOptions {
                cancel: Some(canceled),
                ..CallOptions::default()
            },
            FailureKind::Canceled,
        ),
        (
            CallOptions {
                timeout: Some(Duration::ZERO),
                ..CallOptions::default()
            },
            FailureKind::DeadlineExceeded,
        ),
    ] {
        for executor in [None, Some(Executor::new(1).unwrap())] {
            let call = CallOptions {
                executor,
                ..call.clone()
            };
            // Unknown URIs and templates, a garbage cursor: the frame
            // answers first, for every method alike.
            for (method, kind) in outcomes(&r, &call) {
                assert_eq!(kind, Some(want), "{method}");
            }
        }
    }
}

#[test]
fn without_the_frame_failing_each_method_reaches_its_own_rules() {
    let r = registry(Arc::default());
    for (method, kind) in outcomes(&r, &CallOptions::default()) {
        let want = if method.contains("list") {
            FailureKind::InvalidRequest // the garbage cursor
        } else {
            FailureKind::Unavailable // not found
        };
        assert_eq!(kind, Some(want), "{method}");
    }
}

#[test]
fn every_method_closes_its_scope_when_it_returns_inline_and_on_an_executor() {
    for executor in [None, Some(Executor::new(2).unwrap())] {
        let call = CallOptions {
            executor,
            ..CallOptions::default()
        };
        let keeper = Arc::new(Keeper::default());
        let r = registry(keeper.clone());
        r.read(b"doc://a", &call.clone().into()).unwrap();
        assert!(keeper.all_canceled(), "read");

        let keeper = Arc::new(Keeper::default());
        let r = registry(keeper.clone());
        let o = ListOptions {
            scope_key: b"s".to_vec(),
            call: call.clone(),
            ..ListOptions::default()
        };
        r.list(&o).unwrap();
        assert!(keeper.all_canceled(), "list");

        let keeper = Arc::new(Keeper::default());
        let r = registry(keeper.clone());
        r.complete(&params("doc://t/{id}"), &call.clone().into())
            .unwrap();
        assert!(keeper.all_canceled(), "complete");
    }
}
