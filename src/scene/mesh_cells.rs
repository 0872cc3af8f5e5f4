//! The voxels of a scene's mesh bodies as hexahedral cells of the model's masses: the surface
//! `hooke run --gif` shades ([`RecordOptions::cells`](crate::render::RecordOptions)).

use super::body_kind::{resolve, BodyKind};
use super::description::Scene;
use crate::builders::MeshBody;
use crate::error::Result;
use crate::model::Model;

impl Scene {
    /// The voxels of every mesh body of the scene, each as its 8 corner masses (model indices,
    /// corner `x + 2 y + 4 z`), in body order: through
    /// [`exterior_triangles`](crate::render::exterior_triangles) the surface of the voxels is
    /// drawn. `model` is
    /// [`Scene::to_model`]'s model of this scene; the mesh files are read and voxelized again.
    ///
    /// # Errors
    /// The mesh bodies' errors, as [`Scene::to_model`] gives them.
    pub fn mesh_cells(&self, model: &Model) -> Result<Vec<[u32; 8]>> {
        let mut cells = Vec::new();
        for (spec, body) in self.bodies.iter().zip(&model.bodies) {
            let BodyKind::Mesh(mesh) = &spec.body else {
                continue;
            };
            let path = resolve(self.base_dir.as_deref(), &mesh.path);
            let at = MeshBody {
                path: path.clone(),
                ..mesh.clone()
            };
            let voxels = at.voxel_body(&at.read_mesh()?, &path)?.build_voxels()?;
            let first = body.masses.start as u32;
            cells.extend(
                voxels
                    .voxel_masses
                    .iter()
                    .map(|corners| corners.map(|m| first + m)),
            );
        }
        Ok(cells)
    }
}
