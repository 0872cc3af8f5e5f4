//! How much work one invocation of a kernel does ([`Granularity`]), chosen from the adapter's
//! type and the model's size, and the workgroup sizes it picks from. The kernels get it as WGSL
//! overrides (`layout::constants`).

/// Invocations per workgroup on GPUs (a power of two); CPU adapters use
/// [`CPU_WORKGROUP_SIZE`].
pub(crate) const WORKGROUP_SIZE: u32 = 256;

/// Invocations per workgroup on CPU adapters: smaller workgroups split a dispatch into more pieces
/// for the adapter's threads to share (measured on lavapipe at n = 80: about +7 % over 256).
pub(crate) const CPU_WORKGROUP_SIZE: u32 = 64;

/// How much work one invocation does: the masses whose springs one invocation of the spring
/// pass handles (the pass walks the springs mass by mass, in the order of the `runs` table,
/// summing the first mass's side in registers), and consecutive masses of the integrate pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Granularity {
    /// Invocations per workgroup, every kernel.
    pub(crate) workgroup_size: u32,
    pub(crate) spring_masses_per_invocation: u32,
    pub(crate) masses_per_invocation: u32,
}

/// Masses per spring-pass invocation on CPU adapters.
pub(crate) const CPU_SPRING_MASSES: u32 = 32;

/// Workgroups per pass a CPU adapter is kept busy with: lavapipe runs a workgroup's
/// invocations as SIMD loops on one of its threads (one per core), so a few workgroups per core
/// balance the load, and more masses per invocation amortise each invocation's fixed work. 16
/// (the first choice) left a herd of 500 inchworms (10 000 masses) at 8 masses per invocation;
/// 8 gives it 16 and steps it 1.03-1.4x faster on 2 cores (docs/PERFORMANCE.md). A fixed count,
/// not one per core of the host, so results do not depend on the machine's core count.
const CPU_WORKGROUPS: u64 = 8;

impl Granularity {
    /// [`Granularity::within`] with no cap on the workgroup.
    #[cfg(test)]
    pub(crate) fn for_device(device_type: wgpu::DeviceType, masses: u64) -> Self {
        Self::within(device_type, masses, u32::MAX)
    }

    /// For `masses` masses on an adapter of type `device_type` whose limits allow at most
    /// `max_workgroup` invocations per workgroup (a power of two: `plan/limits.rs`).
    ///
    /// CPU adapters (lavapipe, SwiftShader, WARP) run the lanes of a workgroup in SIMD loops, so
    /// several masses per invocation amortise the per-invocation costs (the status check and the
    /// energy slot); GPUs want many threads with neighbouring lanes on neighbouring data, so they
    /// get one mass per invocation in the spring pass and one in the integrate pass. Counts shrink
    /// (by powers of two, down to 1) until each pass has enough workgroups to keep the adapter's
    /// cores busy: [`CPU_WORKGROUPS`] on a CPU adapter, 256 on a GPU.
    pub(crate) fn within(device_type: wgpu::DeviceType, masses: u64, max_workgroup: u32) -> Self {
        let (size, max_spring_masses, max_masses, workgroups) =
            if device_type == wgpu::DeviceType::Cpu {
                (CPU_WORKGROUP_SIZE, CPU_SPRING_MASSES, 16, CPU_WORKGROUPS)
            } else {
                (WORKGROUP_SIZE, 1, 1, 256)
            };
        let size = size.min(max_workgroup);
        let fit = |items: u64, max: u32| {
            let mut per = max;
            while per > 1 && items.div_ceil(u64::from(size * per)) < workgroups {
                per /= 2;
            }
            per
        };
        Self {
            workgroup_size: size,
            spring_masses_per_invocation: fit(masses, max_spring_masses),
            masses_per_invocation: fit(masses, max_masses),
        }
    }

    /// Masses one spring-pass workgroup handles.
    pub(crate) fn spring_masses_per_group(&self) -> u64 {
        u64::from(self.workgroup_size) * u64::from(self.spring_masses_per_invocation)
    }

    /// Masses one integrate-pass workgroup handles.
    pub(crate) fn masses_per_group(&self) -> u64 {
        u64::from(self.workgroup_size) * u64::from(self.masses_per_invocation)
    }
}
