//! The stencil variant of the spring pass, CPU twin of `shaders/springs_stencil.wgsl` (and of
//! the offset search in `src/gpu/stencil.rs`): for large regular bodies, the springs grouped by
//! the index offset between their masses and computed four masses at a time in SIMD lanes.
//!
//! A body (a run of springs between free cuts, see `chunks.rs`) of at least
//! [`STENCIL_MIN_SPRINGS`] springs gets a stencil when every one of its springs fits one: the
//! offsets `|b - a|` are at most [`MAX_OFFSETS`] distinct values, each held by at least a quarter
//! of the body's masses and none reaching past an eighth of them, every offset's springs share
//! one stiffness, damping and law, and no two springs join the same pair of masses in the same
//! slot (a lattice, a cloth grid, a rope). Otherwise the body stays with the scalar walk
//! (`springs_simd.rs`), bit for bit as before. The slot of a spring is `(lower mass, offset)`;
//! a spring listed from its higher mass is computed from the lower one, whose `p_lo - p_hi` is
//! exactly `-(p_hi - p_lo)`, so its force is exactly the negated one.
//!
//! Per spring the kernel calls `spring_law::spring_force`, as the scalar walk does (the same
//! IEEE operations; no FMA, no reciprocal), its offset's law picked once per offset
//! (`spring_law::with_law`); an empty slot or a spring of length exactly 0 adds nothing. What changes is the order in which each mass's force is
//! summed: the body is cut into pieces of whole mass blocks counted from its own first mass
//! (fixed by the body, never by the thread count), each piece with its own force window
//! `[m0, m1 + largest offset)`; within a piece, blocks of [`BLOCK`] masses in order, offsets
//! ascending, and per offset the a-side (`-f`) then the b-side (`+f`). The mass pass adds the
//! windows in chunk order. So a stencil body's bits are the same on any number of threads and
//! alone or next to other bodies, and differ from the scalar walk's only by the reordering of
//! each mass's sum (a few ulp of its largest term; `tests/integration/cpu_stencil.rs`).
//!
//! Positions and velocities are transposed into structure-of-arrays scratch for each piece's
//! window (read once from the state, kept in cache), so four consecutive masses are one vector
//! load; [`pulp::Arch`] compiles the loops for AVX2 where the CPU has it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

use glam::DVec3;

use super::tables::SpringArrays;
use crate::model::spring_law::{spring_force, with_law, Law, WithLaw};
use crate::model::SpringLaw;

/// Bodies with fewer springs stay with the scalar walk: a stencil pays off over many masses.
pub(super) const STENCIL_MIN_SPRINGS: usize = 1 << 15;

/// Most offsets a stencil holds (as the GPU's stencil).
const MAX_OFFSETS: usize = 16;

/// Masses per block: the lanes one pass over an offset computes before the next offset.
const BLOCK: usize = 512;

/// A body's pieces: about this many, of whole blocks (as `chunks.rs` cuts scalar bodies).
const PIECES: usize = 16;

/// Whether the offsets of a body of `masses` masses whose springs join `ends` are regular
/// enough for the stencil to pay off: each offset held by at least a quarter of the masses (an
/// offset costs every mass a slot, filled or not), and the largest at most an eighth of the
/// masses (each piece's window reaches that far past its masses: a body joined end to end by a
/// few far springs would transpose most of itself for every piece).
fn dense(ends: &[[u32; 2]], offsets: &[usize], masses: usize) -> bool {
    let mut held: HashMap<usize, usize> = offsets.iter().map(|&o| (o, 0)).collect();
    for &[a, b] in ends {
        *held.entry(a.abs_diff(b) as usize).or_default() += 1;
    }
    let reach = offsets.iter().copied().max().unwrap_or(0);
    8 * reach <= masses && held.values().all(|&n| 4 * n >= masses)
}

/// One body's stencil.
#[derive(Clone, Debug)]
pub(super) struct StencilBody {
    /// The body's springs (a run of the spring list).
    pub(super) springs: Range<usize>,
    /// Its masses: `first..first + masses` covers every mass its springs join.
    first: usize,
    masses: usize,
    /// Offsets, ascending (all at least 1).
    offsets: Vec<usize>,
    /// Stiffness (N/m, or N for the material law), damping (N*s/m) and law of each offset.
    params: Vec<(f64, f64, SpringLaw)>,
    /// Rest length (m) of slot `(offset k, mass first + j)` at `k * masses + j`; NaN: empty.
    rest: Vec<f64>,
    /// The slot (index into `rest`) of each of the body's springs, in list order.
    slot: Vec<u32>,
}

/// A piece of a stencil body: masses `m0..m1` as the lower masses of their slots, and its
/// chunk of the spring pass.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    /// Index of the body in the world's stencil bodies.
    pub(super) body: usize,
    pub(super) m0: usize,
    pub(super) m1: usize,
    /// The springs its chunk carries: the body's for the first piece (the muscles' per-chunk
    /// rest lengths, `actuation.rs`), an empty range for the others.
    pub(super) springs: Range<usize>,
    /// The masses of its force window, `[m0, m1 + largest offset)` within the body.
    pub(super) window: Range<usize>,
}

impl StencilBody {
    /// The stencil of the run `springs` of `sp` (current rest lengths), or `None` when the run
    /// is too small or not every spring fits (see the module docs).
    pub(super) fn find(sp: &SpringArrays, springs: Range<usize>) -> Option<Self> {
        if springs.len() < STENCIL_MIN_SPRINGS {
            return None;
        }
        let ends = &sp.ends[springs.clone()];
        let first = ends.iter().flatten().min().copied()? as usize;
        let last = ends.iter().flatten().max().copied()? as usize;
        let masses = last - first + 1;
        let mut offset_index: HashMap<usize, usize> = HashMap::new();
        let mut offsets = Vec::new();
        let mut param_of = Vec::new();
        for (i, &[a, b]) in ends.iter().enumerate() {
            let o = a.abs_diff(b) as usize;
            let p = sp.param[springs.start + i];
            if o == 0 {
                return None;
            }
            let k = *offset_index.entry(o).or_insert_with(|| {
                offsets.push(o);
                param_of.push(p);
                offsets.len() - 1
            });
            if offsets.len() > MAX_OFFSETS || param_of[k] != p {
                return None;
            }
        }
        if !dense(ends, &offsets, masses) {
            return None;
        }
        // Offsets ascending, and the slot of every spring.
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        order.sort_by_key(|&k| offsets[k]);
        let rank: HashMap<usize, usize> = order
            .iter()
            .enumerate()
            .map(|(r, &k)| (offsets[k], r))
            .collect();
        let mut rest = vec![f64::NAN; order.len() * masses];
        let mut slot = Vec::with_capacity(ends.len());
        for (i, &[a, b]) in ends.iter().enumerate() {
            let lower = a.min(b) as usize - first;
            let at = rank[&(a.abs_diff(b) as usize)] * masses + lower;
            if !rest[at].is_nan() {
                return None;
            }
            rest[at] = sp.rest[springs.start + i];
            if rest[at].is_nan() {
                return None;
            }
            slot.push(at as u32);
        }
        let params = order
            .iter()
            .map(|&k| {
                let p = &sp.table[param_of[k] as usize];
                (p.k, p.c, p.law)
            })
            .collect();
        Some(Self {
            springs,
            first,
            masses,
            offsets: order.iter().map(|&k| offsets[k]).collect(),
            params,
            rest,
            slot,
        })
    }

    /// Sets the rest length (m) of model spring `s` (one of the body's) in its slot.
    pub(super) fn set_rest(&mut self, s: usize, rest: f64) {
        let at = self.slot[s - self.springs.start] as usize;
        self.rest[at] = rest;
    }

    /// The body's pieces (body index `body`), the chunks of the spring pass it is cut into:
    /// whole blocks from the body's first mass, each with its force window.
    pub(super) fn pieces(&self, body: usize) -> Vec<Piece> {
        let per = self
            .masses
            .div_ceil(PIECES)
            .next_multiple_of(BLOCK)
            .max(4 * BLOCK);
        let reach = self.offsets.last().copied().unwrap_or(0);
        (0..self.masses)
            .step_by(per)
            .map(|j0| {
                let j1 = (j0 + per).min(self.masses);
                let window = (j1 + reach).min(self.masses) - j0;
                let springs = if j0 == 0 {
                    self.springs.clone()
                } else {
                    self.springs.end..self.springs.end
                };
                Piece {
                    body,
                    m0: self.first + j0,
                    m1: self.first + j1,
                    springs,
                    window: self.first + j0..self.first + j0 + window,
                }
            })
            .collect()
    }
}

/// Per-thread scratch: the window's state in structure-of-arrays form, its force, and one
/// offset's per-lane forces.
#[derive(Default)]
struct Scratch {
    /// x, y, z of positions then velocities, each `window` long.
    state: [Vec<f64>; 6],
    /// Force on each window mass, N (x, y, z).
    force: [Vec<f64>; 3],
    /// One block's forces on the b-side masses, N (x, y, z), and damping powers, W.
    lane: [Vec<f64>; 4],
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The stencil kernel over one piece, for the instruction set `pulp` picked.
struct PieceWalk<'a> {
    body: &'a StencilBody,
    piece: &'a Piece,
    pos: &'a [DVec3],
    vel: &'a [DVec3],
    /// The force on the piece's window, N.
    force: &'a mut [DVec3],
    scratch: &'a mut Scratch,
}

impl pulp::WithSimd for PieceWalk<'_> {
    /// The damping power of the piece's springs, W.
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> f64 {
        let PieceWalk {
            body,
            piece,
            pos,
            vel,
            force,
            scratch,
        } = self;
        let lo = piece.window.start;
        load_window(
            scratch,
            &pos[piece.window.clone()],
            &vel[piece.window.clone()],
        );
        let mut power = [0.0f64; 4];
        for b0 in (piece.m0..piece.m1).step_by(BLOCK) {
            let b1 = (b0 + BLOCK).min(piece.m1);
            for (k, &o) in body.offsets.iter().enumerate() {
                // Lanes whose b-side mass exists.
                let end = b1.min((body.first + body.masses).saturating_sub(o));
                if end <= b0 {
                    continue;
                }
                let rest_at = k * body.masses + (b0 - body.first);
                let rest = &body.rest[rest_at..rest_at + (end - b0)];
                block_offset(scratch, b0 - lo, o, rest, body.params[k], &mut power);
            }
        }
        store_window(scratch, force);
        (power[0] + power[1]) + (power[2] + power[3])
    }
}

/// Transposes the window's positions and velocities into the scratch.
#[inline(always)]
fn load_window(scratch: &mut Scratch, pos: &[DVec3], vel: &[DVec3]) {
    for f in &mut scratch.force {
        f.clear();
        f.resize(pos.len(), 0.0);
    }
    let [px, py, pz, vx, vy, vz] = &mut scratch.state;
    for (out, of) in [(px, 0), (py, 1), (pz, 2)] {
        out.clear();
        out.extend(pos.iter().map(|p| p[of]));
    }
    for (out, of) in [(vx, 0), (vy, 1), (vz, 2)] {
        out.clear();
        out.extend(vel.iter().map(|v| v[of]));
    }
}

/// Writes the window's forces into the chunk's force buffer.
#[inline(always)]
fn store_window(scratch: &Scratch, force: &mut [DVec3]) {
    let [fx, fy, fz] = &scratch.force;
    for (j, f) in force.iter_mut().enumerate() {
        *f = DVec3::new(fx[j], fy[j], fz[j]);
    }
}

/// One offset `o` over the lanes `a = j0..j0 + rest.len()` of the window (a-side masses; the
/// b-side masses are `a + o`): each slot's force, then `-f` on the a-side masses and `+f` on the
/// b-side ones, in lane order. `power` gets each lane's damping power in lane `j % 4`.
#[inline(always)]
fn block_offset(
    scratch: &mut Scratch,
    j0: usize,
    o: usize,
    rest: &[f64],
    (k, c, law): (f64, f64, SpringLaw),
    power: &mut [f64; 4],
) {
    let n = rest.len();
    for l in &mut scratch.lane {
        // Lanes past `n` up to a multiple of 4 stay 0 (they are summed into `power`).
        l.resize(n.next_multiple_of(4), 0.0);
        l[n..].fill(0.0);
    }
    let slots = SlotForces {
        scratch: &mut *scratch,
        j0,
        o,
        rest,
        k,
        c,
    };
    with_law(law, slots);
    let [lx, ly, lz, lp] = &scratch.lane;
    for q in lp.chunks_exact(4) {
        for (acc, v) in power.iter_mut().zip(q) {
            *acc += v;
        }
    }
    let [fx, fy, fz] = &mut scratch.force;
    for (f, l) in [(&mut *fx, lx), (&mut *fy, ly), (&mut *fz, lz)] {
        for (f, l) in f[j0..j0 + n].iter_mut().zip(&l[..n]) {
            *f -= *l;
        }
        for (f, l) in f[j0 + o..j0 + o + n].iter_mut().zip(&l[..n]) {
            *f += *l;
        }
    }
}

/// Each lane's slot force (N, into `scratch.lane[0..3]`) and damping power (W, `lane[3]`) for
/// offset `o` over lanes `j0..j0 + rest.len()`, with stiffness `k` and damping `c`:
/// `spring_force` of each slot, in SIMD lanes, compiled once per law.
struct SlotForces<'a> {
    scratch: &'a mut Scratch,
    j0: usize,
    o: usize,
    rest: &'a [f64],
    k: f64,
    c: f64,
}

impl WithLaw for SlotForces<'_> {
    type Output = ();

    #[inline(always)]
    fn with_law<L: Law>(self) {
        let SlotForces {
            scratch,
            j0,
            o,
            rest,
            k,
            c,
        } = self;
        let n = rest.len();
        let [px, py, pz, vx, vy, vz] = &scratch.state;
        let [lx, ly, lz, lp] = &mut scratch.lane;
        let a = j0..j0 + n;
        let b = j0 + o..j0 + o + n;
        let (pax, pay, paz) = (&px[a.clone()], &py[a.clone()], &pz[a.clone()]);
        let (pbx, pby, pbz) = (&px[b.clone()], &py[b.clone()], &pz[b.clone()]);
        let (vax, vay, vaz) = (&vx[a.clone()], &vy[a.clone()], &vz[a]);
        let (vbx, vby, vbz) = (&vx[b.clone()], &vy[b.clone()], &vz[b]);
        let (lx, ly, lz, lp) = (&mut lx[..n], &mut ly[..n], &mut lz[..n], &mut lp[..n]);
        for j in 0..n {
            let r = rest[j];
            let d = [pax[j] - pbx[j], pay[j] - pby[j], paz[j] - pbz[j]];
            let dv = [vax[j] - vbx[j], vay[j] - vby[j], vaz[j] - vbz[j]];
            let sf = spring_force(d, dv, r, L::k_eff(k, r), c);
            // An empty slot (NaN rest) or a zero-length spring adds nothing.
            let live = !r.is_nan() && sf.len2 != 0.0;
            lx[j] = if live { sf.f[0] } else { 0.0 };
            ly[j] = if live { sf.f[1] } else { 0.0 };
            lz[j] = if live { sf.f[2] } else { 0.0 };
            lp[j] = if live { sf.power } else { 0.0 };
        }
    }
}

/// Walks `piece` of `body` into `force`, the force (N) on its window (`Piece::window`), and
/// returns its springs' damping power, W.
pub(super) fn walk_piece(
    body: &StencilBody,
    piece: &Piece,
    (pos, vel): (&[DVec3], &[DVec3]),
    force: &mut [DVec3],
) -> f64 {
    SCRATCH.with(|s| {
        let mut scratch = s.borrow_mut();
        super::simd::arch().dispatch(PieceWalk {
            body,
            piece,
            pos,
            vel,
            force,
            scratch: &mut scratch,
        })
    })
}
