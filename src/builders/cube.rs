//! The Lipson cube.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Builder, Material, VoxelBody};
use crate::error::Result;
use crate::model::Part;
use crate::validate::{non_negative, positive};

/// The cube of Lipson: 8 corner masses and 28 springs joining every pair of corners (12 edges,
/// 12 face diagonals, 4 body diagonals), rest lengths equal to the initial distances.
///
/// Local frame: the cube spans `[0, size]` on each axis; corner `c = x + 2 y + 4 z` sits at
/// `(x, y, z) * size`. Use a [`Placement`](super::Placement) to lift, turn or throw it.
///
/// # Examples
///
/// ```
/// use hooke::{Builder, Cube, DVec3, Error, Placement};
///
/// // Lipson's cube with some damping, its lowest face 0.2 m above the ground.
/// let cube = Cube { damping: 0.5, ..Cube::lipson() };
/// let part = cube.build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.2)))?;
/// assert_eq!((part.masses.len(), part.springs.len()), (8, 28));
/// assert_eq!(part.min_z(), Some(0.2));
/// assert!((part.total_mass() - 0.8).abs() < 1e-12); // kg
/// // 12 edges of 0.1 m and 4 body diagonals of 0.1 sqrt(3) m among the 28, all at rest.
/// let count = |l: f64| part.springs.iter().filter(|s| (s.rest_length - l).abs() < 1e-12).count();
/// assert_eq!((count(0.1), count(0.1 * 3f64.sqrt())), (12, 4));
///
/// // A bad parameter is an error naming it.
/// let bad = Cube { size: -0.1, ..Cube::lipson() }.build();
/// assert!(matches!(bad, Err(Error::InvalidParameter { name: "cube.size", .. })));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Cube {
    /// Edge length in m (default 0.1). Finite and > 0.
    pub size: f64,
    /// Mass of each corner in kg (default 0.1, so the cube weighs 0.8 kg). Finite and > 0.
    pub corner_mass: f64,
    /// Spring stiffness in N/m (default 10 000). Finite and >= 0.
    pub stiffness: f64,
    /// Axial spring damping in N*s/m (default 0). Finite and >= 0.
    pub damping: f64,
    /// The material the cube is made of (default `None`). When given, it replaces
    /// `corner_mass`, `stiffness` and `damping`: the cube is one cell of [`Material`]'s lattice
    /// (corners of `rho size^3 / 8`, springs of the cell's shares).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
}

impl Default for Cube {
    fn default() -> Self {
        Self::lipson()
    }
}

impl Cube {
    /// The Lipson cube: 0.1 m, 0.1 kg corners, k = 10 000 N/m, no damping.
    #[must_use]
    pub fn lipson() -> Self {
        Self {
            size: 0.1,
            corner_mass: 0.1,
            stiffness: 10_000.0,
            damping: 0.0,
            material: None,
        }
    }
}

impl Builder for Cube {
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a size or corner mass that
    /// is not finite and > 0, or a negative or non-finite stiffness or damping; with a material,
    /// [`Material::validate`]'s errors naming the field.
    fn build(&self) -> Result<Part> {
        positive("cube.size", self.size, "must be finite and > 0 (m)")?;
        positive(
            "cube.corner_mass",
            self.corner_mass,
            "must be finite and > 0 (kg)",
        )?;
        non_negative(
            "cube.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "cube.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        VoxelBody {
            material: self.material,
            ..VoxelBody::from_cells([[0, 0, 0]]).with_material(
                self.size,
                self.corner_mass,
                self.stiffness,
                self.damping,
            )
        }
        .build()
    }
}
