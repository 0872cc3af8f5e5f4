//! Each kernel's needs (storage and uniform buffers per shader stage, bindings, bind groups)
//! checked against the device's limits when a World is planned, and the workgroup size fitted
//! to them. The counts come from the kernels' binding lists (`kernels/`, which the naga tests
//! hold to the WGSL; `kernels::needs` gathers them into a [`KernelTable`]), never from a second
//! copy. The plan takes a path that fits (the two passes instead of the fused steps, the stencil
//! variant without its muscle list, the link variant instead of the stencil, a smaller
//! workgroup) or refuses with [`Error::DeviceUnsupported`] naming the kernel, the limit, what it
//! needs and what the device allows, before any buffer or pipeline exists: no wgpu validation
//! error reaches the user.

use crate::error::{Error, Result};
use crate::gpu::kernel::Slot;

/// What one kernel's pipeline needs from the device's limits
/// ([`kernel_needs`](crate::gpu::kernel_needs)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelNeeds {
    /// The kernel (its WGSL stem, or a variant of the spring pass: `springs_stencil`,
    /// `springs_stencil_muscles`).
    pub kernel: &'static str,
    /// Storage buffers it binds in its one (compute) stage:
    /// `max_storage_buffers_per_shader_stage` must be at least this.
    pub storage_buffers: u32,
    /// Uniform buffers it binds, the per-step uniform included:
    /// `max_uniform_buffers_per_shader_stage` must be at least this.
    pub uniform_buffers: u32,
    /// Bindings of its group 0: `max_bindings_per_bind_group` must be at least this.
    pub bindings: u32,
    /// Bind groups of its pipeline (2 for the kernels that bind the per-step uniform at a
    /// dynamic offset as group 1): `max_bind_groups` must be at least this.
    pub bind_groups: u32,
}

impl KernelNeeds {
    /// The needs of a kernel whose group 0 holds `slots`, with the per-step uniform as group 1
    /// when `stepped`.
    pub(crate) const fn of(kernel: &'static str, slots: &[Slot], stepped: bool) -> Self {
        let (mut storage, mut uniform, mut i) = (0, 0, 0);
        while i < slots.len() {
            match slots[i] {
                Slot::Uniform => uniform += 1,
                Slot::Read | Slot::ReadWrite => storage += 1,
            }
            i += 1;
        }
        Self {
            kernel,
            storage_buffers: storage,
            uniform_buffers: uniform + stepped as u32,
            bindings: slots.len() as u32,
            bind_groups: 1 + stepped as u32,
        }
    }

    /// The first of `limits` this kernel needs more of: (limit, needed, allowed).
    pub(crate) fn miss(&self, limits: &wgpu::Limits) -> Option<(&'static str, u32, u32)> {
        let dynamic = self.bind_groups - 1;
        [
            (
                "max_storage_buffers_per_shader_stage",
                self.storage_buffers,
                limits.max_storage_buffers_per_shader_stage,
            ),
            (
                "max_uniform_buffers_per_shader_stage",
                self.uniform_buffers,
                limits.max_uniform_buffers_per_shader_stage,
            ),
            (
                "max_bindings_per_bind_group",
                self.bindings,
                limits.max_bindings_per_bind_group,
            ),
            ("max_bind_groups", self.bind_groups, limits.max_bind_groups),
            (
                "max_dynamic_uniform_buffers_per_pipeline_layout",
                dynamic,
                limits.max_dynamic_uniform_buffers_per_pipeline_layout,
            ),
        ]
        .into_iter()
        .find(|&(_, needed, allowed)| needed > allowed)
    }

    /// Whether this kernel fits `limits`.
    pub(crate) fn fits(&self, limits: &wgpu::Limits) -> bool {
        self.miss(limits).is_none()
    }

    /// [`Error::DeviceUnsupported`] if this kernel does not fit `limits` of the device on
    /// `adapter`.
    pub(crate) fn check(&self, limits: &wgpu::Limits, adapter: &str) -> Result<()> {
        match self.miss(limits) {
            None => Ok(()),
            Some((limit, needed, allowed)) => Err(Error::DeviceUnsupported {
                task: "build a GPU World",
                needs: format!(
                    "the limit {limit} >= {needed} for its kernel hooke::{}",
                    self.kernel
                ),
                adapter: adapter.to_string(),
                detail: format!(
                    "the device allows {allowed} (open it with the adapter's own limits, \
                     hooke::gpu::open_device, or use the CPU reference)"
                ),
            }),
        }
    }
}

/// What the kernels a World may bind need, as the plan chooses among them.
#[derive(Clone, Debug)]
pub(crate) struct KernelTable {
    /// The spring pass's link variant, stencil variant, and stencil variant with the muscle
    /// list.
    pub(crate) links: KernelNeeds,
    pub(crate) stencil: KernelNeeds,
    pub(crate) stencil_muscles: KernelNeeds,
    /// The fused steps kernel.
    pub(crate) steps: KernelNeeds,
    /// The collision pass's kernels (one layout).
    pub(crate) collisions: KernelNeeds,
    /// The kernels every World binds besides the spring pass (the sensors' included: they are
    /// compiled on the first `sense`).
    pub(crate) always: Vec<KernelNeeds>,
}

impl KernelTable {
    /// Checks every kernel a World binds against `limits`: the spring pass's variant (`stencil`:
    /// `None` for the link variant, else whether it sets a muscle list), the collision pass when
    /// `collisions`, the fused steps kernel when `fused`, and the kernels every World binds.
    ///
    /// # Errors
    /// [`Error::DeviceUnsupported`] naming the first kernel that does not fit.
    pub(crate) fn check(
        &self,
        limits: &wgpu::Limits,
        adapter: &str,
        stencil: Option<bool>,
        collisions: bool,
        fused: bool,
    ) -> Result<()> {
        let springs = match stencil {
            None => &self.links,
            Some(false) => &self.stencil,
            Some(true) => &self.stencil_muscles,
        };
        let optional = [(collisions, &self.collisions), (fused, &self.steps)];
        std::iter::once(springs)
            .chain(self.always.iter())
            .chain(optional.into_iter().filter(|(on, _)| *on).map(|(_, k)| k))
            .try_for_each(|k| k.check(limits, adapter))
    }
}

/// The largest power of two at most `size` invocations that the device's workgroup limits
/// allow (`max_compute_invocations_per_workgroup`, `max_compute_workgroup_size_x`).
///
/// # Errors
/// [`Error::DeviceUnsupported`] when they allow fewer than one invocation.
pub(crate) fn workgroup_size(size: u32, limits: &wgpu::Limits, adapter: &str) -> Result<u32> {
    let allowed = limits
        .max_compute_invocations_per_workgroup
        .min(limits.max_compute_workgroup_size_x);
    if allowed == 0 {
        return Err(Error::DeviceUnsupported {
            task: "build a GPU World",
            needs: "the limits max_compute_invocations_per_workgroup and \
                    max_compute_workgroup_size_x >= 1"
                .to_string(),
            adapter: adapter.to_string(),
            detail: "the device allows 0".to_string(),
        });
    }
    let fit = if allowed.is_power_of_two() {
        allowed
    } else {
        allowed.next_power_of_two() / 2
    };
    Ok(size.min(fit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::kernels::kernel_needs;

    fn needs(kernel: &str) -> KernelNeeds {
        *kernel_needs()
            .iter()
            .find(|k| k.kernel == kernel)
            .unwrap_or_else(|| panic!("{kernel} listed"))
    }

    /// The storage buffer counts the guide's backends page writes down ("Adapters and limits"),
    /// counted from the binding lists the naga tests hold to the WGSL.
    #[test]
    fn storage_buffers_per_kernel_are_as_written_down() {
        let counts: Vec<(&str, u32)> = kernel_needs()
            .iter()
            .map(|k| (k.kernel, k.storage_buffers))
            .collect();
        let page = include_str!("../../guide/backends.md");
        for (kernel, storage) in &counts {
            let row = format!("| `{kernel}` | {storage} |");
            assert!(page.contains(&row), "backends.md lacks the row {row}");
        }
        assert_eq!(needs("steps").storage_buffers, 21);
        assert_eq!(needs("springs").storage_buffers, 10);
    }

    /// WebGPU's default limits (8 storage buffers per stage) admit the reductions, publish and
    /// the sensors, not the passes of a step; the GL adapter's 16 admit all but the fused steps.
    #[test]
    fn default_limits_admit_the_reductions_not_the_passes() {
        let webgpu = wgpu::Limits::default();
        let fit: Vec<&str> = kernel_needs()
            .iter()
            .filter(|k| k.fits(&webgpu))
            .map(|k| k.kernel)
            .collect();
        assert_eq!(
            fit,
            [
                "publish",
                "energy_masses",
                "bodies",
                "energy_springs",
                "sense_bodies",
                "sense_gather"
            ]
        );
        let gl = wgpu::Limits {
            max_storage_buffers_per_shader_stage: 16,
            ..webgpu
        };
        let not: Vec<&str> = kernel_needs()
            .iter()
            .filter(|k| !k.fits(&gl))
            .map(|k| k.kernel)
            .collect();
        assert_eq!(not, ["steps"]);
        match needs("integrate").check(&webgpu, "test adapter (Gl, Cpu)") {
            Err(e) => {
                let message = e.to_string();
                for part in [
                    "max_storage_buffers_per_shader_stage >= 10",
                    "hooke::integrate",
                    "allows 8",
                    "test adapter (Gl, Cpu)",
                ] {
                    assert!(message.contains(part), "{part}: {message}");
                }
            }
            Ok(()) => panic!("integrate binds 10 storage buffers"),
        }
    }

    #[test]
    fn the_workgroup_shrinks_to_a_power_of_two_the_device_allows() {
        let limits = |invocations, x| wgpu::Limits {
            max_compute_invocations_per_workgroup: invocations,
            max_compute_workgroup_size_x: x,
            ..wgpu::Limits::default()
        };
        assert_eq!(workgroup_size(256, &limits(256, 256), "a").unwrap(), 256);
        assert_eq!(workgroup_size(64, &limits(256, 256), "a").unwrap(), 64);
        assert_eq!(workgroup_size(256, &limits(192, 1024), "a").unwrap(), 128);
        assert_eq!(workgroup_size(256, &limits(1024, 32), "a").unwrap(), 32);
        assert!(workgroup_size(256, &limits(0, 32), "a").is_err());
    }
}
