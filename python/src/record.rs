//! `hooke.record`: a GIF of a world's run (and its energy plot) through hooke's renderer;
//! `hooke.frames`: the same run's frames as PNG files.

use std::path::PathBuf;

use hooke::render::{record, RecordOptions, RecordingSummary};
use pyo3::prelude::*;

use crate::error::{argument, IntoPyResult};
use crate::world::{Backend, PySimulation};

/// Runs `world` for `seconds` and writes the GIF `path` (it must end in `.gif`) with the energy
/// plot `<stem>_energy.png` beside it; frames every `frame_time` s of simulated time, `size`
/// pixels. The GIL is released meanwhile. Returns the paths of the GIF and the plot. Mesh bodies
/// (added as `hooke.MeshBody` or from a scene file) are shaded with their meshes' own triangles.
#[pyfunction]
#[pyo3(name = "record", signature = (world, path, seconds=2.0, *, frame_time=0.04, size=(480, 360)))]
pub(crate) fn record_gif(
    py: Python<'_>,
    world: &Bound<'_, PySimulation>,
    path: PathBuf,
    seconds: f64,
    frame_time: f64,
    size: (u32, u32),
) -> PyResult<(PathBuf, PathBuf)> {
    let stem = match (path.extension(), path.file_stem()) {
        (Some(ext), Some(stem)) if ext == "gif" => stem.to_string_lossy().into_owned(),
        _ => {
            return Err(argument(format!(
                "path {}: must name a .gif file",
                path.display()
            )))
        }
    };
    let dir = path.parent().map(PathBuf::from).unwrap_or_default();
    let options = RecordOptions {
        duration: seconds,
        frame_time,
        size,
        ..RecordOptions::new(dir, stem)
    };
    let summary = run(py, world, &options)?;
    Ok((summary.gif, summary.plot))
}

/// Runs `world` for `seconds` and writes one PNG file of `size` pixels every `every` s of
/// simulated time (frame 0 the start) into the folder `directory` (created), named
/// `<stem>_00000.png`, `<stem>_00001.png`, ...; the GIF `<stem>.gif` and energy plot
/// `<stem>_energy.png` of the same run are written beside them. The GIL is released meanwhile.
/// Returns the PNG paths in order.
#[pyfunction]
#[pyo3(signature = (world, directory, seconds=2.0, *, every=0.04, size=(480, 360), stem="frame"))]
pub(crate) fn frames(
    py: Python<'_>,
    world: &Bound<'_, PySimulation>,
    directory: PathBuf,
    seconds: f64,
    every: f64,
    size: (u32, u32),
    stem: &str,
) -> PyResult<Vec<PathBuf>> {
    if stem.is_empty() || stem.contains(['/', '\\']) {
        return Err(argument(format!(
            "stem {stem:?}: must be a file-name stem (not empty, no folder)"
        )));
    }
    let options = RecordOptions {
        duration: seconds,
        frame_time: every,
        size,
        png_frames: true,
        ..RecordOptions::new(directory, stem)
    };
    Ok(run(py, world, &options)?.pngs)
}

/// [`record`] of `world` with `options`, the GIL released.
fn run(
    py: Python<'_>,
    world: &Bound<'_, PySimulation>,
    options: &RecordOptions,
) -> PyResult<RecordingSummary> {
    let mut this = world.borrow_mut();
    let sim = &mut *this;
    let model = &sim.model;
    // Mesh bodies are shaded with their meshes' own triangles.
    let options = RecordOptions {
        surfaces: sim.surfaces.clone(),
        ..options.clone()
    };
    py.detach(|| match &mut sim.backend {
        Backend::Cpu(w) => record(w.as_mut(), model, &options),
        Backend::Gpu(w) => record(w.as_mut(), model, &options),
    })
    .py()
}
