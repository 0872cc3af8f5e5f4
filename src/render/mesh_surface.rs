//! A mesh body's own surface carried by its lattice: every vertex of the triangle mesh embedded
//! once in a voxel cell, its position the trilinear blend of the cell's 8 corner masses
//! ([`MeshSurface::embed`]); the renderer's `surface_vs` (shaders/render.wgsl) moves the
//! vertices with the masses every frame, and [`MeshSurface::positions`] is its CPU twin.
//!
//! # The embedding
//!
//! Cell `[i, j, k]` of voxel size `a` spans `[i a, (i + 1) a]` on x (likewise y, z) in the
//! mesh's frame, its corner `c` (bits `x + 2 y + 4 z`) at `([i, j, k] + bits(c)) a`. A vertex
//! `v` has grid coordinates `g = v / a`; its cell is the one containing it, `floor(g)`, when that
//! cell is a voxel of the body, else the voxel nearest to it (the least distance from `v` to the
//! cell's box, ties to the voxel listed first). With the local coordinates `t = g - [i, j, k]`
//! (in `[0, 1]` inside the cell, a little beyond for a vertex outside the voxels), corner `c`
//! weighs `prod over axes of (t if the bit is set, else 1 - t)`. The weights sum to 1, and a
//! lattice moved by any affine map (a translation, a rotation, a uniform or per-axis stretch)
//! moves each vertex by the same map, exactly in exact arithmetic: the blend is the trilinear
//! interpolation of the corners, which reproduces affine functions. So the undeformed lattice
//! gives back the mesh's vertices (to rounding), wherever the body was placed.

use std::collections::HashMap;

use glam::DVec3;

use crate::builders::TriangleMesh;
use crate::error::{Error, Result};
use crate::validate::positive;

/// One mesh vertex embedded in a voxel cell: the cell's 8 corner masses (model indices, corner
/// order `x + 2 y + 4 z`) and their trilinear weights (dimensionless, summing to 1; some are
/// negative for a vertex outside its cell).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EmbeddedVertex {
    /// The cell's corner masses, corner `x + 2 y + 4 z`.
    pub masses: [u32; 8],
    /// The weight of each corner mass.
    pub weights: [f64; 8],
}

impl EmbeddedVertex {
    /// The vertex's position (m) for mass positions `masses` (m, indexed as the model's): the
    /// weighted sum of its corners.
    ///
    /// # Panics
    /// If a corner mass is not in `masses`.
    #[must_use]
    pub fn position(&self, masses: &[DVec3]) -> DVec3 {
        self.masses
            .iter()
            .zip(&self.weights)
            .map(|(&m, &w)| w * masses[m as usize])
            .sum()
    }
}

/// A triangle mesh whose vertices ride on a lattice of masses: what the renderer draws for a
/// mesh body ([`crate::render::Drawing::set_surfaces`]), shaded like voxel faces, its normals
/// those of the deformed triangles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshSurface {
    /// The mesh's vertices, in the mesh's order.
    pub vertices: Vec<EmbeddedVertex>,
    /// The mesh's triangles, three indices into `vertices` each.
    pub triangles: Vec<[u32; 3]>,
}

impl MeshSurface {
    /// Embeds `mesh` (in its own frame, m) in the voxel cells `cells` of size `voxel` (m), cell
    /// `v` having the corner masses `corners[v]` (corner `x + 2 y + 4 z`), by the rule of this
    /// module's docs. The result depends only on the arguments (no hashing order, no machine
    /// arithmetic beyond `f64` rounding).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a voxel size that is not finite and > 0 or a vertex that
    /// is not finite; [`Error::LengthMismatch`] unless there is one corner list per cell;
    /// [`Error::InvalidBuilder`] for no cells; [`Error::IndexOutOfRange`] for a triangle naming a
    /// missing vertex.
    pub fn embed(
        mesh: &TriangleMesh,
        voxel: f64,
        cells: &[[i32; 3]],
        corners: &[[u32; 8]],
    ) -> Result<Self> {
        positive("surface voxel size", voxel, "must be finite and > 0 (m)")?;
        if cells.len() != corners.len() {
            return Err(Error::LengthMismatch {
                what: "cell corner lists",
                expected: cells.len(),
                got: corners.len(),
            });
        }
        if cells.is_empty() {
            return Err(Error::InvalidBuilder {
                builder: "surface",
                reason: "a mesh surface needs at least one voxel cell to ride on".into(),
            });
        }
        check_triangles(&mesh.triangles, mesh.vertices.len())?;
        let finder = CellFinder::new(cells);
        let vertices = mesh
            .vertices
            .iter()
            .map(|&v| {
                if !v.is_finite() {
                    return Err(Error::InvalidParameter {
                        name: "surface vertex",
                        value: f64::NAN,
                        expected: "must be finite (m)",
                    });
                }
                let g = v / voxel;
                let cell = finder.nearest(g);
                let base = DVec3::from_array(cells[cell].map(f64::from));
                Ok(EmbeddedVertex {
                    masses: corners[cell],
                    weights: trilinear(g - base),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            vertices,
            triangles: mesh.triangles.clone(),
        })
    }

    /// The positions (m) of the mesh's vertices for mass positions `masses` (m): the CPU twin
    /// of `surface_vs` in shaders/render.wgsl (which sums in `f32`).
    ///
    /// # Panics
    /// If a vertex names a mass that is not in `masses`.
    #[must_use]
    pub fn positions(&self, masses: &[DVec3]) -> Vec<DVec3> {
        self.vertices.iter().map(|v| v.position(masses)).collect()
    }

    /// The largest mass index any vertex names, if there are vertices.
    #[must_use]
    pub fn max_mass(&self) -> Option<u32> {
        self.vertices.iter().flat_map(|v| v.masses).max()
    }
}

/// Checks that every corner of `triangles` names one of `vertices` vertices.
///
/// # Errors
/// [`Error::IndexOutOfRange`] naming the first corner that does not.
pub(super) fn check_triangles(triangles: &[[u32; 3]], vertices: usize) -> Result<()> {
    match triangles
        .iter()
        .flatten()
        .find(|&&i| i as usize >= vertices)
    {
        None => Ok(()),
        Some(&bad) => Err(Error::IndexOutOfRange {
            what: "mesh vertex (in a surface triangle)",
            index: bad as usize,
            len: vertices,
        }),
    }
}

/// The trilinear weights of corners `x + 2 y + 4 z` at local coordinates `t`.
fn trilinear(t: DVec3) -> [f64; 8] {
    std::array::from_fn(|c| {
        let along = |bit: usize, t: f64| if c & bit == 0 { 1.0 - t } else { t };
        along(1, t.x) * along(2, t.y) * along(4, t.z)
    })
}

/// Finds the voxel cell nearest a point given in grid units (`v / a`).
struct CellFinder<'a> {
    cells: &'a [[i32; 3]],
    /// Each cell's place in `cells` (the first, should a cell be listed twice).
    index: HashMap<[i64; 3], usize>,
}

impl<'a> CellFinder<'a> {
    fn new(cells: &'a [[i32; 3]]) -> Self {
        let mut index = HashMap::with_capacity(cells.len());
        for (i, c) in cells.iter().enumerate() {
            index.entry(c.map(i64::from)).or_insert(i);
        }
        Self { cells, index }
    }

    /// The cell containing `g` if it is one, else the one nearest `g` (least squared distance
    /// to its box, then first listed). Searches shells of cells around `floor(g)` outward: a
    /// cell `r` cells away (Chebyshev) is at least `r - 1` away, so the search stops once the
    /// best distance is below that of the next shell (below, so that ties go to the first
    /// listed as in a scan of all); when a shell would hold more cells than
    /// there are, it compares every cell instead.
    fn nearest(&self, g: DVec3) -> usize {
        let base = g.floor();
        let key = [base.x as i64, base.y as i64, base.z as i64];
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let mut best: Option<(f64, usize)> = None;
        for r in 1i64.. {
            let side = (2 * r + 1) as f64;
            if side * side * side > self.cells.len() as f64 {
                return self.scan_all(g);
            }
            for i in shell(key, r).filter_map(|c| self.index.get(&c)) {
                best = closer(best, (box_distance2(g, self.cells[*i]), *i));
            }
            if let Some((d2, i)) = best {
                if d2 < (r * r) as f64 {
                    return i;
                }
            }
        }
        unreachable!("the shells grow until they hold more cells than there are")
    }

    /// The nearest cell by comparing all of them.
    fn scan_all(&self, g: DVec3) -> usize {
        let mut best = None;
        for (i, &c) in self.cells.iter().enumerate() {
            best = closer(best, (box_distance2(g, c), i));
        }
        best.map_or(0, |(_, i)| i)
    }
}

/// The nearer of two `(squared distance, cell)`, the first listed cell on a tie.
fn closer(best: Option<(f64, usize)>, candidate: (f64, usize)) -> Option<(f64, usize)> {
    match best {
        Some(b) if (b.0, b.1) <= (candidate.0, candidate.1) => Some(b),
        _ => Some(candidate),
    }
}

/// The cells at Chebyshev distance exactly `r` from `centre`.
fn shell(centre: [i64; 3], r: i64) -> impl Iterator<Item = [i64; 3]> {
    let range = move || -r..=r;
    range().flat_map(move |dz| {
        range().flat_map(move |dy| {
            range()
                .filter(move |&dx| dx.abs().max(dy.abs()).max(dz.abs()) == r)
                .map(move |dx| [centre[0] + dx, centre[1] + dy, centre[2] + dz])
        })
    })
}

/// Squared distance, in grid units, from `g` to the box of cell `c`.
fn box_distance2(g: DVec3, c: [i32; 3]) -> f64 {
    let lo = DVec3::from_array(c.map(f64::from));
    let d = (lo - g).max(g - (lo + 1.0)).max(DVec3::ZERO);
    d.length_squared()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3 x 2 x 2 block of cells with distinct corner masses numbered as a lattice, and the
    /// lattice's mass positions for voxel size `a`.
    fn block(a: f64) -> (Vec<[i32; 3]>, Vec<[u32; 8]>, Vec<DVec3>) {
        let (nx, ny, nz) = (3, 2, 2);
        let mass = |x: i32, y: i32, z: i32| ((z * (ny + 1) + y) * (nx + 1) + x) as u32;
        let mut cells = Vec::new();
        let mut corners = Vec::new();
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    cells.push([x, y, z]);
                    corners.push(std::array::from_fn(|c| {
                        let c = c as i32;
                        mass(x + (c & 1), y + ((c >> 1) & 1), z + ((c >> 2) & 1))
                    }));
                }
            }
        }
        let mut masses = Vec::new();
        for z in 0..=nz {
            for y in 0..=ny {
                for x in 0..=nx {
                    masses.push(DVec3::new(f64::from(x), f64::from(y), f64::from(z)) * a);
                }
            }
        }
        (cells, corners, masses)
    }

    /// Vertices inside the block, on its faces and corners, and up to half a voxel outside it
    /// (embedded in the nearest cell): each pair of mesh vertices is a "triangle" for the test.
    fn points(a: f64) -> TriangleMesh {
        let vertices: Vec<DVec3> = [
            [0.25, 0.5, 0.75],
            [1.5, 1.0, 1.0],
            [2.9, 1.99, 0.01],
            [0.0, 0.0, 0.0],
            [3.0, 2.0, 2.0],
            [-0.4, 1.2, 0.3],
            [3.3, -0.2, 2.45],
            [1.7, 2.5, -0.5],
        ]
        .iter()
        .map(|&p| DVec3::from_array(p) * a)
        .collect();
        TriangleMesh {
            triangles: vec![[0, 1, 2], [3, 4, 5], [5, 6, 7]],
            vertices,
        }
    }

    #[test]
    fn weights_sum_to_one_and_the_rest_lattice_gives_back_the_vertices() {
        let a = 0.013;
        let (cells, corners, masses) = block(a);
        let mesh = points(a);
        let surface = MeshSurface::embed(&mesh, a, &cells, &corners).unwrap();
        assert_eq!(surface.triangles, mesh.triangles);
        // Rounding: coordinates up to 3.3 a carry relative errors of a few f64 ulps; the weights
        // are products of three factors (each rounded once) summed over 8 corners.
        let tol = 16.0 * f64::EPSILON;
        for (v, p) in surface.vertices.iter().zip(&mesh.vertices) {
            let sum: f64 = v.weights.iter().sum();
            assert!((sum - 1.0).abs() <= tol, "{sum}");
            let back = v.position(&masses);
            assert!((back - *p).length() <= tol * 4.0 * a, "{back} vs {p}");
        }
    }

    #[test]
    fn an_affinely_moved_lattice_moves_the_vertices_by_the_same_map() {
        let a = 0.02;
        let (cells, corners, masses) = block(a);
        let mesh = points(a);
        let surface = MeshSurface::embed(&mesh, a, &cells, &corners).unwrap();
        // A translation, a per-axis stretch, and a stretch with shear and a turn.
        let maps: [(glam::DMat3, DVec3); 3] = [
            (glam::DMat3::IDENTITY, DVec3::new(0.7, -1.25, 3.0)),
            (
                glam::DMat3::from_diagonal(DVec3::new(2.0, 0.5, 1.5)),
                DVec3::ZERO,
            ),
            (
                glam::DMat3::from_rotation_z(0.3)
                    * glam::DMat3::from_cols_array(&[1.2, 0.1, 0.0, 0.0, 0.9, 0.2, 0.3, 0.0, 1.1]),
                DVec3::new(-0.1, 0.2, 0.05),
            ),
        ];
        for (m, shift) in maps {
            let moved: Vec<DVec3> = masses.iter().map(|&p| m * p + shift).collect();
            let got = surface.positions(&moved);
            for (g, p) in got.iter().zip(&mesh.vertices) {
                let want = m * *p + shift;
                // Positions up to ~3.5 m: a few ulps of that, through 8 products and a sum.
                let tol = 64.0 * f64::EPSILON * (1.0 + want.length());
                assert!((*g - want).length() <= tol, "{g} vs {want}");
            }
        }
    }

    #[test]
    fn a_vertex_outside_the_voxels_rides_on_the_nearest_cell() {
        let a = 1.0;
        let (cells, corners, _) = block(a);
        let mesh = points(a);
        let surface = MeshSurface::embed(&mesh, a, &cells, &corners).unwrap();
        // [-0.4, 1.2, 0.3] lies beyond the x = 0 face of cell [0, 1, 0].
        let cell = cells.iter().position(|&c| c == [0, 1, 0]).unwrap();
        assert_eq!(surface.vertices[5].masses, corners[cell]);
        assert!(surface.vertices[5].weights.iter().any(|&w| w < 0.0));
        // A hole in the block: the vertex inside the missing cell goes to its nearest neighbour
        // with the lowest list index among equals, the same on every run.
        let keep: Vec<usize> = (0..cells.len())
            .filter(|&i| cells[i] != [0, 0, 0])
            .collect();
        let holed: Vec<[i32; 3]> = keep.iter().map(|&i| cells[i]).collect();
        let holed_corners: Vec<[u32; 8]> = keep.iter().map(|&i| corners[i]).collect();
        let s = MeshSurface::embed(&mesh, a, &holed, &holed_corners).unwrap();
        // [0.25, 0.5, 0.75] is 0.75 from [1, 0, 0] and 0.25 from [0, 0, 1]: the latter.
        assert_eq!(
            s.vertices[0].masses,
            holed_corners[keep_index(&holed, [0, 0, 1])]
        );
        assert_eq!(
            s,
            MeshSurface::embed(&mesh, a, &holed, &holed_corners).unwrap()
        );
    }

    fn keep_index(cells: &[[i32; 3]], cell: [i32; 3]) -> usize {
        cells.iter().position(|&c| c == cell).unwrap()
    }

    #[test]
    fn far_vertices_find_the_same_cell_by_shells_as_by_scanning_all() {
        let cells: Vec<[i32; 3]> = (0..200)
            .map(|i| [i % 7 * 3, i / 7 % 5 * 2, i / 35])
            .collect();
        let finder = CellFinder::new(&cells);
        for p in [
            [-4.2, 3.3, 0.5],
            [30.0, -6.0, 2.0],
            [10.4, 4.5, 9.9],
            [1.5, 1.5, 1.5],
        ] {
            let g = DVec3::from_array(p);
            let (a, b) = (finder.nearest(g), finder.scan_all(g));
            assert_eq!(
                box_distance2(g, cells[a]),
                box_distance2(g, cells[b]),
                "{p:?}"
            );
            assert_eq!(a, b, "{p:?}");
        }
    }

    #[test]
    fn bad_arguments_are_named() {
        let (cells, corners, _) = block(1.0);
        let mesh = points(1.0);
        let err = MeshSurface::embed(&mesh, 0.0, &cells, &corners).unwrap_err();
        assert!(err.to_string().contains("voxel"), "{err}");
        let err = MeshSurface::embed(&mesh, 1.0, &cells, &corners[1..]).unwrap_err();
        assert!(matches!(err, Error::LengthMismatch { .. }), "{err}");
        assert!(MeshSurface::embed(&mesh, 1.0, &[], &[]).is_err());
        let mut bad = mesh.clone();
        bad.triangles.push([0, 1, 99]);
        let err = MeshSurface::embed(&bad, 1.0, &cells, &corners).unwrap_err();
        assert!(err.to_string().contains("99"), "{err}");
        let mut bad = mesh;
        bad.vertices[2].y = f64::NAN;
        assert!(MeshSurface::embed(&bad, 1.0, &cells, &corners).is_err());
    }
}
