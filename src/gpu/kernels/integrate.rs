//! `integrate` (`shaders/integrate.wgsl` over `shared/integrate_mass.wgsl` and
//! `shared/obstacles.wgsl`): the mass pass of a step. Each invocation decodes and clears its
//! masses' spring forces, adds gravity, external, drag-spring and air-drag forces, the
//! collision pass's force, ground and obstacle contact and friction, and updates velocity and
//! position. CPU twin: `src/cpu/integrate.rs` (`integrate_mass`).

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{Fragment, KernelSource, Slot};

/// The kernel.
pub(crate) const SOURCE: KernelSource = {
    use Fragment::{Common, IntegrateMass, Obstacles, Words};
    use Slot::{Read, ReadWrite, Uniform};
    KernelSource {
        stem: "integrate",
        fragments: &[Common, Words, Obstacles, IntegrateMass],
        body: include_str!("../../../shaders/integrate.wgsl"),
        stepped: true,
        bindings: &[
            Uniform, Read, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite, Read, Read, Read,
            ReadWrite,
        ],
        consts: &[],
    }
};

/// What each binding of [`SOURCE`] sees, in binding order (bound again when a sensor turns the
/// contact recording on).
pub(crate) fn buffers(b: &Buffers) -> Vec<&wgpu::Buffer> {
    vec![
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
    ]
}
