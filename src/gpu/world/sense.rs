//! Sensors on the GPU ([`World::sense`]): the contact recording `integrate` compiles in when a
//! sensor first asks for contacts, the model offsets the orientation needs, and one call's
//! dispatches and readback.

use glam::DVec3;

use super::World;
use crate::error::Result;
use crate::gpu::layout::{Specialization, Vec4, SENSE_BODY_WORDS};
use crate::gpu::pass;
use crate::gpu::pipelines::{build_kernel, kernel, Compile, Kernel};
use crate::gpu::sense::{
    body_sums, body_words, contact, request_words, SenseInputs, SensePass, SenseRequest,
};
use crate::sensors::{check, Readings, SensorSpec, SpringReading};

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
            self.bodies.len(),
            self.masses.len(),
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
        let mut readings = Readings {
            time: self.time,
            ..Readings::default()
        };
        if request.out_bytes == 0 {
            return Ok(readings);
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
        let pieces = SENSE_BODY_WORDS as usize * request.pieces as usize;
        let (bodies, rest) = words.split_at(pieces);
        let (contacts, lengths) = rest.split_at(4 * spec.contacts.len());
        let counts: Vec<usize> = spec
            .bodies
            .iter()
            .map(|&b| self.bodies[b].masses.len())
            .collect();
        readings.bodies = body_words(bodies, &counts)
            .iter()
            .map(|w| body_sums(w).reading(spec.orientation))
            .collect();
        readings.contacts = contacts.chunks_exact(4).map(contact).collect();
        if !spec.springs.is_empty() {
            let rest_lengths = self.rest_lengths_of(&spec.springs);
            readings.springs = lengths
                .iter()
                .zip(rest_lengths)
                .map(|(&l, rest)| SpringReading::new(l, rest))
                .collect();
        }
        Ok(readings)
    }

    /// Compiles the sensor kernels (once) and builds the request of `spec` unless the last one
    /// was for the same spec and buffers.
    fn prepare_request(&mut self, spec: &SensorSpec) -> Result<()> {
        if self.sense_state.pass.is_none() {
            let bodies = self.compile_kernel("sense_bodies", &self.specialization);
            let gather = self.compile_kernel("sense_gather", &self.specialization);
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
                let r = &self.bodies[b].masses;
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

    /// The pipeline of kernel `stem` under `spec`.
    fn compile_kernel(&self, stem: &str, spec: &Specialization) -> Kernel {
        let constants = crate::gpu::layout::constants(spec);
        let compile = Compile {
            bits: self.plan.fixed_point.bits,
            wide: self.plan.wide_words,
            packed: self.plan.packed_forces,
            precision: self.plan.precision,
            constants: &constants,
        };
        let k = kernel(stem);
        build_kernel(
            &self.device,
            &compile,
            &self.pipelines.step_layout,
            k,
            stem,
            k.body,
        )
    }

    /// Turns on the contact recording: a zeroed record per mass, `integrate` rebuilt with
    /// `CONTACTS` and bound to it; the sensor request is rebuilt to bind it too. A World that
    /// fused its steps runs the two passes from then on.
    fn record_contacts(&mut self) -> Result<()> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        self.specialization.contacts = true;
        self.buffers.contacts = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::contacts"),
            size: self
                .plan
                .precision
                .bytes::<Vec4>(self.masses.len().max(1) as u64),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.pipelines.integrate = self.compile_kernel("integrate", &self.specialization);
        self.groups.integrate = crate::gpu::bind::integrate_group(
            &self.device,
            &self.pipelines.integrate,
            &self.buffers,
        );
        self.sense_state.contacts = true;
        // The fused steps kernel was compiled without contacts: two passes from now on.
        self.fused = None;
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
        let mut offsets: Vec<Vec4> = vec![[0.0; 4]; self.masses.len().max(1)];
        for body in &self.bodies {
            let masses = &self.masses[body.masses.clone()];
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
