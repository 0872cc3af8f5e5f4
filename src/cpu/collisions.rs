//! The collision pass: penalty, damping and friction between touching masses (the model in
//! [`Collision`]), run after the spring pass and read by the mass pass (`integrate.rs`). GPU
//! twin: `shaders/shared/collisions.wgsl` and `shaders/collide.wgsl`.
//!
//! The broad phase is [`MassGrid`] (`mass_grid.rs`). Each colliding mass gathers the forces of its
//! touching neighbours in the grid's fixed order (27 cells, each by mass index), so every bit
//! of the sum depends only on the state, never on the number of threads. A pair's force is
//! computed by [`pair`] with the lower index first, whichever mass asks: the higher one gets
//! exactly its negative, so the two forces cancel bit for bit. On the CPU the pass runs in two
//! phases so that each pair is computed once (`collisions/pair_lists.rs`: `find`, then
//! `gather`); a one-phase twin that computes each pair from both masses gives the same bits.

use glam::DVec3;

use super::mass_grid::MassGrid;
use crate::model::{Collision, Model, COLLISION_CLASSES};

mod pair_lists;

/// Below this many colliding masses the collision pass runs on one thread (spawning costs more
/// than it saves; the result is the same either way).
const PARALLEL_MIN_MEMBERS: usize = 4096;

/// Spring partners a mass may have for [`Collider::may_touch`] to compare them all rather than
/// search them (the benchmark lattice has up to 13 of higher index, a cloth 6).
const SHORT_JOINED_LIST: usize = 32;

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
pub(crate) struct Collider {
    /// The pair force of each pair of classes, `table[a * COLLISION_CLASSES + b]`.
    table: Vec<Collision>,
    /// Collision class of each mass.
    class: Vec<u32>,
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
    /// For each mass `i`, `joined[joined_start[i]..joined_start[i + 1]]` lists in increasing
    /// order the colliding masses of higher index that a spring joins it to (a pair is always
    /// asked about with its lower index first).
    joined_start: Vec<u32>,
    joined: Vec<u32>,
    /// The broad phase, rebuilt every step.
    grid: MassGrid,
    /// Cell side, m: the largest collision diameter.
    cell: f64,
    /// The collision force on each mass in the last pass, N.
    pub(super) touch: Vec<Touch>,
    /// What the first phase of the last pass found, per range of masses (kept for its memory).
    lists: Vec<PairLists>,
}

impl Collider {
    /// The collision pass of `model`, or `None` when no mass has a collision radius.
    pub(crate) fn new(model: &Model) -> Option<Self> {
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
            table: model.collision_table(),
            class: model.masses.iter().map(|m| m.collision_class).collect(),
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
            lists: Vec::new(),
        })
    }

    /// Whether masses `i < j` (both with a radius) may touch: not both fixed, groups and masks
    /// that let them, not the same body with self-collision off, no spring between them.
    fn may_touch(&self, i: usize, j: usize, fixed: &[bool]) -> bool {
        debug_assert!(i < j, "pairs are asked about lower index first ({i}, {j})");
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
        let j = j as u32;
        if list.len() <= SHORT_JOINED_LIST {
            // Every entry compared, without a branch (vectorised); a binary search's chain of
            // dependent loads costs more on short lists.
            !list.iter().fold(false, |found, &k| found | (k == j))
        } else {
            list.binary_search(&j).is_err()
        }
    }

    /// The collision pass: rebuilds the grid at `s.pos` and sets `touch` for every mass, on up
    /// to `threads` threads (contiguous mass ranges; the result does not depend on them). Each
    /// touching pair's force is computed once (`pair_lists.rs`: find, then gather).
    pub(super) fn collide(&mut self, s: &State<'_>, threads: usize) {
        let mut grid = std::mem::take(&mut self.grid);
        grid.build(&self.members, s.pos, &self.radius, self.cell);
        self.grid = grid;
        let mut touch = std::mem::take(&mut self.touch);
        let mut lists = std::mem::take(&mut self.lists);
        let n = touch.len();
        let threads = if self.members.len() < PARALLEL_MIN_MEMBERS {
            1
        } else {
            threads.max(1)
        };
        let per = n.div_ceil(threads);
        lists.resize_with(n.div_ceil(per), PairLists::default);
        if lists.len() == 1 {
            self.find(0, n, &mut lists[0], s);
            self.gather(0, &mut touch, &lists, per);
        } else {
            let this = &*self;
            std::thread::scope(|scope| {
                for (k, list) in lists.iter_mut().enumerate() {
                    let first = k * per;
                    scope.spawn(move || this.find(first, per.min(n - first), list, s));
                }
            });
            let lists = &lists;
            std::thread::scope(|scope| {
                for (k, part) in touch.chunks_mut(per).enumerate() {
                    scope.spawn(move || this.gather(k * per, part, lists, per));
                }
            });
        }
        self.touch = touch;
        self.lists = lists;
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
            self.collision(a, b),
            self.dt,
            reach,
            d,
            s.vel[a] - s.vel[b],
            inverse,
        ))
    }

    /// The pair force between masses `a` and `b` (by their classes).
    fn collision(&self, a: usize, b: usize) -> &Collision {
        &self.table[(self.class[a] * COLLISION_CLASSES + self.class[b]) as usize]
    }

    /// Every pair `(a, b)`, `a < b`, touching at `pos` (m), in increasing order of `a` then `b`
    /// (`fixed`: which masses are fixed).
    pub(crate) fn contacts(&self, pos: &[DVec3], fixed: &[bool]) -> Vec<[usize; 2]> {
        let mut grid = MassGrid::default();
        grid.build(&self.members, pos, &self.radius, self.cell);
        let mut out = Vec::new();
        for &i in &self.members {
            let a = i as usize;
            let start = out.len();
            grid.neighbours(a, pos[a], self.radius[a], |b| {
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
        self.contacts(pos, fixed)
            .iter()
            .map(|&[a, b]| {
                let overlap = self.radius[a] + self.radius[b] - pos[a].distance(pos[b]);
                0.5 * self.collision(a, b).stiffness * overlap * overlap
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

/// Penalty energy (J) of the pairs touching in `model`'s initial state (0 without radii): part
/// of the energy the blow-up bound starts from.
pub(crate) fn initial_energy(model: &Model) -> f64 {
    Collider::new(model).map_or(0.0, |c| {
        let pos: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
        let fixed: Vec<bool> = model.masses.iter().map(|m| m.fixed).collect();
        c.energy(&pos, &fixed)
    })
}

/// The spring neighbours of higher index of every mass, among the colliding masses
/// (`radius > 0`), as offsets and sorted lists (see [`Collider::joined`]; the GPU's collider
/// table reads the same lists, and searches the lower-index mass's list of a pair).
pub(crate) fn joined(model: &Model, radius: &[f64]) -> (Vec<u32>, Vec<u32>) {
    let n = radius.len();
    let both = |a: usize, b: usize| radius[a] > 0.0 && radius[b] > 0.0;
    let mut start = vec![0u32; n + 1];
    for s in &model.springs {
        let (a, b) = (s.a.min(s.b) as usize, s.a.max(s.b) as usize);
        if both(a, b) {
            start[a + 1] += 1;
        }
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut cursor = start[..n].to_vec();
    let mut list = vec![0u32; start[n] as usize];
    for s in &model.springs {
        let (a, b) = (s.a.min(s.b) as usize, s.a.max(s.b) as usize);
        if both(a, b) {
            list[cursor[a] as usize] = b as u32;
            cursor[a] += 1;
        }
    }
    for i in 0..n {
        list[start[i] as usize..start[i + 1] as usize].sort_unstable();
    }
    (start, list)
}

/// What `find` (`collisions/pair_lists.rs`) lists for a contiguous range of masses.
#[derive(Clone, Debug, Default)]
struct PairLists {
    /// First mass of the range.
    first: usize,
    /// Per mass of the range, plus one: where its entries start.
    starts: Vec<u32>,
    /// Per entry: the other mass, and where the pair's force is in `forces` (`pair_lists::NONE`
    /// when the other mass has the lower index, or the pair does not touch).
    other: Vec<u32>,
    slot: Vec<u32>,
    /// The force on the lower mass of each touching pair listed here, N.
    forces: Vec<Touch>,
}

#[cfg(test)]
mod tests;
