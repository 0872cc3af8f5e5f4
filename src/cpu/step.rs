//! Stepping: one step is the spring pass (`springs.rs`), the collision pass (`collisions.rs`, when
//! a mass has a collision radius), then the mass pass (`integrate.rs`),
//! with actuated rest lengths set for the step's start time first.

use super::chunks::PARALLEL_MIN_SPRINGS;
use super::collisions::State;
use super::integrate::integrate;
use super::integrate_simd::MASS_LANES_MAX_MASSES;
use super::lanes::wide;
use super::mass_pass::{MassPass, MassState};
use super::springs::springs;
use super::world::Failure;
use super::CpuWorld;
use crate::error::{Error, Result};
use crate::model::steps_for;
use crate::model::BlowUp;

impl CpuWorld {
    /// Advances `steps` steps of `dt`.
    ///
    /// After every step each free mass's speed is checked against a bound that no stable run of
    /// the model reaches (its initial energy and what forces, muscles and setters can inject,
    /// with a hundredfold margin: see `src/model/speed_limit.rs`), so a time step above the
    /// stability limit ([`Model::stable_dt`](crate::Model::stable_dt)) is reported a few steps
    /// after the run leaves the physical range, before it turns non-finite.
    ///
    /// # Errors
    /// [`Error::BlowUp`] naming the first (lowest-index) mass over the bound, the step, `dt`,
    /// the stable time step estimate and what to change; [`Error::NonFinite`] if a position or
    /// velocity becomes non-finite first. The world then keeps that state (for inspection) and
    /// refuses to step until [`CpuWorld::reset`].
    pub fn step(&mut self, steps: u64) -> Result<()> {
        let pool = if self.springs.len() >= PARALLEL_MIN_SPRINGS {
            self.pool.clone()
        } else {
            None
        };
        let mut run = || (0..steps).try_for_each(|_| self.step_once());
        match pool {
            // The whole call on a worker: the passes' own `install`s then run inline, so the
            // caller hands work to the pool once per call instead of three times per step.
            Some(pool) if steps > 1 => pool.install(run),
            _ => run(),
        }
    }

    /// Advances by `duration` seconds of simulated time: `round(duration / dt)` steps, so the
    /// frame time is independent of `dt` (CS838). Returns the number of steps taken.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a negative or non-finite duration; [`Error::BlowUp`] and
    /// [`Error::NonFinite`] as [`CpuWorld::step`].
    pub fn step_for(&mut self, duration: f64) -> Result<u64> {
        let n = steps_for(duration, self.params.dt)?;
        self.step(n)?;
        Ok(n)
    }

    fn step_once(&mut self) -> Result<()> {
        if let Some(failure) = self.failed {
            return Err(self.failure_error(failure));
        }
        // Actuated rest lengths for the start of this step. The shadow elastic energy they add
        // or remove at fixed positions and velocities is work done by the muscles.
        let pool = if self.springs.len() >= PARALLEL_MIN_SPRINGS {
            self.pool.clone()
        } else {
            None
        };
        if !self.actuators.is_empty() {
            self.injected += self.actuate_step(pool.as_deref());
            self.sync_stencil_muscles();
        }
        self.spring_pass();
        self.collision_pass();
        self.oscillators.evaluate(self.time);
        let dt = self.params.dt;
        self.dissipated += self.chunks.iter().map(|c| c.dissipated).sum::<f64>() * dt;
        let pass = MassPass {
            params: &self.params,
            time: self.time,
            limit: self.limit,
            damping_factor: (-self.params.velocity_damping * dt).exp(),
            drag: self.drag,
            mass: &self.mass,
            fixed: &self.fixed,
            external: &self.external,
            oscillators: &self.oscillators,
            chunks: &self.chunks,
            obstacles: &self.solids,
            touch: self.collider.as_ref().map_or(&[], |c| &c.touch),
            lanes: self.kernels.mass_lanes && self.mass.len() <= MASS_LANES_MAX_MASSES,
            wide: wide(),
            book_energy: self.track_energy,
        };
        let state = MassState {
            pos: &mut self.pos,
            vel: &mut self.vel,
            force: &mut self.force,
            contacts: &mut self.contacts,
            first: 0,
        };
        let outcome = integrate(&pass, state, pool.as_deref());
        self.dissipated += outcome.dissipated;
        self.injected += outcome.injected;
        self.steps += 1;
        let t0 = self.time;
        self.time += dt;
        if let Some(mass) = outcome.first_bad {
            let (x, v) = (self.pos[mass], self.vel[mass]);
            let failure = if x.is_finite() && v.is_finite() {
                Failure::BlowUp(BlowUp {
                    mass,
                    step: self.steps,
                    time: t0,
                    speed: v.length(),
                    limit: self.limit.speed(self.mass[mass], self.time),
                })
            } else {
                Failure::NonFinite(mass, self.steps, t0)
            };
            self.failed = Some(failure);
            return Err(self.failure_error(failure));
        }
        Ok(())
    }

    /// Runs the collision pass alone (broad phase and pair forces) on the current state, without
    /// stepping; does nothing when no mass has a collision radius. For the benchmarks
    /// (`benches/cpu.rs`), which time it apart from the step; not part of the API.
    #[doc(hidden)]
    pub fn bench_collision_pass(&mut self) {
        self.collision_pass();
    }

    /// Runs the spring pass alone on the current state, on the threads a step would use, without
    /// stepping. For the benchmarks (`benches/cpu.rs`), which compare the collision pass with
    /// it; not part of the API.
    #[doc(hidden)]
    pub fn bench_spring_pass(&mut self) {
        self.spring_pass();
    }

    /// The spring pass on the current state, into the chunks' force buffers: on the world's pool
    /// from [`PARALLEL_MIN_SPRINGS`] springs up, on the caller's thread below.
    fn spring_pass(&mut self) {
        let pool = if self.springs.len() >= PARALLEL_MIN_SPRINGS {
            self.pool.as_deref()
        } else {
            None
        };
        springs(
            &self.springs,
            &self.stencils,
            (&self.pos, &self.vel),
            (&self.formed_rest, self.waves.sines()),
            &mut self.chunks,
            pool,
        );
    }

    /// The collision pass on the current state, when a mass has a collision radius.
    fn collision_pass(&mut self) {
        if let Some(c) = &mut self.collider {
            let state = State {
                pos: &self.pos,
                vel: &self.vel,
                mass: &self.mass,
                fixed: &self.fixed,
            };
            c.collide(&state, self.threads);
        }
    }

    /// The error of a stopped world.
    pub(super) fn failure_error(&self, failure: Failure) -> Error {
        match failure {
            Failure::NonFinite(mass, step, time) => Error::NonFinite { mass, step, time },
            Failure::BlowUp(b) => b.error(self.params.dt, &self.stable),
        }
    }
}
