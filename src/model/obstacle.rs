//! [`Obstacle`]: a static solid that masses touch with their own contact and friction, as they
//! touch the ground; and its validation.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::contact::{Contact, Friction};
use super::shape::{non_negative, Check, Shape};
use crate::error::{Error, Result};

/// A static obstacle: a [`Shape`] with its own contact model and friction.
///
/// Obstacles are surfaces in addition to the ground ([`Params::contact`](super::Params::contact),
/// the plane z = 0, which stays as it is; set it to [`Contact::None`] for a world of obstacles
/// only). Each obstacle acts on a mass exactly as the ground does, in the obstacle's frame: with
/// `d` the signed distance of the mass from the surface and `n` the outward normal
/// ([`Shape::surface`]),
/// - penalty: normal force `N = max(0, -k d - c v.n)` along `n` while `d < 0`; the spring part
///   `-k d n` is conservative and its energy `k d^2 / 2` is booked in
///   [`Energy::ground`](crate::Energy::ground);
/// - restitution: while `d <= 0`, `N` cancels the part of the net force along `-n`, and a mass
///   moving into the surface leaves the step with normal velocity `-e v.n`;
/// - friction in the tangent plane with the rule of [`Friction`] (static friction holds below
///   `mu_s N`, kinetic friction never reverses a mass; a mass's
///   [`FrictionOscillator`](super::FrictionOscillator) replaces both coefficients on every
///   surface).
///
/// A mass touching several surfaces feels each: the ground first, then the obstacles in model
/// order, each one seeing the net force with the contact and friction forces of the surfaces
/// before it (so friction on a second surface cannot undo what the first one stopped).
///
/// Both backends simulate obstacles: the CPU reference ([`CpuWorld`](crate::CpuWorld)) in f64
/// and the GPU [`World`](crate::World) in f32 (the obstacle table of
/// `shaders/shared/obstacles.wgsl`), held together by the parity suite. A grid over the
/// obstacles' footprint (the broad phase) lists, per cell, the obstacles a mass there can touch;
/// a mass tests only those against their bounding boxes ([`Shape::bounds`]) and computes the
/// exact distance only inside one.
/// A restitution surface reflects the normal velocity the surfaces before it leave, so a mass on
/// two coincident surfaces is reflected once.
///
/// # Examples
///
/// ```
/// use hooke::{Contact, CpuWorld, DVec3, Error, Friction, Mass, Model, Obstacle, Params, Shape};
///
/// let mut model = Model::new(Params::default());
/// model.add_mass(Mass::new(0.1, DVec3::new(0.0, 0.0, 1.2)));
/// // A ball of radius 0.5 m below the mass, with damped contact and friction.
/// model.add_obstacle(Obstacle {
///     shape: Shape::Sphere { centre: DVec3::new(0.0, 0.0, 0.5), radius: 0.5 },
///     contact: Contact::Penalty { stiffness: 1e5, damping: 50.0 },
///     friction: Friction::coulomb(1.0, 0.8),
/// });
/// let mut world = CpuWorld::new(&model)?;
/// world.step_for(1.0)?;
/// // The mass came to rest on top of the ball, 1 m up (less the penalty depth, ~1e-5 m).
/// assert!((world.position_slice()[0].z - 1.0).abs() < 1e-4);
///
/// // Degenerate shapes are errors naming the obstacle.
/// model.obstacles[0].shape = Shape::Sphere { centre: DVec3::ZERO, radius: -1.0 };
/// assert!(matches!(model.validate(), Err(Error::InvalidObstacle { obstacle: 0, .. })));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    /// The solid.
    pub shape: Shape,
    /// How it pushes back (default: Lipson's penalty, `k = 100 000` N/m, no damping).
    #[serde(default)]
    pub contact: Contact,
    /// Friction on its surface (default none).
    #[serde(default)]
    pub friction: Friction,
}

impl Obstacle {
    /// An obstacle of shape `shape` with contact `contact` and friction `friction`.
    #[must_use]
    pub fn new(shape: Shape, contact: Contact, friction: Friction) -> Self {
        Self {
            shape,
            contact,
            friction,
        }
    }

    /// Checks obstacle number `index`: finite, non-degenerate shape, and contact and friction
    /// values in the ranges [`Params::validate`](super::Params::validate) allows for the ground.
    pub(super) fn check(&self, index: usize) -> Result<()> {
        let bad = |reason: String| Error::InvalidObstacle {
            obstacle: index,
            reason,
        };
        self.shape.check().map_err(bad)?;
        check_contact(self.contact).map_err(bad)?;
        check_friction(&self.friction).map_err(bad)
    }
}

fn check_contact(contact: Contact) -> Check {
    match contact {
        Contact::None => Ok(()),
        Contact::Penalty { stiffness, damping } => {
            non_negative("contact stiffness", stiffness, "N/m")?;
            non_negative("contact damping", damping, "N*s/m")
        }
        Contact::Restitution { restitution } => {
            if (0.0..=1.0).contains(&restitution) {
                Ok(())
            } else {
                Err(format!(
                    "restitution = {restitution}; it must lie in [0, 1]"
                ))
            }
        }
    }
}

fn check_friction(f: &Friction) -> Check {
    non_negative("friction static_coefficient", f.static_coefficient, "")?;
    non_negative("friction kinetic_coefficient", f.kinetic_coefficient, "")?;
    non_negative("friction rest_speed", f.rest_speed, "m/s")
}
