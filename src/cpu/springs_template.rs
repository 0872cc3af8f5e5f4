//! The spring pass over small bodies of different shapes cut from one grid (a population of
//! voxel robots): up to eight bodies walked side by side on a common template, one per SIMD
//! lane, each lane performing exactly the scalar walk of its own body.
//!
//! A body qualifies when its masses keep, by index, the order of their places in the grid (their
//! initial positions relative to the body's lowest corner, by `z`, then `y`, then `x`), and its springs are listed by their masses `(a, b)` (the `VoxelBody`
//! builder lists them so). Placed by position, the bodies of a group then share one sorted list
//! of template springs (the union of theirs, keyed by the two grid places and, for repeated
//! pairs, the repeat), and each body's springs are a sub-sequence of it in the body's own order.
//! The lanes walk the template: a lane whose body lacks a template spring adds `-0.0` (a no-op,
//! signed zeros included) instead of its force, and a run of springs from one template mass is
//! added to that mass only in lanes that had a spring in it, as the scalar walk adds a run only
//! when it started one. So every body's forces are the scalar walk's, bit for bit (tests below).
//! Stiffness, damping and rest length are per lane; the law (material or not) is per template
//! spring, shared by the lanes holding it (a group mixing them is not formed). The chunk's
//! dissipated power is summed per lane, then lane by lane (a fixed order; other last bits than
//! the scalar walk's, as for bodies alike).
//!
//! A group is formed only when its bodies fill at least half of the template's lanes
//! ([`MIN_FILL`]); the benchmark population's random voxel robots (parts of one 4 x 4 x 3-cell
//! block) fill about 80 %.

use std::collections::BTreeMap;
use std::ops::Range;

use glam::DVec3;

use super::alike_muscles::{pick16, CombosRest, GroupMuscles, LanesRest, Rests, COMBOS};
use super::formed_rest::Driver;
use super::integrate_simd::{wide, Wide};
use super::springs_alike::{with_scratch, Scratch, LANES};
use super::tables::SpringArrays;

/// Eight f64 lanes, one per body.
type Lanes = [f64; LANES];

/// Least share of the template's lanes the group's bodies must fill.
const MIN_FILL: f64 = 0.5;

/// Largest template, in masses (its scratch: `48 LANES` bytes per mass).
const MAX_MASSES: usize = 512;

/// Largest template, in springs.
const MAX_SPRINGS: usize = 4096;

/// Grid places are told apart to this length, m.
const PLACE_QUANTUM: f64 = 1e-9;

/// A mass's place in its body's grid: its initial position relative to the body's lowest
/// corner, in [`PLACE_QUANTUM`]s, as `[z, y, x]` (compared `z` first).
type Place = [i64; 3];

/// A template spring: the places of its masses, and which repeat of that pair it is.
type Key = (Place, Place, u32);

/// Up to [`LANES`] bodies of different shapes on one template.
#[derive(Clone, Debug)]
pub(super) struct TemplateGroup {
    /// Each template spring's masses (template mass indices), in walk order.
    ends: Vec<[u32; 2]>,
    /// Each template spring's lanes holding it (bit `l` for lane `l`).
    active: Vec<u8>,
    /// Each template spring's spring in each lane (`u32::MAX`: none).
    spring: Vec<[u32; LANES]>,
    /// Stiffness (N/m) and damping (N*s/m) of each template spring in each lane.
    params: Params,
    /// Whether each template spring follows the material law (`k / L0`).
    material: Vec<bool>,
    /// Each template mass's mass in each lane (`u32::MAX`: none).
    mass: Vec<[u32; LANES]>,
    /// The bodies (spring ranges), one per lane.
    bodies: Vec<Range<usize>>,
    /// The rest lengths formed in the walk, if they are (`alike_muscles.rs`).
    muscles: Option<GroupMuscles>,
}

/// The stiffness and damping of a group's template springs in each lane.
// The combinations stay inline: boxed, the benchmark robots' walk ran 17 % slower (interleaved
// A/B runs), and a group holds one `Params`.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Params {
    /// At most [`COMBOS`] distinct (stiffness, damping) (a few materials): each spring and lane
    /// an index into them, picked by a permute. Eight bytes per template spring.
    Combos {
        k: [f64; COMBOS],
        c: [f64; COMBOS],
        index: Vec<[u8; LANES]>,
    },
    /// Each spring and lane its own (128 bytes per template spring).
    Lanes { k: Vec<Lanes>, c: Vec<Lanes> },
}

impl Params {
    /// [`Params::Combos`] when the lanes hold at most [`COMBOS`] distinct pairs (a lane
    /// without the spring counts as (0, 0)).
    fn compact(self) -> Self {
        let Self::Lanes { k, c } = &self else {
            return self;
        };
        let mut pairs: Vec<(u64, u64)> = Vec::new();
        let mut index = Vec::with_capacity(k.len());
        for (kj, cj) in k.iter().zip(c) {
            let mut row = [0u8; LANES];
            for (l, r) in row.iter_mut().enumerate() {
                let pair = (kj[l].to_bits(), cj[l].to_bits());
                let at = match pairs.iter().position(|&p| p == pair) {
                    Some(at) => at,
                    None if pairs.len() < COMBOS => {
                        pairs.push(pair);
                        pairs.len() - 1
                    }
                    None => return self,
                };
                *r = at as u8;
            }
            index.push(row);
        }
        let value = |i: usize, of: fn((u64, u64)) -> u64| {
            pairs.get(i).map_or(0.0, |&p| f64::from_bits(of(p)))
        };
        Self::Combos {
            k: std::array::from_fn(|i| value(i, |p| p.0)),
            c: std::array::from_fn(|i| value(i, |p| p.1)),
            index,
        }
    }
}

/// The rest length (m) of template spring `j` in every lane (methods, not closures, so that
/// they are inlined into the walk compiled for the CPU's instructions).
trait LaneRests {
    fn at(&self, j: usize) -> Lanes;
}

impl LaneRests for CombosRest<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> Lanes {
        self.rest(j)
    }
}

impl LaneRests for LanesRest<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> Lanes {
        self.rest(j)
    }
}

/// The stored rest lengths, transposed.
struct StoredRest<'a>(&'a [Lanes]);

impl LaneRests for StoredRest<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> Lanes {
        self.0[j]
    }
}

/// The stiffness (N/m) and damping (N*s/m) of template spring `j` in every lane.
trait LaneParams {
    fn at(&self, j: usize) -> (Lanes, Lanes);
}

/// [`Params::Combos`] for a walk, with the instructions to pick them.
struct CombosParams<'a> {
    k: &'a [f64; COMBOS],
    c: &'a [f64; COMBOS],
    index: &'a [[u8; LANES]],
    wide: Wide,
}

impl LaneParams for CombosParams<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> (Lanes, Lanes) {
        let i = &self.index[j];
        (pick16(self.k, i, self.wide), pick16(self.c, i, self.wide))
    }
}

/// [`Params::Lanes`] for a walk.
struct LanesParams<'a> {
    k: &'a [Lanes],
    c: &'a [Lanes],
}

impl LaneParams for LanesParams<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> (Lanes, Lanes) {
        (self.k[j], self.c[j])
    }
}

/// A body's places and template keys, when it qualifies.
struct Candidate {
    run: Range<usize>,
    /// Each mass it touches, by its place.
    masses: Vec<(Place, u32)>,
    /// Each spring's key, in list order.
    keys: Vec<Key>,
}

/// Forms template groups from the bodies `runs` (in spring order) of one chunk, with initial
/// positions `pos` (m); returns the groups and the bodies left out.
pub(super) fn find_templates(
    sp: &SpringArrays,
    pos: &[DVec3],
    runs: Vec<Range<usize>>,
) -> (Vec<TemplateGroup>, Vec<Range<usize>>) {
    let mut left = Vec::new();
    let mut candidates = Vec::new();
    for run in runs {
        match candidate(sp, pos, run.clone()) {
            Some(c) => candidates.push(c),
            None => left.push(run),
        }
    }
    let mut groups = Vec::new();
    for batch in candidates.chunks(LANES) {
        match (batch.len() > 1)
            .then(|| TemplateGroup::new(sp, batch))
            .flatten()
        {
            Some(g) => groups.push(g),
            None => left.extend(batch.iter().map(|c| c.run.clone())),
        }
    }
    left.sort_by_key(|r| r.start);
    (groups, left)
}

/// Body `run`'s places and keys, or `None` when it does not qualify (see the module docs).
fn candidate(sp: &SpringArrays, pos: &[DVec3], run: Range<usize>) -> Option<Candidate> {
    if run.len() > MAX_SPRINGS {
        return None;
    }
    let ends = &sp.ends[run.clone()];
    let mut touched: Vec<u32> = ends.iter().flatten().copied().collect();
    touched.sort_unstable();
    touched.dedup();
    if touched.len() > MAX_MASSES || touched.last().is_none_or(|&i| i as usize >= pos.len()) {
        return None;
    }
    let corner = touched
        .iter()
        .fold(DVec3::INFINITY, |m, &i| m.min(pos[i as usize]));
    let place = |i: u32| -> Option<Place> {
        let d = (pos[i as usize] - corner) / PLACE_QUANTUM;
        d.is_finite()
            .then(|| [d.z.round() as i64, d.y.round() as i64, d.x.round() as i64])
    };
    let masses: Vec<(Place, u32)> = touched
        .iter()
        .map(|&i| place(i).map(|p| (p, i)))
        .collect::<Option<_>>()?;
    // Places in the masses' index order, and the springs listed by their masses.
    let increasing = masses.windows(2).all(|w| w[0].0 < w[1].0);
    let listed = ends.windows(2).all(|w| w[0] <= w[1]);
    if !(increasing && listed) {
        return None;
    }
    let place_of = |i: u32| masses[masses.partition_point(|m| m.1 < i)].0;
    let mut keys: Vec<Key> = Vec::with_capacity(ends.len());
    for &[a, b] in ends {
        let (pa, pb) = (place_of(a), place_of(b));
        let repeat = match keys.last() {
            Some(&(qa, qb, r)) if (qa, qb) == (pa, pb) => r + 1,
            _ => 0,
        };
        keys.push((pa, pb, repeat));
    }
    Some(Candidate { run, masses, keys })
}

impl TemplateGroup {
    /// The group of `bodies` (2 to [`LANES`]), or `None` when they fill less than [`MIN_FILL`]
    /// of its lanes, it is too large, or its lanes disagree on a spring's law.
    fn new(sp: &SpringArrays, bodies: &[Candidate]) -> Option<Self> {
        let mut places: BTreeMap<Place, u32> = BTreeMap::new();
        let mut slots: BTreeMap<Key, u32> = BTreeMap::new();
        for c in bodies {
            places.extend(c.masses.iter().map(|&(p, _)| (p, 0)));
            slots.extend(c.keys.iter().map(|&k| (k, 0)));
        }
        let used: usize = bodies.iter().map(|c| c.keys.len()).sum();
        let fill = used as f64 / (LANES * slots.len()) as f64;
        if fill < MIN_FILL || places.len() > MAX_MASSES || slots.len() > MAX_SPRINGS {
            return None;
        }
        for (i, v) in places.values_mut().enumerate() {
            *v = i as u32;
        }
        for (i, v) in slots.values_mut().enumerate() {
            *v = i as u32;
        }
        let n = slots.len();
        let mut g = Self {
            ends: slots
                .keys()
                .map(|(a, b, _)| [places[a], places[b]])
                .collect(),
            active: vec![0; n],
            spring: vec![[u32::MAX; LANES]; n],
            params: Params::Lanes {
                k: vec![[0.0; LANES]; n],
                c: vec![[0.0; LANES]; n],
            },
            material: vec![false; n],
            mass: vec![[u32::MAX; LANES]; places.len()],
            bodies: bodies.iter().map(|c| c.run.clone()).collect(),
            muscles: None,
        };
        for (l, c) in bodies.iter().enumerate() {
            for &(p, m) in &c.masses {
                g.mass[places[&p] as usize][l] = m;
            }
            for (s, key) in c.run.clone().zip(&c.keys) {
                let j = slots[key] as usize;
                let p = sp.params(s);
                if g.active[j] != 0 && g.material[j] != p.material {
                    return None;
                }
                g.active[j] |= 1 << l;
                g.spring[j][l] = s as u32;
                g.material[j] = p.material;
                if let Params::Lanes { k, c } = &mut g.params {
                    (k[j][l], c[j][l]) = (p.k, p.c);
                }
            }
        }
        g.params = g.params.compact();
        Some(g)
    }

    /// Gives the group the rest lengths to form in the walk where it can (`drivers`, `None`:
    /// it does not), and marks its springs in `formed` when it does.
    pub(super) fn form_rest(&mut self, drivers: Option<&[Driver]>, formed: &mut [bool]) {
        let spring = &self.spring;
        let of =
            |j: usize, l: usize| Some(spring[j][l] as usize).filter(|&s| s != u32::MAX as usize);
        self.muscles = drivers.and_then(|d| GroupMuscles::of_lanes(spring.len(), of, d));
        if self.muscles.is_some() {
            for r in &self.bodies {
                formed[r.clone()].fill(true);
            }
        }
    }

    /// Sets spring `s`'s driver if the group forms its rest length; `false` when it cannot any
    /// more (then [`TemplateGroup::form_rest`] again).
    pub(super) fn set_driver(&mut self, s: usize, driver: Driver) -> bool {
        let Some(m) = self.muscles.as_mut() else {
            return true;
        };
        let Some(l) = self.bodies.iter().position(|r| r.contains(&s)) else {
            return true;
        };
        match self.spring.iter().position(|row| row[l] as usize == s) {
            Some(j) => m.set(j, l, driver).is_some(),
            None => true,
        }
    }

    /// Whether the group keeps its stiffness and damping per lane (not as combinations).
    #[cfg(test)]
    pub(super) fn params_per_lane(&self) -> bool {
        matches!(self.params, Params::Lanes { .. })
    }

    /// Springs walked in lanes.
    pub(super) fn springs(&self) -> usize {
        self.bodies.iter().map(Range::len).sum()
    }
}

/// Walks `groups` of a chunk (force buffer `force` from mass `lo`) and returns their damping
/// power, W; `sines` are the waves' sines (`Waves::sines`) for groups that form rest lengths.
pub(super) fn walk_templates(
    sp: &SpringArrays,
    (pos, vel): (&[DVec3], &[DVec3]),
    sines: &[f64],
    groups: &[TemplateGroup],
    (lo, force): (usize, &mut [DVec3]),
) -> f64 {
    if groups.is_empty() {
        return 0.0;
    }
    with_scratch(|scratch| {
        pulp::Arch::new().dispatch(TemplatesWalk {
            sp,
            pos,
            vel,
            sines,
            groups,
            lo,
            force,
            scratch,
        })
    })
}

/// The template groups of a chunk, for the instruction set `pulp` picked.
struct TemplatesWalk<'a> {
    sp: &'a SpringArrays,
    pos: &'a [DVec3],
    vel: &'a [DVec3],
    sines: &'a [f64],
    groups: &'a [TemplateGroup],
    lo: usize,
    force: &'a mut [DVec3],
    scratch: &'a mut Scratch,
}

impl pulp::WithSimd for TemplatesWalk<'_> {
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(mut self, _simd: S) -> f64 {
        let mut power = 0.0;
        let wide: Wide = wide();
        for g in self.groups {
            load(self.scratch, g, self.pos, self.vel);
            let lanes = match &g.params {
                Params::Combos { k, c, index } => {
                    let params = CombosParams { k, c, index, wide };
                    self.walk_rests(g, wide, &params)
                }
                Params::Lanes { k, c } => self.walk_rests(g, wide, &LanesParams { k, c }),
            };
            power += lanes[..g.bodies.len()].iter().sum::<f64>();
            store(self.scratch, g, self.lo, self.force);
        }
        power
    }
}

impl TemplatesWalk<'_> {
    /// [`walk`] of group `g` (its states loaded) with stiffness and damping `params`, the rest
    /// lengths formed or stored.
    #[inline(always)]
    fn walk_rests(&mut self, g: &TemplateGroup, wide: Wide, params: &impl LaneParams) -> Lanes {
        let Scratch { state, force, rest } = &mut *self.scratch;
        match g.muscles.as_ref().map(|m| m.rests(self.sines, wide)) {
            Some(Rests::Combos(r)) => walk(g, (state, force), &r, params),
            Some(Rests::Lanes(r)) => walk(g, (state, force), &r, params),
            None => {
                load_rest(rest, g, self.sp);
                walk(g, (state, force), &StoredRest(rest), params)
            }
        }
    }
}

/// Transposes the lanes' states into the scratch by template mass, and zeroes its forces.
#[inline(always)]
fn load(s: &mut Scratch, g: &TemplateGroup, pos: &[DVec3], vel: &[DVec3]) {
    s.state.resize(g.mass.len(), [[0.0; LANES]; 6]);
    s.force.clear();
    s.force.resize(g.mass.len(), [[0.0; LANES]; 3]);
    for (state, row) in s.state.iter_mut().zip(&g.mass) {
        for (l, &m) in row.iter().enumerate() {
            let Some((p, v)) = pos.get(m as usize).zip(vel.get(m as usize)) else {
                continue;
            };
            for (c, x) in [p.x, p.y, p.z, v.x, v.y, v.z].into_iter().enumerate() {
                state[c][l] = x;
            }
        }
    }
}

/// Transposes the group's stored rest lengths into `scratch` (0 where a lane has no spring).
#[inline(always)]
fn load_rest(scratch: &mut Vec<Lanes>, g: &TemplateGroup, sp: &SpringArrays) {
    scratch.clear();
    scratch.extend(
        g.spring
            .iter()
            .map(|row| row.map(|s| sp.rest.get(s as usize).copied().unwrap_or(0.0))),
    );
}

/// Writes each lane's forces into the chunk's force buffer (`force[m - lo]`).
#[inline(always)]
fn store(s: &Scratch, g: &TemplateGroup, lo: usize, force: &mut [DVec3]) {
    for (f, row) in s.force.iter().zip(&g.mass) {
        for (l, &m) in row.iter().enumerate() {
            if m != u32::MAX {
                force[m as usize - lo] = DVec3::new(f[0][l], f[1][l], f[2][l]);
            }
        }
    }
}

/// The template walk, every lane at once: each lane the scalar walk of its body (see the module
/// docs), its forces into `force` and its dissipated power (W) returned.
#[inline(always)]
fn walk(
    g: &TemplateGroup,
    (state, force): (&[[Lanes; 6]], &mut [[Lanes; 3]]),
    rest: &impl LaneRests,
    params: &impl LaneParams,
) -> Lanes {
    let mut power = [0.0; LANES];
    let mut run_mass = usize::MAX;
    let mut run = [[0.0; LANES]; 3];
    // The lanes that started the current run.
    let mut started = 0u8;
    for (j, &[a, b]) in g.ends.iter().enumerate() {
        let (a, b) = (a as usize, b as usize);
        if a != run_mass {
            if run_mass != usize::MAX {
                add_run(&mut force[run_mass], &run, started);
            }
            (run_mass, run, started) = (a, [[0.0; LANES]; 3], 0);
        }
        let active = g.active[j];
        started |= active;
        let (k, c) = params.at(j);
        let (f, pw, len2) =
            spring_lanes(&state[a], &state[b], &rest.at(j), (&k, &c), g.material[j]);
        let fb = &mut force[b];
        // A lane without this spring, or with it at zero length, adds -0.0 and subtracts +0.0:
        // every value keeps its bits (see `springs_alike.rs`).
        let live = |l: usize| active & (1 << l) != 0 && len2[l] != 0.0;
        for c in 0..3 {
            for l in 0..LANES {
                run[c][l] -= if live(l) { f[c][l] } else { 0.0 };
            }
            for l in 0..LANES {
                fb[c][l] += if live(l) { f[c][l] } else { -0.0 };
            }
        }
        for l in 0..LANES {
            power[l] += if live(l) { pw[l] } else { -0.0 };
        }
    }
    if run_mass != usize::MAX {
        add_run(&mut force[run_mass], &run, started);
    }
    power
}

/// `force += run` in the lanes of `started` (`-0.0`, a no-op, in the others).
#[inline(always)]
fn add_run(force: &mut [Lanes; 3], run: &[Lanes; 3], started: u8) {
    for c in 0..3 {
        for l in 0..LANES {
            force[c][l] += if started & (1 << l) != 0 {
                run[c][l]
            } else {
                -0.0
            };
        }
    }
}

/// A template spring in every lane, from mass state `a` to `b` with rest lengths `rest`,
/// stiffness `k` and damping `c`, of the material law or not: the force on `b` (N), the damping
/// power (W) and the squared length (m^2), by the operations of `spring_force` in the scalar
/// walk's order.
#[inline(always)]
fn spring_lanes(
    a: &[Lanes; 6],
    b: &[Lanes; 6],
    rest: &Lanes,
    (k, c): (&Lanes, &Lanes),
    material: bool,
) -> ([Lanes; 3], Lanes, Lanes) {
    let mut f = [[0.0; LANES]; 3];
    let mut power = [0.0; LANES];
    let mut length2 = [0.0; LANES];
    for l in 0..LANES {
        let (dx, dy, dz) = (a[0][l] - b[0][l], a[1][l] - b[1][l], a[2][l] - b[2][l]);
        let len2 = (dx * dx + dy * dy) + dz * dz;
        let len = len2.sqrt();
        let (nx, ny, nz) = (dx / len, dy / len, dz / len);
        let k_eff = if material { k[l] / rest[l] } else { k[l] };
        let (dvx, dvy, dvz) = (a[3][l] - b[3][l], a[4][l] - b[4][l], a[5][l] - b[5][l]);
        let vrel = (dvx * nx + dvy * ny) + dvz * nz;
        let s = k_eff * (len - rest[l]) + c[l] * vrel;
        f[0][l] = s * nx;
        f[1][l] = s * ny;
        f[2][l] = s * nz;
        power[l] = c[l] * vrel * vrel;
        length2[l] = len2;
    }
    (f, power, length2)
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use glam::DVec3;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::formed_rest::FormedRest;
    use super::super::springs::{walk_chunk_scalar, Chunk};
    use super::super::springs_alike::{walk_alike, AlikePlan};
    use super::super::tables::SpringArrays;
    use crate::model::{Spring, SpringLaw};

    /// `count` bodies cut at random from a 3 x 3 x 2 grid (0.1 m apart, bodies 1 m apart in
    /// `x`), masses numbered by place: each takes most of one random list of 40 pairs of grid
    /// points (some from a point to itself), listed by their masses, some repeated, stiffness
    /// 1 or 2 (`many`: any in 1..2), all of law `law`. The springs, each body's spring range and
    /// the initial positions.
    fn grid_bodies(
        count: usize,
        (law, many): (SpringLaw, bool),
        rng: &mut ChaCha8Rng,
    ) -> (Vec<Spring>, Vec<Range<usize>>, Vec<DVec3>) {
        let pool: Vec<(usize, usize)> = (0..40)
            .map(|_| {
                let u = rng.random_range(0..18);
                let v = if rng.random_bool(0.05) {
                    u
                } else {
                    rng.random_range(0..18)
                };
                (u, v)
            })
            .collect();
        let (mut springs, mut runs, mut initial) = (Vec::new(), Vec::new(), Vec::new());
        for b in 0..count {
            // Grid point `g` (x fastest, then y, then z) is mass `index[g]` of this body.
            let mut index = [None; 18];
            for (g, slot) in index.iter_mut().enumerate() {
                if rng.random_bool(0.85) {
                    *slot = Some(initial.len() as u32);
                    let (x, y, z) = (g % 3, g / 3 % 3, g / 9);
                    let p = DVec3::new(x as f64, y as f64, z as f64) * 0.1;
                    initial.push(p + DVec3::X * b as f64);
                }
            }
            let mut body: Vec<Spring> = Vec::new();
            for &(u, v) in &pool {
                let (Some(a), Some(b)) = (index[u], index[v]) else {
                    continue;
                };
                if rng.random_bool(0.85) {
                    let k = if many {
                        rng.random_range(1.0..2.0)
                    } else {
                        f64::from(rng.random_range(1..=2u8))
                    };
                    let mut s = Spring::hooke(a, b, k, 0.1).with_damping(0.5);
                    s.law = law;
                    body.push(s);
                }
            }
            body.sort_by_key(|s| (s.a, s.b));
            if let Some(&last) = body.last().filter(|_| rng.random_bool(0.3)) {
                body.push(last);
            }
            let start = springs.len();
            springs.extend(body);
            if springs.len() > start {
                runs.push(start..springs.len());
            }
        }
        (springs, runs, initial)
    }

    /// Bodies of different shapes on templates give each body exactly the scalar walk's forces:
    /// random cuts of one grid (so their runs, repeats, springs of zero length, stiffness and
    /// rest lengths differ from lane to lane), 2 to 20 bodies (full and partial groups), both
    /// laws.
    #[test]
    fn bodies_on_a_template_give_the_scalar_walks_bits() {
        let mut grouped = 0;
        // Groups with stiffness and damping picked from combinations, and per lane.
        let mut layouts = [0; 2];
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let law = if seed % 4 == 3 {
                SpringLaw::Material
            } else {
                SpringLaw::Hooke
            };
            let many = seed % 3 == 1;
            let count = rng.random_range(2..=20);
            let (springs, runs, initial) = grid_bodies(count, (law, many), &mut rng);
            if springs.is_empty() {
                continue;
            }
            let mut sp = SpringArrays::new(&springs);
            for r in &mut sp.rest {
                *r = if rng.random_bool(0.1) && law == SpringLaw::Hooke {
                    0.0
                } else {
                    rng.random_range(0.01..0.3)
                };
            }
            let n = initial.len();
            // States: the grid moved a little, some masses on top of one another.
            let pos: Vec<DVec3> = initial
                .iter()
                .enumerate()
                .map(|(i, &p)| {
                    if i % 7 == 0 {
                        initial[i - i % 2]
                    } else {
                        p + DVec3::new(rng.random(), rng.random(), rng.random()) * 0.02
                    }
                })
                .collect();
            let vel: Vec<DVec3> = (0..n)
                .map(|_| DVec3::new(rng.random(), rng.random(), -1.0))
                .collect();
            let mut reference = Chunk {
                springs: 0..springs.len(),
                lo: 0,
                force: vec![DVec3::splat(f64::NAN); n],
                dissipated: f64::NAN,
                piece: None,
                alike: None,
                formed: false,
            };
            let Some(plan) = AlikePlan::find(&sp, &initial, &runs) else {
                continue;
            };
            grouped += plan.template_groups();
            for l in plan.template_layouts() {
                layouts[usize::from(l)] += 1;
            }
            let mut lanes = Chunk {
                alike: Some(plan),
                ..reference.clone()
            };
            walk_chunk_scalar(&sp, &pos, &vel, &mut reference);
            let none = FormedRest::default();
            walk_alike(&sp, (&pos, &vel), (&none, &[]), &mut lanes);
            let bits = |c: &Chunk| -> Vec<u64> {
                let f = c.force.iter().flat_map(|f| f.to_array());
                f.map(f64::to_bits).collect()
            };
            assert!(bits(&lanes) == bits(&reference), "seed {seed}");
            let (a, b) = (lanes.dissipated, reference.dissipated);
            assert!(
                (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                "seed {seed}: {a} {b}"
            );
        }
        assert!(grouped >= 20, "{grouped} template groups");
        assert!(layouts[0] > 0 && layouts[1] > 0, "{layouts:?}");
    }
}
