//! Scene files: a [`Scene`] (global parameters, bodies made by builders, creatures or by hand,
//! terrain, obstacles, joints between bodies) that saves to and loads from human-readable JSON,
//! so runs are reproducible and shareable.
//!
//! Scene format 1, in short (`scenes/README.md` in the repository shows every shipped scene and
//! `scenes/schema.json` is the JSON Schema, [`Scene::json_schema`]):
//!
//! ```json
//! {
//!   "version": 1,
//!   "params": {
//!     "dt": 0.0001,
//!     "contact": { "penalty": { "stiffness": 100000.0, "damping": 50.0 } },
//!     "friction": { "static_coefficient": 1.0, "kinetic_coefficient": 0.8 }
//!   },
//!   "bodies": [
//!     { "name": "walker", "body": { "type": "walking_robot" } },
//!     { "name": "cube", "body": { "type": "cube", "damping": 0.5 },
//!       "placement": { "position": [-0.5, 0.0, 0.2], "rotation": [0.0, 0.3, 0.0] } },
//!     { "name": "m", "body": { "type": "image", "path": "../assets/m.png", "spacing": 0.02 } }
//!   ],
//!   "terrain": { "slope": { "degrees": 10, "start": [0.45, 0.0, 0.0] } },
//!   "obstacles": [
//!     { "shape": { "type": "sphere", "centre": [1.0, 1.0, 0.0], "radius": 0.3 },
//!       "contact": { "penalty": { "stiffness": 100000.0, "damping": 50.0 } },
//!       "friction": { "static_coefficient": 1.0, "kinetic_coefficient": 0.8 } }
//!   ]
//! }
//! ```
//!
//! - `"version": 1` is required: a file without it, or with another number, is refused with
//!   [`Error::SceneVersion`](crate::Error::SceneVersion), whose message says what changed.
//! - Every name is snake_case: fields, body and shape `"type"`s, and enum values
//!   (`"integrator": "semi_implicit_euler"`, `"contact": "none"` or `{ "penalty": { .. } }`,
//!   `"rule": "coulomb"`, `"law": "material"`).
//! - A body's `"type"` names a builder or a creature ([`BodyKind`]); a scene-level `"terrain"`
//!   names a slope, stairs or rough ground ([`Terrain`]) that becomes obstacles with the
//!   ground's contact and friction; a scene-level `"pile"` names a pile of soft bodies in a box
//!   ([`PileLayout`]), which becomes bodies and walls.
//! - A body may add `"collision": { "radius": 0.005, "group": 1, "mask": 4294967295,
//!   "self_collision": true, "class": 0 }` ([`BodyCollision`]; collisions between masses),
//!   `params` may hold `"collision": { "stiffness", "damping", "friction" }`
//!   ([`Collision`](crate::Collision)), and the scene `"class_collisions": [ { "classes": [1, 2],
//!   "stiffness": 2e4, "friction": 0.8 } ]` ([`ClassCollision`](crate::ClassCollision): the pair
//!   force between two collision classes).
//! - A `"$schema"` key (e.g. `"$schema": "./schema.json"`) is allowed, so that an editor can
//!   check and complete the file; hooke ignores it and [`Scene::save`] does not write it.
//!
//! Every field of `params`, of a builder, of a terrain, of a pile and of a placement may be left out; it
//! then takes its default (for builders the value their docs give). Unknown fields are
//! rejected, so a typo is an error and not a silently ignored setting. Paths of image bodies are
//! resolved against the folder of the scene file.
//!
//! One file per part: `description.rs` ([`Scene`]: to a model, load, save), `body_spec.rs`
//! ([`BodySpec`], [`Joint`]), `body_kind.rs` (builders and creatures by name), `terrain.rs`
//! ([`Terrain`]), `pile.rs` ([`PileLayout`]), `format.rs` (the file's top level, the version check, the JSON Schema).

mod body_kind;
mod body_spec;
mod description;
mod format;
mod mesh_cells;
mod pile;
mod terrain;

pub use crate::format_version::{version_message, FORMAT_VERSION};
pub use body_kind::{BodyKind, ImageSource};
pub use body_spec::{BodyCollision, BodySpec, Joint, MassRef};
pub use description::Scene;
pub use format::check_version;
pub(crate) use format::{schema_value, SceneFile};
pub use pile::{PileBody, PileLayout};
pub use terrain::{SlopeTerrain, Terrain};
