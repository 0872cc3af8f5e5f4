//! [`TetMesh::box_lattice`]: a box of cubes, each cut into five tetrahedra, the regular mesh the
//! guide derives the material's anisotropy for (tests, examples and bodies that need no file).

use glam::DVec3;

use super::TetMesh;
use crate::error::Result;
use crate::validate::{buildable, positive};

/// The corners of a unit cube whose coordinates sum to an even number, as offsets `x + 2 y +
/// 4 z`: the regular tetrahedron inscribed in the cube.
const EVEN: [usize; 4] = [0, 3, 5, 6];
/// The others.
const ODD: [usize; 4] = [1, 2, 4, 7];

impl TetMesh {
    /// The box of `cells[0] x cells[1] x cells[2]` cubes of edge `a` (m) from the origin, each
    /// cut into five tetrahedra: the regular one joining four of its corners and the four
    /// corners' own. Neighbouring cubes are cut in mirror image, so that the face diagonals
    /// always join nodes whose cell indices sum to an even number, and the cuts meet: each
    /// cube holds every face-diagonal direction once and the lattice has cubic symmetry (its
    /// stiffness in the guide, `hooke::guide::meshes`). Node `[i, j, k]` is at `(i, j, k) a`,
    /// numbered `i + (nx + 1) (j + (ny + 1) k)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an edge that is not
    /// finite and > 0, a count of 0, or a box of more than
    /// [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS) nodes and tetrahedra.
    pub fn box_lattice(cells: [u32; 3], a: f64) -> Result<Self> {
        positive("box_lattice.a", a, "must be finite and > 0 (m)")?;
        let n = cells.map(f64::from);
        let nodes = (n[0] + 1.0) * (n[1] + 1.0) * (n[2] + 1.0);
        buildable(
            "box_lattice.cells",
            n[0] * n[1] * n[2],
            nodes + 5.0 * n[0] * n[1] * n[2],
        )?;
        positive(
            "box_lattice.cells",
            n[0] * n[1] * n[2],
            "each count must be > 0",
        )?;
        let [nx, ny, nz] = cells;
        let node = |i: u32, j: u32, k: u32| i + (nx + 1) * (j + (ny + 1) * k);
        let mut mesh = Self::default();
        for k in 0..=nz {
            for j in 0..=ny {
                for i in 0..=nx {
                    mesh.nodes
                        .push(DVec3::new(f64::from(i), f64::from(j), f64::from(k)) * a);
                }
            }
        }
        for k in 0..nz {
            for j in 0..ny {
                for i in 0..nx {
                    let corner = |c: usize| {
                        let (x, y, z) = ((c & 1) as u32, ((c >> 1) & 1) as u32, (c >> 2) as u32);
                        node(i + x, j + y, k + z)
                    };
                    let (inner, outer) = if (i + j + k) % 2 == 0 {
                        (EVEN, ODD)
                    } else {
                        (ODD, EVEN)
                    };
                    mesh.push_positive(inner.map(corner));
                    for c in outer {
                        // The corner and its three neighbours along the cube's edges.
                        mesh.push_positive([c, c ^ 1, c ^ 2, c ^ 4].map(corner));
                    }
                }
            }
        }
        Ok(mesh)
    }

    /// Adds tetrahedron `tet`, two corners swapped if its volume is negative.
    fn push_positive(&mut self, mut tet: [u32; 4]) {
        let [a, b, c, d] = tet.map(|i| self.nodes[i as usize]);
        if (b - a).cross(c - a).dot(d - a) < 0.0 {
            tet.swap(2, 3);
        }
        self.tetrahedra.push(tet);
    }
}
