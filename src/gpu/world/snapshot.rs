//! [`World::snapshot`] and [`World::restore`]: the host's run state and the device's state
//! buffers byte for byte (one readback, one write per buffer), so a restored World steps on
//! with the bits of the one it was taken of (see [`crate::snapshot`]).

use bytemuck::{pod_collect_to_vec, pod_read_unaligned};

use super::World;
use crate::error::Result;
use crate::gpu::layout::{GpuMass, GpuParams};
use crate::gpu::pass;
use crate::snapshot::{stopped, Common, Reader, Snapshot, SnapshotBackend, Writer};

impl World {
    /// The device buffers a step reads that change as the World runs or is edited, by name:
    /// the state records and public state, mass records, actuator table, commands, force sums, status, energy slots, collision forces, the stencil's rest lengths, and the
    /// contacts once a sensor asked for them. (The model's tables never change but through
    /// `set_rest_length`, which the run state records; the parameters uniform is the host's
    /// copy, written back whole; grids and reductions are rebuilt.)
    fn state_buffers(&self) -> Vec<(&'static str, &wgpu::Buffer)> {
        let b = &self.buffers;
        let mut list = vec![
            ("state records", &b.state),
            ("positions", &b.positions),
            ("velocities", &b.velocities),
            ("mass records", &b.masses),
            ("actuator table", &b.actuators),
            ("commands", &b.commands),
            ("force sums", &b.forces),
            ("status", &b.status),
            ("spring energy slots", &b.spring_slots),
            ("mass energy slots", &b.mass_slots),
            ("collision forces", &b.touch),
        ];
        if let Some(s) = &b.stencil {
            list.push(("stencil rest lengths", &s.rests));
        }
        if self.sense_state.contacts {
            list.push(("contacts", &b.contacts));
        }
        list
    }

    /// The whole state the next step depends on (see [`crate::snapshot`]): one readback of
    /// the device's state buffers and the host's run state. Restore it with
    /// [`World::restore`] into this World or another of the same model and precision.
    ///
    /// # Errors
    /// [`Error::Snapshot`](crate::Error::Snapshot) when the World stopped on an error (reset
    /// it first); GPU errors as [`World::positions`].
    pub fn snapshot(&self) -> Result<Snapshot> {
        if let Some(e) = self.failure() {
            return Err(stopped(&e));
        }
        let buffers = self.state_buffers();
        let ranges: Vec<_> = buffers.iter().map(|(_, b)| (*b, 0, b.size())).collect();
        let bytes = self.read(&ranges)?;
        let mut w = Writer::default();
        let run = &self.run;
        w.bytes(bytemuck::cast_slice(&run.gpu_masses));
        w.bytes(bytemuck::bytes_of(&run.params));
        let mut changed: Vec<(usize, f64)> =
            run.rest_changed.iter().map(|(&s, &r)| (s, r)).collect();
        changed.sort_by_key(|c| c.0);
        w.len(changed.len());
        for (s, r) in changed {
            w.u64(s as u64);
            w.f64(r);
        }
        w.bool(self.sense_state.contacts);
        w.common(&Common {
            actuators: run.actuators.clone(),
            commands: run.commands.clone(),
            drag: run.drag,
            energy: [run.host_dissipated, run.host_injected],
            limits: [run.limit, run.initial_limit],
        });
        let mut at = 0;
        w.len(buffers.len());
        for (name, b) in &buffers {
            w.json(name);
            let n = b.size() as usize;
            w.bytes(&bytes[at..at + n]);
            at += n;
        }
        Ok(Snapshot::new(
            SnapshotBackend::Gpu(self.plan.precision),
            self.model.fingerprint,
            (self.model.masses.len(), self.springs.springs.len()),
            (run.steps, run.time),
            w.bytes,
        ))
    }

    /// Puts back the state of `snapshot` (taken of this World or of another World of the same
    /// model and precision): stepping on then gives the same bits as the World it was taken
    /// of, on the same adapter and options. A stopped World steps again.
    ///
    /// # Errors
    /// [`Error::Snapshot`](crate::Error::Snapshot), changing nothing, for a snapshot of the CPU
    /// reference or of the other precision, of a model with other counts or another
    /// [`model_fingerprint`](crate::model_fingerprint), or whose buffers have other sizes than
    /// this World's (other options); GPU errors as [`World::positions`].
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<()> {
        let backend = SnapshotBackend::Gpu(self.plan.precision);
        let counts = (self.model.masses.len(), self.springs.springs.len());
        snapshot.check_fits(backend, self.model.fingerprint, counts.0, counts.1)?;
        self.check_alive()?;
        let mut r = snapshot.reader();
        let saved = self.read_saved(&mut r)?;
        if saved.contacts && !self.sense_state.contacts {
            self.record_contacts()?;
        }
        let buffers = self.read_buffers(&mut r)?;
        r.finish()?;
        self.restore_rest_lengths();
        for &(s, rest) in &saved.changed {
            self.run.rest_changed.insert(s, rest);
            if !self.springs.spring_actuator.contains_key(&(s as u32)) {
                self.write_rest_length(s, rest);
            }
        }
        let list = self.state_buffers();
        for (name, bytes) in &buffers {
            let (_, b) = list.iter().find(|(n, _)| n == name).expect("checked");
            self.queue.write_buffer(b, 0, bytes);
        }
        if self.sense_state.contacts && !saved.contacts {
            pass::clear(
                &self.device,
                &self.queue,
                "hooke::restore",
                &[&self.buffers.contacts],
            );
        }
        let params = self.plan.precision.encode_one(&saved.params);
        self.queue.write_buffer(&self.buffers.params, 0, &params);
        let run = &mut self.run;
        (run.gpu_masses, run.params) = (saved.gpu_masses, saved.params);
        (run.steps, run.time) = (snapshot.steps(), snapshot.time());
        let c = saved.common;
        (run.actuators, run.commands, run.drag) = (c.actuators, c.commands, c.drag);
        [run.host_dissipated, run.host_injected] = c.energy;
        [run.limit, run.initial_limit] = c.limits;
        run.failed = None;
        Ok(())
    }

    /// Reads and checks the run state of a payload of [`World::snapshot`].
    fn read_saved(&self, r: &mut Reader<'_>) -> Result<Saved> {
        let masses = r.bytes("mass records")?;
        if masses.len() != std::mem::size_of_val(self.run.gpu_masses.as_slice()) {
            return Err(r.error("its mass records are not this World's".into()));
        }
        let params = r.bytes("parameters")?;
        if params.len() != std::mem::size_of::<GpuParams>() {
            return Err(r.error("its parameters are not this World's".into()));
        }
        let changed = (0..r.len("changed rest lengths", 16)?)
            .map(|_| {
                let s = r.u64("changed rest lengths")? as usize;
                let rest = r.f64("changed rest lengths")?;
                if s >= self.springs.springs.len() {
                    return Err(r.error(format!(
                        "it changed the rest length of spring {s}, past the model's springs"
                    )));
                }
                Ok((s, rest))
            })
            .collect::<Result<Vec<_>>>()?;
        let contacts = r.bool("contact recording")?;
        let (actuators, commands) = (self.run.actuators.len(), self.run.commands.len());
        let common = r.common(actuators, commands, self.model.masses.len())?;
        Ok(Saved {
            gpu_masses: pod_collect_to_vec::<u8, GpuMass>(masses),
            params: pod_read_unaligned::<GpuParams>(params),
            changed,
            contacts,
            common,
        })
    }

    /// Reads the device buffers of a payload, each checked against this World's by name and
    /// size (after the contact recording is switched on as the snapshot's was).
    fn read_buffers<'a>(&self, r: &mut Reader<'a>) -> Result<Vec<(String, &'a [u8])>> {
        let list = self.state_buffers();
        let count = r.len("device buffers", 16)?;
        if count != list.len() {
            return Err(r.error(format!(
                "it holds {count} device buffers; this World has {} (other options?)",
                list.len()
            )));
        }
        let mut out = Vec::with_capacity(count);
        for (name, b) in list {
            let saved: String = r.json("device buffer name")?;
            let bytes = r.bytes(name)?;
            if saved != name || bytes.len() as u64 != b.size() {
                return Err(r.error(format!(
                    "its device buffer {saved:?} of {} bytes does not fit this World's {name:?} of \
                     {} bytes (a World of other options?)",
                    bytes.len(),
                    b.size()
                )));
            }
            out.push((saved, bytes));
        }
        Ok(out)
    }
}

/// The run state of a payload, read whole before any of it is put back.
struct Saved {
    gpu_masses: Vec<GpuMass>,
    params: GpuParams,
    changed: Vec<(usize, f64)>,
    contacts: bool,
    common: Common,
}
