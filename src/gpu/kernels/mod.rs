//! The kernels: one module per kernel, or per family of kernels that share one binding list
//! (the collision pass's eight, the two sensor kernels), beside its WGSL (`shaders/<stem>.wgsl`).
//! A module holds the kernel's [`KernelSource`] (its fragments, WGSL and bindings), the bind
//! group that says which buffer each binding sees, and whatever only it owns (its own tables,
//! buffers and dispatches: the collision pass's grid, the sensors' request, the fused steps'
//! islands). The World's shared buffers come from the build's stages (`tables`, `plan`,
//! `buffers`); `bind.rs` and `pipelines.rs` make every kernel's bind groups and pipelines from
//! what these modules declare; `world/` records the dispatches.

pub(crate) mod bodies;
pub(crate) mod collisions;
pub(crate) mod energy_masses;
pub(crate) mod energy_springs;
pub(crate) mod integrate;
pub(crate) mod publish;
pub(crate) mod sense;
pub(crate) mod springs;
pub(crate) mod springs_stencil;
pub(crate) mod steps;

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{KernelSource, Slot};
use crate::gpu::plan::limits::{KernelNeeds, KernelTable};

/// A kernel module's `buffers`: the World's buffer each of its bindings sees.
pub(crate) type BuffersOf = fn(&Buffers) -> Vec<&wgpu::Buffer>;

/// Declares [`Simple`] from its list: each entry a kernel module and its variant.
macro_rules! simple_kernels {
    ($($module:ident => $variant:ident),* $(,)?) => {
        /// The kernels bound once over the World's shared buffers: one bind group each (whole
        /// buffers, as their module's `buffers` lists them) and one pipeline (their module's
        /// `SOURCE` as it is). The bindings and pipelines stages make them all from this list
        /// (`Bindings::simple`, `Pipelines::simple`), and [`kernels`] and the naga tests see
        /// them through it, so such a kernel is its module, its entry in the list and where the
        /// World runs it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Simple {
            $($variant),*
        }

        impl Simple {
            /// Every one, in the order the stages store them.
            pub(crate) const ALL: &[Self] = &[$(Self::$variant),*];

            /// Its source and the buffers it binds.
            pub(crate) fn kernel(self) -> (&'static KernelSource, BuffersOf) {
                match self {
                    $(Self::$variant => (&$module::SOURCE, $module::buffers)),*
                }
            }
        }
    };
}

simple_kernels! {
    integrate => Integrate,
    publish => Publish,
    energy_masses => EnergyMasses,
    bodies => Bodies,
}

/// The kernels with a WGSL file of their own and a module that is not in [`Simple`]'s list (the
/// fused steps kernel's source is generated: [`steps::SOURCE`]).
const OWN_MODULE: [&KernelSource; 12] = [
    &springs::SOURCE,
    &energy_springs::SOURCE,
    &collisions::SOURCES[0],
    &collisions::SOURCES[1],
    &collisions::SOURCES[2],
    &collisions::SOURCES[3],
    &collisions::SOURCES[4],
    &collisions::SOURCES[5],
    &collisions::SOURCES[6],
    &collisions::SOURCES[7],
    &sense::BODIES,
    &sense::GATHER,
];

/// Every kernel with a WGSL file of its own: [`Simple`]'s, then the others.
pub(crate) fn kernels() -> impl Iterator<Item = &'static KernelSource> {
    Simple::ALL.iter().map(|k| k.kernel().0).chain(OWN_MODULE)
}

/// The kernel of stem `stem` (the fused steps kernel included).
pub(crate) fn kernel(stem: &str) -> &'static KernelSource {
    kernels()
        .chain(std::iter::once(&steps::SOURCE))
        .find(|k| k.stem == stem)
        .expect("unknown kernel stem")
}

/// The bindings of bind group layout `layout`: a kernel's stem, or one of the stencil
/// variants of `springs` (`springs_stencil`, `springs_stencil_muscles`).
pub(crate) fn bindings(layout: &str) -> &'static [Slot] {
    match layout {
        "springs_stencil" => &springs::STENCIL_BINDINGS,
        "springs_stencil_muscles" => &springs::STENCIL_MUSCLES_BINDINGS,
        stem => kernel(stem).bindings,
    }
}

/// The needs of bind group layout `layout` (see [`bindings`]).
fn needs_of(layout: &'static str) -> KernelNeeds {
    let stepped = match layout {
        "springs_stencil" | "springs_stencil_muscles" => springs::SOURCE.stepped,
        stem => kernel(stem).stepped,
    };
    KernelNeeds::of(layout, bindings(layout), stepped)
}

/// What the kernels a World may bind need from the device's limits, for the plan to choose
/// among them.
pub(crate) fn needs() -> KernelTable {
    let always = std::iter::once(energy_springs::SOURCE.stem)
        .chain(Simple::ALL.iter().map(|k| k.kernel().0.stem))
        .chain([sense::BODIES.stem, sense::GATHER.stem])
        .map(needs_of)
        .collect();
    KernelTable {
        links: needs_of("springs"),
        stencil: needs_of("springs_stencil"),
        stencil_muscles: needs_of("springs_stencil_muscles"),
        steps: needs_of(steps::SOURCE.stem),
        collisions: needs_of(collisions::SOURCES[0].stem),
        always,
    }
}

/// What every kernel of the GPU World needs from the device's limits, one entry per bind group
/// layout: the spring pass in its three variants (`springs`, `springs_stencil`,
/// `springs_stencil_muscles`) and the fused steps kernel (`steps`), then every other kernel by
/// stem (the collision pass's eight share one layout and are listed each). A World binds only
/// the kernels its plan runs, and falls back from the fused steps and the stencil variant when
/// the device allows too few storage buffers (the guide's backends page, "Adapters and
/// limits").
#[must_use]
pub fn kernel_needs() -> Vec<KernelNeeds> {
    [
        "springs",
        "springs_stencil",
        "springs_stencil_muscles",
        "steps",
    ]
    .into_iter()
    .chain(kernels().map(|k| k.stem).filter(|&s| s != "springs"))
    .map(needs_of)
    .collect()
}

/// The group-0 bind group layout entries Rust builds for `layout` (see [`bindings`]).
#[cfg(test)]
pub(crate) fn layout_entries(layout: &str) -> Vec<wgpu::BindGroupLayoutEntry> {
    crate::gpu::kernel::entries(bindings(layout))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::granularity::Granularity;
    use crate::gpu::kernel::{step_layout, Compile, Kernel};
    use crate::gpu::layout::{constants, GpuMaterial, Specialization};
    use crate::gpu::real::Precision;

    /// A specialisation that turns every optional branch on (actuators, commands, oscillators,
    /// obstacles, collisions, contacts), so that every line of every kernel is compiled.
    fn everything() -> Specialization {
        Specialization {
            fixed_scale: 2f64.powi(40),
            spring_force_limit: 1e6,
            track_energy: true,
            uniform_material: Some(GpuMaterial::default()),
            has_actuators: true,
            has_commands: true,
            has_oscillators: true,
            packed_forces: false,
            obstacles: 1,
            grid_origin: [0.0, 0.0],
            grid_inverse_cell: 1.0,
            grid_columns: 1,
            grid_rows: 1,
            collisions: true,
            contacts: true,
            granularity: Granularity::for_device(wgpu::DeviceType::Cpu, 1 << 16),
        }
    }

    /// Every kernel compiles to a pipeline in f64 on the test adapter (lavapipe: its SPIR-V
    /// compiler takes the f64 sine of real_f64.wgsl, `bitcast<f64>(u64)` and f64 overrides).
    /// Skipped, saying so, on an adapter without `SHADER_F64`.
    #[test]
    fn every_kernel_compiles_in_f64_on_the_device() {
        let (device, _queue) = crate::gpu::request_device().expect("a test adapter");
        if !device.features().contains(wgpu::Features::SHADER_F64) {
            eprintln!("skipped: {} has no SHADER_F64", device.adapter_info().name);
            return;
        }
        let constants = constants(&everything());
        let compile = Compile {
            bits: 64,
            wide: true,
            packed: false,
            precision: Precision::F64,
            constants: &constants,
        };
        let step_layout = step_layout(&device, Precision::F64);
        for kernel in kernels() {
            let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let _ = Kernel::new(&device, &compile, kernel, &step_layout);
            let error = pollster::block_on(scope.pop());
            assert!(error.is_none(), "{} in f64: {error:?}", kernel.stem);
        }
    }
}
