//! [`TetMesh::new`]'s checks (finite nodes, each in a tetrahedron, every tetrahedron of positive
//! volume by an exact test, no face in more than two tetrahedra or in two on the same side),
//! and what the checks and the builder share: volumes, faces, the boundary.

use std::path::Path;

use glam::DVec3;

use super::{tet_error, TetMesh};
use crate::error::Result;

/// The four faces of a tetrahedron `[a, b, c, d]` of positive volume, as corner numbers in
/// counter-clockwise order seen from outside; face `i` is the one opposite corner `3 - i`.
pub const TETRAHEDRON_FACES: [[usize; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

/// The six edges of a tetrahedron, as pairs of corner numbers.
pub(super) const TETRAHEDRON_EDGES: [[usize; 2]; 6] =
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];

impl TetMesh {
    /// The mesh of `nodes` (m) and `tetrahedra` (four indices into `nodes` each), checked.
    ///
    /// # Errors
    /// [`Error::Mesh`](crate::Error::Mesh) (path `"<memory>"`) for no tetrahedra, a non-finite
    /// node, an index past the nodes, a node in no tetrahedron, a tetrahedron whose volume is
    /// zero (tested exactly: its corners on one plane) or negative (inverted: its corners in the
    /// wrong order) or not positive and finite when computed in `f64` (nearly flat), corners
    /// closer than 1e-100 m or farther than 1e100 m apart (beyond what `f64` computes volumes
    /// of), or a face shared by more than two tetrahedra, or by
    /// two that lie on the same side of it (they overlap).
    pub fn new(nodes: Vec<DVec3>, tetrahedra: Vec<[u32; 4]>) -> Result<Self> {
        Self::checked(nodes, tetrahedra, Path::new("<memory>"), &|t| {
            format!("tetrahedron {t}")
        })
    }

    /// As [`TetMesh::new`], the errors naming `path` and each tetrahedron by `name`.
    pub(super) fn checked(
        nodes: Vec<DVec3>,
        tetrahedra: Vec<[u32; 4]>,
        path: &Path,
        name: &dyn Fn(usize) -> String,
    ) -> Result<Self> {
        if tetrahedra.is_empty() {
            return Err(tet_error(path, "has no tetrahedra".into()));
        }
        if let Some(i) = nodes.iter().position(|p| !p.is_finite()) {
            return Err(tet_error(
                path,
                format!("node {i} is not finite: {}", nodes[i]),
            ));
        }
        let mut used = vec![false; nodes.len()];
        for (t, tet) in tetrahedra.iter().enumerate() {
            for &i in tet {
                let Some(u) = used.get_mut(i as usize) else {
                    return Err(tet_error(
                        path,
                        format!("{} names node {i}, past the {} nodes", name(t), nodes.len()),
                    ));
                };
                *u = true;
            }
        }
        if let Some(i) = used.iter().position(|u| !u) {
            return Err(tet_error(path, format!("node {i} is in no tetrahedron")));
        }
        let mesh = Self { nodes, tetrahedra };
        for t in 0..mesh.tetrahedra.len() {
            mesh.check_volume(t, path, name)?;
        }
        mesh.check_faces(path, name)?;
        Ok(mesh)
    }

    /// The corners of tetrahedron `t`, m.
    #[must_use]
    pub fn corners(&self, t: usize) -> [DVec3; 4] {
        self.tetrahedra[t].map(|i| self.nodes[i as usize])
    }

    /// The volume of tetrahedron `t`, `(b - a) x (c - a) . (d - a) / 6` (m^3; positive in a
    /// checked mesh).
    #[must_use]
    pub fn volume(&self, t: usize) -> f64 {
        let [a, b, c, d] = self.corners(t);
        (b - a).cross(c - a).dot(d - a) / 6.0
    }

    fn check_volume(&self, t: usize, path: &Path, name: &dyn Fn(usize) -> String) -> Result<()> {
        let [a, b, c, d] = self.corners(t);
        let coord = |p: DVec3| robust::Coord3D {
            x: p.x,
            y: p.y,
            z: p.z,
        };
        // The exact predicate's products of three differences stay within f64's range (no
        // underflow to 0, no overflow) for edges from 1e-100 to 1e100 m.
        let span = [b - a, c - a, d - a]
            .iter()
            .fold(0.0f64, |m, e| m.max(e.abs().max_element()));
        if !(1e-100..=1e100).contains(&span) {
            return Err(tet_error(
                path,
                format!(
                    "{}: its corners (nodes {:?}) {a}, {b}, {c}, {d} are too large or too small apart ({span:e} m) for its volume to be computed (edges from 1e-100 to 1e100 m)",
                    name(t),
                    self.tetrahedra[t]
                ),
            ));
        }
        // orient3d is positive when d lies below the plane of a, b, c seen counter-clockwise
        // from above: the opposite of Gmsh's positive volume.
        let sign = -robust::orient3d(coord(a), coord(b), coord(c), coord(d));
        let nodes = self.tetrahedra[t];
        if sign == 0.0 {
            return Err(tet_error(
                path,
                format!(
                    "{} is degenerate: its corners (nodes {nodes:?}) {a}, {b}, {c}, {d} lie on one plane (zero volume)",
                    name(t)
                ),
            ));
        }
        let volume = self.volume(t);
        if sign > 0.0 && !(volume.is_finite() && volume > 0.0) {
            return Err(tet_error(
                path,
                format!(
                    "{} has the volume {volume:e} m^3 in floating point: it is nearly flat, or its coordinates (nodes {nodes:?}) {a}, {b}, {c}, {d} are too large or too small for its volume to be computed",
                    name(t)
                ),
            ));
        }
        if sign < 0.0 {
            return Err(tet_error(
                path,
                format!(
                    "{} is inverted: its volume is negative ({:e} m^3); its corners (nodes {nodes:?}) should be ordered so that (b - a) x (c - a) . (d - a) > 0, as Gmsh orders them",
                    name(t),
                    volume
                ),
            ));
        }
        Ok(())
    }

    /// Every face of every tetrahedron, outward, as (sorted corners, turned the other way from
    /// sorted, tetrahedron), sorted: a face's tetrahedra then sit side by side.
    fn sorted_faces(&self) -> Vec<([u32; 3], bool, u32)> {
        let mut faces = Vec::with_capacity(4 * self.tetrahedra.len());
        for (t, tet) in self.tetrahedra.iter().enumerate() {
            for f in TETRAHEDRON_FACES {
                let face = f.map(|c| tet[c]);
                let mut key = face;
                key.sort_unstable();
                // An even rotation of the sorted order keeps its turn; an odd one reverses it.
                let rotations = [
                    [key[0], key[1], key[2]],
                    [key[1], key[2], key[0]],
                    [key[2], key[0], key[1]],
                ];
                let same = rotations.contains(&face);
                faces.push((key, !same, t as u32));
            }
        }
        faces.sort_unstable();
        faces
    }

    fn check_faces(&self, path: &Path, name: &dyn Fn(usize) -> String) -> Result<()> {
        let faces = self.sorted_faces();
        for run in faces.chunk_by(|x, y| x.0 == y.0) {
            let ok = run.len() == 1 || (run.len() == 2 && run[0].1 != run[1].1);
            if ok {
                continue;
            }
            let tets: Vec<String> = run.iter().map(|f| name(f.2 as usize)).collect();
            let why = if run.len() > 2 {
                "a face belongs to at most two tetrahedra"
            } else {
                "they lie on the same side of it, so they overlap"
            };
            return Err(tet_error(
                path,
                format!(
                    "the face of nodes {:?} belongs to {}: {why}",
                    run[0].0,
                    tets.join(" and ")
                ),
            ));
        }
        Ok(())
    }

    /// The boundary of the mesh: every face that belongs to one tetrahedron only, wound
    /// counter-clockwise seen from outside, in tetrahedron order (the same on every run). Pass
    /// it, as mass indices, to [`Drawing::set_triangles`](crate::render::Drawing::set_triangles).
    #[must_use]
    pub fn boundary_triangles(&self) -> Vec<[u32; 3]> {
        let faces = self.sorted_faces();
        let mut alone: Vec<(u32, usize)> = Vec::new();
        for run in faces.chunk_by(|x, y| x.0 == y.0) {
            if let [(_, _, t)] = run {
                let tet = self.tetrahedra[*t as usize];
                let which = TETRAHEDRON_FACES
                    .iter()
                    .position(|f| {
                        let mut k = f.map(|c| tet[c]);
                        k.sort_unstable();
                        k == run[0].0
                    })
                    .unwrap_or(0);
                alone.push((*t, which));
            }
        }
        alone.sort_unstable();
        alone
            .into_iter()
            .map(|(t, f)| TETRAHEDRON_FACES[f].map(|c| self.tetrahedra[t as usize][c]))
            .collect()
    }
}
