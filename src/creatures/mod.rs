//! Creatures: parameterised soft robots and the scenarios of the source documents
//! (docs/SOURCES.md) that really do what they claim on the CPU reference, each returned as a
//! [`Creature`] (a [`Part`] plus the [`Params`] it was tuned for).
//!
//! | builder | what it does | source (docs/SOURCES.md) |
//! |---|---|---|
//! | [`WalkingRobot`] | a voxel table on four actuated legs that trots forward (+x) | Lipson (items 6-7) |
//! | [`Wheel`] ([`Wheel::whirligig`], [`Wheel::pinwheel`]) | a spoked wheel that rolls forward, spokes kicking in turn on duty cycles | Facey |
//! | [`Inchworm`] | a segmented worm that crawls forward by stretching and toggling the friction of its feet | Facey |
//! | [`BreathingCube`] | the Lipson cube with every spring actuated by a sine | Lipson |
//! | [`Pendulum`] | the Lipson cube hanging from one fixed corner | Lipson |
//! | [`DroppedStructure`] | three attached cubes, a hinge, or a random blob, dropped on the ground | Lipson |
//!
//! The physics is honest: every creature moves only through its springs, actuators (rest
//! lengths changing in time), ground contact, friction and gravity; nothing pushes it along.
//! Each builder documents the distance it travels on the CPU reference (`tests/integration/creatures.rs`
//! asserts it) and the parameters it needs.
//!
//! ```
//! use hooke::creatures::Inchworm;
//!
//! # fn main() -> hooke::Result<()> {
//! let worm = Inchworm::default().build()?;
//! let trace = worm.run(1.0, 0.1)?; // 1 s of simulated time, sampled every 0.1 s
//! assert!(trace.forward_distance() > 0.0);
//! # Ok(())
//! # }
//! ```
//!
//! All parts are laid out with their lowest masses on the ground plane `z = 0` (or, for dropped
//! structures and the pendulum, at the height their builder documents), facing +x.

use std::f64::consts::TAU;
use std::fmt::Write as _;
use std::path::Path;

use glam::{DMat3, DVec3};

use crate::cpu::CpuWorld;
use crate::energy::Energy;
use crate::error::{Error, Result};
use crate::model::{Actuator, DutyCycle, Model, Params, Part};
use crate::validate::{non_negative, positive};

mod commanded_walker;
mod inchworm;
mod lipson;
mod walker;
mod wheel;

pub use commanded_walker::{CommandedWalker, Leg};
pub use inchworm::Inchworm;
pub use lipson::{BreathingCube, DroppedStructure, Pendulum, StructureKind};
pub use walker::WalkingRobot;
pub use wheel::Wheel;

/// A built creature: its masses, springs and actuators, the simulation parameters it was designed
/// and tuned for, and its length along x.
///
/// # Examples
///
/// ```
/// use hooke::creatures::Pendulum;
/// use hooke::Builder;
///
/// let creature = Pendulum::default().build()?;
/// let model = creature.model(); // body 0, with the parameters the creature was tuned for
/// assert_eq!((model.bodies[0].name.as_str(), model.params), ("pendulum", creature.params));
/// // Simulate it alone (Creature::world) or with others: it is a Part like any builder's.
/// let mut scene = creature.model();
/// scene.add("second cube", hooke::Cube::lipson().build()?);
/// assert_eq!(hooke::CpuWorld::new(&scene)?.bodies()?.len(), 2);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Creature {
    /// Short name, used as the body name in [`Creature::model`].
    pub name: String,
    /// Masses, springs and actuators.
    pub part: Part,
    /// Time step, gravity, contact and friction the creature was tuned for.
    pub params: Params,
    /// Extent of the part along x at construction, in m: the "body length" that locomotion is
    /// measured against.
    pub length: f64,
    /// The hexahedral cells of a voxel body, each its 8 corner mass indices in the order of
    /// [`crate::render::HEXAHEDRON_FACES`] (corner `x + 2 y + 4 z`), for the solid look
    /// ([`crate::render::exterior_triangles`]); empty for creatures not made of voxels.
    pub cells: Vec<[u32; 8]>,
}

impl Creature {
    pub(crate) fn new(name: &str, part: Part, params: Params) -> Self {
        let (lo, hi) = part
            .masses
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), m| {
                (lo.min(m.position.x), hi.max(m.position.x))
            });
        Self {
            name: name.to_string(),
            part,
            params,
            length: (hi - lo).max(0.0),
            cells: Vec::new(),
        }
    }

    /// The same creature with voxel cells `cells` (see [`Creature::cells`]).
    pub(crate) fn with_cells(mut self, cells: Vec<[u32; 8]>) -> Self {
        self.cells = cells;
        self
    }

    /// A model holding this creature as its only body (body 0), with its parameters.
    #[must_use]
    pub fn model(&self) -> Model {
        let mut model = Model::new(self.params);
        model.add(self.name.clone(), self.part.clone());
        model
    }

    /// A model holding `count` copies of this creature, with its parameters, each its own body
    /// (named `<name>_<i>`, body `i`), laid out on a square grid of `spacing` m in x and y (copy
    /// `i` at column `i % side`, row `i / side`, `side = ceil(sqrt(count))`). Copies do not
    /// collide with one another (creatures have no collision radius); they share only the
    /// ground. This is the population workload of the benchmarks: 500 inchworms
    /// ([`Inchworm`]) are 10 000 masses, 47 000 springs and 32 000 actuated springs.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for `count == 0` or a
    /// `spacing` that is not finite and > 0.
    pub fn herd(&self, count: usize, spacing: f64) -> Result<Model> {
        if count == 0 {
            return Err(Error::InvalidParameter {
                name: "herd.count",
                value: 0.0,
                expected: "at least 1 creature",
            });
        }
        if !(spacing.is_finite() && spacing > 0.0) {
            return Err(Error::InvalidParameter {
                name: "herd.spacing",
                value: spacing,
                expected: "finite and > 0 (m)",
            });
        }
        let side = (count as f64).sqrt().ceil() as usize;
        let mut model = Model::new(self.params);
        for i in 0..count {
            let mut part = self.part.clone();
            let (col, row) = ((i % side) as f64, (i / side) as f64);
            part.translate(DVec3::new(col * spacing, row * spacing, 0.0));
            model.add(format!("{}_{i}", self.name), part);
        }
        Ok(model)
    }

    /// A CPU reference world simulating [`Creature::model`].
    ///
    /// # Errors
    /// The model's validation errors (see [`Model::validate`]).
    pub fn world(&self) -> Result<CpuWorld> {
        CpuWorld::new(&self.model())
    }

    /// Simulates the creature alone on the CPU reference for `duration` s and samples the time and
    /// centre of mass every `interval` s (the first sample at t = 0, the last at the end).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `duration` is negative or non-finite or `interval` is not
    /// finite and > 0; the model's validation errors; [`Error::BlowUp`] or [`Error::NonFinite`]
    /// if the simulation blows up.
    pub fn run(&self, duration: f64, interval: f64) -> Result<Trace> {
        let mut world = self.world()?;
        Trace::record(&mut world, 0, duration, interval, |_, _| Ok(()))
    }
}

/// Time, centre of mass of one body and the world's energy, sampled along a simulation.
///
/// # Examples
///
/// ```
/// use hooke::creatures::{DroppedStructure, Trace};
///
/// let mut world = DroppedStructure::hinge().build()?.world()?;
/// // 0.1 s of body 0, sampled every 0.05 s: at t = 0, 0.05 and 0.1 s.
/// let trace = Trace::record(&mut world, 0, 0.1, 0.05, |_world, _sample| Ok(()))?;
/// assert_eq!(trace.time.len(), 3);
/// assert!(trace.centre_of_mass[2].z < trace.centre_of_mass[0].z); // falling
/// assert!(trace.to_csv().starts_with("t_s,com_x_m,com_y_m,com_z_m,"));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Simulation times in s, increasing.
    pub time: Vec<f64>,
    /// Centre of mass of the body at each time, in m.
    pub centre_of_mass: Vec<DVec3>,
    /// Energy terms of the whole world at each time, in J.
    pub energy: Vec<Energy>,
}

impl Trace {
    /// Steps `world` for `duration` s, sampling body `body`'s centre of mass every `interval` s
    /// (first at the current time, last at the end). `each` is called after every sample with the
    /// world and the sample index (to write frames, energies, ...).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `duration` is negative or non-finite or `interval` is not
    /// finite and > 0; [`Error::IndexOutOfRange`] for a missing body; [`Error::BlowUp`] or
    /// [`Error::NonFinite`] if the simulation blows up; whatever `each` returns.
    pub fn record(
        world: &mut CpuWorld,
        body: usize,
        duration: f64,
        interval: f64,
        mut each: impl FnMut(&CpuWorld, usize) -> Result<()>,
    ) -> Result<Self> {
        non_negative("duration", duration, "must be finite and >= 0 s")?;
        positive("interval", interval, "must be finite and > 0 s")?;
        let dt = world.params().dt;
        let total = (duration / dt).round() as u64;
        let every = ((interval / dt).round() as u64).max(1);
        let mut trace = Self::default();
        let mut taken = 0;
        loop {
            trace.time.push(world.time());
            trace.centre_of_mass.push(world.body_centre_of_mass(body)?);
            trace.energy.push(world.energy()?);
            each(world, trace.time.len() - 1)?;
            if taken == total {
                break;
            }
            let n = every.min(total - taken);
            world.step(n)?;
            taken += n;
        }
        Ok(trace)
    }

    /// Displacement of the centre of mass along +x from the first to the last sample, in m.
    #[must_use]
    pub fn forward_distance(&self) -> f64 {
        match (self.centre_of_mass.first(), self.centre_of_mass.last()) {
            (Some(a), Some(b)) => b.x - a.x,
            _ => 0.0,
        }
    }

    /// Sideways drift of the centre of mass (|displacement along y|) from the first to the last
    /// sample, in m.
    #[must_use]
    pub fn sideways_drift(&self) -> f64 {
        match (self.centre_of_mass.first(), self.centre_of_mass.last()) {
            (Some(a), Some(b)) => (b.y - a.y).abs(),
            _ => 0.0,
        }
    }

    /// `(time, energy)` pairs, in s and J.
    #[must_use]
    pub fn energy_samples(&self) -> Vec<(f64, Energy)> {
        self.time
            .iter()
            .copied()
            .zip(self.energy.iter().copied())
            .collect()
    }

    /// The trace as CSV text: a header line
    /// `t_s,com_x_m,com_y_m,com_z_m,kinetic_j,gravity_j,elastic_j,ground_j,dissipated_j,injected_j`
    /// and one line per sample.
    #[must_use]
    pub fn to_csv(&self) -> String {
        let mut s = String::from(
            "t_s,com_x_m,com_y_m,com_z_m,kinetic_j,gravity_j,elastic_j,ground_j,dissipated_j,injected_j\n",
        );
        for ((t, c), e) in self.time.iter().zip(&self.centre_of_mass).zip(&self.energy) {
            let _ = writeln!(
                s,
                "{t:.6},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9}",
                c.x, c.y, c.z, e.kinetic, e.gravity, e.elastic, e.ground, e.dissipated, e.injected
            );
        }
        s
    }

    /// Writes [`Trace::to_csv`] to `path`, creating its folder if needed.
    ///
    /// # Errors
    /// [`Error::SceneIo`] naming the path if the folder or file cannot be written.
    pub fn write_csv(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let io = |source| Error::SceneIo {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        std::fs::write(path, self.to_csv()).map_err(io)
    }
}

/// A small periodic deformation that actuators impose on a group of springs.
///
/// The displacement gradient of the group at time `t` is
/// `G(t) = sin_part sin(omega tau + 2 pi phase) + cos_part cos(omega tau + 2 pi phase)`
/// (dimensionless), where `tau` is `t` or the duty-cycle clock. A spring with rest vector `r`
/// then wants length `|(I + G) r|`, which to first order in `G` is
/// `|r| (1 + e_s sin(..) + e_c cos(..))` with the axial strains `e_s = r^T sin_part r / |r|^2`
/// and `e_c` likewise. That is one sine, so each spring gets one Lipson [`Actuator`] with
/// amplitude `hypot(e_s, e_c)` and phase shifted by `atan2(e_c, e_s) / 2 pi`. Springs across
/// which the deformation does not stretch (zero amplitude) get no actuator.
///
/// Example: `sin_part = diag(0, 0, 0.1)` lengthens a voxel vertically by up to 10 %, and a
/// `cos_part` with only the `(x, z)` entry `s` shears it so that a point at height `z` moves by
/// `s z` along x, a quarter period later: the elliptic foot path of a walking leg.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deformation {
    /// Displacement gradient multiplying the sine (dimensionless; element `(i, j)` is
    /// `d u_i / d x_j`).
    pub sin_part: DMat3,
    /// Displacement gradient multiplying the cosine (dimensionless).
    pub cos_part: DMat3,
    /// Angular frequency in rad/s.
    pub omega: f64,
    /// Phase in cycles.
    pub phase: f64,
    /// Optional active/rest duty cycle.
    pub duty: Option<DutyCycle>,
}

impl Deformation {
    /// The actuator that makes spring `spring`, whose rest vector is `r` (m), follow this
    /// deformation, or `None` if the deformation does not change its length to first order
    /// (relative amplitude below 1e-12) or `r` is zero.
    #[must_use]
    pub fn actuator(&self, spring: u32, r: DVec3) -> Option<Actuator> {
        let n = r.try_normalize()?;
        let es = n.dot(self.sin_part * n);
        let ec = n.dot(self.cos_part * n);
        let amplitude = es.hypot(ec);
        if amplitude < 1e-12 {
            return None;
        }
        Some(Actuator {
            spring,
            amplitude,
            omega: self.omega,
            phase: self.phase + ec.atan2(es) / TAU,
            duty: self.duty,
            commanded: false,
        })
    }

    /// Adds to `part` an actuator for each of `springs` (indices into `part.springs`) that this
    /// deformation stretches, with rest vectors taken from the masses' current positions.
    /// Each such spring's base rest length is set so that its rest length at t = 0 equals its
    /// current length: the body starts relaxed instead of snapping into the deformation's t = 0
    /// pose. Returns how many actuators were added.
    ///
    /// # Panics
    /// If a spring index or one of its mass indices is out of range for `part`.
    pub fn actuate(&self, part: &mut Part, springs: impl IntoIterator<Item = u32>) -> usize {
        let mut added = 0;
        for s in springs {
            let sp = part.springs[s as usize];
            let r = part.masses[sp.b as usize].position - part.masses[sp.a as usize].position;
            if let Some(a) = self.actuator(s, r) {
                // Start relaxed: choose the base length so that the muscle's rest length at t = 0
                // is the built length, instead of snapping the body into its t = 0 pose.
                part.springs[s as usize].rest_length = r.length() / a.rest_length(1.0, 0.0);
                part.actuators.push(a);
                added += 1;
            }
        }
        added
    }
}

#[cfg(test)]
mod herd_tests {
    use super::Inchworm;

    #[test]
    fn five_hundred_inchworms_are_the_benchmark_herd() {
        let worm = Inchworm::default().build().unwrap();
        let model = worm.herd(500, 0.6).unwrap();
        let actuated: std::collections::BTreeSet<u32> =
            model.actuators.iter().map(|a| a.spring).collect();
        assert_eq!(model.masses.len(), 10_000);
        assert_eq!(model.springs.len(), 47_000);
        assert_eq!(actuated.len(), 32_000);
        assert_eq!(model.bodies.len(), 500);
        model.validate().unwrap();
        // Copies are translated, never overlapping: the second copy's first mass is one
        // spacing along x from the first's.
        let d = model.masses[20].position - model.masses[0].position;
        assert!((d.x - 0.6).abs() < 1e-12 && d.y.abs() < 1e-12);
    }

    #[test]
    fn empty_herd_is_an_error() {
        let worm = Inchworm::default().build().unwrap();
        assert!(worm.herd(0, 0.6).is_err());
        assert!(worm.herd(2, f64::NAN).is_err());
    }
}
