//! [`Evolution`]: a genetic algorithm over [`VoxelGenome`]s, each generation evaluated as one
//! [`Population`] in one world; [`Evolution::run`] returns the history and the champion.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::breed::{breed, ranking, Breeding};
use super::{Evaluation, GenomeSettings, Population, RobotResult, VoxelGenome};
use crate::backend_choice::OpenBackend;
use crate::error::{Error, Result};
use crate::model::Params;

/// The settings of a genetic algorithm over voxel robots (Cheney et al. 2013's direct
/// encoding): a random generation 0, then each generation made from the last by elitism,
/// tournament selection, uniform crossover and per-cell mutation
/// ([`VoxelGenome::crossover`], [`VoxelGenome::mutate`]), every draw from one
/// `ChaCha8Rng::seed_from_u64(seed)`. With an evaluator that gives a robot the same fitness
/// every time (both backends do, see [`Evaluation`]), the same settings give the same history
/// and champion.
///
/// JSON fields may be left out (defaults below); unknown fields are an error.
///
/// # Examples
///
/// Four robots of 2 x 2 x 1 voxels for two generations of 0.05 s on the CPU reference:
///
/// ```
/// use hooke::population::{Evaluation, Evolution};
/// use hooke::BackendChoice;
///
/// let evolution = Evolution {
///     population: 4,
///     generations: 2,
///     size: [2, 2, 1],
///     evaluation: Evaluation { duration: 0.05, ..Evolution::default().evaluation }, // s
///     ..Evolution::default()
/// };
/// let evolved = evolution.run_on(&BackendChoice::Cpu.open()?, |_| {})?;
/// assert_eq!(evolved.history.len(), 2);
/// let champion = evolved.champion.expect("a robot that did not fail");
/// assert!(champion.fitness >= evolved.history[0].best.unwrap()); // m
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Evolution {
    /// Robots per generation (default 48, at least 2).
    pub population: usize,
    /// Generations, the random generation 0 included (default 10, at least 1).
    pub generations: usize,
    /// Cells of every genome along x, y and z (default 4 x 4 x 3 voxels of
    /// [`GenomeSettings::voxel_size`]).
    pub size: [u32; 3],
    /// Probability that a cell of generation 0 is filled (default 0.6), in `[0, 1]`.
    pub fill: f64,
    /// Probability that a child's cell is redrawn ([`VoxelGenome::mutate`]; default 0.04, about
    /// two cells of 48), in `[0, 1]`.
    pub mutation_rate: f64,
    /// Probability that a child is the uniform crossover of two parents rather than a copy of
    /// one (default 0.5), in `[0, 1]`. Children are mutated either way.
    pub crossover_rate: f64,
    /// Robots drawn (with replacement) per tournament; the fittest of them is a parent
    /// (default 3, at least 1; 1 is random selection).
    pub tournament: usize,
    /// The best robots of a generation copied unchanged into the next (default 2, below
    /// `population`), so the best fitness does not drop (a copied robot scores the same bits in
    /// its new batch, see [`Evaluation`]).
    pub elites: usize,
    /// Seed of the generator (default 0).
    pub seed: u64,
    /// The materials genomes are built with (default [`GenomeSettings::default`]).
    pub genome: GenomeSettings,
    /// How every generation is evaluated (default: 2 s along +x with [`Params::robots`], the
    /// damped ground with Coulomb friction, at `dt = 2e-4` s; the stiffest default voxel corner
    /// is stable below about 6e-4 s, see [`GenomeSettings`]).
    pub evaluation: Evaluation,
}

impl Default for Evolution {
    fn default() -> Self {
        Self {
            population: 48,
            generations: 10,
            size: [4, 4, 3],
            fill: 0.6,
            mutation_rate: 0.04,
            crossover_rate: 0.5,
            tournament: 3,
            elites: 2,
            seed: 0,
            genome: GenomeSettings::default(),
            evaluation: Evaluation {
                duration: 2.0,
                params: Params {
                    dt: 2e-4,
                    ..Params::robots()
                },
                ..Evaluation::default()
            },
        }
    }
}

/// What happened in one generation of an [`Evolution`]. Fitness in the unit of
/// [`Evaluation::fitness`] (m for the default distance).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GenerationStats {
    /// The generation, from 0.
    pub generation: usize,
    /// The best fitness; `None` when every robot failed.
    pub best: Option<f64>,
    /// The mean fitness of the robots that did not fail; `None` when every robot failed.
    pub mean: Option<f64>,
    /// Robots whose evaluation failed ([`RobotResult::failure`]): no fitness, ranked last.
    pub failures: usize,
    /// Genomes with no filled cell: no robot to evaluate, no fitness, ranked last.
    pub empty: usize,
    /// The genome of the best robot (the first of equals); `None` when every robot failed.
    pub best_genome: Option<VoxelGenome>,
    /// Wall time of the generation (evaluation and breeding), s.
    pub wall_time: f64,
}

/// The best robot of a whole [`Evolution`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Champion {
    /// Its genome.
    pub genome: VoxelGenome,
    /// Its fitness (m for the default distance).
    pub fitness: f64,
    /// The first generation it was evaluated in.
    pub generation: usize,
}

/// The outcome of [`Evolution::run`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Evolved {
    /// One entry per generation, generation 0 first.
    pub history: Vec<GenerationStats>,
    /// The fittest robot of every generation (the earliest of equals); `None` when every robot
    /// of every generation failed.
    pub champion: Option<Champion>,
}

/// An [`Evolution`] between two generations: everything needed to continue it exactly (the
/// genomes of the next generation, the generator's position, the history and champion so far).
/// It serialises to JSON, so a long run can be checkpointed after every generation and resumed
/// after a crash with [`Evolution::resume`] (what `hooke evolve --resume` does).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolutionState {
    /// The next generation to evaluate, from 0; [`Evolution::generations`] once finished.
    pub generation: usize,
    /// The genomes of that generation ([`Evolution::population`] of them; once finished, those
    /// a longer run would evaluate next).
    pub genomes: Vec<VoxelGenome>,
    /// Position of the generator (`ChaCha8Rng::seed_from_u64(Evolution::seed)`) in its key
    /// stream, in 32-bit words: where the next generation's draws start.
    pub rng_word_pos: u128,
    /// The generations run so far and the champion among them.
    pub evolved: Evolved,
}

impl EvolutionState {
    /// Whether every generation of `evolution` has been run.
    #[must_use]
    pub fn finished(&self, evolution: &Evolution) -> bool {
        self.generation >= evolution.generations
    }

    /// Checks that `evolution`'s settings could have made this state: a generation within
    /// the run, one history entry per generation run, a genome per robot, each of the
    /// settings' size.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] (`"evolution state"`) naming what does not fit.
    pub fn check(&self, evolution: &Evolution) -> Result<()> {
        if self.generation > evolution.generations {
            return Err(state_error(format!(
                "it is at generation {} of a run of {} generations",
                self.generation, evolution.generations
            )));
        }
        if self.evolved.history.len() != self.generation {
            return Err(state_error(format!(
                "it is at generation {} but its history has {} generations",
                self.generation,
                self.evolved.history.len()
            )));
        }
        if self.genomes.len() != evolution.population {
            return Err(state_error(format!(
                "it holds {} genomes for a population of {}",
                self.genomes.len(),
                evolution.population
            )));
        }
        if let Some((i, g)) = self
            .genomes
            .iter()
            .enumerate()
            .find(|(_, g)| g.size != evolution.size)
        {
            return Err(state_error(format!(
                "genome {i} has size {:?}, the settings say {:?}",
                g.size, evolution.size
            )));
        }
        for (i, g) in self.genomes.iter().enumerate() {
            g.check()
                .map_err(|e| state_error(format!("genome {i}: {e}")))?;
        }
        Ok(())
    }
}

/// An [`Error::InvalidBuilder`] about an [`EvolutionState`].
fn state_error(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "evolution state",
        reason,
    }
}

impl Evolution {
    /// Checks every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first bad field (`"evolution.population"`, ...),
    /// [`GenomeSettings::validate`]'s and [`Evaluation::check`]'s errors; the genome size is
    /// checked by [`VoxelGenome::random`] when the run starts.
    pub fn check(&self) -> Result<()> {
        let counts = [
            (
                "evolution.population",
                self.population < 2,
                self.population,
                "must be at least 2 robots",
            ),
            (
                "evolution.generations",
                self.generations < 1,
                self.generations,
                "must be at least 1",
            ),
            (
                "evolution.tournament",
                self.tournament < 1,
                self.tournament,
                "must be at least 1 robot",
            ),
            (
                "evolution.elites",
                self.elites >= self.population,
                self.elites,
                "must be below the population",
            ),
        ];
        for (name, bad, value, expected) in counts {
            if bad {
                return Err(Error::InvalidParameter {
                    name,
                    value: value as f64,
                    expected,
                });
            }
        }
        for (name, p) in [
            ("evolution.fill", self.fill),
            ("evolution.mutation_rate", self.mutation_rate),
            ("evolution.crossover_rate", self.crossover_rate),
        ] {
            crate::validate::require(
                p.is_finite() && (0.0..=1.0).contains(&p),
                name,
                p,
                "must be a probability in [0, 1]",
            )?;
        }
        self.genome.validate()?;
        self.evaluation.check()
    }

    /// Runs the evolution, each generation's robots (those with a filled cell) evaluated as one
    /// [`Population`] by `evaluate(population, evaluation)`, which returns one result per robot
    /// in order (e.g. [`Population::evaluate`] on a backend opened once for the whole run, as
    /// [`Evolution::run_on`] does). `observe` is called after every generation.
    ///
    /// The same as [`Evolution::start`] followed by [`Evolution::resume`].
    ///
    /// # Errors
    /// [`Evolution::check`]'s errors, [`VoxelGenome::random`]'s for a bad size, the evaluator's
    /// errors, and [`Error::LengthMismatch`] if it returns a result count other than the robot
    /// count.
    pub fn run<E, O>(&self, evaluate: E, mut observe: O) -> Result<Evolved>
    where
        E: FnMut(&Population, &Evaluation) -> Result<Vec<RobotResult>>,
        O: FnMut(&GenerationStats),
    {
        self.resume(self.start()?, evaluate, |state| {
            if let Some(stats) = state.evolved.history.last() {
                observe(stats);
            }
        })
    }

    /// The state before generation 0: the settings checked and generation 0 drawn (random
    /// genomes, see [`Evolution`]). Continue it with [`Evolution::resume`] or
    /// [`Evolution::next_generation`].
    ///
    /// # Errors
    /// [`Evolution::check`]'s errors and [`VoxelGenome::random`]'s for a bad size.
    pub fn start(&self) -> Result<EvolutionState> {
        self.check()?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let genomes = (0..self.population)
            .map(|_| VoxelGenome::random(&mut rng, self.size, self.fill, self.genome.phases))
            .collect::<Result<Vec<_>>>()?;
        Ok(EvolutionState {
            generation: 0,
            genomes,
            rng_word_pos: rng.get_word_pos(),
            evolved: Evolved {
                history: Vec::with_capacity(self.generations),
                champion: None,
            },
        })
    }

    /// Runs the generations `state` has left, calling `observe` with the state after each (its
    /// last [`GenerationStats`] are the generation just run): a checkpoint written there and
    /// read back later continues the run exactly, with the same genomes, draws, history
    /// (wall times aside) and champion as a run that was never stopped.
    ///
    /// # Errors
    /// As [`Evolution::run`], and [`Error::InvalidBuilder`] for a state these settings cannot
    /// have made (see [`EvolutionState::check`]).
    pub fn resume<E, O>(
        &self,
        mut state: EvolutionState,
        mut evaluate: E,
        mut observe: O,
    ) -> Result<Evolved>
    where
        E: FnMut(&Population, &Evaluation) -> Result<Vec<RobotResult>>,
        O: FnMut(&EvolutionState),
    {
        self.check()?;
        state.check(self)?;
        while !state.finished(self) {
            self.next_generation(&mut state, &mut evaluate)?;
            observe(&state);
        }
        Ok(state.evolved)
    }

    /// Evaluates the generation `state` holds, records its [`GenerationStats`] (and the
    /// champion), and breeds the next generation (after the last one too, so that a finished
    /// run resumed with more [`Evolution::generations`] continues as if it had had them all
    /// along).
    ///
    /// # Errors
    /// As [`Evolution::resume`]; and [`Error::InvalidBuilder`] when `state` is finished.
    pub fn next_generation<E>(&self, state: &mut EvolutionState, evaluate: &mut E) -> Result<()>
    where
        E: FnMut(&Population, &Evaluation) -> Result<Vec<RobotResult>>,
    {
        state.check(self)?;
        if state.finished(self) {
            return Err(state_error(format!(
                "all {} generations are done",
                self.generations
            )));
        }
        let started = Instant::now();
        let generation = state.generation;
        let (fitness, failures) = self.score(&state.genomes, evaluate)?;
        let order = ranking(&fitness);
        let best = fitness[order[0]];
        let scored: Vec<f64> = fitness.iter().flatten().copied().collect();
        let mean = (!scored.is_empty()).then(|| scored.iter().sum::<f64>() / scored.len() as f64);
        let evolved = &mut state.evolved;
        if let Some(b) = best {
            if evolved.champion.as_ref().is_none_or(|c| b > c.fitness) {
                evolved.champion = Some(Champion {
                    genome: state.genomes[order[0]].clone(),
                    fitness: b,
                    generation,
                });
            }
        }
        let best_genome = best.map(|_| state.genomes[order[0]].clone());
        // The next generation is bred after the last one too, so that a finished run can be
        // continued with more generations as if it had had them from the start.
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_word_pos(state.rng_word_pos);
        state.genomes = breed(&self.breeding(), &state.genomes, &fitness, &order, &mut rng)?;
        state.rng_word_pos = rng.get_word_pos();
        evolved.history.push(GenerationStats {
            generation,
            best,
            mean,
            failures,
            empty: genomes_empty(&fitness, failures),
            best_genome,
            wall_time: started.elapsed().as_secs_f64(),
        });
        state.generation += 1;
        Ok(())
    }

    /// [`Evolution::run`] with [`Population::evaluate`] on `backend`, opened once for the
    /// whole run (a World per generation, every one on the same device).
    ///
    /// # Errors
    /// As [`Evolution::run`].
    pub fn run_on(
        &self,
        backend: &OpenBackend,
        observe: impl FnMut(&GenerationStats),
    ) -> Result<Evolved> {
        self.run(|p, e| p.evaluate(e).on(backend).run(), observe)
    }

    /// What breeding reads of these settings.
    fn breeding(&self) -> Breeding {
        Breeding {
            population: self.population,
            elites: self.elites,
            tournament: self.tournament,
            crossover_rate: self.crossover_rate,
            mutation_rate: self.mutation_rate,
            phases: self.genome.phases,
        }
    }

    /// Each genome's fitness (`None` for an empty genome or a failed robot) and the number of
    /// failed robots.
    fn score<E>(
        &self,
        genomes: &[VoxelGenome],
        evaluate: &mut E,
    ) -> Result<(Vec<Option<f64>>, usize)>
    where
        E: FnMut(&Population, &Evaluation) -> Result<Vec<RobotResult>>,
    {
        let robots: Vec<usize> = (0..genomes.len())
            .filter(|&i| genomes[i].filled_count() > 0)
            .collect();
        let kept: Vec<VoxelGenome> = robots.iter().map(|&i| genomes[i].clone()).collect();
        let population = Population::from_genomes(&kept, &self.genome)?;
        let results = if kept.is_empty() {
            Vec::new()
        } else {
            evaluate(&population, &self.evaluation)?
        };
        if results.len() != kept.len() {
            return Err(Error::LengthMismatch {
                what: "evolution: results of the evaluator",
                expected: kept.len(),
                got: results.len(),
            });
        }
        let mut fitness = vec![None; genomes.len()];
        let mut failures = 0;
        for (&i, r) in robots.iter().zip(&results) {
            fitness[i] = r.fitness.filter(|f| f.is_finite());
            failures += usize::from(fitness[i].is_none());
        }
        Ok((fitness, failures))
    }
}

/// Genomes without fitness that were not failed robots: the empty ones.
fn genomes_empty(fitness: &[Option<f64>], failures: usize) -> usize {
    fitness.iter().filter(|f| f.is_none()).count() - failures
}
