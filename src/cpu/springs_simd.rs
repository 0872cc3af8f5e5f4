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

/// One block of springs in list order: their ends, rest lengths and parameter indices.
#[derive(Clone, Copy)]
struct Lanes {
    /// The two masses of each spring.
    ends: [[u32; 2]; LANES],
    /// Rest length, m.
    rest: [f64; LANES],
    /// Index into the spring table.
    param: [u32; LANES],
}

/// Gathers the block's positions, velocities and parameters into lanes (`pos` and `vel` of the
/// same length, which spares the compiler one bounds check per load).
#[inline(always)]
fn gather_block(sp: &SpringArrays, pos: &[DVec3], vel: &[DVec3], lanes: &Lanes) -> Gathered {
    let mut g = Gathered {
        d: [[0.0; LANES]; 3],
        dv: [[0.0; LANES]; 3],
        k: [0.0; LANES],
        rest: [0.0; LANES],
        c: [0.0; LANES],
    };
    for l in 0..LANES {
        let [a, b] = lanes.ends[l];
        let (a, b) = (a as usize, b as usize);
        let d = pos[a] - pos[b];
        let dv = vel[a] - vel[b];
        g.d[0][l] = d.x;
        g.d[1][l] = d.y;
        g.d[2][l] = d.z;
        g.dv[0][l] = dv.x;
        g.dv[1][l] = dv.y;
        g.dv[2][l] = dv.z;
        let p = &sp.table[lanes.param[l] as usize];
        let rest = lanes.rest[l];
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
    /// Adds the first `count` springs of `block` (ends `ends`) in list order, as the scalar
    /// walk does.
    #[inline(always)]
    fn add(
        &mut self,
        ends: &[[u32; 2]; LANES],
        block: &Block,
        count: usize,
        lo: usize,
        force: &mut [DVec3],
    ) {
        for (l, &[a, b]) in ends.iter().enumerate().take(count) {
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
        // Equal lengths: one bounds check serves both loads of a mass.
        let n = pos.len().min(vel.len());
        let (pos, vel) = (&pos[..n], &vel[..n]);
        let range = chunk.springs.clone();
        let mut run_mass = usize::MAX;
        let mut run_force = DVec3::ZERO;
        // The run's first mass, loaded once per run (WGSL's `walk_run` keeps it in registers).
        let (mut pa, mut va) = (DVec3::ZERO, DVec3::ZERO);
        let mut power = 0.0;
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
                (pa, va) = (pos[a], vel[a]);
            }
            let d = pa - pos[b];
            let len2 = d.length_squared();
            // Zero length: no force, skipped as in the scalar walk.
            if len2 == 0.0 {
                continue;
            }
            let len = len2.sqrt();
            let p = &sp.table[param as usize];
            // `n = d / L` and the material law's `k / L0`: four IEEE divisions in one vector.
            let num = [d.x, d.y, d.z, p.k];
            let den = [len, len, len, rest];
            let q: [f64; 4] = std::array::from_fn(|i| num[i] / den[i]);
            let n = DVec3::new(q[0], q[1], q[2]);
            let k_eff = if p.material { q[3] } else { p.k };
            let vrel = (va - vel[b]).dot(n);
            let f = (k_eff * (len - rest) + p.c * vrel) * n;
            power += p.c * vrel * vrel;
            run_force -= f;
            force[b - lo] += f;
        }
        if run_mass != usize::MAX {
            force[run_mass - lo] += run_force;
        }
        chunk.dissipated = power;
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
