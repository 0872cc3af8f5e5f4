//! Obstacles on the CPU reference, checked against physics: a block on an incline (static
//! friction holds, kinetic friction gives a = g (sin theta - mu_k cos theta)), the reflection law
//! of restitution on a tilted plane, the penalty rest depth on a tilted plane, a mass following a
//! sine-ridge heightfield, several surfaces at once, energy booking; validation errors naming the
//! obstacle; scene files; the incline on the GPU World and its f32 range check.

use glam::DQuat;
use hooke::{
    Builder, Contact, CpuWorld, Cube, DVec2, DVec3, Error, Friction, Heightfield, Mass, Model,
    Obstacle, Params, Placement, Scene, Shape, Slope, Staircase, World,
};

const G: f64 = 9.81;

/// Only the obstacles push back (no ground), standard gravity, dt = 1e-4 s.
fn params() -> Params {
    Params {
        contact: Contact::None,
        ..Params::default()
    }
}

fn penalty(stiffness: f64, damping: f64) -> Contact {
    Contact::Penalty { stiffness, damping }
}

/// Unit normal and downhill unit tangent of a slope of angle `theta` rising along +x.
fn frame(theta: f64) -> (DVec3, DVec3) {
    (
        DVec3::new(-theta.sin(), 0.0, theta.cos()),
        DVec3::new(-theta.cos(), 0.0, -theta.sin()),
    )
}

/// One 0.1 kg mass on a slope of angle `theta` (k = 1e5 N/m, c = 100 N*s/m: damping ratio
/// c / (2 sqrt(k m)) = 0.5), placed at its rest depth m g cos(theta) / k below the surface, at
/// rest.
fn block_on_incline(theta: f64, friction: Friction) -> CpuWorld {
    let (m, k) = (0.1, 1e5);
    let mut model = Model::new(params());
    let (n, _) = frame(theta);
    let depth = m * G * theta.cos() / k;
    model.add_mass(Mass::new(
        m,
        DVec3::new(0.2, 0.0, 0.2 * theta.tan()) - depth * n,
    ));
    let shape = Slope {
        angle: theta,
        point: DVec3::ZERO,
    }
    .shape()
    .unwrap();
    model.add_obstacle(Obstacle::new(shape, penalty(k, 100.0), friction));
    CpuWorld::new(&model).unwrap()
}

/// mu_k < tan(theta) < mu_s: only static friction can hold the block, and it does.
///
/// At rest, static friction is the force that leaves the tangential velocity at zero, so the
/// residual tangential velocity per step is the rounding of `v + (F_t + f) dt / m` with
/// `|F_t| dt / m = g sin(theta) dt = 3e-4 m/s`: a few ulps, 1e-19 m/s. Over 1e4 steps of 1e-4 s
/// that moves the block < 1e-19 m; we allow 1e-12 m. Were static friction to fail, kinetic
/// friction would let it slide at g (sin - 0.2 cos) = 1.0 m/s^2, 0.5 m in the second.
#[test]
fn block_on_incline_below_friction_angle_stays_put() {
    let theta = 0.3_f64; // tan = 0.309
    let mut w = block_on_incline(theta, Friction::coulomb(0.5, 0.2));
    let x0 = w.position_slice()[0];
    w.step_for(1.0).unwrap();
    let moved = w.position_slice()[0] - x0;
    assert!(moved.length() < 1e-12, "the block crept by {moved}");
}

/// tan(theta) > mu_s: the block breaks free in the first step and slides with
/// a = g (sin theta - mu_k cos theta) from then on (kinetic friction mu_k N, N = m g cos theta).
///
/// Semi-implicit Euler with a constant acceleration gives v_n = n a dt exactly and
/// s_n = a dt^2 n (n + 1) / 2 = a t^2 / 2 + a dt t / 2. What can differ is rounding: the normal
/// force comes from the penalty depth (8.6e-6 m) read off positions of up to 1 m, whose ulp
/// (2.2e-16 m) is 2.6e-11 of it, so N, and with it a, is off by at most ~3e-11 relative; the
/// sums over 1e4 steps add ~1e4 x 1.1e-16 = 1e-12. We allow 1e-9 relative.
#[test]
fn block_on_incline_above_friction_angle_slides_at_g_sin_minus_mu_cos() {
    let theta = 0.5_f64; // tan = 0.546
    let (mu_s, mu_k) = (0.5, 0.3);
    let mut w = block_on_incline(theta, Friction::coulomb(mu_s, mu_k));
    let x0 = w.position_slice()[0];
    let (_, down) = frame(theta);
    let a = G * (theta.sin() - mu_k * theta.cos());
    let steps = w.step_for(1.0).unwrap() as f64;
    let (dt, t) = (1e-4, w.time());
    let v = w.velocity_slice()[0].dot(down);
    let s = (w.position_slice()[0] - x0).dot(down);
    assert!((v - a * t).abs() < 1e-9 * a * t, "v = {v}, a t = {}", a * t);
    let discrete = a * dt * dt * steps * (steps + 1.0) / 2.0;
    assert!(
        (s - discrete).abs() < 1e-9 * s,
        "s = {s}, expected {discrete}"
    );
    // The continuous motion, up to the integrator's first-order offset a dt t / 2.
    assert!((s - (0.5 * a * t * t + 0.5 * a * dt * t)).abs() < 1e-9 * s);
    // It stayed on the surface: no normal velocity beyond rounding.
    let (n, _) = frame(theta);
    assert!(w.velocity_slice()[0].dot(n).abs() < 1e-9);
}

/// Restitution e on a plane tilted by 0.4 rad, no gravity, no friction: a mass arriving with
/// normal speed 1 m/s leaves with normal velocity +e (1 m/s) and its tangential velocity
/// untouched. The impulse `-m (1 + e) v.n / dt` is applied in one step, so the result is exact
/// up to the rounding of about ten operations on 1 m/s quantities (~1e-15 m/s); we allow 1e-13.
#[test]
fn restitution_on_tilted_plane_reflects_the_normal_velocity() {
    let theta = 0.4_f64;
    let (n, down) = frame(theta);
    let e = 0.6;
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        ..params()
    });
    let tangential = 0.7 * down + 0.3 * DVec3::Y;
    let v0 = -1.0 * n + tangential;
    model.add_mass(Mass::new(0.1, 0.01 * n).with_velocity(v0));
    let shape = Shape::Plane {
        normal: n,
        offset: 0.0,
    };
    model.add_obstacle(Obstacle::new(
        shape.clone(),
        Contact::Restitution { restitution: e },
        Friction::NONE,
    ));
    let mut w = CpuWorld::new(&model).unwrap();
    // 1 cm at 1 m/s: it arrives within 100 steps and is gone again within 100 more.
    w.step(300).unwrap();
    let v = w.velocity_slice()[0];
    assert!((v.dot(n) - e).abs() < 1e-13, "normal velocity {}", v.dot(n));
    assert!((v - v.dot(n) * n - tangential).length() < 1e-13, "v = {v}");
    assert!(shape.surface(w.position_slice()[0]).unwrap().distance > 0.0);
}

/// A plane obstacle lying on a restitution ground, itself with restitution: a mass dropped on
/// both is reflected once (it leaves at -e v), not by each surface in turn (which gave
/// -(2 e + 1) v before the second surface saw the velocity the first one leaves). The
/// impulse step is exact up to ~10 roundings of 1 m/s quantities; we allow 1e-13 m/s.
#[test]
fn restitution_plane_over_restitution_ground_reflects_once() {
    let e = 0.5;
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        contact: Contact::Restitution { restitution: e },
        ..Params::default()
    });
    model.add_mass(Mass::new(0.1, DVec3::new(0.0, 0.0, 0.01)).with_velocity(-DVec3::Z));
    model.add_obstacle(Obstacle::new(
        Shape::GROUND,
        Contact::Restitution { restitution: e },
        Friction::NONE,
    ));
    let mut w = CpuWorld::new(&model).unwrap();
    w.step(300).unwrap();
    let v = w.velocity_slice()[0];
    assert!(
        (v.z - e).abs() < 1e-13,
        "left at {v} m/s, not at e = {e} m/s"
    );
    let balance = w.energy().unwrap();
    // Kinetic energy lost = dissipated: 0.05 (1 - e^2) J.
    assert!((balance.dissipated - 0.05 * (1.0 - e * e)).abs() < 1e-13);
}

/// A mass dropped onto a plane tilted by 0.3 rad (mu_s = 1 > tan 0.3, so it stays) settles at
/// the penalty depth m g cos(theta) / k_c. The fixed point of semi-implicit Euler is exactly
/// where the forces balance, and the contact oscillation (omega = sqrt(k / m) = 1000 rad/s,
/// damping ratio 0.5) has decayed by exp(-500) after 1 s; what is left is rounding of positions
/// of ~1e-3 m (ulp 2e-19 m) against a depth of 9e-6 m, ~1e-13 relative. We allow 1e-9.
#[test]
fn penalty_rest_depth_on_tilted_plane_is_m_g_cos_over_k() {
    let theta = 0.3_f64;
    let (m, k) = (0.1, 1e5);
    let (n, _) = frame(theta);
    let mut model = Model::new(params());
    model.add_mass(Mass::new(m, DVec3::ZERO));
    let shape = Shape::Plane {
        normal: n,
        offset: 0.0,
    };
    model.add_obstacle(Obstacle::new(
        shape.clone(),
        penalty(k, 100.0),
        Friction::coulomb(1.0, 0.8),
    ));
    let mut w = CpuWorld::new(&model).unwrap();
    w.step_for(1.0).unwrap();
    let depth = -shape.surface(w.position_slice()[0]).unwrap().distance;
    let expected = m * G * theta.cos() / k;
    assert!(
        (depth - expected).abs() < 1e-9 * expected,
        "depth {depth} m, expected {expected} m"
    );
    // Penalty energy k d^2 / 2 is booked in the contact term.
    let e = w.energy().unwrap();
    assert!((e.ground - 0.5 * k * depth * depth).abs() < 1e-9 * e.ground);
}

/// A frictionless mass sliding over a sine ridge h = A sin(2 pi x / lambda) (A = 0.05 m,
/// lambda = 2 m) sampled every 1 cm follows the analytic surface.
///
/// How far it may be from h(x), m:
/// - penalty depth N / k over n_z: N <= m (g + v^2 kappa) with kappa = A (2 pi / lambda)^2
///   = 0.49 1/m and v^2 <= 1 + 2 g (2 A) = 2.96 m^2/s^2, so N <= 1.13 N, depth <= 1.14e-5;
/// - bilinear interpolation: spacing^2 / 8 max|h''| = 1e-4 / 8 x 0.49 = 6.2e-6;
/// - the slope kinks at sample lines (jumps of spacing h'' <= 4.9e-3) kick the normal velocity by
///   v x 4.9e-3 <= 8.5e-3 m/s, an oscillation of 8.5e-3 / omega = 8.5e-6 (omega = 1000 rad/s,
///   damping ratio 0.5: it decays in 2 ms, a third of the 6 ms between kinks; x 1.05 for the
///   overlap).
///
/// Total 2.65e-5 m: we allow 3e-5 m. It also never leaves the surface (v^2 kappa < g at crests).
#[test]
fn mass_on_sine_ridge_heightfield_follows_the_surface() {
    let (amp, lambda) = (0.05, 2.0);
    let h = |x: f64| amp * (2.0 * std::f64::consts::PI * x / lambda).sin();
    let field = Heightfield::from_fn(
        DVec3::new(0.0, -0.5, 0.0),
        DVec2::splat(0.01),
        401,
        101,
        |x, _| h(x),
    );
    let mut model = Model::new(params());
    // Start on the crest at x = 0.5 m (slope 0), 1 m/s along x.
    model.add_mass(Mass::new(0.1, DVec3::new(0.5, 0.0, h(0.5))).with_velocity(DVec3::X));
    model.add_obstacle(Obstacle::new(
        Shape::Heightfield(field),
        penalty(1e5, 100.0),
        Friction::NONE,
    ));
    let mut w = CpuWorld::new(&model).unwrap();
    let mut worst: f64 = 0.0;
    while w.position_slice()[0].x < 3.5 {
        w.step(10).unwrap();
        let p = w.position_slice()[0];
        worst = worst.max((p.z - h(p.x)).abs());
        assert!(w.time() < 10.0, "the mass stalled at {p}");
    }
    assert!(worst < 3e-5, "the mass left the surface by {worst} m");
}

/// A mass on the ground pushed into a wall (a box) by a constant 5 N feels both: it rests at
/// the ground's depth m g / k_c below z = 0 and the wall's depth F / k_w inside it. The fixed
/// point of the integrator is the force balance; after 1 s of damped contact (ratio >= 0.5 on
/// both) only rounding is left (positions ~0.5 m, ulp 1e-16, against depths of 1e-5 m).
#[test]
fn mass_touching_the_ground_and_a_wall_feels_both() {
    let (m, push) = (0.1, 5.0);
    let mut model = Model::new(Params {
        contact: penalty(1e5, 100.0),
        ..Params::default()
    });
    model.add_mass(Mass {
        external_force: DVec3::X * push,
        ..Mass::new(m, DVec3::new(0.4, 0.0, 0.0))
    });
    // Wall: the box x in [0.5, 0.7], reaching 0.1 m below the ground (a box standing on z = 0
    // would let a mass at the ground's penalty depth slide under it).
    model.add_obstacle(Obstacle::new(
        Shape::Box {
            centre: DVec3::new(0.6, 0.0, 0.4),
            half_extents: DVec3::new(0.1, 1.0, 0.5),
        },
        penalty(5e5, 300.0),
        Friction::NONE,
    ));
    let mut w = CpuWorld::new(&model).unwrap();
    w.step_for(1.0).unwrap();
    let p = w.position_slice()[0];
    let (ground, wall) = (m * G / 1e5, push / 5e5);
    assert!((-p.z - ground).abs() < 1e-9 * ground, "z = {}", p.z);
    assert!((p.x - 0.5 - wall).abs() < 1e-9 * wall, "x = {}", p.x);
}

/// The worst |balance - balance_0| over 0.6 s of a Lipson cube thrown onto a damped, rough slope
/// and a sphere (no ground), relative to the cube's initial mechanical energy.
fn obstacle_balance_error(dt: f64) -> f64 {
    let mut model = Model::new(Params { dt, ..params() });
    let mut cube = Cube::lipson().build().unwrap();
    Placement::at(DVec3::new(0.0, 0.0, 0.3))
        .with_velocity(DVec3::new(0.5, 0.2, 0.0))
        .apply(&mut cube)
        .unwrap();
    model.add("cube", cube);
    let slope = Slope {
        angle: 0.3,
        point: DVec3::ZERO,
    };
    model.add_obstacle(Obstacle::new(
        slope.shape().unwrap(),
        penalty(1e5, 20.0),
        Friction::coulomb(0.8, 0.6),
    ));
    model.add_obstacle(Obstacle::new(
        Shape::Sphere {
            centre: DVec3::new(0.05, 0.05, 0.05),
            radius: 0.1,
        },
        penalty(1e5, 0.0),
        Friction::coulomb(0.5, 0.4),
    ));
    let mut w = CpuWorld::new(&model).unwrap();
    let e0 = w.energy().unwrap();
    let mut worst: f64 = 0.0;
    for _ in 0..((0.6 / dt).round() as u64) {
        w.step(1).unwrap();
        worst = worst.max((w.energy().unwrap().balance() - e0.balance()).abs());
    }
    // (Not checked step by step: a step in which a contact's velocity reverses can book a few
    // uJ of positive work for friction or contact damping, on the ground just the same.)
    assert!(
        w.energy().unwrap().dissipated > 0.0,
        "the rough slope dissipated nothing"
    );
    worst / e0.total().abs()
}

/// Penalty energy of every obstacle is booked in the contact term and their damping and friction
/// in `dissipated`, so total + dissipated - injected stays put up to the integrator's error, which
/// is first order in dt (as for the ground, `tests/integration/cpu_physics.rs`): over a factor 8 in dt the
/// log-log slope of the worst error must be 1 (0.8..1.25, the spread the ground's test allows).
/// A term missing from the books would not shrink with dt (slope 0).
#[test]
fn energy_balance_with_obstacles_is_first_order_in_dt() {
    let coarse = obstacle_balance_error(2e-4);
    let mid = obstacle_balance_error(1e-4);
    let fine = obstacle_balance_error(2.5e-5);
    assert!(mid < 0.06, "relative balance error {mid} at dt = 1e-4");
    let slope = (coarse / fine).ln() / 8f64.ln();
    assert!(
        (0.8..1.25).contains(&slope),
        "balance error {coarse} at dt 2e-4, {fine} at 2.5e-5: order {slope}, expected 1"
    );
}

fn invalid(shape: Shape) -> Error {
    let mut model = Model::new(Params::default());
    model.add_mass(Mass::new(0.1, DVec3::Z));
    let fine = Shape::Sphere {
        centre: DVec3::new(5.0, 0.0, 0.0),
        radius: 1.0,
    };
    model.add_obstacle(Obstacle::new(fine, Contact::default(), Friction::NONE));
    model.add_obstacle(Obstacle::new(shape, Contact::default(), Friction::NONE));
    CpuWorld::new(&model).unwrap_err()
}

fn assert_names_obstacle_1(err: &Error, words: &str) {
    assert!(
        matches!(err, Error::InvalidObstacle { obstacle: 1, .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.starts_with("obstacle 1: ") && text.contains(words),
        "{text}"
    );
}

#[test]
fn zero_plane_normal_is_an_error_naming_the_obstacle() {
    let err = invalid(Shape::Plane {
        normal: DVec3::ZERO,
        offset: 0.0,
    });
    assert_names_obstacle_1(&err, "normal is zero");
}

#[test]
fn negative_half_extents_are_an_error_naming_the_obstacle() {
    let err = invalid(Shape::Box {
        centre: DVec3::ZERO,
        half_extents: DVec3::new(0.1, -0.1, 0.1),
    });
    assert_names_obstacle_1(&err, "half_extents");
    let err = invalid(Shape::OrientedBox {
        centre: DVec3::ZERO,
        half_extents: DVec3::new(0.1, 0.1, 0.0),
        rotation: DVec3::Z,
    });
    assert_names_obstacle_1(&err, "half_extents");
}

#[test]
fn negative_radius_is_an_error_naming_the_obstacle() {
    let err = invalid(Shape::Sphere {
        centre: DVec3::ZERO,
        radius: -0.5,
    });
    assert_names_obstacle_1(&err, "sphere radius = -0.5");
    let err = invalid(Shape::Capsule {
        a: DVec3::ZERO,
        b: DVec3::X,
        radius: f64::NAN,
    });
    assert_names_obstacle_1(&err, "capsule radius");
}

#[test]
fn non_finite_shape_position_is_an_error_naming_the_obstacle() {
    let err = invalid(Shape::Sphere {
        centre: DVec3::new(0.0, f64::INFINITY, 0.0),
        radius: 0.5,
    });
    assert_names_obstacle_1(&err, "sphere centre");
}

#[test]
fn heightfield_size_not_matching_its_samples_is_an_error_naming_the_obstacle() {
    let mut field = Heightfield::from_fn(DVec3::ZERO, DVec2::ONE, 3, 3, |_, _| 0.0);
    field.heights.pop();
    let err = invalid(Shape::Heightfield(field));
    assert_names_obstacle_1(&err, "needs 9 heights but has 8");
}

#[test]
fn nan_height_is_an_error_naming_the_obstacle_and_sample() {
    let mut field = Heightfield::from_fn(DVec3::ZERO, DVec2::ONE, 3, 3, |_, _| 0.0);
    field.heights[5] = f64::NAN;
    let err = invalid(Shape::Heightfield(field));
    assert_names_obstacle_1(&err, "height 5 (column 2, row 1) is NaN");
}

#[test]
fn bad_obstacle_restitution_is_an_error_naming_the_obstacle() {
    let mut model = Model::new(Params::default());
    model.add_obstacle(Obstacle::new(
        Shape::GROUND,
        Contact::Restitution { restitution: 1.5 },
        Friction::NONE,
    ));
    let err = model.validate().unwrap_err();
    assert!(matches!(err, Error::InvalidObstacle { obstacle: 0, .. }));
    assert!(err.to_string().contains("restitution = 1.5"));
}

/// The block on an incline above its friction angle on the GPU World (f32) slides at
/// g (sin theta - mu_k cos theta) too. Tolerance: positions ~0.5 m round to ~3e-8 m, so the
/// penalty depth (and with it N = k d ~ 0.86 N) is off by up to k 3e-8 = 3e-3 N each step,
/// kinetic friction by mu_k times that, the acceleration by 0.3 x 3e-3 / 0.1 = 9e-3 m/s^2; over
/// 1 s that is at most 9e-3 m/s against a t = 2.1 m/s (0.4 %) if every step erred the same way.
/// We allow 1 % relative.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn block_on_incline_slides_at_g_sin_minus_mu_cos_on_the_gpu() {
    let theta = 0.5_f64;
    let mu_k = 0.3;
    let cpu = block_on_incline(theta, Friction::coulomb(0.5, mu_k));
    let mut w = World::new(cpu.model()).unwrap();
    let x0 = w.positions().unwrap()[0];
    let (_, down) = frame(theta);
    let a = G * (theta.sin() - mu_k * theta.cos());
    w.step(10_000).unwrap();
    let v = w.velocities().unwrap()[0].dot(down);
    assert!(
        (v - a).abs() < 0.01 * a,
        "v = {v} m/s after 1 s, a t = {a} m/s"
    );
    let s = (w.positions().unwrap()[0] - x0).dot(down);
    assert!(
        (s - 0.5 * a).abs() < 0.01 * 0.5 * a,
        "s = {s} m, a t^2 / 2 = {}",
        0.5 * a
    );
}

/// An obstacle the GPU's f32 cannot hold is an error naming it, before any adapter is asked for.
#[test]
fn obstacle_beyond_f32_is_an_error_naming_the_obstacle() {
    let mut model = Model::new(Params::default());
    model.add_mass(Mass::new(0.1, DVec3::Z));
    model.add_obstacle(Obstacle::new(
        Shape::GROUND,
        Contact::default(),
        Friction::NONE,
    ));
    model.add_obstacle(Obstacle::new(
        Shape::Sphere {
            centre: DVec3::ZERO,
            radius: 1e39,
        },
        Contact::default(),
        Friction::NONE,
    ));
    let err = World::new(&model).unwrap_err();
    assert!(
        matches!(&err, Error::OutOfF32Range { element, .. } if element == "obstacle 1"),
        "{err:?}"
    );
}

/// The scene files of the repository load and run: no mass sinks into an obstacle or the ground
/// by more than 1 mm (penalty depths here are below 0.1 mm), and the cubes of the staircase
/// scenes come down. The walker and cube scenes are the terrain example's courses.
#[test]
fn slope_and_stairs_scene_files_load_and_run() {
    for (file, obstacles) in [
        ("slope.json", 1),
        ("stairs.json", 5),
        ("walker_slope.json", 1),
        ("walker_stairs.json", 8),
        ("walker_rough.json", 1),
        ("cube_stairs.json", 8),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(file);
        let model = Scene::load(&path).unwrap().to_model().unwrap();
        assert_eq!(model.obstacles.len(), obstacles, "{file}");
        let mut w = CpuWorld::new(&model).unwrap();
        let z0 = w.bodies().unwrap()[0].centre_of_mass.z;
        w.step_for(1.0).unwrap();
        for (i, &p) in w.position_slice().iter().enumerate() {
            assert!(p.z > -1e-3, "{file}: mass {i} under the ground at {p}");
            for (k, ob) in model.obstacles.iter().enumerate() {
                let d = ob.shape.surface(p).map_or(0.0, |s| s.distance);
                assert!(d > -1e-3, "{file}: mass {i} {d} m inside obstacle {k}");
            }
        }
        let z = w.bodies().unwrap()[0].centre_of_mass.z;
        if file.ends_with("stairs.json") && file != "walker_stairs.json" {
            assert!(z < z0 - 0.1, "{file}: centre of mass z {z0} -> {z}");
        }
    }
}

#[test]
fn typo_in_obstacle_shape_is_an_error() {
    // The American spelling is the typo: the field is `centre`.
    let text = r#"{ "version": 1, "obstacles": [ { "shape": { "type": "sphere", "center": [0, 0, 0], "radius": 1 } } ] }"#;
    assert!(matches!(
        Scene::from_json_str(text),
        Err(Error::SceneParse { .. })
    ));
    let ok = r#"{ "version": 1, "obstacles": [ { "shape": { "type": "sphere", "centre": [0, 0, 0], "radius": 1 } } ] }"#;
    let scene = Scene::from_json_str(ok).unwrap();
    assert_eq!(
        Scene::from_json_str(&scene.to_json_string()).unwrap(),
        scene
    );
    // The staircase helper's boxes, as used in scenes/stairs.json.
    let stairs = Staircase {
        start: DVec3::ZERO,
        steps: 2,
        rise: 0.1,
        run: 0.3,
        width: 1.0,
        footing: Staircase::FOOTING,
    };
    assert_eq!(stairs.shapes().unwrap().len(), 2);
}

/// The cube of `obstacle_balance_error` thrown at a tilted plane z' = 0 in a frame turned by `r`,
/// with gravity turned by `r^-1`: on the ground (`obstacle = false`) or on the same plane as an
/// obstacle in the world frame (positions and velocities turned by `r`).
fn tilted_cube(obstacle: bool, r: DQuat) -> CpuWorld {
    let contact = penalty(1e5, 20.0);
    let friction = Friction::coulomb(0.8, 0.6);
    let mut cube = Cube::lipson().build().unwrap();
    Placement::at(DVec3::new(0.0, 0.0, 0.3))
        .with_rotation(DVec3::new(0.3, 0.2, 0.1))
        .with_velocity(DVec3::new(0.5, 0.2, 0.0))
        .apply(&mut cube)
        .unwrap();
    let params = if obstacle {
        for m in &mut cube.masses {
            m.position = r * m.position;
            m.velocity = r * m.velocity;
        }
        params()
    } else {
        Params {
            gravity: r.inverse() * hooke::STANDARD_GRAVITY,
            contact,
            friction,
            ..Params::default()
        }
    };
    let mut model = Model::new(params);
    model.add("cube", cube);
    if obstacle {
        let shape = Shape::Plane {
            normal: r * DVec3::Z,
            offset: 0.0,
        };
        model.add_obstacle(Obstacle::new(shape, contact, friction));
    }
    CpuWorld::new(&model).unwrap()
}

/// A plane obstacle applies the ground's rules in its own frame: a cube thrown at a plane tilted
/// by 0.3 rad behaves as the same cube thrown at the ground under gravity tilted the other way.
/// Only rounding differs (turning vectors, projecting on a tilted normal: ~1e-16 relative per
/// step), and it grows through the bounces and friction switches of 0.5 s; we allow 1e-9 m.
#[test]
fn tilted_plane_obstacle_matches_the_ground_under_tilted_gravity() {
    let r = DQuat::from_rotation_y(-0.3);
    let mut ground = tilted_cube(false, r);
    let mut plane = tilted_cube(true, r);
    for _ in 0..50 {
        ground.step(100).unwrap();
        plane.step(100).unwrap();
        for (i, (g, p)) in ground
            .position_slice()
            .iter()
            .zip(plane.position_slice())
            .enumerate()
        {
            let diff = (r * *g - *p).length();
            assert!(
                diff < 1e-9,
                "mass {i} at t = {}: {diff} m apart",
                plane.time()
            );
        }
    }
    // Contact energy is booked the same way (within rounding of the depth k d^2 / 2).
    let (eg, ep) = (ground.energy().unwrap(), plane.energy().unwrap());
    assert!((eg.dissipated - ep.dissipated).abs() < 1e-9 * eg.dissipated);
}
