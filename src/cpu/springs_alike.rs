//! The spring pass over bodies alike: small bodies of one shape (a herd of identical creatures,
//! a population evolving one body's controller) walked side by side, one body per SIMD lane.
//!
//! Two bodies (runs of springs between free cuts, see `chunks.rs`) are alike when their spring
//! lists are the same relative to each body's lowest mass: the same count, the same ends less
//! that mass, the same stiffness, damping and law (the same index into the spring table). Rest
//! lengths may differ (each body's own, actuated or not), as may the states. The bodies of a
//! chunk that have an alike partner in it are walked in groups of [`LANES`] (the last group of a
//! shape padded by repeating its last body, whose extra lanes are dropped) by the lanes walk
//! (`springs_lanes.rs`), each lane exactly the scalar walk of its body: bodies never share a
//! mass, so each body's force is bit for bit the scalar walk's, alone or in any batch, on any
//! instruction set (tests below). A group's masses are its bodies' relative mass indices, each
//! lane's at the body's lowest mass plus that index.
//!
//! A chunk's plan ([`AlikePlan`]) holds its groups of bodies alike, its groups of bodies on a
//! template (`springs_template.rs`) and its single bodies (the scalar walk, `springs_simd.rs`).
//! The chunk's dissipated power is summed over the groups of bodies alike, then over the
//! template groups, then over the single bodies (a fixed order given by the chunk, so energy
//! totals stay bit-identical run to run and on any thread count; they differ from the scalar
//! walk's in the last bits).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use glam::DVec3;

use super::formed_rest::{Driver, FormedRest};
use super::lanes::{Lanes, Wide, LANES};
use super::springs_lanes::{
    form_rest, set_driver, walk_groups, LaneGroup, Muscled, Scratch, SharedParams, WithParams,
};
use super::springs_simd::walk_range;
use super::springs_template::{find_templates, TemplateGroup};
use super::tables::{SpringArrays, SpringParams};
use crate::model::SpringLaw;

/// Largest body walked in lanes, in masses (its mass indices, lowest to highest): its scratch
/// (`48 LANES` bytes per mass) stays in the L1 and L2 caches.
const MAX_MASSES: usize = 512;

/// Largest body walked in lanes, in springs (its rest lengths take `8 LANES` bytes each).
const MAX_SPRINGS: usize = 4096;

/// A body's first spring and lowest mass.
type Body = (usize, usize);

/// The spring list shared by alike bodies, relative to each body's lowest mass.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Template {
    /// Each spring's masses less the body's lowest mass.
    ends: Vec<[u32; 2]>,
    /// Each spring's index into the spring table.
    param: Vec<u32>,
}

/// A shape: its template, how many masses its index range spans, and which it touches.
#[derive(Debug)]
pub(super) struct Shape {
    template: Template,
    /// `1 +` the highest relative mass index.
    masses: usize,
    /// The relative mass indices some spring joins (the others belong to other bodies).
    touched: Vec<u32>,
}

/// Up to [`LANES`] alike bodies of one chunk.
#[derive(Clone, Debug)]
pub(super) struct Group {
    shape: Arc<Shape>,
    /// Each lane's first spring (the last body repeated in the padding lanes).
    first_spring: [usize; LANES],
    /// Each lane's lowest mass.
    first_mass: [usize; LANES],
    /// Lanes holding a body of their own (the rest are padding).
    bodies: usize,
}

/// How a chunk of small bodies is walked: its groups of alike bodies, then its single bodies.
#[derive(Clone, Debug, Default)]
pub(super) struct AlikePlan {
    groups: Vec<Muscled<Group>>,
    /// Groups of bodies of different shapes on one template (`springs_template.rs`).
    templates: Vec<Muscled<TemplateGroup>>,
    /// Bodies with no alike partner in the chunk (or too large) and in no template group,
    /// walked by the scalar kernel.
    singles: Vec<Range<usize>>,
}

impl AlikePlan {
    /// The plan for a chunk made of the bodies `runs` (in spring order, initial positions `pos`,
    /// m), or `None` when no two of them are alike or share a template.
    pub(super) fn find(sp: &SpringArrays, pos: &[DVec3], runs: &[Range<usize>]) -> Option<Self> {
        let mut shapes: HashMap<Template, usize> = HashMap::new();
        // Each shape and its bodies' (first spring, lowest mass).
        let mut members: Vec<(Arc<Shape>, Vec<Body>)> = Vec::new();
        let mut singles = Vec::new();
        for run in runs {
            let Some((template, first_mass)) = template(sp, run.clone()) else {
                singles.push(run.clone());
                continue;
            };
            let k = match shapes.get(&template) {
                Some(&k) => k,
                None => {
                    let shape = Arc::new(Shape::new(template.clone()));
                    members.push((shape, Vec::new()));
                    shapes.insert(template, members.len() - 1);
                    members.len() - 1
                }
            };
            members[k].1.push((run.start, first_mass));
        }
        let mut groups = Vec::new();
        for (shape, bodies) in members {
            if bodies.len() < 2 {
                let (s, _) = bodies[0];
                singles.push(s..s + shape.template.ends.len());
                continue;
            }
            for lanes in bodies.chunks(LANES) {
                let last = lanes[lanes.len() - 1];
                let at = |l: usize| lanes.get(l).copied().unwrap_or(last);
                groups.push(Muscled::new(Group {
                    shape: shape.clone(),
                    first_spring: std::array::from_fn(|l| at(l).0),
                    first_mass: std::array::from_fn(|l| at(l).1),
                    bodies: lanes.len(),
                }));
            }
        }
        singles.sort_by_key(|r| r.start);
        let (templates, singles) = find_templates(sp, pos, singles);
        let templates: Vec<_> = templates.into_iter().map(Muscled::new).collect();
        (!(groups.is_empty() && templates.is_empty())).then_some(Self {
            groups,
            templates,
            singles,
        })
    }

    /// Gives each group the rest lengths of its springs to form in the walk where it can
    /// (`alike_muscles.rs`; each spring's driver in `drivers`, `None`: no group does), and
    /// marks those springs in `formed`.
    pub(super) fn form_rest(&mut self, drivers: Option<&[Driver]>, formed: &mut [bool]) {
        for g in &mut self.groups {
            form_rest(g, drivers, formed);
        }
        for t in &mut self.templates {
            form_rest(t, drivers, formed);
        }
    }

    /// Sets spring `s`'s driver in the group that forms its rest length, if one does; `false`
    /// when that group cannot form it any more (then [`AlikePlan::form_rest`] again).
    pub(super) fn set_driver(&mut self, s: usize, driver: Driver) -> bool {
        self.groups.iter_mut().all(|g| set_driver(g, s, driver))
            && self.templates.iter_mut().all(|t| set_driver(t, s, driver))
    }

    /// Marks the single bodies' springs in `formed` (their chunk forms its rest lengths).
    pub(super) fn mark_singles(&self, formed: &mut [bool]) {
        for run in &self.singles {
            formed[run.clone()].fill(true);
        }
    }

    /// How many template groups the plan has (`springs_template.rs`).
    #[cfg(test)]
    pub(super) fn template_groups(&self) -> usize {
        self.templates.len()
    }

    /// Whether each template group keeps its stiffness and damping per lane.
    #[cfg(test)]
    pub(super) fn template_layouts(&self) -> impl Iterator<Item = bool> + '_ {
        self.templates.iter().map(|t| t.group.params_per_lane())
    }

    /// Each group's muscles, if it forms its rest lengths.
    #[cfg(test)]
    pub(super) fn group_muscles(
        &self,
    ) -> impl Iterator<Item = Option<&super::alike_muscles::GroupMuscles>> {
        self.groups.iter().map(|g| g.muscles.as_ref())
    }

    /// Springs walked in lanes (padding lanes not counted), of bodies alike and on templates.
    pub(super) fn springs(&self) -> usize {
        let per = |g: &Muscled<Group>| g.group.bodies * g.group.shape.template.ends.len();
        let templates: usize = self.templates.iter().map(|t| t.group.springs()).sum();
        self.groups.iter().map(per).sum::<usize>() + templates
    }
}

/// The template of body `run` and its lowest mass, or `None` when it is too large for lanes.
fn template(sp: &SpringArrays, run: Range<usize>) -> Option<(Template, usize)> {
    if run.len() > MAX_SPRINGS {
        return None;
    }
    let ends = &sp.ends[run.clone()];
    let first = ends.iter().flatten().min().copied()?;
    let last = ends.iter().flatten().max().copied()?;
    if (last - first) as usize >= MAX_MASSES {
        return None;
    }
    let template = Template {
        ends: ends.iter().map(|&[a, b]| [a - first, b - first]).collect(),
        param: sp.param[run].to_vec(),
    };
    Some((template, first as usize))
}

impl Shape {
    fn new(template: Template) -> Self {
        let masses = template.ends.iter().flatten().max().map_or(0, |&m| m + 1) as usize;
        let mut touched: Vec<u32> = template.ends.iter().flatten().copied().collect();
        touched.sort_unstable();
        touched.dedup();
        Self {
            template,
            masses,
            touched,
        }
    }
}

/// Walks a chunk's plan `plan` into `force` (the chunk's force buffer, zeroed, from mass `lo`)
/// and returns the chunk's dissipated power, W (see the module docs). `formed` is the table of
/// rest lengths formed in the walk and the actuators' waves at the step's start
/// (`Waves::sines`), for the groups that form their rest lengths and, when the chunk is formed
/// (the `bool`), its single bodies.
pub(super) fn walk_alike(
    sp: &SpringArrays,
    (pos, vel): (&[DVec3], &[DVec3]),
    ((rests, sines), chunk_formed): ((&FormedRest, &[f64]), bool),
    plan: &AlikePlan,
    (lo, force): (usize, &mut [DVec3]),
) -> f64 {
    let stored = (&sp.table[..], &sp.rest[..]);
    let mut power = walk_groups(stored, (pos, vel), sines, &plan.groups, (lo, force));
    power += walk_groups(stored, (pos, vel), sines, &plan.templates, (lo, force));
    let singles_formed = Some((rests, sines)).filter(|_| chunk_formed);
    for run in &plan.singles {
        power += walk_range(sp, (pos, vel), singles_formed, run.clone(), (lo, force));
    }
    power
}

impl LaneGroup for Group {
    #[inline(always)]
    fn ends(&self) -> &[[u32; 2]] {
        &self.shape.template.ends
    }

    #[inline(always)]
    fn bodies(&self) -> usize {
        self.bodies
    }

    fn body_springs(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let n = self.shape.template.ends.len();
        self.first_spring[..self.bodies]
            .iter()
            .map(move |&s| s..s + n)
    }

    fn spring_of(&self, j: usize, l: usize) -> Option<usize> {
        Some(self.first_spring[l] + j)
    }

    fn slot_of(&self, s: usize, l: usize) -> Option<usize> {
        let first = self.first_spring[l];
        (first..first + self.shape.template.ends.len())
            .contains(&s)
            .then(|| s - first)
    }

    /// Every lane holds every spring of the shape.
    #[inline(always)]
    fn active(&self, _j: usize) -> u8 {
        u8::MAX
    }

    #[inline(always)]
    fn law(&self, j: usize, table: &[SpringParams]) -> SpringLaw {
        table[self.shape.template.param[j] as usize].law
    }

    /// The relative masses some spring touches, each lane's at its body's lowest mass.
    #[inline(always)]
    fn load(&self, s: &mut Scratch, pos: &[DVec3], vel: &[DVec3]) {
        s.reset(self.shape.masses);
        for &k in &self.shape.touched {
            let k = k as usize;
            for l in 0..LANES {
                let m = self.first_mass[l] + k;
                s.put(k, l, (pos[m], vel[m]));
            }
        }
    }

    #[inline(always)]
    fn load_rest(&self, rest: &mut Vec<Lanes>, stored: &[f64]) {
        let springs = self.shape.template.ends.len();
        rest.resize(springs, [0.0; LANES]);
        for l in 0..LANES {
            let first = self.first_spring[l];
            for (r, &x) in rest.iter_mut().zip(&stored[first..first + springs]) {
                r[l] = x;
            }
        }
    }

    #[inline(always)]
    fn store(&self, s: &Scratch, lo: usize, force: &mut [DVec3]) {
        for &k in &self.shape.touched {
            let f = &s.force[k as usize];
            for l in 0..self.bodies {
                force[self.first_mass[l] + k as usize - lo] = DVec3::new(f[0][l], f[1][l], f[2][l]);
            }
        }
    }

    /// One stiffness and damping per template spring, from the spring table.
    #[inline(always)]
    fn with_params<W: WithParams>(&self, table: &[SpringParams], _wide: Wide, work: W) -> Lanes {
        let param = &self.shape.template.param;
        work.with_params(&SharedParams { table, param })
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use glam::DVec3;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::formed_rest::FormedRest;
    use super::super::springs_simd::tests::{walk_chunk_scalar, Chunk};
    use super::super::tables::SpringArrays;
    use super::{walk_alike, AlikePlan, LANES};
    use crate::model::{Spring, SpringLaw};

    /// `n` velocities, each random in `x` and `y` and -1 m/s in `z`.
    fn falling(n: usize, rng: &mut ChaCha8Rng) -> Vec<DVec3> {
        (0..n)
            .map(|_| DVec3::new(rng.random(), rng.random(), -1.0))
            .collect()
    }

    /// Walks chunk `c` by `plan` (no rest lengths formed), as the pass runs it.
    fn walk_planned(
        sp: &SpringArrays,
        state: (&[DVec3], &[DVec3]),
        plan: &AlikePlan,
        c: &mut Chunk,
    ) {
        c.force.fill(DVec3::ZERO);
        let none = (&FormedRest::default(), &[][..]);
        c.dissipated = walk_alike(sp, state, (none, false), plan, (c.lo, &mut c.force));
    }

    /// A random body over masses `0..masses`: runs sharing their first mass, springs listed
    /// from either end, duplicates, both laws, a mass joined to itself.
    fn random_body(masses: u32, count: usize, rng: &mut ChaCha8Rng) -> Vec<Spring> {
        let mut springs: Vec<Spring> = (1..masses)
            .map(|m| Spring::hooke(m - 1, m, 1e3, 0.1))
            .collect();
        while springs.len() < count {
            let a = rng.random_range(0..masses);
            for _ in 0..rng.random_range(1..6) {
                let b = rng.random_range(0..masses);
                let law = [SpringLaw::Hooke, SpringLaw::Material][rng.random_range(0..2)];
                let k = [1.0e3, 2.5e4][rng.random_range(0..2)];
                let c = [0.0, 0.7, 3.0][rng.random_range(0..3)];
                springs.push(Spring::hooke(a, b, k, 0.1).with_damping(c).with_law(law));
                if rng.random_bool(0.1) {
                    springs.push(*springs.last().expect("just pushed"));
                }
            }
        }
        springs
    }

    /// `copies` copies of `body` (of `masses` masses) one after another, with `gap` unused
    /// masses between them, and one body of another shape in the middle; the bodies' spring
    /// ranges.
    fn batch(
        body: &[Spring],
        masses: u32,
        copies: u32,
        gap: u32,
    ) -> (Vec<Spring>, Vec<Range<usize>>) {
        let mut springs = Vec::new();
        let mut runs = Vec::new();
        let mut first = 0;
        for i in 0..copies {
            let start = springs.len();
            springs.extend(body.iter().map(|s| Spring {
                a: s.a + first,
                b: s.b + first,
                ..*s
            }));
            if i == copies / 2 {
                // Another shape: one spring stiffer.
                springs[start].stiffness *= 2.0;
            }
            runs.push(start..springs.len());
            first += masses + gap;
        }
        (springs, runs)
    }

    /// The bits of a chunk's force buffer.
    fn bits(c: &Chunk) -> Vec<u64> {
        c.force
            .iter()
            .flat_map(|f| f.to_array())
            .map(f64::to_bits)
            .collect()
    }

    /// Bodies alike walked in lanes give each body exactly the scalar walk's forces (and the
    /// dampers' power up to rounding): random shapes of 2 to 40 masses, 1 to 41 copies (full
    /// groups, padded ones, a shape with one body), gaps of unused masses between bodies, each
    /// copy its own random rest lengths (some 0) and states (some springs of zero length).
    #[test]
    fn bodies_alike_in_lanes_give_the_scalar_walks_bits() {
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let masses = rng.random_range(2..40);
            let body = random_body(masses, rng.random_range(1..200), &mut rng);
            let copies = rng.random_range(1..=41);
            let (springs, runs) = batch(&body, masses, copies, rng.random_range(0..3));
            let mut sp = SpringArrays::new(&springs);
            for r in &mut sp.rest {
                *r = if rng.random_bool(0.1) {
                    0.0
                } else {
                    rng.random_range(0.01..1.5)
                };
            }
            let n = springs.iter().map(|s| s.a.max(s.b)).max().unwrap() as usize + 1;
            let coarse = |rng: &mut ChaCha8Rng| f64::from(rng.random_range(0..2u8)) * 0.1;
            let pos: Vec<DVec3> = (0..n)
                .map(|i| {
                    if i % 3 == 0 {
                        DVec3::new(coarse(&mut rng), coarse(&mut rng), coarse(&mut rng))
                    } else {
                        DVec3::new(rng.random(), rng.random(), rng.random())
                    }
                })
                .collect();
            let vel = falling(n, &mut rng);
            let mut reference = Chunk::unwalked(0..springs.len(), 0, n);
            let plan = AlikePlan::find(&sp, &[], &runs);
            assert_eq!(plan.is_some(), copies >= 3, "seed {seed}: {copies} copies");
            let mut lanes = reference.clone();
            walk_chunk_scalar(&sp, &pos, &vel, &mut reference);
            if let Some(plan) = &plan {
                walk_planned(&sp, (&pos, &vel), plan, &mut lanes);
                assert_eq!(bits(&lanes), bits(&reference), "seed {seed}");
                let (p, q) = (lanes.dissipated, reference.dissipated);
                assert!(
                    (p - q).abs() <= 1e-12 * q.abs(),
                    "seed {seed}: power {p} against {q}"
                );
            }
        }
    }

    /// A group holds at most LANES bodies, and every body is walked once: in a group or alone.
    #[test]
    fn every_body_is_walked_once() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let body = random_body(12, 50, &mut rng);
        let (springs, runs) = batch(&body, 12, 2 * LANES as u32 + 3, 1);
        let sp = SpringArrays::new(&springs);
        let plan = AlikePlan::find(&sp, &[], &runs).expect("alike bodies");
        let singles: usize = plan.singles.iter().map(Range::len).sum();
        assert_eq!(plan.springs() + singles, springs.len());
        assert!(plan
            .groups
            .iter()
            .all(|g| g.group.bodies <= LANES && g.group.bodies >= 2));
        assert_eq!(plan.singles.len(), 1, "the stiffer copy walks alone");
    }

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
            let vel = falling(n, &mut rng);
            let mut reference = Chunk::unwalked(0..springs.len(), 0, n);
            let Some(plan) = AlikePlan::find(&sp, &initial, &runs) else {
                continue;
            };
            grouped += plan.template_groups();
            for l in plan.template_layouts() {
                layouts[usize::from(l)] += 1;
            }
            let mut lanes = reference.clone();
            walk_chunk_scalar(&sp, &pos, &vel, &mut reference);
            walk_planned(&sp, (&pos, &vel), &plan, &mut lanes);
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
