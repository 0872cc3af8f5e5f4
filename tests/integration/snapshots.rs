//! Snapshots of both worlds: restore then step gives the bits of stepping straight through on
//! every shipped scene (CPU reference, GPU World in f32 and f64), with the setters' changes
//! and the sensors' contacts kept; snapshots of another backend, precision or model, and
//! truncated, corrupted or other-version files are refused by name.

use std::path::{Path, PathBuf};

use hooke::creatures::WalkingRobot;
use hooke::prelude::*;
use hooke::{DragSpring, Precision, Snapshot, StateHash, World, WorldOptions};

use crate::common::{world, world_with};

/// Steps before the snapshot and after it: enough for muscles to move, bodies to land and
/// collide (the scenes start within a few mm of the ground or of each other).
const FIRST: u64 = 120;
const THEN: u64 = 80;

/// What must come out the same: the state hash, the raw bits of positions, velocities and rest
/// lengths, and the energy books (dissipated, injected).
#[derive(Debug, PartialEq)]
struct Outcome {
    steps: u64,
    hash: StateHash,
    positions: Vec<[u64; 3]>,
    velocities: Vec<[u64; 3]>,
    rest: Vec<u64>,
    books: [u64; 2],
}

fn outcome<S: Simulation>(w: &S) -> Outcome {
    let bits = |v: Vec<DVec3>| v.iter().map(|p| p.to_array().map(f64::to_bits)).collect();
    let e = w.energy().unwrap();
    Outcome {
        steps: w.steps(),
        hash: w.state_hash().unwrap(),
        positions: bits(w.positions().unwrap()),
        velocities: bits(w.velocities().unwrap()),
        rest: w
            .rest_lengths()
            .unwrap()
            .iter()
            .map(|r| r.to_bits())
            .collect(),
        books: [e.dissipated.to_bits(), e.injected.to_bits()],
    }
}

/// Steps `a` [`FIRST`] steps, snapshots it through bytes, steps [`THEN`] more; then restores
/// the snapshot into `b` (first stepped and edited elsewhere) and into `a` itself, and steps
/// each [`THEN`] steps: all three must agree bit for bit. `Err` says what differed.
fn round_trip<S: Simulation>(a: &mut S, b: &mut S) -> Result<(), String> {
    a.step(FIRST).map_err(|e| e.to_string())?;
    let bytes = a.snapshot().map_err(|e| e.to_string())?.to_bytes();
    a.step(THEN).map_err(|e| e.to_string())?;
    let straight = outcome(a);
    // `b` elsewhere: other steps, another external force, a mass fixed.
    b.step(13).map_err(|e| e.to_string())?;
    b.set_external_force(0, DVec3::new(0.5, 0.0, 0.0)).unwrap();
    b.set_fixed(b.mass_count() - 1, true).unwrap();
    let snapshot = Snapshot::from_bytes(&bytes).map_err(|e| e.to_string())?;
    for (name, w) in [("another world", &mut *b), ("the same world", &mut *a)] {
        w.restore(&snapshot).map_err(|e| format!("{name}: {e}"))?;
        if (w.steps(), w.time()) != (FIRST, snapshot.time()) {
            return Err(format!(
                "{name}: restored at step {} t = {}",
                w.steps(),
                w.time()
            ));
        }
        w.step(THEN).map_err(|e| format!("{name}: {e}"))?;
        let got = outcome(w);
        if got != straight {
            return Err(format!(
                "{name}: after restore and {THEN} steps hash {} (steps {}), straight through {}",
                got.hash, got.steps, straight.hash
            ));
        }
    }
    Ok(())
}

/// Every shipped scene's model, by file name.
fn scenes() -> Vec<(String, Model)> {
    let files = crate::common::shipped_scene_files();
    assert!(files.len() >= 10, "scenes/ has {} scene files", files.len());
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let model = Scene::load(&p).unwrap().to_model().unwrap();
            (name, model)
        })
        .collect()
}

/// [`round_trip`] on every scene with worlds `make` builds; the failures listed by scene.
fn every_scene<S: Simulation>(make: impl Fn(&Model) -> S) {
    let failures: Vec<String> = scenes()
        .iter()
        .filter_map(|(name, model)| {
            let (mut a, mut b) = (make(model), make(model));
            round_trip(&mut a, &mut b)
                .err()
                .map(|e| format!("{name}: {e}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cpu_restore_then_step_gives_the_straight_runs_bits_on_every_scene() {
    every_scene(|m| CpuWorld::new(m).unwrap());
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_restore_then_step_gives_the_straight_runs_bits_on_every_scene() {
    every_scene(world);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_f64_restore_then_step_gives_the_straight_runs_bits_on_every_scene() {
    if has_f64() {
        every_scene(|m| world_with(m, f64_options()));
    }
}

/// The GPU World in f64.
fn f64_options() -> WorldOptions {
    WorldOptions {
        precision: Precision::F64,
        ..WorldOptions::default()
    }
}

/// Whether the shared device runs f64 (`SHADER_F64`); where it does not (OpenGL), asking for
/// an f64 World must be refused naming the feature.
fn has_f64() -> bool {
    let (device, queue) = crate::common::gpu();
    if device.features().contains(wgpu::Features::SHADER_F64) {
        return true;
    }
    let walker = commanded_walker();
    match World::with_device(device.clone(), queue.clone(), &walker, f64_options()) {
        Err(hooke::Error::Gpu(message)) if message.contains("SHADER_F64") => {
            eprintln!("f64 part skipped: {message}");
        }
        other => panic!("f64 without SHADER_F64: {:?}", other.map(|_| ())),
    }
    false
}

/// The walking robot with commanded leg muscles.
fn commanded_walker() -> Model {
    let walker = WalkingRobot::default().commanded().unwrap();
    let mut model = Model::new(walker.creature.params);
    model.add("walker", walker.creature.part);
    model
}

/// Every setter and the contact sensor used before the snapshot; `a` and `b` as in
/// [`round_trip`], except that `b` is a fresh world.
fn edits_survive<S: Simulation>(a: &mut S, b: &mut S) {
    a.step(50).unwrap();
    let commands: Vec<f64> = (0..a.commanded_count())
        .map(|i| 0.05 * (i as f64 - 3.0))
        .collect();
    a.set_commands(&commands).unwrap();
    a.set_external_force(3, DVec3::new(0.0, 2.0, 0.0)).unwrap();
    a.set_fixed(0, true).unwrap();
    let muscle = a.actuators()[1];
    a.set_actuator(
        1,
        Actuator {
            amplitude: 0.5 * muscle.amplitude,
            ..muscle
        },
    )
    .unwrap();
    let plain = (0..a.spring_count())
        .find(|s| a.actuators().iter().all(|m| m.spring as usize != *s))
        .unwrap();
    a.set_rest_length(plain, 1.02 * a.rest_lengths().unwrap()[plain])
        .unwrap();
    let actuated = a.actuators()[2].spring as usize;
    a.set_rest_length(actuated, 0.98 * a.rest_lengths().unwrap()[actuated])
        .unwrap();
    a.set_drag(Some(DragSpring {
        mass: 5,
        target: DVec3::new(0.1, 0.0, 0.3),
        stiffness: 20.0,
        damping: 0.5,
    }))
    .unwrap();
    let feet = SensorSpec {
        contacts: (0..a.mass_count()).collect(),
        ..SensorSpec::default()
    };
    a.sense(&feet).unwrap();
    a.step(40).unwrap();
    let snapshot = a.snapshot().unwrap();
    a.step(60).unwrap();
    let straight = (outcome(a), a.sense(&feet).unwrap().contacts);
    b.restore(&Snapshot::from_bytes(&snapshot.to_bytes()).unwrap())
        .unwrap();
    assert_eq!(b.actuators(), a.actuators());
    b.step(60).unwrap();
    assert_eq!((outcome(b), b.sense(&feet).unwrap().contacts), straight);
    assert!(
        straight.1.iter().any(|c| c.touching),
        "no foot touched the ground"
    );
}

#[test]
fn cpu_setters_and_sensors_survive_a_snapshot() {
    let model = commanded_walker();
    edits_survive(
        &mut CpuWorld::new(&model).unwrap(),
        &mut CpuWorld::new(&model).unwrap(),
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_setters_and_sensors_survive_a_snapshot() {
    let model = commanded_walker();
    edits_survive(&mut world(&model), &mut world(&model));
}

fn refusal(e: hooke::Error) -> String {
    assert!(matches!(e, hooke::Error::Snapshot { .. }), "{e:?}");
    e.to_string()
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_snapshot_of_another_backend_precision_or_model_is_refused_by_name() {
    let model = commanded_walker();
    let cpu = CpuWorld::new(&model).unwrap().snapshot().unwrap();
    let gpu = world(&model).snapshot().unwrap();
    let said = refusal(world(&model).restore(&cpu).unwrap_err());
    assert!(
        said.contains(
            "it is of the CPU reference (f64); it cannot be restored into the GPU World in f32"
        ),
        "{said}"
    );
    let said = refusal(CpuWorld::new(&model).unwrap().restore(&gpu).unwrap_err());
    assert!(
        said.contains("of the GPU World in f32; it cannot be restored into the CPU reference"),
        "{said}"
    );
    if has_f64() {
        let said = refusal(world_with(&model, f64_options()).restore(&gpu).unwrap_err());
        assert!(
            said.contains("cannot be restored into the GPU World in f64"),
            "{said}"
        );
    }

    // Other counts, and the same counts with one stiffness changed.
    let mut bigger = model.clone();
    bigger.add_mass(Mass::new(0.1, DVec3::new(5.0, 0.0, 1.0)));
    let said = refusal(CpuWorld::new(&bigger).unwrap().restore(&cpu).unwrap_err());
    let expected = format!("this world's model has {} masses", bigger.masses.len());
    assert!(said.contains(&expected), "{said}");
    let mut stiffer = model.clone();
    stiffer.springs[0].stiffness *= 1.5;
    let mut other = CpuWorld::new(&stiffer).unwrap();
    other.step(3).unwrap();
    let before = outcome(&other);
    assert!(refusal(other.restore(&cpu).unwrap_err()).contains("another model"));
    assert_eq!(
        outcome(&other),
        before,
        "a refused restore changed the world"
    );
    assert!(refusal(world(&stiffer).restore(&gpu).unwrap_err()).contains("another model"));
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("snapshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn truncated_corrupted_and_other_version_files_are_refused_by_name() {
    let model = commanded_walker();
    let mut w = CpuWorld::new(&model).unwrap();
    w.step(10).unwrap();
    let path = scratch("walker.snapshot");
    w.snapshot().unwrap().save(&path).unwrap();
    let good = std::fs::read(&path).unwrap();
    assert_eq!(Snapshot::load(&path).unwrap(), w.snapshot().unwrap());
    let load = |bytes: &[u8], name: &str| {
        let p = scratch(name);
        std::fs::write(&p, bytes).unwrap();
        let said = refusal(Snapshot::load(&p).unwrap_err());
        assert!(said.contains(&p.display().to_string()), "{said}");
        said
    };
    for cut in [3, 50, good.len() / 2, good.len() - 1] {
        let said = load(&good[..cut], "cut.snapshot");
        assert!(
            said.contains("truncated") || said.contains("not a hooke snapshot"),
            "{cut}: {said}"
        );
    }
    for at in [20, good.len() / 2, good.len() - 3] {
        let mut bad = good.clone();
        bad[at] ^= 1;
        let said = load(&bad, "flipped.snapshot");
        assert!(said.contains("corrupted"), "byte {at}: {said}");
    }
    let mut v9 = good.clone();
    v9[8..12].copy_from_slice(&9u32.to_le_bytes());
    assert!(load(&v9, "v9.snapshot").contains("format version 9; this hooke reads version 1"));
    let said = load(b"{\"version\": 1}", "json.snapshot");
    assert!(said.contains("not a hooke snapshot"), "{said}");
    let missing = refusal(Snapshot::load(scratch("missing.snapshot")).unwrap_err());
    assert!(missing.contains("cannot read it"), "{missing}");
}

/// A world of `model` run at 100 times its time step stops on a blow-up: it refuses a snapshot,
/// and a restore of its initial state starts it again on the bits of a fresh world.
fn stopped_world<S: Simulation>(make: impl Fn(&Model) -> S) {
    let mut model = commanded_walker();
    model.params.dt *= 100.0;
    let mut fresh = make(&model);
    let start = fresh.snapshot().unwrap();
    let mut w = make(&model);
    assert!(
        w.step(2000).is_err(),
        "a dt 100 times the stable one did not blow up"
    );
    assert!(refusal(w.snapshot().unwrap_err()).contains("the world stopped"));
    w.restore(&start).unwrap();
    w.step(1).unwrap();
    fresh.step(1).unwrap();
    assert_eq!(outcome(&w), outcome(&fresh));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_stopped_world_refuses_a_snapshot_and_a_restore_starts_it_again() {
    stopped_world(|m| CpuWorld::new(m).unwrap());
    stopped_world(world);
}
