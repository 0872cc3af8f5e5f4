//! Populations of robots evaluated in one world: voxel genomes (Cheney et al. 2013), many
//! robots as one [`Model`](crate::Model) that cannot touch each other, and per-robot fitness and
//! failures in one call.
//!
//! One file per topic: [`VoxelGenome`] and [`VoxelMaterial`] with their seeded random draw,
//! mutation and crossover (`genome.rs`), [`GenomeSettings`] (`settings.rs`),
//! [`VoxelGenome::part`] (`genome_part.rs`: the largest connected piece as a
//! [`VoxelBody`](crate::VoxelBody)), [`Population`] with all its methods and
//! [`EvaluationRun`], one evaluation set up and run (`population.rs`: the one entry point,
//! [`Population::evaluate`]); [`Evaluation`], [`Fitness`] and [`RobotResult`], what an
//! evaluation is and gives (`evaluation.rs`); the batch run in control periods with failed
//! robots frozen (`run.rs`); the worlds built from an [`OpenBackend`](crate::OpenBackend)
//! (`backend.rs`); [`RobotController`] and [`RobotControl`] (`control.rs`: each robot its own
//! closed-loop controller); [`RobotFailure`] (`failure.rs`); [`Evolution`], a genetic
//! algorithm over genomes returning [`Evolved`] (`evolve.rs`, its breeding in `breed.rs`); the
//! seeded genomes of [`Population::benchmark`], the population the throughput benchmarks time
//! (`benchmark.rs`); population files ([`PopulationFile`], `file.rs`), read and checked as
//! `hooke eval` reads them (`file_check.rs`).
//!
//! # Examples
//!
//! Ten random robots, scored by how far they walk along +x in 0.1 s on the CPU reference:
//!
//! ```
//! use hooke::population::{Evaluation, GenomeSettings, Population, VoxelGenome};
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
//! let results = population.evaluate(&eval).run()?; // the CPU reference, all cores
//! assert_eq!(results.len(), 10);
//! for r in &results {
//!     assert!(r.failure.is_some() || r.fitness.is_some());
//! }
//! # Ok::<(), hooke::Error>(())
//! ```

mod backend;
mod benchmark;
mod breed;
mod checkpoint;
mod checkpoint_every;
mod control;
mod eval_checkpoint;
mod evaluation;
mod evaluation_params;
mod evolve;
mod failure;
mod file;
mod file_check;
mod genome;
mod genome_part;
#[allow(clippy::module_inception)] // the module's main type lives in a file named after it
mod population;
mod run;
mod settings;
mod share;

pub use benchmark::{block_robot, BENCHMARK_FILL, BENCHMARK_GENOME_SIZE, BENCHMARK_SEED};
pub use checkpoint::EvolutionCheckpoint;
pub use checkpoint_every::CheckpointEvery;
pub use control::{RobotControl, RobotController};
pub use eval_checkpoint::EvaluationCheckpoint;
pub use evaluation::{Evaluation, Fitness, FitnessFn, RobotResult};
pub use evolve::{Champion, Evolution, EvolutionState, Evolved, GenerationStats};
pub use failure::{FailureKind, RobotFailure};
pub use file::{EvaluationSpec, PopulationFile, RobotEntry, SceneSource};
pub use genome::{VoxelGenome, VoxelMaterial, MAX_GENOME_CELLS};
pub use population::{EvaluationRun, Layout, Population, Robot, ROBOT_COLLISION_GROUP};
pub use settings::GenomeSettings;
pub use share::split_share;
