//! What the renderer draws of a scene's mesh bodies: each mesh's own triangles riding on its
//! voxels ([`Scene::mesh_surfaces`], what `hooke run --gif` and `hooke view` shade), or the
//! voxels as hexahedral cells of the model's masses ([`Scene::mesh_cells`]).

use super::body_kind::{resolve, BodyKind};
use super::description::Scene;
use crate::builders::MeshBody;
use crate::error::Result;
use crate::model::Model;
use crate::render::MeshSurface;

impl Scene {
    /// The scene's mesh bodies, in body order, each with its path resolved against the scene's
    /// folder, and the model index of its first mass.
    fn mesh_bodies(&self, model: &Model) -> Vec<(MeshBody, u32)> {
        let mut out = Vec::new();
        for (spec, body) in self.bodies.iter().zip(&model.bodies) {
            if let BodyKind::Mesh(mesh) = &spec.body {
                let at = MeshBody {
                    path: resolve(self.base_dir.as_deref(), &mesh.path),
                    ..mesh.clone()
                };
                out.push((at, body.masses.start as u32));
            }
        }
        out
    }

    /// The voxels of every mesh body of the scene, each as its 8 corner masses (model indices,
    /// corner `x + 2 y + 4 z`), in body order: through
    /// [`exterior_triangles`](crate::render::exterior_triangles) the surface of the voxels is
    /// drawn. `model` is [`Scene::to_model`]'s model of this scene; the mesh files are read and
    /// voxelized again.
    ///
    /// # Errors
    /// The mesh bodies' errors, as [`Scene::to_model`] gives them.
    pub fn mesh_cells(&self, model: &Model) -> Result<Vec<[u32; 8]>> {
        let mut cells = Vec::new();
        for (mesh, first) in self.mesh_bodies(model) {
            let voxels = mesh.voxel_body(&mesh.read_mesh()?, &mesh.path)?;
            let part = voxels.build_voxels()?;
            cells.extend(part.voxel_masses.iter().map(|c| c.map(|m| first + m)));
        }
        Ok(cells)
    }

    /// The surface of every mesh body of the scene, in body order: the mesh's own triangles,
    /// each vertex embedded in its voxel cell ([`MeshBody::surface`]), so that
    /// [`Drawing::set_surfaces`](crate::render::Drawing::set_surfaces) draws the mesh moving
    /// with the body's masses. `model` is [`Scene::to_model`]'s model of this scene; the mesh
    /// files are read and voxelized again.
    ///
    /// # Errors
    /// The mesh bodies' errors, as [`Scene::to_model`] gives them.
    pub fn mesh_surfaces(&self, model: &Model) -> Result<Vec<MeshSurface>> {
        self.mesh_bodies(model)
            .iter()
            .map(|(mesh, first)| mesh.surface(*first))
            .collect()
    }
}
