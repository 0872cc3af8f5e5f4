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

//!
//! `readings.rs` holds the spec, the readings and the reading of each kind; `frame.rs` finishes a
//! body's sums into its reading on the host, for both backends.

mod frame;
mod readings;

pub(crate) use frame::BodySums;
pub(crate) use readings::{check, BodySlice};
pub use readings::{
    BodyReading, ContactReading, Readings, SensorSpec, SpringReading, INERTIA_CUTOFF,
    ORIENTATION_ITERATIONS,
};
