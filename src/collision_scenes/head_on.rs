//! Two jelly cubes colliding head-on in free space.

use glam::DVec3;

use crate::builders::{Lattice, Placement};
use crate::error::Result;
use crate::model::{Collision, Contact, Model, Params};
use crate::scene::{BodyCollision, BodyKind, BodySpec, Scene};
use crate::validate::{at_least, non_negative, positive, require};

/// Two equal jelly cubes ([`Lattice`]s of `n^3` masses, every mass of collision radius
/// `spacing / 2`) flying at each other along x in free space (no gravity, no ground), each at
/// `speed / 2`: they meet, squash, and bounce apart. With the default elastic
/// [`Collision`] and undamped springs nothing dissipates, so total momentum stays zero and
/// energy is conserved up to the integrator's O(dt) error.
///
/// Layout: body 0 (`"left"`) spans `x` in `[-gap / 2 - side, -gap / 2]`, body 1 (`"right"`)
/// `[gap / 2, gap / 2 + side]`, both `y, z` in `[-side / 2, side / 2]` (`side = (n - 1)
/// spacing`), so their facing mass layers start `gap` apart; they touch once that distance
/// falls below the contact distance `spacing` (two radii), after `(gap - spacing) / speed` s.
///
/// # Examples
///
/// ```
/// use hooke::collision_scenes::HeadOnCubes;
/// use hooke::{CpuWorld, DVec3};
///
/// // Small cubes, as the tests use them: 3 x 3 x 3 masses each.
/// let model = HeadOnCubes { n: 3, ..HeadOnCubes::default() }.model()?;
/// assert_eq!(model.masses.len(), 54);
/// let mut world = CpuWorld::new(&model)?;
/// world.step_for(0.5)?; // contact after (0.2 - 0.04) / 1 = 0.16 s
/// let v = world.velocity_slice();
/// assert!(v[0].x < 0.0 && v[53].x > 0.0); // bounced apart
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadOnCubes {
    /// Masses per side of each cube (default 6). At least 2.
    pub n: u32,
    /// Distance between neighbouring masses, m (default 0.04: 0.2 m cubes). Finite and > 0.
    /// The collision radius is half of it.
    pub spacing: f64,
    /// Mass of each point, kg (default 0.02: 4.32 kg per default cube). Finite and > 0.
    pub mass: f64,
    /// Spring stiffness, N/m (default 200: soft, so the cubes visibly squash and wobble). Finite
    /// and >= 0.
    pub stiffness: f64,
    /// Axial spring damping, N*s/m (default 0). Finite and >= 0.
    pub damping: f64,
    /// Closing speed, m/s (default 1): each cube moves at half of it. Finite and >= 0.
    pub speed: f64,
    /// Initial distance between the facing mass layers, m (default 0.2). Finite and greater
    /// than `spacing` (the cubes must not start in contact).
    pub gap: f64,
    /// The pair force (default [`Collision::default`]: 100 000 N/m, elastic).
    pub collision: Collision,
    /// Time step, s (default 1e-4). The model's estimate ([`Model::stable_dt`]) is 8.5e-4 s, set
    /// by the collision stiffness on one 0.02 kg mass (1e5 N/m against 1.0e4 N/m of springs).
    /// Face to face the lattices touch one on one (the next masses of the other face are `sqrt(2)
    /// spacing` away, beyond the contact distance `spacing`); a squashed or tilted face may touch
    /// up to 4 masses at once: counting the collision stiffness four times gives 4.4e-4 s, and
    /// the default stays a factor 4 below that.
    pub dt: f64,
}

impl Default for HeadOnCubes {
    fn default() -> Self {
        Self {
            n: 6,
            spacing: 0.04,
            mass: 0.02,
            stiffness: 200.0,
            damping: 0.0,
            speed: 1.0,
            gap: 0.2,
            collision: Collision::default(),
            dt: 1e-4,
        }
    }
}

impl HeadOnCubes {
    /// The scene: free-space parameters (no gravity, [`Contact::None`]) with this struct's `dt`
    /// and collision, and the two cubes as [`Lattice`] bodies with their collision radius.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming the field
    /// (`"head_on.n"`, `"head_on.gap"`, ...) for a value out of the range its docs give.
    pub fn scene(&self) -> Result<Scene> {
        at_least("head_on.n", self.n as usize, 2, "must be at least 2")?;
        positive(
            "head_on.spacing",
            self.spacing,
            "must be finite and > 0 (m)",
        )?;
        non_negative("head_on.speed", self.speed, "must be finite and >= 0 (m/s)")?;
        require(
            self.gap.is_finite() && self.gap > self.spacing,
            "head_on.gap",
            self.gap,
            "must be finite and greater than head_on.spacing, the contact distance (m)",
        )?;
        let lattice = Lattice {
            n: self.n,
            spacing: self.spacing,
            z0: 0.0,
            mass: self.mass,
            stiffness: self.stiffness,
            damping: self.damping,
            material: None,
        };
        let side = f64::from(self.n - 1) * self.spacing;
        let collision = BodyCollision {
            radius: 0.5 * self.spacing,
            ..BodyCollision::default()
        };
        let mut scene = Scene::new(Params {
            gravity: DVec3::ZERO,
            contact: Contact::None,
            collision: self.collision,
            dt: self.dt,
            ..Params::default()
        });
        for (name, x, sign) in [
            ("left", -0.5 * self.gap - side, 1.0),
            ("right", 0.5 * self.gap, -1.0),
        ] {
            let placement = Placement::at(DVec3::new(x, -0.5 * side, -0.5 * side))
                .with_velocity(DVec3::new(sign * 0.5 * self.speed, 0.0, 0.0));
            scene.push(
                BodySpec::new(BodyKind::Lattice(lattice))
                    .named(name)
                    .placed(placement)
                    .colliding(collision),
            );
        }
        Ok(scene)
    }

    /// The model of [`HeadOnCubes::scene`].
    ///
    /// # Errors
    /// Those of [`HeadOnCubes::scene`], then those of [`Scene::to_model`] (the lattice's own
    /// checks of mass, stiffness and damping; [`Params::validate`] for `dt` and the collision).
    pub fn model(&self) -> Result<Model> {
        self.scene()?.to_model()
    }
}
