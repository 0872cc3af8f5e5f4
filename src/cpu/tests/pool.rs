//! Each world steps on its own worker pool: worlds stepped from different threads never queue on
//! one another's workers.

use std::sync::Arc;

use crate::builders::Lattice;
use crate::cpu::CpuWorld;

/// A lattice of 12^3 masses (about 18 000 springs): above the size from which a world uses a pool.
fn large_world(threads: usize) -> CpuWorld {
    let model = Lattice {
        n: 12,
        ..Lattice::default()
    }
    .model()
    .expect("lattice");
    assert!(model.springs.len() >= super::super::chunks::PARALLEL_MIN_SPRINGS);
    let mut world = CpuWorld::new(&model).expect("world");
    world.set_threads(threads);
    world
}

#[test]
fn two_worlds_of_one_thread_count_do_not_share_a_pool() {
    let (a, b) = (large_world(2), large_world(2));
    let (pa, pb) = (
        a.pool.as_ref().expect("a pool"),
        b.pool.as_ref().expect("a pool"),
    );
    assert!(!Arc::ptr_eq(pa, pb), "two worlds share one pool");
    assert_eq!((pa.current_num_threads(), pb.current_num_threads()), (2, 2));
}

#[test]
fn one_thread_steps_on_the_callers_thread() {
    assert!(large_world(1).pool.is_none());
}

#[test]
fn worlds_on_their_own_pools_step_from_two_threads_to_the_one_thread_bits() {
    let mut reference = large_world(1);
    reference.step(20).expect("step");
    let expected = reference.positions().expect("positions");
    let results: Vec<_> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut w = large_world(2);
                    w.step(20).expect("step");
                    w.positions().expect("positions")
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("thread"))
            .collect()
    });
    for r in results {
        assert!(r
            .iter()
            .zip(&expected)
            .all(|(x, y)| x.to_array().map(f64::to_bits) == y.to_array().map(f64::to_bits)));
    }
}
