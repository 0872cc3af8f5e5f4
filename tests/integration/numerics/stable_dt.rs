//! `Model::stable_dt`: exact on one spring, below the true limit (and within a stated factor of
//! it) on a lattice and a cloth, and the warning a world built above it logs.

use std::sync::Mutex;

use hooke::{
    Builder, Cloth, Contact, CpuWorld, DVec3, Error, Lattice, Mass, Model, Params, Part, Spring,
    StableDtLimit,
};

/// One free mass `m` (kg) on a spring `k` (N/m) to a fixed mass, stretched by `x0` (m) along x,
/// without gravity or ground, at time step `dt` (s).
fn one_spring(m: f64, k: f64, x0: f64, dt: f64) -> Model {
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        dt,
        ..Params::default()
    });
    let mut part = Part::new();
    part.add_mass(Mass::new(1.0, DVec3::ZERO).fixed());
    part.add_mass(Mass::new(m, DVec3::new(1.0 + x0, 0.0, 0.0)));
    part.add_spring(Spring::hooke(0, 1, k, 1.0));
    model.add("oscillator", part);
    model
}

#[test]
fn one_spring_estimate_is_exactly_two_over_omega() {
    let (m, k) = (0.1, 1000.0);
    let stable = one_spring(m, k, 0.01, 1e-4).stable_dt();
    let exact = 2.0 * (m / k).sqrt();
    // One mass on one spring to a fixed point: the Gershgorin row is k / m itself, so the only
    // error is rounding in a handful of operations.
    assert!(
        ((stable.dt - exact) / exact).abs() < 1e-14,
        "{} vs 2/omega = {exact}",
        stable.dt
    );
    assert_eq!(stable.mass, Some(1));
    assert_eq!(stable.limit, StableDtLimit::Springs);
    assert_eq!(stable.spring, Some(0));
    let shown = stable.to_string();
    assert!(
        shown.starts_with("2.0e-2 s (limited by mass 1: springs 1.0e3 N/m on 1.00e-1 kg"),
        "{shown}"
    );
}

/// Largest |x - L0| (m) over `steps` steps of the one-spring model at `fraction` of the limit,
/// and how the run ended.
fn amplitude(fraction: f64, x0: f64, steps: u64) -> (f64, hooke::Result<()>) {
    let (m, k) = (0.1, 1000.0);
    let dt = fraction * one_spring(m, k, x0, 1e-4).stable_dt().dt;
    let mut world = CpuWorld::new(&one_spring(m, k, x0, dt)).unwrap();
    let mut largest: f64 = x0;
    for _ in 0..steps {
        if let Err(e) = world.step(1) {
            return (largest, Err(e));
        }
        largest = largest.max((world.position_slice()[1].x - 1.0).abs());
    }
    (largest, Ok(()))
}

#[test]
fn one_spring_at_099_of_the_limit_stays_bounded_and_at_101_grows() {
    let x0 = 0.01;
    // Semi-implicit Euler conserves H = v^2 + w^2 x^2 - h w^2 x v on x'' = -w^2 x (check: one
    // step maps H to itself exactly). Its minimum over v at fixed x is w^2 x^2 (1 - (h w / 2)^2),
    // so from (x0, 0): |x| <= x0 / sqrt(1 - (h w / 2)^2), 7.09 x0 at h w / 2 = 0.99. The phase
    // advances by acos(1 - (h w)^2 / 2) per step, not a rational multiple of pi, so the run comes
    // close to the bound.
    let bound = x0 / (1.0 - 0.99f64 * 0.99).sqrt();
    let (stable, end) = amplitude(0.99, x0, 20_000);
    end.unwrap();
    assert!(stable <= bound * (1.0 + 1e-9), "{stable} > {bound}");
    assert!(stable > 0.95 * bound, "{stable} never came near {bound}");
    // Above the limit the step matrix has an eigenvalue below -1 (-1.33 at 1.01): the amplitude
    // passes the bound within a few steps and the blow-up check stops the run.
    let (grown, end) = amplitude(1.01, x0, 200);
    assert!(grown > bound, "{grown} <= {bound}");
    assert!(matches!(end, Err(Error::BlowUp { mass: 1, .. })), "{end:?}");
}

/// Whether `model` at time step `dt` (s) runs `steps` steps with its kinetic plus elastic
/// energy at most doubling (the bisection's criterion: an unstable mode grows by |lambda|^N).
fn runs_stably(model: &Model, dt: f64, steps: u64) -> bool {
    let mut model = model.clone();
    model.params.dt = dt;
    let mut world = CpuWorld::new(&model).unwrap();
    let energy = |w: &CpuWorld| {
        let e = w.energy().unwrap();
        e.kinetic + e.elastic
    };
    let e0 = energy(&world);
    world.step(steps).is_ok() && energy(&world) <= 2.0 * e0
}

/// The true stability limit of `model` (s), by bisection between its estimate and 4 times it,
/// to 0.5 %.
fn true_limit(model: &Model) -> f64 {
    let estimate = model.stable_dt().dt;
    let (mut lo, mut hi) = (estimate, 4.0 * estimate);
    assert!(runs_stably(model, lo, 3000), "unstable at the estimate");
    assert!(!runs_stably(model, hi, 3000), "stable at 4x the estimate");
    while hi / lo > 1.005 {
        let mid = (lo * hi).sqrt();
        if runs_stably(model, mid, 3000) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// `part` free in space (no gravity, no ground), every mass given a small pseudo-random
/// velocity so that every mode is excited.
fn in_space(part: Part) -> Model {
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        ..Params::default()
    });
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let mut part = part;
    for m in &mut part.masses {
        m.velocity = DVec3::new(next(), next(), next()) * 1e-3;
    }
    model.add("body", part);
    model
}

#[test]
fn lattice_and_cloth_estimates_lie_below_the_true_limit_within_a_factor_of_2_5() {
    let lattice = in_space(Lattice::benchmark(4).build().unwrap());
    let cloth = in_space(
        Cloth {
            nx: 6,
            ny: 6,
            ..Cloth::default()
        }
        .build()
        .unwrap(),
    );
    for (name, model) in [("lattice", lattice), ("cloth", cloth)] {
        let estimate = model.stable_dt().dt;
        let truth = true_limit(&model);
        println!(
            "{name}: estimate {estimate:.4e} s, true limit {truth:.4e} s ({:.3}x)",
            truth / estimate
        );
        // Gershgorin bounds the largest eigenvalue from above, so the estimate is below the truth.
        // How far below: the row sum counts every spring on a mass at full stiffness in every
        // direction, while the fastest mode moves the masses along one direction and sees each
        // spring through cos^2 of its angle to it, and not at all where neighbours move
        // together. On the lattice the alternating mode (-1)^(i+j+k) x gives omega^2 = 28 k /
        // (3 m) against the bound's 52 k / m, sqrt(52 * 3 / 28) = 2.36 in dt; the bisection finds
        // the true limit at 2.07x (the top mode is a little faster than that one). The cloth's
        // row mixes three stiffnesses with the same effect. 2.5 bounds both with room for the
        // 0.5 % bisection step.
        assert!(
            estimate <= truth,
            "{name}: estimate {estimate} above the limit {truth}"
        );
        assert!(
            truth <= 2.5 * estimate,
            "{name}: {truth} more than 2.5x the estimate {estimate}"
        );
    }
}

/// The warnings logged in this test binary.
static LOGGED: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            LOGGED.lock().unwrap().push(record.args().to_string());
        }
    }

    fn flush(&self) {}
}

/// Warnings logged so far that contain `text`.
fn logged(text: &str) -> usize {
    LOGGED
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.contains(text))
        .count()
}

#[test]
fn building_a_world_above_the_stable_dt_logs_a_warning_naming_the_limit() {
    // Other tests of this binary may build worlds above their limit too: each case here has a dt
    // of its own, and only warnings naming it are counted.
    let _ = log::set_logger(&Capture);
    log::set_max_level(log::LevelFilter::Warn);
    let (m, k) = (0.1, 1000.0); // limit 2 sqrt(m / k) = 0.02 s
    CpuWorld::new(&one_spring(m, k, 0.01, 0.0123)).unwrap();
    assert_eq!(logged("dt = 1.23e-2 s"), 0, "warned below the limit");
    CpuWorld::new(&one_spring(m, k, 0.01, 0.0321)).unwrap();
    assert_eq!(logged("CpuWorld built with dt = 3.21e-2 s"), 1);
    let warning = LOGGED
        .lock()
        .unwrap()
        .iter()
        .find(|w| w.contains("3.21e-2"))
        .cloned()
        .unwrap();
    assert!(
        warning.contains("limited by mass 1") && warning.contains("reduce dt below 2.00e-2 s"),
        "{warning}"
    );
    if cfg!(skip_gpu_tests) {
        return;
    }
    let (device, queue) = super::common::gpu();
    let model = one_spring(m, k, 0.01, 0.0345);
    hooke::World::with_device(
        device.clone(),
        queue.clone(),
        &model,
        hooke::WorldOptions::default(),
    )
    .unwrap();
    assert_eq!(logged("World built with dt = 3.45e-2 s"), 1);
}

#[test]
fn damped_oscillator_estimate_solves_the_exact_condition_and_nothing_is_infinite() {
    // One mass on a heavily damped spring: gamma = c / m = 1000 1/s, omega^2 = k / m = 10.
    let (m, k, c) = (0.1, 1.0, 100.0);
    let mut model = one_spring(m, k, 0.01, 1e-4);
    model.springs[0].damping = c;
    let stable = model.stable_dt();
    let (w2, gamma, dt) = (k / m, c / m, stable.dt);
    // Semi-implicit Euler on x'' = -w^2 x - gamma x' is stable iff (w dt)^2 + 2 gamma dt < 4.
    assert!(
        (w2 * dt * dt + 2.0 * gamma * dt - 4.0).abs() < 1e-12,
        "{dt}"
    );
    assert_eq!(stable.limit, StableDtLimit::Damping);
    assert!(
        stable
            .to_string()
            .contains("damping 1.0e2 N*s/m on 1.00e-1 kg, most damped spring 0"),
        "{stable}"
    );
    // At 0.98x the step matrix's eigenvalue near 1 - gamma dt = -0.96 decays; at 1.02x the one
    // near -1.04 grows, 1.04^500 = 3e8.
    let mut run = |fraction: f64| {
        model.params.dt = fraction * dt;
        let mut world = CpuWorld::new(&model).unwrap();
        let result = world.step(500);
        (result, (world.position_slice()[1].x - 1.0).abs())
    };
    let (result, x) = run(0.98);
    assert!(result.is_ok() && x < 0.01, "{x}");
    let (result, x) = run(1.02);
    assert!(result.is_err() || x > 1.0, "{x}");
    // A lone mass on the impulsive ground: nothing limits dt.
    let mut lone = Model::new(Params::cloth());
    lone.add_mass(Mass::new(1.0, DVec3::Z));
    let nothing = lone.stable_dt();
    assert_eq!(
        (nothing.dt, nothing.limit),
        (f64::INFINITY, StableDtLimit::Nothing)
    );
    assert!(
        nothing.to_string().contains("nothing limits it"),
        "{nothing}"
    );
    assert!(nothing.advice().contains("nothing in the model limits dt"));
}
