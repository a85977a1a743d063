//! docs/BEHAVIOUR.md §20, item 2 (no thread per call): asynchronous calls
//! wait in their executor's queue, and every idle worker takes them, also
//! when they were queued while a worker polled.

mod executor_support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use executor_support::{registry, Gate, Opener};
use mcp_resources::*;

fn two_workers() -> Executor {
    Executor::with_options(ExecutorOptions {
        threads: 2,
        ..ExecutorOptions::default()
    })
    .unwrap()
}

fn on(executor: &Executor) -> ReadOptions {
    ReadOptions::from(CallOptions {
        timeout: Some(Duration::from_secs(60)),
        executor: Some(executor.clone()),
        ..CallOptions::default()
    })
}

fn wait_for(f: impl Fn() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    f()
}

#[test]
fn many_async_reads_on_a_two_worker_executor_wait_in_its_queue_with_no_thread_each() {
    let gate = Arc::new(Gate::default());
    let _open = Opener(gate.clone());
    let r = Arc::new(registry(&gate, 60_000));
    let executor = two_workers();
    let (tx, rx) = std::sync::mpsc::channel();
    for _ in 0..64 {
        let tx = tx.clone();
        r.read_start(b"hang://h/1", &on(&executor), move |read| {
            let _ = tx.send(read.map(|b| b.json().to_string()));
        })
        .unwrap();
    }
    // Two readers on the two workers, the other calls queued: nothing
    // waits per call (the calls' only thread is the executor's watch).
    assert!(
        wait_for(|| executor.stats().queued == 62),
        "{:?}",
        executor.stats()
    );
    assert_eq!(executor.stats().busy, 2, "{:?}", executor.stats());
    gate.open();
    for _ in 0..64 {
        let json = rx.recv_timeout(Duration::from_secs(20)).unwrap().unwrap();
        assert!(json.contains("body of hang://h/1"));
    }
    assert!(rx.recv_timeout(Duration::from_millis(50)).is_err());
}

/// Calls queued while a worker polls reach every idle worker: the worker
/// that takes a job from its poll wakes a sleeping one when more are
/// queued (the pushes that saw the poll woke no one). On one CPU the
/// starting thread queues every call before the poll looks, the case
/// that left one worker asleep.
#[cfg(target_os = "linux")]
#[test]
fn calls_queued_while_a_worker_polls_reach_every_worker() {
    let pinned = OneCpu::pin();
    for round in 0..100 {
        let gate = Arc::new(Gate::default());
        let _open = Opener(gate.clone());
        let r = Arc::new(registry(&gate, 60_000));
        // Its workers inherit the one CPU.
        let executor = two_workers();
        // Soon after the start a worker polls (and the other sleeps).
        std::thread::sleep(Duration::from_micros(50 * (round % 4)));
        for _ in 0..32 {
            r.read_start(b"hang://h/1", &on(&executor), |_| ()).unwrap();
        }
        assert!(
            wait_for(|| executor.stats().busy == 2 && executor.stats().queued == 30),
            "{:?}",
            executor.stats()
        );
    }
    drop(pinned);
}

/// The calling thread on the CPU it runs on, until dropped.
#[cfg(target_os = "linux")]
struct OneCpu(libc::cpu_set_t);

#[cfg(target_os = "linux")]
impl OneCpu {
    fn pin() -> OneCpu {
        // SAFETY: plain libc calls on this thread's own affinity mask,
        // with a zeroed (valid) cpu_set_t.
        unsafe {
            let mut before: libc::cpu_set_t = std::mem::zeroed();
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut before);
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(libc::sched_getcpu().max(0) as usize, &mut one);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &one);
            OneCpu(before)
        }
    }
}

#[cfg(target_os = "linux")]
impl Drop for OneCpu {
    fn drop(&mut self) {
        // SAFETY: restores the mask read by `pin`.
        unsafe {
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &self.0);
        }
    }
}
