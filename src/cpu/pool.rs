//! The persistent worker pools of the CPU reference: one rayon pool per thread count, shared by
//! every [`CpuWorld`](super::CpuWorld) in the process and built on first use, so a step runs its
//! spring and mass passes on the pool's threads instead of spawning threads every step.
//!
//! Many worlds stepping at once from their own threads (`hooke eval --threads N`, a population
//! split among workers) queue their passes on the same pool: a caller from outside the pool
//! blocks until its pass is done, and rayon's work stealing never waits on a caller, so worlds
//! cannot deadlock one another.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::ThreadPool;

/// The shared pool of `threads` worker threads, or `None` for one thread (the passes then run
/// on the caller's thread) or when the operating system refuses to start threads (logged; the
/// world then steps on one thread, with the same results).
pub(super) fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();
    if threads <= 1 {
        return None;
    }
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut pools = pools
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(p) = pools.get(&threads) {
        return Some(Arc::clone(p));
    }
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("hooke-cpu-{i}"))
        .build()
    {
        Ok(p) => {
            let p = Arc::new(p);
            pools.insert(threads, Arc::clone(&p));
            Some(p)
        }
        Err(e) => {
            log::warn!("CpuWorld: no pool of {threads} threads ({e}); stepping on one thread");
            None
        }
    }
}
