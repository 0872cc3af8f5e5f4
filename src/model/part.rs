//! Parts (what a builder makes) and bodies (a part once added to a model).

use std::ops::Range;

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Actuator, Mass, Spring};

/// A named group of masses and springs added by one builder call. Bodies let a World report
/// per-body centre of mass and mean velocity (many creatures in one World).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Body {
    /// Name given by the builder or the user.
    pub name: String,
    /// The body's masses (indices into the model's masses).
    pub masses: Range<usize>,
    /// The body's springs (indices into the model's springs).
    pub springs: Range<usize>,
    /// Whether masses of this body collide with one another (default true; see
    /// [`Part::self_collision`]).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub self_collision: bool,
}

fn yes() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_true(v: &bool) -> bool {
    *v
}

/// Masses, springs and actuators with indices local to themselves, as a builder makes them, ready
/// to be added to a [`Model`](super::Model) as one body with [`Model::add`](super::Model::add).
///
/// # Examples
///
/// A dumbbell made by hand:
///
/// ```
/// use hooke::{DVec3, Mass, Model, Params, Part};
///
/// let mut part = Part::new();
/// let a = part.add_mass(Mass::new(0.1, DVec3::ZERO)); // 0.1 kg at the origin
/// let b = part.add_mass(Mass::new(0.1, DVec3::new(0.2, 0.0, 0.0)));
/// // k = 1000 N/m, c = 1 N*s/m; the rest length is the current distance, 0.2 m.
/// let s = part.connect(a, b, 1000.0, 1.0);
/// assert!((part.springs[s as usize].rest_length - 0.2).abs() < 1e-15);
/// part.translate(DVec3::new(0.0, 0.0, 0.5)); // lift it 0.5 m
/// assert_eq!(part.min_z(), Some(0.5));
///
/// let mut model = Model::new(Params::default());
/// let body = model.add("dumbbell", part);
/// assert_eq!(model.bodies[body].name, "dumbbell");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// The masses.
    pub masses: Vec<Mass>,
    /// The springs; `a` and `b` index `masses`.
    pub springs: Vec<Spring>,
    /// Actuators; `spring` indexes `springs`.
    #[serde(default)]
    pub actuators: Vec<Actuator>,
    /// Whether masses of this part collide with one another when they have collision radii
    /// (default true). Springs' own ends never collide either way. Becomes
    /// [`Body::self_collision`].
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub self_collision: bool,
}

impl Default for Part {
    fn default() -> Self {
        Self {
            masses: Vec::new(),
            springs: Vec::new(),
            actuators: Vec::new(),
            self_collision: true,
        }
    }
}

impl Part {
    /// An empty part.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a mass and returns its index in this part.
    pub fn add_mass(&mut self, mass: Mass) -> u32 {
        self.masses.push(mass);
        (self.masses.len() - 1) as u32
    }

    /// Adds a spring (indices local to this part) and returns its index in this part.
    pub fn add_spring(&mut self, spring: Spring) -> u32 {
        self.springs.push(spring);
        (self.springs.len() - 1) as u32
    }

    /// Adds a Hooke spring between masses `a` and `b` with stiffness `k` (N/m) and damping `c`
    /// (N*s/m), its rest length the current distance between them. Returns its index.
    ///
    /// # Panics
    /// If `a` or `b` is not a mass of this part.
    pub fn connect(&mut self, a: u32, b: u32, k: f64, c: f64) -> u32 {
        let rest = self.masses[a as usize]
            .position
            .distance(self.masses[b as usize].position);
        self.add_spring(Spring::hooke(a, b, k, rest).with_damping(c))
    }

    /// Moves every mass by `offset` (m).
    pub fn translate(&mut self, offset: DVec3) {
        for m in &mut self.masses {
            m.position += offset;
        }
    }

    /// Sets every mass's velocity to `velocity` (m/s).
    pub fn set_velocity(&mut self, velocity: DVec3) {
        for m in &mut self.masses {
            m.velocity = velocity;
        }
    }

    /// Lowest z over all masses (m), or `None` for an empty part.
    #[must_use]
    pub fn min_z(&self) -> Option<f64> {
        self.masses
            .iter()
            .map(|m| m.position.z)
            .min_by(|a, b| a.total_cmp(b))
    }

    /// Total mass in kg.
    #[must_use]
    pub fn total_mass(&self) -> f64 {
        self.masses.iter().map(|m| m.mass).sum()
    }

    /// The same part with collision radius `radius` (m) on every mass (0 turns collisions off;
    /// see [`Collision`](super::Collision)). Checked when the model is validated.
    ///
    /// ```
    /// use hooke::{Builder, Cube};
    ///
    /// let cube = Cube::lipson().build()?.with_collision_radius(0.025); // m
    /// assert!(cube.masses.iter().all(|m| m.collision_radius == 0.025));
    /// # Ok::<(), hooke::Error>(())
    /// ```
    #[must_use]
    pub fn with_collision_radius(mut self, radius: f64) -> Self {
        for m in &mut self.masses {
            m.collision_radius = radius;
        }
        self
    }

    /// The same part with every mass in collision class `class` (below
    /// [`COLLISION_CLASSES`](super::COLLISION_CLASSES); see [`ClassCollision`](super::ClassCollision)).
    #[must_use]
    pub fn with_collision_class(mut self, class: u32) -> Self {
        for m in &mut self.masses {
            m.collision_class = class;
        }
        self
    }

    /// The same part with collision group `group` and mask `mask` (bit sets) on every mass (see
    /// [`Mass::collision_group`]).
    #[must_use]
    pub fn with_collision_filter(mut self, group: u32, mask: u32) -> Self {
        for m in &mut self.masses {
            m.collision_group = group;
            m.collision_mask = mask;
        }
        self
    }

    /// The same part with self-collision on or off ([`Part::self_collision`]).
    #[must_use]
    pub fn with_self_collision(self, self_collision: bool) -> Self {
        Self {
            self_collision,
            ..self
        }
    }
}
