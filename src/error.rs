//! The crate's one error type.

use std::path::PathBuf;

use crate::format_version::version_message;
use crate::model::COLLISION_CLASSES;
use crate::readable_time::readable_time;

/// Everything that can go wrong in hooke, from a bad model to a lost GPU device.
///
/// Every variant names the offending element (mass or spring index, parameter name, file path) so
/// that a user can find it in their own model.
///
/// # Examples
///
/// ```
/// use hooke::{CpuWorld, DVec3, Error, Mass, Model, Params, Spring};
///
/// let mut model = Model::new(Params::default());
/// model.add_mass(Mass::new(0.1, DVec3::ZERO));
/// model.add_mass(Mass::new(0.1, DVec3::X));
/// model.add_spring(Spring::hooke(0, 2, 100.0, 1.0)); // there is no mass 2
///
/// let err = CpuWorld::new(&model).unwrap_err();
/// assert!(matches!(err, Error::SpringMassOutOfRange { spring: 0, mass: 2, masses: 2 }));
/// assert_eq!(err.to_string(), "spring 0 joins mass 2, but the model has only 2 masses");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A spring names a mass index that does not exist.
    #[error("spring {spring} joins mass {mass}, but the model has only {masses} masses")]
    SpringMassOutOfRange {
        /// Index of the spring in the model.
        spring: usize,
        /// The mass index it names.
        mass: u32,
        /// How many masses the model has.
        masses: usize,
    },
    /// A spring joins a mass to itself.
    #[error("spring {spring} joins mass {mass} to itself")]
    SelfSpring {
        /// Index of the spring in the model.
        spring: usize,
        /// The mass at both ends.
        mass: u32,
    },
    /// A mass is non-finite or not positive.
    #[error("mass {mass} has mass {value} kg; it must be finite and > 0")]
    InvalidMass {
        /// Index of the mass.
        mass: usize,
        /// The value given, in kg.
        value: f64,
    },
    /// A mass has a negative or non-finite collision radius.
    #[error("mass {mass} has collision radius {value} m; it must be finite and >= 0")]
    InvalidCollisionRadius {
        /// Index of the mass.
        mass: usize,
        /// The value given, in m.
        value: f64,
    },
    /// A mass's collision class is not below [`COLLISION_CLASSES`].
    #[error("mass {mass} has collision class {class}, not below {limit}", limit = COLLISION_CLASSES)]
    InvalidCollisionClass {
        /// Index of the mass.
        mass: usize,
        /// The class given.
        class: u32,
    },
    /// A class collision rule ([`Model::class_collisions`](crate::Model::class_collisions)) is
    /// invalid.
    #[error("class collision {index}: {what}")]
    InvalidClassCollision {
        /// Index of the rule in `Model::class_collisions`.
        index: usize,
        /// What is wrong with it.
        what: String,
    },
    /// A mass starts with a non-finite position or velocity.
    #[error("mass {mass} has a non-finite {quantity}: {value:?}")]
    NonFiniteInitialState {
        /// Index of the mass.
        mass: usize,
        /// `"position"`, `"velocity"` or `"external force"`.
        quantity: &'static str,
        /// The value given.
        value: [f64; 3],
    },
    /// A spring parameter is negative or non-finite.
    #[error("spring {spring} has {name} = {value}; it must be finite and >= 0")]
    InvalidSpringParameter {
        /// Index of the spring.
        spring: usize,
        /// Which parameter (`"stiffness"`, `"damping"`, `"rest_length"`).
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A spring whose law divides by the rest length has a zero rest length.
    #[error("spring {spring} uses the material law f = k (L/L0 - 1) but has rest length 0; use SpringLaw::ZeroLength or a positive rest length")]
    ZeroRestLength {
        /// Index of the spring.
        spring: usize,
    },
    /// An actuator names a spring that does not exist, or has bad parameters.
    #[error("actuator {actuator}: {reason}")]
    InvalidActuator {
        /// Index of the actuator in the model.
        actuator: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A per-mass friction oscillator has bad parameters.
    #[error("friction oscillator of mass {mass}: {reason}")]
    InvalidFrictionOscillator {
        /// Index of the mass.
        mass: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// An obstacle has a non-finite or degenerate shape, or bad contact or friction values.
    #[error("obstacle {obstacle}: {reason}")]
    InvalidObstacle {
        /// Index of the obstacle in [`Model::obstacles`](crate::Model::obstacles).
        obstacle: usize,
        /// What is wrong with it, naming the field and value.
        reason: String,
    },
    /// A command for a commanded actuator is not finite
    /// ([`Simulation::set_commands`](crate::Simulation::set_commands)).
    #[error("command {command} = {value}: must be finite (a relative rest-length change)")]
    InvalidCommand {
        /// Index of the command (the `command`-th commanded actuator, in actuator order).
        command: usize,
        /// The value given.
        value: f64,
    },
    /// A global or builder parameter is out of its allowed range.
    #[error("parameter {name} = {value}: {expected}")]
    InvalidParameter {
        /// Name of the parameter, as in the API (`"dt"`, `"restitution"`, ...).
        name: &'static str,
        /// The value given.
        value: f64,
        /// What values are allowed.
        expected: &'static str,
    },
    /// A builder or scene was given an inconsistent description (a duplicate voxel, a pinned
    /// mass outside the cloth, a joint naming a missing body, ...).
    #[error("{builder}: {reason}")]
    InvalidBuilder {
        /// The builder or scene element (`"voxels"`, `"cloth"`, `"scene"`, ...).
        builder: &'static str,
        /// What is wrong, naming the offending element.
        reason: String,
    },
    /// An index given at run time (to `set_external_force` and friends) is out of range.
    #[error("{what} index {index} is out of range (the model has {len})")]
    IndexOutOfRange {
        /// `"mass"`, `"spring"`, `"actuator"` or `"body"`.
        what: &'static str,
        /// The index given.
        index: usize,
        /// How many there are.
        len: usize,
    },
    /// An image used to build a body could not be read or decoded.
    #[error("cannot read image {path}: {source}")]
    Image {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: image::ImageError,
    },
    /// An image used to build a body has more pixels than
    /// [`MAX_IMAGE_PIXELS`](crate::builders::MAX_IMAGE_PIXELS), read from its header before it is
    /// decoded.
    #[error("image {path} is {width} x {height} pixels, more than the {limit} pixels an image body may have (hooke::builders::MAX_IMAGE_PIXELS)")]
    ImageTooLarge {
        /// The file (or `"<memory>"`).
        path: PathBuf,
        /// Its width in pixels, as its header says.
        width: u32,
        /// Its height in pixels, as its header says.
        height: u32,
        /// The limit on `width * height`.
        limit: u64,
    },
    /// An image used to build a body has no black pixels, or no pixels at all.
    #[error("image {path} has no black pixels (a pixel is a mass when its luminance is below the threshold)")]
    EmptyImage {
        /// The file (or `"<memory>"`).
        path: PathBuf,
    },
    /// A triangle mesh used to build a body could not be read, is not a closed surface, or
    /// gives no voxels or too many at the voxel size asked for
    /// ([`MeshBody`](crate::builders::MeshBody)).
    #[error("mesh {path}: {reason}")]
    Mesh {
        /// The file (or `"<memory>"`).
        path: PathBuf,
        /// What is wrong, naming the triangle, edge or vertex where there is one.
        reason: String,
    },
    /// An image (a rendered frame, an animation or a plot) could not be encoded or written.
    #[error("cannot write image {path}: {source}")]
    ImageWrite {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: image::ImageError,
    },
    /// A slice or buffer does not match the model's size (given to the renderer, or commands
    /// for [`Simulation::set_commands`](crate::Simulation::set_commands)).
    #[error("{what}: expected {expected}, got {got}")]
    LengthMismatch {
        /// What was given (`"positions"`, `"rest lengths"`, ...).
        what: &'static str,
        /// How many the model needs.
        expected: usize,
        /// How many were given.
        got: usize,
    },
    /// A plot could not be drawn.
    #[error("cannot draw plot {path}: {reason}")]
    Plot {
        /// The file being written (or `"<memory>"`).
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A scene file could not be read or written.
    #[error("scene file {path}: {source}")]
    SceneIo {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An input file (scene, population, settings) is larger than the size limit
    /// ([`read_input`](crate::read_input); `HOOKE_MAX_INPUT_BYTES` raises it).
    #[error("{path} is {}, above the limit of {limit} bytes on input files; set HOOKE_MAX_INPUT_BYTES (bytes) to raise it", input_size(*size, *limit))]
    InputTooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes (`limit + 1` when it was found too large while reading it).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// A scene file is not valid JSON for a scene.
    #[error("scene file {path}: {source}")]
    SceneParse {
        /// The file (or `"<memory>"`).
        path: PathBuf,
        /// Why, with line and column.
        #[source]
        source: serde_json::Error,
    },
    /// A scene or population file has no `"version"`, or a version this hooke does not read
    /// (it reads [`FORMAT_VERSION`](crate::scene::FORMAT_VERSION)).
    #[error("{path}: {}", version_message(found.as_deref()))]
    SceneVersion {
        /// The file (or `"<memory>"`).
        path: PathBuf,
        /// The `"version"` value as written in the file, or `None` when there is none.
        found: Option<String>,
    },
    /// The simulation state became non-finite (the model exploded: dt too large for the stiffness?).
    #[error("mass {mass} became non-finite at step {step} (t = {} s); the simulation stopped. A smaller dt or stiffness usually cures this (explicit schemes need dt < 2 sqrt(m / k))", readable_time(*.time))]
    NonFinite {
        /// The first (lowest-index) mass whose position or velocity is not finite.
        mass: usize,
        /// The step (counted from 0 at the initial state) whose update produced it.
        step: u64,
        /// Simulation time at the start of that step, in s.
        time: f64,
    },
    /// The simulation blew up: a mass moved faster than any stable run of this model can (see
    /// [`Model::stable_dt`](crate::Model::stable_dt) and `CpuWorld::step`), the signature of a
    /// time step above the stability limit. Reported before the state turns non-finite; the
    /// world keeps the state of that step and refuses to step until reset.
    #[error("the simulation blew up at step {step} (t = {} s): mass {mass} moves at {speed:.3e} m/s, above the {limit:.3e} m/s that no stable run of this model reaches. dt = {dt:e} s; the estimated stable limit is {stable_dt:.3e} s. {advice}", readable_time(*.time))]
    BlowUp {
        /// The first (lowest-index) mass over the speed limit.
        mass: usize,
        /// The step (counted from 0 at the initial state) whose update produced it.
        step: u64,
        /// Simulation time at the start of that step, in s.
        time: f64,
        /// Its speed after that step, m/s.
        speed: f64,
        /// The speed limit it passed, m/s.
        limit: f64,
        /// The time step, s.
        dt: f64,
        /// The model's stable time step estimate, s ([`Model::stable_dt`](crate::Model::stable_dt)).
        stable_dt: f64,
        /// What to change: the dt to go below, and the spring or mass that limits it.
        advice: String,
    },
    /// A model value that is valid in f64 cannot be represented in the GPU's f32: it overflows to
    /// infinity, or (for a mass, the time step or a material rest length, which the kernels divide
    /// by) it rounds to zero or to a subnormal.
    #[error("{element}: {field} = {value:e} is outside the f32 range the GPU World computes in (finite values of magnitude at most 3.4028235e38; masses, dt and material rest lengths at least 1.1754944e-38)")]
    OutOfF32Range {
        /// The element (`"mass 3"`, `"spring 17"`, `"params"`, ...).
        element: String,
        /// The field (`"position"`, `"stiffness"`, `"dt"`, ...).
        field: &'static str,
        /// The value given.
        value: f64,
    },
    /// The GPU force accumulator would overflow its fixed-point range.
    #[error("fixed-point force overflow at step {step}: a force of more than {limit_newtons} N reached one mass (spring {spring}, at mass {mass}). {advice}")]
    FixedPointOverflow {
        /// The step at which it was detected.
        step: u64,
        /// The spring (model index) whose force passed the bound: the lowest code the spring
        /// pass reported.
        spring: usize,
        /// That spring's first mass `a` (model index): the mass whose body failed, for callers
        /// that map failures to bodies (populations).
        mass: usize,
        /// The largest force the encoding can hold per mass, in N.
        limit_newtons: f64,
        /// What to change.
        advice: String,
    },
    /// No GPU adapter could be found (or none that `WGPU_BACKEND` and `WGPU_ADAPTER_NAME`
    /// allow).
    #[error("no GPU adapter found ({found}). To get one: {advice}")]
    NoAdapter {
        /// What each backend tried offered, in the order tried, and what excluded it.
        found: String,
        /// The one thing to do on this machine: the command that installs a driver, or the
        /// environment variable to unset.
        advice: String,
    },
    /// A scene does not fit the device: a buffer or dispatch would pass one of its limits.
    #[error("the scene needs {what} = {asked}, but the device allows at most {limit}")]
    DeviceLimit {
        /// Which limit (`"max_storage_buffer_binding_size"`, ...).
        what: &'static str,
        /// The size the scene asks for.
        asked: u64,
        /// The device's limit.
        limit: u64,
    },
    /// The device lacks a limit, downlevel flag or texture format feature that hooke needs.
    #[error("{adapter} cannot {task}: it needs {needs}; {detail}")]
    DeviceUnsupported {
        /// What hooke was asked to do (`"run hooke's renderer"`).
        task: &'static str,
        /// What it needs, by wgpu's names (`"the limit max_storage_buffers_per_shader_stage >=
        /// 6"`, `"... (downlevel flag VERTEX_STORAGE)"`).
        needs: String,
        /// The adapter, as `name (backend, device type)`.
        adapter: String,
        /// What the device allows, or wgpu's own message.
        detail: String,
    },
    /// Two objects that must share a wgpu device do not (for example a World drawn by a
    /// renderer made on another device).
    #[error("{what} runs on another wgpu device than {user}: {fix}")]
    DeviceMismatch {
        /// The object on the other device (`"the World"`).
        what: &'static str,
        /// The object it was given to (`"the renderer"`).
        user: &'static str,
        /// How to put both on one device.
        fix: &'static str,
    },
    /// A snapshot or checkpoint that cannot be read or restored: truncated, corrupted (its
    /// checksum differs), of another format version, of another backend or precision, or of
    /// another model than the world it is restored into.
    #[error("{origin}: {reason}")]
    Snapshot {
        /// What was read: `"snapshot"` (bytes) or the file's path.
        origin: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The GPU device was lost (driver reset, device removed, or destroyed).
    #[error("the GPU device was lost: {reason}")]
    DeviceLost {
        /// What wgpu reported.
        reason: String,
    },
    /// A wgpu validation, out-of-memory or internal error was caught.
    #[error("GPU error: {0}")]
    Gpu(String),
    /// The adapter could not be requested.
    #[error(transparent)]
    RequestAdapter(#[from] wgpu::RequestAdapterError),
    /// The device could not be requested.
    #[error(transparent)]
    RequestDevice(#[from] wgpu::RequestDeviceError),
    /// Waiting for the device failed (device lost, timeout).
    #[error(transparent)]
    Poll(#[from] wgpu::PollError),
    /// Mapping a buffer for readback failed.
    #[error(transparent)]
    BufferAsync(#[from] wgpu::BufferAsyncError),
    /// A mapped buffer range could not be viewed.
    #[error(transparent)]
    MapRange(#[from] wgpu::MapRangeError),
}

/// `Result` with hooke's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The size of a file found too large: exact when known, else "more than" the limit.
fn input_size(size: u64, limit: u64) -> String {
    if size == limit.saturating_add(1) {
        format!("more than {limit} bytes")
    } else {
        format!("{size} bytes")
    }
}
