//! Files the pure-Python part reads (population and settings files), read by hooke's
//! [`read_input`](hooke::read_input): the same size limit as every other reader.

use std::path::PathBuf;

use pyo3::prelude::*;

use crate::error::{raise, IntoPyResult};

/// The text of the input file `path`, refused above the input-file size limit.
#[pyfunction]
pub(crate) fn read_input_text(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    let bytes = py.detach(|| hooke::read_input(&path)).py()?;
    String::from_utf8(bytes).map_err(|e| {
        raise(
            "SceneIoError",
            format!("{}: not UTF-8 text: {e}", path.display()),
        )
    })
}

/// The size limit on input files, bytes (`HOOKE_MAX_INPUT_BYTES`, else 64 MiB).
#[pyfunction]
pub(crate) fn max_input_bytes() -> PyResult<u64> {
    hooke::max_input_bytes().py()
}
