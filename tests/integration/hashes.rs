//! State hashes through the library: the documented bytes on both backends, the same hashes
//! run to run on the GPU and for any CPU thread count, and every SIMD walk dispatched through
//! the one place that can force its level.

use std::path::Path;

use hooke::prelude::*;
use hooke::{Precision, StateHash};

use crate::common;

/// The bytes `hooke::state_hash` documents, for the whole world: steps (u64), time (f64),
/// positions, velocities, rest lengths (f64), all little-endian.
fn documented_bytes<S: Simulation>(sim: &S) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&sim.steps().to_le_bytes());
    b.extend_from_slice(&sim.time().to_le_bytes());
    let pos = sim.positions().unwrap();
    let vel = sim.velocities().unwrap();
    for v in pos.iter().chain(&vel) {
        for c in v.to_array() {
            b.extend_from_slice(&c.to_le_bytes());
        }
    }
    for r in sim.rest_lengths().unwrap() {
        b.extend_from_slice(&r.to_le_bytes());
    }
    b
}

/// Two bodies with a muscle each (so rest lengths move with time) and a joint between them.
fn two_walkers() -> Model {
    Scene::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/mixed.json"))
        .unwrap()
        .to_model()
        .unwrap()
}

fn check_documented_hash<S: Simulation>(sim: &mut S) {
    sim.step(150).unwrap();
    let h = sim.state_hashes().unwrap();
    let expected = StateHash(xxhash_rust::xxh3::xxh3_128(&documented_bytes(sim)));
    assert_eq!(h.world, expected);
    assert_eq!(sim.state_hash().unwrap(), expected);
    assert_eq!((h.steps, h.time.to_bits()), (150, sim.time().to_bits()));
    assert_eq!(h.bodies.len(), sim.bodies_of_model().len());
    // Each body's hash is the world's layout over its own masses and springs.
    let (pos, vel, rest) = (
        sim.positions().unwrap(),
        sim.velocities().unwrap(),
        sim.rest_lengths().unwrap(),
    );
    for (body, hash) in sim.bodies_of_model().iter().zip(&h.bodies) {
        let mut b = Vec::new();
        b.extend_from_slice(&sim.steps().to_le_bytes());
        b.extend_from_slice(&sim.time().to_le_bytes());
        for v in pos[body.masses.clone()]
            .iter()
            .chain(&vel[body.masses.clone()])
        {
            v.to_array()
                .iter()
                .for_each(|c| b.extend_from_slice(&c.to_le_bytes()));
        }
        rest[body.springs.clone()]
            .iter()
            .for_each(|r| b.extend_from_slice(&r.to_le_bytes()));
        assert_eq!(
            *hash,
            StateHash(xxhash_rust::xxh3::xxh3_128(&b)),
            "{}",
            body.name
        );
    }
}

#[test]
fn cpu_state_hash_is_xxh3_of_the_documented_bytes() {
    check_documented_hash(&mut CpuWorld::new(&two_walkers()).unwrap());
}

/// The precisions the shared device runs: f32, and f64 where the adapter has `SHADER_F64`;
/// where it has not (OpenGL), asking for f64 is refused naming the feature.
fn gpu_precisions() -> Vec<Precision> {
    let (device, queue) = common::gpu();
    if device.features().contains(wgpu::Features::SHADER_F64) {
        return vec![Precision::F32, Precision::F64];
    }
    let f64 = WorldOptions {
        precision: Precision::F64,
        ..WorldOptions::default()
    };
    match World::with_device(device.clone(), queue.clone(), &two_walkers(), f64) {
        Err(hooke::Error::Gpu(message)) if message.contains("SHADER_F64") => {
            eprintln!("f64 part skipped: {message}");
        }
        other => panic!("f64 without SHADER_F64: {:?}", other.map(|_| ())),
    }
    vec![Precision::F32]
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_state_hash_is_xxh3_of_the_documented_bytes_in_f32_and_f64() {
    for precision in gpu_precisions() {
        let options = WorldOptions {
            precision,
            ..WorldOptions::default()
        };
        check_documented_hash(&mut common::world_with(&two_walkers(), options));
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_state_hashes_repeat_run_to_run_in_f32_and_f64() {
    let model = two_walkers();
    for precision in gpu_precisions() {
        let options = WorldOptions {
            precision,
            ..WorldOptions::default()
        };
        let run = || {
            let mut w = common::world_with(&model, options);
            w.step(300).unwrap();
            w.state_hashes().unwrap()
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b, "{precision:?}");
        // And the state moved: the hash is not of something constant.
        let w = common::world_with(&model, options);
        assert_ne!(w.state_hash().unwrap(), a.world, "{precision:?}");
    }
}

/// The benchmark lattice (over 10 000 springs, so its passes run on the worker pool): one, two
/// and three threads give the same hashes at every 100th step.
#[test]
fn cpu_state_hashes_do_not_depend_on_the_thread_count() {
    let model = Scene::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lattice.json"))
        .unwrap()
        .to_model()
        .unwrap();
    assert!(model.springs.len() >= 10_000, "{}", model.springs.len());
    let mut worlds: Vec<CpuWorld> = (1..=3)
        .map(|t| {
            let mut w = CpuWorld::new(&model).unwrap();
            w.set_threads(t);
            w
        })
        .collect();
    for _ in 0..5 {
        let hashes: Vec<_> = worlds
            .iter_mut()
            .map(|w| {
                w.step(100).unwrap();
                w.state_hashes().unwrap()
            })
            .collect();
        assert_eq!(hashes[0], hashes[1]);
        assert_eq!(hashes[0], hashes[2]);
    }
}

/// `HOOKE_SIMD` can force every walk's instruction set only if every walk asks `simd.rs` for
/// it: no other file may detect one itself.
#[test]
fn every_simd_walk_dispatches_through_the_forced_level() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![dir];
    let mut offenders = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".rs") || name == "simd.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for (i, line) in text.lines().enumerate() {
                let detects = line.contains("Arch::new()")
                    || line.contains("V3::try_new()")
                    || (line.contains("V4::try_new()") && !text.contains("SimdLevel::in_force()"));
                if detects && !line.trim_start().starts_with("//") {
                    offenders.push(format!("{}:{}: {}", p.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "dispatch through `simd::arch()` (src/cpu/simd.rs) so HOOKE_SIMD applies:\n{}",
        offenders.join("\n")
    );
}
