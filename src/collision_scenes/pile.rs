//! A pile of soft bodies dropped into a box.

use crate::error::Result;
use crate::model::{Collision, Contact, Friction, Model, Params};
use crate::scene::{PileBody, PileLayout, Scene};

/// Soft bodies (cubes, lattices and random blobs of different sizes, [`PileBody`]) dropped into
/// a box: four [`Shape::Box`](crate::Shape::Box) walls standing on the ground, which is the floor. Every mass
/// collides; the pair force is damped and has friction, and the walls and the ground have
/// damped penalty contact and Coulomb friction, so the pile settles.
///
/// The bodies, their starting cells and the walls are its [`PileLayout`]'s; this struct adds the
/// contact, friction, pair force and time step the pile was tuned for.
///
/// # Examples
///
/// ```
/// use hooke::collision_scenes::Pile;
/// use hooke::scene::PileLayout;
///
/// let model = Pile::default().model()?; // the example's pile
/// assert_eq!(model.bodies.len(), 50);
/// assert!(model.masses.iter().all(|m| m.collision_radius > 0.0));
/// // A box too narrow for one body is an error naming the field.
/// let layout = PileLayout { width: 0.1, ..PileLayout::default() };
/// let narrow = Pile { layout, ..Pile::default() };
/// assert!(matches!(
///     narrow.scene(),
///     Err(hooke::Error::InvalidParameter { name: "pile.width", .. })
/// ));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pile {
    /// The bodies, their number and seed, and the box ([`PileLayout`]: default 50 bodies in a
    /// 0.5 m box with walls of 0.2 m, seed 13), as a scene file's `"pile"` names them.
    pub layout: PileLayout,
    /// The pair force (default 100 000 N/m, 5 N*s/m of normal damping, friction 0.5: a damping
    /// ratio of 5 / (2 sqrt(1e5 * 0.01)) = 0.08 for two 0.02 kg points).
    pub collision: Collision,
    /// Contact of the ground and the walls (default penalty 100 000 N/m with 20 N*s/m of normal
    /// damping).
    pub contact: Contact,
    /// Friction of the ground and the walls (default Coulomb, mu_s = 0.5, mu_k = 0.4).
    pub friction: Friction,
    /// Time step, s (default 1e-4). The model's estimate ([`Model::stable_dt`]) is 3.1e-4 s,
    /// set by a 0.02 kg point inside a lattice: 71 N*s/m of damping (its 26 springs' 0.5 N*s/m
    /// counted twice, the ground's and a wall's 20, the collision's 5) with its stiffness
    /// (springs, ground, a wall and one collision). In the pile a point can touch up to about six
    /// points of other bodies at once; counting the collision stiffness and damping six times
    /// gives 2.1e-4 s, and the default stays a factor 2 below that.
    pub dt: f64,
}

impl Default for Pile {
    fn default() -> Self {
        Self {
            layout: PileLayout::default(),
            collision: Collision {
                stiffness: 100_000.0,
                damping: 5.0,
                friction: 0.5,
            },
            contact: Contact::Penalty {
                stiffness: 100_000.0,
                damping: 20.0,
            },
            friction: Friction::coulomb(0.5, 0.4),
            dt: 1e-4,
        }
    }
}

impl Pile {
    /// The kind and size of every body, in order.
    #[must_use]
    pub fn kinds(&self) -> Vec<PileBody> {
        self.layout.kinds()
    }

    /// The scene: gravity, the ground as the floor, this struct's contact, friction, collision
    /// and `dt`, and the pile by name ([`Scene::pile`]: the bodies in their cells and the four
    /// walls, made by [`Scene::to_model`]).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming `"pile.bodies"`,
    /// `"pile.width"` or `"pile.wall_height"` for a value out of the range its docs give.
    pub fn scene(&self) -> Result<Scene> {
        self.layout.validate()?;
        Ok(Scene {
            pile: Some(self.layout),
            ..Scene::new(Params {
                contact: self.contact,
                friction: self.friction,
                collision: self.collision,
                dt: self.dt,
                ..Params::default()
            })
        })
    }

    /// The model of [`Pile::scene`].
    ///
    /// # Errors
    /// Those of [`Pile::scene`], then those of [`Scene::to_model`] ([`Params::validate`] for
    /// `dt`, the contact, friction and collision).
    pub fn model(&self) -> Result<Model> {
        self.scene()?.to_model()
    }
}
