//! The triangles of the obstacles: each [`Shape`] of a model turned, once per
//! [`Drawing`](super::Drawing), into a triangle list with outward normals (what
//! `obstacles_vs` in shaders/render.wgsl reads as a vertex buffer). Planes are not meshed: they
//! are infinite, so each becomes one [`GpuPlane`] instance that the shader draws as a patch
//! around the camera's target, as the ground is drawn.

use bytemuck::{Pod, Zeroable};

use crate::model::{Mesh, Shape};

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

/// The drawable geometry of a model's obstacles.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ObstacleMesh {
    /// Triangle list, three vertices per triangle, counter-clockwise seen from outside.
    pub(crate) vertices: Vec<GpuObstacleVertex>,
    /// The planes, drawn as patches.
    pub(crate) planes: Vec<GpuPlane>,
}

impl ObstacleMesh {
    /// The mesh of `shapes` (each valid, as [`Model::validate`](crate::Model::validate) checks):
    /// each plane an instance, every other shape its own triangles ([`Shape::mesh`]).
    pub(crate) fn new(shapes: &[Shape]) -> Self {
        let mut planes = Vec::new();
        let mut triangles = Mesh::default();
        for shape in shapes {
            match shape.plane() {
                Some((n, offset)) => planes.push(GpuPlane {
                    plane: [n.x as f32, n.y as f32, n.z as f32, offset as f32],
                }),
                None => shape.mesh(&mut triangles),
            }
        }
        let vertices = triangles
            .vertices
            .iter()
            .map(|(position, normal)| GpuObstacleVertex {
                position: position.as_vec3().to_array(),
                normal: normal.as_vec3().to_array(),
            })
            .collect();
        Self { vertices, planes }
    }
}

#[cfg(test)]
mod tests {
    use glam::{DVec2, DVec3};

    use super::*;
    use crate::model::Heightfield;

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
        let bottom = h.skirt_bottom();
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
