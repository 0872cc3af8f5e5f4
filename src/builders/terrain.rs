//! Terrain helpers: a [`Slope`], a [`Staircase`] and [`RoughGround`] make the [`Shape`]s of
//! common obstacles (wrap them in an [`Obstacle`](crate::Obstacle) with a contact and friction).

use glam::{DVec2, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::SplitMix64;
use crate::error::Result;
use crate::model::{Heightfield, Shape};
use crate::validate::{at_least, buildable, finite, non_negative, positive, require};

/// An inclined plane rising along +x at `angle` through `point`: the solid below the plane
/// `z = point.z + (x - point.x) tan(angle)`.
///
/// The plane has no edges: for a positive angle it rises for ever ahead of `point` and runs on
/// below the floor behind it, where the ground (when the model has one) carries what walks there.
/// A slope going down along +x (a negative angle) rises behind `point` likewise.
///
/// # Examples
///
/// ```
/// use hooke::{DVec3, Shape, Slope};
///
/// let slope = Slope { angle: 0.2, point: DVec3::ZERO }.shape()?;
/// let at = slope.surface(DVec3::new(1.0, 0.0, 0.2_f64.tan())).unwrap();
/// assert!(at.distance.abs() < 1e-12); // on the surface
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Slope {
    /// Inclination in rad, in (-pi/2, pi/2); positive rises along +x.
    pub angle: f64,
    /// A point of the surface, m.
    #[schemars(with = "[f64; 3]")]
    pub point: DVec3,
}

impl Slope {
    /// The plane.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an angle that is not
    /// finite or not within (-pi/2, pi/2), or a non-finite point.
    pub fn shape(&self) -> Result<Shape> {
        require(
            self.angle.is_finite() && self.angle.abs() < std::f64::consts::FRAC_PI_2,
            "slope.angle",
            self.angle,
            "must be finite and within (-pi/2, pi/2) rad",
        )?;
        for v in self.point.to_array() {
            finite("slope.point", v, "must be finite (m)")?;
        }
        let normal = DVec3::new(-self.angle.sin(), 0.0, self.angle.cos());
        Ok(Shape::Plane {
            normal,
            offset: normal.dot(self.point),
        })
    }
}

/// A staircase going up along +x: `steps` solid boxes, step `k` (from 0) covering
/// `x` in `[start.x + k run, start.x + (k + 1) run]`, `y` in `start.y +- width / 2` and `z` from
/// `start.z - footing` up to `start.z + (k + 1) rise`.
///
/// The footing is the part of each step below the floor it stands on (`start.z`, usually the
/// ground). Contact is by penalty, so a mass resting on the floor sits slightly inside it
/// (`m g / k`, 1e-5 m to 1e-3 m); were the boxes to end at `start.z`, such a mass would be below
/// their bottom face and slide under the step instead of being stopped by its front. The footing
/// (default [`Staircase::FOOTING`], 1 m) puts solid step there. To walk down the stairs, start on
/// the top step and go along -x.
///
/// In a scene file (`"terrain": { "stairs": { .. } }`) every field may be left out and takes
/// [`Staircase::default`]'s value.
///
/// # Examples
///
/// ```
/// use hooke::{DVec3, Staircase};
///
/// let stairs = Staircase { steps: 3, rise: 0.05, run: 0.3, ..Staircase::default() };
/// let boxes = stairs.shapes()?;
/// assert_eq!(boxes.len(), 3);
/// // The top of the third step, 0.15 m up.
/// let top = boxes[2].surface(DVec3::new(0.75, 0.0, 0.15)).unwrap();
/// assert!(top.distance.abs() < 1e-12);
/// // A mass 1 mm into the floor just past the first step's front is inside it, 1 cm behind the
/// // front face (whose outward normal, -x, pushes it back out), not under it.
/// let front = boxes[0].surface(DVec3::new(0.01, 0.0, -1e-3)).unwrap();
/// assert!((front.distance + 0.01).abs() < 1e-12);
/// assert_eq!(front.normal, -DVec3::X);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Staircase {
    /// Bottom corner of the first step's front edge (its centre along y), m.
    #[schemars(with = "[f64; 3]")]
    pub start: DVec3,
    /// Number of steps (>= 1).
    pub steps: usize,
    /// Height of each step, m (> 0).
    pub rise: f64,
    /// Depth of each step along x, m (> 0).
    pub run: f64,
    /// Width along y, m (> 0).
    pub width: f64,
    /// Depth the boxes reach below `start.z`, m (>= 0; default [`Staircase::FOOTING`], also when
    /// omitted in JSON).
    #[serde(default = "Staircase::default_footing")]
    pub footing: f64,
}

impl Default for Staircase {
    /// Five steps of 5 cm rise and 20 cm run, 1 m wide, from the origin up along +x, with the
    /// default footing.
    fn default() -> Self {
        Self {
            start: DVec3::ZERO,
            steps: 5,
            rise: 0.05,
            run: 0.2,
            width: 1.0,
            footing: Self::FOOTING,
        }
    }
}

impl Staircase {
    /// Default [`Staircase::footing`], m: far deeper than any penalty contact depth (1e-5 m to
    /// 1e-3 m for the contacts hooke's presets use), so nothing pressed into the floor reaches
    /// the bottom of a step.
    pub const FOOTING: f64 = 1.0;

    fn default_footing() -> f64 {
        Self::FOOTING
    }

    /// One axis-aligned box per step.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for no steps, a rise, run or
    /// width that is not finite and > 0, a footing that is not finite and >= 0, or a non-finite
    /// start.
    pub fn shapes(&self) -> Result<Vec<Shape>> {
        at_least("staircase.steps", self.steps, 1, "needs at least 1 step")?;
        buildable("staircase.steps", self.steps as f64, self.steps as f64)?;
        positive("staircase.rise", self.rise, "must be finite and > 0 (m)")?;
        positive("staircase.run", self.run, "must be finite and > 0 (m)")?;
        positive("staircase.width", self.width, "must be finite and > 0 (m)")?;
        non_negative(
            "staircase.footing",
            self.footing,
            "must be finite and >= 0 (m)",
        )?;
        for v in self.start.to_array() {
            finite("staircase.start", v, "must be finite (m)")?;
        }
        Ok((0..self.steps)
            .map(|k| {
                // From start.z - footing up to start.z + (k + 1) rise.
                let top = (k + 1) as f64 * self.rise;
                let height = top + self.footing;
                let half_extents = DVec3::new(0.5 * self.run, 0.5 * self.width, 0.5 * height);
                let centre = self.start
                    + DVec3::new((k as f64 + 0.5) * self.run, 0.0, 0.5 * (top - self.footing));
                Shape::Box {
                    centre,
                    half_extents,
                }
            })
            .collect())
    }
}

/// Random rough ground: a `columns x rows` [`Heightfield`] from `origin` whose heights are drawn
/// uniformly in `[0, amplitude]` (m) by [`SplitMix64`] seeded with `seed`, the same on every
/// machine. The bumps are one sample wide: choose `spacing` for the size of the bumps.
///
/// The samples on the border of the rectangle are at height 0 (`origin.z`), so the patch meets a
/// floor at `origin.z` (the ground, for `origin.z = 0`) without a step. A heightfield has no side
/// walls: a mass that arrived beside a raised edge would find itself inside the solid at once,
/// as deep as the edge is high, and be thrown up by the penalty force (`k d^2 / 2` = 20 J for a
/// 2 cm edge at `k` = 1e5 N/m). A mass that leaves the rectangle no longer touches the
/// heightfield and rests on whatever is below it (nothing, when there is no ground there).
///
/// In a scene file (`"terrain": { "rough_ground": { .. } }`) every field may be left out and
/// takes [`RoughGround::default`]'s value.
///
/// # Examples
///
/// ```
/// use hooke::{DVec2, DVec3, RoughGround};
///
/// let rough = RoughGround {
///     origin: DVec3::new(-1.0, -1.0, 0.0),
///     spacing: DVec2::splat(0.1),
///     columns: 21,
///     rows: 21,
///     amplitude: 0.02,
///     seed: 7,
/// };
/// let h = rough.heightfield()?;
/// assert_eq!(h.heights.len(), 21 * 21);
/// assert!(h.heights.iter().all(|&z| (0.0..=0.02).contains(&z)));
/// // The border is flat with the floor: no step where the ground meets the patch.
/// assert_eq!((h.heights[0], h.heights[20], h.heights[21 * 21 - 1]), (0.0, 0.0, 0.0));
/// assert!(h.heights[21 + 1] > 0.0);
/// assert_eq!(h, rough.heightfield()?); // same seed, same ground
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RoughGround {
    /// Position of sample (0, 0), m.
    #[schemars(with = "[f64; 3]")]
    pub origin: DVec3,
    /// Distance between samples along x and y, m (each > 0).
    #[schemars(with = "[f64; 2]")]
    pub spacing: DVec2,
    /// Samples along x (>= 2).
    pub columns: usize,
    /// Samples along y (>= 2).
    pub rows: usize,
    /// Largest height above `origin.z`, m (>= 0).
    pub amplitude: f64,
    /// Seed of the generator.
    pub seed: u64,
}

impl Default for RoughGround {
    /// 2 m x 2 m of bumps up to 2 cm high, 10 cm apart (21 x 21 samples from the origin along
    /// +x and +y), seed 0.
    fn default() -> Self {
        Self {
            origin: DVec3::ZERO,
            spacing: DVec2::splat(0.1),
            columns: 21,
            rows: 21,
            amplitude: 0.02,
            seed: 0,
        }
    }
}

impl RoughGround {
    /// The heightfield.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for fewer than 2 samples
    /// along an axis, a spacing that is not finite and > 0, a negative or non-finite amplitude,
    /// or a non-finite origin.
    pub fn heightfield(&self) -> Result<Heightfield> {
        at_least("rough.columns", self.columns, 2, "needs at least 2 samples")?;
        at_least("rough.rows", self.rows, 2, "needs at least 2 samples")?;
        // The larger count is named: it is the one to shrink.
        let samples = self.columns as f64 * self.rows as f64;
        if self.columns >= self.rows {
            buildable("rough.columns", self.columns as f64, samples)?;
        } else {
            buildable("rough.rows", self.rows as f64, samples)?;
        }
        positive(
            "rough.spacing.x",
            self.spacing.x,
            "must be finite and > 0 (m)",
        )?;
        positive(
            "rough.spacing.y",
            self.spacing.y,
            "must be finite and > 0 (m)",
        )?;
        non_negative(
            "rough.amplitude",
            self.amplitude,
            "must be finite and >= 0 (m)",
        )?;
        for v in self.origin.to_array() {
            finite("rough.origin", v, "must be finite (m)")?;
        }
        let mut rng = SplitMix64::new(self.seed);
        let (columns, rows) = (self.columns, self.rows);
        // Sample n is (i, j) = (n mod columns, n / columns).
        let border = |n: usize| {
            let (i, j) = (n % columns, n / columns);
            i == 0 || i == columns - 1 || j == 0 || j == rows - 1
        };
        Ok(Heightfield {
            origin: self.origin,
            spacing: self.spacing,
            columns,
            rows,
            heights: (0..columns * rows)
                .map(|n| {
                    // Every sample draws, so the inner heights do not depend on the border.
                    let h = self.amplitude * rng.next_f64();
                    if border(n) {
                        0.0
                    } else {
                        h
                    }
                })
                .collect(),
        })
    }
}
