//! results.json: what `hooke eval` writes and `hooke merge` reads, and the atomic write both use.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// A results file: one entry per evaluated robot, in input order, and what produced them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Results {
    /// The hooke version that wrote the file.
    pub(crate) hooke: String,
    /// The backend that ran the robots: `"gpu"` or `"cpu"`.
    pub(crate) backend: String,
    /// The GPU adapter (name, backend, device type, driver); `None` on the CPU.
    pub(crate) adapter: Option<String>,
    /// Digest of the POPULATION.json bytes (`fnv1a64:` and 16 hex digits): shares of one
    /// population carry the same one.
    pub(crate) input: String,
    /// Number of robots in POPULATION.json.
    pub(crate) robots_in_input: usize,
    /// The positions in POPULATION.json's list this file covers, `[first, end)`; after a merge
    /// of every share, `[0, robots_in_input]`.
    pub(crate) share: [usize; 2],
    /// One entry per robot of the share, by position.
    pub(crate) results: Vec<RobotEntry>,
}

/// One robot's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RobotEntry {
    /// Position of the robot in POPULATION.json's `robots`, from 0.
    pub(crate) index: usize,
    /// The robot's id.
    pub(crate) id: String,
    /// Its fitness (for the distance fitness, m); `None` when it failed.
    pub(crate) fitness: Option<f64>,
    /// Why it failed (blow-up, non-finite state, fixed-point overflow, ...); `None` when it did
    /// not.
    pub(crate) failure: Option<String>,
    /// Wall time of the World run the robot was part of, s (shared by the robots of that World:
    /// the whole share, on either backend).
    pub(crate) wall_time_s: f64,
}

/// 64-bit FNV-1a of `bytes`, as `fnv1a64:` and 16 hex digits: a digest to tell input files
/// apart (not a cryptographic hash).
pub(crate) fn digest(bytes: &[u8]) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let hash = bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME));
    format!("fnv1a64:{hash:016x}")
}

impl Results {
    /// Reads a results file; errors name it.
    pub(crate) fn load(path: &Path) -> Result<Self, String> {
        let text = crate::input::read_text(path)?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a hooke results file: {e}", path.display()))
    }

    /// Writes the file to `path` atomically (see [`write_atomically`]).
    pub(crate) fn save(&self, path: &Path) -> Result<(), String> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| format!("cannot encode the results: {e}"))?;
        text.push('\n');
        write_atomically(path, text.as_bytes())
    }
}

/// Writes `bytes` to `path` so that no reader ever sees a partial file and concurrent writers
/// never mix: into a temporary file in the same folder (named after this process), then renamed
/// over `path` (atomic on one file system) once flushed to the disk. Folders are created.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    hooke::snapshot::write_durably(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_fnv1a64() {
        // Reference values of 64-bit FNV-1a (the empty string is the offset basis).
        assert_eq!(digest(b""), "fnv1a64:cbf29ce484222325");
        assert_eq!(digest(b"a"), "fnv1a64:af63dc4c8601ec8c");
    }

    #[test]
    fn results_round_trip_with_exact_fitness_bits() {
        let dir = std::env::temp_dir().join(format!("hooke_results_{}", std::process::id()));
        let path = dir.join("r.json");
        let results = Results {
            hooke: "0.1.0".into(),
            backend: "cpu".into(),
            adapter: None,
            input: digest(b"x"),
            robots_in_input: 2,
            share: [0, 2],
            results: vec![
                RobotEntry {
                    index: 0,
                    id: "a".into(),
                    fitness: Some(0.1 + 0.2),
                    failure: None,
                    wall_time_s: 1.5,
                },
                RobotEntry {
                    index: 1,
                    id: "b".into(),
                    fitness: None,
                    failure: Some("blew up".into()),
                    wall_time_s: 1.5,
                },
            ],
        };
        results.save(&path).unwrap();
        let back = Results::load(&path).unwrap();
        assert_eq!(back, results);
        assert_eq!(
            back.results[0].fitness.unwrap().to_bits(),
            (0.1_f64 + 0.2).to_bits()
        );
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
