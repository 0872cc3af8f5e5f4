//! Obstacle shapes: everything hooke knows of each kind of solid, one file per kind.
//!
//! Each shape is a solid. [`Shape::surface`] gives, for a point, the signed distance to the
//! shape's surface (negative inside) and the outward unit normal of the surface nearest to it;
//! the contact law of an obstacle acts along that normal exactly as the ground's acts along +z
//! (`src/cpu/obstacles.rs`). The closest surface point is `x - distance * normal`.
//!
//! This file holds the [`Shape`] enum and one dispatch arm per kind and method; each kind's file
//! holds its geometry: signed distance and normal, bounds (the broad phase of both worlds and
//! the camera's framing), triangles for the renderer ([`Mesh`]) and the checks of its values.
//! `plane.rs` ([`Shape::Plane`]), `cuboid.rs` ([`Shape::Box`], [`Shape::OrientedBox`]),
//! `capsule.rs` ([`Shape::Sphere`], [`Shape::Capsule`]), `heightfield.rs` ([`Heightfield`]);
//! `surface.rs` ([`Surface`]), `mesh.rs` ([`Mesh`]) and `check.rs` are what they share. The GPU
//! twin of the geometry is `shaders/shared/obstacles.wgsl`, fed by `src/gpu/obstacles.rs`.

mod capsule;
mod check;
mod cuboid;
mod heightfield;
mod mesh;
mod plane;
mod surface;

use glam::{DQuat, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) use check::{non_negative, Check};
pub use heightfield::Heightfield;
pub(crate) use mesh::Mesh;
pub use surface::Surface;

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
            Self::Plane { normal, offset } => Some(plane::surface(*normal, *offset, x)),
            Self::Box {
                centre,
                half_extents,
            } => Some(cuboid::aligned_surface(*centre, *half_extents, x)),
            Self::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => Some(cuboid::turned_surface(*centre, *half_extents, *rotation, x)),
            Self::Sphere { centre, radius } => Some(capsule::sphere_surface(*centre, *radius, x)),
            Self::Capsule { a, b, radius } => Some(capsule::capsule_surface(*a, *b, *radius, x)),
            Self::Heightfield(h) => h.surface(x),
        }
    }

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
            } => Some(cuboid::aligned_bounds(*centre, *half_extents)),
            Self::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => Some(cuboid::turned_bounds(*centre, *half_extents, *rotation)),
            Self::Sphere { centre, radius } => Some(capsule::sphere_bounds(*centre, *radius)),
            Self::Capsule { a, b, radius } => Some(capsule::capsule_bounds(*a, *b, *radius)),
            Self::Heightfield(h) => Some(h.bounds()),
        }
    }

    /// The axis-aligned box of the shape's surface (m), what a camera frames: [`Shape::bounds`],
    /// except that a heightfield's reaches down only to its lowest sample. `None` for a plane.
    #[must_use]
    pub(crate) fn surface_bounds(&self) -> Option<(DVec3, DVec3)> {
        match self {
            Self::Heightfield(h) => Some(h.surface_bounds()),
            _ => self.bounds(),
        }
    }

    /// The plane's unit outward normal `n` and offset `w` (m) of `n . x = w`, for a plane (drawn
    /// as a patch, framed by its points below the bodies); `None` for every bounded shape.
    #[must_use]
    pub(crate) fn plane(&self) -> Option<(DVec3, f64)> {
        match self {
            Self::Plane { normal, offset } => Some((normal.normalize(), *offset)),
            _ => None,
        }
    }

    /// Adds the shape's surface to `out` as triangles with outward normals (a heightfield with
    /// side walls down to below the ground); a plane adds nothing (see [`Shape::plane`]).
    pub(crate) fn mesh(&self, out: &mut Mesh) {
        match self {
            Self::Plane { .. } => {}
            Self::Box {
                centre,
                half_extents,
            } => cuboid::mesh(*centre, *half_extents, DQuat::IDENTITY, out),
            Self::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => cuboid::mesh(
                *centre,
                *half_extents,
                DQuat::from_scaled_axis(*rotation),
                out,
            ),
            Self::Sphere { centre, radius } => capsule::mesh(*centre, *centre, *radius, out),
            Self::Capsule { a, b, radius } => capsule::mesh(*a, *b, *radius, out),
            Self::Heightfield(h) => h.mesh(out),
        }
    }

    /// Checks the shape's values: finite, not degenerate. The reason, in words, when not.
    pub(crate) fn check(&self) -> Check {
        match self {
            Self::Plane { normal, offset } => plane::check(*normal, *offset),
            Self::Box {
                centre,
                half_extents,
            } => cuboid::check(*centre, *half_extents, None),
            Self::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => cuboid::check(*centre, *half_extents, Some(*rotation)),
            Self::Sphere { centre, radius } => capsule::check_sphere(*centre, *radius),
            Self::Capsule { a, b, radius } => capsule::check_capsule(*a, *b, *radius),
            Self::Heightfield(h) => h.check(),
        }
    }
}

#[cfg(test)]
mod tests;
