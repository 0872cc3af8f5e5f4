//! The CPU reference integrator, in double precision.
//!
//! [`CpuWorld`] runs a [`Model`] exactly as the model's docs describe. It is the reference that
//! the GPU `World` is checked against, and a fast backend in its own right: the spring
//! pass runs on every core without atomics, each chunk of springs accumulating into its own force
//! buffer, and the mass pass gathers those buffers in a fixed order, so results are bit-identical
//! run to run and independent of the number of threads.
//!
//! One step, at time `t`:
//! 1. `springs`: every spring's elastic and damping force, into the chunk force buffers (the CPU
//!    twin of `shaders/springs.wgsl`). Actuated rest lengths are set for time `t` first.
//! 2. `integrate`: per mass, gravity, external, drag-spring and air-drag forces, then ground
//!    contact and friction (`ground`), then the velocity and position update (the CPU twin of
//!    `shaders/integrate.wgsl`).

use std::ops::Range;

use glam::DVec3;

use crate::energy::Energy;
use crate::error::{Error, Result};
use crate::model::{Contact, Friction, FrictionOscillator, Integrator, Model, Params, SpringLaw};

pub(crate) use crate::model::steps_for;
pub use crate::model::DragSpring;

/// Springs per chunk: a chunk is the unit of parallel work and owns a force buffer spanning the
/// masses its springs touch. Chunking depends only on the model, never on the thread count, so the
/// summation order (and with it every bit of the result) is the same on any machine.
const SPRINGS_PER_CHUNK: usize = 1 << 17;

/// Below this many springs a step runs on one thread: spawning costs more than it saves.
const PARALLEL_MIN_SPRINGS: usize = 40_000;

/// Springs in structure-of-arrays form, 20 bytes per spring in the hot loop. Every law folds into
/// `f = k_eff (L - L0)` along the axis: Hooke is itself, the material law is `k_eff = k / L0`,
/// zero length is `L0 = 0`. Stiffness and damping live in a small deduplicated table, since most
/// models cut many springs from few materials.
#[derive(Clone, Debug, Default)]
struct SpringArrays {
    ends: Vec<[u32; 2]>,
    /// Current rest length, m (actuated springs are rewritten every step; 0 for zero-length).
    rest: Vec<f64>,
    /// Index into `table`.
    param: Vec<u32>,
    table: Vec<SpringParams>,
}

/// Stiffness and damping shared by many springs.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SpringParams {
    /// Stiffness as given: N/m, or N for the material law.
    k: f64,
    /// Axial damping, N*s/m.
    c: f64,
    /// Material law: `k_eff = k / L0`.
    material: bool,
}

impl SpringParams {
    /// Effective Hooke stiffness (N/m) at rest length `rest` (m).
    #[inline]
    fn k_eff(&self, rest: f64) -> f64 {
        if self.material {
            self.k / rest
        } else {
            self.k
        }
    }
}

impl SpringArrays {
    fn new(springs: &[crate::model::Spring]) -> Self {
        let mut table = Vec::new();
        let mut index = std::collections::HashMap::new();
        let param = springs
            .iter()
            .map(|s| {
                let material = s.law == SpringLaw::Material;
                let key = (s.stiffness.to_bits(), s.damping.to_bits(), material);
                *index.entry(key).or_insert_with(|| {
                    table.push(SpringParams {
                        k: s.stiffness,
                        c: s.damping,
                        material,
                    });
                    (table.len() - 1) as u32
                })
            })
            .collect();
        Self {
            ends: springs.iter().map(|s| [s.a, s.b]).collect(),
            rest: vec![0.0; springs.len()],
            param,
            table,
        }
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn params(&self, s: usize) -> &SpringParams {
        &self.table[self.param[s] as usize]
    }
}

/// A contiguous run of springs and the force buffer for the masses it touches.
#[derive(Clone, Debug)]
struct Chunk {
    springs: Range<usize>,
    /// First mass index covered by `force`.
    lo: usize,
    force: Vec<DVec3>,
    /// Energy dissipated by spring damping in the last step, J.
    dissipated: f64,
}

/// The double-precision CPU simulation of a [`Model`].
#[derive(Clone, Debug)]
pub struct CpuWorld {
    model: Model,
    params: Params,
    pos: Vec<DVec3>,
    vel: Vec<DVec3>,
    mass: Vec<f64>,
    fixed: Vec<bool>,
    external: Vec<DVec3>,
    oscillators: Vec<Option<FrictionOscillator>>,
    springs: SpringArrays,
    /// Base (unactuated) rest length per spring, m.
    base_rest: Vec<f64>,
    law: Vec<SpringLaw>,
    actuators: Vec<crate::model::Actuator>,
    chunks: Vec<Chunk>,
    force: Vec<DVec3>,
    drag: Option<DragSpring>,
    time: f64,
    steps: u64,
    dissipated: f64,
    injected: f64,
    threads: usize,
    failed: Option<(usize, u64, f64)>,
}

impl CpuWorld {
    /// Builds a simulation of `model`, validating it first.
    ///
    /// # Errors
    /// Whatever [`Model::validate`] rejects.
    pub fn new(model: &Model) -> Result<Self> {
        model.validate()?;
        let n = model.masses.len();
        let mut w = Self {
            model: model.clone(),
            params: model.params,
            pos: Vec::with_capacity(n),
            vel: Vec::with_capacity(n),
            mass: model.masses.iter().map(|m| m.mass).collect(),
            fixed: model.masses.iter().map(|m| m.fixed).collect(),
            external: model.masses.iter().map(|m| m.external_force).collect(),
            oscillators: model.masses.iter().map(|m| m.friction_oscillator).collect(),
            springs: SpringArrays::new(&model.springs),
            base_rest: model.springs.iter().map(|s| s.rest_length).collect(),
            law: model.springs.iter().map(|s| s.law).collect(),
            actuators: model.actuators.clone(),
            chunks: Vec::new(),
            force: vec![DVec3::ZERO; n],
            drag: None,
            time: 0.0,
            steps: 0,
            dissipated: 0.0,
            injected: 0.0,
            threads: std::thread::available_parallelism().map_or(1, |t| t.get()),
            failed: None,
        };
        for s in 0..model.springs.len() {
            w.set_effective(s, w.base_rest[s]);
        }
        w.chunks = make_chunks(&w.springs);
        w.reset();
        Ok(w)
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
        for s in 0..self.base_rest.len() {
            self.set_effective(s, self.base_rest[s]);
        }
        self.drag = None;
        self.time = 0.0;
        self.steps = 0;
        self.dissipated = 0.0;
        self.injected = 0.0;
        self.failed = None;
        self.actuate();
    }

    /// Sets the number of threads used for large models (at least 1). Results do not depend on it.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
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

    /// Positions of all masses, m.
    #[must_use]
    pub fn positions(&self) -> &[DVec3] {
        &self.pos
    }

    /// Velocities of all masses, m/s.
    #[must_use]
    pub fn velocities(&self) -> &[DVec3] {
        &self.vel
    }

    /// Current rest length of every spring (actuated ones at the current time), m.
    #[must_use]
    pub fn rest_lengths(&self) -> &[f64] {
        &self.springs.rest
    }

    /// Sets the constant external force on mass `mass` to `force` (N) from the next step on.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass; [`Error::InvalidParameter`] for a
    /// non-finite force.
    pub fn set_external_force(&mut self, mass: usize, force: DVec3) -> Result<()> {
        self.check_index("mass", mass, self.pos.len())?;
        if !force.is_finite() {
            return Err(Error::InvalidParameter {
                name: "external force",
                value: f64::NAN,
                expected: "must be finite (N)",
            });
        }
        self.external[mass] = force;
        Ok(())
    }

    /// Sets or clears the drag spring.
    ///
    /// # Errors
    /// What [`DragSpring::validate`] rejects.
    pub fn set_drag(&mut self, drag: Option<DragSpring>) -> Result<()> {
        if let Some(d) = &drag {
            d.validate(self.pos.len())?;
        }
        self.drag = drag;
        Ok(())
    }

    /// Fixes or frees a mass. A newly fixed mass stops dead (its velocity becomes zero).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass.
    pub fn set_fixed(&mut self, mass: usize, fixed: bool) -> Result<()> {
        self.check_index("mass", mass, self.pos.len())?;
        if fixed {
            self.dissipated += 0.5 * self.mass[mass] * self.vel[mass].length_squared();
            self.vel[mass] = DVec3::ZERO;
        }
        self.fixed[mass] = fixed;
        Ok(())
    }

    /// Sets the (base) rest length of spring `spring` to `rest_length` (m). For an actuated spring
    /// this is the base length `L_base` the actuator modulates. The change in elastic energy is
    /// counted as injected work.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing spring; [`Error::InvalidSpringParameter`] for a
    /// negative or non-finite length, [`Error::ZeroRestLength`] for zero on a material-law spring.
    pub fn set_rest_length(&mut self, spring: usize, rest_length: f64) -> Result<()> {
        self.check_index("spring", spring, self.base_rest.len())?;
        if !(rest_length.is_finite() && rest_length >= 0.0) {
            return Err(Error::InvalidSpringParameter {
                spring,
                name: "rest_length",
                value: rest_length,
            });
        }
        if self.law[spring] == SpringLaw::Material && rest_length == 0.0 {
            return Err(Error::ZeroRestLength { spring });
        }
        self.base_rest[spring] = rest_length;
        let before = self.spring_energy(spring);
        self.set_effective(spring, rest_length);
        self.actuate();
        self.injected += self.spring_energy(spring) - before;
        Ok(())
    }

    /// Replaces actuator `index` (its `spring` must name an existing spring).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing actuator; [`Error::InvalidActuator`] as
    /// [`Model::validate`] checks actuators.
    pub fn set_actuator(&mut self, index: usize, actuator: crate::model::Actuator) -> Result<()> {
        self.check_index("actuator", index, self.actuators.len())?;
        let mut probe = Model::new(self.params);
        probe.springs = self.model.springs.clone();
        probe.actuators = vec![actuator];
        probe.masses = self.model.masses.clone();
        probe.validate().map_err(|e| match e {
            Error::InvalidActuator { reason, .. } => Error::InvalidActuator {
                actuator: index,
                reason,
            },
            other => other,
        })?;
        self.actuators[index] = actuator;
        let before = self.elastic_energy();
        self.actuate();
        self.injected += self.elastic_energy() - before;
        Ok(())
    }

    /// The actuators in force.
    #[must_use]
    pub fn actuators(&self) -> &[crate::model::Actuator] {
        &self.actuators
    }

    fn check_index(&self, what: &'static str, index: usize, len: usize) -> Result<()> {
        if index < len {
            Ok(())
        } else {
            Err(Error::IndexOutOfRange { what, index, len })
        }
    }

    /// Sets spring `s`'s current rest length (0 for a zero-length spring, whatever it is given).
    fn set_effective(&mut self, s: usize, rest: f64) {
        self.springs.rest[s] = match self.law[s] {
            SpringLaw::ZeroLength => 0.0,
            SpringLaw::Hooke | SpringLaw::Material => rest,
        };
    }

    /// Rewrites the rest length of every actuated spring for the current time.
    fn actuate(&mut self) {
        for i in 0..self.actuators.len() {
            let a = self.actuators[i];
            let s = a.spring as usize;
            let rest = a.rest_length(self.base_rest[s], self.time);
            self.set_effective(s, rest);
        }
    }

    fn spring_energy(&self, s: usize) -> f64 {
        let sp = &self.springs;
        let [a, b] = sp.ends[s];
        let l = self.pos[a as usize].distance(self.pos[b as usize]);
        let rest = sp.rest[s];
        0.5 * sp.params(s).k_eff(rest) * (l - rest) * (l - rest)
    }

    fn elastic_energy(&self) -> f64 {
        (0..self.springs.len()).map(|s| self.spring_energy(s)).sum()
    }

    /// Advances `steps` steps of `dt`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] if a position or velocity becomes non-finite; the world then keeps
    /// that state (for inspection) and refuses to step until [`CpuWorld::reset`].
    pub fn step(&mut self, steps: u64) -> Result<()> {
        for _ in 0..steps {
            self.step_once()?;
        }
        Ok(())
    }

    /// Advances by `duration` seconds of simulated time: `round(duration / dt)` steps, so the
    /// frame time is independent of `dt` (seed 001). Returns the number of steps taken.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a negative or non-finite duration; [`Error::NonFinite`] as
    /// [`CpuWorld::step`].
    pub fn step_for(&mut self, duration: f64) -> Result<u64> {
        let n = steps_for(duration, self.params.dt)?;
        self.step(n)?;
        Ok(n)
    }

    fn step_once(&mut self) -> Result<()> {
        if let Some((mass, step, time)) = self.failed {
            return Err(Error::NonFinite { mass, step, time });
        }
        // Actuated rest lengths for the start of this step. The elastic energy they add or
        // remove at fixed positions is work done by the muscles.
        if !self.actuators.is_empty() {
            let before: f64 = self.actuated_energy();
            self.actuate();
            self.injected += self.actuated_energy() - before;
        }
        let threads = if self.springs.len() >= PARALLEL_MIN_SPRINGS {
            self.threads
        } else {
            1
        };
        springs(
            &self.springs,
            &self.pos,
            &self.vel,
            &mut self.chunks,
            threads,
        );
        let dt = self.params.dt;
        self.dissipated += self.chunks.iter().map(|c| c.dissipated).sum::<f64>() * dt;
        let ctx = MassContext {
            params: &self.params,
            time: self.time,
            damping_factor: (-self.params.velocity_damping * dt).exp(),
            drag: self.drag,
        };
        let outcome = integrate(
            &ctx,
            MassState {
                pos: &mut self.pos,
                vel: &mut self.vel,
                force: &mut self.force,
                first: 0,
            },
            MassProps {
                mass: &self.mass,
                fixed: &self.fixed,
                external: &self.external,
                oscillators: &self.oscillators,
                chunks: &self.chunks,
            },
            threads,
        );
        self.dissipated += outcome.dissipated;
        self.injected += outcome.injected;
        self.steps += 1;
        let t0 = self.time;
        self.time += dt;
        if let Some(mass) = outcome.first_bad {
            self.failed = Some((mass, self.steps, t0));
            return Err(Error::NonFinite {
                mass,
                step: self.steps,
                time: t0,
            });
        }
        Ok(())
    }

    fn actuated_energy(&self) -> f64 {
        self.actuators
            .iter()
            .map(|a| self.spring_energy(a.spring as usize))
            .sum()
    }

    /// Energy terms of the current state, and the dissipated and injected totals so far.
    #[must_use]
    pub fn energy(&self) -> Energy {
        let g = self.params.gravity;
        let mut e = Energy {
            dissipated: self.dissipated,
            injected: self.injected,
            elastic: self.elastic_energy(),
            ..Energy::default()
        };
        let kc = match self.params.contact {
            Contact::Penalty { stiffness, .. } => stiffness,
            _ => 0.0,
        };
        for i in 0..self.pos.len() {
            let (m, p, v) = (self.mass[i], self.pos[i], self.vel[i]);
            e.kinetic += 0.5 * m * v.length_squared();
            e.gravity -= m * g.dot(p);
            if p.z < 0.0 {
                e.ground += 0.5 * kc * p.z * p.z;
            }
        }
        e
    }

    /// Centre of mass (m) of the masses in `range`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] if the range passes the end or is empty.
    pub fn centre_of_mass(&self, range: Range<usize>) -> Result<DVec3> {
        self.weighted_mean(range, &self.pos)
    }

    /// Mass-weighted mean velocity (m/s) of the masses in `range`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] if the range passes the end or is empty.
    pub fn mean_velocity(&self, range: Range<usize>) -> Result<DVec3> {
        self.weighted_mean(range, &self.vel)
    }

    /// Centre of mass (m) of body `body` of the model.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing or empty body.
    pub fn body_centre_of_mass(&self, body: usize) -> Result<DVec3> {
        self.check_index("body", body, self.model.bodies.len())?;
        self.centre_of_mass(self.model.bodies[body].masses.clone())
    }

    /// Mean velocity (m/s) of body `body` of the model.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing or empty body.
    pub fn body_mean_velocity(&self, body: usize) -> Result<DVec3> {
        self.check_index("body", body, self.model.bodies.len())?;
        self.mean_velocity(self.model.bodies[body].masses.clone())
    }

    fn weighted_mean(&self, range: Range<usize>, x: &[DVec3]) -> Result<DVec3> {
        if range.end > x.len() || range.is_empty() {
            return Err(Error::IndexOutOfRange {
                what: "mass",
                index: range.end,
                len: x.len(),
            });
        }
        let mut sum = DVec3::ZERO;
        let mut total = 0.0;
        for i in range {
            sum += self.mass[i] * x[i];
            total += self.mass[i];
        }
        Ok(sum / total)
    }

    /// The net spring force (N) on every mass in the current state: elastic plus axial damping,
    /// summed over the springs at each mass. Used by the parity suite to compare single-step forces.
    #[must_use]
    pub fn spring_forces(&mut self) -> Vec<DVec3> {
        springs(&self.springs, &self.pos, &self.vel, &mut self.chunks, 1);
        gather(&self.chunks, 0, &mut self.force);
        self.force.clone()
    }
}

fn make_chunks(sp: &SpringArrays) -> Vec<Chunk> {
    let n = sp.len();
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < n {
        let end = (start + SPRINGS_PER_CHUNK).min(n);
        let (mut lo, mut hi) = (u32::MAX, 0u32);
        for s in start..end {
            let [a, b] = sp.ends[s];
            lo = lo.min(a).min(b);
            hi = hi.max(a).max(b);
        }
        chunks.push(Chunk {
            springs: start..end,
            lo: lo as usize,
            force: vec![DVec3::ZERO; (hi - lo + 1) as usize],
            dissipated: 0.0,
        });
        start = end;
    }
    chunks
}

/// Spring pass: the elastic and axial damping force of every spring, accumulated per chunk.
///
/// With `d = p_a - p_b`, `L = |d|`, `n = d / L`: the force on `a` is
/// `-(k (L - L0) + c (v_a - v_b) . n) n` and `b` feels the opposite. A spring of length exactly 0
/// has no direction and exerts no force. Each chunk also records the power its dampers dissipate,
/// `sum c ((v_a - v_b) . n)^2` (W).
fn springs(sp: &SpringArrays, pos: &[DVec3], vel: &[DVec3], chunks: &mut [Chunk], threads: usize) {
    let run = |chunk: &mut Chunk| {
        let lo = chunk.lo;
        let force = &mut chunk.force;
        force.fill(DVec3::ZERO);
        let mut power = 0.0;
        let range = chunk.springs.clone();
        // Spring lists are usually sorted by `a` (builders make them so), so runs of springs share
        // their first mass: its force is summed in a register and stored once per run, which
        // keeps a store-to-load dependency through memory out of the loop.
        let mut run_mass = usize::MAX;
        let mut run_force = DVec3::ZERO;
        for ((&[a, b], &rest), &param) in sp.ends[range.clone()]
            .iter()
            .zip(&sp.rest[range.clone()])
            .zip(&sp.param[range])
        {
            let (a, b) = (a as usize, b as usize);
            if a != run_mass {
                if run_mass != usize::MAX {
                    force[run_mass - lo] += run_force;
                }
                run_mass = a;
                run_force = DVec3::ZERO;
            }
            let d = pos[a] - pos[b];
            let len2 = d.length_squared();
            if len2 == 0.0 {
                continue;
            }
            let p = &sp.table[param as usize];
            let len = len2.sqrt();
            let n = d / len;
            let vrel = (vel[a] - vel[b]).dot(n);
            let f = (p.k_eff(rest) * (len - rest) + p.c * vrel) * n;
            power += p.c * vrel * vrel;
            run_force -= f;
            force[b - lo] += f;
        }
        if run_mass != usize::MAX {
            force[run_mass - lo] += run_force;
        }
        chunk.dissipated = power;
    };
    if threads <= 1 || chunks.len() <= 1 {
        chunks.iter_mut().for_each(run);
        return;
    }
    let per = chunks.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let mut parts = chunks.chunks_mut(per);
        let first = parts.next();
        for part in parts {
            scope.spawn(move || part.iter_mut().for_each(run));
        }
        if let Some(part) = first {
            part.iter_mut().for_each(run);
        }
    });
}

/// Sums the chunk force buffers into `force`, the spring force on masses `first..first + len`,
/// chunk by chunk in order (a fixed order, so the sum is the same on any number of threads).
fn gather(chunks: &[Chunk], first: usize, force: &mut [DVec3]) {
    force.fill(DVec3::ZERO);
    let end = first + force.len();
    for c in chunks {
        let (lo, hi) = (c.lo.max(first), (c.lo + c.force.len()).min(end));
        if lo >= hi {
            continue;
        }
        for (f, g) in force[lo - first..hi - first]
            .iter_mut()
            .zip(&c.force[lo - c.lo..hi - c.lo])
        {
            *f += *g;
        }
    }
}

struct MassContext<'a> {
    params: &'a Params,
    time: f64,
    damping_factor: f64,
    drag: Option<DragSpring>,
}

struct MassState<'a> {
    pos: &'a mut [DVec3],
    vel: &'a mut [DVec3],
    /// Scratch for the gathered spring force of each mass.
    force: &'a mut [DVec3],
    /// Index of `pos[0]` in the model.
    first: usize,
}

#[derive(Clone, Copy)]
struct MassProps<'a> {
    mass: &'a [f64],
    fixed: &'a [bool],
    external: &'a [DVec3],
    oscillators: &'a [Option<FrictionOscillator>],
    chunks: &'a [Chunk],
}

#[derive(Default)]
struct MassOutcome {
    dissipated: f64,
    injected: f64,
    first_bad: Option<usize>,
}

/// Mass pass over all masses, split across `threads` contiguous ranges.
fn integrate(
    ctx: &MassContext<'_>,
    state: MassState<'_>,
    props: MassProps<'_>,
    threads: usize,
) -> MassOutcome {
    let n = state.pos.len();
    if threads <= 1 || n < 2 * threads {
        return integrate_range(ctx, state, props);
    }
    let per = n.div_ceil(threads);
    let outcomes: Vec<MassOutcome> = std::thread::scope(|scope| {
        let handles: Vec<_> = state
            .pos
            .chunks_mut(per)
            .zip(state.vel.chunks_mut(per))
            .zip(state.force.chunks_mut(per))
            .enumerate()
            .map(|(i, ((pos, vel), force))| {
                let st = MassState {
                    pos,
                    vel,
                    force,
                    first: i * per,
                };
                scope.spawn(move || integrate_range(ctx, st, props))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("mass pass thread panicked"))
            .collect()
    });
    let mut total = MassOutcome::default();
    for o in outcomes {
        total.dissipated += o.dissipated;
        total.injected += o.injected;
        total.first_bad = total.first_bad.or(o.first_bad);
    }
    total
}

fn integrate_range(
    ctx: &MassContext<'_>,
    state: MassState<'_>,
    props: MassProps<'_>,
) -> MassOutcome {
    let p = ctx.params;
    let dt = p.dt;
    let mut out = MassOutcome::default();
    gather(props.chunks, state.first, state.force);
    for (j, (pos, vel)) in state.pos.iter_mut().zip(state.vel.iter_mut()).enumerate() {
        let i = state.first + j;
        if props.fixed[i] {
            continue;
        }
        let m = props.mass[i];
        let (x, v) = (*pos, *vel);
        // Forces whose work is counted elsewhere or that store energy: springs (their damping is
        // counted in the spring pass), gravity, external and drag forces.
        let mut applied = props.external[i];
        if let Some(d) = ctx.drag.filter(|d| d.mass == i) {
            applied += d.force(x, v);
        }
        let conservative = state.force[j] + m * p.gravity + applied;
        // Forces that only remove energy.
        let mut dissipative = -p.air_drag * v;
        let friction = match props.oscillators[i] {
            Some(o) => {
                let mu = o.coefficient(ctx.time);
                Friction {
                    static_coefficient: mu,
                    kinetic_coefficient: mu,
                    rest_speed: p.friction.rest_speed,
                }
            }
            None => p.friction,
        };
        let mut ground_force = DVec3::ZERO;
        ground(
            &p.contact,
            &friction,
            m,
            dt,
            x,
            v,
            conservative + dissipative,
            &mut ground_force,
            &mut dissipative,
        );
        let total = conservative + ground_force + dissipative;
        let v_pre = v + total / m * dt;
        let v_new = v_pre * ctx.damping_factor;
        let x_new = match p.integrator {
            Integrator::SemiImplicitEuler => x + v_new * dt,
            Integrator::ExplicitEuler => x + v * dt,
        };
        // The velocity update changes the kinetic energy by exactly F . (v + v_pre) / 2 dt, which
        // splits linearly over the forces: that is the work booked for each of them. It is zero
        // for static friction holding a mass still, and exactly the lost kinetic energy for a
        // restitution impulse. Global damping then removes what the factor takes off.
        let work = 0.5 * (v + v_pre) * dt;
        out.dissipated -= dissipative.dot(work);
        out.dissipated += 0.5 * m * (v_pre.length_squared() - v_new.length_squared());
        out.injected += applied.dot(work);
        if !(x_new.is_finite() && v_new.is_finite()) && out.first_bad.is_none() {
            out.first_bad = Some(i);
        }
        *pos = x_new;
        *vel = v_new;
    }
    out
}

/// Ground contact and friction for one mass at `x` (m) with velocity `v` (m/s) and net non-ground
/// force `f` (N). Adds the conservative part of the contact (penalty spring) to `conservative`
/// and everything else (contact damping, restitution impulse and normal force, friction) to
/// `dissipative`. The ground is the plane z = 0 with normal +z.
#[allow(clippy::too_many_arguments)]
fn ground(
    contact: &Contact,
    friction: &Friction,
    m: f64,
    dt: f64,
    x: DVec3,
    v: DVec3,
    f: DVec3,
    conservative: &mut DVec3,
    dissipative: &mut DVec3,
) {
    let normal = match *contact {
        Contact::None => return,
        Contact::Penalty { stiffness, damping } => {
            if x.z >= 0.0 {
                return;
            }
            let spring = -stiffness * x.z;
            let n = (spring - damping * v.z).max(0.0);
            conservative.z += spring;
            dissipative.z += n - spring;
            n
        }
        Contact::Restitution { restitution } => {
            if x.z > 0.0 {
                return;
            }
            // Normal force: cancels whatever pushes the mass into the ground (seed 004 eq. 8).
            let n = (-f.z).max(0.0);
            // Impulse: a mass moving into the ground leaves the step at -e v_z (eq. 10, 11).
            let impulse = if v.z < 0.0 {
                -m * (1.0 + restitution) * v.z / dt
            } else {
                0.0
            };
            dissipative.z += n + impulse;
            n
        }
    };
    let ft = DVec3::new(f.x, f.y, 0.0);
    let vt = DVec3::new(v.x, v.y, 0.0);
    let f_stop = -(m * vt / dt + ft);
    let stop = f_stop.length();
    let speed = vt.length();
    let mu_k_n = friction.kinetic_coefficient * normal;
    let fr = if speed > friction.rest_speed {
        if stop <= mu_k_n {
            f_stop
        } else {
            -mu_k_n * vt / speed
        }
    } else if stop <= friction.static_coefficient * normal {
        f_stop
    } else {
        mu_k_n * f_stop / stop
    };
    *dissipative += fr;
}
