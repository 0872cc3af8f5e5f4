//! Population files read and checked the way `hooke eval` reads them: errors that name the
//! robot (`robots[3] (id "a")`) and the field, and each robot built into its [`Part`] exactly
//! as the evaluator builds it, so every reader of the format gets the same robots (and the same
//! fitness bits).

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{EvaluationSpec, Fitness, GenomeSettings, PopulationFile, RobotEntry, VoxelMaterial};
use crate::backend_choice::BackendChoice;
use crate::error::{Error, Result};
use crate::model::Part;
use crate::scene::Scene;

/// The top level, before the robots are checked one by one (so errors can name them).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    version: Option<serde_json::Value>,
    evaluation: serde_json::Value,
    robots: Vec<Box<RawValue>>,
}

impl PopulationFile {
    /// Parses and checks the bytes of a population file (`path` names it in errors): the
    /// version, the evaluation ([`EvaluationSpec::check`]) and every robot
    /// ([`RobotEntry::check`], ids unique and not empty). Also returns the file's
    /// `evaluation.backend`, which is not part of [`EvaluationSpec`] (`hooke eval` reads it).
    ///
    /// # Errors
    /// [`Error::SceneVersion`] for a missing or other version; [`Error::InvalidBuilder`]
    /// (builder `"population file"`) naming the robot by position and id and the field at
    /// fault, or the JSON error; those of [`EvaluationSpec::check`].
    pub fn from_json_checked(bytes: &[u8], path: &Path) -> Result<(Self, Option<BackendChoice>)> {
        let raw: Raw = serde_json::from_slice(bytes).map_err(|e| file_error(e.to_string()))?;
        let version = raw.version.as_ref().and_then(serde_json::Value::as_u64);
        if version != Some(u64::from(crate::scene::FORMAT_VERSION)) {
            return Err(Error::SceneVersion {
                path: path.to_path_buf(),
                found: raw.version.as_ref().map(ToString::to_string),
            });
        }
        let mut evaluation = raw.evaluation;
        let backend = match evaluation.as_object_mut().and_then(|o| o.remove("backend")) {
            Some(b) => Some(
                serde_json::from_value(b)
                    .map_err(|e| file_error(format!("evaluation.backend: {e}")))?,
            ),
            None => None,
        };
        let evaluation: EvaluationSpec = serde_json::from_value(evaluation)
            .map_err(|e| file_error(format!("evaluation: {e}")))?;
        evaluation.check()?;
        if raw.robots.is_empty() {
            return Err(file_error(
                "the batch is empty: `robots` has no robot".to_owned(),
            ));
        }
        let mut robots = Vec::with_capacity(raw.robots.len());
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, text) in raw.robots.iter().enumerate() {
            let robot = robot(i, text, &evaluation.genome)?;
            if let Some(first) = seen.insert(robot.id.clone(), i) {
                return Err(file_error(format!(
                    "robots[{i}]: id {:?} is also the id of robots[{first}]; ids must be unique",
                    robot.id
                )));
            }
            robots.push(robot);
        }
        let file = Self {
            version: crate::scene::FORMAT_VERSION,
            evaluation,
            robots,
        };
        Ok((file, backend))
    }
}

/// Robot `i` of a file, parsed and checked ([`RobotEntry::check`]); errors name it.
fn robot(i: usize, text: &RawValue, settings: &GenomeSettings) -> Result<RobotEntry> {
    let entry: RobotEntry = serde_json::from_str(text.get()).map_err(|e| {
        // Name the robot by its id when it has one, even if the rest is wrong.
        let value = serde_json::from_str::<serde_json::Value>(text.get()).ok();
        let name = match value.as_ref().and_then(|v| v.get("id")?.as_str()) {
            Some(id) => format!("robots[{i}] (id {id:?})"),
            None => format!("robots[{i}]"),
        };
        file_error(format!("{name}: {e}"))
    })?;
    let name = format!("robots[{i}] (id {:?})", entry.id);
    entry.check(settings).map_err(|e| match e {
        Error::InvalidBuilder { reason, .. } => file_error(format!("{name}: {reason}")),
        other => file_error(format!("{name}: {other}")),
    })?;
    Ok(entry)
}

impl RobotEntry {
    /// Checks the entry: an id that is not blank, exactly one of `genome` and `scene`, and a
    /// genome's size, cell count and muscle phases (below `settings.phases`). A scene is read
    /// only by [`RobotEntry::part`].
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] (builder `"robot"`) saying which of these fails.
    pub fn check(&self, settings: &GenomeSettings) -> Result<()> {
        let bad = |reason: String| {
            Err(Error::InvalidBuilder {
                builder: "robot",
                reason,
            })
        };
        if self.id.trim().is_empty() {
            return bad("`id` is empty".to_owned());
        }
        match (&self.genome, &self.scene) {
            (Some(g), None) => {
                g.check().map_err(|e| Error::InvalidBuilder {
                    builder: "robot",
                    reason: e.to_string(),
                })?;
                let high_phase = g.cells.iter().enumerate().find_map(|(cell, c)| match c {
                    VoxelMaterial::Muscle { phase } if *phase >= settings.phases => {
                        Some((cell, *phase))
                    }
                    _ => None,
                });
                if let Some((cell, phase)) = high_phase {
                    return bad(format!(
                        "genome: cell {cell} is a muscle of phase {phase}, but \
                         evaluation.genome.phases is {}",
                        settings.phases
                    ));
                }
                Ok(())
            }
            (None, Some(_)) => Ok(()),
            (None, None) => bad("has neither `genome` nor `scene` (give exactly one)".to_owned()),
            (Some(_), Some(_)) => {
                bad("has both `genome` and `scene` (give exactly one)".to_owned())
            }
        }
    }

    /// The robot as one part: its genome built with `settings` ([`VoxelGenome::part`]), or all
    /// the bodies and joints of its scene (read against `base_dir`; the scene's params,
    /// obstacles, terrain and class collisions are not used, and the robot self-collides only
    /// if every body does).
    ///
    /// # Errors
    /// [`VoxelGenome::part`]'s errors (a genome with no filled cell builds no robot);
    /// [`SceneSource::scene`]'s and the scene's model errors; [`Error::InvalidBuilder`] for an
    /// entry with neither or both.
    ///
    /// [`VoxelGenome::part`]: super::VoxelGenome::part
    /// [`SceneSource::scene`]: super::SceneSource::scene
    pub fn part(&self, settings: &GenomeSettings, base_dir: &Path) -> Result<Part> {
        match (&self.genome, &self.scene) {
            (Some(g), None) => g.part(settings),
            (None, Some(source)) => {
                let mut scene = source.scene(base_dir)?;
                scene.obstacles.clear();
                scene.terrain = None;
                scene.class_collisions.clear();
                scene_part(&scene)
            }
            _ => Err(Error::InvalidBuilder {
                builder: "robot",
                reason: "give exactly one of `genome` and `scene`".to_owned(),
            }),
        }
    }
}

/// Every body and joint of `scene` as one part.
fn scene_part(scene: &Scene) -> Result<Part> {
    let model = scene.to_model()?;
    let mut part = Part::new();
    part.masses = model.masses;
    part.springs = model.springs;
    part.actuators = model.actuators;
    part.self_collision = model.bodies.iter().all(|b| b.self_collision);
    Ok(part)
}

impl EvaluationSpec {
    /// Checks what serde does not: the duration, the fitness direction, the genome settings,
    /// that muscles are sines (an evaluation without controllers would never move commanded
    /// ones), and the evaluation as [`Evaluation::check`](super::Evaluation::check) sees it
    /// (terrain included).
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] (builder `"evaluation settings"`) naming the field
    /// (`evaluation.duration`, `evaluation.genome`, ...).
    pub fn check(&self) -> Result<()> {
        if !(self.duration.is_finite() && self.duration > 0.0) {
            return Err(spec_error(format!(
                "evaluation.duration: {} is not a positive number of seconds",
                self.duration
            )));
        }
        if let Fitness::Distance { direction } = self.fitness {
            if !direction.is_finite() || direction.z != 0.0 || direction.length_squared() == 0.0 {
                return Err(spec_error(format!(
                    "evaluation.fitness.distance.direction: {direction} is not a horizontal \
                     direction (finite, z = 0, not zero)"
                )));
            }
        }
        self.genome
            .validate()
            .map_err(|e| spec_error(format!("evaluation.genome: {e}")))?;
        if self.genome.commanded {
            return Err(spec_error(
                "evaluation.genome.commanded: an evaluation without controllers never moves \
                 commanded muscles; use sine muscles (false)"
                    .to_owned(),
            ));
        }
        self.evaluation()
            .map_err(|e| spec_error(format!("evaluation.terrain: {e}")))?
            .check()
            .map_err(|e| spec_error(format!("evaluation: {e}")))
    }
}

fn file_error(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "population file",
        reason,
    }
}

fn spec_error(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "evaluation settings",
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"{ "version": 1, "evaluation": { "duration": 0.01 }, "robots": [
        { "id": "a", "genome": { "size": [1, 1, 1], "cells": ["soft"] } },
        { "id": "b", "genome": { "size": [2, 1, 1], "cells": ["stiff", { "muscle": { "phase": 3 } }] } }
    ] }"#;

    #[test]
    fn a_checked_file_builds_each_genome_as_the_genome_builds_itself() {
        let (file, backend) = PopulationFile::from_json_checked(TWO.as_bytes(), Path::new("p"))
            .expect("a valid file");
        assert_eq!(backend, None);
        let settings = &file.evaluation.genome;
        for robot in &file.robots {
            let genome = robot.genome.as_ref().unwrap();
            let part = robot.part(settings, Path::new(".")).unwrap();
            assert_eq!(part, genome.part(settings).unwrap(), "{}", robot.id);
        }
    }

    #[test]
    fn bad_robots_are_named_by_position_id_and_field() {
        for (from, to, words) in [
            (
                r#""phase": 3"#,
                r#""phase": 4"#,
                &["robots[1]", "\"b\"", "phase 4"][..],
            ),
            (
                r#""id": "b""#,
                r#""id": "a""#,
                &["robots[1]", "robots[0]", "unique"][..],
            ),
            (
                r#""id": "a","#,
                r#""id": " ","#,
                &["robots[0]", "`id` is empty"][..],
            ),
            (
                r#""cells": ["soft"]"#,
                r#""cells": []"#,
                &["robots[0]", "needs 1 cells"][..],
            ),
            (r#""genome""#, r#""genom""#, &["robots[0]", "genom"][..]),
            (
                r#""duration": 0.01"#,
                r#""duration": -1"#,
                &["evaluation.duration"][..],
            ),
        ] {
            let text = TWO.replacen(from, to, 1);
            let e = PopulationFile::from_json_checked(text.as_bytes(), Path::new("p"))
                .expect_err(to)
                .to_string();
            for w in words {
                assert!(e.contains(w), "{to}: {w:?} not in {e}");
            }
        }
    }
}
