//! `hooke verify`: reruns a scene with the settings a hash file records and reports the first
//! step, body and mass whose bits differ from the file's.

use std::error::Error;
use std::path::Path;

use hooke::cpu::SimdLevel;
use hooke::{BackendChoice, OpenBackend, Simulation, StateHashes};

use crate::args::VerifyArgs;
use crate::hashes_file::{self, Hashes, Header};
use crate::scene_file;
use crate::world::{on_world, OnWorld};

/// Runs `hooke verify`: `Ok(true)` when every record matches, `Ok(false)` when bits differ
/// (the first difference printed), `Err` when the check could not be made.
pub(crate) fn verify(args: &VerifyArgs) -> Result<bool, Box<dyn Error>> {
    SimdLevel::from_env()?;
    let (header, records) = hashes_file::read(&args.hashes)?;
    let (_, model) = scene_file::load(&args.scene)?;
    let file = args.hashes.display();
    let choice: BackendChoice = header
        .backend
        .parse()
        .map_err(|e| format!("{file} line 1: backend: {e}"))?;
    let f64 = match (choice, header.precision.as_str()) {
        (_, "f64") => true,
        (BackendChoice::Gpu, "f32") => false,
        (_, p) => return Err(format!("{file} line 1: precision {p:?} on {choice}").into()),
    };
    if choice == BackendChoice::Auto {
        return Err(format!("{file} line 1: backend: expected cpu or gpu").into());
    }
    let threads = args.threads.or(header.threads.map(|t| t as u32));
    let backend = crate::eval_run::open(choice, threads)?;
    if backend.adapter() != header.adapter {
        eprintln!(
            "note: the file was written on {}; this is {} (the same bits are promised on the \
             same adapter only: docs/DETERMINISM.md)",
            header.adapter.as_deref().unwrap_or("?"),
            backend.adapter().as_deref().unwrap_or("?")
        );
    }
    let check = Check {
        header: &header,
        records: &records,
        file: &args.hashes,
        backend: &backend,
    };
    // (The CPU reference is f64 whatever `f64` says: only the GPU reads it.)
    on_world(&model, &backend, f64 && choice == BackendChoice::Gpu, check)
}

/// The comparison, on the world the backend builds.
struct Check<'a> {
    header: &'a Header,
    records: &'a [Hashes],
    file: &'a Path,
    backend: &'a OpenBackend,
}

impl OnWorld for Check<'_> {
    type Output = bool;

    fn on<S: Simulation>(self, sim: &mut S) -> Result<bool, Box<dyn Error>> {
        self.check_scene(sim)?;
        let last = self.records.last().map_or(0, |r| r.step);
        let simd = match self.backend {
            OpenBackend::Cpu { .. } => format!(
                ", SIMD {} (the file's: {})",
                SimdLevel::in_force(),
                self.header.simd.as_deref().unwrap_or("?")
            ),
            OpenBackend::Gpu { .. } => String::new(),
        };
        eprintln!(
            "verifying {} records up to step {last} on {}{simd}",
            self.records.len(),
            self.backend.describe()
        );
        if last < self.header.steps {
            eprintln!(
                "note: the file's run stopped at step {last} of {} (it failed there)",
                self.header.steps
            );
        }
        let mut matched: Option<u64> = None;
        for r in self.records {
            if let Err(e) = sim.step(r.step - sim.steps()) {
                println!(
                    "differ: the rerun failed before step {} (the file's run reached it): {e}",
                    r.step
                );
                return Ok(false);
            }
            let h = sim.state_hashes()?;
            if !same(&h, r) {
                let since = matched.map_or_else(
                    || "the first record".to_owned(),
                    |m| format!("step {m} matched"),
                );
                println!(
                    "differ: step {} (t = {} s; {since}): {}",
                    r.step,
                    r.time,
                    self.first_difference(sim, &h, r)?
                );
                return Ok(false);
            }
            matched = Some(r.step);
        }
        let count =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        println!(
            "same: all {} match, up to step {last} ({}, {})",
            count(self.records.len(), "record", "records"),
            count(self.header.bodies.len(), "body", "bodies"),
            count(self.header.masses, "mass", "masses")
        );
        Ok(true)
    }
}

/// Whether the rerun's hashes `h` are the record's.
fn same(h: &StateHashes, r: &Hashes) -> bool {
    h.time.to_bits() == r.time.to_bits() && h.world == r.world && h.bodies == r.bodies
}

impl Check<'_> {
    /// An error unless `sim` is the scene the file was written from (counts, bodies, dt).
    fn check_scene<S: Simulation>(&self, sim: &S) -> Result<(), String> {
        let h = self.header;
        let names: Vec<String> = sim
            .bodies_of_model()
            .iter()
            .map(|b| b.name.clone())
            .collect();
        let ours = (
            sim.mass_count(),
            sim.spring_count(),
            &names,
            sim.dt().to_bits(),
        );
        if ours != (h.masses, h.springs, &h.bodies, h.dt.to_bits()) {
            return Err(format!(
                "{} was written for a scene of {} masses, {} springs, bodies {:?}, dt {} s \
                 ({}); this scene has {} masses, {} springs, bodies {names:?}, dt {} s",
                self.file.display(),
                h.masses,
                h.springs,
                h.bodies,
                h.dt,
                h.scene,
                sim.mass_count(),
                sim.spring_count(),
                sim.dt()
            ));
        }
        Ok(())
    }

    /// What differs first between the rerun (`sim`, hashes `h`) and record `r`: the time, the
    /// first body, and in it the first mass (or its springs' rest lengths).
    fn first_difference<S: Simulation>(
        &self,
        sim: &S,
        h: &StateHashes,
        r: &Hashes,
    ) -> Result<String, Box<dyn Error>> {
        if h.time.to_bits() != r.time.to_bits() {
            return Ok(format!(
                "the time differs (the file's {} s, the rerun's {} s)",
                r.time, h.time
            ));
        }
        let Some(b) = (0..h.bodies.len()).find(|&b| h.bodies[b] != r.bodies[b]) else {
            return Ok(
                "no body differs: a rest length of a spring outside every body (a \
                       joint) differs"
                    .to_owned(),
            );
        };
        let body = &sim.bodies_of_model()[b];
        let which = format!("body {b} {:?}", body.name);
        let Some(file_masses) = &r.masses else {
            return Ok(format!(
                "{which} differs (the file has no per-mass hashes to name the mass: it was \
                 written with --no-mass-hashes)"
            ));
        };
        let ours = sim.mass_hashes()?;
        Ok(
            match body.masses.clone().find(|&m| ours[m] != file_masses[m]) {
                Some(m) => format!(
                "{which} differs; its first differing mass is mass {m} (the body's mass {}): its \
                 position or velocity bits",
                m - body.masses.start
            ),
                None => format!(
                "{which} differs; its masses' positions and velocities match, so a rest length \
                 of its springs {}..{} differs",
                body.springs.start, body.springs.end
            ),
            },
        )
    }
}
