//! Callback tables are released when the host lets go of the registry
//! (docs/C-API.md "Release callbacks", BEHAVIOUR §8): when the last
//! reference is dropped and no call is in flight, every table's release
//! (here: its `Drop`) has run before the drop returns, inline and on an
//! executor, for every method. No worker keeps a table of a call that has
//! returned.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mcp_resources::*;

/// Counts its own release.
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl ResourcePolicy for Counted {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

impl ResourceHandler for Counted {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "body").map_err(CallbackError::failed)
    }
}

impl ResourceCompleter for Counted {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        sink: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        let _ = sink.add("v");
        Ok(())
    }
}

/// The tables of one registry: its policy, the exact binding's handler,
/// the template binding's handler and its completer.
const TABLES: usize = 4;

fn registry(released: &Arc<AtomicUsize>) -> Resources {
    let counted = || Arc::new(Counted(released.clone()));
    Resources::builder()
        .policy(counted())
        .binding(ResourceBinding::new(r#"{"uri":"doc://a","name":"a"}"#, counted()).unwrap())
        .binding(
            ResourceBinding::new(r#"{"uriTemplate":"doc://t/{id}","name":"t"}"#, counted())
                .unwrap()
                .with_completer(counted()),
        )
        .build()
        .unwrap()
}

#[test]
fn every_release_has_run_when_the_last_free_returns_with_nothing_in_flight() {
    let executor = Executor::new(2).unwrap();
    for executor in [None, Some(executor)] {
        let on = if executor.is_some() {
            "executor"
        } else {
            "inline"
        };
        let call = CallOptions {
            executor,
            ..CallOptions::default()
        };
        for i in 0..10_000 {
            let released = Arc::new(AtomicUsize::new(0));
            let r = registry(&released);
            let method = match i % 3 {
                0 => {
                    let bundle = r.read(b"doc://a", &call.clone().into()).unwrap();
                    assert!(bundle.json().contains("body"));
                    "read"
                }
                1 => {
                    let o = ListOptions {
                        scope_key: b"s".to_vec(),
                        call: call.clone(),
                        ..ListOptions::default()
                    };
                    assert_eq!(r.list(&o).unwrap().len(), 1);
                    "list"
                }
                _ => {
                    let params = CompleteParams {
                        template: "doc://t/{id}".into(),
                        argument: "id".into(),
                        value: String::new(),
                        context: Vec::new(),
                    };
                    let c = r.complete(&params, &call.clone().into()).unwrap();
                    assert_eq!(c.values(), ["v"]);
                    "complete"
                }
            };
            // The last reference: every table is released before this
            // returns (nothing is in flight).
            drop(r);
            assert_eq!(
                released.load(Ordering::SeqCst),
                TABLES,
                "{method} {i} {on}: a release ran late"
            );
        }
    }
}

/// A policy whose first `visibility` blocks until released, counting every
/// callback made after that.
struct Blocking {
    gate: crossbeam_channel::Receiver<()>,
    blocked: std::sync::atomic::AtomicBool,
    after: Arc<AtomicUsize>,
    released: Arc<AtomicUsize>,
}

impl Drop for Blocking {
    fn drop(&mut self) {
        self.released.fetch_add(1, Ordering::SeqCst);
    }
}

impl ResourcePolicy for Blocking {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        if self.blocked.swap(true, Ordering::SeqCst) {
            self.after.fetch_add(1, Ordering::SeqCst);
        } else {
            let _ = self.gate.recv();
        }
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        self.after.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

/// Plans three items.
struct ThreeItems(Arc<AtomicUsize>);

impl Drop for ThreeItems {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl ResourceHandler for ThreeItems {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let item = |u: &str| ResourceTarget::new(u, "", None).map_err(CallbackError::failed);
        ResourceReadPlan::new(
            item(m.uri())?,
            vec![item("doc://i/1")?, item("doc://i/2")?, item("doc://i/3")?],
        )
        .map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

/// The remaining case, exactly: a call that gives up on a callback still
/// running (here at its deadline) leaves it running on its worker; the
/// tables that job uses are released when the callback returns, on the
/// worker, and the job calls no further callback.
#[test]
fn a_callback_abandoned_by_its_call_keeps_its_tables_until_it_returns_and_nothing_more_runs() {
    let released = Arc::new(AtomicUsize::new(0));
    let after = Arc::new(AtomicUsize::new(0));
    let (open, gate) = crossbeam_channel::bounded::<()>(0);
    let r = Resources::builder()
        .policy(Arc::new(Blocking {
            gate,
            blocked: Default::default(),
            after: after.clone(),
            released: released.clone(),
        }))
        .binding(
            ResourceBinding::new(
                r#"{"uri":"doc://a","name":"a"}"#,
                Arc::new(ThreeItems(released.clone())),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let o = ReadOptions::from(CallOptions {
        timeout: Some(std::time::Duration::from_millis(100)),
        executor: Some(Executor::new(1).unwrap()),
        ..CallOptions::default()
    });
    assert_eq!(
        r.read(b"doc://a", &o).unwrap_err().kind(),
        FailureKind::DeadlineExceeded
    );
    drop(r);
    // The job is inside `visibility`: it still holds the policy and the
    // handler.
    assert_eq!(released.load(Ordering::SeqCst), 0);
    drop(open);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while released.load(Ordering::SeqCst) < 2 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(
        released.load(Ordering::SeqCst),
        2,
        "released when it returned"
    );
    assert_eq!(
        after.load(Ordering::SeqCst),
        0,
        "no callback after the call gave up"
    );
}
