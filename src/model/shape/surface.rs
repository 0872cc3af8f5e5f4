//! [`Surface`]: where a point is relative to a shape's surface (what every kind of shape
//! answers, in its own file).

use glam::DVec3;

/// Where a point is relative to a shape's surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Surface {
    /// Signed distance from the surface, m: negative inside the solid. For a heightfield it is
    /// the height above the surface times the normal's z component (exact on a planar patch).
    pub distance: f64,
    /// Outward unit normal of the surface nearest to the point.
    pub normal: DVec3,
}
