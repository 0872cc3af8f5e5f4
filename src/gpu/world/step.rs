//! Stepping: the spring and integrate passes, recorded for many steps per submission, then one
//! status read.

use super::World;
use crate::error::Result;
use crate::gpu::kernels::steps::FusedSteps;
use crate::gpu::kernels::Simple;
use crate::gpu::layout::{GpuStatus, GpuStep};
use crate::gpu::pass;
use crate::gpu::plan::Dispatch;
use crate::model::steps_for;

impl World {
    /// Advances `steps` steps of `dt`: records them into as few submissions as possible (see
    /// [`WorldOptions::steps_per_submission`](crate::WorldOptions::steps_per_submission)) with no
    /// host round trip between steps, then reads the 16-byte status buffer once. A World that
    /// fuses its steps ([`WorldOptions::fuse_steps`](crate::WorldOptions::fuse_steps)) runs many
    /// steps per dispatch instead, with the same bits and the same failure behaviour (it reruns
    /// the call's steps with the two passes when a mass failed).
    ///
    /// The integrate kernel checks every mass after every step against the blow-up bound of
    /// [`CpuWorld::step`](crate::CpuWorld::step) (a speed no stable run reaches) and against
    /// non-finite values, at no extra cost per step: it records the first failing step and mass
    /// in the status buffer and stops integrating. The error surfaces when this call reads the
    /// status at its end, whatever the number of steps asked for; the World then holds the
    /// state of the failing step (reading the failing mass's 32-byte state once, to tell a
    /// blow-up from a non-finite state).
    ///
    /// # Errors
    /// [`Error::BlowUp`](crate::Error::BlowUp) naming the first (lowest-index) mass over the
    /// bound, the step, `dt`, the stable time step estimate and what to change, and
    /// [`Error::NonFinite`](crate::Error::NonFinite) naming the first mass whose position or
    /// velocity became non-finite, as the CPU does; the World keeps that state and refuses to
    /// step until [`World::reset`].
    /// [`Error::FixedPointOverflow`](crate::Error::FixedPointOverflow) if a spring force passed
    /// the fixed-point bound: the World keeps the state before that step and refuses to step
    /// until reset. [`Error::DeviceLost`](crate::Error::DeviceLost),
    /// [`Error::Gpu`](crate::Error::Gpu) (validation), [`Error::Poll`](crate::Error::Poll),
    /// [`Error::BufferAsync`](crate::Error::BufferAsync) or
    /// [`Error::MapRange`](crate::Error::MapRange) if the GPU fails.
    pub fn step(&mut self, steps: u64) -> Result<()> {
        if let Some(e) = self.failure() {
            return Err(e);
        }
        self.check_alive()?;
        let mut left = steps;
        while left > 0 {
            // Step indices in the status buffer are u32, 1-based within one round.
            let round = left.min(u64::from(u32::MAX - 1));
            self.step_round(round)?;
            left -= round;
        }
        Ok(())
    }

    /// Advances by `duration` seconds of simulated time: `round(duration / dt)` steps, as
    /// [`crate::CpuWorld::step_for`]. Returns the number of steps taken.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a negative or non-finite
    /// duration; otherwise as [`World::step`].
    pub fn step_for(&mut self, duration: f64) -> Result<u64> {
        let n = steps_for(duration, self.model.params.dt)?;
        self.step(n)?;
        Ok(n)
    }

    /// `n` steps (at most `u32::MAX - 1`, the status buffer's step indices), then the status.
    /// A World that fuses its steps runs them in fused dispatches (see `kernels/steps.rs`) from
    /// a saved state; if a mass failed, it restores that state and runs them again with the two
    /// passes, which stop every mass at the first failing step (a fused island stops only
    /// itself).
    fn step_round(&mut self, n: u64) -> Result<()> {
        let (start_time, start_steps) = (self.run.time, self.run.steps);
        if self.fused().is_some() {
            let (status, t) = self.run_round(n, true)?;
            let failed = status.bad_step != u32::MAX || status.overflow_step != u32::MAX;
            if !failed {
                return self.settle_round(status, n, start_steps, start_time, t);
            }
            self.restore_round()?;
        }
        let (status, t) = self.run_round(n, false)?;
        self.settle_round(status, n, start_steps, start_time, t)
    }

    /// Runs `n` steps from the World's time (fused: one submission per fused dispatch, the state
    /// saved first); returns the status and the time after the last step.
    fn run_round(&self, n: u64, fused: bool) -> Result<(GpuStatus, f64)> {
        let fused = self.fused().filter(|_| fused);
        let per = fused.map_or(self.plan.steps_per_submission, |f| f.steps_per_dispatch);
        let mut done = 0u64;
        let mut t = self.run.time;
        while done < n {
            let count = (n - done).min(per);
            let publish = done + count == n;
            if let Some(f) = fused {
                t = self.write_step_table(f, done, count, t);
                self.submit_fused(f, done == 0, publish)?;
            } else {
                t = self.write_step_uniforms(done, count, t);
                self.submit_steps(count, publish)?;
            }
            done += count;
        }
        Ok((self.read_status()?, t))
    }

    /// Puts back the state saved before a fused round, with the force sums zeroed and the status
    /// cleared, as they were.
    fn restore_round(&self) -> Result<()> {
        let f = self.fused().expect("a fused World");
        let b = &self.buffers;
        pass::clear(&self.device, &self.queue, "hooke::restore", &[&b.forces]);
        self.queue
            .write_buffer(&b.status, 0, bytemuck::bytes_of(&GpuStatus::CLEAR));
        pass::run_pass_between(
            &self.device,
            &self.queue,
            "hooke::restore",
            |encoder| f.restore(encoder, &b.state),
            |_| {},
            |_| {},
        )
    }

    /// The records of steps `done + 1 ..= done + count` of a round, the first at time `t` (s).
    fn step_records(&self, done: u64, count: u64, mut t: f64) -> (Vec<GpuStep>, f64) {
        let records = (0..count)
            .map(|j| {
                let step = GpuStep {
                    time: t,
                    index: (done + j + 1) as u32,
                    speed_energy: self.run.limit.scaled_energy(),
                    speed_growth: self.run.limit.scaled_growth(),
                    ..Default::default()
                };
                t += self.model.params.dt;
                step
            })
            .collect();
        (records, t)
    }

    /// Writes the step table of the fused kernel for steps `done + 1 ..= done + count`, the
    /// first at time `t` (s); returns the time after the last.
    fn write_step_table(&self, f: &FusedSteps, done: u64, count: u64, t: f64) -> f64 {
        let (records, t) = self.step_records(done, count, t);
        f.write_steps(&self.queue, &records);
        t
    }

    /// One submission of the fused kernel over the written steps, the state saved first when
    /// `first` (of the round); `publish` adds the dispatch that writes the public buffers.
    fn submit_fused(&self, f: &FusedSteps, first: bool, publish: bool) -> Result<()> {
        let pipeline = self.pipelines.steps.as_ref().expect("the fused kernel");
        pass::run_pass_between(
            &self.device,
            &self.queue,
            "hooke::steps",
            |encoder| {
                if first {
                    f.save(encoder, &self.buffers.state);
                }
            },
            |pass| {
                f.record(pipeline, pass);
                if publish {
                    self.record_publish(pass);
                }
            },
            |_| {},
        )
    }

    /// Writes the uniforms of steps `done + 1 ..= done + count` of a round, the first at time
    /// `t` (s); returns the time after the last.
    fn write_step_uniforms(&self, done: u64, count: u64, t: f64) -> f64 {
        let stride = self.plan.step_stride;
        let real = self.plan.precision;
        let record = real.bytes::<GpuStep>(1) as usize;
        let mut uniforms = vec![0u8; (stride * count) as usize];
        let (records, t) = self.step_records(done, count, t);
        for (j, step) in records.iter().enumerate() {
            let at = stride as usize * j;
            uniforms[at..at + record].copy_from_slice(&real.encode_one(step));
        }
        self.queue.write_buffer(&self.buffers.steps, 0, &uniforms);
        t
    }

    /// Records the collision pass, when the World has one.
    pub(super) fn record_collisions(&self, pass: &mut wgpu::ComputePass<'_>) {
        if let (Some(c), Some(pipelines)) = (&self.bindings.collisions, &self.pipelines.collisions)
        {
            c.pass.record(pipelines, pass);
        }
    }

    /// One submission of `count` steps (the uniforms written); `publish` adds the dispatch that
    /// writes the public position and velocity buffers.
    fn submit_steps(&self, count: u64, publish: bool) -> Result<()> {
        let p = &self.pipelines;
        pass::run_pass(&self.device, &self.queue, "hooke::step", |pass| {
            for j in 0..count {
                let offset = (self.plan.step_stride * j) as u32;
                for chunk in &self.bindings.chunks {
                    pass.set_pipeline(&p.springs);
                    pass.set_bind_group(0, &chunk.springs, &[]);
                    pass.set_bind_group(1, &self.bindings.step, &[offset]);
                    pass.dispatch_workgroups(chunk.dispatch.x, chunk.dispatch.y, 1);
                }
                self.record_collisions(pass);
                let d = self.plan.mass_dispatch;
                self.record_simple(pass, Simple::Integrate, d, Some(offset));
            }
            if publish {
                self.record_publish(pass);
            }
        })
    }

    /// Records the dispatch that writes the public position and velocity buffers.
    fn record_publish(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.record_simple(pass, Simple::Publish, self.plan.mass_dispatch, None);
    }

    /// Records one dispatch `d` of `kernel`, with the step uniform at `step` (a byte offset)
    /// when it is stepped.
    pub(super) fn record_simple(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        kernel: Simple,
        d: Dispatch,
        step: Option<u32>,
    ) {
        pass.set_pipeline(self.pipelines.simple(kernel));
        pass.set_bind_group(0, &self.bindings.simple(kernel).group, &[]);
        if let Some(offset) = step {
            pass.set_bind_group(1, &self.bindings.step, &[offset]);
        }
        pass.dispatch_workgroups(d.x, d.y, 1);
    }
}
