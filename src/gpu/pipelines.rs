//! The pipelines stage of building a World (model -> tables -> plan -> buffers -> bindings ->
//! pipelines): every kernel compiled, specialised to the model with WGSL overrides, against the
//! bind group layouts of the bindings stage.

use crate::gpu::bind::{springs_layout_name, Bindings};
use crate::gpu::kernel::{pipeline, Compile, KernelSource};
use crate::gpu::kernels::springs_stencil::SPRINGS_STENCIL;
use crate::gpu::kernels::{collisions, energy_springs, springs, steps, Simple};
use crate::gpu::layout::{self, Specialization};
use crate::gpu::plan::Plan;
use crate::gpu::tables::Tables;

/// Every pipeline of a World, one field per kernel stem.
#[derive(Debug)]
pub(crate) struct Pipelines {
    pub(crate) springs: wgpu::ComputePipeline,
    pub(crate) energy_springs: wgpu::ComputePipeline,
    /// The kernels of [`Simple`], in [`Simple::ALL`] order.
    simple: Vec<wgpu::ComputePipeline>,
    /// The collision pass's kernels, in [`collisions::SOURCES`] order, when a mass collides.
    pub(crate) collisions: Option<Vec<wgpu::ComputePipeline>>,
    /// The fused steps kernel, when the World fuses its steps (see `kernels/steps.rs`).
    pub(crate) steps: Option<wgpu::ComputePipeline>,
    /// What the pipelines are specialised to (the sensors compile against it).
    pub(crate) specialization: Specialization,
}

impl Pipelines {
    /// The pipeline of `kernel`.
    pub(crate) fn simple(&self, kernel: Simple) -> &wgpu::ComputePipeline {
        &self.simple[kernel as usize]
    }

    /// Compiles `kernel` again with the overrides `constants` (after the specialisation
    /// changed), against its layout in `bindings`.
    pub(crate) fn recompile(
        &mut self,
        device: &wgpu::Device,
        plan: &Plan,
        bindings: &Bindings,
        kernel: Simple,
    ) {
        let constants = layout::constants(&self.specialization);
        let source = kernel.kernel().0;
        self.simple[kernel as usize] = pipeline(
            device,
            &compile(plan, &constants),
            source,
            source.stem,
            source.body,
            &bindings.simple(kernel).layout,
            &bindings.step_layout,
        );
    }
}

/// What the kernels of a World with `tables` under `plan` are specialised to.
pub(crate) fn specialization(tables: &Tables, plan: &Plan) -> Specialization {
    let materials = &tables.springs.materials;
    let fixed_point = plan.fixed_point;
    let obstacles = &tables.obstacles;
    Specialization {
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
        obstacles: obstacles.records.len() as u32,
        grid_origin: obstacles.grid.origin.to_array(),
        grid_inverse_cell: obstacles.grid.inverse_cell,
        grid_columns: obstacles.grid.columns,
        grid_rows: obstacles.grid.rows,
        collisions: tables.collisions.is_some(),
        contacts: false,
        packed_forces: plan.packed_forces,
        granularity: plan.granularity,
    }
}

/// How `plan` compiles its kernels, with overrides `constants`.
pub(crate) fn compile<'a>(plan: &Plan, constants: &'a [(&'a str, f64)]) -> Compile<'a> {
    Compile {
        bits: plan.fixed_point.bits,
        wide: plan.wide_words,
        packed: plan.packed_forces,
        precision: plan.precision,
        constants,
    }
}

impl Pipelines {
    /// Compiles every kernel of a World with `tables` under `plan`, bound as `bindings` says:
    /// the spring pass in the variant the plan chose (the stencil variant generated for the
    /// model's stencil), the collision kernels when a mass collides, the fused steps kernel
    /// when the World fuses its steps.
    pub(crate) fn new(
        device: &wgpu::Device,
        tables: &Tables,
        plan: &Plan,
        bindings: &Bindings,
    ) -> Self {
        let specialization = specialization(tables, plan);
        let constants = layout::constants(&specialization);
        let compile = compile(plan, &constants);
        let step = &bindings.step_layout;
        let build = |kernel: &KernelSource, group0: &wgpu::BindGroupLayout| {
            pipeline(
                device,
                &compile,
                kernel,
                kernel.stem,
                kernel.body,
                group0,
                step,
            )
        };
        let links = tables.springs.springs.len() as u32;
        let layout = &plan.springs;
        let stencil = layout.stencil.as_ref().zip(layout.outside.as_ref());
        let springs = match stencil {
            Some((st, (_, any))) => {
                let muscles = layout.muscles.is_some();
                let body = st.wgsl(SPRINGS_STENCIL, links, *any, plan.precision, muscles, false);
                let name = springs_layout_name(plan);
                let group0 = &bindings.springs;
                pipeline(
                    device,
                    &compile,
                    &springs::SOURCE,
                    name,
                    &body,
                    group0,
                    step,
                )
            }
            None => build(&springs::SOURCE, &bindings.springs),
        };
        let fused = stencil
            .zip(bindings.fused.as_ref())
            .map(|((st, (_, any)), f)| {
                let body = st.wgsl(SPRINGS_STENCIL, links, *any, plan.precision, true, true);
                let body = body + steps::STEPS_BODY;
                pipeline(
                    device,
                    &compile,
                    &steps::SOURCE,
                    "steps",
                    &body,
                    &f.layout,
                    step,
                )
            });
        Self {
            springs,
            energy_springs: build(&energy_springs::SOURCE, &bindings.energy_springs),
            simple: Simple::ALL
                .iter()
                .map(|&k| build(k.kernel().0, &bindings.simple(k).layout))
                .collect(),
            collisions: bindings.collisions.as_ref().map(|c| {
                collisions::SOURCES
                    .iter()
                    .map(|k| build(k, &c.layout))
                    .collect()
            }),
            steps: fused,
            specialization,
        }
    }
}
