//! What makes a scene body: a builder or a creature with its parameters, a picture, or a
//! hand-made part.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::builders::{
    Builder, Cloth, Cube, ImageBody, Lattice, Material, MeshBody, RandomStructure, Rope,
    TetMeshBody, VoxelBody,
};
use crate::creatures::{BreathingCube, DroppedStructure, Inchworm, Pendulum, WalkingRobot, Wheel};
use crate::error::Result;
use crate::model::Part;

/// What makes a body: one builder or creature with its parameters, or a hand-made [`Part`]. In
/// JSON the variant is the `"type"` field next to the builder's own fields, each of which may be
/// left out (it then takes the default the builder documents): `"cube"`, `"voxels"`, `"image"`,
/// `"mesh"`, `"tet_mesh"`, `"rope"`, `"cloth"`, `"random"`, `"lattice"`, the creatures `"walking_robot"`,
/// `"commanded_walker"`, `"inchworm"`, `"wheel"`, `"breathing_cube"`, `"pendulum"`,
/// `"dropped_structure"`, and `"part"`.
///
/// A creature's body is the part its builder makes ([`Creature::part`](crate::creatures::Creature));
/// the parameters it was tuned for (its ground contact, friction and time step) are not fields
/// here: the scene's `params` apply, so a scene gives them there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BodyKind {
    /// [`Cube`].
    Cube(Cube),
    /// [`VoxelBody`].
    Voxels(VoxelBody),
    /// [`ImageBody`] read from a picture file.
    Image(ImageSource),
    /// [`MeshBody`]: a closed OBJ or STL mesh voxelized into a voxel body of a material
    /// (`"path"`, `"voxel"` and `"material"` required).
    Mesh(MeshBody),
    /// [`TetMeshBody`]: a tetrahedral Gmsh `.msh` mesh, a mass per node and a spring per edge
    /// of a material (`"path"` and `"material"` required, `"scale"` in m per file unit,
    /// default 1).
    TetMesh(TetMeshBody),
    /// [`Rope`].
    Rope(Rope),
    /// [`Cloth`].
    Cloth(Cloth),
    /// [`RandomStructure`].
    Random(RandomStructure),
    /// [`Lattice`].
    Lattice(Lattice),
    /// Lipson's walking robot ([`WalkingRobot`]), its muscles on sine gaits.
    WalkingRobot(WalkingRobot),
    /// The walking robot with commanded muscles ([`WalkingRobot::commanded`]): they hold their
    /// rest lengths until a controller sets them.
    CommandedWalker(WalkingRobot),
    /// [`Inchworm`].
    Inchworm(Inchworm),
    /// [`Wheel`] (the default is the whirligig; `"spokes": 10` makes the pinwheel).
    Wheel(Wheel),
    /// [`BreathingCube`].
    BreathingCube(BreathingCube),
    /// [`Pendulum`] (its pivot corner fixed).
    Pendulum(Pendulum),
    /// [`DroppedStructure`]: Lipson's three cubes, hinge or random blob, lifted and tilted.
    DroppedStructure(DroppedStructure),
    /// Masses, springs and actuators given by hand (local indices).
    Part(Part),
}

impl BodyKind {
    /// The JSON type name, used as the default body name.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Cube(_) => "cube",
            Self::Voxels(_) => "voxels",
            Self::Image(_) => "image",
            Self::Mesh(_) => "mesh",
            Self::TetMesh(_) => "tet_mesh",
            Self::Rope(_) => "rope",
            Self::Cloth(_) => "cloth",
            Self::Random(_) => "random",
            Self::Lattice(_) => "lattice",
            Self::WalkingRobot(_) => "walking_robot",
            Self::CommandedWalker(_) => "commanded_walker",
            Self::Inchworm(_) => "inchworm",
            Self::Wheel(_) => "wheel",
            Self::BreathingCube(_) => "breathing_cube",
            Self::Pendulum(_) => "pendulum",
            Self::DroppedStructure(_) => "dropped_structure",
            Self::Part(_) => "part",
        }
    }

    /// Builds the part in its local frame; a relative image or mesh (or tetrahedral mesh) path is resolved against
    /// `base_dir` (when given).
    ///
    /// # Errors
    /// The builder's errors.
    pub fn build(&self, base_dir: Option<&Path>) -> Result<Part> {
        match self {
            Self::Cube(b) => b.build(),
            Self::Voxels(b) => b.build(),
            Self::Image(src) => src.body.from_path(resolve(base_dir, &src.path)),
            Self::Mesh(b) => MeshBody {
                path: resolve(base_dir, &b.path),
                ..b.clone()
            }
            .build(),
            Self::TetMesh(b) => TetMeshBody {
                path: resolve(base_dir, &b.path),
                ..b.clone()
            }
            .build(),
            Self::Rope(b) => b.build(),
            Self::Cloth(b) => b.build(),
            Self::Random(b) => b.build(),
            Self::Lattice(b) => b.build(),
            Self::WalkingRobot(c) => Ok(c.build()?.part),
            Self::CommandedWalker(c) => Ok(c.commanded()?.creature.part),
            Self::Inchworm(c) => Ok(c.build()?.part),
            Self::Wheel(c) => Ok(c.build()?.part),
            Self::BreathingCube(c) => Ok(c.build()?.part),
            Self::Pendulum(c) => Ok(c.build()?.part),
            Self::DroppedStructure(c) => Ok(c.build()?.part),
            Self::Part(p) => Ok(p.clone()),
        }
    }
}

/// `path` itself when absolute or without `base_dir`, else `base_dir/path`.
pub(super) fn resolve(base_dir: Option<&Path>, path: &Path) -> PathBuf {
    match base_dir {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

/// An [`ImageBody`] and the picture it is made from. In JSON the body's fields sit next to
/// `path` (each defaulting to Anderson Table I); `path` is required.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "ImageSourceJson", into = "ImageSourceJson")]
pub struct ImageSource {
    /// The picture file; a relative path is resolved against the scene file's folder.
    pub path: PathBuf,
    /// Body parameters (defaults: Anderson Table I).
    pub body: ImageBody,
}

/// The flat JSON form of [`ImageSource`] (serde's `flatten` cannot reject unknown fields).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
#[schemars(title = "ImageSource")]
struct ImageSourceJson {
    /// The picture file (required); a relative path is resolved against the scene file's folder.
    #[schemars(with = "PathBuf", required)]
    path: Option<PathBuf>,
    /// Pixel spacing `s` in m. Finite and > 0.
    spacing: f64,
    /// Mass of each pixel in kg. Finite and > 0.
    mass: f64,
    /// Spring stiffness `k` in N/m. Finite and >= 0.
    stiffness: f64,
    /// Axial spring damping `c` in N*s/m. Finite and >= 0.
    damping: f64,
    /// Luminance threshold in (0, 1]: pixels darker than this are masses (default 0.5).
    threshold: f64,
    /// Initial angle `theta0` in rad about the local origin. Finite.
    theta0: f64,
    /// Initial lift `h0` in m along z. Finite.
    h0: f64,
    /// The material (a name or the fields); replaces `mass`, `stiffness` and `damping`.
    #[serde(skip_serializing_if = "Option::is_none")]
    material: Option<Material>,
}
impl Default for ImageSourceJson {
    fn default() -> Self {
        Self::from(ImageSource {
            path: PathBuf::new(),
            body: ImageBody::anderson_table1(),
        })
    }
}

impl From<ImageSource> for ImageSourceJson {
    fn from(s: ImageSource) -> Self {
        let b = s.body;
        Self {
            path: Some(s.path),
            spacing: b.spacing,
            mass: b.mass,
            stiffness: b.stiffness,
            damping: b.damping,
            threshold: b.threshold,
            theta0: b.theta0,
            h0: b.h0,
            material: b.material,
        }
    }
}

impl TryFrom<ImageSourceJson> for ImageSource {
    type Error = &'static str;

    fn try_from(j: ImageSourceJson) -> std::result::Result<Self, Self::Error> {
        let path = j
            .path
            .filter(|p| !p.as_os_str().is_empty())
            .ok_or("an image body needs a \"path\" to its picture")?;
        Ok(Self {
            path,
            body: ImageBody {
                spacing: j.spacing,
                mass: j.mass,
                stiffness: j.stiffness,
                damping: j.damping,
                threshold: j.threshold,
                theta0: j.theta0,
                h0: j.h0,
                material: j.material,
            },
        })
    }
}
