//! What the renderer draws of a scene's mesh bodies: each mesh's own triangles riding on its
//! voxels ([`Scene::mesh_surfaces`], what `hooke run --gif` and `hooke view` shade), or the
//! voxels as hexahedral cells of the model's masses ([`Scene::mesh_cells`]).

use super::body_kind::{resolve, BodyKind};
use super::description::Scene;
use crate::builders::{MeshBody, TriangleMesh, VoxelBody, VoxelPart};
use crate::error::Result;
use crate::model::Model;
use crate::render::MeshSurface;

/// One mesh body of a scene, read and voxelized again.
struct MeshVoxels {
    mesh: TriangleMesh,
    body: VoxelBody,
    part: VoxelPart,
    /// The model index of the body's first mass.
    first: u32,
}

impl MeshVoxels {
    /// The voxels' corner masses as model indices.
    fn corners(&self) -> Vec<[u32; 8]> {
        let first = self.first;
        self.part
            .voxel_masses
            .iter()
            .map(|corners| corners.map(|m| first + m))
            .collect()
    }
}

impl Scene {
    /// The scene's mesh bodies, in body order, each read, checked and voxelized again.
    fn mesh_voxels(&self, model: &Model) -> Result<Vec<MeshVoxels>> {
        let mut out = Vec::new();
        for (spec, body) in self.bodies.iter().zip(&model.bodies) {
            let BodyKind::Mesh(mesh) = &spec.body else {
                continue;
            };
            let path = resolve(self.base_dir.as_deref(), &mesh.path);
            let at = MeshBody {
                path: path.clone(),
                ..mesh.clone()
            };
            let triangles = at.read_mesh()?;
            let voxels = at.voxel_body(&triangles, &path)?;
            let part = voxels.build_voxels()?;
            out.push(MeshVoxels {
                mesh: triangles,
                body: voxels,
                part,
                first: body.masses.start as u32,
            });
        }
        Ok(out)
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
        Ok(self
            .mesh_voxels(model)?
            .iter()
            .flat_map(MeshVoxels::corners)
            .collect())
    }

    /// The surface of every mesh body of the scene, in body order: the mesh's own triangles,
    /// each vertex embedded in its voxel cell ([`MeshSurface::embed`]), so that
    /// [`Drawing::set_surfaces`](crate::render::Drawing::set_surfaces) draws the mesh moving
    /// with the body's masses. `model` is [`Scene::to_model`]'s model of this scene; the mesh
    /// files are read and voxelized again.
    ///
    /// # Errors
    /// The mesh bodies' errors, as [`Scene::to_model`] gives them.
    pub fn mesh_surfaces(&self, model: &Model) -> Result<Vec<MeshSurface>> {
        self.mesh_voxels(model)?
            .iter()
            .map(|m| {
                let cells: Vec<[i32; 3]> = m.body.voxels.iter().map(|v| v.cell).collect();
                MeshSurface::embed(&m.mesh, m.body.voxel_size, &cells, &m.corners())
            })
            .collect()
    }
}
