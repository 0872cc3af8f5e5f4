//! The collision pass: penalty, damping and friction between touching masses (the model in
//! [`Collision`]), run after the spring pass and read by the mass pass (`integrate.rs`). No GPU
//! twin yet (the GPU `World` refuses models with collision radii).
//!
//! The broad phase is [`MassGrid`] (`mass_grid.rs`). Each colliding mass gathers the forces of its
//! touching neighbours in the grid's fixed order (27 cells, each by mass index), so every bit
//! of the sum depends only on the state, never on the number of threads. A pair's force is
//! computed by [`pair`] with the lower index first, whichever mass asks: the higher one gets
//! exactly its negative, so the two forces cancel bit for bit.

use glam::DVec3;

use super::mass_grid::MassGrid;
use crate::model::{Collision, Model};

/// Below this many colliding masses the collision pass runs on one thread (spawning costs more
/// than it saves; the result is the same either way).
const PARALLEL_MIN_MEMBERS: usize = 4096;

/// A body index for masses outside every body.
const NO_BODY: u32 = u32::MAX;

/// The collision force on one mass, N, split as the mass pass books it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Touch {
    /// The penalty part, whose energy is stored (`k (r_a + r_b - d)` along the normal), N.
    pub(super) conservative: DVec3,
    /// Normal damping and friction, whose work is dissipated, N.
    pub(super) dissipative: DVec3,
}

/// The state the collision pass reads.
#[derive(Clone, Copy)]
pub(super) struct State<'a> {
    /// Positions, m.
    pub(super) pos: &'a [DVec3],
    /// Velocities, m/s.
    pub(super) vel: &'a [DVec3],
    /// Masses, kg.
    pub(super) mass: &'a [f64],
    /// Whether each mass is fixed.
    pub(super) fixed: &'a [bool],
}

impl State<'_> {
    /// 1 / the mass of `i`, 1/kg; 0 for a fixed mass.
    fn inverse_mass(&self, i: usize) -> f64 {
        if self.fixed[i] {
            0.0
        } else {
            1.0 / self.mass[i]
        }
    }
}

/// What the collision pass reads of the model, and its grid and output.
#[derive(Clone, Debug)]
pub(super) struct Collider {
    /// The pair force parameters.
    params: Collision,
    /// Time step, s (friction never stops more than the relative motion of one step).
    dt: f64,
    /// Colliding masses (radius > 0), in increasing index.
    members: Vec<u32>,
    /// Collision radius of each mass, m.
    radius: Vec<f64>,
    /// Collision group and mask of each mass.
    group: Vec<u32>,
    mask: Vec<u32>,
    /// Body of each mass ([`NO_BODY`] outside every body), and whether each body collides
    /// with itself.
    body: Vec<u32>,
    self_collision: Vec<bool>,
    /// For each mass, `joined[joined_start[i]..joined_start[i + 1]]` lists in increasing order
    /// the colliding masses a spring joins it to.
    joined_start: Vec<u32>,
    joined: Vec<u32>,
    /// The broad phase, rebuilt every step.
    grid: MassGrid,
    /// Cell side, m: the largest collision diameter.
    cell: f64,
    /// The collision force on each mass in the last pass, N.
    pub(super) touch: Vec<Touch>,
}

impl Collider {
    /// The collision pass of `model`, or `None` when no mass has a collision radius.
    pub(super) fn new(model: &Model) -> Option<Self> {
        model.first_colliding_mass()?;
        let n = model.masses.len();
        let radius: Vec<f64> = model.masses.iter().map(|m| m.collision_radius).collect();
        let members: Vec<u32> = (0..n as u32)
            .filter(|&i| radius[i as usize] > 0.0)
            .collect();
        let mut body = vec![NO_BODY; n];
        for (b, range) in model.bodies.iter().enumerate() {
            body[range.masses.clone()].fill(b as u32);
        }
        let (joined_start, joined) = joined(model, &radius);
        let largest = members
            .iter()
            .map(|&i| radius[i as usize])
            .fold(0.0, f64::max);
        Some(Self {
            params: model.params.collision,
            dt: model.params.dt,
            members,
            radius,
            group: model.masses.iter().map(|m| m.collision_group).collect(),
            mask: model.masses.iter().map(|m| m.collision_mask).collect(),
            body,
            self_collision: model.bodies.iter().map(|b| b.self_collision).collect(),
            joined_start,
            joined,
            grid: MassGrid::default(),
            cell: 2.0 * largest,
            touch: vec![Touch::default(); n],
        })
    }

    /// Whether masses `i` and `j` (both with a radius) may touch: not both fixed, groups and
    /// masks that let them, not the same body with self-collision off, no spring between them.
    fn may_touch(&self, i: usize, j: usize, fixed: &[bool]) -> bool {
        if fixed[i] && fixed[j] {
            return false;
        }
        if self.group[i] & self.mask[j] == 0 || self.group[j] & self.mask[i] == 0 {
            return false;
        }
        let b = self.body[i];
        if b != NO_BODY && b == self.body[j] && !self.self_collision[b as usize] {
            return false;
        }
        let list = &self.joined[self.joined_start[i] as usize..self.joined_start[i + 1] as usize];
        list.binary_search(&(j as u32)).is_err()
    }

    /// The collision pass: rebuilds the grid at `s.pos` and sets `touch` for every mass, on up
    /// to `threads` threads (contiguous mass ranges; the result does not depend on them).
    pub(super) fn collide(&mut self, s: &State<'_>, threads: usize) {
        let mut grid = std::mem::take(&mut self.grid);
        grid.build(&self.members, s.pos, &self.radius, self.cell);
        self.grid = grid;
        let mut touch = std::mem::take(&mut self.touch);
        let n = touch.len();
        if threads <= 1 || self.members.len() < PARALLEL_MIN_MEMBERS {
            self.collide_range(0, &mut touch, s);
        } else {
            let per = n.div_ceil(threads);
            let this = &*self;
            std::thread::scope(|scope| {
                for (k, part) in touch.chunks_mut(per).enumerate() {
                    scope.spawn(move || this.collide_range(k * per, part, s));
                }
            });
        }
        self.touch = touch;
    }

    /// The collision force on masses `first..first + out.len()`, into `out`.
    ///
    /// The distance test runs first, on the grid's copies of the candidates' positions and radii
    /// (a run of consecutive slots): `|p_i - p_j|^2 >= (r_i + r_j)^2` has the same bits whichever
    /// mass comes first, so it rejects exactly the pairs [`Collider::pair_of`] would, and the
    /// few that pass are then checked for being `i` itself or (hashed) in another cell.
    fn collide_range(&self, first: usize, out: &mut [Touch], s: &State<'_>) {
        let grid = &self.grid;
        for (k, t) in out.iter_mut().enumerate() {
            let i = first + k;
            *t = Touch::default();
            if self.radius[i] <= 0.0 {
                continue;
            }
            let (p, r, own) = (s.pos[i], self.radius[i], grid.slot(i));
            grid.runs(i, |run, cell| {
                let start = run.start;
                let (pos, radius) = grid.run_data(run);
                for (n, (q, rj)) in pos.iter().zip(radius).enumerate() {
                    let reach = r + rj;
                    if (p - *q).length_squared() >= reach * reach {
                        continue;
                    }
                    let slot = start + n;
                    if slot == own || !grid.in_cell(slot, cell) {
                        continue;
                    }
                    let j = grid.mass(slot);
                    if let Some(f) = self.pair_of(i.min(j), i.max(j), s) {
                        // `f` acts on the lower index; the higher gets its exact negative.
                        let sign = if i < j { 1.0 } else { -1.0 };
                        t.conservative += sign * f.conservative;
                        t.dissipative += sign * f.dissipative;
                    }
                }
            });
        }
    }

    /// The force on `a` of `b` (`a < b`), if they touch.
    fn pair_of(&self, a: usize, b: usize, s: &State<'_>) -> Option<Touch> {
        let reach = self.radius[a] + self.radius[b];
        let d = s.pos[a] - s.pos[b];
        if d.length_squared() >= reach * reach || !self.may_touch(a, b, s.fixed) {
            return None;
        }
        let inverse = s.inverse_mass(a) + s.inverse_mass(b);
        Some(pair(
            &self.params,
            self.dt,
            reach,
            d,
            s.vel[a] - s.vel[b],
            inverse,
        ))
    }

    /// Every pair `(a, b)`, `a < b`, touching at `pos` (m), in increasing order of `a` then `b`
    /// (`fixed`: which masses are fixed).
    pub(super) fn contacts(&self, pos: &[DVec3], fixed: &[bool]) -> Vec<[usize; 2]> {
        let mut grid = MassGrid::default();
        grid.build(&self.members, pos, &self.radius, self.cell);
        let mut out = Vec::new();
        for &i in &self.members {
            let a = i as usize;
            let start = out.len();
            grid.neighbours(a, |b| {
                let reach = self.radius[a] + self.radius[b];
                if b > a
                    && pos[a].distance_squared(pos[b]) < reach * reach
                    && self.may_touch(a, b, fixed)
                {
                    out.push([a, b]);
                }
            });
            out[start..].sort_unstable();
        }
        out
    }

    /// Penalty energy `k (r_a + r_b - d)^2 / 2` of every touching pair at `pos` (m), J, summed in
    /// the order of [`Collider::contacts`].
    pub(super) fn energy(&self, pos: &[DVec3], fixed: &[bool]) -> f64 {
        let k = self.params.stiffness;
        self.contacts(pos, fixed)
            .iter()
            .map(|&[a, b]| {
                let overlap = self.radius[a] + self.radius[b] - pos[a].distance(pos[b]);
                0.5 * k * overlap * overlap
            })
            .sum()
    }
}

/// The collision force on `a` of `b` for `d = p_a - p_b` (m, `|d| < reach`), relative velocity
/// `v = v_a - v_b` (m/s), contact distance `reach = r_a + r_b` (m) and `inverse = 1/m_a + 1/m_b`
/// (1/kg), over a step of `dt` s (see [`Collision`] for the law). Masses at the same point have
/// no normal and exert no force.
pub(super) fn pair(c: &Collision, dt: f64, reach: f64, d: DVec3, v: DVec3, inverse: f64) -> Touch {
    let dist = d.length();
    if dist == 0.0 {
        return Touch::default();
    }
    let n = d / dist;
    let spring = c.stiffness * (reach - dist);
    let vn = v.dot(n);
    let normal = (spring - c.damping * vn).max(0.0);
    let mut dissipative = (normal - spring) * n;
    let vt = v - vn * n;
    let speed = vt.length();
    if c.friction > 0.0 && speed > 0.0 && inverse > 0.0 {
        // What stops the relative tangential motion within the step: m_r |v_t| / dt.
        let stop = speed / (inverse * dt);
        dissipative -= (c.friction * normal).min(stop) / speed * vt;
    }
    Touch {
        conservative: spring * n,
        dissipative,
    }
}

/// The spring neighbours of every mass among the colliding masses (`radius > 0`), as offsets and
/// sorted lists (see [`Collider::joined`]).
fn joined(model: &Model, radius: &[f64]) -> (Vec<u32>, Vec<u32>) {
    let n = radius.len();
    let both = |a: usize, b: usize| radius[a] > 0.0 && radius[b] > 0.0;
    let mut start = vec![0u32; n + 1];
    for s in &model.springs {
        let (a, b) = (s.a as usize, s.b as usize);
        if both(a, b) {
            start[a + 1] += 1;
            start[b + 1] += 1;
        }
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut cursor = start[..n].to_vec();
    let mut list = vec![0u32; start[n] as usize];
    for s in &model.springs {
        let (a, b) = (s.a as usize, s.b as usize);
        if both(a, b) {
            list[cursor[a] as usize] = b as u32;
            cursor[a] += 1;
            list[cursor[b] as usize] = a as u32;
            cursor[b] += 1;
        }
    }
    for i in 0..n {
        list[start[i] as usize..start[i + 1] as usize].sort_unstable();
    }
    (start, list)
}

#[cfg(test)]
mod tests {
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
            let q = (p / c.cell).floor();
            [q.x as i64, q.y as i64, q.z as i64]
        };
        let mut cells: BTreeMap<[i64; 3], Vec<usize>> = BTreeMap::new();
        for &i in &c.members {
            cells.entry(cell_of(s.pos[i as usize])).or_default().push(i as usize);
        }
        let mut out = vec![Touch::default(); s.pos.len()];
        for &i in &c.members {
            let i = i as usize;
            let own = cell_of(s.pos[i]);
            let t = &mut out[i];
            for [dz, dy, dx] in (0..27).map(|k| [k / 9 - 1, k / 3 % 3 - 1, k % 3 - 1]) {
                let cell = [own[0] + dx, own[1] + dy, own[2] + dz];
                for &j in cells.get(&cell).into_iter().flatten() {
                    let (a, b) = (i.min(j), i.max(j));
                    let reach = c.radius[a] + c.radius[b];
                    let d = s.pos[a] - s.pos[b];
                    if j == i || d.length_squared() >= reach * reach || !c.may_touch(a, b, s.fixed)
                    {
                        continue;
                    }
                    let inverse = s.inverse_mass(a) + s.inverse_mass(b);
                    let f = pair(&c.params, c.dt, reach, d, s.vel[a] - s.vel[b], inverse);
                    let sign = if i < j { 1.0 } else { -1.0 };
                    t.conservative += sign * f.conservative;
                    t.dissipative += sign * f.dissipative;
                }
            }
        }
        out
    }

    /// The pass gives exactly the bits of the reference order, on one thread and on two, in a
    /// compact cloud (dense cell numbers), a spread one (hashed cells) and one above the size
    /// where the pass uses threads.
    #[test]
    fn collide_gives_the_bits_of_the_documented_order() {
        for (seed, count, side, spread) in [
            (1, 600, 0.2, 0.0),
            (2, 600, 0.1, 50.0),
            (3, PARALLEL_MIN_MEMBERS + 1000, 0.6, 0.0),
            (4, PARALLEL_MIN_MEMBERS + 1000, 0.1, 10.0),
        ] {
            let model = cloud(seed, count, side, spread);
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
}
