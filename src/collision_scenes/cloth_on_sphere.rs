//! A cloth dropped on a sphere: it drapes and folds onto itself.

use glam::{DQuat, DVec2, DVec3};

use crate::builders::{Cloth, Placement};
use crate::error::Result;
use crate::model::{Collision, Model, Obstacle, Params, Shape};
use crate::scene::{BodyCollision, BodyKind, BodySpec, Scene};
use crate::validate::{finite, non_negative, positive, require};

/// A square [`Cloth`] dropped flat onto a ball that rests on the ground. Its middle catches on
/// the ball, the rest falls around it, and the skirt that reaches the ground buckles into folds
/// that lie on one another: self-collision keeps the layers apart. Every cloth mass has
/// collision radius `spacing / 2`, so the closest pairs not joined by a spring (a knight's move
/// apart in the grid, `sqrt(5)` spacings) are far from touching in the flat cloth, while no mass
/// of one layer fits between the masses of another (the middle of a grid square is `0.71`
/// spacing from its corners, below the contact distance of one spacing).
///
/// Layout: the ball (radius `sphere_radius`) sits on the ground at `(0, 0, sphere_radius)`; the
/// cloth starts flat, horizontal, `drop` above the top of the ball, its centre shifted by
/// `shift` (m, x and y) from the ball's axis and turned by `turn` (rad) about z, at rest.
/// Ground and ball: Anderson's impulsive contact and friction ([`Params::cloth`]:
/// restitution 0.7, mu = 0.6), which adds no stiffness.
///
/// # Examples
///
/// ```
/// use hooke::collision_scenes::ClothOnSphere;
/// use hooke::{Cloth, CpuWorld};
///
/// // A small cloth, as the tests use it: 12 x 12 masses on a 0.06 m ball.
/// let small = ClothOnSphere {
///     cloth: Cloth { nx: 12, ny: 12, ..ClothOnSphere::default().cloth },
///     sphere_radius: 0.06,
///     ..ClothOnSphere::default()
/// };
/// let model = small.model()?;
/// assert_eq!(model.masses.len(), 144);
/// assert_eq!(model.masses[0].collision_radius, 0.0125); // half the 0.025 m spacing
/// let mut world = CpuWorld::new(&model)?;
/// world.step(100)?;
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ClothOnSphere {
    /// The cloth (default 40 x 40 masses 0.025 m apart, 1.25 g each: the surface density of
    /// [`Cloth::default`], 2 kg/m^2; structural, shear and bending springs of 500, 200 and 2
    /// N/m, damping 0.02 N*s/m; nothing pinned: it bends easily, so its folds are sharp enough
    /// for their sides to touch). Its collision radius is half its spacing.
    pub cloth: Cloth,
    /// Radius of the ball, m (default 0.15). Finite and > 0.
    pub sphere_radius: f64,
    /// Height of the cloth above the top of the ball at the start, m (default 0.05). Finite and
    /// >= 0.
    pub drop: f64,
    /// Offset of the cloth's centre from the ball's axis, m (default (0.06, 0.03): the cloth
    /// hangs further down on one side). Finite.
    pub shift: DVec2,
    /// Turn of the cloth about z, rad (default 0.3). Finite.
    pub turn: f64,
    /// The pair force (default 10 000 N/m, 0.5 N*s/m of normal damping, friction 0.3: a damping
    /// ratio of 0.5 / (2 sqrt(1e4 * 6.25e-4)) = 0.1 for two 1.25 g masses).
    pub collision: Collision,
    /// Time step, s (default 1e-4). The model's estimate ([`Model::stable_dt`]) is 5.1e-4 s,
    /// set by a 1.25 g mass: its springs (Gershgorin: 2 (4 x 500 + 4 x 200 + 4 x 2) = 5.6e3 N/m)
    /// and the collision stiffness counted once (1e4 N/m). In a fold a mass touches up to four
    /// masses of the layer against it (the corners of a grid square); counting the collision
    /// four times gives 2.8e-4 s, and the default stays a factor 2.8 below that.
    pub dt: f64,
}

impl Default for ClothOnSphere {
    fn default() -> Self {
        Self {
            cloth: Cloth {
                nx: 40,
                ny: 40,
                spacing: 0.025,
                mass: 0.00125,
                structural: 500.0,
                shear: 200.0,
                bending: 2.0,
                damping: 0.02,
                ..Cloth::default()
            },
            sphere_radius: 0.15,
            drop: 0.05,
            shift: DVec2::new(0.06, 0.03),
            turn: 0.3,
            collision: Collision {
                stiffness: 10_000.0,
                damping: 0.5,
                friction: 0.3,
            },
            dt: 1e-4,
        }
    }
}

impl ClothOnSphere {
    /// The scene: [`Params::cloth`] with this struct's `dt` and collision, the cloth (collision
    /// radius half its spacing, self-collision on) and the ball.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming
    /// `"cloth_on_sphere.sphere_radius"`, `"cloth_on_sphere.drop"`, `"cloth_on_sphere.shift"`
    /// or `"cloth_on_sphere.turn"` for a value out of the range its docs give, and the cloth's
    /// own errors (`"cloth.spacing"`, ...).
    pub fn scene(&self) -> Result<Scene> {
        let r = self.sphere_radius;
        positive(
            "cloth_on_sphere.sphere_radius",
            r,
            "must be finite and > 0 (m)",
        )?;
        non_negative(
            "cloth_on_sphere.drop",
            self.drop,
            "must be finite and >= 0 (m)",
        )?;
        for v in self.shift.to_array() {
            finite("cloth_on_sphere.shift", v, "must be finite (m)")?;
        }
        finite("cloth_on_sphere.turn", self.turn, "must be finite (rad)")?;
        positive(
            "cloth.spacing",
            self.cloth.spacing,
            "must be finite and > 0 (m)",
        )?;
        require(
            self.cloth.nx >= 2 && self.cloth.ny >= 2,
            "cloth.nx",
            f64::from(self.cloth.nx.min(self.cloth.ny)),
            "cloth.nx and cloth.ny must be at least 2",
        )?;
        let s = self.cloth.spacing;
        let local_centre = 0.5
            * s
            * DVec3::new(
                f64::from(self.cloth.nx - 1),
                f64::from(self.cloth.ny - 1),
                0.0,
            );
        let turn = DVec3::new(0.0, 0.0, self.turn);
        let centre = DVec3::new(self.shift.x, self.shift.y, 2.0 * r + self.drop);
        let placement = Placement::at(centre - DQuat::from_scaled_axis(turn) * local_centre)
            .with_rotation(turn);
        let params = Params {
            collision: self.collision,
            dt: self.dt,
            ..Params::cloth()
        };
        let mut scene = Scene::new(params);
        scene.push(
            BodySpec::new(BodyKind::Cloth(self.cloth.clone()))
                .named("cloth")
                .placed(placement)
                .colliding(BodyCollision {
                    radius: 0.5 * s,
                    ..BodyCollision::default()
                }),
        );
        scene.obstacles.push(Obstacle::new(
            Shape::Sphere {
                centre: DVec3::new(0.0, 0.0, r),
                radius: r,
            },
            params.contact,
            params.friction,
        ));
        Ok(scene)
    }

    /// The model of [`ClothOnSphere::scene`].
    ///
    /// # Errors
    /// Those of [`ClothOnSphere::scene`], then those of [`Scene::to_model`] (the cloth
    /// builder's checks; [`Params::validate`] for `dt` and the collision).
    pub fn model(&self) -> Result<Model> {
        self.scene()?.to_model()
    }
}
