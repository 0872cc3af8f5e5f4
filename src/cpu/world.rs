//! [`CpuWorld`]: its state, building and reset, and readout of positions, velocities, rest
//! lengths, energy and spring forces. Stepping is in `step.rs`, edits between steps in
//! `edits.rs`, body readout in `bodies.rs`.

use glam::DVec3;
use rayon::ThreadPool;
use std::collections::HashMap;
use std::sync::Arc;

use super::chunk_actuators::ChunkActuators;
use super::chunks::{make_chunks, Kernels, PARALLEL_MIN_SPRINGS};
use super::collisions::Collider;
use super::energy_masses::energy_masses;
use super::energy_springs::energy_springs;
use super::formed_rest::FormedRest;
use super::obstacles::Solids;
use super::oscillators::Oscillators;
use super::pool::pool;
use super::springs::{gather, springs, Chunk};
use super::springs_stencil::StencilBody;
use super::tables::SpringArrays;
use super::waves::Waves;
use crate::energy::Energy;
use crate::error::{Error, Result};
use crate::model::spring_law::rest_in_law;
use crate::model::{
    command_slots, warn_if_above, Actuator, BlowUp, Body, DragSpring, Model, Params, SpeedLimit,
    SpringLaw, StableDt,
};
use crate::sensors::ContactReading;

/// Why a [`CpuWorld`] stopped.
#[derive(Clone, Copy, Debug)]
pub(super) enum Failure {
    /// `(mass, step, time)` of the first non-finite state.
    NonFinite(usize, u64, f64),
    /// A mass passed the blow-up bound.
    BlowUp(BlowUp),
}

/// The double-precision CPU simulation of a [`Model`].
///
/// # Examples
///
/// A 1 kg mass on a 100 N/m spring to a fixed anchor, with no gravity and no ground, pulled
/// 0.1 m out and let go: half a period `pi sqrt(m / k)` later it is 0.1 m out on the other side.
///
/// ```
/// use hooke::{Contact, CpuWorld, DVec3, Mass, Model, Params, Part, Spring};
///
/// let mut part = Part::new();
/// let anchor = part.add_mass(Mass::new(1.0, DVec3::ZERO).fixed());
/// let bob = part.add_mass(Mass::new(1.0, DVec3::new(0.6, 0.0, 0.0)));
/// part.add_spring(Spring::hooke(anchor, bob, 100.0, 0.5)); // k = 100 N/m, L0 = 0.5 m
/// let params = Params { gravity: DVec3::ZERO, contact: Contact::None, ..Params::default() };
/// let mut model = Model::new(params);
/// model.add("oscillator", part);
///
/// let mut world = CpuWorld::new(&model)?;
/// let half_period = std::f64::consts::PI * (1.0_f64 / 100.0).sqrt(); // s
/// let steps = world.step_for(half_period)?; // rounded to whole steps of dt = 1e-4 s
/// assert_eq!(steps, 3142);
/// // Semi-implicit Euler turns at exactly the starting amplitude, after half a period longer
/// // by (omega dt)^2 / 24 = 4e-8 (relative). Rounding to a whole step leaves the phase within
/// // omega dt / 2 = 5e-4 rad of the turn, where x moves by only 0.1 m (5e-4)^2 / 2 = 1.3e-8 m.
/// let x = world.positions()?[bob as usize].x;
/// assert!((x - 0.4).abs() < 1e-6);
///
/// world.reset(); // back to the model's initial state
/// assert_eq!((world.time(), world.position_slice()[bob as usize].x), (0.0, 0.6));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CpuWorld {
    /// The model this world was built from.
    pub(super) model: Model,
    /// The global parameters in force.
    pub(super) params: Params,
    /// Position of each mass, m.
    pub(super) pos: Vec<DVec3>,
    /// Velocity of each mass, m/s.
    pub(super) vel: Vec<DVec3>,
    /// Mass of each mass, kg.
    pub(super) mass: Vec<f64>,
    /// Whether each mass is fixed.
    pub(super) fixed: Vec<bool>,
    /// Constant external force on each mass, N.
    pub(super) external: Vec<DVec3>,
    /// Friction oscillator of each mass (the distinct ones evaluated once per step).
    pub(super) oscillators: Oscillators,
    /// The spring table, with the current rest lengths.
    pub(super) springs: SpringArrays,
    /// Base (unactuated) rest length per spring, m.
    pub(super) base_rest: Vec<f64>,
    /// Law of each spring.
    pub(super) law: Vec<SpringLaw>,
    /// The actuators in force.
    pub(super) actuators: Vec<Actuator>,
    /// The springs the actuators drive, each once, in increasing order.
    pub(super) actuated_springs: Vec<usize>,
    /// The actuators' distinct sine waves, each evaluated once per step.
    pub(super) waves: Waves,
    /// Scratch: the length (m) and rate of lengthening (m/s) of each actuated spring at the
    /// start of the step.
    pub(super) actuated_len: Vec<[f64; 2]>,
    /// The actuators and actuated springs of each chunk (`actuation.rs`).
    pub(super) chunk_actuators: ChunkActuators,
    /// The command slot of each actuator (`None` for a sine one); see `commands.rs`.
    pub(super) command_slot: Vec<Option<usize>>,
    /// The command of each commanded actuator (relative rest-length change), 0 after a reset.
    pub(super) commands: Vec<f64>,
    /// The obstacle table (each obstacle with its bounds).
    pub(super) solids: Solids,
    /// The collision pass (`None` when no mass has a collision radius).
    pub(super) collider: Option<Collider>,
    /// The spring pass's chunks and their force buffers.
    pub(super) chunks: Vec<Chunk>,
    /// The stencils of the large regular bodies (`springs_stencil.rs`), in spring order.
    pub(super) stencils: Vec<StencilBody>,
    /// The spring pass's kernels in use besides the scalar walk.
    pub(super) kernels: Kernels,
    /// Scratch: the gathered spring force on each mass, N.
    pub(super) force: Vec<DVec3>,
    /// Each mass's contact in the last step, once a sensor asked for contacts (empty before:
    /// not recorded; see `sense.rs`).
    pub(super) contacts: Vec<ContactReading>,
    /// The drag spring, if any.
    pub(super) drag: Option<DragSpring>,
    /// Simulation time, s.
    pub(super) time: f64,
    /// Steps taken since the start or the last reset.
    pub(super) steps: u64,
    /// Energy dissipated so far, J.
    pub(super) dissipated: f64,
    /// Work injected so far, J.
    pub(super) injected: f64,
    /// Whether dissipated and injected energy are booked ([`CpuWorld::set_track_energy`]).
    pub(super) track_energy: bool,
    /// Whether the stored rest lengths of muscles the lanes walk forms are behind the last
    /// step's (booking off skips them: `alike_muscles.rs`, [`CpuWorld::catch_up_rest`]).
    pub(super) rest_behind: bool,
    /// Each spring's base length, amplitude and wave, for the chunks that form their rest
    /// lengths in the walk (`formed_rest.rs`; empty without actuators).
    pub(super) formed_rest: FormedRest,
    /// Threads used for large models.
    pub(super) threads: usize,
    /// This world's worker pool of `threads` threads (`None` for one thread or a small model;
    /// see `pool.rs`).
    pub(super) pool: Option<Arc<ThreadPool>>,
    /// Why the world stopped (a non-finite state or a blow-up); it then refuses to step.
    pub(super) failed: Option<Failure>,
    /// The model's stable time step estimate.
    pub(super) stable: StableDt,
    /// The blow-up bound in force (raised by the setters).
    pub(super) limit: SpeedLimit,
    /// The model's blow-up bound (what `reset` returns to).
    pub(super) initial_limit: SpeedLimit,
}

impl CpuWorld {
    /// Builds a simulation of `model`, validating it first. Logs a warning (`log::warn!`) when
    /// `params.dt` is above the model's stable time step estimate ([`Model::stable_dt`]), naming
    /// the estimate and what limits it.
    ///
    /// # Errors
    /// Whatever [`Model::validate`] rejects.
    pub fn new(model: &Model) -> Result<Self> {
        model.validate()?;
        let stable = model.stable_dt();
        warn_if_above("CpuWorld", model.params.dt, &stable);
        let mut limit = SpeedLimit::of_model(model);
        let collider = Collider::new(model);
        if let Some(c) = &collider {
            // The penalty energy of masses that start inside one another (the model has no grid).
            let pos: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
            let fixed: Vec<bool> = model.masses.iter().map(|m| m.fixed).collect();
            limit.inject(c.energy(&pos, &fixed));
        }
        let n = model.masses.len();
        let mut w = Self {
            model: model.clone(),
            params: model.params,
            pos: Vec::with_capacity(n),
            vel: Vec::with_capacity(n),
            mass: model.masses.iter().map(|m| m.mass).collect(),
            fixed: model.masses.iter().map(|m| m.fixed).collect(),
            external: model.masses.iter().map(|m| m.external_force).collect(),
            oscillators: Oscillators::new(model.masses.iter().map(|m| m.friction_oscillator)),
            springs: SpringArrays::new(&model.springs),
            base_rest: model.springs.iter().map(|s| s.rest_length).collect(),
            law: model.springs.iter().map(|s| s.law).collect(),
            actuators: model.actuators.clone(),
            actuated_springs: Vec::new(),
            waves: Waves::default(),
            actuated_len: Vec::new(),
            chunk_actuators: ChunkActuators::default(),
            command_slot: command_slots(&model.actuators),
            commands: Vec::new(),
            solids: Solids::new(&model.obstacles),
            collider,
            chunks: Vec::new(),
            stencils: Vec::new(),
            kernels: Kernels::ALL,
            force: vec![DVec3::ZERO; n],
            contacts: Vec::new(),
            drag: None,
            time: 0.0,
            steps: 0,
            dissipated: 0.0,
            injected: 0.0,
            track_energy: true,
            rest_behind: false,
            formed_rest: FormedRest::default(),
            threads: 1,
            pool: None,
            failed: None,
            stable,
            limit,
            initial_limit: limit,
        };
        for s in 0..model.springs.len() {
            w.set_effective(s, w.base_rest[s]);
        }
        (w.chunks, w.stencils) = make_chunks(&w.springs, &w.initial_positions(), w.kernels);
        w.set_threads(std::thread::available_parallelism().map_or(1, |t| t.get()));
        w.reset();
        Ok(w)
    }

    /// The model's initial positions, m (where the chunks' plans place bodies on templates).
    fn initial_positions(&self) -> Vec<DVec3> {
        self.model.masses.iter().map(|m| m.position).collect()
    }

    /// Replaces the blow-up bound, now and after every reset (a population pins it so that it
    /// does not depend on the other robots; see [`crate::population`]).
    pub(crate) fn pin_speed_limit(&mut self, limit: SpeedLimit) {
        self.limit = limit;
        self.initial_limit = limit;
    }

    /// Returns to the initial state of the model: positions, velocities, time 0, energy counters
    /// 0, no drag spring, the model's external forces, fixed flags and rest lengths.
    pub fn reset(&mut self) {
        let m = &self.model;
        self.pos = m.masses.iter().map(|m| m.position).collect();
        self.vel = m
            .masses
            .iter()
            .map(|m| if m.fixed { DVec3::ZERO } else { m.velocity })
            .collect();
        self.fixed = m.masses.iter().map(|m| m.fixed).collect();
        self.external = m.masses.iter().map(|m| m.external_force).collect();
        self.base_rest = m.springs.iter().map(|s| s.rest_length).collect();
        self.actuators = m.actuators.clone();
        self.commands = vec![0.0; self.commanded_count()];
        self.find_actuated_springs();
        for s in 0..self.base_rest.len() {
            self.set_effective(s, self.base_rest[s]);
        }
        self.contacts.fill(ContactReading::default());
        self.drag = None;
        self.time = 0.0;
        self.steps = 0;
        self.dissipated = 0.0;
        self.injected = 0.0;
        self.failed = None;
        self.limit = self.initial_limit;
        self.actuate();
    }

    /// Whether large regular bodies run the stencil kernel of the spring pass (default `true`).
    ///
    /// A body (springs joined through shared masses) of at least 32 768 springs whose springs
    /// join masses at no more than 16 distinct index offsets, one stiffness, damping and law per
    /// offset, one spring per (mass, offset) (a lattice, a cloth grid, a rope), has its spring
    /// forces computed four masses at a time in SIMD lanes (1.5-2x the scalar walk's whole step
    /// on the benchmark lattice). Each spring's force is the same operations either way; each
    /// mass's sum is added in another (fixed) order, so such bodies differ from the scalar walk
    /// in the last bits of their forces (`false` restores the scalar walk's bits, for A/B
    /// comparisons). Other bodies are not affected. Results do not depend on the thread count
    /// either way.
    pub fn set_stencil(&mut self, on: bool) {
        self.kernels.stencil = on;
        (self.chunks, self.stencils) =
            make_chunks(&self.springs, &self.initial_positions(), self.kernels);
        self.find_actuated_springs();
    }

    /// Whether small bodies alike run side by side in SIMD lanes (default `true`).
    ///
    /// Bodies (springs joined through shared masses) of at most 4 096 springs over at most 512
    /// consecutive mass indices whose spring lists are the same relative to their lowest mass
    /// (a herd of identical creatures, a population evolving one body's controller; rest
    /// lengths and states may differ) are walked eight at a time, one body per SIMD lane, each
    /// lane performing exactly the scalar walk for its body. So are small bodies of different
    /// shapes cut from one grid (voxel robots of random shapes: each body's masses numbered in
    /// the order of their places in the grid and its springs listed by their masses, as
    /// [`VoxelBody`](crate::builders::VoxelBody) builds them), eight at a time on a common
    /// template placed by their initial positions, when they fill at least half of its lanes.
    /// Their forces and trajectories are bit for bit the same either way, and the same alone as
    /// in any batch; only the energy totals (`dissipated`) add the dampers' power in another
    /// fixed order (last bits). `false` is for A/B comparisons.
    pub fn set_alike(&mut self, on: bool) {
        self.kernels.alike = on;
        (self.chunks, self.stencils) =
            make_chunks(&self.springs, &self.initial_positions(), self.kernels);
        self.find_actuated_springs();
    }

    /// Whether the mass pass integrates eight masses at a time in SIMD lanes (default `true`).
    ///
    /// Blocks of eight consecutive masses, none fixed nor held by the drag spring, in a model
    /// of at most 262 144 masses without obstacles or collisions, run `integrate_mass` with every
    /// branch a select (larger models keep the scalar pass, faster once their state streams from
    /// memory); the positions, velocities, contacts and energy totals are bit for bit the same
    /// either way. `false` is for A/B comparisons.
    pub fn set_mass_lanes(&mut self, on: bool) {
        self.kernels.mass_lanes = on;
    }

    /// Whether the spring walk forms the muscles' rest lengths itself (default `true`).
    ///
    /// A chunk of springs driven by sine actuators only (no commanded one), and each group of
    /// bodies alike with at most seven distinct waves, keeps each spring's base length,
    /// amplitude and wave, and the walk forms `base (1 + amplitude sin)` as it goes instead of
    /// reading the rest length the muscles' share of the step stored: the same operations, so
    /// positions, velocities, rest lengths and energies are bit for bit the same either way.
    /// With energy booking off ([`CpuWorld::set_track_energy`]) the muscles' share then skips
    /// those springs (15-25 % of a population's step). `false` is for A/B comparisons.
    pub fn set_formed_rest(&mut self, on: bool) {
        self.kernels.formed_rest = on;
        self.find_actuated_springs();
    }

    /// Springs whose forces the lanes kernels for bodies alike and on templates compute (see
    /// [`CpuWorld::set_alike`]): 0 when no two small bodies of a chunk are alike or share a
    /// template, or it is off.
    #[must_use]
    pub fn alike_springs(&self) -> usize {
        let plans = self.chunks.iter().filter_map(|c| c.alike.as_ref());
        plans.map(|p| p.springs()).sum()
    }

    /// Springs whose forces the stencil kernel computes (see [`CpuWorld::set_stencil`]): 0 when
    /// no body fits a stencil or it is off.
    #[must_use]
    pub fn stencil_springs(&self) -> usize {
        self.stencils.iter().map(|b| b.springs.len()).sum()
    }

    /// Sets the number of threads used for large models (at least 1). Results do not depend on it.
    ///
    /// The spring and mass passes of a model from 10 000 springs up run on this world's own pool
    /// of that many threads, started here and stopped when the world is dropped (no threads are
    /// spawned per step, and worlds stepped from different threads never share workers);
    /// smaller models step on the caller's thread.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.pool = if self.springs.len() >= PARALLEL_MIN_SPRINGS {
            pool(self.threads)
        } else {
            None
        };
    }

    /// The model this world was built from.
    #[must_use]
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The global parameters in force.
    #[must_use]
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Simulation time in s.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps taken since the start (or the last reset).
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The time step, s.
    #[must_use]
    pub fn dt(&self) -> f64 {
        self.params.dt
    }

    /// The model's stable time step estimate ([`Model::stable_dt`], computed when the world was
    /// built).
    #[must_use]
    pub fn stable_dt(&self) -> &StableDt {
        &self.stable
    }

    /// Number of masses.
    #[must_use]
    pub fn mass_count(&self) -> usize {
        self.pos.len()
    }

    /// Number of springs.
    #[must_use]
    pub fn spring_count(&self) -> usize {
        self.base_rest.len()
    }

    /// The model's bodies (name and mass range of each).
    #[must_use]
    pub fn bodies_of_model(&self) -> &[Body] {
        &self.model.bodies
    }

    /// Positions of all masses, m: a copy, as [`crate::World::positions`] returns (borrow them
    /// with [`CpuWorld::position_slice`]).
    ///
    /// # Errors
    /// None on the CPU; the `Result` is the [`crate::Simulation`] signature.
    pub fn positions(&self) -> Result<Vec<DVec3>> {
        Ok(self.pos.clone())
    }

    /// Velocities of all masses, m/s: a copy (borrow them with [`CpuWorld::velocity_slice`]).
    ///
    /// # Errors
    /// None on the CPU; the `Result` is the [`crate::Simulation`] signature.
    pub fn velocities(&self) -> Result<Vec<DVec3>> {
        Ok(self.vel.clone())
    }

    /// Positions of all masses, m, borrowed.
    #[must_use]
    pub fn position_slice(&self) -> &[DVec3] {
        &self.pos
    }

    /// Velocities of all masses, m/s, borrowed.
    #[must_use]
    pub fn velocity_slice(&self) -> &[DVec3] {
        &self.vel
    }

    /// Rest length of every spring at the current time [`CpuWorld::time`], m: actuated springs
    /// evaluated at that time (commanded ones with the commands in force), zero-length springs 0. (The next step's spring pass uses exactly
    /// these: it evaluates the actuators at the time the step starts.)
    ///
    /// # Errors
    /// None on the CPU; the `Result` is the [`crate::Simulation`] signature.
    pub fn rest_lengths(&self) -> Result<Vec<f64>> {
        let mut rest = self.springs.rest.clone();
        for (i, a) in self.actuators.iter().enumerate() {
            let s = a.spring as usize;
            rest[s] = rest_in_law(self.law[s], self.actuated_rest(i));
        }
        Ok(rest)
    }

    /// [`CpuWorld::rest_lengths`] of only `springs` (valid indices), in their order, m: one
    /// pass over the actuators instead of a vector of every spring (the sensors' strains).
    pub(crate) fn rest_lengths_of(&self, springs: &[usize]) -> Vec<f64> {
        let mut wanted: HashMap<usize, Vec<usize>> = HashMap::new();
        for (k, &s) in springs.iter().enumerate() {
            wanted.entry(s).or_default().push(k);
        }
        let mut rest: Vec<f64> = springs.iter().map(|&s| self.springs.rest[s]).collect();
        for (i, a) in self.actuators.iter().enumerate() {
            if let Some(slots) = wanted.get(&(a.spring as usize)) {
                let r = rest_in_law(self.law[a.spring as usize], self.actuated_rest(i));
                slots.iter().for_each(|&k| rest[k] = r);
            }
        }
        rest
    }

    /// Whether the world books dissipated and injected energy (default `true`), as
    /// [`WorldOptions::track_energy`](crate::WorldOptions::track_energy) on the GPU. Off, the
    /// muscles' share of a step skips their work (a length and two elastic energies per actuated
    /// spring: about a fifth of the step of a herd of inchworms), [`CpuWorld::energy`] reports
    /// both totals as 0, and every position and velocity keeps its bits. Turned back on, booking
    /// starts again from 0. Populations evaluate with it off (fitness reads body states only).
    pub fn set_track_energy(&mut self, on: bool) {
        // Booking's first step reads the stored rest lengths (`alike_muscles.rs`).
        self.catch_up_rest();
        if on && !self.track_energy {
            self.dissipated = 0.0;
            self.injected = 0.0;
        }
        self.track_energy = on;
    }

    /// Energy terms of the current state, and the dissipated and injected totals so far, J (both
    /// 0 while booking is off: [`CpuWorld::set_track_energy`]).
    ///
    /// # Errors
    /// None on the CPU; the `Result` is the [`crate::Simulation`] signature.
    pub fn energy(&self) -> Result<Energy> {
        let booked = |x: f64| if self.track_energy { x } else { 0.0 };
        let mut e = Energy {
            dissipated: booked(self.dissipated),
            injected: booked(self.injected),
            elastic: energy_springs(&self.springs, &self.rest_in_force(), &self.pos),
            ..energy_masses(&self.params, &self.solids, &self.mass, &self.pos, &self.vel)
        };
        if let Some(c) = &self.collider {
            e.ground += c.energy(&self.pos, &self.fixed);
        }
        Ok(e)
    }

    /// Every pair of masses `[a, b]`, `a < b`, touching in the current state (closer than the sum
    /// of their collision radii and allowed to collide: see [`Collision`](crate::Collision)), in
    /// increasing order. Found by the same broad phase as the collision pass; empty when no mass
    /// has a collision radius.
    #[must_use]
    pub fn contacts(&self) -> Vec<[usize; 2]> {
        self.collider
            .as_ref()
            .map_or_else(Vec::new, |c| c.contacts(&self.pos, &self.fixed))
    }

    /// The net spring force (N) on every mass in the current state: elastic plus axial damping,
    /// summed over the springs at each mass. Used by the parity suite to compare single-step forces.
    ///
    /// # Errors
    /// None on the CPU; the `Result` is the [`crate::Simulation`] signature.
    pub fn spring_forces(&mut self) -> Result<Vec<DVec3>> {
        springs(
            &self.springs,
            &self.stencils,
            (&self.pos, &self.vel),
            (&self.formed_rest, self.waves.sines()),
            &mut self.chunks,
            None,
        );
        gather(&self.chunks, 0, &mut self.force);
        Ok(self.force.clone())
    }

    pub(super) fn check_index(&self, what: &'static str, index: usize, len: usize) -> Result<()> {
        if index < len {
            Ok(())
        } else {
            Err(Error::IndexOutOfRange { what, index, len })
        }
    }
}
