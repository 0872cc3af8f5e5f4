//! Loading a scene file, with errors that name the file.

use std::path::Path;

use hooke::{Model, Scene};

/// Reads `path` and builds its model. Errors name the file, and the field and value as the
/// scene parser and the model checks report them.
pub(crate) fn load(path: &Path) -> Result<(Scene, Model), String> {
    // Scene::load's errors already name the file (and line and column for JSON errors).
    let scene = Scene::load(path).map_err(|e| e.to_string())?;
    let model = scene
        .to_model()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((scene, model))
}
