//! Terrain by name: a [`Terrain`] (slope, stairs or rough ground) in a scene or population file
//! expands into obstacles that share the ground's contact and friction.

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::builders::{RoughGround, Slope, Staircase};
use crate::error::Result;
use crate::model::{Contact, Friction, Obstacle, Shape};

/// Ground shapes named by what they are, added to the model as [`Obstacle`]s with the ground's
/// contact and friction ([`Params::contact`](crate::Params::contact),
/// [`Params::friction`](crate::Params::friction)) after the scene's own obstacles.
///
/// In JSON the kind is the one key of the object, its parameters the value; every parameter may
/// be left out and then takes the default its type documents:
/// `{ "slope": { "degrees": 10, "start": [0.45, 0, 0] } }`,
/// `{ "stairs": { "steps": 8, "rise": 0.02, "run": 0.2 } }`,
/// `{ "rough_ground": { "amplitude": 0.04, "seed": 12 } }`.
///
/// # Examples
///
/// ```
/// use hooke::scene::{SlopeTerrain, Terrain};
/// use hooke::{Contact, Friction, Shape};
///
/// let slope: Terrain = serde_json::from_str(r#"{ "slope": { "degrees": 10 } }"#).unwrap();
/// assert_eq!(slope, Terrain::Slope(SlopeTerrain { degrees: 10.0, ..SlopeTerrain::default() }));
/// let obstacles = slope.obstacles(Contact::default(), Friction::coulomb(1.0, 0.8))?;
/// assert!(matches!(obstacles[..], [hooke::Obstacle { shape: Shape::Plane { .. }, .. }]));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Terrain {
    /// An incline rising along +x ([`Slope`]): one plane obstacle.
    Slope(SlopeTerrain),
    /// A staircase going up along +x ([`Staircase`]): one box obstacle per step.
    Stairs(Staircase),
    /// Random bumps ([`RoughGround`]): one heightfield obstacle.
    RoughGround(RoughGround),
}

/// The slope of a [`Terrain::Slope`]: the [`Slope`] through `start` at `degrees`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SlopeTerrain {
    /// Inclination in degrees, within (-90, 90); positive rises along +x (default 10).
    pub degrees: f64,
    /// Where the incline leaves the floor (a point of its surface), m (default the origin).
    #[schemars(with = "[f64; 3]")]
    pub start: DVec3,
}

impl Default for SlopeTerrain {
    /// 10 degrees from the origin.
    fn default() -> Self {
        Self {
            degrees: 10.0,
            start: DVec3::ZERO,
        }
    }
}

impl SlopeTerrain {
    /// The library's [`Slope`] (angle in radians).
    #[must_use]
    pub fn slope(&self) -> Slope {
        Slope {
            angle: self.degrees.to_radians(),
            point: self.start,
        }
    }
}

impl Terrain {
    /// The solids of the terrain.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) as [`Slope::shape`],
    /// [`Staircase::shapes`] and [`RoughGround::heightfield`] report them.
    pub fn shapes(&self) -> Result<Vec<Shape>> {
        match self {
            Self::Slope(s) => Ok(vec![s.slope().shape()?]),
            Self::Stairs(s) => s.shapes(),
            Self::RoughGround(r) => Ok(vec![Shape::Heightfield(r.heightfield()?)]),
        }
    }

    /// The solids as obstacles with `contact` and `friction` (the ground's, in a scene).
    ///
    /// # Errors
    /// As [`Terrain::shapes`].
    pub fn obstacles(&self, contact: Contact, friction: Friction) -> Result<Vec<Obstacle>> {
        Ok(self
            .shapes()?
            .into_iter()
            .map(|shape| Obstacle::new(shape, contact, friction))
            .collect())
    }
}
