//! Writing a [`TriangleMesh`] as OBJ or STL text or bytes (generated assets, tests).

use std::fmt::Write;

use super::TriangleMesh;

impl TriangleMesh {
    /// The mesh as the text of a Wavefront OBJ file: one `v` line per vertex (each coordinate
    /// in the shortest form that reads back to the same `f64`), one `f` line per triangle.
    #[must_use]
    pub fn to_obj(&self) -> String {
        let mut text = String::new();
        for v in &self.vertices {
            let _ = writeln!(text, "v {:?} {:?} {:?}", v.x, v.y, v.z);
        }
        for [a, b, c] in &self.triangles {
            let _ = writeln!(text, "f {} {} {}", a + 1, b + 1, c + 1);
        }
        text
    }

    /// The mesh as the bytes of a binary STL file (80-byte header, count, 50 bytes per
    /// triangle with its unit normal). STL stores `f32`: coordinates are rounded to it.
    #[must_use]
    pub fn to_stl_binary(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(84 + 50 * self.triangles.len());
        let mut header = [b' '; 80];
        header[..11].copy_from_slice(b"hooke mesh ");
        bytes.extend_from_slice(&header);
        bytes.extend_from_slice(&(self.triangles.len() as u32).to_le_bytes());
        for t in 0..self.triangles.len() {
            for v in self.facet(t) {
                for c in v {
                    bytes.extend_from_slice(&c.to_le_bytes());
                }
            }
            bytes.extend_from_slice(&[0, 0]);
        }
        bytes
    }

    /// The mesh as the text of an ASCII STL file (`solid hooke` ... `endsolid hooke`), each
    /// coordinate the shortest text of its `f32`.
    #[must_use]
    pub fn to_stl_ascii(&self) -> String {
        let mut text = String::from("solid hooke\n");
        for t in 0..self.triangles.len() {
            let [n, a, b, c] = self.facet(t);
            let _ = writeln!(text, "facet normal {:?} {:?} {:?}", n[0], n[1], n[2]);
            text.push_str("outer loop\n");
            for v in [a, b, c] {
                let _ = writeln!(text, "vertex {:?} {:?} {:?}", v[0], v[1], v[2]);
            }
            text.push_str("endloop\nendfacet\n");
        }
        text.push_str("endsolid hooke\n");
        text
    }

    /// Triangle `t` as STL stores it: unit normal, then the three corners, in `f32`.
    fn facet(&self, t: usize) -> [[f32; 3]; 4] {
        let [p, q, r] = self.corners(t);
        let n = (q - p).cross(r - p).normalize_or_zero();
        [n, p, q, r].map(|v| v.as_vec3().to_array())
    }
}
