//! Closed-loop control of a population: each robot its own [`RobotController`], seeing only its
//! own sensors and filling only its own commands, all robots read in one batched
//! [`Simulation::sense`](crate::Simulation::sense) and commanded by one
//! [`Simulation::set_commands`](crate::Simulation::set_commands) per control period.

use std::ops::Range;

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
