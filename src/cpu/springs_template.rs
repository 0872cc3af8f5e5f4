//! The spring pass over small bodies of different shapes cut from one grid (a population of
//! voxel robots): up to eight bodies walked side by side on a common template, one per SIMD
//! lane, each lane performing exactly the scalar walk of its own body.
//!
//! A body qualifies when its masses keep, by index, the order of their places in the grid (their
//! initial positions relative to the body's lowest corner, by `z`, then `y`, then `x`), and its springs are listed by their masses `(a, b)` (the `VoxelBody`
//! builder lists them so). Placed by position, the bodies of a group then share one sorted list
//! of template springs (the union of theirs, keyed by the two grid places and, for repeated
//! pairs, the repeat), and each body's springs are a sub-sequence of it in the body's own order.
//! The lanes walk (`springs_lanes.rs`) walks the template: a lane whose body lacks a template
//! spring adds `-0.0` (a no-op, signed zeros included) instead of its force, and a run of
//! springs from one template mass is added to that mass only in lanes that had a spring in it,
//! as the scalar walk adds a run only when it started one. So every body's forces are the scalar
//! walk's, bit for bit (tests below).
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

use super::lanes::{Lanes, Wide, COMBOS, LANES};
use super::springs_lanes::{CombosParams, LaneGroup, LanesParams, Scratch, WithParams};
use super::tables::{SpringArrays, SpringParams};
use crate::model::SpringLaw;

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
    /// Each template spring's law (as the walks apply it: `SpringParams::law`).
    law: Vec<SpringLaw>,
    /// Each template mass's mass in each lane (`u32::MAX`: none).
    mass: Vec<[u32; LANES]>,
    /// The bodies (spring ranges), one per lane.
    bodies: Vec<Range<usize>>,
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
            law: vec![SpringLaw::Hooke; n],
            mass: vec![[u32::MAX; LANES]; places.len()],
            bodies: bodies.iter().map(|c| c.run.clone()).collect(),
        };
        for (l, c) in bodies.iter().enumerate() {
            for &(p, m) in &c.masses {
                g.mass[places[&p] as usize][l] = m;
            }
            for (s, key) in c.run.clone().zip(&c.keys) {
                let j = slots[key] as usize;
                let p = sp.params(s);
                if g.active[j] != 0 && g.law[j] != p.law {
                    return None;
                }
                g.active[j] |= 1 << l;
                g.spring[j][l] = s as u32;
                g.law[j] = p.law;
                if let Params::Lanes { k, c } = &mut g.params {
                    (k[j][l], c[j][l]) = (p.k, p.c);
                }
            }
        }
        g.params = g.params.compact();
        Some(g)
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

impl LaneGroup for TemplateGroup {
    #[inline(always)]
    fn ends(&self) -> &[[u32; 2]] {
        &self.ends
    }

    #[inline(always)]
    fn bodies(&self) -> usize {
        self.bodies.len()
    }

    fn body_springs(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.bodies.iter().cloned()
    }

    fn spring_of(&self, j: usize, l: usize) -> Option<usize> {
        Some(self.spring[j][l] as usize).filter(|&s| s != u32::MAX as usize)
    }

    fn slot_of(&self, s: usize, l: usize) -> Option<usize> {
        if !self.bodies.get(l)?.contains(&s) {
            return None;
        }
        self.spring.iter().position(|row| row[l] as usize == s)
    }

    #[inline(always)]
    fn active(&self, j: usize) -> u8 {
        self.active[j]
    }

    #[inline(always)]
    fn law(&self, j: usize, _table: &[SpringParams]) -> SpringLaw {
        self.law[j]
    }

    /// Each template mass's mass in each lane, by template mass.
    #[inline(always)]
    fn load(&self, s: &mut Scratch, pos: &[DVec3], vel: &[DVec3]) {
        s.reset(self.mass.len());
        for (k, row) in self.mass.iter().enumerate() {
            for (l, &m) in row.iter().enumerate() {
                if let Some(state) = pos.get(m as usize).zip(vel.get(m as usize)) {
                    s.put(k, l, (*state.0, *state.1));
                }
            }
        }
    }

    /// 0 where a lane has no spring.
    #[inline(always)]
    fn load_rest(&self, rest: &mut Vec<Lanes>, stored: &[f64]) {
        rest.clear();
        rest.extend(
            self.spring
                .iter()
                .map(|row| row.map(|s| stored.get(s as usize).copied().unwrap_or(0.0))),
        );
    }

    #[inline(always)]
    fn store(&self, s: &Scratch, lo: usize, force: &mut [DVec3]) {
        for (f, row) in s.force.iter().zip(&self.mass) {
            for (l, &m) in row.iter().enumerate() {
                if m != u32::MAX {
                    force[m as usize - lo] = DVec3::new(f[0][l], f[1][l], f[2][l]);
                }
            }
        }
    }

    /// Per lane, picked from combinations or each its own.
    #[inline(always)]
    fn with_params<W: WithParams>(&self, _table: &[SpringParams], wide: Wide, work: W) -> Lanes {
        match &self.params {
            Params::Combos { k, c, index } => work.with_params(&CombosParams { k, c, index, wide }),
            Params::Lanes { k, c } => work.with_params(&LanesParams { k, c }),
        }
    }
}
