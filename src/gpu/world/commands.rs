//! The commands of the commanded actuators ([`Actuator::commanded`](crate::Actuator::commanded)):
//! one real (f32 or f64) per commanded actuator in the `commands` buffer, uploaded whole in one
//! `queue.write_buffer` per call; the spring pass reads them at the start of each step.

use super::World;
use crate::error::Result;
use crate::model::check_commands;

impl World {
    /// Number of commanded actuators (those with [`Actuator::commanded`](crate::Actuator)
    /// set): the length [`World::set_commands`] expects.
    #[must_use]
    pub fn commanded_count(&self) -> usize {
        self.run.commands.len()
    }

    /// Sets the command of every commanded actuator, in actuator order, as
    /// [`CpuWorld::set_commands`](crate::CpuWorld::set_commands): a relative rest-length change,
    /// clamped on the device to the actuator's `[-|amplitude|, |amplitude|]`, in force from the
    /// next step (which books the change of shadow elastic energy as injected work). One upload
    /// of the whole commands buffer (4 bytes per commanded actuator), no readback; the values
    /// are rounded to f32. Commands are 0 until set and after [`World::reset`].
    ///
    /// # Errors
    /// [`Error::LengthMismatch`](crate::Error::LengthMismatch) unless there is exactly one
    /// command per commanded actuator ([`World::commanded_count`]);
    /// [`Error::InvalidCommand`](crate::Error::InvalidCommand) naming the first non-finite one.
    /// Nothing is changed on an error.
    pub fn set_commands(&mut self, commands: &[f64]) -> Result<()> {
        check_commands(commands, self.run.commands.len())?;
        self.run.commands.copy_from_slice(commands);
        self.write_commands();
        Ok(())
    }

    /// Uploads the host's commands, whole, in one write (nothing without commanded actuators).
    pub(super) fn write_commands(&self) {
        if self.run.commands.is_empty() {
            return;
        }
        let values = self.plan.precision.encode(&self.run.commands);
        self.queue.write_buffer(&self.buffers.commands, 0, &values);
    }

    /// The command of actuator `i` (0 for a sine actuator), as last set.
    pub(super) fn command(&self, i: usize) -> f64 {
        self.run.command_slot[i].map_or(0.0, |c| self.run.commands[c])
    }
}
