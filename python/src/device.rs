//! `hooke.Device`: a GPU device opened once with chosen limits (the adapter's own, WebGPU's
//! defaults, or smaller), shared by Worlds, and asked how much device memory a model needs
//! before anything is made on it.

use hooke::gpu::DeviceMemory;
use hooke::{Precision, World, WorldOptions};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::{argument, IntoPyResult};
use crate::model::PyModel;

/// The device limits `Device` reads and sets by name: those a World's plan checks.
macro_rules! limit_fields {
    ($mac:ident) => {
        $mac!(
            max_buffer_size,
            max_storage_buffer_binding_size,
            max_uniform_buffer_binding_size,
            max_storage_buffers_per_shader_stage,
            max_uniform_buffers_per_shader_stage,
            max_bind_groups,
            max_bindings_per_bind_group,
            max_compute_workgroup_storage_size,
            max_compute_invocations_per_workgroup,
            max_compute_workgroup_size_x,
            max_compute_workgroup_size_y,
            max_compute_workgroup_size_z,
            max_compute_workgroups_per_dimension
        )
    };
}

/// The limit names, in order.
macro_rules! names {
    ($($f:ident),*) => {
        [$(stringify!($f)),*]
    };
}
const LIMIT_NAMES: [&str; 13] = limit_fields!(names);

/// `limits` as (name, value) pairs.
fn limit_values(limits: &wgpu::Limits) -> Vec<(&'static str, u64)> {
    macro_rules! values {
        ($($f:ident),*) => {
            vec![$((stringify!($f), u64::from(limits.$f))),*]
        };
    }
    limit_fields!(values)
}

/// Sets the limit `name` of `limits` to `value`.
fn set_limit(limits: &mut wgpu::Limits, name: &str, value: u64) -> PyResult<()> {
    let too_large = || argument(format!("limit {name} = {value}: too large for the field"));
    macro_rules! set {
        ($($f:ident),*) => {
            match name {
                $(stringify!($f) => limits.$f = value.try_into().map_err(|_| too_large())?,)*
                _ => {
                    return Err(argument(format!(
                        "no device limit named {name:?}; the limits hooke sets are {LIMIT_NAMES:?}"
                    )))
                }
            }
        };
    }
    limit_fields!(set);
    Ok(())
}

/// The base limits `base` names (`"adapter"`, `"webgpu"` or `"downlevel"`, checked before), on
/// `adapter`.
fn base_limits(base: &str, adapter: &wgpu::Adapter) -> wgpu::Limits {
    match base {
        "webgpu" => wgpu::Limits::default(),
        "downlevel" => wgpu::Limits::downlevel_defaults(),
        _ => adapter.limits(),
    }
}

/// `"f32"` or `"f64"` as a [`Precision`].
pub(crate) fn precision(name: &str) -> PyResult<Precision> {
    match name {
        "f32" => Ok(Precision::F32),
        "f64" => Ok(Precision::F64),
        other => Err(argument(format!(
            "precision {other:?}: expected \"f32\" or \"f64\""
        ))),
    }
}

/// A device's memory, buffer by buffer, as a dict of bytes (a buffer's name to its size).
pub(crate) fn memory_dict<'py>(
    py: Python<'py>,
    memory: &DeviceMemory,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for b in &memory.buffers {
        dict.set_item(b.name, b.bytes)?;
    }
    Ok(dict)
}

/// A GPU device on the adapter hooke picks (as `World` does), opened with `limits`.
#[pyclass(name = "Device", module = "hooke", frozen)]
#[derive(Debug)]
pub(crate) struct PyDevice {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    adapter: String,
    limits: wgpu::Limits,
}

#[pymethods]
impl PyDevice {
    /// Opens a device: `limits` is the base ("adapter", "webgpu" or "downlevel"), each keyword
    /// (a limit's wgpu name) overrides one of them.
    #[new]
    #[pyo3(signature = (limits="adapter", **overrides))]
    fn new(py: Python<'_>, limits: &str, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let base = limits.to_string();
        let mut wanted: Vec<(String, u64)> = Vec::new();
        if let Some(overrides) = overrides {
            for (k, v) in overrides.iter() {
                let name: String = k.extract()?;
                let value: u64 = v.extract().map_err(|_| {
                    argument(format!(
                        "limit {name}: expected a whole number >= 0, got {v}"
                    ))
                })?;
                wanted.push((name, value));
            }
        }
        // Names and values checked before any adapter is looked for.
        if !["adapter", "webgpu", "downlevel"].contains(&limits) {
            return Err(argument(format!(
                "limits {limits:?}: expected \"adapter\", \"webgpu\" or \"downlevel\""
            )));
        }
        let mut scratch = wgpu::Limits::default();
        for (name, value) in &wanted {
            set_limit(&mut scratch, name, *value)?;
        }
        let opened = py.detach(|| {
            pollster::block_on(async {
                let adapter = hooke::gpu::find_adapter().await.py()?;
                let mut limits = base_limits(&base, &adapter);
                for (name, value) in &wanted {
                    set_limit(&mut limits, name, *value)?;
                }
                let (device, queue) = hooke::gpu::open_device_with_limits(&adapter, limits.clone())
                    .await
                    .py()?;
                let info = adapter.get_info();
                let name = format!("{} ({:?})", info.name, info.backend);
                PyResult::Ok((device, queue, name, limits))
            })
        })?;
        let (device, queue, adapter, limits) = opened;
        Ok(Self {
            device,
            queue,
            adapter,
            limits,
        })
    }

    /// The adapter (name and backend).
    #[getter]
    fn adapter(&self) -> String {
        self.adapter.clone()
    }

    /// The limits the device was opened with, by name.
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in limit_values(&self.limits) {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The device memory a World for `model` would take on this device, bytes by buffer.
    #[pyo3(signature = (model, precision="f32"))]
    fn memory_needed<'py>(
        &self,
        py: Python<'py>,
        model: &PyModel,
        precision: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = WorldOptions {
            precision: self::precision(precision)?,
            ..WorldOptions::default()
        };
        let model = &model.model;
        let memory = py
            .detach(|| World::memory_needed(&self.device, model, options))
            .py()?;
        memory_dict(py, &memory)
    }
}
