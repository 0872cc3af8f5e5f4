//! `energy_springs` (`shaders/energy_springs.wgsl`): elastic energy as per-workgroup partial
//! sums, and the spring pass's energy slots' totals, bound per chunk of the link table like the
//! spring pass (`springs.rs`). CPU twin: `src/cpu/energy_springs.rs`.

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{Fragment, KernelSource, Slot};

/// The kernel.
pub(crate) const SOURCE: KernelSource = {
    use Fragment::{Common, SpringCommon, Words};
    use Slot::{Read, ReadWrite, Uniform};
    KernelSource {
        stem: "energy_springs",
        fragments: &[Common, SpringCommon, Words],
        body: include_str!("../../../shaders/energy_springs.wgsl"),
        stepped: false,
        bindings: &[
            Uniform, Read, Read, Read, Read, Read, Read, Read, ReadWrite, Uniform,
        ],
        consts: &[],
    }
};

/// What each binding of [`SOURCE`] sees for one chunk: `chunk` is the chunk's links, their
/// materials, its energy slots and partial sums; `uniform` the chunk's uniform.
pub(crate) fn resources<'a>(
    b: &'a Buffers,
    chunk: [wgpu::BindingResource<'a>; 4],
    uniform: &'a wgpu::Buffer,
) -> Vec<wgpu::BindingResource<'a>> {
    let [table, materials, slots, partials] = chunk;
    vec![
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
    ]
}
