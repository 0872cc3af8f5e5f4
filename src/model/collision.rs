//! Collisions between masses: [`Collision`], the global parameters of the pair force, and the
//! model-level questions both worlds ask (does any mass collide; which pairs are excluded).
//!
//! Each mass may carry a [`collision radius`](super::Mass::collision_radius) (m, 0 = does not
//! collide) and a collision group and mask (bit sets). Two masses `a`, `b` at distance `d` touch
//! when both radii are > 0, `d < r_a + r_b`, `group_a & mask_b != 0` and
//! `group_b & mask_a != 0`, they are not joined by a spring, and they are not in the same body
//! with self-collision off ([`Body::self_collision`](super::Body::self_collision)). Two fixed
//! masses never touch (neither can move). The pair force is given in [`Collision`].

use serde::{Deserialize, Serialize};

use super::Model;
use crate::error::Result;
use crate::validate::non_negative;

/// The pair force between two touching masses (see the module docs for when they touch).
///
/// With `n` the unit vector from `b` to `a`, `d` their distance, `p = r_a + r_b - d > 0` the
/// overlap, `v = v_a - v_b` the relative velocity, `v_n = v . n` and `v_t = v - v_n n`:
/// - normal: `f_n = max(stiffness p - damping v_n, 0)` along `n` on `a`, so damping never pulls
///   the masses together; the penalty part `stiffness p` stores `stiffness p^2 / 2` (booked in
///   [`Energy::ground`](crate::Energy::ground), the contact penalty term), the rest is booked as
///   dissipated work;
/// - friction: Coulomb, `-min(friction f_n, m_r |v_t| / dt) v_t / |v_t|` on `a`, with `m_r` the
///   reduced mass of the pair (the other mass if one is fixed): at most what stops the relative
///   tangential motion within the step, so friction never reverses it;
/// - `b` feels exactly the opposite force (bit for bit), so total momentum is conserved to
///   rounding.
///
/// Defaults: `stiffness = 100 000` N/m (the default ground's), no damping, no friction: an
/// elastic collision. The stiffness counts in [`Model::stable_dt`] when any mass has a radius.
///
/// # Examples
///
/// ```
/// use hooke::{Collision, Error, Params};
///
/// let params = Params {
///     collision: Collision { stiffness: 2e4, damping: 5.0, friction: 0.5 }, // N/m, N*s/m, 1
///     ..Params::default()
/// };
/// params.validate()?;
/// let bad = Params { collision: Collision { friction: -1.0, ..Collision::default() }, ..params };
/// assert!(matches!(
///     bad.validate(),
///     Err(Error::InvalidParameter { name: "collision.friction", .. })
/// ));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Collision {
    /// Penalty stiffness `k`, N/m (default 100 000). Finite and >= 0.
    pub stiffness: f64,
    /// Normal damping on the approach speed, N*s/m (default 0). Finite and >= 0.
    pub damping: f64,
    /// Coulomb friction coefficient on the relative tangential velocity (default 0). Finite and
    /// >= 0.
    pub friction: f64,
}

impl Default for Collision {
    fn default() -> Self {
        Self {
            stiffness: 100_000.0,
            damping: 0.0,
            friction: 0.0,
        }
    }
}

impl Collision {
    /// Whether these are the default parameters.
    #[must_use]
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming the first field that is negative or not finite
    /// (`collision.stiffness`, `collision.damping`, `collision.friction`).
    pub fn validate(&self) -> Result<()> {
        non_negative(
            "collision.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "collision.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        non_negative(
            "collision.friction",
            self.friction,
            "must be finite and >= 0",
        )
    }
}

impl Model {
    /// The first mass with a collision radius > 0, if any.
    #[must_use]
    pub fn first_colliding_mass(&self) -> Option<usize> {
        self.masses.iter().position(|m| m.collision_radius > 0.0)
    }
}
