//! hooke's errors as Python exceptions: one class per kind of [`hooke::Error`], defined in
//! `hooke/_errors.py` (so a class can also be a `ValueError` or an `OSError`), raised here with
//! the Rust message unchanged.

use hooke::Error;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// The Python class (in `hooke._errors`) of each kind of error.
fn class_name(err: &Error) -> &'static str {
    match err {
        Error::SpringMassOutOfRange { .. } => "SpringMassOutOfRangeError",
        Error::SelfSpring { .. } => "SelfSpringError",
        Error::InvalidMass { .. } => "InvalidMassError",
        Error::InvalidCollisionRadius { .. } => "InvalidCollisionRadiusError",
        Error::InvalidCollisionClass { .. } => "InvalidCollisionClassError",
        Error::InvalidClassCollision { .. } => "InvalidClassCollisionError",
        Error::NonFiniteInitialState { .. } => "NonFiniteInitialStateError",
        Error::InvalidSpringParameter { .. } => "InvalidSpringParameterError",
        Error::ZeroRestLength { .. } => "ZeroRestLengthError",
        Error::InvalidActuator { .. } => "InvalidActuatorError",
        Error::InvalidFrictionOscillator { .. } => "InvalidFrictionOscillatorError",
        Error::InvalidObstacle { .. } => "InvalidObstacleError",
        Error::InvalidCommand { .. } => "InvalidCommandError",
        Error::InvalidParameter { .. } => "InvalidParameterError",
        Error::InvalidBuilder { .. } => "InvalidBuilderError",
        Error::IndexOutOfRange { .. } => "IndexOutOfRangeError",
        Error::Image { .. } => "ImageReadError",
        Error::ImageTooLarge { .. } => "ImageTooLargeError",
        Error::EmptyImage { .. } => "EmptyImageError",
        Error::Mesh { .. } => "MeshError",
        Error::ImageWrite { .. } => "ImageWriteError",
        Error::LengthMismatch { .. } => "LengthMismatchError",
        Error::Plot { .. } => "PlotError",
        Error::SceneIo { .. } => "SceneIoError",
        Error::InputTooLarge { .. } => "InputTooLargeError",
        Error::SceneParse { .. } => "SceneParseError",
        Error::SceneVersion { .. } => "SceneVersionError",
        Error::NonFinite { .. } => "NonFiniteError",
        Error::BlowUp { .. } => "BlowUpError",
        Error::OutOfF32Range { .. } => "OutOfF32RangeError",
        Error::FixedPointOverflow { .. } => "FixedPointOverflowError",
        Error::NoAdapter { .. } => "NoAdapterError",
        Error::DeviceLimit { .. } => "DeviceLimitError",
        Error::DeviceUnsupported { .. } => "DeviceUnsupportedError",
        Error::DeviceMismatch { .. } => "DeviceMismatchError",
        Error::DeviceLost { .. } => "DeviceLostError",
        Error::Snapshot { .. } => "SnapshotError",
        _ => "GpuError",
    }
}

/// `err` as an instance of its Python class, with hooke's message; a failed step's error
/// carries the failing mass as its `mass` attribute.
pub(crate) fn to_py(err: Error) -> PyErr {
    let py_err = raise(class_name(&err), err.to_string());
    if let Error::NonFinite { mass, .. } | Error::BlowUp { mass, .. } = err {
        Python::attach(|py| py_err.value(py).setattr("mass", mass).ok());
    }
    py_err
}

/// An exception of the class `name` of `hooke._errors` with `message`; a `RuntimeError` if that
/// module cannot be imported (the package is then broken, and the message still says why).
pub(crate) fn raise(name: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let class = py
            .import("hooke._errors")
            .and_then(|module| module.getattr(name))
            .and_then(|class| class.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

/// An `ArgumentError` (a `ValueError`): input the binding rejects before hooke sees it.
pub(crate) fn argument(message: String) -> PyErr {
    raise("ArgumentError", message)
}

/// `.py()` on hooke's results: the error as its Python exception.
pub(crate) trait IntoPyResult<T> {
    /// The value, or the error as its Python exception.
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for hooke::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}
