//! Sensors read in one batched call: [`Simulation::sense`](crate::Simulation::sense) takes a
//! [`SensorSpec`] (what to read) and returns [`Readings`] (only that), on both backends.
//!
//! - **Bodies** ([`BodyReading`]): centre of mass and mass-weighted mean velocity; with
//!   [`SensorSpec::orientation`] also an orientation frame and an angular velocity, defined for a
//!   soft body as below.
//! - **Contacts** ([`ContactReading`]): per mass, whether the ground or an obstacle touched it in
//!   the last step and the normal force they applied.
//! - **Springs** ([`SpringReading`]): current length and strain.
//!
//! # Orientation and angular velocity of a soft body
//!
//! A soft body has no rigid frame; hooke uses the best-fit rigid motion (shape matching). With
//! masses `m_i` at current positions `x_i`, velocities `v_i`, model (initial) positions `X_i`,
//! current centre of mass `c`, mean velocity `v_c` and initial centre of mass `C`:
//!
//! - `A = sum m_i (x_i - c)(X_i - C)^T` (kg m^2). The **orientation** is the rotation `R` that
//!   maximises `trace(R^T A)`, the rotational part of `A` (for a rigid motion
//!   `x_i = c + R0 (X_i - C)`, `R = R0`). It is found by the quaternion iteration of Müller et
//!   al. 2016, "A robust method to extract the rotational part of deformations": from the
//!   identity, `q <- exp(w) q` with `w = sum_k r_k x a_k / (|sum_k r_k . a_k| + eps)` over the
//!   columns `r_k` of `R(q)` and `a_k` of `A`, at most [`ORIENTATION_ITERATIONS`] times, until
//!   `|w| < 1e-12` rad; then each half-turn about a frame axis is tried as a restart and kept if it
//!   fits better (the identity is a stationary point for a body turned half a turn). The result
//!   is deterministic and well defined for flat bodies (cloth, `A` of rank 2) and line-like ones
//!   (rope, rank 1: the turn about the line itself stays that of the start). A body with fewer
//!   than two distinct masses reads the identity.
//! - **Angular velocity** `w = I^-1 L` (rad/s), with the angular momentum about the centre
//!   `L = sum m_i (x_i - c) x (v_i - v_c)` (kg m^2/s) and the current inertia tensor about it
//!   `I = sum m_i (|x_i - c|^2 1 - (x_i - c)(x_i - c)^T)` (kg m^2). When `I` is singular (a
//!   straight rope, a single mass) the pseudo-inverse gives the least-norm `w`: eigenvalues of
//!   `I` below [`INERTIA_CUTOFF`] times the largest count as zero. For a rigid rotation
//!   `v_i = v_c + w0 x (x_i - c)`, `w = w0` (up to the spin about a rope's own axis, which
//!   carries no angular momentum).
//!
//! Both backends reduce relative to a reference point, the body's first mass `p`, so that f32
//! sums on the GPU do not lose the body's size against its distance from the origin: with
//! `r_i = x_i - p` they sum `m`, `m r`, `m v`, `m r x v`, `m r r^T` and `m r (X - C)^T`, and the
//! host finishes the 3x3 algebra in f64 (the CPU sums in f64, in mass order).
//!
//! # Contacts
//!
//! The normal force of a contact is the surfaces' force along their normals, friction excluded,
//! summed over the ground and every obstacle that touched the mass: for penalty contact
//! `max(k d - c v_n, 0) n` (d the depth), for restitution contact the force cancelling the push
//! into the surface plus the impulse that stops a mass moving in, per step. Both worlds record it
//! during each step's mass pass, but only once a spec has asked for contacts: the first such
//! call turns recording on and reads zeros (as does every call before the first step or after a
//! reset); from the next step on the readings are the last step's. A World that never senses
//! contacts compiles no recording at all.

mod frame;

pub(crate) use frame::BodySums;

use glam::{DMat3, DVec3};

/// The cap on the quaternion iterations that extract a body's orientation (see the
/// [module docs](self)).
pub const ORIENTATION_ITERATIONS: usize = 64;

/// Eigenvalues of the inertia tensor below this fraction of the largest count as zero in its
/// pseudo-inverse (see the [module docs](self)). The GPU's f32 sums resolve the tensor to about
/// `1e-7` of its size (the f32 epsilon, over sums of a few hundred terms), so a true zero
/// reads below `1e-5` and a genuine thickness above it is kept.
pub const INERTIA_CUTOFF: f64 = 1e-5;

/// What one [`Simulation::sense`](crate::Simulation::sense) call reads. The default reads
/// nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SensorSpec {
    /// Bodies to read, as indices into [`Simulation::bodies_of_model`](crate::Simulation::bodies_of_model).
    pub bodies: Vec<usize>,
    /// Whether to read the orientation frame and angular velocity of those bodies as well.
    pub orientation: bool,
    /// Masses whose contact with the ground and the obstacles to read (model mass indices).
    pub contacts: Vec<usize>,
    /// Springs whose length and strain to read (model spring indices).
    pub springs: Vec<usize>,
}

/// What one [`Simulation::sense`](crate::Simulation::sense) call read, in the order of the
/// [`SensorSpec`]'s lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Readings {
    /// Simulated time of the readings, s.
    pub time: f64,
    /// One per [`SensorSpec::bodies`], same order.
    pub bodies: Vec<BodyReading>,
    /// One per [`SensorSpec::contacts`], same order.
    pub contacts: Vec<ContactReading>,
    /// One per [`SensorSpec::springs`], same order.
    pub springs: Vec<SpringReading>,
}

/// One body's reading.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyReading {
    /// Centre of mass, m (zero for a body without masses).
    pub centre_of_mass: DVec3,
    /// Mass-weighted mean velocity, m/s (zero for a body without masses).
    pub mean_velocity: DVec3,
    /// Rotation of the best-fit rigid motion from the model's positions to the current ones
    /// (columns: the body's frame axes in world coordinates); `None` unless
    /// [`SensorSpec::orientation`]. See the [module docs](self).
    pub orientation: Option<DMat3>,
    /// Angular velocity `I^-1 L` about the centre of mass, rad/s; `None` unless
    /// [`SensorSpec::orientation`]. See the [module docs](self).
    pub angular_velocity: Option<DVec3>,
}

/// One mass's contact with the ground and the obstacles over the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactReading {
    /// Whether the ground or an obstacle touched the mass in the last step.
    pub touching: bool,
    /// The normal force the surfaces applied in the last step, summed over the ground and the
    /// obstacles, friction excluded, N.
    pub normal_force: DVec3,
}

/// One spring's reading.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringReading {
    /// Current length (distance between its masses), m.
    pub length: f64,
    /// `L / L0 - 1`, with `L0` the current rest length (an actuated spring's actuator value at
    /// [`Readings::time`]); for a zero-rest-length spring `+inf` when stretched, 0 otherwise.
    pub strain: f64,
}

impl SpringReading {
    /// The reading of a spring of length `length` (m) and current rest length `rest` (m).
    pub(crate) fn new(length: f64, rest: f64) -> Self {
        let strain = if rest > 0.0 {
            length / rest - 1.0
        } else if length > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        Self { length, strain }
    }
}

/// Checks every index of `spec` against the world's counts.
///
/// # Errors
/// [`crate::Error::IndexOutOfRange`] naming the first body, mass or spring out of range.
pub(crate) fn check(
    spec: &SensorSpec,
    bodies: usize,
    masses: usize,
    springs: usize,
) -> crate::Result<()> {
    let lists: [(&'static str, &[usize], usize); 3] = [
        ("body", &spec.bodies, bodies),
        ("mass", &spec.contacts, masses),
        ("spring", &spec.springs, springs),
    ];
    for (what, list, len) in lists {
        if let Some(&index) = list.iter().find(|&&i| i >= len) {
            return Err(crate::Error::IndexOutOfRange { what, index, len });
        }
    }
    Ok(())
}
