//! [`Shape::Plane`](super::Shape::Plane): the half-space below `n . x = offset`. Unbounded, so
//! it has no bounds and no mesh: the renderer draws it as a patch around its target.

use glam::DVec3;

use super::check::{finite_vec, Check};
use super::surface::Surface;

/// Plane `normal . x = offset` (normal normalised here).
pub(crate) fn surface(normal: DVec3, offset: f64, x: DVec3) -> Surface {
    let n = normal.normalize();
    Surface {
        distance: n.dot(x) - offset,
        normal: n,
    }
}

/// A finite normal with a direction and a finite offset.
pub(crate) fn check(normal: DVec3, offset: f64) -> Check {
    finite_vec("plane normal", normal)?;
    if normal.length_squared() == 0.0 {
        return Err("plane normal is zero; it must have a direction".into());
    }
    if !offset.is_finite() {
        return Err(format!("plane offset {offset} m is not finite"));
    }
    Ok(())
}
