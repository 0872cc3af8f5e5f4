//! The initial state: [`World::reset`] is its only writer (the buffers are created zeroed).

use super::World;
use crate::gpu::layout::{GpuActuator, GpuState, GpuStatus, Vec4};
use crate::gpu::pass;
use crate::gpu::tables::{gpu_actuator, gpu_params, mass_flags, v3, Counts};

impl World {
    /// Returns to the initial state of the model: positions, velocities, time 0, energy counters
    /// 0, no drag spring, the model's external forces, fixed flags, rest lengths and actuators,
    /// commands 0. Clears a stopped World's error.
    pub fn reset(&mut self) {
        self.write_initial_state();
        self.write_initial_masses();
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

    /// The model's positions and velocities (a fixed mass at rest), in the public buffers and the
    /// state records.
    fn write_initial_state(&self) {
        if self.model.masses.is_empty() {
            return;
        }
        let velocity = |m: &crate::model::Mass| {
            if m.fixed {
                [0.0; 3]
            } else {
                v3(m.velocity)
            }
        };
        let pos: Vec<Vec4> = self
            .model
            .masses
            .iter()
            .map(|m| m.position.extend(1.0).to_array())
            .collect();
        let vel: Vec<Vec4> = self
            .model
            .masses
            .iter()
            .map(|m| {
                let [x, y, z] = velocity(m);
                [x, y, z, 0.0]
            })
            .collect();
        let state: Vec<GpuState> = self
            .model
            .masses
            .iter()
            .map(|m| GpuState {
                position: v3(m.position),
                velocity: velocity(m),
                ..Default::default()
            })
            .collect();
        let (b, real) = (&self.buffers, self.plan.precision);
        self.queue.write_buffer(&b.positions, 0, &real.encode(&pos));
        self.queue
            .write_buffer(&b.velocities, 0, &real.encode(&vel));
        self.queue.write_buffer(&b.state, 0, &real.encode(&state));
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
    fn restore_rest_lengths(&mut self) {
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
