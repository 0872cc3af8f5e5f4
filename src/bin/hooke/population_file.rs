//! POPULATION.json: the evaluation settings and the batch of robots `hooke eval` reads, checked
//! with errors that name the robot and the field.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hooke::population::{Evaluation, Fitness, GenomeSettings, VoxelGenome, VoxelMaterial};
use hooke::{Obstacle, Params, Part, RoughGround, Scene, Slope, Staircase};
use serde::Deserialize;

use hooke::BackendChoice;

/// The whole file, checked: settings and robots.
#[derive(Debug)]
pub(crate) struct PopulationFile {
    /// The evaluation settings.
    pub(crate) evaluation: EvaluationSpec,
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
    evaluation: serde_json::Value,
    robots: Vec<serde_json::Value>,
}

/// `evaluation`: how every robot of the batch is run and scored. The fields of
/// [`Evaluation`] (with `duration` required), plus terrain, genome settings and backend.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EvaluationSpec {
    /// Simulated time per robot, s (finite, > 0).
    pub(crate) duration: f64,
    /// Global parameters of the World (as in scene files; default [`Params::default`]).
    #[serde(default)]
    pub(crate) params: Params,
    /// How a robot is scored (default: distance along +x), as [`Fitness`] reads from JSON:
    /// `{ "distance": { "direction": [1, 0, 0] } }`.
    #[serde(default)]
    pub(crate) fitness: Fitness,
    /// Obstacles besides the ground, shared by every robot (as in scene files).
    #[serde(default)]
    pub(crate) obstacles: Vec<Obstacle>,
    /// Terrain shapes, added as obstacles with the ground's contact and friction.
    #[serde(default)]
    pub(crate) terrain: Vec<Terrain>,
    /// Settings of the genomes (materials, muscles).
    #[serde(default)]
    pub(crate) genome: GenomeSettings,
    /// GPU: the force scale of the fixed-point encoding, N ([`Evaluation::fixed_point_force`]).
    #[serde(default)]
    pub(crate) fixed_point_force: Option<f64>,
    /// GPU: the most springs that may meet at one mass ([`Evaluation::max_incidence`]).
    #[serde(default)]
    pub(crate) max_incidence: Option<u32>,
    /// The backend to use (`--backend` overrides it; default auto).
    #[serde(default)]
    pub(crate) backend: Option<BackendChoice>,
}

/// One entry of `evaluation.terrain`; in JSON the kind is the `"type"` field.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Terrain {
    /// [`Slope`].
    Slope(Slope),
    /// [`Staircase`].
    Staircase(Staircase),
    /// [`RoughGround`].
    RoughGround(RoughGround),
}

/// One robot as the file gives it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRobot {
    id: String,
    #[serde(default)]
    genome: Option<VoxelGenome>,
    #[serde(default)]
    scene: Option<serde_json::Value>,
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
    /// A scene file (path as written, resolved against the population file's folder).
    SceneFile(PathBuf),
    /// A scene given inline.
    Scene(Box<Scene>),
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
        let evaluation: EvaluationSpec =
            serde_json::from_value(raw.evaluation).map_err(|e| format!("evaluation: {e}"))?;
        evaluation.check()?;
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
    let raw: RawRobot = serde_json::from_value(value).map_err(|e| format!("{name}: {e}"))?;
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
        (None, Some(serde_json::Value::String(path))) => RobotBody::SceneFile(path.into()),
        (None, Some(scene @ serde_json::Value::Object(_))) => RobotBody::Scene(Box::new(
            serde_json::from_value(scene).map_err(|e| format!("{name}: scene: {e}"))?,
        )),
        (None, Some(_)) => {
            return Err(format!(
                "{name}: `scene` must be a file path (string) or a scene (object)"
            ))
        }
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

impl EvaluationSpec {
    /// The checks serde does not make: duration, fitness direction, terrain shapes, genome
    /// settings, and the evaluation as [`Evaluation::check`] sees it.
    pub(crate) fn check(&self) -> Result<(), String> {
        if !(self.duration.is_finite() && self.duration > 0.0) {
            return Err(format!(
                "evaluation.duration: {} is not a positive number of seconds",
                self.duration
            ));
        }
        if let Fitness::Distance { direction } = self.fitness {
            if !direction.is_finite() || direction.z != 0.0 || direction.length_squared() == 0.0 {
                return Err(format!(
                    "evaluation.fitness.distance.direction: {direction} is not a horizontal \
                     direction (finite, z = 0, not zero)"
                ));
            }
        }
        self.genome
            .validate()
            .map_err(|e| format!("evaluation.genome: {e}"))?;
        if self.genome.commanded {
            return Err(
                "evaluation.genome.commanded: hooke eval runs no controller, so \
                        commanded muscles would never move; use sine muscles (false)"
                    .to_owned(),
            );
        }
        self.evaluation()?
            .check()
            .map_err(|e| format!("evaluation: {e}"))
    }

    /// The library's [`Evaluation`]: these settings with the terrain among the obstacles.
    pub(crate) fn evaluation(&self) -> Result<Evaluation, String> {
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

    /// The obstacles, then the terrain's shapes as obstacles with the ground's contact and
    /// friction.
    fn all_obstacles(&self) -> Result<Vec<Obstacle>, String> {
        let mut obstacles = self.obstacles.clone();
        for (i, t) in self.terrain.iter().enumerate() {
            let shapes = match t {
                Terrain::Slope(s) => vec![s.shape()],
                Terrain::Staircase(s) => match s.shapes() {
                    Ok(shapes) => shapes.into_iter().map(Ok).collect(),
                    Err(e) => vec![Err(e)],
                },
                Terrain::RoughGround(r) => vec![r.heightfield().map(hooke::Shape::Heightfield)],
            };
            for shape in shapes {
                let shape = shape.map_err(|e| format!("evaluation.terrain[{i}]: {e}"))?;
                obstacles.push(Obstacle::new(
                    shape,
                    self.params.contact,
                    self.params.friction,
                ));
            }
        }
        Ok(obstacles)
    }
}

impl RobotSpec {
    /// The robot as one part: a genome built with `settings`, or all the bodies and joints of a
    /// scene (its params, obstacles and class collisions are not used). Scene errors name the
    /// scene file.
    pub(crate) fn part(&self, settings: &GenomeSettings, base_dir: &Path) -> hooke::Result<Part> {
        match &self.body {
            RobotBody::Genome(g) => g.part(settings),
            RobotBody::SceneFile(path) => {
                let mut scene = Scene::load(base_dir.join(path))?;
                scene.obstacles.clear();
                scene.class_collisions.clear();
                scene_part(&scene)
            }
            RobotBody::Scene(scene) => {
                let mut scene = (**scene).clone();
                scene.base_dir = Some(base_dir.to_path_buf());
                scene.obstacles.clear();
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
