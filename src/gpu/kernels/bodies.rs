//! `bodies` (`shaders/bodies.wgsl`): each body's mass, centre of mass and mean velocity, one
//! workgroup per piece of a body (`tables::body_pieces`), for `World::bodies`. CPU twin:
//! `src/cpu/bodies.rs`.

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{Fragment, KernelSource, Slot};

/// The kernel.
pub(crate) const SOURCE: KernelSource = {
    use Slot::{Read, ReadWrite, Uniform};
    KernelSource {
        stem: "bodies",
        fragments: &[Fragment::Common],
        body: include_str!("../../../shaders/bodies.wgsl"),
        stepped: false,
        bindings: &[Uniform, Read, Read, Read, Read, ReadWrite],
        consts: &[],
    }
};

/// What each binding of [`SOURCE`] sees, in binding order.
pub(crate) fn buffers(b: &Buffers) -> Vec<&wgpu::Buffer> {
    vec![
        &b.params,
        &b.bodies,
        &b.masses,
        &b.positions,
        &b.velocities,
        &b.body_sums,
    ]
}
