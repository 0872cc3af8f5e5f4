//! The physics model: masses, springs, actuators, ground contact and global parameters.
//!
//! A [`Model`] is a plain description. It is simulated by the double-precision CPU reference
//! ([`crate::CpuWorld`]) or by the GPU `World`; both run exactly the force laws written
//! here. Units are SI throughout (m, kg, s, N), z is up.
//!
//! One file per topic: [`Mass`] (`mass.rs`), [`Spring`] (`spring.rs`), [`SpringLaw`]
//! and every per-spring formula both worlds use (`spring_law/`),
//! [`Actuator`] and [`DutyCycle`] (`actuator.rs`), [`Contact`], [`Friction`] and
//! [`FrictionOscillator`] (`contact.rs`), [`Params`] and [`Integrator`] (`params.rs`),
//! [`DragSpring`] (`drag.rs`), [`Part`] and [`Body`] (`part.rs`), [`Obstacle`] (`obstacle.rs`),
//! [`Shape`], [`Surface`] and [`Heightfield`] (`shape/`: one file per kind of shape), [`Collision`]
//! (`collision.rs`: collisions between masses; `collision_filter.rs`: [`COLLISION_CLASSES`], the
//! default group and mask; `collision_pairs.rs`: which pairs may touch and which touch, the rules
//! both worlds share; `mass_grid.rs`: their broad phase); the [`Model`] that holds them
//! and its validation live here. [`Model::stable_dt`] and [`StableDt`] (`stable_dt.rs`) estimate
//! the largest stable time step; `speed_limit.rs` holds the blow-up bound both worlds check.

mod actuator;
mod collision;
mod collision_filter;
mod collision_pairs;
mod contact;
mod drag;
mod mass;
mod mass_grid;
mod obstacle;
mod obstacle_grid;
mod params;
mod part;
mod shape;
mod speed_limit;
mod spring;
pub(crate) mod spring_law;
mod stable_dt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) use actuator::{check_commands, check_same_kind, command_slots};
pub use actuator::{Actuator, DutyCycle};
pub use collision::{ClassCollision, Collision};
pub use collision_filter::{COLLISION_CLASSES, COLLISION_GROUP_DEFAULT, COLLISION_MASK_ALL};
pub(crate) use collision_pairs::{collision_exclusions, CollisionPairs};
pub use contact::{Contact, Friction, FrictionOscillator, FrictionRule};
pub use drag::DragSpring;
pub use mass::Mass;
pub(crate) use mass_grid::{MassGrid, Runs};
pub use obstacle::Obstacle;
pub(crate) use obstacle_grid::ObstacleGrid;
pub use params::{steps_for, Integrator, Params, MAX_STEPS, STANDARD_GRAVITY};
pub use part::{Body, Part};
pub(crate) use shape::Mesh;
pub use shape::{Heightfield, Shape, Surface};
pub(crate) use speed_limit::{BlowUp, SpeedLimit, BLOW_UP_FLOOR_SPEED};
pub use spring::Spring;
pub use spring_law::SpringLaw;
pub(crate) use stable_dt::{effective_stiffness, warn_if_above};
pub use stable_dt::{StableDt, StableDtLimit};

use crate::error::{Error, Result};

/// A complete mass-spring system: what both the CPU reference and the GPU World simulate.
///
/// # Examples
///
/// Bodies made by builders and by hand, numbered in one model:
///
/// ```
/// use hooke::{Builder, Cube, DVec3, Error, Mass, Model, Params, Part};
///
/// let mut model = Model::new(Params::default());
/// let cube = model.add("cube", Cube::lipson().build()?); // masses 0..8, springs 0..28
/// let mut pendulum = Part::new();
/// let pivot = pendulum.add_mass(Mass::new(0.1, DVec3::new(0.5, 0.0, 1.0)).fixed());
/// let bob = pendulum.add_mass(Mass::new(0.1, DVec3::new(0.5, 0.0, 0.8)));
/// pendulum.connect(pivot, bob, 1000.0, 0.0); // local indices 0 and 1
/// let pendulum = model.add("pendulum", pendulum);
///
/// // Model::add shifts the part's indices past the bodies before it.
/// assert_eq!(model.bodies[cube].masses, 0..8);
/// assert_eq!(model.bodies[pendulum].masses, 8..10);
/// assert_eq!((model.springs[28].a, model.springs[28].b), (8, 9));
/// assert!((model.total_mass() - 1.0).abs() < 1e-12); // kg
/// model.validate()?;
///
/// // Nothing is checked until the model is validated or simulated; errors name the element.
/// model.masses[9].mass = -0.1;
/// assert!(matches!(model.validate(), Err(Error::InvalidMass { mass: 9, .. })));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// Global parameters.
    pub params: Params,
    /// All masses.
    pub masses: Vec<Mass>,
    /// All springs; `a` and `b` index `masses`.
    pub springs: Vec<Spring>,
    /// Actuators; `spring` indexes `springs`.
    pub actuators: Vec<Actuator>,
    /// Bodies, in the order they were added.
    pub bodies: Vec<Body>,
    /// Static obstacles touched in addition to the ground (default none, see [`Obstacle`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<Obstacle>,
    /// The pair force between masses of two collision classes, where it differs from
    /// [`Params::collision`] (default none; later rules win; see [`ClassCollision`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class_collisions: Vec<ClassCollision>,
}

impl Model {
    /// An empty model with parameters `params`.
    #[must_use]
    pub fn new(params: Params) -> Self {
        Self {
            params,
            ..Self::default()
        }
    }

    /// Adds `part` as a new body named `name` and returns the body's index. Spring and actuator
    /// indices of the part are offset to the model's numbering; nothing is validated until the
    /// model is simulated (or [`Model::validate`] is called).
    pub fn add(&mut self, name: impl Into<String>, part: Part) -> usize {
        let m0 = self.masses.len();
        let s0 = self.springs.len();
        self.masses.extend(part.masses);
        self.springs
            .extend(part.springs.into_iter().map(|s| Spring {
                a: s.a + m0 as u32,
                b: s.b + m0 as u32,
                ..s
            }));
        self.actuators
            .extend(part.actuators.into_iter().map(|a| Actuator {
                spring: a.spring + s0 as u32,
                ..a
            }));
        self.bodies.push(Body {
            name: name.into(),
            masses: m0..self.masses.len(),
            springs: s0..self.springs.len(),
            self_collision: part.self_collision,
        });
        self.bodies.len() - 1
    }

    /// Adds one mass outside any body and returns its index.
    pub fn add_mass(&mut self, mass: Mass) -> u32 {
        self.masses.push(mass);
        (self.masses.len() - 1) as u32
    }

    /// Adds one spring (model-wide mass indices) outside any body and returns its index.
    pub fn add_spring(&mut self, spring: Spring) -> u32 {
        self.springs.push(spring);
        (self.springs.len() - 1) as u32
    }

    /// Adds an actuator (model-wide spring index) and returns its index.
    pub fn add_actuator(&mut self, actuator: Actuator) -> u32 {
        self.actuators.push(actuator);
        (self.actuators.len() - 1) as u32
    }

    /// Adds a static obstacle and returns its index.
    pub fn add_obstacle(&mut self, obstacle: Obstacle) -> usize {
        self.obstacles.push(obstacle);
        self.obstacles.len() - 1
    }

    /// Total mass in kg.
    #[must_use]
    pub fn total_mass(&self) -> f64 {
        self.masses.iter().map(|m| m.mass).sum()
    }

    /// Checks the whole model.
    ///
    /// # Errors
    /// The first problem found, naming the element: [`Params::validate`]'s errors; a mass that is
    /// non-finite or <= 0 ([`Error::InvalidMass`]); a non-finite position, velocity or external
    /// force ([`Error::NonFiniteInitialState`]); a negative or non-finite collision radius
    /// ([`Error::InvalidCollisionRadius`]); a spring naming a missing mass
    /// ([`Error::SpringMassOutOfRange`]) or joining a mass to itself ([`Error::SelfSpring`]); a
    /// negative or non-finite stiffness, damping or rest length
    /// ([`Error::InvalidSpringParameter`]); a material-law spring with rest length 0
    /// ([`Error::ZeroRestLength`]); an actuator naming a missing spring or with non-finite values or
    /// `|amplitude| >= 1` ([`Error::InvalidActuator`]); a friction oscillator with negative or
    /// non-finite values ([`Error::InvalidFrictionOscillator`]); an obstacle with a non-finite or
    /// degenerate shape or bad contact or friction values ([`Error::InvalidObstacle`]); a body
    /// whose ranges pass the end.
    pub fn validate(&self) -> Result<()> {
        self.params.validate()?;
        for (i, m) in self.masses.iter().enumerate() {
            m.check(i)?;
        }
        let n = self.masses.len();
        for (i, s) in self.springs.iter().enumerate() {
            s.check(i, n)?;
        }
        for (i, a) in self.actuators.iter().enumerate() {
            a.check(i, self.springs.len())?;
        }
        for (i, o) in self.obstacles.iter().enumerate() {
            o.check(i)?;
        }
        self.check_class_collisions()?;
        for b in &self.bodies {
            if b.masses.end > n || b.springs.end > self.springs.len() {
                return Err(Error::InvalidParameter {
                    name: "body range",
                    value: b.masses.end as f64,
                    expected: "body ranges must lie within the model's masses and springs",
                });
            }
        }
        Ok(())
    }
}
