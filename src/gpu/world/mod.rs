//! The [`World`] type: its fields and accessors here; each stage of its life in a file of its
//! own, one `impl World` block each: `build.rs` (a World from a model), `reset.rs` (the initial
//! state, the only writer of it), `step.rs` (the step passes), `status.rs` (what the step
//! kernels report: non-finite state, fixed-point overflow, device loss), `read.rs` (readback and
//! reductions), `edit.rs` (setters) and `commands.rs` (the commanded actuators' commands).

mod build;
mod commands;
mod edit;
mod memory;
mod read;
mod reset;
mod sense;
mod status;
mod step;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::gpu::bind::Bindings;
use crate::gpu::buffers::Buffers;
use crate::gpu::fixed::FixedPoint;
use crate::gpu::kernels::collisions;
use crate::gpu::kernels::sense::SenseState;
use crate::gpu::kernels::steps::FusedSteps;
use crate::gpu::layout::{GpuMass, GpuParams};
use crate::gpu::options::{WorldOptions, WorldStats};
use crate::gpu::pipelines::Pipelines;
use crate::gpu::plan::Plan;
use crate::gpu::real::Precision;
use crate::gpu::tables::SpringTable;
use crate::model::DragSpring;
use crate::model::{Actuator, BlowUp, Body, Mass, Params, SpeedLimit, StableDt};

/// The GPU simulation of a [`Model`](crate::Model): the physics of [`crate::CpuWorld`] in f32 on
/// any adapter wgpu finds, or in f64 ([`Precision::F64`]) where the adapter has `SHADER_F64`.
///
/// State stays on the GPU; [`World::positions`], [`World::velocities`], [`World::energy`] and
/// [`World::bodies`] read back only what they report. Results are bit-identical from run to run
/// on the same adapter (see [`fixed`](super::fixed)).
///
/// Buffers a renderer on the same device may read:
/// [`World::position_buffer`] is `array<vec4<f32>>` (`array<vec4<f64>>` in [`Precision::F64`]),
/// one element per mass in model order, xyz the position in m and w = 1;
/// [`World::velocity_buffer`] is the same with velocities in m/s and w = 0. Both have usage `STORAGE | COPY_SRC | COPY_DST` (and `VERTEX` for positions).
///
/// # Examples
///
/// Drop a cube in free fall for 0.1 s, then read back the centre of mass, the energy and the
/// positions:
///
/// ```
/// use hooke::{Builder, Cube, DVec3, Model, Params, Placement, World};
/// # if cfg!(skip_gpu_tests) { return Ok(()); } // HOOKE_SKIP_GPU_TESTS=1: no adapter wanted
///
/// let mut model = Model::new(Params::default());
/// model.add("cube", Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 1.0)))?);
/// let mut world = World::new(&model)?; // a GPU, or lavapipe on a machine without one
/// world.step(1000)?; // 0.1 s of 1e-4 s steps, one submission, no readback
///
/// // Semi-implicit Euler drops a free body by g dt^2 n (n + 1) / 2 in n steps. The f32 state
/// // (about 1 m) rounds by at most half an ulp, 6e-8 m, per step: below 1e-4 m in 1000 steps.
/// let drop = 9.81 * 1e-4 * 1e-4 * 1000.0 * 1001.0 / 2.0;
/// let centre = world.body_centre_of_mass(0)?; // a GPU reduction
/// assert!((centre.z - (1.05 - drop)).abs() < 1e-4);
/// // All 0.8 kg move at v = g dt n; the f32 velocity rounds by at most 6e-8 m/s per step, so
/// // the kinetic energy m v^2 / 2 is off by less than m v 6e-5 m/s = 5e-5 J.
/// let v = 9.81 * 1e-4 * 1000.0;
/// assert!((world.energy()?.kinetic - 0.5 * 0.8 * v * v).abs() < 1e-4);
/// assert_eq!(world.positions()?.len(), 8);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Debug)]
pub struct World {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter_info: wgpu::AdapterInfo,
    /// Set by the device-lost callback.
    lost: Arc<Mutex<Option<String>>>,
    options: WorldOptions,
    /// What the World keeps of its model.
    model: HostModel,
    /// The stages of the build (see `build.rs`): each made from the ones before, read-only
    /// afterwards except where a sensor first asks for contacts (`sense.rs`). Of the tables
    /// the World keeps the springs (the setters and readers look them up; the mass records
    /// move to the run state).
    springs: SpringTable,
    plan: Plan,
    buffers: Buffers,
    bindings: Bindings,
    pipelines: Pipelines,
    /// The sensors' kernels, tables and contact recording, made on first use.
    sense_state: SenseState,
    /// What changes as the World runs.
    run: RunState,
}

/// What a World keeps of its model: what `reset` returns to, and what the readers need.
#[derive(Debug)]
struct HostModel {
    masses: Vec<Mass>,
    bodies: Vec<Body>,
    actuators: Vec<Actuator>,
    params: Params,
    /// The model's stable time step estimate.
    stable: StableDt,
    /// The broad phase and exclusions for [`World::contacts`], when a mass collides.
    contact_finder: Option<crate::model::CollisionPairs>,
}

/// Why a World stopped.
#[derive(Clone, Debug)]
pub(super) enum Failure {
    NonFinite { mass: usize, step: u64, time: f64 },
    BlowUp(BlowUp),
    Overflow { step: u64, spring: u32 },
}

/// The host's side of a World's state as it runs (the device holds the rest).
#[derive(Debug)]
struct RunState {
    /// The device's mass records as last written.
    gpu_masses: Vec<GpuMass>,
    /// The parameters uniform as last written.
    params: GpuParams,
    /// The actuators in force.
    actuators: Vec<Actuator>,
    /// The command slot of each actuator (`None` for a sine one); see `commands.rs`.
    command_slot: Vec<Option<usize>>,
    /// The commands as last written to the device (relative rest-length changes).
    commands: Vec<f64>,
    /// Rest lengths changed by `set_rest_length`, m.
    rest_changed: HashMap<usize, f64>,
    drag: Option<DragSpring>,
    /// Simulation time, s.
    time: f64,
    steps: u64,
    /// Energy booked on the host (`set_fixed`, `set_rest_length`), J.
    host_dissipated: f64,
    host_injected: f64,
    failed: Option<Failure>,
    /// The blow-up bound in force (raised by the setters).
    limit: SpeedLimit,
    /// The blow-up bound `reset` returns to (the model's, or the one a population pinned).
    initial_limit: SpeedLimit,
}

impl World {
    /// The fused steps kernel's buffers and bind group, when the World fuses its steps.
    fn fused(&self) -> Option<&FusedSteps> {
        self.bindings.fused.as_ref().map(|f| &f.steps)
    }

    /// Replaces the blow-up bound, now and after every reset (a population pins it so that it
    /// does not depend on the other robots; see [`crate::population`]).
    pub(crate) fn pin_speed_limit(&mut self, limit: crate::model::SpeedLimit) {
        self.run.limit = limit;
        self.run.initial_limit = limit;
    }

    /// The real type its kernels compute and store the state in ([`WorldOptions::precision`]).
    #[must_use]
    pub fn precision(&self) -> Precision {
        self.plan.precision
    }

    /// The adapter this World runs on (name, backend, device type).
    #[must_use]
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.adapter_info
    }

    /// The device this World runs on.
    #[must_use]
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue this World submits to.
    #[must_use]
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The position buffer: `array<vec4<f32>>` (`array<vec4<f64>>` in [`Precision::F64`]), one
    /// element per mass in model order, xyz the position in m, w = 1. Usage `STORAGE | VERTEX | COPY_SRC | COPY_DST`. A renderer on the
    /// same device can draw from it directly; it changes only when the World steps or resets.
    #[must_use]
    pub fn position_buffer(&self) -> &wgpu::Buffer {
        &self.buffers.positions
    }

    /// The velocity buffer: `array<vec4<f32>>` (`array<vec4<f64>>` in [`Precision::F64`]), xyz
    /// the velocity in m/s, w = 0.
    #[must_use]
    pub fn velocity_buffer(&self) -> &wgpu::Buffer {
        &self.buffers.velocities
    }

    /// The fixed-point encoding in force (width, quantum, ranges).
    #[must_use]
    pub fn fixed_point(&self) -> FixedPoint {
        self.plan.fixed_point
    }

    /// The options this World was built with.
    #[must_use]
    pub fn options(&self) -> WorldOptions {
        self.options
    }

    /// Device memory and per-step work of this World (see [`WorldStats`]).
    #[must_use]
    pub fn stats(&self) -> WorldStats {
        let b = &self.buffers;
        let springs = self.springs.springs.len().max(1) as f64;
        let masses = self.model.masses.len().max(1) as f64;
        let granularity = self.plan.granularity;
        let collision_bytes: u64 = self
            .bindings
            .collisions
            .iter()
            .flat_map(|c| c.pass.buffers())
            .map(wgpu::Buffer::size)
            .sum();
        let collision_dispatches = if self.bindings.collisions.is_some() {
            collisions::SOURCES.len() as u32
        } else {
            0
        };
        WorldStats {
            bytes_per_spring: (b.links.size() + b.link_materials.size() + b.spring_slots.size())
                as f64
                / springs,
            bytes_per_mass: (b.positions.size()
                + b.velocities.size()
                + b.state.size()
                + b.forces.size()
                + b.masses.size()
                + b.runs.size()
                + b.stencil_bytes()
                + b.mass_slots.size()
                + b.touch.size()
                + collision_bytes) as f64
                / masses,
            device_bytes: b.all().map(wgpu::Buffer::size).sum::<u64>() + collision_bytes,
            dispatches_per_step: if self.fused().is_some() {
                0
            } else {
                self.bindings.chunks.len() as u32 + 1 + collision_dispatches
            },
            steps_per_submission: self.options.steps_per_submission.max(1),
            spring_masses_per_invocation: granularity.spring_masses_per_invocation,
            masses_per_invocation: granularity.masses_per_invocation,
            stencil_offsets: self
                .plan
                .springs
                .stencil
                .as_ref()
                .map_or(0, |st| st.offsets().len() as u32),
            stencil_springs: self
                .plan
                .springs
                .stencil
                .as_ref()
                .map_or(0, |st| st.held() as u64),
        }
    }

    /// Simulation time in s.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.run.time
    }

    /// Steps taken since the start (or the last reset).
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.run.steps
    }

    /// The time step, s.
    #[must_use]
    pub fn dt(&self) -> f64 {
        self.model.params.dt
    }

    /// The model's stable time step estimate ([`Model::stable_dt`](crate::Model::stable_dt),
    /// computed when the World was built).
    #[must_use]
    pub fn stable_dt(&self) -> &StableDt {
        &self.model.stable
    }

    /// Number of masses.
    #[must_use]
    pub fn mass_count(&self) -> usize {
        self.model.masses.len()
    }

    /// Number of springs.
    #[must_use]
    pub fn spring_count(&self) -> usize {
        self.springs.springs.len()
    }

    /// The model's bodies.
    #[must_use]
    pub fn bodies_of_model(&self) -> &[Body] {
        &self.model.bodies
    }

    /// The actuators in force.
    #[must_use]
    pub fn actuators(&self) -> &[Actuator] {
        &self.run.actuators
    }
}
