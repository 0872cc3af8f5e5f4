//! A time step far above the stable limit is an error on both backends, before the state leaves
//! any physical range, and both report the same step and mass.

use hooke::{Builder, Cloth, Contact, CpuWorld, DVec3, Error, Lattice, Model, Params, Placement};

/// The default cloth (20 x 20, 5 g masses) lying flat 0.5 m above the default ground, at `dt`.
fn dropped_cloth(dt: f64) -> Model {
    let mut model = Model::new(Params {
        dt,
        ..Params::default()
    });
    let cloth = Cloth::default()
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.5)))
        .unwrap();
    model.add("cloth", cloth);
    model
}

#[test]
fn cloth_far_above_the_stable_dt_is_an_error_not_ok() {
    // Regression: this cloth at dt = 0.01 s "ran" 2 s and ended at z = 6018 m with 12.8 MJ from
    // 9.8 J, and step returned Ok.
    let model = dropped_cloth(0.01);
    let stable = model.stable_dt();
    let mut world = CpuWorld::new(&model).unwrap();
    let err = world.step_for(2.0).unwrap_err();
    let Error::BlowUp {
        step,
        dt,
        stable_dt,
        ref advice,
        ..
    } = err
    else {
        panic!("expected a blow-up, got {err}");
    };
    assert_eq!(dt, 0.01);
    assert_eq!(stable_dt, stable.dt);
    assert!(
        advice.contains(&format!("reduce dt below {:.2e} s", stable.dt)),
        "{advice}"
    );
    let message = err.to_string();
    assert!(
        message.contains("limited by mass") && message.contains("ground contact"),
        "{message}"
    );
    // It falls 0.5 m in 0.32 s (32 steps) and blows up at the first contact step: nothing has
    // yet flown off, and the world keeps that state and refuses to go on.
    assert!(step <= 40, "step {step}");
    let highest = world
        .position_slice()
        .iter()
        .map(|p| p.z)
        .fold(f64::MIN, f64::max);
    assert!(highest < 100.0, "z = {highest} m");
    assert!(world.position_slice().iter().all(|p| p.is_finite()));
    assert!(matches!(world.step(1), Err(Error::BlowUp { .. })));
    world.reset();
    assert_eq!(world.time(), 0.0);
}

#[test]
fn stable_runs_do_not_trip_the_blow_up_bound() {
    // The same cloth at its estimate runs 2 s: 20 000 steps of bouncing on the undamped
    // ground (Lipson's defaults), its energy held by the integrator.
    let model = dropped_cloth(1.0);
    let dt = model.stable_dt().dt;
    let mut model = model;
    model.params.dt = dt;
    let mut world = CpuWorld::new(&model).unwrap();
    world.step_for(2.0).unwrap();
}

/// The benchmark cube (n = 2) spinning in space at `ratio` times its estimate.
fn spinning_cube(ratio: f64) -> Model {
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        ..Params::default()
    });
    let mut part = Lattice::benchmark(2).build().unwrap();
    for (i, m) in part.masses.iter_mut().enumerate() {
        // A rigid spin about z plus a small squeeze of mass 0, so every mode is excited.
        m.velocity = DVec3::new(-m.position.y, m.position.x, 0.0) * 3.0;
        if i == 0 {
            m.velocity += DVec3::splat(0.01);
        }
    }
    model.add("cube", part);
    model.params.dt = ratio * model.stable_dt().dt;
    model
}

/// `(mass, step)` of a blow-up, or a panic naming what happened instead.
fn blow_up(result: hooke::Result<()>) -> (usize, u64) {
    match result {
        Err(Error::BlowUp { mass, step, .. }) => (mass, step),
        other => panic!("expected a blow-up, got {other:?}"),
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn both_backends_report_the_same_blow_up_at_the_same_step() {
    // A spring blow-up (3x the estimate, no ground) and a cloth far above its limit (4 x 4,
    // dt = 0.01 s, 5x its springs' limit), both excited well above rounding (a cloth lying
    // exactly at rest is excited only by the f32 rounding of its rest lengths on the GPU,
    // which then blows up within a few steps while the f64 CPU, exactly at equilibrium, waits
    // for the ground). An unstable mode grows by |lambda| > 1.5 per step here, so the f32 and
    // f64 runs, which agree to ~1e-6 relative, pass the bound in the same step unless it falls
    // within 1e-6 of a step boundary.
    let mut cloth = Model::new(Params {
        dt: 0.01,
        ..Params::default()
    });
    let small = Cloth {
        nx: 4,
        ny: 4,
        ..Cloth::default()
    };
    let mut part = small
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.5)))
        .unwrap();
    part.masses[5].velocity = DVec3::new(0.01, -0.02, 0.03);
    cloth.add("cloth", part);
    for (name, model) in [
        ("spinning cube", spinning_cube(3.0)),
        ("dropped cloth", cloth),
    ] {
        let mut cpu = CpuWorld::new(&model).unwrap();
        let mut gpu = super::common::world(&model);
        let on_cpu = blow_up(cpu.step(1000));
        let result = gpu.step(1000);
        if let Err(e) = &result {
            println!("{name}: {e}");
        }
        let on_gpu = blow_up(result);
        assert_eq!(
            on_cpu, on_gpu,
            "{name}: (mass, step) on the CPU and the GPU"
        );
        assert_eq!(
            gpu.steps(),
            on_gpu.1,
            "{name}: the GPU World stops at the failing step"
        );
        assert!(
            gpu.positions().unwrap().iter().all(|p| p.is_finite()),
            "{name}"
        );
        assert!(matches!(gpu.step(1), Err(Error::BlowUp { .. })), "{name}");
    }
}
