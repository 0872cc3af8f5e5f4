//! The drag spring: a spring pulling one mass toward a target point (the viewer's mouse drag).

use glam::DVec3;

use super::spring_law::stretch_energy;
use crate::error::{Error, Result};
use crate::validate::non_negative;

/// A spring pulling one mass toward a target point, e.g. a mouse drag (SDL).
/// Its force on the mass is `stiffness (target - p) - damping v`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DragSpring {
    /// The mass being dragged.
    pub mass: usize,
    /// Where it is pulled to, in m.
    pub target: DVec3,
    /// Stiffness in N/m (finite, >= 0).
    pub stiffness: f64,
    /// Damping in N*s/m (finite, >= 0).
    pub damping: f64,
}

impl DragSpring {
    /// Checks the drag spring against a model with `masses` masses.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass, [`Error::InvalidParameter`] for a non-finite
    /// target or a negative or non-finite stiffness or damping.
    pub fn validate(&self, masses: usize) -> Result<()> {
        if self.mass >= masses {
            return Err(Error::IndexOutOfRange {
                what: "mass",
                index: self.mass,
                len: masses,
            });
        }
        if !self.target.is_finite() {
            return Err(Error::InvalidParameter {
                name: "drag.target",
                value: f64::NAN,
                expected: "must be finite (m)",
            });
        }
        non_negative("drag.stiffness", self.stiffness, "must be finite and >= 0")?;
        non_negative("drag.damping", self.damping, "must be finite and >= 0")
    }

    /// The force (N) on a mass at `p` (m) moving at `v` (m/s).
    #[must_use]
    pub fn force(&self, p: DVec3, v: DVec3) -> DVec3 {
        self.stiffness * (self.target - p) - self.damping * v
    }

    /// The elastic energy (J) it stores with its mass at `p` (m): `k d^2 / 2`, `d` the distance
    /// to the target.
    pub(crate) fn energy(&self, p: DVec3) -> f64 {
        stretch_energy(self.stiffness, self.target.distance(p))
    }
}
