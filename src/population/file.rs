//! The population file format (`hooke eval`'s POPULATION.json), in scene format 1: a
//! `"version"`, the evaluation every robot of the batch gets ([`EvaluationSpec`], also the
//! `"evaluation"` of evolution settings files) and the robots ([`RobotEntry`]).
//!
//! ```json
//! {
//!   "version": 1,
//!   "evaluation": {
//!     "duration": 2.0,
//!     "params": { "dt": 0.0005, "friction": { "static_coefficient": 1.0, "kinetic_coefficient": 0.8 } },
//!     "terrain": { "slope": { "degrees": 5, "start": [0.5, 0.0, 0.0] } }
//!   },
//!   "robots": [
//!     { "id": "a", "genome": { "size": [2, 1, 2], "cells": ["soft", "stiff", "empty", { "muscle": { "phase": 1 } }] } },
//!     { "id": "b", "scene": "robots/b.json" },
//!     { "id": "c", "scene": { "bodies": [ { "body": { "type": "cube" } } ] } }
//!   ]
//! }
//! ```
//!
//! `params`, `obstacles` and `terrain` are spelled exactly as in scene files. A field `params`
//! leaves out (all of them when there is no `params`) is that of [`Params::robots`], not of
//! [`Params::default`]: a scene's default ground is frictionless, and no robot walks on it.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use super::{Evaluation, Fitness, GenomeSettings, VoxelGenome};
use crate::error::{Error, Result};
use crate::model::{Obstacle, Params};
use crate::scene::{Scene, SceneFile, Terrain};

/// `"evaluation"`: how every robot of a batch is run and scored, as a file gives it. The fields
/// of [`Evaluation`] a file sets (with `duration` required), a terrain and the genome settings.
/// [`EvaluationSpec::evaluation`] makes the library's [`Evaluation`] of it.
///
/// # Examples
///
/// ```
/// use hooke::population::EvaluationSpec;
///
/// let spec: EvaluationSpec = serde_json::from_str(
///     r#"{ "duration": 2.0, "terrain": { "stairs": { "steps": 3 } } }"#,
/// ).unwrap();
/// let evaluation = spec.evaluation()?;
/// assert_eq!((evaluation.duration, evaluation.obstacles.len()), (2.0, 3)); // s, one box a step
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluationSpec {
    /// Simulated time per robot, s (finite, > 0; required).
    pub duration: f64,
    /// Global parameters of the World, as in scene files. Default [`Params::robots`], the
    /// ground walking robots need (on [`Params::default`]'s frictionless ground no robot moves);
    /// a field `params` leaves out is [`Params::robots`]'s too.
    #[serde(
        default = "super::evaluation_params::evaluation_params",
        deserialize_with = "super::evaluation_params::deserialize"
    )]
    pub params: Params,
    /// How a robot is scored (default: distance along +x), e.g.
    /// `{ "distance": { "direction": [1, 0, 0] } }`.
    #[serde(default)]
    pub fitness: Fitness,
    /// Obstacles besides the ground, shared by every robot, as in scene files (default none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<Obstacle>,
    /// Terrain by name, as in scene files: added after `obstacles` with the ground's contact and
    /// friction (default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<Terrain>,
    /// Settings of the genomes (materials, muscles; default [`GenomeSettings::default`]).
    #[serde(default)]
    pub genome: GenomeSettings,
    /// GPU: the force scale of the fixed-point encoding, N (default
    /// [`Evaluation::fixed_point_force`]'s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_point_force: Option<f64>,
    /// GPU: the most springs that may meet at one mass (default [`Evaluation::max_incidence`]'s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_incidence: Option<u32>,
}

impl EvaluationSpec {
    /// The obstacles, then the terrain's solids as obstacles with the ground's contact and
    /// friction.
    ///
    /// # Errors
    /// [`Terrain::shapes`]' errors.
    pub fn all_obstacles(&self) -> Result<Vec<Obstacle>> {
        let mut obstacles = self.obstacles.clone();
        if let Some(terrain) = &self.terrain {
            obstacles.extend(terrain.obstacles(self.params.contact, self.params.friction)?);
        }
        Ok(obstacles)
    }

    /// The library's [`Evaluation`]: these settings, with the terrain among the obstacles and
    /// the defaults of [`Evaluation::default`] for what the file does not set. Not checked: see
    /// [`Evaluation::check`].
    ///
    /// # Errors
    /// [`Terrain::shapes`]' errors.
    pub fn evaluation(&self) -> Result<Evaluation> {
        let defaults = Evaluation::default();
        Ok(Evaluation {
            duration: self.duration,
            params: self.params,
            obstacles: self.all_obstacles()?,
            fitness: self.fitness.clone(),
            fixed_point_force: self.fixed_point_force.unwrap_or(defaults.fixed_point_force),
            max_incidence: self.max_incidence.unwrap_or(defaults.max_incidence),
            ..defaults
        })
    }
}

/// One robot of a population file: an id and exactly one of a voxel genome (built with the
/// evaluation's genome settings) and a scene (all its bodies and joints make the robot; its
/// params, obstacles, terrain and class collisions are not used).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RobotEntry {
    /// The robot's id, unique in the file and not empty.
    pub id: String,
    /// A voxel genome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genome: Option<VoxelGenome>,
    /// A scene: a file path (relative to the population file's folder) or a scene inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scene: Option<SceneSource>,
}

/// Where a robot's scene is: in JSON a string (a path) or an object (the scene itself, whose
/// `"version"` may be left out).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SceneSource {
    /// A scene file, relative to the population file's folder.
    File(PathBuf),
    /// A scene given inline.
    Inline(#[schemars(with = "SceneFile")] Box<Scene>),
}

impl<'de> Deserialize<'de> for SceneSource {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::Error as _;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(path) => Ok(Self::File(path.into())),
            scene @ serde_json::Value::Object(_) => serde_json::from_value(scene)
                .map(Self::Inline)
                .map_err(D::Error::custom),
            _ => Err(D::Error::custom(
                "`scene` must be a file path (string) or a scene (object)",
            )),
        }
    }
}

impl SceneSource {
    /// The scene: loaded from its file (resolved against `base_dir`) or the inline one, whose
    /// relative image paths resolve against `base_dir`.
    ///
    /// # Errors
    /// [`Scene::load`]'s errors.
    pub fn scene(&self, base_dir: &Path) -> Result<Scene> {
        match self {
            Self::File(path) => Scene::load(base_dir.join(path)),
            Self::Inline(scene) => {
                let mut scene = (**scene).clone();
                scene.base_dir = Some(base_dir.to_path_buf());
                Ok(scene)
            }
        }
    }
}

/// A whole population file: `"version": 1`, the evaluation and the robots.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "hooke population",
    description = "hooke eval's POPULATION.json, format 1."
)]
pub struct PopulationFile {
    /// The format version: [`FORMAT_VERSION`](crate::scene::FORMAT_VERSION).
    #[schemars(extend("const" = 1))]
    pub version: u32,
    /// How every robot is run and scored.
    pub evaluation: EvaluationSpec,
    /// The robots, at least one.
    pub robots: Vec<RobotEntry>,
}

impl PopulationFile {
    /// Parses the text of a population file, checking its version first.
    ///
    /// # Errors
    /// [`Error::SceneVersion`] for a missing or other version, [`Error::SceneParse`] (with
    /// line and column) for text that is not a population file.
    pub fn from_json_str(json: &str, path: &Path) -> Result<Self> {
        crate::scene::check_version(json, path)?;
        serde_json::from_str(json).map_err(|source| Error::SceneParse {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The JSON Schema of population files (draft 2020-12).
    #[must_use]
    pub fn json_schema() -> serde_json::Value {
        crate::scene::schema_value(schemars::schema_for!(PopulationFile))
    }
}
