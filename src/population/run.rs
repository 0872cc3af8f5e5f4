//! The run of a batch: every robot of a population's model stepped in one world, in control
//! periods, each robot checked against its own blow-up bound, a failed robot frozen and the run
//! restarted without it, until every robot has finished or failed.

use super::backend::Backend;
use super::checkpoint_every::Checkpoints;
use super::eval_checkpoint::{ControlState, EvaluationCheckpoint, Fingerprints, Progress};
use super::{Evaluation, FailureKind, RobotFailure, RobotResult};
use crate::error::{Error, Result};
use crate::model::{Actuator, Model, SpeedLimit};
use crate::simulation::{BodyState, Simulation};

/// What a controller is told at the start of each control period.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tick<'a> {
    /// Control period, from 0; a run that restarts after a failure starts again at 0.
    pub(super) period: u64,
    /// Which robots are frozen (failed in an earlier run), by robot index.
    pub(super) frozen: &'a [bool],
}

/// What runs at the start of every control period (the robots' controllers), and what a
/// checkpoint keeps of it.
pub(super) trait Control {
    /// Called at the start of every control period with the world and the [`Tick`].
    fn tick(&mut self, world: &mut dyn Simulation, tick: &Tick<'_>) -> Result<()>;
    /// The controllers' state between two periods.
    ///
    /// # Errors
    /// A controller that cannot save its state, naming its robot.
    fn save(&self) -> Result<ControlState>;
    /// Puts back what [`Control::save`] returned.
    fn restore(&mut self, state: &ControlState) -> Result<()>;
}

/// What an evaluation adds to the plain run: its controllers, its checkpoints and the
/// checkpoint it resumes from.
#[derive(Default)]
pub(super) struct Hooks<'h> {
    pub(super) control: Option<&'h mut dyn Control>,
    pub(super) checkpoints: Option<Checkpoints<'h>>,
    pub(super) resume: Option<EvaluationCheckpoint>,
    /// The population's and the evaluation's, which a checkpoint is checked against.
    pub(super) fingerprints: Option<Fingerprints>,
}

/// A population's model (body `i` is robot `i`, named after it) under an evaluation, with each
/// robot's own blow-up bound.
#[derive(Debug)]
pub(super) struct Batch<'a> {
    /// The population's model.
    pub(super) model: &'a Model,
    /// How it is evaluated.
    pub(super) eval: &'a Evaluation,
    /// Robot `i`'s blow-up bound, computed from a model of robot `i` alone.
    pub(super) limits: &'a [SpeedLimit],
}

impl Batch<'_> {
    /// Runs `world` (built from the model) until every robot has finished or failed, calling
    /// the hooks' controllers (if any) at the start of every control period and writing their
    /// checkpoints when due (after a period); one result per robot. A resumed run starts from
    /// its checkpoint, refused by name unless it is of this evaluation and world.
    ///
    /// A failed robot's masses are fixed and its muscles stilled, and the run starts again from
    /// the initial state: every other robot's masses feel only their own springs, the ground
    /// and the obstacles (no shared spring, no robot-robot collision), and on the GPU their
    /// fixed-point sums are exact integers whatever else is summed, so each runs exactly as
    /// before and their results are those of a run without the frozen robots.
    pub(super) fn run<S: Backend>(
        &self,
        mut world: S,
        mut hooks: Hooks<'_>,
    ) -> Result<Vec<RobotResult>> {
        if let (Some(_), Some(control)) = (&hooks.checkpoints, &hooks.control) {
            control.save()?; // refused before the first step, naming the robot
        }
        let mut progress = match hooks.resume.take() {
            Some(checkpoint) => {
                let fingerprints = hooks.fingerprints.expect("a resumed run has fingerprints");
                checkpoint.check_fits(
                    fingerprints,
                    self.model.bodies.len(),
                    world.kind(),
                    hooks.control.is_some(),
                )?;
                self.resume(&mut world, checkpoint, hooks.control.as_deref_mut())?
            }
            None => self.begin(&mut world, vec![None; self.model.bodies.len()])?,
        };
        loop {
            let new = self.pass(&mut world, &mut progress, &mut hooks)?;
            if new.is_empty() {
                let end = world.bodies()?;
                return Ok(self.results(&progress.start, &end, progress.failures));
            }
            let mut failures = std::mem::take(&mut progress.failures);
            if let Some((robot, f)) = new.iter().find(|(r, _)| failures[*r].is_some()) {
                // Only a spring force at rest can fail a frozen robot: a fixed-point encoding too
                // fine for the robot's springs.
                return Err(Error::InvalidBuilder {
                    builder: "evaluation",
                    reason: format!(
                        "robot {:?} fails even frozen at its initial state ({f}): \
                         fixed_point_force {} N is too small for its springs",
                        self.model.bodies[*robot].name, self.eval.fixed_point_force
                    ),
                });
            }
            for (robot, failure) in new {
                failures[robot].get_or_insert(failure);
            }
            progress = self.begin(&mut world, failures)?;
        }
    }

    /// A run from the initial state with the robots that `failures` names frozen.
    fn begin<S: Backend>(
        &self,
        world: &mut S,
        failures: Vec<Option<RobotFailure>>,
    ) -> Result<Progress> {
        world.reset();
        world.pin_bound();
        let progress = Progress {
            failures,
            start: Vec::new(),
            done: 0,
            period: 0,
        };
        self.freeze(world, &progress.frozen())?;
        Ok(Progress {
            start: world.bodies()?,
            ..progress
        })
    }

    /// The run `checkpoint` was taken in, put back into `world` and `control`.
    fn resume<'c, S: Backend>(
        &self,
        world: &mut S,
        checkpoint: EvaluationCheckpoint,
        control: Option<&mut (dyn Control + 'c)>,
    ) -> Result<Progress> {
        let (snapshot, progress, state, origin) = checkpoint.into_parts();
        let refused = |e: Error| Error::Snapshot {
            origin: origin.clone(),
            reason: e.to_string(),
        };
        world.restore(&snapshot).map_err(refused)?;
        if let (Some(control), Some(state)) = (control, state) {
            control.restore(&state).map_err(refused)?;
        }
        Ok(progress)
    }

    /// Fixes the masses of the `frozen` robots and stills their muscles, which leaves their
    /// springs at rest: no force on the GPU's fixed-point bound either.
    fn freeze<S: Simulation>(&self, world: &mut S, frozen: &[bool]) -> Result<()> {
        for (b, _) in self.model.bodies.iter().zip(frozen).filter(|(_, &f)| f) {
            for m in b.masses.clone() {
                world.set_fixed(m, true)?;
            }
            for (i, a) in self.model.actuators.iter().enumerate() {
                if b.springs.contains(&(a.spring as usize)) {
                    let still = Actuator {
                        amplitude: 0.0,
                        ..*a
                    };
                    world.set_actuator(i, still)?;
                }
            }
        }
        Ok(())
    }

    /// The rest of a run of the whole duration, from where `progress` is, in control periods,
    /// a checkpoint written whenever one is due; returns the robots that failed (robot index,
    /// failure), empty when none did.
    fn pass<S: Simulation>(
        &self,
        world: &mut S,
        progress: &mut Progress,
        hooks: &mut Hooks<'_>,
    ) -> Result<Vec<(usize, RobotFailure)>> {
        let total = self.eval.steps()?;
        let frozen = progress.frozen();
        while progress.done < total {
            if let Some(control) = hooks.control.as_deref_mut() {
                let tick = Tick {
                    period: progress.period,
                    frozen: &frozen,
                };
                control.tick(world, &tick)?;
            }
            let k = self.eval.control_steps.min(total - progress.done);
            if let Err(e) = world.step(k) {
                let Some((mass, mut failure)) = RobotFailure::of_error(&e, world.time()) else {
                    return Err(e);
                };
                let robot = self.robot_of(mass);
                failure.mass = Some(mass - self.model.bodies[robot].masses.start);
                return Ok(vec![(robot, failure)]);
            }
            progress.done += k;
            progress.period += 1;
            let failed = self.check(world, &frozen)?;
            if !failed.is_empty() {
                return Ok(failed);
            }
            if let Some(keep) = hooks
                .checkpoints
                .as_mut()
                .filter(|k| k.due(progress.period))
            {
                let control = hooks.control.as_deref().map(Control::save).transpose()?;
                keep.write(world.snapshot()?, progress, control)?;
            }
        }
        Ok(Vec::new())
    }

    /// Each running robot's masses against its own blow-up bound.
    fn check<S: Simulation>(
        &self,
        world: &S,
        frozen: &[bool],
    ) -> Result<Vec<(usize, RobotFailure)>> {
        let (x, v) = (world.positions()?, world.velocities()?);
        let (step, time) = (world.steps(), world.time());
        let mut failed = Vec::new();
        for (robot, body) in self.model.bodies.iter().enumerate() {
            if frozen[robot] {
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

    /// One result per robot from the bodies' states at the start and the end of the last run
    /// and the failures: a robot that did not fail is scored, and fails with
    /// [`FailureKind::Fitness`] when its score is not finite.
    fn results(
        &self,
        start: &[BodyState],
        end: &[BodyState],
        failures: Vec<Option<RobotFailure>>,
    ) -> Vec<RobotResult> {
        let eval = self.eval;
        let steps = eval.steps().unwrap_or(0);
        let t_end = steps as f64 * eval.params.dt;
        self.model
            .bodies
            .iter()
            .zip(failures)
            .enumerate()
            .map(|(i, (body, failure))| {
                let (s, e) = (&start[i], &end[i]);
                let mut failure = failure;
                let fitness = if failure.is_none() {
                    let f = eval.fitness.score(s, e);
                    if !f.is_finite() {
                        failure = Some(RobotFailure {
                            kind: FailureKind::Fitness,
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
                    name: body.name.clone(),
                    fitness,
                    end: failure.is_none().then_some(e.centre_of_mass),
                    failure,
                    start: s.centre_of_mass,
                }
            })
            .collect()
    }
}
