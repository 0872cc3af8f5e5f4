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
//!   [`Error::SceneVersion`], whose message says what changed.
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

mod body_kind;
mod format;
mod pile;
mod terrain;

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use body_kind::{BodyKind, ImageSource};
pub use format::{check_version, version_message, FORMAT_VERSION};
pub(crate) use format::{schema_value, SceneFile};
pub use pile::{PileBody, PileLayout};
pub use terrain::{SlopeTerrain, Terrain};

use crate::builders::Placement;
use crate::error::{Error, Result};
use crate::model::{Actuator, Model, Obstacle, Params, Spring, SpringLaw};

/// A whole simulation description: what [`Scene::to_model`] turns into a [`Model`].
///
/// # Examples
///
/// ```
/// use hooke::{Error, Scene};
///
/// let scene = Scene::from_json_str(
///     r#"{
///         "version": 1,
///         "params": { "dt": 0.0001 },
///         "bodies": [
///             { "name": "cube", "body": { "type": "cube", "damping": 0.5 },
///               "placement": { "position": [0.0, 0.0, 0.2] } },
///             { "body": { "type": "rope", "segments": 4 },
///               "placement": { "position": [0.5, 0.0, 1.0] } }
///         ],
///         "terrain": { "stairs": { "steps": 3, "start": [1.0, 0.0, 0.0] } }
///     }"#,
/// )?;
/// let model = scene.to_model()?;
/// assert_eq!(model.bodies[1].name, "rope"); // unnamed bodies take their builder's name
/// assert_eq!((model.masses.len(), model.springs.len()), (8 + 5, 28 + 4));
/// assert_eq!(model.masses[0].position.z, 0.2); // m
/// assert_eq!(model.obstacles.len(), 3); // one box per step
///
/// // Scenes round-trip through JSON (Scene::save and Scene::load do the same with files) ...
/// assert_eq!(Scene::from_json_str(&scene.to_json_string())?, scene);
/// // ... a typo is an error, not a silently ignored setting ...
/// let typo = r#"{ "version": 1, "bodies": [ { "body": { "type": "cube", "sise": 1 } } ] }"#;
/// assert!(matches!(Scene::from_json_str(typo), Err(Error::SceneParse { .. })));
/// // ... and a file without a version says how to update it.
/// let old = r#"{ "bodies": [ { "body": { "type": "cube" } } ] }"#;
/// let err = Scene::from_json_str(old).unwrap_err();
/// assert!(matches!(err, Error::SceneVersion { found: None, .. }));
/// assert!(err.to_string().contains(r#"add "version": 1"#));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "format::SceneFile", into = "format::SceneFile")]
pub struct Scene {
    /// Global parameters (each field defaults as [`Params::default`]).
    pub params: Params,
    /// The bodies, in order: body `i` of the model is `bodies[i]`.
    pub bodies: Vec<BodySpec>,
    /// Springs joining masses of different bodies (or of one body), added after all bodies.
    pub joints: Vec<Joint>,
    /// Static obstacles besides the ground ([`Model::obstacles`]).
    pub obstacles: Vec<Obstacle>,
    /// Terrain by name, added to the model's obstacles after [`Scene::obstacles`] with the
    /// ground's contact and friction (default none).
    pub terrain: Option<Terrain>,
    /// A pile of soft bodies in a box by name: its bodies added after [`Scene::bodies`], its
    /// walls after [`Scene::obstacles`] with the ground's contact and friction (default none).
    pub pile: Option<PileLayout>,
    /// The pair force between masses of two collision classes ([`Model::class_collisions`]).
    pub class_collisions: Vec<crate::ClassCollision>,
    /// Folder that relative image paths are resolved against. Set by [`Scene::load`] to the scene
    /// file's folder; `None` means the current directory. Not saved.
    pub base_dir: Option<PathBuf>,
}

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
            group: crate::COLLISION_GROUP_DEFAULT,
            mask: crate::COLLISION_MASK_ALL,
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
/// [`Scene::bodies`]).
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

impl Scene {
    /// An empty scene with parameters `params`.
    #[must_use]
    pub fn new(params: Params) -> Self {
        Self {
            params,
            ..Self::default()
        }
    }

    /// Adds a body and returns its index.
    pub fn push(&mut self, body: BodySpec) -> usize {
        self.bodies.push(body);
        self.bodies.len() - 1
    }

    /// Builds every body, applies its fixed masses, actuators and placement, adds the joints and
    /// the obstacles, and validates the result.
    ///
    /// # Errors
    /// The builders' errors ([`Error::InvalidParameter`], [`Error::InvalidBuilder`],
    /// [`Error::Image`], [`Error::EmptyImage`], ...); [`Error::InvalidBuilder`] (builder
    /// `"scene"`) for a fixed mass, actuator spring or joint end that does not exist; then
    /// whatever [`Model::validate`] rejects.
    pub fn to_model(&self) -> Result<Model> {
        let mut model = Model::new(self.params);
        let piled = match &self.pile {
            Some(pile) => pile.bodies()?,
            None => Vec::new(),
        };
        for (i, spec) in self.bodies.iter().chain(&piled).enumerate() {
            let mut part = spec.body.build(self.base_dir.as_deref())?;
            let len = part.masses.len();
            for &m in &spec.fixed {
                let mass = part.masses.get_mut(m as usize).ok_or_else(|| {
                    scene_error(format!(
                        "body {i} fixes mass {m}, but it has only {len} masses"
                    ))
                })?;
                mass.fixed = true;
            }
            for a in &spec.actuators {
                if a.spring as usize >= part.springs.len() {
                    return Err(scene_error(format!(
                        "body {i} has an actuator on spring {}, but it has only {} springs",
                        a.spring,
                        part.springs.len()
                    )));
                }
                part.actuators.push(*a);
            }
            if let Some(c) = spec.collision {
                part = part
                    .with_collision_radius(c.radius)
                    .with_collision_filter(c.group, c.mask)
                    .with_self_collision(c.self_collision)
                    .with_collision_class(c.class);
            }
            spec.placement.apply(&mut part)?;
            let name = spec
                .name
                .clone()
                .unwrap_or_else(|| spec.body.type_name().to_string());
            model.add(name, part);
        }
        for (j, joint) in self.joints.iter().enumerate() {
            let resolve = |end: &MassRef, which: &str| -> Result<u32> {
                let body = model.bodies.get(end.body).ok_or_else(|| {
                    scene_error(format!(
                        "joint {j} end {which} names body {}, but the scene has {} bodies",
                        end.body,
                        model.bodies.len()
                    ))
                })?;
                let len = body.masses.len();
                if end.mass as usize >= len {
                    return Err(scene_error(format!(
                        "joint {j} end {which} names mass {} of body {}, which has {len} masses",
                        end.mass, end.body
                    )));
                }
                Ok((body.masses.start + end.mass as usize) as u32)
            };
            let (a, b) = (resolve(&joint.a, "a")?, resolve(&joint.b, "b")?);
            let rest = joint.rest_length.unwrap_or_else(|| {
                model.masses[a as usize]
                    .position
                    .distance(model.masses[b as usize].position)
            });
            model.add_spring(Spring {
                a,
                b,
                law: joint.law,
                stiffness: joint.stiffness,
                damping: joint.damping,
                rest_length: rest,
            });
        }
        model.obstacles.clone_from(&self.obstacles);
        let (contact, friction) = (self.params.contact, self.params.friction);
        if let Some(pile) = &self.pile {
            model.obstacles.extend(pile.walls(contact, friction));
        }
        if let Some(terrain) = &self.terrain {
            model
                .obstacles
                .extend(terrain.obstacles(contact, friction)?);
        }
        model.class_collisions.clone_from(&self.class_collisions);
        model.validate()?;
        Ok(model)
    }

    /// Reads a scene from the JSON file `path`; relative image paths in it are resolved against
    /// the file's folder.
    ///
    /// # Errors
    /// [`Error::SceneIo`] if the file cannot be read; [`Error::SceneParse`] (with line and column)
    /// if it is not a valid scene.
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| Error::SceneIo {
            path: path.to_path_buf(),
            source,
        })?;
        let mut scene = Self::parse(&text, path)?;
        scene.base_dir = Some(
            path.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        );
        Ok(scene)
    }

    /// Writes the scene to `path` as pretty-printed JSON (relative image paths are written as
    /// they are).
    ///
    /// # Errors
    /// [`Error::SceneIo`] if the file cannot be written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        std::fs::write(path, self.to_json_string()).map_err(|source| Error::SceneIo {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Parses a scene from JSON text; relative image paths resolve against [`Scene::base_dir`]
    /// (`None` here: the current directory).
    ///
    /// # Errors
    /// [`Error::SceneParse`] (path `"<memory>"`, with line and column) if `json` is not a valid
    /// scene.
    pub fn from_json_str(json: &str) -> Result<Self> {
        Self::parse(json, Path::new("<memory>"))
    }

    /// The scene as pretty-printed JSON.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut s = serde_json::to_string_pretty(self)
            .expect("a Scene always serialises: it has only string keys and no fallible fields");
        s.push('\n');
        s
    }

    /// The JSON Schema of scene files (draft 2020-12), generated from the types that read them;
    /// the repository's `scenes/schema.json` holds it (`hooke schema` prints it).
    ///
    /// # Examples
    ///
    /// ```
    /// let schema = hooke::Scene::json_schema();
    /// assert_eq!(schema["properties"]["version"]["const"], 1);
    /// ```
    #[must_use]
    pub fn json_schema() -> serde_json::Value {
        format::scene_schema()
    }

    /// [`Scene::json_schema`] as pretty-printed JSON with a final newline: the text of
    /// `scenes/schema.json`.
    #[must_use]
    pub fn json_schema_string() -> String {
        format::pretty(&Self::json_schema())
    }

    fn parse(json: &str, path: &Path) -> Result<Self> {
        format::check_version(json, path)?;
        serde_json::from_str(json).map_err(|source| Error::SceneParse {
            path: path.to_path_buf(),
            source,
        })
    }
}

fn scene_error(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "scene",
        reason,
    }
}
