//! A voxel body's springs, masses and damping from its voxels' [`Material`]s, cell by cell (the
//! assembly [`Material`] documents).

use super::material::{bond_damping, CubicStiffness, Material};
use super::voxel::{CORNERS, CORNER_PAIRS};
use super::{invalid, VoxelBody, VoxelPart};
use crate::error::Result;

/// On how many axes the two corners of pair `p` differ: 1 for an edge, 2 for a face diagonal,
/// 3 for a body diagonal.
fn pair_axes(p: usize) -> usize {
    let (x, y) = CORNER_PAIRS[p];
    (0..3).filter(|&a| CORNERS[x][a] != CORNERS[y][a]).count()
}

impl VoxelBody {
    /// The material of each voxel (its own, else the body's), or `None` when the body has no
    /// material (it is then built from `stiffness`, `corner_mass` and `damping`).
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) for a voxel material on a body
    /// without one, or a voxel giving both a material and a stiffness; the materials' own
    /// checks ([`Material::validate`]).
    pub(super) fn voxel_materials(&self) -> Result<Option<Vec<Material>>> {
        let Some(body) = self.material else {
            if let Some(v) = self.voxels.iter().position(|v| v.material.is_some()) {
                return Err(invalid(
                    "voxels",
                    format!("voxel {v} has a material but the body has none: give the body's \"material\" too"),
                ));
            }
            return Ok(None);
        };
        let mut materials = Vec::with_capacity(self.voxels.len());
        for (v, voxel) in self.voxels.iter().enumerate() {
            if voxel.stiffness.is_some() {
                return Err(invalid(
                    "voxels",
                    format!("voxel {v} gives a stiffness in a body built from a material: give it a material instead"),
                ));
            }
            let m = voxel.material.unwrap_or(body);
            m.validate()?;
            materials.push(m);
        }
        Ok(Some(materials))
    }
}

impl VoxelPart {
    /// Replaces the masses, stiffnesses and damping of the springs by those of the voxels'
    /// `materials` (one per voxel, list order) at voxel size `spacing` (m): each voxel adds
    /// `rho a^3 / 8` to its corners and its cell's share to its 28 springs
    /// ([`CubicStiffness::cell_share`]); then each spring is damped at the stiffness-weighted
    /// mean of its voxels' damping ratios ([`Material::bond_damping`]).
    pub(super) fn apply_materials(&mut self, materials: &[Material], spacing: f64) -> Result<()> {
        let part = &mut self.part;
        for m in &mut part.masses {
            m.mass = 0.0;
        }
        for s in &mut part.springs {
            s.stiffness = 0.0;
        }
        // Per spring: the sum of zeta times stiffness share, to weigh the damping ratios.
        let mut zeta_k = vec![0.0; part.springs.len()];
        for (v, material) in materials.iter().enumerate() {
            let k: CubicStiffness = material.cubic_stiffness(spacing)?;
            for &c in &self.voxel_masses[v] {
                part.masses[c as usize].mass += material.corner_share(spacing);
            }
            for (p, &s) in self.voxel_springs[v].iter().enumerate() {
                let share = k.cell_share(pair_axes(p));
                part.springs[s as usize].stiffness += share;
                zeta_k[s as usize] += share * material.damping_ratio;
            }
        }
        for (s, spring) in part.springs.iter_mut().enumerate() {
            let (ma, mb) = (
                part.masses[spring.a as usize].mass,
                part.masses[spring.b as usize].mass,
            );
            let zeta = zeta_k[s] / spring.stiffness;
            spring.damping = bond_damping(zeta, spring.stiffness, ma, mb);
        }
        Ok(())
    }
}
