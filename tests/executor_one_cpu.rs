//! docs/BEHAVIOUR.md §8 with the caller and the workers on one CPU: the
//! handoff to a worker and back (polling, yielding or parking, depending
//! on where the other thread last ran) loses no wake-up. A lost wake-up
//! would leave the caller asleep until its deadline; every read here
//! returns well before it, also across workers parking between bursts and
//! a hung reader being abandoned and replaced. Bounds are generous (the
//! deadline is 10 s): they catch a sleep to the deadline, not slowness.

mod executor_support;

use mcp_resources::CallOptions;
use std::sync::Arc;
use std::time::{Duration, Instant};

use executor_support::*;
use mcp_resources::*;

const TIMEOUT: Duration = Duration::from_secs(10);

/// Restricts the calling thread (and the threads it starts from now on)
/// to one CPU it may run on; whether that worked.
#[cfg(target_os = "linux")]
fn pin_to_one_cpu() -> bool {
    // SAFETY: the set is a plain bit set the calls fill and read; size and
    // pointer describe it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut set) != 0 {
            return false;
        }
        let Some(cpu) = (0..libc::CPU_SETSIZE as usize).find(|&c| libc::CPU_ISSET(c, &set)) else {
            return false;
        };
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut one);
        libc::sched_setaffinity(0, size, &one) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to_one_cpu() -> bool {
    false
}

fn read_in_time(r: &Resources, ex: &Executor, uri: &str) -> Result<ResourceBundle, Failure> {
    let o = ReadOptions::from(CallOptions {
        timeout: Some(TIMEOUT),
        executor: Some(ex.clone()),
        ..CallOptions::default()
    });
    let start = Instant::now();
    let result = r.read(uri.as_bytes(), &o);
    let took = start.elapsed();
    assert!(
        took < TIMEOUT,
        "{uri} returned only at its deadline: {took:?}"
    );
    result
}

#[test]
fn handoffs_with_callers_and_workers_on_one_cpu_lose_no_wakeup() {
    // A thread of its own, so that the pinning ends with the test.
    std::thread::spawn(|| {
        let pinned = pin_to_one_cpu();
        eprintln!("pinned to one CPU: {pinned}");
        let gate = Arc::new(Gate::default());
        let _opener = Opener(gate.clone());
        // Workers started after the pinning share the caller's CPU.
        let ex = Executor::new(2).unwrap();
        let healthy = Arc::new(registry(&gate, 10_000));
        let callers: Vec<_> = (0..2)
            .map(|c| {
                let (r, ex) = (healthy.clone(), ex.clone());
                std::thread::spawn(move || {
                    for i in 0..1500 {
                        if i % 100 == 0 {
                            // Let the workers go idle and park now and then.
                            std::thread::sleep(Duration::from_millis(2));
                        }
                        let b = read_in_time(&r, &ex, &format!("ok://k/{c}-{i}")).unwrap();
                        assert_eq!(b.items().len(), 1);
                        assert!(b.issues().is_empty(), "{:?}", b.issues());
                    }
                })
            })
            .collect();
        // Meanwhile a body read that never returns is abandoned at its
        // item deadline and its worker replaced.
        let hanging = registry(&gate, 50);
        let f = read_in_time(&hanging, &ex, "hang://h/1").unwrap_err();
        assert_eq!(f.kind(), FailureKind::Timeout);
        for c in callers {
            c.join().unwrap();
        }
        assert_eq!(ex.stats().hung, 1);
        for i in 0..500 {
            read_in_time(&healthy, &ex, &format!("ok://k/after-{i}")).unwrap();
        }
        gate.open();
        wait_until("the hung reader to return", || ex.stats().hung == 0);
        let s = ex.stats();
        assert_eq!((s.abandoned, s.returned, s.replaced), (1, 1, 1));
        // The hung read took two jobs: the one abandoned in its body read
        // and the one finishing the read after it.
        assert_eq!(s.started, 2 * 1500 + 2 + 500);
    })
    .join()
    .unwrap();
}
