//! The initial state: [`World::reset`] writes it (the buffers are created zeroed), and
//! [`World::reset_body`] one body's share of it.

use super::{Failure, World};
use crate::error::{Error, Result};
use crate::gpu::layout::{GpuActuator, GpuState, GpuStatus, Vec4, MASS_FIXED};
use crate::gpu::pass;
use crate::gpu::tables::{gpu_actuator, gpu_params, mass_flags, v3, Counts};

impl World {
    /// Returns to the initial state of the model: positions, velocities, time 0, energy counters
    /// 0, no drag spring, the model's external forces, fixed flags, rest lengths and actuators,
    /// commands 0. Clears a stopped World's error.
    pub fn reset(&mut self) {
        self.write_initial_masses();
        self.write_initial_state(0..self.model.masses.len());
        self.restore_rest_lengths();
        self.run.actuators = self.model.actuators.clone();
        self.run.commands.fill(0.0);
        self.write_commands();
        if !self.run.actuators.is_empty() {
            let table = self.plan.precision.encode(&self.actuator_table(0.0));
            self.queue.write_buffer(&self.buffers.actuators, 0, &table);
        }
        self.run.drag = None;
        let counts = Counts {
            masses: self.run.params.masses,
            springs: self.run.params.springs,
            bodies: self.run.params.bodies,
        };
        self.run.params = gpu_params(&self.model.params, None, counts);
        let b = &self.buffers;
        let params = self.plan.precision.encode_one(&self.run.params);
        self.queue.write_buffer(&b.params, 0, &params);
        self.queue
            .write_buffer(&b.status, 0, bytemuck::bytes_of(&GpuStatus::CLEAR));
        pass::clear(
            &self.device,
            &self.queue,
            "hooke::reset",
            &[&b.forces, &b.spring_slots, &b.mass_slots, &b.contacts],
        );
        self.run.time = 0.0;
        self.run.steps = 0;
        self.run.host_dissipated = 0.0;
        self.run.host_injected = 0.0;
        self.run.failed = None;
        self.run.limit = self.run.initial_limit;
    }

    /// Puts body `body`'s masses back to the model's initial positions and velocities (a mass
    /// fixed in the model or now at rest), leaving every other mass, the time, the commands,
    /// the setters' changes and the energy counters as they are, as
    /// [`CpuWorld::reset_body`](crate::CpuWorld::reset_body) does (three buffer writes of the
    /// body's range). If the World stopped because one of this body's masses turned non-finite
    /// or passed the blow-up bound, the failure is cleared and the World steps again.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing body.
    pub fn reset_body(&mut self, body: usize) -> Result<()> {
        let bodies = self.model.bodies.len();
        let Some(masses) = self.model.bodies.get(body).map(|b| b.masses.clone()) else {
            return Err(Error::IndexOutOfRange {
                what: "body",
                index: body,
                len: bodies,
            });
        };
        self.write_initial_state(masses.clone());
        let failed_mass = match self.run.failed {
            Some(Failure::NonFinite { mass, .. }) => Some(mass),
            Some(Failure::BlowUp(b)) => Some(b.mass),
            _ => None,
        };
        if failed_mass.is_some_and(|m| masses.contains(&m)) {
            self.run.failed = None;
            self.queue.write_buffer(
                &self.buffers.status,
                0,
                bytemuck::bytes_of(&GpuStatus::CLEAR),
            );
        }
        Ok(())
    }

    /// The model's positions and velocities of masses `masses` (a fixed mass at rest), in the
    /// public buffers and the state records.
    fn write_initial_state(&self, masses: std::ops::Range<usize>) {
        let Some(model) = self
            .model
            .masses
            .get(masses.clone())
            .filter(|m| !m.is_empty())
        else {
            return;
        };
        let flags = &self.run.gpu_masses[masses.clone()];
        let velocity = |(m, g): (&crate::model::Mass, &crate::gpu::layout::GpuMass)| {
            if m.fixed || g.flags & MASS_FIXED != 0 {
                [0.0; 3]
            } else {
                v3(m.velocity)
            }
        };
        let pos: Vec<Vec4> = model
            .iter()
            .map(|m| m.position.extend(1.0).to_array())
            .collect();
        let vel: Vec<Vec4> = model
            .iter()
            .zip(flags)
            .map(|m| {
                let [x, y, z] = velocity(m);
                [x, y, z, 0.0]
            })
            .collect();
        let state: Vec<GpuState> = model
            .iter()
            .zip(flags)
            .map(|m| GpuState {
                position: v3(m.0.position),
                velocity: velocity(m),
                ..Default::default()
            })
            .collect();
        let (b, real) = (&self.buffers, self.plan.precision);
        let first = masses.start as u64;
        let at_vec4 = real.bytes::<Vec4>(first);
        self.queue
            .write_buffer(&b.positions, at_vec4, &real.encode(&pos));
        self.queue
            .write_buffer(&b.velocities, at_vec4, &real.encode(&vel));
        self.queue.write_buffer(
            &b.state,
            real.bytes::<GpuState>(first),
            &real.encode(&state),
        );
    }

    /// The mass records with the model's external forces and fixed flags.
    fn write_initial_masses(&mut self) {
        for (g, m) in self.run.gpu_masses.iter_mut().zip(&self.model.masses) {
            g.external_force = v3(m.external_force);
            g.flags = mass_flags(m.fixed);
        }
        if !self.run.gpu_masses.is_empty() {
            let masses = self.plan.precision.encode(&self.run.gpu_masses);
            self.queue.write_buffer(&self.buffers.masses, 0, &masses);
        }
    }

    /// The model's rest lengths of the springs `set_rest_length` changed, in the link table and
    /// the stencil.
    pub(super) fn restore_rest_lengths(&mut self) {
        for &s in self.run.rest_changed.keys() {
            self.write_rest_length(s, self.springs.springs[s].rest);
        }
        self.run.rest_changed.clear();
    }

    /// The device's actuator table at time `time` (s).
    pub(super) fn actuator_table(&self, time: f64) -> Vec<GpuActuator> {
        self.run
            .actuators
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let base = self.base_rest(a.spring as usize);
                gpu_actuator(a, base, time, self.run.command_slot[i], self.command(i))
            })
            .collect()
    }

    /// Base rest length of spring `s` as the model (or `set_rest_length`) gives it, m.
    pub(super) fn base_rest(&self, s: usize) -> f64 {
        self.run.rest_changed.get(&s).copied().unwrap_or_else(|| {
            match self.springs.actuated_base.get(&(s as u32)) {
                Some(&base) => base,
                None => self.plan.precision.round(self.springs.springs[s].rest),
            }
        })
    }
}
