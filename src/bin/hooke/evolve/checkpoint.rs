//! `<out>/checkpoint.json`: an evolution between two generations, written after every
//! generation and read back by `hooke evolve --resume`: the library's [`EvolutionCheckpoint`]
//! (format version, checksum, flushed to the disk before it is renamed over the last one,
//! which is kept as `checkpoint.previous.json`), with the settings file's contents.

use std::path::Path;

use hooke::population::{Evolution, EvolutionCheckpoint, EvolutionState};
use hooke::OpenBackend;

/// Writes the checkpoint of `state` (run with `settings`, the settings file's contents, on
/// `backend`) to `path`.
pub(crate) fn save(
    path: &Path,
    evolution: &Evolution,
    settings: &serde_json::Value,
    backend: &OpenBackend,
    state: &EvolutionState,
) -> Result<(), String> {
    EvolutionCheckpoint::new(evolution, Some(settings.clone()), backend, state.clone())
        .save(path)
        .map_err(|e| e.to_string())
}

/// The state to continue from the checkpoint at `path` (or the one before it, when that one is
/// damaged: said on standard error) with `settings` (the file's contents now) and
/// `evolution`: the settings must be the checkpoint's, but `evolution.generations` may have
/// grown. Warns when the backend or adapter differs (the fitness bits may then differ from an
/// undisturbed run's).
pub(crate) fn resume(
    path: &Path,
    settings: &serde_json::Value,
    evolution: &Evolution,
    backend: &OpenBackend,
) -> Result<EvolutionState, String> {
    let (checkpoint, refused) = EvolutionCheckpoint::load_latest(path)
        .map_err(|e| format!("{e} (run without --resume to start again)"))?;
    if let Some(e) = refused {
        eprintln!(
            "{e}\nresuming from {} instead",
            EvolutionCheckpoint::previous_path(path).display()
        );
    }
    if checkpoint.settings.as_ref().map(without_generations) != Some(without_generations(settings))
    {
        return Err(
            "the settings are not those the checkpoint was made with (only \
             evolution.generations may change); run without --resume to start again"
                .to_owned(),
        );
    }
    let ran_on = (backend.name(), backend.adapter());
    if (checkpoint.backend.as_str(), &checkpoint.adapter) != (ran_on.0, &ran_on.1) {
        eprintln!(
            "warning: the checkpoint was made on {} ({}); resuming on {} ({}) may give other \
             fitness bits than an undisturbed run",
            checkpoint.backend,
            checkpoint.adapter.as_deref().unwrap_or("no adapter"),
            ran_on.0,
            ran_on.1.as_deref().unwrap_or("no adapter"),
        );
    }
    checkpoint
        .resume(evolution)
        .map_err(|e| format!("the checkpoint does not fit the settings: {e}"))
}

/// `settings` without `evolution.generations`.
fn without_generations(settings: &serde_json::Value) -> serde_json::Value {
    let mut s = settings.clone();
    if let Some(e) = s.get_mut("evolution").and_then(|e| e.as_object_mut()) {
        e.remove("generations");
    }
    s
}
