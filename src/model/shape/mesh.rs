//! [`Mesh`]: a shape's surface as triangles with outward normals, in f64, made by each kind of
//! shape in its own file ([`Shape::mesh`](super::Shape::mesh)); the renderer turns it into
//! its vertex buffer.

use glam::DVec3;

/// A triangle list: three `(position, normal)` vertices per triangle (m, outward unit normal),
/// counter-clockwise seen from outside.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Mesh {
    /// The vertices, three per triangle.
    pub(crate) vertices: Vec<(DVec3, DVec3)>,
}

impl Mesh {
    /// The quad `a b c d` (counter-clockwise seen from outside) as two triangles, normals per
    /// corner; a triangle with two corners at the same place (at a pole) is left out.
    pub(crate) fn quad(&mut self, corners: [(DVec3, DVec3); 4]) {
        for triangle in [[0, 1, 2], [0, 2, 3]] {
            let [a, b, c] = triangle.map(|k| corners[k].0);
            if a == b || b == c || c == a {
                continue;
            }
            for k in triangle {
                self.vertices.push(corners[k]);
            }
        }
    }
}
