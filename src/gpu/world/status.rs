//! What the step kernels report in the status buffer (a state that turned non-finite or passed
//! the blow-up bound, a fixed-point overflow), device loss, and the errors a stopped World
//! returns.

use glam::DVec3;

use super::{Failure, World};
use crate::error::{Error, Result};
use crate::gpu::layout::{array_bytes, GpuState, GpuStatus};
use crate::model::BlowUp;

impl World {
    /// [`Error::DeviceLost`] once the device is gone.
    pub(super) fn check_alive(&self) -> Result<()> {
        if let Some(reason) = self.lost.lock().ok().and_then(|l| l.clone()) {
            return Err(Error::DeviceLost { reason });
        }
        Ok(())
    }

    /// The error of a stopped World.
    pub(super) fn failure(&self) -> Option<Error> {
        self.run.failed.as_ref().map(|f| match *f {
            Failure::NonFinite { mass, step, time } => Error::NonFinite { mass, step, time },
            Failure::BlowUp(b) => b.error(self.model.params.dt, &self.model.stable),
            Failure::Overflow { step, spring } => self.overflow_error(step, spring),
        })
    }

    /// Reads the status buffer.
    pub(super) fn read_status(&self) -> Result<GpuStatus> {
        let bytes = self.read(&[(&self.buffers.status, 0, array_bytes::<GpuStatus>(1))])?;
        Ok(bytemuck::pod_read_unaligned(&bytes))
    }

    /// Position (m) and velocity (m/s) of mass `mass` in the state records (32 bytes read, 64
    /// in f64).
    fn read_state(&self, mass: usize) -> Result<(DVec3, DVec3)> {
        let real = self.plan.precision;
        let at = real.bytes::<GpuState>(mass as u64);
        let bytes = self.read(&[(&self.buffers.state, at, real.bytes::<GpuState>(1))])?;
        let st: GpuState = real.decode(&bytes)[0];
        Ok((DVec3::from(st.position), DVec3::from(st.velocity)))
    }

    /// Stops the World on what `status` reports after a round of `n` steps that started at
    /// step `start_steps` and time `start_time` (s), or moves it to the round's end.
    pub(super) fn settle_round(
        &mut self,
        status: GpuStatus,
        n: u64,
        start_steps: u64,
        start_time: f64,
        end_time: f64,
    ) -> Result<()> {
        let dt = self.model.params.dt;
        let time_at = |k: u64| {
            // Time at the start of step k (1-based) of this round, summed as the CPU sums it.
            let mut t = start_time;
            for _ in 1..k {
                t += dt;
            }
            t
        };
        if status.overflow_step != u32::MAX && status.overflow_step <= status.bad_step {
            // The overflowing step was not integrated: the state is that after step k - 1.
            let k = u64::from(status.overflow_step);
            self.run.time = time_at(k);
            self.run.steps = start_steps + k - 1;
            self.run.failed = Some(Failure::Overflow {
                step: start_steps + k,
                spring: self.spring_of_code(status.overflow_spring),
            });
            return Err(self.failure().expect("just set"));
        }
        if status.bad_step != u32::MAX {
            let k = u64::from(status.bad_step);
            let t0 = time_at(k);
            self.run.time = t0 + dt;
            self.run.steps = start_steps + k;
            let mass = status.bad_mass as usize;
            // Non-finite or over the blow-up bound: the failing mass's state tells which, as on
            // the CPU.
            let (x, v) = self.read_state(mass)?;
            self.run.failed = Some(if x.is_finite() && v.is_finite() {
                let mass_kg = self.run.gpu_masses[mass].mass;
                Failure::BlowUp(BlowUp {
                    mass,
                    step: self.run.steps,
                    time: t0,
                    speed: v.length(),
                    limit: self.run.limit.speed(mass_kg, self.run.time),
                })
            } else {
                Failure::NonFinite {
                    mass,
                    step: self.run.steps,
                    time: t0,
                }
            });
            return Err(self.failure().expect("just set"));
        }
        self.run.time = end_time;
        self.run.steps = start_steps + n;
        Ok(())
    }

    /// The model spring of an overflow code the spring pass reported: a link index, or in the
    /// stencil variant from the link count on, a (mass, slot) code.
    pub(super) fn spring_of_code(&self, code: u32) -> u32 {
        let links = self.springs.springs.len() as u32;
        match &self.plan.springs.stencil {
            Some(st) if code >= links => st.spring_of(code - links),
            _ => self.plan.springs.links.spring(code),
        }
    }

    pub(super) fn overflow_error(&self, step: u64, spring: u32) -> Error {
        let fp = self.plan.fixed_point;
        Error::FixedPointOverflow {
            step,
            spring: spring as usize,
            mass: self.springs.springs[spring as usize].a as usize,
            limit_newtons: fp.mass_range,
            advice: format!(
                "Spring {spring} exerted a force component above the per-spring bound of {:.6e} N \
                 ({}-bit atomics, quantum {:.3e} N, up to {} springs per mass). Set \
                 WorldOptions::fixed_point = FixedPointScale::Quantum(q) with q larger than {:.3e} \
                 N for more range{}, or check the model for a spring that explodes (dt too large \
                 for its stiffness).",
                fp.spring_limit,
                fp.bits,
                fp.quantum,
                fp.max_incidence,
                fp.quantum,
                if fp.bits == 32 {
                    ", or use a device with SHADER_INT64_ATOMIC_ALL_OPS (64-bit atomics)"
                } else {
                    ""
                }
            ),
        }
    }
}
