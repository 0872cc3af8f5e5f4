//! Building a World: validate the model once, plan, build the host tables, compile the
//! pipelines, create the buffers and bind groups, then [`World::reset`] writes the initial state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::World;
use crate::error::Result;
use crate::gpu::bind::{BindGroups, SpringChunk};
use crate::gpu::buffers::Buffers;
use crate::gpu::collisions::{CollisionPass, CollisionTables, Shared};
use crate::gpu::device::request_device;
use crate::gpu::layout::{self, Specialization};
use crate::gpu::options::{Precision, WorldOptions};
use crate::gpu::pass::gpu_error;
use crate::gpu::pipelines::{Compile, Pipelines, SPRINGS_STENCIL, STEPS_BODY};
use crate::gpu::plan::{DeviceCaps, Plan};
use crate::gpu::sense::SenseState;
use crate::gpu::stencil::{MuscleSlots, Stencil};
use crate::gpu::steps::{islands, steps_per_dispatch, Islands, ISLAND_MASSES};
use crate::gpu::tables::{check_f32, gpu_params, Counts, Tables};
use crate::model::{warn_if_above, Model, SpeedLimit};

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
        model.validate()?;
        if options.precision == Precision::F32 {
            check_f32(model)?;
        }
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
    /// the limit and the size asked for when the scene does not fit the device (buffer size,
    /// storage binding size, workgroups per dispatch dimension).
    pub fn with_device(
        device: wgpu::Device,
        queue: wgpu::Queue,
        model: &Model,
        options: WorldOptions,
    ) -> Result<Self> {
        model.validate()?;
        if options.precision == Precision::F32 {
            check_f32(model)?;
        }
        Self::build(device, queue, model, options, Arc::new(Mutex::new(None)))
    }

    /// Builds a World for `model`, already validated (and in f32 checked against its range).
    fn build(
        device: wgpu::Device,
        queue: wgpu::Queue,
        model: &Model,
        options: WorldOptions,
        lost: Arc<Mutex<Option<String>>>,
    ) -> Result<Self> {
        let stable = model.stable_dt();
        warn_if_above("World", model.params.dt, &stable);
        let limit = SpeedLimit::of_model(model);
        let plan = Plan::new(model, &DeviceCaps::of(&device), &options)?;
        let mut tables = Tables::new(model, &plan);
        let collision_tables = CollisionTables::new(model, plan.scan_block());
        let chunks = plan.chunks(&tables.links.offsets)?;
        let islands = fused_islands(&plan, &mut tables, &options, &chunks, &collision_tables);
        let scope_oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let scope_val = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let (pipelines, specialization) = compile(
            &device,
            &plan,
            &tables,
            collision_tables.is_some(),
            islands.is_some(),
        );
        let buffers = Buffers::new(&device, &plan, &tables, collision_tables.is_some());
        let collisions = match (&collision_tables, &pipelines.collisions) {
            (Some(t), Some(kernels)) => {
                let shared = Shared {
                    masses: &buffers.masses,
                    state: &buffers.state,
                    touch: &buffers.touch,
                };
                Some(CollisionPass::new(&device, &plan, t, &kernels[0], &shared)?)
            }
            _ => None,
        };
        let one_material = tables.link_materials.is_empty();
        let mut fused = None;
        let spring_chunks = chunks
            .iter()
            .map(|c| {
                let islands = islands.as_ref();
                let (chunk, f) = SpringChunk::new(
                    &device,
                    &pipelines,
                    &buffers,
                    &plan,
                    c,
                    one_material,
                    islands,
                );
                if f.is_some() {
                    fused = f;
                }
                chunk
            })
            .collect();
        let groups = BindGroups::new(&device, &pipelines, &buffers, &plan);
        let validation = pollster::block_on(scope_val.pop());
        let oom = pollster::block_on(scope_oom.pop());
        if let Some(e) = validation.or(oom) {
            return Err(gpu_error(e));
        }
        let counts = Counts {
            masses: model.masses.len() as u32,
            springs: model.springs.len() as u32,
            // Pieces of bodies (see `body_pieces`): the `bodies` kernel's workgroups.
            bodies: tables.bodies.len() as u32,
        };
        let mut world = Self {
            adapter_info: device.adapter_info(),
            device,
            queue,
            plan,
            pipelines,
            specialization,
            sense_state: SenseState::default(),
            buffers,
            groups,
            spring_chunks,
            fused,
            collisions,
            contact_finder: crate::model::CollisionPairs::new(model),
            options,
            masses: model.masses.clone(),
            bodies: model.bodies.clone(),
            model_actuators: model.actuators.clone(),
            model_params: model.params,
            springs: tables.springs,
            links: tables.links,
            stencil: tables.stencil,
            gpu_masses: tables.masses,
            params: gpu_params(&model.params, None, counts),
            actuators: model.actuators.clone(),
            command_slot: crate::model::command_slots(&model.actuators),
            commands: vec![0.0; tables.commands],
            rest_changed: HashMap::new(),
            drag: None,
            time: 0.0,
            steps: 0,
            host_dissipated: 0.0,
            host_injected: 0.0,
            failed: None,
            lost,
            stable,
            limit,
            initial_limit: limit,
        };
        world.reset();
        Ok(world)
    }
}

/// The islands of the fused steps kernel (see `crate::gpu::steps`), when the World fuses its
/// steps: asked for, the stencil variant, no energy booking, no collisions, one spring-table
/// chunk, and islands of at most `ISLAND_MASSES` masses (one invocation each) that fit one
/// dispatch. The stencil then lists its muscles (an empty list without any), as the fused kernel
/// sets them before each walk.
fn fused_islands(
    plan: &Plan,
    tables: &mut Tables,
    options: &WorldOptions,
    chunks: &[crate::gpu::plan::ChunkPlan],
    collisions: &Option<CollisionTables>,
) -> Option<Islands> {
    if !options.fuse_steps
        || tables.stencil.is_none()
        || plan.track_energy
        || collisions.is_some()
        || chunks.len() != 1
    {
        return None;
    }
    let masses = tables.masses.len();
    let ranges = islands(&tables.springs.springs, masses, ISLAND_MASSES)?;
    let workgroups = (ranges.len() as u64).div_ceil(u64::from(plan.granularity.workgroup_size));
    if workgroups > u64::from(plan.max_workgroups()) {
        return None;
    }
    let muscles = tables.muscles.get_or_insert_with(|| MuscleSlots {
        starts: vec![0; masses + 1],
        slots: Vec::new(),
    });
    let (outside, _) = tables.outside.as_ref()?;
    let steps_per_dispatch = steps_per_dispatch(
        &ranges,
        &muscles.starts,
        outside,
        tables.obstacles.records.len() as u64,
        plan.steps_per_submission,
    );
    Some(Islands {
        ranges,
        steps_per_dispatch,
    })
}

/// The pipelines of a World with `tables` under `plan`, specialised to the model; the fused
/// steps kernel when `fused`.
fn compile(
    device: &wgpu::Device,
    plan: &Plan,
    tables: &Tables,
    collisions: bool,
    fused: bool,
) -> (Pipelines, Specialization) {
    let materials = &tables.springs.materials;
    let fixed_point = plan.fixed_point;
    let specialization = Specialization {
        fixed_scale: 1.0 / fixed_point.quantum,
        spring_force_limit: fixed_point.spring_limit,
        track_energy: plan.track_energy,
        uniform_material: if materials.len() == 1 {
            Some(materials[0])
        } else {
            None
        },
        has_actuators: !tables.springs.spring_actuator.is_empty(),
        has_commands: tables.commands > 0,
        has_oscillators: !tables.oscillators.is_empty(),
        obstacles: tables.obstacles.records.len() as u32,
        grid_origin: tables.obstacles.grid.origin.to_array(),
        grid_inverse_cell: tables.obstacles.grid.inverse_cell,
        grid_columns: tables.obstacles.grid.columns,
        grid_rows: tables.obstacles.grid.rows,
        collisions,
        contacts: false,
        packed_forces: plan.packed_forces,
        granularity: plan.granularity,
    };
    let constants = layout::constants(&specialization);
    let links = tables.springs.springs.len() as u32;
    let stencil = tables
        .stencil
        .as_ref()
        .zip(tables.outside.as_ref())
        .map(|(st, (_, any))| {
            let muscles = tables.muscles.is_some();
            let body = st.wgsl(SPRINGS_STENCIL, links, *any, plan.precision, muscles, false);
            (Stencil::layout(muscles), body)
        });
    let steps = tables
        .stencil
        .as_ref()
        .zip(tables.outside.as_ref())
        .filter(|_| fused)
        .map(|(st, (_, any))| {
            let body = st.wgsl(SPRINGS_STENCIL, links, *any, plan.precision, true, true);
            body + STEPS_BODY
        });
    let compile = Compile {
        bits: fixed_point.bits,
        wide: plan.wide_words,
        packed: plan.packed_forces,
        precision: plan.precision,
        constants: &constants,
    };
    (
        Pipelines::new(
            device,
            &compile,
            stencil.as_ref().map(|(l, b)| (*l, b.as_str())),
            steps.as_deref(),
            collisions,
        ),
        specialization,
    )
}
