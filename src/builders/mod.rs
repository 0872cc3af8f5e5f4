//! Builders: functions and parameter structs that make a [`Part`] (masses, springs and actuators
//! with local indices) ready for [`Model::add`](crate::Model::add).
//!
//! Every builder checks its parameters and returns a clear [`Error`] for bad input, never a panic.
//! Parameters are in SI units (m, kg, s, N/m, N*s/m). Each builder lays its part out in a local
//! frame documented on the type; a [`Placement`] then rotates it about the local origin, moves it
//! and gives it an initial velocity.
//!
//! | builder | what | source (docs/SOURCES.md) |
//! |---|---|---|
//! | [`Cube`] | the 0.1 m cube, 8 masses, 28 springs | Lipson |
//! | [`VoxelBody`] | voxels from an occupancy grid, shared corners merged (three cubes, hinge, lattices, actuated robots) | Lipson |
//! | [`ImageBody`] | a 2D body from a PNG, one mass per black pixel, 8-neighbour springs | Anderson |
//! | [`Rope`] | a 1D chain (rope, hair strand) | CS838 |
//! | [`Cloth`] | a 2D grid with structural, shear and bending springs | CS838 |
//! | [`RandomStructure`] | a random connected structure, every mass joined to at least three others | Lipson |
//! | [`Lattice`] | the benchmark lattice of the benchmark scene (13 forward neighbours, sorted springs) | benchmark scene |
//! | [`Material`] | Young's modulus, density and damping ratio turned into the springs, masses and damping of [`VoxelBody`], [`Cube`] and [`Lattice`] | continuum mechanics (Cauchy-Born) |
//! | [`MeshBody`] | a closed OBJ or STL triangle mesh voxelized (exactly, the same on every machine) into a [`VoxelBody`] of a [`Material`] | hooke |
//! | [`TetMeshBody`] | a tetrahedral mesh (Gmsh `.msh`, ASCII 4.1 or 2.2): a mass per node, a spring per edge, of a [`Material`] | Van Gelder (1998), derived in the guide |
//! | [`ParticleBed`] | loose colliding particles on a jittered grid, no springs (piles, the collision benchmark's beds) | hooke |
//!
//! Hand-made masses and springs mix freely with builders, either in one [`Part`] or in the
//! [`Model`](crate::Model):
//!
//! ```
//! use hooke::builders::{Builder, Cube, Placement};
//! use hooke::{DVec3, Mass, Model, Params, Spring};
//!
//! # fn main() -> hooke::Result<()> {
//! let mut model = Model::new(Params::default());
//! // A Lipson cube whose lowest corner is 0.2 m above the ground.
//! let cube = Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.2)))?;
//! model.add("cube", cube);
//! // A hand-made pendulum bob hanging from a fixed pivot above the cube's corner 7.
//! let pivot = model.add_mass(Mass::new(1.0, DVec3::new(0.1, 0.1, 0.6)).fixed());
//! let bob = model.add_mass(Mass::new(0.1, DVec3::new(0.1, 0.1, 0.4)));
//! model.add_spring(Spring::hooke(pivot, bob, 1000.0, 0.2));
//! // ... and a spring joining the bob to the cube (model-wide indices: the cube is 0..8).
//! model.add_spring(Spring::hooke(bob, 7, 1000.0, 0.1).with_damping(0.5));
//! model.validate()?;
//! # Ok(())
//! # }
//! ```

use glam::{DQuat, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::Part;
use crate::validate::finite;

mod chain;
mod cube;
mod image_body;
mod image_file;
mod image_material;
mod lattice;
mod lattice_material;
mod material;
mod mesh;
mod particle_bed;
mod random;
mod terrain;
mod tet_mesh;
mod voxel;
mod voxel_material;

pub use chain::{Cloth, Rope};
pub use cube::Cube;
pub use image_body::ImageBody;
pub use image_file::MAX_IMAGE_PIXELS;
pub use lattice::Lattice;
pub use material::{CubicStiffness, Material, LATTICE_POISSON_RATIO};
pub use mesh::{MeshBody, TriangleMesh, MAX_COLUMN_TESTS};
pub use particle_bed::ParticleBed;
pub use random::{RandomStructure, SplitMix64, MAX_RANDOM_MASSES};
pub use terrain::{RoughGround, Slope, Staircase};
pub use tet_mesh::{TetMesh, TetMeshBody, TETRAHEDRON_FACES};
pub use voxel::{Muscle, Voxel, VoxelBody, VoxelPart};

/// A parameter struct that builds a [`Part`] by itself (every builder but [`ImageBody`], which
/// also needs an image).
///
/// # Examples
///
/// ```
/// use hooke::{Builder, Cube, DVec3, Model, Params, Placement, Rope};
///
/// /// Builds any part, places it and adds it to `model` as body `name`.
/// fn add(model: &mut Model, name: &str, part: &dyn Builder, at: DVec3) -> hooke::Result<usize> {
///     Ok(model.add(name, part.build_at(&Placement::at(at))?))
/// }
///
/// let mut model = Model::new(Params::default());
/// add(&mut model, "cube", &Cube::lipson(), DVec3::new(0.0, 0.0, 0.5))?;
/// let rope = add(&mut model, "rope", &Rope::default(), DVec3::new(0.5, 0.0, 2.0))?;
/// assert_eq!(model.bodies[rope].masses, 8..8 + 21); // Rope::default has 20 segments
/// # Ok::<(), hooke::Error>(())
/// ```
pub trait Builder {
    /// Builds the part in its local frame.
    ///
    /// # Errors
    /// A parameter out of range, as each builder documents (usually [`Error::InvalidParameter`]
    /// or [`Error::InvalidBuilder`]).
    fn build(&self) -> Result<Part>;

    /// Builds the part and applies `placement` to it.
    ///
    /// # Errors
    /// As [`Builder::build`], and [`Placement::validate`]'s errors.
    fn build_at(&self, placement: &Placement) -> Result<Part> {
        let mut part = self.build()?;
        placement.apply(&mut part)?;
        Ok(part)
    }
}

/// Where a part goes: rotated about its local origin, then moved, then given a velocity.
///
/// A mass at local position `p` with velocity `v` ends at `R p + position` with velocity
/// `R v + velocity`, where `R` is the rotation of angle `|rotation|` (rad) about the axis
/// `rotation / |rotation|` (right-handed).
///
/// # Examples
///
/// ```
/// use hooke::{Builder, Cube, DVec3, Placement};
///
/// // A quarter turn about +z, then 1 m up, thrown along +x at 2 m/s.
/// let placement = Placement::at(DVec3::new(0.0, 0.0, 1.0))
///     .with_rotation(DVec3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2))
///     .with_velocity(DVec3::new(2.0, 0.0, 0.0));
/// let cube = Cube::lipson().build_at(&placement)?;
/// // Corner 1 starts at (0.1, 0, 0): turned to (0, 0.1, 0), then lifted.
/// assert!((cube.masses[1].position - DVec3::new(0.0, 0.1, 1.0)).length() < 1e-12);
/// assert_eq!(cube.masses[1].velocity, DVec3::new(2.0, 0.0, 0.0));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Placement {
    /// Translation in m, applied after the rotation.
    #[schemars(with = "[f64; 3]")]
    pub position: DVec3,
    /// Rotation vector (axis times angle) in rad, applied about the part's local origin.
    /// `[0, 0.5, 0]` turns the part by 0.5 rad about +y.
    #[schemars(with = "[f64; 3]")]
    pub rotation: DVec3,
    /// Initial velocity in m/s added to every mass (fixed masses ignore it).
    #[schemars(with = "[f64; 3]")]
    pub velocity: DVec3,
}

impl Placement {
    /// No rotation, no translation, no velocity.
    pub const IDENTITY: Self = Self {
        position: DVec3::ZERO,
        rotation: DVec3::ZERO,
        velocity: DVec3::ZERO,
    };

    /// A pure translation to `position` (m).
    #[must_use]
    pub fn at(position: DVec3) -> Self {
        Self {
            position,
            ..Self::IDENTITY
        }
    }

    /// The same placement with rotation vector `rotation` (axis times angle, rad).
    #[must_use]
    pub fn with_rotation(self, rotation: DVec3) -> Self {
        Self { rotation, ..self }
    }

    /// The same placement with initial velocity `velocity` (m/s).
    #[must_use]
    pub fn with_velocity(self, velocity: DVec3) -> Self {
        Self { velocity, ..self }
    }

    /// Checks that every component is finite, and the rotation's length (its angle) too.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first non-finite component, or
    /// `placement.rotation` when its length overflows (a component near 1e308).
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("placement.position", self.position),
            ("placement.rotation", self.rotation),
            ("placement.velocity", self.velocity),
        ] {
            for c in v.to_array() {
                finite(name, c, "must be finite")?;
            }
        }
        // A rotation vector whose length overflows has no axis: every mass would turn NaN.
        let angle = self.rotation.length();
        finite(
            "placement.rotation",
            angle,
            "must have a finite length (its angle, rad)",
        )
    }

    /// Moves every mass of `part` as the type's docs describe.
    ///
    /// # Errors
    /// [`Placement::validate`]'s errors; the part is left unchanged.
    pub fn apply(&self, part: &mut Part) -> Result<()> {
        self.validate()?;
        let r = DQuat::from_scaled_axis(self.rotation);
        let rotate = self.rotation != DVec3::ZERO;
        for m in &mut part.masses {
            if rotate {
                m.position = r * m.position;
                m.velocity = r * m.velocity;
            }
            m.position += self.position;
            m.velocity += self.velocity;
        }
        Ok(())
    }
}

// ----------------------------------------------------------------------------- validation helpers

/// Builder-level error with a formatted reason.
pub(crate) fn invalid(builder: &'static str, reason: impl Into<String>) -> Error {
    Error::InvalidBuilder {
        builder,
        reason: reason.into(),
    }
}

/// Checks that a part with `masses` masses can be indexed with `u32`.
pub(crate) fn fits_u32(builder: &'static str, masses: usize) -> Result<()> {
    if masses <= u32::MAX as usize {
        Ok(())
    } else {
        Err(invalid(
            builder,
            format!("{masses} masses do not fit 32-bit mass indices"),
        ))
    }
}
