//! Scale: a scene above 10 M springs builds (with the adapter's real limits) and steps on the GPU.

use crate::common;

use hooke::Lattice;

/// The docs/BENCHMARK_SCENE.md lattice at n = 95: 857 375 masses and 10 903 906 springs (13 per mass), built
/// directly into the model to keep host memory and time down. Two steps of free fall (the lattice
/// starts 0.05 m above the ground, unstrained): the mean velocity must be exactly what free fall
/// gives, `-2 g dt`, up to the f32 rounding of the rest lengths (forces of order `k u L`).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn lattice_above_ten_million_springs_steps() {
    let model = Lattice::benchmark(95).model().unwrap();
    let springs = model.springs.len();
    assert!(springs > 10_000_000, "{springs} springs");
    let started = std::time::Instant::now();
    let mut world = common::world(&model);
    let built = started.elapsed();
    drop(model);
    world.step(2).unwrap();
    let stepped = started.elapsed() - built;
    let body = world.bodies().unwrap()[0];
    let g = 9.81f64;
    let dt = 1e-4f64;
    // Spring forces from f32 rounding of lengths: k * 4 u L per spring, 26 springs per mass, over
    // 2 steps: dv <= 2 dt * 26 * k * 4u * 0.02 m / 0.1 kg, about 3e-5 m/s; the mean of the f32
    // velocity sum rounds by about log2(n) u |v|.
    let tol = 2.0 * dt * 26.0 * 1e4 * 4.0 * f64::from(f32::EPSILON) * 0.02 / 0.1 + 1e-6;
    assert!(
        (body.mean_velocity.z + 2.0 * g * dt).abs() < tol,
        "mean velocity {} vs free fall {}",
        body.mean_velocity.z,
        -2.0 * g * dt
    );
    assert!(body.mean_velocity.truncate().length() < tol);
    eprintln!(
        "{springs} springs: World built in {built:.2?}, 2 steps in {stepped:.2?} ({:.1} M spring-updates/s incl. status readback)",
        2.0 * springs as f64 / stepped.as_secs_f64() / 1e6
    );
}

/// A body of 2^22 - 16 masses (about the most lavapipe's 128 MiB storage bindings allow: 32
/// bytes of mass record each) has its sums over every mass. Regression: one workgroup of 64
/// invocations summed each body, so each invocation looped over 65 535 or 65 536 masses, at
/// lavapipe's limit of 65 535 loop iterations per invocation, and the last masses were left out
/// silently.
/// Bodies are now cut into pieces of at most 2^21 masses (`body_pieces`). The masses (1 kg, the
/// first half at (1, 2, 3) m, the second at (3, 2, 1) m, all at (0, 0, 1) m/s) make every partial
/// sum an integer below 2^24, exact in f32, so the body's mass, centre of mass and mean velocity
/// are exact; a second body of 10 masses checks that each body takes its own pieces' sums. The
/// body sensor (`World::sense`, kernel `sense_bodies`) is cut the same way.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_body_of_four_million_masses_is_summed_whole() {
    use hooke::prelude::*;
    const MASSES: usize = (1 << 22) - 16;
    let mut big = Part::new();
    for i in 0..MASSES {
        let p = if i < MASSES / 2 {
            DVec3::new(1.0, 2.0, 3.0)
        } else {
            DVec3::new(3.0, 2.0, 1.0)
        };
        let mut m = Mass::new(1.0, p);
        m.velocity = DVec3::Z;
        big.add_mass(m);
    }
    let mut small = Part::new();
    for _ in 0..10 {
        small.add_mass(Mass::new(0.5, DVec3::new(5.0, 5.0, 5.0)));
    }
    let mut model = Model::new(Params {
        contact: Contact::None,
        ..Params::default()
    });
    model.add("big", big);
    model.add("small", small);
    let mut world = common::world(&model);
    drop(model);
    let bodies = world.bodies().unwrap();
    assert_eq!(bodies[0].mass, MASSES as f64);
    assert_eq!(bodies[0].centre_of_mass, DVec3::splat(2.0));
    assert_eq!(bodies[0].mean_velocity, DVec3::Z);
    assert_eq!(bodies[1].mass, 5.0);
    assert_eq!(bodies[1].centre_of_mass, DVec3::splat(5.0));
    // The body sensor sums relative to the body's first mass: r = 0 or (2, 0, -2) m, again
    // integers in every partial sum.
    let spec = SensorSpec {
        bodies: vec![1, 0],
        ..SensorSpec::default()
    };
    let readings = world.sense(&spec).unwrap();
    assert_eq!(readings.bodies[1].centre_of_mass, DVec3::splat(2.0));
    assert_eq!(readings.bodies[1].mean_velocity, DVec3::Z);
    assert_eq!(readings.bodies[0].centre_of_mass, DVec3::splat(5.0));
}
