//! [`Shape::Box`](super::Shape::Box) and [`Shape::OrientedBox`](super::Shape::OrientedBox):
//! a box of half extents `h` about its centre, turned by a rotation vector or not.

use glam::{DMat3, DQuat, DVec3};

use super::check::{finite_vec, Check};
use super::mesh::Mesh;
use super::surface::Surface;

/// An axis-aligned box at `x` (m).
pub(crate) fn aligned_surface(centre: DVec3, h: DVec3, x: DVec3) -> Surface {
    box_surface(h, x - centre)
}

/// A box turned by `rotation` (a rotation vector, rad) at `x` (m).
pub(crate) fn turned_surface(centre: DVec3, h: DVec3, rotation: DVec3, x: DVec3) -> Surface {
    let r = DQuat::from_scaled_axis(rotation);
    let local = box_surface(h, r.inverse() * (x - centre));
    Surface {
        distance: local.distance,
        normal: r * local.normal,
    }
}

/// Box of half extents `h` centred at the origin, at local point `p`. Inside, the nearest face
/// wins; on a tie the later axis (z before y before x) wins, so a point over the middle of a
/// step is pushed up.
fn box_surface(h: DVec3, p: DVec3) -> Surface {
    let q = p.abs() - h;
    let sign = DVec3::new(sign(p.x), sign(p.y), sign(p.z));
    if q.max_element() > 0.0 {
        let d = q.max(DVec3::ZERO);
        let distance = d.length();
        return Surface {
            distance,
            normal: sign * d / distance,
        };
    }
    let mut axis = DVec3::X;
    let mut distance = q.x;
    if q.y >= distance {
        axis = DVec3::Y;
        distance = q.y;
    }
    if q.z >= distance {
        axis = DVec3::Z;
        distance = q.z;
    }
    Surface {
        distance,
        normal: sign * axis,
    }
}

/// +1 for `v >= 0` (including +0 and -0), else -1.
fn sign(v: f64) -> f64 {
    if v < 0.0 {
        -1.0
    } else {
        1.0
    }
}

/// The bounds of an axis-aligned box, m.
pub(crate) fn aligned_bounds(centre: DVec3, h: DVec3) -> (DVec3, DVec3) {
    (centre - h, centre + h)
}

/// The bounds of a box turned by `rotation`, m.
pub(crate) fn turned_bounds(centre: DVec3, h: DVec3, rotation: DVec3) -> (DVec3, DVec3) {
    let r = DMat3::from_quat(DQuat::from_scaled_axis(rotation));
    // Each world axis reaches |r_x| . h, |r_y| . h, |r_z| . h from the centre.
    let rows = r.transpose();
    let reach = DVec3::new(
        rows.x_axis.abs().dot(h),
        rows.y_axis.abs().dot(h),
        rows.z_axis.abs().dot(h),
    );
    (centre - reach, centre + reach)
}

/// A box of half extents `h` about `centre`, turned by `rotation`: six flat faces.
pub(crate) fn mesh(centre: DVec3, h: DVec3, rotation: DQuat, out: &mut Mesh) {
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let mut n = DVec3::ZERO;
            n[axis] = sign;
            // Two directions in the face such that u x v = n.
            let mut u = DVec3::ZERO;
            u[(axis + 1) % 3] = 1.0;
            let v = n.cross(u);
            let corner = |a: f64, b: f64| {
                let local = (n + a * u + b * v) * h;
                (centre + rotation * local, rotation * n)
            };
            out.quad([
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ]);
        }
    }
}

/// A finite centre (and rotation, for a turned box) and half extents finite and > 0.
pub(crate) fn check(centre: DVec3, h: DVec3, rotation: Option<DVec3>) -> Check {
    finite_vec("box centre", centre)?;
    if let Some(rotation) = rotation {
        finite_vec("box rotation", rotation)?;
    }
    if h.is_finite() && h.min_element() > 0.0 {
        Ok(())
    } else {
        Err(format!("half_extents {h} m; each must be finite and > 0"))
    }
}
