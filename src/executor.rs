//! A worker pool for host body-read callbacks, owned by the host.
//!
//! SKELETON: filled in by the read-pipeline work (issue 3).

use crate::error::Failure;

/// A shareable worker pool (cloning shares it). `Resources` owns no thread:
/// the host creates an executor and passes it to reads.
#[derive(Clone, Debug)]
pub struct Executor {
    threads: usize,
}

impl Executor {
    /// A pool of `threads` workers (0 = the available cores, at least 2).
    pub fn new(threads: usize) -> Result<Executor, Failure> {
        let _ = threads;
        todo!("issue 3")
    }

    /// The number of regular workers.
    pub fn threads(&self) -> usize {
        self.threads
    }
}
