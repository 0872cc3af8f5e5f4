//! The per-spring formulas of every law once it is folded into an effective stiffness
//! ([`k_eff`](super::k_eff)): the elastic and axial damping force and the damping power
//! ([`spring_force`]), the elastic energy ([`elastic`], [`stretch_energy`]) and a muscle's rest
//! length ([`formed_rest`]), over any [`Real`].

use super::Real;

/// A spring's force on its second mass `b` (its first mass gets `-f`), the damping power it
/// dissipates, and its squared length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SpringForce<R> {
    /// Force on `b` (x, y, z), N.
    pub(crate) f: [R; 3],
    /// Damping power `c vrel^2`, W.
    pub(crate) power: R,
    /// Squared length `|d|^2`, m^2: where it is 0 the spring has no direction, `f` and `power`
    /// are not numbers, and the walks add nothing.
    pub(crate) len2: R,
}

/// The elastic and axial damping force of a spring from `a` to `b` with `d = p_a - p_b` (m),
/// relative velocity `dv = v_a - v_b` (m/s), rest length `rest` (m), effective stiffness `k_eff`
/// (N/m, [`k_eff`](super::k_eff)) and damping coefficient `c` (N*s/m):
/// `f_b = (k_eff (L - L0) + c vrel) n` with `L = |d|`, `n = d / L` and `vrel = dv . n`, and the
/// damping power `c vrel^2`. WGSL's `spring_force` (`shaders/shared/spring_pass.wgsl`), without
/// the fixed-point conversion.
///
/// The IEEE operations, in order: `L^2 = (dx dx + dy dy) + dz dz`, `L = sqrt(L^2)`, `n = d / L`
/// as three divisions, `vrel = (dvx nx + dvy ny) + dvz nz`, `s = k_eff (L - L0) + c vrel`,
/// `f = s n`, `power = (c vrel) vrel` (Rust never fuses a product and a sum).
#[inline(always)]
pub(crate) fn spring_force<R: Real>(
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
pub(crate) fn elastic<R: Real>(k_eff: R, rest: R, len: R) -> R {
    stretch_energy(k_eff, len - rest)
}

/// A spring's share (J) of the energy semi-implicit Euler conserves: its elastic energy
/// ([`elastic`]) plus `dt/2` times the power of its elastic force on its masses,
/// `k_eff (L - L0)^2 / 2 - dt/2 k_eff (L - L0) vrel` for the rate of lengthening `vrel` (m/s) and
/// the step `dt` (s). The update `v' = v + F(x) dt / m`, `x' = x + v' dt` keeps
/// `H + dt/2 F(x) . v` constant to O(dt^2) per unit time where it keeps the plain energy `H` only
/// to O(dt); a muscle changes its spring's rest length between two steps, at fixed positions and
/// velocities, and the change of this energy is the work the step then sees, so booking it makes
/// the books' balance drift at second order in `dt` instead of first (the guide's energy page).
#[inline]
pub(crate) fn shadow_elastic<R: Real>(k_eff: R, rest: R, len: R, vrel: R, dt: R) -> R {
    elastic(k_eff, rest, len) - R::splat(0.5) * dt * (k_eff * (len - rest)) * vrel
}

/// Elastic energy (J) of stiffness `k` (N/m) stretched (or compressed) by `x` (m): `k x^2 / 2`,
/// the operations in that order ([`elastic`] of a stretch `L - L0`; a drag spring's energy; the
/// blow-up bound's strokes).
#[inline]
pub(crate) fn stretch_energy<R: Real>(k: R, x: R) -> R {
    R::splat(0.5) * k * x * x
}

/// A sine muscle's rest length (m): `base (1 + amplitude sin)` for base length `base` (m),
/// relative amplitude `amplitude` and its wave's sine `sin`, as
/// [`Actuator::rest_length_with`](crate::Actuator::rest_length_with) computes it. A spring
/// without a wave has amplitude 0 and sine 0: `base` exactly.
#[inline(always)]
pub(crate) fn formed_rest<R: Real>(base: R, amplitude: R, sin: R) -> R {
    base * (R::splat(1.0) + amplitude * sin)
}
