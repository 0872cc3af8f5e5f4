//! [`VoxelGenome`]: a direct encoding of a voxel robot (Cheney et al. 2013), and its seeded
//! random draw, mutation and crossover.

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Largest number of cells a genome may have (`size[0] * size[1] * size[2]`).
pub const MAX_GENOME_CELLS: u64 = 1 << 20;

/// What one cell of a [`VoxelGenome`] holds.
///
/// In JSON: `"empty"`, `"soft"`, `"stiff"` or `{"muscle": {"phase": 2}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum VoxelMaterial {
    /// No voxel.
    Empty,
    /// Passive soft material ([`GenomeSettings::soft_stiffness`](super::GenomeSettings::soft_stiffness)).
    Soft,
    /// Passive stiff material ([`GenomeSettings::stiff_stiffness`](super::GenomeSettings::stiff_stiffness)).
    Stiff,
    /// A muscle: soft material whose springs' rest lengths oscillate (or follow a command), in
    /// phase `phase` of [`GenomeSettings::phases`](super::GenomeSettings::phases), evenly spaced
    /// in the cycle.
    Muscle {
        /// Phase index, below `GenomeSettings::phases`.
        phase: u8,
    },
}

impl VoxelMaterial {
    /// The material numbered `k` of `2 + phases` filled ones: soft, stiff, then the muscles.
    fn filled(k: u32) -> Self {
        match k {
            0 => Self::Soft,
            1 => Self::Stiff,
            p => Self::Muscle {
                phase: (p - 2) as u8,
            },
        }
    }

    /// A uniform draw among the `3 + phases` materials (empty included).
    fn draw(rng: &mut impl Rng, phases: u8) -> Self {
        match rng.random_range(0..3 + u32::from(phases)) {
            0 => Self::Empty,
            k => Self::filled(k - 1),
        }
    }
}

/// A voxel robot as a small grid of materials, Cheney et al. 2013's direct encoding: each cell
/// is empty, passive soft, passive stiff or a muscle of one of a few phases.
///
/// Cell `[x, y, z]` is `cells[(z * size[1] + y) * size[0] + x]` (x fastest). Build the robot
/// with [`VoxelGenome::part`]. Random draws, mutation and crossover take any [`Rng`]; with
/// `rand_chacha::ChaCha8Rng::seed_from_u64(seed)` a seed gives the same genome on every
/// platform (ChaCha's stream is specified bit for bit, and the draws here use only `u32` ranges,
/// `f64` in `[0, 1)` and `bool`, whose conversions rand fixes across platforms).
///
/// # Examples
///
/// ```
/// use hooke::population::{GenomeSettings, VoxelGenome, VoxelMaterial};
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
///
/// let mut rng = ChaCha8Rng::seed_from_u64(7);
/// let settings = GenomeSettings::default(); // 0.1 m voxels, 4 muscle phases
/// let mut genome = VoxelGenome::random(&mut rng, [4, 4, 3], 0.7, settings.phases)?;
/// genome.mutate(&mut rng, 0.05, settings.phases)?; // each cell redrawn with probability 5 %
/// let child = VoxelGenome::crossover(&genome, &genome.clone(), &mut rng)?;
/// assert_eq!(child, genome); // every cell comes from one parent
///
/// let full = VoxelGenome::filled([2, 1, 1], VoxelMaterial::Muscle { phase: 1 });
/// let part = full.part(&settings)?;
/// assert_eq!(part.masses.len(), 3 * 2 * 2);
/// let json = serde_json::to_string(&full).unwrap();
/// assert_eq!(serde_json::from_str::<VoxelGenome>(&json).unwrap(), full);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VoxelGenome {
    /// Cells along x, y and z (each at least 1).
    pub size: [u32; 3],
    /// The cells, x fastest, then y, then z: `size[0] * size[1] * size[2]` of them.
    pub cells: Vec<VoxelMaterial>,
}

impl VoxelGenome {
    /// A genome of `size` cells, all `material`.
    #[must_use]
    pub fn filled(size: [u32; 3], material: VoxelMaterial) -> Self {
        let n = size.iter().map(|&s| s as usize).product();
        Self {
            size,
            cells: vec![material; n],
        }
    }

    /// A random genome of `size` cells: each cell is filled with probability `fill`, and a filled
    /// cell is soft, stiff or a muscle of one of `phases` phases, all `2 + phases` equally
    /// likely.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] for a size with a zero dimension or more than
    /// [`MAX_GENOME_CELLS`] cells; [`Error::InvalidParameter`] for `fill` outside `[0, 1]`
    /// or `phases == 0`.
    pub fn random(rng: &mut impl Rng, size: [u32; 3], fill: f64, phases: u8) -> Result<Self> {
        check_size(size)?;
        check_probability("genome fill", fill)?;
        check_phases(phases)?;
        let mut genome = Self::filled(size, VoxelMaterial::Empty);
        for cell in &mut genome.cells {
            // Both draws are made for every cell, so the stream does not depend on `fill`.
            let filled = rng.random::<f64>() < fill;
            let k = rng.random_range(0..2 + u32::from(phases));
            if filled {
                *cell = VoxelMaterial::filled(k);
            }
        }
        Ok(genome)
    }

    /// Redraws each cell with probability `rate`, uniformly among the `3 + phases` materials
    /// (empty included; the draw may give the cell's own material back). Rate 0 leaves the
    /// genome unchanged.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for `rate` outside `[0, 1]` or `phases == 0`.
    pub fn mutate(&mut self, rng: &mut impl Rng, rate: f64, phases: u8) -> Result<()> {
        check_probability("mutation rate", rate)?;
        check_phases(phases)?;
        for cell in &mut self.cells {
            if rng.random::<f64>() < rate {
                *cell = VoxelMaterial::draw(rng, phases);
            }
        }
        Ok(())
    }

    /// Uniform crossover: each cell of the child is the same cell of `a` or of `b`, each with
    /// probability 1/2.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] when the parents' sizes or cell counts differ.
    pub fn crossover(a: &Self, b: &Self, rng: &mut impl Rng) -> Result<Self> {
        a.check()?;
        b.check()?;
        if a.size != b.size {
            return Err(invalid(format!(
                "crossover of genomes of different sizes {:?} and {:?}",
                a.size, b.size
            )));
        }
        let cells = a
            .cells
            .iter()
            .zip(&b.cells)
            .map(|(&x, &y)| if rng.random::<bool>() { x } else { y })
            .collect();
        Ok(Self {
            size: a.size,
            cells,
        })
    }

    /// Number of filled cells.
    #[must_use]
    pub fn filled_count(&self) -> usize {
        self.cells
            .iter()
            .filter(|&&c| c != VoxelMaterial::Empty)
            .count()
    }

    /// Checks the size and cell count.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] (builder `"genome"`) for a zero dimension, more than
    /// [`MAX_GENOME_CELLS`] cells, or a cell count other than `size[0] * size[1] * size[2]`.
    pub fn check(&self) -> Result<()> {
        check_size(self.size)?;
        let n: u64 = self.size.iter().map(|&s| u64::from(s)).product();
        if self.cells.len() as u64 != n {
            return Err(invalid(format!(
                "a genome of size {:?} needs {n} cells, got {}",
                self.size,
                self.cells.len()
            )));
        }
        Ok(())
    }
}

pub(super) fn invalid(reason: String) -> Error {
    Error::InvalidBuilder {
        builder: "genome",
        reason,
    }
}

fn check_size(size: [u32; 3]) -> Result<()> {
    let n: u64 = size.iter().map(|&s| u64::from(s)).product();
    if n == 0 || n > MAX_GENOME_CELLS {
        return Err(invalid(format!(
            "size {size:?} must have every dimension >= 1 and at most {MAX_GENOME_CELLS} cells"
        )));
    }
    Ok(())
}

fn check_probability(name: &'static str, p: f64) -> Result<()> {
    crate::validate::require(
        p.is_finite() && (0.0..=1.0).contains(&p),
        name,
        p,
        "must be a probability in [0, 1]",
    )
}

fn check_phases(phases: u8) -> Result<()> {
    crate::validate::require(phases >= 1, "genome.phases", 0.0, "must be at least 1")
}
