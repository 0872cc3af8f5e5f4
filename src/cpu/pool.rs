//! The worker pool of one CPU reference world: a rayon pool of the world's thread count, built
//! when the world is (or its thread count changes) and stopped when it is dropped, so a step
//! runs its spring and mass passes on the pool's threads instead of spawning threads every step.
//!
//! Each world owns its pool: worlds stepped at once from their own threads (Python threads,
//! a population's batches, a server's requests) never queue on one another's workers, and
//! `threads` workers per world is what each gets. A caller blocks until its pass is done, and
//! rayon's work stealing never waits on a caller, so worlds cannot deadlock one another.

use std::sync::Arc;

use rayon::ThreadPool;

/// A new pool of `threads` worker threads, or `None` for one thread (the passes then run on the
/// caller's thread) or when the operating system refuses to start threads (logged; the world
/// then steps on one thread, with the same results).
pub(super) fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    if threads <= 1 {
        return None;
    }
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("hooke-cpu-{i}"))
        .build()
    {
        Ok(p) => Some(Arc::new(p)),
        Err(e) => {
            log::warn!("CpuWorld: no pool of {threads} threads ({e}); stepping on one thread");
            None
        }
    }
}
