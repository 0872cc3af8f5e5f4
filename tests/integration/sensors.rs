//! Sensors (`Simulation::sense`) on both backends: physics checks against analytic answers,
//! CPU-vs-GPU parity on a tumbling, deforming body touching the ground and an obstacle, bit-identical
//! GPU reruns, and bad indices.

use crate::common;

use hooke::prelude::*;
use hooke::{Obstacle, Shape, STANDARD_GRAVITY};

/// f32 unit roundoff.
const U: f64 = f32::EPSILON as f64 / 2.0;

/// The spec reading everything of a one-body model with `masses` masses and `springs` springs.
fn everything(masses: usize, springs: usize) -> SensorSpec {
    SensorSpec {
        bodies: vec![0],
        orientation: true,
        contacts: (0..masses).collect(),
        springs: (0..springs).collect(),
    }
}

/// A cube of edge `a` (m) centred at `centre`, 0.1 kg corners joined by all 28 springs of
/// stiffness `k` (N/m) and damping `c` (N s/m).
fn cube(centre: DVec3, a: f64, k: f64, c: f64) -> Part {
    let mut part = Part::new();
    for i in 0..8 {
        let corner = DVec3::new(
            f64::from(i & 1) - 0.5,
            f64::from((i >> 1) & 1) - 0.5,
            f64::from((i >> 2) & 1) - 0.5,
        );
        part.add_mass(Mass::new(0.1, centre + a * corner));
    }
    for i in 0..8u32 {
        for j in i + 1..8 {
            let l = part.masses[i as usize]
                .position
                .distance(part.masses[j as usize].position);
            part.add_spring(Spring::hooke(i, j, k, l).with_damping(c));
        }
    }
    part
}

/// Angle (rad) of the rotation taking `a` to `b`.
fn angle_between(a: DMat3, b: DMat3) -> f64 {
    let r = a.transpose() * b;
    let cos = ((r.x_axis.x + r.y_axis.y + r.z_axis.z - 1.0) / 2.0).clamp(-1.0, 1.0);
    cos.acos()
}

/// A stiff cube spinning freely at `w` about its centre at the origin: every mass starts at
/// `v = w x r`. No gravity, no ground.
fn spinning_cube(w: DVec3) -> Model {
    let mut part = cube(DVec3::ZERO, 0.1, 1e4, 0.0);
    for m in &mut part.masses {
        m.velocity = w.cross(m.position);
    }
    let params = Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        ..Params::default()
    };
    let mut model = Model::new(params);
    model.add("cube", part);
    model
}

/// Checks a rigidly rotating body on `world`: at t = 0 it reads `w` and the identity, after
/// 0.5 s `w` still (angular momentum is conserved) and the rotation `exp(w t)`.
fn rotating<S: Simulation>(world: &mut S, w: DVec3, tol_w0: f64, tol_angle: f64, tol_w: f64) {
    let spec = SensorSpec {
        bodies: vec![0],
        orientation: true,
        ..SensorSpec::default()
    };
    let r = world.sense(&spec).unwrap().bodies[0];
    assert!(r.centre_of_mass.length() < 1e-7, "{}", r.centre_of_mass);
    assert!(angle_between(r.orientation.unwrap(), DMat3::IDENTITY) < tol_w0);
    let w0 = r.angular_velocity.unwrap();
    assert!((w0 - w).length() < tol_w0 * w.length(), "{w0} vs {w}");
    world.step_for(0.5).unwrap();
    let r = world.sense(&spec).unwrap();
    let expected = DMat3::from_axis_angle(w.normalize(), w.length() * r.time);
    let body = r.bodies[0];
    let angle = angle_between(body.orientation.unwrap(), expected);
    assert!(angle < tol_angle, "orientation off by {angle:e} rad");
    let wt = body.angular_velocity.unwrap();
    assert!(
        (wt - w).length() < tol_w * w.length(),
        "angular velocity {wt} vs {w}"
    );
}

/// A stiff cube (edge 0.1 m, corners 0.1 kg, k = 1e4 N/m) spinning at |w| = 1.87 rad/s reads its
/// angular velocity and, 0.5 s later, the rotation exp(w t).
///
/// Tolerances. At t = 0, v = w x r exactly, so L = I w: the CPU reads w to f64 rounding (1e-12
/// relative); the GPU's f32 positions and velocities are off by u = 6e-8 relative, its sums of 8
/// terms by 8 u, so w to 1e-5 relative (20x margin). The body is not perfectly rigid: the
/// centripetal force m w^2 r = 0.1 * 3.5 * 0.087 = 0.03 N stretches the springs by about
/// 0.03 / 1e4 = 3e-6 m, 3.5e-5 of the size, so I grows by up to 7e-5 (and vibrates by as much,
/// the cube starting unstretched): w = I^-1 L (L conserved exactly by central forces) is off by
/// 1e-4 at most, the angle after w t = 0.94 rad by 1e-4 rad. CPU bounds: 3e-4 (3x). The GPU
/// adds its rounding: each of the 5000 steps rounds positions (~0.05 m) by half an ulp, 2e-9 m,
/// summing to at most 1e-5 m = 1.2e-4 rad of the 0.087 m corner radius, and velocities (~0.16
/// m/s) by 7e-9 m/s, at most 3.7e-5 m/s = 2.3e-4 relative: GPU bounds 6e-4.
#[test]
fn rigidly_rotating_body_reads_its_angular_velocity_and_rotation() {
    let w = DVec3::new(0.5, -1.0, 1.5);
    let model = spinning_cube(w);
    let mut cpu = CpuWorld::new(&model).unwrap();
    rotating(&mut cpu, w, 1e-12, 3e-4, 3e-4);
    let mut gpu = common::world(&model);
    rotating(&mut gpu, w, 1e-5, 6e-4, 6e-4);
}

/// A body that has not moved reads the identity and no rotation, also when it is flat (cloth) or
/// a line (rope), where A has rank 2 or 1.
///
/// Tolerances: the CPU's A is the symmetric S0 = sum m (X - C)(X - C)^T up to f64 rounding, so the
/// identity to 1e-12. On the GPU positions and model offsets are rounded to f32 and A is a sum of
/// n terms: off by n u relative; the rotational part moves by at most twice that relative to the
/// largest singular value (the iteration does not turn about a degenerate axis: the torque
/// `sum r_k x a_k` has no component there), so 4 n u rad with n the body's masses.
#[test]
fn orientation_of_an_unmoved_body_is_identity() {
    let mut model = Model::new(Params::default());
    let turned = Placement {
        position: DVec3::new(3.0, -2.0, 1.0),
        rotation: DVec3::new(0.3, -0.2, 0.9),
        ..Placement::IDENTITY
    };
    model.add("cube", Cube::lipson().build_at(&turned).unwrap());
    model.add("cloth", Cloth::default().build_at(&turned).unwrap());
    model.add("rope", Rope::default().build_at(&turned).unwrap());
    let spec = SensorSpec {
        bodies: vec![0, 1, 2],
        orientation: true,
        ..SensorSpec::default()
    };
    let sizes: Vec<f64> = model.bodies.iter().map(|b| b.masses.len() as f64).collect();
    let mut cpu = CpuWorld::new(&model).unwrap();
    let mut gpu = common::world(&model);
    for (readings, gpu_side) in [
        (cpu.sense(&spec).unwrap(), false),
        (gpu.sense(&spec).unwrap(), true),
    ] {
        for (r, n) in readings.bodies.iter().zip(&sizes) {
            let tol = if gpu_side { 4.0 * n * U } else { 1e-12 };
            let angle = angle_between(r.orientation.unwrap(), DMat3::IDENTITY);
            assert!(angle < tol, "gpu {gpu_side}: {angle:e} rad > {tol:e}");
            assert_eq!(r.angular_velocity.unwrap(), DVec3::ZERO);
            assert_eq!(r.mean_velocity, DVec3::ZERO);
        }
    }
}

/// A damped cube resting on a damped penalty ground.
fn resting_cube() -> Model {
    let params = Params {
        contact: Contact::Penalty {
            stiffness: 1e5,
            damping: 100.0,
        },
        ..Params::default()
    };
    let mut model = Model::new(params);
    model.add("cube", cube(DVec3::new(0.0, 0.0, 0.05), 0.1, 1e4, 5.0));
    model
}

/// Settles the resting cube, then checks that the contact normal forces of one step sum to the
/// weight plus what changed the body's momentum in that step: `N = M (dv/dt - g)`, exactly the
/// mass pass's update summed over the masses (the spring forces cancel pairwise, there is no
/// friction or drag). Returns the total normal force, N.
fn contact_sum<S: Simulation>(world: &mut S, tol: f64) -> DVec3 {
    world.step_for(0.5).unwrap();
    let spec = SensorSpec {
        bodies: vec![0],
        contacts: (0..8).collect(),
        ..SensorSpec::default()
    };
    // The first call turns recording on and reads zeros.
    let first = world.sense(&spec).unwrap();
    assert!(first
        .contacts
        .iter()
        .all(|c| *c == ContactReading::default()));
    world.step(1).unwrap();
    let v1 = world.sense(&spec).unwrap().bodies[0].mean_velocity;
    world.step(1).unwrap();
    let r = world.sense(&spec).unwrap();
    let v2 = r.bodies[0].mean_velocity;
    let n: DVec3 = r.contacts.iter().map(|c| c.normal_force).sum();
    let m = 0.8;
    let expected = m * ((v2 - v1) / world.dt() - STANDARD_GRAVITY);
    assert!((n - expected).length() < tol, "{n} vs {expected}");
    // The bottom face touches, the top does not.
    let touching: Vec<bool> = r.contacts.iter().map(|c| c.touching).collect();
    assert_eq!(
        touching,
        [true, true, true, true, false, false, false, false]
    );
    n
}

/// A resting body's contact normal forces sum to its weight, on both backends.
///
/// Tolerances: on the CPU the relation N = M (dv/dt - g) holds to f64 rounding of the mean
/// velocities (1e-16 m/s over dt = 1e-4 s): 1e-9 N. On the GPU each velocity update v + a dt
/// rounds by half an ulp of ~1e-3 m/s, 6e-11 m/s, 6e-7 m/s^2 over dt, 5e-7 N for 0.8 kg; the
/// fixed-point spring sums cancel within a quantum per spring (28 quanta); the f32 normal forces
/// (~2 N each) sum with 8 u relative: 1e-5 N bounds them all. After 0.5 s the cube is at rest to
/// |dv/dt| < 1e-3 g (measured through the same relation), so N = M g to 1e-3 relative.
#[test]
fn resting_body_contact_forces_sum_to_its_weight() {
    let model = resting_cube();
    let weight = 0.8 * 9.80665;
    let mut cpu = CpuWorld::new(&model).unwrap();
    let n = contact_sum(&mut cpu, 1e-9);
    assert!((n.z - weight).abs() < 1e-3 * weight, "{n}");
    let mut gpu = common::world(&model);
    let quanta = 28.0 * gpu.fixed_point().quantum;
    let n = contact_sum(&mut gpu, 1e-5 + quanta);
    assert!((n.z - weight).abs() < 1e-3 * weight, "{n}");
    // Reset clears the records: zeros again.
    gpu.reset();
    let r = gpu
        .sense(&SensorSpec {
            contacts: vec![0],
            ..SensorSpec::default()
        })
        .unwrap();
    assert_eq!(r.contacts[0], ContactReading::default());
}

/// A spring pulled by a known force F settles at k x = F: strain F / (k L0).
///
/// Tolerances: critically damped (c = 2 sqrt(k m)), the residual after 3 s is
/// (1 + w t) e^(-w t) = 3e-12 of the 0.1 m start offset (w = 10 rad/s): the CPU strain to 1e-9.
/// The GPU's f32 length (0.6 m) is off by at most 2 u 0.6 = 7e-8 m, its fixed-point force by a
/// quantum q, shifting the rest point by q / k; and an f32 position stops moving once
/// `v dt` is below half its ulp, `v < u L / dt`, where damping holds a force up to
/// `c u L / dt` (7e-4 N), a rest point off by `c u L / (dt k)` = 7e-6 m: strain to
/// 2 (2 u L + q / k + c u L / (dt k)) / L0.
#[test]
fn spring_strain_under_a_known_static_load() {
    let (k, l0, f) = (100.0, 0.5, 10.0);
    let mut part = Part::new();
    let anchor = part.add_mass(Mass::new(1.0, DVec3::ZERO).fixed());
    let bob = part.add_mass(Mass::new(1.0, DVec3::new(l0, 0.0, 0.0)));
    let c = 2.0 * (k * 1.0_f64).sqrt();
    part.add_spring(Spring::hooke(anchor, bob, k, l0).with_damping(c));
    part.masses[bob as usize].external_force = DVec3::new(f, 0.0, 0.0);
    let params = Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        dt: 1e-3,
        ..Params::default()
    };
    let mut model = Model::new(params);
    model.add("spring", part);
    let spec = SensorSpec {
        springs: vec![0],
        ..SensorSpec::default()
    };
    let expected = f / (k * l0);
    let mut cpu = CpuWorld::new(&model).unwrap();
    cpu.step_for(3.0).unwrap();
    let s = cpu.sense(&spec).unwrap().springs[0];
    assert!((s.strain - expected).abs() < 1e-9, "{s:?}");
    assert!((s.length - l0 * (1.0 + expected)).abs() < 1e-9);
    let mut gpu = common::world(&model);
    gpu.step_for(3.0).unwrap();
    let s = gpu.sense(&spec).unwrap().springs[0];
    let (l, dt) = (0.6, 1e-3);
    let tol = 2.0 * (2.0 * U * l + gpu.fixed_point().quantum / k + c * U * l / (dt * k)) / l0;
    assert!((s.strain - expected).abs() < tol, "{s:?}, tol {tol:e}");
}

/// A soft cube thrown spinning into the ground and against a box.
fn tumbling() -> Model {
    let contact = Contact::Penalty {
        stiffness: 1e5,
        damping: 50.0,
    };
    let params = Params {
        contact,
        ..Params::default()
    };
    let mut model = Model::new(params);
    let centre = DVec3::new(0.1, 0.0, 0.048);
    let mut part = cube(centre, 0.1, 2000.0, 1.0);
    let w = DVec3::new(3.0, 8.0, 2.0);
    for m in &mut part.masses {
        m.velocity = DVec3::new(0.5, 0.1, -0.3) + w.cross(m.position - centre);
    }
    model.add("cube", part);
    model.obstacles.push(Obstacle::new(
        Shape::Box {
            centre: DVec3::new(0.2, 0.0, 0.2),
            half_extents: DVec3::new(0.05, 0.5, 0.2),
        },
        contact,
        Friction::NONE,
    ));
    model
}

/// Largest distance between matching vectors.
fn max_dist(a: &[DVec3], b: &[DVec3]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.distance(*y))
        .fold(0.0, f64::max)
}

/// CPU and GPU sensors agree on a tumbling, deforming cube touching the ground and a box.
///
/// The trajectories themselves are the parity suite's business (tests/integration/parity.rs); here the
/// sensor readings must follow from the states each backend holds. With `ex`, `ev` the largest
/// position and velocity differences of the two states now and at the start of the last step
/// (the contacts are that step's), `n = 8` masses, `M = 0.8` kg, the cube's edge `a = 0.1` m, its
/// largest corner distance `rho` from the centre and speed `V` relative to it:
/// - centre: `ex` plus the f32 sum of `m r` (8 terms of |r| <= 0.2 m): `ex + n u 0.2`;
///   velocity: `ev + n u |v|max`.
/// - orientation: the polar factor moves by at most `2 |dA| / (s2 + s3)` (s the singular
///   values of A); `|dA| <= M (2 ex + n u 0.2) rho` and for this cube, kept within 20 % strain
///   (checked below), `s2 + s3 >= 2 * 0.64 M a^2 / 4`.
/// - angular velocity: `|dw| <= (|dL| + |dI| |w|) / lambda_min(I)`, with
///   `|dL| <= M (2 ex V + rho 2 ev)`, `|dI| <= 4 M rho 2 ex`, and `lambda_min(I) >= 0.64 M a^2 / 2`;
///   plus the same f32 sums: `n u` relative on each.
/// - contact normal force per mass: `k ex + c ev` per surface (two surfaces) plus `u` of it;
///   flags may differ only for a mass within `ex` of a surface.
/// - spring length: `2 ex + u L`, strain that over `L0`.
#[test]
fn cpu_and_gpu_sensors_agree_on_a_tumbling_body() {
    let model = tumbling();
    let spec = everything(8, 28);
    let mut cpu = CpuWorld::new(&model).unwrap();
    let mut gpu = common::world(&model);
    cpu.sense(&spec).unwrap();
    gpu.sense(&spec).unwrap();
    cpu.step(199).unwrap();
    gpu.step(199).unwrap();
    let pos_before = cpu.positions().unwrap();
    let ex0 = max_dist(&pos_before, &gpu.positions().unwrap());
    let ev0 = max_dist(&cpu.velocities().unwrap(), &gpu.velocities().unwrap());
    cpu.step(1).unwrap();
    gpu.step(1).unwrap();
    let (cx, cv) = (cpu.positions().unwrap(), cpu.velocities().unwrap());
    let ex = ex0.max(max_dist(&cx, &gpu.positions().unwrap()));
    let ev = ev0.max(max_dist(&cv, &gpu.velocities().unwrap()));
    let c = cpu.sense(&spec).unwrap();
    let g = gpu.sense(&spec).unwrap();
    println!("state differences: {ex:e} m, {ev:e} m/s");
    let n = 8.0;
    let (m_total, a) = (0.8, 0.1);
    let (cb, gb) = (c.bodies[0], g.bodies[0]);
    let rho = cx
        .iter()
        .map(|x| x.distance(cb.centre_of_mass))
        .fold(0.0, f64::max);
    let speed = cv
        .iter()
        .map(|v| v.distance(cb.mean_velocity))
        .fold(0.0, f64::max);
    let vmax = cv.iter().map(|v| v.length()).fold(0.0, f64::max);
    let max_strain = c.springs.iter().map(|s| s.strain.abs()).fold(0.0, f64::max);
    assert!(
        max_strain < 0.2,
        "the cube deforms more than the bounds assume: {max_strain}"
    );
    assert!(max_strain > 1e-3, "the cube should deform: {max_strain}");
    let tol_c = ex + n * U * 0.2;
    assert!(
        cb.centre_of_mass.distance(gb.centre_of_mass) <= tol_c,
        "{} vs {}",
        cb.centre_of_mass,
        gb.centre_of_mass
    );
    let tol_v = ev + n * U * vmax;
    assert!(cb.mean_velocity.distance(gb.mean_velocity) <= tol_v);
    let da = m_total * (2.0 * ex + n * U * 0.2) * rho;
    let tol_r = 2.0 * da / (2.0 * 0.64 * m_total * a * a / 4.0);
    let angle = angle_between(cb.orientation.unwrap(), gb.orientation.unwrap());
    assert!(angle <= tol_r, "orientation: {angle:e} rad > {tol_r:e}");
    let (cw, gw) = (cb.angular_velocity.unwrap(), gb.angular_velocity.unwrap());
    assert!(cw.length() > 1.0, "the cube should tumble: {cw}");
    let dl = m_total * (2.0 * ex * speed + rho * 2.0 * ev) + n * U * m_total * rho * speed;
    let di = 4.0 * m_total * rho * 2.0 * ex + n * U * m_total * rho * rho;
    let tol_w = (dl + di * cw.length()) / (0.64 * m_total * a * a / 2.0);
    assert!(
        cw.distance(gw) <= tol_w,
        "angular velocity {cw} vs {gw}, tol {tol_w:e}"
    );
    println!(
        "observed / tolerance: centre {:.2e}, orientation {:.2e}, angular velocity {:.2e}",
        cb.centre_of_mass.distance(gb.centre_of_mass) / tol_c,
        angle / tol_r,
        cw.distance(gw) / tol_w
    );
    let (k, damping) = (1e5, 50.0);
    let mut touching = 0;
    for (i, (cc, gc)) in c.contacts.iter().zip(&g.contacts).enumerate() {
        let tol = 2.0 * (k * ex + damping * ev) + U * cc.normal_force.length();
        assert!(
            cc.normal_force.distance(gc.normal_force) <= tol,
            "mass {i}: {cc:?} vs {gc:?}"
        );
        if cc.touching != gc.touching {
            let x = pos_before[i];
            let box_distance = model.obstacles[0].shape.surface(x).unwrap().distance;
            assert!(
                x.z.abs().min(box_distance.abs()) <= ex,
                "mass {i}: flags differ"
            );
        }
        touching += usize::from(cc.touching);
    }
    assert!(touching > 0, "the cube should touch something");
    for (s, (cs, gs)) in c.springs.iter().zip(&g.springs).enumerate() {
        let tol = 2.0 * ex + U * cs.length;
        assert!((cs.length - gs.length).abs() <= tol, "spring {s}");
        let rest = cs.length / (1.0 + cs.strain);
        assert!(
            (cs.strain - gs.strain).abs() <= tol / rest * (1.0 + 1e-9),
            "spring {s}"
        );
    }
}

/// Two GPU runs of the same scene read bit-identical sensors.
#[test]
fn gpu_sense_reruns_are_bit_identical() {
    let model = tumbling();
    let spec = everything(8, 28);
    let run = || {
        let mut gpu = common::world(&model);
        gpu.sense(&spec).unwrap();
        gpu.step(150).unwrap();
        let first = gpu.sense(&spec).unwrap();
        gpu.step(50).unwrap();
        (first, gpu.sense(&spec).unwrap())
    };
    assert_eq!(run(), run());
}

/// A body, mass or spring index out of range is an error naming it, on both backends.
#[test]
fn sense_names_an_out_of_range_body_mass_or_spring() {
    let model = resting_cube();
    let mut cpu = CpuWorld::new(&model).unwrap();
    let mut gpu = common::world(&model);
    let bad = [
        (
            SensorSpec {
                bodies: vec![0, 1],
                ..SensorSpec::default()
            },
            "body index 1",
        ),
        (
            SensorSpec {
                contacts: vec![8],
                ..SensorSpec::default()
            },
            "mass index 8",
        ),
        (
            SensorSpec {
                springs: vec![3, 28],
                ..SensorSpec::default()
            },
            "spring index 28",
        ),
    ];
    for (spec, what) in bad {
        for e in [cpu.sense(&spec).unwrap_err(), gpu.sense(&spec).unwrap_err()] {
            assert!(matches!(e, Error::IndexOutOfRange { .. }), "{what}: {e}");
            assert!(e.to_string().contains(what), "{what}: {e}");
        }
    }
    // An empty spec reads only the time.
    let r = gpu.sense(&SensorSpec::default()).unwrap();
    assert_eq!(r, Readings::default());
}

/// Recording contacts (compiled into `integrate` on the GPU, written by the CPU mass pass) does
/// not change a bit of the trajectory, on either backend.
#[test]
fn recording_contacts_leaves_the_trajectory_bit_identical() {
    let model = tumbling();
    let spec = SensorSpec {
        contacts: vec![0, 5],
        ..SensorSpec::default()
    };
    let mut plain = common::world(&model);
    let mut sensed = common::world(&model);
    sensed.sense(&spec).unwrap();
    plain.step(100).unwrap();
    sensed.step(100).unwrap();
    assert_eq!(plain.positions().unwrap(), sensed.positions().unwrap());
    assert_eq!(plain.velocities().unwrap(), sensed.velocities().unwrap());
    let mut plain = CpuWorld::new(&model).unwrap();
    let mut sensed = CpuWorld::new(&model).unwrap();
    sensed.sense(&spec).unwrap();
    plain.step(100).unwrap();
    sensed.step(100).unwrap();
    assert_eq!(plain.position_slice(), sensed.position_slice());
}
