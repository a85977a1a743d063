//! CPU placement hints of the executor: which CPU a thread runs on, where
//! the threads that poll for each other last ran ([`CpuHint`]), and moving
//! a polling worker off the CPU of the thread it serves. Only hints for how
//! to wait (spin, yield or park, see `wait.rs`), never for correctness.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// No CPU known.
const NO_CPU: u32 = u32::MAX;

/// The CPU the calling thread runs on now ([`NO_CPU`] where unknown).
/// Cheap on Linux: glibc reads it from the thread's rseq area (or the
/// vDSO), without a system call.
#[cfg(target_os = "linux")]
pub(super) fn current_cpu() -> u32 {
    // SAFETY: sched_getcpu takes no arguments and only returns a number.
    let cpu = unsafe { libc::sched_getcpu() };
    u32::try_from(cpu).unwrap_or(NO_CPU)
}

#[cfg(not(target_os = "linux"))]
pub(super) fn current_cpu() -> u32 {
    NO_CPU
}

/// How often at most a polling worker moves itself off the CPU of the
/// thread it serves (see [`move_off_this_cpu`]).
pub(super) const MOVE_EVERY: Duration = Duration::from_millis(10);

/// Moves the calling thread to another CPU it may run on, if one is likely
/// idle ([`idle_cpu_likely`]), and returns whether it did. The thread's affinity is narrowed to its
/// allowed CPUs minus the current one (the kernel migrates it at once) and
/// then set back to what it was: the thread keeps all its allowed CPUs and
/// stays where it landed until the scheduler moves it. Nothing happens
/// when the current CPU is its only allowed one, or when any call fails
/// (more than 1,024 CPUs, or the affinity changed meanwhile); if only the
/// restoring call failed, the thread is left on its other allowed CPUs.
///
/// Used by an executor worker only (never by a host thread): a worker
/// that polls on the CPU of the thread waiting for it makes every handoff
/// a context switch, and two threads that only yield to each other stay
/// together however idle the other CPUs are (docs/benchmarks/NOTES.md).
#[cfg(target_os = "linux")]
pub(super) fn move_off_this_cpu() -> bool {
    idle_cpu_likely() && move_to_another_allowed_cpu()
}

/// The move of [`move_off_this_cpu`], without asking whether a CPU is idle.
#[cfg(target_os = "linux")]
fn move_to_another_allowed_cpu() -> bool {
    let cpu = current_cpu();
    let Ok(cpu) = usize::try_from(cpu) else {
        return false;
    };
    if cpu >= libc::CPU_SETSIZE as usize {
        return false;
    }
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: cpu_set_t is plain bits (all zeros is the empty set); both
    // calls get its true size and a valid pointer, and act on this thread
    // (pid 0) only; CPU_ISSET/CPU_CLR/CPU_COUNT stay inside the set (cpu
    // is below CPU_SETSIZE).
    unsafe {
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size, &mut allowed) != 0 || !libc::CPU_ISSET(cpu, &allowed) {
            return false;
        }
        let mut others = allowed;
        libc::CPU_CLR(cpu, &mut others);
        if libc::CPU_COUNT(&others) == 0 || libc::sched_setaffinity(0, size, &others) != 0 {
            return false;
        }
        let _ = libc::sched_setaffinity(0, size, &allowed);
    }
    true
}

#[cfg(not(target_os = "linux"))]
pub(super) fn move_off_this_cpu() -> bool {
    false
}

/// Whether some CPU is likely idle: fewer runnable threads in the system
/// (the fourth field of `/proc/loadavg`, this thread and the one it
/// shares a CPU with included) than online CPUs plus one. A worker moved
/// onto a busy CPU waits for a time slice before every job (27 us per
/// small read with the other CPU of two spinning, against 6.7 us when it
/// stays), so it moves only when a CPU is free. A hint: on a failed read,
/// no move.
#[cfg(target_os = "linux")]
fn idle_cpu_likely() -> bool {
    let Ok(text) = std::fs::read_to_string("/proc/loadavg") else {
        return false;
    };
    // SAFETY: sysconf only returns a number.
    let online = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    runnable_from_loadavg(&text).is_some_and(|runnable| online > 0 && runnable <= online as u64)
}

/// The number of runnable threads in a `/proc/loadavg` text
/// (`"0.50 0.40 0.30 2/345 6789"` gives 2).
#[cfg(target_os = "linux")]
fn runnable_from_loadavg(text: &str) -> Option<u64> {
    text.split_ascii_whitespace()
        .nth(3)?
        .split_once('/')?
        .0
        .parse()
        .ok()
}

/// The CPU a thread that others poll for last ran on: the worker that
/// polls for or runs jobs, or the thread that submits jobs and waits for
/// them. Only a hint for how to poll (spin, yield or park), never for
/// correctness: it may be stale or overwritten by another thread, and
/// every wait still ends by its own condition, a wake-up, or its time.
///
/// Spinning for a thread that shares this CPU only delays it (it cannot
/// run until this one yields or its slice ends), so a poll whose peer last
/// ran on this CPU yields at once instead of spinning.
pub(crate) struct CpuHint(AtomicU32);

impl CpuHint {
    pub(super) fn new() -> CpuHint {
        CpuHint(AtomicU32::new(NO_CPU))
    }

    /// Records `cpu` as the thread's CPU.
    pub(super) fn set(&self, cpu: u32) {
        if self.0.load(Ordering::Relaxed) != cpu {
            self.0.store(cpu, Ordering::Relaxed);
        }
    }

    /// Records the calling thread's CPU, and returns it.
    pub(super) fn set_here(&self) -> u32 {
        let cpu = current_cpu();
        self.set(cpu);
        cpu
    }

    /// Whether the peer last ran on `cpu` (a known CPU).
    pub(super) fn is_on(&self, cpu: u32) -> bool {
        let peer = self.0.load(Ordering::Relaxed);
        peer != NO_CPU && peer == cpu
    }

    /// Whether the peer last ran on the calling thread's CPU.
    pub(super) fn shares_this_cpu(&self) -> bool {
        self.is_on(current_cpu())
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// This thread's allowed CPUs (at most the first 1,024).
    #[cfg(target_os = "linux")]
    fn allowed_cpus() -> Vec<usize> {
        // SAFETY: as in move_off_this_cpu.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set),
                0
            );
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect()
        }
    }

    /// Restricts this thread to `cpus`.
    #[cfg(target_os = "linux")]
    fn pin(cpus: &[usize]) {
        // SAFETY: as in move_off_this_cpu.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &c in cpus {
                libc::CPU_SET(c, &mut set);
            }
            assert_eq!(
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set),
                0
            );
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn runnable_threads_are_read_from_the_fourth_field_of_loadavg() {
        assert_eq!(
            runnable_from_loadavg("0.50 0.40 0.30 2/345 6789\n"),
            Some(2)
        );
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30 17/2000 1"), Some(17));
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30"), None);
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30 x/3 1"), None);
        assert_eq!(runnable_from_loadavg("0.50 0.40 0.30 23 1"), None);
        assert_eq!(runnable_from_loadavg(""), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_worker_moves_to_another_allowed_cpu_and_keeps_its_affinity() {
        std::thread::spawn(|| {
            let cpus = allowed_cpus();
            // One allowed CPU: nowhere to go, and the affinity is unchanged.
            pin(&cpus[..1]);
            assert_eq!(current_cpu() as usize, cpus[0]);
            assert!(!move_to_another_allowed_cpu());
            assert_eq!(allowed_cpus(), &cpus[..1]);
            if cpus.len() < 2 {
                return; // a one-CPU machine: the rest cannot be shown
            }
            // Two allowed CPUs, running on the first: moved to the second,
            // both still allowed.
            let two = [cpus[0], cpus[1]];
            pin(&two);
            assert_eq!(current_cpu() as usize, cpus[0]);
            assert!(move_to_another_allowed_cpu());
            assert_eq!(current_cpu() as usize, cpus[1]);
            assert_eq!(allowed_cpus(), two);
        })
        .join()
        .unwrap();
    }
}
