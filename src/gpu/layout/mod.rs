//! Device-side mirrors of the GPU buffers, and the numbers the shaders share with Rust.
//!
//! Every struct here has a twin of the same name in the WGSL (`shaders/shared/common.wgsl`, or the
//! kernel that writes it); unit tests (`layout/tests.rs`, no GPU needed) parse every kernel with
//! naga and check each twin's size, array stride and field offsets against these, and each
//! kernel's bindings against the bind group layouts Rust builds. Every number the shaders need
//! (flags, tags, workgroup size, fixed-point scale) reaches them as a WGSL `override` from
//! [`constants`], so it is written once, here. Byte offsets into device buffers come from
//! [`array_bytes`] and `offset_of!` on these mirrors, never from literals.

use bytemuck::{Pod, Zeroable};

use super::granularity::Granularity;
pub(crate) use super::granularity::{CPU_WORKGROUP_SIZE, WORKGROUP_SIZE};
use crate::model::SpringLaw;

/// Buckets per invocation of `grid_scan` (WGSL `SCAN_ITEMS`).
pub(crate) const SCAN_ITEMS: u64 = 4;

/// Words after the bucket counts holding the box of occupied cells and this step's frame (WGSL
/// `BOX_WORDS`; see `Frame` in `shaders/shared/collisions.wgsl`).
pub(crate) const BOX_WORDS: u64 = 12;

/// Invocations that walk neighbouring masses side by side in the spring pass: the SIMD width of
/// CPU adapters (llvmpipe runs 8 lanes of f32 per step with AVX2). A power of two.
pub(crate) const LANE_GROUP: u32 = 8;

/// `GpuMass::flags` bit: the mass is fixed.
pub(crate) const MASS_FIXED: u32 = 1;
/// `GpuLink::b` bit: the spring is driven by the actuator whose index is in `rest`.
pub(crate) const LINK_ACTUATED: u32 = 1 << 31;
/// `GpuParams::contact` tags.
pub(crate) const CONTACT_NONE: u32 = 0;
pub(crate) const CONTACT_PENALTY: u32 = 1;
pub(crate) const CONTACT_RESTITUTION: u32 = 2;
/// `GpuParams::friction_rule` tags ([`FrictionRule`](crate::model::FrictionRule)).
pub(crate) const FRICTION_COULOMB: u32 = 0;
pub(crate) const FRICTION_NAIVE: u32 = 1;
/// The part of the blow-up speed limit that keeps rounding noise from counting, m/s (see
/// `src/model/speed_limit.rs`).
pub(crate) const BLOW_UP_FLOOR_SPEED: f32 = crate::model::BLOW_UP_FLOOR_SPEED as f32;
/// `GpuParams::integrator` tags.
pub(crate) const INTEGRATOR_SEMI_IMPLICIT: u32 = 0;
pub(crate) const INTEGRATOR_EXPLICIT: u32 = 1;
/// "No index" (no drag spring, no oscillator).
pub(crate) const NONE: u32 = u32::MAX;
/// f32 words one body's sensor sums take in the sensor kernels' output (`shared/sense.wgsl`):
/// eight sums of four words and the reference point.
pub(crate) const SENSE_BODY_WORDS: u32 = 36;

/// Declares the mirrors whose real fields follow [`Precision`](super::real::Precision) once, in
/// two modules: [`real32`] (`R = f32`, `pad(n) = 0`) and [`real64`] (`R = f64`, `pad(n) = n`). A
/// `pad_*` field is empty in f32 and holds the bytes WGSL's f64 layout leaves before the next
/// field (`vec3<f64>` and `vec4<f64>` align to 32 bytes, `f64` to 8) in f64, so both mirrors are
/// `Pod` and the unit tests check each against the kernels compiled in its precision: the two
/// cannot drift. The host builds every record in f64 ([`real64`], re-exported here) and
/// [`Narrow`](super::real::Narrow) (implemented here field by field for each pair) turns it
/// into its f32 twin when a World computes in f32.
macro_rules! real_mirrors {
    ($(
        $(#[$attr:meta])*
        pub(crate) struct $name:ident {
            $( $(#[$fattr:meta])* pub(crate) $field:ident : $fty:ty ),* $(,)?
        }
    )*) => {
        /// The mirrors in f32 (what the kernels read in [`Precision::F32`](super::real::Precision)).
        pub(crate) mod real32 {
            use super::*;
            /// The kernels' real type.
            pub(crate) type R = f32;
            /// No padding in f32.
            pub(crate) const fn pad(_words: usize) -> usize {
                0
            }
            $(
                $(#[$attr])*
                pub(crate) struct $name { $( $(#[$fattr])* pub(crate) $field: $fty ),* }
            )*
        }
        /// The mirrors in f64: what the host builds (the names [`layout`](self) re-exports), and
        /// what the kernels read in [`Precision::F64`](super::real::Precision).
        pub(crate) mod real64 {
            use super::*;
            /// The kernels' real type.
            pub(crate) type R = f64;
            /// `words` u32 of padding in f64.
            pub(crate) const fn pad(words: usize) -> usize {
                words
            }
            $(
                $(#[$attr])*
                pub(crate) struct $name { $( $(#[$fattr])* pub(crate) $field: $fty ),* }
            )*
        }
        $(
            impl super::real::Narrow for real64::$name {
                type F32 = real32::$name;
                fn narrow(&self) -> real32::$name {
                    real32::$name { $( $field: super::real::Cast::cast(&self.$field) ),* }
                }
                fn widen(narrow: &real32::$name) -> Self {
                    Self { $( $field: super::real::Cast::cast(&narrow.$field) ),* }
                }
            }
        )*
    };
}

real_mirrors! {
/// Global parameters (uniform). Mirror of WGSL `GpuParams`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuParams {
    pub(crate) gravity: [R; 3],
    pub(crate) dt: R,
    pub(crate) drag_target: [R; 3],
    pub(crate) drag_mass: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_drag: [u32; pad(1)],
    pub(crate) drag_stiffness: R,
    pub(crate) drag_damping: R,
    pub(crate) air_drag: R,
    pub(crate) damping_factor: R,
    pub(crate) contact: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_contact: [u32; pad(1)],
    pub(crate) contact_stiffness: R,
    pub(crate) contact_damping: R,
    pub(crate) restitution: R,
    pub(crate) static_friction: R,
    pub(crate) kinetic_friction: R,
    pub(crate) rest_speed: R,
    pub(crate) integrator: u32,
    pub(crate) masses: u32,
    pub(crate) springs: u32,
    pub(crate) bodies: u32,
    /// [`FRICTION_COULOMB`] or [`FRICTION_NAIVE`].
    pub(crate) friction_rule: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_end: [u32; pad(5)],
}

/// Per-step uniform, bound with a dynamic offset. Mirror of WGSL `GpuStep`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuStep {
    /// Simulation time at the start of the step, s.
    pub(crate) time: R,
    /// 1-based step index within one `World::step` call.
    pub(crate) index: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_index: [u32; pad(1)],
    /// The blow-up bound's `S^2 E`, J (see `src/model/speed_limit.rs`).
    pub(crate) speed_energy: R,
    /// The blow-up bound's `S A`, m/s^2.
    pub(crate) speed_growth: R,
}

/// Per-mass properties. Mirror of WGSL `GpuMass`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuMass {
    /// External force, N.
    pub(crate) external_force: [R; 3],
    /// Mass, kg.
    pub(crate) mass: R,
    pub(crate) flags: u32,
    /// Index into the oscillator table or [`NONE`].
    pub(crate) oscillator: u32,
    /// Body index or [`NONE`] (informational).
    pub(crate) body: u32,
    pub(crate) pad0: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_end: [u32; pad(4)],
}

/// Spring material: (law, stiffness, damping), shared by every spring that has them.
/// Mirror of WGSL `GpuMaterial`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuMaterial {
    /// N/m (Hooke, zero length) or N (material law).
    pub(crate) stiffness: R,
    /// N*s/m.
    pub(crate) damping: R,
    pub(crate) law: u32,
    pub(crate) pad0: u32,
}

/// Mirror of WGSL `GpuActuator`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuActuator {
    /// Base rest length, m.
    pub(crate) base: R,
    pub(crate) amplitude: R,
    /// rad/s.
    pub(crate) omega: R,
    /// `2 pi phase`, rad.
    pub(crate) phase: R,
    /// Duty-cycle active time, s (0: no duty cycle).
    pub(crate) duty_active: R,
    /// Duty-cycle rest time, s.
    pub(crate) duty_rest: R,
    /// Duty-cycle offset, s.
    pub(crate) duty_offset: R,
    /// Index into the `commands` buffer for a commanded actuator ([`NONE`] for a sine one).
    pub(crate) command: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_command: [u32; pad(1)],
    /// Rest length set by the last step, m.
    pub(crate) current: R,
}

/// Mirror of WGSL `GpuOscillator`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuOscillator {
    pub(crate) min: R,
    pub(crate) max: R,
    /// rad/s.
    pub(crate) omega: R,
    /// rad.
    pub(crate) phase: R,
}

/// One obstacle: its contact, friction, geometry and bounds, 128 bytes. Mirror of WGSL
/// `GpuObstacle` (`shaders/shared/obstacles.wgsl`, which documents what `a` and `b` hold for
/// each shape).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuObstacle {
    /// `SHAPE_*` tag.
    pub(crate) shape: u32,
    /// `CONTACT_*` tag.
    pub(crate) contact: u32,
    /// [`FRICTION_COULOMB`] or [`FRICTION_NAIVE`].
    pub(crate) friction_rule: u32,
    /// Heightfield: index of its first sample's first word in the obstacle words.
    pub(crate) first_height: u32,
    /// N/m.
    pub(crate) stiffness: R,
    /// N*s/m.
    pub(crate) damping: R,
    pub(crate) restitution: R,
    /// m/s.
    pub(crate) rest_speed: R,
    pub(crate) static_friction: R,
    pub(crate) kinetic_friction: R,
    /// Heightfield samples along x and y.
    pub(crate) columns: u32,
    pub(crate) rows: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_rows: [u32; pad(6)],
    /// Plane: (unit normal, offset m); box, oriented box, sphere: (centre m, radius m);
    /// capsule: (a m, radius m); heightfield: (origin m, 0).
    pub(crate) a: [R; 4],
    /// Box, oriented box: (half extents m, 0); capsule: (b m, 0); heightfield: (spacing m, 0, 0).
    pub(crate) b: [R; 4],
    /// Oriented box: unit quaternion (x, y, z, w) from the box's axes to the world's.
    pub(crate) rotation: [R; 4],
    /// Bounds, m (rounded outward from f64).
    pub(crate) lo: [R; 4],
    pub(crate) hi: [R; 4],
}

/// A mass's state as the spring and integrate passes read it, 32 bytes: position (m) then
/// velocity (m/s). Mirror of WGSL `GpuState`; the kernels read it through the `State` alias of
/// `words_*.wgsl`, which has this layout.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuState {
    /// m.
    pub(crate) position: [R; 3],
    /// m/s.
    pub(crate) velocity: [R; 3],
    pub(crate) pad0: R,
    pub(crate) pad1: R,
}

/// One workgroup's partial sums of `energy_masses`, J. Mirror of WGSL `GpuMassPartial`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuMassPartial {
    pub(crate) kinetic: R,
    pub(crate) gravity: R,
    pub(crate) ground: R,
    pub(crate) pad0: R,
    pub(crate) dissipated: R,
    pub(crate) injected: R,
    pub(crate) pad1: R,
    pub(crate) pad2: R,
}

/// One workgroup's partial sums of `energy_springs`, J. Mirror of WGSL `GpuSpringPartial`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuSpringPartial {
    pub(crate) elastic: R,
    pub(crate) dissipated: R,
    pub(crate) injected: R,
    pub(crate) pad0: R,
}

/// One body's sums from `bodies`. Mirror of WGSL `GpuBodySum`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuBodySum {
    /// Sum of m p, kg m.
    pub(crate) moment: [R; 3],
    /// Sum of m, kg.
    pub(crate) mass: R,
    /// Sum of m v, kg m/s.
    pub(crate) momentum: [R; 3],
    pub(crate) pad0: R,
}

/// The collision pass's uniform (`shaders/shared/collisions.wgsl`): the time step and the
/// grid's size (the pair forces are in the pair table, one `vec4<R>` per pair of classes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuCollide {
    /// Time step, s.
    pub(crate) dt: R,
    /// 1 / the grid's cell side, 1/m.
    pub(crate) inverse_cell: R,
    /// Colliding masses.
    pub(crate) members: u32,
    /// Grid buckets: a power of two, a multiple of one scan block.
    pub(crate) buckets: u32,
    /// The largest collision radius, m.
    pub(crate) largest: R,
    pub(crate) pad0: u32,
    pub(crate) pad1: u32,
    pub(crate) pad2: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_end: [u32; pad(1)],
}

/// One colliding mass, as the collision pass reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuCollider {
    /// Its mass index.
    pub(crate) mass: u32,
    /// f64 only: the WGSL alignment of what follows.
    pub(crate) pad_mass: [u32; pad(1)],
    /// Collision radius, m.
    pub(crate) radius: R,
    /// Collision group and mask (bit sets).
    pub(crate) group: u32,
    pub(crate) mask: u32,
    /// Its body when that body does not collide with itself, else [`NONE`].
    pub(crate) body: u32,
    /// Its spring neighbours among the colliding masses: `joined[joined_first..joined_end]`.
    pub(crate) joined_first: u32,
    pub(crate) joined_end: u32,
    /// Its collision class.
    pub(crate) collision_class: u32,
}
}

pub(crate) use real64::{
    GpuActuator, GpuBodySum, GpuCollide, GpuCollider, GpuMass, GpuMassPartial, GpuMaterial,
    GpuObstacle, GpuOscillator, GpuParams, GpuSpringPartial, GpuState, GpuStep,
};

/// One spring as the host keeps it, in model order (not a device mirror).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GpuSpring {
    pub(crate) a: u32,
    pub(crate) b: u32,
    /// Rest length as the model gives it, m (of an actuated spring: its base, which the
    /// actuator table holds).
    pub(crate) rest: f64,
    /// The actuator index of an actuated spring (0 otherwise).
    pub(crate) actuator: u32,
    /// Material index.
    pub(crate) material: u32,
    /// Whether an actuator drives the spring.
    pub(crate) actuated: bool,
}

/// One spring of the device's link table in [`Precision::F32`](super::real::Precision), 8
/// bytes: the springs are stored grouped by their first mass `a` (which the table does not
/// repeat; `runs[a]` = (first, end) link of its springs). Mirror of WGSL `GpuLink`. In
/// [`Precision::F64`](super::real::Precision) a link is a [`GpuLink64`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuLink {
    /// The second mass, or'ed with [`LINK_ACTUATED`].
    pub(crate) b: u32,
    /// `f32` bits of the rest length (m), or the actuator index for an actuated spring.
    pub(crate) rest: u32,
}

/// One link in [`Precision::F64`](super::real::Precision), 16 bytes (WGSL `Link` of
/// `words_f64.wgsl`, a `vec4<u32>`): the second mass or'ed with [`LINK_ACTUATED`], the actuator
/// index (0 for a passive spring), and the rest length's f64 bits, low word first (m).
pub(crate) type GpuLink64 = [u32; 4];

/// Which masses and which part of the link table a spring-pass dispatch covers (uniform). Mirror
/// of WGSL `GpuChunk`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuChunk {
    /// Index of the first link bound (the binding starts there), in link-table order.
    pub(crate) first: u32,
    /// First mass whose springs this dispatch handles.
    pub(crate) first_mass: u32,
    /// One past the last such mass.
    pub(crate) end_mass: u32,
    pub(crate) pad0: u32,
}

/// Mirror of WGSL `GpuBody`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuBody {
    pub(crate) first: u32,
    pub(crate) count: u32,
}

/// The status buffer: what the step kernels report (`u32::MAX` in a word that has nothing to
/// report). Mirror of WGSL `GpuStatus`, whose fields are atomics.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct GpuStatus {
    /// Lowest step index (1-based within one submission round) whose state became non-finite.
    pub(crate) bad_step: u32,
    /// Lowest mass index that became non-finite in that step.
    pub(crate) bad_mass: u32,
    /// Lowest step index whose spring pass passed the fixed-point bound.
    pub(crate) overflow_step: u32,
    /// Lowest overflow code (a link index, or a stencil slot code) in that step.
    pub(crate) overflow_spring: u32,
}

impl GpuStatus {
    /// Nothing to report.
    pub(crate) const CLEAR: Self = Self {
        bad_step: u32::MAX,
        bad_mass: u32::MAX,
        overflow_step: u32::MAX,
        overflow_spring: u32::MAX,
    };
}

/// A WGSL `vec4<Real>` element (built in f64; [`Precision`](super::real::Precision) encodes
/// it): one mass of the public position (m, w = 1) and velocity (m/s, w = 0) buffers, one 4-slot
/// word of the stencil's rest lengths (m).
pub(crate) type Vec4 = [f64; 4];

/// One invocation's running energy slot, WGSL `vec4<Real>`: (dissipated, compensation,
/// injected, compensation), J.
pub(crate) type EnergySlot = [f64; 4];

/// One mass's (first, end) link of its springs, WGSL `vec2<u32>`.
pub(crate) type Run = [u32; 2];

/// One link's material index (the `link_materials` table), WGSL `u32`.
pub(crate) type MaterialIndex = u32;

/// Bytes of `count` consecutive elements of `T` in a device array (also: the offset of element
/// `count`). Every mirror's size is a multiple of its WGSL alignment (tested), so this is the WGSL
/// array stride too.
pub(crate) const fn array_bytes<T>(count: u64) -> u64 {
    std::mem::size_of::<T>() as u64 * count
}

/// Bytes of one mass's fixed-point force sum, 4 words of `bits` bits (x, y, z, unused; or with
/// packed forces the two 64-bit words (y * 2^32 + x, z)).
pub(crate) fn force_record_bytes(bits: u32) -> u64 {
    if bits == 64 {
        array_bytes::<[i64; 4]>(1)
    } else {
        array_bytes::<[i32; 4]>(1)
    }
}

const _: () = assert!(std::mem::size_of::<real32::GpuParams>() == 96);
const _: () = assert!(std::mem::size_of::<real32::GpuStep>() == 16);
const _: () = assert!(std::mem::size_of::<real32::GpuMass>() == 32);
const _: () = assert!(std::mem::size_of::<GpuLink>() == 8);
const _: () = assert!(std::mem::size_of::<real32::GpuMaterial>() == 16);
const _: () = assert!(std::mem::size_of::<GpuChunk>() == 16);
const _: () = assert!(std::mem::size_of::<real32::GpuActuator>() == 36);
const _: () = assert!(std::mem::size_of::<real32::GpuOscillator>() == 16);
const _: () = assert!(std::mem::size_of::<GpuBody>() == 8);
const _: () = assert!(std::mem::size_of::<real32::GpuObstacle>() == 128);
const _: () = assert!(std::mem::size_of::<GpuStatus>() == 16);
const _: () = assert!(std::mem::size_of::<real32::GpuState>() == 32);
const _: () = assert!(std::mem::size_of::<real32::GpuMassPartial>() == 32);
const _: () = assert!(std::mem::size_of::<real32::GpuSpringPartial>() == 16);
const _: () = assert!(std::mem::size_of::<real32::GpuBodySum>() == 32);
const _: () = assert!(std::mem::size_of::<real32::GpuCollide>() == 32);
const _: () = assert!(std::mem::size_of::<real32::GpuCollider>() == 32);
const _: () = assert!(WORKGROUP_SIZE.is_power_of_two() && CPU_WORKGROUP_SIZE.is_power_of_two());

/// What the pipelines of one World are specialised to (WGSL overrides).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Specialization {
    /// Quanta per newton of the fixed-point encoding.
    pub(crate) fixed_scale: f64,
    /// Largest force component one spring may scatter, N.
    pub(crate) spring_force_limit: f64,
    /// Book dissipated and injected energy.
    pub(crate) track_energy: bool,
    /// The one material every spring shares, if there is only one.
    pub(crate) uniform_material: Option<GpuMaterial>,
    /// Whether any spring is driven by an actuator.
    pub(crate) has_actuators: bool,
    /// Whether any actuator is commanded (reads the `commands` buffer).
    pub(crate) has_commands: bool,
    /// Whether any mass has a friction oscillator.
    pub(crate) has_oscillators: bool,
    /// Whether 32-bit force sums are packed in 64-bit atomics.
    pub(crate) packed_forces: bool,
    /// Obstacles in the obstacle table (0: the contact passes skip them).
    pub(crate) obstacles: u32,
    /// The broad-phase grid: origin (m), 1 / cell side (1/m), cells along x and y.
    pub(crate) grid_origin: [f64; 2],
    pub(crate) grid_inverse_cell: f64,
    pub(crate) grid_columns: u32,
    pub(crate) grid_rows: u32,
    /// Whether any mass has a collision radius (the collision pass runs).
    pub(crate) collisions: bool,
    /// Whether `integrate` records each mass's contact for the sensors.
    pub(crate) contacts: bool,
    /// Work per invocation.
    pub(crate) granularity: Granularity,
}

/// `(name, value)` override entries of Rust constants, each named by its own identifier, so the
/// constant is written once and the WGSL `override` of the same name cannot drift from it.
macro_rules! overrides {
    ($($name:ident),* $(,)?) => {
        [$((stringify!($name), f64::from($name))),*]
    };
}

/// The WGSL `override` constants, by name, passed to every pipeline: the specialisation, then
/// the flags and tags (the spring laws' `GpuMaterial::law` tags are theirs:
/// [`SpringLaw::tag_name`]).
pub(crate) fn constants(spec: &Specialization) -> Vec<(&'static str, f64)> {
    let material = spec.uniform_material.unwrap_or_default();
    [
        ("WORKGROUP_SIZE", f64::from(spec.granularity.workgroup_size)),
        (
            "SPRING_MASSES_PER_INVOCATION",
            f64::from(spec.granularity.spring_masses_per_invocation),
        ),
        (
            "MASSES_PER_INVOCATION",
            f64::from(spec.granularity.masses_per_invocation),
        ),
        ("FIXED_SCALE", spec.fixed_scale),
        ("SPRING_FORCE_LIMIT", spec.spring_force_limit),
        ("PACKED_FORCES", f64::from(u8::from(spec.packed_forces))),
        ("TRACK_ENERGY", f64::from(u8::from(spec.track_energy))),
        (
            "UNIFORM_MATERIAL",
            f64::from(u8::from(spec.uniform_material.is_some())),
        ),
        ("MATERIAL_STIFFNESS", material.stiffness),
        ("MATERIAL_DAMPING", material.damping),
        ("MATERIAL_LAW", f64::from(material.law)),
        ("HAS_ACTUATORS", f64::from(u8::from(spec.has_actuators))),
        ("HAS_COMMANDS", f64::from(u8::from(spec.has_commands))),
        ("HAS_OSCILLATORS", f64::from(u8::from(spec.has_oscillators))),
        ("OBSTACLES", f64::from(spec.obstacles)),
        ("GRID_ORIGIN_X", spec.grid_origin[0]),
        ("GRID_ORIGIN_Y", spec.grid_origin[1]),
        ("GRID_INVERSE_CELL", spec.grid_inverse_cell),
        ("GRID_COLUMNS", f64::from(spec.grid_columns)),
        ("GRID_ROWS", f64::from(spec.grid_rows)),
        ("COLLISIONS", f64::from(u8::from(spec.collisions))),
        ("CONTACTS", f64::from(u8::from(spec.contacts))),
    ]
    .into_iter()
    .chain(overrides![
        LANE_GROUP,
        MASS_FIXED,
        LINK_ACTUATED,
        CONTACT_NONE,
        CONTACT_PENALTY,
        CONTACT_RESTITUTION,
        FRICTION_NAIVE,
        BLOW_UP_FLOOR_SPEED,
        INTEGRATOR_SEMI_IMPLICIT,
        SENSE_BODY_WORDS,
        NONE,
    ])
    .chain(SpringLaw::ALL.map(|law| (law.tag_name(), f64::from(law.tag()))))
    .collect()
}

/// The byte offset of `field` in the device record `$ty` of `precision` (the `real32` or
/// `real64` mirror of [`layout`](super::layout)).
macro_rules! field_offset {
    ($precision:expr, $ty:ident, $field:ident) => {
        match $precision {
            $crate::gpu::real::Precision::F32 => {
                std::mem::offset_of!($crate::gpu::layout::real32::$ty, $field) as u64
            }
            $crate::gpu::real::Precision::F64 => {
                std::mem::offset_of!($crate::gpu::layout::real64::$ty, $field) as u64
            }
        }
    };
}
pub(crate) use field_offset;

#[cfg(test)]
pub(crate) mod tests;
