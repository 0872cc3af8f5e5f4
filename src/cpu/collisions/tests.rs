//! Unit tests of the collision pass: the pair force's limits, and the pass against a plain
//! reference of the documented order.

use std::collections::BTreeMap;

use super::*;
use crate::builders::SplitMix64;
use crate::model::{Mass, Params, Part};

/// A cloud of `count` masses in a `side` m box (bodies of 100 masses, every other one
/// without self-collision, moved `spread` m apart along x), random velocities, radii 0 to
/// 0.02 m (one in five 0), groups and masks from 3 bits, one in ten fixed, springs between
/// random pairs, and damped collisions with friction: every branch of the pass.
fn cloud(seed: u64, count: usize, side: f64, spread: f64) -> Model {
    let mut rng = SplitMix64::new(seed);
    let mut unit = move || rng.next_f64();
    let mut model = Model::new(Params {
        collision: Collision {
            stiffness: 1e4,
            damping: 5.0,
            friction: 0.5,
        },
        ..Params::default()
    });
    for b in 0..count.div_ceil(100) {
        let mut part = Part::new().with_self_collision(b % 2 == 0);
        for _ in 0..100.min(count - 100 * b) {
            let p = DVec3::new(unit(), unit(), unit()) * side + DVec3::X * spread * b as f64;
            let mut m = Mass::new(0.1, p);
            m.velocity = DVec3::new(unit(), unit(), unit()) - 0.5;
            m.collision_radius = if unit() < 0.2 { 0.0 } else { 0.02 * unit() };
            m.collision_group = 1 << (unit() * 3.0) as u32;
            m.collision_mask = (unit() * 8.0) as u32 | 1;
            m.fixed = unit() < 0.1;
            part.add_mass(m);
        }
        let last = part.masses.len() as f64;
        for _ in 0..50 {
            let (x, y) = ((unit() * last) as u32, (unit() * last) as u32);
            if x != y {
                part.connect(x, y, 10.0, 0.0);
            }
        }
        model.add(format!("body {b}"), part);
    }
    model
}

/// The collision force on every mass as the module docs define it, from a plain map of
/// cells (no buckets): for each mass, the 27 cells around its own in (dz, dy, dx) order,
/// each cell's colliding masses by increasing index, each touching pair's force computed
/// with the lower index first.
fn reference(c: &Collider, s: &State<'_>) -> Vec<Touch> {
    let cell_of = |p: DVec3| {
        let q = (p / c.pairs.cell).floor();
        [q.x as i64, q.y as i64, q.z as i64]
    };
    let mut cells: BTreeMap<[i64; 3], Vec<usize>> = BTreeMap::new();
    for &i in &c.pairs.members {
        cells
            .entry(cell_of(s.pos[i as usize]))
            .or_default()
            .push(i as usize);
    }
    let mut out = vec![Touch::default(); s.pos.len()];
    for &i in &c.pairs.members {
        let i = i as usize;
        let own = cell_of(s.pos[i]);
        let t = &mut out[i];
        for [dz, dy, dx] in (0..27).map(|k| [k / 9 - 1, k / 3 % 3 - 1, k % 3 - 1]) {
            let cell = [own[0] + dx, own[1] + dy, own[2] + dz];
            for &j in cells.get(&cell).into_iter().flatten() {
                let (a, b) = (i.min(j), i.max(j));
                let reach = c.pairs.radius[a] + c.pairs.radius[b];
                let d = s.pos[a] - s.pos[b];
                if j == i
                    || d.length_squared() >= reach * reach
                    || !c.pairs.may_touch(a, b, s.fixed)
                {
                    continue;
                }
                let inverse = s.inverse_mass(a) + s.inverse_mass(b);
                let f = pair(
                    c.pairs.collision(a, b),
                    c.dt,
                    reach,
                    d,
                    s.vel[a] - s.vel[b],
                    inverse,
                );
                let sign = if i < j { 1.0 } else { -1.0 };
                t.conservative += sign * f.conservative;
                t.dissipative += sign * f.dissipative;
            }
        }
    }
    out
}

/// A 12 x 12 x 12 block of masses on the corners of the grid's cells (0.01 m apart, radius
/// 0.005 m: grid neighbours exactly at the contact distance, where rounding decides), one in
/// four moved by up to a third of the spacing, so that some overlap and some sit a rounding
/// away from a cell boundary or from the reach: the edge cases of leaving cells out of a row.
fn aligned(seed: u64) -> Model {
    let mut rng = SplitMix64::new(seed);
    let mut unit = move || rng.next_f64();
    let mut part = Part::new();
    for k in 0..12 * 12 * 12 {
        let corner = DVec3::new(
            f64::from(k % 12),
            f64::from(k / 12 % 12),
            f64::from(k / 144),
        );
        let mut p = corner * 0.01;
        if unit() < 0.25 {
            p += (DVec3::new(unit(), unit(), unit()) - 0.5) * (0.02 / 3.0);
        }
        let mut m = Mass::new(0.1, p).with_collision_radius(0.005);
        m.velocity = DVec3::new(unit(), unit(), unit()) - 0.5;
        part.add_mass(m);
    }
    let mut model = Model::new(Params::default());
    model.add("block", part);
    model
}

/// The pass gives exactly the bits of the reference order, on one thread and on two, in a
/// compact cloud (dense cell numbers), a spread one (hashed cells), both above the size where
/// the pass uses threads, and masses on the cells' corners.
#[test]
fn collide_gives_the_bits_of_the_documented_order() {
    let scenes = [
        (1, cloud(1, 600, 0.2, 0.0)),
        (2, cloud(2, 600, 0.1, 50.0)),
        (3, cloud(3, PARALLEL_MIN_MEMBERS + 1000, 0.6, 0.0)),
        (4, cloud(4, PARALLEL_MIN_MEMBERS + 1000, 0.1, 10.0)),
        (5, aligned(5)),
    ];
    for (seed, model) in scenes {
        let pos: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
        let vel: Vec<DVec3> = model.masses.iter().map(|m| m.velocity).collect();
        let mass: Vec<f64> = model.masses.iter().map(|m| m.mass).collect();
        let fixed: Vec<bool> = model.masses.iter().map(|m| m.fixed).collect();
        let s = State {
            pos: &pos,
            vel: &vel,
            mass: &mass,
            fixed: &fixed,
        };
        let mut c = Collider::new(&model).unwrap();
        let expected = reference(&c, &s);
        let touching = expected.iter().filter(|t| **t != Touch::default()).count();
        let count = pos.len();
        assert!(touching > count / 10, "seed {seed}: only {touching} touch");
        for threads in [1, 2] {
            c.collide(&s, threads);
            assert!(c.touch == expected, "seed {seed}, {threads} threads");
        }
    }
}

/// Damping never pulls: a pair separating fast feels no normal force, and friction never
/// exceeds what stops the tangential motion in one step.
#[test]
fn damping_never_pulls_and_friction_never_reverses() {
    let c = Collision {
        stiffness: 1000.0,
        damping: 100.0,
        friction: 10.0,
    };
    let d = DVec3::new(0.09, 0.0, 0.0); // reach 0.1 m: overlap 0.01 m, spring 10 N
    let separating = pair(&c, 1e-3, 0.1, d, DVec3::new(1.0, 0.0, 0.0), 20.0);
    assert_eq!(
        separating.conservative + separating.dissipative,
        DVec3::ZERO
    );
    // Sliding at 1e-3 m/s with m_r = 1/20 kg: stop = 0.05 kg * 1e-3 / 1e-3 s = 0.05 N, far
    // below mu f_n = 100 N, so friction is exactly the stopping force.
    let sliding = pair(&c, 1e-3, 0.1, d, DVec3::new(0.0, 1e-3, 0.0), 20.0);
    assert!((sliding.dissipative.y + 0.05).abs() < 1e-15);
}
