//! Sensors and the control loop with a Python controller: readings go to Python as numpy
//! arrays every control period, commands come back as an array; the steps between run with
//! the GIL released.

use hooke::{ControlLoop, Controller, Readings, SensorSpec};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use crate::arrays::{indices, reals, vector_out, vectors_out, Shape};
use crate::error::IntoPyResult;

/// The sensor spec from optional index arrays.
pub(crate) fn sensor_spec(
    py: Python<'_>,
    bodies: Option<&Bound<'_, PyAny>>,
    orientation: bool,
    contacts: Option<&Bound<'_, PyAny>>,
    springs: Option<&Bound<'_, PyAny>>,
) -> PyResult<SensorSpec> {
    let list = |name: &str, v: Option<&Bound<'_, PyAny>>| {
        v.map_or(Ok(Vec::new()), |v| {
            indices(py, name, v, Shape::new(None, 0), None)
        })
    };
    Ok(SensorSpec {
        bodies: list("bodies", bodies)?,
        orientation,
        contacts: list("contacts", contacts)?,
        springs: list("springs", springs)?,
    })
}

/// What the sensors read at one time, as arrays (one row per sensed body, mass or spring).
#[pyclass(name = "Readings", module = "hooke", frozen)]
#[derive(Clone, Debug)]
pub(crate) struct PyReadings {
    readings: Readings,
}

impl From<Readings> for PyReadings {
    fn from(readings: Readings) -> Self {
        Self { readings }
    }
}

#[pymethods]
impl PyReadings {
    /// Time of the reading, s.
    #[getter]
    fn time(&self) -> f64 {
        self.readings.time
    }

    /// Centre of mass of each sensed body, `(B, 3)` m.
    #[getter]
    fn centre_of_mass<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let v: Vec<_> = self
            .readings
            .bodies
            .iter()
            .map(|b| b.centre_of_mass)
            .collect();
        vectors_out(py, &v)
    }

    /// Mean velocity of each sensed body, `(B, 3)` m/s.
    #[getter]
    fn mean_velocity<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let v: Vec<_> = self
            .readings
            .bodies
            .iter()
            .map(|b| b.mean_velocity)
            .collect();
        vectors_out(py, &v)
    }

    /// Orientation of each sensed body, `(B, 3, 3)` rotation matrices (rows), or `None` when
    /// orientation was not asked for.
    #[getter]
    fn orientation<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, numpy::PyArray3<f64>>>> {
        let mats: Option<Vec<_>> = self.readings.bodies.iter().map(|b| b.orientation).collect();
        let Some(mats) = mats.filter(|_| !self.readings.bodies.is_empty()) else {
            return Ok(None);
        };
        let flat: Vec<f64> = mats
            .iter()
            .flat_map(|m| m.transpose().to_cols_array())
            .collect();
        Ok(Some(PyArray1::from_vec(py, flat).reshape([
            mats.len(),
            3,
            3,
        ])?))
    }

    /// Angular velocity of each sensed body, `(B, 3)` rad/s, or `None` without orientation.
    #[getter]
    fn angular_velocity<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyArray2<f64>>>> {
        let w: Option<Vec<_>> = self
            .readings
            .bodies
            .iter()
            .map(|b| b.angular_velocity)
            .collect();
        match w.filter(|_| !self.readings.bodies.is_empty()) {
            Some(w) => Ok(Some(vectors_out(py, &w)?)),
            None => Ok(None),
        }
    }

    /// Whether each sensed mass touches the ground or an obstacle, `(C,)` bool.
    #[getter]
    fn touching<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        vector_out(
            py,
            self.readings.contacts.iter().map(|c| c.touching).collect(),
        )
    }

    /// Contact force on each sensed mass, `(C, 3)` N.
    #[getter]
    fn normal_force<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let f: Vec<_> = self
            .readings
            .contacts
            .iter()
            .map(|c| c.normal_force)
            .collect();
        vectors_out(py, &f)
    }

    /// Length of each sensed spring, `(S,)` m.
    #[getter]
    fn spring_length<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector_out(py, self.readings.springs.iter().map(|s| s.length).collect())
    }

    /// Strain of each sensed spring (length / rest length - 1), `(S,)`.
    #[getter]
    fn strain<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector_out(py, self.readings.springs.iter().map(|s| s.strain).collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "Readings(time={} s, {} bodies, {} contacts, {} springs)",
            self.readings.time,
            self.readings.bodies.len(),
            self.readings.contacts.len(),
            self.readings.springs.len()
        )
    }
}

/// A Python callable as hooke's controller: called with the `Readings`, it returns the commands
/// (one per commanded actuator). Its exception is kept and raised after the loop stops.
struct PyController {
    callable: Py<PyAny>,
    error: Option<PyErr>,
}

impl PyController {
    fn call(&self, readings: &Readings, commands: &mut [f64]) -> PyResult<()> {
        Python::attach(|py| {
            let arg = Py::new(py, PyReadings::from(readings.clone()))?;
            let out = self.callable.call1(py, (arg,))?;
            let c = reals(
                py,
                "commands",
                out.bind(py),
                Shape::new(Some(commands.len()), 0),
            )?;
            commands.copy_from_slice(&c);
            Ok(())
        })
    }
}

impl Controller for PyController {
    fn control(&mut self, readings: &Readings, commands: &mut [f64]) -> hooke::Result<()> {
        self.call(readings, commands).map_err(|e| {
            self.error = Some(e);
            hooke::Error::InvalidParameter {
                name: "controller",
                value: f64::NAN,
                expected: "a callable returning the commands",
            }
        })
    }
}

/// Runs `sim` for `seconds` under `controller`, called every `period` steps with `spec`'s
/// readings; the GIL is released between calls. Returns (controller calls, steps).
pub(crate) fn run(
    py: Python<'_>,
    sim: &mut (dyn hooke::Simulation + Send + Sync),
    controller: Py<PyAny>,
    seconds: f64,
    period: u64,
    spec: SensorSpec,
) -> PyResult<(u64, u64)> {
    let control = ControlLoop::new(period, spec);
    let mut controller = PyController {
        callable: controller,
        error: None,
    };
    let result = py.detach(|| control.run(sim, seconds, &mut controller));
    if let Some(err) = controller.error {
        return Err(err);
    }
    let run = result.py()?;
    Ok((run.ticks, run.steps))
}
