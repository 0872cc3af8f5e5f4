//! The spring pass over bodies alike: small bodies of one shape (a herd of identical creatures,
//! a population evolving one body's controller) walked side by side, one body per SIMD lane.
//!
//! Two bodies (runs of springs between free cuts, see `chunks.rs`) are alike when their spring
//! lists are the same relative to each body's lowest mass: the same count, the same ends less
//! that mass, the same stiffness, damping and law (the same index into the spring table). Rest
//! lengths may differ (each body's own, actuated or not), as may the states. The bodies of a
//! chunk that have an alike partner in it are walked in groups of [`LANES`] (the last group of a
//! shape padded by repeating its last body, whose extra lanes are dropped); each lane performs,
//! for its own body, exactly the scalar walk (`walk_chunk_scalar` in `springs.rs`): the same
//! IEEE operations per spring in list order (`d = p_a - p_b`, `L^2 = (dx dx + dy dy) + dz dz`,
//! `L = sqrt(L^2)`, `n = d / L`, `vrel = (dvx nx + dvy ny) + dvz nz`, `k_eff = k / L0` for the
//! material law, `f = (k_eff (L - L0) + c vrel) n`), the same runs of springs sharing their first
//! mass summed in a register, the same skip of zero-length springs (a masked update, not an
//! added zero). Bodies never share a mass, so each body's force is bit for bit the scalar
//! walk's, alone or in any batch, on any instruction set (tests below).
//!
//! What differs is the chunk's dissipated power: summed per lane, then over the groups' lanes in
//! order, then over the chunk's single bodies (a fixed order given by the chunk, so energy
//! totals stay bit-identical run to run and on any thread count; they differ from the scalar
//! walk's in the last bits).
//!
//! Per group, the bodies' positions and velocities are transposed into structure-of-arrays
//! scratch (`[mass][component][lane]`), so one spring is one vector operation per component
//! over the lanes: no gather in the loop. [`pulp::Arch`] compiles it for AVX2 or AVX-512 where
//! the CPU has it (eight f64 lanes: one AVX-512 register, two AVX2 ones).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use glam::DVec3;

use super::alike_muscles::{GroupMuscles, Rests};
use super::formed_rest::{Driver, FormedRest};
use super::integrate_simd::wide;
use super::springs::Chunk;
use super::springs_simd::walk_range;
use super::springs_template::{find_templates, walk_templates, TemplateGroup};
use super::tables::{SpringArrays, SpringParams};

/// Bodies per group: one per f64 lane of an AVX-512 register.
pub(super) const LANES: usize = 8;

/// Largest body walked in lanes, in masses (its mass indices, lowest to highest): its scratch
/// (`48 LANES` bytes per mass) stays in the L1 and L2 caches.
const MAX_MASSES: usize = 512;

/// Largest body walked in lanes, in springs (its rest lengths take `8 LANES` bytes each).
const MAX_SPRINGS: usize = 4096;

/// A body's first spring and lowest mass.
type Body = (usize, usize);

/// Eight f64 lanes, one per body.
type Lanes = [f64; LANES];

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
    pub(super) first_spring: [usize; LANES],
    /// Each lane's lowest mass.
    first_mass: [usize; LANES],
    /// Lanes holding a body of their own (the rest are padding).
    bodies: usize,
    /// The springs' base lengths, amplitudes and waves when the walk forms their rest lengths
    /// (`alike_muscles.rs`); `None` to read the stored ones.
    muscles: Option<GroupMuscles>,
}

/// How a chunk of small bodies is walked: its groups of alike bodies, then its single bodies.
#[derive(Clone, Debug, Default)]
pub(super) struct AlikePlan {
    groups: Vec<Group>,
    /// Groups of bodies of different shapes on one template (`springs_template.rs`).
    templates: Vec<TemplateGroup>,
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
                groups.push(Group {
                    shape: shape.clone(),
                    first_spring: std::array::from_fn(|l| at(l).0),
                    first_mass: std::array::from_fn(|l| at(l).1),
                    bodies: lanes.len(),
                    muscles: None,
                });
            }
        }
        singles.sort_by_key(|r| r.start);
        let (templates, singles) = find_templates(sp, pos, singles);
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
            let n = g.shape.template.ends.len();
            g.muscles = drivers.and_then(|d| GroupMuscles::new(g, n, d));
            if g.muscles.is_some() {
                for &first in &g.first_spring[..g.bodies] {
                    formed[first..first + n].fill(true);
                }
            }
        }
        for t in &mut self.templates {
            t.form_rest(drivers, formed);
        }
    }

    /// Sets spring `s`'s driver in the group that forms its rest length, if one does; `false`
    /// when that group cannot form it any more (then [`AlikePlan::form_rest`] again).
    pub(super) fn set_driver(&mut self, s: usize, driver: Driver) -> bool {
        for g in &mut self.groups {
            let n = g.shape.template.ends.len();
            let Some(m) = g.muscles.as_mut() else {
                continue;
            };
            for (l, &first) in g.first_spring.iter().enumerate() {
                if (first..first + n).contains(&s) && m.set(s - first, l, driver).is_none() {
                    return false;
                }
            }
        }
        self.templates.iter_mut().all(|t| t.set_driver(s, driver))
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
        self.templates.iter().map(TemplateGroup::params_per_lane)
    }

    /// Each group's muscles, if it forms its rest lengths.
    #[cfg(test)]
    pub(super) fn group_muscles(&self) -> impl Iterator<Item = Option<&GroupMuscles>> {
        self.groups.iter().map(|g| g.muscles.as_ref())
    }

    /// Springs walked in lanes (padding lanes not counted), of bodies alike and on templates.
    pub(super) fn springs(&self) -> usize {
        let per = |g: &Group| g.bodies * g.shape.template.ends.len();
        let templates: usize = self.templates.iter().map(TemplateGroup::springs).sum();
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

/// Per-thread scratch of one group (of bodies alike, or on a template: `springs_template.rs`).
#[derive(Default)]
pub(super) struct Scratch {
    /// Position x, y, z then velocity x, y, z of each relative (or template) mass, per lane.
    pub(super) state: Vec<[Lanes; 6]>,
    /// Force on each relative (or template) mass, per lane, N.
    pub(super) force: Vec<[Lanes; 3]>,
    /// Stored rest length of each template spring, per lane, m.
    pub(super) rest: Vec<Lanes>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// `f` on this thread's scratch.
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}

/// Walks a chunk with an alike plan into its force buffer and dissipated power; `formed` is the
/// table of rest lengths formed in the walk and the actuators' waves at the step's start
/// (`Waves::sines`), for the groups that form their rest lengths and, when the chunk is
/// `formed`, its single bodies.
pub(super) fn walk_alike(
    sp: &SpringArrays,
    (pos, vel): (&[DVec3], &[DVec3]),
    formed: (&FormedRest, &[f64]),
    chunk: &mut Chunk,
) {
    let sines = formed.1;
    let singles_formed = Some(formed).filter(|_| chunk.formed);
    let Chunk {
        lo,
        force,
        dissipated,
        alike,
        ..
    } = chunk;
    let Some(plan) = alike.as_ref() else {
        return;
    };
    force.fill(DVec3::ZERO);
    let mut power = with_scratch(|scratch| {
        pulp::Arch::new().dispatch(GroupsWalk {
            sp,
            pos,
            vel,
            sines,
            groups: &plan.groups,
            lo: *lo,
            force,
            scratch,
        })
    });
    power += walk_templates(sp, (pos, vel), sines, &plan.templates, (*lo, force));
    for run in &plan.singles {
        power += walk_range(sp, (pos, vel), singles_formed, run.clone(), (*lo, force));
    }
    *dissipated = power;
}

/// The groups of a chunk, for the instruction set `pulp` picked.
struct GroupsWalk<'a> {
    sp: &'a SpringArrays,
    pos: &'a [DVec3],
    vel: &'a [DVec3],
    sines: &'a [f64],
    groups: &'a [Group],
    /// The chunk's first mass and force buffer.
    lo: usize,
    force: &'a mut [DVec3],
    scratch: &'a mut Scratch,
}

impl pulp::WithSimd for GroupsWalk<'_> {
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> f64 {
        let mut power = 0.0;
        let wide = wide();
        for g in self.groups {
            load_group(self.scratch, g, self.pos, self.vel);
            let Scratch { state, force, rest } = &mut *self.scratch;
            let (t, table) = (&g.shape.template, &self.sp.table);
            let lanes = match &g.muscles {
                Some(m) => match m.rests(self.sines, wide) {
                    Rests::Combos(r) => walk_group(state, force, t, table, |j| r.rest(j)),
                    Rests::Lanes(r) => walk_group(state, force, t, table, |j| r.rest(j)),
                },
                None => {
                    load_rest(rest, g, self.sp);
                    walk_group(state, force, t, table, |j| rest[j])
                }
            };
            power += lanes[..g.bodies].iter().sum::<f64>();
            store_group(self.scratch, g, self.lo, self.force);
        }
        power
    }
}

/// Transposes the group's states into the scratch, and zeroes its forces.
#[inline(always)]
fn load_group(s: &mut Scratch, g: &Group, pos: &[DVec3], vel: &[DVec3]) {
    let masses = g.shape.masses;
    s.state.resize(masses, [[0.0; LANES]; 6]);
    s.force.clear();
    s.force.resize(masses, [[0.0; LANES]; 3]);
    for &k in &g.shape.touched {
        let k = k as usize;
        let state = &mut s.state[k];
        for l in 0..LANES {
            let (p, v) = (pos[g.first_mass[l] + k], vel[g.first_mass[l] + k]);
            for (c, x) in [p.x, p.y, p.z, v.x, v.y, v.z].into_iter().enumerate() {
                state[c][l] = x;
            }
        }
    }
}

/// Transposes the group's stored rest lengths into `scratch`.
#[inline(always)]
fn load_rest(scratch: &mut Vec<Lanes>, g: &Group, sp: &SpringArrays) {
    let springs = g.shape.template.ends.len();
    scratch.resize(springs, [0.0; LANES]);
    for l in 0..LANES {
        let rest = &sp.rest[g.first_spring[l]..g.first_spring[l] + springs];
        for (r, &x) in scratch.iter_mut().zip(rest) {
            r[l] = x;
        }
    }
}

/// Writes the group's bodies' forces into the chunk's force buffer (`force[m - lo]`).
#[inline(always)]
fn store_group(s: &Scratch, g: &Group, lo: usize, force: &mut [DVec3]) {
    for &k in &g.shape.touched {
        let f = &s.force[k as usize];
        for l in 0..g.bodies {
            force[g.first_mass[l] + k as usize - lo] = DVec3::new(f[0][l], f[1][l], f[2][l]);
        }
    }
}

/// The scalar walk over the template, every lane at once, from the lanes' states `state` and
/// each template spring's rest lengths `rest(j)`: each lane's forces into `force`, and each
/// lane's dissipated power (W), summed in spring order.
#[inline(always)]
fn walk_group(
    state: &[[Lanes; 6]],
    force: &mut [[Lanes; 3]],
    t: &Template,
    table: &[SpringParams],
    rest: impl Fn(usize) -> Lanes,
) -> Lanes {
    let mut power = [0.0; LANES];
    let mut run_mass = usize::MAX;
    let mut run = [[0.0; LANES]; 3];
    for (j, (&[a, b], &param)) in t.ends.iter().zip(&t.param).enumerate() {
        let (a, b) = (a as usize, b as usize);
        if a != run_mass {
            if run_mass != usize::MAX {
                add_lanes(&mut force[run_mass], &run);
            }
            run_mass = a;
            run = [[0.0; LANES]; 3];
        }
        let p = &table[param as usize];
        let (f, pw, len2) = spring_lanes(&state[a], &state[b], &rest(j), p);
        let fb = &mut force[b];
        // A zero-length spring is skipped, not added as zero (-0.0 + 0.0 is +0.0): its lanes add
        // -0.0 and subtract +0.0 instead, which leave every value's bits as they are (x + -0.0
        // and x - 0.0 are x, signed zeros included), so the sums are plain additions and whole
        // stores (a masked store, which the compiler made of a skipped update, stalls the next
        // load of the same mass). The test is made where it is used (a compare into a mask
        // register, not an array of `bool`s).
        let live = |l: usize| len2[l] != 0.0;
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
        add_lanes(&mut force[run_mass], &run);
    }
    power
}

/// `force += run`, lane by lane.
#[inline(always)]
fn add_lanes(force: &mut [Lanes; 3], run: &[Lanes; 3]) {
    for c in 0..3 {
        for l in 0..LANES {
            force[c][l] += run[c][l];
        }
    }
}

/// One template spring in every lane, from mass state `a` to `b` with rest lengths `rest`:
/// the force on `b` (N), the damping power (W), and the squared length (m^2; 0: no force), by
/// the operations of `spring_force`, in the scalar walk's order.
#[inline(always)]
fn spring_lanes(
    a: &[Lanes; 6],
    b: &[Lanes; 6],
    rest: &Lanes,
    p: &SpringParams,
) -> ([Lanes; 3], Lanes, Lanes) {
    let mut f = [[0.0; LANES]; 3];
    let mut power = [0.0; LANES];
    let mut length2 = [0.0; LANES];
    for l in 0..LANES {
        let (dx, dy, dz) = (a[0][l] - b[0][l], a[1][l] - b[1][l], a[2][l] - b[2][l]);
        let len2 = (dx * dx + dy * dy) + dz * dz;
        let len = len2.sqrt();
        let (nx, ny, nz) = (dx / len, dy / len, dz / len);
        let k_eff = if p.material { p.k / rest[l] } else { p.k };
        let (dvx, dvy, dvz) = (a[3][l] - b[3][l], a[4][l] - b[4][l], a[5][l] - b[5][l]);
        let vrel = (dvx * nx + dvy * ny) + dvz * nz;
        let s = k_eff * (len - rest[l]) + p.c * vrel;
        f[0][l] = s * nx;
        f[1][l] = s * ny;
        f[2][l] = s * nz;
        power[l] = p.c * vrel * vrel;
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
    use super::super::tables::SpringArrays;
    use super::{walk_alike, AlikePlan, LANES};
    use crate::model::{Spring, SpringLaw};

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
            let plan = AlikePlan::find(&sp, &[], &runs);
            assert_eq!(plan.is_some(), copies >= 3, "seed {seed}: {copies} copies");
            let mut lanes = Chunk {
                alike: plan,
                ..reference.clone()
            };
            walk_chunk_scalar(&sp, &pos, &vel, &mut reference);
            walk_alike(&sp, (&pos, &vel), (&FormedRest::default(), &[]), &mut lanes);
            if lanes.alike.is_some() {
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
            .all(|g| g.bodies <= LANES && g.bodies >= 2));
        assert_eq!(plan.singles.len(), 1, "the stiffer copy walks alone");
    }
}
