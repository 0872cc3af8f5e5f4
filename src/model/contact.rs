//! The ground: contact with the plane `z = 0`, Coulomb friction and per-mass friction
//! oscillators.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Friction oscillator of one mass (Facey inchworm): its ground friction coefficient is
/// `max` when `cos(omega t + phase) > 0` and `min` otherwise. It replaces both the static and the
/// kinetic coefficient of [`Friction`] for that mass.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
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

/// Which friction law [`Friction`] applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FrictionRule {
    /// Coulomb friction with static friction and a stopping clamp: kinetic friction never
    /// reverses a sliding mass, and a mass at rest stays at rest while the tangential force is
    /// within `mu_s N` (Lipson advanced feature 2, Facey). See [`Friction`].
    #[default]
    Coulomb,
    /// The naive textbook rule of the benchmark scene (docs/BENCHMARK_SCENE.md): kinetic friction
    /// `-mu_k N v_t / |v_t|` while `|v_t| > rest_speed`, nothing otherwise. No static friction and
    /// no clamp, so when `mu_k N dt / m` exceeds the tangential speed the force **reverses** the
    /// mass within one step, and a mass nearly at rest sideways chatters (its tangential velocity
    /// flips sign from step to step). `static_coefficient` is ignored. Use it to reproduce the
    /// peer engines of the benchmark exactly; prefer [`FrictionRule::Coulomb`] otherwise.
    Naive,
}

/// Friction with the ground (Lipson advanced feature 2, Facey, Anderson), by default Coulomb
/// friction with static friction and a stopping clamp ([`FrictionRule::Coulomb`]).
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
///
/// With [`FrictionRule::Naive`] only the kinetic force of the first case applies, unclamped, and
/// nothing at rest (the benchmark scene's rule, [`Friction::naive`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Friction {
    /// Static coefficient `mu_s`, finite and >= 0 (ignored by [`FrictionRule::Naive`]).
    pub static_coefficient: f64,
    /// Kinetic coefficient `mu_k`, finite and >= 0.
    pub kinetic_coefficient: f64,
    /// Tangential speed in m/s below which a mass counts as at rest (default 1e-6). Finite and
    /// >= 0.
    #[serde(default = "default_rest_speed")]
    pub rest_speed: f64,
    /// The friction law (default [`FrictionRule::Coulomb`]).
    #[serde(default)]
    pub rule: FrictionRule,
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
        rule: FrictionRule::Coulomb,
    };

    /// Coulomb friction with static coefficient `mu_s` and kinetic coefficient `mu_k`
    /// ([`FrictionRule::Coulomb`], rest speed 1e-6 m/s).
    #[must_use]
    pub fn coulomb(mu_s: f64, mu_k: f64) -> Self {
        Self {
            static_coefficient: mu_s,
            kinetic_coefficient: mu_k,
            rest_speed: default_rest_speed(),
            rule: FrictionRule::Coulomb,
        }
    }

    /// The naive textbook rule ([`FrictionRule::Naive`]): kinetic friction `mu_k N` against the
    /// tangential velocity while it is above `rest_speed` (m/s), nothing below, no static friction
    /// and no clamp (it can reverse a mass). The benchmark scene uses `naive(0.5, 1e-6)`.
    #[must_use]
    pub fn naive(mu_k: f64, rest_speed: f64) -> Self {
        Self {
            static_coefficient: 0.0,
            kinetic_coefficient: mu_k,
            rest_speed,
            rule: FrictionRule::Naive,
        }
    }
}

impl Default for Friction {
    fn default() -> Self {
        Self::NONE
    }
}
