//! Unit tests of the shapes: each kind's distance, normal and bounds, the heightfield's
//! bilinear surface.

use glam::{DVec2, DVec3};

use super::{Heightfield, Shape};

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
