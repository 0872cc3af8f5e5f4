//! The walk of small bodies side by side, one body per SIMD lane: the skeleton that groups of
//! bodies alike (`springs_alike.rs`) and groups of bodies on a common template
//! (`springs_template.rs`) share. A kind of group tells the walk its template springs, which
//! lanes hold each spring, its stiffness and damping per lane and how to load and store its
//! bodies ([`LaneGroup`]); this file does the rest, the same for both: per group, load the
//! lanes' states into structure-of-arrays scratch (`[mass][component][lane]`), take the rest
//! lengths (formed in the walk, `alike_muscles.rs`, or the stored ones), walk the template
//! springs in every lane at once ([`walk`]), store the forces, and sum the lanes' damping power.
//!
//! Each lane performs exactly the scalar walk of its own body (`springs_simd.rs`): the same
//! formula (`spring_law::spring_force`, over [`F64x8`]) in list order, the runs of springs that
//! share their first mass summed in a register, the same skip of zero-length springs (a masked
//! update, not an added zero). A lane without a template spring adds `-0.0` instead of its
//! force (a no-op, signed zeros included), and a run is added to its mass only in lanes that
//! had a spring in it, as the scalar walk adds a run only when it started one. So every body's
//! forces are the scalar walk's, bit for bit, on any instruction set. The dampers' power is
//! summed per lane, then over each group's lanes in order (a fixed order given by the chunk:
//! other last bits than the scalar walk's).

use std::cell::RefCell;
use std::ops::Range;

use glam::DVec3;

use super::alike_muscles::{CombosRest, GroupMuscles, LanesRest, Rests};
use super::formed_rest::Driver;
use super::lanes::{pick16, wide, F64x8, Lanes, Wide, COMBOS, LANES};
use super::tables::SpringParams;
use crate::model::spring_law::{k_eff, spring_force};
use crate::model::SpringLaw;

/// Per-thread scratch of one group.
#[derive(Default)]
pub(super) struct Scratch {
    /// Position x, y, z then velocity x, y, z of each group mass, per lane.
    pub(super) state: Vec<[Lanes; 6]>,
    /// Force on each group mass, per lane, N.
    pub(super) force: Vec<[Lanes; 3]>,
    /// Stored rest length of each template spring, per lane, m.
    pub(super) rest: Vec<Lanes>,
}

impl Scratch {
    /// Room for `masses` group masses, their forces zeroed.
    #[inline(always)]
    pub(super) fn reset(&mut self, masses: usize) {
        self.state.resize(masses, [[0.0; LANES]; 6]);
        self.force.clear();
        self.force.resize(masses, [[0.0; LANES]; 3]);
    }

    /// Puts position `p` (m) and velocity `v` (m/s) into lane `l` of group mass `k`'s state.
    #[inline(always)]
    pub(super) fn put(&mut self, k: usize, l: usize, (p, v): (DVec3, DVec3)) {
        let state = &mut self.state[k];
        for (c, x) in [p.x, p.y, p.z, v.x, v.y, v.z].into_iter().enumerate() {
            state[c][l] = x;
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// A group of up to [`LANES`] bodies walked side by side, as a kind of group lays it out.
pub(super) trait LaneGroup {
    /// Each template spring's masses (indices into the scratch), in walk order.
    fn ends(&self) -> &[[u32; 2]];
    /// How many lanes hold a body of their own (the others' power is dropped).
    fn bodies(&self) -> usize;
    /// The springs of each body (one range per lane holding one).
    fn body_springs(&self) -> impl Iterator<Item = Range<usize>> + '_;
    /// The spring in lane `l` at template spring `j`, if the lane has one there.
    fn spring_of(&self, j: usize, l: usize) -> Option<usize>;
    /// The template spring of spring `s` in lane `l`, if the lane's body has it.
    fn slot_of(&self, s: usize, l: usize) -> Option<usize>;
    /// Each template spring's lanes holding it (bit `l` for lane `l`).
    fn active(&self, j: usize) -> u8;
    /// The law of template spring `j` (its table entries in `table`).
    fn law(&self, j: usize, table: &[SpringParams]) -> SpringLaw;
    /// Transposes the lanes' states into `s.state` and zeroes `s.force`.
    fn load(&self, s: &mut Scratch, pos: &[DVec3], vel: &[DVec3]);
    /// Transposes the stored rest lengths `stored` (m, every spring's) into `rest`.
    fn load_rest(&self, rest: &mut Vec<Lanes>, stored: &[f64]);
    /// Writes each body's forces into the chunk's force buffer (`force[m - lo]`).
    fn store(&self, s: &Scratch, lo: usize, force: &mut [DVec3]);
    /// Runs `work` with the template springs' stiffness and damping per lane.
    fn with_params<W: WithParams>(&self, table: &[SpringParams], wide: Wide, work: W) -> Lanes;
}

/// A group of bodies walked side by side (a [`LaneGroup`]), and the rest lengths the walk forms
/// for it, if it does (`alike_muscles.rs`; `None`: the stored ones).
#[derive(Clone, Debug)]
pub(super) struct Muscled<G> {
    pub(super) group: G,
    pub(super) muscles: Option<GroupMuscles>,
}

impl<G> Muscled<G> {
    /// `group`, reading the stored rest lengths.
    pub(super) fn new(group: G) -> Self {
        Self {
            group,
            muscles: None,
        }
    }
}

/// The rest length (m) of template spring `j` in every lane (methods, not closures, so that
/// they are inlined into the walk compiled for the CPU's instructions).
pub(super) trait LaneRests {
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
pub(super) trait LaneParams {
    fn at(&self, j: usize) -> (Lanes, Lanes);
}

/// One stiffness and damping per template spring, shared by the lanes: their entries of the
/// spring table.
pub(super) struct SharedParams<'a> {
    pub(super) table: &'a [SpringParams],
    /// Each template spring's index into `table`.
    pub(super) param: &'a [u32],
}

impl LaneParams for SharedParams<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> (Lanes, Lanes) {
        let p = &self.table[self.param[j] as usize];
        ([p.k; LANES], [p.c; LANES])
    }
}

/// At most [`COMBOS`] distinct (stiffness, damping), each template spring and lane an index
/// into them, picked by a permute.
pub(super) struct CombosParams<'a> {
    pub(super) k: &'a [f64; COMBOS],
    pub(super) c: &'a [f64; COMBOS],
    pub(super) index: &'a [[u8; LANES]],
    pub(super) wide: Wide,
}

impl LaneParams for CombosParams<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> (Lanes, Lanes) {
        let i = &self.index[j];
        (pick16(self.k, i, self.wide), pick16(self.c, i, self.wide))
    }
}

/// Each template spring and lane its own stiffness and damping.
pub(super) struct LanesParams<'a> {
    pub(super) k: &'a [Lanes],
    pub(super) c: &'a [Lanes],
}

impl LaneParams for LanesParams<'_> {
    #[inline(always)]
    fn at(&self, j: usize) -> (Lanes, Lanes) {
        (self.k[j], self.c[j])
    }
}

/// Work to do with a group's [`LaneParams`] (so that each layout compiles its own walk).
pub(super) trait WithParams {
    fn with_params<P: LaneParams>(self, params: &P) -> Lanes;
}

/// Gives group `g` the rest lengths to form in the walk where it can (each spring's driver in
/// `drivers`, `None`: it does not), and marks its bodies' springs in `formed` when it does.
pub(super) fn form_rest<G: LaneGroup>(
    g: &mut Muscled<G>,
    drivers: Option<&[Driver]>,
    formed: &mut [bool],
) {
    let group = &g.group;
    let springs = group.ends().len();
    let spring_of = |j, l| group.spring_of(j, l);
    g.muscles = drivers.and_then(|d| GroupMuscles::of_lanes(springs, spring_of, d));
    if g.muscles.is_some() {
        for r in group.body_springs() {
            formed[r].fill(true);
        }
    }
}

/// Sets spring `s`'s driver where group `g` forms its rest length; `false` when the group
/// cannot form it any more (then [`form_rest`] again).
pub(super) fn set_driver<G: LaneGroup>(g: &mut Muscled<G>, s: usize, driver: Driver) -> bool {
    let Some(m) = g.muscles.as_mut() else {
        return true;
    };
    let group = &g.group;
    (0..LANES).all(|l| {
        group
            .slot_of(s, l)
            .is_none_or(|j| m.set(j, l, driver).is_some())
    })
}

/// Walks `groups` of a chunk (force buffer `force` from mass `lo`) and returns their damping
/// power, W: each group's lanes summed in lane order, then the groups in order. `rest` holds
/// the stored rest lengths (m), `sines` the waves' sines (`Waves::sines`) for groups that form
/// theirs.
pub(super) fn walk_groups<G: LaneGroup>(
    (table, rest): (&[SpringParams], &[f64]),
    (pos, vel): (&[DVec3], &[DVec3]),
    sines: &[f64],
    groups: &[Muscled<G>],
    (lo, force): (usize, &mut [DVec3]),
) -> f64 {
    if groups.is_empty() {
        return 0.0;
    }
    SCRATCH.with(|s| {
        super::simd::arch().dispatch(GroupsWalk {
            table,
            rest,
            pos,
            vel,
            sines,
            groups,
            lo,
            force,
            scratch: &mut s.borrow_mut(),
        })
    })
}

/// The groups of a chunk, for the instruction set `pulp` picked.
struct GroupsWalk<'a, G> {
    table: &'a [SpringParams],
    rest: &'a [f64],
    pos: &'a [DVec3],
    vel: &'a [DVec3],
    sines: &'a [f64],
    groups: &'a [Muscled<G>],
    lo: usize,
    force: &'a mut [DVec3],
    scratch: &'a mut Scratch,
}

impl<G: LaneGroup> pulp::WithSimd for GroupsWalk<'_, G> {
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> f64 {
        let mut power = 0.0;
        let wide = wide();
        for Muscled { group: g, muscles } in self.groups {
            g.load(self.scratch, self.pos, self.vel);
            let walk = GroupWalk {
                g,
                muscles: muscles.as_ref(),
                scratch: &mut *self.scratch,
                table: self.table,
                rest: self.rest,
                sines: self.sines,
                wide,
            };
            let lanes = g.with_params(self.table, wide, walk);
            power += lanes[..g.bodies()].iter().sum::<f64>();
            g.store(self.scratch, self.lo, self.force);
        }
        power
    }
}

/// One group's walk (its states loaded), for its layout of stiffness and damping.
struct GroupWalk<'a, G> {
    g: &'a G,
    muscles: Option<&'a GroupMuscles>,
    scratch: &'a mut Scratch,
    table: &'a [SpringParams],
    rest: &'a [f64],
    sines: &'a [f64],
    wide: Wide,
}

impl<G: LaneGroup> WithParams for GroupWalk<'_, G> {
    #[inline(always)]
    fn with_params<P: LaneParams>(self, params: &P) -> Lanes {
        let GroupWalk {
            g,
            muscles,
            scratch,
            table,
            rest,
            sines,
            wide,
        } = self;
        let Scratch {
            state,
            force,
            rest: stored,
        } = scratch;
        let state = (&state[..], &mut force[..]);
        match muscles.map(|m| m.rests(sines, wide)) {
            Some(Rests::Combos(r)) => walk(g, table, state, &r, params),
            Some(Rests::Lanes(r)) => walk(g, table, state, &r, params),
            None => {
                g.load_rest(stored, rest);
                walk(g, table, state, &StoredRest(stored), params)
            }
        }
    }
}

/// The walk of group `g`, every lane at once: each lane the scalar walk of its body (see the
/// module docs), from the lanes' states `state`, each template spring's rest lengths `rest` and
/// stiffness and damping `params`; its forces into `force` and its dissipated power (W)
/// returned.
// The lane loops index several arrays with one lane, as the scalar walk's lines read.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn walk(
    g: &impl LaneGroup,
    table: &[SpringParams],
    (state, force): (&[[Lanes; 6]], &mut [[Lanes; 3]]),
    rest: &impl LaneRests,
    params: &impl LaneParams,
) -> Lanes {
    let mut power = [0.0; LANES];
    let mut run_mass = usize::MAX;
    let mut run = [[0.0; LANES]; 3];
    // The lanes that started the current run.
    let mut started = 0u8;
    for (j, &[a, b]) in g.ends().iter().enumerate() {
        let (a, b) = (a as usize, b as usize);
        if a != run_mass {
            if run_mass != usize::MAX {
                add_run(&mut force[run_mass], &run, started);
            }
            (run_mass, run, started) = (a, [[0.0; LANES]; 3], 0);
        }
        let active = g.active(j);
        started |= active;
        let (k, c) = params.at(j);
        let r = F64x8(rest.at(j));
        let (sa, sb) = (&state[a], &state[b]);
        // Written out rather than `[0, 1, 2].map(..)`: `array::map` is not always inlined, and
        // out of line it is compiled without the walk's instruction set.
        let diff = |i: usize| F64x8(sa[i]) - F64x8(sb[i]);
        let d = [diff(0), diff(1), diff(2)];
        let dv = [diff(3), diff(4), diff(5)];
        let k_eff = k_eff(g.law(j, table), F64x8(k), r);
        let sf = spring_force(d, dv, r, k_eff, F64x8(c));
        let fb = &mut force[b];
        // A lane without this spring, or with it at zero length, adds -0.0 and subtracts +0.0:
        // every value keeps its bits (x + -0.0 and x - 0.0 are x, signed zeros included), so
        // the sums are plain additions and whole stores (a masked store, which the compiler
        // made of a skipped update, stalls the next load of the same mass). The test is made
        // where it is used (a compare into a mask register, not an array of `bool`s).
        let live = |l: usize| active & (1 << l) != 0 && sf.len2.0[l] != 0.0;
        for c in 0..3 {
            for l in 0..LANES {
                run[c][l] -= if live(l) { sf.f[c].0[l] } else { 0.0 };
            }
            for l in 0..LANES {
                fb[c][l] += if live(l) { sf.f[c].0[l] } else { -0.0 };
            }
        }
        for l in 0..LANES {
            power[l] += if live(l) { sf.power.0[l] } else { -0.0 };
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
