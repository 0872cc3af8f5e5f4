//! GPU `World` throughput: full steps (springs, integrate, ground with friction) of the benchmark scene
//! falling lattice at n = 40, 80 and 120 (0.79 M, 6.5 M and 22 M springs), reported as
//! spring-updates per second (in f32 with several options, and in f64: `energy_f64`), and the per-step cost of small scenes (the 8-mass cube, a 1 000-mass
//! lattice) where dispatch and submission overhead dominate, and the cost of obstacles
//! (mass-updates per second of the n = 40 lattice with 0 to 64 obstacles), and of collisions
//! between masses (`gpu_collisions`: the scenes of `cpu_collisions`, whole steps with and without
//! collision radii; the collision pass costs the difference), and populations of voxel robots
//! (`gpu_population`: 10, 100 and 1 000 robots of `Population::benchmark`, each evaluated for
//! 0.1 s in one World, as robot-evaluations per second), and the benchmark herd of 500 inchworms
//! in one model (`gpu_population_inchworms`: spring-updates per second, stencil and link
//! variants, and the stencil variant without energy booking as `Population` evaluates, with its
//! steps fused and in two passes).
//!
//! Every timed call is `World::step`, which submits the steps and waits for the GPU to finish (it
//! reads the 16-byte status word back), so the timings are GPU work, not only submission.
//! `cargo bench --bench gpu` runs it in full on the adapter wgpu picks (lavapipe on a machine
//! without a GPU); with `CI` set the sizes shrink so that CI's quick pass only proves it still runs.

#![allow(missing_docs)] // criterion_group! generates undocumented functions

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hooke::builders::{Builder, Cube, Lattice, Placement};
use hooke::{AtomicWidth, DVec3, Model, Params, Precision, SpringPass, World, WorldOptions};

fn quick() -> bool {
    std::env::var_os("CI").is_some()
}

/// Steps per timed call: several steps per submission, as users step (a frame, a generation).
const STEPS_PER_CALL: u64 = 10;

/// One device for every World of the run, as wgpu's `execute_gpu` pattern suggests.
fn device() -> (wgpu::Device, wgpu::Queue) {
    hooke::gpu::request_device()
        .expect("a GPU adapter (on Linux without a GPU: mesa-vulkan-drivers)")
}

fn lattice(c: &mut Criterion) {
    let (device, queue) = device();
    let sizes: &[u32] = if quick() { &[6, 10] } else { &[40, 80, 120] };
    let mut group = c.benchmark_group("gpu_lattice_step");
    group.sample_size(10);
    for &n in sizes {
        let model = Lattice::benchmark(n).model().expect("lattice");
        let springs = model.springs.len() as u64;
        // Default options (64-bit sums where the device has 64-bit atomics; the stencil variant
        // of the spring pass on CPU adapters), without energy booking, with 32-bit sums (x and y
        // packed in one 64-bit atomic where available), and with the link variant of the spring
        // pass.
        for (label, track_energy, atomics, spring_pass) in [
            ("energy", true, AtomicWidth::Auto, SpringPass::Auto),
            ("no_energy", false, AtomicWidth::Auto, SpringPass::Auto),
            ("energy_bits32", true, AtomicWidth::Bits32, SpringPass::Auto),
            ("energy_links", true, AtomicWidth::Auto, SpringPass::Links),
        ] {
            let options = WorldOptions {
                track_energy,
                atomics,
                spring_pass,
                ..WorldOptions::default()
            };
            let mut world =
                World::with_device(device.clone(), queue.clone(), &model, options).expect("world");
            world.step(5).expect("step");
            group.throughput(Throughput::Elements(springs * STEPS_PER_CALL));
            group.bench_with_input(BenchmarkId::new(label, n), &n, |b, _| {
                b.iter(|| world.step(STEPS_PER_CALL).expect("step"));
            });
        }
        // Default options in f64 (`Precision::F64`), where the adapter has SHADER_F64.
        if device.features().contains(wgpu::Features::SHADER_F64) {
            let options = WorldOptions {
                precision: Precision::F64,
                ..WorldOptions::default()
            };
            let mut world =
                World::with_device(device.clone(), queue.clone(), &model, options).expect("world");
            world.step(5).expect("step");
            group.throughput(Throughput::Elements(springs * STEPS_PER_CALL));
            group.bench_with_input(BenchmarkId::new("energy_f64", n), &n, |b, _| {
                b.iter(|| world.step(STEPS_PER_CALL).expect("step"));
            });
        } else {
            eprintln!(
                "gpu_lattice_step/energy_f64: {} has no SHADER_F64",
                device.adapter_info().name
            );
        }
    }
    group.finish();
}

fn small(c: &mut Criterion) {
    let (device, queue) = device();
    let mut group = c.benchmark_group("gpu_small_step");
    let mut cube = Model::new(Params::default());
    cube.add(
        "cube",
        Cube::lipson()
            .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.3)))
            .expect("cube"),
    );
    let thousand = Lattice::benchmark(10).model().expect("lattice");
    for (name, model) in [("cube_8_masses", cube), ("lattice_1000_masses", thousand)] {
        let mut world = World::with_device(
            device.clone(),
            queue.clone(),
            &model,
            WorldOptions::default(),
        )
        .expect("world");
        for steps in [1u64, 100] {
            group.throughput(Throughput::Elements(model.springs.len() as u64 * steps));
            group.bench_with_input(BenchmarkId::new(name, steps), &steps, |b, &steps| {
                b.iter(|| world.step(steps).expect("step"));
            });
        }
    }
    group.finish();
}

/// The cost of obstacles: the lattice with `k` extra obstacles, as mass-updates per second.
/// "planes": tilted planes far below the lattice, which have no bounds, so every mass computes
/// every plane's distance (the most one obstacle can cost a mass without touching it); "steps":
/// a staircase of `k` boxes under the lattice, whose bounds the masses test first (the broad
/// phase: a mass computes the distance only to the boxes it is near). `k = 0` is the plain step.
fn obstacles(c: &mut Criterion) {
    let (device, queue) = device();
    let n = if quick() { 6 } else { 40 };
    let counts: &[usize] = if quick() { &[0, 4] } else { &[0, 1, 4, 16, 64] };
    let mut group = c.benchmark_group("gpu_obstacles_step");
    group.sample_size(10);
    for kind in ["planes", "steps"] {
        for &k in counts {
            let model = common::obstacle_model(n, kind, k);
            let masses = model.masses.len() as u64;
            let mut world = World::with_device(
                device.clone(),
                queue.clone(),
                &model,
                WorldOptions::default(),
            )
            .expect("world");
            world.step(5).expect("step");
            group.throughput(Throughput::Elements(masses * STEPS_PER_CALL));
            group.bench_with_input(BenchmarkId::new(kind, k), &k, |b, _| {
                b.iter(|| world.step(STEPS_PER_CALL).expect("step"));
            });
        }
    }
    group.finish();
}

/// The cost of collisions between masses, the scenes of `cpu_collisions` (benches/common/mod.rs),
/// as mass-updates per second: `step` the whole step, `step_no_radius` the same scene with every
/// collision radius 0. The collision pass is not reachable alone on the GPU, so its cost is the
/// difference.
fn collisions(c: &mut Criterion) {
    let (device, queue) = device();
    let mut group = c.benchmark_group("gpu_collisions");
    group.sample_size(10);
    for scene in common::collision_scenes(quick()) {
        let masses = scene.model.masses.len() as u64;
        group.throughput(Throughput::Elements(masses * STEPS_PER_CALL));
        let plain = common::without_collisions(&scene.model);
        for (label, model) in [("step", &scene.model), ("step_no_radius", &plain)] {
            let options = WorldOptions::default();
            let mut world = World::with_device(device.clone(), queue.clone(), model, options)
                .unwrap_or_else(|e| panic!("world: {e}"));
            world.step(scene.warm_up).expect("step");
            group.bench_function(BenchmarkId::new(label, &scene.name), |b| {
                b.iter(|| world.step(STEPS_PER_CALL).expect("step"));
            });
        }
    }
    group.finish();
}

/// Populations of voxel robots, the scenes of `cpu_population` (see `common::populations`): one
/// `Population::evaluate` call per iteration on the device opened once (building the
/// World included, as an evolution loop does every generation), as robots per second; each
/// robot is simulated for the evaluation's duration (0.1 s).
fn population(c: &mut Criterion) {
    let (device, queue) = device();
    let gpu = hooke::OpenBackend::from_device(device, queue);
    let (populations, eval) = common::populations(quick());
    let mut group = c.benchmark_group("gpu_population");
    group.sample_size(10);
    for population in &populations {
        let robots = population.robots.len();
        group.throughput(Throughput::Elements(robots as u64));
        group.bench_with_input(BenchmarkId::new("robots", robots), &robots, |b, _| {
            b.iter(|| population.evaluate(&eval).on(&gpu).run().expect("evaluate"));
        });
    }
    group.finish();
}

/// The benchmark population of small robots with muscles in one model: a herd of 500 inchworms
/// (`Creature::herd`, 1 m apart: 10 000 masses, 47 000 springs, 32 000 of them actuated; 10 in
/// CI's quick mode), stepped in calls of `STEPS_PER_CALL` steps, as spring-updates per second; with
/// the default spring pass (the stencil variant on CPU adapters, the muscles in its slots) and
/// with the link variant.
fn inchworms(c: &mut Criterion) {
    let (device, queue) = device();
    let count = if quick() { 10 } else { 500 };
    let worm = hooke::creatures::Inchworm::default()
        .build()
        .expect("inchworm");
    let model = worm.herd(count, 1.0).expect("herd");
    let mut group = c.benchmark_group("gpu_population_inchworms");
    group.sample_size(10);
    group.throughput(Throughput::Elements(
        model.springs.len() as u64 * STEPS_PER_CALL,
    ));
    // Default options; without energy booking, as `Population` evaluates (the stencil variant
    // then sets its muscles' rest lengths before its walk, and the World fuses its steps: one
    // dispatch per submission), and the same with two passes per step; the link variant.
    for (name, spring_pass, track_energy, fuse_steps) in [
        ("default", SpringPass::default(), true, true),
        ("as_evaluated", SpringPass::default(), false, true),
        (
            "as_evaluated_two_passes",
            SpringPass::default(),
            false,
            false,
        ),
        ("links", SpringPass::Links, true, true),
    ] {
        let options = WorldOptions {
            spring_pass,
            track_energy,
            fuse_steps,
            ..WorldOptions::default()
        };
        let mut world =
            World::with_device(device.clone(), queue.clone(), &model, options).expect("world");
        group.bench_with_input(BenchmarkId::new(name, count), &count, |b, _| {
            b.iter(|| world.step(STEPS_PER_CALL).expect("step"));
        });
    }
    group.finish();
}

criterion_group!(benches, lattice, small, obstacles, collisions, population, inchworms);
criterion_main!(benches);
