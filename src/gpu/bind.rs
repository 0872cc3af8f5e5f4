//! The bindings stage of building a World (model -> tables -> plan -> buffers -> bindings ->
//! pipelines): every kernel's bind group layout, made from the bindings its module declares
//! (`kernels/`), and its bind groups over the World's buffers; the spring table's chunks (each
//! its own bind groups and dispatch); the collision pass and the fused steps kernel with the
//! buffers only they own.

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{bind, group_layout, range, step_layout, whole, KernelSource};
use crate::gpu::kernels::collisions::{CollisionPass, Shared};
use crate::gpu::kernels::springs::{chunk_uniform, resources, SpringChunk};
use crate::gpu::kernels::springs_stencil::Stencil;
use crate::gpu::kernels::steps::FusedSteps;
use crate::gpu::kernels::{bindings, collisions, energy_springs, steps, Simple};
use crate::gpu::layout::GpuStep;
use crate::gpu::plan::Plan;
use crate::gpu::tables::Tables;

/// A kernel's group-0 layout and its one bind group.
#[derive(Debug)]
pub(crate) struct Bound {
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) group: wgpu::BindGroup,
}

/// The collision pass: its kernels' shared layout, and its buffers, bind group and dispatches.
#[derive(Debug)]
pub(crate) struct CollisionBinding {
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) pass: CollisionPass,
}

/// The fused steps kernel: its layout, and its buffers and bind group.
#[derive(Debug)]
pub(crate) struct FusedBinding {
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) steps: FusedSteps,
}

/// Every bind group layout and bind group of a World.
#[derive(Debug)]
pub(crate) struct Bindings {
    /// Group 1 of the stepped kernels: one step's uniform, at a dynamic offset.
    pub(crate) step_layout: wgpu::BindGroupLayout,
    pub(crate) step: wgpu::BindGroup,
    /// The spring pass's layout (of the variant the World runs), `energy_springs`' layout, and
    /// each chunk of the spring table with its bind groups of both.
    pub(crate) springs: wgpu::BindGroupLayout,
    pub(crate) energy_springs: wgpu::BindGroupLayout,
    pub(crate) chunks: Vec<SpringChunk>,
    /// The kernels of [`Simple`], in [`Simple::ALL`] order.
    simple: Vec<Bound>,
    /// When a mass collides.
    pub(crate) collisions: Option<CollisionBinding>,
    /// When the World fuses its steps (see `kernels/steps.rs`).
    pub(crate) fused: Option<FusedBinding>,
}

/// The layout of `kernel`'s group 0, labelled by its stem.
fn layout_of(device: &wgpu::Device, kernel: &KernelSource) -> wgpu::BindGroupLayout {
    group_layout(device, &format!("hooke::{}", kernel.stem), kernel.bindings)
}

/// The bind group layout name of the spring pass's variant under `plan` (see
/// [`bindings`](crate::gpu::kernels::bindings)).
pub(crate) fn springs_layout_name(plan: &Plan) -> &'static str {
    match &plan.springs.stencil {
        Some(_) => Stencil::layout(plan.springs.muscles.is_some()),
        None => "springs",
    }
}

impl Bindings {
    /// The bindings of a World with `tables` under `plan` over `b`.
    pub(crate) fn new(device: &wgpu::Device, tables: &Tables, plan: &Plan, b: &Buffers) -> Self {
        let name = springs_layout_name(plan);
        let springs = group_layout(device, &format!("hooke::{name}"), bindings(name));
        let energy = layout_of(device, &energy_springs::SOURCE);
        let step = step_layout(device, plan.precision);
        Self {
            step: device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("hooke::step"),
                layout: &step,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: range(&b.steps, 0, plan.precision.bytes::<GpuStep>(1)),
                }],
            }),
            step_layout: step,
            chunks: plan
                .chunks
                .iter()
                .map(|c| SpringChunk::new(device, &springs, &energy, b, plan, c))
                .collect(),
            springs,
            energy_springs: energy,
            simple: Simple::ALL
                .iter()
                .map(|&k| {
                    let layout = layout_of(device, k.kernel().0);
                    let group = simple_group(device, k, &layout, b);
                    Bound { layout, group }
                })
                .collect(),
            collisions: collision_binding(device, tables, plan, b),
            fused: fused_binding(device, plan, b),
        }
    }
}

impl Bindings {
    /// The layout and bind group of `kernel`.
    pub(crate) fn simple(&self, kernel: Simple) -> &Bound {
        &self.simple[kernel as usize]
    }

    /// Binds `kernel` again over `b` (after one of its buffers was replaced).
    pub(crate) fn rebind(&mut self, device: &wgpu::Device, kernel: Simple, b: &Buffers) {
        let bound = &mut self.simple[kernel as usize];
        bound.group = simple_group(device, kernel, &bound.layout, b);
    }
}

/// The bind group of `kernel` (of `layout`) over the whole buffers it lists.
fn simple_group(
    device: &wgpu::Device,
    kernel: Simple,
    layout: &wgpu::BindGroupLayout,
    b: &Buffers,
) -> wgpu::BindGroup {
    let (source, buffers) = kernel.kernel();
    let label = format!("hooke::{}", source.stem);
    bind(device, layout, &label, whole(&buffers(b)))
}

/// The collision pass's binding, when a mass collides.
fn collision_binding(
    device: &wgpu::Device,
    tables: &Tables,
    plan: &Plan,
    b: &Buffers,
) -> Option<CollisionBinding> {
    let (t, grid) = tables.collisions.as_ref().zip(plan.grid.as_ref())?;
    let layout = layout_of(device, &collisions::SOURCES[0]);
    let shared = Shared {
        masses: &b.masses,
        state: &b.state,
        touch: &b.touch,
    };
    let pass = CollisionPass::new(device, plan, t, grid, &layout, &shared);
    Some(CollisionBinding { layout, pass })
}

/// The fused steps kernel's binding, when the World fuses its steps (one chunk): the spring
/// pass's resources of that chunk, then its own.
fn fused_binding(device: &wgpu::Device, plan: &Plan, b: &Buffers) -> Option<FusedBinding> {
    let islands = plan.fused.as_ref()?;
    let chunk = plan.chunks.first()?;
    let layout = layout_of(device, &steps::SOURCE);
    let uniform = chunk_uniform(device, chunk);
    let springs = resources(b, plan, chunk, &uniform);
    let steps = FusedSteps::new(device, &layout, springs, b, islands, plan);
    Some(FusedBinding { layout, steps })
}
