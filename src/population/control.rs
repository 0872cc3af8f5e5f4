//! Closed-loop control of a population: each robot its own [`RobotController`], seeing only its
//! own sensors and filling only its own commands, all robots read in one batched
//! [`Simulation::sense`](crate::Simulation::sense) and commanded by one
//! [`Simulation::set_commands`](crate::Simulation::set_commands) per control period.

use std::ops::Range;

use super::eval_checkpoint::ControlState;
use super::run::{Control, Tick};
use crate::error::{Error, Result};
use crate::model::Model;
use crate::sensors::{BodySlice, Readings, SensorSpec};

/// One robot's controller in a population
/// ([`EvaluationRun::controllers`](super::EvaluationRun::controllers)). All indices it
/// deals in are the robot's own: masses and springs numbered as in its [`Part`](crate::Part),
/// commands one per commanded actuator of the part, in actuator order.
pub trait RobotController {
    /// What to read at every control period, in robot-local indices: `bodies` may only hold 0
    /// (the robot itself), `contacts` its masses, `springs` its springs.
    fn sensors(&self) -> SensorSpec;

    /// Called at the start of every run (time 0), before the first [`RobotController::control`]:
    /// a run restarts from time 0 when another robot fails, so a controller with state must
    /// forget it here. Does nothing by default.
    fn reset(&mut self) {}

    /// Reads the robot's `readings` (in the order of its [`RobotController::sensors`]) and writes
    /// its `commands` (relative rest-length changes; they hold the previous period's values on
    /// entry, zeros at time 0).
    fn control(&mut self, readings: &Readings, commands: &mut [f64]);

    /// The controller's state between two control periods, as bytes of its own format, for an
    /// evaluation checkpoint ([`EvaluationRun::checkpoint`](super::EvaluationRun::checkpoint));
    /// a controller without state returns `Some(Vec::new())`. `None` (the default) says it
    /// cannot: an evaluation with checkpoints then refuses to start, naming the robot.
    fn save_state(&self) -> Option<Vec<u8>> {
        None
    }

    /// Puts back a state [`RobotController::save_state`] returned, when an evaluation resumes
    /// from a checkpoint; the next [`RobotController::control`] must then act as it would have
    /// without the stop.
    ///
    /// # Errors
    /// What is wrong with `state` (by default: that this controller cannot restore one).
    fn restore_state(&mut self, state: &[u8]) -> std::result::Result<(), String> {
        let _ = state;
        Err("this controller cannot restore a saved state (RobotController::restore_state)".into())
    }
}

/// Where robot `r`'s items sit in the population's model.
#[derive(Debug)]
struct Slice {
    /// Its commanded actuators' command indices.
    commands: Range<usize>,
    /// Its items in the population-wide readings.
    sensors: BodySlice,
}

/// The population-wide sensor spec and each robot's slices of it.
#[derive(Debug)]
struct Plan {
    spec: SensorSpec,
    slices: Vec<Slice>,
}

/// Translates each robot's spec into model indices and concatenates them, checking that each
/// names only the robot's own items.
fn plan(model: &Model, specs: &[SensorSpec]) -> Result<Plan> {
    let mut spec = SensorSpec::default();
    let mut slices = Vec::with_capacity(specs.len());
    let mut command = 0;
    for (r, (own, body)) in specs.iter().zip(&model.bodies).enumerate() {
        let out_of = |what: &'static str, index: usize, len: usize| Error::InvalidBuilder {
            builder: "population controller",
            reason: format!(
                "robot {r} asks for {what} {index}, but it has {len} (robot-local indices)"
            ),
        };
        let commanded = model
            .actuators
            .iter()
            .filter(|a| a.commanded && body.springs.contains(&(a.spring as usize)))
            .count();
        let sensors = spec
            .push_body(own, r, body)
            .map_err(|(what, index, len)| out_of(what, index, len))?;
        slices.push(Slice {
            commands: command..command + commanded,
            sensors,
        });
        command += commanded;
    }
    Ok(Plan { spec, slices })
}

/// Drives the bodies of one world, each by its own [`RobotController`]: what an evaluation with
/// [`EvaluationRun::controllers`](super::EvaluationRun::controllers) does at every control
/// period, for a loop of your own (a recording, a viewer). Body `r` of the model is controller `r`'s robot; its commanded
/// actuators are the model's commanded actuators on its springs, in order.
#[derive(Debug)]
pub struct RobotControl<'a, C> {
    controllers: &'a mut [C],
    /// Robot `r`'s name, for errors.
    names: Vec<String>,
    specs: Vec<SensorSpec>,
    plan: Plan,
    commands: Vec<f64>,
}

impl<'a, C: RobotController> RobotControl<'a, C> {
    /// Prepares `controllers` (one per body of `model`) for a world built from `model`.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless there is one controller per body;
    /// [`Error::InvalidBuilder`] (builder `"population controller"`) for a sensor index outside
    /// its robot.
    pub fn new(model: &Model, controllers: &'a mut [C]) -> Result<Self> {
        if controllers.len() != model.bodies.len() {
            return Err(Error::LengthMismatch {
                what: "controllers (one per robot)",
                expected: model.bodies.len(),
                got: controllers.len(),
            });
        }
        let specs: Vec<SensorSpec> = controllers.iter().map(RobotController::sensors).collect();
        let plan = plan(model, &specs)?;
        let commands = vec![0.0; plan.slices.last().map_or(0, |s| s.commands.end)];
        Ok(Self {
            controllers,
            names: model.bodies.iter().map(|b| b.name.clone()).collect(),
            specs,
            plan,
            commands,
        })
    }

    /// Back to time 0: commands to zero, every controller's [`RobotController::reset`].
    pub fn reset(&mut self) {
        self.commands.fill(0.0);
        self.controllers.iter_mut().for_each(RobotController::reset);
    }

    /// One control period's start: reads every robot's sensors in one
    /// [`Simulation::sense`](crate::Simulation::sense), calls each controller whose robot is
    /// not `frozen` (by robot index; an empty slice freezes none) and sends all commands in one
    /// [`Simulation::set_commands`](crate::Simulation::set_commands); a frozen robot's commands
    /// are 0.
    ///
    /// # Errors
    /// The world's errors from sensing and commanding.
    pub fn tick<S: crate::Simulation + ?Sized>(
        &mut self,
        world: &mut S,
        frozen: &[bool],
    ) -> Result<()> {
        let all = world.sense(&self.plan.spec)?;
        for (r, (slice, c)) in self
            .plan
            .slices
            .iter()
            .zip(self.controllers.iter_mut())
            .enumerate()
        {
            if frozen.get(r).copied().unwrap_or(false) {
                self.commands[slice.commands.clone()].fill(0.0);
                continue;
            }
            let own = all.slice(&slice.sensors, self.specs[r].orientation);
            c.control(&own, &mut self.commands[slice.commands.clone()]);
        }
        world.set_commands(&self.commands)
    }
}

impl<C: RobotController> Control for RobotControl<'_, C> {
    /// Resets every controller at period 0 (also when the run restarts after a failure), then
    /// [`RobotControl::tick`].
    fn tick(&mut self, world: &mut dyn crate::Simulation, tick: &Tick<'_>) -> Result<()> {
        if tick.period == 0 {
            self.reset();
        }
        RobotControl::tick(self, world, tick.frozen)
    }

    fn save(&self) -> Result<ControlState> {
        let robots = self
            .controllers
            .iter()
            .enumerate()
            .map(|(r, c)| {
                c.save_state().ok_or_else(|| Error::InvalidBuilder {
                    builder: "evaluation checkpoint",
                    reason: format!(
                        "robot {r} ({:?}): its controller cannot save its state \
                         (RobotController::save_state returns None), so this evaluation cannot \
                         be checkpointed",
                        self.names[r]
                    ),
                })
            })
            .collect::<Result<_>>()?;
        Ok(ControlState {
            commands: self.commands.clone(),
            robots,
        })
    }

    fn restore(&mut self, state: &ControlState) -> Result<()> {
        let error = |reason: String| Error::InvalidBuilder {
            builder: "evaluation checkpoint",
            reason,
        };
        if state.commands.len() != self.commands.len() || state.robots.len() != self.names.len() {
            return Err(error(format!(
                "its controllers have {} commands and {} states; this run's have {} and {}",
                state.commands.len(),
                state.robots.len(),
                self.commands.len(),
                self.names.len()
            )));
        }
        self.commands.copy_from_slice(&state.commands);
        for (r, (c, saved)) in self.controllers.iter_mut().zip(&state.robots).enumerate() {
            c.restore_state(saved).map_err(|e| {
                error(format!(
                    "robot {r} ({:?}): its controller: {e}",
                    self.names[r]
                ))
            })?;
        }
        Ok(())
    }
}
