//! How the spring list is cut into chunks ([`Chunk`]), the unit of parallel work of the spring
//! pass, each with a force buffer spanning the masses its springs touch.
//!
//! Cuts fall only where no mass has springs on both sides ("free cuts"), except inside a run of
//! more than [`SPRINGS_PER_CHUNK`] springs without a free cut (a large body such as a lattice),
//! which is cut every [`SPRINGS_PER_CHUNK`] springs from the run's start. So every mass of a run
//! that fits in a chunk gets all its spring force from one chunk, summed in spring order: a robot
//! of a population gets the same bits alone and in any batch, and the packing of runs into
//! chunks (about [`CHUNK_TARGET`] springs each, so that both cores share a population of
//! small robots) changes no bit of any trajectory. The cuts depend only on the model, never on
//! the thread count.

use glam::DVec3;

use super::springs::Chunk;
use super::tables::SpringArrays;

/// The most springs in a chunk cut from inside a run without a free cut (a large body): such a
/// run is cut every this many springs from its start, and masses near those cuts get their force
/// from two chunks. A body of at most this many springs is never split, so its result is the
/// same whatever else the model holds.
pub const SPRINGS_PER_CHUNK: usize = 1 << 17;

/// Runs between free cuts are packed into chunks of about this many springs (a run longer than
/// this is a chunk of its own): enough chunks that two or more threads share a population of
/// 10 k springs, few enough that a chunk's work (~25 us at ~6 ns per spring) dwarfs handing it
/// to a thread (~1 us).
pub(super) const CHUNK_TARGET: usize = 4096;

/// Below this many springs a step runs on the caller's thread: handing work to the pool costs
/// more than it saves.
pub(super) const PARALLEL_MIN_SPRINGS: usize = 10_000;

/// Cuts the springs into chunks (see the module docs).
pub(super) fn make_chunks(sp: &SpringArrays) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut pack = 0..0;
    for run in free_runs(sp) {
        if run.len() > SPRINGS_PER_CHUNK {
            if !pack.is_empty() {
                chunks.push(chunk(sp, pack.clone()));
            }
            let mut start = run.start;
            while start < run.end {
                let end = (start + SPRINGS_PER_CHUNK).min(run.end);
                chunks.push(chunk(sp, start..end));
                start = end;
            }
            pack = run.end..run.end;
        } else if !pack.is_empty() && pack.len() + run.len() > CHUNK_TARGET {
            chunks.push(chunk(sp, pack.clone()));
            pack = run;
        } else {
            pack.end = run.end;
        }
    }
    if !pack.is_empty() {
        chunks.push(chunk(sp, pack));
    }
    chunks
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
    }
}

#[cfg(test)]
mod tests {
    use super::{make_chunks, CHUNK_TARGET, SPRINGS_PER_CHUNK};
    use crate::cpu::tables::SpringArrays;
    use crate::model::Spring;

    /// `count` bodies of `per` springs each, in a chain over `per + 1` masses of their own.
    fn bodies(count: u32, per: u32) -> SpringArrays {
        let springs: Vec<Spring> = (0..count)
            .flat_map(|b| {
                let first = b * (per + 1);
                (0..per).map(move |i| Spring::hooke(first + i, first + i + 1, 1.0, 1.0))
            })
            .collect();
        SpringArrays::new(&springs)
    }

    #[test]
    fn chunks_never_split_a_body_smaller_than_a_chunk() {
        // 500 bodies of 94 springs (an inchworm's count): packed into chunks of at most
        // CHUNK_TARGET springs, each cut on a body boundary, and covering every spring once.
        let sp = bodies(500, 94);
        let chunks = make_chunks(&sp);
        assert!(chunks.len() >= 10, "{} chunks", chunks.len());
        let mut next = 0;
        for c in &chunks {
            assert_eq!(c.springs.start, next);
            assert_eq!(
                c.springs.start % 94,
                0,
                "chunk splits a body at {}",
                c.springs.start
            );
            assert!(c.springs.len() <= CHUNK_TARGET);
            next = c.springs.end;
        }
        assert_eq!(next, sp.len());
    }

    #[test]
    fn a_body_larger_than_a_chunk_is_cut_every_chunk_from_its_start() {
        // A small body, then one chain of 2.5 chunks: the chain's cuts fall 2^17 springs apart
        // from its own first spring (so its bits are those it has alone), and the small body
        // keeps a chunk of its own.
        let big = SPRINGS_PER_CHUNK * 5 / 2;
        let mut springs: Vec<Spring> = (0..10).map(|i| Spring::hooke(i, i + 1, 1.0, 1.0)).collect();
        springs.extend((0..big as u32).map(|i| Spring::hooke(11 + i, 12 + i, 1.0, 1.0)));
        let chunks = make_chunks(&SpringArrays::new(&springs));
        let cuts: Vec<_> = chunks.iter().map(|c| c.springs.clone()).collect();
        let c = SPRINGS_PER_CHUNK;
        assert_eq!(
            cuts,
            [0..10, 10..10 + c, 10 + c..10 + 2 * c, 10 + 2 * c..10 + big]
        );
        assert_eq!((chunks[0].lo, chunks[0].force.len()), (0, 11));
    }

    #[test]
    fn a_spring_joining_two_bodies_keeps_them_in_one_chunk() {
        // Two bodies of 3000 springs (together above CHUNK_TARGET) would be two chunks; a last
        // spring from the first body's first mass to the second body makes them one run.
        let mut springs: Vec<Spring> = (0..3000)
            .map(|i| Spring::hooke(i, i + 1, 1.0, 1.0))
            .collect();
        springs.extend((0..3000).map(|i| Spring::hooke(3001 + i, 3002 + i, 1.0, 1.0)));
        assert_eq!(make_chunks(&SpringArrays::new(&springs)).len(), 2);
        springs.push(Spring::hooke(0, 6001, 1.0, 1.0));
        let chunks = make_chunks(&SpringArrays::new(&springs));
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].springs, 0..6001);
    }
}
