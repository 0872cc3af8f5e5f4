//! [`Population::benchmark`]: the fixed population of seeded random voxel robots that the
//! throughput benchmarks and the `throughput --population` example time.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{GenomeSettings, Population, VoxelGenome};
use crate::error::Result;

/// Cells of a benchmark genome along x, y and z (4 x 4 x 3: at most 100 masses, 0.4 x 0.4 x
/// 0.3 m with the default 0.1 m voxels).
pub const BENCHMARK_GENOME_SIZE: [u32; 3] = [4, 4, 3];

/// Probability that a cell of a benchmark genome is filled. Chosen so that the robots (each the
/// largest face-connected piece of its genome) average about 100 masses while their shapes
/// still differ (50 to 100 masses; at 0.9 nearly every robot is the full 100-mass block); see
/// [`Population::benchmark`] for the counts.
pub const BENCHMARK_FILL: f64 = 0.7;

/// Seed of the benchmark population's ChaCha8 stream.
pub const BENCHMARK_SEED: u64 = 14;

impl Population {
    /// The benchmark population: `robots` voxel robots from [`VoxelGenome::random`] genomes of
    /// [`BENCHMARK_GENOME_SIZE`] cells, each filled with probability [`BENCHMARK_FILL`], drawn
    /// in order from one `ChaCha8Rng` seeded with [`BENCHMARK_SEED`] and built with
    /// [`GenomeSettings::default`] (0.1 m voxels of 0.1 kg corners; soft, stiff and sine
    /// muscles of four phases equally likely, so about two thirds of the voxels are muscles).
    ///
    /// The same `robots` gives the same robots on every platform, and a smaller population is
    /// the first robots of a larger one, so cost per robot can be compared across sizes on the
    /// same robots. Averaged over the first 1 000 robots: 92.5 masses (50 to 100), 634 springs
    /// and 479 actuated springs per robot (the example `throughput --population` prints them
    /// for each size).
    ///
    /// # Errors
    /// None in practice (the genomes and settings are valid); [`VoxelGenome::part`]'s errors
    /// otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use hooke::population::Population;
    ///
    /// let ten = Population::benchmark(10)?;
    /// let hundred = Population::benchmark(100)?;
    /// assert_eq!(ten.robots[..], hundred.robots[..10]);
    /// let masses: usize = hundred.robots.iter().map(|r| r.part.masses.len()).sum();
    /// assert!((80..=100).contains(&(masses / 100))); // about 100 masses per robot
    /// # Ok::<(), hooke::Error>(())
    /// ```
    pub fn benchmark(robots: usize) -> Result<Self> {
        let settings = GenomeSettings::default();
        let mut rng = ChaCha8Rng::seed_from_u64(BENCHMARK_SEED);
        let genomes = (0..robots)
            .map(|_| {
                VoxelGenome::random(
                    &mut rng,
                    BENCHMARK_GENOME_SIZE,
                    BENCHMARK_FILL,
                    settings.phases,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Self::from_genomes(&genomes, &settings)
    }

    /// `robots` copies of [`block_robot`]: a population whose bodies are all of one shape (as
    /// when a body's controller is evolved), the batch of ~100-mass robots whose spring-update rate
    /// the benchmarks compare with the lattice's. Robot `i` is named `block i`.
    ///
    /// # Errors
    /// As [`block_robot`].
    pub fn benchmark_blocks(robots: usize) -> Result<Self> {
        let part = block_robot()?;
        let robots = (0..robots)
            .map(|i| super::Robot {
                name: format!("block {i}"),
                part: part.clone(),
            })
            .collect();
        Ok(Self {
            robots,
            ..Self::default()
        })
    }
}

/// The whole block of a benchmark genome: every one of the [`BENCHMARK_GENOME_SIZE`] cells
/// filled, each with a material drawn as [`Population::benchmark`] draws them (from the same
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
