//! The plan of a World, as plain data before any device object exists: the atomic width and
//! fixed-point encoding, how much work an invocation does, the dispatch sizes, the sizes of the
//! scratch tables, the checks against the device's limits, how the springs are laid out
//! (`springs.rs`), the chunks the spring table is bound in, whether the steps are fused
//! (`fused.rs`) and the collision grid's size. The second stage of the build: its inputs are
//! the model, its [`Tables`], what the device offers ([`DeviceCaps`]) and the
//! [`WorldOptions`]; the unit tests below plan with made-up limits, no device needed.

pub(crate) mod fused;
pub(crate) mod limits;
pub(crate) mod memory;
pub(crate) mod springs;

use crate::gpu::options::DeviceMemory;
use fused::{fused_islands, FuseLimits, Islands};
use limits::{workgroup_size, KernelTable};
use springs::{link_bytes, SpringChoice, SpringLayout};

use crate::error::{Error, Result};
use crate::gpu::fixed::{AtomicWidth, FixedPoint};
use crate::gpu::granularity::Granularity;
use crate::gpu::layout::{
    array_bytes, force_record_bytes, EnergySlot, GpuChunk, GpuSpringPartial, GpuStep,
    MaterialIndex, Run, Vec4, LINK_ACTUATED, SCAN_ITEMS,
};
use crate::gpu::options::{SpringPass, WorldOptions};
use crate::gpu::real::Precision;
use crate::gpu::tables::{body_piece_count, CollisionTables, Tables};
use crate::model::Model;

/// What a plan needs to know about the device.
#[derive(Clone, Debug)]
pub(crate) struct DeviceCaps {
    /// The adapter, as errors name it (`name (backend, device type)`).
    pub(crate) adapter: String,
    pub(crate) device_type: wgpu::DeviceType,
    pub(crate) features: wgpu::Features,
    pub(crate) limits: wgpu::Limits,
}

impl DeviceCaps {
    /// What `device` offers.
    pub(crate) fn of(device: &wgpu::Device) -> Self {
        Self {
            adapter: crate::gpu::device::describe(&device.adapter_info()),
            device_type: device.adapter_info().device_type,
            features: device.features(),
            limits: device.limits(),
        }
    }

    /// Whether the device has 64-bit integer atomics.
    fn has_int64_atomics(&self) -> bool {
        self.features
            .contains(wgpu::Features::SHADER_INT64 | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS)
    }
}

/// A dispatch laid out in at most two dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dispatch {
    pub(crate) x: u32,
    pub(crate) y: u32,
    /// Workgroups actually needed (`x * y` may be a little more).
    pub(crate) groups: u32,
}

impl Dispatch {
    /// The dispatch of `items` items, `per_group` per workgroup, with at most `max_dim`
    /// workgroups per dimension.
    ///
    /// # Errors
    /// [`Error::DeviceLimit`] naming `what` when `max_dim^2` workgroups are not enough.
    pub(crate) fn new(
        items: u64,
        per_group: u64,
        max_dim: u32,
        what: &'static str,
    ) -> Result<Self> {
        let groups = items.div_ceil(per_group).max(1);
        let max = u64::from(max_dim);
        if groups > max * max || groups > u64::from(u32::MAX) {
            return Err(Error::DeviceLimit {
                what,
                asked: groups,
                limit: max * max,
            });
        }
        let x = groups.min(max);
        let y = groups.div_ceil(x);
        Ok(Self {
            x: x as u32,
            y: y as u32,
            groups: groups as u32,
        })
    }
}

/// One chunk of the spring table: the masses one spring-pass dispatch covers and the links
/// bound for them (the device caps a storage binding, 128 MiB on many adapters).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChunkPlan {
    /// The chunk's uniform: first bound link, first and end mass.
    pub(crate) record: GpuChunk,
    /// Links bound from `record.first` on.
    pub(crate) links: u64,
    /// The first spring-pass workgroup (of the whole pass) this chunk's dispatch stands for:
    /// where its energy slots and partial sums start.
    pub(crate) first_group: u64,
    pub(crate) dispatch: Dispatch,
}

/// The collision grid of a World whose masses collide: its size and the collision pass's
/// dispatches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GridPlan {
    /// Buckets of the grid's table (a power of two, at least one scan block).
    pub(crate) buckets: u64,
    /// Scan blocks of [`Plan::scan_block`] buckets.
    pub(crate) blocks: u64,
    /// Per colliding mass, per scan block, per bucket.
    pub(crate) members_dispatch: Dispatch,
    pub(crate) blocks_dispatch: Dispatch,
    pub(crate) buckets_dispatch: Dispatch,
}

/// The plan of one World.
#[derive(Debug)]
pub(crate) struct Plan {
    /// The fixed-point encoding (and atomic width, `fixed_point.bits`).
    pub(crate) fixed_point: FixedPoint,
    /// 32-bit force sums packed in 64-bit atomics (x and y share one).
    pub(crate) packed_forces: bool,
    /// Records read as 64-bit words (the device has `SHADER_INT64`).
    pub(crate) wide_words: bool,
    /// The kernels' real type.
    pub(crate) precision: Precision,
    pub(crate) granularity: Granularity,
    /// The integrate, publish and `energy_masses` passes.
    pub(crate) mass_dispatch: Dispatch,
    /// The whole spring pass (its chunks split it).
    pub(crate) spring_dispatch: Dispatch,
    /// The `bodies` reduction: one workgroup per body.
    pub(crate) body_dispatch: Dispatch,
    /// Whether to look for a stencil (see [`SpringPass`]).
    pub(crate) want_stencil: bool,
    /// Why (logged with the variant chosen).
    pub(crate) spring_pass_reason: &'static str,
    /// Whether the device's limits allow the stencil variant that sets a muscle list.
    muscle_list_fits: bool,
    /// Book dissipated and injected energy on the device.
    pub(crate) track_energy: bool,
    /// Bytes between two steps' uniforms (the device's uniform offset alignment).
    pub(crate) step_stride: u64,
    /// Steps recorded per submission, at least 1.
    pub(crate) steps_per_submission: u64,
    /// Energy slots of the spring pass (one per invocation) and of the integrate pass.
    pub(crate) spring_slots: u64,
    pub(crate) mass_slots: u64,
    masses: u64,
    spring_count: u64,
    max_dim: u32,
    limits: wgpu::Limits,
    max_springs_per_binding: Option<u64>,
    /// How the springs are laid out for the spring pass.
    pub(crate) springs: SpringLayout,
    /// The chunks the link table is bound in, each one spring-pass dispatch.
    pub(crate) chunks: Vec<ChunkPlan>,
    /// The islands of the fused steps kernel, when the World fuses its steps.
    pub(crate) fused: Option<Islands>,
    /// The collision grid, when a mass collides.
    pub(crate) grid: Option<GridPlan>,
    /// The device memory of every buffer the World makes.
    pub(crate) memory: DeviceMemory,
}

impl Plan {
    /// The plan of `model` (already validated), whose tables are `tables`, on a device offering
    /// `caps`, with `options`.
    ///
    /// # Errors
    /// [`Error::Gpu`] for [`AtomicWidth::Bits64`] on a device without 64-bit atomics;
    /// [`Error::InvalidParameter`] for a bad fixed-point quantum; [`Error::DeviceLimit`] when
    /// the model does not fit the device.
    /// whose kernels need `kernels`, with `options`.
    pub(crate) fn new(
        model: &Model,
        tables: &Tables,
        caps: &DeviceCaps,
        kernels: &KernelTable,
        options: &WorldOptions,
    ) -> Result<Self> {
        let sizes = Self::sizes(model, caps, kernels, options)?;
        let n = tables.masses.len();
        let layout = sizes.spring_layout(tables, n);
        let chunks = sizes.chunks(&layout.links.offsets)?;
        let limits = FuseLimits {
            chunks: chunks.len(),
            workgroup_size: sizes.granularity.workgroup_size,
            max_workgroups: sizes.max_dim,
            steps_per_submission: sizes.steps_per_submission,
            kernel_fits: kernels.steps.fits(&sizes.limits),
        };
        let fused = fused_islands(tables, &layout, &limits, options);
        let grid = match &tables.collisions {
            Some(c) => Some(sizes.grid(c)?),
            None => None,
        };
        let plan = Self {
            springs: layout.fused(fused.is_some(), n),
            chunks,
            fused,
            grid,
            ..sizes
        };
        let needs = plan.buffer_needs(tables);
        plan.check_buffers(&needs)?;
        let stencil = plan.springs.stencil.as_ref();
        kernels.check(
            &plan.limits,
            &caps.adapter,
            stencil.map(|_| plan.springs.muscles.is_some()),
            plan.grid.is_some(),
            plan.fused.is_some(),
        )?;
        Ok(Self {
            memory: Self::memory(&needs),
            ..plan
        })
    }

    /// The spring layout of `tables` (of `masses` masses) as this plan's choices and limits
    /// allow (the muscle list as the walk alone needs it).
    fn spring_layout(&self, tables: &Tables, masses: usize) -> SpringLayout {
        let choice = SpringChoice {
            want_stencil: self.want_stencil,
            reason: self.spring_pass_reason,
            track_energy: self.track_energy,
            muscles_fit: self.muscle_list_fits,
            precision: self.precision,
        };
        SpringLayout::new(&tables.springs, masses, &choice, |b| self.binding_fits(b))
    }

    /// The plan's sizes, dispatches and choices (no spring layout, chunk, island or grid yet).
    fn sizes(
        model: &Model,
        caps: &DeviceCaps,
        kernels: &KernelTable,
        options: &WorldOptions,
    ) -> Result<Self> {
        let has64 = caps.has_int64_atomics();
        check_precision(options, caps)?;
        let bits = atomic_bits(options.atomics, has64)?;
        let fixed_point =
            FixedPoint::choose_for(model, bits, options.fixed_point, options.precision)?;
        let limits = caps.limits.clone();
        let n = model.masses.len() as u64;
        let max_dim = options
            .max_workgroups_per_dimension
            .unwrap_or(u32::MAX)
            .min(limits.max_compute_workgroups_per_dimension)
            .max(1);
        let workgroup = workgroup_size(u32::MAX, &limits, &caps.adapter)?;
        let granularity = Granularity::within(caps.device_type, n, workgroup);
        let what = |pass| match pass {
            0 => "max_compute_workgroups_per_dimension^2 (mass pass)",
            1 => "max_compute_workgroups_per_dimension^2 (spring pass)",
            _ => "max_compute_workgroups_per_dimension^2 (body pass)",
        };
        let mass_dispatch = Dispatch::new(n, granularity.masses_per_group(), max_dim, what(0))?;
        // The spring pass runs over masses (each walks its own springs).
        let spring_dispatch =
            Dispatch::new(n, granularity.spring_masses_per_group(), max_dim, what(1))?;
        let pieces: usize = model
            .bodies
            .iter()
            .map(|b| body_piece_count(b.masses.len()))
            .sum();
        let body_dispatch = Dispatch::new(pieces as u64, 1, max_dim, what(2))?;
        let (want_stencil, spring_pass_reason) = match options.spring_pass {
            // Below 4 masses per invocation (small models) the registers a chain keeps are
            // reloaded too often to gain.
            SpringPass::Auto if caps.device_type != wgpu::DeviceType::Cpu => {
                (false, "SpringPass::Auto on a GPU")
            }
            SpringPass::Auto if granularity.spring_masses_per_invocation < 4 => (
                false,
                "SpringPass::Auto, fewer than 4 masses per invocation",
            ),
            SpringPass::Auto => (true, "SpringPass::Auto on a CPU adapter"),
            SpringPass::Links => (false, "SpringPass::Links asked for"),
            SpringPass::Stencil => (true, "SpringPass::Stencil asked for"),
        };
        let (want_stencil, spring_pass_reason) = if want_stencil && !kernels.stencil.fits(&limits) {
            let why = "the device's limits are below the stencil variant's bindings";
            (false, why)
        } else {
            (want_stencil, spring_pass_reason)
        };
        log_sums(&fixed_point, options.atomics, has64, bits == 32 && has64);
        let plan = Self {
            fixed_point,
            packed_forces: bits == 32 && has64,
            wide_words: caps.features.contains(wgpu::Features::SHADER_INT64),
            precision: options.precision,
            granularity,
            mass_dispatch,
            spring_dispatch,
            body_dispatch,
            want_stencil,
            spring_pass_reason,
            muscle_list_fits: kernels.stencil_muscles.fits(&limits),
            track_energy: options.track_energy,
            step_stride: u64::from(limits.min_uniform_buffer_offset_alignment)
                .max(options.precision.bytes::<GpuStep>(1)),
            steps_per_submission: u64::from(options.steps_per_submission.max(1)),
            spring_slots: u64::from(granularity.workgroup_size) * u64::from(spring_dispatch.groups),
            mass_slots: n.div_ceil(u64::from(granularity.masses_per_invocation)),
            masses: n,
            spring_count: model.springs.len() as u64,
            max_dim,
            limits,
            max_springs_per_binding: options.max_springs_per_binding,
            springs: SpringLayout::default(),
            chunks: Vec::new(),
            fused: None,
            grid: None,
            memory: DeviceMemory::default(),
        };
        plan.check_sizes()?;
        Ok(plan)
    }

    /// The collision grid of `tables`: twice as many buckets as colliding masses (a power of
    /// two, at least one scan block), its tables within one binding each.
    ///
    /// # Errors
    /// [`Error::DeviceLimit`] when its tables or dispatches do not fit the device.
    fn grid(&self, tables: &CollisionTables) -> Result<GridPlan> {
        let block = self.scan_block();
        let members = u64::from(tables.params.members);
        let buckets = (2 * members).next_power_of_two().max(block);
        for bytes in [
            array_bytes::<[i32; 4]>(members),
            array_bytes::<u32>(buckets),
            self.precision
                .bytes::<crate::gpu::layout::GpuCollider>(members),
        ] {
            self.check_binding(bytes)?;
        }
        let per_group = u64::from(self.granularity.workgroup_size);
        let blocks = buckets / block;
        Ok(GridPlan {
            buckets,
            blocks,
            members_dispatch: self.dispatch(members, per_group, "collision pass")?,
            blocks_dispatch: self.dispatch(blocks, 1, "collision grid scan")?,
            buckets_dispatch: self.dispatch(buckets, per_group, "collision grid sort")?,
        })
    }

    /// The per-mass and per-spring tables fit the device (and the index widths).
    fn check_sizes(&self) -> Result<()> {
        let (n, s) = (self.masses, self.spring_count);
        // A link keeps its second mass in 31 bits and link indices are u32.
        if n > u64::from(LINK_ACTUATED) {
            return Err(Error::DeviceLimit {
                what: "masses of one World",
                asked: n,
                limit: u64::from(LINK_ACTUATED),
            });
        }
        if s > u64::from(u32::MAX) {
            return Err(Error::DeviceLimit {
                what: "springs of one World",
                asked: s,
                limit: u64::from(u32::MAX),
            });
        }
        let real = self.precision;
        self.check_buffer(link_bytes(real) * s)?;
        self.check_binding(real.bytes::<Vec4>(n))?;
        self.check_binding(array_bytes::<Run>(n))?;
        self.check_binding(real.bytes::<crate::gpu::layout::GpuState>(n))?;
        self.check_binding(force_record_bytes(self.fixed_point.bits) * n)
    }

    fn check_buffer(&self, bytes: u64) -> Result<()> {
        if bytes > self.limits.max_buffer_size {
            return Err(Error::DeviceLimit {
                what: "max_buffer_size",
                asked: bytes,
                limit: self.limits.max_buffer_size,
            });
        }
        Ok(())
    }

    /// `bytes` fit one storage binding (and one buffer) of the device.
    ///
    /// # Errors
    /// [`Error::DeviceLimit`] naming the limit.
    pub(crate) fn check_binding(&self, bytes: u64) -> Result<()> {
        self.check_buffer(bytes)?;
        if bytes > self.limits.max_storage_buffer_binding_size {
            return Err(Error::DeviceLimit {
                what: "max_storage_buffer_binding_size",
                asked: bytes,
                limit: self.limits.max_storage_buffer_binding_size,
            });
        }
        Ok(())
    }

    /// The dispatch of `items` items, `per_group` per workgroup, within the device's
    /// workgroups per dimension.
    ///
    /// # Errors
    /// [`Error::DeviceLimit`] naming `what` when they do not fit.
    pub(crate) fn dispatch(
        &self,
        items: u64,
        per_group: u64,
        what: &'static str,
    ) -> Result<Dispatch> {
        Dispatch::new(items, per_group, self.max_dim, what)
    }

    /// Buckets of one scan block of the collision grid: `SCAN_ITEMS` per invocation of a
    /// workgroup.
    pub(crate) fn scan_block(&self) -> u64 {
        SCAN_ITEMS * u64::from(self.granularity.workgroup_size)
    }

    /// Whether a table of `bytes` bytes fits one storage binding (and one buffer).
    pub(crate) fn binding_fits(&self, bytes: u64) -> bool {
        bytes <= self.limits.max_storage_buffer_binding_size && bytes <= self.limits.max_buffer_size
    }

    /// The chunks the link table is bound in, given where each mass's links start (`offsets`,
    /// masses + 1 entries, the last the link count).
    ///
    /// The table is bound in chunks of whole blocks of masses: a block is a whole number of
    /// spring-pass workgroups whose slot and partial ranges start on the device's offset
    /// alignment; a chunk's link binding starts at its first mass's first link, rounded down to
    /// that alignment (of the 4-byte material indices, so the 8-byte links are aligned too).
    ///
    /// # Errors
    /// [`Error::DeviceLimit`] when the springs of one block do not fit one binding, or a chunk's
    /// dispatch does not fit.
    pub(crate) fn chunks(&self, offsets: &[u32]) -> Result<Vec<ChunkPlan>> {
        let (n, s) = (self.masses, self.spring_count);
        let partial = self.precision.bytes::<GpuSpringPartial>(1);
        let offset_align = u64::from(self.limits.min_storage_buffer_offset_alignment).max(partial);
        let masses_per_group = self.granularity.spring_masses_per_group();
        let block = masses_per_group * (offset_align / partial);
        let link_align = offset_align / array_bytes::<MaterialIndex>(1);
        let link = link_bytes(self.precision);
        let binding_links = self.limits.max_storage_buffer_binding_size / link;
        let cap = self
            .max_springs_per_binding
            .map_or(binding_links, |c| c.clamp(1, binding_links));
        let end = |m: u64| u64::from(offsets[m as usize]);
        let mut chunks = Vec::new();
        let mut m0 = 0u64;
        while m0 < n && s > 0 {
            let first = end(m0) / link_align * link_align;
            let mut m1 = (m0 + block).min(n);
            if end(m1) - first > binding_links {
                return Err(Error::DeviceLimit {
                    what: "max_storage_buffer_binding_size (the springs of one block of masses)",
                    asked: link * (end(m1) - first),
                    limit: self.limits.max_storage_buffer_binding_size,
                });
            }
            while m1 < n {
                let next = (m1 + block).min(n);
                if end(next) - first > cap {
                    break;
                }
                m1 = next;
            }
            // A chunk whose masses have no springs still binds one aligned link.
            let (first, links) = if end(m1) > first {
                (first, end(m1) - first)
            } else {
                let f = (s - 1) / link_align * link_align;
                (f, s - f)
            };
            chunks.push(ChunkPlan {
                record: GpuChunk {
                    first: first as u32,
                    first_mass: m0 as u32,
                    end_mass: m1 as u32,
                    pad0: 0,
                },
                links,
                first_group: m0 / masses_per_group,
                dispatch: Dispatch::new(
                    m1 - m0,
                    masses_per_group,
                    self.max_dim,
                    "max_compute_workgroups_per_dimension^2 (spring pass)",
                )?,
            });
            m0 = m1;
        }
        Ok(chunks)
    }

    /// Energy slots of the spring pass that a chunk's dispatch covers.
    pub(crate) fn chunk_slots(&self, chunk: &ChunkPlan) -> (u64, u64) {
        let wg = u64::from(self.granularity.workgroup_size);
        (
            wg * chunk.first_group,
            wg * u64::from(chunk.dispatch.groups),
        )
    }
}

/// Logs how forces will be summed (`info`), and why when it is not the widest.
fn log_sums(fixed_point: &FixedPoint, atomics: AtomicWidth, has64: bool, packed: bool) {
    let why = match (atomics, has64) {
        (AtomicWidth::Auto, false) => {
            ": 32-bit because the device has no 64-bit atomics (SHADER_INT64_ATOMIC_ALL_OPS)"
        }
        (AtomicWidth::Bits32, _) => ": 32-bit as asked (AtomicWidth::Bits32)",
        _ => "",
    };
    log::info!(
        "force sums in {}-bit fixed point, quantum {:.3e} N, up to {:.3e} N per spring{}{why}",
        fixed_point.bits,
        fixed_point.quantum,
        fixed_point.spring_limit,
        if packed {
            ", x and y packed in one 64-bit atomic"
        } else {
            ""
        },
    );
}

/// The width of the force-scatter atomics for `atomics` on a device that has 64-bit atomics or
/// not.
fn atomic_bits(atomics: AtomicWidth, has64: bool) -> Result<u32> {
    match atomics {
        AtomicWidth::Auto => Ok(if has64 { 64 } else { 32 }),
        AtomicWidth::Bits32 => Ok(32),
        AtomicWidth::Bits64 if has64 => Ok(64),
        AtomicWidth::Bits64 => Err(Error::Gpu(
            "64-bit atomics were asked for, but the device was opened without \
             SHADER_INT64 | SHADER_INT64_ATOMIC_ALL_OPS; use AtomicWidth::Auto or \
             Bits32, or open the device with hooke::gpu::open_device"
                .to_string(),
        )),
    }
}

/// Whether the device and the options allow [`WorldOptions::precision`].
///
/// # Errors
/// [`Error::Gpu`] for [`Precision::F64`] on a device without `SHADER_F64` or without the 64-bit
/// integer atomics (both named, with the adapter), with [`AtomicWidth::Bits32`] (f64 forces need
/// 64-bit sums: 32 bits hold about 2^31 quanta, far too few for a quantum near f64's rounding).
fn check_precision(options: &WorldOptions, caps: &DeviceCaps) -> Result<()> {
    if options.precision == Precision::F32 {
        return Ok(());
    }
    let adapter = &caps.adapter;
    if !caps.features.contains(wgpu::Features::SHADER_F64) {
        return Err(Error::Gpu(format!(
            "Precision::F64 needs the wgpu feature SHADER_F64, which the device on {adapter} \
             lacks (Metal and the OpenGL backend have no f64 in shaders); use Precision::F32, \
             or an adapter with SHADER_F64 (Vulkan: lavapipe, most desktop GPUs) opened with \
             hooke::gpu::open_device"
        )));
    }
    if !caps.has_int64_atomics() {
        return Err(Error::Gpu(format!(
            "Precision::F64 needs the wgpu features SHADER_INT64 | SHADER_INT64_ATOMIC_ALL_OPS \
             (64-bit fixed-point force sums), which the device on {adapter} lacks; use \
             Precision::F32"
        )));
    }
    if options.atomics == AtomicWidth::Bits32 {
        return Err(Error::Gpu(
            "Precision::F64 with AtomicWidth::Bits32: f64 forces need 64-bit fixed-point sums; \
             use AtomicWidth::Auto or Bits64"
                .to_string(),
        ));
    }
    Ok(())
}

/// Size in bytes of the energy slot records, which the chunk alignment assumes equal to the
/// partial sums' (both are bound at workgroup-aligned offsets).
const _: () = assert!(
    array_bytes::<EnergySlot>(1) == array_bytes::<GpuSpringPartial>(1)
        && array_bytes::<[f32; 4]>(1)
            == array_bytes::<crate::gpu::layout::real32::GpuSpringPartial>(1)
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builders::Lattice;
    use crate::gpu::fixed::FixedPointScale;
    use crate::gpu::granularity::CPU_SPRING_MASSES;
    use crate::gpu::layout::WORKGROUP_SIZE;

    /// The plan of `model` with its own tables.
    fn plan_of(model: &Model, caps: &DeviceCaps, options: &WorldOptions) -> Result<Plan> {
        let tables = Tables::new(model, options.precision);
        Plan::new(model, &tables, caps, &crate::gpu::kernels::needs(), options)
    }

    fn caps(device_type: wgpu::DeviceType, features: wgpu::Features) -> DeviceCaps {
        DeviceCaps {
            adapter: "test adapter (Vulkan, Cpu)".to_string(),
            device_type,
            features,
            limits: roomy(),
        }
    }

    /// WebGPU's default limits with lavapipe's 64 storage buffers per stage (the defaults' 8
    /// admit neither pass of a step: `limits.rs`).
    pub(super) fn roomy() -> wgpu::Limits {
        wgpu::Limits {
            max_storage_buffers_per_shader_stage: 64,
            ..wgpu::Limits::default()
        }
    }

    fn lavapipe() -> DeviceCaps {
        caps(
            wgpu::DeviceType::Cpu,
            wgpu::Features::SHADER_INT64 | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS,
        )
    }

    fn lattice(n: u32) -> Model {
        Lattice::benchmark(n).model().unwrap()
    }

    /// The message of a plan that fails with [`Error::Gpu`].
    fn gpu_error(caps: &DeviceCaps, options: &WorldOptions) -> String {
        match plan_of(&lattice(2), caps, options) {
            Err(Error::Gpu(message)) => message,
            other => panic!("expected Error::Gpu, got {other:?}"),
        }
    }

    #[test]
    fn f64_without_shader_f64_is_an_error_naming_the_feature_and_the_adapter() {
        let f64 = WorldOptions {
            precision: Precision::F64,
            ..WorldOptions::default()
        };
        // lavapipe() lacks SHADER_F64 here, as the GL backend and Metal do.
        let message = gpu_error(&lavapipe(), &f64);
        assert!(message.contains("SHADER_F64"), "{message}");
        assert!(message.contains("test adapter (Vulkan, Cpu)"), "{message}");
        let no_atomics = caps(wgpu::DeviceType::Cpu, wgpu::Features::SHADER_F64);
        let message = gpu_error(&no_atomics, &f64);
        assert!(message.contains("SHADER_INT64_ATOMIC_ALL_OPS"), "{message}");
        // F32 plans on the same devices.
        assert!(plan_of(&lattice(2), &no_atomics, &WorldOptions::default()).is_ok());
    }

    #[test]
    fn f64_with_32_bit_atomics_is_an_error() {
        let all = caps(
            wgpu::DeviceType::Cpu,
            wgpu::Features::SHADER_INT64
                | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
                | wgpu::Features::SHADER_F64,
        );
        let options = WorldOptions {
            precision: Precision::F64,
            atomics: AtomicWidth::Bits32,
            ..WorldOptions::default()
        };
        let message = gpu_error(&all, &options);
        assert!(message.contains("AtomicWidth::Bits32"), "{message}");
    }

    /// F64 plans on a device with every feature, with 64-bit sums.
    #[test]
    fn f64_plans_on_a_capable_device() {
        let all = caps(
            wgpu::DeviceType::Cpu,
            wgpu::Features::SHADER_INT64
                | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
                | wgpu::Features::SHADER_F64,
        );
        let f64 = WorldOptions {
            precision: Precision::F64,
            ..WorldOptions::default()
        };
        let plan = plan_of(&lattice(2), &all, &f64).unwrap();
        assert_eq!(plan.precision, Precision::F64);
        assert_eq!(plan.fixed_point.bits, 64);
    }

    #[test]
    fn atomic_width_follows_the_device() {
        let model = lattice(3);
        let auto = WorldOptions::default();
        let plan = plan_of(&model, &lavapipe(), &auto).unwrap();
        assert_eq!(plan.fixed_point.bits, 64);
        assert!(!plan.packed_forces && plan.wide_words);
        let bits32 = WorldOptions {
            atomics: AtomicWidth::Bits32,
            ..auto
        };
        let plan = plan_of(&model, &lavapipe(), &bits32).unwrap();
        assert_eq!(plan.fixed_point.bits, 32);
        assert!(plan.packed_forces, "32-bit sums ride in 64-bit atomics");
        let plain = caps(wgpu::DeviceType::DiscreteGpu, wgpu::Features::empty());
        let plan = plan_of(&model, &plain, &auto).unwrap();
        assert_eq!(plan.fixed_point.bits, 32);
        assert!(!plan.packed_forces && !plan.wide_words);
        let bits64 = WorldOptions {
            atomics: AtomicWidth::Bits64,
            ..auto
        };
        assert!(matches!(
            plan_of(&model, &plain, &bits64),
            Err(Error::Gpu(_))
        ));
        let bad = WorldOptions {
            fixed_point: FixedPointScale::Quantum(-1.0),
            ..auto
        };
        assert!(matches!(
            plan_of(&model, &plain, &bad),
            Err(Error::InvalidParameter { .. })
        ));
    }

    #[test]
    fn granularity_shrinks_on_small_models_and_is_one_on_gpus() {
        let gpu = Granularity::for_device(wgpu::DeviceType::DiscreteGpu, 1 << 20);
        assert_eq!(
            (
                gpu.workgroup_size,
                gpu.spring_masses_per_invocation,
                gpu.masses_per_invocation
            ),
            (WORKGROUP_SIZE, 1, 1)
        );
        let big = Granularity::for_device(wgpu::DeviceType::Cpu, 1 << 20);
        assert_eq!(
            (big.spring_masses_per_invocation, big.masses_per_invocation),
            (CPU_SPRING_MASSES, 16)
        );
        // 1000 masses: 2 per invocation leaves 8 workgroups of 64 invocations.
        let small = Granularity::for_device(wgpu::DeviceType::Cpu, 1000);
        assert_eq!(
            (
                small.spring_masses_per_invocation,
                small.masses_per_invocation
            ),
            (2, 2)
        );
        // Auto picks the stencil only on CPU adapters with at least 4 masses per invocation.
        let plan = |n| plan_of(&lattice(n), &lavapipe(), &WorldOptions::default()).unwrap();
        assert!(!plan(4).want_stencil);
        assert!(plan(30).want_stencil);
    }

    #[test]
    fn dispatches_go_two_dimensional_and_report_the_limit() {
        let d = Dispatch::new(1000, 10, 12, "test").unwrap();
        assert_eq!((d.x, d.y, d.groups), (12, 9, 100));
        let d = Dispatch::new(0, 10, 7, "test").unwrap();
        assert_eq!((d.x, d.y, d.groups), (1, 1, 1));
        match Dispatch::new(1000, 10, 9, "test") {
            Err(Error::DeviceLimit { what, asked, limit }) => {
                assert_eq!((what, asked, limit), ("test", 100, 81));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tables_over_the_device_limits_are_refused() {
        let model = lattice(10);
        let mut small = lavapipe();
        small.limits.max_storage_buffer_binding_size = Precision::F32.bytes::<Vec4>(999);
        match plan_of(&model, &small, &WorldOptions::default()) {
            Err(Error::DeviceLimit { what, asked, .. }) => {
                assert_eq!(what, "max_storage_buffer_binding_size");
                assert_eq!(asked, 16 * 1000, "the position table");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Chunks cover every mass once, in order, each binding whole aligned blocks of links
    /// under the cap.
    #[test]
    fn chunks_split_the_link_table_on_aligned_blocks() {
        let model = lattice(8);
        let options = WorldOptions {
            max_springs_per_binding: Some(1500),
            ..WorldOptions::default()
        };
        // Blocks of one workgroup (64 masses) with a 16-byte offset alignment.
        let mut caps = lavapipe();
        caps.limits.min_storage_buffer_offset_alignment = 16;
        let plan = plan_of(&model, &caps, &options).unwrap();
        let mut offsets = vec![0u32; model.masses.len() + 1];
        for s in &model.springs {
            offsets[s.a as usize + 1] += 1;
        }
        for m in 0..model.masses.len() {
            offsets[m + 1] += offsets[m];
        }
        let chunks = plan.chunks(&offsets).unwrap();
        assert!(chunks.len() > 1, "{chunks:?}");
        let align = u64::from(plan.limits.min_storage_buffer_offset_alignment) / 4;
        let mut next_mass = 0;
        for c in &chunks {
            assert_eq!(c.record.first_mass, next_mass);
            next_mass = c.record.end_mass;
            assert_eq!(u64::from(c.record.first) % align, 0);
            assert!(u64::from(c.record.first) <= u64::from(offsets[c.record.first_mass as usize]));
            assert_eq!(
                u64::from(c.record.first) + c.links,
                u64::from(offsets[c.record.end_mass as usize])
            );
            let per_group = plan.granularity.spring_masses_per_group();
            assert_eq!(c.first_group * per_group, u64::from(c.record.first_mass));
        }
        assert_eq!(next_mass as usize, model.masses.len());
        let one = plan_of(&model, &lavapipe(), &WorldOptions::default()).unwrap();
        assert_eq!(one.chunks(&offsets).unwrap().len(), 1);
    }
}

#[cfg(test)]
mod muscle_list_tests {
    use super::tests::roomy;
    use super::*;
    use crate::builders::Lattice;
    use crate::model::Actuator;

    /// The benchmark lattice (n = 8) with every spring a muscle.
    fn all_muscles() -> Model {
        let mut model = Lattice::benchmark(8).model().unwrap();
        for s in 0..model.springs.len() as u32 {
            model.actuators.push(Actuator::commanded(s, 0.1));
        }
        model
    }

    fn lavapipe(limits: wgpu::Limits) -> DeviceCaps {
        DeviceCaps {
            adapter: "test adapter (Vulkan, Cpu)".to_string(),
            device_type: wgpu::DeviceType::Cpu,
            features: wgpu::Features::SHADER_INT64 | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS,
            limits,
        }
    }

    /// Without booking the stencil's muscles are listed for the spring pass to set before its
    /// walk; with booking they are not (the walk evaluates them); and where the list would not
    /// fit one storage binding while the slot table does, the World keeps the walk's muscles
    /// rather than fail to bind it.
    #[test]
    fn the_muscle_list_is_built_only_without_booking_and_where_it_fits() {
        let model = all_muscles();
        let options = |track_energy| WorldOptions {
            spring_pass: SpringPass::Stencil,
            track_energy,
            ..WorldOptions::default()
        };
        // The spring layout as the plan makes it (the whole plan would also refuse the link
        // table's chunks under the tight limit).
        let tables = |limits: wgpu::Limits, track_energy| {
            let options = options(track_energy);
            let tables = Tables::new(&model, options.precision);
            let needs = crate::gpu::kernels::needs();
            let sizes = Plan::sizes(&model, &lavapipe(limits), &needs, &options).unwrap();
            sizes.spring_layout(&tables, model.masses.len())
        };
        let free = tables(roomy(), false);
        let st = free.stencil.as_ref().expect("the lattice has a stencil");
        let list = free
            .muscles
            .as_ref()
            .expect("muscles listed without booking");
        assert_eq!(list.slots.len(), st.held());
        assert!(tables(roomy(), true).muscles.is_none());
        // A binding just large enough for the slot table (4 f32 words of 16 bytes per mass).
        let table = 16 * u64::from(st.words()) * model.masses.len() as u64;
        let list_bytes = 8 * list.slots.len() as u64;
        assert!(list_bytes > table, "{list_bytes} vs {table}");
        let tight = wgpu::Limits {
            max_storage_buffer_binding_size: table,
            ..roomy()
        };
        let tight = tables(tight, false);
        assert!(tight.stencil.is_some(), "the slot table still fits");
        assert!(tight.muscles.is_none(), "the list does not fit one binding");
    }
}
