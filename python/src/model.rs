//! `hooke.Model`: models from numpy arrays and from builders, and the parameters and
//! placements `hooke.Scene` shares.

use hooke::render::MeshSurface;
use hooke::{BodyKind, Mass, Model, Params, Part, Placement, Spring};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyRange};

use crate::arrays::{
    flags, indices, reals, reals_or_scalar, to_vectors, vector_out, vectors_out, Shape,
};
use crate::error::{argument, raise, IntoPyResult};

/// `value` with the keys of `over` put in, objects merged key by key.
fn merge(value: &mut serde_json::Value, over: serde_json::Value) {
    match (value, over) {
        (serde_json::Value::Object(base), serde_json::Value::Object(over)) => {
            for (key, v) in over {
                merge(base.entry(key).or_insert(serde_json::Value::Null), v);
            }
        }
        (slot, v) => *slot = v,
    }
}

/// A Python object as JSON (through the `json` module), for serde.
pub(crate) fn json_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (obj,))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| argument(format!("not JSON: {e}")))
}

/// Parameters: a preset (`"lipson_cube"`, the default, `"robots"` or `"cloth"`) with the
/// fields of `overrides` (the scene file's names) put in.
pub(crate) fn params_from(
    py: Python<'_>,
    preset: Option<&str>,
    overrides: Option<&Bound<'_, PyDict>>,
) -> PyResult<Params> {
    let base = match preset.unwrap_or("lipson_cube") {
        "lipson_cube" => Params::lipson_cube(),
        "robots" => Params::robots(),
        "cloth" => Params::cloth(),
        other => {
            return Err(argument(format!(
                "preset {other:?}: expected \"lipson_cube\", \"robots\" or \"cloth\""
            )))
        }
    };
    params_over(py, base, overrides)
}

/// Parameters: `base` with the fields of `overrides` (the scene file's names) put in.
pub(crate) fn params_over(
    py: Python<'_>,
    base: Params,
    overrides: Option<&Bound<'_, PyDict>>,
) -> PyResult<Params> {
    let mut json = serde_json::to_value(base).map_err(|e| argument(format!("params: {e}")))?;
    if let Some(over) = overrides {
        merge(&mut json, json_of(py, over.as_any())?);
    }
    let params: Params =
        serde_json::from_value(json).map_err(|e| argument(format!("params: {e}")))?;
    params.validate().py()?;
    Ok(params)
}

/// What a builder object of `hooke` (`Cube`, `Rope`, ...) describes, read from its JSON.
pub(crate) fn body_kind(builder: &Bound<'_, PyAny>) -> PyResult<BodyKind> {
    let kind: String = builder.getattr("_type")?.extract()?;
    let text: String = builder.call_method0("_body_json")?.extract()?;
    serde_json::from_str(&text).map_err(|e| raise("InvalidBuilderError", format!("{kind}: {e}")))
}

/// A placement from three 3-tuples: position (m), rotation vector (rad), velocity (m/s).
pub(crate) type Triple = (f64, f64, f64);

pub(crate) fn placement(
    position: Triple,
    rotation: Triple,
    velocity: Triple,
) -> PyResult<Placement> {
    let v = |t: Triple| glam::DVec3::new(t.0, t.1, t.2);
    let placement = Placement::at(v(position))
        .with_rotation(v(rotation))
        .with_velocity(v(velocity));
    placement.validate().py()?;
    Ok(placement)
}

/// A body as Python sees it: name, mass index range, spring index range.
type BodyRanges<'py> = (String, Bound<'py, PyRange>, Bound<'py, PyRange>);

/// A model: masses, springs, actuators and parameters, in SI units (m, kg, s, N/m, N*s/m).
#[pyclass(name = "Model", module = "hooke")]
#[derive(Clone, Debug)]
pub(crate) struct PyModel {
    pub(crate) model: Model,
    /// The surfaces of its mesh bodies (drawn by `hooke.record` and `hooke.frames`).
    pub(crate) surfaces: Vec<MeshSurface>,
}

#[pymethods]
impl PyModel {
    /// An empty model with the parameters of `preset` and the fields given by keyword.
    #[new]
    #[pyo3(signature = (preset=None, **params))]
    fn new(
        py: Python<'_>,
        preset: Option<&str>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        Ok(Self {
            model: Model::new(params_from(py, preset, params)?),
            surfaces: Vec::new(),
        })
    }

    /// A model of one body made from arrays (see `add_arrays`).
    #[staticmethod]
    #[pyo3(signature = (positions, masses, springs, stiffness, damping, rest_lengths=None, *, velocities=None, fixed=None, name="body", preset=None, **params))]
    #[allow(clippy::too_many_arguments)]
    fn from_arrays(
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        masses: &Bound<'_, PyAny>,
        springs: &Bound<'_, PyAny>,
        stiffness: &Bound<'_, PyAny>,
        damping: &Bound<'_, PyAny>,
        rest_lengths: Option<&Bound<'_, PyAny>>,
        velocities: Option<&Bound<'_, PyAny>>,
        fixed: Option<&Bound<'_, PyAny>>,
        name: &str,
        preset: Option<&str>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut model = Self::new(py, preset, params)?;
        model.add_arrays(
            py,
            name,
            positions,
            masses,
            springs,
            stiffness,
            damping,
            rest_lengths,
            velocities,
            fixed,
        )?;
        Ok(model)
    }

    /// Adds a body made from arrays and returns its index.
    #[pyo3(signature = (name, positions, masses, springs, stiffness, damping, rest_lengths=None, velocities=None, fixed=None))]
    #[allow(clippy::too_many_arguments)]
    fn add_arrays(
        &mut self,
        py: Python<'_>,
        name: &str,
        positions: &Bound<'_, PyAny>,
        masses: &Bound<'_, PyAny>,
        springs: &Bound<'_, PyAny>,
        stiffness: &Bound<'_, PyAny>,
        damping: &Bound<'_, PyAny>,
        rest_lengths: Option<&Bound<'_, PyAny>>,
        velocities: Option<&Bound<'_, PyAny>>,
        fixed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let positions = to_vectors(&reals(py, "positions", positions, Shape::new(None, 3))?);
        let n = positions.len();
        let masses = reals(py, "masses", masses, Shape::new(Some(n), 0))?;
        let pairs = indices(
            py,
            "springs",
            springs,
            Shape::new(None, 2),
            Some((n, "positions")),
        )?;
        let m = pairs.len() / 2;
        let stiffness = reals_or_scalar(py, "stiffness", stiffness, m)?;
        let damping = reals_or_scalar(py, "damping", damping, m)?;
        let rest = rest_lengths
            .map(|r| reals(py, "rest_lengths", r, Shape::new(Some(m), 0)))
            .transpose()?;
        let velocities = match velocities {
            Some(v) => to_vectors(&reals(py, "velocities", v, Shape::new(Some(n), 3))?),
            None => vec![glam::DVec3::ZERO; n],
        };
        let fixed = match fixed {
            Some(f) => flags(py, "fixed", f, n)?,
            None => vec![false; n],
        };
        let mut part = Part::new();
        for i in 0..n {
            let mass = Mass::new(masses[i], positions[i]).with_velocity(velocities[i]);
            part.add_mass(if fixed[i] { mass.fixed() } else { mass });
        }
        for s in 0..m {
            let (a, b) = (pairs[2 * s], pairs[2 * s + 1]);
            let length = rest
                .as_ref()
                .map_or_else(|| positions[a].distance(positions[b]), |r| r[s]);
            let (a, b) = (index_u32(a)?, index_u32(b)?);
            part.add_spring(Spring::hooke(a, b, stiffness[s], length).with_damping(damping[s]));
        }
        self.add_part(name, part)
    }

    /// Adds the body a builder (`hooke.Cube(...)`, `hooke.Rope(...)`, ...) makes, placed:
    /// rotated by `rotation` (a rotation vector, rad) about its local origin, moved to
    /// `position` (m), given `velocity` (m/s). Returns the body's index.
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
        let kind = body_kind(builder)?;
        let mut part = kind.build(None).py()?;
        placement.apply(&mut part).py()?;
        // A mesh body is drawn with its mesh's triangles, a tetrahedral mesh body with its
        // boundary, riding on the masses added next.
        let first = index_u32(self.model.masses.len())?;
        let surface = match &kind {
            BodyKind::Mesh(mesh) => Some(mesh.surface(first).py()?),
            BodyKind::TetMesh(mesh) => Some(mesh.surface(first).py()?),
            _ => None,
        };
        let body = self.add_part(name, part)?;
        self.surfaces.extend(surface);
        Ok(body)
    }

    /// Number of masses.
    #[getter]
    fn mass_count(&self) -> usize {
        self.model.masses.len()
    }

    /// Number of springs.
    #[getter]
    fn spring_count(&self) -> usize {
        self.model.springs.len()
    }

    /// Time step, s.
    #[getter]
    fn dt(&self) -> f64 {
        self.model.params.dt
    }

    /// The bodies as `(name, masses, springs)`, the index ranges of each.
    fn bodies<'py>(&self, py: Python<'py>) -> PyResult<Vec<BodyRanges<'py>>> {
        self.model
            .bodies
            .iter()
            .map(|b| {
                let range =
                    |r: &std::ops::Range<usize>| PyRange::new(py, r.start as isize, r.end as isize);
                Ok((b.name.clone(), range(&b.masses)?, range(&b.springs)?))
            })
            .collect()
    }

    /// Initial positions, `(N, 3)` m.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let p: Vec<glam::DVec3> = self.model.masses.iter().map(|m| m.position).collect();
        vectors_out(py, &p)
    }

    /// Masses, `(N,)` kg.
    fn masses<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector_out(py, self.model.masses.iter().map(|m| m.mass).collect())
    }

    /// The masses each spring joins, `(M, 2)` int64.
    fn springs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let flat: Vec<i64> = self
            .model
            .springs
            .iter()
            .flat_map(|s| [i64::from(s.a), i64::from(s.b)])
            .collect();
        numpy::PyArrayMethods::reshape(&vector_out(py, flat), [self.model.springs.len(), 2])
    }

    /// Rest lengths, `(M,)` m.
    fn rest_lengths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector_out(
            py,
            self.model.springs.iter().map(|s| s.rest_length).collect(),
        )
    }

    /// Stiffness of each spring, `(M,)` N/m (N for the material law).
    fn stiffness<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector_out(py, self.model.springs.iter().map(|s| s.stiffness).collect())
    }

    /// Axial damping of each spring, `(M,)` N*s/m (a material's from its damping ratio).
    fn damping<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector_out(py, self.model.springs.iter().map(|s| s.damping).collect())
    }

    /// The parameters as a dict of the scene file's fields.
    fn params(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let text =
            serde_json::to_string(&self.model.params).map_err(|e| argument(e.to_string()))?;
        Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
    }

    fn __repr__(&self) -> String {
        format!(
            "Model({} masses, {} springs, {} bodies, dt={} s)",
            self.model.masses.len(),
            self.model.springs.len(),
            self.model.bodies.len(),
            self.model.params.dt
        )
    }
}

impl PyModel {
    /// Adds `part` as body `name` if the model stays valid; hooke's error otherwise (the model
    /// unchanged).
    fn add_part(&mut self, name: &str, part: Part) -> PyResult<usize> {
        let mut model = self.model.clone();
        let body = model.add(name, part);
        model.validate().py()?;
        self.model = model;
        Ok(body)
    }
}

fn index_u32(i: usize) -> PyResult<u32> {
    u32::try_from(i).map_err(|_| argument(format!("mass index {i} does not fit in 32 bits")))
}
