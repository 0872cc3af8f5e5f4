//! The compiled half of the Python package `hooke` (imported as `hooke._hooke`; the package's
//! `__init__.py` re-exports it with the builders and the exception classes).
//!
//! Models come in from numpy arrays, builders and scene files; both backends step behind one
//! class shape with the GIL released; positions, velocities and readings go out as numpy
//! arrays.

use pyo3::prelude::*;

mod arrays;
mod control;
mod device;
mod error;
mod evaluator;
mod evolve;
mod gym;
mod input;
mod material;
mod model;
mod population;
mod record;
mod scene;
mod world;

#[pymodule]
fn _hooke(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<model::PyModel>()?;
    m.add_class::<scene::PyScene>()?;
    m.add_class::<world::PySimulation>()?;
    m.add_class::<world::PyCpuWorld>()?;
    m.add_class::<world::PyWorld>()?;
    m.add_class::<device::PyDevice>()?;
    m.add_class::<material::PyMaterial>()?;
    m.add_function(wrap_pyfunction!(input::read_input_text, m)?)?;
    m.add_function(wrap_pyfunction!(input::max_input_bytes, m)?)?;
    m.add_class::<control::PyReadings>()?;
    m.add_function(wrap_pyfunction!(record::record_gif, m)?)?;
    m.add_function(wrap_pyfunction!(gym::robot_herd, m)?)?;
    m.add_function(wrap_pyfunction!(record::frames, m)?)?;
    m.add_function(wrap_pyfunction!(population::evaluate_population, m)?)?;
    m.add_function(wrap_pyfunction!(evolve::evolve_population, m)?)?;
    m.add_class::<evaluator::PyEvaluator>()?;
    m.add_function(wrap_pyfunction!(evaluator::split_share_range, m)?)?;
    Ok(())
}
