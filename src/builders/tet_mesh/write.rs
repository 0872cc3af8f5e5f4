//! A [`TetMesh`] written as a Gmsh MSH file, ASCII format 4.1 or 2.2 (for tests, examples and
//! files made in code).

use std::fmt::Write;

use super::TetMesh;

impl TetMesh {
    /// The mesh as an ASCII Gmsh MSH file of format 4.1: one volume entity, nodes tagged from 1
    /// in order, the tetrahedra as element type 4 tagged from 1. Coordinates are written in
    /// full (`f64`'s shortest round-trip form), so [`TetMesh::from_msh`] reads the same mesh.
    #[must_use]
    pub fn to_msh(&self) -> String {
        let (n, t) = (self.nodes.len(), self.tetrahedra.len());
        let mut s = String::from("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n");
        let _ = writeln!(s, "1 {n} 1 {n}\n3 1 0 {n}");
        for i in 1..=n {
            let _ = writeln!(s, "{i}");
        }
        for p in &self.nodes {
            let _ = writeln!(s, "{} {} {}", p.x, p.y, p.z);
        }
        let _ = writeln!(s, "$EndNodes\n$Elements\n1 {t} 1 {t}\n3 1 4 {t}");
        for (e, [a, b, c, d]) in self.tetrahedra.iter().enumerate() {
            let _ = writeln!(s, "{} {} {} {} {}", e + 1, a + 1, b + 1, c + 1, d + 1);
        }
        s.push_str("$EndElements\n");
        s
    }

    /// The mesh as an ASCII Gmsh MSH file of format 2.2 (nodes and tetrahedra tagged from 1,
    /// each tetrahedron with two tags: physical 1, elementary 1).
    #[must_use]
    pub fn to_msh2(&self) -> String {
        let mut s = String::from("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n");
        let _ = writeln!(s, "{}", self.nodes.len());
        for (i, p) in self.nodes.iter().enumerate() {
            let _ = writeln!(s, "{} {} {} {}", i + 1, p.x, p.y, p.z);
        }
        let _ = writeln!(s, "$EndNodes\n$Elements\n{}", self.tetrahedra.len());
        for (e, [a, b, c, d]) in self.tetrahedra.iter().enumerate() {
            let _ = writeln!(
                s,
                "{} 4 2 1 1 {} {} {} {}",
                e + 1,
                a + 1,
                b + 1,
                c + 1,
                d + 1
            );
        }
        s.push_str("$EndElements\n");
        s
    }
}
