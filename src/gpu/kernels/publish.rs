//! `publish` (`shaders/publish.wgsl`): at the end of each `World::step` call, copies each mass's
//! state record to the public position and velocity buffers. No CPU twin: the CPU state is
//! already public.

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{bind, whole, Fragment, KernelSource, Slot};

/// The kernel.
pub(crate) const SOURCE: KernelSource = {
    use Slot::{Read, ReadWrite, Uniform};
    KernelSource {
        stem: "publish",
        fragments: &[Fragment::Common, Fragment::Words],
        body: include_str!("../../../shaders/publish.wgsl"),
        stepped: false,
        bindings: &[Uniform, Read, ReadWrite, ReadWrite],
        consts: &[],
    }
};

/// Its bind group: what each binding of [`SOURCE`] sees.
pub(crate) fn group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    b: &Buffers,
) -> wgpu::BindGroup {
    let buffers = [&b.params, &b.state, &b.positions, &b.velocities];
    bind(device, layout, "hooke::publish", whole(&buffers))
}
