//! Collisions between masses: [`Collision`], the global parameters of the pair force, and the
//! model-level questions both worlds ask (does any mass collide; which pairs are excluded).
//!
//! Each mass may carry a [`collision radius`](super::Mass::collision_radius) (m, 0 = does not
//! collide) and a collision group and mask (bit sets). Two masses `a`, `b` at distance `d` touch
//! when both radii are > 0, `d < r_a + r_b`, `group_a & mask_b != 0` and
//! `group_b & mask_a != 0`, they are not joined by a spring, and they are not in the same body
//! with self-collision off ([`Body::self_collision`](super::Body::self_collision)). Two fixed
//! masses never touch (neither can move). The pair force is given in [`Collision`]: by
//! [`Params::collision`](super::Params::collision) for every pair, unless a
//! [`ClassCollision`] of [`Model::class_collisions`] names the pair's two
//! [collision classes](super::Mass::collision_class) (rubber on ice, cloth on skin).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::collision_filter::COLLISION_CLASSES;
use super::mass::Mass;
use super::Model;
use crate::error::{Error, Result};
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
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

/// The pair force between masses of two collision classes, in place of
/// [`Params::collision`](super::Params::collision) (see [`Model::class_collisions`]).
///
/// In a scene file, e.g. `{ "classes": [1, 2], "stiffness": 2e4, "friction": 0.8 }` (fields
/// left out take [`Collision::default`]'s values).
///
/// # Examples
///
/// ```
/// use hooke::{ClassCollision, Collision, Mass, Model, Params, DVec3};
///
/// let mut model = Model::new(Params::default());
/// // Class 1 (say, rubber feet) grips class 2 (say, a mat) harder than the default pair.
/// model.class_collisions.push(ClassCollision {
///     classes: [1, 2],
///     collision: Collision { stiffness: 5e4, damping: 2.0, friction: 0.9 }, // N/m, N*s/m, 1
/// });
/// let foot = Mass::new(0.1, DVec3::ZERO).with_collision_radius(0.01).with_collision_class(1);
/// let mat = Mass::new(0.1, DVec3::X).with_collision_radius(0.01).with_collision_class(2);
/// assert_eq!(model.collision_between(&foot, &mat).friction, 0.9);
/// assert_eq!(model.collision_between(&foot, &foot), Collision::default());
/// model.validate()?;
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassCollision {
    /// The two classes (in either order; equal for pairs within one class), each below
    /// [`COLLISION_CLASSES`].
    pub classes: [u32; 2],
    /// The pair force between them.
    #[serde(flatten)]
    pub collision: Collision,
}

impl Model {
    /// The pair force between masses `a` and `b` (N/m, N*s/m, 1): the last
    /// [`ClassCollision`] naming their two classes, else [`Params::collision`](super::Params::collision).
    #[must_use]
    pub fn collision_between(&self, a: &Mass, b: &Mass) -> Collision {
        let pair = [a.collision_class, b.collision_class];
        self.class_collisions
            .iter()
            .rev()
            .find(|c| c.classes == pair || c.classes == [pair[1], pair[0]])
            .map_or(self.params.collision, |c| c.collision)
    }

    /// The pair force of every pair of classes, `table[a * COLLISION_CLASSES + b]` (what both
    /// worlds look up per pair).
    pub(crate) fn collision_table(&self) -> Vec<Collision> {
        let n = COLLISION_CLASSES as usize;
        let mut table = vec![self.params.collision; n * n];
        for c in &self.class_collisions {
            let [a, b] = c.classes.map(|x| x as usize);
            if a < n && b < n {
                table[a * n + b] = c.collision;
                table[b * n + a] = c.collision;
            }
        }
        table
    }

    /// Checks every class rule: classes below [`COLLISION_CLASSES`], valid parameters.
    pub(super) fn check_class_collisions(&self) -> Result<()> {
        for (index, c) in self.class_collisions.iter().enumerate() {
            let bad = |what: String| Error::InvalidClassCollision { index, what };
            if let Some(&class) = c.classes.iter().find(|&&x| x >= COLLISION_CLASSES) {
                return Err(bad(format!(
                    "class {class} is not below {COLLISION_CLASSES}"
                )));
            }
            c.collision.validate().map_err(|e| bad(e.to_string()))?;
        }
        Ok(())
    }

    /// The first mass with a collision radius > 0, if any.
    #[must_use]
    pub fn first_colliding_mass(&self) -> Option<usize> {
        self.masses.iter().position(|m| m.collision_radius > 0.0)
    }
}
