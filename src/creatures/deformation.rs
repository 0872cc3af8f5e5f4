//! [`Deformation`]: a small periodic deformation of a group of springs, as one Lipson actuator
//! per spring.

use std::f64::consts::TAU;

use glam::{DMat3, DVec3};

use crate::model::{Actuator, DutyCycle, Part};

/// A small periodic deformation that actuators impose on a group of springs.
///
/// The displacement gradient of the group at time `t` is
/// `G(t) = sin_part sin(omega tau + 2 pi phase) + cos_part cos(omega tau + 2 pi phase)`
/// (dimensionless), where `tau` is `t` or the duty-cycle clock. A spring with rest vector `r`
/// then wants length `|(I + G) r|`, which to first order in `G` is
/// `|r| (1 + e_s sin(..) + e_c cos(..))` with the axial strains `e_s = r^T sin_part r / |r|^2`
/// and `e_c` likewise. That is one sine, so each spring gets one Lipson [`Actuator`] with
/// amplitude `hypot(e_s, e_c)` and phase shifted by `atan2(e_c, e_s) / 2 pi`. Springs across
/// which the deformation does not stretch (zero amplitude) get no actuator.
///
/// Example: `sin_part = diag(0, 0, 0.1)` lengthens a voxel vertically by up to 10 %, and a
/// `cos_part` with only the `(x, z)` entry `s` shears it so that a point at height `z` moves by
/// `s z` along x, a quarter period later: the elliptic foot path of a walking leg.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deformation {
    /// Displacement gradient multiplying the sine (dimensionless; element `(i, j)` is
    /// `d u_i / d x_j`).
    pub sin_part: DMat3,
    /// Displacement gradient multiplying the cosine (dimensionless).
    pub cos_part: DMat3,
    /// Angular frequency in rad/s.
    pub omega: f64,
    /// Phase in cycles.
    pub phase: f64,
    /// Optional active/rest duty cycle.
    pub duty: Option<DutyCycle>,
}

impl Deformation {
    /// The actuator that makes spring `spring`, whose rest vector is `r` (m), follow this
    /// deformation, or `None` if the deformation does not change its length to first order
    /// (relative amplitude below 1e-12) or `r` is zero.
    #[must_use]
    pub fn actuator(&self, spring: u32, r: DVec3) -> Option<Actuator> {
        let n = r.try_normalize()?;
        let es = n.dot(self.sin_part * n);
        let ec = n.dot(self.cos_part * n);
        let amplitude = es.hypot(ec);
        if amplitude < 1e-12 {
            return None;
        }
        Some(Actuator {
            spring,
            amplitude,
            omega: self.omega,
            phase: self.phase + ec.atan2(es) / TAU,
            duty: self.duty,
            commanded: false,
        })
    }

    /// Adds to `part` an actuator for each of `springs` (indices into `part.springs`) that this
    /// deformation stretches, with rest vectors taken from the masses' current positions.
    /// Each such spring's base rest length is set so that its rest length at t = 0 equals its
    /// current length: the body starts relaxed instead of snapping into the deformation's t = 0
    /// pose. Returns how many actuators were added.
    ///
    /// # Panics
    /// If a spring index or one of its mass indices is out of range for `part`.
    pub fn actuate(&self, part: &mut Part, springs: impl IntoIterator<Item = u32>) -> usize {
        let mut added = 0;
        for s in springs {
            let sp = part.springs[s as usize];
            let r = part.masses[sp.b as usize].position - part.masses[sp.a as usize].position;
            if let Some(a) = self.actuator(s, r) {
                // Start relaxed: choose the base length so that the muscle's rest length at t = 0
                // is the built length, instead of snapping the body into its t = 0 pose.
                part.springs[s as usize].rest_length = r.length() / a.rest_length(1.0, 0.0);
                part.actuators.push(a);
                added += 1;
            }
        }
        added
    }
}
