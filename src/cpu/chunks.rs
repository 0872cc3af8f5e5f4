//! How the spring list is cut into chunks ([`Chunk`]), the unit of parallel work of the spring
//! pass, each with a force buffer spanning the masses its springs touch.
//!
//! Cuts fall where no mass has springs on both sides ("free cuts"), and inside a run of more
//! than [`CHUNK_TARGET`] springs without a free cut (a large body such as a lattice) at fixed
//! distances from the run's own start (see [`piece_len`]), so that the threads share one large
//! body too. Either way a body's cuts depend only on its own springs: a robot of a population
//! gets the same bits alone and in any batch, and the packing of small runs into chunks (about
//! [`CHUNK_TARGET`] springs each, so that both cores share a population of small robots, and a
//! multiple of eight runs where it can, so that bodies alike fill whole groups of SIMD lanes:
//! [`pack_limit`]) changes no bit of any trajectory. The cuts depend only on the model, never on the thread count.

use std::ops::Range;

use glam::DVec3;

use super::lanes::LANES;
use super::springs::Chunk;
use super::springs_alike::AlikePlan;
use super::springs_stencil::StencilBody;
use super::tables::SpringArrays;

/// The most springs in a chunk cut from inside a run without a free cut (a large body): such a
/// run is cut into pieces of at most this many springs, counted from its own first spring, and
/// masses near those cuts get their force from two chunks in chunk order. The cuts inside a body
/// depend only on that body's springs, so its result is the same whatever else the model holds.
pub const SPRINGS_PER_CHUNK: usize = 1 << 17;

/// A run without a free cut is cut into about this many pieces (of [`CHUNK_TARGET`] to
/// [`SPRINGS_PER_CHUNK`] springs): enough for the threads of a many-core machine to share one
/// body of 10 000 springs or more, few enough that the force buffers' overlap (a lattice's
/// springs reach `n^2 + n + 1` masses ahead) stays a few percent of the spring work.
const RUN_PIECES: usize = 16;

/// The length of the pieces a run of `springs` springs without a free cut is cut into, counted
/// from its start (the last piece may be shorter).
fn piece_len(springs: usize) -> usize {
    springs
        .div_ceil(RUN_PIECES)
        .clamp(CHUNK_TARGET, SPRINGS_PER_CHUNK)
}

/// Runs between free cuts are packed into chunks of about this many springs (a run longer than
/// this is a chunk of its own): enough chunks that two or more threads share a population of
/// 10 k springs, few enough that a chunk's work (~25 us at ~6 ns per spring) dwarfs handing it
/// to a thread (~1 us).
pub(super) const CHUNK_TARGET: usize = 4096;

/// Below this many springs a step runs on the caller's thread: handing work to the pool costs
/// more than it saves.
pub(super) const PARALLEL_MIN_SPRINGS: usize = 10_000;

/// Which kernels a world may use besides the scalar walk and the scalar mass pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kernels {
    /// Large regular bodies run the stencil kernel (`springs_stencil.rs`).
    pub(super) stencil: bool,
    /// Small bodies alike run side by side in SIMD lanes (`springs_alike.rs`).
    pub(super) alike: bool,
    /// Blocks of masses run the mass pass in SIMD lanes (`integrate_simd.rs`).
    pub(super) mass_lanes: bool,
    /// The spring walk forms the muscles' rest lengths (`formed_rest.rs`, `alike_muscles.rs`).
    pub(super) formed_rest: bool,
}

impl Kernels {
    /// Every kernel (a new world's default).
    pub(super) const ALL: Self = Self {
        stencil: true,
        alike: true,
        mass_lanes: true,
        formed_rest: true,
    };
}

/// Cuts the springs into chunks (see the module docs) and finds the stencil bodies: a run that
/// fits a stencil (`springs_stencil.rs`) is cut into its pieces instead; a chunk packed from
/// small runs some of which are alike gets its plan for the lanes kernel (`springs_alike.rs`).
pub(super) fn make_chunks(
    sp: &SpringArrays,
    pos: &[DVec3],
    kernels: Kernels,
) -> (Vec<Chunk>, Vec<StencilBody>) {
    let mut chunks = Vec::new();
    let mut stencils = Vec::new();
    let mut pack = 0..0;
    let mut runs: Vec<Range<usize>> = Vec::new();
    let packed = |pack: &Range<usize>, runs: &mut Vec<Range<usize>>| {
        let mut c = chunk(sp, pack.clone());
        c.alike = kernels
            .alike
            .then(|| AlikePlan::find(sp, pos, runs))
            .flatten();
        runs.clear();
        c
    };
    for run in free_runs(sp) {
        if let Some(body) = StencilBody::find(sp, run.clone()).filter(|_| kernels.stencil) {
            if !pack.is_empty() {
                chunks.push(packed(&pack, &mut runs));
            }
            chunks.extend(body.pieces(stencils.len()).into_iter().map(|piece| Chunk {
                springs: piece.springs.clone(),
                lo: piece.window.start,
                force: vec![DVec3::ZERO; piece.window.len()],
                dissipated: 0.0,
                piece: Some(piece),
                alike: None,
                formed: false,
            }));
            stencils.push(body);
            pack = run.end..run.end;
        } else if run.len() > CHUNK_TARGET {
            if !pack.is_empty() {
                chunks.push(packed(&pack, &mut runs));
            }
            let piece = piece_len(run.len());
            let mut start = run.start;
            while start < run.end {
                let end = (start + piece).min(run.end);
                chunks.push(chunk(sp, start..end));
                start = end;
            }
            pack = run.end..run.end;
        } else if !pack.is_empty() && pack.len() + run.len() > pack_limit(runs.len()) {
            chunks.push(packed(&pack, &mut runs));
            pack = run.clone();
            runs.push(run);
        } else {
            pack.end = run.end;
            runs.push(run);
        }
    }
    if !pack.is_empty() {
        chunks.push(packed(&pack, &mut runs));
    }
    (chunks, stencils)
}

/// How many springs a chunk packed from `runs` small runs may hold: [`CHUNK_TARGET`] when `runs`
/// is a multiple of [`LANES`], so that bodies alike fill whole groups of SIMD lanes
/// (`springs_alike.rs`: five bodies of 795 springs in a chunk left three of eight lanes idle),
/// up to twice that otherwise.
fn pack_limit(runs: usize) -> usize {
    if runs.is_multiple_of(LANES) {
        CHUNK_TARGET
    } else {
        2 * CHUNK_TARGET
    }
}

/// The shortest runs of springs between free cuts, in order: a cut before spring `s` is free
/// when no mass has springs both before and from `s` on.
fn free_runs(sp: &SpringArrays) -> Vec<std::ops::Range<usize>> {
    let n = sp.len();
    let masses = sp
        .ends
        .iter()
        .map(|&[a, b]| a.max(b) as usize + 1)
        .max()
        .unwrap_or(0);
    // First and last spring of each mass.
    let mut span = vec![(usize::MAX, 0usize); masses];
    for (s, &[a, b]) in sp.ends.iter().enumerate() {
        for m in [a as usize, b as usize] {
            span[m].0 = span[m].0.min(s);
            span[m].1 = span[m].1.max(s);
        }
    }
    // covered[s] > 0: some mass has springs before s and at or after s.
    let mut covered = vec![0i64; n + 1];
    for &(first, last) in span.iter().filter(|s| s.0 != usize::MAX) {
        covered[first + 1] += 1;
        covered[last + 1] -= 1;
    }
    let mut runs = Vec::new();
    let (mut start, mut open) = (0, 0i64);
    for (s, c) in covered.iter().enumerate().take(n).skip(1) {
        open += c;
        if open == 0 {
            runs.push(start..s);
            start = s;
        }
    }
    if start < n {
        runs.push(start..n);
    }
    runs
}

/// The chunk of `springs` (not empty), its force buffer spanning the masses they touch.
fn chunk(sp: &SpringArrays, springs: std::ops::Range<usize>) -> Chunk {
    let (mut lo, mut hi) = (u32::MAX, 0u32);
    for &[a, b] in &sp.ends[springs.clone()] {
        lo = lo.min(a).min(b);
        hi = hi.max(a).max(b);
    }
    Chunk {
        springs,
        lo: lo as usize,
        force: vec![DVec3::ZERO; (hi - lo + 1) as usize],
        dissipated: 0.0,
        piece: None,
        alike: None,
        formed: false,
    }
}

#[cfg(test)]
mod tests {
    use super::{make_chunks, piece_len, Kernels, CHUNK_TARGET, RUN_PIECES, SPRINGS_PER_CHUNK};
    use crate::cpu::tables::SpringArrays;
    use crate::model::Spring;

    /// The scalar walk only.
    const SCALAR: Kernels = Kernels {
        stencil: false,
        alike: false,
        mass_lanes: false,
        formed_rest: false,
    };

    /// A spring from `a` to `b` whose stiffness alternates with `a` (so a chain of them never
    /// fits a stencil, which wants one stiffness per offset, and the scalar chunks are tested).
    fn link(a: u32, b: u32) -> Spring {
        Spring::hooke(a, b, 1.0 + f64::from(a % 2), 1.0)
    }

    /// `count` bodies of `per` springs each, in a chain over `per + 1` masses of their own.
    fn bodies(count: u32, per: u32) -> SpringArrays {
        let springs: Vec<Spring> = (0..count)
            .flat_map(|b| {
                let first = b * (per + 1);
                (0..per).map(move |i| link(first + i, first + i + 1))
            })
            .collect();
        SpringArrays::new(&springs)
    }

    #[test]
    fn chunks_never_split_a_body_smaller_than_a_chunk() {
        // 500 bodies of 94 springs (an inchworm's count): packed into chunks of a whole number
        // of groups of eight bodies (48: the first multiple of eight past CHUNK_TARGET springs),
        // each cut on a body boundary, and covering every spring once.
        let sp = bodies(500, 94);
        let chunks = make_chunks(&sp, &[], SCALAR).0;
        assert!(chunks.len() >= 10, "{} chunks", chunks.len());
        let mut next = 0;
        for (i, c) in chunks.iter().enumerate() {
            assert_eq!(c.springs.start, next);
            assert_eq!(
                c.springs.start % 94,
                0,
                "chunk splits a body at {}",
                c.springs.start
            );
            assert!(c.springs.len() <= 2 * CHUNK_TARGET);
            if i + 1 < chunks.len() {
                assert_eq!(c.springs.len(), 48 * 94, "chunk {i}");
            }
            next = c.springs.end;
        }
        assert_eq!(next, sp.len());
        // Bodies of 795 springs (a voxel block): eight to a chunk, not the five of CHUNK_TARGET.
        let chunks = make_chunks(&bodies(20, 795), &[], SCALAR).0;
        let lens: Vec<usize> = chunks.iter().map(|c| c.springs.len()).collect();
        assert_eq!(lens, [8 * 795, 8 * 795, 4 * 795]);
    }

    #[test]
    fn a_body_larger_than_a_chunk_is_cut_every_piece_from_its_start() {
        // A small body, then one chain of 2.5 x 2^17 springs: the chain's cuts fall
        // piece_len(2.5 x 2^17) springs apart from its own first spring (so its bits are those it
        // has alone), and the small body keeps a chunk of its own.
        let big = SPRINGS_PER_CHUNK * 5 / 2;
        let piece = piece_len(big);
        assert_eq!(piece, big.div_ceil(RUN_PIECES));
        let mut springs: Vec<Spring> = (0..10).map(|i| link(i, i + 1)).collect();
        springs.extend((0..big as u32).map(|i| link(11 + i, 12 + i)));
        let chunks = make_chunks(&SpringArrays::new(&springs), &[], SCALAR).0;
        let cuts: Vec<_> = chunks.iter().map(|c| c.springs.clone()).collect();
        let expected: Vec<_> = std::iter::once(0..10)
            .chain(
                (0..big)
                    .step_by(piece)
                    .map(|s| 10 + s..10 + (s + piece).min(big)),
            )
            .collect();
        assert_eq!(cuts, expected);
        assert_eq!((chunks[0].lo, chunks[0].force.len()), (0, 11));
        // Pieces are at most 2^17 springs (the lattice at n = 80 keeps its 2^17 cuts) and at
        // least a packed chunk's size.
        assert_eq!(piece_len(50 * SPRINGS_PER_CHUNK), SPRINGS_PER_CHUNK);
        assert_eq!(piece_len(CHUNK_TARGET + 1), CHUNK_TARGET);
    }

    #[test]
    fn a_spring_joining_two_bodies_keeps_them_in_one_chunk() {
        // Three bodies of 3000 springs: the first two packed in one chunk (6000 springs, under
        // twice CHUNK_TARGET), the third in another; a last spring from the first body's first
        // mass to the third body makes the three one run.
        let mut springs: Vec<Spring> = Vec::new();
        for b in 0..3 {
            springs.extend((0..3000).map(|i| link(3001 * b + i, 3001 * b + i + 1)));
        }
        let cuts = |springs: &[Spring]| -> Vec<_> {
            let chunks = make_chunks(&SpringArrays::new(springs), &[], SCALAR).0;
            chunks.iter().map(|c| c.springs.clone()).collect()
        };
        assert_eq!(cuts(&springs), [0..6000, 6000..9000]);
        springs.push(link(0, 9002));
        // Now one run of 9001 springs, cut as one body: every CHUNK_TARGET from its start.
        let t = CHUNK_TARGET;
        assert_eq!(cuts(&springs), [0..t, t..2 * t, 2 * t..9001]);
    }

    #[test]
    fn a_body_of_ten_thousand_springs_is_shared_between_threads() {
        // Regression: a single body of 10 000 to 131 072 springs (a lattice at n = 14 to 30) was
        // one chunk, so its spring pass ran on one thread. Now it is cut into pieces counted from
        // its own start, the same pieces after a small body as alone.
        for per in [10_000u32, 40_000, 131_072] {
            let alone = make_chunks(&bodies(1, per), &[], SCALAR).0;
            assert!(alone.len() >= 2, "{per} springs: {} chunks", alone.len());
            let piece = piece_len(per as usize);
            assert!(piece <= (per as usize).div_ceil(RUN_PIECES).max(CHUNK_TARGET));
            let mut springs: Vec<Spring> = (0..10).map(|i| link(i, i + 1)).collect();
            springs.extend((0..per).map(|i| link(11 + i, 12 + i)));
            let batch = make_chunks(&SpringArrays::new(&springs), &[], SCALAR).0;
            let shifted: Vec<_> = batch[1..]
                .iter()
                .map(|c| c.springs.start - 10..c.springs.end - 10)
                .collect();
            let own: Vec<_> = alone.iter().map(|c| c.springs.clone()).collect();
            assert_eq!(shifted, own, "{per} springs");
        }
    }
}
