//! Populations of robots evaluated in one world: voxel genomes (Cheney et al. 2013), many
//! robots as one [`Model`](crate::Model) that cannot touch each other, and per-robot fitness and
//! failures in one call.
//!
//! One file per topic: [`VoxelGenome`] and [`VoxelMaterial`] with their seeded random draw,
//! mutation and crossover (`genome.rs`), [`GenomeSettings`] (`settings.rs`),
//! [`VoxelGenome::part`] (`genome_part.rs`: the largest connected piece as a
//! [`VoxelBody`](crate::VoxelBody)), [`Population`] (`population.rs`), [`Evaluation`],
//! [`Fitness`] and [`RobotResult`] (`evaluate.rs`), [`RobotController`] and
//! [`Population::evaluate_controlled`] (`control.rs`: each robot its own closed-loop
//! controller), [`RobotFailure`] (`failure.rs`) and the [`Backend`]s a population runs on
//! (`backend.rs`); [`Evolution`], a genetic algorithm over genomes returning [`Evolved`]
//! (`evolve.rs`, its breeding in `breed.rs`); [`Population::benchmark`], the population the
//! throughput benchmarks time (`benchmark.rs`).
//!
//! # Examples
//!
//! Ten random robots, scored by how far they walk along +x in 0.1 s on the CPU reference:
//!
//! ```
//! use hooke::population::{Evaluation, GenomeSettings, Population, VoxelGenome};
//! use hooke::CpuWorld;
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//!
//! let settings = GenomeSettings::default();
//! let mut rng = ChaCha8Rng::seed_from_u64(1); // the same robots on every platform
//! let genomes = (0..10)
//!     .map(|_| VoxelGenome::random(&mut rng, [3, 3, 2], 0.6, settings.phases))
//!     .collect::<Result<Vec<_>, _>>()?;
//! let population = Population::from_genomes(&genomes, &settings)?;
//! let eval = Evaluation { duration: 0.1, ..Evaluation::default() }; // s
//! let results = population.evaluate::<CpuWorld>(&eval)?;
//! assert_eq!(results.len(), 10);
//! for r in &results {
//!     assert!(r.failure.is_some() || r.fitness.is_some());
//! }
//! # Ok::<(), hooke::Error>(())
//! ```

mod backend;
mod benchmark;
mod breed;
mod control;
mod evaluate;
mod evolve;
mod failure;
mod file;
mod genome;
mod genome_part;
#[allow(clippy::module_inception)] // the module's main type lives in a file named after it
mod population;
mod settings;

pub use backend::Backend;
pub use benchmark::{block_robot, BENCHMARK_FILL, BENCHMARK_GENOME_SIZE, BENCHMARK_SEED};
pub use control::{RobotControl, RobotController};
pub use evaluate::{Evaluation, Fitness, FitnessFn, RobotResult, Tick};
pub use evolve::{Champion, Evolution, Evolved, GenerationStats};
pub use failure::{FailureKind, RobotFailure};
pub use file::{EvaluationSpec, PopulationFile, RobotEntry, SceneSource};
pub use genome::{VoxelGenome, VoxelMaterial, MAX_GENOME_CELLS};
pub use population::{Layout, Population, Robot, ROBOT_COLLISION_GROUP};
pub use settings::GenomeSettings;
