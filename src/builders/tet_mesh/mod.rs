//! Bodies from tetrahedral meshes: [`TetMesh`] (read from a Gmsh `.msh` file, ASCII format 4.1
//! or 2.2, checked: every tetrahedron of positive volume, no two overlapping) built into masses
//! at its nodes and springs on its edges of a [`Material`] ([`TetMeshBody`]).

use std::path::{Path, PathBuf};

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Builder, Material};
use crate::error::{Error, Result};
use crate::model::Part;
use crate::validate::positive;

mod assemble;
mod check;
mod cursor;
mod lattice;
mod listed;
mod msh;
mod msh4;
mod surface;
mod write;

pub use check::TETRAHEDRON_FACES;

/// The error of a tetrahedral mesh file `path`: what is wrong with it.
fn tet_error(path: &Path, reason: String) -> Error {
    Error::Mesh {
        path: path.to_path_buf(),
        reason,
    }
}

/// A tetrahedral mesh: nodes (m, in the mesh's own frame) and tetrahedra of four node indices
/// each, every one of positive volume (its corners `a, b, c, d` ordered so that
/// `(b - a) x (c - a) . (d - a) > 0`, Gmsh's order).
///
/// [`TetMesh::read`] reads one from a Gmsh `.msh` file; [`TetMesh::new`] makes one from arrays;
/// [`TetMesh::box_lattice`] tetrahedralizes a box. Either way the mesh is checked
/// ([`TetMesh::new`]'s rules) before a body is built from it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TetMesh {
    /// The nodes, m.
    pub nodes: Vec<DVec3>,
    /// Each tetrahedron's four node indices.
    pub tetrahedra: Vec<[u32; 4]>,
}

/// A solid body from a tetrahedral mesh (a Gmsh `.msh` file, ASCII format 4.1 or 2.2): one mass
/// per node, one spring per edge of the tetrahedra, of `material`.
///
/// # Masses, springs and damping
///
/// Each tetrahedron of volume `V` gives each of its four nodes the mass `rho V / 4` (lumped),
/// and each of its six edges (length `L`) the stiffness `E V / L^2`; an edge's spring has the sum
/// over the tetrahedra that hold it, `k = E sum V_t / L^2` (N/m), and its damping is
/// [`Material::bond_damping`] of that stiffness and its two masses. Under a homogeneous strain a
/// tetrahedron's springs then hold the energy of a stiffness tensor whose average over all
/// directions is exactly isotropic with Young's modulus `E` and Poisson's ratio 1/4, for any
/// tetrahedron: so is the whole mesh's. A particular mesh is anisotropic: the regular lattice of
/// [`TetMesh::box_lattice`] (cubes cut in five) is `6 E / 5` along its axes (Poisson's ratio
/// 1/5) and `6 E / 7` along the cubes' diagonals; an irregular mesh approximates `E` (derivation
/// and measurements: the guide, `hooke::guide::meshes`, "Tetrahedral meshes").
///
/// # Frame and units
///
/// The file's coordinates are metres times [`TetMeshBody::scale`] (a mesh drawn in millimetres
/// takes `scale = 0.001`), in the mesh's own frame; a [`Placement`](super::Placement) then turns
/// the body about the mesh's origin and moves it.
///
/// # Checks
///
/// The file is read within the input size limit (`HOOKE_MAX_INPUT_BYTES`) and every count in it
/// is checked against the lines the file has before anything is allocated for it; each error is
/// an [`Error::Mesh`] naming the file, the line and what is wrong: a file that is not ASCII MSH
/// 4.1 or 2.2 (binary MSH is refused), a missing section, a node listed twice, a volume element
/// other than the 4-node tetrahedron (hexahedra, second-order tetrahedra), a tetrahedron
/// naming a node that is not listed, a non-finite coordinate, a tetrahedron of zero volume or
/// of negative volume (inverted), two tetrahedra overlapping across a face, a file without
/// tetrahedra, and a mesh of more than [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS) masses
/// and springs.
///
/// # Examples
///
/// ```
/// use hooke::builders::{TetMesh, TetMeshBody};
/// use hooke::Material;
///
/// // A 2 x 1 x 1 box of 1 cm cubes, each cut into five tetrahedra.
/// let mesh = TetMesh::box_lattice([2, 1, 1], 0.01)?;
/// assert_eq!((mesh.nodes.len(), mesh.tetrahedra.len()), (12, 10));
/// let body = TetMeshBody::new("box.msh", Material::new(1.0e6, 1000.0));
/// let part = body.part(&mesh)?;
/// assert!((part.total_mass() - 1000.0 * 2e-6).abs() < 1e-15); // rho times the volume, kg
/// // The mesh as Gmsh writes it, read back.
/// let again = TetMesh::from_msh(mesh.to_msh().as_bytes(), "box.msh".as_ref())?;
/// assert_eq!(again, mesh);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TetMeshBody {
    /// The mesh file, a Gmsh `.msh` (ASCII, format 4.1 or 2.2); in a scene file a relative path
    /// is resolved against the scene file's folder.
    pub path: PathBuf,
    /// What the body is made of: Young's modulus, density, damping ratio (or a named one).
    pub material: Material,
    /// The length in m of one unit of the file's coordinates (default 1: the file is in
    /// metres). Finite and > 0.
    #[serde(default = "unit_scale")]
    pub scale: f64,
}

/// The default [`TetMeshBody::scale`]: the file is in metres.
fn unit_scale() -> f64 {
    1.0
}

impl TetMeshBody {
    /// The body of the mesh in `path` (coordinates in metres) made of `material`.
    #[must_use]
    pub fn new(path: impl Into<PathBuf>, material: Material) -> Self {
        Self {
            path: path.into(),
            material,
            scale: 1.0,
        }
    }

    /// The same body with the file's coordinates times `scale` (m per unit of the file).
    #[must_use]
    pub fn with_scale(self, scale: f64) -> Self {
        Self { scale, ..self }
    }

    /// Reads the mesh file [`TetMeshBody::path`], scaled by [`TetMeshBody::scale`], and checks
    /// it.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] (`"tet_mesh.scale"`) for a scale that is not finite and > 0;
    /// [`TetMesh::read`]'s errors, and [`TetMesh::new`]'s for the scaled mesh.
    pub fn read_mesh(&self) -> Result<TetMesh> {
        positive("tet_mesh.scale", self.scale, "must be finite and > 0 (m)")?;
        let mesh = TetMesh::read(&self.path)?;
        if self.scale == 1.0 {
            return Ok(mesh);
        }
        let nodes: Vec<DVec3> = mesh.nodes.iter().map(|&p| p * self.scale).collect();
        TetMesh::checked(nodes, mesh.tetrahedra, &self.path, &|t| {
            format!("tetrahedron {t} (scaled by {})", self.scale)
        })
    }

    /// The part of `mesh` (already read and checked) made of [`TetMeshBody::material`]: masses,
    /// springs and damping as the type's docs derive them, in the mesh's frame.
    ///
    /// # Errors
    /// [`Material::validate`]'s errors; [`Error::InvalidParameter`] when the mesh has more than
    /// [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS) masses and springs;
    /// [`Error::Mesh`] naming [`TetMeshBody::path`] for an edge whose stiffness leaves `f64`'s
    /// range.
    pub fn part(&self, mesh: &TetMesh) -> Result<Part> {
        self.material.validate()?;
        mesh.part_of(&self.material, &self.path)
    }
}

impl Builder for TetMeshBody {
    /// Reads and checks the mesh file and builds the body (see the type's docs).
    fn build(&self) -> Result<Part> {
        self.part(&self.read_mesh()?)
    }
}
