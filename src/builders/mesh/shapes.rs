//! Closed meshes made in code: a box, an icosphere and a bunny-like blob (for tests, examples,
//! benchmarks and bodies that need no file).

use glam::DVec3;

use super::TriangleMesh;

impl TriangleMesh {
    /// The box from corner `min` to corner `max` (m): 8 vertices, 12 triangles facing out.
    #[must_use]
    pub fn cuboid(min: DVec3, max: DVec3) -> Self {
        let vertices = (0..8)
            .map(|c| {
                DVec3::new(
                    if c & 1 == 0 { min.x } else { max.x },
                    if c & 2 == 0 { min.y } else { max.y },
                    if c & 4 == 0 { min.z } else { max.z },
                )
            })
            .collect();
        // Corner c = x + 2 y + 4 z; each face as two triangles, counterclockwise from outside.
        let faces = [
            [0, 2, 3, 1], // z = min
            [4, 5, 7, 6], // z = max
            [0, 1, 5, 4], // y = min
            [2, 6, 7, 3], // y = max
            [0, 4, 6, 2], // x = min
            [1, 3, 7, 5], // x = max
        ];
        let triangles = faces
            .iter()
            .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
            .collect();
        Self {
            vertices,
            triangles,
        }
    }

    /// The sphere of radius `radius` (m) about the origin approximated by an icosahedron whose
    /// faces are cut `subdivisions` times into four, the new vertices pushed out to the sphere:
    /// `20 * 4^subdivisions` triangles facing out, every vertex on the sphere (to rounding).
    #[must_use]
    pub fn icosphere(radius: f64, subdivisions: u32) -> Self {
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        let mut vertices: Vec<DVec3> = [
            [-1.0, phi, 0.0],
            [1.0, phi, 0.0],
            [-1.0, -phi, 0.0],
            [1.0, -phi, 0.0],
            [0.0, -1.0, phi],
            [0.0, 1.0, phi],
            [0.0, -1.0, -phi],
            [0.0, 1.0, -phi],
            [phi, 0.0, -1.0],
            [phi, 0.0, 1.0],
            [-phi, 0.0, -1.0],
            [-phi, 0.0, 1.0],
        ]
        .iter()
        .map(|&v| DVec3::from_array(v).normalize())
        .collect();
        let mut triangles: Vec<[u32; 3]> = vec![
            [0, 11, 5],
            [0, 5, 1],
            [0, 1, 7],
            [0, 7, 10],
            [0, 10, 11],
            [1, 5, 9],
            [5, 11, 4],
            [11, 10, 2],
            [10, 7, 6],
            [7, 1, 8],
            [3, 9, 4],
            [3, 4, 2],
            [3, 2, 6],
            [3, 6, 8],
            [3, 8, 9],
            [4, 9, 5],
            [2, 4, 11],
            [6, 2, 10],
            [8, 6, 7],
            [9, 8, 1],
        ];
        for _ in 0..subdivisions {
            let mut midpoints = std::collections::BTreeMap::new();
            let mut midpoint = |a: u32, b: u32, vertices: &mut Vec<DVec3>| {
                *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                    let m = (vertices[a as usize] + vertices[b as usize]).normalize();
                    vertices.push(m);
                    vertices.len() as u32 - 1
                })
            };
            let mut finer = Vec::with_capacity(4 * triangles.len());
            for [a, b, c] in triangles {
                let ab = midpoint(a, b, &mut vertices);
                let bc = midpoint(b, c, &mut vertices);
                let ca = midpoint(c, a, &mut vertices);
                finer.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
            }
            triangles = finer;
        }
        Self {
            vertices: vertices.into_iter().map(|v| v * radius).collect(),
            triangles,
        }
    }
}

/// A bump of [`TriangleMesh::bunny`]'s surface: along `towards` (a direction), of relative
/// height `height` and angular width `width` (the bump falls to 1/e where `1 - cos(angle) =
/// width`).
struct Bump {
    towards: DVec3,
    height: f64,
    width: f64,
}

impl TriangleMesh {
    /// A bunny-like blob about 11 cm long (m): an ellipsoidal body (5 cm half-length along x,
    /// 3.5 cm across, 3 cm high about the origin), a head in front (+x, up) and two long ears
    /// above it; the [`TriangleMesh::icosphere`] of `subdivisions` with each vertex pushed out
    /// along its direction (a star-shaped surface: closed, consistently oriented and free of
    /// self-intersections by construction). `assets/bunny.obj` is `bunny(3)` written by
    /// [`TriangleMesh::to_obj`].
    #[must_use]
    pub fn bunny(subdivisions: u32) -> Self {
        let bumps = [
            Bump {
                towards: DVec3::new(1.0, 0.0, 0.6),
                height: 0.35,
                width: 0.12,
            },
            Bump {
                towards: DVec3::new(0.55, 0.35, 1.0),
                height: 1.4,
                width: 0.025,
            },
            Bump {
                towards: DVec3::new(0.55, -0.35, 1.0),
                height: 1.4,
                width: 0.025,
            },
        ];
        let mut mesh = Self::icosphere(1.0, subdivisions);
        for v in &mut mesh.vertices {
            let d = v.normalize();
            let lift: f64 = bumps
                .iter()
                .map(|b| b.height * (-(1.0 - d.dot(b.towards.normalize())) / b.width).exp())
                .sum();
            *v = d * (1.0 + lift) * DVec3::new(0.05, 0.035, 0.03);
        }
        mesh
    }
}
