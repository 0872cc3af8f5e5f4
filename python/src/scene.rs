//! `hooke.Scene`: scene files (JSON) read, built from builders, written and turned into models.

use hooke::{BodySpec, Scene};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::IntoPyResult;
use crate::model::{body_kind, params_from, placement, PyModel, Triple};

/// A scene: parameters and bodies (builders with their placements), saved as JSON.
#[pyclass(name = "Scene", module = "hooke")]
#[derive(Clone, Debug)]
pub(crate) struct PyScene {
    scene: Scene,
}

#[pymethods]
impl PyScene {
    /// An empty scene with the parameters of `preset` and the fields given by keyword.
    #[new]
    #[pyo3(signature = (preset=None, **params))]
    fn new(
        py: Python<'_>,
        preset: Option<&str>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        Ok(Self {
            scene: Scene::new(params_from(py, preset, params)?),
        })
    }

    /// Reads a scene file.
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let scene = py.detach(|| Scene::load(&path)).py()?;
        Ok(Self { scene })
    }

    /// A scene from JSON text.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Ok(Self {
            scene: Scene::from_json_str(text).py()?,
        })
    }

    /// The scene as JSON text.
    fn to_json(&self) -> String {
        self.scene.to_json_string()
    }

    /// Writes the scene file.
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        self.scene.save(path).py()
    }

    /// Adds a body a builder makes, placed as `Model.add` places it; returns its index.
    #[pyo3(signature = (name, builder, position=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0)))]
    fn add(
        &mut self,
        name: &str,
        builder: &Bound<'_, PyAny>,
        position: Triple,
        rotation: Triple,
        velocity: Triple,
    ) -> PyResult<usize> {
        let placement = placement(position, rotation, velocity)?;
        Ok(self.scene.push(
            BodySpec::new(body_kind(builder)?)
                .named(name)
                .placed(placement),
        ))
    }

    /// Number of bodies.
    #[getter]
    fn body_count(&self) -> usize {
        self.scene.bodies.len()
    }

    /// The model the scene describes.
    fn to_model(&self, py: Python<'_>) -> PyResult<PyModel> {
        let (model, surfaces) = py
            .detach(|| {
                let model = self.scene.to_model()?;
                let surfaces = self.scene.mesh_surfaces(&model)?;
                Ok::<_, hooke::Error>((model, surfaces))
            })
            .py()?;
        Ok(PyModel { model, surfaces })
    }
}
