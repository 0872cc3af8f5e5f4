//! The spring pass's per-chunk kernel, vectorised over springs: blocks of [`LANES`] springs in
//! list order have their forces computed side by side in SIMD lanes, then are scattered one by
//! one in list order exactly as the scalar walk (`walk_chunk_scalar` in `springs.rs`) does.
//!
//! Each lane performs the IEEE operations of `spring_force`, op for op: `d = p_a - p_b`,
//! `L^2 = (dx dx + dy dy) + dz dz`, `L = sqrt(L^2)`, `n = d / L` as three divisions,
//! `vrel = (dvx nx + dvy ny) + dvz nz`, `k_eff = k / L0` for the material law (in the
//! gather, one spring at a time),
//! `f = (k_eff (L - L0) + c vrel) n`, `power = (c vrel) vrel`. Rust never contracts a product
//! and a sum into a fused multiply-add, and square root and division are correctly rounded at
//! every vector width, so every lane gives the scalar kernel's bits. The scatter keeps the
//! summation order per mass (the first mass's run in a register, the second mass's force added
//! in list order, zero-length springs skipped), so the chunk's force buffer and dissipated
//! power are bit for bit those of the scalar walk, whatever the instruction set.
//!
//! The lane arithmetic is written as loops over fixed-size arrays, which LLVM turns into vector
//! instructions; [`pulp::Arch`] runs the kernel compiled for AVX2 (x86-64-v3) when the CPU has
//! it, detected at run time, so a plain `cargo build --release` gets 256-bit vectors.

use glam::DVec3;

use super::springs::Chunk;
use super::tables::SpringArrays;

/// Springs computed side by side: one 256-bit vector of f64 per quantity on AVX2.
pub(super) const LANES: usize = 4;

/// One block's per-spring results.
#[derive(Clone, Copy)]
struct Block {
    /// Squared length, m^2 (0: the spring is skipped).
    len2: [f64; LANES],
    /// Force on the second mass, N, per axis.
    f: [[f64; LANES]; 3],
    /// Damping power, W.
    power: [f64; LANES],
}

/// Inputs of one block gathered into lanes.
struct Gathered {
    /// `p_a - p_b`, m, per axis.
    d: [[f64; LANES]; 3],
    /// `v_a - v_b`, m/s, per axis.
    dv: [[f64; LANES]; 3],
    /// Effective stiffness `k_eff` (N/m): `k`, or `k / L0` for the material law.
    k: [f64; LANES],
    /// Rest length, m.
    rest: [f64; LANES],
    /// Damping, N*s/m.
    c: [f64; LANES],
}

/// Gathers springs `start..start + LANES`, each lane past `last` repeating spring `last` (a
/// fixed trip count, so the lanes are assembled in registers).
#[inline(always)]
fn gather_block(
    sp: &SpringArrays,
    pos: &[DVec3],
    vel: &[DVec3],
    start: usize,
    last: usize,
) -> Gathered {
    let mut g = Gathered {
        d: [[0.0; LANES]; 3],
        dv: [[0.0; LANES]; 3],
        k: [0.0; LANES],
        rest: [0.0; LANES],
        c: [0.0; LANES],
    };
    for l in 0..LANES {
        let s = (start + l).min(last);
        let [a, b] = sp.ends[s];
        let (a, b) = (a as usize, b as usize);
        let d = pos[a] - pos[b];
        let dv = vel[a] - vel[b];
        g.d[0][l] = d.x;
        g.d[1][l] = d.y;
        g.d[2][l] = d.z;
        g.dv[0][l] = dv.x;
        g.dv[1][l] = dv.y;
        g.dv[2][l] = dv.z;
        let p = &sp.table[sp.param[s] as usize];
        let rest = sp.rest[s];
        // The material law's division, only where it applies (the same IEEE division).
        g.k[l] = p.k_eff(rest);
        g.c[l] = p.c;
        g.rest[l] = rest;
    }
    g
}

/// `spring_force` in every lane (see the module docs for the exact operations).
#[inline(always)]
fn compute_block(g: &Gathered) -> Block {
    let [dx, dy, dz] = &g.d;
    let [dvx, dvy, dvz] = &g.dv;
    let mut out = Block {
        len2: [0.0; LANES],
        f: [[0.0; LANES]; 3],
        power: [0.0; LANES],
    };
    for l in 0..LANES {
        let len2 = dx[l] * dx[l] + dy[l] * dy[l] + dz[l] * dz[l];
        let len = len2.sqrt();
        let (nx, ny, nz) = (dx[l] / len, dy[l] / len, dz[l] / len);
        let vrel = dvx[l] * nx + dvy[l] * ny + dvz[l] * nz;
        let s = g.k[l] * (len - g.rest[l]) + g.c[l] * vrel;
        out.len2[l] = len2;
        out.f[0][l] = s * nx;
        out.f[1][l] = s * ny;
        out.f[2][l] = s * nz;
        out.power[l] = g.c[l] * vrel * vrel;
    }
    out
}

/// The scatter state of a walk: the first mass's run and the power summed so far.
struct Scatter {
    /// Mass whose run is open (`usize::MAX`: none yet).
    run_mass: usize,
    /// Force on `run_mass` summed over its run, N.
    run_force: DVec3,
    /// Damping power summed in list order, W.
    power: f64,
}

impl Scatter {
    /// Adds springs `start..start + count` of `block` in list order, as the scalar walk does.
    #[inline(always)]
    fn add(
        &mut self,
        sp: &SpringArrays,
        block: &Block,
        start: usize,
        count: usize,
        lo: usize,
        force: &mut [DVec3],
    ) {
        for l in 0..count {
            let [a, b] = sp.ends[start + l];
            let (a, b) = (a as usize, b as usize);
            if a != self.run_mass {
                if self.run_mass != usize::MAX {
                    force[self.run_mass - lo] += self.run_force;
                }
                self.run_mass = a;
                self.run_force = DVec3::ZERO;
            }
            if block.len2[l] == 0.0 {
                continue;
            }
            let f = DVec3::new(block.f[0][l], block.f[1][l], block.f[2][l]);
            self.power += block.power[l];
            self.run_force -= f;
            force[b - lo] += f;
        }
    }
}

/// The chunk walk for the instruction set `pulp` picked (see the module docs).
struct Walk<'a> {
    sp: &'a SpringArrays,
    pos: &'a [DVec3],
    vel: &'a [DVec3],
    chunk: &'a mut Chunk,
}

impl pulp::WithSimd for Walk<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let Walk { sp, pos, vel, chunk } = self;
        let lo = chunk.lo;
        let force = &mut chunk.force;
        force.fill(DVec3::ZERO);
        let mut scatter = Scatter {
            run_mass: usize::MAX,
            run_force: DVec3::ZERO,
            power: 0.0,
        };
        let range = chunk.springs.clone();
        let mut start = range.start;
        while start < range.end {
            let count = (range.end - start).min(LANES);
            let g = gather_block(sp, pos, vel, start, range.end - 1);
            let block = compute_block(&g);
            scatter.add(sp, &block, start, count, lo, force);
            start += count;
        }
        if scatter.run_mass != usize::MAX {
            force[scatter.run_mass - lo] += scatter.run_force;
        }
        chunk.dissipated = scatter.power;
    }
}

/// Walks the springs of one chunk into its force buffer and dissipated power (WGSL's
/// `walk_run`, over a chunk): bit for bit the scalar walk, [`LANES`] springs at a time.
pub(super) fn walk_chunk(sp: &SpringArrays, pos: &[DVec3], vel: &[DVec3], chunk: &mut Chunk) {
    pulp::Arch::new().dispatch(Walk {
        sp,
        pos,
        vel,
        chunk,
    });
}
