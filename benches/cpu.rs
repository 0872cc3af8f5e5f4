//! CPU reference throughput: full steps (springs, integrate, ground with friction) of the
//! the benchmark scene falling lattice at n = 40, 80 and 120 (0.79 M, 6.5 M and 22 M springs), reported as
//! spring-updates per second, and the per-step cost of small scenes (the 8-mass cube, a 1 000-mass
//! lattice, one inchworm, one `Population::benchmark` robot) where overhead dominates,
//! populations stepped in one world (`cpu_population_step`: 500 inchworms, 1 000 benchmark
//! robots and 1 000 whole blocks, as spring-updates per second beside the lattice's, one step per call with energy
//! booking and, `*_as_evaluated`, 100 steps per call without, as `Population` evaluates), the cost of obstacles (0 to 64 on the n = 40 lattice) and
//! of collisions between masses (`cpu_collisions`: the lattice at n = 40 with every mass
//! colliding and beds of 10^5 to 10^6 loose particles, as mass-updates per second of the
//! collision pass alone, of the spring pass alone, of the whole step, and of the same step with
//! every collision radius 0), and populations of voxel robots (`cpu_population`: 10, 100 and
//! 1 000 robots of `Population::benchmark`, each evaluated for 0.1 s in one `CpuWorld`, as
//! robot-evaluations per second).
//!
//! `cargo bench --bench cpu` runs it in full; with `CI` set the sizes shrink so that CI's quick
//! pass (`cargo bench -- --test`) only proves the benchmark still runs.

#![allow(missing_docs)] // criterion_group! generates undocumented functions

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hooke::builders::{Builder, Cube, Lattice, Placement};
use hooke::creatures::Inchworm;
use hooke::population::Population;
use hooke::{CpuWorld, DVec3, Model, Params};

fn quick() -> bool {
    std::env::var_os("CI").is_some()
}

fn lattice(c: &mut Criterion) {
    let sizes: &[u32] = if quick() { &[6, 10] } else { &[40, 80, 120] };
    let mut group = c.benchmark_group("cpu_lattice_step");
    group.sample_size(10);
    for &n in sizes {
        let model = Lattice::benchmark(n).model().expect("lattice");
        let springs = model.springs.len() as u64;
        let mut world = CpuWorld::new(&model).expect("world");
        drop(model);
        // Let the lattice fall a little so that the first contacts are part of the work.
        world.step(5).expect("step");
        group.throughput(Throughput::Elements(springs));
        group.bench_with_input(BenchmarkId::new("n", n), &n, |b, _| {
            b.iter(|| world.step(1).expect("step"));
        });
    }
    group.finish();
}

fn small(c: &mut Criterion) {
    let mut group = c.benchmark_group("cpu_small_step");
    let mut cube = Model::new(Params::default());
    cube.add(
        "cube",
        Cube::lipson()
            .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.3)))
            .expect("cube"),
    );
    let thousand = Lattice::benchmark(10).model().expect("lattice");
    let inchworm = Inchworm::default().build().expect("inchworm").model();
    let robot = Population::benchmark(1)
        .and_then(|p| p.model(&Params::robots(), &[]))
        .expect("robot");
    for (name, model) in [
        ("cube_8_masses", cube),
        ("lattice_1000_masses", thousand),
        ("inchworm", inchworm),
        ("benchmark_robot", robot),
    ] {
        let mut world = CpuWorld::new(&model).expect("world");
        group.throughput(Throughput::Elements(model.springs.len() as u64));
        group.bench_function(name, |b| b.iter(|| world.step(1).expect("step")));
    }
    group.finish();
}

/// The cost of obstacles on the CPU reference, the scenes of `gpu_obstacles_step` (see
/// benches/common/mod.rs): the n = 40 lattice with `k` planes (no bounds: every mass computes every
/// distance) or `k` boxes of a staircase (the masses test their bounds first).
fn obstacles(c: &mut Criterion) {
    let n = if quick() { 6 } else { 40 };
    let counts: &[usize] = if quick() { &[0, 4] } else { &[0, 1, 4, 16, 64] };
    let mut group = c.benchmark_group("cpu_obstacles_step");
    group.sample_size(10);
    for kind in ["planes", "steps"] {
        for &k in counts {
            let model = common::obstacle_model(n, kind, k);
            let mut world = CpuWorld::new(&model).expect("world");
            world.step(5).expect("step");
            group.throughput(Throughput::Elements(model.masses.len() as u64));
            group.bench_with_input(BenchmarkId::new(kind, k), &k, |b, _| {
                b.iter(|| world.step(1).expect("step"));
            });
        }
    }
    group.finish();
}

/// The cost of collisions between masses (see benches/common/mod.rs for the scenes), as
/// mass-updates per second: `pass` is the collision pass alone (broad phase and pair forces, a
/// hidden hook of `CpuWorld`), `springs` the spring pass alone (what the collision pass is
/// measured against), `step` the whole step, `step_no_radius` the same scene with every
/// radius 0 (no collision pass).
fn collisions(c: &mut Criterion) {
    let mut group = c.benchmark_group("cpu_collisions");
    group.sample_size(10);
    for scene in common::collision_scenes(quick()) {
        let masses = scene.model.masses.len() as u64;
        group.throughput(Throughput::Elements(masses));
        let mut world = CpuWorld::new(&scene.model).expect("world");
        world.step(scene.warm_up).expect("step");
        group.bench_function(BenchmarkId::new("pass", &scene.name), |b| {
            b.iter(|| world.bench_collision_pass());
        });
        if !scene.model.springs.is_empty() {
            group.bench_function(BenchmarkId::new("springs", &scene.name), |b| {
                b.iter(|| world.bench_spring_pass());
            });
        }
        group.bench_function(BenchmarkId::new("step", &scene.name), |b| {
            b.iter(|| world.step(1).expect("step"));
        });
        drop(world);
        let mut world = CpuWorld::new(&common::without_collisions(&scene.model)).expect("world");
        world.step(scene.warm_up).expect("step");
        group.bench_function(BenchmarkId::new("step_no_radius", &scene.name), |b| {
            b.iter(|| world.step(1).expect("step"));
        });
    }
    group.finish();
}

/// Populations stepped in one `CpuWorld`, as spring-updates per second, to compare
/// with the lattice's: 500 inchworms (`Creature::herd`: 10 000 masses, 47 000 springs, 32 000
/// actuated), `Population::benchmark(1000)` (92 000 masses, 634 000 springs, random shapes) and
/// `Population::benchmark_blocks(1000)` (1 000 copies of the whole 100-mass block: 795 000
/// springs, one shape).
fn population_step(c: &mut Criterion) {
    let (herd, robots) = if quick() { (5, 3) } else { (500, 1000) };
    let worm = Inchworm::default().build().expect("inchworm");
    let models = [
        ("herd_inchworms", herd, worm.herd(herd, 1.0).expect("herd")),
        (
            "benchmark_robots",
            robots,
            Population::benchmark(robots)
                .and_then(|p| p.model(&Params::robots(), &[]))
                .expect("population"),
        ),
        (
            "block_robots",
            robots,
            Population::benchmark_blocks(robots)
                .and_then(|p| p.model(&Params::robots(), &[]))
                .expect("blocks"),
        ),
    ];
    let mut group = c.benchmark_group("cpu_population_step");
    group.sample_size(10);
    for (name, count, model) in models {
        let mut world = CpuWorld::new(&model).expect("world");
        world.step(2).expect("step");
        group.throughput(Throughput::Elements(model.springs.len() as u64));
        group.bench_with_input(BenchmarkId::new(name, count), &count, |b, _| {
            b.iter(|| world.step(1).expect("step"));
        });
        // As `Population` evaluates: no energy booking, a control period of steps per call.
        world.set_track_energy(false);
        let steps = POPULATION_STEPS_PER_CALL;
        group.throughput(Throughput::Elements(model.springs.len() as u64 * steps));
        let id = BenchmarkId::new(format!("{name}_as_evaluated"), count);
        group.bench_with_input(id, &count, |b, _| {
            b.iter(|| world.step(steps).expect("step"));
        });
    }
    group.finish();
}

/// Steps per `step` call in the `*_as_evaluated` benchmarks: a control period's worth.
const POPULATION_STEPS_PER_CALL: u64 = 100;

/// Populations of voxel robots (see `common::populations`): one `Population::evaluate` call on
/// the CPU reference per iteration (building the world included), as robots per second; each
/// robot is simulated for the evaluation's duration (0.1 s).
fn population(c: &mut Criterion) {
    let (populations, eval) = common::populations(quick());
    let mut group = c.benchmark_group("cpu_population");
    group.sample_size(10);
    for population in &populations {
        let robots = population.robots.len();
        group.throughput(Throughput::Elements(robots as u64));
        group.bench_with_input(BenchmarkId::new("robots", robots), &robots, |b, _| {
            b.iter(|| population.evaluate(&eval).run().expect("evaluate"));
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    lattice,
    small,
    obstacles,
    collisions,
    population_step,
    population
);
criterion_main!(benches);
