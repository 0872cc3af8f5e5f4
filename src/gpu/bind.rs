//! Bind groups: which buffer each kernel binding sees, and the spring table's chunks (each its
//! own bind groups and dispatch).

use wgpu::util::DeviceExt;

use super::buffers::Buffers;
use super::layout::{array_bytes, EnergySlot, GpuSpringPartial, GpuStep, MaterialIndex};
use super::pipelines::{Kernel, Pipelines};
use super::plan::{ChunkPlan, Dispatch, Plan};
use super::steps::{FusedSteps, Islands};
use super::tables::link_bytes;

/// The bind groups of the kernels that see whole buffers.
#[derive(Debug)]
pub(crate) struct BindGroups {
    pub(crate) integrate: wgpu::BindGroup,
    pub(crate) publish: wgpu::BindGroup,
    pub(crate) energy_masses: wgpu::BindGroup,
    pub(crate) bodies: wgpu::BindGroup,
    /// Group 1 of the stepped kernels: one step's uniform, at a dynamic offset.
    pub(crate) step: wgpu::BindGroup,
}

/// One chunk of the spring table (see [`Plan::chunks`]), with its own bind groups and dispatch.
#[derive(Debug)]
pub(crate) struct SpringChunk {
    pub(crate) dispatch: Dispatch,
    pub(crate) springs: wgpu::BindGroup,
    pub(crate) energy: wgpu::BindGroup,
}

/// `size` bytes of `buffer` from `offset`, as a binding.
fn range(buffer: &wgpu::Buffer, offset: u64, size: u64) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer,
        offset,
        size: wgpu::BufferSize::new(size),
    })
}

/// A bind group of `kernel` with `resources` at bindings 0, 1, ...
pub(crate) fn bind(
    device: &wgpu::Device,
    kernel: &Kernel,
    label: &str,
    resources: Vec<wgpu::BindingResource<'_>>,
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = resources
        .into_iter()
        .enumerate()
        .map(|(i, resource)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource,
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &kernel.layout,
        entries: &entries,
    })
}

/// Whole buffers as bindings.
fn whole<'a>(buffers: &[&'a wgpu::Buffer]) -> Vec<wgpu::BindingResource<'a>> {
    buffers.iter().map(|b| b.as_entire_binding()).collect()
}

/// The bind group of `integrate` (rebuilt when a sensor turns the contact recording on).
pub(crate) fn integrate_group(
    device: &wgpu::Device,
    kernel: &Kernel,
    b: &Buffers,
) -> wgpu::BindGroup {
    bind(
        device,
        kernel,
        "hooke::integrate",
        whole(&[
            &b.params,
            &b.masses,
            &b.oscillators,
            &b.state,
            &b.forces,
            &b.status,
            &b.mass_slots,
            &b.obstacles,
            &b.obstacle_words,
            &b.touch,
            &b.contacts,
        ]),
    )
}

impl BindGroups {
    pub(crate) fn new(
        device: &wgpu::Device,
        pipelines: &Pipelines,
        b: &Buffers,
        plan: &Plan,
    ) -> Self {
        let p = pipelines;
        Self {
            integrate: integrate_group(device, &p.integrate, b),
            publish: bind(
                device,
                &p.publish,
                "hooke::publish",
                whole(&[&b.params, &b.state, &b.positions, &b.velocities]),
            ),
            energy_masses: bind(
                device,
                &p.energy_masses,
                "hooke::energy_masses",
                whole(&[
                    &b.params,
                    &b.masses,
                    &b.positions,
                    &b.velocities,
                    &b.mass_slots,
                    &b.mass_partials,
                    &b.obstacles,
                    &b.obstacle_words,
                    &b.touch,
                ]),
            ),
            bodies: bind(
                device,
                &p.bodies,
                "hooke::bodies",
                whole(&[
                    &b.params,
                    &b.bodies,
                    &b.masses,
                    &b.positions,
                    &b.velocities,
                    &b.body_sums,
                ]),
            ),
            step: device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("hooke::step"),
                layout: &p.step_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: range(&b.steps, 0, plan.precision.bytes::<GpuStep>(1)),
                }],
            }),
        }
    }
}

impl SpringChunk {
    /// The bind groups of `chunk`; `one_material` when the model's springs share one material
    /// (the shaders then never read the placeholder `link_materials` table). With `islands`
    /// (the World fuses its steps: one chunk), also the fused steps kernel's bind group and
    /// buffers, which bind the same spring-pass resources.
    pub(crate) fn new(
        device: &wgpu::Device,
        pipelines: &Pipelines,
        b: &Buffers,
        plan: &Plan,
        chunk: &ChunkPlan,
        one_material: bool,
        islands: Option<&Islands>,
    ) -> (Self, Option<FusedSteps>) {
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("hooke::chunk"),
            contents: bytemuck::bytes_of(&chunk.record),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let first = u64::from(chunk.record.first);
        let (real, link) = (plan.precision, link_bytes(plan.precision));
        let table = range(&b.links, link * first, link * chunk.links);
        let materials = if one_material {
            b.link_materials.as_entire_binding()
        } else {
            range(
                &b.link_materials,
                array_bytes::<MaterialIndex>(first),
                array_bytes::<MaterialIndex>(chunk.links),
            )
        };
        let (slot0, slots) = plan.chunk_slots(chunk);
        let slots = range(
            &b.spring_slots,
            real.bytes::<EnergySlot>(slot0),
            real.bytes::<EnergySlot>(slots),
        );
        let partials = range(
            &b.spring_partials,
            real.bytes::<GpuSpringPartial>(chunk.first_group),
            real.bytes::<GpuSpringPartial>(u64::from(chunk.dispatch.groups)),
        );
        let runs = b.stencil.as_ref().map_or(&b.runs, |s| &s.runs);
        let mut springs = vec![
            b.params.as_entire_binding(),
            table.clone(),
            materials.clone(),
            b.materials.as_entire_binding(),
            b.actuators.as_entire_binding(),
            runs.as_entire_binding(),
            b.state.as_entire_binding(),
            b.forces.as_entire_binding(),
            b.status.as_entire_binding(),
            slots.clone(),
            uniform.as_entire_binding(),
            b.commands.as_entire_binding(),
        ];
        if let Some(s) = &b.stencil {
            springs.push(s.rests.as_entire_binding());
            springs.extend(s.muscles.iter().flatten().map(|m| m.as_entire_binding()));
        }
        let energy = vec![
            b.params.as_entire_binding(),
            table,
            materials,
            b.materials.as_entire_binding(),
            b.actuators.as_entire_binding(),
            b.runs.as_entire_binding(),
            b.positions.as_entire_binding(),
            slots,
            partials,
            uniform.as_entire_binding(),
        ];
        let fused = islands
            .zip(pipelines.steps.as_ref())
            .map(|(islands, kernel)| {
                FusedSteps::new(device, kernel, springs.clone(), b, islands, plan)
            });
        let chunk = Self {
            dispatch: chunk.dispatch,
            springs: bind(device, &pipelines.springs, "hooke::springs", springs),
            energy: bind(
                device,
                &pipelines.energy_springs,
                "hooke::energy_springs",
                energy,
            ),
        };
        (chunk, fused)
    }
}
