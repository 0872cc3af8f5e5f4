//! [`CpuWorld::reset_body`]: one body back to its initial state, the others untouched.

use glam::DVec3;

use super::world::Failure;
use super::CpuWorld;
use crate::error::Result;

impl CpuWorld {
    /// Puts body `body`'s masses back to the model's initial positions and velocities (a mass
    /// fixed in the model or now at rest), leaving every other mass, the time, the commands,
    /// the setters' changes and the energy counters as they are: the change of the body's
    /// mechanical energy is not booked, so [`Energy::balance`](crate::Energy::balance) jumps by
    /// it. Contact readings keep the last step's until the next step. A body that shares no
    /// spring or collision with the others (a robot of a population) then runs on from its
    /// initial state exactly as in a world of its own (muscles driven by commands or by the
    /// world's time, which goes on).
    ///
    /// If the world stopped because one of this body's masses turned non-finite or passed the
    /// blow-up bound, the failure is cleared and the world steps again.
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] for a missing body.
    pub fn reset_body(&mut self, body: usize) -> Result<()> {
        self.check_index("body", body, self.model.bodies.len())?;
        let masses = self.model.bodies[body].masses.clone();
        for i in masses.clone() {
            let m = &self.model.masses[i];
            self.pos[i] = m.position;
            self.vel[i] = if m.fixed || self.fixed[i] {
                DVec3::ZERO
            } else {
                m.velocity
            };
        }
        let failed_mass = match self.failed {
            Some(Failure::NonFinite(mass, ..)) => Some(mass),
            Some(Failure::BlowUp(b)) => Some(b.mass),
            None => None,
        };
        if failed_mass.is_some_and(|m| masses.contains(&m)) {
            self.failed = None;
        }
        Ok(())
    }
}
