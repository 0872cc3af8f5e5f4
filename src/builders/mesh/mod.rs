//! Bodies from closed triangle meshes: [`TriangleMesh`] (read from OBJ or STL, checked to be a
//! closed surface) voxelized at a chosen voxel size into a [`VoxelBody`] of a [`Material`]
//! ([`MeshBody`]).

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Builder, Material, Voxel, VoxelBody};
use crate::error::{Error, Result};
use crate::model::Part;
use crate::validate::positive;

mod read;
mod shapes;
mod surface;
mod triangle_mesh;
mod voxelize;
mod write;

pub use triangle_mesh::TriangleMesh;
pub use voxelize::MAX_COLUMN_TESTS;

/// The error of a mesh file `path`: what is wrong with it.
pub(crate) fn mesh_error(path: &Path, reason: String) -> Error {
    Error::Mesh {
        path: path.to_path_buf(),
        reason,
    }
}

/// A solid body from a closed triangle mesh (an OBJ or STL file): the mesh is voxelized at
/// voxel size `voxel` and every voxel whose centre lies inside becomes a cell of a
/// [`VoxelBody`] made of `material` (so the masses, springs and damping are those
/// [`Material`] derives, and shared corners are merged as in any voxel body).
///
/// # Frame and voxels
///
/// The voxel grid is the mesh's own frame: cell `[i, j, k]` spans `[i a, (i + 1) a]` on x (and
/// likewise on y, z) in the mesh's coordinates (m), so the body's masses sit where the mesh is;
/// a [`Placement`](super::Placement) then turns it about the mesh's origin and moves it. A cell
/// is filled when its centre is inside the mesh by the even-odd rule along +z, decided with
/// exact predicates and documented tie rules (a centre lying on the surface counts as inside
/// when the solid lies just above it along z; on a vertical face, just beyond it along +x, or
/// +y for a face parallel to x), so the same file gives the same voxels on every machine, and a
/// mesh moved by whole voxels (in exactly representable steps) gives the same voxels moved.
/// The rule and its derivation are in the guide (`hooke::guide::materials`, "Bodies from
/// meshes").
///
/// # Checks
///
/// Before voxelizing: the file is read within the input size limit (`HOOKE_MAX_INPUT_BYTES`),
/// every coordinate is finite, no triangle is degenerate, and the mesh is closed and
/// consistently oriented (every edge in exactly two triangles that run it in opposite
/// directions): [`TriangleMesh::check_closed`]. A voxel size whose grid over the mesh's bounding
/// box would exceed [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS) masses and springs, or
/// whose column tests pass [`MAX_COLUMN_TESTS`], is refused before anything is allocated; so is
/// one that leaves no voxel.
///
/// # Examples
///
/// ```
/// use hooke::builders::{MeshBody, TriangleMesh};
/// use hooke::{DVec3, Material};
///
/// // A closed tetrahedron with corners on the axes, 0.1 m long, its faces facing out.
/// let v = [DVec3::ZERO, DVec3::X * 0.1, DVec3::Y * 0.1, DVec3::Z * 0.1];
/// let tetra = TriangleMesh::new(&v, &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])?;
/// let body = MeshBody::new("tetra.obj", 0.01, Material::new(1.0e6, 1070.0));
/// let built = body.voxel_body(&tetra, "tetra.obj".as_ref())?;
/// // Cells whose centres lie inside: (i + j + k + 1.5) * 0.01 < 0.1, i.e. i + j + k <= 8.
/// assert_eq!(built.voxels.len(), (0..=8).map(|s| (s + 1) * (s + 2) / 2).sum::<usize>());
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeshBody {
    /// The mesh file, `.obj` or `.stl` (binary or ASCII); in a scene file a relative path is
    /// resolved against the scene file's folder.
    pub path: PathBuf,
    /// Voxel edge length `a` in m. Finite and > 0.
    pub voxel: f64,
    /// What the body is made of: Young's modulus, density, damping ratio (or a named one).
    pub material: Material,
}

impl MeshBody {
    /// The body of the mesh in `path` at voxel size `voxel` (m) made of `material`.
    #[must_use]
    pub fn new(path: impl Into<PathBuf>, voxel: f64, material: Material) -> Self {
        Self {
            path: path.into(),
            voxel,
            material,
        }
    }

    /// Reads the mesh file [`MeshBody::path`] and checks it is a closed surface.
    ///
    /// # Errors
    /// [`TriangleMesh::read`]'s and [`TriangleMesh::check_closed`]'s errors.
    pub fn read_mesh(&self) -> Result<TriangleMesh> {
        let mesh = TriangleMesh::read(&self.path)?;
        mesh.check_closed(&self.path)?;
        Ok(mesh)
    }

    /// The voxel body of `mesh` (already read and checked; `path` names it in errors): its
    /// cells inside the mesh ([`TriangleMesh::voxel_cells`]), of [`MeshBody::material`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a voxel that is not finite and > 0 and
    /// [`Material::validate`]'s errors; [`TriangleMesh::voxel_cells`]'s errors.
    pub fn voxel_body(&self, mesh: &TriangleMesh, path: &Path) -> Result<VoxelBody> {
        positive("mesh.voxel", self.voxel, "must be finite and > 0 (m)")?;
        self.material.validate()?;
        let cells = mesh.voxel_cells(self.voxel, path)?;
        Ok(VoxelBody {
            voxel_size: self.voxel,
            voxels: cells.into_iter().map(Voxel::new).collect(),
            ..VoxelBody::default()
        }
        .made_of(self.material))
    }
}

impl Builder for MeshBody {
    /// Reads, checks and voxelizes the mesh file and builds the voxel body (see the type's
    /// docs).
    fn build(&self) -> Result<Part> {
        let mesh = self.read_mesh()?;
        self.voxel_body(&mesh, &self.path)?.build()
    }
}
