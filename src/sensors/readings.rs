//! What a sensor call asks ([`SensorSpec`]) and returns ([`Readings`]): one field of each per
//! kind of sensor, the reading of one item of each kind, and the check of a spec's indices.

use std::ops::Range;

use glam::{DMat3, DVec3};

use crate::model::Body;

/// The cap on the quaternion iterations that extract a body's orientation (see the
/// [module docs](crate::sensors)).
pub const ORIENTATION_ITERATIONS: usize = 64;

/// Eigenvalues of the inertia tensor below this fraction of the largest count as zero in its
/// pseudo-inverse (see the [module docs](crate::sensors)). The GPU's f32 sums resolve the tensor to about
/// `1e-7` of its size (the f32 epsilon, over sums of a few hundred terms), so a true zero
/// reads below `1e-5` and a genuine thickness above it is kept.
pub const INERTIA_CUTOFF: f64 = 1e-5;

/// What one [`Simulation::sense`](crate::Simulation::sense) call reads. The default reads
/// nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SensorSpec {
    /// Bodies to read, as indices into [`Simulation::bodies_of_model`](crate::Simulation::bodies_of_model).
    pub bodies: Vec<usize>,
    /// Whether to read the orientation frame and angular velocity of those bodies as well.
    pub orientation: bool,
    /// Masses whose contact with the ground and the obstacles to read (model mass indices).
    pub contacts: Vec<usize>,
    /// Springs whose length and strain to read (model spring indices).
    pub springs: Vec<usize>,
}

/// What one [`Simulation::sense`](crate::Simulation::sense) call read, in the order of the
/// [`SensorSpec`]'s lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Readings {
    /// Simulated time of the readings, s.
    pub time: f64,
    /// One per [`SensorSpec::bodies`], same order.
    pub bodies: Vec<BodyReading>,
    /// One per [`SensorSpec::contacts`], same order.
    pub contacts: Vec<ContactReading>,
    /// One per [`SensorSpec::springs`], same order.
    pub springs: Vec<SpringReading>,
}

/// One body's reading.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyReading {
    /// Centre of mass, m (zero for a body without masses).
    pub centre_of_mass: DVec3,
    /// Mass-weighted mean velocity, m/s (zero for a body without masses).
    pub mean_velocity: DVec3,
    /// Rotation of the best-fit rigid motion from the model's positions to the current ones
    /// (columns: the body's frame axes in world coordinates); `None` unless
    /// [`SensorSpec::orientation`]. See the [module docs](crate::sensors).
    pub orientation: Option<DMat3>,
    /// Angular velocity `I^-1 L` about the centre of mass, rad/s; `None` unless
    /// [`SensorSpec::orientation`]. See the [module docs](crate::sensors).
    pub angular_velocity: Option<DVec3>,
}

/// One mass's contact with the ground and the obstacles over the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactReading {
    /// Whether the ground or an obstacle touched the mass in the last step.
    pub touching: bool,
    /// The normal force the surfaces applied in the last step, summed over the ground and the
    /// obstacles, friction excluded, N.
    pub normal_force: DVec3,
}

/// One spring's reading.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringReading {
    /// Current length (distance between its masses), m.
    pub length: f64,
    /// `L / L0 - 1`, with `L0` the current rest length (an actuated spring's actuator value at
    /// [`Readings::time`]); for a zero-rest-length spring `+inf` when stretched, 0 otherwise.
    pub strain: f64,
}

impl SpringReading {
    /// The reading of a spring of length `length` (m) and current rest length `rest` (m).
    pub(crate) fn new(length: f64, rest: f64) -> Self {
        let strain = if rest > 0.0 {
            length / rest - 1.0
        } else if length > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        Self { length, strain }
    }
}

/// Checks every index of `spec` against the world's counts.
///
/// # Errors
/// [`crate::Error::IndexOutOfRange`] naming the first body, mass or spring out of range.
pub(crate) fn check(
    spec: &SensorSpec,
    bodies: usize,
    masses: usize,
    springs: usize,
) -> crate::Result<()> {
    let lists: [(&'static str, &[usize], usize); 3] = [
        ("body", &spec.bodies, bodies),
        ("mass", &spec.contacts, masses),
        ("spring", &spec.springs, springs),
    ];
    for (what, list, len) in lists {
        if let Some(&index) = list.iter().find(|&&i| i >= len) {
            return Err(crate::Error::IndexOutOfRange { what, index, len });
        }
    }
    Ok(())
}

/// Where one body's own sensors sit in a spec of many bodies ([`SensorSpec::push_body`]): a
/// range of each list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BodySlice {
    bodies: Range<usize>,
    contacts: Range<usize>,
    springs: Range<usize>,
}

impl SensorSpec {
    /// Appends `own`, given in the local indices of body `index` of a model (`bodies` may only
    /// hold 0, the body itself; `contacts` its masses; `springs` its springs, numbered as in its
    /// [`Part`](crate::Part)), translated to model indices; returns where they sit.
    ///
    /// # Errors
    /// `(what, index, len)` of the first local index out of the body's range (`"body"`,
    /// `"mass"` or `"spring"`); `self` may then hold part of `own`.
    pub(crate) fn push_body(
        &mut self,
        own: &SensorSpec,
        index: usize,
        body: &Body,
    ) -> Result<BodySlice, (&'static str, usize, usize)> {
        let (b0, c0, s0) = (self.bodies.len(), self.contacts.len(), self.springs.len());
        for &b in &own.bodies {
            if b != 0 {
                return Err(("body", b, 1));
            }
            self.bodies.push(index);
        }
        self.orientation |= own.orientation && !own.bodies.is_empty();
        for &m in &own.contacts {
            if m >= body.masses.len() {
                return Err(("mass", m, body.masses.len()));
            }
            self.contacts.push(body.masses.start + m);
        }
        for &s in &own.springs {
            if s >= body.springs.len() {
                return Err(("spring", s, body.springs.len()));
            }
            self.springs.push(body.springs.start + s);
        }
        Ok(BodySlice {
            bodies: b0..self.bodies.len(),
            contacts: c0..self.contacts.len(),
            springs: s0..self.springs.len(),
        })
    }
}

impl Readings {
    /// The readings of one body's `slice` (see [`SensorSpec::push_body`]), without orientation
    /// and angular velocity unless `orientation` (what that body's own spec asked).
    pub(crate) fn slice(&self, slice: &BodySlice, orientation: bool) -> Readings {
        let mut bodies = self.bodies[slice.bodies.clone()].to_vec();
        if !orientation {
            for b in &mut bodies {
                b.orientation = None;
                b.angular_velocity = None;
            }
        }
        Readings {
            time: self.time,
            bodies,
            contacts: self.contacts[slice.contacts.clone()].to_vec(),
            springs: self.springs[slice.springs.clone()].to_vec(),
        }
    }
}
