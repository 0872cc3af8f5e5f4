//! `hooke.Material`: Young's modulus, density and damping ratio, hooke's own [`Material`] (its
//! checks and its table of named materials), accepted by the builders' `material=`.

use hooke::Material;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::IntoPyResult;

/// An isotropic elastic solid: Young's modulus (Pa), density (kg/m^3), damping ratio.
#[pyclass(name = "Material", module = "hooke", frozen, eq)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PyMaterial {
    material: Material,
}

#[pymethods]
impl PyMaterial {
    /// A material of `young_modulus` Pa, `density` kg/m^3 and `damping_ratio`, checked.
    #[new]
    #[pyo3(signature = (young_modulus, density, damping_ratio=0.0))]
    fn new(young_modulus: f64, density: f64, damping_ratio: f64) -> PyResult<Self> {
        let material = Material::new(young_modulus, density).with_damping_ratio(damping_ratio);
        material.validate().py()?;
        Ok(Self { material })
    }

    /// A material of hooke's table by name, undamped.
    #[staticmethod]
    fn named(name: &str) -> PyResult<Self> {
        Ok(Self {
            material: Material::named(name).py()?,
        })
    }

    /// The names `named` knows.
    #[staticmethod]
    fn names() -> Vec<&'static str> {
        Material::names()
    }

    /// Young's modulus, Pa.
    #[getter]
    fn young_modulus(&self) -> f64 {
        self.material.young_modulus
    }

    /// Density, kg/m^3.
    #[getter]
    fn density(&self) -> f64 {
        self.material.density
    }

    /// Damping ratio of each bond (1 = critical).
    #[getter]
    fn damping_ratio(&self) -> f64 {
        self.material.damping_ratio
    }

    /// The same material with damping ratio `zeta`, checked.
    fn with_damping_ratio(&self, zeta: f64) -> PyResult<Self> {
        let material = self.material.with_damping_ratio(zeta);
        material.validate().py()?;
        Ok(Self { material })
    }

    /// Stiffness (N/m) of a cubic lattice's edge, face-diagonal and body-diagonal springs at
    /// `spacing` m inside a solid of this material.
    fn cubic_stiffness(&self, spacing: f64) -> PyResult<(f64, f64, f64)> {
        let k = self.material.cubic_stiffness(spacing).py()?;
        Ok((k.edge, k.face_diagonal, k.body_diagonal))
    }

    /// The material as a scene file writes it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("young_modulus", self.material.young_modulus)?;
        dict.set_item("density", self.material.density)?;
        dict.set_item("damping_ratio", self.material.damping_ratio)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        let m = &self.material;
        format!(
            "Material(young_modulus={:?}, density={:?}, damping_ratio={:?})",
            m.young_modulus, m.density, m.damping_ratio
        )
    }
}
