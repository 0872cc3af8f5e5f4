//! The benchmark [`Lattice`]'s masses, springs and damping from a [`Material`]: the cell-by-cell
//! assembly [`Material`] documents, counted per node and per spring instead of walked per cell.

use super::material::{bond_damping, Material};
use super::{invalid, Lattice};
use crate::error::Result;
use crate::model::Part;

impl Lattice {
    /// Replaces the masses, stiffnesses and damping of `part` (this lattice, built) by those of
    /// `material`. A node of coordinates `(i, j, k)` lies in `c(i) c(j) c(k)` cells, with
    /// `c(x) = [x > 0] + [x < n - 1]`, and gets `rho h^3 / 8` from each; a spring lies in the
    /// cells counted the same way over the axes along which its ends do not differ (an edge in
    /// up to 4, a face diagonal in up to 2, a body diagonal in 1) and gets each one's share.
    ///
    /// # Errors
    /// [`Material::validate`]'s; [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) for
    /// `n < 2` (a single node is no cell of material).
    pub(super) fn apply_material(&self, part: &mut Part, material: &Material) -> Result<()> {
        let stiffness = material.cubic_stiffness(self.spacing)?;
        if self.n < 2 {
            return Err(invalid(
                "lattice",
                "a lattice made of a material needs n >= 2 (at least one cell)",
            ));
        }
        let n = self.n;
        let coords = |m: u32| [m % n, (m / n) % n, m / (n * n)];
        let cells_along = |x: u32| f64::from(u8::from(x > 0) + u8::from(x < n - 1));
        let share = material.corner_share(self.spacing);
        for (m, mass) in part.masses.iter_mut().enumerate() {
            mass.mass = coords(m as u32).map(cells_along).iter().product::<f64>() * share;
        }
        for s in &mut part.springs {
            let (a, b) = (coords(s.a), coords(s.b));
            let mut cells = 1.0;
            let mut axes = 0;
            for axis in 0..3 {
                if a[axis] == b[axis] {
                    cells *= cells_along(a[axis]);
                } else {
                    axes += 1;
                }
            }
            s.stiffness = cells * stiffness.cell_share(axes);
            let (ma, mb) = (
                part.masses[s.a as usize].mass,
                part.masses[s.b as usize].mass,
            );
            s.damping = bond_damping(material.damping_ratio, s.stiffness, ma, mb);
        }
        Ok(())
    }
}
