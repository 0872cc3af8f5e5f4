//! Scale: a scene above 10 M springs builds (with the adapter's real limits) and steps on the GPU.

mod common;

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
