//! The spring pass, CPU twin of `shaders/springs.wgsl` and the per-spring helpers of
//! `shaders/spring_pass.wgsl` (`spring_force`, `elastic`).
//!
//! The GPU scatters each spring's force in fixed point with atomics. The CPU instead cuts the
//! spring list into chunks ([`Chunk`], cut by `chunks.rs`), each with its own force buffer, runs
//! the chunks on a worker pool (`pool.rs`), and [`gather`]s the buffers in chunk order: the
//! summation order depends only on the model, so the result is bit-identical run to run and on
//! any number of threads.

use std::ops::Range;

#[cfg(test)]
use glam::DVec2;
use glam::DVec3;
use rayon::prelude::*;
use rayon::ThreadPool;

use super::formed_rest::FormedRest;
use super::springs_alike::{walk_alike, AlikePlan};
use super::springs_simd;
use super::springs_stencil::{walk_piece, Piece, StencilBody};
use super::tables::SpringArrays;

/// A spring's force on its second mass `b` (its first mass gets `-f`), and the damping power it
/// dissipates (WGSL's `SpringForce`, in f64 and without the fixed-point conversion).
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SpringForce {
    /// Force on `b`, N.
    pub(super) f: DVec3,
    /// Damping power `c vrel^2`, W.
    pub(super) power: f64,
}

/// The elastic and axial damping force of a spring from `a` to `b` with `d = p_a - p_b` (m) of
/// length `len = |d|` (m), relative velocity `dv = v_a - v_b` (m/s), effective stiffness `ke.x`
/// (N/m), effective rest length `ke.y` (m) and damping coefficient `damping` (N*s/m):
/// `f_b = (k (L - L0) + c vrel) n` with `n = d / L` and `vrel = dv . n`. A spring of zero length
/// has no direction and exerts no force.
///
/// The reference formula: the pass's kernel (`springs_simd.rs`) performs these operations
/// inline, in the same order, and is tested bit-identical against the walk that calls this.
#[cfg(test)]
#[inline]
pub(super) fn spring_force(d: DVec3, len: f64, dv: DVec3, ke: DVec2, damping: f64) -> SpringForce {
    if len == 0.0 {
        return SpringForce {
            f: DVec3::ZERO,
            power: 0.0,
        };
    }
    let n = d / len;
    let vrel = dv.dot(n);
    let f = (ke.x * (len - ke.y) + damping * vrel) * n;
    SpringForce {
        f,
        power: damping * vrel * vrel,
    }
}

/// Elastic energy (J) of a spring of effective stiffness `k` (N/m) and rest length `rest` (m) at
/// length `len` (m).
#[inline]
pub(super) fn elastic(k: f64, rest: f64, len: f64) -> f64 {
    0.5 * k * (len - rest) * (len - rest)
}

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

/// Walks the springs of one chunk (WGSL's `walk_run`, over a chunk instead of one mass's run):
/// each spring's force goes to its second mass, and runs of springs that share their first mass
/// sum that mass's side in a register. The scalar reference of the kernel the pass runs,
/// [`springs_simd::walk_chunk`], which must give its bits exactly (tests in `springs_simd.rs`).
#[cfg(test)]
pub(super) fn walk_chunk_scalar(
    sp: &SpringArrays,
    pos: &[DVec3],
    vel: &[DVec3],
    chunk: &mut Chunk,
) {
    let lo = chunk.lo;
    let force = &mut chunk.force;
    force.fill(DVec3::ZERO);
    let mut power = 0.0;
    let range = chunk.springs.clone();
    // Spring lists are usually sorted by `a` (builders make them so), so runs of springs share
    // their first mass: its force is summed in a register and stored once per run, which
    // keeps a store-to-load dependency through memory out of the loop.
    let mut run_mass = usize::MAX;
    let mut run_force = DVec3::ZERO;
    for ((&[a, b], &rest), &param) in sp.ends[range.clone()]
        .iter()
        .zip(&sp.rest[range.clone()])
        .zip(&sp.param[range])
    {
        let (a, b) = (a as usize, b as usize);
        if a != run_mass {
            if run_mass != usize::MAX {
                force[run_mass - lo] += run_force;
            }
            run_mass = a;
            run_force = DVec3::ZERO;
        }
        let d = pos[a] - pos[b];
        let len2 = d.length_squared();
        // Zero length: no force. Skipped rather than added as zero, which would turn a sum of
        // -0.0 into +0.0 (the reference's bits predate `spring_force`).
        if len2 == 0.0 {
            continue;
        }
        let p = &sp.table[param as usize];
        let sf = spring_force(d, len2.sqrt(), vel[a] - vel[b], p.effective(rest), p.c);
        power += sf.power;
        run_force -= sf.f;
        force[b - lo] += sf.f;
    }
    if run_mass != usize::MAX {
        force[run_mass - lo] += run_force;
    }
    chunk.dissipated = power;
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
    let run = |chunk: &mut Chunk| match chunk.piece.as_ref().map(|p| p.body) {
        Some(body) => walk_piece(&stencils[body], pos, vel, chunk),
        None if chunk.alike.is_some() => walk_alike(sp, (pos, vel), formed, chunk),
        None => springs_simd::walk_chunk(sp, (pos, vel), Some(formed), chunk),
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
