//! `hooke.record`: a GIF of a world's run (and its energy plot) through hooke's renderer.

use std::path::PathBuf;

use hooke::render::{record, RecordOptions};
use pyo3::prelude::*;

use crate::error::{argument, IntoPyResult};
use crate::world::{Backend, PySimulation};

/// Runs `world` for `seconds` and writes the GIF `path` (it must end in `.gif`) with the energy
/// plot `<stem>_energy.png` beside it; frames every `frame_time` s of simulated time, `size`
/// pixels. The GIL is released meanwhile. Returns the paths of the GIF and the plot.
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
    let mut options = RecordOptions::new(dir, stem);
    options.duration = seconds;
    options.frame_time = frame_time;
    options.size = size;
    let mut this = world.borrow_mut();
    let sim = &mut *this;
    let model = &sim.model;
    let summary = py
        .detach(|| match &mut sim.backend {
            Backend::Cpu(w) => record(w.as_mut(), model, &options),
            Backend::Gpu(w) => record(w.as_mut(), model, &options),
        })
        .py()?;
    Ok((summary.gif, summary.plot))
}
