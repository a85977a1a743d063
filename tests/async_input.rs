//! docs/BEHAVIOUR.md §20 with §18: an asynchronous read answers an
//! input-required read and takes its retry as the blocking read does.

mod input_support;

use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

use input_support::*;
use mcp_resources::*;

fn two_workers() -> Executor {
    Executor::with_options(ExecutorOptions {
        threads: 2,
        ..ExecutorOptions::default()
    })
    .unwrap()
}

/// `resources/read` through the asynchronous one-call request.
fn read_async(r: &Arc<Resources>, executor: &Executor, params: &str) -> Response {
    let mut options = request_options(SCOPE);
    options.call.executor = Some(executor.clone());
    let (tx, rx) = channel();
    r.request_start(b"resources/read", params.as_bytes(), &options, move |out| {
        let _ = tx.send(out);
    })
    .unwrap();
    rx.recv_timeout(Duration::from_secs(20)).unwrap().unwrap()
}

#[test]
fn an_async_read_asks_for_input_and_takes_the_retry_as_the_blocking_read_does() {
    let r = Arc::new(host().resources);
    let executor = two_workers();
    let blocking = read(&r, &params(CONSENT, ""), SCOPE);
    let first = read_async(&r, &executor, &params(CONSENT, ""));
    assert!(
        first.is_input_required() && !first.is_error(),
        "{}",
        first.json()
    );
    // The same answer but for the sealed state (a fresh nonce each time).
    let (a, b) = (json(first.json()), json(blocking.json()));
    assert_eq!(a["resultType"], b["resultType"]);
    assert_eq!(a["inputRequests"], b["inputRequests"]);
    // Either state is retried by either driver.
    for state in [state_of(&first), state_of(&blocking)] {
        let retried = read_async(&r, &executor, &params(CONSENT, &retry(&state, ACCEPT)));
        assert!(
            !retried.is_input_required() && !retried.is_error(),
            "{}",
            retried.json()
        );
        assert_eq!(
            json(retried.json())["contents"][0]["text"],
            "body of doc://consent"
        );
        let again = read(&r, &params(CONSENT, &retry(&state, ACCEPT)), SCOPE);
        assert_eq!(retried.json(), again.json());
    }
    // A forged state is refused as the blocking read refuses it.
    let forged = params(CONSENT, &retry("AAAA", ACCEPT));
    assert_eq!(
        read_async(&r, &executor, &forged).json(),
        read(&r, &forged, SCOPE).json()
    );
}

#[test]
fn a_direct_async_read_answers_input_required_as_the_direct_read() {
    let r = Arc::new(host().resources);
    let executor = two_workers();
    let mut options = ReadOptions::from(CallOptions {
        executor: Some(executor.clone()),
        ..CallOptions::default()
    });
    options.input = InputOptions {
        scope_key: SCOPE.to_vec(),
        client_capabilities: Some(ClientCapabilities::all()),
        ..InputOptions::default()
    };
    let (tx, rx) = channel();
    r.read_start(CONSENT.as_bytes(), &options, move |out| {
        let _ = tx.send(out);
    })
    .unwrap();
    let bundle = rx.recv_timeout(Duration::from_secs(20)).unwrap().unwrap();
    let blocking = r.read(CONSENT.as_bytes(), &options).unwrap();
    assert!(bundle.is_input_required() && blocking.is_input_required());
    assert_eq!(
        json(bundle.json())["inputRequests"],
        json(blocking.json())["inputRequests"]
    );
}
