//! `energy_masses` (`shaders/energy_masses.wgsl`): kinetic, gravitational, ground and obstacle
//! energy and the energy slots' totals, as per-workgroup partial sums the host adds, for
//! `World::energy`. CPU twin: `src/cpu/energy_masses.rs`.

use crate::gpu::buffers::Buffers;
use crate::gpu::kernel::{Fragment, KernelSource, Slot};

/// The kernel.
pub(crate) const SOURCE: KernelSource = {
    use Slot::{Read, ReadWrite, Uniform};
    KernelSource {
        stem: "energy_masses",
        fragments: &[Fragment::Common, Fragment::Obstacles],
        body: include_str!("../../../shaders/energy_masses.wgsl"),
        stepped: false,
        bindings: &[Uniform, Read, Read, Read, Read, ReadWrite, Read, Read, Read],
        consts: &[],
    }
};

/// What each binding of [`SOURCE`] sees, in binding order.
pub(crate) fn buffers(b: &Buffers) -> Vec<&wgpu::Buffer> {
    vec![
        &b.params,
        &b.masses,
        &b.positions,
        &b.velocities,
        &b.mass_slots,
        &b.mass_partials,
        &b.obstacles,
        &b.obstacle_words,
        &b.touch,
    ]
}
