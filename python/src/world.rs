//! `hooke.CpuWorld` and `hooke.World`: both backends behind one class shape (their common base
//! `hooke.Simulation` holds the methods), the GIL released for every call that steps.

use std::path::PathBuf;

use hooke::{CpuWorld, Model, Simulation, Snapshot, World, WorldOptions};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::arrays::{flags, indices, reals, to_vectors, vector_out, vectors_out, Shape};
use crate::device::PyDevice;
use crate::error::{argument, IntoPyResult};
use crate::model::PyModel;

/// The world a Python object steps: the CPU reference or the GPU World.
#[derive(Debug)]
pub(crate) enum Backend {
    /// The f64 CPU reference.
    Cpu(Box<CpuWorld>),
    /// The wgpu World.
    Gpu(Box<World>),
}

impl Backend {
    fn sim(&self) -> &(dyn Simulation + Send + Sync) {
        match self {
            Self::Cpu(w) => w.as_ref(),
            Self::Gpu(w) => w.as_ref(),
        }
    }

    pub(crate) fn sim_mut(&mut self) -> &mut (dyn Simulation + Send + Sync) {
        match self {
            Self::Cpu(w) => w.as_mut(),
            Self::Gpu(w) => w.as_mut(),
        }
    }
}

/// What `CpuWorld` and `World` share: every method of hooke's `Simulation`.
#[pyclass(name = "Simulation", module = "hooke", subclass)]
#[derive(Debug)]
pub(crate) struct PySimulation {
    pub(crate) backend: Backend,
    /// The model the world was built from (the renderer draws its springs).
    pub(crate) model: Model,
    /// Its mesh bodies' surfaces (the renderer shades them).
    pub(crate) surfaces: Vec<hooke::render::MeshSurface>,
}

#[pymethods]
impl PySimulation {
    /// Advances `n` steps of `dt` (the GIL released meanwhile).
    fn step(&mut self, py: Python<'_>, n: u64) -> PyResult<()> {
        let sim = self.backend.sim_mut();
        py.detach(|| sim.step(n)).py()
    }

    /// Advances `round(seconds / dt)` steps (the GIL released meanwhile); returns the steps
    /// taken.
    fn step_for(&mut self, py: Python<'_>, seconds: f64) -> PyResult<u64> {
        let sim = self.backend.sim_mut();
        py.detach(|| sim.step_for(seconds)).py()
    }

    /// Back to the initial state (time 0, the model's positions and velocities).
    fn reset(&mut self) {
        self.backend.sim_mut().reset();
    }

    /// Puts each body of `bodies` (`(K,)` indices) back to the model's initial positions and
    /// velocities, every other mass untouched (see `hooke::Simulation::reset_body`: the time,
    /// commands and energy counters go on; a failure of a reset body is cleared).
    fn reset_bodies(&mut self, py: Python<'_>, bodies: &Bound<'_, PyAny>) -> PyResult<()> {
        let at = indices(py, "bodies", bodies, Shape::new(None, 0), None)?;
        let sim = self.backend.sim_mut();
        at.iter().try_for_each(|&b| sim.reset_body(b)).py()
    }

    /// Simulated time, s.
    #[getter]
    fn time(&self) -> f64 {
        self.backend.sim().time()
    }

    /// Steps taken since the start.
    #[getter]
    fn steps(&self) -> u64 {
        self.backend.sim().steps()
    }

    /// Time step, s.
    #[getter]
    fn dt(&self) -> f64 {
        self.backend.sim().dt()
    }

    /// Number of masses.
    #[getter]
    fn mass_count(&self) -> usize {
        self.backend.sim().mass_count()
    }

    /// Number of springs.
    #[getter]
    fn spring_count(&self) -> usize {
        self.backend.sim().spring_count()
    }

    /// Number of commanded actuators (the length `set_commands` takes).
    #[getter]
    fn commanded_count(&self) -> usize {
        self.backend.sim().commanded_count()
    }

    /// Positions, `(N, 3)` float64, m.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let sim = self.backend.sim();
        let p = py.detach(|| sim.positions()).py()?;
        vectors_out(py, &p)
    }

    /// Velocities, `(N, 3)` float64, m/s.
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let sim = self.backend.sim();
        let v = py.detach(|| sim.velocities()).py()?;
        vectors_out(py, &v)
    }

    /// Current rest lengths (actuators applied), `(M,)`, m.
    fn rest_lengths<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(vector_out(py, self.backend.sim().rest_lengths().py()?))
    }

    /// The world's state hash (`hooke::state_hash`): XXH3-128 of the step count, time,
    /// positions, velocities and rest lengths as little-endian bits, 32 hex digits.
    fn state_hash(&self, py: Python<'_>) -> PyResult<String> {
        let sim = self.backend.sim();
        Ok(py.detach(|| sim.state_hash()).py()?.to_string())
    }

    /// Each body's state hash (its masses and springs only), in model order, 32 hex digits each.
    fn body_hashes(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let sim = self.backend.sim();
        let h = py.detach(|| sim.state_hashes()).py()?;
        Ok(h.bodies.iter().map(ToString::to_string).collect())
    }

    /// The whole state the next step depends on, as bytes (`hooke::Snapshot::to_bytes`: magic,
    /// format version, checksum); `restore` puts it back into this world or another of the same
    /// backend, precision and model.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let sim = self.backend.sim();
        let bytes = py.detach(|| sim.snapshot().map(|s| s.to_bytes())).py()?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Puts back the state of `snapshot` (bytes of `snapshot()`): stepping on gives the same
    /// bits as the world it was taken of.
    fn restore(&mut self, py: Python<'_>, snapshot: &[u8]) -> PyResult<()> {
        let sim = self.backend.sim_mut();
        py.detach(|| sim.restore(&Snapshot::from_bytes(snapshot)?))
            .py()
    }

    /// Writes `snapshot()` to `path` (a temporary file flushed to the disk, then renamed).
    fn save_snapshot(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let sim = self.backend.sim();
        py.detach(|| sim.snapshot()?.save(&path)).py()
    }

    /// Restores the snapshot file at `path` (written by `save_snapshot`).
    fn load_snapshot(&mut self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let sim = self.backend.sim_mut();
        py.detach(|| sim.restore(&Snapshot::load(&path)?)).py()
    }

    /// Net spring force on every mass in the current state, `(N, 3)`, N.
    fn spring_forces<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let f = self.backend.sim_mut().spring_forces().py()?;
        vectors_out(py, &f)
    }

    /// The energy account, J: kinetic, gravity, elastic, ground, dissipated, injected, total
    /// (mechanical: kinetic + gravity + elastic + ground) and balance (total + dissipated -
    /// injected, constant for an exact integrator).
    fn energy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = self.backend.sim().energy().py()?;
        let d = PyDict::new(py);
        for (k, v) in [
            ("kinetic", e.kinetic),
            ("gravity", e.gravity),
            ("elastic", e.elastic),
            ("ground", e.ground),
            ("dissipated", e.dissipated),
            ("injected", e.injected),
            ("total", e.total()),
            ("balance", e.balance()),
        ] {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// Every body's state: `mass` `(B,)` kg, `centre_of_mass` `(B, 3)` m and `mean_velocity`
    /// `(B, 3)` m/s.
    fn bodies<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let bodies = self.backend.sim().bodies().py()?;
        let d = PyDict::new(py);
        d.set_item(
            "mass",
            vector_out(py, bodies.iter().map(|b| b.mass).collect()),
        )?;
        let com: Vec<_> = bodies.iter().map(|b| b.centre_of_mass).collect();
        let vel: Vec<_> = bodies.iter().map(|b| b.mean_velocity).collect();
        d.set_item("centre_of_mass", vectors_out(py, &com)?)?;
        d.set_item("mean_velocity", vectors_out(py, &vel)?)?;
        Ok(d)
    }

    /// Sets the external force (N) on each mass of `masses` (`(K,)` indices) to the rows of
    /// `forces` (`(K, 3)`).
    fn set_external_forces(
        &mut self,
        py: Python<'_>,
        masses: &Bound<'_, PyAny>,
        forces: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let at = indices(py, "masses", masses, Shape::new(None, 0), None)?;
        let f = to_vectors(&reals(py, "forces", forces, Shape::new(Some(at.len()), 3))?);
        let sim = self.backend.sim_mut();
        at.iter()
            .zip(f)
            .try_for_each(|(&m, f)| sim.set_external_force(m, f))
            .py()
    }

    /// Fixes (or frees) each mass of `masses`; `fixed` is one bool or one per mass (default:
    /// fixed).
    #[pyo3(signature = (masses, fixed=None))]
    fn set_fixed(
        &mut self,
        py: Python<'_>,
        masses: &Bound<'_, PyAny>,
        fixed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let at = indices(py, "masses", masses, Shape::new(None, 0), None)?;
        let on = match fixed {
            Some(f) => flags(py, "fixed", f, at.len())?,
            None => vec![true; at.len()],
        };
        let sim = self.backend.sim_mut();
        at.iter()
            .zip(on)
            .try_for_each(|(&m, on)| sim.set_fixed(m, on))
            .py()
    }

    /// Sets the rest length (m) of each spring of `springs` to `rest_lengths`.
    fn set_rest_lengths(
        &mut self,
        py: Python<'_>,
        springs: &Bound<'_, PyAny>,
        rest_lengths: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let at = indices(py, "springs", springs, Shape::new(None, 0), None)?;
        let r = reals(
            py,
            "rest_lengths",
            rest_lengths,
            Shape::new(Some(at.len()), 0),
        )?;
        let sim = self.backend.sim_mut();
        at.iter()
            .zip(r)
            .try_for_each(|(&s, r)| sim.set_rest_length(s, r))
            .py()
    }

    /// Changes actuators `actuators` (`(K,)` indices): each of `amplitude` (relative rest-length
    /// change), `omega` (rad/s) and `phase` (rad) given replaces that field, one value per
    /// actuator.
    #[pyo3(signature = (actuators, *, amplitude=None, omega=None, phase=None))]
    fn set_actuators(
        &mut self,
        py: Python<'_>,
        actuators: &Bound<'_, PyAny>,
        amplitude: Option<&Bound<'_, PyAny>>,
        omega: Option<&Bound<'_, PyAny>>,
        phase: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let sim = self.backend.sim_mut();
        let count = sim.actuators().len();
        let at = indices(
            py,
            "actuators",
            actuators,
            Shape::new(None, 0),
            Some((count, "the world's actuators")),
        )?;
        let field = |name: &str, v: Option<&Bound<'_, PyAny>>| {
            v.map(|v| reals(py, name, v, Shape::new(Some(at.len()), 0)))
                .transpose()
        };
        let (amplitude, omega, phase) = (
            field("amplitude", amplitude)?,
            field("omega", omega)?,
            field("phase", phase)?,
        );
        for (row, &i) in at.iter().enumerate() {
            let mut a = sim.actuators()[i];
            if let Some(v) = &amplitude {
                a.amplitude = v[row];
            }
            if let Some(v) = &omega {
                a.omega = v[row];
            }
            if let Some(v) = &phase {
                a.phase = v[row];
            }
            sim.set_actuator(i, a).py()?;
        }
        Ok(())
    }

    /// The commanded actuators' commands, `(commanded_count,)` relative rest-length changes.
    fn set_commands(&mut self, py: Python<'_>, commands: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.backend.sim().commanded_count();
        let c = reals(py, "commands", commands, Shape::new(Some(n), 0))?;
        self.backend.sim_mut().set_commands(&c).py()
    }

    /// Reads sensors now: body states of `bodies`, their orientation when `orientation`,
    /// contact of masses `contacts`, lengths of springs `springs`.
    #[pyo3(signature = (bodies=None, orientation=false, contacts=None, springs=None))]
    fn sense(
        &mut self,
        py: Python<'_>,
        bodies: Option<&Bound<'_, PyAny>>,
        orientation: bool,
        contacts: Option<&Bound<'_, PyAny>>,
        springs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::control::PyReadings> {
        let spec = crate::control::sensor_spec(py, bodies, orientation, contacts, springs)?;
        let readings = self.backend.sim_mut().sense(&spec).py()?;
        Ok(crate::control::PyReadings::from(readings))
    }
    /// Runs for `seconds` under `controller`, a callable given the `Readings` (of `bodies`,
    /// their `orientation`, `contacts`, `springs`) every `period` steps and returning the
    /// commands, `(commanded_count,)`. The GIL is released between calls. Returns the
    /// controller calls and the steps taken. The controller must not call the world itself
    /// (it is busy running the loop: that raises `RuntimeError`); a controller's exception stops
    /// the loop and comes through as it is.
    #[pyo3(signature = (controller, seconds, *, period, bodies=None, orientation=false, contacts=None, springs=None))]
    #[allow(clippy::too_many_arguments)]
    fn run_control(
        &mut self,
        py: Python<'_>,
        controller: Py<PyAny>,
        seconds: f64,
        period: u64,
        bodies: Option<&Bound<'_, PyAny>>,
        orientation: bool,
        contacts: Option<&Bound<'_, PyAny>>,
        springs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u64, u64)> {
        let spec = crate::control::sensor_spec(py, bodies, orientation, contacts, springs)?;
        crate::control::run(
            py,
            self.backend.sim_mut(),
            controller,
            seconds,
            period,
            spec,
        )
    }
}

/// hooke's CPU reference integrator (f64), optionally on `threads` threads.
#[pyclass(name = "CpuWorld", module = "hooke", extends = PySimulation)]
#[derive(Debug)]
pub(crate) struct PyCpuWorld;

#[pymethods]
impl PyCpuWorld {
    #[new]
    #[pyo3(signature = (model, threads=None))]
    fn new(
        py: Python<'_>,
        model: &PyModel,
        threads: Option<usize>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let surfaces = model.surfaces.clone();
        let model = model.model.clone();
        let mut world = py.detach(|| CpuWorld::new(&model)).py()?;
        if let Some(t) = threads {
            if t == 0 {
                return Err(argument("threads: must be at least 1".to_string()));
            }
            world.set_threads(t);
        }
        Ok(PyClassInitializer::from(PySimulation {
            backend: Backend::Cpu(Box::new(world)),
            model,
            surfaces,
        })
        .add_subclass(Self))
    }
}

/// hooke's GPU World (wgpu compute, `precision` "f32" or "f64").
#[pyclass(name = "World", module = "hooke", extends = PySimulation)]
#[derive(Debug)]
pub(crate) struct PyWorld;

#[pymethods]
impl PyWorld {
    #[new]
    #[pyo3(signature = (model, precision="f32", device=None))]
    fn new(
        py: Python<'_>,
        model: &PyModel,
        precision: &str,
        device: Option<&PyDevice>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let options = WorldOptions {
            precision: crate::device::precision(precision)?,
            ..WorldOptions::default()
        };
        let surfaces = model.surfaces.clone();
        let model = model.model.clone();
        let world = py
            .detach(|| match device {
                Some(d) => World::with_device(d.device.clone(), d.queue.clone(), &model, options),
                None => World::with_options(&model, options),
            })
            .py()?;
        Ok(PyClassInitializer::from(PySimulation {
            backend: Backend::Gpu(Box::new(world)),
            model,
            surfaces,
        })
        .add_subclass(Self))
    }

    /// The device memory of this World's buffers, bytes by buffer.
    #[getter]
    fn device_memory<'py>(self_: PyRef<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = self_.py();
        match &self_.as_super().backend {
            Backend::Gpu(w) => crate::device::memory_dict(py, w.device_memory()),
            Backend::Cpu(_) => Ok(PyDict::new(py)),
        }
    }

    /// The adapter the World runs on (name and backend).
    #[getter]
    fn adapter(self_: PyRef<'_, Self>) -> String {
        match &self_.as_super().backend {
            Backend::Gpu(w) => {
                format!("{} ({:?})", w.adapter_info().name, w.adapter_info().backend)
            }
            Backend::Cpu(_) => String::new(),
        }
    }
}
