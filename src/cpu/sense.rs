//! Sensors on the CPU ([`CpuWorld::sense`]): the sums of `sensors::BodySums` over each body in
//! mass order in f64, the contacts the mass pass records (`integrate.rs`), spring lengths.

use glam::DVec3;

use super::CpuWorld;
use crate::error::Result;
use crate::sensors::{check, BodySums, ContactReading, Readings, SensorSpec, SpringReading};

impl CpuWorld {
    /// Reads what `spec` asks for (see [`crate::sensors`]). The first call that asks for
    /// contacts turns their recording on and reads zeros; from the next step on they are the
    /// last step's, as on the GPU.
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfRange`] naming the first body, mass or spring of `spec` out of
    /// range.
    pub fn sense(&mut self, spec: &SensorSpec) -> Result<Readings> {
        check(
            spec,
            self.model.bodies.len(),
            self.pos.len(),
            self.base_rest.len(),
        )?;
        if !spec.contacts.is_empty() && self.contacts.is_empty() {
            self.contacts = vec![ContactReading::default(); self.pos.len()];
        }
        let rest = self.rest_lengths_of(&spec.springs);
        Ok(Readings {
            time: self.time,
            bodies: spec
                .bodies
                .iter()
                .map(|&b| self.body_sums(b).reading(spec.orientation))
                .collect(),
            contacts: spec.contacts.iter().map(|&i| self.contacts[i]).collect(),
            springs: spec
                .springs
                .iter()
                .zip(rest)
                .map(|(&s, rest)| {
                    let [a, b] = self.springs.ends[s].map(|e| e as usize);
                    SpringReading::new(self.pos[a].distance(self.pos[b]), rest)
                })
                .collect(),
        })
    }

    /// The sums of body `body` relative to its first mass, in mass order.
    fn body_sums(&self, body: usize) -> BodySums {
        let range = self.model.bodies[body].masses.clone();
        let Some(first) = range.clone().next() else {
            return BodySums::default();
        };
        let masses = &self.model.masses[range.clone()];
        let total: f64 = masses.iter().map(|m| m.mass).sum();
        let model_centre = masses
            .iter()
            .fold(DVec3::ZERO, |acc, m| acc + m.mass * m.position)
            / total;
        let mut sums = BodySums {
            reference: self.pos[first],
            ..BodySums::default()
        };
        for (i, m) in range.zip(masses) {
            let r = self.pos[i] - sums.reference;
            sums.add(self.mass[i], r, self.vel[i], m.position - model_centre);
        }
        sums
    }
}
