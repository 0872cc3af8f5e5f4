//! POPULATION.json: the evaluation settings and the batch of robots `hooke eval` reads, checked
//! by the library ([`hooke::population::PopulationFile::from_json_checked`]) with errors that
//! name the robot and the field.

use std::path::{Path, PathBuf};

use hooke::population::{EvaluationSpec, RobotEntry};
use hooke::BackendChoice;

/// The whole file, checked: settings and robots.
#[derive(Debug)]
pub(crate) struct PopulationFile {
    /// The evaluation settings ([`EvaluationSpec`], shared with the library and evolution
    /// settings files).
    pub(crate) evaluation: EvaluationSpec,
    /// `evaluation.backend`: the backend to use (`--backend` overrides it; default auto).
    pub(crate) backend: Option<BackendChoice>,
    /// The robots, in file order, each with exactly one of a genome and a scene.
    pub(crate) robots: Vec<RobotEntry>,
    /// Digest of the file's bytes (see [`crate::results_file::digest`]).
    pub(crate) digest: String,
    /// Folder that relative scene paths are resolved against: the file's own.
    pub(crate) base_dir: PathBuf,
}

impl PopulationFile {
    /// Reads and checks `path`. Errors name the file, and the robot (position and id) and
    /// field at fault.
    pub(crate) fn load(path: &Path) -> Result<Self, String> {
        let bytes = crate::input::read(path)?;
        let base_dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        Self::parse(&bytes, path, base_dir)
    }

    /// Checks the contents `bytes` of the population file `path`.
    pub(crate) fn parse(bytes: &[u8], path: &Path, base_dir: PathBuf) -> Result<Self, String> {
        let (file, backend) = hooke::population::PopulationFile::from_json_checked(bytes, path)
            .map_err(|e| match e {
                hooke::Error::SceneVersion { .. } => e.to_string(), // names the file already
                e => format!("{}: {e}", path.display()),
            })?;
        Ok(Self {
            evaluation: file.evaluation,
            backend,
            robots: file.robots,
            digest: crate::results_file::digest(bytes),
            base_dir,
        })
    }
}
