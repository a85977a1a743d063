//! The executor's watch: one thread per executor, started by its first
//! asynchronous call, that looks after the calls nobody waits for
//! (docs/BEHAVIOUR.md §20).
//!
//! A blocking call on an executor has its caller waiting: that thread
//! watches the deadline and cancellation, and takes over from a body read
//! that passes its item deadline (`read/pooled.rs`). An asynchronous call
//! returns at once, so the watch plays that role for every such call of
//! its executor: it keeps one timer per call (the instant the call asked
//! to be looked at next), and a list of calls woken from other threads (a
//! cancellation, a job refused after it was queued). Looking at a call is
//! the call's own business ([`Watched::look`]); the watch only decides
//! when.
//!
//! Bounded: one thread per executor whatever the number of calls, never
//! one per call. The thread runs no host callback except the completion
//! callbacks of the calls it concludes (a deadline, a cancellation, a
//! refusal), which are short by contract. It stops when the executor goes
//! (every watched call holds the executor, so none is left then).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use crate::error::CauseText;

/// A call the watch looks after.
pub(crate) trait Watched: Send + Sync {
    /// Looks at the call at `now`: returns when to look again, or `None`
    /// once the call is over (the watch then forgets it). Called on the
    /// watch thread, and by a worker that has just finished the call's
    /// work; a look at a call that needs nothing is harmless.
    fn look(&self, now: Instant) -> Option<Instant>;

    /// Asks the watch to look at the call soon (from any thread; it must
    /// not block).
    fn wake(&self);
}

/// The watch of one executor (held by the executor; the thread holds only
/// the shared state).
pub(crate) struct Watch {
    shared: Arc<Shared>,
    /// Whether the thread was started (a lock-free look for every call).
    running: AtomicBool,
}

struct Shared {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The watched calls and the instant each asked to be looked at
    /// (`None` while it is due: being looked at).
    calls: FxHashMap<u64, (Arc<dyn Watched>, Option<Instant>)>,
    /// The same instants, soonest first, with the call's key; an entry
    /// whose instant is no longer its call's is stale and skipped (a heap
    /// keeps its storage, so watching a call allocates nothing once the
    /// heap has grown; stale entries are dropped when they come up, or all
    /// at once when they outnumber the live ones).
    timers: BinaryHeap<Reverse<(Instant, u64)>>,
    /// Calls to look at as soon as possible (woken from other threads).
    woken: Vec<u64>,
    next_id: u64,
    /// The watch thread, once started.
    thread: Option<Thread>,
    /// Until when the thread sleeps (`None` while it is looking, or before
    /// it started).
    asleep_until: Option<Instant>,
    /// The executor is gone: the thread stops.
    closed: bool,
}

/// A watched call's place in its executor's watch.
#[derive(Clone)]
pub(crate) struct WatchKey {
    shared: Arc<Shared>,
    id: u64,
}

/// How long the thread sleeps when no call is watched (woken earlier by
/// the next call).
const IDLE: Duration = Duration::from_secs(3600);

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl State {
    /// Moves call `id`'s timer to `next`, or forgets the call (`None`);
    /// returns the call when it was forgotten, to be dropped after the
    /// lock.
    fn reschedule(&mut self, id: u64, next: Option<Instant>) -> Option<Arc<dyn Watched>> {
        let entry = self.calls.get_mut(&id)?;
        match next {
            Some(at) => {
                if entry.1 != Some(at) {
                    entry.1 = Some(at);
                    self.push_timer(at, id);
                }
                None
            }
            None => self.calls.remove(&id).map(|(call, _)| call),
        }
    }

    fn push_timer(&mut self, at: Instant, id: u64) {
        self.timers.push(Reverse((at, id)));
        if self.timers.len() > 64 && self.timers.len() > 2 * self.calls.len() {
            let calls = &self.calls;
            self.timers.retain(|Reverse((at, id))| {
                calls.get(id).is_some_and(|(_, when)| *when == Some(*at))
            });
        }
    }

    /// Whether a timer entry is its call's current one.
    fn live(&self, at: Instant, id: u64) -> bool {
        self.calls
            .get(&id)
            .is_some_and(|(_, when)| *when == Some(at))
    }

    /// The soonest live instant, dropping stale entries on the way.
    fn soonest(&mut self) -> Option<Instant> {
        while let Some(&Reverse((at, id))) = self.timers.peek() {
            if self.live(at, id) {
                return Some(at);
            }
            self.timers.pop();
        }
        None
    }

    /// The calls to look at now: those woken and those whose instant has
    /// come (they stay watched until looked at). Each call is in the list
    /// once: its instant is cleared until it is rescheduled.
    fn due(&mut self, now: Instant) -> Vec<(u64, Arc<dyn Watched>)> {
        let mut due = Vec::new();
        let woken = std::mem::take(&mut self.woken);
        for id in woken {
            self.take_due(id, &mut due);
        }
        while let Some(at) = self.soonest() {
            if at > now {
                break;
            }
            if let Some(Reverse((_, id))) = self.timers.pop() {
                self.take_due(id, &mut due);
            }
        }
        due
    }

    fn take_due(&mut self, id: u64, due: &mut Vec<(u64, Arc<dyn Watched>)>) {
        if let Some((call, at)) = self.calls.get_mut(&id) {
            if at.take().is_some() {
                due.push((id, call.clone()));
            }
        }
    }
}

impl Watch {
    pub(crate) fn new() -> Watch {
        Watch {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
            }),
            running: AtomicBool::new(false),
        }
    }

    /// Starts the watch thread unless it runs already: an asynchronous
    /// call is queued only once its executor is watched.
    pub(crate) fn ensure_running(&self) -> std::io::Result<()> {
        if self.running.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut st = self.shared.lock();
        if st.thread.is_some() {
            return Ok(());
        }
        let shared = self.shared.clone();
        let handle = std::thread::Builder::new()
            .name("mcp-resources-watch".into())
            .spawn(move || run(shared))
            .map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    CauseText(format!("starting the executor's watch thread failed: {e}")),
                )
            })?;
        st.thread = Some(handle.thread().clone());
        self.running.store(true, Ordering::Release);
        Ok(())
    }

    /// Watches `call`, first looking at it at `at` (the watch thread must
    /// be running: [`ensure_running`](Self::ensure_running)).
    pub(crate) fn add(&self, call: Arc<dyn Watched>, at: Instant) -> WatchKey {
        let mut st = self.shared.lock();
        let id = st.next_id;
        st.next_id += 1;
        st.calls.insert(id, (call, Some(at)));
        st.push_timer(at, id);
        let wake = st.asleep_until.is_some_and(|until| at < until);
        let thread = st.thread.clone();
        drop(st);
        if wake {
            if let Some(t) = thread {
                t.unpark();
            }
        }
        WatchKey {
            shared: self.shared.clone(),
            id,
        }
    }

    /// The executor is gone: the thread stops (no call is left; each holds
    /// the executor until it has concluded).
    pub(crate) fn close(&self) {
        let mut st = self.shared.lock();
        st.closed = true;
        let calls = std::mem::take(&mut st.calls);
        st.timers.clear();
        let thread = st.thread.clone();
        drop(st);
        drop(calls);
        if let Some(t) = thread {
            t.unpark();
        }
    }

    /// Calls watched now.
    #[cfg(test)]
    pub(crate) fn watched(&self) -> usize {
        self.shared.lock().calls.len()
    }
}

impl WatchKey {
    /// Looks at the call soon, on the watch thread (any thread may ask).
    pub(crate) fn wake(&self) {
        let mut st = self.shared.lock();
        if !st.calls.contains_key(&self.id) {
            return;
        }
        st.woken.push(self.id);
        let thread = st.thread.clone();
        drop(st);
        if let Some(t) = thread {
            t.unpark();
        }
    }

    /// The call is over: the watch forgets it (idempotent).
    pub(crate) fn forget(&self) {
        let mut st = self.shared.lock();
        let call = st.reschedule(self.id, None);
        drop(st);
        drop(call);
    }
}

/// The watch thread: looks at every call that is due, then sleeps until
/// the next instant or a wake-up.
fn run(shared: Arc<Shared>) {
    let mut st = shared.lock();
    loop {
        if st.closed {
            return;
        }
        let now = Instant::now();
        let due = st.due(now);
        if due.is_empty() {
            let until = st.soonest().unwrap_or(now + IDLE);
            st.asleep_until = Some(until);
            drop(st);
            std::thread::park_timeout(until.saturating_duration_since(now));
            st = shared.lock();
            st.asleep_until = None;
            continue;
        }
        drop(st);
        for (id, call) in due {
            // A library bug in one call must not stop the watch of every
            // other: the call is forgotten.
            let next = catch_unwind(AssertUnwindSafe(|| call.look(Instant::now()))).unwrap_or(None);
            let mut st = shared.lock();
            let forgotten = st.reschedule(id, next);
            drop(st);
            drop(forgotten);
            drop(call);
        }
        st = shared.lock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Looked at `looks` times, then over.
    struct Counted {
        looks: AtomicUsize,
        over_after: usize,
        every: Duration,
    }

    impl Watched for Counted {
        fn look(&self, now: Instant) -> Option<Instant> {
            let n = self.looks.fetch_add(1, Ordering::SeqCst) + 1;
            (n < self.over_after).then(|| now + self.every)
        }
        fn wake(&self) {}
    }

    fn wait_for(f: impl Fn() -> bool) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if f() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        f()
    }

    /// A call is looked at when its instant comes, as often as it asks,
    /// and forgotten when it says it is over.
    #[test]
    fn a_watched_call_is_looked_at_until_it_is_over() {
        let w = Watch::new();
        w.ensure_running().unwrap();
        let call = Arc::new(Counted {
            looks: AtomicUsize::new(0),
            over_after: 3,
            every: Duration::from_millis(2),
        });
        w.add(call.clone(), Instant::now() + Duration::from_millis(5));
        assert!(wait_for(|| w.watched() == 0));
        assert_eq!(call.looks.load(Ordering::SeqCst), 3);
        w.close();
    }

    /// A woken call is looked at at once, not at its (distant) instant; a
    /// forgotten one never again.
    #[test]
    fn a_woken_call_is_looked_at_at_once_and_a_forgotten_one_never() {
        let w = Watch::new();
        w.ensure_running().unwrap();
        let call = Arc::new(Counted {
            looks: AtomicUsize::new(0),
            over_after: usize::MAX,
            every: Duration::from_secs(3600),
        });
        let key = w.add(call.clone(), Instant::now() + Duration::from_secs(3600));
        key.wake();
        assert!(wait_for(|| call.looks.load(Ordering::SeqCst) == 1));
        key.forget();
        assert_eq!(w.watched(), 0);
        key.wake();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(call.looks.load(Ordering::SeqCst), 1);
        w.close();
    }

    /// A call added with an instant sooner than the sleeping thread's next
    /// one wakes it (the thread sleeps an hour when idle).
    #[test]
    fn an_earlier_instant_wakes_the_sleeping_thread() {
        let w = Watch::new();
        w.ensure_running().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let call = Arc::new(Counted {
            looks: AtomicUsize::new(0),
            over_after: 1,
            every: Duration::ZERO,
        });
        w.add(call.clone(), Instant::now() + Duration::from_millis(1));
        assert!(wait_for(|| call.looks.load(Ordering::SeqCst) == 1));
        w.close();
    }
}
