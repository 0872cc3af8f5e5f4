//! Sensors on the GPU ([`World::sense`]): the contact recording `integrate` compiles in when a
//! sensor first asks for contacts, the model offsets the orientation needs, and one call's
//! dispatches and readback.

use glam::DVec3;

use super::World;
use crate::error::Result;
use crate::gpu::kernel::Kernel;
use crate::gpu::kernels::sense::{
    readings, request_words, SenseInputs, SensePass, SenseRequest, BODIES, GATHER,
};
use crate::gpu::kernels::Simple;
use crate::gpu::layout::Vec4;
use crate::gpu::pass;
use crate::gpu::pipelines::compile;
use crate::sensors::{check, Readings, SensorSpec};

impl World {
    /// Reads what `spec` asks for (see [`crate::sensors`]): at most two dispatches
    /// (`sense_bodies`, one workgroup per body; `sense_gather`, one invocation per contact and
    /// spring) and one readback of only the requested values. The request table is uploaded
    /// only when `spec` differs from the last call's. The first call that asks for contacts
    /// compiles the contact recording into `integrate` and reads zeros; from the next step on
    /// they are the last step's. Strains use the rest lengths of [`World::rest_lengths`] (host, f64; only the
    /// requested springs').
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] naming the first body, mass or spring of `spec` out of
    /// range; GPU errors as [`World::energy`].
    pub fn sense(&mut self, spec: &SensorSpec) -> Result<Readings> {
        check(
            spec,
            self.model.bodies.len(),
            self.model.masses.len(),
            self.springs.springs.len(),
        )?;
        self.check_alive()?;
        if !spec.contacts.is_empty() && !self.sense_state.contacts {
            self.record_contacts()?;
        }
        if spec.orientation && !spec.bodies.is_empty() && self.sense_state.model_offsets.is_none() {
            self.upload_model_offsets();
        }
        self.prepare_request(spec)?;
        let sense = self.sense_state.pass.as_ref().expect("prepared");
        let request = sense.request.as_ref().expect("prepared");
        if request.out_bytes == 0 {
            return Ok(Readings {
                time: self.run.time,
                ..Readings::default()
            });
        }
        pass::run_pass(&self.device, &self.queue, "hooke::sense", |p| {
            if let Some(d) = request.bodies {
                p.set_pipeline(&sense.bodies.pipeline);
                p.set_bind_group(0, &request.group, &[]);
                p.dispatch_workgroups(d.x, d.y, 1);
            }
            if let Some(d) = request.gather {
                p.set_pipeline(&sense.gather.pipeline);
                p.set_bind_group(0, &request.group, &[]);
                p.dispatch_workgroups(d.x, d.y, 1);
            }
        })?;
        let bytes = self.read(&[(&request.out, 0, request.out_bytes)])?;
        let words: Vec<f64> = self.plan.precision.decode(&bytes);
        let counts: Vec<usize> = spec
            .bodies
            .iter()
            .map(|&b| self.model.bodies[b].masses.len())
            .collect();
        let rest_lengths = |springs: &[usize]| self.rest_lengths_of(springs);
        Ok(readings(
            spec,
            &words,
            request.pieces,
            &counts,
            rest_lengths,
            self.run.time,
        ))
    }

    /// Compiles the sensor kernels (once) and builds the request of `spec` unless the last one
    /// was for the same spec and buffers.
    fn prepare_request(&mut self, spec: &SensorSpec) -> Result<()> {
        if self.sense_state.pass.is_none() {
            let constants = crate::gpu::layout::constants(&self.pipelines.specialization);
            let compile = compile(&self.plan, &constants);
            let step = &self.bindings.step_layout;
            let bodies = Kernel::new(&self.device, &compile, &BODIES, step);
            let gather = Kernel::new(&self.device, &compile, &GATHER, step);
            self.sense_state.pass = Some(SensePass {
                bodies,
                gather,
                request: None,
            });
        }
        let sense = self.sense_state.pass.as_ref().expect("just made");
        if sense.request.as_ref().is_some_and(|r| r.spec == *spec) {
            return Ok(());
        }
        let words = request_words(
            spec,
            |b| {
                let r = &self.model.bodies[b].masses;
                (r.start as u32, r.len() as u32)
            },
            |s| [self.springs.springs[s].a, self.springs.springs[s].b],
        );
        let b = &self.buffers;
        let inputs = SenseInputs {
            masses: &b.masses,
            positions: &b.positions,
            velocities: &b.velocities,
            model_offsets: self
                .sense_state
                .model_offsets
                .as_ref()
                .unwrap_or(&b.contacts),
            contacts: &b.contacts,
        };
        let request = SenseRequest::new(
            &self.device,
            &sense.bodies,
            spec,
            &words,
            &inputs,
            &self.plan,
        )?;
        self.sense_state.pass.as_mut().expect("just made").request = Some(request);
        Ok(())
    }

    /// Turns on the contact recording: a zeroed record per mass, `integrate` rebuilt with
    /// `CONTACTS` and bound to it; the sensor request is rebuilt to bind it too. A World that
    /// fused its steps runs the two passes from then on.
    pub(super) fn record_contacts(&mut self) -> Result<()> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        self.pipelines.specialization.contacts = true;
        self.buffers.contacts = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::contacts"),
            size: self
                .plan
                .precision
                .bytes::<Vec4>(self.model.masses.len().max(1) as u64),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.pipelines
            .recompile(&self.device, &self.plan, &self.bindings, Simple::Integrate);
        self.bindings
            .rebind(&self.device, Simple::Integrate, &self.buffers);
        self.sense_state.contacts = true;
        // The fused steps kernel was compiled without contacts: two passes from now on.
        self.bindings.fused = None;
        self.pipelines.steps = None;
        if let Some(p) = &mut self.sense_state.pass {
            p.request = None;
        }
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(pass::gpu_error(e));
        }
        Ok(())
    }

    /// Uploads each mass's model position less its body's model centre of mass (f64 sums in
    /// mass order, as on the CPU), for the orientation.
    fn upload_model_offsets(&mut self) {
        let mut offsets: Vec<Vec4> = vec![[0.0; 4]; self.model.masses.len().max(1)];
        for body in &self.model.bodies {
            let masses = &self.model.masses[body.masses.clone()];
            let total: f64 = masses.iter().map(|m| m.mass).sum();
            if total <= 0.0 {
                continue;
            }
            let centre = masses
                .iter()
                .fold(DVec3::ZERO, |acc, m| acc + m.mass * m.position)
                / total;
            for (i, m) in body.masses.clone().zip(masses) {
                offsets[i] = (m.position - centre).extend(0.0).to_array();
            }
        }
        let buffer = wgpu::util::DeviceExt::create_buffer_init(
            &self.device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("hooke::model_offsets"),
                contents: &self.plan.precision.encode(&offsets),
                usage: wgpu::BufferUsages::STORAGE,
            },
        );
        self.sense_state.model_offsets = Some(buffer);
        if let Some(p) = &mut self.sense_state.pass {
            p.request = None;
        }
    }
}
