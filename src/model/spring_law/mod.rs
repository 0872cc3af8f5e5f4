//! The spring law, owned here: what each law is ([`SpringLaw`]), the law folded into an
//! effective stiffness ([`k_eff`], and [`rest_in_law`] for a law that fixes the rest length), and
//! the per-spring formulas of every law (`force.rs`: [`spring_force`], [`elastic`],
//! [`stretch_energy`], [`formed_rest`]), each written once over any [`Real`] (`real.rs`: one
//! `f64`, or eight lanes of bodies side by side). Every CPU walk (`src/cpu/springs_*.rs`), the
//! muscles' share of a step, the energies, [`Spring::tension`](crate::Spring::tension) and
//! [`Spring::elastic_energy`](crate::Spring::elastic_energy), the stable-dt estimate, the
//! blow-up bound, the GPU World's fixed-point scale and host-side edits and the renderer call
//! these, so they perform the same IEEE operations in the same order and give the same bits.
//!
//! The GPU's versions are the only other copy, written once in WGSL: `effective` and
//! `wave_rest` in `shaders/shared/common.wgsl`, `spring_force` and `elastic` in
//! `shaders/shared/spring_pass.wgsl`; a law reaches them as its tag ([`SpringLaw::tag`], the
//! WGSL override [`SpringLaw::tag_name`]).
//!
//! Every law is `f = k_eff (L - L0)` along the spring: Hooke's is itself, the material law's
//! `k_eff = k / L0`, the zero-length law's `L0 = 0`. A new law is its [`SpringLaw`] variant (and
//! its arms in the `impl` below), one more type implementing [`Law`] and its arm in
//! [`with_law`] (and in [`holds_rest_at_zero`] if it fixes the rest length); nothing else in
//! Rust names a law.

mod force;
mod real;

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) use force::{elastic, formed_rest, shadow_elastic, spring_force, stretch_energy};
pub(crate) use real::Real;

/// The force law of a spring. In every law the force on end `a` is `-f n`, with
/// `n = (p_a - p_b) / L` and `L = |p_a - p_b|`, and end `b` feels the opposite force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpringLaw {
    /// Hooke's law, `f = k (L - L0)`, `k` in N/m (Lipson, Facey, SDL, Anderson).
    /// Elastic energy `k (L - L0)^2 / 2`.
    #[default]
    Hooke,
    /// Material form, `f = k (L / L0 - 1)`, `k` in N (a stiffness per unit strain, CS838), so
    /// that springs cut from one material behave the same at any length. Needs `L0 > 0`.
    /// Elastic energy `k (L - L0)^2 / (2 L0)`.
    Material,
    /// Zero rest length, force vector `-k (p_a - p_b)` on `a`, `k` in N/m (CS838). The rest
    /// length is ignored. Elastic energy `k L^2 / 2`.
    ZeroLength,
}

impl SpringLaw {
    /// Every law, in the order of their tags.
    pub const ALL: [Self; 3] = [Self::Hooke, Self::Material, Self::ZeroLength];

    /// The law's tag: its number in the GPU World's spring records, the value of the WGSL
    /// override named [`tag_name`](Self::tag_name).
    #[must_use]
    pub(crate) const fn tag(self) -> u32 {
        self as u32
    }

    /// The name of the law's tag in WGSL (`LAW_` and the law's scene-file name in capitals),
    /// the `override` a shader that branches on the law declares.
    #[must_use]
    pub(crate) const fn tag_name(self) -> &'static str {
        match self {
            Self::Hooke => "LAW_HOOKE",
            Self::Material => "LAW_MATERIAL",
            Self::ZeroLength => "LAW_ZERO_LENGTH",
        }
    }
}

/// The law's name in reports: `Hooke`, `material`, `zero-length`.
impl fmt::Display for SpringLaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Hooke => "Hooke",
            Self::Material => "material",
            Self::ZeroLength => "zero-length",
        })
    }
}

/// A spring law as the walks apply it: the effective stiffness at a rest length.
pub(crate) trait Law {
    /// The model's law the walks apply (the table's key: springs of one law, stiffness and
    /// damping share an entry).
    const WALKS_AS: SpringLaw;
    /// Whether the stiffness is divided by the rest length (a rest length of 0 is refused).
    const DIVIDES_BY_REST: bool;
    /// The effective stiffness (N/m) of a spring of stiffness `k` (as the model gives it) at
    /// rest length `rest` (m).
    fn k_eff<R: Real>(k: R, rest: R) -> R;
}

/// Hooke's law, `f = k (L - L0)` (and the zero-length law, whose `L0` is held at 0).
pub(crate) struct Hooke;

impl Law for Hooke {
    const WALKS_AS: SpringLaw = SpringLaw::Hooke;
    const DIVIDES_BY_REST: bool = false;
    #[inline(always)]
    fn k_eff<R: Real>(k: R, _rest: R) -> R {
        k
    }
}

/// The material law, `f = k (L / L0 - 1)`: `k_eff = k / L0`.
pub(crate) struct Material;

impl Law for Material {
    const WALKS_AS: SpringLaw = SpringLaw::Material;
    const DIVIDES_BY_REST: bool = true;
    #[inline(always)]
    fn k_eff<R: Real>(k: R, rest: R) -> R {
        k / rest
    }
}

/// Work to do with the [`Law`] of a spring, compiled once per law (as `pulp::WithSimd` is per
/// instruction set): a walk over springs that share one law tests it once, not per spring.
pub(crate) trait WithLaw {
    /// What the work returns.
    type Output;
    /// Does the work with law `L`.
    fn with_law<L: Law>(self) -> Self::Output;
}

/// Runs `work` with the [`Law`] of the model's `law`: the one place that maps the model's
/// laws to their formulas.
#[inline(always)]
pub(crate) fn with_law<W: WithLaw>(law: SpringLaw, work: W) -> W::Output {
    match law {
        SpringLaw::Hooke | SpringLaw::ZeroLength => work.with_law::<Hooke>(),
        SpringLaw::Material => work.with_law::<Material>(),
    }
}

/// The law the walks apply to a spring of law `law` (springs of the same law, stiffness and
/// damping share an entry of the spring table): the zero-length law walks as Hooke's, its rest
/// length held at 0 by [`rest_in_law`].
pub(crate) fn walk_law(law: SpringLaw) -> SpringLaw {
    with_law(law, Constants).0
}

/// Whether law `law` divides by the rest length (a rest length of 0 is then refused).
pub(crate) fn divides_by_rest(law: SpringLaw) -> bool {
    with_law(law, Constants).1
}

/// [`WithLaw`] telling a law's constants: [`Law::WALKS_AS`] and [`Law::DIVIDES_BY_REST`].
struct Constants;

impl WithLaw for Constants {
    type Output = (SpringLaw, bool);
    fn with_law<L: Law>(self) -> (SpringLaw, bool) {
        (L::WALKS_AS, L::DIVIDES_BY_REST)
    }
}

/// Whether law `law` holds the rest length at 0 whatever the base length or actuator: the
/// zero-length law.
#[inline]
pub(crate) fn holds_rest_at_zero(law: SpringLaw) -> bool {
    match law {
        SpringLaw::ZeroLength => true,
        SpringLaw::Hooke | SpringLaw::Material => false,
    }
}

/// The rest length (m) a spring of law `law` takes when its base or actuated length is `rest`
/// (m): 0 for a law that holds it there ([`holds_rest_at_zero`]), `rest` for the others.
#[inline]
pub(crate) fn rest_in_law(law: SpringLaw, rest: f64) -> f64 {
    if holds_rest_at_zero(law) {
        0.0
    } else {
        rest
    }
}

/// The effective stiffness (N/m) and the rest length (m) of a spring of law `law` and
/// stiffness `k` (N/m, or N for the material law) whose base or actuated rest length is `rest`
/// (m): [`k_eff`] at [`rest_in_law`], WGSL's `effective(material, rest)`.
#[inline]
pub(crate) fn effective(law: SpringLaw, k: f64, rest: f64) -> (f64, f64) {
    let rest = rest_in_law(law, rest);
    (k_eff(law, k, rest), rest)
}

/// [`k_eff`] as [`WithLaw`] work.
struct KEff<R> {
    k: R,
    rest: R,
}

impl<R: Real> WithLaw for KEff<R> {
    type Output = R;
    #[inline(always)]
    fn with_law<L: Law>(self) -> R {
        L::k_eff(self.k, self.rest)
    }
}

/// The effective stiffness (N/m) of a spring of law `law` and stiffness `k` (N/m, or N for the
/// material law) at rest length `rest` (m): WGSL's `effective(material, rest).x`.
#[inline(always)]
pub(crate) fn k_eff<R: Real>(law: SpringLaw, k: R, rest: R) -> R {
    with_law(law, KEff { k, rest })
}

#[cfg(test)]
mod tests;
