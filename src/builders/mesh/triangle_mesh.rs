//! [`TriangleMesh`]: vertices and triangles, welded, and the checks that make it a closed
//! surface (finite corners, no degenerate triangle, every edge shared by exactly two triangles
//! that run it in opposite directions).

use std::path::Path;

use glam::DVec3;

use super::mesh_error;
use crate::error::Result;

/// A triangle mesh: vertices (m, in the mesh's own frame) and triangles of three vertex
/// indices each, in the order the file gave them.
///
/// [`TriangleMesh::read`] reads one from an OBJ or STL file; [`TriangleMesh::new`] makes one
/// from arrays (welding equal vertices). Either way the mesh is checked to be a closed surface
/// ([`TriangleMesh::check_closed`]) before it is voxelized.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriangleMesh {
    /// The distinct vertices, m.
    pub vertices: Vec<DVec3>,
    /// Each triangle's three vertex indices.
    pub triangles: Vec<[u32; 3]>,
}

impl TriangleMesh {
    /// A mesh of the corners `vertices` (m) and the triangles `triangles` (indices into
    /// `vertices`), with vertices at the same position merged into one (the first), so that
    /// triangles that meet at a corner share its index. Positions are compared exactly (bit for
    /// bit, `-0.0` as `0.0`).
    ///
    /// # Errors
    /// [`Error::Mesh`](crate::Error::Mesh) (path `"<memory>"`) for a non-finite vertex or a
    /// triangle index past the vertices.
    pub fn new(vertices: &[DVec3], triangles: &[[u32; 3]]) -> Result<Self> {
        Self::welded(vertices, triangles, Path::new("<memory>"))
    }

    /// As [`TriangleMesh::new`], the errors naming `path`.
    pub(super) fn welded(vertices: &[DVec3], triangles: &[[u32; 3]], path: &Path) -> Result<Self> {
        for (i, v) in vertices.iter().enumerate() {
            if !v.is_finite() {
                return Err(mesh_error(path, format!("vertex {i} is not finite: {v}")));
            }
        }
        // Sort the vertices by their bits (after -0.0 -> 0.0) and keep the first of each run:
        // the same on every machine, whatever the order the file lists them in.
        let key = |v: DVec3| (v + DVec3::ZERO).to_array().map(f64::to_bits);
        let mut order: Vec<u32> = (0..vertices.len() as u32).collect();
        order.sort_by_key(|&i| (key(vertices[i as usize]), i));
        let mut merged = vec![0u32; vertices.len()];
        let mut kept: Vec<u32> = Vec::new();
        for (n, &i) in order.iter().enumerate() {
            let same = n > 0 && key(vertices[order[n - 1] as usize]) == key(vertices[i as usize]);
            if !same {
                kept.push(i);
            }
            merged[i as usize] = kept.len() as u32 - 1;
        }
        // Number the kept vertices in file order.
        let mut by_file: Vec<u32> = (0..kept.len() as u32).collect();
        by_file.sort_by_key(|&k| kept[k as usize]);
        let mut renumber = vec![0u32; kept.len()];
        for (new, &k) in by_file.iter().enumerate() {
            renumber[k as usize] = new as u32;
        }
        let mut out = Self {
            vertices: by_file
                .iter()
                .map(|&k| vertices[kept[k as usize] as usize] + DVec3::ZERO)
                .collect(),
            triangles: Vec::with_capacity(triangles.len()),
        };
        for (t, tri) in triangles.iter().enumerate() {
            let mut corners = [0u32; 3];
            for (c, &i) in corners.iter_mut().zip(tri) {
                let Some(&m) = merged.get(i as usize) else {
                    return Err(mesh_error(
                        path,
                        format!(
                            "triangle {t} names vertex {i}, past the {} vertices",
                            vertices.len()
                        ),
                    ));
                };
                *c = renumber[m as usize];
            }
            out.triangles.push(corners);
        }
        Ok(out)
    }

    /// The corners of triangle `t`, m.
    #[must_use]
    pub fn corners(&self, t: usize) -> [DVec3; 3] {
        self.triangles[t].map(|i| self.vertices[i as usize])
    }

    /// The smallest box holding every vertex: `(min, max)` corners in m, or `None` without
    /// vertices.
    #[must_use]
    pub fn bounds(&self) -> Option<(DVec3, DVec3)> {
        let first = *self.vertices.first()?;
        Some(
            self.vertices
                .iter()
                .fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v))),
        )
    }

    /// Checks that the mesh bounds a solid: it has triangles, none of them degenerate (two
    /// corners at one point, or three on a line, tested exactly), and it is a closed, oriented
    /// 2-manifold: every edge belongs to exactly two triangles, which run it in opposite
    /// directions (so their normals agree on which side is outside). Self-intersections are not
    /// looked for: the voxelizer then fills what the even-odd rule says is inside.
    ///
    /// # Errors
    /// [`Error::Mesh`](crate::Error::Mesh) naming `path` and the first triangle or edge (its
    /// vertex indices and positions) that breaks a rule.
    pub fn check_closed(&self, path: &Path) -> Result<()> {
        if self.triangles.is_empty() {
            return Err(mesh_error(path, "has no triangles".into()));
        }
        for t in 0..self.triangles.len() {
            self.check_triangle(t, path)?;
        }
        self.check_edges(path)
    }

    fn check_triangle(&self, t: usize, path: &Path) -> Result<()> {
        let [a, b, c] = self.triangles[t];
        if a == b || b == c || c == a {
            let [p, ..] = self.corners(t);
            return Err(mesh_error(
                path,
                format!("triangle {t} is degenerate: two of its corners are the same point {p}"),
            ));
        }
        let [p, q, r] = self.corners(t);
        // Collinear in 3D exactly when collinear in all three coordinate planes.
        let flat = |x: fn(DVec3) -> f64, y: fn(DVec3) -> f64| {
            let c = |v: DVec3| robust::Coord { x: x(v), y: y(v) };
            robust::orient2d(c(p), c(q), c(r)) == 0.0
        };
        if flat(|v| v.x, |v| v.y) && flat(|v| v.y, |v| v.z) && flat(|v| v.z, |v| v.x) {
            return Err(mesh_error(
                path,
                format!("triangle {t} is degenerate: its corners {p}, {q}, {r} lie on one line (zero area)"),
            ));
        }
        Ok(())
    }

    fn check_edges(&self, path: &Path) -> Result<()> {
        // Every edge as (low vertex, high vertex, runs low -> high, triangle), sorted: the
        // triangles of one edge are then side by side.
        let mut edges: Vec<(u32, u32, bool, u32)> = Vec::with_capacity(3 * self.triangles.len());
        for (t, tri) in self.triangles.iter().enumerate() {
            for e in 0..3 {
                let (a, b) = (tri[e], tri[(e + 1) % 3]);
                edges.push((a.min(b), a.max(b), a < b, t as u32));
            }
        }
        edges.sort_unstable();
        let mut start = 0;
        while start < edges.len() {
            let (a, b, ..) = edges[start];
            let end = start + edges[start..].partition_point(|e| (e.0, e.1) == (a, b));
            let run = &edges[start..end];
            if run.len() == 2 && run[0].2 != run[1].2 {
                start = end;
                continue;
            }
            let at = format!(
                "edge between vertices {a} {} and {b} {}",
                self.vertices[a as usize], self.vertices[b as usize]
            );
            let triangles: Vec<u32> = run.iter().map(|e| e.3).collect();
            if run.len() == 1 {
                return Err(mesh_error(path, format!("{at} belongs to triangle {} only: the mesh is open (not watertight), so it has no inside", run[0].3)));
            }
            if run.len() > 2 {
                return Err(mesh_error(path, format!("{at} belongs to {} triangles {triangles:?}: every edge of a closed surface belongs to exactly two", run.len())));
            }
            return Err(mesh_error(path, format!("{at}: triangles {triangles:?} both run it the same way, so their orientations disagree (one is flipped)")));
        }
        Ok(())
    }
}
