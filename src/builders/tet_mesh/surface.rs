//! A tetrahedral mesh body's boundary riding on its nodes: what the renderer draws of it.

use super::TetMeshBody;
use crate::error::Result;
use crate::render::{EmbeddedVertex, MeshSurface};

impl TetMeshBody {
    /// The body's boundary triangles ([`TetMesh::boundary_triangles`](super::TetMesh::boundary_triangles):
    /// each face of one tetrahedron only, wound counter-clockwise from outside) as a
    /// [`MeshSurface`] whose every vertex is one node's mass (weight 1), its masses numbered from
    /// `first_mass`: the model index of the body's first mass (`model.bodies[b].masses.start`).
    /// Reads and checks the mesh file again, as [`Builder::build`](crate::Builder::build) does.
    ///
    /// # Errors
    /// [`TetMeshBody::read_mesh`]'s errors.
    pub fn surface(&self, first_mass: u32) -> Result<MeshSurface> {
        let mesh = self.read_mesh()?;
        let mut weights = [0.0; 8];
        weights[0] = 1.0;
        let vertices = (0..mesh.nodes.len() as u32)
            .map(|node| EmbeddedVertex {
                masses: [first_mass + node; 8],
                weights,
            })
            .collect();
        Ok(MeshSurface {
            vertices,
            triangles: mesh.boundary_triangles(),
        })
    }
}
