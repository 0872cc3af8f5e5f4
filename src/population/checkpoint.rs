//! [`EvolutionCheckpoint`]: an [`Evolution`] between two generations as a file that a kill at
//! any moment leaves whole (written to a temporary file, flushed to the disk, renamed), with a
//! format version and a checksum, the last one kept beside it; and
//! [`Evolution::run_on_checkpointed`], the run that writes one after every generation and
//! resumes from it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use xxhash_rust::xxh3::xxh3_64;

use super::{Evolution, EvolutionState, Evolved, GenerationStats};
use crate::backend_choice::OpenBackend;
use crate::error::{Error, Result};
use crate::snapshot::{load_latest, previous_path, read_named, save_keeping_previous};

/// The `"format"` field of a checkpoint file.
const FORMAT: &str = "hooke evolution checkpoint";

/// An evolution between two generations, with what it ran with: what a checkpoint file holds.
///
/// # The file (version 2)
///
/// JSON: `{"format": "hooke evolution checkpoint", "version": 2, "checksum": "<16 hex
/// digits>", "checkpoint": {...}}`, where the checksum is XXH3-64 (seed 0) of the exact text of
/// the `"checkpoint"` value as it stands in the file, and the checkpoint holds the fields of
/// [`EvolutionCheckpoint`]. Saving renames the file it replaces to
/// [`EvolutionCheckpoint::previous_path`] first, so a checkpoint damaged after it was written
/// (a copy cut short, a disk that lost its last writes) still leaves the generation before it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolutionCheckpoint {
    /// The evolution's settings.
    pub evolution: Evolution,
    /// The caller's own description of the run, kept as it is (`hooke evolve`: its settings
    /// file); `None` when there is none.
    pub settings: Option<serde_json::Value>,
    /// The backend that ran the generations so far ([`OpenBackend::name`]: `"cpu"`, `"gpu"`).
    pub backend: String,
    /// Its adapter on the GPU ([`OpenBackend::adapter`]).
    pub adapter: Option<String>,
    /// Where the run is.
    pub state: EvolutionState,
}

/// The file's top level as read: every field optional, so that what is missing is named.
#[derive(Deserialize)]
struct Envelope<'a> {
    format: Option<String>,
    version: Option<u32>,
    checksum: Option<String>,
    #[serde(borrow)]
    checkpoint: Option<&'a RawValue>,
}

impl EvolutionCheckpoint {
    /// The file format version this hooke writes and reads (version 1, without a checksum,
    /// is refused).
    pub const FORMAT_VERSION: u32 = 2;

    /// A checkpoint of `state`, run with `evolution` (and the caller's `settings`) on `backend`.
    #[must_use]
    pub fn new(
        evolution: &Evolution,
        settings: Option<serde_json::Value>,
        backend: &OpenBackend,
        state: EvolutionState,
    ) -> Self {
        Self {
            evolution: evolution.clone(),
            settings,
            backend: backend.name().to_owned(),
            adapter: backend.adapter(),
            state,
        }
    }

    /// The file's text (see [`EvolutionCheckpoint`]).
    #[must_use]
    pub fn to_json(&self) -> String {
        let body = serde_json::to_string(self).expect("a checkpoint serialises");
        format!(
            "{{\"format\":\"{FORMAT}\",\"version\":{},\"checksum\":\"{:016x}\",\"checkpoint\":{body}}}\n",
            Self::FORMAT_VERSION,
            xxh3_64(body.as_bytes())
        )
    }

    /// Reads the text of [`EvolutionCheckpoint::to_json`]; errors name `origin`.
    ///
    /// # Errors
    /// [`Error::Snapshot`] naming what is wrong: truncated, not JSON, not a checkpoint, another
    /// format version, no or a wrong checksum (corrupted), fields that do not read.
    pub fn from_json(text: &str, origin: &str) -> Result<Self> {
        let error = |reason: String| Error::Snapshot {
            origin: origin.to_owned(),
            reason,
        };
        if text.trim().is_empty() {
            return Err(error("empty: not a checkpoint".into()));
        }
        let envelope: Envelope<'_> = serde_json::from_str(text).map_err(|e| {
            if e.is_eof() {
                error(format!("truncated: its JSON ends early ({e})"))
            } else {
                error(format!("corrupted or not a checkpoint: {e}"))
            }
        })?;
        let version = envelope
            .version
            .ok_or_else(|| error("not a hooke evolution checkpoint (no \"version\")".into()))?;
        if version != Self::FORMAT_VERSION {
            return Err(error(format!(
                "checkpoint version {version}; this hooke reads version {}",
                Self::FORMAT_VERSION
            )));
        }
        if envelope.format.as_deref() != Some(FORMAT) {
            return Err(error(format!(
                "not a hooke evolution checkpoint (\"format\" is not {FORMAT:?})"
            )));
        }
        let (Some(sum), Some(body)) = (envelope.checksum, envelope.checkpoint) else {
            return Err(error("it has no \"checksum\" or no \"checkpoint\"".into()));
        };
        let computed = format!("{:016x}", xxh3_64(body.get().as_bytes()));
        if sum != computed {
            return Err(error(format!(
                "corrupted: its checksum is {sum}, its checkpoint's text gives {computed}"
            )));
        }
        serde_json::from_str(body.get()).map_err(|e| error(format!("checkpoint: {e}")))
    }

    /// Where [`EvolutionCheckpoint::save`] keeps the checkpoint it replaces:
    /// `checkpoint.json` -> `checkpoint.previous.json`.
    #[must_use]
    pub fn previous_path(path: &Path) -> PathBuf {
        previous_path(path)
    }

    /// Writes the checkpoint to `path`: the file there (if any) renamed to
    /// [`EvolutionCheckpoint::previous_path`], then the new text written to a temporary file
    /// beside it, flushed to the disk and renamed to `path`. A kill at any moment leaves a
    /// whole checkpoint at one of the two paths.
    ///
    /// # Errors
    /// [`Error::Snapshot`] naming the file and the step that failed.
    pub fn save(&self, path: &Path) -> Result<()> {
        let error = |reason: String| Error::Snapshot {
            origin: format!("checkpoint {}", path.display()),
            reason,
        };
        save_keeping_previous(path, self.to_json().as_bytes()).map_err(error)
    }

    /// Reads the checkpoint at `path`.
    ///
    /// # Errors
    /// As [`EvolutionCheckpoint::from_json`], naming the file; a file that cannot be read.
    pub fn load(path: &Path) -> Result<Self> {
        let origin = format!("checkpoint {}", path.display());
        let text = read_named(path, &origin)?;
        let text = String::from_utf8(text).map_err(|e| Error::Snapshot {
            origin: origin.clone(),
            reason: format!("corrupted: not UTF-8 text ({e})"),
        })?;
        Self::from_json(&text, &origin)
    }

    /// Reads the checkpoint at `path`, or when that one is missing or refused, the one it
    /// replaced ([`EvolutionCheckpoint::previous_path`]). Returns the checkpoint and, when it
    /// is the previous one, why the latest was refused.
    ///
    /// # Errors
    /// Both refusals, when neither reads.
    pub fn load_latest(path: &Path) -> Result<(Self, Option<Error>)> {
        load_latest(path, Self::load)
    }

    /// The state to continue with `evolution`, whose settings must be the checkpoint's but for
    /// [`Evolution::generations`], which may have grown.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] (`"evolution checkpoint"`) naming what does not fit.
    pub fn resume(self, evolution: &Evolution) -> Result<EvolutionState> {
        let error = |reason: String| Error::InvalidBuilder {
            builder: "evolution checkpoint",
            reason,
        };
        let saved = Evolution {
            generations: evolution.generations,
            ..self.evolution.clone()
        };
        let json = |e: &Evolution| serde_json::to_value(e).expect("settings serialise");
        if json(&saved) != json(evolution) {
            return Err(error(
                "its settings are not these (only evolution.generations may change)".into(),
            ));
        }
        if evolution.generations < self.state.generation {
            return Err(error(format!(
                "it has {} generations done; evolution.generations ({}) must be at least that",
                self.state.generation, evolution.generations
            )));
        }
        self.state.check(evolution)?;
        Ok(self.state)
    }
}

impl Evolution {
    /// [`Evolution::run_on`] with a checkpoint written to `checkpoint` after every generation
    /// ([`EvolutionCheckpoint::save`]). With `resume`, the run continues from the checkpoint
    /// there (or the one before it, when it is damaged: [`EvolutionCheckpoint::load_latest`])
    /// and ends with the champion and history of a run that was never stopped (wall times
    /// aside), however it was stopped; without, it starts from generation 0.
    ///
    /// # Errors
    /// As [`Evolution::run`]; [`Error::Snapshot`] when no checkpoint reads or one cannot be
    /// written; [`EvolutionCheckpoint::resume`]'s errors.
    pub fn run_on_checkpointed(
        &self,
        backend: &OpenBackend,
        checkpoint: &Path,
        resume: bool,
        mut observe: impl FnMut(&GenerationStats),
    ) -> Result<Evolved> {
        let mut state = if resume {
            let (saved, refused) = EvolutionCheckpoint::load_latest(checkpoint)?;
            if let Some(e) = refused {
                log::warn!("{e}; resuming from the checkpoint before it");
            }
            saved.resume(self)?
        } else {
            self.start()?
        };
        let mut evaluate =
            |p: &super::Population, e: &super::Evaluation| p.evaluate(e).on(backend).run();
        while !state.finished(self) {
            self.next_generation(&mut state, &mut evaluate)?;
            EvolutionCheckpoint::new(self, None, backend, state.clone()).save(checkpoint)?;
            if let Some(stats) = state.evolved.history.last() {
                observe(stats);
            }
        }
        Ok(state.evolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint() -> EvolutionCheckpoint {
        let evolution = Evolution {
            population: 4,
            size: [2, 2, 1],
            ..Evolution::default()
        };
        let state = evolution.start().unwrap();
        EvolutionCheckpoint {
            evolution,
            settings: Some(serde_json::json!({ "any": [1, 2.5] })),
            backend: "cpu".into(),
            adapter: None,
            state,
        }
    }

    fn refusal(text: &str) -> String {
        let e = EvolutionCheckpoint::from_json(text, "checkpoint c.json").unwrap_err();
        assert!(matches!(e, Error::Snapshot { .. }), "{e:?}");
        let said = e.to_string();
        assert!(said.starts_with("checkpoint c.json: "), "{said}");
        said
    }

    #[test]
    fn the_text_reads_back_and_a_damaged_one_is_refused_by_name() {
        let c = checkpoint();
        let text = c.to_json();
        let back = EvolutionCheckpoint::from_json(&text, "c").unwrap();
        assert_eq!(
            (back.state, back.settings),
            (c.state.clone(), c.settings.clone())
        );
        for cut in [1, text.len() / 3, text.len() - 3] {
            assert!(refusal(&text[..cut]).contains("truncated"), "cut at {cut}");
        }
        assert!(refusal("").contains("empty"));
        assert!(refusal("not json").contains("not a checkpoint"));
        // A digit of the body changed: still JSON, and the checksum says so.
        let at = text.find("\"rng_word_pos\":").unwrap() + 15;
        let mut bad = text.clone().into_bytes();
        bad[at] = if bad[at] == b'7' { b'8' } else { b'7' };
        let said = refusal(std::str::from_utf8(&bad).unwrap());
        assert!(said.contains("corrupted: its checksum is"), "{said}");
        let v1 = text.replacen("\"version\":2", "\"version\":1", 1);
        assert!(refusal(&v1).contains("checkpoint version 1; this hooke reads version 2"));
        let old =
            r#"{"version": 1, "settings": {}, "backend": "cpu", "adapter": null, "state": {}}"#;
        assert!(refusal(old).contains("checkpoint version 1"));
        let unsummed = text.replacen("\"checksum\"", "\"sum\"", 1);
        assert!(refusal(&unsummed).contains("no \"checksum\""));
    }

    #[test]
    fn saving_keeps_the_last_checkpoint_which_a_damaged_latest_falls_back_to() {
        let dir = std::env::temp_dir().join(format!("hooke-checkpoint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("checkpoint.json");
        let mut c = checkpoint();
        c.save(&path).unwrap();
        assert!(!EvolutionCheckpoint::previous_path(&path).exists());
        c.state.rng_word_pos += 1;
        c.save(&path).unwrap();
        let previous = EvolutionCheckpoint::previous_path(&path);
        assert_eq!(previous, dir.join("checkpoint.previous.json"));
        let (latest, refused) = EvolutionCheckpoint::load_latest(&path).unwrap();
        assert_eq!(
            (latest.state.rng_word_pos, refused.is_none()),
            (c.state.rng_word_pos, true)
        );
        let text = std::fs::read(&path).unwrap();
        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        let (older, refused) = EvolutionCheckpoint::load_latest(&path).unwrap();
        assert_eq!(older.state.rng_word_pos, c.state.rng_word_pos - 1);
        assert!(refused.unwrap().to_string().contains("truncated"));
        std::fs::remove_file(&previous).unwrap();
        let said = EvolutionCheckpoint::load_latest(&path)
            .unwrap_err()
            .to_string();
        assert!(
            said.contains("truncated") && said.contains("cannot read it"),
            "{said}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn resume_refuses_other_settings_and_takes_more_generations() {
        let c = checkpoint();
        let more = Evolution {
            generations: c.evolution.generations + 5,
            ..c.evolution.clone()
        };
        assert_eq!(c.clone().resume(&more).unwrap(), c.state);
        let other = Evolution {
            seed: c.evolution.seed + 1,
            ..c.evolution.clone()
        };
        let said = c.resume(&other).unwrap_err().to_string();
        assert!(
            said.contains("only evolution.generations may change"),
            "{said}"
        );
    }
}
