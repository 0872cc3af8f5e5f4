//! Energy bookkeeping shared by the CPU reference and the GPU World.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The energy of a simulation, in J.
///
/// `total()` is the mechanical energy (kinetic + gravitational + elastic + ground penalty). What
/// damping, drag, friction and inelastic contact remove accumulates in `dissipated`; what external
/// forces, the drag spring, actuators and rest-length edits put in accumulates in `injected`. So
/// [`Energy::balance`] = `total + dissipated - injected` stays constant up to the integrator's
/// error (Lipson tip 4: "if it is not constant, you have some bug").
///
/// How large that error is: semi-implicit Euler keeps the shadow energy
/// `total + dt/2 sum F_c . v` (`F_c` the conservative forces) constant to O(dt^2), and the plain
/// total swings around it by O(dt). Forces the mass pass applies are booked with the step's mean
/// velocity (the exact change of kinetic energy), and a muscle's work as the change of its
/// spring's share of the shadow energy at the step's start, `k (L - L0)^2 / 2 - dt/2 k (L - L0)
/// dL/dt`; so with muscles alone the balance does not drift at first order, and what remains is
/// the O(dt) swing and the first-order terms of spring damping (booked at the step's start
/// velocity) and penalty contact (which switches on within a step). The guide's energy section
/// ([`crate::guide::concepts`], "How exact the books are") has the derivation and each
/// scene's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Energy {
    /// Kinetic energy `sum m |v|^2 / 2`.
    pub kinetic: f64,
    /// Gravitational potential `-sum m g . p` (that is `m 9.81 z` for standard gravity), zero at
    /// the origin.
    pub gravity: f64,
    /// Elastic energy stored in the springs (per law, see [`crate::SpringLaw`]).
    pub elastic: f64,
    /// Energy stored in the penalty springs of the ground, `k_c z^2 / 2` for each mass below
    /// ground, and of the obstacles, `k d^2 / 2` for each mass inside one (`d` its signed
    /// distance, see [`Obstacle`](crate::Obstacle)), and of touching masses,
    /// `k (r_a + r_b - d)^2 / 2` for each touching pair (see [`Collision`](crate::Collision)):
    /// all the contact penalty energy.
    pub ground: f64,
    /// Energy removed so far by spring damping, global velocity damping, air drag, friction and
    /// contact damping or restitution, including the damping and friction between colliding
    /// masses (>= 0 up to rounding).
    pub dissipated: f64,
    /// Work done so far by external forces, the drag spring, actuators and rest-length changes;
    /// an actuator's at each step's start, as the change of its spring's shadow elastic energy
    /// (above).
    pub injected: f64,
}

impl Energy {
    /// Mechanical energy: kinetic + gravity + elastic + ground.
    #[must_use]
    pub fn total(&self) -> f64 {
        self.kinetic + self.gravity + self.elastic + self.ground
    }

    /// `total + dissipated - injected`: constant for an exact integrator; here constant up to an
    /// O(dt) swing and small first-order terms (see [`Energy`]).
    #[must_use]
    pub fn balance(&self) -> f64 {
        self.total() + self.dissipated - self.injected
    }
}
