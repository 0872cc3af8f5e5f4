//! What a [`World`](super::World) is built with and what it reports about itself: [`WorldOptions`],
//! [`SpringPass`], [`WorldStats`] and [`DeviceMemory`].

use super::fixed::{AtomicWidth, FixedPointScale};
use super::real::Precision;

/// Options for building a [`World`](super::World).
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
    /// [`World::energy`](super::World::energy) reports both as 0, and the stencil variant of the
    /// spring pass sets its muscles' rest lengths before walking its slots instead of evaluating
    /// each muscle in the walk (the same bits; 1.1-1.25x on a herd of inchworms on lavapipe).
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
    /// The real type of the kernels (default [`Precision::F32`]).
    pub precision: Precision,
    /// Run every step of a submission in one dispatch where the model allows it (default
    /// `true`): the stencil variant of the spring pass, no energy booking, no collisions between
    /// masses, one spring-table chunk, and masses that fall into islands no spring joins, each
    /// small enough for one workgroup (a population of bodies, numbered body by body). Each
    /// workgroup then steps its own bodies with barriers between the spring walk and the mass
    /// update, instead of two dispatches per step; the same bits (a failure reruns the
    /// submission's steps with the two passes, so every mass stops at the first failing step).
    /// [`WorldStats::dispatches_per_step`] tells whether a World fuses. `false` keeps two
    /// dispatches per step (for comparison).
    pub fuse_steps: bool,
}

/// The variant of the spring pass ([`WorldOptions::spring_pass`]). Both give the same bits
/// (positions, velocities, forces); they differ in speed and device memory.
///
/// The **link** variant walks each mass's springs in the link table, one state load and one
/// atomic force scatter per spring; each spring is listed under whichever of its masses evens
/// out the masses' runs (the same bits either way), so the lanes that walk neighbouring masses
/// together do not wait on one long run. The **stencil** variant serves models whose springs mostly
/// join masses a fixed index offset apart (lattices, cloth grids, ropes, voxel bodies: at least
/// half the springs at offsets that at least a quarter of the masses have, 16 offsets at most, one
/// material per offset): each invocation walks consecutive masses and keeps the masses ahead at
/// each offset in registers, so per mass it loads one state and scatters one force sum per chain
/// of consecutive offsets instead of one per spring (the benchmark lattice: 5 instead of 13). A
/// spring listed from its higher mass (`a > b`) sits in the lower mass's slot and is computed
/// from there (exactly the negated force). An actuated spring (sine or commanded muscle) sits in
/// a slot too: the slot names its actuator, evaluated each step as in the link table. Springs
/// outside the stencil (duplicates, irregular, or of another material than most springs at their
/// offset) are walked in the link table. It costs 16 bytes per mass per 4 offsets and 8 bytes per mass of device memory.
/// [`WorldStats::stencil_offsets`] tells which variant a World runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpringPass {
    /// The stencil variant on CPU adapters (lavapipe, where it is measured: about 1.6x the link
    /// variant on the benchmark lattice from n = 20 to 120, `docs/PERFORMANCE.md`) when the model has
    /// a stencil and each spring-pass invocation walks at least 4 masses
    /// ([`WorldStats::spring_masses_per_invocation`]; from about 16 000 masses on a CPU adapter:
    /// smaller models reload the registers too often to gain); the link variant otherwise, and
    /// on GPUs, where the stencil's strided lanes are not yet measured.
    #[default]
    Auto,
    /// The link variant always.
    Links,
    /// The stencil variant whenever the model has a stencil, its table fits one storage
    /// binding and the device's limits allow its bindings (11 storage buffers per stage), on any
    /// adapter; the link variant otherwise.
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
            precision: Precision::F32,
            fuse_steps: true,
        }
    }
}

/// Device memory and per-step work of a [`World`](super::World) ([`World::stats`](super::World::stats)), for benchmarks and capacity
/// planning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldStats {
    /// Device memory per spring, bytes: the 8-byte link record (plus a 4-byte material index
    /// when the model has several materials) and the spring pass's energy slots (16 bytes per
    /// invocation) shared over the springs. In [`Precision::F64`] the link is 16 bytes and the
    /// slots 32.
    pub bytes_per_spring: f64,
    /// Device memory per mass, bytes: position and velocity (16 each, and again interleaved in
    /// the 32-byte state record the passes read), the fixed-point force sum (4 x 4 or 4 x 8),
    /// the 32-byte properties record, the 8-byte range of its springs in the link table, its
    /// share of the integrate pass's energy slots, and with the stencil variant of the spring
    /// pass ([`SpringPass`]) its rest-length slots (16 bytes per 4 offsets) and a second 8-byte
    /// range (its springs outside the stencil). In [`Precision::F64`] every real doubles: 32-byte
    /// positions and velocities, a 64-byte state and properties record, 32 bytes of slots per 4
    /// offsets.
    pub bytes_per_mass: f64,
    /// Device memory of all the World's buffers, bytes.
    pub device_bytes: u64,
    /// Compute dispatches recorded per step: one per chunk of the spring table (the table is
    /// bound in chunks that fit the device's storage-binding limit) plus the integrate pass. Each
    /// [`World::step`](super::World::step) call adds one more, which writes the public position and velocity buffers.
    /// 0 when the World fuses its steps ([`WorldOptions::fuse_steps`]): one dispatch per
    /// submission runs all of its steps.
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

/// One device buffer of a World: its name (the buffer's label without `hooke::`) and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferBytes {
    /// The buffer (`"links"`, `"state"`, `"forces"`, ...: its wgpu label without `hooke::`).
    pub name: &'static str,
    /// Its size, bytes.
    pub bytes: u64,
}

/// The device memory of a World, buffer by buffer
/// ([`World::memory_needed`](crate::World::memory_needed)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceMemory {
    /// Every buffer the World makes when it is built (a contact sensor later adds one
    /// `vec4` of reals per mass, the sensors' request and output tables their own).
    pub buffers: Vec<BufferBytes>,
}

impl DeviceMemory {
    /// All the buffers together, bytes.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.buffers.iter().map(|b| b.bytes).sum()
    }
}
