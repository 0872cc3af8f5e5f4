//! One body of a scene ([`BodySpec`], with its [`BodyCollision`]) and the springs that join
//! bodies ([`Joint`] between two [`MassRef`]s).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::body_kind::BodyKind;
use crate::builders::Placement;
use crate::model::{Actuator, SpringLaw, COLLISION_GROUP_DEFAULT, COLLISION_MASK_ALL};

/// One body of a scene: what builds it, where it goes, and per-body extras.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// Name of the body in the model (default: the builder's type name).
    #[serde(default)]
    pub name: Option<String>,
    /// The builder and its parameters, or a hand-made part.
    pub body: BodyKind,
    /// Placement applied after building (default: none).
    #[serde(default)]
    pub placement: Placement,
    /// Masses of this body (local indices) to fix in place, e.g. one corner of a cube to make
    /// Lipson's pendulum.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixed: Vec<u32>,
    /// Extra actuators; `spring` is a local spring index of this body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actuators: Vec<Actuator>,
    /// Collisions of this body's masses with other masses (default: none; a hand-made part may
    /// instead set them per mass). Applied to every mass of the body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision: Option<BodyCollision>,
}

/// How the masses of one scene body collide with other masses (see
/// [`Collision`](crate::Collision)); in JSON, e.g. `"collision": { "radius": 0.02 }`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BodyCollision {
    /// Collision radius of every mass, m (default 0: no collisions). Finite and >= 0.
    pub radius: f64,
    /// Collision group bits of every mass (default
    /// [`COLLISION_GROUP_DEFAULT`](crate::COLLISION_GROUP_DEFAULT)).
    pub group: u32,
    /// Collision mask bits of every mass (default [`COLLISION_MASK_ALL`](crate::COLLISION_MASK_ALL)).
    pub mask: u32,
    /// Whether the body's masses collide with one another (default true).
    pub self_collision: bool,
    /// Collision class of every mass (default 0; see [`ClassCollision`](crate::ClassCollision)).
    pub class: u32,
}

impl Default for BodyCollision {
    fn default() -> Self {
        Self {
            radius: 0.0,
            group: COLLISION_GROUP_DEFAULT,
            mask: COLLISION_MASK_ALL,
            self_collision: true,
            class: 0,
        }
    }
}

impl BodySpec {
    /// A body built by `body`, unplaced, named after its builder.
    #[must_use]
    pub fn new(body: BodyKind) -> Self {
        Self {
            name: None,
            body,
            placement: Placement::IDENTITY,
            fixed: Vec::new(),
            actuators: Vec::new(),
            collision: None,
        }
    }

    /// The same body with name `name`.
    #[must_use]
    pub fn named(self, name: impl Into<String>) -> Self {
        Self {
            name: Some(name.into()),
            ..self
        }
    }

    /// The same body with collision settings `collision` for all its masses.
    #[must_use]
    pub fn colliding(self, collision: BodyCollision) -> Self {
        Self {
            collision: Some(collision),
            ..self
        }
    }

    /// The same body with placement `placement`.
    #[must_use]
    pub fn placed(self, placement: Placement) -> Self {
        Self { placement, ..self }
    }
}

/// One end of a [`Joint`]: mass `mass` (local index) of body `body` (index into
/// [`Scene::bodies`](super::Scene::bodies)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MassRef {
    /// Index of the body in the scene.
    pub body: usize,
    /// Local index of the mass in that body.
    pub mass: u32,
}

/// A spring between two masses named by body and local index, e.g. to glue two builders together.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Joint {
    /// First end.
    pub a: MassRef,
    /// Second end.
    pub b: MassRef,
    /// Stiffness, N/m (N for the material law).
    pub stiffness: f64,
    /// Axial damping in N*s/m (default 0).
    #[serde(default)]
    pub damping: f64,
    /// Force law (default Hooke).
    #[serde(default)]
    pub law: SpringLaw,
    /// Rest length in m; `None` (default) takes the distance between the placed masses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest_length: Option<f64>,
}
