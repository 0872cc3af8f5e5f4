//! The commands of the commanded actuators ([`Actuator::commanded`](crate::Actuator::commanded)):
//! one value per commanded actuator, in actuator order, applied by `actuate` at the start of
//! each step like the sine actuators' time.

use super::CpuWorld;
use crate::error::Result;
use crate::model::check_commands;

impl CpuWorld {
    /// Number of commanded actuators (those with [`Actuator::commanded`](crate::Actuator)
    /// set): the length [`CpuWorld::set_commands`] expects.
    #[must_use]
    pub fn commanded_count(&self) -> usize {
        self.command_slot.iter().flatten().count()
    }

    /// Sets the command of every commanded actuator, in actuator order: a relative rest-length
    /// change (dimensionless; 0.1 lengthens the spring's rest length by 10 %), clamped to the
    /// actuator's `[-|amplitude|, |amplitude|]`. Takes effect from the next step, whose start
    /// books the change of shadow elastic energy as injected work (as for sine actuators).
    /// Commands are 0 until set and after [`CpuWorld::reset`].
    ///
    /// # Errors
    /// [`Error::LengthMismatch`](crate::Error::LengthMismatch) unless there is exactly one
    /// command per commanded actuator ([`CpuWorld::commanded_count`]);
    /// [`Error::InvalidCommand`](crate::Error::InvalidCommand) naming the first non-finite one.
    /// Nothing is changed on an error.
    pub fn set_commands(&mut self, commands: &[f64]) -> Result<()> {
        check_commands(commands, self.commands.len())?;
        self.commands.copy_from_slice(commands);
        Ok(())
    }

    /// The rest length of actuator `i`'s spring now, m: at the current time for a sine actuator,
    /// for its command for a commanded one.
    pub(super) fn actuated_rest(&self, i: usize) -> f64 {
        let a = &self.actuators[i];
        let command = self.command_slot[i].map_or(0.0, |c| self.commands[c]);
        a.rest_length_with(self.base_rest[a.spring as usize], self.time, command)
    }
}
