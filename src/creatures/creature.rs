//! [`Creature`]: a built creature, the parameters it was tuned for, and running it on the CPU
//! reference.

use glam::DVec3;

use super::trace::Trace;
use crate::cpu::CpuWorld;
use crate::error::{Error, Result};
use crate::model::{Model, Params, Part};

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
    /// ([`Inchworm`](super::Inchworm)) are 10 000 masses, 47 000 springs and 32 000 actuated springs.
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
