//! The CPU reference checked against physics: analytic solutions, exact discrete solutions and
//! conservation laws. Every tolerance is derived beside its test.

use hooke::{
    Actuator, Contact, CpuWorld, DVec3, DragSpring, DutyCycle, Error, Friction, FrictionOscillator,
    Integrator, Mass, Model, Params, Part, Spring, SpringLaw,
};

const G: f64 = 9.81;

fn params(dt: f64, contact: Contact) -> Params {
    Params {
        dt,
        contact,
        ..Params::default()
    }
}

/// The Lipson cube (0.1 m, 8 x 0.1 kg, 28 springs of k), bottom face at height `z0`.
fn cube(k: f64, c: f64, z0: f64) -> Part {
    let mut part = Part::new();
    for i in 0..8u32 {
        let corner = DVec3::new(
            f64::from(i & 1),
            f64::from((i >> 1) & 1),
            f64::from((i >> 2) & 1),
        );
        part.add_mass(Mass::new(0.1, corner * 0.1 + DVec3::new(0.0, 0.0, z0)));
    }
    for a in 0..8 {
        for b in a + 1..8 {
            part.connect(a, b, k, c);
        }
    }
    part
}

/// Two masses joined by one spring, no gravity, no ground: the relative coordinate oscillates with
/// period 2 pi sqrt(mu / k), mu = m1 m2 / (m1 + m2).
#[test]
fn two_mass_oscillator_period() {
    let (m1, m2, k, l0, stretch) = (0.3, 0.7, 200.0, 1.0, 0.01);
    let dt = 1e-5;
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        ..params(dt, Contact::None)
    });
    let a = model.add_mass(Mass::new(m1, DVec3::ZERO));
    let b = model.add_mass(Mass::new(m2, DVec3::new(l0 + stretch, 0.0, 0.0)));
    model.add_spring(Spring::hooke(a, b, k, l0));
    let mut w = CpuWorld::new(&model).unwrap();
    // Measure the period from upward zero crossings of the extension (L - L0), interpolated
    // linearly between steps.
    let ext = |w: &CpuWorld| w.position_slice()[1].x - w.position_slice()[0].x - l0;
    let mut prev = ext(&w);
    let mut crossings = Vec::new();
    while crossings.len() < 6 {
        w.step(1).unwrap();
        let e = ext(&w);
        if prev < 0.0 && e >= 0.0 {
            crossings.push(w.time() - dt * e / (e - prev));
        }
        prev = e;
    }
    let measured = (crossings[5] - crossings[0]) / 5.0;
    let mu = m1 * m2 / (m1 + m2);
    let exact = std::f64::consts::TAU * (mu / k).sqrt();
    // Symplectic Euler's frequency error is (omega dt)^2 / 24 relative (its modified frequency is
    // 2/dt asin(omega dt / 2)); omega dt = 3.9e-4 here, so 6e-9. The crossing interpolation is
    // second order in dt per crossing: (omega dt)^2 / 8 / 5 periods ~ 4e-9. Allow 1e-6 relative.
    let rel = (measured - exact).abs() / exact;
    assert!(
        rel < 1e-6,
        "period {measured} vs 2 pi sqrt(mu/k) = {exact} (rel {rel:e})"
    );
    // Momentum is conserved exactly up to rounding (internal forces cancel pairwise).
    let p = 0.3 * w.velocity_slice()[0] + 0.7 * w.velocity_slice()[1];
    assert!(p.length() < 1e-12, "momentum drifted to {p}");
}

/// Free fall under semi-implicit Euler has the exact discrete solution
/// v_n = v0 + g n dt, z_n = z0 + n v0 dt + g dt^2 n (n + 1) / 2.
#[test]
fn free_fall_matches_exact_discrete_solution() {
    let dt = 1e-3;
    let (z0, v0) = (10.0, 2.0);
    let mut model = Model::new(params(dt, Contact::None));
    model
        .add_mass(Mass::new(1.5, DVec3::new(0.0, 0.0, z0)).with_velocity(DVec3::new(0.5, 0.0, v0)));
    let mut w = CpuWorld::new(&model).unwrap();
    let n = 1000u64;
    w.step(n).unwrap();
    let nf = n as f64;
    let z = z0 + nf * v0 * dt - G * dt * dt * nf * (nf + 1.0) / 2.0;
    let v = v0 - G * nf * dt;
    let p = w.position_slice()[0];
    // Only rounding differs: 1000 additions of numbers ~10 with eps 2.2e-16 → < 1e-12.
    assert!((p.z - z).abs() < 1e-11, "z {} vs exact {z}", p.z);
    assert!((w.velocity_slice()[0].z - v).abs() < 1e-11);
    assert!((p.x - 0.5 * nf * dt).abs() < 1e-12);
    // And the continuous solution differs by exactly g dt t / 2 (the first-order error).
    let t = nf * dt;
    let continuous = z0 + v0 * t - 0.5 * G * t * t;
    assert!(((continuous - p.z) - G * dt * t / 2.0).abs() < 1e-11);
}

/// Explicit Euler as CS838 teaches it: z_{n+1} = z_n + v_n dt, so
/// z_n = z0 + n v0 dt + g dt^2 n (n - 1) / 2.
#[test]
fn explicit_euler_free_fall() {
    let dt = 1e-3;
    let mut model = Model::new(Params {
        integrator: Integrator::ExplicitEuler,
        ..params(dt, Contact::None)
    });
    model.add_mass(Mass::new(1.0, DVec3::new(0.0, 0.0, 5.0)));
    let mut w = CpuWorld::new(&model).unwrap();
    w.step(500).unwrap();
    let nf = 500.0;
    let z = 5.0 - G * dt * dt * nf * (nf - 1.0) / 2.0;
    assert!((w.position_slice()[0].z - z).abs() < 1e-12);
}

fn bouncing_cube_energy_error(dt: f64) -> f64 {
    let mut model = Model::new(params(
        dt,
        Contact::Penalty {
            stiffness: 100_000.0,
            damping: 0.0,
        },
    ));
    model.add("cube", cube(10_000.0, 0.0, 0.2));
    let mut w = CpuWorld::new(&model).unwrap();
    let e0 = w.energy().unwrap().total();
    let mut worst: f64 = 0.0;
    let steps = (1.0 / dt).round() as u64;
    for _ in 0..steps {
        w.step(1).unwrap();
        worst = worst.max((w.energy().unwrap().total() - e0).abs());
    }
    worst / e0.abs()
}

/// The undamped bouncing cube (Lipson parameters, penalty ground, no friction), 1 s with several
/// bounces: symplectic Euler keeps the energy error bounded, and the error is first order in dt.
///
/// Symplectic Euler conserves a modified energy H + (dt/2) v.F + O(dt^2), so the measured energy
/// wanders by O(dt) without drift. Each bounce lands at a slightly different phase for each dt, so
/// halving dt changes the worst error by a factor scattered around 2 (seen: 1.6 to 2.4); over a
/// factor 8 in dt the scatter averages out, and the log-log slope must be 1 (0.8..1.25 allows the
/// scatter; a second-order error would show 2, a drift 0).
#[test]
fn undamped_bouncing_cube_energy_bounded_and_first_order() {
    let coarse = bouncing_cube_energy_error(2e-4);
    let mid = bouncing_cube_energy_error(1e-4);
    let fine = bouncing_cube_energy_error(2.5e-5);
    // Bounded at the seed's dt: the largest excursion is a few percent (contact has
    // omega dt = sqrt(k_c / m) dt = 0.1).
    assert!(mid < 0.06, "relative energy error {mid} at dt = 1e-4");
    let slope = (coarse / fine).ln() / 8f64.ln();
    assert!(
        (0.8..1.25).contains(&slope),
        "energy error {coarse} at dt 2e-4, {fine} at 2.5e-5: order {slope}, expected 1"
    );
}

/// With spring damping, air drag, velocity damping and friction on, the balance
/// total + dissipated - injected stays put, and dissipated only grows.
#[test]
fn damped_energy_balance() {
    let mut model = Model::new(Params {
        velocity_damping: Params::damping_rate_from_factor(0.999, 1e-4),
        air_drag: 0.05,
        friction: Friction::coulomb(0.8, 0.6),
        ..params(
            1e-4,
            Contact::Penalty {
                stiffness: 100_000.0,
                damping: 20.0,
            },
        )
    });
    let mut part = cube(10_000.0, 2.0, 0.1);
    part.set_velocity(DVec3::new(1.0, 0.3, 0.0));
    model.add("cube", part);
    let mut w = CpuWorld::new(&model).unwrap();
    let b0 = w.energy().unwrap().balance();
    let e0 = w.energy().unwrap().total();
    let mut last_diss = 0.0;
    for _ in 0..100 {
        w.step(100).unwrap();
        let e = w.energy().unwrap();
        assert!(e.dissipated >= last_diss - 1e-12, "dissipated decreased");
        last_diss = e.dissipated;
        // Same O(dt) error as the undamped cube (< 10 % of the energy scale).
        assert!(
            (e.balance() - b0).abs() < 0.1 * e0,
            "balance drifted by {} J",
            e.balance() - b0
        );
    }
    // Most of the energy has been dissipated by now (1 s with all the damping).
    assert!(last_diss > 0.3 * (e0 - w.energy().unwrap().total()));
}

/// Lipson's per-step factor maps to a rate that makes the physics independent of dt.
#[test]
fn velocity_damping_is_independent_of_dt() {
    let gamma = Params::damping_rate_from_factor(0.999, 1e-4);
    assert!((gamma - 10.005_003_335_835_335).abs() < 1e-9);
    let speed_after = |dt: f64| {
        let mut model = Model::new(Params {
            gravity: DVec3::ZERO,
            velocity_damping: gamma,
            ..params(dt, Contact::None)
        });
        model.add_mass(Mass::new(1.0, DVec3::ZERO).with_velocity(DVec3::X));
        let mut w = CpuWorld::new(&model).unwrap();
        w.step_for(0.1).unwrap();
        w.velocity_slice()[0].x
    };
    let exact = (-gamma * 0.1).exp();
    for dt in [1e-4, 1e-3, 5e-3] {
        assert!((speed_after(dt) - exact).abs() < 1e-12, "dt {dt}");
    }
}

/// Air drag: a mass with initial speed decays as (1 - c dt / m)^n (semi-implicit Euler on
/// v' = -c v / m), close to exp(-c t / m).
#[test]
fn air_drag_decay() {
    let (m, c, dt) = (0.2, 0.9, 1e-3);
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        air_drag: c,
        ..params(dt, Contact::None)
    });
    model.add_mass(Mass::new(m, DVec3::ZERO).with_velocity(DVec3::new(3.0, 0.0, 0.0)));
    let mut w = CpuWorld::new(&model).unwrap();
    w.step(1000).unwrap();
    let discrete = 3.0 * (1.0 - c * dt / m).powi(1000);
    assert!((w.velocity_slice()[0].x - discrete).abs() < 1e-12);
    // Energy lost equals the drop in kinetic energy.
    let e = w.energy().unwrap();
    assert!((e.dissipated - (0.5 * m * 9.0 - e.kinetic)).abs() < 1e-12);
}

fn resting_block(friction: Friction, k_c: f64) -> CpuWorld {
    let mut model = Model::new(Params {
        friction,
        ..params(
            1e-4,
            Contact::Penalty {
                stiffness: k_c,
                damping: 200.0,
            },
        )
    });
    model.add_mass(Mass::new(1.0, DVec3::new(0.0, 0.0, -G / k_c)));
    let mut w = CpuWorld::new(&model).unwrap();
    w.step(2000).unwrap(); // settle
    w
}

/// Static friction holds a resting mass while the pull is below mu_s N, and releases it above.
#[test]
fn static_friction_threshold() {
    let (mu_s, mu_k) = (0.6, 0.4);
    // Below the threshold: 0.95 mu_s m g sideways; the mass must not move at all.
    let mut w = resting_block(Friction::coulomb(mu_s, mu_k), 1e5);
    let x0 = w.position_slice()[0].x;
    let before = w.energy().unwrap();
    w.set_external_force(0, DVec3::new(0.95 * mu_s * G, 0.0, 0.0))
        .unwrap();
    w.step(5000).unwrap();
    assert_eq!(
        w.position_slice()[0].x,
        x0,
        "static friction let the mass creep"
    );
    // Friction that holds a mass still does no work: nothing dissipated, nothing injected (the
    // vertical contact has long settled; its residue is far below 1e-9 J).
    let after = w.energy().unwrap();
    assert!((after.dissipated - before.dissipated).abs() < 1e-9);
    assert!(after.injected.abs() < 1e-9);
    // Above it: 1.05 mu_s m g; net force 1.05 mu_s g - mu_k g per kg once sliding.
    let mut w = resting_block(Friction::coulomb(mu_s, mu_k), 1e5);
    let pull = 1.05 * mu_s * G;
    w.set_external_force(0, DVec3::new(pull, 0.0, 0.0)).unwrap();
    let t = 0.5;
    w.step_for(t).unwrap();
    let expected = 0.5 * (pull - mu_k * G) * t * t;
    let x = w.position_slice()[0].x;
    // The normal force wobbles by the contact's vertical settling (< 1 %) and the first step
    // breaks away at mu_k too, so within 2 %.
    assert!(
        (x - expected).abs() < 0.02 * expected,
        "slid {x} m, expected {expected} m"
    );
}

/// Kinetic friction decelerates a slider at mu_k g and stops it without reversing.
#[test]
fn kinetic_friction_decelerates_at_mu_k_g() {
    let mu_k = 0.5;
    let mut w = resting_block(Friction::coulomb(0.7, mu_k), 1e5);
    let v0 = 2.0;
    let mut m = w.model().clone();
    m.masses[0].position = w.position_slice()[0];
    m.masses[0].velocity = DVec3::new(v0, 0.0, 0.0);
    let mut w2 = CpuWorld::new(&m).unwrap();
    let _ = &mut w;
    w2.step_for(0.2).unwrap();
    let v = w2.velocity_slice()[0].x;
    // v(t) = v0 - mu_k g t while sliding. The contact starts at its static depth, so N = m g up to
    // the penalty spring's ringing (damped, < 0.5 %).
    let expected = v0 - mu_k * G * 0.2;
    assert!((v - expected).abs() < 0.005 * v0, "v {v} vs {expected}");
    // Stopping distance v0^2 / (2 mu_k g), and it never moves backwards.
    let mut last = w2.position_slice()[0].x;
    for _ in 0..800 {
        w2.step(10).unwrap();
        let x = w2.position_slice()[0].x;
        assert!(x >= last, "friction reversed the slider");
        last = x;
    }
    assert_eq!(w2.velocity_slice()[0].x, 0.0, "slider did not come to rest");
    let stop = v0 * v0 / (2.0 * mu_k * G);
    assert!(((last - m.masses[0].position.x) - stop).abs() < 0.01 * stop);
}

/// Restitution contact (Anderson): a ball dropped from h bounces to e^2 h.
#[test]
fn restitution_bounce_height() {
    for e in [0.5, 0.7, 0.9] {
        let h = 1.0;
        let dt = 1e-5;
        let mut model = Model::new(params(dt, Contact::Restitution { restitution: e }));
        model.add_mass(Mass::new(0.2, DVec3::new(0.0, 0.0, h)));
        let mut w = CpuWorld::new(&model).unwrap();
        // Fall, bounce, and find the apex after the bounce.
        let mut bounced = false;
        let mut apex: f64 = 0.0;
        for _ in 0..400_000 {
            w.step(1).unwrap();
            let v = w.velocity_slice()[0].z;
            if !bounced && v > 0.0 {
                bounced = true;
            }
            if bounced {
                apex = apex.max(w.position_slice()[0].z);
                if v < 0.0 {
                    break;
                }
            }
        }
        // Impact speed sqrt(2 g h) is off by O(g dt) per step discretisation (~1e-4 relative) and
        // the contact step loses at most one step of fall: allow 1e-3 relative.
        let expected = e * e * h;
        assert!(
            (apex - expected).abs() < 1e-3 * h,
            "e = {e}: apex {apex}, expected {expected}"
        );
    }
}

/// Fixed masses never move, whatever pulls on them: the Lipson pendulum.
#[test]
fn fixed_mass_never_moves_and_pendulum_swings() {
    let mut part = cube(10_000.0, 0.5, 1.0);
    part.masses[7] = part.masses[7].fixed(); // the top corner (1,1,1)
    let mut model = Model::new(params(1e-4, Contact::None));
    model.add("pendulum", part);
    let pinned = model.masses[7].position;
    let mut w = CpuWorld::new(&model).unwrap();
    w.set_external_force(7, DVec3::new(100.0, 0.0, 0.0))
        .unwrap();
    let com0 = w.body_centre_of_mass(0).unwrap();
    for _ in 0..50 {
        w.step(100).unwrap();
        assert_eq!(w.position_slice()[7], pinned);
        assert_eq!(w.velocity_slice()[7], DVec3::ZERO);
    }
    // The rest hangs and swings down: the centre of mass drops below the pin.
    let com = w.body_centre_of_mass(0).unwrap();
    assert!(
        com.z < com0.z - 0.01,
        "pendulum did not swing ({com0} -> {com})"
    );
    assert!(w.energy().unwrap().dissipated > 0.0);
}

/// A hanging chain of N equal masses m on springs k, top fixed: at rest, the spring below mass i
/// (counting from the bottom, i = 1..N-1) carries i m g, so it stretches i m g / k.
#[test]
fn hanging_chain_static_stretch() {
    let (n, m, k, l0) = (6usize, 0.05, 50.0, 0.1);
    let mut model = Model::new(params(1e-3, Contact::None));
    let mut part = Part::new();
    for i in 0..n {
        let mass = Mass::new(m, DVec3::new(0.0, 0.0, 2.0 - l0 * i as f64));
        part.add_mass(if i == 0 { mass.fixed() } else { mass });
    }
    for i in 0..n - 1 {
        part.add_spring(Spring::hooke(i as u32, i as u32 + 1, k, l0).with_damping(5.0));
    }
    model.add("chain", part);
    let mut w = CpuWorld::new(&model).unwrap();
    w.step_for(30.0).unwrap();
    let p = w.position_slice();
    for i in 0..n - 1 {
        let below = (n - 1 - i) as f64; // masses hanging below spring i
        let stretch = p[i].distance(p[i + 1]) - l0;
        let expected = below * m * G / k;
        // The slowest mode (omega ~ 9 rad/s) decays at c omega^2 / (2 k) ~ 4 /s: after 30 s the
        // residue is ~e^-120 of the initial 5 cm; what is left is rounding.
        assert!(
            (stretch - expected).abs() < 1e-9,
            "spring {i}: stretch {stretch}, expected {expected}"
        );
    }
}

/// The three spring laws: material law scales stiffness with 1/L0, zero-length pulls to contact.
#[test]
fn spring_laws_forces() {
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        ..params(1e-3, Contact::None)
    });
    for i in 0..6 {
        model.add_mass(Mass::new(1.0, DVec3::new(0.0, f64::from(i), 0.0)));
    }
    model.masses[1].position.x = 1.5; // |d| = sqrt(1.5^2 + 1) from mass 0
    let l = model.masses[0].position.distance(model.masses[1].position);
    model.add_spring(Spring::hooke(0, 1, 10.0, 1.0));
    model.masses[3].position = DVec3::new(3.0, 2.0, 0.0);
    model.add_spring(Spring::hooke(2, 3, 10.0, 2.0).with_law(SpringLaw::Material));
    model.masses[5].position = DVec3::new(0.5, 4.0, 0.0);
    model.add_spring(Spring::hooke(4, 5, 10.0, 0.0).with_law(SpringLaw::ZeroLength));
    let mut w = CpuWorld::new(&model).unwrap();
    let f = w.spring_forces().unwrap();
    let n01 = (model.masses[0].position - model.masses[1].position) / l;
    let expect0 = -10.0 * (l - 1.0) * n01;
    assert!((f[0] - expect0).length() < 1e-12);
    assert!((f[1] + expect0).length() < 1e-12);
    // Material: |d| = 3, L0 = 2: f = 10 (3/2 - 1) = 5 N pulling together.
    assert!((f[2] - DVec3::new(5.0, 0.0, 0.0)).length() < 1e-12);
    // Zero length: -k (p4 - p5) = -10 (-0.5, 0, 0) on mass 4.
    assert!((f[4] - DVec3::new(5.0, 0.0, 0.0)).length() < 1e-12);
    // Elastic energies: Hooke k (L-L0)^2/2, material k (L-L0)^2/(2 L0), zero-length k L^2/2.
    let e = w.energy().unwrap().elastic;
    let expected = 5.0 * (l - 1.0) * (l - 1.0) + 10.0 / 4.0 + 5.0 * 0.25;
    assert!((e - expected).abs() < 1e-12, "elastic {e} vs {expected}");
}

/// Axial damping acts only along the spring: a sideways relative velocity feels nothing.
#[test]
fn damping_is_axial() {
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        ..params(1e-3, Contact::None)
    });
    model.add_mass(Mass::new(1.0, DVec3::ZERO).with_velocity(DVec3::new(0.3, 2.0, 0.0)));
    model.add_mass(Mass::new(1.0, DVec3::X));
    model.add_spring(Spring::hooke(0, 1, 0.0, 1.0).with_damping(4.0));
    let mut w = CpuWorld::new(&model).unwrap();
    let f = w.spring_forces().unwrap();
    // n = (p0 - p1)/L = -x; (v0 - v1) . n = -0.3; f0 = -c (-0.3) n = 1.2 * (-x).
    assert!((f[0] - DVec3::new(-1.2, 0.0, 0.0)).length() < 1e-12);
}

/// Actuators: L0(t) = L_base (1 + a sin(w t + 2 pi p)), and the duty cycle holds the length during
/// rest periods.
#[test]
fn actuator_rest_length_and_duty_cycle() {
    let a = Actuator {
        spring: 0,
        amplitude: 0.2,
        omega: 10.0,
        phase: 0.25,
        duty: None,
        commanded: false,
    };
    assert!((a.rest_length(0.5, 0.0) - 0.6).abs() < 1e-15); // sin(pi/2) = 1
    let d = Actuator {
        duty: Some(DutyCycle {
            active: 0.1,
            rest: 0.3,
            offset: 0.0,
        }),
        phase: 0.0,
        ..a
    };
    // During the first rest period (0.1..0.4 s) the clock stays at 0.1 s.
    let held = d.rest_length(1.0, 0.1);
    for t in [0.15, 0.25, 0.399] {
        assert!((d.rest_length(1.0, t) - held).abs() < 1e-12);
    }
    // In the second cycle the clock resumes from 0.1.
    assert!((d.rest_length(1.0, 0.45) - (1.0 + 0.2 * (10.0f64 * 0.15).sin())).abs() < 1e-12);

    // A breathing cube: every spring actuated, the body pulses but its centre of mass (no ground,
    // no gravity) stays put, and the muscles do work.
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        ..params(1e-4, Contact::None)
    });
    let mut part = cube(10_000.0, 1.0, 0.0);
    for s in 0..part.springs.len() as u32 {
        part.actuators.push(Actuator {
            spring: s,
            amplitude: 0.1,
            omega: 20.0,
            phase: 0.0,
            duty: None,
            commanded: false,
        });
    }
    model.add("breathing", part);
    let mut w = CpuWorld::new(&model).unwrap();
    let com0 = w.body_centre_of_mass(0).unwrap();
    let edge = |w: &CpuWorld| w.position_slice()[0].distance(w.position_slice()[1]);
    let mut lengths = Vec::new();
    for _ in 0..40 {
        w.step(50).unwrap();
        lengths.push(edge(&w));
    }
    let (lo, hi) = lengths
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
    assert!(hi - lo > 0.015, "cube did not breathe: edge {lo}..{hi}");
    assert!((w.body_centre_of_mass(0).unwrap() - com0).length() < 1e-12);
}

/// Friction oscillator: the coefficient toggles with cos(w t + p).
#[test]
fn friction_oscillator_toggles() {
    let o = FrictionOscillator {
        min: 0.1,
        max: 0.9,
        omega: 2.0,
        phase: 0.0,
    };
    assert_eq!(o.coefficient(0.0), 0.9);
    assert_eq!(o.coefficient(1.0), 0.1); // cos 2 < 0
    assert_eq!(o.coefficient(3.0), 0.9); // cos 6 > 0
}

/// The drag spring pulls a mass toward the target; the work it does is counted as injected.
#[test]
fn drag_spring_pulls_and_is_booked() {
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        ..params(1e-4, Contact::None)
    });
    model.add_mass(Mass::new(0.1, DVec3::ZERO));
    let mut w = CpuWorld::new(&model).unwrap();
    w.set_drag(Some(DragSpring {
        mass: 0,
        target: DVec3::new(1.0, 0.0, 0.0),
        stiffness: 50.0,
        damping: 10.0,
    }))
    .unwrap();
    // Overdamped (c^2 > 4 k m): the slow root is (c - sqrt(c^2 - 4 k m)) / (2 m) = 5.28 /s, so
    // after 2 s the gap is e^-10.6 ~ 2.5e-5 of the initial 1 m.
    w.step_for(2.0).unwrap();
    assert!((w.position_slice()[0].x - 1.0).abs() < 1e-4);
    let e = w.energy().unwrap();
    // The drag spring (with its damper) is an external force, so the work it did is the mass's
    // kinetic energy: nearly 0 at the end, after its 25 J of stored energy went into its damper.
    // Symplectic Euler books that work to O(omega dt) = 2e-3 of the 25 J exchanged.
    assert!(e.dissipated == 0.0);
    assert!((e.injected - e.kinetic).abs() < 2e-3 * 25.0, "{e:?}");
    assert!(w
        .set_drag(Some(DragSpring {
            mass: 3,
            target: DVec3::ZERO,
            stiffness: 1.0,
            damping: 0.0
        }))
        .is_err());
}

/// An explosion is reported with the first bad mass and the step as a blow-up, while the state
/// is still finite, not carried on until it is NaN.
#[test]
fn explosion_stops_with_a_blow_up_error_before_nan() {
    // k/m = 1e12 with dt = 1e-3: omega dt = 1000, far past the stability limit of 2.
    let mut model = Model::new(params(1e-3, Contact::None));
    model.add_mass(Mass::new(1e-6, DVec3::ZERO));
    model.add_mass(Mass::new(1e-6, DVec3::new(1.1, 0.0, 0.0)));
    model.add_spring(Spring::hooke(0, 1, 1e6, 1.0));
    let mut w = CpuWorld::new(&model).unwrap();
    let err = w.step(10_000).unwrap_err();
    let Error::BlowUp { mass, step, .. } = err else {
        panic!("expected BlowUp, got {err}");
    };
    // The amplitude grows ~1e6-fold per step: the first step already passes the bound.
    assert_eq!((mass, step), (0, 1));
    assert!(w.position_slice().iter().all(|p| p.is_finite()));
    // It stays stopped until reset.
    assert!(w.step(1).is_err());
    w.reset();
    assert!(w.step(1).is_err());
}

/// A state that turns non-finite within one step (no step in between to see it grow) is
/// reported with the first bad mass and the step, not carried on as NaN.
#[test]
fn non_finite_state_stops_with_error() {
    let mut model = Model::new(params(1e-3, Contact::None));
    model.add_mass(Mass::new(1.0, DVec3::ZERO));
    model.add_mass(Mass::new(1e-10, DVec3::X));
    let mut w = CpuWorld::new(&model).unwrap();
    w.step(3).unwrap();
    // 1e300 N on 1e-10 kg: the acceleration overflows f64 in step 4.
    w.set_external_force(1, DVec3::new(1e300, 0.0, 0.0))
        .unwrap();
    let err = w.step(10).unwrap_err();
    let Error::NonFinite { mass, step, .. } = err else {
        panic!("expected NonFinite, got {err}");
    };
    assert_eq!((mass, step), (1, 4));
    // It stays stopped until reset.
    assert!(w.step(1).is_err());
    w.reset();
    assert!(w.step(1).is_ok());
}

#[test]
fn nan_duty_offset_error_prints_the_offset() {
    // Regression: the message printed the rest time instead of the offset.
    let mut m = Model::new(Params::default());
    m.add_mass(Mass::new(1.0, DVec3::ZERO));
    m.add_mass(Mass::new(1.0, DVec3::X));
    m.add_spring(Spring::hooke(0, 1, 1.0, 1.0));
    m.add_actuator(Actuator {
        spring: 0,
        amplitude: 0.1,
        omega: 1.0,
        phase: 0.0,
        duty: Some(DutyCycle {
            active: 1.0,
            rest: 0.25,
            offset: f64::NAN,
        }),
        commanded: false,
    });
    let text = m.validate().unwrap_err().to_string();
    assert!(text.contains("duty.offset NaN"), "{text}");
    assert!(!text.contains("0.25"), "{text}");
}

/// Bad input gets a clear error naming the element.
#[test]
fn bad_models_are_rejected() {
    let good = || {
        let mut m = Model::new(Params::default());
        m.add_mass(Mass::new(1.0, DVec3::ZERO));
        m.add_mass(Mass::new(1.0, DVec3::X));
        m.add_spring(Spring::hooke(0, 1, 1.0, 1.0));
        m
    };
    assert!(CpuWorld::new(&good()).is_ok());
    type Breaker = Box<dyn Fn(&mut Model)>;
    let cases: Vec<(Breaker, &str)> = vec![
        (Box::new(|m| m.springs[0].b = 7), "spring 0 joins mass 7"),
        (Box::new(|m| m.springs[0].b = 0), "to itself"),
        (Box::new(|m| m.masses[1].mass = 0.0), "mass 1 has mass 0"),
        (
            Box::new(|m| m.masses[1].mass = f64::NAN),
            "mass 1 has mass NaN",
        ),
        (
            Box::new(|m| m.masses[0].position.y = f64::INFINITY),
            "mass 0 has a non-finite position",
        ),
        (
            Box::new(|m| m.masses[0].velocity.x = f64::NAN),
            "non-finite velocity",
        ),
        (Box::new(|m| m.springs[0].stiffness = -1.0), "stiffness"),
        (Box::new(|m| m.springs[0].damping = -1.0), "damping"),
        (
            Box::new(|m| {
                m.springs[0].law = SpringLaw::Material;
                m.springs[0].rest_length = 0.0;
            }),
            "rest length 0",
        ),
        (Box::new(|m| m.params.dt = 0.0), "dt"),
        (Box::new(|m| m.params.dt = f64::NAN), "dt"),
        (
            Box::new(|m| m.params.contact = Contact::Restitution { restitution: 1.5 }),
            "restitution",
        ),
        (
            Box::new(|m| m.params.friction.static_coefficient = -0.1),
            "static_coefficient",
        ),
        (
            Box::new(|m| {
                m.actuators.push(Actuator {
                    spring: 9,
                    amplitude: 0.1,
                    omega: 1.0,
                    phase: 0.0,
                    duty: None,
                    commanded: false,
                })
            }),
            "names spring 9",
        ),
        (
            Box::new(|m| {
                m.actuators.push(Actuator {
                    spring: 0,
                    amplitude: 1.0,
                    omega: 1.0,
                    phase: 0.0,
                    duty: None,
                    commanded: false,
                })
            }),
            "amplitude",
        ),
    ];
    for (i, (break_it, needle)) in cases.iter().enumerate() {
        let mut m = good();
        break_it(&mut m);
        let err = CpuWorld::new(&m).expect_err(&format!("case {i} was accepted"));
        let text = err.to_string();
        assert!(text.contains(needle), "case {i}: '{text}' lacks '{needle}'");
    }
    let mut w = CpuWorld::new(&good()).unwrap();
    assert!(w.set_external_force(5, DVec3::X).is_err());
    assert!(w.set_rest_length(1, 1.0).is_err());
    assert!(w.set_rest_length(0, -1.0).is_err());
    assert!(w.step_for(f64::NAN).is_err());
}

/// Results do not depend on the thread count (chunked force buffers summed in a fixed order).
#[test]
fn threads_do_not_change_results() {
    let mut model = Model::new(Params {
        friction: Friction::coulomb(0.5, 0.5),
        ..params(1e-4, Contact::default())
    });
    // 46 x 46 x 12 lattice of cubes: enough springs for two chunks and the parallel path.
    let n = [46usize, 46, 12];
    let idx = |i: usize, j: usize, k: usize| (k * n[1] + j) * n[0] + i;
    let mut part = Part::new();
    for k in 0..n[2] {
        for j in 0..n[1] {
            for i in 0..n[0] {
                part.add_mass(Mass::new(
                    0.1,
                    DVec3::new(i as f64, j as f64, k as f64) * 0.01 + DVec3::new(0.0, 0.0, 0.01),
                ));
            }
        }
    }
    for k in 0..n[2] {
        for j in 0..n[1] {
            for i in 0..n[0] {
                for (di, dj, dk) in [
                    (1, 0, 0),
                    (0, 1, 0),
                    (0, 0, 1),
                    (1, 1, 0),
                    (1, 0, 1),
                    (0, 1, 1),
                    (1, 1, 1),
                ] {
                    let (i2, j2, k2) = (i + di, j + dj, k + dk);
                    if i2 < n[0] && j2 < n[1] && k2 < n[2] {
                        part.connect(idx(i, j, k) as u32, idx(i2, j2, k2) as u32, 1e4, 1.0);
                    }
                }
            }
        }
    }
    model.add("lattice", part);
    // More than one chunk of 2^17 springs, so chunk buffers overlap and are summed across threads.
    assert!(model.springs.len() > 1 << 17);
    let run = |threads| {
        let mut w = CpuWorld::new(&model).unwrap();
        w.set_threads(threads);
        w.step(30).unwrap();
        (w.position_slice().to_vec(), w.energy().unwrap())
    };
    let (p1, e1) = run(1);
    let (p2, e2) = run(2);
    let (p3, e3) = run(3);
    assert!(
        p1 == p2 && p2 == p3,
        "positions differ between thread counts"
    );
    assert_eq!(e1, e2);
    assert_eq!(e2, e3);
}

/// step_for advances round(duration / dt) steps, independent of the frame time.
#[test]
fn step_for_counts_steps() {
    let mut model = Model::new(params(1e-3, Contact::None));
    model.add_mass(Mass::new(1.0, DVec3::ZERO));
    let mut w = CpuWorld::new(&model).unwrap();
    assert_eq!(w.step_for(0.03).unwrap(), 30);
    assert_eq!(w.steps(), 30);
    assert!((w.time() - 0.03).abs() < 1e-15);
}

/// Regression (found by the f64 GPU parity): `CpuWorld::set_rest_length` on a model
/// with muscles brought every muscle to the current time but booked only the edited spring's
/// work, so the others' change since the last step was never booked as injected. A
/// `set_rest_length` to the value a spring already has must leave the energy books exactly as
/// if it had not been called.
#[test]
fn set_rest_length_books_every_muscles_work() {
    let mut model = Model::new(Params::default());
    let creature = hooke::creatures::BreathingCube {
        cube: hooke::Cube::lipson(),
        amplitude: 0.1,
        omega: std::f64::consts::TAU * 2.0,
    };
    model.add("breathing cube", creature.build().unwrap().part);
    let mut edited = CpuWorld::new(&model).unwrap();
    let mut plain = CpuWorld::new(&model).unwrap();
    edited.step(500).unwrap();
    plain.step(500).unwrap();
    let spring = model.actuators[0].spring as usize;
    let same = model.springs[spring].rest_length;
    edited.set_rest_length(spring, same).unwrap();
    edited.step(100).unwrap();
    plain.step(100).unwrap();
    let (a, b) = (edited.energy().unwrap(), plain.energy().unwrap());
    assert_eq!(edited.position_slice(), plain.position_slice());
    assert!(
        (a.injected - b.injected).abs() <= 1e-12 * b.injected.abs(),
        "injected {} J with a no-op edit, {} J without",
        a.injected,
        b.injected
    );
}

/// `CpuWorld::set_track_energy(false)` only stops the booking: a herd of inchworms (muscles,
/// friction) keeps every bit of its trajectory, the dissipated and injected totals read 0, and
/// booking turned back on starts from 0.
#[test]
fn energy_booking_off_keeps_the_cpu_trajectorys_bits() {
    let worm = hooke::creatures::Inchworm::default().build().unwrap();
    let model = worm.herd(4, 1.0).unwrap();
    let mut on = CpuWorld::new(&model).unwrap();
    let mut off = CpuWorld::new(&model).unwrap();
    off.set_track_energy(false);
    on.step(700).unwrap();
    off.step(700).unwrap();
    assert_eq!(on.position_slice(), off.position_slice());
    assert_eq!(on.velocity_slice(), off.velocity_slice());
    let (a, b) = (on.energy().unwrap(), off.energy().unwrap());
    assert!(a.injected > 0.0 && a.dissipated > 0.0);
    assert_eq!((b.injected, b.dissipated), (0.0, 0.0));
    assert_eq!((a.kinetic, a.elastic), (b.kinetic, b.elastic));
    off.set_track_energy(true);
    off.step(100).unwrap();
    let c = off.energy().unwrap();
    assert!(
        c.injected != 0.0 && c.injected.abs() < a.injected.abs(),
        "{c:?}"
    );
}
