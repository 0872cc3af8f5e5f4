//! Lipson's structures: the breathing cube, the pendulum, and dropped structures (three
//! attached cubes, a hinge, a random blob).

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::creature::Creature;
use crate::builders::{Builder, Cube, Muscle, Placement, RandomStructure, VoxelBody};
use crate::error::Result;
use crate::model::{Friction, Params, Part};
use crate::validate::{fraction, non_negative, positive};

/// The single cell of a [`Cube`]: its corner `c = x + 2 y + 4 z` is mass `c`.
const CUBE_CELL: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// Lipson's breathing cube: the cube of [`Cube`] standing on the ground with every one of its
/// 28 springs actuated, `L0 = L_base (1 + amplitude sin(omega t))`, so it grows and shrinks
/// uniformly ("if you change the rest lengths of the cube's springs slowly in a sine wave, the
/// cube will appear to breathe").
///
/// Parameters are Lipson's ([`Params::default`]: dt = 1e-4 s, penalty ground 100 000 N/m, no
/// friction). Slow breathing (well below the cube's lowest elastic mode, about 50 Hz) keeps the
/// cube's edge close to `size (1 + amplitude sin(omega t))` at every instant.
///
/// # Examples
///
/// ```
/// use hooke::creatures::BreathingCube;
///
/// let cube = BreathingCube::default().build()?; // 10 %, one breath per second
/// assert_eq!(cube.part.actuators.len(), 28);
/// let mut world = cube.world()?;
/// world.step_for(0.25)?; // a quarter breath: fully grown
/// let p = world.positions()?;
/// // The top edge from corner 4 to corner 5 is 0.1 m (1 + 0.1). The cube's weight,
/// // 0.8 kg x 9.81 m/s^2, moves corners by about weight / k = 0.8 mm at most.
/// assert!(((p[5] - p[4]).length() - 0.11).abs() < 1e-3);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BreathingCube {
    /// The cube (default [`Cube::lipson`]).
    pub cube: Cube,
    /// Relative breathing amplitude (default 0.1). Finite, in [0, 1).
    pub amplitude: f64,
    /// Breathing angular frequency in rad/s (default 2 pi: one breath per second). Finite and
    /// > 0.
    pub omega: f64,
}

impl Default for BreathingCube {
    fn default() -> Self {
        Self {
            cube: Cube::lipson(),
            amplitude: 0.1,
            omega: std::f64::consts::TAU,
        }
    }
}

impl BreathingCube {
    /// Builds the cube standing on the ground (`[0, size]^3`) with its 28 actuators.
    ///
    /// # Errors
    /// The errors of the [`Cube`] builder;
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an amplitude outside [0, 1)
    /// or an omega that is not finite and > 0.
    pub fn build(&self) -> Result<Creature> {
        fraction(
            "breathing.amplitude",
            self.amplitude,
            1.0,
            "must lie in [0, 1)",
        )?;
        positive(
            "breathing.omega",
            self.omega,
            "must be finite and > 0 (rad/s)",
        )?;
        let mut part = self.cube.build()?;
        let muscle = Muscle::new(self.amplitude, self.omega, 0.0);
        part.actuators = (0..part.springs.len() as u32)
            .map(|s| muscle.on(s))
            .collect();
        Ok(Creature::new("breathing cube", part, Params::default()).with_cells(vec![CUBE_CELL]))
    }
}

/// Lipson's pendulum: the cube of [`Cube`] hanging from one fixed corner ("you can make your
/// cube hang like a pendulum by simply fixing one corner").
///
/// The cube spans `[0, size]^2 x [pivot_height - size, pivot_height]`; its corner at
/// `(0, 0, pivot_height)` (corner 4) is fixed. Its centre of mass starts `size / sqrt 2` to the
/// side of the pivot and `size / 2` below it, 54.7 degrees from the vertical, so it swings.
/// Parameters are Lipson's ([`Params::default`]); with no damping the swing does not decay.
///
/// # Examples
///
/// ```
/// use hooke::creatures::Pendulum;
///
/// let pendulum = Pendulum::default().build()?;
/// let mut world = pendulum.world()?;
/// world.step_for(0.5)?;
/// let pivot = world.positions()?[Pendulum::PIVOT];
/// assert_eq!(pivot.z, 0.5); // the fixed corner never moves
/// // The centre of mass swings on a radius of half the cube's diagonal, 0.1 sqrt(3) / 2 m; the
/// // springs stretch by about the cube's weight over k, 0.8 kg x 9.81 m/s^2 / 10^4 N/m = 0.8 mm.
/// let radius = (world.body_centre_of_mass(0)? - pivot).length();
/// assert!((radius - 0.1 * 3f64.sqrt() / 2.0).abs() < 1e-3);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Pendulum {
    /// The cube (default [`Cube::lipson`]).
    pub cube: Cube,
    /// Height of the fixed corner in m (default 0.5, well clear of the ground). Finite and
    /// > 0.
    pub pivot_height: f64,
}

impl Default for Pendulum {
    fn default() -> Self {
        Self {
            cube: Cube::lipson(),
            pivot_height: 0.5,
        }
    }
}

impl Pendulum {
    /// Index of the fixed corner mass in the part.
    pub const PIVOT: usize = 4;

    /// Builds the hanging cube.
    ///
    /// # Errors
    /// The errors of the [`Cube`] builder;
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a pivot height that is not
    /// finite and > 0.
    pub fn build(&self) -> Result<Creature> {
        positive(
            "pendulum.pivot_height",
            self.pivot_height,
            "must be finite and > 0 (m)",
        )?;
        let placement = Placement::at(DVec3::new(0.0, 0.0, self.pivot_height - self.cube.size));
        let mut part = self.cube.build_at(&placement)?;
        part.masses[Self::PIVOT].fixed = true;
        Ok(Creature::new("pendulum", part, Params::default()).with_cells(vec![CUBE_CELL]))
    }
}

/// Which Lipson structure a [`DroppedStructure`] drops; in JSON `"three_cubes"`, `"hinge"` or
/// `{ "random_blob": { "seed": 7 } }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StructureKind {
    /// Three attached cubes in a row ([`VoxelBody::three_cubes`]).
    ThreeCubes,
    /// Two cubes sharing one edge, a hinge ([`VoxelBody::hinge`]).
    Hinge,
    /// A random connected structure, every mass joined to at least three others
    /// ([`RandomStructure`] with default parameters and this seed).
    RandomBlob {
        /// Seed of the random generator.
        seed: u64,
    },
}

/// A Lipson structure (Lipson material: 0.1 m voxels, 0.1 kg masses, k = 10 000 N/m)
/// dropped onto the ground.
///
/// Parameters: Lipson's (dt = 1e-4 s, penalty ground k_c = 100 000 N/m) with its Coulomb
/// friction feature (mu_s = 1.0, mu_k = 0.8) and its velocity damping (multiply v by 0.999 each
/// 1e-4 s step, [`Params::damping_rate_from_factor`]), so the structure lands, tumbles and
/// settles.
///
/// # Examples
///
/// ```
/// use hooke::creatures::DroppedStructure;
///
/// let cubes = DroppedStructure::three_cubes().build()?; // lowest mass 0.3 m up
/// assert_eq!((cubes.part.masses.len(), cubes.part.min_z()), (16, Some(0.3)));
/// let mut world = cubes.world()?;
/// let z0 = world.body_centre_of_mass(0)?.z;
/// world.step_for(0.1)?; // still in the air
/// // Falling with velocity damping gamma, it drops (g / gamma) (t - (1 - exp(-gamma t)) / gamma).
/// // Semi-implicit Euler's positions differ from that by less than dt times the speed reached
/// // (0.63 m/s x 1e-4 s = 6e-5 m).
/// let (g, gamma, t) = (9.81, cubes.params.velocity_damping, 0.1);
/// let drop = g / gamma * (t - (1.0 - (-gamma * t).exp()) / gamma);
/// assert!((z0 - world.body_centre_of_mass(0)?.z - drop).abs() < 1e-4);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DroppedStructure {
    /// Which structure.
    pub kind: StructureKind,
    /// Initial height of the structure's lowest mass in m (default 0.3). Finite and >= 0.
    pub height: f64,
    /// Rotation vector (axis times angle, rad) applied before the drop (default 0.3 rad about
    /// the axis `(1, 1, 0) / sqrt 2`), so that it lands on a corner and tumbles. Finite.
    #[schemars(with = "[f64; 3]")]
    pub rotation: DVec3,
}

impl Default for DroppedStructure {
    /// Lipson's three attached cubes, dropped from 0.3 m with the default tilt.
    fn default() -> Self {
        Self::three_cubes()
    }
}

impl DroppedStructure {
    /// A structure of kind `kind` dropped from 0.3 m with the default tilt.
    #[must_use]
    pub fn new(kind: StructureKind) -> Self {
        Self {
            kind,
            height: 0.3,
            rotation: DVec3::new(1.0, 1.0, 0.0).normalize() * 0.3,
        }
    }

    /// Lipson's three attached cubes.
    #[must_use]
    pub fn three_cubes() -> Self {
        Self::new(StructureKind::ThreeCubes)
    }

    /// Lipson's hinge.
    #[must_use]
    pub fn hinge() -> Self {
        Self::new(StructureKind::Hinge)
    }

    /// Lipson's random structure with seed `seed`.
    #[must_use]
    pub fn random_blob(seed: u64) -> Self {
        Self::new(StructureKind::RandomBlob { seed })
    }

    /// Builds the structure, tilted and lifted so its lowest mass is at `height`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a negative or non-finite
    /// height or a non-finite rotation; the errors of the underlying builder.
    pub fn build(&self) -> Result<Creature> {
        non_negative("dropped.height", self.height, "must be finite and >= 0 (m)")?;
        let rotate = Placement::IDENTITY.with_rotation(self.rotation);
        let voxels = |body: VoxelBody| -> Result<(Part, Vec<[u32; 8]>)> {
            let built = body.build_voxels()?;
            let mut part = built.part;
            rotate.apply(&mut part)?;
            Ok((part, built.voxel_masses))
        };
        let (name, (mut part, cells)) = match self.kind {
            StructureKind::ThreeCubes => ("three cubes", voxels(VoxelBody::three_cubes())?),
            StructureKind::Hinge => ("hinge", voxels(VoxelBody::hinge())?),
            StructureKind::RandomBlob { seed } => (
                "random blob",
                (
                    RandomStructure {
                        seed,
                        ..RandomStructure::default()
                    }
                    .build_at(&rotate)?,
                    Vec::new(),
                ),
            ),
        };
        let lowest = part.min_z().unwrap_or(0.0);
        part.translate(DVec3::new(0.0, 0.0, self.height - lowest));
        let params = Params {
            friction: Friction::coulomb(1.0, 0.8),
            velocity_damping: Params::damping_rate_from_factor(0.999, 1e-4),
            ..Params::default()
        };
        Ok(Creature::new(name, part, params).with_cells(cells))
    }
}
