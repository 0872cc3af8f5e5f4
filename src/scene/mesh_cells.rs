//! What the renderer draws of a scene's mesh bodies: each mesh's own triangles riding on its
//! voxels and each tetrahedral mesh's boundary on its nodes ([`Scene::mesh_surfaces`], what
//! `hooke run --gif` and `hooke view` shade), or a mesh body's
//! voxels as hexahedral cells of the model's masses ([`Scene::mesh_cells`]).

use super::body_kind::{resolve, BodyKind};
use super::description::Scene;
use crate::builders::{MeshBody, TetMeshBody};
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

    /// The surface of every mesh and tetrahedral mesh body of the scene, in body order: a mesh
    /// body's own triangles, each vertex embedded in its voxel cell ([`MeshBody::surface`]), a
    /// tetrahedral body's boundary triangles on its nodes ([`TetMeshBody::surface`]), so that
    /// [`Drawing::set_surfaces`](crate::render::Drawing::set_surfaces) draws them moving with
    /// the bodies' masses. `model` is [`Scene::to_model`]'s model of this scene; the mesh files
    /// are read (and voxelized) again.
    ///
    /// # Errors
    /// The mesh bodies' errors, as [`Scene::to_model`] gives them.
    pub fn mesh_surfaces(&self, model: &Model) -> Result<Vec<MeshSurface>> {
        let base = self.base_dir.as_deref();
        let mut surfaces = Vec::new();
        for (spec, body) in self.bodies.iter().zip(&model.bodies) {
            let first = body.masses.start as u32;
            match &spec.body {
                BodyKind::Mesh(mesh) => surfaces.push(
                    MeshBody {
                        path: resolve(base, &mesh.path),
                        ..mesh.clone()
                    }
                    .surface(first)?,
                ),
                BodyKind::TetMesh(mesh) => surfaces.push(
                    TetMeshBody {
                        path: resolve(base, &mesh.path),
                        ..mesh.clone()
                    }
                    .surface(first)?,
                ),
                _ => {}
            }
        }
        Ok(surfaces)
    }
}
