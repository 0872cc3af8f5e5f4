//! The ground: contact with the plane `z = 0`, Coulomb friction and per-mass friction
//! oscillators.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Friction oscillator of one mass (Facey inchworm): its ground friction coefficient is
/// `max` when `cos(omega t + phase) > 0` and `min` otherwise. It replaces both the static and the
/// kinetic coefficient of [`Friction`] for that mass.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrictionOscillator {
    /// Coefficient during the low half of the cycle. Finite and >= 0.
    pub min: f64,
    /// Coefficient during the high half. Finite and >= 0.
    pub max: f64,
    /// Angular frequency in rad/s.
    pub omega: f64,
    /// Phase in rad.
    #[serde(default)]
    pub phase: f64,
}

impl FrictionOscillator {
    /// The friction coefficient at time `t` (s).
    #[must_use]
    pub fn coefficient(&self, t: f64) -> f64 {
        if (self.omega * t + self.phase).cos() > 0.0 {
            self.max
        } else {
            self.min
        }
    }
}

impl FrictionOscillator {
    /// Checks the friction oscillator of mass `mass`: finite coefficients >= 0, finite omega and
    /// phase.
    pub(super) fn check(&self, mass: usize) -> Result<()> {
        let bad = |reason: &str| Error::InvalidFrictionOscillator {
            mass,
            reason: reason.to_string(),
        };
        if !(self.min.is_finite() && self.min >= 0.0 && self.max.is_finite() && self.max >= 0.0) {
            return Err(bad("min and max must be finite and >= 0"));
        }
        if !(self.omega.is_finite() && self.phase.is_finite()) {
            return Err(bad("omega and phase must be finite"));
        }
        Ok(())
    }
}

/// How the ground plane `z = 0` pushes back on a mass below it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Contact {
    /// No ground: masses fall forever.
    None,
    /// Penalty spring (Lipson): normal force `N = max(0, -k z - c v_z)` while `z < 0`.
    Penalty {
        /// `k_c` in N/m (Lipson uses 100 000).
        stiffness: f64,
        /// Normal damping `c` in N*s/m (0 for Lipson).
        damping: f64,
    },
    /// Impulsive contact (Anderson): while `z <= 0` the ground cancels the part of the net force
    /// that pushes into it, and a mass moving into the ground leaves the step with normal velocity
    /// `-restitution v_z`.
    Restitution {
        /// Coefficient of restitution epsilon in [0, 1].
        restitution: f64,
    },
}

impl Default for Contact {
    fn default() -> Self {
        Self::Penalty {
            stiffness: 100_000.0,
            damping: 0.0,
        }
    }
}

/// Coulomb friction with the ground (Lipson advanced feature 2, Facey, Anderson).
///
/// With `N` the ground's normal force on the mass, `F_t` the tangential part of every other force
/// on it and `v_t` its tangential velocity, the friction force `f` is chosen as follows. Let
/// `f_stop = -(m v_t / dt + F_t)` be the force that leaves the mass at rest tangentially after
/// this step.
/// - Sliding (`|v_t| > rest_speed`): kinetic friction `-mu_k N v_t / |v_t|`, unless
///   `|f_stop| <= mu_k N`, in which case `f = f_stop`: friction stops the mass within the step
///   but never reverses it (Facey).
/// - At rest: `f = f_stop` while `|f_stop| <= mu_s N` (static friction holds); otherwise the
///   mass breaks free and feels `mu_k N` along `f_stop`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Friction {
    /// Static coefficient `mu_s`, finite and >= 0.
    pub static_coefficient: f64,
    /// Kinetic coefficient `mu_k`, finite and >= 0.
    pub kinetic_coefficient: f64,
    /// Tangential speed in m/s below which a mass counts as at rest. Finite and >= 0.
    #[serde(default = "default_rest_speed")]
    pub rest_speed: f64,
}

fn default_rest_speed() -> f64 {
    1e-6
}

impl Friction {
    /// No friction.
    pub const NONE: Self = Self {
        static_coefficient: 0.0,
        kinetic_coefficient: 0.0,
        rest_speed: 1e-6,
    };

    /// Coulomb friction with static coefficient `mu_s` and kinetic coefficient `mu_k`.
    #[must_use]
    pub fn coulomb(mu_s: f64, mu_k: f64) -> Self {
        Self {
            static_coefficient: mu_s,
            kinetic_coefficient: mu_k,
            rest_speed: default_rest_speed(),
        }
    }
}

impl Default for Friction {
    fn default() -> Self {
        Self::NONE
    }
}
