//! Point masses.

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::collision_filter::{COLLISION_CLASSES, COLLISION_GROUP_DEFAULT, COLLISION_MASK_ALL};
use super::contact::FrictionOscillator;
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Mass {
    /// Mass in kg. Must be finite and > 0.
    pub mass: f64,
    /// Initial position in m.
    #[schemars(with = "[f64; 3]")]
    pub position: DVec3,
    /// Initial velocity in m/s. Ignored (treated as zero) for a fixed mass.
    #[schemars(with = "[f64; 3]")]
    pub velocity: DVec3,
    /// A fixed mass never moves: its position is never updated and its velocity is zero.
    pub fixed: bool,
    /// Constant external force on this mass, in N (Lipson "nudging"; change it between steps
    /// with `set_external_force`).
    #[schemars(with = "[f64; 3]")]
    pub external_force: DVec3,
    /// Optional friction oscillator (Facey inchworm) that overrides the ground friction
    /// coefficients of this mass.
    pub friction_oscillator: Option<FrictionOscillator>,
    /// Collision radius in m (default 0: the mass does not collide with other masses). Two
    /// colliding masses closer than the sum of their radii repel (see
    /// [`Collision`](super::Collision)). Finite and >= 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub collision_radius: f64,
    /// Collision groups this mass belongs to, a bit set (default [`COLLISION_GROUP_DEFAULT`]).
    /// Masses `a` and `b` collide only when `group_a & mask_b != 0` and `group_b & mask_a != 0`.
    #[serde(skip_serializing_if = "is_default_group")]
    pub collision_group: u32,
    /// Collision groups this mass collides with, a bit set (default [`COLLISION_MASK_ALL`]:
    /// every group). See `collision_group`.
    #[serde(skip_serializing_if = "is_all")]
    pub collision_mask: u32,
    /// Collision class, below [`COLLISION_CLASSES`](super::COLLISION_CLASSES) (default 0): picks
    /// the pair force from [`Model::class_collisions`](super::Model::class_collisions) (see
    /// [`Model::collision_between`](super::Model::collision_between)).
    #[serde(skip_serializing_if = "is_zero_class")]
    pub collision_class: u32,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero_class(v: &u32) -> bool {
    *v == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_default_group(v: &u32) -> bool {
    *v == COLLISION_GROUP_DEFAULT
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_all(v: &u32) -> bool {
    *v == COLLISION_MASK_ALL
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
            collision_radius: 0.0,
            collision_group: COLLISION_GROUP_DEFAULT,
            collision_mask: COLLISION_MASK_ALL,
            collision_class: 0,
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

    /// The same mass with collision radius `radius` (m); 0 turns its collisions off.
    #[must_use]
    pub fn with_collision_radius(self, radius: f64) -> Self {
        Self {
            collision_radius: radius,
            ..self
        }
    }

    /// The same mass in collision class `class` (below
    /// [`COLLISION_CLASSES`](super::COLLISION_CLASSES)).
    #[must_use]
    pub fn with_collision_class(self, class: u32) -> Self {
        Self {
            collision_class: class,
            ..self
        }
    }

    /// Whether masses `self` and `other` may collide by their groups and masks:
    /// `group_a & mask_b != 0 && group_b & mask_a != 0` (radii aside).
    #[must_use]
    pub fn collides_with(&self, other: &Mass) -> bool {
        self.collision_group & other.collision_mask != 0
            && other.collision_group & self.collision_mask != 0
    }
}

impl Mass {
    /// Checks mass `index` of a model: a finite mass > 0, a finite initial state, a finite
    /// collision radius >= 0 and a valid friction oscillator.
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
        if !(self.collision_radius.is_finite() && self.collision_radius >= 0.0) {
            return Err(Error::InvalidCollisionRadius {
                mass: index,
                value: self.collision_radius,
            });
        }
        if self.collision_class >= COLLISION_CLASSES {
            return Err(Error::InvalidCollisionClass {
                mass: index,
                class: self.collision_class,
            });
        }
        if let Some(o) = &self.friction_oscillator {
            o.check(index)?;
        }
        Ok(())
    }
}
