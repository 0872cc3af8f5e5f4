//! The spring pass, CPU twin of `shaders/springs.wgsl`: which walk each chunk takes, above
//! every walk (`springs_simd.rs`, `springs_stencil.rs`, `springs_alike.rs`); the per-spring
//! formulas of `shaders/shared/spring_pass.wgsl` are the model's (`src/model/spring_law/`).
//!
//! The GPU scatters each spring's force in fixed point with atomics. The CPU instead cuts the
//! spring list into chunks ([`Chunk`], cut by `chunks.rs`), each with its own force buffer, runs
//! the chunks on a worker pool (`pool.rs`), and [`gather`]s the buffers in chunk order: the
//! summation order depends only on the model, so the result is bit-identical run to run and on
//! any number of threads.

use std::ops::Range;

use glam::DVec3;
use rayon::prelude::*;
use rayon::ThreadPool;

use super::formed_rest::FormedRest;
use super::springs_alike::{walk_alike, AlikePlan};
use super::springs_simd::walk_range;
use super::springs_stencil::{walk_piece, Piece, StencilBody};
use super::tables::SpringArrays;

/// A contiguous run of springs and the force buffer for the masses it touches.
#[derive(Clone, Debug)]
pub(super) struct Chunk {
    /// The springs of this chunk.
    pub(super) springs: Range<usize>,
    /// First mass index covered by `force`.
    pub(super) lo: usize,
    /// Spring force (N) on masses `lo..lo + force.len()` from this chunk's springs.
    pub(super) force: Vec<DVec3>,
    /// Power dissipated by spring damping in the last step, W.
    pub(super) dissipated: f64,
    /// The stencil piece this chunk computes (`springs_stencil.rs`), or `None` for a chunk of
    /// the scalar walk.
    pub(super) piece: Option<Piece>,
    /// How the chunk's small bodies are walked when some are alike (`springs_alike.rs`), or
    /// `None` for the scalar walk of the whole chunk.
    pub(super) alike: Option<AlikePlan>,
    /// Whether the scalar walk forms the chunk's rest lengths itself (`formed_rest.rs`).
    pub(super) formed: bool,
}

/// The spring pass: the elastic and axial damping force of every spring, accumulated per chunk,
/// on the threads of `pool` (on the caller's thread when `None`).
///
/// With `d = p_a - p_b`, `L = |d|`, `n = d / L`: the force on `a` is
/// `-(k (L - L0) + c (v_a - v_b) . n) n` and `b` feels the opposite. A spring of length exactly 0
/// has no direction and exerts no force. Each chunk also records the power its dampers dissipate,
/// `sum c ((v_a - v_b) . n)^2` (W). Chunks are independent, so which thread walks which changes
/// no bit. Chunks that are pieces of a stencil body run the stencil kernel
/// (`springs_stencil.rs`), chunks of small bodies some of which are alike the lanes kernel
/// (`springs_alike.rs`), the others the scalar walk; chunks marked `formed` form their rest
/// lengths from `formed`'s table and the waves' sines (`formed_rest.rs`, `alike_muscles.rs`).
pub(super) fn springs(
    sp: &SpringArrays,
    stencils: &[StencilBody],
    (pos, vel): (&[DVec3], &[DVec3]),
    formed: (&FormedRest, &[f64]),
    chunks: &mut [Chunk],
    pool: Option<&ThreadPool>,
) {
    let run = |chunk: &mut Chunk| {
        let Chunk {
            springs,
            lo,
            force,
            dissipated,
            piece,
            alike,
            formed: walk_forms,
        } = chunk;
        *dissipated = match (piece, alike) {
            (Some(piece), _) => walk_piece(&stencils[piece.body], piece, (pos, vel), force),
            (None, alike) => {
                force.fill(DVec3::ZERO);
                let out = (*lo, &mut force[..]);
                match alike {
                    Some(plan) => walk_alike(sp, (pos, vel), (formed, *walk_forms), plan, out),
                    None => {
                        let formed = Some(formed).filter(|_| *walk_forms);
                        walk_range(sp, (pos, vel), formed, springs.clone(), out)
                    }
                }
            }
        };
    };
    match pool {
        Some(pool) if chunks.len() > 1 => {
            pool.install(|| chunks.par_iter_mut().with_max_len(1).for_each(run));
        }
        _ => chunks.iter_mut().for_each(run),
    }
}

/// Sums the chunk force buffers into `force`, the spring force on masses `first..first + len`,
/// chunk by chunk in order (a fixed order, so the sum is the same on any number of threads).
pub(super) fn gather(chunks: &[Chunk], first: usize, force: &mut [DVec3]) {
    force.fill(DVec3::ZERO);
    let end = first + force.len();
    for c in chunks {
        let (lo, hi) = (c.lo.max(first), (c.lo + c.force.len()).min(end));
        if lo >= hi {
            continue;
        }
        for (f, g) in force[lo - first..hi - first]
            .iter_mut()
            .zip(&c.force[lo - c.lo..hi - c.lo])
        {
            *f += *g;
        }
    }
}
