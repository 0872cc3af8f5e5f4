//! A bed of loose colliding particles on a jittered grid: sand, gravel, piles, and the collision
//! benchmark's large scenes.

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{invalid, Builder, SplitMix64};
use crate::error::Result;
use crate::model::{Body, Collision, Contact, Friction, Mass, Model, Params, Part};
use crate::validate::{at_least, buildable, positive, require};

/// `count` loose particles (masses with a collision radius, no springs) on a jittered grid.
///
/// Local frame: particle `i` sits in column `i % columns` along x, row `(i / columns) % columns`
/// along y and layer `i / columns^2` along z (x fastest, so a layer holds `columns^2` particles
/// and the top one may be partial). Its grid point is `((col + 0.5) s, (row + 0.5) s,
/// (layer + 0.5) s)` with `s = spacing`, so the bed fills `[0, columns s]^2 x [0, layers s]`;
/// each coordinate then moves by a uniform offset in `+-jitter g / 2`, where `g = s - 2 radius`
/// is the free gap between grid neighbours, drawn with [`SplitMix64`] seeded by `seed` (x, y, z
/// of each particle in index order). With `jitter <= 1` no two particles touch at the start:
/// grid neighbours stay at least `2 radius` apart along their axis. Particles start at rest.
///
/// Hooke's ground and obstacles touch a mass's centre, not the surface of its collision sphere:
/// a bed built at the origin has its lowest centres `s / 2` above the ground and falls that far.
/// [`ParticleBed::model`] places it so that the lowest centres start within the gap of it.
///
/// # Examples
///
/// ```
/// use hooke::{Builder, CpuWorld, ParticleBed};
///
/// let bed = ParticleBed { count: 500, columns: 10, ..ParticleBed::default() };
/// let part = bed.build()?;
/// assert_eq!((part.masses.len(), part.springs.len()), (500, 0));
/// assert!(part.masses.iter().all(|m| m.collision_radius == bed.radius));
/// let mut world = CpuWorld::new(&bed.model()?)?;
/// assert!(world.contacts().is_empty()); // jitter <= 1: nothing touches at the start
/// world.step(300)?; // 30 ms: the layers fall onto one another
/// assert!(!world.contacts().is_empty());
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ParticleBed {
    /// Number of particles (default 1000). At least 1.
    pub count: u32,
    /// Particles per row along x and along y (default 10): a layer holds `columns^2`. At least 1.
    pub columns: u32,
    /// Collision radius of each particle, m (default 0.005). Finite and > 0.
    pub radius: f64,
    /// Grid pitch `s`, m (default 0.0105: a gap of 0.5 mm between grid neighbours). Finite and
    /// at least `2 radius`.
    pub spacing: f64,
    /// Jitter of each coordinate, as a fraction of the free gap `s - 2 radius` (default 1: up to
    /// half the gap either way). In `[0, 1]`.
    pub jitter: f64,
    /// Mass of each particle, kg (default 0.01). Finite and > 0.
    pub mass: f64,
    /// Seed of the jitter (default 13).
    pub seed: u64,
}

impl Default for ParticleBed {
    fn default() -> Self {
        Self {
            count: 1000,
            columns: 10,
            radius: 0.005,
            spacing: 0.0105,
            jitter: 1.0,
            mass: 0.01,
            seed: 13,
        }
    }
}

impl ParticleBed {
    /// The collision benchmark's bed of `count` particles: 5 mm radius, 10 g, a pitch of
    /// 10.02 mm (20 um gaps, so that the layers settle onto one another within about 100 steps
    /// of [`ParticleBed::model`]), and `columns = round(sqrt(count / 10))` (at least 1): about
    /// ten layers deep whatever the count, so that the share of particles on the bed's surface,
    /// and with it the neighbours per particle, hardly changes with size.
    #[must_use]
    pub fn benchmark(count: u32) -> Self {
        let columns = (f64::from(count) / 10.0).sqrt().round().max(1.0) as u32;
        Self {
            count,
            columns,
            spacing: 0.010_02,
            ..Self::default()
        }
    }

    /// The parameters [`ParticleBed::model`] uses: [`Params::default`] (dt = 1e-4 s, gravity
    /// along -z) with a damped penalty ground (100 000 N/m, 20 N*s/m), Coulomb friction 0.5 /
    /// 0.4 on the ground, and damped collisions with friction (100 000 N/m, 10 N*s/m, 0.5), so
    /// the bed settles and every part of the pair force is exercised.
    #[must_use]
    pub fn params() -> Params {
        Params {
            contact: Contact::Penalty {
                stiffness: 100_000.0,
                damping: 20.0,
            },
            friction: Friction::coulomb(0.5, 0.4),
            collision: Collision {
                stiffness: 100_000.0,
                damping: 10.0,
                friction: 0.5,
            },
            ..Params::default()
        }
    }

    /// A [`Model`] with this bed as its one body (named `"bed"`) and [`ParticleBed::params`],
    /// moved down by `(spacing - g) / 2` (`g` the free gap): the lowest grid points start `g / 2`
    /// above the ground, so the lowest centres start between 0 and `g` above it.
    ///
    /// # Errors
    /// As [`Builder::build`].
    pub fn model(&self) -> Result<Model> {
        let mut part = self.build()?;
        let gap = self.spacing - 2.0 * self.radius;
        part.translate(DVec3::new(0.0, 0.0, -(self.spacing - gap) / 2.0));
        Ok(Model {
            params: Self::params(),
            bodies: vec![Body {
                name: "bed".to_string(),
                masses: 0..part.masses.len(),
                springs: 0..0,
                self_collision: true,
            }],
            masses: part.masses,
            springs: Vec::new(),
            actuators: Vec::new(),
            obstacles: Vec::new(),
            class_collisions: Vec::new(),
        })
    }

    fn validate(&self) -> Result<()> {
        at_least(
            "particle_bed.count",
            self.count as usize,
            1,
            "must be at least 1",
        )?;
        let count = f64::from(self.count);
        buildable("particle_bed.count", count, count)?;
        at_least(
            "particle_bed.columns",
            self.columns as usize,
            1,
            "must be at least 1",
        )?;
        positive(
            "particle_bed.radius",
            self.radius,
            "must be finite and > 0 (m)",
        )?;
        positive(
            "particle_bed.spacing",
            self.spacing,
            "must be finite and > 0 (m)",
        )?;
        if self.spacing < 2.0 * self.radius {
            return Err(invalid(
                "particle_bed",
                format!(
                    "spacing {} m is below twice the radius {} m: neighbours would overlap",
                    self.spacing, self.radius
                ),
            ));
        }
        require(
            (0.0..=1.0).contains(&self.jitter),
            "particle_bed.jitter",
            self.jitter,
            "must be in [0, 1] (a fraction of the free gap)",
        )?;
        positive(
            "particle_bed.mass",
            self.mass,
            "must be finite and > 0 (kg)",
        )
    }
}

impl Builder for ParticleBed {
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming the field for a count
    /// or columns of 0, a radius, spacing or mass that is not finite and > 0, or a jitter outside
    /// `[0, 1]`; [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) for a spacing below
    /// twice the radius.
    fn build(&self) -> Result<Part> {
        self.validate()?;
        let s = self.spacing;
        let half = self.jitter * (s - 2.0 * self.radius) / 2.0;
        let mut random = SplitMix64::new(self.seed);
        let mut offset = || half * (2.0 * random.next_f64() - 1.0);
        let columns = u64::from(self.columns);
        let masses = (0..u64::from(self.count))
            .map(|i| {
                let grid = DVec3::new(
                    (i % columns) as f64 + 0.5,
                    ((i / columns) % columns) as f64 + 0.5,
                    (i / (columns * columns)) as f64 + 0.5,
                ) * s;
                let jitter = DVec3::new(offset(), offset(), offset());
                Mass::new(self.mass, grid + jitter).with_collision_radius(self.radius)
            })
            .collect();
        Ok(Part {
            masses,
            springs: Vec::new(),
            actuators: Vec::new(),
            self_collision: true,
        })
    }
}
