//! [`CpuWorld::snapshot`] and [`CpuWorld::restore`]: the fields a step reads that the model
//! does not fix, written in one order and read back in the same (see [`crate::snapshot`]).

use glam::DVec3;

use super::CpuWorld;
use crate::error::Result;
use crate::sensors::ContactReading;
use crate::snapshot::{
    model_fingerprint, stopped, Common, Reader, Snapshot, SnapshotBackend, Writer,
};

/// What a snapshot's payload holds, read whole before any of it is put back.
struct Saved {
    pos: Vec<DVec3>,
    vel: Vec<DVec3>,
    fixed: Vec<bool>,
    external: Vec<DVec3>,
    base_rest: Vec<f64>,
    rest: Vec<f64>,
    sines: Vec<f64>,
    contacts: Vec<ContactReading>,
    track_energy: bool,
    rest_behind: bool,
    common: Common,
}

impl CpuWorld {
    /// The whole state the next step depends on (see [`crate::snapshot`]); restore it with
    /// [`CpuWorld::restore`] into this world or another built from the same model.
    ///
    /// # Errors
    /// [`Error::Snapshot`](crate::Error::Snapshot) when the world stopped on an error (reset
    /// it first).
    pub fn snapshot(&self) -> Result<Snapshot> {
        if let Some(f) = self.failed {
            return Err(stopped(&self.failure_error(f)));
        }
        let mut w = Writer::default();
        w.vec3s(&self.pos);
        w.vec3s(&self.vel);
        w.bytes(&self.fixed.iter().map(|&f| u8::from(f)).collect::<Vec<_>>());
        w.vec3s(&self.external);
        w.f64s(&self.base_rest);
        w.f64s(&self.springs.rest);
        w.f64s(self.waves.sines());
        w.len(self.contacts.len());
        for c in &self.contacts {
            w.bool(c.touching);
            w.vec3s(&[c.normal_force]);
        }
        w.bool(self.track_energy);
        w.bool(self.rest_behind);
        w.common(&Common {
            actuators: self.actuators.clone(),
            commands: self.commands.clone(),
            drag: self.drag,
            energy: [self.dissipated, self.injected],
            limits: [self.limit, self.initial_limit],
        });
        Ok(Snapshot::new(
            SnapshotBackend::Cpu,
            model_fingerprint(&self.model),
            (self.pos.len(), self.base_rest.len()),
            (self.steps, self.time),
            w.bytes,
        ))
    }

    /// Puts back the state of `snapshot` (taken of this world or of another [`CpuWorld`] of
    /// the same model): stepping on then gives the same bits as the world it was taken of.
    /// The world's options ([`CpuWorld::set_threads`], the SIMD walks) stay its own; a stopped
    /// world steps again.
    ///
    /// # Errors
    /// [`Error::Snapshot`](crate::Error::Snapshot), changing nothing, for a snapshot of the GPU
    /// World, of a model with other counts or another [`model_fingerprint`], or whose payload
    /// does not read back.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<()> {
        let (n, s) = (self.pos.len(), self.base_rest.len());
        snapshot.check_fits(SnapshotBackend::Cpu, model_fingerprint(&self.model), n, s)?;
        let saved = self.read_saved(&mut snapshot.reader())?;
        self.pos = saved.pos;
        self.vel = saved.vel;
        self.fixed = saved.fixed;
        self.external = saved.external;
        self.base_rest = saved.base_rest;
        self.contacts = saved.contacts;
        self.track_energy = saved.track_energy;
        (self.steps, self.time) = (snapshot.steps(), snapshot.time());
        let c = saved.common;
        (self.actuators, self.commands, self.drag) = (c.actuators, c.commands, c.drag);
        [self.dissipated, self.injected] = c.energy;
        [self.limit, self.initial_limit] = c.limits;
        self.failed = None;
        // The tables made from the actuators and base lengths, then the stored rest lengths and
        // wave values exactly as the snapshot's last step left them.
        self.rest_behind = false;
        self.find_actuated_springs();
        for (i, &r) in saved.rest.iter().enumerate() {
            self.set_effective(i, r);
        }
        self.waves.set_sines(&saved.sines);
        self.rest_behind = saved.rest_behind;
        Ok(())
    }

    /// Reads and checks a payload of [`CpuWorld::snapshot`] against this world's counts.
    fn read_saved(&self, r: &mut Reader<'_>) -> Result<Saved> {
        let (n, s) = (self.pos.len(), self.base_rest.len());
        let pos = r.vec3s("positions", Some(n))?;
        let vel = r.vec3s("velocities", Some(n))?;
        let fixed = r.bytes("fixed flags")?;
        if fixed.len() != n {
            return Err(r.error(format!("it has {} fixed flags for {n} masses", fixed.len())));
        }
        let fixed = fixed.iter().map(|&f| f != 0).collect();
        let external = r.vec3s("external forces", Some(n))?;
        let base_rest = r.f64s("base rest lengths", Some(s))?;
        let rest = r.f64s("rest lengths", Some(s))?;
        let sines = r.f64s("wave values", None)?;
        let contacts = (0..r.len("contacts", 25)?)
            .map(|_| {
                Ok(ContactReading {
                    touching: r.bool("contacts")?,
                    normal_force: r.vec3s("contacts", Some(1))?[0],
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let (track_energy, rest_behind) = (r.bool("energy booking")?, r.bool("rest lengths")?);
        let common = r.common(self.actuators.len(), self.commanded_count(), n)?;
        r.finish()?;
        let waves = super::waves::Waves::new(&common.actuators).sines().len();
        if sines.len() != waves {
            return Err(r.error(format!(
                "it has {} wave values, expected {waves}",
                sines.len()
            )));
        }
        Ok(Saved {
            pos,
            vel,
            fixed,
            external,
            base_rest,
            rest,
            sines,
            contacts,
            track_energy,
            rest_behind,
            common,
        })
    }
}
