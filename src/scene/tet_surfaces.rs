//! The boundary triangles of a scene's tetrahedral mesh bodies, as the model's masses: the
//! surface `hooke run --gif` shades ([`RecordOptions::triangles`](crate::render::RecordOptions)).

use super::body_kind::{resolve, BodyKind};
use super::description::Scene;
use crate::builders::TetMeshBody;
use crate::error::Result;
use crate::model::Model;

impl Scene {
    /// The boundary of every tetrahedral mesh body of the scene
    /// ([`TetMesh::boundary_triangles`](crate::builders::TetMesh::boundary_triangles): each face
    /// of one tetrahedron only, wound counter-clockwise from outside), as model mass indices,
    /// in body order. `model` is [`Scene::to_model`]'s model of this scene; the mesh files are
    /// read again.
    ///
    /// # Errors
    /// The tetrahedral mesh bodies' errors, as [`Scene::to_model`] gives them.
    pub fn tet_mesh_triangles(&self, model: &Model) -> Result<Vec<[u32; 3]>> {
        let mut triangles = Vec::new();
        for (spec, body) in self.bodies.iter().zip(&model.bodies) {
            let BodyKind::TetMesh(mesh) = &spec.body else {
                continue;
            };
            let at = TetMeshBody {
                path: resolve(self.base_dir.as_deref(), &mesh.path),
                ..mesh.clone()
            };
            let first = body.masses.start as u32;
            triangles.extend(
                at.read_mesh()?
                    .boundary_triangles()
                    .into_iter()
                    .map(|t| t.map(|m| first + m)),
            );
        }
        Ok(triangles)
    }
}
