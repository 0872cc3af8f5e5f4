//! What an evaluation of a [`Population`](super::Population) is: [`Evaluation`] (for how long,
//! in what world, scored how by a [`Fitness`]) and what it gives, one [`RobotResult`] per robot.

use std::fmt;
use std::sync::Arc;

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::RobotFailure;
use crate::error::{Error, Result};
use crate::model::{steps_for, Obstacle, Params};
use crate::simulation::BodyState;

/// A fitness function over a robot's body state at the start and at the end of the run.
pub type FitnessFn = dyn Fn(&BodyState, &BodyState) -> f64 + Send + Sync;

/// How a robot is scored (larger is better).
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Fitness {
    /// How far the centre of mass moved along `direction` from start to end, m. `direction` is
    /// horizontal (`z = 0`), finite and not zero; its length does not matter.
    Distance {
        /// The forward direction.
        #[schemars(with = "[f64; 3]")]
        direction: DVec3,
    },
    /// Any function of the start and end [`BodyState`]s (not serialisable).
    #[serde(skip)]
    Custom(Arc<FitnessFn>),
}

impl fmt::Debug for Fitness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Distance { direction } => f
                .debug_struct("Distance")
                .field("direction", direction)
                .finish(),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl Default for Fitness {
    fn default() -> Self {
        Self::Distance {
            direction: DVec3::X,
        }
    }
}

impl Fitness {
    /// The fitness of a robot that went from `start` to `end`.
    #[must_use]
    pub fn score(&self, start: &BodyState, end: &BodyState) -> f64 {
        match self {
            Self::Distance { direction } => {
                (end.centre_of_mass - start.centre_of_mass).dot(direction.normalize())
            }
            Self::Custom(f) => f(start, end),
        }
    }

    fn check(&self) -> Result<()> {
        if let Self::Distance { direction } = self {
            let ok = direction.is_finite() && direction.z == 0.0 && direction.length() > 0.0;
            if !ok {
                return Err(invalid(format!(
                    "fitness direction {direction} must be horizontal (z = 0), finite and not zero"
                )));
            }
        }
        Ok(())
    }
}

/// How a [`Population`](super::Population) is evaluated: for how long, in what world, scored how. JSON fields may
/// be left out (defaults below); the closure fitness cannot be written to JSON.
///
/// # What a robot's result depends on
/// Only on the robot, this evaluation and the backend (and, on the GPU, the adapter): not on
/// the other robots in the batch, so a population can be split across machines. Robots share
/// no spring and never touch (see [`Population`](super::Population)); what a world would otherwise choose from the
/// whole model is pinned here: each robot's blow-up bound is its own (computed from a model of
/// the robot alone and checked between control periods; the world's bound is a fixed backstop),
/// and on the GPU the fixed-point encoding comes from [`Evaluation::fixed_point_force`] and
/// [`Evaluation::max_incidence`]. On the CPU the spring list is cut into chunks between robots,
/// and inside a large robot at distances counted from its own first spring, so every mass of a
/// robot gets its spring force from the same chunks, summed in the same order, in any batch.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Evaluation {
    /// Simulated time, s (default 5). Finite and >= 0; run as `round(duration / dt)` steps, at
    /// most [`MAX_STEPS`](crate::MAX_STEPS).
    pub duration: f64,
    /// The world's parameters (default [`Params::robots`], the ground walking robots need: on
    /// [`Params::default`]'s frictionless ground nothing walks). In JSON, the fields `params`
    /// leaves out are [`Params::robots`]'s too.
    #[serde(deserialize_with = "super::evaluation_params::deserialize")]
    pub params: Params,
    /// Obstacles and terrain every robot meets (default none).
    pub obstacles: Vec<Obstacle>,
    /// How robots are scored (default the distance along +x).
    pub fitness: Fitness,
    /// Steps per control period (default 1000, at least 1): the world runs this many steps
    /// between two calls of the robots' controllers ([`EvaluationRun::controllers`]) and two
    /// checks of each robot's blow-up bound.
    ///
    /// [`EvaluationRun::controllers`]: super::EvaluationRun::controllers
    pub control_steps: u64,
    /// GPU: the force scale of the fixed-point encoding, N (default 10 000: a 20 000 N/m spring
    /// at 50 % strain of a 1 m length). Finite and > 0.
    pub fixed_point_force: f64,
    /// GPU: the most springs that may meet at one mass (default 26, a voxel corner inside a
    /// lattice: 6 edges, 12 face and 8 body diagonals). A robot with more is a bad-input error.
    pub max_incidence: u32,
}

impl Default for Evaluation {
    fn default() -> Self {
        Self {
            duration: 5.0,
            params: super::evaluation_params::evaluation_params(),
            obstacles: Vec::new(),
            fitness: Fitness::default(),
            control_steps: 1000,
            fixed_point_force: 10_000.0,
            max_incidence: 26,
        }
    }
}

impl Evaluation {
    /// Steps of one run, `round(duration / dt)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `duration` for a negative or non-finite duration, or
    /// one of more than [`MAX_STEPS`](crate::MAX_STEPS) steps.
    pub fn steps(&self) -> Result<u64> {
        steps_for(self.duration, self.params.dt)
    }

    /// Checks the evaluation's own fields (the model is checked when the world is built).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a bad duration (negative, non-finite, or more than
    /// [`MAX_STEPS`](crate::MAX_STEPS) steps of `dt`); [`Error::InvalidBuilder`] (builder
    /// `"evaluation"`) for a bad fitness direction, `control_steps == 0`, or a fixed-point force
    /// that is not finite and > 0.
    pub fn check(&self) -> Result<()> {
        self.params.validate()?;
        self.steps()?;
        self.fitness.check()?;
        if self.control_steps == 0 {
            return Err(invalid("control_steps must be at least 1".into()));
        }
        if !(self.fixed_point_force.is_finite() && self.fixed_point_force > 0.0) {
            return Err(invalid(format!(
                "fixed_point_force {} N must be finite and > 0",
                self.fixed_point_force
            )));
        }
        Ok(())
    }
}

/// The outcome for one robot of a [`Population`](super::Population).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RobotResult {
    /// The robot's name.
    pub name: String,
    /// Its fitness ([`Evaluation::fitness`]); `None` when it failed.
    pub fitness: Option<f64>,
    /// Why it failed, if it did.
    pub failure: Option<RobotFailure>,
    /// Its centre of mass at the start, m.
    #[schemars(with = "[f64; 3]")]
    pub start: DVec3,
    /// Its centre of mass at the end, m; `None` when it failed.
    #[schemars(with = "Option<[f64; 3]>")]
    pub end: Option<DVec3>,
}

fn invalid(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "evaluation",
        reason,
    }
}
