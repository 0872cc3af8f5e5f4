//! The triangles of the obstacles: each [`Shape`] of a model turned, once per
//! [`Drawing`](super::Drawing), into a triangle list with outward normals (what
//! `obstacles_vs` in shaders/render.wgsl reads as a vertex buffer). Planes are not meshed: they
//! are infinite, so each becomes one [`GpuPlane`] instance that the shader draws as a patch
//! around the camera's target, as the ground is drawn.

use std::f64::consts::{PI, TAU};

use bytemuck::{Pod, Zeroable};
use glam::{DQuat, DVec2, DVec3};

use crate::model::{Heightfield, Shape};

/// One vertex of an obstacle triangle (WGSL `ObstacleIn`, vertex attributes 0 and 1).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub(crate) struct GpuObstacleVertex {
    /// Position, m.
    pub(crate) position: [f32; 3],
    /// Outward unit normal of the surface there.
    pub(crate) normal: [f32; 3],
}
const _: () = assert!(std::mem::size_of::<GpuObstacleVertex>() == 24);

/// One plane obstacle (WGSL `PlaneIn`, instance attribute 0): xyz the outward unit normal `n`,
/// w the offset (m) of the plane `n . x = w`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub(crate) struct GpuPlane {
    pub(crate) plane: [f32; 4],
}
const _: () = assert!(std::mem::size_of::<GpuPlane>() == 16);

/// Segments around the axis of a sphere or capsule.
const AROUND: usize = 32;
/// Segments from pole to pole of a sphere (each capsule cap gets half).
const POLE_TO_POLE: usize = 16;

/// The drawable geometry of a model's obstacles.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ObstacleMesh {
    /// Triangle list, three vertices per triangle, counter-clockwise seen from outside.
    pub(crate) vertices: Vec<GpuObstacleVertex>,
    /// The planes, drawn as patches.
    pub(crate) planes: Vec<GpuPlane>,
}

impl ObstacleMesh {
    /// The mesh of `shapes` (each valid, as [`Model::validate`](crate::Model::validate) checks).
    pub(crate) fn new(shapes: &[Shape]) -> Self {
        let mut mesh = Self::default();
        for shape in shapes {
            mesh.add(shape);
        }
        mesh
    }

    fn add(&mut self, shape: &Shape) {
        match shape {
            Shape::Plane { normal, offset } => {
                let n = normal.normalize();
                self.planes.push(GpuPlane {
                    plane: [n.x as f32, n.y as f32, n.z as f32, *offset as f32],
                });
            }
            Shape::Box {
                centre,
                half_extents,
            } => self.cuboid(*centre, *half_extents, DQuat::IDENTITY),
            Shape::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => self.cuboid(*centre, *half_extents, DQuat::from_scaled_axis(*rotation)),
            Shape::Sphere { centre, radius } => self.capsule(*centre, *centre, *radius),
            Shape::Capsule { a, b, radius } => self.capsule(*a, *b, *radius),
            Shape::Heightfield(h) => self.heightfield(h),
        }
    }

    fn push(&mut self, position: DVec3, normal: DVec3) {
        self.vertices.push(GpuObstacleVertex {
            position: position.as_vec3().to_array(),
            normal: normal.as_vec3().to_array(),
        });
    }

    /// The quad `a b c d` (counter-clockwise seen from outside) as two triangles, normals per
    /// corner; a triangle with two corners at the same place (at a pole) is left out.
    fn quad(&mut self, corners: [(DVec3, DVec3); 4]) {
        for triangle in [[0, 1, 2], [0, 2, 3]] {
            let [a, b, c] = triangle.map(|k| corners[k].0);
            if a == b || b == c || c == a {
                continue;
            }
            for k in triangle {
                self.push(corners[k].0, corners[k].1);
            }
        }
    }

    /// A box of half extents `h` about `centre`, turned by `rotation`: six flat faces.
    fn cuboid(&mut self, centre: DVec3, h: DVec3, rotation: DQuat) {
        for axis in 0..3 {
            for sign in [-1.0, 1.0] {
                let mut n = DVec3::ZERO;
                n[axis] = sign;
                // Two directions in the face such that u x v = n.
                let mut u = DVec3::ZERO;
                u[(axis + 1) % 3] = 1.0;
                let v = n.cross(u);
                let corner = |a: f64, b: f64| {
                    let local = (n + a * u + b * v) * h;
                    (centre + rotation * local, rotation * n)
                };
                self.quad([
                    corner(-1.0, -1.0),
                    corner(1.0, -1.0),
                    corner(1.0, 1.0),
                    corner(-1.0, 1.0),
                ]);
            }
        }
    }

    /// The points within `radius` of the segment `a`-`b`: a cylinder along the axis (none when
    /// `a == b`, a sphere) closed by two half spheres, smooth normals.
    fn capsule(&mut self, a: DVec3, b: DVec3, radius: f64) {
        let axis = (b - a).try_normalize().unwrap_or(DVec3::Z);
        let u = axis.any_orthonormal_vector();
        let v = axis.cross(u); // (u, v, axis) right-handed: quads below wind outward
                               // Latitude rings from the pole at a (-axis) to the pole at b (+axis): those of the
                               // lower half on a, those of the upper half on b, the equator on both, so the band
                               // between the two equators is the cylinder.
        let half = POLE_TO_POLE / 2;
        let rings: Vec<(f64, f64, DVec3)> = (0..=POLE_TO_POLE)
            .flat_map(|k| {
                // cos and sin of the latitude, exact at the poles (one point each).
                let (cos, sin) = match k {
                    0 => (0.0, -1.0),
                    k if k == POLE_TO_POLE => (0.0, 1.0),
                    k => {
                        let lat = -0.5 * PI + PI * k as f64 / POLE_TO_POLE as f64;
                        (lat.cos(), lat.sin())
                    }
                };
                let on_a = (k <= half).then_some((cos, sin, a));
                let on_b = (k >= half).then_some((cos, sin, b));
                on_a.into_iter().chain(on_b)
            })
            .collect();
        let point = |(cos, sin, centre): (f64, f64, DVec3), j: usize| {
            let lon = TAU * j as f64 / AROUND as f64;
            let n = cos * (lon.cos() * u + lon.sin() * v) + sin * axis;
            (centre + radius * n, n)
        };
        for pair in rings.windows(2) {
            for j in 0..AROUND {
                let next = (j + 1) % AROUND;
                self.quad([
                    point(pair[0], j),
                    point(pair[0], next),
                    point(pair[1], next),
                    point(pair[1], j),
                ]);
            }
        }
    }

    /// The heightfield's surface (two triangles per cell, normals from the gradient of the
    /// bilinear surface at each sample) and four side walls down to [`skirt_bottom`].
    fn heightfield(&mut self, h: &Heightfield) {
        let sample = |i: usize, j: usize| {
            let z = h.heights[j * h.columns + i];
            h.origin + DVec3::new(i as f64 * h.spacing.x, j as f64 * h.spacing.y, z)
        };
        let normal = |i: usize, j: usize| {
            // Central differences inside, one-sided at the edges.
            let (i0, i1) = (i.saturating_sub(1), (i + 1).min(h.columns - 1));
            let (j0, j1) = (j.saturating_sub(1), (j + 1).min(h.rows - 1));
            let at = |i: usize, j: usize| h.heights[j * h.columns + i];
            let g = DVec2::new(
                (at(i1, j) - at(i0, j)) / ((i1 - i0) as f64 * h.spacing.x),
                (at(i, j1) - at(i, j0)) / ((j1 - j0) as f64 * h.spacing.y),
            );
            DVec3::new(-g.x, -g.y, 1.0).normalize()
        };
        let corner = |i: usize, j: usize| (sample(i, j), normal(i, j));
        for j in 0..h.rows - 1 {
            for i in 0..h.columns - 1 {
                self.quad([
                    corner(i, j),
                    corner(i + 1, j),
                    corner(i + 1, j + 1),
                    corner(i, j + 1),
                ]);
            }
        }
        let bottom = skirt_bottom(h);
        let wall = |p: DVec3| DVec3::new(p.x, p.y, bottom);
        // Each side walked with the outside on its right-hand side seen from above, so the quad
        // (top p, top q, bottom q, bottom p) faces out.
        let sides: [(Vec<(usize, usize)>, DVec3); 4] = [
            ((0..h.columns).map(|i| (i, 0)).collect(), -DVec3::Y),
            ((0..h.rows).map(|j| (h.columns - 1, j)).collect(), DVec3::X),
            (
                (0..h.columns).rev().map(|i| (i, h.rows - 1)).collect(),
                DVec3::Y,
            ),
            ((0..h.rows).rev().map(|j| (0, j)).collect(), -DVec3::X),
        ];
        for (path, n) in sides {
            for w in path.windows(2) {
                let (p, q) = (sample(w[0].0, w[0].1), sample(w[1].0, w[1].1));
                self.quad([(wall(p), n), (wall(q), n), (q, n), (p, n)]);
            }
        }
    }
}

/// How far down the side walls of a heightfield are drawn (its solid has no bottom): to the
/// ground `z = 0` or the lowest height, whichever is lower, less a quarter of the grid's larger
/// side, m.
pub(crate) fn skirt_bottom(h: &Heightfield) -> f64 {
    let lowest = h
        .heights
        .iter()
        .fold(f64::INFINITY, |m, &z| m.min(z + h.origin.z));
    lowest.min(0.0) - 0.25 * h.extent().max_element()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(p: [f32; 3]) -> DVec3 {
        DVec3::new(f64::from(p[0]), f64::from(p[1]), f64::from(p[2]))
    }

    /// Every triangle of `shape`'s mesh lies on its surface (each vertex within `tol` m of it),
    /// winds counter-clockwise seen from outside (its geometric normal agrees with the vertex
    /// normals), and the vertex normals are the shape's outward normals.
    fn check_on_surface(shape: &Shape, tol: f64) -> usize {
        let mesh = ObstacleMesh::new(std::slice::from_ref(shape));
        assert_eq!(mesh.vertices.len() % 3, 0);
        for t in mesh.vertices.chunks_exact(3) {
            let (a, b, c) = (v(t[0].position), v(t[1].position), v(t[2].position));
            let face = (b - a).cross(c - a);
            for x in t {
                let n = v(x.normal);
                assert!(face.dot(n) > 0.0, "{shape:?}: triangle {t:?} winds inward");
                let at = shape.surface(v(x.position)).unwrap();
                assert!(
                    at.distance.abs() < tol,
                    "{shape:?}: vertex {x:?} off the surface"
                );
            }
        }
        mesh.vertices.len() / 3
    }

    #[test]
    fn box_meshes_are_twelve_outward_triangles_on_the_surface() {
        let boxed = Shape::Box {
            centre: DVec3::new(1.0, 2.0, 0.5),
            half_extents: DVec3::new(0.5, 0.25, 0.5),
        };
        // f32 positions of values near 2 m: rounding below 1e-6 m.
        assert_eq!(check_on_surface(&boxed, 1e-6), 12);
        let turned = Shape::OrientedBox {
            centre: DVec3::new(0.0, 0.0, 1.0),
            half_extents: DVec3::new(0.3, 0.2, 0.1),
            rotation: DVec3::new(0.4, -0.2, 1.0),
        };
        assert_eq!(check_on_surface(&turned, 1e-6), 12);
    }

    #[test]
    fn spheres_and_capsules_are_closed_and_on_the_surface() {
        let sphere = Shape::Sphere {
            centre: DVec3::new(0.0, 1.0, 0.5),
            radius: 0.5,
        };
        check_on_surface(&sphere, 1e-6);
        let capsule = Shape::Capsule {
            a: DVec3::new(-0.5, 0.0, 0.3),
            b: DVec3::new(0.5, 0.2, 0.6),
            radius: 0.2,
        };
        check_on_surface(&capsule, 1e-6);
        // Closed: every edge is shared by exactly two triangles (checked on positions rounded
        // to 1e-5 m, far below the 0.02 m between neighbouring vertices).
        let mesh = ObstacleMesh::new(&[capsule]);
        let key = |p: [f32; 3]| p.map(|c| (c * 1e5).round() as i64);
        let mut edges = std::collections::HashMap::new();
        for t in mesh.vertices.chunks_exact(3) {
            for k in 0..3 {
                let (p, q) = (key(t[k].position), key(t[(k + 1) % 3].position));
                if p != q {
                    *edges.entry((p.min(q), p.max(q))).or_insert(0) += 1;
                }
            }
        }
        assert!(edges.values().all(|&n| n == 2));
    }

    #[test]
    fn heightfield_mesh_follows_the_samples_and_has_walls() {
        let h = Heightfield::from_fn(
            DVec3::new(-1.0, -1.0, 0.1),
            DVec2::splat(0.5),
            5,
            4,
            |x, y| 0.1 * x - 0.05 * y,
        );
        // A planar heightfield: its bilinear surface is the plane the samples lie on.
        let shape = Shape::Heightfield(h.clone());
        let mesh = ObstacleMesh::new(&[shape]);
        let cells = 4 * 3;
        let wall_quads = 2 * (4 + 3);
        assert_eq!(mesh.vertices.len(), 6 * (cells + wall_quads));
        for x in &mesh.vertices[..6 * cells] {
            let p = v(x.position);
            assert!((h.height(p.x, p.y).unwrap() - p.z).abs() < 1e-6);
            let n = DVec3::new(-0.1, 0.05, 1.0).normalize();
            assert!((v(x.normal) - n).length() < 1e-6);
        }
        let bottom = skirt_bottom(&h);
        // Lowest height 0.1 - 0.05 * 1.5 = 0.025 m; ground 0; less 2 m / 4.
        assert!((bottom + 0.5).abs() < 1e-12);
        assert!(mesh.vertices[6 * cells..]
            .iter()
            .any(|x| (f64::from(x.position[2]) - bottom).abs() < 1e-6));
    }

    #[test]
    fn planes_become_instances_with_unit_normals() {
        let mesh = ObstacleMesh::new(&[Shape::Plane {
            normal: DVec3::new(0.0, 3.0, 4.0),
            offset: 0.5,
        }]);
        assert!(mesh.vertices.is_empty());
        assert_eq!(
            mesh.planes,
            vec![GpuPlane {
                plane: [0.0, 0.6, 0.8, 0.5]
            }]
        );
    }
}
