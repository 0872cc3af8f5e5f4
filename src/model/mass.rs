//! Point masses.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::FrictionOscillator;
use crate::error::{Error, Result};

/// A point mass.
///
/// # Examples
///
/// A thrown mass and a fixed one:
///
/// ```
/// use hooke::{CpuWorld, DVec3, Mass, Model, Params, Part};
///
/// let mut part = Part::new();
/// // 0.1 kg, 1 m up, moving along +x at 2 m/s.
/// let ball = part.add_mass(
///     Mass::new(0.1, DVec3::new(0.0, 0.0, 1.0)).with_velocity(DVec3::new(2.0, 0.0, 0.0)),
/// );
/// let post = part.add_mass(Mass::new(1.0, DVec3::new(1.0, 0.0, 0.5)).fixed());
/// let mut model = Model::new(Params::default());
/// model.add("ball and post", part);
///
/// let mut world = CpuWorld::new(&model)?;
/// world.step_for(0.25)?; // the ball reaches the ground at t = 0.45 s
/// let p = world.positions()?;
/// // Nothing acts along x: x = v t (f64 rounding over 2500 steps stays below 1e-12 m).
/// assert!((p[ball as usize].x - 0.5).abs() < 1e-9);
/// assert_eq!(p[post as usize], DVec3::new(1.0, 0.0, 0.5)); // a fixed mass never moves
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Mass {
    /// Mass in kg. Must be finite and > 0.
    pub mass: f64,
    /// Initial position in m.
    pub position: DVec3,
    /// Initial velocity in m/s. Ignored (treated as zero) for a fixed mass.
    pub velocity: DVec3,
    /// A fixed mass never moves: its position is never updated and its velocity is zero.
    pub fixed: bool,
    /// Constant external force on this mass, in N (Lipson "nudging"; change it between steps
    /// with `set_external_force`).
    pub external_force: DVec3,
    /// Optional friction oscillator (Facey inchworm) that overrides the ground friction
    /// coefficients of this mass.
    pub friction_oscillator: Option<FrictionOscillator>,
}

impl Default for Mass {
    fn default() -> Self {
        Self {
            mass: 0.1,
            position: DVec3::ZERO,
            velocity: DVec3::ZERO,
            fixed: false,
            external_force: DVec3::ZERO,
            friction_oscillator: None,
        }
    }
}

impl Mass {
    /// A free mass of `mass` kg at rest at `position` (m).
    #[must_use]
    pub fn new(mass: f64, position: DVec3) -> Self {
        Self {
            mass,
            position,
            ..Self::default()
        }
    }

    /// The same mass, fixed in place.
    #[must_use]
    pub fn fixed(self) -> Self {
        Self {
            fixed: true,
            ..self
        }
    }

    /// The same mass with initial velocity `velocity` (m/s).
    #[must_use]
    pub fn with_velocity(self, velocity: DVec3) -> Self {
        Self { velocity, ..self }
    }
}

impl Mass {
    /// Checks mass `index` of a model: a finite mass > 0, a finite initial state and a valid
    /// friction oscillator.
    pub(super) fn check(&self, index: usize) -> Result<()> {
        if !(self.mass.is_finite() && self.mass > 0.0) {
            return Err(Error::InvalidMass {
                mass: index,
                value: self.mass,
            });
        }
        for (quantity, v) in [
            ("position", self.position),
            ("velocity", self.velocity),
            ("external force", self.external_force),
        ] {
            if !v.is_finite() {
                return Err(Error::NonFiniteInitialState {
                    mass: index,
                    quantity,
                    value: v.to_array(),
                });
            }
        }
        if let Some(o) = &self.friction_oscillator {
            o.check(index)?;
        }
        Ok(())
    }
}
