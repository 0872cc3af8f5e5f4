//! The state hash file of `hooke run --hashes` and `hooke verify`: JSON lines, a header then one
//! record per hashed step.
//!
//! ```text
//! {"hooke_state_hashes":1,"hooke":"0.1.0","scene":"scenes/cube.json","backend":"cpu",
//!  "precision":"f64","adapter":null,"threads":2,"simd":"avx2","dt":0.0001,"steps":1000,
//!  "hash_every":100,"masses":8,"springs":28,"bodies":["cube"]}
//! {"step":0,"time":0.0,"world":"<32 hex digits>","bodies":["<32 hex digits>"],"masses":"<8 hex digits per mass>"}
//! ...
//! ```
//!
//! The header (one line, here wrapped) records how the run was made, so `hooke verify` can make
//! it again; each record the step count, the time (s, shortest round-trip form: the same bits
//! read back), the world's and each body's state hash (`hooke::state_hash`) and, unless
//! `--no-mass-hashes`, each mass's 32-bit hash concatenated (8 hex digits per mass, model
//! order), which lets `hooke verify` name the first mass that differs.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use hooke::{Simulation, StateHash};
use serde::{Deserialize, Serialize};

/// The format version this program writes and reads.
pub(crate) const FORMAT: u32 = 1;

/// The first line: how the hashes were made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Header {
    /// The format version ([`FORMAT`]); its key marks the file as a hash file.
    pub(crate) hooke_state_hashes: u32,
    /// The hooke version that wrote the file.
    pub(crate) hooke: String,
    /// The scene file as given on the command line.
    pub(crate) scene: String,
    /// `cpu` or `gpu`.
    pub(crate) backend: String,
    /// `f64` or `f32` (the GPU World's precision; always `f64` on the CPU).
    pub(crate) precision: String,
    /// The GPU adapter (`null` on the CPU).
    pub(crate) adapter: Option<String>,
    /// The CPU reference's threads (`null` on the GPU).
    pub(crate) threads: Option<usize>,
    /// The CPU reference's SIMD level (`null` on the GPU).
    pub(crate) simd: Option<String>,
    /// The time step, s.
    pub(crate) dt: f64,
    /// Steps the run was asked for.
    pub(crate) steps: u64,
    /// Steps between records (and a record at the last step).
    pub(crate) hash_every: u64,
    /// Masses of the model.
    pub(crate) masses: usize,
    /// Springs of the model.
    pub(crate) springs: usize,
    /// The bodies' names, in model order.
    pub(crate) bodies: Vec<String>,
}

/// One hashed step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Record {
    /// The step count.
    pub(crate) step: u64,
    /// The time, s.
    pub(crate) time: f64,
    /// The world's state hash.
    pub(crate) world: String,
    /// Each body's state hash.
    pub(crate) bodies: Vec<String>,
    /// Each mass's 32-bit hash as 8 hex digits, concatenated; absent with `--no-mass-hashes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) masses: Option<String>,
}

/// A record's hashes, parsed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Hashes {
    pub(crate) step: u64,
    pub(crate) time: f64,
    pub(crate) world: StateHash,
    pub(crate) bodies: Vec<StateHash>,
    pub(crate) masses: Option<Vec<u32>>,
}

/// Writes the hash file of a run as it goes.
pub(crate) struct HashWriter {
    out: BufWriter<File>,
    path: PathBuf,
    /// Steps between records.
    pub(crate) every: u64,
    mass_hashes: bool,
}

impl HashWriter {
    /// Creates `path` (and its folders) and writes `header`.
    pub(crate) fn create(path: &Path, header: &Header, mass_hashes: bool) -> Result<Self, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let file =
            File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut w = Self {
            out: BufWriter::new(file),
            path: path.to_owned(),
            every: header.hash_every,
            mass_hashes,
        };
        w.line(&serde_json::to_string(header).map_err(|e| e.to_string())?)?;
        Ok(w)
    }

    /// Writes the record of `sim`'s current state.
    pub(crate) fn record<S: Simulation>(
        &mut self,
        sim: &S,
    ) -> Result<(), Box<dyn std::error::Error>> {
        let h = sim.state_hashes()?;
        let masses = if self.mass_hashes {
            Some(
                sim.mass_hashes()?
                    .iter()
                    .map(|m| format!("{m:08x}"))
                    .collect(),
            )
        } else {
            None
        };
        let record = Record {
            step: h.steps,
            time: h.time,
            world: h.world.to_string(),
            bodies: h.bodies.iter().map(ToString::to_string).collect(),
            masses,
        };
        self.line(&serde_json::to_string(&record)?)?;
        Ok(())
    }

    fn line(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.out, "{text}")
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    /// Flushes the file.
    pub(crate) fn finish(mut self) -> Result<(), String> {
        self.out
            .flush()
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// Reads a hash file: its header and records, checked (format, hashes, one hash per body,
/// mass hashes of the header's mass count, steps increasing). Errors name the file and line.
pub(crate) fn read(path: &Path) -> Result<(Header, Vec<Hashes>), String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = BufReader::new(file).lines().enumerate();
    let at = |line: usize| format!("{} line {}", path.display(), line + 1);
    let Some((n, first)) = lines.next() else {
        return Err(format!("{}: empty; expected a header line", path.display()));
    };
    let first = first.map_err(|e| format!("{}: {e}", at(n)))?;
    let header: Header = serde_json::from_str(&first).map_err(|e| {
        format!(
            "{}: not a hooke state hash header ({e}); `hooke run SCENE --hashes FILE` writes one",
            at(n)
        )
    })?;
    if header.hooke_state_hashes != FORMAT {
        return Err(format!(
            "{}: hash file format {} (this hooke reads format {FORMAT})",
            at(n),
            header.hooke_state_hashes
        ));
    }
    let mut records: Vec<Hashes> = Vec::new();
    for (n, line) in lines {
        let line = line.map_err(|e| format!("{}: {e}", at(n)))?;
        if line.trim().is_empty() {
            continue;
        }
        let record: Record = serde_json::from_str(&line).map_err(|e| format!("{}: {e}", at(n)))?;
        let hashes = parse(&header, record).map_err(|e| format!("{}: {e}", at(n)))?;
        if let Some(last) = records.last().filter(|l| l.step >= hashes.step) {
            return Err(format!(
                "{}: step {} after step {}: steps must increase",
                at(n),
                hashes.step,
                last.step
            ));
        }
        records.push(hashes);
    }
    if records.is_empty() {
        return Err(format!("{}: no records after the header", path.display()));
    }
    Ok((header, records))
}

/// The hashes of `record`, checked against `header`.
fn parse(header: &Header, record: Record) -> Result<Hashes, String> {
    let world = record.world.parse().map_err(|e| format!("world: {e}"))?;
    if record.bodies.len() != header.bodies.len() {
        return Err(format!(
            "{} body hashes for the header's {} bodies",
            record.bodies.len(),
            header.bodies.len()
        ));
    }
    let bodies = record
        .bodies
        .iter()
        .enumerate()
        .map(|(i, b)| b.parse().map_err(|e| format!("bodies[{i}]: {e}")))
        .collect::<Result<Vec<StateHash>, String>>()?;
    let masses = record
        .masses
        .map(|m| mass_hashes(&m, header.masses))
        .transpose()?;
    Ok(Hashes {
        step: record.step,
        time: record.time,
        world,
        bodies,
        masses,
    })
}

/// `count` mass hashes of 8 hex digits each from `text`.
fn mass_hashes(text: &str, count: usize) -> Result<Vec<u32>, String> {
    if text.len() != 8 * count || !text.is_ascii() {
        return Err(format!(
            "masses: {} characters for {count} masses (8 hexadecimal digits each)",
            text.len()
        ));
    }
    (0..count)
        .map(|i| {
            u32::from_str_radix(&text[8 * i..8 * i + 8], 16).map_err(|_| {
                format!(
                    "masses: mass {i}: {:?} is not 8 hexadecimal digits",
                    &text[8 * i..8 * i + 8]
                )
            })
        })
        .collect()
}

impl Header {
    /// The header of a run of `sim` (scene file `scene`) on `backend` (the GPU World in f64 when
    /// `f64`) for `steps` steps, hashed every `hash_every` steps.
    pub(crate) fn new<S: Simulation>(
        sim: &S,
        scene: &Path,
        backend: &hooke::OpenBackend,
        f64: bool,
        (steps, hash_every): (u64, u64),
    ) -> Self {
        let cpu = matches!(backend, hooke::OpenBackend::Cpu { .. });
        Self {
            hooke_state_hashes: FORMAT,
            hooke: env!("CARGO_PKG_VERSION").to_owned(),
            scene: scene.display().to_string(),
            backend: if cpu { "cpu" } else { "gpu" }.to_owned(),
            precision: if cpu || f64 { "f64" } else { "f32" }.to_owned(),
            adapter: backend.adapter(),
            threads: crate::world::cpu_threads(backend),
            simd: cpu.then(|| hooke::cpu::SimdLevel::in_force().to_string()),
            dt: sim.dt(),
            steps,
            hash_every,
            masses: sim.mass_count(),
            springs: sim.spring_count(),
            bodies: sim
                .bodies_of_model()
                .iter()
                .map(|b| b.name.clone())
                .collect(),
        }
    }
}
