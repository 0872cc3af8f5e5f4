//! [`Population`]: named robots built into one [`Model`], one body each, isolated from each
//! other, and evaluated in one world; [`EvaluationRun`], one evaluation set up (where it runs,
//! the robots' controllers) and run.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::backend::{cpu_world, gpu_world, Backend};
use super::benchmark::{benchmark_genomes, block_robot};
use super::checkpoint_every::{CheckpointEvery, Checkpoints, Sink};
use super::eval_checkpoint::{
    evaluation_fingerprint, json_fingerprint, EvaluationCheckpoint, Fingerprints, ResumeFrom,
};
use super::run::{Batch, Control, Hooks};
use super::{Evaluation, GenomeSettings, RobotControl, RobotController, RobotResult, VoxelGenome};
use crate::backend_choice::OpenBackend;
use crate::error::{Error, Result};
use crate::gpu::Precision;
use crate::model::{Model, Obstacle, Params, Part, SpeedLimit};

/// The collision group every robot mass of a population is put in (bit 31); robot masses mask
/// it out, so no robot mass collides with any other robot mass.
pub const ROBOT_COLLISION_GROUP: u32 = 1 << 31;

/// One robot of a [`Population`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Robot {
    /// Its name, unique in the population (becomes the body's name and the result's).
    pub name: String,
    /// Its masses, springs and actuators, in its own frame (m).
    pub part: Part,
}

/// Where the robots of a [`Population`] start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Layout {
    /// Every robot where its part puts it (default): robots overlap, which is harmless since
    /// they cannot touch, and keeps each robot's numbers exactly those of a run on its own.
    #[default]
    Together,
    /// Robot `i` moved by `spacing` m times its cell of a square grid in x and y (row-major,
    /// `ceil(sqrt(n))` columns), for pictures. Moving a robot changes the rounding of its
    /// positions, so fitness values are then close to, not bit-identical with, a run on its own.
    Grid {
        /// Distance between neighbouring robots' origins, m.
        spacing: f64,
    },
}

/// Many robots evaluated in one World: each robot is one body, robots share the parameters,
/// the ground and the obstacles, and never act on one another.
///
/// Isolation: robots share no spring, and every robot mass is put in collision group
/// [`ROBOT_COLLISION_GROUP`] with that group masked out, so two robot masses never collide
/// (robots still touch the ground and every [`Obstacle`], which act on each mass on its own).
/// A collision mask cannot tell one robot from another, so this also turns a robot's
/// **self-collision off**: a robot that relies on its masses colliding with each other must be
/// evaluated on its own, with its own model.
///
/// # Examples
///
/// ```
/// use hooke::population::{GenomeSettings, Population, VoxelGenome, VoxelMaterial};
///
/// let settings = GenomeSettings::default();
/// let genomes = [
///     VoxelGenome::filled([2, 1, 1], VoxelMaterial::Soft),
///     VoxelGenome::filled([1, 1, 1], VoxelMaterial::Muscle { phase: 0 }),
/// ];
/// let population = Population::from_genomes(&genomes, &settings)?;
/// assert_eq!(population.robots[1].name, "robot 1");
/// let model = population.model(&hooke::Params::default(), &[])?;
/// assert_eq!(model.bodies.len(), 2);
/// assert_eq!(model.bodies[1].masses, 12..20);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Population {
    /// The robots, in result order.
    pub robots: Vec<Robot>,
    /// Where they start (default [`Layout::Together`]).
    #[serde(default)]
    pub layout: Layout,
}

impl Population {
    /// An empty population.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds robot `name` made of `part`; returns its index.
    pub fn push(&mut self, name: impl Into<String>, part: Part) -> usize {
        self.robots.push(Robot {
            name: name.into(),
            part,
        });
        self.robots.len() - 1
    }

    /// The robots of `genomes`, named `"robot 0"`, `"robot 1"`, ... in order.
    ///
    /// # Errors
    /// [`VoxelGenome::part`]'s errors, the reason prefixed with the robot's index.
    pub fn from_genomes(genomes: &[VoxelGenome], settings: &GenomeSettings) -> Result<Self> {
        let mut population = Self::new();
        for (i, g) in genomes.iter().enumerate() {
            let part = g.part(settings).map_err(|e| match e {
                Error::InvalidBuilder { builder, reason } => Error::InvalidBuilder {
                    builder,
                    reason: format!("robot {i}: {reason}"),
                },
                other => other,
            })?;
            population.push(format!("robot {i}"), part);
        }
        Ok(population)
    }

    /// The same population laid out by `layout`.
    #[must_use]
    pub fn with_layout(self, layout: Layout) -> Self {
        Self { layout, ..self }
    }

    /// The one model of every robot (body `i` is robot `i`), with parameters `params` and
    /// obstacles `obstacles`. Robot masses get collision group [`ROBOT_COLLISION_GROUP`] and a
    /// mask without it (see the type's docs); nothing else of the parts changes.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] (builder `"population"`) for two robots of one name, a robot
    /// without masses, or a grid spacing that is not finite and > 0. The model itself is
    /// validated when a World is built from it.
    pub fn model(&self, params: &Params, obstacles: &[Obstacle]) -> Result<Model> {
        let mut seen = HashMap::with_capacity(self.robots.len());
        for (i, r) in self.robots.iter().enumerate() {
            if let Some(first) = seen.insert(r.name.as_str(), i) {
                return Err(invalid(format!(
                    "robots {first} and {i} are both named {:?}; names must be unique",
                    r.name
                )));
            }
            if r.part.masses.is_empty() {
                return Err(invalid(format!("robot {i} ({:?}) has no masses", r.name)));
            }
        }
        let columns = (self.robots.len() as f64).sqrt().ceil().max(1.0) as usize;
        let mut model = Model::new(*params);
        model.obstacles = obstacles.to_vec();
        for (i, r) in self.robots.iter().enumerate() {
            let mut part = r.part.clone();
            if let Layout::Grid { spacing } = self.layout {
                if !(spacing.is_finite() && spacing > 0.0) {
                    return Err(invalid(format!(
                        "grid spacing {spacing} m must be finite and > 0"
                    )));
                }
                let cell = DVec3::new((i % columns) as f64, (i / columns) as f64, 0.0);
                part.translate(cell * spacing);
            }
            for m in &mut part.masses {
                m.collision_group = ROBOT_COLLISION_GROUP;
                m.collision_mask = !ROBOT_COLLISION_GROUP;
            }
            model.add(r.name.clone(), part);
        }
        Ok(model)
    }

    /// An evaluation of every robot under `evaluation`, one [`RobotResult`] per robot in robot
    /// order, once [`EvaluationRun::run`] is called. By default it runs on the CPU reference on
    /// all cores without controllers; [`EvaluationRun::on`] names the backend (a GPU device or
    /// CPU threads, opened once for many evaluations), [`EvaluationRun::controllers`] gives
    /// each robot its own closed-loop controller.
    ///
    /// A robot that fails (non-finite state, its blow-up bound passed, fixed-point overflow) is
    /// reported in its result and does not stop the others: its masses are fixed and the run
    /// starts again from the initial state, so the others' results are exactly those of a run
    /// without it. A robot's result depends only on the robot, the evaluation and the backend
    /// (see [`Evaluation`]), not on the other robots, their controllers or the CPU thread
    /// count.
    ///
    /// # Examples
    ///
    /// ```
    /// use hooke::population::{Evaluation, GenomeSettings, Population, VoxelGenome, VoxelMaterial};
    /// use hooke::BackendChoice;
    ///
    /// let genomes = [VoxelGenome::filled([2, 1, 1], VoxelMaterial::Muscle { phase: 0 })];
    /// let population = Population::from_genomes(&genomes, &GenomeSettings::default())?;
    /// let eval = Evaluation { duration: 0.05, ..Evaluation::default() }; // s
    /// let results = population.evaluate(&eval).run()?; // the CPU reference, all cores
    /// assert!(results[0].failure.is_none());
    /// assert!(results[0].fitness.unwrap().abs() < 0.05); // m, in 0.05 s
    ///
    /// // A backend opened once (for `gpu`, a device) serves every evaluation of a job.
    /// let backend = BackendChoice::Cpu.open()?;
    /// assert_eq!(population.evaluate(&eval).on(&backend).run()?, results);
    /// # Ok::<(), hooke::Error>(())
    /// ```
    pub fn evaluate<'a>(&'a self, evaluation: &'a Evaluation) -> EvaluationRun<'a> {
        EvaluationRun {
            population: self,
            evaluation,
            backend: None,
            precision: Precision::F32,
            controllers: None,
            checkpoints: None,
            resume: None,
        }
    }

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
    ///
    /// [`BENCHMARK_GENOME_SIZE`]: super::BENCHMARK_GENOME_SIZE
    /// [`BENCHMARK_FILL`]: super::BENCHMARK_FILL
    /// [`BENCHMARK_SEED`]: super::BENCHMARK_SEED
    pub fn benchmark(robots: usize) -> Result<Self> {
        Self::from_genomes(&benchmark_genomes(robots)?, &GenomeSettings::default())
    }

    /// `robots` copies of [`block_robot`](super::block_robot): a population whose bodies are
    /// all of one shape (as when a body's controller is evolved), the batch of ~100-mass robots
    /// whose spring-update rate the benchmarks compare with the lattice's. Robot `i` is named
    /// `block i`.
    ///
    /// # Errors
    /// As [`block_robot`](super::block_robot).
    pub fn benchmark_blocks(robots: usize) -> Result<Self> {
        let part = block_robot()?;
        let robots = (0..robots)
            .map(|i| Robot {
                name: format!("block {i}"),
                part: part.clone(),
            })
            .collect();
        Ok(Self {
            robots,
            ..Self::default()
        })
    }

    /// Runs the population's `model` in `world` (built from it) under `eval`.
    fn run_in<S: Backend>(
        &self,
        world: S,
        model: &Model,
        eval: &Evaluation,
        hooks: Hooks<'_>,
    ) -> Result<Vec<RobotResult>> {
        let limits = self.robot_limits(eval)?;
        let batch = Batch {
            model,
            eval,
            limits: &limits,
        };
        batch.run(world, hooks)
    }

    /// Each robot's blow-up bound under `eval`, computed from a model of the robot alone.
    fn robot_limits(&self, eval: &Evaluation) -> Result<Vec<SpeedLimit>> {
        self.robots
            .iter()
            .map(|robot| {
                let alone = Population {
                    robots: vec![robot.clone()],
                    layout: Layout::Together,
                };
                let model = alone.model(&eval.params, &eval.obstacles)?;
                Ok(SpeedLimit::of_model(&model))
            })
            .collect()
    }
}

/// Makes the robots' controllers ready for the population's model.
type BindControllers<'a> = dyn FnOnce(&Model) -> Result<Box<dyn Control + 'a>> + 'a;

/// One evaluation of a [`Population`], set up by [`Population::evaluate`] and these methods,
/// run by [`EvaluationRun::run`].
///
/// # Examples
///
/// Each robot driven by its own controller, on a backend opened once:
///
/// ```
/// use hooke::population::{Evaluation, GenomeSettings, Population, RobotController, VoxelGenome,
///     VoxelMaterial};
/// use hooke::sensors::{Readings, SensorSpec};
/// use hooke::BackendChoice;
///
/// /// Contracts every muscle by 10 % while the robot's centre is below `height` m.
/// struct Crouch {
///     height: f64,
/// }
///
/// impl RobotController for Crouch {
///     fn sensors(&self) -> SensorSpec {
///         SensorSpec { bodies: vec![0], ..SensorSpec::default() }
///     }
///     fn control(&mut self, readings: &Readings, commands: &mut [f64]) {
///         let low = readings.bodies[0].centre_of_mass.z < self.height;
///         commands.fill(if low { -0.1 } else { 0.0 });
///     }
/// }
///
/// let settings = GenomeSettings { commanded: true, ..GenomeSettings::default() };
/// let genomes = vec![VoxelGenome::filled([2, 1, 1], VoxelMaterial::Muscle { phase: 0 }); 2];
/// let population = Population::from_genomes(&genomes, &settings)?;
/// let eval = Evaluation { duration: 0.05, control_steps: 100, ..Evaluation::default() };
/// let backend = BackendChoice::Cpu.open()?;
/// let results = population
///     .evaluate(&eval)
///     .on(&backend)
///     .controllers(&mut [Crouch { height: 0.1 }, Crouch { height: 0.1 }])
///     .run()?;
/// // Robots never touch and each sees only its own sensors: the same robot with the same
/// // controller scores the same bits.
/// assert!(results[0].failure.is_none());
/// assert_eq!(results[0].fitness, results[1].fitness);
/// # Ok::<(), hooke::Error>(())
/// ```
#[must_use = "nothing is evaluated until `run` is called"]
pub struct EvaluationRun<'a> {
    population: &'a Population,
    evaluation: &'a Evaluation,
    backend: Option<&'a OpenBackend>,
    precision: Precision,
    controllers: Option<Box<BindControllers<'a>>>,
    checkpoints: Option<(CheckpointEvery, Box<Sink<'a>>)>,
    resume: Option<ResumeFrom>,
}

impl fmt::Debug for EvaluationRun<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EvaluationRun")
            .field("robots", &self.population.robots.len())
            .field("evaluation", self.evaluation)
            .field("backend", &self.backend)
            .field("precision", &self.precision)
            .field("controllers", &self.controllers.is_some())
            .field("checkpoints", &self.checkpoints.as_ref().map(|c| c.0))
            .field("resume", &self.resume)
            .finish()
    }
}

impl<'a> EvaluationRun<'a> {
    /// Runs on `backend` (default: the CPU reference on all cores): the GPU World on its
    /// device, or the CPU reference on its threads ([`OpenBackend::Cpu`]'s `threads`). Open it
    /// once ([`BackendChoice::open`](crate::BackendChoice::open)) and pass it to every
    /// evaluation of a job: each builds its World on the same device.
    pub fn on(self, backend: &'a OpenBackend) -> Self {
        Self {
            backend: Some(backend),
            ..self
        }
    }

    /// Drives robot `r` by `controllers[r]` every [`Evaluation::control_steps`] steps
    /// ([`RobotControl::tick`]): one [`Simulation::sense`](crate::Simulation::sense) reads what all the controllers asked
    /// for, each controller gets its robot's part of it and fills its robot's commands, and one
    /// [`Simulation::set_commands`](crate::Simulation::set_commands) sends them all. Every controller is
    /// [reset](RobotController::reset) at time 0, also when the run restarts after a failure;
    /// a failed (frozen) robot's controller is no longer called and its commands stay 0. A
    /// robot's result does not depend on the other robots or their controllers (it sees only
    /// its own sensors).
    pub fn controllers<C: RobotController>(self, controllers: &'a mut [C]) -> Self {
        let bind = move |model: &Model| -> Result<Box<dyn Control + 'a>> {
            let controllers = controllers; // moved out: the binding is called once
            Ok(Box::new(RobotControl::new(model, controllers)?))
        };
        Self {
            controllers: Some(Box::new(bind)),
            ..self
        }
    }

    /// GPU: the kernels' precision (default [`Precision::F32`]; [`Precision::F64`] needs an
    /// adapter with `SHADER_F64`). The CPU reference always runs in f64 and ignores it.
    pub fn precision(self, precision: Precision) -> Self {
        Self { precision, ..self }
    }

    /// Writes a checkpoint of the evaluation to the file `path` every `every` (control periods
    /// or seconds of wall time), between two control periods: the world's snapshot, where the
    /// run is, the failures so far and the robots' states at the run's start, the controllers'
    /// states ([`RobotController::save_state`]), and fingerprints of the population and the
    /// evaluation ([`EvaluationCheckpoint`]). Each is written to a temporary file, flushed to
    /// the disk and renamed over `path`, the one it replaces kept at
    /// [`EvaluationCheckpoint::previous_path`], so a kill at any moment leaves a whole one.
    /// Checkpoints change no bit of the results; the last one stays after the run.
    ///
    /// A run with controllers that cannot save their state is refused before its first step,
    /// naming the robot.
    ///
    /// # Examples
    ///
    /// An evaluation stopped (here: its checkpoints kept in memory) and resumed gives the
    /// results of one that never stopped, to the bit:
    ///
    /// ```
    /// use hooke::population::{CheckpointEvery, Evaluation, GenomeSettings, Population,
    ///     VoxelGenome, VoxelMaterial};
    ///
    /// let genomes = [VoxelGenome::filled([2, 1, 1], VoxelMaterial::Muscle { phase: 0 })];
    /// let population = Population::from_genomes(&genomes, &GenomeSettings::default())?;
    /// let eval = Evaluation { duration: 0.05, control_steps: 100, ..Evaluation::default() };
    /// let straight = population.evaluate(&eval).run()?;
    ///
    /// let path = std::env::temp_dir().join(format!("hooke-doc-{}.ckpt", std::process::id()));
    /// let every = CheckpointEvery::Periods(2); // or CheckpointEvery::Seconds(600.0)
    /// assert_eq!(population.evaluate(&eval).checkpoint(&path, every).run()?, straight);
    /// // After a kill, the same evaluation resumes from the file:
    /// assert_eq!(population.evaluate(&eval).resume(&path).run()?, straight);
    /// # std::fs::remove_file(&path).ok();
    /// # std::fs::remove_file(hooke::population::EvaluationCheckpoint::previous_path(&path)).ok();
    /// # Ok::<(), hooke::Error>(())
    /// ```
    pub fn checkpoint(self, path: impl Into<PathBuf>, every: CheckpointEvery) -> Self {
        let path = path.into();
        self.checkpoint_with(every, move |c: &EvaluationCheckpoint| c.save(&path))
    }

    /// As [`EvaluationRun::checkpoint`], each checkpoint handed to `sink` (to keep in memory,
    /// send elsewhere, or save with [`EvaluationCheckpoint::save`]); an error from `sink` stops
    /// the evaluation with that error.
    pub fn checkpoint_with(
        self,
        every: CheckpointEvery,
        sink: impl FnMut(&EvaluationCheckpoint) -> Result<()> + 'a,
    ) -> Self {
        Self {
            checkpoints: Some((every, Box::new(sink))),
            ..self
        }
    }

    /// Resumes from the checkpoint at `path`, or from the one before it when that one is
    /// damaged ([`EvaluationCheckpoint::load_latest`]; said in the log): the results are those
    /// of a run that never stopped. The checkpoint must be of this population and evaluation
    /// (checked by fingerprints), backend and precision, with controllers if this run has
    /// them; otherwise [`EvaluationRun::run`] refuses it by name before any step.
    pub fn resume(self, path: impl Into<PathBuf>) -> Self {
        Self {
            resume: Some(ResumeFrom::File(path.into())),
            ..self
        }
    }

    /// As [`EvaluationRun::resume`], from a checkpoint in memory.
    pub fn resume_from(self, checkpoint: EvaluationCheckpoint) -> Self {
        Self {
            resume: Some(ResumeFrom::Checkpoint(Box::new(checkpoint))),
            ..self
        }
    }

    /// Runs the evaluation: one result per robot, in robot order (none for an empty
    /// population).
    ///
    /// # Errors
    /// Bad input: [`Evaluation::check`]'s and [`Population::model`]'s errors, the model's
    /// validation errors (naming the element in the population's model), those of
    /// [`RobotControl::new`] for the controllers, and building the world (device limits, a
    /// robot with more springs at a mass than [`Evaluation::max_incidence`]); device errors and
    /// the controllers' errors while running. With checkpoints: [`CheckpointEvery::check`]'s
    /// errors, [`Error::InvalidBuilder`] (`"evaluation checkpoint"`) for a controller that
    /// cannot save its state, [`Error::Snapshot`] for a checkpoint that cannot be written. When
    /// resuming: [`Error::Snapshot`] naming the checkpoint for one that does not read or is not
    /// of this evaluation (population, evaluation, backend, precision, controllers).
    pub fn run(self) -> Result<Vec<RobotResult>> {
        let Self {
            population,
            evaluation: eval,
            backend,
            precision,
            controllers,
            checkpoints,
            resume,
        } = self;
        eval.check()?;
        let model = population.model(&eval.params, &eval.obstacles)?;
        let mut control = match controllers {
            Some(bind) => Some(bind(&model)?),
            None => None,
        };
        if population.robots.is_empty() {
            return Ok(Vec::new());
        }
        let fingerprints = Fingerprints {
            population: json_fingerprint(population),
            evaluation: evaluation_fingerprint(eval),
        };
        let hooks = Hooks {
            control: control.as_deref_mut().map(|c| c as &mut dyn Control),
            checkpoints: match checkpoints {
                Some((every, sink)) => {
                    every.check()?;
                    Some(Checkpoints::new(every, fingerprints, sink))
                }
                None => None,
            },
            resume: resume.map(ResumeFrom::load).transpose()?,
            fingerprints: Some(fingerprints),
        };
        match backend {
            Some(OpenBackend::Gpu { device, queue, .. }) => {
                let world = gpu_world(&model, eval, precision, (device, queue))?;
                population.run_in(world, &model, eval, hooks)
            }
            Some(OpenBackend::Cpu { threads }) => {
                population.run_in(cpu_world(&model, *threads)?, &model, eval, hooks)
            }
            None => population.run_in(cpu_world(&model, None)?, &model, eval, hooks),
        }
    }
}

fn invalid(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "population",
        reason,
    }
}
