//! The collision pass: penalty, damping and friction between touching masses (the model in
//! [`Collision`]), run after the spring pass and read by the mass pass (`integrate.rs`). GPU
//! twin: `shaders/shared/collisions.wgsl` and `shaders/collide.wgsl`.
//!
//! The pair rules and the broad phase are the model's ([`CollisionPairs`], [`MassGrid`]). Each colliding mass gathers the forces of its
//! touching neighbours in the grid's fixed order (27 cells, each by mass index), so every bit
//! of the sum depends only on the state, never on the number of threads. A pair's force is
//! computed by [`pair`] with the lower index first, whichever mass asks: the higher one gets
//! exactly its negative, so the two forces cancel bit for bit. On the CPU the pass runs in two
//! phases so that each pair is computed once (`collisions/pair_lists.rs`: `find`, then
//! `gather`); a one-phase twin that computes each pair from both masses gives the same bits.

use glam::DVec3;

use crate::model::{Collision, CollisionPairs, MassGrid, Model};

mod pair_lists;

/// Below this many colliding masses the collision pass runs on one thread (spawning costs more
/// than it saves; the result is the same either way).
const PARALLEL_MIN_MEMBERS: usize = 4096;

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

/// What the collision pass reads of the model (the pair rules, [`CollisionPairs`]), and its
/// grid and output.
#[derive(Clone, Debug)]
pub(crate) struct Collider {
    /// Which pairs may touch, and the pair force of their classes.
    pairs: CollisionPairs,
    /// Time step, s (friction never stops more than the relative motion of one step).
    dt: f64,
    /// The broad phase, rebuilt every step.
    grid: MassGrid,
    /// The collision force on each mass in the last pass, N.
    pub(super) touch: Vec<Touch>,
    /// What the first phase of the last pass found, per range of masses (kept for its memory).
    lists: Vec<PairLists>,
}

impl Collider {
    /// The collision pass of `model`, or `None` when no mass has a collision radius.
    pub(crate) fn new(model: &Model) -> Option<Self> {
        Some(Self {
            pairs: CollisionPairs::new(model)?,
            dt: model.params.dt,
            grid: MassGrid::default(),
            touch: vec![Touch::default(); model.masses.len()],
            lists: Vec::new(),
        })
    }

    /// The collision pass: rebuilds the grid at `s.pos` and sets `touch` for every mass, on up
    /// to `threads` threads (contiguous mass ranges; the result does not depend on them). Each
    /// touching pair's force is computed once (`pair_lists.rs`: find, then gather).
    pub(super) fn collide(&mut self, s: &State<'_>, threads: usize) {
        let mut grid = std::mem::take(&mut self.grid);
        grid.build(
            &self.pairs.members,
            s.pos,
            &self.pairs.radius,
            self.pairs.cell,
        );
        self.grid = grid;
        let mut touch = std::mem::take(&mut self.touch);
        let mut lists = std::mem::take(&mut self.lists);
        let n = touch.len();
        let threads = if self.pairs.members.len() < PARALLEL_MIN_MEMBERS {
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
        let reach = self.pairs.radius[a] + self.pairs.radius[b];
        let d = s.pos[a] - s.pos[b];
        if d.length_squared() >= reach * reach || !self.pairs.may_touch(a, b, s.fixed) {
            return None;
        }
        let inverse = s.inverse_mass(a) + s.inverse_mass(b);
        Some(pair(
            self.pairs.collision(a, b),
            self.dt,
            reach,
            d,
            s.vel[a] - s.vel[b],
            inverse,
        ))
    }

    /// Every pair `(a, b)`, `a < b`, touching at `pos` (m), in increasing order of `a` then `b`
    /// (`fixed`: which masses are fixed): [`CollisionPairs::contacts`].
    pub(crate) fn contacts(&self, pos: &[DVec3], fixed: &[bool]) -> Vec<[usize; 2]> {
        self.pairs.contacts(pos, fixed)
    }

    /// Penalty energy of every touching pair at `pos` (m), J: [`CollisionPairs::energy`].
    pub(super) fn energy(&self, pos: &[DVec3], fixed: &[bool]) -> f64 {
        self.pairs.energy(pos, fixed)
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
