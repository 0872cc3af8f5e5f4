//! The fused steps kernel (`shaders/steps.wgsl`): every step of a submission in one dispatch, for
//! models whose masses fall into islands that no spring joins (which models, and how many steps
//! a dispatch runs: `plan/fused.rs`). CPU twin: `springs` then `integrate`, the same functions.
//!
//! A population of bodies that do not collide (a herd, robots evaluated side by side) needs no
//! synchronisation between bodies within a step, only between the spring walk and the mass
//! update of each body. One invocation that owns a whole body (an island) can run both for
//! every step on its own, which saves the two dispatches per step (on lavapipe ~45 us each,
//! waking its threads; a few us on a GPU, where a small population's step is of that order) and
//! keeps the body's data in the cache through the dispatch's steps. The walk and the mass update
//! are the passes' own functions, so the bits are the same. A failure stops only the island that
//! meets it, so the World saves the state records before each round and, when the status
//! reports a failure, restores them and reruns the round with the two passes
//! (`World::step_round`), which stop every mass at the first failing step.
//!
//! Giving each workgroup whole bodies and synchronising its invocations with workgroup
//! barriers between the walk and the update is slower: on lavapipe, which runs a kernel with
//! barriers as coroutines, that ran at 0.7x the two passes (docs/PERFORMANCE.md, "What was
//! tried and what it gave").

use wgpu::util::DeviceExt;

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{bind, Fragment, KernelSource, Slot};
use crate::gpu::layout::GpuStep;
use crate::gpu::plan::fused::Islands;
use crate::gpu::plan::Plan;
use crate::gpu::real::Precision;

/// The fused steps kernel: the fragments of `springs` and `integrate_mass`, then the stencil
/// variant generated for it (`Stencil::wgsl` with `fused`) and [`STEPS_BODY`]. Not stepped: its
/// step records are a storage table in group 0. Its bindings: the muscles variant's of the
/// spring pass with `state` written, then the integrate pass's tables, the islands, the step
/// table and the call uniform.
pub(crate) const SOURCE: KernelSource = {
    use Fragment::{Common, IntegrateMass, Obstacles, Scatter, SpringCommon, SpringPass, Words};
    use Slot::{Read, ReadWrite, Uniform};
    KernelSource {
        stem: "steps",
        fragments: &[
            Common,
            SpringCommon,
            Words,
            Scatter,
            SpringPass,
            Obstacles,
            IntegrateMass,
        ],
        body: "",
        stepped: false,
        bindings: &[
            Uniform, Read, Read, Read, ReadWrite, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite,
            Uniform, Read, ReadWrite, Read, Read, Read, Read, Read, Read, Read, ReadWrite, Read,
            Read, Uniform,
        ],
        consts: &[],
    }
};

/// `shaders/steps.wgsl`, appended to the generated stencil variant.
pub(crate) const STEPS_BODY: &str = include_str!("../../../shaders/steps.wgsl");

/// What a World that fuses its steps keeps: the kernel's bind group and its own buffers.
#[derive(Debug)]
pub(crate) struct FusedSteps {
    group: wgpu::BindGroup,
    /// Islands: one invocation each.
    islands: u32,
    /// Steps per dispatch (and per submission): see [`steps_per_dispatch`].
    pub(crate) steps_per_dispatch: u64,
    /// Workgroups of the dispatch.
    workgroups: u32,
    /// The dispatch's `GpuStep` records, in order (storage).
    step_table: wgpu::Buffer,
    /// (steps in the dispatch, islands, 0, 0).
    call: wgpu::Buffer,
    /// The state records as they were before the last fused round.
    snapshot: wgpu::Buffer,
    precision: Precision,
}

impl FusedSteps {
    /// The buffers and bind group (of `layout`) for `islands`, with `springs` the resources of
    /// the spring pass's bindings 0-14 (state bound writable) and `b` the World's buffers, for
    /// dispatches of up to `islands.steps_per_dispatch` steps.
    pub(crate) fn new(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        springs: Vec<wgpu::BindingResource<'_>>,
        b: &Buffers,
        islands: &Islands,
        plan: &Plan,
    ) -> Self {
        let steps_per_dispatch = islands.steps_per_dispatch;
        let precision = plan.precision;
        let islands = islands.ranges.as_slice();
        let island_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("hooke::islands"),
            contents: bytemuck::cast_slice(islands),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let step_table = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::step_table"),
            size: precision.bytes::<GpuStep>(steps_per_dispatch),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let call = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::call"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let snapshot = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::state_snapshot"),
            size: b.state.size(),
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut resources = springs;
        resources.extend([
            b.masses.as_entire_binding(),
            b.oscillators.as_entire_binding(),
            b.obstacles.as_entire_binding(),
            b.obstacle_words.as_entire_binding(),
            b.touch.as_entire_binding(),
            b.contacts.as_entire_binding(),
            island_buffer.as_entire_binding(),
            step_table.as_entire_binding(),
            call.as_entire_binding(),
        ]);
        let group = bind(device, layout, "hooke::steps", resources);
        Self {
            group,
            steps_per_dispatch,
            islands: islands.len() as u32,
            workgroups: (islands.len() as u64).div_ceil(u64::from(plan.granularity.workgroup_size))
                as u32,
            step_table,
            call,
            snapshot,
            precision,
        }
    }

    /// Writes the records of the next submission's steps.
    pub(crate) fn write_steps(&self, queue: &wgpu::Queue, steps: &[GpuStep]) {
        queue.write_buffer(&self.step_table, 0, &self.precision.encode(steps));
        let call = [steps.len() as u32, self.islands, 0, 0];
        queue.write_buffer(&self.call, 0, bytemuck::cast_slice(&call));
    }

    /// Records the dispatch that runs the written steps.
    pub(crate) fn record(
        &self,
        pipeline: &wgpu::ComputePipeline,
        pass: &mut wgpu::ComputePass<'_>,
    ) {
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.dispatch_workgroups(self.workgroups, 1, 1);
    }

    /// Copies the state records to the snapshot.
    pub(crate) fn save(&self, encoder: &mut wgpu::CommandEncoder, state: &wgpu::Buffer) {
        encoder.copy_buffer_to_buffer(state, 0, &self.snapshot, 0, state.size());
    }

    /// Copies the snapshot back to the state records.
    pub(crate) fn restore(&self, encoder: &mut wgpu::CommandEncoder, state: &wgpu::Buffer) {
        encoder.copy_buffer_to_buffer(&self.snapshot, 0, state, 0, state.size());
    }
}
