//! `publish` (`shaders/publish.wgsl`): at the end of each `World::step` call, copies each mass's
//! state record to the public position and velocity buffers. No CPU twin: the CPU state is
//! already public.

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{Fragment, KernelSource, Slot};

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

/// What each binding of [`SOURCE`] sees, in binding order.
pub(crate) fn buffers(b: &Buffers) -> Vec<&wgpu::Buffer> {
    vec![&b.params, &b.state, &b.positions, &b.velocities]
}
