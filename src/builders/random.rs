//! A random connected structure (Lipson, "add masses randomly ... each new mass connected to at
//! least three other masses").

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{fits_u32, invalid, Builder};
use crate::error::Result;
use crate::model::{Mass, Part, Spring};
use crate::validate::{at_least, buildable, non_negative, positive, require};

/// SplitMix64 (Steele, Lea and Flood, 2014; the seeding generator of `java.util.SplittableRandom`
/// and of xoshiro): a 64-bit state advanced by the golden-ratio increment `0x9E3779B97F4A7C15`
/// and scrambled by two xor-shift-multiply rounds. Small, fast, and the same on every platform,
/// which is all a reproducible builder needs (it is not cryptographic).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in [0, 1) with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The most masses a [`RandomStructure`] may have: its nearest-mass search is quadratic, so
/// 16 384 masses already take a few hundred million distance computations.
pub const MAX_RANDOM_MASSES: u32 = 16_384;

/// A random connected structure in which every mass is joined to at least `connections` (>= 3)
/// others (Lipson), the same for the same `seed` on every machine.
///
/// Construction:
/// 1. Positions are drawn uniformly in the cube `[0, size]^3` (local frame) with [`SplitMix64`]
///    seeded by `seed` (x, y, z in that order), a draw closer than `min_spacing` to an earlier
///    mass being redrawn (up to 10 000 times per mass).
/// 2. The first `connections + 1` masses are joined pairwise (a complete graph, degree
///    `connections` each).
/// 3. Every later mass is joined to its `connections` nearest earlier masses (ties broken by the
///    lower index).
///
/// So the graph is connected and every degree is at least `connections`; in 3D, three springs to
/// points already in place hold a new mass rigidly (a tetrahedral extension). The nearest-neighbour
/// search is quadratic: meant for up to a few thousand masses. Springs are Hooke springs with rest
/// length the initial distance.
///
/// # Examples
///
/// ```
/// use hooke::{Builder, RandomStructure};
///
/// let blob = RandomStructure { masses: 12, seed: 7, ..RandomStructure::default() };
/// let part = blob.build()?;
/// // The first 4 masses pairwise (6 springs), then 3 springs from each of the other 8.
/// assert_eq!(part.springs.len(), 6 + 8 * 3);
/// let mut degree = [0; 12];
/// for s in &part.springs {
///     degree[s.a as usize] += 1;
///     degree[s.b as usize] += 1;
/// }
/// assert!(degree.iter().all(|&d| d >= 3));
/// // The same seed gives the same structure, on every machine.
/// assert_eq!(blob.build()?, part);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RandomStructure {
    /// Number of masses (default 20); more than `connections`.
    pub masses: u32,
    /// Springs from each new mass to earlier ones (default 3); at least 3.
    pub connections: u32,
    /// Edge of the cube the masses are drawn in, in m (default 0.2). Finite and > 0.
    pub size: f64,
    /// Smallest allowed distance between two masses in m (default 0.02). Finite and >= 0.
    pub min_spacing: f64,
    /// Mass of each point in kg (default 0.1). Finite and > 0.
    pub mass: f64,
    /// Spring stiffness in N/m (default 10 000). Finite and >= 0.
    pub stiffness: f64,
    /// Axial spring damping in N*s/m (default 0). Finite and >= 0.
    pub damping: f64,
    /// Seed of the generator (default 0).
    pub seed: u64,
}

impl Default for RandomStructure {
    fn default() -> Self {
        Self {
            masses: 20,
            connections: 3,
            size: 0.2,
            min_spacing: 0.02,
            mass: 0.1,
            stiffness: 10_000.0,
            damping: 0.0,
            seed: 0,
        }
    }
}

impl Builder for RandomStructure {
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for `connections < 3`, `masses
    /// <= connections`, a size or mass that is not finite and > 0, or a negative or non-finite
    /// spacing, stiffness or damping; [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) if
    /// the masses cannot be placed `min_spacing` apart.
    fn build(&self) -> Result<Part> {
        at_least(
            "random.connections",
            self.connections as usize,
            3,
            "must be at least 3",
        )?;
        require(
            self.masses > self.connections,
            "random.masses",
            f64::from(self.masses),
            "must exceed random.connections",
        )?;
        require(
            self.masses <= MAX_RANDOM_MASSES,
            "random.masses",
            f64::from(self.masses),
            "must be at most 16384: the nearest-mass search is quadratic",
        )?;
        let connections = f64::from(self.connections);
        buildable(
            "random.connections",
            connections,
            f64::from(self.masses) * (connections + 1.0),
        )?;
        positive("random.size", self.size, "must be finite and > 0 (m)")?;
        non_negative(
            "random.min_spacing",
            self.min_spacing,
            "must be finite and >= 0 (m)",
        )?;
        positive("random.mass", self.mass, "must be finite and > 0 (kg)")?;
        non_negative(
            "random.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "random.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        fits_u32("random", self.masses as usize)?;

        let mut rng = SplitMix64::new(self.seed);
        let mut part = Part::new();
        let min2 = self.min_spacing * self.min_spacing;
        for i in 0..self.masses {
            let mut tries = 0;
            let p = loop {
                let p = DVec3::new(rng.next_f64(), rng.next_f64(), rng.next_f64()) * self.size;
                if part
                    .masses
                    .iter()
                    .all(|m| m.position.distance_squared(p) >= min2)
                {
                    break p;
                }
                tries += 1;
                if tries == 10_000 {
                    return Err(invalid(
                        "random",
                        format!(
                            "could not place mass {i} at least {} m from the others in a {} m cube; lower min_spacing or raise size",
                            self.min_spacing, self.size
                        ),
                    ));
                }
            };
            part.add_mass(Mass::new(self.mass, p));
        }
        let c = self.connections;
        for a in 0..=c {
            for b in a + 1..=c {
                part.connect(a, b, self.stiffness, self.damping);
            }
        }
        let mut near: Vec<(f64, u32)> = Vec::new();
        for b in c + 1..self.masses {
            let pb = part.masses[b as usize].position;
            near.clear();
            near.extend((0..b).map(|a| (part.masses[a as usize].position.distance_squared(pb), a)));
            near.select_nth_unstable_by(c as usize - 1, |x, y| {
                x.0.total_cmp(&y.0).then(x.1.cmp(&y.1))
            });
            let mut chosen: Vec<u32> = near[..c as usize].iter().map(|&(_, a)| a).collect();
            chosen.sort_unstable();
            for a in chosen {
                let rest = part.masses[a as usize].position.distance(pb);
                part.add_spring(
                    Spring::hooke(a, b, self.stiffness, rest).with_damping(self.damping),
                );
            }
        }
        Ok(part)
    }
}
