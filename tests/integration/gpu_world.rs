//! GPU World behaviour beyond trajectory parity: single-step forces against the CPU within the
//! fixed-point and f32 bounds, bit-for-bit determinism (with contention, both atomic widths, 1D
//! and 2D dispatch layouts, after reset), setters compared with the CPU, body reductions, and the
//! errors (fixed-point overflow, non-finite state, bad input).

use crate::common;

use common::parity::{compare_with_edits, Target, U};
use common::scenes;
use hooke::{
    Actuator, AtomicWidth, CpuWorld, DVec3, DragSpring, Error, FixedPointScale, Mass, Model,
    Params, Part, SpringPass, World, WorldOptions, WorldStats,
};

fn opts(atomics: AtomicWidth) -> WorldOptions {
    WorldOptions {
        atomics,
        ..WorldOptions::default()
    }
}

/// A lattice whose masses are jittered away from the positions that set the rest lengths, with
/// random velocities, so every spring carries elastic and damping force at step 0.
fn strained_lattice(n: usize) -> Model {
    let mut model = scenes::lattice(n, 0.05, hooke::Friction::NONE);
    let mut seed = 0x9e3779b97f4a7c15u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    for m in &mut model.masses {
        m.position += DVec3::new(rnd(), rnd(), rnd()) * 2e-3;
        m.velocity = DVec3::new(rnd(), rnd(), rnd());
    }
    model
}

/// A hub joined to `spokes` masses on a sphere around it (plus a ring between neighbours): the
/// hub sees `spokes` concurrent atomic adds per step.
fn hub(spokes: u32) -> Model {
    let mut model = Model::new(Params::default());
    let mut part = Part::new();
    let hub = part.add_mass(Mass::new(1.0, DVec3::new(0.0, 0.0, 0.3)));
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    for i in 0..spokes {
        let z = 1.0 - 2.0 * (f64::from(i) + 0.5) / f64::from(spokes);
        let r = (1.0 - z * z).sqrt();
        let phi = golden * f64::from(i);
        let p = DVec3::new(r * phi.cos(), r * phi.sin(), z) * 0.2 + DVec3::new(0.0, 0.0, 0.3);
        let m = part.add_mass(Mass::new(0.01, p).with_velocity(DVec3::new(z, -r, 0.5) * 0.3));
        part.connect(hub, m, 500.0, 0.2);
        if i > 0 {
            part.connect(m - 1, m, 200.0, 0.1);
        }
    }
    model.add("hub", part);
    model
}

/// Bound on the difference between the GPU's fixed-point spring force and the CPU's f64 force on
/// each mass (N), at the CPU state: per spring at the mass, half a quantum (the rounding of its
/// encoding) plus the f32 error of the spring force itself. The f32 length of a spring is off by
/// `dL <= 2u(|p_a| + |p_b|) + 4u L + u L0` (rounding of both end positions to f32, of the
/// difference, the length and the rest length), which changes the tension by `k_eff dL` and turns
/// its direction by `dL / L` (a force error `|f| dL / L`); the damping term is off by
/// `c (|v_a - v_b| dL / L + 2u (|v_a| + |v_b|))`; the final products round by `4u |f|`.
fn force_bounds(model: &Model, cpu: &CpuWorld, quantum: f64) -> Vec<f64> {
    let (p, v) = (cpu.position_slice(), cpu.velocity_slice());
    let mut bound = vec![0.0; p.len()];
    for (s, &l0) in model.springs.iter().zip(&cpu.rest_lengths().unwrap()) {
        let (a, b) = (s.a as usize, s.b as usize);
        let len = p[a].distance(p[b]);
        let (k, l0) = s.effective(l0);
        let dl = 2.0 * U * (p[a].length() + p[b].length()) + 4.0 * U * len + U * l0;
        let f = (k * (len - l0)).abs() + s.damping * (v[a] - v[b]).length();
        let e = 0.5 * quantum
            + k * dl
            + f * (dl / len + 4.0 * U)
            + s.damping
                * ((v[a] - v[b]).length() * dl / len + 2.0 * U * (v[a].length() + v[b].length()));
        bound[a] += e;
        bound[b] += e;
    }
    bound
}

fn check_forces(name: &str, model: &Model) {
    for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
        let mut gpu = common::world_with(model, opts(atomics));
        let mut cpu = CpuWorld::new(model).unwrap();
        let fp = gpu.fixed_point();
        let g = gpu.spring_forces().unwrap();
        let bounds = force_bounds(model, &cpu, fp.quantum);
        let c = cpu.spring_forces().unwrap();
        let mut worst = 0.0f64;
        for (i, ((g, c), b)) in g.iter().zip(&c).zip(&bounds).enumerate() {
            let err = (*g - *c).abs().max_element();
            worst = worst.max(err / b);
            assert!(
                err <= *b,
                "{name} ({}-bit): mass {i}: GPU force {g} vs CPU {c}: error {err:e} N > {b:e} N",
                fp.bits
            );
        }
        eprintln!(
            "{name} ({}-bit): worst force error / bound {worst:.3}",
            fp.bits
        );
        // Measuring forces must not disturb the simulation: a World that measured and one that
        // did not step to the same bits.
        let mut fresh = common::world_with(model, opts(atomics));
        gpu.step(20).unwrap();
        fresh.step(20).unwrap();
        assert_eq!(gpu.positions().unwrap(), fresh.positions().unwrap());
        assert_eq!(gpu.energy().unwrap(), fresh.energy().unwrap());
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn single_step_forces_match_cpu() {
    check_forces("strained lattice", &strained_lattice(5));
    check_forces("breathing cube", &scenes::breathing_cube());
    check_forces("all laws", &scenes::all_laws(false));
    check_forces("hub", &hub(2000));
}

/// Positions, velocities and energy of a run.
type Run = (Vec<DVec3>, Vec<DVec3>, hooke::Energy);

/// Two runs ended in the same bits: positions, velocities and energy.
fn assert_same_bits(one: &Run, other: &Run, what: &str) {
    assert!(one.0 == other.0, "positions differ ({what})");
    assert!(one.1 == other.1, "velocities differ ({what})");
    assert_eq!(one.2, other.2, "energy differs ({what})");
}

fn run_bits(model: &Model, options: WorldOptions, steps: u64) -> Run {
    let mut w = common::world_with(model, options);
    w.step(steps).unwrap();
    (
        w.positions().unwrap(),
        w.velocities().unwrap(),
        w.energy().unwrap(),
    )
}

/// Energy booking (`WorldOptions::track_energy`) only books: off, a World's trajectory keeps
/// every bit (muscles, friction, both spring passes), and the dissipated and injected totals
/// read 0. Populations rely on it (they evaluate with booking off).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn energy_booking_off_keeps_the_trajectorys_bits() {
    let worm = hooke::creatures::Inchworm::default().build().unwrap();
    for model in [scenes::breathing_cube(), worm.herd(4, 1.0).unwrap()] {
        for spring_pass in [hooke::SpringPass::Links, hooke::SpringPass::Stencil] {
            let on = WorldOptions {
                spring_pass,
                ..WorldOptions::default()
            };
            let off = WorldOptions {
                track_energy: false,
                ..on
            };
            let (a, b) = (run_bits(&model, on, 700), run_bits(&model, off, 700));
            assert!(a.0 == b.0, "positions differ ({spring_pass:?})");
            assert!(a.1 == b.1, "velocities differ ({spring_pass:?})");
            assert!(a.2.injected > 0.0);
            assert_eq!((b.2.dissipated, b.2.injected), (0.0, 0.0));
        }
    }
}

/// Spring tables larger than one storage binding are bound in chunks, each its own dispatch.
/// Capping the chunk size splits a small lattice into several chunks: the integer force sums do
/// not care how the springs are split, so every bit must match the unchunked run.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn chunked_spring_binding_gives_the_same_bits() {
    let model = scenes::lattice(14, 0.005, hooke::Friction::coulomb(0.6, 0.4));
    for (atomics, spring_pass) in [
        (AtomicWidth::Auto, SpringPass::Links),
        (AtomicWidth::Bits32, SpringPass::Links),
        (AtomicWidth::Auto, SpringPass::Stencil),
    ] {
        let whole_options = WorldOptions {
            spring_pass,
            ..opts(atomics)
        };
        let chunked_options = WorldOptions {
            max_springs_per_binding: Some(1),
            ..whole_options
        };
        let chunked = common::world_with(&model, chunked_options);
        let whole = common::world_with(&model, whole_options);
        assert_eq!(
            chunked.stats().stencil_offsets > 0,
            spring_pass == SpringPass::Stencil
        );
        assert!(
            chunked.stats().dispatches_per_step > whole.stats().dispatches_per_step + 1,
            "the cap did not split the spring table: {:?} vs {:?}",
            chunked.stats(),
            whole.stats()
        );
        drop((chunked, whole));
        assert_same_bits(
            &run_bits(&model, whole_options, 200),
            &run_bits(&model, chunked_options, 200),
            &format!("{atomics:?}, {spring_pass:?}"),
        );
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn every_scene_is_bit_identical_run_to_run() {
    let scenes: Vec<(&str, Model)> = vec![
        ("bouncing cube", scenes::bouncing_cube()),
        (
            "lattice",
            scenes::lattice(4, 0.005, hooke::Friction::coulomb(0.6, 0.4)),
        ),
        ("breathing cube", scenes::breathing_cube()),
        ("pendulum", scenes::pendulum()),
        ("cloth", scenes::cloth(10, 8)),
        ("rope", scenes::rope(30)),
        ("image body", scenes::image_body()),
        ("inchworm", scenes::inchworm()),
        ("all laws", scenes::all_laws(false)),
        ("all laws explicit", scenes::all_laws(true)),
    ];
    for (name, model) in &scenes {
        for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
            let a = run_bits(model, opts(atomics), 1500);
            let b = run_bits(model, opts(atomics), 1500);
            assert_eq!(a, b, "{name} ({atomics:?}) differs between two runs");
        }
    }
}

/// Obstacles are met per mass in a fixed order, with no atomics: every obstacle scene
/// (`scenes::obstacle_scenes`) ends in the same bits in two runs.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn obstacle_scenes_are_bit_identical_run_to_run() {
    for (name, model) in scenes::obstacle_scenes() {
        let a = run_bits(&model, opts(AtomicWidth::Auto), 1500);
        let b = run_bits(&model, opts(AtomicWidth::Auto), 1500);
        assert_same_bits(&a, &b, name);
    }
}

/// Bodies made of materials (`scenes::material_bodies`: a voxel body and an image body, their
/// damping from the damping ratio) end in the same f32 bits in two runs, in both atomic widths,
/// and the run moved them (the bits compared are not the initial state's).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn material_bodies_are_bit_identical_run_to_run() {
    let model = scenes::material_bodies();
    let start: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
    for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
        let a = run_bits(&model, opts(atomics), 2000);
        let b = run_bits(&model, opts(atomics), 2000);
        assert_same_bits(&a, &b, &format!("material bodies ({atomics:?})"));
        let moved =
            a.0.iter()
                .zip(&start)
                .map(|(p, q)| p.distance(*q))
                .fold(0.0, f64::max);
        assert!(moved > 1e-3, "the bodies moved only {moved} m");
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn high_contention_is_bit_identical_over_thousands_of_steps() {
    // 3000 springs on one mass, 3000 steps; each step thousands of atomics race on the hub.
    let model = hub(3000);
    for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
        let a = run_bits(&model, opts(atomics), 3000);
        let b = run_bits(&model, opts(atomics), 3000);
        assert!(a.0.iter().all(|p| p.is_finite()));
        assert_eq!(a, b, "hub ({atomics:?}) differs between two runs");
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn two_dimensional_dispatch_gives_the_same_bits() {
    // 300 cubes: 2400 masses and 8400 springs, which take more than 6 workgroups per pass on any
    // adapter (`World::stats` tells the work per invocation). Capping the dispatch at 6 workgroups
    // per dimension lays both passes out in 2D, with spare workgroups in the last row; integer
    // sums do not care, so the bits must not change. They form 30 bodies of 10 cubes (the body
    // pass is 6 x 5).
    let mut model = Model::new(Params::default());
    for body in 0..30u32 {
        let mut group = Part::new();
        for j in 0..10u32 {
            let i = body * 10 + j;
            let mut part = scenes::cube_part(0.05, 0.05, 5000.0, 0.01 * f64::from(i % 5));
            part.translate(DVec3::new(f64::from(i) * 0.1, 0.0, 0.0));
            part.masses[i as usize % 8].velocity = DVec3::new(0.3, -0.2, 0.1);
            let base = group.masses.len() as u32;
            group.masses.extend(part.masses);
            group.springs.extend(part.springs.into_iter().map(|mut s| {
                s.a += base;
                s.b += base;
                s
            }));
        }
        model.add(format!("herd {body}"), group);
    }
    for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
        let one_d = run_bits(&model, opts(atomics), 300);
        let bodies = |o: WorldOptions| {
            let mut w = common::world_with(&model, o);
            w.step(300).unwrap();
            w.bodies().unwrap()
        };
        assert_eq!(
            bodies(opts(atomics)),
            bodies(WorldOptions {
                atomics,
                max_workgroups_per_dimension: Some(6),
                ..WorldOptions::default()
            })
        );
        let two_d = run_bits(
            &model,
            WorldOptions {
                atomics,
                max_workgroups_per_dimension: Some(6),
                ..WorldOptions::default()
            },
            300,
        );
        assert_eq!(one_d, two_d, "{atomics:?}");
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn reset_and_submission_size_do_not_change_the_bits() {
    let model = scenes::breathing_cube();
    let fresh = run_bits(&model, WorldOptions::default(), 777);
    let mut w = common::world_with(
        &model,
        WorldOptions {
            steps_per_submission: 7,
            ..WorldOptions::default()
        },
    );
    w.step(300).unwrap();
    w.set_external_force(0, DVec3::X).unwrap();
    w.reset();
    assert_eq!((w.time(), w.steps()), (0.0, 0));
    for chunk in [1, 99, 677] {
        w.step(chunk).unwrap();
    }
    assert_eq!(w.steps(), 777);
    assert_eq!(
        (
            w.positions().unwrap(),
            w.velocities().unwrap(),
            w.energy().unwrap()
        ),
        fresh
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn setters_match_the_cpu() {
    // Every setter, applied at the same steps on both backends; compared with the parity
    // tolerances (tests/integration/common/parity.rs).
    let model = scenes::breathing_cube();
    let mut gpu = common::world(&model);
    let drag = DragSpring {
        mass: 6,
        target: DVec3::new(0.2, 0.1, 0.3),
        stiffness: 50.0,
        damping: 0.5,
    };
    let actuator = Actuator {
        spring: 3,
        amplitude: 0.2,
        omega: 9.0,
        phase: 0.25,
        duty: None,
        commanded: false,
    };
    compare_with_edits("setters", &model, &mut gpu, 3000, 250, |done, w| {
        macro_rules! apply {
            ($w:expr) => {{
                match done {
                    250 => $w.set_external_force(2, DVec3::new(1.0, 0.0, 2.0)).unwrap(),
                    500 => $w.set_drag(Some(drag)).unwrap(),
                    750 => $w.set_rest_length(5, 0.12).unwrap(),
                    1000 => $w.set_actuator(3, actuator).unwrap(),
                    1250 => $w.set_fixed(7, true).unwrap(),
                    1500 => $w.set_drag(None).unwrap(),
                    1750 => $w.set_fixed(7, false).unwrap(),
                    2000 => $w.set_external_force(2, DVec3::ZERO).unwrap(),
                    _ => {}
                }
            }};
        }
        match w {
            Target::Cpu(c) => apply!(c),
            Target::Gpu(g) => apply!(g),
        }
    });
    // A plain (unactuated) spring's rest length too, on a scene without actuators.
    let model = scenes::pendulum();
    let mut gpu = common::world(&model);
    compare_with_edits("set_rest_length", &model, &mut gpu, 1500, 250, |done, w| {
        if done == 500 {
            match w {
                Target::Cpu(c) => c.set_rest_length(10, 0.13).unwrap(),
                Target::Gpu(g) => g.set_rest_length(10, 0.13).unwrap(),
            }
        }
    });
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn bodies_reduce_on_the_gpu() {
    // 600 cubes, each its own body, at different heights and velocities.
    let mut model = Model::new(Params::default());
    for i in 0..600u32 {
        let mut part = scenes::cube_part(0.05, 0.02 + 0.0001 * f64::from(i), 5000.0, 0.0);
        part.translate(DVec3::new(
            f64::from(i % 30) * 0.1,
            f64::from(i / 30) * 0.1,
            0.02 + 0.001 * f64::from(i % 17),
        ));
        part.set_velocity(DVec3::new(0.1 * f64::from(i % 7), -0.2, 0.3));
        model.add(format!("cube {i}"), part);
    }
    let mut gpu = common::world(&model);
    gpu.step(400).unwrap();
    let states = gpu.bodies().unwrap();
    let p = gpu.positions().unwrap();
    let v = gpu.velocities().unwrap();
    assert_eq!(states.len(), 600);
    for (b, (body, state)) in model.bodies.iter().zip(&states).enumerate() {
        // The same sums in f64 from the GPU's own state: only the f32 reduction differs, by at
        // most (masses + log2 masses) roundings of the largest term.
        let (mut mp, mut mv, mut m) = (DVec3::ZERO, DVec3::ZERO, 0.0);
        let mut big = (0.0f64, 0.0f64);
        for i in body.masses.clone() {
            let mi = model.masses[i].mass;
            mp += mi * p[i];
            mv += mi * v[i];
            m += mi;
            big = (big.0.max(mi * p[i].length()), big.1.max(mi * v[i].length()));
        }
        let n = body.masses.len() as f64;
        let rounds = 2.0 * (n + n.log2() + 2.0) * U;
        let tol_p = rounds * n * big.0 / m + rounds * (mp / m).length();
        let tol_v = rounds * n * big.1 / m + rounds * (mv / m).length();
        assert!(
            (state.centre_of_mass - mp / m).length() <= tol_p,
            "body {b} centre of mass"
        );
        assert!(
            (state.mean_velocity - mv / m).length() <= tol_v,
            "body {b} mean velocity"
        );
        assert!((state.mass - m).abs() <= rounds * m);
        // The one-body accessor runs the same reduction (one GPU round trip per call, so only a
        // sample of bodies is asked).
        if b % 97 == 0 {
            assert_eq!(gpu.body_centre_of_mass(b).unwrap(), state.centre_of_mass);
        }
    }
    assert!(matches!(
        gpu.body_mean_velocity(600),
        Err(Error::IndexOutOfRange { what: "body", .. })
    ));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn fixed_point_overflow_is_reported_not_wrapped() {
    // 32-bit atomics with a quantum so fine that the landing cube's spring forces cannot fit.
    let model = scenes::bouncing_cube();
    let mut w = common::world_with(
        &model,
        WorldOptions {
            atomics: AtomicWidth::Bits32,
            fixed_point: FixedPointScale::Quantum(1e-9),
            ..WorldOptions::default()
        },
    );
    let fp = w.fixed_point();
    assert_eq!(fp.bits, 32);
    assert!(fp.quantum <= 1e-9 * 1.5 && fp.quantum >= 1e-9 / 1.5);
    let err = w.step(3000).unwrap_err();
    let Error::FixedPointOverflow { step, advice, .. } = &err else {
        panic!("expected FixedPointOverflow, got {err}");
    };
    assert!(advice.contains("FixedPointScale::Quantum"), "{advice}");
    // The state is the one before the overflowing step, and the World refuses to go on.
    assert_eq!(w.steps() + 1, *step);
    let p = w.positions().unwrap();
    assert!(p.iter().all(|p| p.is_finite() && p.length() < 1.0));
    assert!(matches!(w.step(1), Err(Error::FixedPointOverflow { .. })));
    w.reset();
    w.step(10).unwrap();
    eprintln!("{err}");
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn non_finite_state_is_reported_with_mass_and_step() {
    let mut model = Model::new(Params::default());
    for i in 0..600 {
        model.add_mass(Mass::new(0.1, DVec3::new(f64::from(i) * 0.01, 0.0, 1.0)));
    }
    let mut w = common::world(&model);
    w.step(10).unwrap();
    // 3e38 N on 0.1 kg: the acceleration overflows f32 on masses 417 and 523 in step 11.
    w.set_external_force(523, DVec3::new(0.0, 0.0, 3e38))
        .unwrap();
    w.set_external_force(417, DVec3::new(3e38, 0.0, 0.0))
        .unwrap();
    let err = w.step(5).unwrap_err();
    let Error::NonFinite { mass, step, time } = err else {
        panic!("expected NonFinite, got {err}");
    };
    assert_eq!((mass, step), (417, 11));
    assert!((time - 10.0 * 1e-4).abs() < 1e-12);
    assert_eq!(w.steps(), 11);
    assert!(matches!(
        w.step(1),
        Err(Error::NonFinite {
            mass: 417,
            step: 11,
            ..
        })
    ));
    w.reset();
    w.step(5).unwrap();
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn bad_input_is_rejected() {
    let model = scenes::breathing_cube();
    let mut w = common::world(&model);
    assert!(matches!(
        w.set_external_force(8, DVec3::X),
        Err(Error::IndexOutOfRange { what: "mass", .. })
    ));
    assert!(matches!(
        w.set_external_force(0, DVec3::new(f64::NAN, 0.0, 0.0)),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        w.set_rest_length(0, -1.0),
        Err(Error::InvalidSpringParameter { .. })
    ));
    assert!(matches!(
        w.set_actuator(
            0,
            Actuator {
                spring: 0,
                amplitude: 1.5,
                omega: 1.0,
                phase: 0.0,
                duty: None,
                commanded: false,
            }
        ),
        Err(Error::InvalidActuator { .. })
    ));
    assert!(matches!(
        w.step_for(-1.0),
        Err(Error::InvalidParameter { .. })
    ));
    assert_eq!(w.step_for(0.01).unwrap(), 100);
    let mut bad = model.clone();
    bad.springs[0].b = 99;
    let (device, queue) = common::gpu();
    assert!(matches!(
        World::with_device(device.clone(), queue.clone(), &bad, WorldOptions::default()),
        Err(Error::SpringMassOutOfRange { .. })
    ));
    assert!(matches!(
        World::with_device(
            device.clone(),
            queue.clone(),
            &model,
            WorldOptions {
                fixed_point: FixedPointScale::Quantum(0.0),
                ..WorldOptions::default()
            }
        ),
        Err(Error::InvalidParameter { .. })
    ));
    // A scene that cannot fit the dispatch limits names the limit and the size.
    let err = World::with_device(
        device.clone(),
        queue.clone(),
        &scenes::lattice(12, 0.05, hooke::Friction::NONE),
        WorldOptions {
            max_workgroups_per_dimension: Some(1),
            ..WorldOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(err, Error::DeviceLimit { asked, limit: 1, .. } if asked > 1),
        "{err}"
    );
}

/// The device groups springs by their first mass (its link table); a model whose springs come in
/// another order, or point the other way, is the same physics: a flipped spring's force is exactly
/// the negated one (`p_a - p_b` and its length are computed exactly antisymmetrically in f32) and
/// integer sums do not depend on order, so positions and velocities must match bit for bit. Energy
/// is summed in per-invocation f32 slots whose grouping follows the link table, so it agrees to
/// f32 rounding only: relative 1e-4 of the largest term over 300 steps.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn spring_order_and_direction_do_not_change_the_bits() {
    let model = strained_lattice(5);
    let mut shuffled = model.clone();
    shuffled.springs.reverse();
    for (i, sp) in shuffled.springs.iter_mut().enumerate() {
        if i % 2 == 0 {
            std::mem::swap(&mut sp.a, &mut sp.b);
        }
    }
    // A rest-length edit addresses the spring by its model index: spring i of `model` is spring
    // last - i of `shuffled`.
    let edited = 7;
    let last = model.springs.len() - 1;
    let run = |m: &Model, spring: usize, atomics: AtomicWidth| {
        let mut w = common::world_with(m, opts(atomics));
        w.step(150).unwrap();
        w.set_rest_length(spring, 0.004).unwrap();
        w.step(150).unwrap();
        (
            w.positions().unwrap(),
            w.velocities().unwrap(),
            w.energy().unwrap(),
        )
    };
    for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
        let (p0, v0, e0) = run(&model, edited, atomics);
        let (p1, v1, e1) = run(&shuffled, last - edited, atomics);
        assert!(p0 == p1, "positions differ ({atomics:?})");
        assert!(v0 == v1, "velocities differ ({atomics:?})");
        assert_energy_close(&format!("{atomics:?}"), &e0, &e1);
    }
}

/// Energies of two runs with the same bits but different groupings of the per-invocation f32
/// energy slots agree to f32 rounding: relative 1e-4 of the sum of the terms' magnitudes.
fn assert_energy_close(what: &str, e0: &hooke::Energy, e1: &hooke::Energy) {
    let scale = e0.kinetic.abs()
        + e0.elastic.abs()
        + e0.gravity.abs()
        + e0.dissipated.abs()
        + e0.injected.abs();
    for (name, a, b) in [
        ("elastic", e0.elastic, e1.elastic),
        ("dissipated", e0.dissipated, e1.dissipated),
        ("injected", e0.injected, e1.injected),
        ("kinetic", e0.kinetic, e1.kinetic),
    ] {
        assert!(
            (a - b).abs() <= 1e-4 * scale,
            "{what}: {name} energy {a} vs {b}"
        );
    }
}

/// Several materials (a per-link material index, bound chunk by chunk like the links) split into
/// chunks give the same bits as one binding.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn chunked_binding_with_several_materials_gives_the_same_bits() {
    let mut model = strained_lattice(14);
    for (i, sp) in model.springs.iter_mut().enumerate() {
        sp.stiffness *= [1.0, 0.5, 2.0][i % 3];
        sp.damping *= [1.0, 2.0, 0.5][i % 7 % 3];
    }
    let chunked_options = WorldOptions {
        max_springs_per_binding: Some(1),
        ..WorldOptions::default()
    };
    let chunked = common::world_with(&model, chunked_options);
    assert!(
        chunked.stats().dispatches_per_step > 3,
        "{:?}",
        chunked.stats()
    );
    drop(chunked);
    assert_same_bits(
        &run_bits(&model, WorldOptions::default(), 200),
        &run_bits(&model, chunked_options, 200),
        "several materials",
    );
}

/// A fixed-point overflow names the spring by its index in the model, also when the device
/// stores the springs in another order: a chain listed backwards, with one spring far stiffer and
/// stretched, overflows at that spring.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn overflow_names_the_model_spring_when_the_device_reorders_springs() {
    let model = weightless_chain(
        (0..11)
            .rev()
            .map(|i| hooke::Spring::hooke(i + 1, i, if i == 4 { 1e9 } else { 100.0 }, 0.05)),
    );
    // Model order runs from the last mass's spring down: spring 6 joins masses 5 and 4.
    assert_eq!((model.springs[6].a, model.springs[6].b), (5, 4));
    // The link variant reorders the table; the stencil variant holds the ten springs of the
    // common material in their lower masses' slots and walks the stiff one in the link table.
    for (spring_pass, held) in [(SpringPass::Links, 0), (SpringPass::Stencil, 10)] {
        let (stats, advice) = overflow_advice(&model, spring_pass);
        assert_eq!(stats.stencil_springs, held);
        assert!(advice.starts_with("Spring 6 "), "{spring_pass:?}: {advice}");
    }
}

/// Twelve masses 0.1 m apart on a line, without gravity or ground, joined by `springs`.
fn weightless_chain(springs: impl IntoIterator<Item = hooke::Spring>) -> Model {
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        contact: hooke::Contact::None,
        ..Params::default()
    });
    let mut part = Part::new();
    for i in 0..12 {
        part.add_mass(Mass::new(0.1, DVec3::new(0.1 * f64::from(i), 0.0, 1.0)));
    }
    for sp in springs {
        part.add_spring(sp);
    }
    model.add("chain", part);
    model
}

/// The stats of a World of `model` (32-bit sums, quantum 1 mN) and the advice of the
/// fixed-point overflow its first step must report.
fn overflow_advice(model: &Model, spring_pass: SpringPass) -> (WorldStats, String) {
    let mut w = common::world_with(
        model,
        WorldOptions {
            atomics: AtomicWidth::Bits32,
            fixed_point: FixedPointScale::Quantum(1e-3),
            spring_pass,
            ..WorldOptions::default()
        },
    );
    let stats = w.stats();
    match w.step(1) {
        Err(Error::FixedPointOverflow { advice, .. }) => (stats, advice),
        other => panic!("expected FixedPointOverflow, got {other:?}"),
    }
}

/// A device opened without 64-bit integer features reads records as 32-bit words and sums forces
/// in separate 32-bit atomics; the full device packs x and y of a 32-bit sum into one 64-bit
/// atomic. Both are exact integer sums of the same spring forces, so the bits must match.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn devices_without_64_bit_integers_give_the_same_bits() {
    let (device, queue) = device_without_int64();
    assert!(!device.features().contains(wgpu::Features::SHADER_INT64));
    for model in [
        strained_lattice(4),
        scenes::all_laws(false),
        scenes::inchworm(),
    ] {
        let mut plain = World::with_device(
            device.clone(),
            queue.clone(),
            &model,
            opts(AtomicWidth::Bits32),
        )
        .unwrap();
        plain.step(200).unwrap();
        let (p, v, e) = run_bits(&model, opts(AtomicWidth::Bits32), 200);
        assert!(plain.positions().unwrap() == p, "positions differ");
        assert!(plain.velocities().unwrap() == v, "velocities differ");
        assert_eq!(plain.energy().unwrap(), e, "energy differs");
    }
}

/// A lattice that the stencil covers only in part: every fifth spring reversed (`a > b`, held in
/// the lower mass's slot), some listed twice, a few long irregular ones, and one spring driven by
/// an actuator, so the stencil variant walks the link table for those beside its slots.
fn mixed_lattice() -> Model {
    let mut model = strained_lattice(6);
    let count = model.springs.len();
    for (i, sp) in model.springs.iter_mut().enumerate() {
        if i % 5 == 0 {
            std::mem::swap(&mut sp.a, &mut sp.b);
        }
    }
    for i in (0..count).step_by(17) {
        let sp = model.springs[i];
        model.springs.push(sp);
    }
    let n = model.masses.len() as u32;
    for i in 0..12u32 {
        let (a, b) = ((i * 37) % n, (i * 101 + 60) % n);
        if a != b {
            let rest = model.masses[a as usize]
                .position
                .distance(model.masses[b as usize].position);
            let template = model.springs[0];
            model.springs.push(hooke::Spring {
                a,
                b,
                rest_length: rest,
                ..template
            });
        }
    }
    model.actuators.push(Actuator {
        spring: 3,
        amplitude: 0.2,
        omega: 30.0,
        phase: 0.0,
        duty: None,
        commanded: false,
    });
    model
}

/// Runs `model` with spring-pass variant `pass`: 150 steps, a rest-length edit of `edited`, 150
/// more; returns positions, velocities, energy, the spring forces at the end, and the stats.
fn run_variant(
    model: &Model,
    pass: SpringPass,
    atomics: AtomicWidth,
    edited: usize,
) -> (
    Vec<DVec3>,
    Vec<DVec3>,
    hooke::Energy,
    Vec<DVec3>,
    WorldStats,
) {
    let mut w = common::world_with(
        model,
        WorldOptions {
            spring_pass: pass,
            atomics,
            ..WorldOptions::default()
        },
    );
    w.step(150).unwrap();
    let rest = model.springs[edited].rest_length;
    w.set_rest_length(edited, rest * 0.8).unwrap();
    w.step(150).unwrap();
    (
        w.positions().unwrap(),
        w.velocities().unwrap(),
        w.energy().unwrap(),
        w.spring_forces().unwrap(),
        w.stats(),
    )
}

/// The stencil variant of the spring pass computes each spring with the same f32 operations as
/// the link variant and sums the same fixed-point integers in another order, so positions,
/// velocities and spring forces must match bit for bit, for models the stencil covers wholly
/// (lattice, the lattice listed backwards, a lattice with sine muscles in its slots, rope, a
/// cloth with one material per offset), in part (reversed, duplicate and irregular springs beside
/// the slots; materials mixed within an offset; a worm with muscles) or not at all (a hub: the
/// variant falls back to links), for both atomic widths, with a rest-length edit of a spring in a
/// slot (of a muscle's base length in the muscled lattice). Energy is
/// summed in per-invocation f32 slots whose grouping differs between the variants, so it agrees
/// to f32 rounding only: relative 1e-4 of the largest term.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn stencil_and_link_variants_give_the_same_bits() {
    let lattice = strained_lattice(6);
    let mixed = mixed_lattice();
    // A second material on every fifth spring: each offset takes its most common one, the
    // others stay outside the stencil.
    let mut materials = strained_lattice(5);
    for sp in materials.springs.iter_mut().step_by(5) {
        sp.stiffness *= 2.0;
    }
    // Every spring listed from its higher mass, in reverse order: each sits in the lower mass's
    // slot, computed from there.
    let mut backwards = strained_lattice(5);
    backwards.springs.reverse();
    for sp in &mut backwards.springs {
        std::mem::swap(&mut sp.a, &mut sp.b);
    }
    // (name, model, edited spring, stencil springs expected: all, some or none)
    let muscled = muscled_lattice();
    let cases: [(&str, &Model, usize, &str); 9] = [
        ("lattice", &lattice, 40, "all"),
        // Spring 39 is a muscle: the edit goes to its actuator, the slot keeps its code.
        (
            "lattice with sine muscles in the slots",
            &muscled,
            39,
            "all",
        ),
        ("lattice listed backwards", &backwards, 40, "all"),
        ("rope", &scenes::rope(40), 7, "all"),
        (
            "cloth (three materials, one per offset)",
            &scenes::cloth(14, 12),
            30,
            "all",
        ),
        ("mixed lattice", &mixed, 41, "some"),
        ("lattice of two materials", &materials, 40, "some"),
        ("inchworm", &scenes::inchworm(), 0, "some"),
        ("hub", &hub(200), 5, "none"),
    ];
    for (name, model, edited, expect) in cases {
        for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
            let links = run_variant(model, SpringPass::Links, atomics, edited);
            let stencil = run_variant(model, SpringPass::Stencil, atomics, edited);
            assert_eq!(links.4.stencil_offsets, 0, "{name}");
            let held = stencil.4.stencil_springs;
            let springs = model.springs.len() as u64;
            match expect {
                "all" => assert_eq!(held, springs, "{name}: {:?}", stencil.4),
                "some" => assert!(held > 0 && held < springs, "{name}: {:?}", stencil.4),
                _ => assert_eq!(held, 0, "{name}: {:?}", stencil.4),
            }
            assert_eq!(held > 0, stencil.4.stencil_offsets > 0, "{name}");
            assert!(
                links.0 == stencil.0,
                "{name}: positions differ ({atomics:?})"
            );
            assert!(
                links.1 == stencil.1,
                "{name}: velocities differ ({atomics:?})"
            );
            assert!(
                links.3 == stencil.3,
                "{name}: spring forces differ ({atomics:?})"
            );
            assert_energy_close(&format!("{name} ({atomics:?})"), &links.2, &stencil.2);
        }
    }
}

/// `reset` restores a rest length edited in a stencil slot: after an edit, steps and a reset, the
/// World runs the same bits as a fresh one.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn reset_restores_stencil_rest_lengths() {
    let model = strained_lattice(5);
    let options = WorldOptions {
        spring_pass: SpringPass::Stencil,
        ..WorldOptions::default()
    };
    let fresh = run_bits(&model, options, 200);
    let mut w = common::world_with(&model, options);
    assert!(w.stats().stencil_offsets > 0, "{:?}", w.stats());
    w.set_rest_length(10, 0.001).unwrap();
    w.step(50).unwrap();
    w.reset();
    w.step(200).unwrap();
    let after_reset = (
        w.positions().unwrap(),
        w.velocities().unwrap(),
        w.energy().unwrap(),
    );
    assert_same_bits(&after_reset, &fresh, "after reset");
}

/// Identical creatures side by side number their masses alike, so a herd of inchworms (64 of
/// 94 springs actuated) fits one stencil: every offset repeats in every worm.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_herd_of_inchworms_fits_one_stencil() {
    let worm = hooke::creatures::Inchworm::default().build().unwrap();
    let options = WorldOptions {
        spring_pass: SpringPass::Stencil,
        ..WorldOptions::default()
    };
    let count = 12;
    let herd = worm.herd(count, 1.0).unwrap();
    let held = common::world_with(&herd, options).stats().stencil_springs;
    let alone = worm.herd(1, 1.0).unwrap();
    assert_eq!(alone.springs.len(), 94);
    let alone = common::world_with(&alone, options).stats().stencil_springs;
    assert!(alone > 0, "one worm fits a stencil");
    assert_eq!(held, count as u64 * alone);
    let springs = herd.springs.len() as u64;
    assert!(10 * held >= 9 * springs, "{held} of {springs}");
}

/// A fixed-point overflow in a stencil slot names the spring by its model index: a chain of
/// stiff springs (one material, so all in slots) at rest except spring 4 (masses 4 and 5), which
/// starts stretched; listed forwards, and backwards from the higher masses (spring 6 is then the
/// one joining masses 5 and 4).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn overflow_in_a_stencil_slot_names_the_model_spring() {
    for backwards in [false, true] {
        let mut springs: Vec<hooke::Spring> = (0..11)
            .map(|i| hooke::Spring::hooke(i, i + 1, 1e9, if i == 4 { 0.05 } else { 0.1 }))
            .collect();
        if backwards {
            springs.reverse();
            for sp in &mut springs {
                std::mem::swap(&mut sp.a, &mut sp.b);
            }
        }
        let model = weightless_chain(springs);
        let named = if backwards { 6 } else { 4 };
        assert_eq!(model.springs[named].rest_length, 0.05);
        let (stats, advice) = overflow_advice(&model, SpringPass::Stencil);
        assert_eq!(stats.stencil_springs, 11);
        assert!(
            advice.starts_with(&format!("Spring {named} ")),
            "backwards {backwards}: {advice}"
        );
    }
}

/// A strained lattice (n = 5) with a sine muscle on every third spring, of four amplitudes,
/// three frequencies, eight phases, and a duty cycle on every fifth: every muscle sits in a
/// stencil slot (one material, regular offsets).
fn muscled_lattice() -> Model {
    let mut model = strained_lattice(5);
    for (k, s) in (0..model.springs.len() as u32).step_by(3).enumerate() {
        model.actuators.push(Actuator {
            spring: s,
            amplitude: 0.1 + 0.02 * (k % 4) as f64,
            omega: 20.0 + 5.0 * (k % 3) as f64,
            phase: (k % 8) as f64 / 8.0,
            duty: (k % 5 == 0).then_some(hooke::DutyCycle {
                active: 0.1,
                rest: 0.05,
                offset: 0.01 * (k % 7) as f64,
            }),
            commanded: false,
        });
    }
    model
}

/// The edits of a muscle held in a stencil slot at step 1000: actuator 2 gets another
/// amplitude, frequency and phase, and spring 15's muscle (actuator 5) a shorter base length.
fn edit_muscles(model: &Model) -> impl Fn(u64, Target<'_>) + '_ {
    move |done, w| {
        if done != 1000 {
            return;
        }
        let changed = Actuator {
            amplitude: 0.2,
            omega: 35.0,
            phase: 0.3,
            ..model.actuators[2]
        };
        let spring = model.actuators[5].spring as usize;
        let rest = 0.9 * model.springs[spring].rest_length;
        match w {
            Target::Cpu(w) => {
                w.set_actuator(2, changed).unwrap();
                w.set_rest_length(spring, rest).unwrap();
            }
            Target::Gpu(w) => {
                w.set_actuator(2, changed).unwrap();
                w.set_rest_length(spring, rest).unwrap();
            }
        }
    }
}

/// Sine muscles in stencil slots (every muscle held, none in the link table) follow the CPU
/// reference within the parity tolerances of `tests/integration/common/parity.rs` (positions, velocities,
/// every energy term, the muscles' injected work included), through `set_actuator` and
/// `set_rest_length` of slot-held muscles halfway.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn sine_muscles_in_stencil_slots_match_the_cpu() {
    let model = muscled_lattice();
    let mut gpu = common::world_with(
        &model,
        WorldOptions {
            spring_pass: SpringPass::Stencil,
            ..WorldOptions::default()
        },
    );
    assert_eq!(
        gpu.stats().stencil_springs,
        model.springs.len() as u64,
        "{:?}",
        gpu.stats()
    );
    let edit = edit_muscles(&model);
    compare_with_edits(
        "muscled lattice (stencil)",
        &model,
        &mut gpu,
        2000,
        250,
        edit,
    );
}

/// `set_actuator` and `set_rest_length` reach a muscle held in a stencil slot: after the edits
/// both spring-pass variants still give the same bits (positions, velocities, spring forces), the
/// edits changed the run, a rerun gives the same bits, and after `reset` the World runs the bits
/// of a fresh one (the slot's actuator code restored, not the edited length).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn muscle_edits_reach_stencil_slots() {
    let model = muscled_lattice();
    let run = |spring_pass, edited: bool| {
        let options = WorldOptions {
            spring_pass,
            ..WorldOptions::default()
        };
        let mut w = common::world_with(&model, options);
        w.step(1000).unwrap();
        if edited {
            edit_muscles(&model)(1000, Target::Gpu(&mut w));
        }
        w.step(300).unwrap();
        let out = (
            w.positions().unwrap(),
            w.velocities().unwrap(),
            w.spring_forces().unwrap(),
        );
        w.reset();
        w.step(1300).unwrap();
        let after_reset = (w.positions().unwrap(), w.velocities().unwrap());
        (out, after_reset)
    };
    let (stencil, stencil_reset) = run(SpringPass::Stencil, true);
    let (links, _) = run(SpringPass::Links, true);
    let (unedited, fresh) = run(SpringPass::Stencil, false);
    assert!(
        stencil.0 == links.0,
        "positions differ between the variants"
    );
    assert!(
        stencil.1 == links.1,
        "velocities differ between the variants"
    );
    assert!(
        stencil.2 == links.2,
        "spring forces differ between the variants"
    );
    assert!(stencil.0 != unedited.0, "the edits did not change the run");
    assert!(run(SpringPass::Stencil, true).0 == stencil, "rerun differs");
    assert!(
        stencil_reset == fresh,
        "reset did not restore the muscles' slots"
    );
}

/// A device without 64-bit integer features (records read as 32-bit words), from the test
/// adapter.
fn device_without_int64() -> (wgpu::Device, wgpu::Queue) {
    pollster::block_on(async {
        let adapter = hooke::gpu::find_adapter().await.unwrap();
        let desc = wgpu::DeviceDescriptor {
            label: Some("plain"),
            required_features: wgpu::Features::empty(),
            required_limits: adapter.limits(),
            ..Default::default()
        };
        adapter.request_device(&desc).await.unwrap()
    })
}

/// Positions, velocities and elastic energy (which reads each muscle's `current` rest length)
/// after 1000 steps, `edit_muscles`, 300 steps; then the positions after `reset` and 1300 steps.
type MuscleRun = ((Vec<DVec3>, Vec<DVec3>, f64), Vec<DVec3>);

fn run_muscles(model: &Model, mut w: World) -> MuscleRun {
    w.step(1000).unwrap();
    edit_muscles(model)(1000, Target::Gpu(&mut w));
    w.step(300).unwrap();
    let out = (
        w.positions().unwrap(),
        w.velocities().unwrap(),
        w.energy().unwrap().elastic,
    );
    w.reset();
    w.step(1300).unwrap();
    (out, w.positions().unwrap())
}

/// Without energy booking, each spring-pass invocation of the stencil variant writes the rest
/// lengths of the muscles in its slots before its walk (`shaders/springs_stencil_muscles.wgsl`)
/// instead of evaluating each in the walk: the same functions, so the same bits. The muscled
/// lattice (sine muscles of several waves, duty cycles, edits of a slot-held muscle at step
/// 1000) runs to the bits of the walk that evaluates its muscles (booking on) and of the link
/// table (booking off), on the test device (64-bit words: a slot shares its word with its
/// neighbour) and on one without 64-bit integers (32-bit words; 32-bit fixed point for all);
/// the elastic energy, which reads each muscle's `current` rest length, agrees bit for bit with
/// booking on in the same variant (the link variant's table lists springs under other ends than
/// the stencil's, so its energy sum rounds in another order); the edits change the run, and
/// `reset` gives a fresh World's bits.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn muscles_set_before_the_walk_give_the_walks_bits() {
    let model = muscled_lattice();
    // 32-bit fixed point throughout: the only width a device without 64-bit integers has.
    let options = |spring_pass, track_energy| WorldOptions {
        spring_pass,
        track_energy,
        ..opts(AtomicWidth::Bits32)
    };
    let set = options(SpringPass::Stencil, false);
    let reference = run_muscles(
        &model,
        common::world_with(&model, options(SpringPass::Stencil, true)),
    );
    let (plain_device, plain_queue) = device_without_int64();
    for (name, w) in [
        ("stencil, booking off", common::world_with(&model, set)),
        (
            "links, booking off",
            common::world_with(&model, options(SpringPass::Links, false)),
        ),
        (
            "stencil, booking off, 32-bit words",
            World::with_device(plain_device.clone(), plain_queue.clone(), &model, set).unwrap(),
        ),
    ] {
        let run = run_muscles(&model, w);
        assert!(run.0 .0 == reference.0 .0, "{name}: positions differ");
        assert!(run.0 .1 == reference.0 .1, "{name}: velocities differ");
        let elastic = if name.starts_with("links") {
            let booking = common::world_with(&model, options(SpringPass::Links, true));
            run_muscles(&model, booking).0 .2
        } else {
            reference.0 .2
        };
        assert_eq!(run.0 .2, elastic, "{name}: elastic energy differs");
        assert!(run.1 == reference.1, "{name}: positions after reset differ");
    }
    let mut fresh = common::world_with(&model, set);
    fresh.step(1300).unwrap();
    let fresh = fresh.positions().unwrap();
    assert!(fresh == reference.1, "reset is not a fresh World");
    assert!(fresh != reference.0 .0, "the edits did not change the run");
}
