//! [`Heightfield`]: terrain as a grid of heights, bilinear between samples.

use glam::{DVec2, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Surface;

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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// h = 1 + x + 2 y + 3 x y is bilinear, so the grid reproduces it (and its gradient) exactly
    /// up to rounding.
    #[test]
    fn bilinear_surface_and_gradient_match_a_bilinear_function() {
        let f = |x: f64, y: f64| 1.0 + x + 2.0 * y + 3.0 * x * y;
        let origin = DVec3::new(-1.0, 2.0, 0.5);
        let h = Heightfield::from_fn(origin, DVec2::new(0.5, 0.25), 5, 4, f);
        for &(x, y) in &[
            (0.1, 0.1),
            (0.7, 0.3),
            (1.99, 0.74),
            (2.0, 0.75),
            (0.0, 0.0),
        ] {
            let p = h.patch(origin.x + x, origin.y + y).unwrap();
            assert!(
                (p.height - (0.5 + f(x, y))).abs() < 1e-12,
                "height at {x}, {y}"
            );
            let g = DVec2::new(1.0 + 3.0 * y, 2.0 + 3.0 * x);
            assert!((p.gradient - g).length() < 1e-12, "gradient at {x}, {y}");
        }
        assert_eq!(h.patch(origin.x - 1e-9, origin.y), None);
        assert_eq!(h.patch(origin.x, origin.y + 0.76), None);
    }

    /// On a uniform slope h = x tan(theta) the distance is the perpendicular one.
    #[test]
    fn heightfield_distance_on_a_slope_is_perpendicular() {
        let theta = 0.3_f64;
        let h = Heightfield::from_fn(DVec3::ZERO, DVec2::ONE, 4, 2, |x, _| x * theta.tan());
        let x = DVec3::new(1.5, 0.5, 1.5 * theta.tan() + 0.2);
        let s = h.surface(x).unwrap();
        assert!((s.distance - 0.2 * theta.cos()).abs() < 1e-12);
        let n = DVec3::new(-theta.sin(), 0.0, theta.cos());
        assert!((s.normal - n).length() < 1e-12);
    }
}
