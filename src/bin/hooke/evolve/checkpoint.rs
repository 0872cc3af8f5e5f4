//! `<out>/checkpoint.json`: an evolution between two generations, written after every
//! generation (to a temporary file renamed over the last, so a kill leaves the previous one
//! whole) and read back by `hooke evolve --resume`.

use std::path::Path;

use hooke::population::{Evolution, EvolutionState};
use serde::{Deserialize, Serialize};

use crate::results_file::write_atomically;

/// The checkpoint format this hooke writes and reads.
const VERSION: u32 = 1;

/// The file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Checkpoint {
    /// Format version.
    pub(crate) version: u32,
    /// The settings file's contents the run was started with.
    pub(crate) settings: serde_json::Value,
    /// The backend that ran the generations so far (`"cpu"` or `"gpu"`).
    pub(crate) backend: String,
    /// Its adapter, on the GPU.
    pub(crate) adapter: Option<String>,
    /// Where the run is.
    pub(crate) state: EvolutionState,
}

impl Checkpoint {
    /// Writes the checkpoint to `path` atomically.
    pub(crate) fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self)
            .map_err(|e| format!("cannot encode the checkpoint: {e}"))?;
        write_atomically(path, text.as_bytes())
    }

    /// Reads a checkpoint; errors name the file.
    pub(crate) fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read the checkpoint {}: {e} (run without --resume to start)",
                path.display()
            )
        })?;
        let checkpoint: Self = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a hooke evolve checkpoint: {e}", path.display()))?;
        if checkpoint.version != VERSION {
            return Err(format!(
                "{}: checkpoint version {} is not one this hooke reads (version {VERSION})",
                path.display(),
                checkpoint.version
            ));
        }
        Ok(checkpoint)
    }

    /// A checkpoint of `state`, run with `settings` on `backend` (name and adapter).
    pub(crate) fn new(
        settings: serde_json::Value,
        backend: (&str, Option<String>),
        state: EvolutionState,
    ) -> Self {
        Self {
            version: VERSION,
            settings,
            backend: backend.0.to_owned(),
            adapter: backend.1,
            state,
        }
    }

    /// The state to continue with `settings` (the file's contents now) and `evolution`: the
    /// settings must be the checkpoint's, but `evolution.generations` may have grown. Warns
    /// when the backend or adapter differs (the fitness bits may then differ from an
    /// undisturbed run's).
    pub(crate) fn resume(
        self,
        settings: &serde_json::Value,
        evolution: &Evolution,
        backend: (&str, Option<String>),
    ) -> Result<EvolutionState, String> {
        if without_generations(&self.settings) != without_generations(settings) {
            return Err(
                "the settings are not those the checkpoint was made with (only \
                 evolution.generations may change); run without --resume to start again"
                    .to_owned(),
            );
        }
        if evolution.generations < self.state.generation {
            return Err(format!(
                "the checkpoint has {} generations done; evolution.generations ({}) must be at \
                 least that",
                self.state.generation, evolution.generations
            ));
        }
        if (self.backend.as_str(), &self.adapter) != (backend.0, &backend.1) {
            eprintln!(
                "warning: the checkpoint was made on {} ({}); resuming on {} ({}) may give other \
                 fitness bits than an undisturbed run",
                self.backend,
                self.adapter.as_deref().unwrap_or("no adapter"),
                backend.0,
                backend.1.as_deref().unwrap_or("no adapter"),
            );
        }
        self.state
            .check(evolution)
            .map_err(|e| format!("the checkpoint does not fit the settings: {e}"))?;
        Ok(self.state)
    }
}

/// `settings` without `evolution.generations`.
fn without_generations(settings: &serde_json::Value) -> serde_json::Value {
    let mut s = settings.clone();
    if let Some(e) = s.get_mut("evolution").and_then(|e| e.as_object_mut()) {
        e.remove("generations");
    }
    s
}
