//! [`Evaluation`] and [`Population::evaluate`]: every robot of a population run in one world,
//! one [`RobotResult`] each, failures reported per robot.

use std::fmt;
use std::sync::Arc;

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::backend::sealed::Sealed;
use super::backend::{gpu_options, Backend};
use super::{Population, RobotFailure};
use crate::error::{Error, Result};
use crate::gpu::World;
use crate::model::{steps_for, Actuator, Model, Obstacle, Params, SpeedLimit};
use crate::simulation::{BodyState, Simulation};

/// A fitness function over a robot's body state at the start and at the end of the run.
pub type FitnessFn = dyn Fn(&BodyState, &BodyState) -> f64 + Send + Sync;

/// How a robot is scored (larger is better).
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Fitness {
    /// How far the centre of mass moved along `direction` from start to end, m. `direction` is
    /// horizontal (`z = 0`), finite and not zero; its length does not matter.
    Distance {
        /// The forward direction.
        #[schemars(with = "[f64; 3]")]
        direction: DVec3,
    },
    /// Any function of the start and end [`BodyState`]s (not serialisable).
    #[serde(skip)]
    Custom(Arc<FitnessFn>),
}

impl fmt::Debug for Fitness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Distance { direction } => f
                .debug_struct("Distance")
                .field("direction", direction)
                .finish(),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl Default for Fitness {
    fn default() -> Self {
        Self::Distance {
            direction: DVec3::X,
        }
    }
}

impl Fitness {
    /// The fitness of a robot that went from `start` to `end`.
    #[must_use]
    pub fn score(&self, start: &BodyState, end: &BodyState) -> f64 {
        match self {
            Self::Distance { direction } => {
                (end.centre_of_mass - start.centre_of_mass).dot(direction.normalize())
            }
            Self::Custom(f) => f(start, end),
        }
    }

    fn check(&self) -> Result<()> {
        if let Self::Distance { direction } = self {
            let ok = direction.is_finite() && direction.z == 0.0 && direction.length() > 0.0;
            if !ok {
                return Err(invalid(format!(
                    "fitness direction {direction} must be horizontal (z = 0), finite and not zero"
                )));
            }
        }
        Ok(())
    }
}

/// How a [`Population`] is evaluated: for how long, in what world, scored how. JSON fields may
/// be left out (defaults below); the closure fitness cannot be written to JSON.
///
/// # What a robot's result depends on
/// Only on the robot, this evaluation and the backend (and, on the GPU, the adapter): not on
/// the other robots in the batch, so a population can be split across machines. Robots share
/// no spring and never touch (see [`Population`]); what a world would otherwise choose from the
/// whole model is pinned here: each robot's blow-up bound is its own (computed from a model of
/// the robot alone and checked between control periods; the world's bound is a fixed backstop),
/// and on the GPU the fixed-point encoding comes from [`Evaluation::fixed_point_force`] and
/// [`Evaluation::max_incidence`]. On the CPU the spring list is cut into chunks between robots,
/// and inside a large robot at distances counted from its own first spring, so every mass of a
/// robot gets its spring force from the same chunks, summed in the same order, in any batch.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Evaluation {
    /// Simulated time, s (default 5). Finite and >= 0; run as `round(duration / dt)` steps.
    pub duration: f64,
    /// The world's parameters (default [`Params::default`]).
    pub params: Params,
    /// Obstacles and terrain every robot meets (default none).
    pub obstacles: Vec<Obstacle>,
    /// How robots are scored (default the distance along +x).
    pub fitness: Fitness,
    /// Steps per control period (default 1000, at least 1): the world runs this many steps
    /// between two calls of the controller of [`Population::evaluate_with`] and two checks of
    /// each robot's blow-up bound.
    pub control_steps: u64,
    /// GPU: the force scale of the fixed-point encoding, N (default 10 000: a 20 000 N/m spring
    /// at 50 % strain of a 1 m length). Finite and > 0.
    pub fixed_point_force: f64,
    /// GPU: the most springs that may meet at one mass (default 26, a voxel corner inside a
    /// lattice: 6 edges, 12 face and 8 body diagonals). A robot with more is a bad-input error.
    pub max_incidence: u32,
}

impl Default for Evaluation {
    fn default() -> Self {
        Self {
            duration: 5.0,
            params: Params::default(),
            obstacles: Vec::new(),
            fitness: Fitness::default(),
            control_steps: 1000,
            fixed_point_force: 10_000.0,
            max_incidence: 26,
        }
    }
}

impl Evaluation {
    /// Steps of one run, `round(duration / dt)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a negative or non-finite duration.
    pub fn steps(&self) -> Result<u64> {
        steps_for(self.duration, self.params.dt)
    }

    /// Checks the evaluation's own fields (the model is checked when the world is built).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a bad duration; [`Error::InvalidBuilder`] (builder
    /// `"evaluation"`) for a bad fitness direction, `control_steps == 0`, or a fixed-point force
    /// that is not finite and > 0.
    pub fn check(&self) -> Result<()> {
        self.params.validate()?;
        self.steps()?;
        self.fitness.check()?;
        if self.control_steps == 0 {
            return Err(invalid("control_steps must be at least 1".into()));
        }
        if !(self.fixed_point_force.is_finite() && self.fixed_point_force > 0.0) {
            return Err(invalid(format!(
                "fixed_point_force {} N must be finite and > 0",
                self.fixed_point_force
            )));
        }
        Ok(())
    }
}

/// The outcome for one robot of a [`Population`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RobotResult {
    /// The robot's name.
    pub name: String,
    /// Its fitness ([`Evaluation::fitness`]); `None` when it failed.
    pub fitness: Option<f64>,
    /// Why it failed, if it did.
    pub failure: Option<RobotFailure>,
    /// Its centre of mass at the start, m.
    #[schemars(with = "[f64; 3]")]
    pub start: DVec3,
    /// Its centre of mass at the end, m; `None` when it failed.
    #[schemars(with = "Option<[f64; 3]>")]
    pub end: Option<DVec3>,
}

/// What the controller of [`Population::evaluate_with`] is told at the start of each control
/// period.
#[derive(Clone, Copy, Debug)]
pub struct Tick<'a> {
    /// Control period, from 0; a run that restarts after a failure starts again at 0.
    pub period: u64,
    /// Simulation time, s.
    pub time: f64,
    /// Which robots are frozen (failed in an earlier run), by robot index.
    pub frozen: &'a [bool],
}

impl Population {
    /// Evaluates every robot in one world of backend `S` ([`crate::CpuWorld`] or
    /// [`World`]) and returns one result per robot, in robot order.
    ///
    /// A robot that fails (non-finite state, its blow-up bound passed, fixed-point overflow) is
    /// reported in its result and does not stop the others: its masses are fixed and the run
    /// starts again from the initial state, so the others' results are exactly those of a run
    /// without it.
    ///
    /// # Errors
    /// Bad input: [`Evaluation::check`]'s and [`Population::model`]'s errors, the model's
    /// validation errors (naming the element in the population's model), and building the world
    /// (no adapter, device limits); device errors while running.
    ///
    /// # Examples
    ///
    /// ```
    /// use hooke::population::{Evaluation, GenomeSettings, Population, VoxelGenome, VoxelMaterial};
    /// use hooke::CpuWorld;
    ///
    /// let genomes = [VoxelGenome::filled([2, 1, 1], VoxelMaterial::Muscle { phase: 0 })];
    /// let population = Population::from_genomes(&genomes, &GenomeSettings::default())?;
    /// let eval = Evaluation { duration: 0.05, ..Evaluation::default() }; // s
    /// let results = population.evaluate::<CpuWorld>(&eval)?;
    /// assert!(results[0].failure.is_none());
    /// assert!(results[0].fitness.unwrap().abs() < 0.05); // m, in 0.05 s
    /// # Ok::<(), hooke::Error>(())
    /// ```
    pub fn evaluate<S: Backend>(&self, eval: &Evaluation) -> Result<Vec<RobotResult>> {
        self.evaluate_with::<S, _>(eval, |_, _| Ok(()))
    }

    /// As [`Population::evaluate`], calling `controller` with the world at the start of every
    /// control period ([`Evaluation::control_steps`]), e.g. to read sensors and set commands.
    /// After a failure the run restarts from time 0 with `Tick::period` 0; a controller with
    /// state should reset it then.
    ///
    /// # Errors
    /// As [`Population::evaluate`], and the controller's errors.
    pub fn evaluate_with<S, C>(&self, eval: &Evaluation, controller: C) -> Result<Vec<RobotResult>>
    where
        S: Backend,
        C: FnMut(&mut S, &Tick<'_>) -> Result<()>,
    {
        eval.check()?;
        let model = self.model(&eval.params, &eval.obstacles)?;
        if self.robots.is_empty() {
            return Ok(Vec::new());
        }
        let world = S::build(&model, eval)?;
        self.run(&model, world, eval, controller)
    }

    /// [`Population::evaluate`] on the GPU [`World`], on a device the caller already has (an
    /// evolution loop opens the device once).
    ///
    /// # Errors
    /// As [`Population::evaluate`].
    pub fn evaluate_gpu_on(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        eval: &Evaluation,
    ) -> Result<Vec<RobotResult>> {
        eval.check()?;
        let model = self.model(&eval.params, &eval.obstacles)?;
        if self.robots.is_empty() {
            return Ok(Vec::new());
        }
        let mut world =
            World::with_device(device.clone(), queue.clone(), &model, gpu_options(eval))?;
        world.pin_bound();
        self.run(&model, world, eval, |_: &mut World, _: &Tick<'_>| Ok(()))
    }

    /// Runs until every robot has finished or failed.
    fn run<S, C>(
        &self,
        model: &Model,
        mut world: S,
        eval: &Evaluation,
        mut controller: C,
    ) -> Result<Vec<RobotResult>>
    where
        S: Simulation + Sealed,
        C: FnMut(&mut S, &Tick<'_>) -> Result<()>,
    {
        let bodies = model.bodies.clone();
        let limits: Vec<SpeedLimit> = (0..self.robots.len())
            .map(|i| self.robot_limit(i, eval))
            .collect::<Result<_>>()?;
        let mut failures: Vec<Option<RobotFailure>> = vec![None; self.robots.len()];
        loop {
            // The world after reset is the model's; freezing the failed robots fixes their
            // masses. Every other robot's masses feel only their own springs, the ground and
            // the obstacles (no shared spring, no robot-robot collision), and on the GPU their
            // fixed-point sums are exact integers whatever else is summed, so each runs exactly
            // as before: their results are those of a run without the frozen robots.
            world.reset();
            world.pin_bound();
            let frozen: Vec<bool> = failures.iter().map(Option::is_some).collect();
            for (b, _) in bodies.iter().zip(&frozen).filter(|(_, &f)| f) {
                for m in b.masses.clone() {
                    world.set_fixed(m, true)?;
                }
                // Stilled muscles leave the frozen robot's springs at rest: no force on the
                // GPU's fixed-point bound either.
                for (i, a) in model.actuators.iter().enumerate() {
                    if b.springs.contains(&(a.spring as usize)) {
                        let still = Actuator {
                            amplitude: 0.0,
                            ..*a
                        };
                        world.set_actuator(i, still)?;
                    }
                }
            }
            let start = world.bodies()?;
            let run = Run {
                model,
                eval,
                limits: &limits,
                frozen: &frozen,
            };
            let new = run.go(&mut world, &mut controller)?;
            if new.is_empty() {
                let end = world.bodies()?;
                return Ok(self.results(eval, &start, &end, failures));
            }
            if let Some((robot, f)) = new.iter().find(|(r, _)| failures[*r].is_some()) {
                // Only a spring force at rest can fail a frozen robot: a fixed-point encoding too
                // fine for the robot's springs.
                return Err(Error::InvalidBuilder {
                    builder: "evaluation",
                    reason: format!(
                        "robot {:?} fails even frozen at its initial state ({f}): \
                         fixed_point_force {} N is too small for its springs",
                        self.robots[*robot].name, eval.fixed_point_force
                    ),
                });
            }
            for (robot, failure) in new {
                failures[robot].get_or_insert(failure);
            }
        }
    }

    /// The blow-up bound of robot `i` alone under `eval`.
    fn robot_limit(&self, i: usize, eval: &Evaluation) -> Result<SpeedLimit> {
        let alone = Population {
            robots: vec![self.robots[i].clone()],
            layout: super::Layout::Together,
        };
        let model = alone.model(&eval.params, &eval.obstacles)?;
        Ok(SpeedLimit::of_model(&model))
    }

    fn results(
        &self,
        eval: &Evaluation,
        start: &[BodyState],
        end: &[BodyState],
        failures: Vec<Option<RobotFailure>>,
    ) -> Vec<RobotResult> {
        let steps = eval.steps().unwrap_or(0);
        let t_end = steps as f64 * eval.params.dt;
        self.robots
            .iter()
            .zip(failures)
            .enumerate()
            .map(|(i, (r, failure))| {
                let (s, e) = (&start[i], &end[i]);
                let mut failure = failure;
                let fitness = if failure.is_none() {
                    let f = eval.fitness.score(s, e);
                    if !f.is_finite() {
                        failure = Some(RobotFailure {
                            kind: super::FailureKind::Fitness,
                            step: steps,
                            time: t_end,
                            mass: None,
                            speed: None,
                        });
                    }
                    f.is_finite().then_some(f)
                } else {
                    None
                };
                RobotResult {
                    name: r.name.clone(),
                    fitness,
                    end: failure.is_none().then_some(e.centre_of_mass),
                    failure,
                    start: s.centre_of_mass,
                }
            })
            .collect()
    }
}

/// One run of a population from the initial state.
struct Run<'a> {
    model: &'a Model,
    eval: &'a Evaluation,
    limits: &'a [SpeedLimit],
    frozen: &'a [bool],
}

impl Run<'_> {
    /// Runs the whole duration in control periods; returns the robots that failed (robot index,
    /// failure), empty when none did.
    fn go<S, C>(&self, world: &mut S, controller: &mut C) -> Result<Vec<(usize, RobotFailure)>>
    where
        S: Simulation,
        C: FnMut(&mut S, &Tick<'_>) -> Result<()>,
    {
        let total = self.eval.steps()?;
        let mut done = 0;
        let mut period = 0;
        while done < total {
            let tick = Tick {
                period,
                time: world.time(),
                frozen: self.frozen,
            };
            controller(world, &tick)?;
            let k = self.eval.control_steps.min(total - done);
            if let Err(e) = world.step(k) {
                let Some((mass, mut failure)) = RobotFailure::of_error(&e, world.time()) else {
                    return Err(e);
                };
                let robot = self.robot_of(mass);
                failure.mass = Some(mass - self.model.bodies[robot].masses.start);
                return Ok(vec![(robot, failure)]);
            }
            done += k;
            period += 1;
            let failed = self.check(world)?;
            if !failed.is_empty() {
                return Ok(failed);
            }
        }
        Ok(Vec::new())
    }

    /// Each running robot's masses against its own blow-up bound.
    fn check<S: Simulation>(&self, world: &S) -> Result<Vec<(usize, RobotFailure)>> {
        let (x, v) = (world.positions()?, world.velocities()?);
        let (step, time) = (world.steps(), world.time());
        let mut failed = Vec::new();
        for (robot, body) in self.model.bodies.iter().enumerate() {
            if self.frozen[robot] {
                continue;
            }
            let first = body.masses.clone().find_map(|m| {
                let limit = self.limits[robot].speed(self.model.masses[m].mass, time);
                let local = m - body.masses.start;
                RobotFailure::of_state(local, x[m], v[m], limit, step, time)
            });
            if let Some(f) = first {
                failed.push((robot, f));
            }
        }
        Ok(failed)
    }

    /// The robot (body) that mass `mass` belongs to.
    fn robot_of(&self, mass: usize) -> usize {
        self.model
            .bodies
            .partition_point(|b| b.masses.end <= mass)
            .min(self.model.bodies.len() - 1)
    }
}

fn invalid(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "evaluation",
        reason,
    }
}
