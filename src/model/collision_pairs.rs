//! Which pairs of masses collide, and which touch: the rules of [`Collision`] that both worlds
//! share. [`CollisionPairs`] holds, per mass, what decides whether a pair may touch (radius,
//! class, group and mask, body, the springs that exclude a pair) and finds the touching pairs of
//! a state with the broad phase [`MassGrid`]. The CPU reference's collision pass
//! (`src/cpu/collisions.rs`) computes its forces on these rules; the GPU World lists its contacts
//! with them on the host and uploads [`collision_exclusions`] for its `collide` kernel.

use glam::DVec3;

use super::collision::Collision;
use super::collision_filter::COLLISION_CLASSES;
use super::mass_grid::MassGrid;
use super::Model;

/// Spring partners a mass may have for [`CollisionPairs::may_touch`] to compare them all rather
/// than search them (the benchmark lattice has up to 13 of higher index, a cloth 6).
const SHORT_JOINED_LIST: usize = 32;

/// A body index for masses outside every body.
const NO_BODY: u32 = u32::MAX;

/// What decides, per mass, whether two masses may touch, and the pair force of their classes.
#[derive(Clone, Debug)]
pub(crate) struct CollisionPairs {
    /// The pair force of each pair of classes, `table[a * COLLISION_CLASSES + b]`.
    table: Vec<Collision>,
    /// Collision class of each mass.
    class: Vec<u32>,
    /// Colliding masses (radius > 0), in increasing index.
    pub(crate) members: Vec<u32>,
    /// Collision radius of each mass, m.
    pub(crate) radius: Vec<f64>,
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
    /// Cell side of the broad phase, m: the largest collision diameter.
    pub(crate) cell: f64,
}

impl CollisionPairs {
    /// The rules of `model`, or `None` when no mass has a collision radius.
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
        let (joined_start, joined) = collision_exclusions(model, &radius);
        let largest = members
            .iter()
            .map(|&i| radius[i as usize])
            .fold(0.0, f64::max);
        Some(Self {
            table: model.collision_table(),
            class: model.masses.iter().map(|m| m.collision_class).collect(),
            members,
            radius,
            group: model.masses.iter().map(|m| m.collision_group).collect(),
            mask: model.masses.iter().map(|m| m.collision_mask).collect(),
            body,
            self_collision: model.bodies.iter().map(|b| b.self_collision).collect(),
            joined_start,
            joined,
            cell: 2.0 * largest,
        })
    }

    /// Whether masses `i < j` (both with a radius) may touch: not both fixed, groups and masks
    /// that let them, not the same body with self-collision off, no spring between them.
    #[inline]
    pub(crate) fn may_touch(&self, i: usize, j: usize, fixed: &[bool]) -> bool {
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

    /// The pair force between masses `a` and `b` (by their classes).
    #[inline]
    pub(crate) fn collision(&self, a: usize, b: usize) -> &Collision {
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
    /// the order of [`CollisionPairs::contacts`].
    pub(crate) fn energy(&self, pos: &[DVec3], fixed: &[bool]) -> f64 {
        self.contacts(pos, fixed)
            .iter()
            .map(|&[a, b]| {
                let overlap = self.radius[a] + self.radius[b] - pos[a].distance(pos[b]);
                0.5 * self.collision(a, b).stiffness * overlap * overlap
            })
            .sum()
    }
}

/// Penalty energy (J) of the pairs touching in `model`'s initial state (0 without radii): part
/// of the energy the blow-up bound starts from.
pub(crate) fn initial_energy(model: &Model) -> f64 {
    CollisionPairs::new(model).map_or(0.0, |c| {
        let pos: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
        let fixed: Vec<bool> = model.masses.iter().map(|m| m.fixed).collect();
        c.energy(&pos, &fixed)
    })
}

/// The spring neighbours of higher index of every mass, among the colliding masses
/// (`radius > 0`), as offsets and sorted lists: the pairs a spring excludes from colliding (see
/// [`CollisionPairs::may_touch`]; the GPU's collider table reads the same lists, and searches
/// the lower-index mass's list of a pair).
pub(crate) fn collision_exclusions(model: &Model, radius: &[f64]) -> (Vec<u32>, Vec<u32>) {
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
