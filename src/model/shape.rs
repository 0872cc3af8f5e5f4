//! Obstacle shapes and their geometry: signed distance and outward normal of each kind at a point.
//!
//! Each shape is a solid. [`Shape::surface`] gives, for a point, the signed distance to the
//! shape's surface (negative inside) and the outward unit normal of the surface nearest to it;
//! the contact law of an obstacle acts along that normal exactly as the ground's acts along +z
//! (`src/cpu/obstacles.rs`). The closest surface point is `x - distance * normal`.

use glam::{DQuat, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Heightfield;

/// The solid of an obstacle. In JSON the kind is the `"type"` field (`"plane"`, `"box"`,
/// `"oriented_box"`, `"sphere"`, `"capsule"`, `"heightfield"`) next to the shape's own fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Shape {
    /// The half-space below the plane `n . x = offset`, with `n = normal / |normal|` pointing out
    /// of the solid. The ground is `Plane { normal: +z, offset: 0 }`.
    Plane {
        /// Outward normal (any length > 0; it is normalised).
        #[schemars(with = "[f64; 3]")]
        normal: DVec3,
        /// Signed distance of the plane from the origin along the unit normal, m.
        offset: f64,
    },
    /// An axis-aligned box.
    Box {
        /// Centre, m.
        #[schemars(with = "[f64; 3]")]
        centre: DVec3,
        /// Half of the size along x, y and z, m (each finite and > 0).
        #[schemars(with = "[f64; 3]")]
        half_extents: DVec3,
    },
    /// A box turned by `rotation`.
    OrientedBox {
        /// Centre, m.
        #[schemars(with = "[f64; 3]")]
        centre: DVec3,
        /// Half of the size along the box's own axes, m (each finite and > 0).
        #[schemars(with = "[f64; 3]")]
        half_extents: DVec3,
        /// Rotation of the box from the world axes, as a rotation vector: angle `|rotation|` (rad)
        /// about the axis `rotation / |rotation|` (right-handed), as in
        /// [`Placement`](crate::Placement).
        #[schemars(with = "[f64; 3]")]
        rotation: DVec3,
    },
    /// A ball.
    Sphere {
        /// Centre, m.
        #[schemars(with = "[f64; 3]")]
        centre: DVec3,
        /// Radius, m (finite and > 0).
        radius: f64,
    },
    /// The points within `radius` of the segment from `a` to `b` (a sphere when `a == b`).
    Capsule {
        /// One end of the axis, m.
        #[schemars(with = "[f64; 3]")]
        a: DVec3,
        /// The other end of the axis, m.
        #[schemars(with = "[f64; 3]")]
        b: DVec3,
        /// Radius, m (finite and > 0).
        radius: f64,
    },
    /// Terrain: everything below a [`Heightfield`] over its rectangle.
    Heightfield(Heightfield),
}

/// Where a point is relative to a shape's surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Surface {
    /// Signed distance from the surface, m: negative inside the solid. For a heightfield it is
    /// the height above the surface times the normal's z component (exact on a planar patch).
    pub distance: f64,
    /// Outward unit normal of the surface nearest to the point.
    pub normal: DVec3,
}

impl Shape {
    /// The ground plane `z = 0` as a shape.
    pub const GROUND: Self = Self::Plane {
        normal: DVec3::Z,
        offset: 0.0,
    };

    /// The signed distance and outward normal at `x` (m), or `None` where the shape has no
    /// surface to push along (a heightfield outside its rectangle). Meaningful for a shape that
    /// [`Model::validate`](super::Model::validate) accepts.
    #[must_use]
    pub fn surface(&self, x: DVec3) -> Option<Surface> {
        match self {
            Self::Plane { normal, offset } => Some(plane(*normal, *offset, x)),
            Self::Box {
                centre,
                half_extents,
            } => Some(box_surface(*half_extents, x - *centre)),
            Self::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => {
                let r = DQuat::from_scaled_axis(*rotation);
                let local = box_surface(*half_extents, r.inverse() * (x - *centre));
                Some(Surface {
                    distance: local.distance,
                    normal: r * local.normal,
                })
            }
            Self::Sphere { centre, radius } => Some(sphere(*centre, *radius, x)),
            Self::Capsule { a, b, radius } => Some(sphere(segment_closest(*a, *b, x), *radius, x)),
            Self::Heightfield(h) => h.surface(x),
        }
    }
}

impl Shape {
    /// The axis-aligned box `(lo, hi)` (m) outside which no point touches the solid (every
    /// point outside it has a positive distance), or `None` for a plane, which is unbounded.
    /// A heightfield's box reaches down without limit (`lo.z = -inf`). The contact passes test
    /// it before the exact distance (the per-mass broad phase).
    #[must_use]
    pub fn bounds(&self) -> Option<(DVec3, DVec3)> {
        match self {
            Self::Plane { .. } => None,
            Self::Box {
                centre,
                half_extents,
            } => Some((*centre - *half_extents, *centre + *half_extents)),
            Self::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => {
                let r = glam::DMat3::from_quat(DQuat::from_scaled_axis(*rotation));
                // Each world axis reaches |r_x| . h, |r_y| . h, |r_z| . h from the centre.
                let rows = r.transpose();
                let reach = DVec3::new(
                    rows.x_axis.abs().dot(*half_extents),
                    rows.y_axis.abs().dot(*half_extents),
                    rows.z_axis.abs().dot(*half_extents),
                );
                Some((*centre - reach, *centre + reach))
            }
            Self::Sphere { centre, radius } => Some((
                *centre - DVec3::splat(*radius),
                *centre + DVec3::splat(*radius),
            )),
            Self::Capsule { a, b, radius } => Some((
                a.min(*b) - DVec3::splat(*radius),
                a.max(*b) + DVec3::splat(*radius),
            )),
            Self::Heightfield(h) => {
                let top = h.heights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let far = h.origin + h.extent().extend(0.0);
                Some((
                    DVec3::new(h.origin.x, h.origin.y, f64::NEG_INFINITY),
                    DVec3::new(far.x, far.y, h.origin.z + top),
                ))
            }
        }
    }
}

/// Plane `normal . x = offset` (normal normalised here).
fn plane(normal: DVec3, offset: f64, x: DVec3) -> Surface {
    let n = normal.normalize();
    Surface {
        distance: n.dot(x) - offset,
        normal: n,
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

/// Ball of `radius` about `centre`; at the centre itself the normal is +z.
fn sphere(centre: DVec3, radius: f64, x: DVec3) -> Surface {
    let p = x - centre;
    let l = p.length();
    let normal = if l > 0.0 { p / l } else { DVec3::Z };
    Surface {
        distance: l - radius,
        normal,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: DVec3, b: DVec3) -> bool {
        (a - b).length() < 1e-12
    }

    #[test]
    fn plane_distance_is_along_the_unit_normal() {
        // Plane through (0, 0, 1) with normal (0, 3, 4) / 5: offset = n . (0, 0, 1) = 0.8.
        let s = Shape::Plane {
            normal: DVec3::new(0.0, 3.0, 4.0),
            offset: 0.8,
        };
        let at = s
            .surface(DVec3::new(7.0, 0.0, 1.0) + DVec3::new(0.0, 0.6, 0.8))
            .unwrap();
        assert!((at.distance - 1.0).abs() < 1e-12);
        assert!(close(at.normal, DVec3::new(0.0, 0.6, 0.8)));
        let ground = Shape::GROUND.surface(DVec3::new(1.0, 2.0, -0.25)).unwrap();
        assert_eq!((ground.distance, ground.normal), (-0.25, DVec3::Z));
    }

    #[test]
    fn box_distance_outside_at_faces_edges_and_inside() {
        let s = Shape::Box {
            centre: DVec3::new(1.0, 0.0, 0.0),
            half_extents: DVec3::new(1.0, 2.0, 0.5),
        };
        // Above the top face.
        let top = s.surface(DVec3::new(1.5, 1.0, 0.75)).unwrap();
        assert!((top.distance - 0.25).abs() < 1e-12 && close(top.normal, DVec3::Z));
        // Beyond the edge x = 2, z = 0.5, diagonally: distance sqrt(0.3^2 + 0.4^2) = 0.5.
        let edge = s.surface(DVec3::new(2.3, 0.0, 0.9)).unwrap();
        assert!((edge.distance - 0.5).abs() < 1e-12);
        assert!(close(edge.normal, DVec3::new(0.6, 0.0, 0.8)));
        // Inside, nearest to the top face (0.4 away; the -y face is 0.5 away).
        let inside = s.surface(DVec3::new(1.0, -1.5, 0.1)).unwrap();
        assert!((inside.distance + 0.4).abs() < 1e-12);
        assert!(close(inside.normal, DVec3::new(0.0, 0.0, 1.0)));
        let inside = s.surface(DVec3::new(1.0, -1.8, 0.0)).unwrap();
        assert!((inside.distance + 0.2).abs() < 1e-12 && close(inside.normal, -DVec3::Y));
        // At the centre the z faces are nearest (0.5 m, against 1 and 2 m).
        let centre = s.surface(DVec3::new(1.0, 0.0, 0.0)).unwrap();
        assert!((centre.distance + 0.5).abs() < 1e-12 && close(centre.normal, DVec3::Z));
    }

    #[test]
    fn oriented_box_turns_its_normal() {
        // A 2 x 2 x 2 cube turned 90 degrees about z: its local +x face points along world +y.
        let s = Shape::OrientedBox {
            centre: DVec3::ZERO,
            half_extents: DVec3::new(1.0, 3.0, 1.0),
            rotation: DVec3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2),
        };
        let at = s.surface(DVec3::new(0.0, 1.5, 0.0)).unwrap();
        assert!((at.distance - 0.5).abs() < 1e-12);
        assert!(close(at.normal, DVec3::Y));
        let at = s.surface(DVec3::new(2.5, 0.0, 0.0)).unwrap();
        assert!((at.distance + 0.5).abs() < 1e-12);
        assert!(close(at.normal, DVec3::X));
    }

    #[test]
    fn sphere_and_capsule_distances() {
        let ball = Shape::Sphere {
            centre: DVec3::new(0.0, 0.0, 1.0),
            radius: 0.5,
        };
        let at = ball.surface(DVec3::new(0.0, 0.3, 1.4)).unwrap();
        assert!((at.distance - 0.0).abs() < 1e-12 && close(at.normal, DVec3::new(0.0, 0.6, 0.8)));
        assert_eq!(
            ball.surface(DVec3::new(0.0, 0.0, 1.0)).unwrap().normal,
            DVec3::Z
        );
        let capsule = Shape::Capsule {
            a: DVec3::ZERO,
            b: DVec3::new(2.0, 0.0, 0.0),
            radius: 0.25,
        };
        // Beside the middle of the axis, then beyond the end b.
        let mid = capsule.surface(DVec3::new(1.0, 0.0, 0.1)).unwrap();
        assert!((mid.distance + 0.15).abs() < 1e-12 && close(mid.normal, DVec3::Z));
        let end = capsule.surface(DVec3::new(3.0, 0.0, 0.0)).unwrap();
        assert!((end.distance - 0.75).abs() < 1e-12 && close(end.normal, DVec3::X));
        let dot = Shape::Capsule {
            a: DVec3::ONE,
            b: DVec3::ONE,
            radius: 1.0,
        };
        assert!((dot.surface(DVec3::new(1.0, 1.0, 3.0)).unwrap().distance - 1.0).abs() < 1e-12);
    }

    /// Points just outside each shape's bounds are outside the shape; the corners of a turned box
    /// reach its bounds.
    #[test]
    fn bounds_enclose_every_point_with_non_positive_distance() {
        let shapes = [
            Shape::Box {
                centre: DVec3::new(1.0, 0.0, 0.5),
                half_extents: DVec3::new(1.0, 2.0, 0.5),
            },
            Shape::OrientedBox {
                centre: DVec3::ONE,
                half_extents: DVec3::new(0.5, 1.0, 0.25),
                rotation: DVec3::new(0.3, -0.2, 0.9),
            },
            Shape::Sphere {
                centre: DVec3::new(0.0, 1.0, 2.0),
                radius: 0.5,
            },
            Shape::Capsule {
                a: DVec3::new(-1.0, 0.0, 0.0),
                b: DVec3::new(1.0, 0.5, 0.2),
                radius: 0.3,
            },
        ];
        for shape in &shapes {
            let (lo, hi) = shape.bounds().unwrap();
            // A grid of points over a box 20 % larger than the bounds, 0.1 half-size apart:
            // every point inside the solid lies inside the bounds, and some inside point comes
            // within two grid steps of each face (an oriented box reaches a face only at a
            // vertex, which the grid misses by up to one step per axis).
            let (c, h) = ((lo + hi) / 2.0, (hi - lo) / 2.0);
            let mut reach = DVec3::ZERO;
            let n = 24;
            for i in 0..=n {
                for j in 0..=n {
                    for k in 0..=n {
                        let f = DVec3::new(i as f64, j as f64, k as f64) / n as f64 * 2.0 - 1.0;
                        let x = c + 1.2 * f * h;
                        if shape.surface(x).unwrap().distance <= 0.0 {
                            assert!(x.cmpge(lo).all() && x.cmple(hi).all(), "{shape:?} at {x}");
                            reach = reach.max((x - c).abs() / h);
                        }
                    }
                }
            }
            assert!(
                reach.min_element() > 0.8,
                "{shape:?}: bounds too loose ({reach})"
            );
        }
        assert_eq!(Shape::GROUND.bounds(), None);
    }
}
