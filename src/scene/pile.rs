//! A pile by name: a scene's `"pile"` expands into soft bodies in their starting cells and the
//! four walls of the box they fall into ([`PileLayout`]).

use glam::{DQuat, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::body_kind::BodyKind;
use super::body_spec::{BodyCollision, BodySpec};
use crate::builders::{Cube, Lattice, Placement, RandomStructure, SplitMix64};
use crate::error::Result;
use crate::model::{Contact, Friction, Obstacle, Shape};
use crate::validate::{at_least, buildable, positive, require};

/// Side of the cubic cell each body starts in, m: every body (its masses and their collision
/// radii, turned any way about its centre) fits in a ball of diameter 0.16 m, so bodies in
/// neighbouring cells do not touch at the start. The largest of each kind reach from their
/// centre: a lattice of 3 at 0.035 m, sqrt(3) 0.035 + 0.0175 = 0.078 m; a lattice of 4 at 0.025
/// m, 1.5 sqrt(3) 0.025 + 0.0125 = 0.078 m; a 0.075 m blob, sqrt(3) / 2 0.075 + 0.7 0.018 =
/// 0.078 m (a 0.035 m cube, 0.050 m).
const CELL: f64 = 0.16;
/// Height of the lowest layer of cells above the floor, m.
const LIFT: f64 = 0.02;
/// Thickness of the walls, m.
const WALL: f64 = 0.05;
/// How far the walls reach below the floor, m: a mass pressed a little into the ground next to
/// a wall meets the wall's side, never its underside (as [`Staircase::FOOTING`](crate::Staircase::FOOTING)).
const FOOTING: f64 = 0.1;
/// Mass of every point of every body, kg.
const POINT_MASS: f64 = 0.02;
/// Spring stiffness of every body, N/m: soft (a 0.02 kg point on 1500 N/m rings at 44 Hz), yet a
/// body at the bottom of the default pile, under about 2 kg, keeps its shape.
const STIFFNESS: f64 = 1500.0;
/// Axial damping of every spring, N*s/m.
const DAMPING: f64 = 0.5;

/// What body `k` of a [`PileLayout`] is: the bodies cycle through a small cube, a lattice and a random
/// blob, each with its own size drawn from the pile's seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PileBody {
    /// A small [`Cube`] (8 masses, 28 springs) of edge 0.03 to 0.035 m, collision radius 0.55
    /// edge: larger than half the edge so that no mass of another body (radius 0.01 m or more)
    /// fits through the middle of a face, 0.71 edge from each corner (0.71 < 0.55 + 0.01 / 0.035);
    /// every pair of corners is joined by a spring, so the corners never touch each other.
    Cube(Cube),
    /// A [`Lattice`] of 3 or 4 masses per side, spacing 0.02 to 0.035 m (edge at most 0.075 m),
    /// collision radius half the spacing (no mass of radius 0.01 m or more fits through the
    /// middle of a cell's face, 0.71 spacing from its corners).
    Lattice(Lattice),
    /// A [`RandomStructure`] of 24 masses in a 0.06 to 0.075 m cube, at least 0.018 m apart, each
    /// joined to 4 earlier ones; collision radius 0.7 of the minimum spacing with self-collision
    /// off (its own masses, closer than two radii without a spring between them, would push
    /// each other apart from the start).
    Blob(RandomStructure),
}

impl PileBody {
    /// Body `k` of the pile drawn from `rng`.
    fn draw(k: u32, rng: &mut SplitMix64) -> Self {
        let between = |rng: &mut SplitMix64, lo: f64, hi: f64| lo + (hi - lo) * rng.next_f64();
        match k % 3 {
            0 => Self::Cube(Cube {
                size: between(rng, 0.03, 0.035),
                corner_mass: POINT_MASS,
                stiffness: STIFFNESS,
                damping: DAMPING,
                material: None,
            }),
            1 => {
                let n = 3 + (rng.next_u64() % 2) as u32;
                let top = if n == 3 { 0.035 } else { 0.025 };
                Self::Lattice(Lattice {
                    n,
                    spacing: between(rng, 0.02, top),
                    z0: 0.0,
                    mass: POINT_MASS,
                    stiffness: STIFFNESS,
                    damping: DAMPING,
                    material: None,
                })
            }
            _ => Self::Blob(RandomStructure {
                masses: 24,
                connections: 4,
                size: between(rng, 0.06, 0.075),
                min_spacing: 0.018,
                mass: POINT_MASS,
                stiffness: STIFFNESS,
                damping: DAMPING,
                seed: rng.next_u64(),
            }),
        }
    }

    /// The builder, the centre of its local frame's layout (m) and its collision settings.
    fn parts(&self) -> (BodyKind, f64, BodyCollision) {
        let with = |radius: f64, self_collision: bool| BodyCollision {
            radius,
            self_collision,
            ..BodyCollision::default()
        };
        match *self {
            Self::Cube(c) => (BodyKind::Cube(c), 0.5 * c.size, with(0.55 * c.size, true)),
            Self::Lattice(l) => {
                let side = f64::from(l.n - 1) * l.spacing;
                (
                    BodyKind::Lattice(l),
                    0.5 * side,
                    with(0.5 * l.spacing, true),
                )
            }
            Self::Blob(r) => (
                BodyKind::Random(r),
                0.5 * r.size,
                with(0.7 * r.min_spacing, false),
            ),
        }
    }
}

/// A pile of soft bodies in a box, by name in a scene file:
/// `"pile": { "bodies": 50, "width": 0.5, "wall_height": 0.2, "seed": 13 }` (each field may be
/// left out and then takes the default below). [`Scene::to_model`](crate::Scene::to_model) adds
/// its bodies after the scene's own bodies and its four walls after the scene's own obstacles,
/// with the ground's contact and friction; the pair force between the bodies is the scene's
/// [`Params::collision`](crate::Params::collision).
///
/// Layout: the box's inside is `[-width / 2, width / 2]` in x and y, from the ground up to
/// `wall_height`; walls 0.05 m thick. The bodies start in cubic cells of 0.16 m, as many per
/// row as fit across the box, filled row by row and layer by layer from 0.02 m above the floor
/// (the default 50 bodies: 9 per layer, 6 layers up to 0.98 m), each turned by a random
/// rotation about its centre, at rest. Body `k` is [`PileBody`] `k % 3` (cube, lattice, blob),
/// its size and turn drawn from `seed`. [`Pile`](crate::collision_scenes::Pile) is this layout
/// with the contact, friction, pair force and time step it was tuned for.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PileLayout {
    /// Number of bodies (default 50). At least 1.
    pub bodies: u32,
    /// Inside width of the box along x and y, m (default 0.5). Finite and at least 0.16 m (one
    /// starting cell).
    pub width: f64,
    /// Height of the walls above the ground, m (default 0.2). Finite and > 0.
    pub wall_height: f64,
    /// Seed of the bodies' kinds, sizes and turns (default 13).
    pub seed: u64,
}

impl Default for PileLayout {
    /// 50 bodies in a 0.5 m box with walls of 0.2 m, seed 13.
    fn default() -> Self {
        Self {
            bodies: 50,
            width: 0.5,
            wall_height: 0.2,
            seed: 13,
        }
    }
}

impl PileLayout {
    /// Checks the fields against the ranges their docs give.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming `"pile.bodies"`,
    /// `"pile.width"` or `"pile.wall_height"`.
    pub fn validate(&self) -> Result<()> {
        at_least("pile.bodies", self.bodies as usize, 1, "must be at least 1")?;
        let bodies = f64::from(self.bodies);
        // Every body of a pile fits a 0.16 m ball: a few hundred masses and springs at most.
        buildable("pile.bodies", bodies, 4096.0 * bodies)?;
        require(
            self.width.is_finite() && self.width >= CELL,
            "pile.width",
            self.width,
            "must be finite and at least 0.16 m, one body's starting cell",
        )?;
        positive(
            "pile.wall_height",
            self.wall_height,
            "must be finite and > 0 (m)",
        )
    }

    /// The kind and size of every body, in order.
    #[must_use]
    pub fn kinds(&self) -> Vec<PileBody> {
        let mut rng = SplitMix64::new(self.seed);
        (0..self.bodies)
            .map(|k| PileBody::draw(k, &mut rng))
            .collect()
    }

    /// The bodies in their starting cells, named `"cube 0"`, `"lattice 1"`, `"random 2"`, ...
    ///
    /// # Errors
    /// As [`PileLayout::validate`].
    pub fn bodies(&self) -> Result<Vec<BodySpec>> {
        self.validate()?;
        let per_row = (self.width / CELL).floor() as u32;
        let pitch = self.width / f64::from(per_row);
        let mut rng = SplitMix64::new(self.seed ^ 0x005E_ED0F_7075);
        let mut bodies = Vec::with_capacity(self.bodies as usize);
        // In u64: a pile as wide as u32::MAX cells squares to less than 2^64.
        let per_row = u64::from(per_row);
        for (k, body) in self.kinds().into_iter().enumerate() {
            let (i, j, layer) = (
                k as u64 % per_row,
                (k as u64 / per_row) % per_row,
                k as u64 / (per_row * per_row),
            );
            let centre = DVec3::new(
                -0.5 * self.width + (i as f64 + 0.5) * pitch,
                -0.5 * self.width + (j as f64 + 0.5) * pitch,
                LIFT + (layer as f64 + 0.5) * CELL,
            );
            let (kind, half, collision) = body.parts();
            let turn = random_turn(&mut rng);
            let local_centre = DVec3::splat(half);
            let placement = Placement::at(centre - DQuat::from_scaled_axis(turn) * local_centre)
                .with_rotation(turn);
            let name = format!("{} {k}", kind.type_name());
            bodies.push(
                BodySpec::new(kind)
                    .named(name)
                    .placed(placement)
                    .colliding(collision),
            );
        }
        Ok(bodies)
    }

    /// The four walls (-x, +x, -y, +y) as obstacles with `contact` and `friction`.
    #[must_use]
    pub fn walls(&self, contact: Contact, friction: Friction) -> Vec<Obstacle> {
        let (w, h) = (0.5 * self.width, self.wall_height);
        let z = 0.5 * (h - FOOTING);
        let tall = 0.5 * (h + FOOTING);
        let x_wall = |sign: f64| Shape::Box {
            centre: DVec3::new(sign * (w + 0.5 * WALL), 0.0, z),
            half_extents: DVec3::new(0.5 * WALL, w + WALL, tall),
        };
        let y_wall = |sign: f64| Shape::Box {
            centre: DVec3::new(0.0, sign * (w + 0.5 * WALL), z),
            half_extents: DVec3::new(w, 0.5 * WALL, tall),
        };
        [x_wall(-1.0), x_wall(1.0), y_wall(-1.0), y_wall(1.0)]
            .into_iter()
            .map(|shape| Obstacle::new(shape, contact, friction))
            .collect()
    }
}

/// A rotation vector of uniformly random axis and angle in [0, pi), rad.
fn random_turn(rng: &mut SplitMix64) -> DVec3 {
    let z = 2.0 * rng.next_f64() - 1.0;
    let phi = std::f64::consts::TAU * rng.next_f64();
    let s = (1.0 - z * z).sqrt();
    let axis = DVec3::new(s * phi.cos(), s * phi.sin(), z);
    axis * std::f64::consts::PI * rng.next_f64()
}
