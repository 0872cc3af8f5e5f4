//! A mesh body's own triangles riding on its voxels: what the renderer draws of it.

use super::MeshBody;
use crate::error::Result;
use crate::render::MeshSurface;

impl MeshBody {
    /// The mesh's own triangles embedded in the body's voxels ([`MeshSurface::embed`]), its
    /// masses numbered from `first_mass`: the model index of the body's first mass
    /// (`model.bodies[b].masses.start`), so that the surface rides on the body's masses in the
    /// model. Reads, checks and voxelizes the mesh file again, as
    /// [`Builder::build`](crate::Builder::build) does.
    ///
    /// # Errors
    /// [`MeshBody::read_mesh`]'s and [`MeshBody::voxel_body`]'s errors, the voxel body's build
    /// errors, and [`MeshSurface::embed`]'s.
    pub fn surface(&self, first_mass: u32) -> Result<MeshSurface> {
        let mesh = self.read_mesh()?;
        let voxels = self.voxel_body(&mesh, &self.path)?;
        let part = voxels.build_voxels()?;
        let cells: Vec<[i32; 3]> = voxels.voxels.iter().map(|v| v.cell).collect();
        let corners: Vec<[u32; 8]> = part
            .voxel_masses
            .iter()
            .map(|c| c.map(|m| first_mass + m))
            .collect();
        MeshSurface::embed(&mesh, self.voxel, &cells, &corners)
    }
}
