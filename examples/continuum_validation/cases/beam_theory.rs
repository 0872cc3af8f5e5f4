//! Beam theory's answers for the beams of the cases: a square section `b x b` of a material with
//! the lattice's Poisson's ratio 1/4, clamped at `x = 0` and free at `x = L`.
//!
//! The cases use moderately slender beams (`L = 10 b`), so shear and rotary inertia move the
//! answers by about 1 %: the references are Timoshenko's, with Cowper's shear coefficient for a
//! square, `kappa = 10 (1 + nu) / (12 + 11 nu)`, and `G = E / (2 (1 + nu)) = E / 2.5`; the
//! Euler-Bernoulli values are kept beside them.

use std::f64::consts::PI;

use super::material;

/// The lattice's Poisson's ratio.
pub(crate) const NU: f64 = 0.25;

/// A beam's thickness and width b (m).
pub(crate) const THICKNESS: f64 = 0.01;

/// The beams' slenderness `L / b`.
pub(crate) const SLENDERNESS: u32 = 10;

/// The beams' length L (m).
pub(crate) fn length() -> f64 {
    f64::from(SLENDERNESS) * THICKNESS
}

/// The bending stiffness `E I` (N m^2), `I = b^4 / 12`.
pub(crate) fn bending_stiffness() -> f64 {
    material().young_modulus * THICKNESS.powi(4) / 12.0
}

/// The shear stiffness `kappa G A` (N) with Cowper's `kappa` for a square.
pub(crate) fn shear_stiffness() -> f64 {
    let kappa = 10.0 * (1.0 + NU) / (12.0 + 11.0 * NU);
    let g = material().young_modulus / (2.0 * (1.0 + NU));
    kappa * g * THICKNESS * THICKNESS
}

/// The tip deflection (m) under an end load `force` (N): Euler-Bernoulli's `F L^3 / (3 E I)`
/// and Timoshenko's, which adds the shear deflection `F L / (kappa G A)`.
pub(crate) fn tip_deflection(force: f64) -> (f64, f64) {
    let l = length();
    let bending = force * l.powi(3) / (3.0 * bending_stiffness());
    (bending, bending + force * l / shear_stiffness())
}

/// `beta L` of a cantilever's first mode (the root of `1 + cos x cosh x = 0`).
const BETA_L: f64 = 1.875_104_068_711_961;

/// The first bending mode of the beam.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstMode {
    /// Euler-Bernoulli's frequency `(1.875^2 / 2 pi) sqrt(E I / (rho A L^4))` (Hz).
    pub(crate) euler: f64,
    /// How much the rotary inertia lowers `omega^2`, relative: `r^2 int w'^2 / int w^2`
    /// (`r^2 = I / A`).
    pub(crate) rotary: f64,
    /// How much the shear compliance lowers `omega^2`, relative:
    /// `(E I / kappa G A) int w'''^2 / int w''^2`.
    pub(crate) shear: f64,
}

impl FirstMode {
    /// Timoshenko's frequency to first order in `(b / L)^2` (Hz).
    pub(crate) fn timoshenko(&self) -> f64 {
        self.euler * (1.0 - self.rotary - self.shear).sqrt()
    }
}

/// The first bending mode: Euler-Bernoulli's frequency and the first-order corrections of
/// rotary inertia and shear (Rayleigh's quotient with the Euler-Bernoulli mode `w`; both
/// integrals by Simpson's rule). The neglected terms are of order `(b / L)^4`, below 1e-5 at
/// `L = 10 b`.
pub(crate) fn first_mode(rho: f64) -> FirstMode {
    let l = length();
    let area = THICKNESS * THICKNESS;
    let euler =
        BETA_L.powi(2) / (2.0 * PI) * (bending_stiffness() / (rho * area * l.powi(4))).sqrt();
    let beta = BETA_L / l;
    let sigma = (BETA_L.cosh() + BETA_L.cos()) / (BETA_L.sinh() + BETA_L.sin());
    // The mode and its first three derivatives at x.
    let mode = |x: f64| {
        let bx = beta * x;
        let (ch, c, sh, s) = (bx.cosh(), bx.cos(), bx.sinh(), bx.sin());
        [
            ch - c - sigma * (sh - s),
            beta * (sh + s - sigma * (ch - c)),
            beta.powi(2) * (ch + c - sigma * (sh + s)),
            beta.powi(3) * (sh - s - sigma * (ch + c)),
        ]
    };
    let integral = |d: usize| simpson(|x| mode(x)[d].powi(2), l);
    let r2 = THICKNESS * THICKNESS / 12.0;
    FirstMode {
        euler,
        rotary: r2 * integral(1) / integral(0),
        shear: bending_stiffness() / shear_stiffness() * integral(3) / integral(2),
    }
}

/// `int_0^l f` by Simpson's rule on 2000 intervals.
fn simpson(f: impl Fn(f64) -> f64, l: f64) -> f64 {
    let n = 2000;
    let h = l / f64::from(n);
    let inner: f64 = (1..n)
        .map(|i| f(h * f64::from(i)) * if i % 2 == 1 { 4.0 } else { 2.0 })
        .sum();
    (f(0.0) + inner + f(l)) * h / 3.0
}

/// Euler's buckling load (N) of the column clamped at its root and loaded at its free end,
/// `P = pi^2 E I / (4 L^2)`, and with Engesser's shear correction `P / (1 + P / kappa G A)`.
pub(crate) fn buckling_load() -> (f64, f64) {
    let euler = PI * PI * bending_stiffness() / (4.0 * length().powi(2));
    (euler, euler / (1.0 + euler / shear_stiffness()))
}

/// The lateral stiffness at the tip of an Euler-Bernoulli column under the axial compression
/// `q` times its buckling load, over its stiffness unloaded: `x^3 / (3 (tan x - x))`,
/// `x = (pi / 2) sqrt(q)` (beam-column theory; it falls to 0 at `q = 1`).
pub(crate) fn lateral_stiffness_ratio(q: f64) -> f64 {
    if q == 0.0 {
        return 1.0;
    }
    let x = PI / 2.0 * q.sqrt();
    x.powi(3) / (3.0 * (x.tan() - x))
}

/// The lattice's bending stiffness over the continuum's, `1 + (181 / 140) (a / b)^2` for a
/// section of `across` cells across (`a = b / across`).
///
/// Under pure bending (`eps_xx = -kappa z`, `eps_yy = eps_zz = nu kappa z`, the section's
/// displacement quadratic in y and z) every bond sees the continuum's strain at its midpoint
/// exactly (a difference of a quadratic field is its derivative at the midpoint), so the
/// lattice's energy is a quadrature of the continuum's energy density, which is `z^2` times a
/// constant. In each cell the bonds lying in planes `z = const` (x and y edges, xy face
/// diagonals) sit on the cell's two faces (the trapezoid rule: `z_c^2 + a^2 / 4` for the exact
/// `z_c^2 + a^2 / 12`), the others (z edges, xz and yz face diagonals, body diagonals) at its
/// centre (`z_c^2`). Under this strain (uniaxial stress, `nu = 1/4`) the first carry
/// `w = 107 / 140` of the energy (in units `E a / 35`: x edges 22, y edges 22 / 16, xy diagonals
/// 6 (9 / 16), of 35), so summing over the `across` layers gives
/// `I (1 + 12 (w / 4 - 1 / 12) (a / b)^2) = I (1 + (3 w - 1) (a / b)^2)`. The sampled
/// continuum field is one the lattice can take, so this is an upper bound on the lattice's
/// stiffness (minimum potential energy); the cantilever meets it within the shear band.
pub(crate) fn lattice_bending_ratio(across: u32) -> f64 {
    1.0 + 181.0 / 140.0 / f64::from(across).powi(2)
}
