//! The per-spring formulas, each written once, over any [`Real`] (one `f64`, or eight lanes of
//! bodies side by side): the spring law folded into an effective stiffness ([`k_eff`], and
//! [`rest_in_law`] for a law that fixes the rest length), the elastic and axial damping force
//! and the damping power ([`spring_force`]), the elastic energy ([`elastic`]) and a muscle's
//! rest length ([`formed_rest`]). Every spring walk (`springs_simd.rs`, `springs_stencil.rs`,
//! `springs_lanes.rs`), the muscles' share of a step (`actuation.rs`, `waves.rs`,
//! `formed_rest.rs`, `alike_muscles.rs`) and the energy (`energy_springs.rs`) call these, so
//! they perform the same IEEE operations in the same order and give the same bits.
//!
//! The GPU's versions are written once too, in WGSL: `effective` in `shaders/shared/common.wgsl`,
//! `spring_force` and `elastic` in `shaders/shared/spring_pass.wgsl`, `wave_rest` in
//! `shaders/shared/common.wgsl`.
//!
//! Every law is `f = k_eff (L - L0)` along the spring: Hooke's is itself, the material law's
//! `k_eff = k / L0`, the zero-length law's `L0 = 0`. A new law is one more type implementing
//! [`Law`] and one more arm in [`with_law`] (and in [`rest_in_law`] if it fixes the rest
//! length); nothing else on the CPU names a law.

use super::lanes::Real;
use crate::model::SpringLaw;

/// A spring law as the walks apply it: the effective stiffness at a rest length.
pub(super) trait Law {
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
pub(super) struct Hooke;

impl Law for Hooke {
    const WALKS_AS: SpringLaw = SpringLaw::Hooke;
    const DIVIDES_BY_REST: bool = false;
    #[inline(always)]
    fn k_eff<R: Real>(k: R, _rest: R) -> R {
        k
    }
}

/// The material law, `f = k (L / L0 - 1)`: `k_eff = k / L0`.
pub(super) struct Material;

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
pub(super) trait WithLaw {
    /// What the work returns.
    type Output;
    /// Does the work with law `L`.
    fn with_law<L: Law>(self) -> Self::Output;
}

/// Runs `work` with the [`Law`] of the model's `law`: the one place that maps the model's
/// laws to their formulas.
#[inline(always)]
pub(super) fn with_law<W: WithLaw>(law: SpringLaw, work: W) -> W::Output {
    match law {
        SpringLaw::Hooke | SpringLaw::ZeroLength => work.with_law::<Hooke>(),
        SpringLaw::Material => work.with_law::<Material>(),
    }
}

/// The law the walks apply to a spring of law `law` (springs of the same law, stiffness and
/// damping share an entry of the spring table): the zero-length law walks as Hooke's, its rest
/// length held at 0 by [`rest_in_law`].
pub(super) fn walk_law(law: SpringLaw) -> SpringLaw {
    with_law(law, Named)
}

/// [`WithLaw`] naming the law it runs with ([`Law::WALKS_AS`]).
struct Named;

impl WithLaw for Named {
    type Output = SpringLaw;
    fn with_law<L: Law>(self) -> SpringLaw {
        L::WALKS_AS
    }
}

/// Whether law `law` holds the rest length at 0 whatever the base length or actuator: the
/// zero-length law.
#[inline]
pub(super) fn holds_rest_at_zero(law: SpringLaw) -> bool {
    match law {
        SpringLaw::ZeroLength => true,
        SpringLaw::Hooke | SpringLaw::Material => false,
    }
}

/// The rest length (m) a spring of law `law` takes when its base or actuated length is `rest`
/// (m): 0 for a law that holds it there ([`holds_rest_at_zero`]), `rest` for the others.
#[inline]
pub(super) fn rest_in_law(law: SpringLaw, rest: f64) -> f64 {
    if holds_rest_at_zero(law) {
        0.0
    } else {
        rest
    }
}

/// Whether law `law` divides by the rest length (a rest length of 0 is then refused).
pub(super) fn divides_by_rest(law: SpringLaw) -> bool {
    with_law(law, DividesByRest)
}

/// [`WithLaw`] telling [`Law::DIVIDES_BY_REST`].
struct DividesByRest;

impl WithLaw for DividesByRest {
    type Output = bool;
    fn with_law<L: Law>(self) -> bool {
        L::DIVIDES_BY_REST
    }
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
pub(super) fn k_eff<R: Real>(law: SpringLaw, k: R, rest: R) -> R {
    with_law(law, KEff { k, rest })
}

/// A spring's force on its second mass `b` (its first mass gets `-f`), the damping power it
/// dissipates, and its squared length.
#[derive(Clone, Copy, Debug)]
pub(super) struct SpringForce<R> {
    /// Force on `b` (x, y, z), N.
    pub(super) f: [R; 3],
    /// Damping power `c vrel^2`, W.
    pub(super) power: R,
    /// Squared length `|d|^2`, m^2: where it is 0 the spring has no direction, `f` and `power`
    /// are not numbers, and the walks add nothing.
    pub(super) len2: R,
}

/// The elastic and axial damping force of a spring from `a` to `b` with `d = p_a - p_b` (m),
/// relative velocity `dv = v_a - v_b` (m/s), rest length `rest` (m), effective stiffness `k_eff`
/// (N/m, [`k_eff`]) and damping coefficient `c` (N*s/m): `f_b = (k_eff (L - L0) + c vrel) n`
/// with `L = |d|`, `n = d / L` and `vrel = dv . n`, and the damping power `c vrel^2`. WGSL's
/// `spring_force` (`shaders/shared/spring_pass.wgsl`), without the fixed-point conversion.
///
/// The IEEE operations, in order: `L^2 = (dx dx + dy dy) + dz dz`, `L = sqrt(L^2)`, `n = d / L`
/// as three divisions, `vrel = (dvx nx + dvy ny) + dvz nz`, `s = k_eff (L - L0) + c vrel`,
/// `f = s n`, `power = (c vrel) vrel` (Rust never fuses a product and a sum).
#[inline(always)]
pub(super) fn spring_force<R: Real>(
    d: [R; 3],
    dv: [R; 3],
    rest: R,
    k_eff: R,
    c: R,
) -> SpringForce<R> {
    let len2 = (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2];
    let len = len2.sqrt();
    let n = [d[0] / len, d[1] / len, d[2] / len];
    let vrel = (dv[0] * n[0] + dv[1] * n[1]) + dv[2] * n[2];
    let s = k_eff * (len - rest) + c * vrel;
    SpringForce {
        f: [s * n[0], s * n[1], s * n[2]],
        power: c * vrel * vrel,
        len2,
    }
}

/// Elastic energy (J) of a spring of effective stiffness `k_eff` (N/m) and rest length `rest`
/// (m) at length `len` (m): `k_eff (L - L0)^2 / 2`. WGSL's `elastic`
/// (`shaders/shared/spring_pass.wgsl`).
#[inline]
pub(super) fn elastic<R: Real>(k_eff: R, rest: R, len: R) -> R {
    R::splat(0.5) * k_eff * (len - rest) * (len - rest)
}

/// A sine muscle's rest length (m): `base (1 + amplitude sin)` for base length `base` (m),
/// relative amplitude `amplitude` and its wave's sine `sin`, as
/// [`Actuator::rest_length_with`](crate::Actuator::rest_length_with) computes it. A spring
/// without a wave has amplitude 0 and sine 0: `base` exactly.
#[inline(always)]
pub(super) fn formed_rest<R: Real>(base: R, amplitude: R, sin: R) -> R {
    base * (R::splat(1.0) + amplitude * sin)
}
