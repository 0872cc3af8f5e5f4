//! [`GenomeSettings`]: the materials a [`VoxelGenome`](super::VoxelGenome) is built from.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::builders::Material;
use crate::error::{Error, Result};
use crate::validate::{non_negative, positive, require};

/// The materials and muscle drive a [`VoxelGenome`](super::VoxelGenome) is built with
/// ([`VoxelGenome::part`](super::VoxelGenome::part)). JSON fields may be left out (defaults
/// below); unknown fields are an error.
///
/// The defaults make Lipson-sized voxels (0.1 m, 0.1 kg corners) that are stable at the default
/// `dt = 1e-4` s: the stiffest corner (26 springs of 20 000 N/m) has `2 sqrt(m / k) = 6e-4` s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GenomeSettings {
    /// Edge length of a voxel, m (default 0.1). Finite and > 0.
    pub voxel_size: f64,
    /// Mass of each voxel corner, kg (default 0.1). Finite and > 0.
    pub corner_mass: f64,
    /// Stiffness of the springs of soft and muscle voxels, N/m (default 5 000). Finite and >= 0.
    pub soft_stiffness: f64,
    /// Stiffness of the springs of stiff voxels, N/m (default 20 000). Finite and >= 0.
    pub stiff_stiffness: f64,
    /// Axial damping of every spring, N*s/m (default 1). Finite and >= 0.
    pub damping: f64,
    /// Relative amplitude of the muscles (0.1 = 10 % of the rest length; default 0.1). Finite,
    /// `0 <= amplitude < 1`.
    pub muscle_amplitude: f64,
    /// Frequency of the muscles, Hz (default 2). Finite and >= 0.
    pub muscle_frequency: f64,
    /// Number of muscle phases, evenly spaced in the cycle: phase `p` starts `p / phases` of a
    /// period late (default 4). At least 1.
    pub phases: u8,
    /// Muscles as commanded actuators (their rest length set by a controller through
    /// `Simulation::set_commands`) instead of sines (default false).
    pub commanded: bool,
    /// The material of soft and muscle voxels (default `None`). When given, it replaces
    /// `corner_mass`, `soft_stiffness` and `damping` (masses, springs and damping come from the
    /// materials, as [`Material`] derives), and `stiff_material` is required.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
    /// The material of stiff voxels (default `None`), replacing `stiff_stiffness`; only with
    /// `material`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stiff_material: Option<Material>,
}

impl Default for GenomeSettings {
    fn default() -> Self {
        Self {
            voxel_size: 0.1,
            corner_mass: 0.1,
            soft_stiffness: 5_000.0,
            stiff_stiffness: 20_000.0,
            damping: 1.0,
            muscle_amplitude: 0.1,
            muscle_frequency: 2.0,
            phases: 4,
            commanded: false,
            material: None,
            stiff_material: None,
        }
    }
}

impl GenomeSettings {
    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first bad field (`"genome.voxel_size"`, ...,
    /// `"material.density"`), its value and the allowed range; [`Error::InvalidBuilder`] for
    /// one of `material` and `stiff_material` without the other.
    pub fn validate(&self) -> Result<()> {
        positive(
            "genome.voxel_size",
            self.voxel_size,
            "must be finite and > 0 (m)",
        )?;
        positive(
            "genome.corner_mass",
            self.corner_mass,
            "must be finite and > 0 (kg)",
        )?;
        non_negative(
            "genome.soft_stiffness",
            self.soft_stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "genome.stiff_stiffness",
            self.stiff_stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "genome.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        require(
            self.muscle_amplitude.is_finite() && (0.0..1.0).contains(&self.muscle_amplitude),
            "genome.muscle_amplitude",
            self.muscle_amplitude,
            "must be finite with 0 <= amplitude < 1 (relative)",
        )?;
        non_negative(
            "genome.muscle_frequency",
            self.muscle_frequency,
            "must be finite and >= 0 (Hz)",
        )?;
        match (self.material, self.stiff_material) {
            (Some(soft), Some(stiff)) => {
                soft.validate()?;
                stiff.validate()?;
            }
            (None, None) => {}
            _ => {
                return Err(Error::InvalidBuilder {
                    builder: "genome",
                    reason: "\"material\" and \"stiff_material\" go together: give both or neither"
                        .to_string(),
                })
            }
        }
        if self.phases == 0 {
            return Err(Error::InvalidParameter {
                name: "genome.phases",
                value: 0.0,
                expected: "must be at least 1",
            });
        }
        Ok(())
    }
}
