//! Collisions between masses on the CPU reference: the pair force, its broad phase,
//! exclusions, energy booking, validation and scene files. The GPU twin is held to these by
//! `tests/integration/parity.rs` (`collisions_of_every_kind`) and `tests/integration/gpu_collisions.rs`.

use crate::common;

use common::collision_scenes;
use hooke::{
    BodyCollision, BodyKind, BodySpec, Builder, ClassCollision, Collision, Contact, CpuWorld,
    DVec3, Error, Lattice, Mass, Model, Params, Part, Scene, Spring,
};

/// f64 unit roundoff.
const EPS: f64 = f64::EPSILON / 2.0;

/// Free space: no gravity, no ground, default collisions (100 000 N/m, undamped, frictionless).
fn free_space() -> Params {
    Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        ..Params::default()
    }
}

/// An undamped 4 x 4 x 4 jelly cube (`collision_scenes::jelly`: 0.01 m spacing, 0.1 kg masses,
/// k = 1000 N/m, collision radius 0.005 m) with its lowest corner at `corner`, moving at
/// `velocity`.
fn jelly(corner: DVec3, velocity: DVec3) -> Part {
    collision_scenes::jelly(4, corner, velocity, 0.0)
}

/// Two jelly cubes 0.02 m apart along x (faces 0.01 m apart beyond contact), closing at 1 m/s.
fn head_on(dt: f64) -> Model {
    let mut model = Model::new(Params { dt, ..free_space() });
    model.add("left", jelly(DVec3::ZERO, DVec3::new(0.5, 0.0, 0.0)));
    model.add(
        "right",
        jelly(DVec3::new(0.05, 0.0, 0.0), DVec3::new(-0.5, 0.0, 0.0)),
    );
    model
}

fn momentum(w: &CpuWorld) -> DVec3 {
    w.velocity_slice()
        .iter()
        .zip(&w.model().masses)
        .map(|(v, m)| m.mass * *v)
        .sum()
}

/// Two jelly cubes collide head-on in free space: they bounce apart, total momentum stays zero
/// to rounding, and no mass of one comes within half the contact distance of the other's.
#[test]
fn head_on_jelly_cubes_conserve_momentum_and_do_not_interpenetrate() {
    let model = head_on(1e-4);
    let mut w = CpuWorld::new(&model).unwrap();
    let (left, right) = (
        model.bodies[0].masses.clone(),
        model.bodies[1].masses.clone(),
    );
    let mut closest = f64::INFINITY;
    let mut touched = false;
    for _ in 0..600 {
        w.step(1).unwrap();
        touched |= !w.contacts().is_empty();
        let p = w.position_slice();
        for a in left.clone() {
            for b in right.clone() {
                closest = closest.min(p[a].distance(p[b]));
            }
        }
    }
    assert!(touched, "the cubes never touched");
    // Contact distance 0.01 m; an elastic bounce of relative speed 1 m/s on a reduced mass of
    // 0.05 kg overlaps by at most sqrt(0.05 * 1 / 1e5) = 7e-4 m per pair, far above half.
    assert!(closest >= 0.5 * 0.01, "masses came within {closest} m");
    // They bounced: each cube now moves away from the other.
    let vx = |r: std::ops::Range<usize>| {
        r.clone().map(|i| w.velocity_slice()[i].x).sum::<f64>() / r.len() as f64
    };
    assert!(vx(left) < -0.1 && vx(right) > 0.1, "no bounce");
    // Momentum: every pair force and spring force is applied as exact negatives, so only the
    // rounding of the sums and of each update v + F dt / m moves the total. Per mass and step
    // that is at most a few ulps of m (|v| + |dv|): with |v| <= sqrt(2 E / m) = 5.7 m/s (E =
    // 1.6 J, all kinetic energy on one 0.1 kg mass) and force sums of <= 30 terms of <= 100 N
    // (dv <= 30 * 100 N * 1e-4 s / 0.1 kg * eps), 0.1 * (2 * 5.7 + 3) eps = 1.5 eps per mass
    // and step; 128 masses over 600 steps: 1.2e5 eps = 1.3e-11 kg m/s. Tolerance 1e-10.
    let p = momentum(&w);
    assert!(p.length() < 1e-10, "momentum {p} kg m/s");
    const { assert!(1.2e5 * 1.5 * EPS < 1e-10) };
}

/// Worst |balance - balance_0| over a 0.03 s head-on collision, relative to the initial energy.
fn worst_balance_error(dt: f64) -> f64 {
    let mut w = CpuWorld::new(&head_on(dt)).unwrap();
    let e0 = w.energy().unwrap();
    let mut worst: f64 = 0.0;
    for _ in 0..(0.03 / dt).round() as u64 {
        w.step(1).unwrap();
        worst = worst.max((w.energy().unwrap().balance() - e0.balance()).abs());
    }
    worst / e0.total()
}

/// Undamped collision: the penalty energy is booked (in `Energy::ground`), so the balance stays
/// within the O(dt) excursion of symplectic Euler and shrinks with dt.
///
/// Symplectic Euler conserves a modified energy; on an oscillator of angular frequency omega the
/// measured energy wanders by at most omega dt / 2 of it. `stable_dt().omega` bounds the stiffest
/// mode (springs plus the collision stiffness), so the bound is omega dt / 2 of the energy.
/// Unbooked penalty energy would show as the whole contact energy (most of the kinetic energy
/// at the turn), far above it.
#[test]
fn head_on_energy_balance_is_first_order() {
    let omega = head_on(1e-4).stable_dt().omega;
    let mid = worst_balance_error(1e-4);
    assert!(
        mid < 0.5 * omega * 1e-4,
        "relative balance error {mid} at dt = 1e-4 (bound {})",
        0.5 * omega * 1e-4
    );
    // First order: over a factor 8 in dt the error shrinks by about 8 (log slope 1; 0.7..1.3
    // allows the scatter of the contact phase; no booking error would show slope 0).
    let coarse = worst_balance_error(2e-4);
    let fine = worst_balance_error(2.5e-5);
    let slope = (coarse / fine).ln() / 8f64.ln();
    assert!(
        (0.7..1.3).contains(&slope),
        "balance error {coarse} at 2e-4, {fine} at 2.5e-5: order {slope}"
    );
}

/// With collision damping and friction on, a glancing collision (the cubes offset by half their
/// width in y, sliding past each other at 0.4 m/s) dissipates energy, booked in `dissipated`: the
/// balance stays within the same O(dt) bound as the undamped collision.
#[test]
fn damped_glancing_collision_books_its_dissipation() {
    let mut model = Model::new(Params {
        collision: Collision {
            damping: 20.0,
            friction: 0.5,
            ..Collision::default()
        },
        ..free_space()
    });
    model.add("left", jelly(DVec3::ZERO, DVec3::new(0.5, 0.2, 0.0)));
    model.add(
        "right",
        jelly(DVec3::new(0.05, 0.015, 0.0), DVec3::new(-0.5, -0.2, 0.0)),
    );
    let omega = model.stable_dt().omega;
    let mut w = CpuWorld::new(&model).unwrap();
    let e0 = w.energy().unwrap();
    for _ in 0..300 {
        w.step(1).unwrap();
        let e = w.energy().unwrap();
        // omega dt / 2 of the energy, as in head_on_energy_balance_is_first_order.
        let error = (e.balance() - e0.balance()).abs();
        assert!(
            error < 0.5 * omega * 1e-4 * e0.total(),
            "balance off by {error} J"
        );
    }
    // Each step books the work of the damping and friction forces over the mean velocity of
    // the step, so a step where a relative velocity turns can book a little negative work (the
    // balance above is the check of the booking); over the collision they took a visible share.
    let dissipated = w.energy().unwrap().dissipated;
    assert!(
        dissipated > 0.01 * e0.total(),
        "only {dissipated} J of {} J dissipated",
        e0.total()
    );
}

/// A small deterministic generator (xorshift64*), so the cloud needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A random cloud of 600 masses in a 0.2 m box: radii 0 to 0.02 m (one in five 0), groups and
/// masks from 3 bits, 4 bodies (two without self-collision), and springs between random pairs.
/// Body `b` is moved `b * spread` m along x (a spread of 100 m leaves most of the grid's box
/// empty, so the grid hashes its cells instead of numbering them densely).
fn cloud(seed: u64, spread: f64) -> Model {
    let mut rng = Rng(seed);
    let mut model = Model::new(free_space());
    for b in 0..4 {
        let mut part = Part::new().with_self_collision(b % 2 == 0);
        for _ in 0..150 {
            let p = DVec3::new(rng.unit(), rng.unit(), rng.unit()) * 0.2
                + DVec3::X * spread * f64::from(b);
            let mut m = Mass::new(0.1, p);
            m.collision_radius = if rng.next().is_multiple_of(5) {
                0.0
            } else {
                0.02 * rng.unit()
            };
            m.collision_group = 1 << (rng.next() % 3);
            m.collision_mask = (rng.next() % 8) as u32 | 1;
            m.fixed = rng.next().is_multiple_of(10);
            part.add_mass(m);
        }
        for _ in 0..200 {
            let (a, c) = ((rng.next() % 150) as u32, (rng.next() % 150) as u32);
            if a != c {
                part.connect(a, c, 10.0, 0.0);
            }
        }
        model.add(format!("body {b}"), part);
    }
    model
}

/// The rules of the `Collision` docs, checked on every pair (O(n^2)).
fn brute_force(model: &Model, pos: &[DVec3]) -> Vec<[usize; 2]> {
    let joined: std::collections::HashSet<(usize, usize)> = model
        .springs
        .iter()
        .map(|s| (s.a.min(s.b) as usize, s.a.max(s.b) as usize))
        .collect();
    let body = |i: usize| model.bodies.iter().position(|b| b.masses.contains(&i));
    let mut out = Vec::new();
    for a in 0..pos.len() {
        for b in a + 1..pos.len() {
            let (ma, mb) = (&model.masses[a], &model.masses[b]);
            let reach = ma.collision_radius + mb.collision_radius;
            let same_body_off =
                body(a) == body(b) && body(a).is_some_and(|k| !model.bodies[k].self_collision);
            if ma.collision_radius > 0.0
                && mb.collision_radius > 0.0
                && pos[a].distance_squared(pos[b]) < reach * reach
                && ma.collides_with(mb)
                && !(ma.fixed && mb.fixed)
                && !same_body_off
                && !joined.contains(&(a, b))
            {
                out.push([a, b]);
            }
        }
    }
    out
}

/// The grid finds exactly the pairs a brute-force check over all pairs finds, on random clouds
/// (varied radii, groups and masks, bodies with and without self-collision, springs), compact
/// (dense cell numbering) and spread out (hashed cells), before and after the masses move.
#[test]
fn grid_finds_the_pairs_brute_force_finds() {
    for (seed, spread) in [(1, 0.0), (2, 0.0), (3, 100.0), (4, 100.0)] {
        let model = cloud(0x9E37_79B9 + seed, spread);
        let mut w = CpuWorld::new(&model).unwrap();
        let mut pairs = 0;
        for _ in 0..3 {
            let expected = brute_force(&model, w.position_slice());
            pairs += expected.len();
            assert_eq!(w.contacts(), expected, "seed {seed}");
            w.step(10).unwrap();
        }
        assert!(pairs > 20, "seed {seed}: too few pairs to test ({pairs})");
    }
}

/// Regression: a mass exactly on a cell corner (cells are the largest diameter, 0.1 m, so a
/// coordinate of 0.1 starts a cell) finds its neighbours in the cells below it, and they push;
/// with dense cell numbering and, with a fourth mass 1 km away, hashed cells.
#[test]
fn mass_exactly_on_a_cell_boundary_collides() {
    for (x, far) in [
        (0.1, false),
        (-0.1, false),
        (0.0, false),
        (0.1, true),
        (-0.1, true),
    ] {
        let mut model = Model::new(free_space());
        let mut part = Part::new();
        let at = |p: DVec3| Mass::new(0.1, p).with_collision_radius(0.05);
        part.add_mass(at(DVec3::splat(x)));
        // 0.09 m below in x; 0.071 m below in y and z (0.114 m from each other: no contact).
        part.add_mass(at(DVec3::new(x - 0.09, x, x)));
        part.add_mass(at(DVec3::new(x, x - 0.05, x - 0.05)));
        if far {
            part.add_mass(at(DVec3::new(1000.0, 0.0, 0.0)));
        }
        model.add("three", part);
        let mut w = CpuWorld::new(&model).unwrap();
        assert_eq!(w.contacts(), vec![[0, 1], [0, 2]], "at x = {x}");
        w.step(1).unwrap();
        let v = w.velocity_slice();
        assert!(
            v[0].x > 0.0 && v[1].x < 0.0 && v[2].y < 0.0 && v[2].z < 0.0,
            "at x = {x}: {v:?}"
        );
    }
}

/// Regression: masses of radius 0 never collide, even on top of a colliding mass; nothing moves.
#[test]
fn masses_with_radius_zero_never_collide() {
    let mut model = Model::new(free_space());
    let mut part = Part::new();
    part.add_mass(Mass::new(0.1, DVec3::ZERO).with_collision_radius(0.1));
    part.add_mass(Mass::new(0.1, DVec3::new(0.001, 0.0, 0.0)));
    part.add_mass(Mass::new(0.1, DVec3::new(0.0, 0.001, 0.0)));
    model.add("points", part);
    let mut w = CpuWorld::new(&model).unwrap();
    assert!(w.contacts().is_empty());
    w.step(10).unwrap();
    assert!(w.velocity_slice().iter().all(|v| *v == DVec3::ZERO));
    assert_eq!(w.energy().unwrap().ground, 0.0);
}

/// Masses joined by a spring never collide with each other, but do with a third.
#[test]
fn spring_neighbours_never_collide() {
    let mut model = Model::new(free_space());
    let mut part = Part::new();
    let a = part.add_mass(Mass::new(0.1, DVec3::ZERO).with_collision_radius(0.05));
    let b = part.add_mass(Mass::new(0.1, DVec3::new(0.02, 0.0, 0.0)).with_collision_radius(0.05));
    // 0.086 m from mass 0, 0.103 m from mass 1.
    part.add_mass(Mass::new(0.1, DVec3::new(-0.07, 0.05, 0.0)).with_collision_radius(0.05));
    part.add_spring(Spring::hooke(b, a, 100.0, 0.02)); // listed from the higher mass
    model.add("dumbbell and ball", part);
    let w = CpuWorld::new(&model).unwrap();
    assert_eq!(w.contacts(), vec![[0, 2]]);
}

/// Self-collision off: a body's own masses pass through one another, but still collide with
/// another body (also with self-collision off).
#[test]
fn self_collision_off_ignores_own_masses_only() {
    let pair = |x: f64| {
        let mut part = Part::new();
        part.add_mass(Mass::new(0.1, DVec3::new(x, 0.0, 0.0)));
        part.add_mass(Mass::new(0.1, DVec3::new(x + 0.01, 0.0, 0.0)));
        part.with_collision_radius(0.02)
    };
    let mut model = Model::new(free_space());
    model.add("on", pair(0.0));
    assert_eq!(CpuWorld::new(&model).unwrap().contacts(), vec![[0, 1]]);
    let mut model = Model::new(free_space());
    model.add("off", pair(0.0).with_self_collision(false));
    model.add("off too", pair(0.03).with_self_collision(false));
    // 0.03 m apart across the bodies (touching), never [0, 1] or [2, 3].
    assert_eq!(
        CpuWorld::new(&model).unwrap().contacts(),
        vec![[0, 2], [1, 2], [1, 3]]
    );
}

/// Two bodies whose groups mask each other out, overlapping and falling on the ground, give
/// exactly the bits each gives alone (each self-colliding, so the collision pass runs).
#[test]
fn bodies_that_mask_each_other_out_give_the_bits_of_each_run_alone() {
    let body = |k: u32, x: f64| {
        jelly(DVec3::new(x, 0.0, 0.02), DVec3::new(0.1, 0.0, 0.0))
            .with_collision_filter(1 << k, 1 << k)
    };
    let run = |parts: &[(u32, f64)]| {
        let mut model = Model::new(Params::default());
        for &(k, x) in parts {
            model.add(format!("body {k}"), body(k, x));
        }
        let mut w = CpuWorld::new(&model).unwrap();
        w.step(2000).unwrap();
        (w.position_slice().to_vec(), w.velocity_slice().to_vec())
    };
    let (p, v) = run(&[(0, 0.0), (1, 0.015)]);
    let (p0, v0) = run(&[(0, 0.0)]);
    let (p1, v1) = run(&[(1, 0.015)]);
    assert_eq!(p[..64], p0[..]);
    assert_eq!(v[..64], v0[..]);
    assert_eq!(p[64..], p1[..]);
    assert_eq!(v[64..], v1[..]);
    // The test can fail: in one group the same two bodies collide and both change.
    let (q, _) = run(&[(0, 0.0), (0, 0.015)]);
    assert_ne!(q[..64], p0[..]);
    assert_ne!(q[64..], p1[..]);
}

/// The collision pass gives the same bits on 1 and 4 threads (4160 colliding masses, above the
/// 4096 where it starts to use threads), and from run to run.
#[test]
fn collisions_are_independent_of_thread_count() {
    let run = |threads: usize| {
        let mut model = Model::new(Params::default());
        let lattice = Lattice::benchmark(16).build().unwrap();
        model.add("lattice", lattice.with_collision_radius(0.006));
        model.add(
            "ball",
            jelly(DVec3::new(0.05, 0.05, 0.25), DVec3::new(0.0, 0.0, -2.0)),
        );
        let mut w = CpuWorld::new(&model).unwrap();
        w.set_threads(threads);
        let mut touched = false;
        for _ in 0..30 {
            w.step(10).unwrap();
            touched |= !w.contacts().is_empty();
        }
        assert!(touched, "the ball never touched the lattice");
        w.position_slice().to_vec()
    };
    let one = run(1);
    assert_eq!(one, run(4));
    assert_eq!(one, run(4));
}

/// Bad collision values are errors naming the mass or parameter.
#[test]
fn bad_collision_values_are_errors_naming_the_element() {
    let mut model = Model::new(free_space());
    model.add("two", jelly(DVec3::ZERO, DVec3::ZERO));
    for bad in [-0.01, f64::NAN, f64::INFINITY] {
        let mut m = model.clone();
        m.masses[7].collision_radius = bad;
        match m.validate() {
            Err(Error::InvalidCollisionRadius { mass: 7, value }) => {
                assert!(value.to_bits() == bad.to_bits());
            }
            other => panic!("radius {bad}: {other:?}"),
        }
    }
    for (name, c) in [
        (
            "collision.stiffness",
            Collision {
                stiffness: -1.0,
                ..Collision::default()
            },
        ),
        (
            "collision.damping",
            Collision {
                damping: f64::NAN,
                ..Collision::default()
            },
        ),
        (
            "collision.friction",
            Collision {
                friction: -0.5,
                ..Collision::default()
            },
        ),
    ] {
        let mut m = model.clone();
        m.params.collision = c;
        assert!(
            matches!(m.validate(), Err(Error::InvalidParameter { name: n, .. }) if n == name),
            "{name}"
        );
    }
}

/// The stable time step counts the collision stiffness: one free colliding mass (no spring, no
/// ground) is an oscillator of k = collision stiffness, dt = 2 sqrt(m / k) exactly.
#[test]
fn stable_dt_counts_collision_stiffness() {
    let mut model = Model::new(Params {
        collision: Collision {
            stiffness: 4.0e4,
            ..Collision::default()
        },
        ..free_space()
    });
    model.add_mass(Mass::new(0.1, DVec3::ZERO).with_collision_radius(0.01));
    let dt = model.stable_dt().dt;
    assert!((dt - 2.0 * (0.1_f64 / 4.0e4).sqrt()).abs() < 1e-15, "{dt}");
    model.masses[0].collision_radius = 0.0;
    assert!(model.stable_dt().dt.is_infinite());
}

/// Scene files carry collision settings: per body (radius, group, mask, self-collision), per
/// mass in a hand-made part, and the global parameters; unknown fields are errors.
#[test]
fn scene_files_carry_collisions() {
    let mut part = Part::new();
    part.add_mass(Mass::new(0.1, DVec3::ZERO).with_collision_radius(0.01));
    let mut scene = Scene::new(Params {
        collision: Collision {
            stiffness: 5e4,
            damping: 2.0,
            friction: 0.3,
        },
        ..Params::default()
    });
    scene.push(
        BodySpec::new(BodyKind::Part(part.with_self_collision(false))).colliding(BodyCollision {
            radius: 0.02,
            group: 2,
            mask: 5,
            self_collision: true,
            class: 3,
        }),
    );
    scene.class_collisions.push(ClassCollision {
        classes: [3, 3],
        collision: Collision {
            stiffness: 1e3,
            ..Collision::default()
        },
    });
    let json = serde_json::to_string(&scene).unwrap();
    let back: Scene = serde_json::from_str(&json).unwrap();
    assert_eq!(back, scene);
    let model = back.to_model().unwrap();
    let m = &model.masses[0];
    assert_eq!(
        (
            m.collision_radius,
            m.collision_group,
            m.collision_mask,
            m.collision_class
        ),
        (0.02, 2, 5, 3)
    );
    assert_eq!(model.collision_between(m, m).stiffness, 1e3);
    assert!(model.bodies[0].self_collision);
    assert_eq!(model.params.collision.friction, 0.3);
    let typo = json.replace("\"self_collision\"", "\"self_colision\"");
    assert!(serde_json::from_str::<Scene>(&typo).is_err());
}

/// Masses that overlap in the initial state start with penalty energy, and the blow-up bound
/// counts it: a pair placed 0.015 m inside contact (11 J on 10 g masses, 47 m/s when released)
/// flies apart without `Error::BlowUp` (it was raised at step 1 before the bound counted it).
#[test]
fn overlapping_colliders_at_start_are_not_a_blow_up() {
    let mut part = Part::new();
    part.add_mass(Mass::new(0.01, DVec3::ZERO).with_collision_radius(0.01));
    part.add_mass(Mass::new(0.01, DVec3::new(0.005, 0.0, 0.0)).with_collision_radius(0.01));
    let mut model = Model::new(Params {
        dt: 1e-5,
        ..free_space()
    });
    model.add("pair", part);
    let mut w = CpuWorld::new(&model).unwrap();
    w.step(200).unwrap();
    let v = w.velocity_slice();
    // All 11.25 J turned into kinetic energy: each mass at sqrt(11.25 / 0.01) = 33.5 m/s.
    assert!((v[1].x - 11.25f64.sqrt() * 10.0).abs() < 0.5, "{v:?}");
}

/// A class rule changes the pair force of its two classes only, on both sides of the pair: two
/// identical head-on pairs, one in classes (1, 2) with a softer rule, bounce apart at speeds set
/// by their own stiffness (an elastic contact of a pair returns its closing speed, but a softer
/// one lasts longer: after a fixed short time the soft pair is still in contact, slower).
#[test]
fn class_collisions_set_the_pair_force_of_their_classes() {
    let mut part = Part::new();
    let r = 0.01;
    for (y, classes) in [(0.0, [0, 0]), (1.0, [1, 2])] {
        let at = DVec3::new(0.0, y, 0.0);
        part.add_mass(
            Mass::new(0.01, at)
                .with_collision_radius(r)
                .with_collision_class(classes[0]),
        );
        let other = Mass::new(0.01, at + DVec3::X * 0.0199).with_collision_radius(r);
        part.add_mass(
            other
                .with_collision_class(classes[1])
                .with_velocity(DVec3::X * -1.0),
        );
    }
    let mut model = Model::new(Params {
        dt: 1e-5,
        ..free_space()
    });
    model.add("pairs", part);
    model.class_collisions.push(ClassCollision {
        classes: [2, 1],
        collision: Collision {
            stiffness: 1e3,
            ..Collision::default()
        },
    });
    let mut w = CpuWorld::new(&model).unwrap();
    // Contact time pi sqrt(m_r / k): 0.7 ms at 1e5 N/m, 7 ms at 1e3 N/m (m_r = 5 g).
    w.step(150).unwrap();
    let v = w.velocity_slice();
    assert!(
        (v[1].x - 0.0).abs() < 0.05 && (v[0].x + 1.0).abs() < 0.05,
        "stiff pair: {v:?}"
    );
    assert!(
        v[3].x < -0.3 && v[2].x > -0.7,
        "soft pair still in contact: {v:?}"
    );
    let bad = |classes| {
        let mut m = model.clone();
        m.class_collisions.push(ClassCollision {
            classes,
            collision: Collision::default(),
        });
        m.validate()
    };
    assert!(matches!(
        bad([0, 16]),
        Err(Error::InvalidClassCollision { index: 1, .. })
    ));
    let mut m = model.clone();
    m.masses[3].collision_class = 99;
    assert!(matches!(
        m.validate(),
        Err(Error::InvalidCollisionClass { mass: 3, class: 99 })
    ));
}
