//! One API over both backends: the [`Simulation`] trait, implemented by the CPU reference
//! [`CpuWorld`](crate::CpuWorld) and the GPU [`World`](crate::World).
//!
//! Code written against the trait runs on either backend; code written for one runs on the
//! other by changing the line that builds the world, because both types' own methods have the
//! trait's names and return types.
//!
//! ```
//! use hooke::prelude::*;
//!
//! /// Drops anything and reports how far its first body fell in `seconds`, m.
//! fn fall<S: Simulation>(world: &mut S, seconds: f64) -> hooke::Result<f64> {
//!     let start = world.bodies()?[0].centre_of_mass;
//!     world.step_for(seconds)?;
//!     Ok(start.z - world.bodies()?[0].centre_of_mass.z)
//! }
//!
//! let mut model = Model::new(Params::default());
//! model.add("cube", Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 1.0)))?);
//! let mut cpu = CpuWorld::new(&model)?; // or World::new(&model)? on the GPU
//! let drop = fall(&mut cpu, 0.1)?;
//! assert!((drop - 0.5 * 9.81 * 0.1 * 0.1).abs() < 1e-3);
//! # Ok::<(), hooke::Error>(())
//! ```

use glam::DVec3;

use crate::energy::Energy;
use crate::error::Result;
use crate::model::{Actuator, Body, DragSpring};
use crate::sensors::{Readings, SensorSpec};
use crate::snapshot::Snapshot;
use crate::state_hash::{StateHash, StateHashes, StateView};

/// Centre of mass and mean velocity of one body ([`Simulation::bodies`]): on the GPU from a
/// reduction, on the CPU summed in mass order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyState {
    /// Total mass of the body, kg (0 for a body without masses).
    pub mass: f64,
    /// Centre of mass, m (zero for a body without masses).
    pub centre_of_mass: DVec3,
    /// Mass-weighted mean velocity, m/s (zero for a body without masses).
    pub mean_velocity: DVec3,
}

/// What every hooke world does, on the CPU ([`crate::CpuWorld`], f64) or the GPU
/// ([`crate::World`], f32). Readouts return owned values and a [`Result`] on both backends,
/// because on the GPU they are device readbacks that can fail.
///
/// # Examples
///
/// A function written once for both backends:
///
/// ```
/// use hooke::prelude::*;
///
/// /// Pushes mass 0 with `force` (N) for `seconds` (s), lets go, and returns its velocity, m/s.
/// fn push<S: Simulation>(world: &mut S, force: DVec3, seconds: f64) -> hooke::Result<DVec3> {
///     world.set_external_force(0, force)?;
///     world.step_for(seconds)?;
///     world.set_external_force(0, DVec3::ZERO)?;
///     Ok(world.velocities()?[0])
/// }
///
/// // One free 2 kg puck, no gravity, no ground.
/// let mut part = Part::new();
/// part.add_mass(Mass::new(2.0, DVec3::ZERO));
/// let params = Params { gravity: DVec3::ZERO, contact: Contact::None, ..Params::default() };
/// let mut model = Model::new(params);
/// model.add("puck", part);
///
/// let mut world = CpuWorld::new(&model)?; // or World::new(&model)? on the GPU
/// let v = push(&mut world, DVec3::new(4.0, 0.0, 0.0), 0.5)?;
/// // Impulse = momentum: v = F t / m = 1 m/s (f64 rounding over 5000 steps: below 1e-12 m/s).
/// assert!((v.x - 1.0).abs() < 1e-9);
/// // The force's work is booked as injected energy: F . (v + v_new) / 2 dt per step, exactly
/// // the kinetic energy it added, m v^2 / 2 = 1 J.
/// let energy = world.energy()?;
/// assert!((energy.kinetic - 1.0).abs() < 1e-9);
/// assert!((energy.injected - energy.kinetic).abs() < 1e-9);
/// # Ok::<(), hooke::Error>(())
/// ```
pub trait Simulation {
    /// Advances `steps` steps of the model's `dt`.
    ///
    /// # Errors
    /// [`crate::Error::BlowUp`] naming the first mass that moved faster than any stable run of
    /// the model can (`dt` too large), or [`crate::Error::NonFinite`] naming the first mass whose
    /// state became non-finite (the world then refuses to step until [`Simulation::reset`]); on
    /// the GPU also fixed-point overflow and device errors.
    fn step(&mut self, steps: u64) -> Result<()>;

    /// Advances by `duration` s of simulated time (`round(duration / dt)` steps) and returns the
    /// number of steps taken.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] for a negative or non-finite duration; otherwise as
    /// [`Simulation::step`].
    fn step_for(&mut self, duration: f64) -> Result<u64>;

    /// Returns to the model's initial state: positions, velocities, time 0, energy counters 0, no
    /// drag spring, and the model's external forces, fixed flags, rest lengths and actuators;
    /// commands 0.
    fn reset(&mut self);

    /// Puts body `body`'s masses back to the model's initial positions and velocities, leaving
    /// every other mass, the time, the commands, the setters' changes and the energy counters
    /// (the change is not booked) as they are; clears the world's failure when one of this
    /// body's masses caused it. A body that shares no spring or collision with the others (a
    /// robot of a population) then runs on exactly as from a world of its own's initial state.
    /// See [`crate::CpuWorld::reset_body`].
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] for a missing body.
    fn reset_body(&mut self, body: usize) -> Result<()>;

    /// Simulated time, s.
    fn time(&self) -> f64;

    /// Steps taken since the start or the last reset.
    fn steps(&self) -> u64;

    /// The time step, s.
    fn dt(&self) -> f64;

    /// Number of masses.
    fn mass_count(&self) -> usize;

    /// Number of springs.
    fn spring_count(&self) -> usize;

    /// The model's bodies (name and mass range of each).
    fn bodies_of_model(&self) -> &[Body];

    /// Position of every mass in model order, m.
    ///
    /// # Errors
    /// Device errors on the GPU; never on the CPU.
    fn positions(&self) -> Result<Vec<DVec3>>;

    /// Velocity of every mass in model order, m/s.
    ///
    /// # Errors
    /// As [`Simulation::positions`].
    fn velocities(&self) -> Result<Vec<DVec3>>;

    /// Current rest length of every spring in model order (actuated ones at [`Simulation::time`]),
    /// m.
    ///
    /// # Errors
    /// As [`Simulation::positions`].
    fn rest_lengths(&self) -> Result<Vec<f64>>;

    /// Every energy term, J.
    ///
    /// # Errors
    /// As [`Simulation::positions`].
    fn energy(&self) -> Result<Energy>;

    /// Centre of mass and mean velocity of every body, in the order of
    /// [`Simulation::bodies_of_model`].
    ///
    /// # Errors
    /// As [`Simulation::positions`].
    fn bodies(&self) -> Result<Vec<BodyState>>;

    /// Centre of mass of body `body`, m.
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] for a missing body; as [`Simulation::positions`].
    fn body_centre_of_mass(&self, body: usize) -> Result<DVec3>;

    /// Mass-weighted mean velocity of body `body`, m/s.
    ///
    /// # Errors
    /// As [`Simulation::body_centre_of_mass`].
    fn body_mean_velocity(&self, body: usize) -> Result<DVec3>;

    /// The net spring force on every mass in the current state (elastic plus axial damping), N,
    /// without advancing the simulation.
    ///
    /// # Errors
    /// As [`Simulation::positions`]; on the GPU also fixed-point overflow.
    fn spring_forces(&mut self) -> Result<Vec<DVec3>>;

    /// The actuators in force (the model's, as changed by [`Simulation::set_actuator`]).
    fn actuators(&self) -> &[Actuator];

    /// Sets the constant external force on mass `mass`, N, from the next step on.
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] for a missing mass; [`crate::Error::InvalidParameter`] for
    /// a non-finite force.
    fn set_external_force(&mut self, mass: usize, force: DVec3) -> Result<()>;

    /// Attaches (or with `None` removes) the drag spring that pulls one mass towards a target.
    ///
    /// # Errors
    /// What [`DragSpring::validate`] rejects.
    fn set_drag(&mut self, drag: Option<DragSpring>) -> Result<()>;

    /// Fixes mass `mass` in place (its velocity set to zero, kinetic energy booked as
    /// dissipated) or frees it.
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] for a missing mass.
    fn set_fixed(&mut self, mass: usize, fixed: bool) -> Result<()>;

    /// Sets the base rest length of spring `spring`, m (an actuator then moves it around the new
    /// base); the change in elastic energy is booked.
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] for a missing spring; [`crate::Error::InvalidParameter`]
    /// for a rest length that is negative or not finite.
    fn set_rest_length(&mut self, spring: usize, rest_length: f64) -> Result<()>;

    /// Replaces actuator `index` (same spring).
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] for a missing actuator;
    /// [`crate::Error::InvalidParameter`] for a bad actuator.
    fn set_actuator(&mut self, index: usize, actuator: Actuator) -> Result<()>;

    /// Number of commanded actuators ([`Actuator::commanded`]): how many commands
    /// [`Simulation::set_commands`] takes.
    fn commanded_count(&self) -> usize;

    /// Sets the command of every commanded actuator, one value per commanded actuator in
    /// actuator order: a relative rest-length change (dimensionless), clamped to the actuator's
    /// `[-|amplitude|, |amplitude|]`, so its spring's rest length is
    /// `L_base (1 + clamp(command, -|amplitude|, |amplitude|))`, m. In force from the next step
    /// (whose start books the change of shadow elastic energy as injected work); 0 until set and
    /// after [`Simulation::reset`]. On the GPU one upload of all commands (rounded to f32).
    ///
    /// # Errors
    /// [`crate::Error::LengthMismatch`] unless `commands.len()` is
    /// [`Simulation::commanded_count`]; [`crate::Error::InvalidCommand`] naming the first
    /// non-finite command.
    fn set_commands(&mut self, commands: &[f64]) -> Result<()>;

    /// Reads the sensors `spec` asks for, in one batched call (on the GPU one or two dispatches
    /// and one readback): see [`crate::sensors`] for what each reading means.
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] naming the first body, mass or spring of `spec` out of
    /// range; as [`Simulation::positions`].
    fn sense(&mut self, spec: &SensorSpec) -> Result<Readings>;

    /// The whole state the next step depends on, as a [`Snapshot`] (what it holds and its byte
    /// format: [`crate::snapshot`]). A user's [`Controller`](crate::Controller) keeps its own
    /// state outside the world: save it beside the snapshot.
    ///
    /// # Errors
    /// [`crate::Error::Snapshot`] when the world stopped on an error; device errors on the GPU.
    fn snapshot(&self) -> Result<Snapshot>;

    /// Puts back the state of `snapshot`, taken of this world or of another of the same backend,
    /// precision and model: stepping on then gives the same bits as the world it was taken of
    /// (docs/DETERMINISM.md, "Checkpoints").
    ///
    /// # Errors
    /// [`crate::Error::Snapshot`], changing nothing, for a snapshot of another backend or
    /// precision, or of another model (mass and spring counts, [`crate::model_fingerprint`]);
    /// device errors on the GPU.
    fn restore(&mut self, snapshot: &Snapshot) -> Result<()>;

    /// The state hash of the world and of each body at the current step: XXH3-128 of the step
    /// count, the time, the positions, velocities and rest lengths, in the byte layout
    /// [`crate::state_hash`] documents (the same on both backends; recomputable with numpy).
    /// Equal hashes mean equal bits of everything the next step starts from.
    ///
    /// ```
    /// use hooke::prelude::*;
    ///
    /// let model = Scene::load("scenes/cube.json")?.to_model()?;
    /// let (mut a, mut b) = (CpuWorld::new(&model)?, CpuWorld::new(&model)?);
    /// b.set_threads(1);
    /// a.step(100)?;
    /// b.step(100)?;
    /// assert_eq!(a.state_hashes()?, b.state_hashes()?);
    /// println!("{}", a.state_hash()?); // 32 hexadecimal digits
    /// # Ok::<(), hooke::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Simulation::positions`] (device readbacks on the GPU; none on the CPU).
    fn state_hashes(&self) -> Result<StateHashes> {
        let (pos, vel, rest) = (self.positions()?, self.velocities()?, self.rest_lengths()?);
        Ok(view(self, (&pos, &vel, &rest)).hashes(self.bodies_of_model()))
    }

    /// The world's state hash alone (see [`Simulation::state_hashes`]).
    ///
    /// # Errors
    /// As [`Simulation::positions`].
    fn state_hash(&self) -> Result<StateHash> {
        let (pos, vel, rest) = (self.positions()?, self.velocities()?, self.rest_lengths()?);
        Ok(view(self, (&pos, &vel, &rest)).hash())
    }

    /// Each mass's hash, in model order: the low 32 bits of XXH3-64 of its position and
    /// velocity ([`StateView::mass_hashes`]), to name which mass of a differing body differs.
    ///
    /// # Errors
    /// As [`Simulation::positions`].
    fn mass_hashes(&self) -> Result<Vec<u32>> {
        let (pos, vel) = (self.positions()?, self.velocities()?);
        Ok(view(self, (&pos, &vel, &[])).mass_hashes())
    }
}

/// The state view of `sim`'s step count and time over its readouts `pos`, `vel`, `rest`.
fn view<'a, S: Simulation + ?Sized>(
    sim: &S,
    (pos, vel, rest): (&'a [DVec3], &'a [DVec3], &'a [f64]),
) -> StateView<'a> {
    StateView {
        steps: sim.steps(),
        time: sim.time(),
        positions: pos,
        velocities: vel,
        rest_lengths: rest,
    }
}

macro_rules! delegate_simulation {
    ($ty:ty) => {
        impl Simulation for $ty {
            fn step(&mut self, steps: u64) -> Result<()> {
                <$ty>::step(self, steps)
            }
            fn step_for(&mut self, duration: f64) -> Result<u64> {
                <$ty>::step_for(self, duration)
            }
            fn reset(&mut self) {
                <$ty>::reset(self);
            }
            fn reset_body(&mut self, body: usize) -> Result<()> {
                <$ty>::reset_body(self, body)
            }
            fn time(&self) -> f64 {
                <$ty>::time(self)
            }
            fn steps(&self) -> u64 {
                <$ty>::steps(self)
            }
            fn dt(&self) -> f64 {
                <$ty>::dt(self)
            }
            fn mass_count(&self) -> usize {
                <$ty>::mass_count(self)
            }
            fn spring_count(&self) -> usize {
                <$ty>::spring_count(self)
            }
            fn bodies_of_model(&self) -> &[Body] {
                <$ty>::bodies_of_model(self)
            }
            fn positions(&self) -> Result<Vec<DVec3>> {
                <$ty>::positions(self)
            }
            fn velocities(&self) -> Result<Vec<DVec3>> {
                <$ty>::velocities(self)
            }
            fn rest_lengths(&self) -> Result<Vec<f64>> {
                <$ty>::rest_lengths(self)
            }
            fn energy(&self) -> Result<Energy> {
                <$ty>::energy(self)
            }
            fn bodies(&self) -> Result<Vec<BodyState>> {
                <$ty>::bodies(self)
            }
            fn body_centre_of_mass(&self, body: usize) -> Result<DVec3> {
                <$ty>::body_centre_of_mass(self, body)
            }
            fn body_mean_velocity(&self, body: usize) -> Result<DVec3> {
                <$ty>::body_mean_velocity(self, body)
            }
            fn spring_forces(&mut self) -> Result<Vec<DVec3>> {
                <$ty>::spring_forces(self)
            }
            fn actuators(&self) -> &[Actuator] {
                <$ty>::actuators(self)
            }
            fn set_external_force(&mut self, mass: usize, force: DVec3) -> Result<()> {
                <$ty>::set_external_force(self, mass, force)
            }
            fn set_drag(&mut self, drag: Option<DragSpring>) -> Result<()> {
                <$ty>::set_drag(self, drag)
            }
            fn set_fixed(&mut self, mass: usize, fixed: bool) -> Result<()> {
                <$ty>::set_fixed(self, mass, fixed)
            }
            fn set_rest_length(&mut self, spring: usize, rest_length: f64) -> Result<()> {
                <$ty>::set_rest_length(self, spring, rest_length)
            }
            fn set_actuator(&mut self, index: usize, actuator: Actuator) -> Result<()> {
                <$ty>::set_actuator(self, index, actuator)
            }
            fn commanded_count(&self) -> usize {
                <$ty>::commanded_count(self)
            }
            fn set_commands(&mut self, commands: &[f64]) -> Result<()> {
                <$ty>::set_commands(self, commands)
            }
            fn sense(&mut self, spec: &SensorSpec) -> Result<Readings> {
                <$ty>::sense(self, spec)
            }
            fn snapshot(&self) -> Result<Snapshot> {
                <$ty>::snapshot(self)
            }
            fn restore(&mut self, snapshot: &Snapshot) -> Result<()> {
                <$ty>::restore(self, snapshot)
            }
        }
    };
}

mod worlds;
