//! POPULATION.json: the evaluation settings and the batch of robots `hooke eval` reads, checked
//! with errors that name the robot and the field.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hooke::population::{EvaluationSpec, GenomeSettings, SceneSource, VoxelGenome, VoxelMaterial};
use hooke::{Part, Scene};
use serde::Deserialize;

use crate::args::Backend;

/// The whole file, checked: settings and robots.
#[derive(Debug)]
pub(crate) struct PopulationFile {
    /// The evaluation settings ([`EvaluationSpec`], shared with the library and evolution
    /// settings files).
    pub(crate) evaluation: EvaluationSpec,
    /// `evaluation.backend`: the backend to use (`--backend` overrides it; default auto).
    pub(crate) backend: Option<Backend>,
    /// The robots, in file order.
    pub(crate) robots: Vec<RobotSpec>,
    /// Digest of the file's bytes (see [`crate::results_file::digest`]).
    pub(crate) digest: String,
    /// Folder that relative scene paths are resolved against: the file's own.
    pub(crate) base_dir: PathBuf,
}

/// The top level, before the robots are checked one by one (so errors can name them).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    version: Option<serde_json::Value>,
    evaluation: serde_json::Value,
    robots: Vec<serde_json::Value>,
}

/// One robot, checked: an id and what it is made of.
#[derive(Clone, Debug)]
pub(crate) struct RobotSpec {
    /// The robot's id (unique in the file).
    pub(crate) id: String,
    /// What it is made of.
    pub(crate) body: RobotBody,
}

/// What a robot is made of.
#[derive(Clone, Debug)]
pub(crate) enum RobotBody {
    /// A voxel genome, built with the evaluation's genome settings.
    Genome(VoxelGenome),
    /// A scene file or an inline scene.
    Scene(SceneSource),
}

impl PopulationFile {
    /// Reads and checks `path`. Errors name the file, and the robot (position and id) and
    /// field at fault.
    pub(crate) fn load(path: &Path) -> Result<Self, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let base_dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        Self::parse(&bytes, base_dir).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Checks the contents of a population file.
    pub(crate) fn parse(bytes: &[u8], base_dir: PathBuf) -> Result<Self, String> {
        let raw: Raw = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        let version = raw.version.as_ref().and_then(serde_json::Value::as_u64);
        if version != Some(u64::from(hooke::scene::FORMAT_VERSION)) {
            let found = raw.version.as_ref().map(ToString::to_string);
            return Err(hooke::scene::version_message(found.as_deref()));
        }
        let mut evaluation = raw.evaluation;
        let backend = match evaluation.as_object_mut().and_then(|o| o.remove("backend")) {
            Some(b) => {
                Some(serde_json::from_value(b).map_err(|e| format!("evaluation.backend: {e}"))?)
            }
            None => None,
        };
        let evaluation: EvaluationSpec =
            serde_json::from_value(evaluation).map_err(|e| format!("evaluation: {e}"))?;
        check(&evaluation)?;
        if raw.robots.is_empty() {
            return Err("the batch is empty: `robots` has no robot".to_owned());
        }
        let mut robots = Vec::with_capacity(raw.robots.len());
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, value) in raw.robots.into_iter().enumerate() {
            let robot = robot(i, value, &evaluation.genome)?;
            if let Some(first) = seen.insert(robot.id.clone(), i) {
                return Err(format!(
                    "robots[{i}]: id {:?} is also the id of robots[{first}]; ids must be unique",
                    robot.id
                ));
            }
            robots.push(robot);
        }
        Ok(Self {
            evaluation,
            backend,
            robots,
            digest: crate::results_file::digest(bytes),
            base_dir,
        })
    }
}

/// Checks robot `i` of the file; a genome's size, cell count and muscle phases (against
/// `settings`) too.
fn robot(
    i: usize,
    value: serde_json::Value,
    settings: &GenomeSettings,
) -> Result<RobotSpec, String> {
    // Name the robot by its id when it has one, even if the rest is wrong.
    let id = value
        .get("id")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned);
    let name = match &id {
        Some(id) => format!("robots[{i}] (id {id:?})"),
        None => format!("robots[{i}]"),
    };
    let raw: hooke::population::RobotEntry =
        serde_json::from_value(value).map_err(|e| format!("{name}: {e}"))?;
    if raw.id.trim().is_empty() {
        return Err(format!("{name}: `id` is empty"));
    }
    let body = match (raw.genome, raw.scene) {
        (Some(g), None) => {
            g.check().map_err(|e| format!("{name}: {e}"))?;
            let high_phase = g.cells.iter().enumerate().find_map(|(cell, c)| match c {
                VoxelMaterial::Muscle { phase } if *phase >= settings.phases => {
                    Some((cell, *phase))
                }
                _ => None,
            });
            if let Some((cell, phase)) = high_phase {
                return Err(format!(
                    "{name}: genome: cell {cell} is a muscle of phase {phase}, but \
                     evaluation.genome.phases is {}",
                    settings.phases
                ));
            }
            RobotBody::Genome(g)
        }
        (None, Some(scene)) => RobotBody::Scene(scene),
        (None, None) => {
            return Err(format!(
                "{name}: has neither `genome` nor `scene` (give exactly one)"
            ))
        }
        (Some(_), Some(_)) => {
            return Err(format!(
                "{name}: has both `genome` and `scene` (give exactly one)"
            ))
        }
    };
    Ok(RobotSpec { id: raw.id, body })
}

/// The checks serde does not make: duration, fitness direction, genome settings, and the
/// evaluation as [`hooke::population::Evaluation::check`] sees it (terrain included).
fn check(spec: &EvaluationSpec) -> Result<(), String> {
    if !(spec.duration.is_finite() && spec.duration > 0.0) {
        return Err(format!(
            "evaluation.duration: {} is not a positive number of seconds",
            spec.duration
        ));
    }
    if let hooke::population::Fitness::Distance { direction } = spec.fitness {
        if !direction.is_finite() || direction.z != 0.0 || direction.length_squared() == 0.0 {
            return Err(format!(
                "evaluation.fitness.distance.direction: {direction} is not a horizontal \
                 direction (finite, z = 0, not zero)"
            ));
        }
    }
    spec.genome
        .validate()
        .map_err(|e| format!("evaluation.genome: {e}"))?;
    if spec.genome.commanded {
        return Err(
            "evaluation.genome.commanded: hooke eval runs no controller, so \
                    commanded muscles would never move; use sine muscles (false)"
                .to_owned(),
        );
    }
    spec.evaluation()
        .map_err(|e| format!("evaluation.terrain: {e}"))?
        .check()
        .map_err(|e| format!("evaluation: {e}"))
}

impl RobotSpec {
    /// The robot as one part: a genome built with `settings`, or all the bodies and joints of a
    /// scene (its params, obstacles, terrain and class collisions are not used). Scene errors name the
    /// scene file.
    pub(crate) fn part(&self, settings: &GenomeSettings, base_dir: &Path) -> hooke::Result<Part> {
        match &self.body {
            RobotBody::Genome(g) => g.part(settings),
            RobotBody::Scene(source) => {
                let mut scene = source.scene(base_dir)?;
                scene.obstacles.clear();
                scene.terrain = None;
                scene.class_collisions.clear();
                scene_part(&scene)
            }
        }
    }
}

/// Every body and joint of `scene` as one part.
fn scene_part(scene: &Scene) -> hooke::Result<Part> {
    let model = scene.to_model()?;
    let mut part = Part::new();
    part.masses = model.masses;
    part.springs = model.springs;
    part.actuators = model.actuators;
    part.self_collision = model.bodies.iter().all(|b| b.self_collision);
    Ok(part)
}
