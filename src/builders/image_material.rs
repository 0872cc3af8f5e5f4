//! An [`ImageBody`]'s masses, springs and damping from its [`Material`]: the square lattice of
//! its pixels as an isotropic sheet.

use super::material::bond_damping;
use super::{ImageBody, Material};
use crate::model::Part;

/// The stiffness (N/m) of a pixel lattice's edge and diagonal springs for a sheet of Young's
/// modulus `young_modulus` (Pa) and thickness `thickness` (m): `(3 E t / 4, 3 E t / 8)`.
#[must_use]
fn square_stiffness(young_modulus: f64, thickness: f64) -> (f64, f64) {
    let edge = 0.75 * young_modulus * thickness;
    (edge, edge / 2.0)
}

impl ImageBody {
    /// Replaces the masses, stiffnesses and damping of `part` (this body, built) by those of
    /// `material`.
    ///
    /// # The conversion (a square lattice of spacing `s`: edge springs `k1`, diagonals `k2`)
    ///
    /// Each pixel stands for a square of side `s` and thickness `t = s` (a one-voxel-thick
    /// sheet): its mass is `rho s^3`. Under a homogeneous in-plane strain `eps`, a pixel's
    /// springs (one along x, one along z, the two diagonals) hold the energy
    /// `s^2 [k1 (exx^2 + ezz^2) / 2 + k2 (exx + ezz)^2 / 2 + 2 k2 exz^2]`, so the sheet's
    /// plane-stress constants are `C11 = (k1 + k2) / t`, `C12 = C66 = k2 / t`. Isotropy
    /// (`C66 = (C11 - C12) / 2`) needs `k2 = k1 / 2`; then Poisson's ratio is
    /// `C12 / C11 = 1/3` and `E = C11 (1 - nu^2) = 4 k1 / (3 t)`, so
    /// `k1 = 3 E t / 4`, `k2 = 3 E t / 8` (N/m), independent of the spacing. Each spring of
    /// stiffness `k` is damped at `2 zeta sqrt(k m_a m_b / (m_a + m_b))`
    /// ([`Material::bond_damping`]).
    ///
    /// What it cannot represent: Poisson's ratio is the lattice's 1/3 in the plane (the 2D
    /// twin of the cubic lattice's 1/4), and the sheet has no bending stiffness out of its
    /// plane. Every spring gets the inside value, so the picture's outline, where a pixel has
    /// fewer neighbours, is slightly stiffer than the continuum (by a share of the order of
    /// one pixel row over the body's width).
    pub(super) fn apply_material(&self, part: &mut Part, material: &Material) {
        let s = self.spacing;
        let (edge, diagonal) = square_stiffness(material.young_modulus, s);
        for m in &mut part.masses {
            m.mass = material.density * s.powi(3);
        }
        for spring in &mut part.springs {
            // Edge springs rest at s, diagonals at s sqrt 2: tell them apart at 1.2 s.
            spring.stiffness = if spring.rest_length < 1.2 * s {
                edge
            } else {
                diagonal
            };
            let (ma, mb) = (
                part.masses[spring.a as usize].mass,
                part.masses[spring.b as usize].mass,
            );
            spring.damping = bond_damping(material.damping_ratio, spring.stiffness, ma, mb);
        }
    }
}
