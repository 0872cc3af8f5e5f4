//! The spring pass's per-chunk kernel: the scalar walk (`walk_scalar`, the reference the tests
//! hold it to) cut down to fewer instructions per spring and compiled for AVX2 where the CPU
//! has it.
//!
//! Measured on an AMD EPYC (Zen 5) core (docs/PERFORMANCE.md, "Roofline and cost model"), the
//! scalar walk is bound by instructions and by the latency of its square root and divisions,
//! not by memory or by the divider's throughput. This kernel keeps the walk's order and changes
//! how each spring is computed:
//! - the run's first mass (springs sorted by `a` share it) is loaded once per run, as WGSL's
//!   `walk_run` keeps it in registers;
//! - `pos` and `vel` are cut to one length, so one bounds check serves both loads of a mass;
//! - [`pulp::Arch`] runs it compiled for x86-64-v3 (AVX2, three-operand VEX encoding) when the
//!   CPU has it, detected at run time: a plain `cargo build --release` gets it.
//!
//! Each spring is `spring_law::spring_force` of `d = p_a - p_b`, `dv = v_a - v_b`, its rest
//! length and `spring_law::k_eff`, as in the reference. Rust never contracts a product and a sum
//! into a fused multiply-add (even with FMA enabled), and square root and division are
//! correctly rounded at every vector width, so the result does not depend on the instruction
//! set. The summation order per mass is the scalar walk's (the first mass's run in
//! a register, the second mass's force added in list order, zero-length springs skipped), so
//! a chunk's force buffer and dissipated power are bit for bit the scalar walk's (tests below).
//!
//! Tried and dropped (slower on the same machine, see the performance notes): computing 4 or 8
//! springs side by side in SIMD lanes and scattering them in list order; the lanes have to be
//! gathered from the masses one by one, which costs more instructions than the lanes save.

use std::ops::Range;

use glam::DVec3;

use super::formed_rest::FormedRest;
use super::tables::SpringArrays;
use crate::model::spring_law::spring_force;

/// The walk of a run of springs for the instruction set `pulp` picked (see the module docs).
struct Walk<'a> {
    /// The spring table.
    sp: &'a SpringArrays,
    /// Positions of every mass, m.
    pos: &'a [DVec3],
    /// Velocities of every mass, m/s.
    vel: &'a [DVec3],
    /// The springs walked.
    range: Range<usize>,
    /// The first mass of `force`.
    lo: usize,
    /// Spring force on masses `lo..`, N, added to.
    force: &'a mut [DVec3],
    /// The rest lengths formed in the walk and the waves' sines (`formed_rest.rs`), or `None`
    /// to read the stored ones.
    formed: Formed<'a>,
}

/// Where the walk takes its rest lengths from: formed from [`FormedRest`] and the waves' sines
/// (`Waves::sines`), or `None` for the stored ones.
pub(super) type Formed<'a> = Option<(&'a FormedRest, &'a [f64])>;

impl pulp::WithSimd for Walk<'_> {
    /// The damping power of the springs walked, W.
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> f64 {
        match self.formed {
            Some((formed, sines)) => {
                let rests = formed.rests(self.range.clone(), sines);
                walk_springs(self, rests)
            }
            None => {
                let rests = self.sp.rest[self.range.clone()].iter().copied();
                walk_springs(self, rests)
            }
        }
    }
}

/// The walk of [`Walk`], the springs' rest lengths from `rests` (m, in spring order).
#[inline(always)]
fn walk_springs(walk: Walk<'_>, rests: impl Iterator<Item = f64>) -> f64 {
    let Walk {
        sp,
        pos,
        vel,
        range,
        lo,
        force,
        ..
    } = walk;
    // Equal lengths: one bounds check serves both loads of a mass.
    let n = pos.len().min(vel.len());
    let (pos, vel) = (&pos[..n], &vel[..n]);
    let mut run = Run::NONE;
    // The run's first mass, loaded once per run.
    let (mut pa, mut va) = (DVec3::ZERO, DVec3::ZERO);
    let mut power = 0.0;
    for ((&[a, b], rest), &param) in sp.ends[range.clone()]
        .iter()
        .zip(rests)
        .zip(&sp.param[range])
    {
        let (a, b) = (a as usize, b as usize);
        if run.start(a, (lo, force)) {
            (pa, va) = (pos[a], vel[a]);
        }
        let d = pa - pos[b];
        // Zero length: no force. Skipped as in the scalar walk (adding zero would turn a
        // sum of -0.0 into +0.0).
        if d.length_squared() == 0.0 {
            continue;
        }
        let p = &sp.table[param as usize];
        let (dv, k_eff) = (va - vel[b], p.k_eff(rest));
        let sf = spring_force(d.to_array(), dv.to_array(), rest, k_eff, p.c);
        let f = DVec3::from_array(sf.f);
        power += sf.power;
        run.force -= f;
        force[b - lo] += f;
    }
    run.end((lo, force));
    power
}

/// The current run of springs that share their first mass (spring lists are usually sorted by
/// `a`, as builders make them): that mass's side of their forces, summed in a register and
/// stored once per run, which keeps a store-to-load dependency through memory out of the loop.
struct Run {
    /// The run's first mass (`usize::MAX` before the first spring).
    mass: usize,
    /// The negated sum of the run's forces, N.
    force: DVec3,
}

impl Run {
    /// No run yet.
    const NONE: Self = Self {
        mass: usize::MAX,
        force: DVec3::ZERO,
    };

    /// Starts the run of mass `a` unless it is the current one, adding the current one's sum to
    /// `force` (masses from `lo`); whether a run started.
    #[inline(always)]
    fn start(&mut self, a: usize, (lo, force): (usize, &mut [DVec3])) -> bool {
        if a == self.mass {
            return false;
        }
        self.end((lo, force));
        *self = Self {
            mass: a,
            force: DVec3::ZERO,
        };
        true
    }

    /// Adds the run's sum to `force` (masses from `lo`), if a run started.
    #[inline(always)]
    fn end(&self, (lo, force): (usize, &mut [DVec3])) {
        if self.mass != usize::MAX {
            force[self.mass - lo] += self.force;
        }
    }
}

/// Walks the springs `range` (whole bodies of a chunk whose force buffer `force` starts at mass
/// `lo`) onto `force`, and returns their damping power, W: bit for bit `walk_scalar`, in fewer
/// instructions (see the module docs); the rest lengths formed in the walk when `formed` is
/// given.
pub(super) fn walk_range(
    sp: &SpringArrays,
    (pos, vel): (&[DVec3], &[DVec3]),
    formed: Formed<'_>,
    range: Range<usize>,
    (lo, force): (usize, &mut [DVec3]),
) -> f64 {
    walk_range_on(
        super::simd::arch(),
        sp,
        (pos, vel),
        formed,
        range,
        (lo, force),
    )
}

/// [`walk_range`] compiled for the instruction set `arch`.
fn walk_range_on(
    arch: pulp::Arch,
    sp: &SpringArrays,
    (pos, vel): (&[DVec3], &[DVec3]),
    formed: Formed<'_>,
    range: Range<usize>,
    (lo, force): (usize, &mut [DVec3]),
) -> f64 {
    arch.dispatch(Walk {
        sp,
        pos,
        vel,
        range,
        lo,
        force,
        formed,
    })
}

/// The scalar reference walk of springs `range` onto `force` (masses from `lo`), returning
/// their damping power, W (WGSL's `walk_run`, over a run of springs): each spring's force goes to
/// its second mass, and runs of springs that share their first mass sum that mass's side in a
/// register. [`walk_range`] must give its bits exactly (tests below).
#[cfg(test)]
pub(super) fn walk_scalar(
    sp: &SpringArrays,
    (pos, vel): (&[DVec3], &[DVec3]),
    range: Range<usize>,
    (lo, force): (usize, &mut [DVec3]),
) -> f64 {
    let mut power = 0.0;
    let mut run = Run::NONE;
    for ((&[a, b], &rest), &param) in sp.ends[range.clone()]
        .iter()
        .zip(&sp.rest[range.clone()])
        .zip(&sp.param[range])
    {
        let (a, b) = (a as usize, b as usize);
        run.start(a, (lo, force));
        let (d, dv) = (pos[a] - pos[b], vel[a] - vel[b]);
        // Zero length: no force. Skipped rather than added as zero, which would turn a sum of
        // -0.0 into +0.0.
        if d.length_squared() == 0.0 {
            continue;
        }
        let p = &sp.table[param as usize];
        let sf = spring_force(d.to_array(), dv.to_array(), rest, p.k_eff(rest), p.c);
        power += sf.power;
        run.force -= DVec3::from_array(sf.f);
        force[b - lo] += DVec3::from_array(sf.f);
    }
    run.end((lo, force));
    power
}

#[cfg(test)]
pub(super) mod tests {
    use glam::DVec3;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::tables::SpringArrays;
    use super::{walk_range, walk_range_on, walk_scalar};
    use crate::model::{Spring, SpringLaw};

    /// A run of springs and the force buffer of the masses it touches, as the pass's chunks.
    #[derive(Clone, Debug)]
    pub(in super::super) struct Chunk {
        pub(in super::super) springs: std::ops::Range<usize>,
        pub(in super::super) lo: usize,
        pub(in super::super) force: Vec<DVec3>,
        pub(in super::super) dissipated: f64,
    }

    impl Chunk {
        /// The chunk of `springs` whose force buffer covers `masses` masses from `lo`, every
        /// value NaN until it is walked.
        pub(in super::super) fn unwalked(
            springs: std::ops::Range<usize>,
            lo: usize,
            masses: usize,
        ) -> Self {
            Self {
                springs,
                lo,
                force: vec![DVec3::splat(f64::NAN); masses],
                dissipated: f64::NAN,
            }
        }
    }

    /// The reference walk of `c` into its zeroed force buffer and dissipated power.
    pub(in super::super) fn walk_chunk_scalar(
        sp: &SpringArrays,
        pos: &[DVec3],
        vel: &[DVec3],
        c: &mut Chunk,
    ) {
        c.force.fill(DVec3::ZERO);
        let out = (c.lo, &mut c.force[..]);
        c.dissipated = walk_scalar(sp, (pos, vel), c.springs.clone(), out);
    }

    /// The kernel's walk of `c` on `arch`, as the pass runs it.
    fn walk_chunk_on(
        arch: pulp::Arch,
        sp: &SpringArrays,
        state: (&[DVec3], &[DVec3]),
        c: &mut Chunk,
    ) {
        c.force.fill(DVec3::ZERO);
        let out = (c.lo, &mut c.force[..]);
        c.dissipated = walk_range_on(arch, sp, state, None, c.springs.clone(), out);
    }

    /// [`walk_chunk_on`] on the CPU's instruction set.
    fn walk_chunk(sp: &SpringArrays, state: (&[DVec3], &[DVec3]), c: &mut Chunk) {
        c.force.fill(DVec3::ZERO);
        let out = (c.lo, &mut c.force[..]);
        c.dissipated = walk_range(sp, state, None, c.springs.clone(), out);
    }

    /// The bits of a chunk's force buffer and dissipated power.
    fn bits(c: &Chunk) -> Vec<u64> {
        let forces = c.force.iter().flat_map(|f| f.to_array());
        forces.chain([c.dissipated]).map(f64::to_bits).collect()
    }

    /// Cuts `0..springs` at random points into chunks with force buffers spanning their
    /// masses (as `make_chunks` does, at any size).
    fn random_chunks(sp: &SpringArrays, rng: &mut ChaCha8Rng) -> Vec<Chunk> {
        let mut chunks = Vec::new();
        let mut start = 0;
        while start < sp.len() {
            let end = (start + rng.random_range(1..=40)).min(sp.len());
            let ends = &sp.ends[start..end];
            let lo = ends.iter().flatten().min().copied().unwrap_or(0) as usize;
            let hi = ends.iter().flatten().max().copied().unwrap_or(0) as usize;
            chunks.push(Chunk::unwalked(start..end, lo, hi - lo + 1));
            start = end;
        }
        chunks
    }

    /// A random spring list over `masses` masses: runs sharing their first mass, springs
    /// listed from either end, duplicates, both laws, few distinct materials.
    fn random_springs(masses: u32, count: usize, rng: &mut ChaCha8Rng) -> Vec<Spring> {
        let mut springs: Vec<Spring> = Vec::new();
        while springs.len() < count {
            let a = rng.random_range(0..masses);
            for _ in 0..rng.random_range(1..8) {
                let b = rng.random_range(0..masses);
                let law = if rng.random_bool(0.3) {
                    SpringLaw::Material
                } else {
                    SpringLaw::Hooke
                };
                let k = [1.0e3, 2.5e4][rng.random_range(0..2)];
                let c = [0.0, 0.7, 3.0][rng.random_range(0..3)];
                springs.push(Spring::hooke(a, b, k, 0.1).with_damping(c).with_law(law));
                if rng.random_bool(0.1) {
                    springs.push(*springs.last().expect("just pushed")); // a duplicate
                }
            }
        }
        springs
    }

    /// Positions on a coarse grid (so some masses coincide: zero-length springs) or anywhere.
    fn random_states(masses: u32, rng: &mut ChaCha8Rng) -> (Vec<DVec3>, Vec<DVec3>) {
        let mut point = |coarse: bool| {
            let mut c = || {
                if coarse {
                    f64::from(rng.random_range(0..2)) * 0.1
                } else {
                    rng.random_range(-1.0..1.0)
                }
            };
            DVec3::new(c(), c(), c())
        };
        let pos = (0..masses).map(|i| point(i % 3 == 0)).collect();
        let vel = (0..masses).map(|_| point(false)).collect();
        (pos, vel)
    }

    /// The kernel gives exactly the scalar walk's forces and dissipated power, bit for bit, on
    /// random spring lists cut into random chunks: irregular lists, zero-length springs (and
    /// zero rest lengths), duplicate springs, springs listed from the higher mass, the material
    /// law, actuated rest lengths, chunks of 1 to 40 springs; on the instruction set the CPU
    /// offers and on the baseline one.
    #[test]
    fn fast_spring_kernel_gives_the_scalar_walks_bits() {
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let masses = rng.random_range(2..60);
            let springs = random_springs(masses, rng.random_range(1..400), &mut rng);
            let mut sp = SpringArrays::new(&springs);
            // Rest lengths as an actuator would set them, some exactly 0.
            for r in &mut sp.rest {
                *r = if rng.random_bool(0.1) {
                    0.0
                } else {
                    rng.random_range(0.01..1.5)
                };
            }
            let (pos, vel) = random_states(masses, &mut rng);
            let mut reference = random_chunks(&sp, &mut rng);
            for arch in [super::super::simd::arch(), pulp::Arch::Scalar] {
                for r in &mut reference {
                    let mut f = r.clone();
                    walk_chunk_on(arch, &sp, (&pos, &vel), &mut f);
                    walk_chunk_scalar(&sp, &pos, &vel, r);
                    assert_eq!(bits(&f), bits(r), "seed {seed}, springs {:?}", f.springs);
                }
            }
            let zero_length = sp
                .ends
                .iter()
                .filter(|[a, b]| pos[*a as usize] == pos[*b as usize])
                .count();
            assert!(
                seed > 0 || zero_length > 0,
                "the lists hold zero-length springs"
            );
        }
    }

    /// Every chunk's result depends only on its own springs: walking a chunk with the rest of
    /// the model's state changed (other masses moved) gives the same bits.
    #[test]
    fn fast_spring_kernel_reads_only_its_chunks_masses() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let springs = random_springs(30, 200, &mut rng);
        let mut sp = SpringArrays::new(&springs);
        sp.rest.iter_mut().for_each(|r| *r = 0.3);
        let (pos, vel) = random_states(30, &mut rng);
        let chunk = Chunk {
            springs: 0..5,
            lo: 0,
            force: vec![DVec3::ZERO; 30],
            dissipated: 0.0,
        };
        let touched: Vec<usize> = sp.ends[0..5]
            .iter()
            .flatten()
            .map(|&m| m as usize)
            .collect();
        let (mut moved_pos, mut moved_vel) = (pos.clone(), vel.clone());
        for m in (0..30).filter(|m| !touched.contains(m)) {
            moved_pos[m] += DVec3::splat(5.0);
            moved_vel[m] -= DVec3::splat(2.0);
        }
        let (mut a, mut b) = (chunk.clone(), chunk);
        walk_chunk(&sp, (&pos, &vel), &mut a);
        walk_chunk(&sp, (&moved_pos, &moved_vel), &mut b);
        assert_eq!(bits(&a), bits(&b));
    }
}
