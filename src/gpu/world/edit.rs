//! Setters: small buffer writes at offsets taken from the device mirrors.

use glam::DVec3;

use super::World;
use crate::error::{Error, Result};
use crate::gpu::kernels::springs_stencil::slot_code;
use crate::gpu::layout::field_offset;
use crate::gpu::layout::{GpuActuator, GpuMass, GpuState, Vec4};
use crate::gpu::plan::springs::link_bytes;
use crate::gpu::real::Precision;
use crate::gpu::tables::f32_range::{fits_f32, fits_f32_vec};
use crate::gpu::tables::{gpu_actuator, gpu_params, mass_flags, v3, Counts};
use crate::model::spring_law::{divides_by_rest, effective, elastic};
use crate::model::DragSpring;
use crate::model::{check_same_kind, Actuator, Spring};

impl World {
    fn check_index(what: &'static str, index: usize, len: usize) -> Result<()> {
        if index < len {
            Ok(())
        } else {
            Err(Error::IndexOutOfRange { what, index, len })
        }
    }

    /// Whether the device holds reals in f32 (then the setters check f32's range).
    fn in_f32(&self) -> bool {
        self.plan.precision == Precision::F32
    }

    /// Sets the constant external force on mass `mass` to `force` (N) from the next step on
    /// (a 12-byte buffer write, 24 bytes in f64).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass; [`Error::InvalidParameter`] for a
    /// non-finite force; [`Error::OutOfF32Range`] for one above f32's range in f32.
    pub fn set_external_force(&mut self, mass: usize, force: DVec3) -> Result<()> {
        Self::check_index("mass", mass, self.model.masses.len())?;
        if !force.is_finite() {
            return Err(Error::InvalidParameter {
                name: "external force",
                value: f64::NAN,
                expected: "must be finite (N)",
            });
        }
        if self.in_f32() {
            fits_f32_vec(|| format!("mass {mass}"), "external_force", force)?;
        }
        self.run
            .limit
            .external_force(self.model.masses[mass].mass, force);
        self.run.gpu_masses[mass].external_force = v3(force);
        let real = self.plan.precision;
        self.queue.write_buffer(
            &self.buffers.masses,
            real.bytes::<GpuMass>(mass as u64) + field_offset!(real, GpuMass, external_force),
            &real.encode_one(&self.run.gpu_masses[mass].external_force),
        );
        Ok(())
    }

    /// Sets or clears the drag spring (a 96-byte uniform write, 192 in f64). Setting one reads the
    /// dragged mass's position back (16 bytes, 32 in f64): its stored energy `k d^2 / 2` (`d` the
    /// distance to the target) raises the blow-up bound, as on the CPU.
    ///
    /// # Errors
    /// What [`DragSpring::validate`] rejects; [`Error::OutOfF32Range`] for a target, stiffness
    /// or damping above f32's range in f32; GPU errors as [`World::positions`].
    pub fn set_drag(&mut self, drag: Option<DragSpring>) -> Result<()> {
        if let Some(d) = &drag {
            d.validate(self.model.masses.len())?;
            if self.in_f32() {
                let element = || format!("drag spring on mass {}", d.mass);
                fits_f32_vec(element, "target", d.target)?;
                fits_f32(element, "stiffness", d.stiffness)?;
                fits_f32(element, "damping", d.damping)?;
            }
            let p = self.read_vec4(&self.buffers.positions, d.mass as u32)?;
            self.run.limit.inject(d.energy(DVec3::from_slice(&p[..3])));
        }
        self.run.drag = drag;
        let counts = Counts {
            masses: self.run.params.masses,
            springs: self.run.params.springs,
            bodies: self.run.params.bodies,
        };
        self.run.params = gpu_params(&self.model.params, drag, counts);
        let params = self.plan.precision.encode_one(&self.run.params);
        self.queue.write_buffer(&self.buffers.params, 0, &params);
        Ok(())
    }

    /// Element `mass` of the public position or velocity buffer `buffer`.
    fn read_vec4(&self, buffer: &wgpu::Buffer, mass: u32) -> Result<Vec4> {
        let real = self.plan.precision;
        let at = real.bytes::<Vec4>(u64::from(mass));
        let bytes = self.read(&[(buffer, at, real.bytes::<Vec4>(1))])?;
        Ok(real.decode::<Vec4>(&bytes)[0])
    }

    /// Fixes or frees a mass (a 4-byte write). A newly fixed mass stops dead: its kinetic energy
    /// is booked as dissipated, as on the CPU (this reads its velocity back, 16 bytes, 32 in
    /// f64).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass; GPU errors as [`World::positions`].
    pub fn set_fixed(&mut self, mass: usize, fixed: bool) -> Result<()> {
        Self::check_index("mass", mass, self.model.masses.len())?;
        let m = mass as u64;
        let real = self.plan.precision;
        if fixed {
            let v = self.read_vec4(&self.buffers.velocities, mass as u32)?;
            let v = DVec3::from_slice(&v[..3]);
            self.run.host_dissipated += 0.5 * self.model.masses[mass].mass * v.length_squared();
            self.queue.write_buffer(
                &self.buffers.velocities,
                real.bytes::<Vec4>(m),
                &real.encode_one(&Vec4::default()),
            );
            self.queue.write_buffer(
                &self.buffers.state,
                real.bytes::<GpuState>(m) + field_offset!(real, GpuState, velocity),
                &real.encode_one(&[0f64; 3]),
            );
        }
        let flags = mass_flags(fixed);
        self.run.gpu_masses[mass].flags = flags;
        self.queue.write_buffer(
            &self.buffers.masses,
            real.bytes::<GpuMass>(m) + field_offset!(real, GpuMass, flags),
            bytemuck::bytes_of(&flags),
        );
        Ok(())
    }

    /// Sets the (base) rest length of spring `spring` to `rest_length` (m); for an actuated spring
    /// this is the base length the actuator modulates. The change in elastic energy is booked as
    /// injected work: at once for a plain spring (reading its two end positions back, 32 bytes),
    /// at the next step for an actuated one (the spring pass books every change of an actuated
    /// rest length).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing spring; [`Error::InvalidSpringParameter`] for a
    /// negative or non-finite length, [`Error::ZeroRestLength`] for zero on a material-law spring;
    /// GPU errors as [`World::positions`].
    pub fn set_rest_length(&mut self, spring: usize, rest_length: f64) -> Result<()> {
        Self::check_index("spring", spring, self.springs.springs.len())?;
        if !(rest_length.is_finite() && rest_length >= 0.0) {
            return Err(Error::InvalidSpringParameter {
                spring,
                name: "rest_length",
                value: rest_length,
            });
        }
        if divides_by_rest(self.springs.laws[spring]) && rest_length == 0.0 {
            return Err(Error::ZeroRestLength { spring });
        }
        if self.in_f32() {
            fits_f32(|| format!("spring {spring}"), "rest_length", rest_length)?;
        }
        let driver = self
            .springs
            .spring_actuator
            .get(&(spring as u32))
            .map(|&a| self.run.actuators[a as usize]);
        let (old, masses) = (self.model_spring(spring), self.spring_masses(spring));
        self.run
            .limit
            .rest_length(&old, rest_length, driver.as_ref(), masses);
        if let Some(&act) = self.springs.spring_actuator.get(&(spring as u32)) {
            self.run.rest_changed.insert(spring, rest_length);
            let (i, slot) = (act as usize, self.run.command_slot[act as usize]);
            let entry = gpu_actuator(
                &self.run.actuators[i],
                rest_length,
                self.run.time,
                slot,
                self.command(i),
            );
            self.write_actuator(act as usize, &entry);
            return Ok(());
        }
        let before = self.base_rest(spring);
        let len = self.spring_length(spring)?;
        self.run.host_injected += self.elastic_energy(spring, len, rest_length)
            - self.elastic_energy(spring, len, before);
        self.run.rest_changed.insert(spring, rest_length);
        self.write_rest_length(spring, rest_length);
        Ok(())
    }

    /// Writes the rest length (m) of plain spring `spring` to its link and its stencil slot.
    pub(super) fn write_rest_length(&self, spring: usize, rest_length: f64) {
        let real = self.plan.precision;
        let sp = crate::gpu::layout::GpuSpring {
            rest: rest_length,
            ..self.springs.springs[spring]
        };
        self.queue.write_buffer(
            &self.buffers.links,
            link_bytes(real) * self.plan.springs.links.link(spring),
            &self.plan.springs.links.record(spring, &sp, real),
        );
        if let (Some(st), Some(sb)) = (&self.plan.springs.stencil, &self.buffers.stencil) {
            if let Some(at) = st.element(spring, &sp) {
                self.queue.write_buffer(
                    &sb.rests,
                    real.bytes::<f64>(at),
                    &real.encode_one(&slot_code(&sp, real)),
                );
            }
        }
    }

    /// Spring `spring` as a model spring (stiffness and damping as the device holds them, its
    /// base rest length).
    fn model_spring(&self, spring: usize) -> Spring {
        let sp = self.springs.springs[spring];
        let material = self.springs.materials[sp.material as usize];
        let real = self.plan.precision;
        Spring {
            a: sp.a,
            b: sp.b,
            law: self.springs.laws[spring],
            stiffness: real.round(material.stiffness),
            damping: real.round(material.damping),
            rest_length: self.base_rest(spring),
        }
    }

    /// The masses (kg) at the two ends of spring `spring`.
    fn spring_masses(&self, spring: usize) -> [f64; 2] {
        let sp = self.springs.springs[spring];
        [sp.a, sp.b].map(|m| self.model.masses[m as usize].mass)
    }

    /// The current length (m) of spring `spring`, from its two end positions read back.
    fn spring_length(&self, spring: usize) -> Result<f64> {
        let sp = self.springs.springs[spring];
        let real = self.plan.precision;
        let one = real.bytes::<Vec4>(1);
        let positions = &self.buffers.positions;
        let bytes = self.read(&[
            (positions, real.bytes::<Vec4>(u64::from(sp.a)), one),
            (positions, real.bytes::<Vec4>(u64::from(sp.b)), one),
        ])?;
        let p: Vec<Vec4> = real.decode(&bytes);
        Ok(DVec3::from_slice(&p[0][..3]).distance(DVec3::from_slice(&p[1][..3])))
    }

    /// Elastic energy (J) of plain spring `spring` at length `len` (m) with rest length `rest`
    /// (m).
    fn elastic_energy(&self, spring: usize, len: f64, rest: f64) -> f64 {
        let sp = self.springs.springs[spring];
        let k = self
            .plan
            .precision
            .round(self.springs.materials[sp.material as usize].stiffness);
        let (k_eff, rest) = effective(self.springs.laws[spring], k, rest);
        elastic(k_eff, rest, len)
    }

    /// Replaces actuator `index` (a 32-byte write). Its `spring` must be the spring it already
    /// drives. The change in elastic energy is booked as injected work by the next step.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing actuator; [`Error::InvalidActuator`] for
    /// non-finite values, `|amplitude| >= 1`, a bad duty cycle, a different spring, or a change
    /// between sine and commanded (the commands are laid out when the World is built).
    pub fn set_actuator(&mut self, index: usize, actuator: Actuator) -> Result<()> {
        Self::check_index("actuator", index, self.run.actuators.len())?;
        let old = self.run.actuators[index];
        if actuator.spring != old.spring {
            return Err(Error::InvalidActuator {
                actuator: index,
                reason: format!(
                    "drives spring {}, but a World cannot move an actuator to another spring \
                     (it drives spring {}); build a new World",
                    actuator.spring, old.spring
                ),
            });
        }
        actuator.check(index, self.spring_count())?;
        check_same_kind(index, &old, &actuator)?;
        let s = actuator.spring as usize;
        if self.in_f32() {
            fits_f32(|| format!("actuator {index}"), "omega", actuator.omega)?;
        }
        self.run
            .limit
            .actuator(&self.model_spring(s), &actuator, self.spring_masses(s));
        self.run.actuators[index] = actuator;
        let base = self.base_rest(actuator.spring as usize);
        let (slot, command) = (self.run.command_slot[index], self.command(index));
        let entry = gpu_actuator(&actuator, base, self.run.time, slot, command);
        self.write_actuator(index, &entry);
        Ok(())
    }

    /// Writes actuator `index` but its `current` rest length: the next spring pass books the
    /// change from the booked one.
    fn write_actuator(&self, index: usize, entry: &GpuActuator) {
        let real = self.plan.precision;
        let bytes = real.encode_one(entry);
        self.queue.write_buffer(
            &self.buffers.actuators,
            real.bytes::<GpuActuator>(index as u64),
            &bytes[..field_offset!(real, GpuActuator, current) as usize],
        );
    }
}
