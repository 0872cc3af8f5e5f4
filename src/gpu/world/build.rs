//! Building a World: validate the model once, then the stages, each a pure function of the
//! ones before it, taking them by shared reference:
//!
//! model -> [`Tables`] -> [`Plan`] -> [`Buffers`] -> [`Bindings`] -> [`Pipelines`]
//!
//! (`tables/`: the model as device records; `plan/`: what the device and the options decide,
//! the spring layout, chunks, fused islands and collision grid included; `buffers.rs`: the
//! shared device buffers; `bind.rs`: every kernel's layout and bind groups; `pipelines.rs`:
//! every kernel compiled). The World is the stages' outputs, what it keeps of the model, and
//! its run state; [`World::reset`] then writes the initial state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{HostModel, RunState, World};
use crate::error::Result;
use crate::gpu::bind::Bindings;
use crate::gpu::buffers::Buffers;
use crate::gpu::device::request_device;
use crate::gpu::kernels::{self, sense::SenseState};
use crate::gpu::options::WorldOptions;
use crate::gpu::pass::gpu_error;
use crate::gpu::pipelines::Pipelines;
use crate::gpu::plan::{DeviceCaps, Plan};
use crate::gpu::real::Precision;
use crate::gpu::tables::{check_f32, gpu_params, Tables};
use crate::model::{warn_if_above, Model, SpeedLimit};

/// What every World checks of `model` before it touches a device: [`Model::validate`], and in
/// [`Precision::F32`] that every value fits f32 ([`check_f32`]).
pub(super) fn check_model(model: &Model, options: &WorldOptions) -> Result<()> {
    model.validate()?;
    if options.precision == Precision::F32 {
        check_f32(model)?;
    }
    Ok(())
}

impl World {
    /// Builds a World for `model` on an adapter it picks itself ([`request_device`]: honours
    /// `WGPU_BACKEND` and `WGPU_ADAPTER_NAME`, prefers Vulkan and real GPUs), with default
    /// [`WorldOptions`]. Logs a warning (`log::warn!`) when `params.dt` is above the model's
    /// stable time step estimate ([`Model::stable_dt`]), naming the estimate and what limits it.
    ///
    /// # Errors
    /// What [`Model::validate`] rejects;
    /// [`Error::OutOfF32Range`](crate::Error::OutOfF32Range) for a value the GPU's f32 cannot
    /// hold; [`Error::NoAdapter`](crate::Error::NoAdapter) (listing the adapters seen);
    /// [`Error::RequestDevice`](crate::Error::RequestDevice); and what [`World::with_device`]
    /// rejects.
    pub fn new(model: &Model) -> Result<Self> {
        Self::with_options(model, WorldOptions::default())
    }

    /// As [`World::new`], with `options` (e.g. [`Precision::F64`], or energy booking off): picks
    /// an adapter itself and opens it with the features the options may need.
    ///
    /// # Errors
    /// As [`World::new`] and [`World::with_device`] (in [`Precision::F64`] an adapter without
    /// `SHADER_F64` gives [`Error::Gpu`](crate::Error::Gpu) naming it).
    pub fn with_options(model: &Model, options: WorldOptions) -> Result<Self> {
        check_model(model, &options)?;
        let (device, queue) = request_device()?;
        let lost = Arc::new(Mutex::new(None));
        let flag = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut l) = flag.lock() {
                *l = Some(format!("{reason:?}: {message}"));
            }
        });
        Self::build(device, queue, model, options, lost)
    }

    /// Builds a World for `model` on a device and queue the caller already has (to share a GPU
    /// with a renderer or between Worlds). Open the device with the adapter's limits and, for
    /// 64-bit atomics, [`wanted_features`](crate::gpu::wanted_features) (as
    /// [`open_device`](crate::gpu::open_device) does).
    ///
    /// # Errors
    /// What [`Model::validate`] rejects; [`Error::OutOfF32Range`](crate::Error::OutOfF32Range)
    /// (in [`Precision::F32`]) naming the element and field of a value the GPU's f32 cannot hold
    /// (a magnitude above 3.4e38, or a mass, `dt` or material rest length that rounds to zero or
    /// a subnormal);
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a bad fixed-point quantum; [`Error::Gpu`](crate::Error::Gpu) if
    /// [`AtomicWidth::Bits64`](crate::AtomicWidth::Bits64) is asked for on a device without
    /// `SHADER_INT64_ATOMIC_ALL_OPS`, if [`Precision::F64`] is asked for on a device without
    /// `SHADER_F64` or the 64-bit atomics (naming the missing feature and the adapter), or if
    /// wgpu reports a validation or out-of-memory error while
    /// building buffers and pipelines; [`Error::DeviceLimit`](crate::Error::DeviceLimit) naming
    /// the limit, the buffer or pass and the size asked for when the scene does not fit the
    /// device (buffer size, storage or uniform binding size, workgroups per dispatch dimension);
    /// [`Error::DeviceUnsupported`](crate::Error::DeviceUnsupported) naming the kernel and the
    /// limit when the device's limits bind too little for any path (see the guide's backends
    /// page, "Adapters and limits": the World falls back from the kernels that bind most).
    /// Open the device with the adapter's limits ([`open_device`](crate::gpu::open_device)), or
    /// smaller ones to check a scene against a smaller device
    /// ([`open_device_with_limits`](crate::gpu::open_device_with_limits)).
    pub fn with_device(
        device: wgpu::Device,
        queue: wgpu::Queue,
        model: &Model,
        options: WorldOptions,
    ) -> Result<Self> {
        check_model(model, &options)?;
        Self::build(device, queue, model, options, Arc::new(Mutex::new(None)))
    }

    /// Builds a World for `model`, already validated (and in f32 checked against its range):
    /// the stages in order, each a function of the ones before.
    fn build(
        device: wgpu::Device,
        queue: wgpu::Queue,
        model: &Model,
        options: WorldOptions,
        lost: Arc<Mutex<Option<String>>>,
    ) -> Result<Self> {
        let stable = model.stable_dt();
        warn_if_above("World", model.params.dt, &stable);
        let tables = Tables::new(model, options.precision);
        let caps = DeviceCaps::of(&device);
        let plan = Plan::new(model, &tables, &caps, &kernels::needs(), &options)?;
        let scope_oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let scope_val = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let buffers = Buffers::new(&device, &tables, &plan);
        let bindings = Bindings::new(&device, &tables, &plan, &buffers);
        let pipelines = Pipelines::new(&device, &tables, &plan, &bindings);
        let validation = pollster::block_on(scope_val.pop());
        let oom = pollster::block_on(scope_oom.pop());
        if let Some(e) = validation.or(oom) {
            return Err(gpu_error(e));
        }
        let limit = SpeedLimit::of_model(model);
        let params = gpu_params(&model.params, None, tables.counts());
        let Tables {
            springs,
            masses: gpu_masses,
            commands,
            ..
        } = tables;
        let run = RunState {
            gpu_masses,
            params,
            actuators: model.actuators.clone(),
            command_slot: crate::model::command_slots(&model.actuators),
            commands: vec![0.0; commands],
            rest_changed: HashMap::new(),
            drag: None,
            time: 0.0,
            steps: 0,
            host_dissipated: 0.0,
            host_injected: 0.0,
            failed: None,
            limit,
            initial_limit: limit,
        };
        let model = HostModel {
            masses: model.masses.clone(),
            bodies: model.bodies.clone(),
            actuators: model.actuators.clone(),
            params: model.params,
            stable,
            contact_finder: crate::model::CollisionPairs::new(model),
        };
        let mut world = Self {
            adapter_info: device.adapter_info(),
            device,
            queue,
            lost,
            options,
            model,
            springs,
            plan,
            buffers,
            bindings,
            pipelines,
            sense_state: SenseState::default(),
            run,
        };
        world.reset();
        Ok(world)
    }
}
