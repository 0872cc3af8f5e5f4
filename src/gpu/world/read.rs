//! Reading the World back: positions and velocities, and the reductions (`energy_masses`,
//! `energy_springs`, `bodies`) that leave only partial sums to read; the spring pass's forces
//! for the parity suite.

use glam::DVec3;
use std::collections::HashMap;

use super::World;
use crate::energy::Energy;
use crate::error::{Error, Result};
use crate::gpu::kernels::Simple;
use crate::gpu::layout::{
    array_bytes, force_record_bytes, GpuBodySum, GpuMassPartial, GpuSpringPartial, GpuStatus,
    GpuStep, Vec4,
};
use crate::gpu::pass;
use crate::gpu::readback;
use crate::gpu::tables::body_piece_count;
use crate::model::spring_law::rest_in_law;
use crate::simulation::BodyState;

impl World {
    /// Copies `(buffer, offset, size)` ranges (bytes, multiples of 4) into one staging buffer and
    /// returns their bytes, concatenated.
    pub(super) fn read(&self, ranges: &[(&wgpu::Buffer, u64, u64)]) -> Result<Vec<u8>> {
        self.check_alive()?;
        let total: u64 = ranges.iter().map(|r| r.2).sum();
        if total == 0 {
            return Ok(Vec::new());
        }
        let staging = readback::staging(&self.device, "hooke::readback", total);
        let bytes = readback::read_back(&self.device, &self.queue, &staging, total, |e, st| {
            let mut at = 0;
            for &(buf, offset, size) in ranges {
                e.copy_buffer_to_buffer(buf, offset, st, at, size);
                at += size;
            }
        })?;
        self.check_alive()?;
        Ok(bytes)
    }

    fn read_vec3s(&self, buffer: &wgpu::Buffer) -> Result<Vec<DVec3>> {
        if self.model.masses.is_empty() {
            // An empty readback has no alignment to cast from.
            return Ok(Vec::new());
        }
        let real = self.plan.precision;
        let bytes = self.read(&[(
            buffer,
            0,
            real.bytes::<Vec4>(self.model.masses.len() as u64),
        )])?;
        Ok(real
            .decode::<Vec4>(&bytes)
            .iter()
            .map(|p| DVec3::new(p[0], p[1], p[2]))
            .collect())
    }

    /// Positions of all masses in m, read back from the GPU.
    ///
    /// # Errors
    /// [`Error::DeviceLost`], [`Error::Poll`], [`Error::BufferAsync`] or [`Error::MapRange`].
    pub fn positions(&self) -> Result<Vec<DVec3>> {
        self.read_vec3s(&self.buffers.positions)
    }

    /// Every pair of masses `[a, b]`, `a < b`, touching in the current state (closer than the sum
    /// of their collision radii and allowed to collide: see [`Collision`](crate::Collision)), in
    /// increasing order; empty when no mass has a collision radius. Reads the positions back
    /// (16 bytes per mass, 32 in f64) and finds the pairs on the host with the CPU reference's
    /// broad phase, as [`CpuWorld::contacts`](crate::CpuWorld::contacts) does.
    ///
    /// # Errors
    /// As [`World::positions`].
    pub fn contacts(&self) -> Result<Vec<[usize; 2]>> {
        let Some(finder) = &self.model.contact_finder else {
            return Ok(Vec::new());
        };
        let pos = self.positions()?;
        let fixed: Vec<bool> = self
            .run
            .gpu_masses
            .iter()
            .map(|m| m.flags & crate::gpu::layout::MASS_FIXED != 0)
            .collect();
        Ok(finder.contacts(&pos, &fixed))
    }

    /// Velocities of all masses in m/s, read back from the GPU.
    ///
    /// # Errors
    /// As [`World::positions`].
    pub fn velocities(&self) -> Result<Vec<DVec3>> {
        self.read_vec3s(&self.buffers.velocities)
    }

    /// Energy terms of the current state and the dissipated and injected totals so far (running
    /// per-invocation slots on the GPU, plus what the setters booked on the host), in J. GPU
    /// reductions sum both to per-workgroup partial sums, which the host adds in f64.
    ///
    /// # Errors
    /// As [`World::positions`], or [`Error::Gpu`] on a validation error.
    pub fn energy(&self) -> Result<Energy> {
        let md = self.plan.mass_dispatch;
        pass::run_pass(&self.device, &self.queue, "hooke::energy", |pass| {
            // The collisions' penalty energy at the current state (`touch[2 i].w`).
            self.record_collisions(pass);
            self.record_simple(pass, Simple::EnergyMasses, md, None);
            for chunk in &self.bindings.chunks {
                pass.set_pipeline(&self.pipelines.energy_springs);
                pass.set_bind_group(0, &chunk.energy, &[]);
                pass.dispatch_workgroups(chunk.dispatch.x, chunk.dispatch.y, 1);
            }
        })?;
        let mg = u64::from(md.groups);
        let sg = u64::from(self.plan.spring_dispatch.groups);
        let (b, real) = (&self.buffers, self.plan.precision);
        let mass_bytes = real.bytes::<GpuMassPartial>(mg);
        let bytes = self.read(&[
            (&b.mass_partials, 0, mass_bytes),
            (&b.spring_partials, 0, real.bytes::<GpuSpringPartial>(sg)),
        ])?;
        let (mp, sp) = bytes.split_at(mass_bytes as usize);
        let mut e = Energy {
            dissipated: self.run.host_dissipated,
            injected: self.run.host_injected,
            ..Energy::default()
        };
        for p in real.decode::<GpuMassPartial>(mp) {
            e.kinetic += p.kinetic;
            e.gravity += p.gravity;
            e.ground += p.ground;
            e.dissipated += p.dissipated;
            e.injected += p.injected;
        }
        if !self.springs.springs.is_empty() {
            for p in real.decode::<GpuSpringPartial>(sp) {
                e.elastic += p.elastic;
                e.dissipated += p.dissipated;
                e.injected += p.injected;
            }
        }
        Ok(e)
    }

    /// Centre of mass and mean velocity of every body of the model, from one GPU reduction (one
    /// workgroup per body): thousands of creatures in one World are scored without reading their
    /// masses back.
    ///
    /// # Errors
    /// As [`World::energy`].
    pub fn bodies(&self) -> Result<Vec<BodyState>> {
        if self.model.bodies.is_empty() {
            return Ok(Vec::new());
        }
        let d = self.plan.body_dispatch;
        pass::run_pass(&self.device, &self.queue, "hooke::bodies", |pass| {
            self.record_simple(pass, Simple::Bodies, d, None);
        })?;
        let pieces = u64::from(self.run.params.bodies);
        let real = self.plan.precision;
        let bytes = self.read(&[(&self.buffers.body_sums, 0, real.bytes::<GpuBodySum>(pieces))])?;
        let sums = real.decode::<GpuBodySum>(&bytes);
        let mut next = 0;
        Ok(self
            .model
            .bodies
            .iter()
            .map(|b| {
                let count = body_piece_count(b.masses.len());
                let s = add_pieces(&sums[next..next + count]);
                next += count;
                let mass = s.mass;
                if mass > 0.0 {
                    BodyState {
                        mass,
                        centre_of_mass: DVec3::from_array(s.moment) / mass,
                        mean_velocity: DVec3::from_array(s.momentum) / mass,
                    }
                } else {
                    BodyState::default()
                }
            })
            .collect())
    }

    /// Centre of mass (m) of body `body`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing or empty body; otherwise as [`World::bodies`].
    pub fn body_centre_of_mass(&self, body: usize) -> Result<DVec3> {
        Ok(self.body(body)?.centre_of_mass)
    }

    /// Mean velocity (m/s) of body `body`.
    ///
    /// # Errors
    /// As [`World::body_centre_of_mass`].
    pub fn body_mean_velocity(&self, body: usize) -> Result<DVec3> {
        Ok(self.body(body)?.mean_velocity)
    }

    fn body(&self, body: usize) -> Result<BodyState> {
        let len = self.model.bodies.len();
        if body >= len || self.model.bodies[body].masses.is_empty() {
            return Err(Error::IndexOutOfRange {
                what: "body",
                index: body,
                len,
            });
        }
        Ok(self.bodies()?[body])
    }

    /// The net spring force (N) on every mass in the current state, as the spring pass scatters
    /// it (decoded exactly from fixed point), without advancing the simulation. For the parity
    /// suite's single-step force comparison.
    ///
    /// # Errors
    /// [`Error::FixedPointOverflow`] if a spring passes the fixed-point bound; GPU errors as
    /// [`World::positions`].
    pub fn spring_forces(&mut self) -> Result<Vec<DVec3>> {
        if let Some(e) = self.failure() {
            return Err(e);
        }
        self.run_spring_pass_alone()?;
        let b = &self.buffers;
        let force_bytes =
            force_record_bytes(self.plan.fixed_point.bits) * self.model.masses.len() as u64;
        let bytes = self.read(&[
            (&b.forces, 0, force_bytes),
            (&b.status, 0, array_bytes::<GpuStatus>(1)),
        ])?;
        let (forces, status) = bytes.split_at(force_bytes as usize);
        let status: GpuStatus = bytemuck::pod_read_unaligned(status);
        // Clear the accumulator and the status for the next real step.
        pass::clear(
            &self.device,
            &self.queue,
            "hooke::spring_forces",
            &[&b.forces],
        );
        self.queue
            .write_buffer(&b.status, 0, bytemuck::bytes_of(&GpuStatus::CLEAR));
        if status.overflow_step != u32::MAX {
            return Err(self.overflow_error(
                self.run.steps + 1,
                self.spring_of_code(status.overflow_spring),
            ));
        }
        Ok(self.decode_forces(forces))
    }

    /// One spring pass at the current time, with every side effect but the force sums and the
    /// status undone: the energy slots and the actuators' booked rest lengths are snapshot
    /// before and restored after it.
    fn run_spring_pass_alone(&self) -> Result<()> {
        let b = &self.buffers;
        let slots_bytes = b.spring_slots.size();
        let act_bytes = b.actuators.size();
        let scratch = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::spring_forces"),
            size: slots_bytes + act_bytes,
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let step = GpuStep {
            time: self.run.time,
            index: 1,
            speed_energy: self.run.limit.scaled_energy(),
            speed_growth: self.run.limit.scaled_growth(),
            ..Default::default()
        };
        let step = self.plan.precision.encode_one(&step);
        self.queue.write_buffer(&b.steps, 0, &step);
        pass::run_pass_between(
            &self.device,
            &self.queue,
            "hooke::spring_forces",
            |e| {
                e.copy_buffer_to_buffer(&b.spring_slots, 0, &scratch, 0, slots_bytes);
                e.copy_buffer_to_buffer(&b.actuators, 0, &scratch, slots_bytes, act_bytes);
            },
            |pass| {
                for chunk in &self.bindings.chunks {
                    pass.set_pipeline(&self.pipelines.springs);
                    pass.set_bind_group(0, &chunk.springs, &[]);
                    pass.set_bind_group(1, &self.bindings.step, &[0]);
                    pass.dispatch_workgroups(chunk.dispatch.x, chunk.dispatch.y, 1);
                }
            },
            |e| {
                e.copy_buffer_to_buffer(&scratch, 0, &b.spring_slots, 0, slots_bytes);
                e.copy_buffer_to_buffer(&scratch, slots_bytes, &b.actuators, 0, act_bytes);
            },
        )
    }

    /// The forces (N) of the fixed-point sums `bytes` (one force record per mass).
    fn decode_forces(&self, bytes: &[u8]) -> Vec<DVec3> {
        let fp = self.plan.fixed_point;
        let mut q: Vec<i64> = if fp.bits == 64 {
            bytemuck::pod_collect_to_vec::<u8, i64>(bytes)
        } else {
            bytemuck::pod_collect_to_vec::<u8, i32>(bytes)
                .into_iter()
                .map(i64::from)
                .collect()
        };
        if self.plan.packed_forces {
            // (y * 2^32 + x, z) in 64-bit words: y is the high half plus x's borrow.
            for c in q.chunks_exact_mut(4) {
                c[1] -= c[0] >> 31;
            }
        }
        q.chunks_exact(4)
            .map(|c| DVec3::new(fp.decode(c[0]), fp.decode(c[1]), fp.decode(c[2])))
            .collect()
    }

    /// Rest length of every spring at the current time [`World::time`], m, evaluated on the host
    /// in f64 from the base rest lengths, actuators and commands in force (the spring pass evaluates the
    /// same actuators in the World's precision at the start of each step, so in f32 the two
    /// agree to f32 rounding);
    /// zero-length springs report 0. No device readback.
    ///
    /// # Errors
    /// None; the `Result` is the [`crate::Simulation`] signature.
    pub fn rest_lengths(&self) -> Result<Vec<f64>> {
        let mut rest: Vec<f64> = (0..self.springs.springs.len())
            .map(|s| self.base_rest(s))
            .collect();
        for (i, a) in self.run.actuators.iter().enumerate() {
            let s = a.spring as usize;
            // From the base each time: a spring named by several actuators follows the last.
            rest[s] = a.rest_length_with(self.base_rest(s), self.run.time, self.command(i));
        }
        for (r, &law) in rest.iter_mut().zip(&self.springs.laws) {
            *r = rest_in_law(law, *r);
        }
        Ok(rest)
    }

    /// [`World::rest_lengths`] of only `springs` (valid indices), in their order, m: one pass
    /// over the actuators instead of a vector of every spring (the sensors' strains).
    pub(crate) fn rest_lengths_of(&self, springs: &[usize]) -> Vec<f64> {
        let mut wanted: HashMap<usize, Vec<usize>> = HashMap::new();
        for (k, &s) in springs.iter().enumerate() {
            wanted.entry(s).or_default().push(k);
        }
        let mut rest: Vec<f64> = springs.iter().map(|&s| self.base_rest(s)).collect();
        for (i, a) in self.run.actuators.iter().enumerate() {
            let s = a.spring as usize;
            if let Some(slots) = wanted.get(&s) {
                // From the base each time: a spring named by several actuators follows the last.
                let r = a.rest_length_with(self.base_rest(s), self.run.time, self.command(i));
                slots.iter().for_each(|&k| rest[k] = r);
            }
        }
        for (r, &s) in rest.iter_mut().zip(springs) {
            *r = rest_in_law(self.springs.laws[s], *r);
        }
        rest
    }
}

/// The sums of a body cut into `pieces` (see `body_pieces`): the first piece's, then each
/// other's added in order (a body of one piece keeps its sums' bits).
fn add_pieces(pieces: &[GpuBodySum]) -> GpuBodySum {
    let mut sum = pieces[0];
    for p in &pieces[1..] {
        for c in 0..3 {
            sum.moment[c] += p.moment[c];
            sum.momentum[c] += p.momentum[c];
        }
        sum.mass += p.mass;
    }
    sum
}
