//! [`Population`]: named robots built into one [`Model`], one body each, isolated from each
//! other.

use std::collections::HashMap;

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{GenomeSettings, VoxelGenome};
use crate::error::{Error, Result};
use crate::model::{Model, Obstacle, Params, Part};

/// The collision group every robot mass of a population is put in (bit 31); robot masses mask
/// it out, so no robot mass collides with any other robot mass.
pub const ROBOT_COLLISION_GROUP: u32 = 1 << 31;

/// One robot of a [`Population`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Robot {
    /// Its name, unique in the population (becomes the body's name and the result's).
    pub name: String,
    /// Its masses, springs and actuators, in its own frame (m).
    pub part: Part,
}

/// Where the robots of a [`Population`] start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Layout {
    /// Every robot where its part puts it (default): robots overlap, which is harmless since
    /// they cannot touch, and keeps each robot's numbers exactly those of a run on its own.
    #[default]
    Together,
    /// Robot `i` moved by `spacing` m times its cell of a square grid in x and y (row-major,
    /// `ceil(sqrt(n))` columns), for pictures. Moving a robot changes the rounding of its
    /// positions, so fitness values are then close to, not bit-identical with, a run on its own.
    Grid {
        /// Distance between neighbouring robots' origins, m.
        spacing: f64,
    },
}

/// Many robots evaluated in one World: each robot is one body, robots share the parameters,
/// the ground and the obstacles, and never act on one another.
///
/// Isolation: robots share no spring, and every robot mass is put in collision group
/// [`ROBOT_COLLISION_GROUP`] with that group masked out, so two robot masses never collide
/// (robots still touch the ground and every [`Obstacle`], which act on each mass on its own).
/// A collision mask cannot tell one robot from another, so this also turns a robot's
/// **self-collision off**: a robot that relies on its masses colliding with each other must be
/// evaluated on its own, with its own model.
///
/// # Examples
///
/// ```
/// use hooke::population::{GenomeSettings, Population, VoxelGenome, VoxelMaterial};
///
/// let settings = GenomeSettings::default();
/// let genomes = [
///     VoxelGenome::filled([2, 1, 1], VoxelMaterial::Soft),
///     VoxelGenome::filled([1, 1, 1], VoxelMaterial::Muscle { phase: 0 }),
/// ];
/// let population = Population::from_genomes(&genomes, &settings)?;
/// assert_eq!(population.robots[1].name, "robot 1");
/// let model = population.model(&hooke::Params::default(), &[])?;
/// assert_eq!(model.bodies.len(), 2);
/// assert_eq!(model.bodies[1].masses, 12..20);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Population {
    /// The robots, in result order.
    pub robots: Vec<Robot>,
    /// Where they start (default [`Layout::Together`]).
    #[serde(default)]
    pub layout: Layout,
}

impl Population {
    /// An empty population.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds robot `name` made of `part`; returns its index.
    pub fn push(&mut self, name: impl Into<String>, part: Part) -> usize {
        self.robots.push(Robot {
            name: name.into(),
            part,
        });
        self.robots.len() - 1
    }

    /// The robots of `genomes`, named `"robot 0"`, `"robot 1"`, ... in order.
    ///
    /// # Errors
    /// [`VoxelGenome::part`]'s errors, the reason prefixed with the robot's index.
    pub fn from_genomes(genomes: &[VoxelGenome], settings: &GenomeSettings) -> Result<Self> {
        let mut population = Self::new();
        for (i, g) in genomes.iter().enumerate() {
            let part = g.part(settings).map_err(|e| match e {
                Error::InvalidBuilder { builder, reason } => Error::InvalidBuilder {
                    builder,
                    reason: format!("robot {i}: {reason}"),
                },
                other => other,
            })?;
            population.push(format!("robot {i}"), part);
        }
        Ok(population)
    }

    /// The same population laid out by `layout`.
    #[must_use]
    pub fn with_layout(self, layout: Layout) -> Self {
        Self { layout, ..self }
    }

    /// The one model of every robot (body `i` is robot `i`), with parameters `params` and
    /// obstacles `obstacles`. Robot masses get collision group [`ROBOT_COLLISION_GROUP`] and a
    /// mask without it (see the type's docs); nothing else of the parts changes.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] (builder `"population"`) for two robots of one name, a robot
    /// without masses, or a grid spacing that is not finite and > 0. The model itself is
    /// validated when a World is built from it.
    pub fn model(&self, params: &Params, obstacles: &[Obstacle]) -> Result<Model> {
        let mut seen = HashMap::with_capacity(self.robots.len());
        for (i, r) in self.robots.iter().enumerate() {
            if let Some(first) = seen.insert(r.name.as_str(), i) {
                return Err(invalid(format!(
                    "robots {first} and {i} are both named {:?}; names must be unique",
                    r.name
                )));
            }
            if r.part.masses.is_empty() {
                return Err(invalid(format!("robot {i} ({:?}) has no masses", r.name)));
            }
        }
        let columns = (self.robots.len() as f64).sqrt().ceil().max(1.0) as usize;
        let mut model = Model::new(*params);
        model.obstacles = obstacles.to_vec();
        for (i, r) in self.robots.iter().enumerate() {
            let mut part = r.part.clone();
            if let Layout::Grid { spacing } = self.layout {
                if !(spacing.is_finite() && spacing > 0.0) {
                    return Err(invalid(format!(
                        "grid spacing {spacing} m must be finite and > 0"
                    )));
                }
                let cell = DVec3::new((i % columns) as f64, (i / columns) as f64, 0.0);
                part.translate(cell * spacing);
            }
            for m in &mut part.masses {
                m.collision_group = ROBOT_COLLISION_GROUP;
                m.collision_mask = !ROBOT_COLLISION_GROUP;
            }
            model.add(r.name.clone(), part);
        }
        Ok(model)
    }
}

fn invalid(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "population",
        reason,
    }
}
