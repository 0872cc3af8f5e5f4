//! `Population::benchmark` (the throughput figure): the population the benchmarks and
//! `throughput --population` time is the one their docs describe, the same on every run, and a
//! fair workload (no robot fails, so no timing includes a restart).

use hooke::population::{Evaluation, Population};
use hooke::CpuWorld;

/// Masses, springs and actuators of a population, summed over its robots.
fn totals(p: &Population) -> [usize; 3] {
    p.robots.iter().fold([0; 3], |[m, s, a], r| {
        [
            m + r.part.masses.len(),
            s + r.part.springs.len(),
            a + r.part.actuators.len(),
        ]
    })
}

#[test]
fn benchmark_population_has_the_documented_counts() {
    // The docs (Population::benchmark, README, docs/PERFORMANCE.md) quote 92.5 masses, 634
    // springs and 479 actuated springs per robot over the first 1 000 robots. The counts are
    // integers of a seeded ChaCha8 stream, so they are pinned exactly: a change of the genome
    // size, the fill, the seed or the draw order fails here, and the quoted figures must then
    // be measured again.
    let p = Population::benchmark(1_000).unwrap();
    assert_eq!(p.robots.len(), 1_000);
    assert_eq!(totals(&p), [92_481, 634_338, 479_228]);
    let masses = p.robots.iter().map(|r| r.part.masses.len());
    assert_eq!(masses.clone().min(), Some(50));
    assert_eq!(masses.max(), Some(100)); // the full 4 x 4 x 3 block: 5 x 5 x 4 corners
}

#[test]
fn benchmark_population_is_reproducible_and_nested() {
    // Cost per robot is compared across sizes on the same robots: a smaller population is the
    // first robots of a larger one, and a second draw gives the same robots.
    let small = Population::benchmark(10).unwrap();
    let large = Population::benchmark(100).unwrap();
    assert_eq!(small.robots[..], large.robots[..10]);
    assert_eq!(Population::benchmark(100).unwrap(), large);
    assert!(Population::benchmark(0).unwrap().robots.is_empty());
}

#[test]
fn benchmark_robots_do_not_fail_in_a_timed_run() {
    // A robot that fails makes the evaluation restart without it, which a timing would count
    // twice. The first 20 robots for 0.2 s (two control periods; 0.4 of a muscle cycle at
    // 2 Hz) on the CPU reference: none fails, and none moves farther than muscles could carry
    // it. A cycle moves a robot at most about its muscles' stroke, 10 % of its at most 0.4 m
    // length (0.04 m), so at 2 Hz about 0.08 m/s, 0.016 m in 0.2 s; 0.5 m, 30 times that, would
    // be a blow-up that the bounds missed.
    let p = Population::benchmark(20).unwrap();
    let eval = Evaluation {
        duration: 0.2,
        ..Evaluation::default()
    };
    for r in p.evaluate(&eval).run().unwrap() {
        assert_eq!(r.failure, None, "{}", r.name);
        let d = r.fitness.unwrap();
        assert!(d.abs() < 0.5, "{}: {d} m in 0.2 s", r.name);
    }
}

/// `Population::benchmark_blocks`: copies of the whole 4 x 4 x 3-cell block, 100 masses, 795
/// springs (235 edges, 368 face diagonals, 192 body diagonals) and 603 muscles each, as
/// `block_robot` documents; all of one shape, so the CPU reference walks every spring in lanes.
#[test]
fn benchmark_blocks_are_copies_of_the_whole_block() {
    let blocks = Population::benchmark_blocks(10).unwrap();
    assert_eq!(totals(&blocks), [1000, 7950, 6030]);
    assert!(blocks
        .robots
        .iter()
        .all(|r| r.part == blocks.robots[0].part));
    let model = blocks.model(&hooke::Params::robots(), &[]).expect("model");
    let world = CpuWorld::new(&model).unwrap();
    assert_eq!(world.alike_springs(), model.springs.len());
}
