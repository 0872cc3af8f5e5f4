//! The GPU [`World`]: the same physics as [`crate::CpuWorld`], in f32, as wgpu compute passes.
//!
//! One step is two dispatches, recorded back to back for many steps in one submission:
//! 1. `springs` (`shaders/springs.wgsl`): the device keeps the springs grouped by their first
//!    mass `a` in an 8-byte link table (second mass, rest length; the order is the model's when
//!    its springs are already sorted by `a`, as every builder emits them). Each invocation takes
//!    [`WorldStats::spring_masses_per_invocation`] masses and walks their springs: it computes
//!    each spring's elastic and damping force (actuated rest lengths evaluated from the step's
//!    time), adds it to `b` with integer atomic adds in [fixed point](fixed), so sums are exact and
//!    order-free, and sums the `a` side in registers, added once per mass.
//! 2. `integrate` (`shaders/integrate.wgsl`): each invocation takes a run of masses, decodes and
//!    clears their spring forces, adds gravity, external, drag-spring and air-drag forces, ground
//!    contact and Coulomb friction, and updates velocity and position.
//!
//! Both passes read and write positions and velocities interleaved (one 32-byte record per mass,
//! one load for a spring's second mass); a `publish` dispatch at the end of each
//! [`World::step`] call writes them to the public [`World::position_buffer`] and
//! [`World::velocity_buffer`]. Lanes of CPU adapters, which run 8 invocations in lockstep, walk
//! neighbouring masses together so that what one lockstep step touches is still in cache for the
//! next (see `walk` in `shaders/common.wgsl` and `docs/PERFORMANCE.md`).
//!
//! The pipelines are specialised to the model with WGSL overrides: a model whose springs share one
//! material has it compiled in, and a model without actuators has the actuator branch compiled
//! out.
//!
//! Dissipated and injected energy are added by each invocation to its own running (compensated)
//! slot: no workgroup barrier in the step, and each slot is written by one invocation in a fixed
//! order, so the booking is deterministic too. Kinetic, gravitational, elastic and ground energy,
//! the slots' totals, and each body's centre of mass and mean velocity come from reduction kernels
//! (`energy_masses`, `energy_springs`, `bodies`) when asked for: the host reads per-workgroup or
//! per-body partial sums, never every mass.
//!
//! A 4-word status buffer catches a state that turns non-finite and a fixed-point overflow on the
//! GPU; it is read once per [`World::step`] call.

mod device;
pub mod fixed;
mod layout;
mod pipelines;
pub(crate) mod readback;
mod stencil;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use glam::{DVec3, Vec3};
use wgpu::util::DeviceExt;

pub use device::{open_device, pick_adapter, request_device, wanted_features};
pub use fixed::{AtomicWidth, FixedPoint, FixedPointScale};

use crate::cpu::{steps_for, DragSpring};
use crate::energy::Energy;
use crate::error::{Error, Result};
use crate::model::{Actuator, Body, Contact, Integrator, Mass, Model, SpringLaw};
use layout::{
    GpuActuator, GpuBody, GpuLink, GpuMass, GpuMaterial, GpuOscillator, GpuParams, GpuSpring,
    GpuStep,
};
use pipelines::Pipelines;

/// Options for building a [`World`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldOptions {
    /// Width of the force-scatter atomics (default [`AtomicWidth::Auto`]: 64-bit where supported).
    pub atomics: AtomicWidth,
    /// How the fixed-point quantum is chosen (default [`FixedPointScale::Auto`]).
    pub fixed_point: FixedPointScale,
    /// Book dissipated and injected energy on the GPU (default `true`). It costs a few
    /// arithmetic operations per spring and mass and one 16-byte slot read and write per
    /// invocation, no workgroup barrier (on lavapipe at 6.5 M springs: no difference beyond the
    /// run-to-run noise in interleaved runs; see `docs/PERFORMANCE.md`). Turned off,
    /// [`World::energy`] reports both as 0.
    pub track_energy: bool,
    /// Steps recorded per queue submission (default 1024, at least 1). One submission needs one
    /// 256-byte uniform slot per step.
    pub steps_per_submission: u32,
    /// Caps the workgroups per dispatch dimension below the device's limit, e.g. to exercise the
    /// 2D dispatch layout on small scenes (default `None`: the device's limit).
    pub max_workgroups_per_dimension: Option<u32>,
    /// Caps the springs bound per spring-table chunk below what the device's
    /// `max_storage_buffer_binding_size` allows, e.g. to exercise the chunked binding of huge
    /// spring tables on small scenes (default `None`: the device's limit). A chunk holds the
    /// springs of whole blocks of masses (a whole number of spring-pass workgroups meeting the
    /// device's offset alignment), so it may hold fewer springs than the cap, and holds one block
    /// even when that block has more.
    pub max_springs_per_binding: Option<u64>,
    /// Which variant of the spring pass the World runs (default [`SpringPass::Auto`]).
    pub spring_pass: SpringPass,
}

/// The variant of the spring pass ([`WorldOptions::spring_pass`]). Both give the same bits
/// (positions, velocities, forces); they differ in speed and device memory.
///
/// The **link** variant walks each mass's springs in the link table, one state load and one
/// atomic force scatter per spring. The **stencil** variant serves models whose springs mostly
/// join masses a fixed index offset apart (lattices, cloth grids, ropes, voxel bodies: at least
/// half the springs at offsets that at least a quarter of the masses have, 16 offsets at most, one
/// material per offset): each invocation walks consecutive masses and keeps the masses ahead at
/// each offset in registers, so per mass it loads one state and scatters one force sum per chain
/// of consecutive offsets instead of one per spring (the SCENE lattice: 5 instead of 13). A
/// spring listed from its higher mass (`a > b`) sits in the lower mass's slot and is computed
/// from there (exactly the negated force). Springs outside the stencil (actuated, duplicates,
/// irregular, or of another material than most springs at their offset) are walked in the link
/// table. It costs 16 bytes per mass per 4 offsets and 8 bytes per mass of device memory.
/// [`WorldStats::stencil_offsets`] tells which variant a World runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpringPass {
    /// The stencil variant on CPU adapters (lavapipe, where it is measured: about 1.6x the link
    /// variant on the SCENE lattice from n = 20 to 120, `docs/PERFORMANCE.md`) when the model has
    /// a stencil and each spring-pass invocation walks at least 4 masses
    /// ([`WorldStats::spring_masses_per_invocation`]; from about 16 000 masses on a CPU adapter:
    /// smaller models reload the registers too often to gain); the link variant otherwise, and
    /// on GPUs, where the stencil's strided lanes are not yet measured.
    #[default]
    Auto,
    /// The link variant always.
    Links,
    /// The stencil variant whenever the model has a stencil and its table fits one storage
    /// binding, on any adapter; the link variant otherwise.
    Stencil,
}

impl Default for WorldOptions {
    fn default() -> Self {
        Self {
            atomics: AtomicWidth::Auto,
            fixed_point: FixedPointScale::Auto,
            track_energy: true,
            steps_per_submission: 1024,
            max_workgroups_per_dimension: None,
            max_springs_per_binding: None,
            spring_pass: SpringPass::Auto,
        }
    }
}

/// Centre of mass and mean velocity of one body, from a GPU reduction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyState {
    /// Total mass of the body, kg (0 for a body without masses).
    pub mass: f64,
    /// Centre of mass, m (zero for a body without masses).
    pub centre_of_mass: DVec3,
    /// Mass-weighted mean velocity, m/s (zero for a body without masses).
    pub mean_velocity: DVec3,
}

/// Device memory and per-step work of a [`World`] ([`World::stats`]), for benchmarks and capacity
/// planning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldStats {
    /// Device memory per spring, bytes: the 8-byte link record (plus a 4-byte material index
    /// when the model has several materials) and the spring pass's energy slots (16 bytes per
    /// invocation) shared over the springs.
    pub bytes_per_spring: f64,
    /// Device memory per mass, bytes: position and velocity (16 each, and again interleaved in
    /// the 32-byte state record the passes read), the fixed-point force sum (4 x 4 or 4 x 8),
    /// the 32-byte properties record, the 8-byte range of its springs in the link table, its
    /// share of the integrate pass's energy slots, and with the stencil variant of the spring
    /// pass ([`SpringPass`]) its rest-length slots (16 bytes per 4 offsets) and a second 8-byte
    /// range (its springs outside the stencil).
    pub bytes_per_mass: f64,
    /// Device memory of all the World's buffers, bytes.
    pub device_bytes: u64,
    /// Compute dispatches recorded per step: one per chunk of the spring table (the table is
    /// bound in chunks that fit the device's storage-binding limit) plus the integrate pass. Each
    /// [`World::step`] call adds one more, which writes the public position and velocity buffers.
    pub dispatches_per_step: u32,
    /// Steps recorded per queue submission ([`WorldOptions::steps_per_submission`]): a call
    /// `step(n)` makes `ceil(n / steps_per_submission)` submissions and one 16-byte status read.
    pub steps_per_submission: u32,
    /// Masses whose springs one invocation of the spring pass handles (it walks each mass's
    /// springs in turn): 32 on CPU adapters, 1 on GPUs, fewer (down to 1) on CPU adapters when
    /// that would leave too few workgroups to fill the adapter.
    pub spring_masses_per_invocation: u32,
    /// Masses one invocation of the integrate pass handles: 16 on CPU adapters, 1 on
    /// GPUs, fewer when that would leave too few workgroups to fill the adapter.
    pub masses_per_invocation: u32,
    /// Offsets of the spring pass's stencil (see [`SpringPass`]): 0 when the World runs the link
    /// variant.
    pub stencil_offsets: u32,
    /// Springs the stencil holds (the rest are walked in the link table): 0 for the link variant.
    pub stencil_springs: u64,
}

/// A dispatch laid out in at most two dimensions.
#[derive(Clone, Copy, Debug)]
struct Dispatch {
    x: u32,
    y: u32,
    /// Workgroups actually needed (`x * y` may be a little more).
    groups: u32,
}

impl Dispatch {
    fn new(items: u64, per_group: u64, max_dim: u32, what: &'static str) -> Result<Self> {
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

/// GPU buffers of a World.
#[derive(Debug)]
struct Buffers {
    params: wgpu::Buffer,
    masses: wgpu::Buffer,
    links: wgpu::Buffer,
    link_materials: wgpu::Buffer,
    /// (first, end) link of each mass's springs, 8 bytes per mass.
    runs: wgpu::Buffer,
    /// The stencil variant's tables: rest lengths per (mass, slot), and (first, end) link of each
    /// mass's springs outside the stencil.
    stencil: Option<(wgpu::Buffer, wgpu::Buffer)>,
    materials: wgpu::Buffer,
    actuators: wgpu::Buffer,
    oscillators: wgpu::Buffer,
    bodies: wgpu::Buffer,
    positions: wgpu::Buffer,
    velocities: wgpu::Buffer,
    /// Position and velocity interleaved, 32 bytes per mass (what the passes read).
    state: wgpu::Buffer,
    forces: wgpu::Buffer,
    status: wgpu::Buffer,
    spring_slots: wgpu::Buffer,
    mass_slots: wgpu::Buffer,
    mass_partials: wgpu::Buffer,
    spring_partials: wgpu::Buffer,
    body_sums: wgpu::Buffer,
    steps: wgpu::Buffer,
}

#[derive(Debug)]
struct BindGroups {
    integrate: wgpu::BindGroup,
    publish: wgpu::BindGroup,
    energy_masses: wgpu::BindGroup,
    bodies: wgpu::BindGroup,
    step: wgpu::BindGroup,
}

/// One chunk of the spring table: the springs one binding can hold (the device caps a storage
/// binding, 128 MiB on many adapters), with its own bind groups and dispatch.
#[derive(Debug)]
struct SpringChunk {
    dispatch: Dispatch,
    springs: wgpu::BindGroup,
    energy: wgpu::BindGroup,
}

impl GpuSpring {
    /// The device's 8-byte record of this spring.
    fn link(&self) -> GpuLink {
        GpuLink {
            b: self.b
                | if self.actuated {
                    layout::LINK_ACTUATED
                } else {
                    0
                },
            rest: self.rest,
        }
    }
}

/// Where each spring sits in the device's link table, which groups the springs by their first
/// mass (stable: springs of one mass keep model order). Builders emit springs mass by mass, so the
/// order is usually the model's own and no permutation is stored.
#[derive(Debug)]
struct Links {
    /// The links of mass `m` are `offsets[m]..offsets[m + 1]` (masses + 1 entries).
    offsets: Vec<u32>,
    /// Model index of each link, when the order differs from the model's.
    model_of: Option<Vec<u32>>,
    /// Link index of each model spring, when the order differs from the model's.
    link_of: Option<Vec<u32>>,
}

impl Links {
    /// The table of `springs` over `masses` masses; with `held` (springs in the stencil), each
    /// mass's springs outside the stencil come first, so that they form a run of their own.
    fn new(springs: &[GpuSpring], masses: usize, held: Option<&[bool]>) -> Self {
        let mut offsets = vec![0u32; masses + 1];
        for sp in springs {
            offsets[sp.a as usize + 1] += 1;
        }
        for m in 0..masses {
            offsets[m + 1] += offsets[m];
        }
        let key = |i: usize| (springs[i].a, held.is_some_and(|h| h[i]));
        if (1..springs.len()).all(|i| key(i - 1) <= key(i)) {
            return Self {
                offsets,
                model_of: None,
                link_of: None,
            };
        }
        let mut next = offsets.clone();
        let mut model_of = vec![0u32; springs.len()];
        let mut link_of = vec![0u32; springs.len()];
        for pass in [false, true] {
            for (i, sp) in springs.iter().enumerate() {
                if held.is_some_and(|h| h[i]) != pass {
                    continue;
                }
                let slot = &mut next[sp.a as usize];
                model_of[*slot as usize] = i as u32;
                link_of[i] = *slot;
                *slot += 1;
            }
        }
        Self {
            offsets,
            model_of: Some(model_of),
            link_of: Some(link_of),
        }
    }

    /// Model indices of the springs in link-table order.
    fn model_order(&self) -> impl Iterator<Item = u32> + '_ {
        let count = self.offsets.last().copied().unwrap_or(0);
        (0..count).map(|i| self.model_of.as_ref().map_or(i, |m| m[i as usize]))
    }

    /// Link index of model spring `s`.
    fn link(&self, s: usize) -> u64 {
        u64::from(self.link_of.as_ref().map_or(s as u32, |l| l[s]))
    }

    /// (first, end) link of every mass's springs.
    fn runs(&self) -> Vec<[u32; 2]> {
        self.offsets.windows(2).map(|w| [w[0], w[1]]).collect()
    }

    /// (first, end) link of every mass's springs that are not `held` (they come first in each
    /// mass's run), and whether there are any.
    fn runs_outside(&self, held: &[bool]) -> (Vec<[u32; 2]>, bool) {
        let mut any = false;
        let runs = self
            .offsets
            .windows(2)
            .map(|w| {
                let outside = (w[0]..w[1])
                    .take_while(|&i| !held[self.spring(i) as usize])
                    .count() as u32;
                any |= outside > 0;
                [w[0], w[0] + outside]
            })
            .collect();
        (runs, any)
    }

    /// Model index of link `i`.
    fn spring(&self, i: u32) -> u32 {
        self.model_of.as_ref().map_or(i, |m| m[i as usize])
    }
}

/// Why a World stopped.
#[derive(Clone, Debug)]
enum Failure {
    NonFinite { mass: usize, step: u64, time: f64 },
    Overflow { step: u64, spring: u32 },
}

/// The GPU simulation of a [`Model`]: the physics of [`crate::CpuWorld`] in f32 on any adapter
/// wgpu finds.
///
/// State stays on the GPU; [`World::positions`], [`World::velocities`], [`World::energy`] and
/// [`World::bodies`] read back only what they report. Results are bit-identical from run to run
/// on the same adapter (see [`fixed`]).
///
/// Buffers a renderer on the same device may read:
/// [`World::position_buffer`] is `array<vec4<f32>>`, one element per mass in model order, xyz the
/// position in m and w = 1; [`World::velocity_buffer`] is the same with velocities in m/s and
/// w = 0. Both have usage `STORAGE | COPY_SRC | COPY_DST` (and `VERTEX` for positions).
#[derive(Debug)]
pub struct World {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter_info: wgpu::AdapterInfo,
    pipelines: Pipelines,
    buffers: Buffers,
    groups: BindGroups,
    masses: Vec<Mass>,
    bodies: Vec<Body>,
    springs: Vec<GpuSpring>,
    links: Links,
    /// The spring pass's stencil, when the World runs that variant.
    stencil: Option<stencil::Stencil>,
    laws: Vec<u32>,
    materials: Vec<GpuMaterial>,
    model_actuators: Vec<Actuator>,
    actuators: Vec<Actuator>,
    spring_actuator: HashMap<u32, u32>,
    /// The model's rest length of every actuated spring, m.
    actuated_base: HashMap<u32, f64>,
    gpu_masses: Vec<GpuMass>,
    params: GpuParams,
    model_params: crate::model::Params,
    /// Rest lengths changed by `set_rest_length` on springs without an actuator, m.
    rest_changed: HashMap<usize, f64>,
    fixed_point: FixedPoint,
    /// 32-bit force sums packed in 64-bit atomics (x and y share one).
    packed_forces: bool,
    options: WorldOptions,
    step_stride: u64,
    mass_dispatch: Dispatch,
    spring_dispatch: Dispatch,
    spring_chunks: Vec<SpringChunk>,
    granularity: layout::Granularity,
    body_dispatch: Dispatch,
    drag: Option<DragSpring>,
    time: f64,
    steps: u64,
    /// Energy booked on the host (`set_fixed`, `set_rest_length`), J.
    host_dissipated: f64,
    host_injected: f64,
    failed: Option<Failure>,
    lost: Arc<Mutex<Option<String>>>,
}

const STATUS_CLEAR: [u32; 4] = [u32::MAX; 4];

fn v3(v: DVec3) -> [f32; 3] {
    v.as_vec3().to_array()
}

/// `size` bytes of `buffer` from `offset`, as a binding.
fn range(buffer: &wgpu::Buffer, offset: u64, size: u64) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer,
        offset,
        size: wgpu::BufferSize::new(size),
    })
}

/// Bind group entries numbered in order.
fn entries(list: Vec<wgpu::BindingResource<'_>>) -> Vec<wgpu::BindGroupEntry<'_>> {
    list.into_iter()
        .enumerate()
        .map(|(i, resource)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource,
        })
        .collect()
}

fn gpu_error(e: wgpu::Error) -> Error {
    Error::Gpu(e.to_string())
}

impl World {
    /// Builds a World for `model` on an adapter it picks itself ([`request_device`]: honours
    /// `WGPU_BACKEND` and `WGPU_ADAPTER_NAME`, prefers Vulkan and real GPUs), with default
    /// [`WorldOptions`].
    ///
    /// # Errors
    /// What [`Model::validate`] rejects; [`Error::NoAdapter`] (listing the adapters seen);
    /// [`Error::RequestDevice`]; and what [`World::with_device`] rejects.
    pub fn new(model: &Model) -> Result<Self> {
        model.validate()?;
        let (device, queue) = request_device()?;
        let lost = Arc::new(Mutex::new(None));
        let flag = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut l) = flag.lock() {
                *l = Some(format!("{reason:?}: {message}"));
            }
        });
        let mut w = Self::with_device(device, queue, model, WorldOptions::default())?;
        w.lost = lost;
        Ok(w)
    }

    /// Builds a World for `model` on a device and queue the caller already has (to share a GPU
    /// with a renderer or between Worlds). Open the device with the adapter's limits and, for
    /// 64-bit atomics, [`wanted_features`] (as [`open_device`] does).
    ///
    /// # Errors
    /// What [`Model::validate`] rejects; [`Error::InvalidParameter`] for a bad fixed-point quantum;
    /// [`Error::Gpu`] if [`AtomicWidth::Bits64`] is asked for on a device without
    /// `SHADER_INT64_ATOMIC_ALL_OPS`, or if wgpu reports a validation or out-of-memory error while
    /// building buffers and pipelines; [`Error::DeviceLimit`] naming the limit and the size asked
    /// for when the scene does not fit the device (buffer size, storage binding size, workgroups
    /// per dispatch dimension).
    pub fn with_device(
        device: wgpu::Device,
        queue: wgpu::Queue,
        model: &Model,
        options: WorldOptions,
    ) -> Result<Self> {
        model.validate()?;
        let has64 = device
            .features()
            .contains(wgpu::Features::SHADER_INT64 | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS);
        let bits = match options.atomics {
            AtomicWidth::Auto => {
                if has64 {
                    64
                } else {
                    32
                }
            }
            AtomicWidth::Bits32 => 32,
            AtomicWidth::Bits64 => {
                if !has64 {
                    return Err(Error::Gpu(
                        "64-bit atomics were asked for, but the device was opened without \
                         SHADER_INT64 | SHADER_INT64_ATOMIC_ALL_OPS; use AtomicWidth::Auto or \
                         Bits32, or open the device with hooke::gpu::open_device"
                            .to_string(),
                    ));
                }
                64
            }
        };
        let fixed_point = FixedPoint::choose(model, bits, options.fixed_point)?;
        // 32-bit sums ride in 64-bit atomics, x and y in one, where the device has them.
        let packed = bits == 32 && has64;
        let limits = device.limits();
        let n = model.masses.len() as u64;
        let s = model.springs.len() as u64;
        let max_dim = options
            .max_workgroups_per_dimension
            .unwrap_or(u32::MAX)
            .min(limits.max_compute_workgroups_per_dimension)
            .max(1);
        let granularity = layout::Granularity::for_device(device.adapter_info().device_type, n);
        let wg = u64::from(granularity.workgroup_size);
        let per_spring_invocation = u64::from(granularity.spring_masses_per_invocation);
        let per_mass_invocation = u64::from(granularity.masses_per_invocation);
        let mass_dispatch = Dispatch::new(
            n,
            wg * per_mass_invocation,
            max_dim,
            "max_compute_workgroups_per_dimension^2 (mass pass)",
        )?;
        // The spring pass runs over masses (each walks its own springs).
        let spring_dispatch = Dispatch::new(
            n,
            wg * per_spring_invocation,
            max_dim,
            "max_compute_workgroups_per_dimension^2 (spring pass)",
        )?;
        let body_dispatch = Dispatch::new(
            model.bodies.len() as u64,
            1,
            max_dim,
            "max_compute_workgroups_per_dimension^2 (body pass)",
        )?;
        let check_buffer = |bytes: u64| -> Result<()> {
            if bytes > limits.max_buffer_size {
                return Err(Error::DeviceLimit {
                    what: "max_buffer_size",
                    asked: bytes,
                    limit: limits.max_buffer_size,
                });
            }
            Ok(())
        };
        let check = |bytes: u64| -> Result<()> {
            check_buffer(bytes)?;
            if bytes > limits.max_storage_buffer_binding_size {
                return Err(Error::DeviceLimit {
                    what: "max_storage_buffer_binding_size",
                    asked: bytes,
                    limit: limits.max_storage_buffer_binding_size,
                });
            }
            Ok(())
        };
        // A link keeps its second mass in 31 bits and link indices are u32.
        if n > u64::from(layout::LINK_ACTUATED) {
            return Err(Error::DeviceLimit {
                what: "masses of one World",
                asked: n,
                limit: u64::from(layout::LINK_ACTUATED),
            });
        }
        if s > u64::from(u32::MAX) {
            return Err(Error::DeviceLimit {
                what: "springs of one World",
                asked: s,
                limit: u64::from(u32::MAX),
            });
        }
        check_buffer(8 * s)?;
        check(16 * n)?;
        check(8 * n)?;
        check(32 * n)?;
        check(4 * n * u64::from(bits / 8))?;

        // Host-side tables.
        let mut materials: Vec<GpuMaterial> = Vec::new();
        let mut material_index: HashMap<(u32, u64, u64), u32> = HashMap::new();
        let mut spring_actuator: HashMap<u32, u32> = HashMap::new();
        for (i, a) in model.actuators.iter().enumerate() {
            // The last actuator naming a spring drives it, as on the CPU.
            spring_actuator.insert(a.spring, i as u32);
        }
        let mut laws = Vec::with_capacity(model.springs.len());
        let springs: Vec<GpuSpring> = model
            .springs
            .iter()
            .enumerate()
            .map(|(i, sp)| {
                let law = match sp.law {
                    SpringLaw::Hooke => layout::LAW_HOOKE,
                    SpringLaw::Material => layout::LAW_MATERIAL,
                    SpringLaw::ZeroLength => layout::LAW_ZERO_LENGTH,
                };
                laws.push(law);
                let key = (law, sp.stiffness.to_bits(), sp.damping.to_bits());
                let next = materials.len() as u32;
                let material = *material_index.entry(key).or_insert_with(|| {
                    materials.push(GpuMaterial {
                        stiffness: sp.stiffness as f32,
                        damping: sp.damping as f32,
                        law,
                        pad0: 0,
                    });
                    next
                });
                let actuator = spring_actuator.get(&(i as u32)).copied();
                GpuSpring {
                    a: sp.a,
                    b: sp.b,
                    rest: actuator.unwrap_or_else(|| (sp.rest_length as f32).to_bits()),
                    material,
                    actuated: actuator.is_some(),
                }
            })
            .collect();
        // The stencil variant of the spring pass (see `SpringPass`): a table that fits one
        // binding, and slot codes that fit the u32 overflow report.
        let want_stencil = match options.spring_pass {
            // Below 4 masses per invocation (small models) the registers a chain keeps are
            // reloaded too often to gain.
            SpringPass::Auto => {
                device.adapter_info().device_type == wgpu::DeviceType::Cpu
                    && granularity.spring_masses_per_invocation >= 4
            }
            SpringPass::Links => false,
            SpringPass::Stencil => true,
        };
        let stencil = if want_stencil {
            stencil::Stencil::find(&springs, n as usize, &materials).filter(|st| {
                let bytes = 16 * u64::from(st.words()) * n;
                bytes <= limits.max_storage_buffer_binding_size
                    && bytes <= limits.max_buffer_size
                    && s + st.codes() < u64::from(layout::NONE)
            })
        } else {
            None
        };
        let held = stencil.as_ref().map(|st| st.membership(springs.len()));
        let links = Links::new(&springs, n as usize, held.as_deref());
        let outside = held.as_ref().map(|h| links.runs_outside(h));
        let link_records: Vec<GpuLink> = links
            .model_order()
            .map(|i| springs[i as usize].link())
            .collect();
        let link_materials: Vec<u32> = if materials.len() > 1 {
            links
                .model_order()
                .map(|i| springs[i as usize].material)
                .collect()
        } else {
            Vec::new()
        };
        let mut oscillators = Vec::new();
        let gpu_masses: Vec<GpuMass> = model
            .masses
            .iter()
            .map(|m| GpuMass {
                external_force: v3(m.external_force),
                mass: m.mass as f32,
                flags: if m.fixed { layout::MASS_FIXED } else { 0 },
                oscillator: match &m.friction_oscillator {
                    Some(o) => {
                        oscillators.push(GpuOscillator {
                            min: o.min as f32,
                            max: o.max as f32,
                            omega: o.omega as f32,
                            phase: o.phase as f32,
                        });
                        oscillators.len() as u32 - 1
                    }
                    None => layout::NONE,
                },
                body: layout::NONE,
                pad0: 0,
            })
            .collect();
        let body_table: Vec<GpuBody> = model
            .bodies
            .iter()
            .map(|b| GpuBody {
                first: b.masses.start as u32,
                count: b.masses.len() as u32,
            })
            .collect();
        let params = make_params(model, None, n as u32, s as u32, model.bodies.len() as u32);

        let constants = layout::constants(&layout::Specialization {
            fixed_scale: 1.0 / fixed_point.quantum,
            spring_force_limit: fixed_point.spring_limit,
            track_energy: options.track_energy,
            uniform_material: if materials.len() == 1 {
                Some(materials[0])
            } else {
                None
            },
            has_actuators: !spring_actuator.is_empty(),
            has_oscillators: !oscillators.is_empty(),
            packed_forces: packed,
            granularity,
        });
        let scope_oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let scope_val = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let stencil_source = stencil
            .as_ref()
            .zip(outside.as_ref())
            .map(|(st, (_, any))| st.wgsl(pipelines::SPRINGS_STENCIL, s as u32, *any));
        let pipelines =
            Pipelines::new(&device, bits, packed, &constants, stencil_source.as_deref());
        let storage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        // wgpu rejects zero-sized bindings: every table has at least one element.
        let init = |label: &str, bytes: &[u8], usage: wgpu::BufferUsages| {
            let pad = [0u8; 64];
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: if bytes.is_empty() { &pad } else { bytes },
                usage,
            })
        };
        let zeroed = |label: &str, bytes: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(64),
                usage,
                mapped_at_creation: false,
            })
        };
        let step_stride = u64::from(limits.min_uniform_buffer_offset_alignment)
            .max(std::mem::size_of::<GpuStep>() as u64);
        let steps_per_submission = u64::from(options.steps_per_submission.max(1));
        let initial_actuators = initial_actuator_table(&model.actuators, model);
        let buffers = Buffers {
            params: init(
                "hooke::params",
                bytemuck::bytes_of(&params),
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            masses: init("hooke::masses", bytemuck::cast_slice(&gpu_masses), storage),
            links: init("hooke::links", bytemuck::cast_slice(&link_records), storage),
            link_materials: init(
                "hooke::link_materials",
                bytemuck::cast_slice(&link_materials),
                storage,
            ),
            runs: init("hooke::runs", bytemuck::cast_slice(&links.runs()), storage),
            stencil: stencil
                .as_ref()
                .zip(outside.as_ref())
                .map(|(st, (runs, _))| {
                    (
                        init(
                            "hooke::stencil",
                            bytemuck::cast_slice(&st.table(&springs)),
                            storage,
                        ),
                        init("hooke::stencil_runs", bytemuck::cast_slice(runs), storage),
                    )
                }),
            materials: init(
                "hooke::materials",
                bytemuck::cast_slice(&materials),
                storage,
            ),
            actuators: init(
                "hooke::actuators",
                bytemuck::cast_slice(&initial_actuators),
                storage,
            ),
            oscillators: init(
                "hooke::oscillators",
                bytemuck::cast_slice(&oscillators),
                storage,
            ),
            bodies: init("hooke::bodies", bytemuck::cast_slice(&body_table), storage),
            positions: zeroed(
                "hooke::positions",
                16 * n,
                storage | wgpu::BufferUsages::VERTEX,
            ),
            velocities: zeroed("hooke::velocities", 16 * n, storage),
            state: zeroed("hooke::state", 32 * n, storage),
            forces: zeroed("hooke::forces", 4 * n * u64::from(bits / 8), storage),
            status: init(
                "hooke::status",
                bytemuck::cast_slice(&STATUS_CLEAR),
                storage,
            ),
            spring_slots: zeroed(
                "hooke::spring_slots",
                16 * wg * u64::from(spring_dispatch.groups),
                storage,
            ),
            mass_slots: zeroed(
                "hooke::mass_slots",
                16 * n.div_ceil(per_mass_invocation),
                storage,
            ),
            mass_partials: zeroed(
                "hooke::mass_partials",
                32 * u64::from(mass_dispatch.groups),
                storage,
            ),
            spring_partials: zeroed(
                "hooke::spring_partials",
                16 * u64::from(spring_dispatch.groups),
                storage,
            ),
            body_sums: zeroed("hooke::body_sums", 32 * model.bodies.len() as u64, storage),
            steps: zeroed(
                "hooke::steps",
                step_stride * steps_per_submission,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
        };
        let bind = |kernel: &pipelines::Kernel, label: &str, list: &[&wgpu::Buffer]| {
            let entries: Vec<wgpu::BindGroupEntry> = list
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect();
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(label),
                layout: &kernel.layout,
                entries: &entries,
            })
        };
        let b = &buffers;
        // The link table is bound in chunks of whole blocks of masses: a block is a whole number
        // of spring-pass workgroups whose slot (16 bytes per invocation) and partial (16 bytes per
        // workgroup) ranges start on the device's offset alignment; a chunk's link binding starts
        // at its first mass's first link, rounded down to that alignment.
        let offset_align = u64::from(limits.min_storage_buffer_offset_alignment).max(16);
        let masses_per_group = wg * per_spring_invocation;
        let block = masses_per_group * (offset_align / 16);
        let link_align = offset_align / 4;
        let binding_links = limits.max_storage_buffer_binding_size / 8;
        let cap = options
            .max_springs_per_binding
            .map_or(binding_links, |c| c.clamp(1, binding_links));
        let offsets = &links.offsets;
        let first_link = |m: u64| u64::from(offsets[m as usize]) / link_align * link_align;
        let mut spring_chunks = Vec::new();
        let mut m0 = 0u64;
        while m0 < n && s > 0 {
            let first = first_link(m0);
            let mut m1 = (m0 + block).min(n);
            let bound = u64::from(offsets[m1 as usize]) - first;
            if bound > binding_links {
                return Err(Error::DeviceLimit {
                    what: "max_storage_buffer_binding_size (the springs of one block of masses)",
                    asked: 8 * bound,
                    limit: limits.max_storage_buffer_binding_size,
                });
            }
            while m1 < n {
                let next = (m1 + block).min(n);
                if u64::from(offsets[next as usize]) - first > cap {
                    break;
                }
                m1 = next;
            }
            // A chunk whose masses have no springs still binds one aligned link.
            let (first, count) = if u64::from(offsets[m1 as usize]) > first {
                (first, u64::from(offsets[m1 as usize]) - first)
            } else {
                let f = (s - 1) / link_align * link_align;
                (f, s - f)
            };
            let dispatch = Dispatch::new(
                m1 - m0,
                masses_per_group,
                max_dim,
                "max_compute_workgroups_per_dimension^2 (spring pass)",
            )?;
            let chunk = layout::GpuChunk {
                first: first as u32,
                first_mass: m0 as u32,
                end_mass: m1 as u32,
                pad0: 0,
            };
            let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("hooke::chunk"),
                contents: bytemuck::bytes_of(&chunk),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let table = range(&b.links, 8 * first, 8 * count);
            // One material: the shader never reads the (placeholder) table.
            let materials_range = if link_materials.is_empty() {
                b.link_materials.as_entire_binding()
            } else {
                range(&b.link_materials, 4 * first, 4 * count)
            };
            let group0 = m0 / masses_per_group;
            let groups_bytes = 16 * u64::from(dispatch.groups);
            let partial_offset = 16 * group0;
            let slot_offset = 16 * wg * group0;
            let slot_bytes = 16 * wg * u64::from(dispatch.groups);
            let mut springs_entries = vec![
                b.params.as_entire_binding(),
                table.clone(),
                materials_range.clone(),
                b.materials.as_entire_binding(),
                b.actuators.as_entire_binding(),
                b.stencil
                    .as_ref()
                    .map_or(&b.runs, |(_, runs)| runs)
                    .as_entire_binding(),
                b.state.as_entire_binding(),
                b.forces.as_entire_binding(),
                b.status.as_entire_binding(),
                range(&b.spring_slots, slot_offset, slot_bytes),
                uniform.as_entire_binding(),
            ];
            if let Some((rests, _)) = &b.stencil {
                springs_entries.push(rests.as_entire_binding());
            }
            let springs_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("hooke::springs"),
                layout: &pipelines.springs.layout,
                entries: &entries(springs_entries),
            });
            let energy_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("hooke::energy_springs"),
                layout: &pipelines.energy_springs.layout,
                entries: &entries(vec![
                    b.params.as_entire_binding(),
                    table,
                    materials_range,
                    b.materials.as_entire_binding(),
                    b.actuators.as_entire_binding(),
                    b.runs.as_entire_binding(),
                    b.positions.as_entire_binding(),
                    range(&b.spring_slots, slot_offset, slot_bytes),
                    range(&b.spring_partials, partial_offset, groups_bytes),
                    uniform.as_entire_binding(),
                ]),
            });
            spring_chunks.push(SpringChunk {
                dispatch,
                springs: springs_group,
                energy: energy_group,
            });
            m0 = m1;
        }
        let groups = BindGroups {
            integrate: bind(
                &pipelines.integrate,
                "hooke::integrate",
                &[
                    &b.params,
                    &b.masses,
                    &b.oscillators,
                    &b.state,
                    &b.forces,
                    &b.status,
                    &b.mass_slots,
                ],
            ),
            publish: bind(
                &pipelines.publish,
                "hooke::publish",
                &[&b.params, &b.state, &b.positions, &b.velocities],
            ),
            energy_masses: bind(
                &pipelines.energy_masses,
                "hooke::energy_masses",
                &[
                    &b.params,
                    &b.masses,
                    &b.positions,
                    &b.velocities,
                    &b.mass_slots,
                    &b.mass_partials,
                ],
            ),
            bodies: bind(
                &pipelines.bodies,
                "hooke::bodies",
                &[
                    &b.params,
                    &b.bodies,
                    &b.masses,
                    &b.positions,
                    &b.velocities,
                    &b.body_sums,
                ],
            ),
            step: device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("hooke::step"),
                layout: &pipelines.step_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &b.steps,
                        offset: 0,
                        size: wgpu::BufferSize::new(std::mem::size_of::<GpuStep>() as u64),
                    }),
                }],
            }),
        };
        let validation = pollster::block_on(scope_val.pop());
        let oom = pollster::block_on(scope_oom.pop());
        if let Some(e) = validation.or(oom) {
            return Err(gpu_error(e));
        }
        let adapter_info = device.adapter_info();
        let mut world = Self {
            device,
            queue,
            adapter_info,
            pipelines,
            buffers,
            groups,
            masses: model.masses.clone(),
            bodies: model.bodies.clone(),
            springs,
            links,
            stencil,
            laws,
            materials,
            model_actuators: model.actuators.clone(),
            actuators: model.actuators.clone(),
            actuated_base: spring_actuator
                .keys()
                .map(|&s| (s, model.springs[s as usize].rest_length))
                .collect(),
            spring_actuator,
            gpu_masses,
            params,
            model_params: model.params,
            rest_changed: HashMap::new(),
            fixed_point,
            packed_forces: packed,
            options,
            step_stride,
            mass_dispatch,
            spring_dispatch,
            spring_chunks,
            granularity,
            body_dispatch,
            drag: None,
            time: 0.0,
            steps: 0,
            host_dissipated: 0.0,
            host_injected: 0.0,
            failed: None,
            lost: Arc::new(Mutex::new(None)),
        };
        world.reset();
        Ok(world)
    }

    /// Returns to the initial state of the model: positions, velocities, time 0, energy counters
    /// 0, no drag spring, the model's external forces, fixed flags, rest lengths and actuators.
    /// Clears a stopped World's error.
    pub fn reset(&mut self) {
        let q = &self.queue;
        let b = &self.buffers;
        let pos: Vec<[f32; 4]> = self
            .masses
            .iter()
            .map(|m| m.position.as_vec3().extend(1.0).to_array())
            .collect();
        let vel: Vec<[f32; 4]> = self
            .masses
            .iter()
            .map(|m| {
                if m.fixed {
                    [0.0; 4]
                } else {
                    m.velocity.as_vec3().extend(0.0).to_array()
                }
            })
            .collect();
        if !pos.is_empty() {
            q.write_buffer(&b.positions, 0, bytemuck::cast_slice(&pos));
            q.write_buffer(&b.velocities, 0, bytemuck::cast_slice(&vel));
            // (px, py, pz, vx, vy, vz, 0, 0): see `State` in shaders/words_*.wgsl.
            let state: Vec<[f32; 8]> = pos
                .iter()
                .zip(&vel)
                .map(|(p, v)| [p[0], p[1], p[2], v[0], v[1], v[2], 0.0, 0.0])
                .collect();
            q.write_buffer(&b.state, 0, bytemuck::cast_slice(&state));
        }
        for (g, m) in self.gpu_masses.iter_mut().zip(&self.masses) {
            g.external_force = v3(m.external_force);
            g.flags = if m.fixed { layout::MASS_FIXED } else { 0 };
        }
        if !self.gpu_masses.is_empty() {
            q.write_buffer(&b.masses, 0, bytemuck::cast_slice(&self.gpu_masses));
        }
        for (&s, _) in self.rest_changed.iter() {
            let sp = &self.springs[s];
            q.write_buffer(
                &b.links,
                8 * self.links.link(s),
                bytemuck::bytes_of(&sp.link()),
            );
            if let (Some(st), Some((rests, _))) = (&self.stencil, &b.stencil) {
                if let Some(at) = st.element(s, sp) {
                    q.write_buffer(rests, 4 * at, bytemuck::bytes_of(&sp.rest));
                }
            }
        }
        self.rest_changed.clear();
        self.actuators = self.model_actuators.clone();
        if !self.actuators.is_empty() {
            let table = self.actuator_table(0.0);
            q.write_buffer(&b.actuators, 0, bytemuck::cast_slice(&table));
        }
        self.drag = None;
        self.params = make_params_from(
            &self.model_params,
            None,
            self.params.masses,
            self.params.springs,
            self.params.bodies,
        );
        q.write_buffer(&b.params, 0, bytemuck::bytes_of(&self.params));
        q.write_buffer(&b.status, 0, bytemuck::cast_slice(&STATUS_CLEAR));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::reset"),
            });
        for buf in [&b.forces, &b.spring_slots, &b.mass_slots] {
            encoder.clear_buffer(buf, 0, None);
        }
        q.submit([encoder.finish()]);
        self.time = 0.0;
        self.steps = 0;
        self.host_dissipated = 0.0;
        self.host_injected = 0.0;
        self.failed = None;
    }

    fn actuator_table(&self, time: f64) -> Vec<GpuActuator> {
        self.actuators
            .iter()
            .map(|a| {
                let base = self.base_rest(a.spring as usize);
                gpu_actuator(a, base, time)
            })
            .collect()
    }

    /// Base rest length of spring `s` as the model (or `set_rest_length`) gives it, m.
    fn base_rest(&self, s: usize) -> f64 {
        self.rest_changed.get(&s).copied().unwrap_or_else(|| {
            match self.actuated_base.get(&(s as u32)) {
                Some(&base) => base,
                None => f64::from(f32::from_bits(self.springs[s].rest)),
            }
        })
    }

    /// The adapter this World runs on (name, backend, device type).
    #[must_use]
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.adapter_info
    }

    /// The device this World runs on.
    #[must_use]
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue this World submits to.
    #[must_use]
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The position buffer: `array<vec4<f32>>`, one element per mass in model order, xyz the
    /// position in m, w = 1. Usage `STORAGE | VERTEX | COPY_SRC | COPY_DST`. A renderer on the
    /// same device can draw from it directly; it changes only when the World steps or resets.
    #[must_use]
    pub fn position_buffer(&self) -> &wgpu::Buffer {
        &self.buffers.positions
    }

    /// The velocity buffer: `array<vec4<f32>>`, xyz the velocity in m/s, w = 0.
    #[must_use]
    pub fn velocity_buffer(&self) -> &wgpu::Buffer {
        &self.buffers.velocities
    }

    /// The fixed-point encoding in force (width, quantum, ranges).
    #[must_use]
    pub fn fixed_point(&self) -> FixedPoint {
        self.fixed_point
    }

    /// The options this World was built with.
    #[must_use]
    pub fn options(&self) -> WorldOptions {
        self.options
    }

    /// Device memory and per-step work of this World (see [`WorldStats`]).
    #[must_use]
    pub fn stats(&self) -> WorldStats {
        let b = &self.buffers;
        let springs = self.springs.len().max(1) as f64;
        let masses = self.masses.len().max(1) as f64;
        let stencil_bytes = b
            .stencil
            .as_ref()
            .map_or(0, |(rests, runs)| rests.size() + runs.size());
        let all = [
            &b.params,
            &b.masses,
            &b.links,
            &b.link_materials,
            &b.runs,
            &b.materials,
            &b.actuators,
            &b.oscillators,
            &b.bodies,
            &b.positions,
            &b.velocities,
            &b.state,
            &b.forces,
            &b.status,
            &b.spring_slots,
            &b.mass_slots,
            &b.mass_partials,
            &b.spring_partials,
            &b.body_sums,
            &b.steps,
        ];
        WorldStats {
            bytes_per_spring: (b.links.size() + b.link_materials.size() + b.spring_slots.size())
                as f64
                / springs,
            bytes_per_mass: (b.positions.size()
                + b.velocities.size()
                + b.state.size()
                + b.forces.size()
                + b.masses.size()
                + b.runs.size()
                + stencil_bytes
                + b.mass_slots.size()) as f64
                / masses,
            device_bytes: all.iter().map(|x| x.size()).sum::<u64>() + stencil_bytes,
            dispatches_per_step: self.spring_chunks.len() as u32 + 1,
            steps_per_submission: self.options.steps_per_submission.max(1),
            spring_masses_per_invocation: self.granularity.spring_masses_per_invocation,
            masses_per_invocation: self.granularity.masses_per_invocation,
            stencil_offsets: self
                .stencil
                .as_ref()
                .map_or(0, |st| st.offsets().len() as u32),
            stencil_springs: self.stencil.as_ref().map_or(0, |st| st.held() as u64),
        }
    }

    /// Simulation time in s.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps taken since the start (or the last reset).
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Number of masses.
    #[must_use]
    pub fn mass_count(&self) -> usize {
        self.masses.len()
    }

    /// Number of springs.
    #[must_use]
    pub fn spring_count(&self) -> usize {
        self.springs.len()
    }

    /// The model's bodies.
    #[must_use]
    pub fn bodies_of_model(&self) -> &[Body] {
        &self.bodies
    }

    fn check_alive(&self) -> Result<()> {
        if let Some(reason) = self.lost.lock().ok().and_then(|l| l.clone()) {
            return Err(Error::DeviceLost { reason });
        }
        Ok(())
    }

    fn failure(&self) -> Option<Error> {
        self.failed.as_ref().map(|f| match *f {
            Failure::NonFinite { mass, step, time } => Error::NonFinite { mass, step, time },
            Failure::Overflow { step, spring } => self.overflow_error(step, spring),
        })
    }

    /// The model spring of an overflow code the spring pass reported: a link index, or in the
    /// stencil variant from the link count on, a (mass, slot) code.
    fn spring_of_code(&self, code: u32) -> u32 {
        let links = self.springs.len() as u32;
        match &self.stencil {
            Some(st) if code >= links => st.spring_of(code - links),
            _ => self.links.spring(code),
        }
    }

    fn overflow_error(&self, step: u64, spring: u32) -> Error {
        let fp = self.fixed_point;
        Error::FixedPointOverflow {
            step,
            limit_newtons: fp.mass_range,
            advice: format!(
                "Spring {spring} exerted a force component above the per-spring bound of {:.6e} N \
                 ({}-bit atomics, quantum {:.3e} N, up to {} springs per mass). Set \
                 WorldOptions::fixed_point = FixedPointScale::Quantum(q) with q larger than {:.3e} \
                 N for more range{}, or check the model for a spring that explodes (dt too large \
                 for its stiffness).",
                fp.spring_limit,
                fp.bits,
                fp.quantum,
                fp.max_incidence,
                fp.quantum,
                if fp.bits == 32 {
                    ", or use a device with SHADER_INT64_ATOMIC_ALL_OPS (64-bit atomics)"
                } else {
                    ""
                }
            ),
        }
    }

    /// Advances `steps` steps of `dt`: records them into as few submissions as possible (see
    /// [`WorldOptions::steps_per_submission`]) with no host round trip between steps, then reads
    /// the 16-byte status buffer once.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming the first (lowest-index) mass whose position or velocity became
    /// non-finite, and the step, as the CPU does; the World keeps that state and refuses to step
    /// until [`World::reset`]. [`Error::FixedPointOverflow`] if a spring force passed the
    /// fixed-point bound: the World keeps the state before that step and refuses to step until
    /// reset. [`Error::DeviceLost`], [`Error::Gpu`] (validation), [`Error::Poll`],
    /// [`Error::BufferAsync`] or [`Error::MapRange`] if the GPU fails.
    pub fn step(&mut self, steps: u64) -> Result<()> {
        if let Some(e) = self.failure() {
            return Err(e);
        }
        self.check_alive()?;
        let mut left = steps;
        while left > 0 {
            // Step indices in the status buffer are u32, 1-based within one round.
            let round = left.min(u64::from(u32::MAX - 1));
            self.step_round(round)?;
            left -= round;
        }
        Ok(())
    }

    fn step_round(&mut self, n: u64) -> Result<()> {
        let dt = self.model_params.dt;
        let start_time = self.time;
        let start_steps = self.steps;
        let per = u64::from(self.options.steps_per_submission.max(1));
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut done = 0u64;
        let mut t = self.time;
        while done < n {
            let count = (n - done).min(per);
            let mut uniforms = vec![0u8; (self.step_stride * count) as usize];
            for j in 0..count {
                let step = GpuStep {
                    time: t as f32,
                    index: (done + j + 1) as u32,
                    pad0: 0,
                    pad1: 0,
                };
                let at = (self.step_stride * j) as usize;
                uniforms[at..at + 16].copy_from_slice(bytemuck::bytes_of(&step));
                t += dt;
            }
            self.queue.write_buffer(&self.buffers.steps, 0, &uniforms);
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("hooke::step"),
                });
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("hooke::step"),
                    timestamp_writes: None,
                });
                for j in 0..count {
                    let offset = (self.step_stride * j) as u32;
                    for chunk in &self.spring_chunks {
                        pass.set_pipeline(&self.pipelines.springs.pipeline);
                        pass.set_bind_group(0, &chunk.springs, &[]);
                        pass.set_bind_group(1, &self.groups.step, &[offset]);
                        pass.dispatch_workgroups(chunk.dispatch.x, chunk.dispatch.y, 1);
                    }
                    pass.set_pipeline(&self.pipelines.integrate.pipeline);
                    pass.set_bind_group(0, &self.groups.integrate, &[]);
                    pass.set_bind_group(1, &self.groups.step, &[offset]);
                    pass.dispatch_workgroups(self.mass_dispatch.x, self.mass_dispatch.y, 1);
                }
                if done + count == n {
                    // The public position and velocity buffers, once per call.
                    pass.set_pipeline(&self.pipelines.publish.pipeline);
                    pass.set_bind_group(0, &self.groups.publish, &[]);
                    pass.dispatch_workgroups(self.mass_dispatch.x, self.mass_dispatch.y, 1);
                }
            }
            self.queue.submit([encoder.finish()]);
            done += count;
        }
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(gpu_error(e));
        }
        let status: Vec<u32> =
            bytemuck::cast_slice(&self.read(&[(&self.buffers.status, 0, 16)])?).to_vec();
        let bad_step = status[layout::STATUS_BAD_STEP as usize];
        let overflow_step = status[layout::STATUS_OVERFLOW_STEP as usize];
        let time_at = |k: u64| {
            // Time at the start of step k (1-based) of this round, summed as the CPU sums it.
            let mut t = start_time;
            for _ in 1..k {
                t += dt;
            }
            t
        };
        if overflow_step != u32::MAX && overflow_step <= bad_step {
            // The overflowing step was not integrated: the state is that after step k - 1.
            let k = u64::from(overflow_step);
            self.time = time_at(k);
            self.steps = start_steps + k - 1;
            self.failed = Some(Failure::Overflow {
                step: start_steps + k,
                spring: self.spring_of_code(status[layout::STATUS_OVERFLOW_SPRING as usize]),
            });
            return Err(self.failure().expect("just set"));
        }
        if bad_step != u32::MAX {
            let k = u64::from(bad_step);
            let t0 = time_at(k);
            self.time = t0 + dt;
            self.steps = start_steps + k;
            self.failed = Some(Failure::NonFinite {
                mass: status[layout::STATUS_BAD_MASS as usize] as usize,
                step: self.steps,
                time: t0,
            });
            return Err(self.failure().expect("just set"));
        }
        self.time = t;
        self.steps = start_steps + n;
        Ok(())
    }

    /// Advances by `duration` seconds of simulated time: `round(duration / dt)` steps, as
    /// [`crate::CpuWorld::step_for`]. Returns the number of steps taken.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a negative or non-finite duration; otherwise as
    /// [`World::step`].
    pub fn step_for(&mut self, duration: f64) -> Result<u64> {
        let n = steps_for(duration, self.model_params.dt)?;
        self.step(n)?;
        Ok(n)
    }

    /// Copies `(buffer, offset, size)` ranges (bytes, multiples of 4) into one staging buffer and
    /// returns their bytes, concatenated.
    fn read(&self, ranges: &[(&wgpu::Buffer, u64, u64)]) -> Result<Vec<u8>> {
        self.check_alive()?;
        let total: u64 = ranges.iter().map(|r| r.2).sum();
        if total == 0 {
            return Ok(Vec::new());
        }
        let staging = readback::staging(&self.device, "hooke::readback", total);
        let bytes = readback::read_back(&self.device, &self.queue, &staging, total, |e, st| {
            let mut at = 0;
            for &(buf, offset, size) in ranges {
                e.copy_buffer_to_buffer(buf, offset, st, at, size);
                at += size;
            }
        })?;
        self.check_alive()?;
        Ok(bytes)
    }

    fn read_vec3s(&self, buffer: &wgpu::Buffer) -> Result<Vec<DVec3>> {
        let bytes = self.read(&[(buffer, 0, 16 * self.masses.len() as u64)])?;
        let v: &[[f32; 4]] = bytemuck::cast_slice(&bytes);
        Ok(v.iter()
            .map(|p| Vec3::new(p[0], p[1], p[2]).as_dvec3())
            .collect())
    }

    /// Positions of all masses in m, read back from the GPU.
    ///
    /// # Errors
    /// [`Error::DeviceLost`], [`Error::Poll`], [`Error::BufferAsync`] or [`Error::MapRange`].
    pub fn positions(&self) -> Result<Vec<DVec3>> {
        self.read_vec3s(&self.buffers.positions)
    }

    /// Velocities of all masses in m/s, read back from the GPU.
    ///
    /// # Errors
    /// As [`World::positions`].
    pub fn velocities(&self) -> Result<Vec<DVec3>> {
        self.read_vec3s(&self.buffers.velocities)
    }

    /// Energy terms of the current state and the dissipated and injected totals so far (running
    /// per-invocation slots on the GPU, plus what the setters booked on the host), in J. GPU
    /// reductions sum both to per-workgroup partial sums, which the host adds in f64.
    ///
    /// # Errors
    /// As [`World::positions`], or [`Error::Gpu`] on a validation error.
    pub fn energy(&self) -> Result<Energy> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::energy"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("hooke::energy"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipelines.energy_masses.pipeline);
            pass.set_bind_group(0, &self.groups.energy_masses, &[]);
            pass.dispatch_workgroups(self.mass_dispatch.x, self.mass_dispatch.y, 1);
            for chunk in &self.spring_chunks {
                pass.set_pipeline(&self.pipelines.energy_springs.pipeline);
                pass.set_bind_group(0, &chunk.energy, &[]);
                pass.dispatch_workgroups(chunk.dispatch.x, chunk.dispatch.y, 1);
            }
        }
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(gpu_error(e));
        }
        let mg = u64::from(self.mass_dispatch.groups);
        let sg = u64::from(self.spring_dispatch.groups);
        let b = &self.buffers;
        let bytes = self.read(&[
            (&b.mass_partials, 0, 32 * mg),
            (&b.spring_partials, 0, 16 * sg),
        ])?;
        let all: &[[f32; 4]] = bytemuck::cast_slice(&bytes);
        let (mp, sp) = all.split_at(2 * mg as usize);
        let mut e = Energy {
            dissipated: self.host_dissipated,
            injected: self.host_injected,
            ..Energy::default()
        };
        for p in mp.chunks_exact(2) {
            e.kinetic += f64::from(p[0][0]);
            e.gravity += f64::from(p[0][1]);
            e.ground += f64::from(p[0][2]);
            e.dissipated += f64::from(p[1][0]);
            e.injected += f64::from(p[1][1]);
        }
        if !self.springs.is_empty() {
            for p in sp {
                e.elastic += f64::from(p[0]);
                e.dissipated += f64::from(p[1]);
                e.injected += f64::from(p[2]);
            }
        }
        Ok(e)
    }

    /// Centre of mass and mean velocity of every body of the model, from one GPU reduction (one
    /// workgroup per body): thousands of creatures in one World are scored without reading their
    /// masses back.
    ///
    /// # Errors
    /// As [`World::energy`].
    pub fn bodies(&self) -> Result<Vec<BodyState>> {
        if self.bodies.is_empty() {
            return Ok(Vec::new());
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::bodies"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("hooke::bodies"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipelines.bodies.pipeline);
            pass.set_bind_group(0, &self.groups.bodies, &[]);
            pass.dispatch_workgroups(self.body_dispatch.x, self.body_dispatch.y, 1);
        }
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(gpu_error(e));
        }
        let bytes = self.read(&[(&self.buffers.body_sums, 0, 32 * self.bodies.len() as u64)])?;
        let sums: &[[f32; 4]] = bytemuck::cast_slice(&bytes);
        Ok(sums
            .chunks_exact(2)
            .map(|c| {
                let mass = f64::from(c[0][3]);
                if mass > 0.0 {
                    BodyState {
                        mass,
                        centre_of_mass: Vec3::new(c[0][0], c[0][1], c[0][2]).as_dvec3() / mass,
                        mean_velocity: Vec3::new(c[1][0], c[1][1], c[1][2]).as_dvec3() / mass,
                    }
                } else {
                    BodyState::default()
                }
            })
            .collect())
    }

    /// Centre of mass (m) of body `body`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing or empty body; otherwise as [`World::bodies`].
    pub fn body_centre_of_mass(&self, body: usize) -> Result<DVec3> {
        Ok(self.body(body)?.centre_of_mass)
    }

    /// Mean velocity (m/s) of body `body`.
    ///
    /// # Errors
    /// As [`World::body_centre_of_mass`].
    pub fn body_mean_velocity(&self, body: usize) -> Result<DVec3> {
        Ok(self.body(body)?.mean_velocity)
    }

    fn body(&self, body: usize) -> Result<BodyState> {
        let len = self.bodies.len();
        if body >= len || self.bodies[body].masses.is_empty() {
            return Err(Error::IndexOutOfRange {
                what: "body",
                index: body,
                len,
            });
        }
        Ok(self.bodies()?[body])
    }

    fn check_index(what: &'static str, index: usize, len: usize) -> Result<()> {
        if index < len {
            Ok(())
        } else {
            Err(Error::IndexOutOfRange { what, index, len })
        }
    }

    /// Sets the constant external force on mass `mass` to `force` (N) from the next step on
    /// (a 12-byte buffer write).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass; [`Error::InvalidParameter`] for a
    /// non-finite force.
    pub fn set_external_force(&mut self, mass: usize, force: DVec3) -> Result<()> {
        Self::check_index("mass", mass, self.masses.len())?;
        if !force.is_finite() {
            return Err(Error::InvalidParameter {
                name: "external force",
                value: f64::NAN,
                expected: "must be finite (N)",
            });
        }
        self.gpu_masses[mass].external_force = v3(force);
        self.queue.write_buffer(
            &self.buffers.masses,
            32 * mass as u64,
            bytemuck::cast_slice(&self.gpu_masses[mass].external_force),
        );
        Ok(())
    }

    /// Sets or clears the drag spring (a 96-byte uniform write).
    ///
    /// # Errors
    /// What [`DragSpring::validate`] rejects.
    pub fn set_drag(&mut self, drag: Option<DragSpring>) -> Result<()> {
        if let Some(d) = &drag {
            d.validate(self.masses.len())?;
        }
        self.drag = drag;
        self.params = make_params_from(
            &self.model_params,
            drag,
            self.params.masses,
            self.params.springs,
            self.params.bodies,
        );
        self.queue
            .write_buffer(&self.buffers.params, 0, bytemuck::bytes_of(&self.params));
        Ok(())
    }

    /// Fixes or frees a mass (a 4-byte write). A newly fixed mass stops dead: its kinetic energy
    /// is booked as dissipated, as on the CPU (this reads its velocity back, 16 bytes).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass; GPU errors as [`World::positions`].
    pub fn set_fixed(&mut self, mass: usize, fixed: bool) -> Result<()> {
        Self::check_index("mass", mass, self.masses.len())?;
        if fixed {
            let bytes = self.read(&[(&self.buffers.velocities, 16 * mass as u64, 16)])?;
            let v: &[f32] = bytemuck::cast_slice(&bytes);
            let v = Vec3::new(v[0], v[1], v[2]).as_dvec3();
            self.host_dissipated += 0.5 * self.masses[mass].mass * v.length_squared();
            self.queue.write_buffer(
                &self.buffers.velocities,
                16 * mass as u64,
                bytemuck::cast_slice(&[0f32; 4]),
            );
            self.queue.write_buffer(
                &self.buffers.state,
                32 * mass as u64 + 12,
                bytemuck::cast_slice(&[0f32; 3]),
            );
        }
        let flags = if fixed { layout::MASS_FIXED } else { 0 };
        self.gpu_masses[mass].flags = flags;
        self.queue.write_buffer(
            &self.buffers.masses,
            32 * mass as u64 + 16,
            bytemuck::bytes_of(&flags),
        );
        Ok(())
    }

    /// Sets the (base) rest length of spring `spring` to `rest_length` (m); for an actuated spring
    /// this is the base length the actuator modulates. The change in elastic energy is booked as
    /// injected work: at once for a plain spring (reading its two end positions back, 32 bytes),
    /// at the next step for an actuated one (the spring pass books every change of an actuated
    /// rest length).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing spring; [`Error::InvalidSpringParameter`] for a
    /// negative or non-finite length, [`Error::ZeroRestLength`] for zero on a material-law spring;
    /// GPU errors as [`World::positions`].
    pub fn set_rest_length(&mut self, spring: usize, rest_length: f64) -> Result<()> {
        Self::check_index("spring", spring, self.springs.len())?;
        if !(rest_length.is_finite() && rest_length >= 0.0) {
            return Err(Error::InvalidSpringParameter {
                spring,
                name: "rest_length",
                value: rest_length,
            });
        }
        let law = self.laws[spring];
        if law == layout::LAW_MATERIAL && rest_length == 0.0 {
            return Err(Error::ZeroRestLength { spring });
        }
        let sp = self.springs[spring];
        if let Some(&act) = self.spring_actuator.get(&(spring as u32)) {
            self.rest_changed.insert(spring, rest_length);
            let entry = gpu_actuator(&self.actuators[act as usize], rest_length, self.time);
            // Everything but `current`: the next spring pass books the change.
            self.queue.write_buffer(
                &self.buffers.actuators,
                32 * u64::from(act),
                &bytemuck::bytes_of(&entry)[..28],
            );
            return Ok(());
        }
        let before = self.base_rest(spring);
        let bytes = self.read(&[
            (&self.buffers.positions, 16 * u64::from(sp.a), 16),
            (&self.buffers.positions, 16 * u64::from(sp.b), 16),
        ])?;
        let p: &[[f32; 4]] = bytemuck::cast_slice(&bytes);
        let len = Vec3::from_slice(&p[0][..3])
            .as_dvec3()
            .distance(Vec3::from_slice(&p[1][..3]).as_dvec3());
        let mat = self.materials[sp.material as usize];
        let energy = |rest: f64| {
            let k = f64::from(mat.stiffness);
            match law {
                layout::LAW_MATERIAL => 0.5 * k / rest * (len - rest) * (len - rest),
                layout::LAW_ZERO_LENGTH => 0.5 * k * len * len,
                _ => 0.5 * k * (len - rest) * (len - rest),
            }
        };
        self.host_injected += energy(rest_length) - energy(before);
        self.rest_changed.insert(spring, rest_length);
        let bits = (rest_length as f32).to_bits();
        self.queue.write_buffer(
            &self.buffers.links,
            8 * self.links.link(spring) + 4,
            bytemuck::bytes_of(&bits),
        );
        if let (Some(st), Some((rests, _))) = (&self.stencil, &self.buffers.stencil) {
            if let Some(at) = st.element(spring, &sp) {
                self.queue
                    .write_buffer(rests, 4 * at, bytemuck::bytes_of(&bits));
            }
        }
        Ok(())
    }

    /// Replaces actuator `index` (a 28-byte write). Its `spring` must be the spring it already
    /// drives. The change in elastic energy is booked as injected work by the next step.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing actuator; [`Error::InvalidActuator`] for
    /// non-finite values, `|amplitude| >= 1`, a bad duty cycle, or a different spring.
    pub fn set_actuator(&mut self, index: usize, actuator: Actuator) -> Result<()> {
        Self::check_index("actuator", index, self.actuators.len())?;
        let old = self.actuators[index];
        if actuator.spring != old.spring {
            return Err(Error::InvalidActuator {
                actuator: index,
                reason: format!(
                    "drives spring {}, but a World cannot move an actuator to another spring \
                     (it drives spring {}); build a new World",
                    actuator.spring, old.spring
                ),
            });
        }
        let mut probe = Model::new(self.model_params);
        probe.masses = vec![Mass::default(); 2];
        probe.springs = vec![crate::model::Spring::hooke(0, 1, 1.0, 1.0)];
        probe.actuators = vec![Actuator {
            spring: 0,
            ..actuator
        }];
        probe.validate().map_err(|e| match e {
            Error::InvalidActuator { reason, .. } => Error::InvalidActuator {
                actuator: index,
                reason,
            },
            other => other,
        })?;
        self.actuators[index] = actuator;
        let base = self.base_rest(actuator.spring as usize);
        let entry = gpu_actuator(&actuator, base, self.time);
        self.queue.write_buffer(
            &self.buffers.actuators,
            32 * index as u64,
            &bytemuck::bytes_of(&entry)[..28],
        );
        Ok(())
    }

    /// The actuators in force.
    #[must_use]
    pub fn actuators(&self) -> &[Actuator] {
        &self.actuators
    }

    /// The net spring force (N) on every mass in the current state, as the spring pass scatters
    /// it (decoded exactly from fixed point), without advancing the simulation. For the parity
    /// suite's single-step force comparison.
    ///
    /// # Errors
    /// [`Error::FixedPointOverflow`] if a spring passes the fixed-point bound; GPU errors as
    /// [`World::positions`].
    pub fn spring_forces(&mut self) -> Result<Vec<DVec3>> {
        if let Some(e) = self.failure() {
            return Err(e);
        }
        let b = &self.buffers;
        let n = self.masses.len() as u64;
        let bytes_per = u64::from(self.fixed_point.bits / 8);
        // Keep every side effect of the spring pass away: snapshot the energy slots and the
        // actuators' booked rest lengths, and restore them afterwards.
        let slots_bytes = b.spring_slots.size();
        let act_bytes = b.actuators.size();
        let scratch = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::spring_forces"),
            size: slots_bytes + act_bytes,
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let step = GpuStep {
            time: self.time as f32,
            index: 1,
            pad0: 0,
            pad1: 0,
        };
        self.queue
            .write_buffer(&b.steps, 0, bytemuck::bytes_of(&step));
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::spring_forces"),
            });
        encoder.copy_buffer_to_buffer(&b.spring_slots, 0, &scratch, 0, slots_bytes);
        encoder.copy_buffer_to_buffer(&b.actuators, 0, &scratch, slots_bytes, act_bytes);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("hooke::spring_forces"),
                timestamp_writes: None,
            });
            for chunk in &self.spring_chunks {
                pass.set_pipeline(&self.pipelines.springs.pipeline);
                pass.set_bind_group(0, &chunk.springs, &[]);
                pass.set_bind_group(1, &self.groups.step, &[0]);
                pass.dispatch_workgroups(chunk.dispatch.x, chunk.dispatch.y, 1);
            }
        }
        encoder.copy_buffer_to_buffer(&scratch, 0, &b.spring_slots, 0, slots_bytes);
        encoder.copy_buffer_to_buffer(&scratch, slots_bytes, &b.actuators, 0, act_bytes);
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(gpu_error(e));
        }
        let bytes = self.read(&[(&b.forces, 0, 4 * n * bytes_per), (&b.status, 0, 16)])?;
        let (forces, status) = bytes.split_at((4 * n * bytes_per) as usize);
        let status: &[u32] = bytemuck::cast_slice(status);
        // Clear the accumulator and the status for the next real step.
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::spring_forces"),
            });
        encoder.clear_buffer(&b.forces, 0, None);
        self.queue.submit([encoder.finish()]);
        self.queue
            .write_buffer(&b.status, 0, bytemuck::cast_slice(&STATUS_CLEAR));
        if status[layout::STATUS_OVERFLOW_STEP as usize] != u32::MAX {
            return Err(self.overflow_error(
                self.steps + 1,
                self.spring_of_code(status[layout::STATUS_OVERFLOW_SPRING as usize]),
            ));
        }
        let mut q: Vec<i64> = if bytes_per == 8 {
            bytemuck::cast_slice::<u8, i64>(forces).to_vec()
        } else {
            bytemuck::cast_slice::<u8, i32>(forces)
                .iter()
                .map(|&x| i64::from(x))
                .collect()
        };
        if self.packed_forces {
            // (y * 2^32 + x, z) in 64-bit words: y is the high half plus x's borrow.
            for c in q.chunks_exact_mut(4) {
                c[1] -= c[0] >> 31;
            }
        }
        let fp = self.fixed_point;
        Ok(q.chunks_exact(4)
            .map(|c| DVec3::new(fp.decode(c[0]), fp.decode(c[1]), fp.decode(c[2])))
            .collect())
    }
}

/// The device-side actuator for `a` driving a spring of base length `base` (m), with its booked
/// rest length evaluated at time `time` (s).
fn gpu_actuator(a: &Actuator, base: f64, time: f64) -> GpuActuator {
    let (active, rest, offset) = match &a.duty {
        Some(d) => (d.active as f32, d.rest as f32, d.offset as f32),
        None => (0.0, 0.0, 0.0),
    };
    GpuActuator {
        base: base as f32,
        amplitude: a.amplitude as f32,
        omega: a.omega as f32,
        phase: (std::f64::consts::TAU * a.phase) as f32,
        duty_active: active,
        duty_rest: rest,
        duty_offset: offset,
        current: a.rest_length(base, time) as f32,
    }
}

fn initial_actuator_table(actuators: &[Actuator], model: &Model) -> Vec<GpuActuator> {
    actuators
        .iter()
        .map(|a| gpu_actuator(a, model.springs[a.spring as usize].rest_length, 0.0))
        .collect()
}

fn make_params(
    model: &Model,
    drag: Option<DragSpring>,
    masses: u32,
    springs: u32,
    bodies: u32,
) -> GpuParams {
    make_params_from(&model.params, drag, masses, springs, bodies)
}

fn make_params_from(
    p: &crate::model::Params,
    drag: Option<DragSpring>,
    masses: u32,
    springs: u32,
    bodies: u32,
) -> GpuParams {
    let (contact, contact_stiffness, contact_damping, restitution) = match p.contact {
        Contact::None => (layout::CONTACT_NONE, 0.0, 0.0, 0.0),
        Contact::Penalty { stiffness, damping } => (
            layout::CONTACT_PENALTY,
            stiffness as f32,
            damping as f32,
            0.0,
        ),
        Contact::Restitution { restitution } => {
            (layout::CONTACT_RESTITUTION, 0.0, 0.0, restitution as f32)
        }
    };
    GpuParams {
        gravity: v3(p.gravity),
        dt: p.dt as f32,
        drag_target: drag.map_or([0.0; 3], |d| v3(d.target)),
        drag_mass: drag.map_or(layout::NONE, |d| d.mass as u32),
        drag_stiffness: drag.map_or(0.0, |d| d.stiffness as f32),
        drag_damping: drag.map_or(0.0, |d| d.damping as f32),
        air_drag: p.air_drag as f32,
        damping_factor: (-p.velocity_damping * p.dt).exp() as f32,
        contact,
        contact_stiffness,
        contact_damping,
        restitution,
        static_friction: p.friction.static_coefficient as f32,
        kinetic_friction: p.friction.kinetic_coefficient as f32,
        rest_speed: p.friction.rest_speed as f32,
        integrator: match p.integrator {
            Integrator::SemiImplicitEuler => layout::INTEGRATOR_SEMI_IMPLICIT,
            Integrator::ExplicitEuler => layout::INTEGRATOR_EXPLICIT,
        },
        masses,
        springs,
        bodies,
        pad0: 0,
    }
}
