//! [`ControlLoop`]: the loop itself, generic over both backends.

use crate::error::{Error, Result};
use crate::model::steps_for;
use crate::sensors::{Readings, SensorSpec};
use crate::simulation::Simulation;

/// What a closed-loop controller does at each control tick: read `readings` (what the loop's
/// [`SensorSpec`] asked for, at the tick's time) and write `commands`, one value per commanded
/// actuator of the world in actuator order (relative rest-length changes, clamped by each
/// actuator to its amplitude). `commands` holds the previous tick's values on entry (zeros at the
/// first tick), so a controller that changes only some actuators leaves the rest as they were.
///
/// Closures `FnMut(&Readings, &mut [f64])` are controllers.
pub trait Controller {
    /// Fills `commands` from `readings`.
    ///
    /// # Errors
    /// Whatever the controller wants to report; the loop stops and returns it.
    fn control(&mut self, readings: &Readings, commands: &mut [f64]) -> Result<()>;
}

impl<F: FnMut(&Readings, &mut [f64])> Controller for F {
    fn control(&mut self, readings: &Readings, commands: &mut [f64]) -> Result<()> {
        self(readings, commands);
        Ok(())
    }
}

/// A control loop: which sensors to read and how many steps between two controller calls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ControlLoop {
    /// Steps per control period (k >= 1): the controller runs every `period * dt` seconds.
    pub period: u64,
    /// The sensors read at each tick and handed to the controller.
    pub sensors: SensorSpec,
}

/// What [`ControlLoop::run`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ControlRun {
    /// Controller calls made.
    pub ticks: u64,
    /// Steps taken.
    pub steps: u64,
}

impl ControlLoop {
    /// A loop calling the controller every `period` steps with the readings of `sensors`.
    #[must_use]
    pub fn new(period: u64, sensors: SensorSpec) -> Self {
        Self { period, sensors }
    }

    /// Runs `world` for `duration` s (`round(duration / dt)` steps, as
    /// [`Simulation::step_for`]), calling `controller` at the start of every period.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a period of 0 or a bad duration; the sensors' index errors;
    /// the controller's own errors; a command the world rejects (non-finite) and the step errors
    /// ([`Error::BlowUp`], [`Error::NonFinite`], ...), each stopping the run where it happened.
    pub fn run<S: Simulation + ?Sized, C: Controller + ?Sized>(
        &self,
        world: &mut S,
        duration: f64,
        controller: &mut C,
    ) -> Result<ControlRun> {
        if self.period == 0 {
            return Err(Error::InvalidParameter {
                name: "control.period",
                value: 0.0,
                expected: "at least 1 step",
            });
        }
        let total = steps_for(duration, world.dt())?;
        let mut commands = vec![0.0; world.commanded_count()];
        let mut run = ControlRun::default();
        while run.steps < total {
            let readings = world.sense(&self.sensors)?;
            controller.control(&readings, &mut commands)?;
            world.set_commands(&commands)?;
            let steps = self.period.min(total - run.steps);
            world.step(steps)?;
            run.ticks += 1;
            run.steps += steps;
        }
        Ok(run)
    }
}
