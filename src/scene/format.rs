//! Scene format 1 on disk: the `"version"` check that runs before anything else is read, the
//! file's top level, and its JSON Schema.

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{BodySpec, Joint, PileLayout, Scene, Terrain};
use crate::error::{Error, Result};
use crate::model::{ClassCollision, Obstacle, Params};

/// The scene format version this hooke reads and writes: the `"version"` of every scene file and
/// of population and evolution settings files.
pub const FORMAT_VERSION: u32 = 1;

/// What [`Error::SceneVersion`] says for a file whose `"version"` is `found` (as written; `None`
/// when there is none): the versions this hooke reads and how to update the file.
#[must_use]
pub fn version_message(found: Option<&str>) -> String {
    let reads = format!("this hooke reads format version {FORMAT_VERSION}");
    match found {
        None => format!(
            "no \"version\" field; {reads}. A file written before format 1 needs four changes: \
             add \"version\": 1 at the top; write enum values in snake_case (\"Penalty\" -> \
             \"penalty\", \"Restitution\" -> \"restitution\", \"None\" -> \"none\", \
             \"SemiImplicitEuler\" -> \"semi_implicit_euler\", \"ExplicitEuler\" -> \
             \"explicit_euler\", \"Coulomb\" -> \"coulomb\", \"Naive\" -> \"naive\", \"Hooke\" \
             -> \"hooke\", \"Material\" -> \"material\", \"ZeroLength\" -> \"zero_length\"); \
             rename the obstacle shapes' \"center\" to \"centre\"; a population file's terrain \
             list becomes one \"terrain\" object (see scenes/README.md)"
        ),
        Some(v) => format!(
            "\"version\": {v} is not a scene format version this hooke reads ({reads}; a newer \
             hooke may read a newer version)"
        ),
    }
}

/// Refuses the text `json` of a format 1 file (a scene, population or evolution settings file)
/// unless its top-level `"version"` is [`FORMAT_VERSION`]. Text that is not a JSON object passes:
/// parsing it then reports where it breaks.
///
/// # Errors
/// [`Error::SceneVersion`] naming `path`, for a missing `"version"` or another value.
pub fn check_version(json: &str, path: &Path) -> Result<()> {
    #[derive(Deserialize)]
    struct Probe {
        version: Option<serde_json::Value>,
    }
    let Ok(Probe { version }) = serde_json::from_str::<Probe>(json) else {
        return Ok(());
    };
    if version.as_ref().and_then(serde_json::Value::as_u64) == Some(u64::from(FORMAT_VERSION)) {
        return Ok(());
    }
    Err(Error::SceneVersion {
        path: path.to_path_buf(),
        found: version.map(|v| v.to_string()),
    })
}

/// A scene file's top level: the [`Scene`] with its `"version"` (and an editor's `"$schema"`).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "hooke scene",
    description = "A hooke scene file, format 1: global parameters, bodies, terrain, obstacles \
                   and joints. SI units (m, kg, s, N). See scenes/README.md."
)]
pub(crate) struct SceneFile {
    /// The JSON Schema this file follows, for editors (e.g. "./schema.json"); ignored by hooke.
    #[serde(rename = "$schema", default, skip_serializing)]
    _schema: Option<String>,
    /// The scene format version: 1. Required in a scene file; a scene given inline in another
    /// format 1 file (a population file's robot) may leave it out.
    #[serde(default = "format_version")]
    #[schemars(extend("const" = 1))]
    version: u32,
    /// Global parameters; every field may be left out (hooke::Params::default()).
    #[serde(default)]
    params: Params,
    /// The bodies, in order: body i of the model is bodies[i].
    #[serde(default)]
    bodies: Vec<BodySpec>,
    /// Terrain by name, added as obstacles with the ground's contact and friction after
    /// `obstacles`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    terrain: Option<Terrain>,
    /// A pile of soft bodies in a box by name: its bodies after `bodies`, its walls after
    /// `obstacles`, with the ground's contact and friction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pile: Option<PileLayout>,
    /// Static obstacles besides the ground.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    obstacles: Vec<Obstacle>,
    /// Springs joining masses of bodies, added after all bodies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    joints: Vec<Joint>,
    /// The pair force between masses of two collision classes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    class_collisions: Vec<ClassCollision>,
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

fn format_version() -> u32 {
    FORMAT_VERSION
}

/// The JSON Schema of scene files: that of [`SceneFile`], with `"version"` required at the top.
pub(crate) fn scene_schema() -> serde_json::Value {
    let mut value = schema_value(schemars::schema_for!(SceneFile));
    require_version(&mut value);
    value
}

/// A generated schema as JSON, its descriptions (the types' doc comments) cut to what an editor
/// shows: the text before the first heading (no examples), rustdoc links as plain code.
pub(crate) fn schema_value(schema: schemars::Schema) -> serde_json::Value {
    let mut value = serde_json::to_value(schema).expect("a JSON Schema is JSON");
    tidy_descriptions(&mut value);
    value
}

fn tidy_descriptions(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    serde_json::Value::String(text) if key == "description" => {
                        *text = plain_description(text);
                    }
                    _ => tidy_descriptions(v),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(tidy_descriptions),
        _ => {}
    }
}

/// `doc` up to its first heading, with `[text](target)` and `[text]` links reduced to `text`.
fn plain_description(doc: &str) -> String {
    let body = doc
        .split("\n# ")
        .next()
        .unwrap_or(doc)
        .trim_end()
        .to_string();
    let mut out = String::with_capacity(body.len());
    let mut rest = body.as_str();
    while let Some(open) = rest.find("[`") {
        let Some(close) = rest[open..].find("`]").map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close + 1]); // the `code` without brackets
        rest = &rest[close + 2..];
        if rest.starts_with('(') {
            if let Some(end) = rest.find(')') {
                rest = &rest[end + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Makes `"version"` a required property of the top-level object of `schema`.
fn require_version(schema: &mut serde_json::Value) {
    let required = schema
        .as_object_mut()
        .expect("a derived schema is an object")
        .entry("required")
        .or_insert_with(|| serde_json::Value::Array(Vec::new()));
    if let Some(list) = required.as_array_mut() {
        list.insert(0, "version".into());
    }
}

/// `value` pretty-printed with a final newline.
pub(crate) fn pretty(value: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("a JSON value always serialises");
    s.push('\n');
    s
}
