//! The GPU [`World`]: the same physics as [`crate::CpuWorld`], in f32, as wgpu compute passes.
//!
//! One step is two dispatches, recorded back to back for many steps in one submission:
//! 1. `springs` (`shaders/springs.wgsl`): the device keeps the springs grouped by their first
//!    mass `a` in an 8-byte link table (second mass, rest length; the order is the model's when
//!    its springs are already sorted by `a`, as every builder emits them). Each invocation takes
//!    [`WorldStats::spring_masses_per_invocation`] masses and walks their springs: it computes
//!    each spring's elastic and damping force (actuated rest lengths evaluated from the step's
//!    time, or from the `commands` buffer for commanded actuators), adds it to `b` with integer atomic adds in [fixed point](fixed), so sums are exact and
//!    order-free, and sums the `a` side in registers, added once per mass.
//! 2. `integrate` (`shaders/integrate.wgsl`): each invocation takes a run of masses, decodes and
//!    clears their spring forces, adds gravity, external, drag-spring and air-drag forces, ground
//!    contact and Coulomb friction, contact and friction with each obstacle of the model's
//!    obstacle table (`shaders/shared/obstacles.wgsl`; a mass visits only the obstacles its cell
//!    of the broad-phase grid lists, and tests their bounding boxes first), and updates velocity
//!    and position.
//!
//! When a mass has a collision radius, a collision pass runs between the two (eight dispatches,
//! `src/gpu/kernels/collisions.rs`, `shaders/grid_*.wgsl` and `shaders/collide.wgsl`): the colliding
//! masses are sorted into a uniform grid on the device (the box of occupied cells, numbered
//! densely when it fits the table and hashed otherwise; count, prefix sum, scatter, and a
//! sort of each bucket so that the order does not depend on the schedule), then each gathers the
//! penalty, damping and friction forces of the masses it touches over the 27 cells around its own,
//! in the CPU twin's order, into a buffer the integrate pass reads.
//!
//! Both passes read and write positions and velocities interleaved (one 32-byte record per mass,
//! one load for a spring's second mass); a `publish` dispatch at the end of each
//! [`World::step`] call writes them to the public [`World::position_buffer`] and
//! [`World::velocity_buffer`]. Lanes of CPU adapters, which run 8 invocations in lockstep, walk
//! neighbouring masses together so that what one lockstep step touches is still in cache for the
//! next (see `walk` in `shaders/shared/common.wgsl` and `docs/PERFORMANCE.md`).
//!
//! The pipelines are specialised to the model with WGSL overrides: a model whose springs share one
//! material has it compiled in, and a model without actuators has the actuator branch compiled
//! out (without commanded actuators, the read of the commands buffer).
//!
//! Dissipated and injected energy are added by each invocation to its own running (compensated)
//! slot: no workgroup barrier in the step, and each slot is written by one invocation in a fixed
//! order, so the booking is deterministic too. Kinetic, gravitational, elastic and ground energy,
//! the slots' totals, and each body's centre of mass and mean velocity come from reduction kernels
//! (`energy_masses`, `energy_springs`, `bodies`) when asked for: the host reads per-workgroup or
//! per-body partial sums, never every mass.
//!
//! A 4-word status buffer catches a state that turns non-finite and a fixed-point overflow on the
//! GPU; it is read once per [`World::step`] call.
//!
//! # Where things are
//! Building a World runs stages, each a function of the ones before (see `world/build.rs`):
//! model -> tables -> plan -> buffers -> bindings -> pipelines.
//! - `tables/`: the model as device records (masses, springs, materials, actuators,
//!   oscillators, bodies, the colliding masses, parameters) and the f32 range checks;
//!   `obstacles.rs`: the obstacle table, heightfield samples and shape tags.
//! - `plan/`: what the device and the options decide, as plain data (atomic width, fixed
//!   point, work per invocation, dispatch sizes, the spring layout and link table order in
//!   `springs.rs`, the spring-table chunks, the fused steps' islands in `fused.rs`, the
//!   collision grid; `limits.rs`: each kernel's bindings against the device's limits, and the
//!   fallbacks; `memory.rs`: every buffer's size, checked against the limits).
//! - `buffers.rs`: the device buffers the kernels share; `bind.rs`: every kernel's bind group
//!   layout and bind groups; `pipelines.rs`: every kernel compiled.
//! - `kernels/`: one module per kernel (or family sharing one binding list) beside its
//!   `shaders/<stem>.wgsl`: its source, fragments and bindings, its bind group, and what only
//!   it owns (`collisions.rs`: the grid's buffers and dispatches; `sense.rs`: the sensors'
//!   request and decoding; `steps.rs`: the fused steps kernel; `springs_stencil.rs`: the
//!   stencil variant of the spring pass, generated per model). `kernel.rs`: what a kernel is
//!   made of and how it becomes a pipeline.
//! - `layout/`: the `#[repr(C)]` mirrors of the WGSL structs, the flags and tags passed as WGSL
//!   overrides, and (`layout/tests.rs`) the naga tests that hold Rust and WGSL together.
//! - `options.rs`: [`WorldOptions`], [`SpringPass`], [`WorldStats`]; `real.rs`: [`Precision`]
//!   and the records' encoding; `fixed.rs`: the fixed-point encoding; `granularity.rs`: work
//!   per invocation; `orient.rs`: which end of each spring the link walk takes.
//! - `pass.rs`: the one helper that records, submits and checks a compute pass;
//!   `readback.rs`: the one staging -> map -> poll sequence.
//! - `world/`: the [`World`] itself: `build.rs`, `reset.rs`, `step.rs`, `status.rs`, `read.rs`,
//!   `edit.rs`, `commands.rs`, `sense.rs`, `memory.rs` (the device memory, planned and held).
//! - `device.rs`: finding an adapter (primary backends first, OpenGL only when none answers)
//!   and opening a device; `no_adapter.rs`: what the error says when there is none.

mod bind;
mod buffers;
mod device;
pub mod fixed;
mod granularity;
mod kernel;
mod kernels;
pub(crate) mod layout;
mod no_adapter;
mod obstacles;
mod options;
mod orient;
mod pass;
mod pipelines;
mod plan;
pub(crate) mod readback;
pub(crate) mod real;
mod tables;
mod world;

pub(crate) use device::describe as describe_adapter;
pub use device::{
    adapter_summary, find_adapter, hardware_adapter, is_hardware, open_device,
    open_device_with_limits, pick_adapter, request_device, wanted_features,
};
pub use fixed::{AtomicWidth, FixedPoint, FixedPointScale};
pub use kernels::kernel_needs;
pub use options::{BufferBytes, DeviceMemory, SpringPass, WorldOptions, WorldStats};
pub use plan::limits::KernelNeeds;
pub use real::Precision;
pub use world::World;
