//! [`Shape::Sphere`](super::Shape::Sphere) and [`Shape::Capsule`](super::Shape::Capsule): the
//! points within a radius of a point or of a segment (a sphere is a capsule whose ends meet).

use std::f64::consts::{PI, TAU};

use glam::DVec3;

use super::check::{finite_vec, positive, Check};
use super::mesh::Mesh;
use super::surface::Surface;

/// Segments around the axis of a sphere or capsule's mesh.
const AROUND: usize = 32;
/// Segments from pole to pole of a sphere's mesh (each capsule cap gets half).
const POLE_TO_POLE: usize = 16;

/// Ball of `radius` about `centre`; at the centre itself the normal is +z.
pub(crate) fn sphere_surface(centre: DVec3, radius: f64, x: DVec3) -> Surface {
    let p = x - centre;
    let l = p.length();
    let normal = if l > 0.0 { p / l } else { DVec3::Z };
    Surface {
        distance: l - radius,
        normal,
    }
}

/// The points within `radius` of the segment `a`-`b`, at `x` (m).
pub(crate) fn capsule_surface(a: DVec3, b: DVec3, radius: f64, x: DVec3) -> Surface {
    sphere_surface(segment_closest(a, b, x), radius, x)
}

/// The point of the segment `a`-`b` closest to `x`.
fn segment_closest(a: DVec3, b: DVec3, x: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return a;
    }
    let t = ((x - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + t * ab
}

/// The bounds of a ball of `radius` about `centre`, m.
pub(crate) fn sphere_bounds(centre: DVec3, radius: f64) -> (DVec3, DVec3) {
    (centre - DVec3::splat(radius), centre + DVec3::splat(radius))
}

/// The bounds of a capsule, m.
pub(crate) fn capsule_bounds(a: DVec3, b: DVec3, radius: f64) -> (DVec3, DVec3) {
    (
        a.min(b) - DVec3::splat(radius),
        a.max(b) + DVec3::splat(radius),
    )
}

/// The points within `radius` of the segment `a`-`b`: a cylinder along the axis (none when
/// `a == b`, a sphere) closed by two half spheres, smooth normals.
pub(crate) fn mesh(a: DVec3, b: DVec3, radius: f64, out: &mut Mesh) {
    let axis = (b - a).try_normalize().unwrap_or(DVec3::Z);
    let u = axis.any_orthonormal_vector();
    // (u, v, axis) right-handed: the quads below wind outward.
    let v = axis.cross(u);
    // Latitude rings from the pole at a (-axis) to the pole at b (+axis): those of the lower
    // half on a, those of the upper half on b, the equator on both, so the band between the
    // two equators is the cylinder.
    let half = POLE_TO_POLE / 2;
    let rings: Vec<(f64, f64, DVec3)> = (0..=POLE_TO_POLE)
        .flat_map(|k| {
            // cos and sin of the latitude, exact at the poles (one point each).
            let (cos, sin) = match k {
                0 => (0.0, -1.0),
                k if k == POLE_TO_POLE => (0.0, 1.0),
                k => {
                    let lat = -0.5 * PI + PI * k as f64 / POLE_TO_POLE as f64;
                    (lat.cos(), lat.sin())
                }
            };
            let on_a = (k <= half).then_some((cos, sin, a));
            let on_b = (k >= half).then_some((cos, sin, b));
            on_a.into_iter().chain(on_b)
        })
        .collect();
    let point = |(cos, sin, centre): (f64, f64, DVec3), j: usize| {
        let lon = TAU * j as f64 / AROUND as f64;
        let n = cos * (lon.cos() * u + lon.sin() * v) + sin * axis;
        (centre + radius * n, n)
    };
    for pair in rings.windows(2) {
        for j in 0..AROUND {
            let next = (j + 1) % AROUND;
            out.quad([
                point(pair[0], j),
                point(pair[0], next),
                point(pair[1], next),
                point(pair[1], j),
            ]);
        }
    }
}

/// A finite centre and a radius finite and > 0.
pub(crate) fn check_sphere(centre: DVec3, radius: f64) -> Check {
    finite_vec("sphere centre", centre)?;
    positive("sphere radius", radius, "m")
}

/// Finite ends and a radius finite and > 0.
pub(crate) fn check_capsule(a: DVec3, b: DVec3, radius: f64) -> Check {
    finite_vec("capsule end a", a)?;
    finite_vec("capsule end b", b)?;
    positive("capsule radius", radius, "m")
}
