//! The perspective camera: z up, right-handed, depth in [0, 1] (wgpu's clip space).
//!
//! Pixel coordinates used throughout [`crate::render`] put the origin at the top-left corner of
//! the image, x to the right and y down, in pixels; the centre of pixel `(i, j)` is at
//! `(i + 0.5, j + 0.5)`.

use glam::{DVec3, Mat4, Vec2, Vec3, Vec4Swizzles};

use crate::model::Shape;

/// Default vertical field of view, in radians (35 degrees).
pub const DEFAULT_FOV_Y: f32 = 35.0 * std::f32::consts::PI / 180.0;

/// Default azimuth of [`Camera::fit`], in radians: the eye sits in front of the scene (toward -y)
/// and a little to the right (toward +x), so +x runs left to right across the image.
pub const DEFAULT_AZIMUTH: f32 = -60.0 * std::f32::consts::PI / 180.0;

/// Default elevation of [`Camera::fit`] above the ground plane, in radians (20 degrees).
pub const DEFAULT_ELEVATION: f32 = 20.0 * std::f32::consts::PI / 180.0;

/// A perspective camera looking from `eye` at `target`, with z up.
///
/// World coordinates are right-handed with z up (the crate's convention). The view is
/// right-handed too: the camera looks along `target - eye`, its right is
/// `(target - eye) x z`, its up is z projected onto the image plane. When the camera looks
/// (almost) straight up or down, +y takes the role of up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Position of the eye, in m.
    pub eye: Vec3,
    /// The point looked at, in m; it projects to the centre of the image.
    pub target: Vec3,
    /// Vertical field of view, in radians, in (0, pi).
    pub fov_y: f32,
    /// Distance of the near clipping plane from the eye, in m (> 0).
    pub near: f32,
    /// Distance of the far clipping plane from the eye, in m (> `near`).
    pub far: f32,
}

impl Default for Camera {
    /// A camera 1 m from the origin at the default azimuth and elevation.
    fn default() -> Self {
        Self::orbit(Vec3::ZERO, 1.0, DEFAULT_AZIMUTH, DEFAULT_ELEVATION)
    }
}

impl Camera {
    /// A camera at `eye` looking at `target` (both in m), with [`DEFAULT_FOV_Y`] and clipping
    /// planes at 1/100 and 100 times the eye-target distance.
    #[must_use]
    pub fn look_at(eye: Vec3, target: Vec3) -> Self {
        let d = eye.distance(target).max(1e-6);
        Self {
            eye,
            target,
            fov_y: DEFAULT_FOV_Y,
            near: d * 0.01,
            far: d * 100.0,
        }
    }

    /// A camera looking at `target` from `distance` m away, from direction
    /// `(cos(elevation) cos(azimuth), cos(elevation) sin(azimuth), sin(elevation))` (angles in
    /// radians: azimuth counter-clockwise from +x about z, elevation above the xy plane).
    #[must_use]
    pub fn orbit(target: Vec3, distance: f32, azimuth: f32, elevation: f32) -> Self {
        Self::look_at(
            target + distance * orbit_direction(azimuth, elevation),
            target,
        )
    }

    /// The camera at the default azimuth and elevation that frames the axis-aligned box
    /// `[min, max]` (m) in an image of aspect ratio `aspect` (width / height).
    #[must_use]
    pub fn fit(min: Vec3, max: Vec3, aspect: f32) -> Self {
        Self::fit_from(min, max, aspect, DEFAULT_AZIMUTH, DEFAULT_ELEVATION)
    }

    /// The camera looking from `azimuth`, `elevation` (radians, as [`Camera::orbit`]) that frames
    /// the box `[min, max]` (m): the box's bounding sphere fits inside the image (aspect ratio
    /// `aspect` = width / height) with a 5 % margin. A box smaller than 1 mm is framed as a 1 mm
    /// box.
    #[must_use]
    pub fn fit_from(min: Vec3, max: Vec3, aspect: f32, azimuth: f32, elevation: f32) -> Self {
        let centre = 0.5 * (min + max);
        let radius = (0.5 * (max - min).length()).max(5e-4);
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        let half_y = 0.5 * DEFAULT_FOV_Y;
        let half_x = (half_y.tan() * aspect).atan();
        let distance = 1.05 * radius / half_y.min(half_x).sin();
        let mut camera = Self::orbit(centre, distance, azimuth, elevation);
        camera.near = (distance - 2.0 * radius).max(distance * 0.02);
        camera.far = distance + 60.0 * radius;
        camera
    }

    /// Distance from the eye to the target, in m.
    #[must_use]
    pub fn distance(&self) -> f32 {
        self.eye.distance(self.target)
    }

    /// The world-to-view matrix (right-handed, the camera looks along its -z).
    #[must_use]
    pub fn view(&self) -> Mat4 {
        let forward = (self.target - self.eye).normalize_or(Vec3::Y);
        let up = if forward.dot(Vec3::Z).abs() > 0.999 {
            Vec3::Y
        } else {
            Vec3::Z
        };
        glam::camera::rh::view::look_at_mat4(self.eye, self.eye + forward, up)
    }

    /// The view-to-clip matrix for an image of aspect ratio `aspect` (width / height); depth maps
    /// `near..far` to `0..1`.
    #[must_use]
    pub fn projection(&self, aspect: f32) -> Mat4 {
        // wgpu clip space: y up, depth 0..1 (the DirectX convention).
        glam::camera::rh::proj::directx::perspective(self.fov_y, aspect, self.near, self.far)
    }

    /// `projection * view` for an image of `width` x `height` pixels.
    #[must_use]
    pub fn view_projection(&self, width: u32, height: u32) -> Mat4 {
        self.projection(aspect(width, height)) * self.view()
    }

    /// Where the world point `p` (m) lands in an image of `width` x `height` pixels, in pixel
    /// coordinates (origin top-left, y down), or `None` if it lies behind the near plane.
    /// Points outside the image are returned too (with coordinates outside `0..width`,
    /// `0..height`).
    #[must_use]
    pub fn project(&self, p: Vec3, width: u32, height: u32) -> Option<Vec2> {
        let clip = self.view_projection(width, height) * p.extend(1.0);
        if clip.w <= 0.0 || clip.z < 0.0 {
            return None;
        }
        let ndc = clip.xy() / clip.w;
        Some(Vec2::new(
            (ndc.x + 1.0) * 0.5 * width as f32,
            (1.0 - ndc.y) * 0.5 * height as f32,
        ))
    }

    /// The ray through pixel position `pixel` (pixel coordinates, origin top-left) of a
    /// `width` x `height` image: its origin on the near plane and its unit direction, in m.
    #[must_use]
    pub fn ray(&self, pixel: Vec2, width: u32, height: u32) -> (Vec3, Vec3) {
        let inverse = self.view_projection(width, height).inverse();
        let ndc = Vec2::new(
            pixel.x / width.max(1) as f32 * 2.0 - 1.0,
            1.0 - pixel.y / height.max(1) as f32 * 2.0,
        );
        let near = inverse.project_point3(ndc.extend(0.0));
        let far = inverse.project_point3(ndc.extend(1.0));
        (near, (far - near).normalize_or(self.forward()))
    }

    /// The unit viewing direction, from the eye toward the target.
    #[must_use]
    pub fn forward(&self) -> Vec3 {
        (self.target - self.eye).normalize_or(Vec3::Y)
    }

    /// The point under pixel position `pixel` that lies at the same depth (distance along the
    /// viewing direction) as `anchor` (m): the point a dragged mass is pulled toward when the
    /// mouse is at `pixel` (SDL), moving in the plane parallel to the image through `anchor`.
    /// Returns `None` if the ray does not reach that plane in front of the eye.
    #[must_use]
    pub fn point_at_depth_of(
        &self,
        pixel: Vec2,
        width: u32,
        height: u32,
        anchor: Vec3,
    ) -> Option<Vec3> {
        let (origin, dir) = self.ray(pixel, width, height);
        let normal = self.forward();
        let denom = dir.dot(normal);
        if denom.abs() < 1e-9 {
            return None;
        }
        let t = (anchor - origin).dot(normal) / denom;
        (t >= 0.0).then(|| origin + t * dir)
    }

    /// The world size (m) of one pixel at one metre in front of the eye, in an image `height`
    /// pixels tall: a pixel at depth `d` spans `d` times this.
    #[must_use]
    pub fn pixel_size_at_unit_depth(&self, height: u32) -> f32 {
        2.0 * (0.5 * self.fov_y).tan() / height.max(1) as f32
    }

    /// The default-view camera ([`Camera::fit`]) framing `points` (m) in a `width` x `height`
    /// image; with `ground`, their shadows on `z = 0` are framed too. No points frame the 1 m box
    /// at the origin.
    #[must_use]
    pub fn frame(points: &[DVec3], width: u32, height: u32, ground: bool) -> Self {
        Self::frame_with(points, width, height, ground, &[])
    }

    /// [`Camera::frame`] with the parts of `obstacles` near the points framed too (see
    /// [`bounds_with`]), e.g. `Camera::frame_with(points, w, h, drawing.ground(),
    /// drawing.obstacles())`.
    #[must_use]
    pub fn frame_with(
        points: &[DVec3],
        width: u32,
        height: u32,
        ground: bool,
        obstacles: &[Shape],
    ) -> Self {
        let (min, max) = bounds_with(points, ground, obstacles).unwrap_or((Vec3::ZERO, Vec3::ONE));
        Self::fit(min, max, aspect(width, height))
    }
}

/// The axis-aligned bounds of `points` (m), with their projections on `z = 0` if `ground`;
/// `None` for no points or only non-finite ones.
#[must_use]
pub fn bounds(points: &[DVec3], ground: bool) -> Option<(Vec3, Vec3)> {
    let mut it = points.iter().filter(|p| p.is_finite()).map(|p| p.as_vec3());
    let first = it.next()?;
    let (mut min, mut max) = (first, first);
    for p in it {
        min = min.min(p);
        max = max.max(p);
    }
    if ground {
        min.z = min.z.min(0.0);
        max.z = max.z.max(0.0);
    }
    Some((min, max))
}

/// [`bounds`], grown to hold the parts of `obstacles` near the points: the box `B` of
/// [`bounds`] grown on every side by its largest side is the neighbourhood, and each obstacle's
/// bounding box, cut to it, is added. A plane (infinite) adds only the points straight below or
/// above the corners of `B` on it (cut to the neighbourhood too, and nothing for a vertical
/// plane), as the ground adds the points' shadows: the bounds stay near the bodies whatever the
/// obstacles' size. `None` as [`bounds`].
#[must_use]
pub fn bounds_with(points: &[DVec3], ground: bool, obstacles: &[Shape]) -> Option<(Vec3, Vec3)> {
    let (min, max) = bounds(points, ground)?;
    let margin = (max - min).max_element();
    let (near_min, near_max) = ((min - margin).as_dvec3(), (max + margin).as_dvec3());
    let (mut lo, mut hi) = (min.as_dvec3(), max.as_dvec3());
    for shape in obstacles {
        let (a, b) = match (shape.plane(), shape.surface_bounds()) {
            (Some((n, offset)), _) => {
                if n.z.abs() < 1e-3 {
                    continue;
                }
                let corners = [
                    (min.x, min.y),
                    (min.x, max.y),
                    (max.x, min.y),
                    (max.x, max.y),
                ];
                let zs =
                    corners.map(|(x, y)| (offset - n.x * f64::from(x) - n.y * f64::from(y)) / n.z);
                let (z0, z1) = zs
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &z| {
                        (a.min(z), b.max(z))
                    });
                let (x0, y0) = (f64::from(min.x), f64::from(min.y));
                let (x1, y1) = (f64::from(max.x), f64::from(max.y));
                (DVec3::new(x0, y0, z0), DVec3::new(x1, y1, z1))
            }
            (None, Some(bounds)) => bounds,
            (None, None) => continue,
        };
        let (a, b) = (a.max(near_min), b.min(near_max));
        if a.cmple(b).all() {
            lo = lo.min(a);
            hi = hi.max(b);
        }
    }
    Some((lo.as_vec3(), hi.as_vec3()))
}

/// Width / height as `f32`, 1 for an empty image.
fn aspect(width: u32, height: u32) -> f32 {
    if width == 0 || height == 0 {
        1.0
    } else {
        width as f32 / height as f32
    }
}

fn orbit_direction(azimuth: f32, elevation: f32) -> Vec3 {
    Vec3::new(
        elevation.cos() * azimuth.cos(),
        elevation.cos() * azimuth.sin(),
        elevation.sin(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two masses 0.2 m apart at 0.1 m height: with the ground, the box [0, 0.2] x [0, 0] x
    /// [0, 0.1], whose largest side 0.2 m sets the neighbourhood.
    fn points() -> Vec<DVec3> {
        vec![DVec3::new(0.0, 0.0, 0.1), DVec3::new(0.2, 0.0, 0.1)]
    }

    #[test]
    fn obstacles_near_the_bodies_are_framed_and_far_ones_are_not() {
        let near = Shape::Box {
            centre: DVec3::new(0.3, 0.0, 0.05),
            half_extents: DVec3::splat(0.05),
        };
        let far = Shape::Sphere {
            centre: DVec3::new(5.0, 0.0, 0.0),
            radius: 1.0,
        };
        let (lo, hi) = bounds_with(&points(), true, &[near, far]).unwrap();
        assert_eq!(
            (lo, hi),
            (Vec3::new(0.0, -0.05, 0.0), Vec3::new(0.35, 0.05, 0.1))
        );
        // No obstacles: exactly `bounds`.
        assert_eq!(bounds_with(&points(), true, &[]), bounds(&points(), true));
    }

    #[test]
    fn an_infinite_plane_adds_only_what_lies_below_the_bodies() {
        // A slope z = 0.5 x - 0.05 (normal (-0.5, 0, 1)): under the points, z from -0.05 to
        // 0.05; a huge tilted plane must not blow the bounds up.
        let slope = Shape::Plane {
            normal: DVec3::new(-0.5, 0.0, 1.0),
            offset: -0.05 / 1.25f64.sqrt(),
        };
        let (lo, hi) = bounds_with(&points(), true, &[slope]).unwrap();
        assert!((lo - Vec3::new(0.0, 0.0, -0.05)).length() < 1e-6, "{lo}");
        assert!((hi - Vec3::new(0.2, 0.0, 0.1)).length() < 1e-6, "{hi}");
        // A steep plane far below is cut to the neighbourhood (0.2 m around the box); a
        // vertical one adds nothing.
        let steep = Shape::Plane {
            normal: DVec3::new(-1.0, 0.0, 1e-2),
            offset: 0.0,
        };
        let wall = Shape::Plane {
            normal: DVec3::X,
            offset: 0.0,
        };
        let (lo, hi) = bounds_with(&points(), true, &[steep, wall]).unwrap();
        assert!(lo.z >= -0.2 - 1e-6 && hi.z <= 0.3 + 1e-6, "{lo} {hi}");
        assert!(lo.is_finite() && hi.is_finite());
    }
}
