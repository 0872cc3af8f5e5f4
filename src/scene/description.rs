//! [`Scene`]: a whole simulation description, what it turns into ([`Scene::to_model`]), and
//! its files (load, save, JSON text and schema, the conversions from and to the file's top
//! level).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::body_spec::{BodySpec, Joint, MassRef};
use super::format::{check_version, pretty, scene_schema, SceneFile};
use super::pile::PileLayout;
use super::terrain::Terrain;
use crate::error::{Error, Result};
use crate::format_version::{version_message, FORMAT_VERSION};
use crate::model::{Model, Obstacle, Params, Spring};

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
#[serde(try_from = "SceneFile", into = "SceneFile")]
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
    pub class_collisions: Vec<crate::model::ClassCollision>,
    /// Folder that relative image paths are resolved against. Set by [`Scene::load`] to the scene
    /// file's folder; `None` means the current directory. Not saved.
    pub base_dir: Option<PathBuf>,
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
    /// [`Error::SceneIo`] if the file cannot be read or is not UTF-8; [`Error::InputTooLarge`]
    /// if it is larger than [`max_input_bytes`](crate::max_input_bytes) (64 MiB unless
    /// `HOOKE_MAX_INPUT_BYTES` says otherwise); [`Error::SceneParse`] (with line and column) if it
    /// is not a valid scene.
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let bytes = crate::input_file::read_input(path)?;
        let text = String::from_utf8(bytes).map_err(|e| Error::SceneIo {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
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
        scene_schema()
    }

    /// [`Scene::json_schema`] as pretty-printed JSON with a final newline: the text of
    /// `scenes/schema.json`.
    #[must_use]
    pub fn json_schema_string() -> String {
        pretty(&Self::json_schema())
    }

    fn parse(json: &str, path: &Path) -> Result<Self> {
        check_version(json, path)?;
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

impl TryFrom<SceneFile> for Scene {
    type Error = String;

    fn try_from(file: SceneFile) -> std::result::Result<Self, String> {
        if file.version != FORMAT_VERSION {
            return Err(version_message(Some(&file.version.to_string())));
        }
        Ok(Self {
            params: file.params,
            bodies: file.bodies,
            joints: file.joints,
            obstacles: file.obstacles,
            terrain: file.terrain,
            pile: file.pile,
            class_collisions: file.class_collisions,
            base_dir: None,
        })
    }
}

impl From<Scene> for SceneFile {
    fn from(scene: Scene) -> Self {
        Self {
            _schema: None,
            version: FORMAT_VERSION,
            params: scene.params,
            bodies: scene.bodies,
            terrain: scene.terrain,
            pile: scene.pile,
            obstacles: scene.obstacles,
            joints: scene.joints,
            class_collisions: scene.class_collisions,
        }
    }
}
