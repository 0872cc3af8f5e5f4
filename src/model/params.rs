//! Global parameters: time step, integrator, gravity, damping, ground contact and friction.

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Collision, Contact, Friction};
use crate::error::Result;
use crate::validate::{finite, non_negative, positive, require};

/// Standard gravity along -z, in m/s^2.
pub const STANDARD_GRAVITY: DVec3 = DVec3::new(0.0, 0.0, -9.81);

/// The time integrator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Integrator {
    /// Semi-implicit (symplectic) Euler: `v += a dt`, then `p += v dt` with the new `v`.
    #[default]
    SemiImplicitEuler,
    /// Explicit (forward) Euler as CS838 teaches it: `p += v dt` with the old `v`, then
    /// `v += a dt`. Gains energy on undamped oscillators; provided for teaching and comparison.
    ExplicitEuler,
}

/// Global parameters of a simulation.
///
/// **The defaults are those of Lipson's bouncing cube**: `dt = 1e-4` s,
/// gravity `(0, 0, -9.81)` m/s^2, semi-implicit Euler, an undamped penalty ground
/// (`k_c = 100 000` N/m, no normal damping), **no friction**, no velocity damping and no air drag.
/// Nothing dissipates energy but the springs' own damping, so:
/// - a dropped cloth (or any body whose springs are soft or undamped) bounces for ever;
/// - muscled creatures do not move: without friction a body cannot push itself along the ground
///   (its centre of mass stays where it started).
///
/// For those, start from a preset: [`Params::robots`] (damped contact and Coulomb friction, for
/// creatures with muscles) or [`Params::cloth`] (inelastic contact and friction, for cloth and
/// soft bodies that should come to rest); [`Params::lipson_cube`] names the defaults.
/// Presets are plain values: change any field afterwards (`Params { dt: 2e-4, ..Params::cloth() }`).
///
/// In a scene file every field may be left out (it then takes its default) and an unknown field
/// is an error.
///
/// # Examples
///
/// Change the fields you need and keep the defaults for the rest:
///
/// ```
/// use hooke::{Error, Friction, Params};
///
/// let params = Params {
///     // Lipson's "multiply every velocity by 0.999 each 1e-4 s step", as a rate.
///     velocity_damping: Params::damping_rate_from_factor(0.999, 1e-4),
///     friction: Friction::coulomb(1.0, 0.8), // mu_s, mu_k
///     ..Params::default()
/// };
/// assert!((params.velocity_damping - 10.005).abs() < 1e-3); // 1/s
/// params.validate()?;
/// // A value out of range is an error naming the parameter.
/// let bad = Params { dt: 0.0, ..params };
/// assert!(matches!(bad.validate(), Err(Error::InvalidParameter { name: "dt", .. })));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    /// Gravitational acceleration in m/s^2 (default `(0, 0, -9.81)`).
    #[schemars(with = "[f64; 3]")]
    pub gravity: DVec3,
    /// Time step in s (default 1e-4). Finite and > 0. Stable only below the model's limit,
    /// estimated by [`Model::stable_dt`](super::Model::stable_dt).
    pub dt: f64,
    /// The integrator (default semi-implicit Euler).
    pub integrator: Integrator,
    /// Global velocity damping rate `gamma` in 1/s (default 0): after each velocity update
    /// `v *= exp(-gamma dt)`, so the physics does not change with `dt`. Lipson's "multiply v by
    /// 0.999 each step" at `dt = 1e-4` is `gamma = -ln(0.999) / 1e-4 = 10.005 1/s`; see
    /// [`Params::damping_rate_from_factor`]. Finite and >= 0.
    pub velocity_damping: f64,
    /// Viscous air drag coefficient `c_air` in N*s/m (default 0): every free mass feels
    /// `-c_air v` (Anderson, with the sign of its eq. 6 corrected). Finite and >= 0.
    pub air_drag: f64,
    /// Ground contact model (default: Lipson's undamped penalty, `k_c = 100 000` N/m).
    pub contact: Contact,
    /// Ground friction (default none).
    pub friction: Friction,
    /// The pair force between colliding masses (default: elastic penalty, 100 000 N/m; see
    /// [`Collision`]). Used only by masses with a collision radius. Left out of a saved scene
    /// when it is the default.
    #[serde(skip_serializing_if = "Collision::is_default")]
    pub collision: Collision,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            gravity: STANDARD_GRAVITY,
            dt: 1e-4,
            integrator: Integrator::SemiImplicitEuler,
            velocity_damping: 0.0,
            air_drag: 0.0,
            contact: Contact::default(),
            friction: Friction::NONE,
            collision: Collision::default(),
        }
    }
}

impl Params {
    /// Lipson's bouncing cube, the same as [`Params::default`]: `dt = 1e-4` s,
    /// standard gravity, undamped penalty ground `k_c = 100 000` N/m, no friction, no damping.
    /// Energy is conserved up to the integrator's error, which is what the guide's energy plot
    /// (tip 4) checks; a body dropped with it bounces for ever.
    #[must_use]
    pub fn lipson_cube() -> Self {
        Self::default()
    }

    /// For robots and creatures with muscles: the defaults with a damped penalty ground
    /// (`k_c = 100 000` N/m, normal damping 50 N*s/m) and Coulomb friction `mu_s = 1.0`,
    /// `mu_k = 0.8`.
    ///
    /// Sources: the friction rule is Lipson's advanced feature 2, which gives no
    /// values; 1.0 / 0.8 (rubber feet on a hard floor) and the 50 N*s/m of normal damping are
    /// the values hooke's [`WalkingRobot`](crate::creatures::WalkingRobot) was tuned with, and
    /// the wheels and Lipson structures of [`creatures`](crate::creatures) use the same
    /// friction. The normal damping stops feet from bouncing (contact damping ratio 0.25 on a
    /// 0.1 kg mass), so gaits grip instead of skipping.
    #[must_use]
    pub fn robots() -> Self {
        Self {
            contact: Contact::Penalty {
                stiffness: 100_000.0,
                damping: 50.0,
            },
            friction: Friction::coulomb(1.0, 0.8),
            ..Self::default()
        }
    }

    /// For cloth and soft bodies that should come to rest: the defaults with Anderson's impulsive
    /// ground (its Table I: restitution `epsilon = 0.7`, friction `mu = 0.6`, here
    /// `mu_s = mu_k = 0.6`). Every landing keeps only 70 % of the normal speed, so bounces die
    /// out, and friction holds a resting body in place. The impulsive ground adds no stiffness,
    /// so it does not lower the stable time step (light cloth masses on a penalty ground do).
    /// `dt` stays 1e-4 s: Anderson's 1e-3 s is above the stable limit of stiffer cloths (see
    /// [`Model::stable_dt`](super::Model::stable_dt)).
    #[must_use]
    pub fn cloth() -> Self {
        Self {
            contact: Contact::Restitution { restitution: 0.7 },
            friction: Friction::coulomb(0.6, 0.6),
            ..Self::default()
        }
    }

    /// The damping rate `gamma` (1/s) equivalent to multiplying every velocity by `factor` each step
    /// of length `dt` (s): `gamma = -ln(factor) / dt`. Lipson's 0.999 at 1e-4 s gives 10.005 1/s.
    #[must_use]
    pub fn damping_rate_from_factor(factor: f64, dt: f64) -> f64 {
        -factor.ln() / dt
    }

    /// Checks every parameter.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming the first parameter out
    /// of range: `dt` not finite or not positive, non-finite gravity, negative or non-finite
    /// damping, drag, contact stiffness or damping, restitution outside [0, 1], negative or
    /// non-finite friction coefficients or rest speed, negative or non-finite collision
    /// stiffness, damping or friction.
    pub fn validate(&self) -> Result<()> {
        positive("dt", self.dt, "must be finite and > 0 s")?;
        for (name, v) in [
            ("gravity.x", self.gravity.x),
            ("gravity.y", self.gravity.y),
            ("gravity.z", self.gravity.z),
        ] {
            finite(name, v, "must be finite (m/s^2)")?;
        }
        non_negative(
            "velocity_damping",
            self.velocity_damping,
            "must be finite and >= 0 (1/s)",
        )?;
        non_negative("air_drag", self.air_drag, "must be finite and >= 0 (N*s/m)")?;
        match self.contact {
            Contact::None => {}
            Contact::Penalty { stiffness, damping } => {
                non_negative(
                    "contact.stiffness",
                    stiffness,
                    "must be finite and >= 0 (N/m)",
                )?;
                non_negative(
                    "contact.damping",
                    damping,
                    "must be finite and >= 0 (N*s/m)",
                )?;
            }
            Contact::Restitution { restitution } => require(
                (0.0..=1.0).contains(&restitution),
                "restitution",
                restitution,
                "must lie in [0, 1]",
            )?,
        }
        self.collision.validate()?;
        let f = &self.friction;
        non_negative(
            "friction.static_coefficient",
            f.static_coefficient,
            "must be finite and >= 0",
        )?;
        non_negative(
            "friction.kinetic_coefficient",
            f.kinetic_coefficient,
            "must be finite and >= 0",
        )?;
        non_negative(
            "friction.rest_speed",
            f.rest_speed,
            "must be finite and >= 0 (m/s)",
        )
    }
}

/// The most steps one run may take: 2^32. A run is refused before it starts when its duration
/// needs more (`round(duration / dt) > MAX_STEPS`): at `dt = 1e-4 s` that is some 5 days of
/// simulated time and, at a microsecond per step, over an hour of wall time for the smallest
/// model; a longer run is a mistaken unit or `dt`, not an experiment, and stepping it would look
/// like a hang. The step counters (`u64`) and the hashes' step numbers hold it with room to spare.
pub const MAX_STEPS: u64 = 1 << 32;

/// Number of steps of `dt` in `duration` (both s), rounded to the nearest whole step: the count
/// both worlds, control loops, evaluations, recordings and `hooke run` take.
///
/// # Errors
/// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming `duration` for a negative
/// or non-finite `duration`, or one of more than [`MAX_STEPS`] steps of `dt`.
///
/// # Examples
/// ```
/// assert_eq!(hooke::steps_for(2.0, 0.001)?, 2000);
/// // 2^32 steps is the most one run may take.
/// assert!(hooke::steps_for(1.0e9, 0.001).is_err());
/// # Ok::<(), hooke::Error>(())
/// ```
pub fn steps_for(duration: f64, dt: f64) -> Result<u64> {
    non_negative("duration", duration, "must be finite and >= 0 s")?;
    let steps = (duration / dt).round();
    if steps.is_nan() || steps > MAX_STEPS as f64 {
        return Err(crate::Error::InvalidParameter {
            name: "duration",
            value: duration,
            expected: "must be at most 2^32 (MAX_STEPS) steps of dt: duration / dt <= 4294967296",
        });
    }
    Ok(steps as u64)
}
