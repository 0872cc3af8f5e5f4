//! Centre of mass and mean velocity of groups of masses, CPU twin of `shaders/bodies.wgsl` (the
//! sums of `m p`, `m v` and `m` over a body's masses, in mass order).

use std::ops::Range;

use glam::DVec3;

use super::CpuWorld;
use crate::error::{Error, Result};
use crate::simulation::BodyState;

/// The mass-weighted mean of `x` over the masses in `range` (`mass` in kg).
fn weighted_mean(mass: &[f64], range: Range<usize>, x: &[DVec3]) -> Result<DVec3> {
    if range.end > x.len() || range.is_empty() {
        return Err(Error::IndexOutOfRange {
            what: "mass",
            index: range.end,
            len: x.len(),
        });
    }
    let mut sum = DVec3::ZERO;
    let mut total = 0.0;
    for i in range {
        sum += mass[i] * x[i];
        total += mass[i];
    }
    Ok(sum / total)
}

impl CpuWorld {
    /// Centre of mass (m) of the masses in `range`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] if the range passes the end or is empty.
    pub fn centre_of_mass(&self, range: Range<usize>) -> Result<DVec3> {
        weighted_mean(&self.mass, range, &self.pos)
    }

    /// Mass-weighted mean velocity (m/s) of the masses in `range`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] if the range passes the end or is empty.
    pub fn mean_velocity(&self, range: Range<usize>) -> Result<DVec3> {
        weighted_mean(&self.mass, range, &self.vel)
    }

    /// Centre of mass (m) of body `body` of the model.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing or empty body.
    pub fn body_centre_of_mass(&self, body: usize) -> Result<DVec3> {
        self.check_index("body", body, self.model.bodies.len())?;
        self.centre_of_mass(self.model.bodies[body].masses.clone())
    }

    /// Mean velocity (m/s) of body `body` of the model.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing or empty body.
    pub fn body_mean_velocity(&self, body: usize) -> Result<DVec3> {
        self.check_index("body", body, self.model.bodies.len())?;
        self.mean_velocity(self.model.bodies[body].masses.clone())
    }

    /// Centre of mass and mean velocity of every body of the model, in model order (a body
    /// without masses reports mass 0 and zero vectors, as on the GPU).
    ///
    /// # Errors
    /// None on the CPU; the `Result` is the [`crate::Simulation`] signature.
    pub fn bodies(&self) -> Result<Vec<BodyState>> {
        Ok(self
            .model
            .bodies
            .iter()
            .map(|b| {
                let range = b.masses.clone();
                let mass: f64 = self.mass[range.clone()].iter().sum();
                match (
                    self.centre_of_mass(range.clone()),
                    self.mean_velocity(range),
                ) {
                    (Ok(centre_of_mass), Ok(mean_velocity)) => BodyState {
                        mass,
                        centre_of_mass,
                        mean_velocity,
                    },
                    _ => BodyState::default(),
                }
            })
            .collect())
    }
}
