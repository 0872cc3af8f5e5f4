//! Commanded actuators: rest lengths driven from outside with `set_commands`, on both
//! backends. Parity and determinism of the GPU against the CPU reference, the analytic rest
//! length a damped spring settles at (clamped to the amplitude), the muscles' work booked as
//! injected energy, the errors, and `reset` zeroing the commands.

use crate::common;

use common::parity::{compare_with_edits, Target, U};
use hooke::prelude::*;
use hooke::{Actuator, Error, Muscle, SpringPass, Voxel, VoxelBody, WorldOptions};

/// The commands of the parity runs, one list per control tick (cycled): inside the amplitude,
/// beyond it both ways (clamped to +-0.15) and negative. Dyadic values, exact in f32, so the
/// GPU's f32 commands are the CPU's and the param shadow needs no rounding of them.
const TICKS: [[f64; 2]; 5] = [
    [0.0625, -0.03125],
    [0.5, -0.125],
    [-0.75, 0.09375],
    [-0.125, 2.0],
    [0.0, -1.0e6],
];

/// A two-voxel robot on the ground: voxel 0 a sine muscle, voxel 1 a commanded one of amplitude
/// 0.15, and a single commanded actuator of amplitude 0.1 on the robot's first spring after them
/// (so sine and commanded actuators interleave in the actuator table). `commanded_count()` is
/// 28 + 1 minus the springs shared with voxel 0 (driven by voxel 0's sine muscle, listed first).
fn robot() -> Model {
    let voxels = vec![
        Voxel::new([0, 0, 0]).with_muscle(Muscle::new(0.1, std::f64::consts::TAU * 2.0, 0.0)),
        Voxel::new([1, 0, 0]).with_muscle(Muscle::commanded(0.15)),
    ];
    let body = VoxelBody {
        voxels,
        ..VoxelBody::default()
    };
    let mut part = body
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.02)))
        .unwrap();
    part.actuators.push(Actuator::commanded(0, 0.1));
    let mut model = Model::new(Params {
        friction: hooke::Friction::coulomb(0.8, 0.6),
        ..Params::default()
    });
    model.add("robot", part);
    model
}

/// The benchmark lattice (4 masses a side, regular enough for the stencil variant) with muscles:
/// every seventh spring commanded (amplitude 0.15), the springs 3 after them sine muscles, and a
/// last commanded actuator (amplitude 0.1) on spring 3, which a sine muscle also names (the
/// last one listed drives it). Actuated springs go through the link table in both variants.
fn lattice_with_muscles() -> Model {
    let mut model = common::scenes::lattice(4, 0.005, hooke::Friction::coulomb(0.6, 0.4));
    for s in (0..model.springs.len() as u32).step_by(7) {
        model.actuators.push(Actuator::commanded(s, 0.15));
        if (s + 3) < model.springs.len() as u32 {
            let sine = Muscle::new(0.1, std::f64::consts::TAU * 2.0, 0.25).on(s + 3);
            model.actuators.push(sine);
        }
    }
    model.actuators.push(Actuator::commanded(3, 0.1));
    model
}

/// The commands of tick `tick` for a world with `n` commanded actuators: the last one gets the
/// second value of the tick, the others the first.
fn commands(tick: usize, n: usize) -> Vec<f64> {
    let [voxel, single] = TICKS[tick % TICKS.len()];
    let mut c = vec![voxel; n];
    c[n - 1] = single;
    c
}

#[test]
fn the_voxel_builder_passes_commanded_to_its_actuators() {
    let model = robot();
    let commanded = model.actuators.iter().filter(|a| a.commanded).count();
    // Voxel 1's 28 springs minus the 6 of the shared face (4 edges, 2 diagonals) voxel 0 drives,
    // plus the single actuator.
    assert_eq!(commanded, 28 - 6 + 1);
    let cpu = CpuWorld::new(&model).unwrap();
    assert_eq!(cpu.commanded_count(), commanded);
}

/// Positions, velocities and energies of the GPU within the parity tolerances of
/// `tests/integration/common/parity.rs` while the commands change every 250 steps, on both spring-pass
/// variants; then the rest lengths agree to f32 rounding.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn commanded_lattice_matches_the_cpu_on_both_spring_passes() {
    let model = lattice_with_muscles();
    for spring_pass in [SpringPass::Links, SpringPass::Stencil] {
        let options = WorldOptions {
            spring_pass,
            ..WorldOptions::default()
        };
        let mut gpu = common::world_with(&model, options);
        let stencil = gpu.stats().stencil_offsets > 0;
        assert_eq!(
            stencil,
            spring_pass == SpringPass::Stencil,
            "{spring_pass:?}"
        );
        if stencil {
            // Commanded and sine muscles sit in the stencil slots with the plain springs.
            assert_eq!(gpu.stats().stencil_springs, model.springs.len() as u64);
        }
        let n = gpu.commanded_count();
        let every = 250;
        let edit = |done: u64, w: Target<'_>| {
            let c = commands((done / every) as usize, n);
            match w {
                Target::Cpu(w) => w.set_commands(&c).unwrap(),
                Target::Gpu(w) => w.set_commands(&c).unwrap(),
            }
        };
        let name = format!("commanded lattice ({spring_pass:?})");
        compare_with_edits(&name, &model, &mut gpu, 3000, every, edit);
        let mut cpu = CpuWorld::new(&model).unwrap();
        cpu.set_commands(&commands(3, n)).unwrap();
        gpu.set_commands(&commands(3, n)).unwrap();
        // Same time (3000 steps of dt) on both, so the sine muscles agree too.
        cpu.step(3000).unwrap();
        let (c, g) = (cpu.rest_lengths().unwrap(), gpu.rest_lengths().unwrap());
        for (s, (c, g)) in c.iter().zip(&g).enumerate() {
            // The GPU's host copy starts from f32 base lengths of plain springs (one rounding,
            // U |L|); commands and actuated bases are the CPU's f64 values.
            assert!(
                (c - g).abs() <= U * c.abs(),
                "spring {s}: rest length {g} m (GPU) vs {c} m (CPU)"
            );
        }
        // Clamping: the last actuator's command 2.0 is clamped to +0.1.
        let single = model.actuators.last().unwrap().spring as usize;
        let base = model.springs[single].rest_length;
        assert!((c[single] - base * 1.1).abs() < 1e-15 * base);
    }
}

/// Without energy booking the stencil variant sets the rest lengths of its commanded and sine
/// muscles before its walk (`shaders/springs_stencil_muscles.wgsl`) instead of evaluating each
/// in the walk as it does with booking: the same functions, so the same bits (positions,
/// velocities, and the elastic energy, which reads each muscle's `current` rest length) while
/// the commands change every 250 steps.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn commanded_muscles_set_before_the_walk_give_the_walks_bits() {
    let model = lattice_with_muscles();
    let run = |track_energy| {
        let options = WorldOptions {
            spring_pass: SpringPass::Stencil,
            track_energy,
            ..WorldOptions::default()
        };
        let mut w = common::world_with(&model, options);
        assert_eq!(w.stats().stencil_springs, model.springs.len() as u64);
        let n = w.commanded_count();
        for tick in 0..8 {
            w.set_commands(&commands(tick, n)).unwrap();
            w.step(250).unwrap();
        }
        let elastic = w.energy().unwrap().elastic;
        (w.positions().unwrap(), w.velocities().unwrap(), elastic)
    };
    let (walked, set) = (run(true), run(false));
    assert!(set.0 == walked.0, "positions differ");
    assert!(set.1 == walked.1, "velocities differ");
    assert_eq!(set.2, walked.2, "elastic energy differs");
}

/// Reruns with the same command sequence give the same bits (the commands are uploaded, not
/// accumulated).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn commanded_gpu_reruns_are_bit_identical() {
    let model = robot();
    let run = |w: &mut World| -> Vec<DVec3> {
        let n = w.commanded_count();
        for tick in 0..8 {
            w.set_commands(&commands(tick, n)).unwrap();
            w.step(100).unwrap();
        }
        w.positions().unwrap()
    };
    let mut a = common::world(&model);
    let first = run(&mut a);
    a.reset();
    let again = run(&mut a);
    let mut b = common::world(&model);
    let fresh = run(&mut b);
    assert_eq!(first, again, "rerun after reset differs");
    assert_eq!(first, fresh, "a second World differs");
}

/// One 1 kg bob on a spring of base length 0.5 m to a fixed anchor, critically damped, no
/// gravity or ground; its spring's actuator is commanded with amplitude 0.2.
fn damped_spring() -> Model {
    let mut part = Part::new();
    let anchor = part.add_mass(Mass::new(1.0, DVec3::ZERO).fixed());
    let bob = part.add_mass(Mass::new(1.0, DVec3::new(0.5, 0.0, 0.0)));
    // k = 100 N/m, m = 1 kg: omega = 10 rad/s; c = 2 sqrt(k m) = 20 N s/m is critical.
    let mut spring = Spring::hooke(anchor, bob, 100.0, 0.5);
    spring.damping = 20.0;
    part.add_spring(spring);
    part.actuators.push(Actuator::commanded(0, 0.2));
    let params = Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        ..Params::default()
    };
    let mut model = Model::new(params);
    model.add("spring", part);
    model
}

/// Steps `w` 2 s with each command and returns the bob's x after each, m.
fn settle<S: Simulation>(w: &mut S, commands: &[f64]) -> Vec<f64> {
    commands
        .iter()
        .map(|&c| {
            w.set_commands(&[c]).unwrap();
            w.step_for(2.0).unwrap();
            w.positions().unwrap()[1].x
        })
        .collect()
}

/// Rest lengths the bob settles at: `L_base (1 + c)` inside the amplitude, the clamp beyond.
const SETTLE: [(f64, f64); 4] = [(0.1, 0.55), (0.5, 0.6), (-0.05, 0.475), (-3.0, 0.4)];

#[test]
fn a_damped_commanded_spring_settles_at_its_commanded_length() {
    let mut cpu = CpuWorld::new(&damped_spring()).unwrap();
    let x = settle(&mut cpu, &SETTLE.map(|s| s.0));
    for ((c, want), got) in SETTLE.iter().zip(x) {
        // Critically damped: the offset (at most 0.2 m) decays as (1 + omega t) e^(-omega t),
        // 21 e^-20 = 4.3e-8 after 2 s, so below 1e-8 m; semi-implicit Euler's fixed point is
        // exactly where the spring force vanishes.
        assert!(
            (got - want).abs() < 1e-8,
            "command {c}: settled at {got} m, expected {want} m"
        );
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_damped_commanded_spring_settles_at_its_commanded_length_on_the_gpu() {
    let mut gpu = common::world(&damped_spring());
    let quantum = gpu.fixed_point().quantum;
    let x = settle(&mut gpu, &SETTLE.map(|s| s.0));
    for ((c, want), got) in SETTLE.iter().zip(x) {
        // The bob stops where the fixed-point force rounds to zero, |k (x - L0)| <= q / 2
        // (q the quantum, N), or earlier where the f32 position stops moving: overdamped, it
        // creeps at v = k (x - L0) / c, and a step v dt below half an ulp of x (<= U x) is
        // lost, so it may stall at |x - L0| <= c U x / (k dt) (7e-5 m here). L0 = base (1 + c)
        // takes two f32 roundings and the length one more, each U x; the decay is below 1e-8 m
        // as on the CPU.
        let (k, c_damp, dt) = (100.0, 20.0, 1e-4);
        let stall = c_damp * U * want / (k * dt);
        let tol = quantum / (2.0 * k) + stall + 3.0 * U * want + 1e-8;
        assert!(
            (got - want).abs() <= tol,
            "command {c}: settled at {got} m, expected {want} m (tolerance {tol:e} m)"
        );
    }
}

/// The muscle's work is injected energy: across the step that applies a new command, the
/// injected total grows by the change of the spring's shadow elastic energy
/// `k (x - L0)^2 / 2 - dt/2 k (x - L0) v` at the step's starting position `x` and velocity `v`,
/// and over the next 999 steps `total + dissipated - injected` stays put. `f32` says whether the
/// world rounds to f32 (the GPU) or f64.
///
/// Tolerances, with `E` the largest mechanical energy seen so far (J): the bob oscillates at
/// omega = 10 rad/s; semi-implicit Euler keeps a modified energy `E - dt k (x - L0) v / 2` (with
/// `k |(x - L0) v| <= omega E`) constant to O(dt^2), and the booked work is that energy's jump at
/// each command switch, so the balance moves by at most `omega dt E = 1e-3 E`. In f32 the booked
/// work has the lengths it is computed from rounded (`x` once, `L0 = base (1 + c)` twice: `3 U
/// 0.6 m`), each changing a term `k |x - L0|^2 / 2` by `k |x - L0| 3 U 0.6 m` with `|x - L0| <=
/// sqrt(2 E / k) + 0.2 m` (the stretch, plus the largest change of `L0`), two terms, and each
/// shadow term `dt/2 k |x - L0| |v|` (`|v| <= sqrt(2 E / m)`) by `dt/2 k |v| (3 U 0.6 m + 4 U
/// |x - L0|)` (the lengths, then four roundings of the product); and each step's f32 sum of
/// dissipated and injected rounds at `U E` (6000 steps).
fn muscle_work_is_booked<S: Simulation>(w: &mut S, f32: bool) {
    let (k, base, dt) = (100.0, 0.5, w.dt());
    let b0 = w.energy().unwrap().balance();
    let mut e_max = w.energy().unwrap().total();
    let mut injected_abs = 0.0f64;
    for (tick, c) in [0.1, -0.15, 0.2, 0.05, -0.2, 0.0].into_iter().enumerate() {
        let (x, v) = (w.positions().unwrap()[1].x, w.velocities().unwrap()[1].x);
        let before = w.energy().unwrap().injected;
        let old_rest = w.rest_lengths().unwrap()[0];
        w.set_commands(&[c]).unwrap();
        w.step(1).unwrap();
        let step_work = w.energy().unwrap().injected - before;
        let new_rest = base * (1.0 + c);
        let shadow = |rest: f64| 0.5 * k * (x - rest).powi(2) - 0.5 * dt * k * (x - rest) * v;
        let want = shadow(new_rest) - shadow(old_rest);
        e_max = e_max.max(w.energy().unwrap().total());
        let exact = if f32 {
            let stretch = (2.0 * e_max / k).sqrt() + 0.2;
            let v_max = (2.0 * e_max / 1.0).sqrt(); // 1 kg bob
            let shadow_rounding = 0.5 * dt * k * v_max * (3.0 * U * 0.6 + 4.0 * U * stretch);
            2.0 * (k * stretch * 3.0 * U * 0.6 + shadow_rounding) + 4.0 * U * e_max
        } else {
            // f64 rounding of terms of at most E: far below 1e-12 J for E < 100 J.
            1e-12
        };
        assert!(
            (step_work - want).abs() <= exact,
            "tick {tick}: injected {step_work} J across the command step, expected {want} J"
        );
        injected_abs += want.abs();
        w.step(999).unwrap();
        let e = w.energy().unwrap();
        e_max = e_max.max(e.total());
        let steps = w.steps() as f64;
        let drift = 10.0 * dt * e_max + if f32 { steps * U * e_max } else { 0.0 };
        assert!(
            (e.balance() - b0).abs() <= drift,
            "tick {tick}: balance drifted by {} J (allowed {drift:e} J)",
            e.balance() - b0
        );
        // The check can fail: the muscle's work so far is far above the allowed drift.
        assert!(injected_abs > 10.0 * drift, "muscle work {injected_abs} J");
    }
}

/// An undamped bob (the spring of `damped_spring` without its damping).
fn undamped_spring() -> Model {
    let mut model = damped_spring();
    model.springs[0].damping = 0.0;
    model
}

#[test]
fn commanded_work_is_booked_as_injected_energy() {
    muscle_work_is_booked(&mut CpuWorld::new(&undamped_spring()).unwrap(), false);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn commanded_work_is_booked_as_injected_energy_on_the_gpu() {
    muscle_work_is_booked(&mut common::world(&undamped_spring()), true);
}

fn check_errors<S: Simulation>(w: &mut S, plain: &mut impl Simulation) {
    let n = w.commanded_count();
    match w.set_commands(&vec![0.0; n + 1]) {
        Err(Error::LengthMismatch { expected, got, .. }) => {
            assert_eq!((expected, got), (n, n + 1));
        }
        other => panic!("expected LengthMismatch, got {other:?}"),
    }
    let mut bad = vec![0.0; n];
    bad[2] = f64::NAN;
    let err = w.set_commands(&bad).unwrap_err();
    assert!(
        matches!(err, Error::InvalidCommand { command: 2, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("command 2 = NaN"), "{err}");
    bad[2] = f64::INFINITY;
    assert!(matches!(
        w.set_commands(&bad),
        Err(Error::InvalidCommand { command: 2, .. })
    ));
    // A sine actuator cannot become commanded (nor back): the commands are laid out at build.
    let first = w.actuators()[0];
    let turned = Actuator {
        commanded: !first.commanded,
        ..first
    };
    assert!(matches!(
        w.set_actuator(0, turned),
        Err(Error::InvalidActuator { actuator: 0, .. })
    ));
    // A model without commanded actuators takes exactly no commands.
    assert_eq!(plain.commanded_count(), 0);
    plain.set_commands(&[]).unwrap();
    assert!(matches!(
        plain.set_commands(&[0.1]),
        Err(Error::LengthMismatch {
            expected: 0,
            got: 1,
            ..
        })
    ));
}

#[test]
fn bad_commands_are_rejected_naming_the_command() {
    let plain = common::scenes::breathing_cube();
    check_errors(
        &mut CpuWorld::new(&robot()).unwrap(),
        &mut CpuWorld::new(&plain).unwrap(),
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn bad_commands_are_rejected_naming_the_command_on_the_gpu() {
    let plain = common::scenes::breathing_cube();
    check_errors(&mut common::world(&robot()), &mut common::world(&plain));
}

/// After `reset` the commands are 0 again: rest lengths are the base lengths, and a run
/// without commands repeats a fresh world's run exactly.
fn reset_zeroes<S: Simulation>(w: &mut S, fresh: &mut S) {
    w.set_commands(&[0.15]).unwrap();
    w.step(500).unwrap();
    w.reset();
    assert_eq!(w.rest_lengths().unwrap()[0], 0.5);
    w.step(500).unwrap();
    fresh.step(500).unwrap();
    assert_eq!(w.positions().unwrap(), fresh.positions().unwrap());
}

#[test]
fn reset_zeroes_the_commands() {
    let model = damped_spring();
    reset_zeroes(
        &mut CpuWorld::new(&model).unwrap(),
        &mut CpuWorld::new(&model).unwrap(),
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn reset_zeroes_the_commands_on_the_gpu() {
    let model = damped_spring();
    reset_zeroes(&mut common::world(&model), &mut common::world(&model));
}

#[test]
fn commanded_round_trips_through_json_and_defaults_to_false() {
    let a = Actuator::commanded(3, 0.25);
    let text = serde_json::to_string(&a).unwrap();
    assert!(text.contains("\"commanded\":true"), "{text}");
    assert_eq!(serde_json::from_str::<Actuator>(&text).unwrap(), a);
    let old = r#"{"spring": 1, "amplitude": 0.1, "omega": 2.0}"#;
    assert!(!serde_json::from_str::<Actuator>(old).unwrap().commanded);
    let m = Muscle::commanded(0.2);
    let back: Muscle = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
    assert_eq!(back, m);
    // Validation: a commanded actuator still needs |amplitude| < 1.
    let mut model = damped_spring();
    model.actuators[0].amplitude = 1.0;
    assert!(matches!(
        model.validate(),
        Err(Error::InvalidActuator { actuator: 0, .. })
    ));
}

/// Regression: the CPU booked the muscle work of a spring named by two actuators twice (once
/// per actuator), though only the last one drives it.
#[test]
fn two_actuators_on_one_spring_book_its_work_once() {
    let once = undamped_spring();
    let mut twice = once.clone();
    twice.actuators.insert(0, Actuator::commanded(0, 0.2));
    let run = |model: &Model| {
        let mut w = CpuWorld::new(model).unwrap();
        let n = w.commanded_count();
        w.set_commands(&vec![0.1; n]).unwrap();
        w.step(1000).unwrap();
        w.energy().unwrap()
    };
    let (a, b) = (run(&once), run(&twice));
    assert!(a.injected > 0.1, "{a:?}");
    assert_eq!(a.injected, b.injected);
    assert_eq!(a.balance(), b.balance());
}
