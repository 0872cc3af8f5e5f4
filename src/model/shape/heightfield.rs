//! [`Heightfield`] ([`Shape::Heightfield`](super::Shape::Heightfield)): terrain as a grid of
//! heights, bilinear between samples; everything below it over its rectangle is solid.

use glam::{DVec2, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::check::{finite_vec, positive, Check};
use super::mesh::Mesh;
use super::surface::Surface;

/// A grid of heights: sample `(i, j)` (`i < columns` along x, `j < rows` along y) sits at
/// `origin + (i spacing.x, j spacing.y, heights[j * columns + i])`. Between samples the surface is
/// bilinear in each cell; its normal is `(-dh/dx, -dh/dy, 1)` normalised, from the gradient of
/// that bilinear patch. The solid is everything below the surface over the grid's rectangle;
/// outside the rectangle the heightfield has no surface (a mass there does not touch it).
///
/// # Examples
///
/// ```
/// use hooke::{DVec2, DVec3, Heightfield};
///
/// // A ramp rising 0.1 m per metre along x, 3 x 2 samples 1 m apart.
/// let ramp = Heightfield::from_fn(DVec3::ZERO, DVec2::ONE, 3, 2, |x, _y| 0.1 * x);
/// assert_eq!(ramp.heights, vec![0.0, 0.1, 0.2, 0.0, 0.1, 0.2]);
/// assert!((ramp.height(1.5, 0.5).unwrap() - 0.15).abs() < 1e-12); // m
/// assert_eq!(ramp.height(2.5, 0.5), None); // outside the grid
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Heightfield {
    /// Position of sample `(0, 0)`; its z is added to every height, m.
    #[schemars(with = "[f64; 3]")]
    pub origin: DVec3,
    /// Distance between samples along x and y, m (each finite and > 0).
    #[schemars(with = "[f64; 2]")]
    pub spacing: DVec2,
    /// Samples along x (>= 2).
    pub columns: usize,
    /// Samples along y (>= 2).
    pub rows: usize,
    /// `columns * rows` finite heights, m, row by row (x fastest).
    pub heights: Vec<f64>,
}

/// Height and gradient of a heightfield at one point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Patch {
    /// Height of the surface, m (origin z included).
    pub(crate) height: f64,
    /// `(dh/dx, dh/dy)`, dimensionless.
    pub(crate) gradient: DVec2,
}

impl Heightfield {
    /// Samples `f(x, y)` (m, with `x`, `y` relative to `origin`) on a `columns x rows` grid.
    #[must_use]
    pub fn from_fn(
        origin: DVec3,
        spacing: DVec2,
        columns: usize,
        rows: usize,
        f: impl Fn(f64, f64) -> f64,
    ) -> Self {
        let mut heights = Vec::with_capacity(columns * rows);
        for j in 0..rows {
            for i in 0..columns {
                heights.push(f(i as f64 * spacing.x, j as f64 * spacing.y));
            }
        }
        Self {
            origin,
            spacing,
            columns,
            rows,
            heights,
        }
    }

    /// Size of the grid's rectangle along x and y, m.
    #[must_use]
    pub fn extent(&self) -> DVec2 {
        DVec2::new(
            (self.columns - 1) as f64 * self.spacing.x,
            (self.rows - 1) as f64 * self.spacing.y,
        )
    }

    /// The surface's height at `(x, y)` (m, world coordinates), or `None` outside the grid.
    #[must_use]
    pub fn height(&self, x: f64, y: f64) -> Option<f64> {
        self.patch(x, y).map(|p| p.height)
    }

    /// Height and gradient at `(x, y)` (world, m): the bilinear patch of the cell holding the
    /// point (the last cell for a point on the far edge), or `None` outside the grid.
    pub(crate) fn patch(&self, x: f64, y: f64) -> Option<Patch> {
        let u = (x - self.origin.x) / self.spacing.x;
        let v = (y - self.origin.y) / self.spacing.y;
        let (nu, nv) = ((self.columns - 1) as f64, (self.rows - 1) as f64);
        if !(u >= 0.0 && u <= nu && v >= 0.0 && v <= nv) {
            return None;
        }
        let i = (u.floor() as usize).min(self.columns - 2);
        let j = (v.floor() as usize).min(self.rows - 2);
        let (s, t) = (u - i as f64, v - j as f64);
        let at = |i: usize, j: usize| self.heights[j * self.columns + i];
        let (h00, h10, h01, h11) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
        let height = (1.0 - t) * ((1.0 - s) * h00 + s * h10) + t * ((1.0 - s) * h01 + s * h11);
        let gradient = DVec2::new(
            ((1.0 - t) * (h10 - h00) + t * (h11 - h01)) / self.spacing.x,
            ((1.0 - s) * (h01 - h00) + s * (h11 - h10)) / self.spacing.y,
        );
        Some(Patch {
            height: self.origin.z + height,
            gradient,
        })
    }

    /// Signed distance and normal at `x` (m): the height above the surface times the normal's z
    /// component, which is the distance to the tangent plane of the patch (exact on a planar
    /// patch such as a uniform slope); `None` outside the grid.
    pub(crate) fn surface(&self, x: DVec3) -> Option<Surface> {
        let p = self.patch(x.x, x.y)?;
        let normal = DVec3::new(-p.gradient.x, -p.gradient.y, 1.0).normalize();
        Some(Surface {
            distance: (x.z - p.height) * normal.z,
            normal,
        })
    }

    /// The box of the surface, m: the grid's rectangle, from the lowest sample to the highest.
    pub(crate) fn surface_bounds(&self) -> (DVec3, DVec3) {
        let (z0, z1) = self
            .heights
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &z| {
                (a.min(z), b.max(z))
            });
        let far = self.origin + self.extent().extend(0.0);
        (
            DVec3::new(self.origin.x, self.origin.y, self.origin.z + z0),
            DVec3::new(far.x, far.y, self.origin.z + z1),
        )
    }

    /// The bounds of the solid, m: [`Heightfield::surface_bounds`] reaching down without limit.
    pub(crate) fn bounds(&self) -> (DVec3, DVec3) {
        let (lo, hi) = self.surface_bounds();
        (DVec3::new(lo.x, lo.y, f64::NEG_INFINITY), hi)
    }

    /// The surface (two triangles per cell, normals from the gradient of the bilinear surface
    /// at each sample) and four side walls down to [`Heightfield::skirt_bottom`].
    pub(crate) fn mesh(&self, out: &mut Mesh) {
        let sample = |i: usize, j: usize| {
            let z = self.heights[j * self.columns + i];
            self.origin + DVec3::new(i as f64 * self.spacing.x, j as f64 * self.spacing.y, z)
        };
        let normal = |i: usize, j: usize| {
            // Central differences inside, one-sided at the edges.
            let (i0, i1) = (i.saturating_sub(1), (i + 1).min(self.columns - 1));
            let (j0, j1) = (j.saturating_sub(1), (j + 1).min(self.rows - 1));
            let at = |i: usize, j: usize| self.heights[j * self.columns + i];
            let g = DVec2::new(
                (at(i1, j) - at(i0, j)) / ((i1 - i0) as f64 * self.spacing.x),
                (at(i, j1) - at(i, j0)) / ((j1 - j0) as f64 * self.spacing.y),
            );
            DVec3::new(-g.x, -g.y, 1.0).normalize()
        };
        let corner = |i: usize, j: usize| (sample(i, j), normal(i, j));
        for j in 0..self.rows - 1 {
            for i in 0..self.columns - 1 {
                out.quad([
                    corner(i, j),
                    corner(i + 1, j),
                    corner(i + 1, j + 1),
                    corner(i, j + 1),
                ]);
            }
        }
        let bottom = self.skirt_bottom();
        let wall = |p: DVec3| DVec3::new(p.x, p.y, bottom);
        // Each side walked with the outside on its right-hand side seen from above, so the quad
        // (top p, top q, bottom q, bottom p) faces out.
        let (columns, rows) = (self.columns, self.rows);
        let sides: [(Vec<(usize, usize)>, DVec3); 4] = [
            ((0..columns).map(|i| (i, 0)).collect(), -DVec3::Y),
            ((0..rows).map(|j| (columns - 1, j)).collect(), DVec3::X),
            (
                (0..columns).rev().map(|i| (i, rows - 1)).collect(),
                DVec3::Y,
            ),
            ((0..rows).rev().map(|j| (0, j)).collect(), -DVec3::X),
        ];
        for (path, n) in sides {
            for w in path.windows(2) {
                let (p, q) = (sample(w[0].0, w[0].1), sample(w[1].0, w[1].1));
                out.quad([(wall(p), n), (wall(q), n), (q, n), (p, n)]);
            }
        }
    }

    /// How far down the side walls of the mesh are drawn (the solid has no bottom): to the
    /// ground `z = 0` or the lowest height, whichever is lower, less a quarter of the grid's
    /// larger side, m.
    pub(crate) fn skirt_bottom(&self) -> f64 {
        let lowest = self
            .heights
            .iter()
            .fold(f64::INFINITY, |m, &z| m.min(z + self.origin.z));
        lowest.min(0.0) - 0.25 * self.extent().max_element()
    }

    /// A finite origin, spacings finite and > 0, at least 2 x 2 samples, `columns * rows`
    /// heights, each finite.
    pub(crate) fn check(&self) -> Check {
        finite_vec("heightfield origin", self.origin)?;
        positive("heightfield spacing.x", self.spacing.x, "m")?;
        positive("heightfield spacing.y", self.spacing.y, "m")?;
        if self.columns < 2 || self.rows < 2 {
            return Err(format!(
                "heightfield is {} x {} samples; it needs at least 2 x 2",
                self.columns, self.rows
            ));
        }
        if self.columns.checked_mul(self.rows) != Some(self.heights.len()) {
            return Err(format!(
                "heightfield of {} columns x {} rows needs {} heights but has {}",
                self.columns,
                self.rows,
                self.columns.saturating_mul(self.rows),
                self.heights.len()
            ));
        }
        if let Some(k) = self.heights.iter().position(|z| !z.is_finite()) {
            return Err(format!(
                "heightfield height {k} (column {}, row {}) is {}; heights must be finite",
                k % self.columns,
                k / self.columns,
                self.heights[k]
            ));
        }
        Ok(())
    }
}
