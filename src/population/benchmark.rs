//! The fixed population of seeded random voxel robots that the throughput benchmarks and the
//! `throughput --population` tool time ([`Population::benchmark`](super::Population::benchmark)
//! draws its genomes here), and the block robot of
//! [`Population::benchmark_blocks`](super::Population::benchmark_blocks).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{GenomeSettings, VoxelGenome};
use crate::error::Result;

/// Cells of a benchmark genome along x, y and z (4 x 4 x 3: at most 100 masses, 0.4 x 0.4 x
/// 0.3 m with the default 0.1 m voxels).
pub const BENCHMARK_GENOME_SIZE: [u32; 3] = [4, 4, 3];

/// Probability that a cell of a benchmark genome is filled. Chosen so that the robots (each the
/// largest face-connected piece of its genome) average about 100 masses while their shapes
/// still differ (50 to 100 masses; at 0.9 nearly every robot is the full 100-mass block); see
/// [`Population::benchmark`](super::Population::benchmark) for the counts.
pub const BENCHMARK_FILL: f64 = 0.7;

/// Seed of the benchmark population's ChaCha8 stream.
pub const BENCHMARK_SEED: u64 = 14;

/// The genomes of [`Population::benchmark`](super::Population::benchmark)`(robots)`, in
/// order.
pub(super) fn benchmark_genomes(robots: usize) -> Result<Vec<VoxelGenome>> {
    let settings = GenomeSettings::default();
    let mut rng = ChaCha8Rng::seed_from_u64(BENCHMARK_SEED);
    (0..robots)
        .map(|_| {
            VoxelGenome::random(
                &mut rng,
                BENCHMARK_GENOME_SIZE,
                BENCHMARK_FILL,
                settings.phases,
            )
        })
        .collect()
}

/// The whole block of a benchmark genome: every one of the [`BENCHMARK_GENOME_SIZE`] cells
/// filled, each with a material drawn as
/// [`Population::benchmark`](super::Population::benchmark) draws them (from the same
/// seeded stream: soft, stiff or a sine muscle of four phases), built with
/// [`GenomeSettings::default`]: 100 masses, 795 springs, 603 of them muscles, 0.4 x 0.4 x 0.3 m.
///
/// # Errors
/// None in practice; [`VoxelGenome::part`]'s otherwise.
pub fn block_robot() -> Result<crate::model::Part> {
    let settings = GenomeSettings::default();
    let mut rng = ChaCha8Rng::seed_from_u64(BENCHMARK_SEED);
    let genome = VoxelGenome::random(&mut rng, BENCHMARK_GENOME_SIZE, 1.0, settings.phases)?;
    genome.part(&settings)
}
