//! Snapshots: the whole state a world's next step depends on, taken with
//! [`Simulation::snapshot`](crate::Simulation::snapshot) and put back with
//! [`Simulation::restore`](crate::Simulation::restore), in memory, as bytes or as a file.
//! Restoring a snapshot and stepping `N` steps gives the same bits as stepping straight through
//! (docs/DETERMINISM.md, "Checkpoints").
//!
//! # What a snapshot holds
//!
//! Everything a step reads that is not the model itself: the step count and time (s), every
//! mass's position (m) and velocity (m/s), the setters' changes (external forces in N, fixed
//! flags, base rest lengths in m, actuators, commands, the drag spring), every spring's rest
//! length as the last step left it, the muscles' wave values, the energy books (dissipated
//! and injected, J, and whether they are kept), the blow-up bound, the contacts the sensors
//! read, and on the GPU the device's state buffers byte for byte (state records, mass records,
//! actuator table, energy slots, collision forces, status). Friction keeps no state between
//! steps (it is decided from each step's velocities), and the collision pass rebuilds its grid
//! every step, so there is nothing more of theirs to keep.
//!
//! What it does not hold: the model (a snapshot is restored into a world built from the same
//! model, which the snapshot checks by its counts and a fingerprint,
//! [`model_fingerprint`]), the world's options (threads, SIMD walks, the GPU's fixed-point
//! encoding: the world restored into keeps its own), and the state of a user's controller
//! ([`Controller`](crate::Controller) objects keep their own and must save it themselves).
//!
//! A world that stopped on an error (a blow-up, a non-finite state, a fixed-point overflow)
//! refuses to be snapshotted; restoring into such a world clears its error.
//!
//! # The byte format (version 1)
//!
//! All numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `HOOKESNP` |
//! | 4 | format version, `u32` (1) |
//! | 1 | backend: 0 the CPU reference (f64), 1 the GPU World in f32, 2 the GPU World in f64 |
//! | 3 | zero |
//! | 16 | model fingerprint, `u128` ([`model_fingerprint`]) |
//! | 8 + 8 | mass count, spring count, `u64` |
//! | 8 + 8 | step count `u64`, time `f64` (s) |
//! | 8 | payload length `u64`, then the payload (the backend's fields) |
//! | 8 | checksum: XXH3-64 (seed 0) of every byte before it, `u64` |
//!
//! [`Snapshot::from_bytes`] refuses, naming what is wrong, bytes that do not start with the
//! magic, another format version, a length that does not match (a truncated file), and a
//! checksum that does not match (a corrupted one).

mod codec;
mod file;

use std::fmt;
use std::path::Path;

use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

pub(crate) use codec::{Common, Reader, Writer};
pub use file::write_durably;
pub(crate) use file::{load_latest, previous_path, read_named, save_keeping_previous};

use crate::error::{Error, Result};
use crate::gpu::Precision;
use crate::model::Model;

/// The world a snapshot was taken of: its backend and precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SnapshotBackend {
    /// The CPU reference, [`CpuWorld`](crate::CpuWorld), in f64.
    Cpu,
    /// The GPU [`World`](crate::World) in this precision.
    Gpu(Precision),
}

impl SnapshotBackend {
    fn code(self) -> u8 {
        match self {
            Self::Cpu => 0,
            Self::Gpu(Precision::F32) => 1,
            Self::Gpu(Precision::F64) => 2,
        }
    }

    fn of_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Cpu),
            1 => Some(Self::Gpu(Precision::F32)),
            2 => Some(Self::Gpu(Precision::F64)),
            _ => None,
        }
    }
}

impl fmt::Display for SnapshotBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cpu => write!(f, "the CPU reference (f64)"),
            Self::Gpu(Precision::F32) => write!(f, "the GPU World in f32"),
            Self::Gpu(Precision::F64) => write!(f, "the GPU World in f64"),
        }
    }
}

/// The state of a world at one step (see the [module docs](self)), from
/// [`Simulation::snapshot`](crate::Simulation::snapshot).
///
/// # Examples
///
/// Step a cube, keep its state, step on, and go back:
///
/// ```
/// use hooke::{Builder, CpuWorld, Cube, DVec3, Model, Params, Placement, Snapshot};
///
/// let mut model = Model::new(Params::default());
/// model.add("cube", Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.2)))?);
/// let mut world = CpuWorld::new(&model)?;
/// world.step(500)?;
/// let bytes = world.snapshot()?.to_bytes(); // or .save(path)
/// world.step(500)?;
/// let after = world.positions()?;
///
/// world.restore(&Snapshot::from_bytes(&bytes)?)?;
/// assert_eq!(world.steps(), 500);
/// world.step(500)?;
/// assert_eq!(world.positions()?, after); // the same bits
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    backend: SnapshotBackend,
    fingerprint: u128,
    masses: usize,
    springs: usize,
    steps: u64,
    time: f64,
    /// The backend's fields (`src/cpu/snapshot.rs`, `src/gpu/world/snapshot.rs`).
    pub(crate) payload: Vec<u8>,
}

/// Bytes before the payload.
const HEADER: usize = 72;
/// The frame of the format: the magic `HOOKESNP`, the version, the header's fields, the
/// payload's length.
const FRAMING: Framing = Framing {
    magic: *b"HOOKESNP",
    what: "hooke snapshot",
    header: HEADER,
    version: Snapshot::FORMAT_VERSION,
};

impl Snapshot {
    /// The format version this hooke writes and reads.
    pub const FORMAT_VERSION: u32 = 1;

    /// A snapshot of a world of `backend` built from a model of fingerprint `fingerprint` with
    /// `masses` masses and `springs` springs, at `steps` and `time`.
    pub(crate) fn new(
        backend: SnapshotBackend,
        fingerprint: u128,
        counts: (usize, usize),
        at: (u64, f64),
        payload: Vec<u8>,
    ) -> Self {
        Self {
            backend,
            fingerprint,
            masses: counts.0,
            springs: counts.1,
            steps: at.0,
            time: at.1,
            payload,
        }
    }

    /// The backend and precision of the world it was taken of.
    #[must_use]
    pub fn backend(&self) -> SnapshotBackend {
        self.backend
    }

    /// The step count it was taken at.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The time it was taken at, s.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Masses of its model.
    #[must_use]
    pub fn mass_count(&self) -> usize {
        self.masses
    }

    /// Springs of its model.
    #[must_use]
    pub fn spring_count(&self) -> usize {
        self.springs
    }

    /// Its model's [`model_fingerprint`].
    #[must_use]
    pub fn model_fingerprint(&self) -> u128 {
        self.fingerprint
    }

    /// The bytes of the [format](self#the-byte-format-version-1).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut fields = Vec::with_capacity(HEADER - 20);
        fields.extend_from_slice(&[self.backend.code(), 0, 0, 0]);
        fields.extend_from_slice(&self.fingerprint.to_le_bytes());
        for n in [self.masses as u64, self.springs as u64, self.steps] {
            fields.extend_from_slice(&n.to_le_bytes());
        }
        fields.extend_from_slice(&self.time.to_le_bytes());
        FRAMING.frame(&fields, &self.payload)
    }

    /// Reads the bytes of [`Snapshot::to_bytes`].
    ///
    /// # Errors
    /// [`Error::Snapshot`] naming what is wrong: not a snapshot (no magic), another format
    /// version, truncated (fewer bytes than its header says) or with bytes after its end, a
    /// checksum that does not match (corrupted), an unknown backend.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Self::parse(bytes, "snapshot")
    }

    /// Writes [`Snapshot::to_bytes`] to `path`: to a temporary file beside it, flushed to the
    /// disk, then renamed over `path`, so a kill at any moment leaves the old file or the new
    /// one whole.
    ///
    /// # Errors
    /// [`Error::Snapshot`] naming the file and the step that failed.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        write_durably(path, &self.to_bytes()).map_err(|reason| Error::Snapshot {
            origin: format!("snapshot file {}", path.display()),
            reason,
        })
    }

    /// Reads a file [`Snapshot::save`] wrote.
    ///
    /// # Errors
    /// As [`Snapshot::from_bytes`], naming the file; and a file that cannot be read.
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let origin = format!("snapshot file {}", path.display());
        Self::parse(&read_named(path, &origin)?, &origin)
    }

    fn parse(bytes: &[u8], origin: &str) -> Result<Self> {
        let error = |reason: String| Error::Snapshot {
            origin: origin.to_owned(),
            reason,
        };
        let body = FRAMING.body(bytes, origin)?;
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let backend = SnapshotBackend::of_code(bytes[12])
            .ok_or_else(|| error(format!("unknown backend code {}", bytes[12])))?;
        Ok(Self {
            backend,
            fingerprint: u128::from_le_bytes(bytes[16..32].try_into().expect("16 bytes")),
            masses: word(32) as usize,
            springs: word(40) as usize,
            steps: word(48),
            time: f64::from_bits(word(56)),
            payload: body[HEADER..].to_vec(),
        })
    }

    /// Checks that this snapshot can be restored into a world of `backend` built from a model
    /// of `fingerprint`, `masses` and `springs`.
    pub(crate) fn check_fits(
        &self,
        backend: SnapshotBackend,
        fingerprint: u128,
        masses: usize,
        springs: usize,
    ) -> Result<()> {
        let error = |reason: String| Error::Snapshot {
            origin: "snapshot".into(),
            reason,
        };
        if self.backend != backend {
            return Err(error(format!(
                "it is of {}; it cannot be restored into {backend}",
                self.backend
            )));
        }
        if (self.masses, self.springs) != (masses, springs) {
            return Err(error(format!(
                "it is of a model of {} masses and {} springs; this world's model has {masses} \
                 masses and {springs} springs",
                self.masses, self.springs
            )));
        }
        if self.fingerprint != fingerprint {
            return Err(error(format!(
                "it is of another model (fingerprint {:032x}; this world's model is {fingerprint:032x})",
                self.fingerprint
            )));
        }
        Ok(())
    }

    /// A reader of the payload.
    pub(crate) fn reader(&self) -> Reader<'_> {
        Reader::new(&self.payload, "snapshot")
    }
}

/// The frame of hooke's binary files: 8 magic bytes, a `u32` format version, more header up to
/// `header` bytes whose last 8 are the payload's length (`u64`), the payload, and an XXH3-64
/// (seed 0) checksum of every byte before it (`u64`). All little-endian.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Framing {
    /// The magic bytes.
    pub(crate) magic: [u8; 8],
    /// What such a file is, for errors ("hooke snapshot").
    pub(crate) what: &'static str,
    /// Bytes before the payload.
    pub(crate) header: usize,
    /// The format version this hooke reads.
    pub(crate) version: u32,
}

impl Framing {
    /// `bytes` checked (magic, version, length, checksum) and returned without their checksum;
    /// errors ([`Error::Snapshot`] naming `origin`) say what is wrong.
    pub(crate) fn body<'b>(&self, bytes: &'b [u8], origin: &str) -> Result<&'b [u8]> {
        let error = |reason: String| Error::Snapshot {
            origin: origin.to_owned(),
            reason,
        };
        let magic = self.magic;
        if bytes.len() < magic.len() || bytes[..magic.len()] != magic {
            return Err(error(format!(
                "not a {} (it does not start with the magic bytes {})",
                self.what,
                String::from_utf8_lossy(&magic)
            )));
        }
        let header = self.header;
        if bytes.len() < header {
            return Err(error(format!(
                "truncated: {} bytes, shorter than the {header}-byte header",
                bytes.len()
            )));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != self.version {
            return Err(error(format!(
                "format version {version}; this hooke reads version {}",
                self.version
            )));
        }
        let payload = u64::from_le_bytes(bytes[header - 8..header].try_into().expect("8"));
        let expected = (header as u64 + 8).saturating_add(payload);
        if bytes.len() as u64 != expected {
            let what = if (bytes.len() as u64) < expected {
                "truncated"
            } else {
                "longer than its header says"
            };
            return Err(error(format!(
                "{what}: {} bytes, its header says {expected}",
                bytes.len()
            )));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let (stored, computed) = (
            u64::from_le_bytes(sum.try_into().expect("8")),
            xxh3_64(body),
        );
        if stored != computed {
            return Err(error(format!(
                "corrupted: its checksum is {stored:016x}, its bytes give {computed:016x}"
            )));
        }
        Ok(body)
    }

    /// `payload` framed: magic, version, `fields` (the rest of the header but the length), the
    /// payload's length, the payload, the checksum.
    pub(crate) fn frame(&self, fields: &[u8], payload: &[u8]) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.header + payload.len() + 8);
        b.extend_from_slice(&self.magic);
        b.extend_from_slice(&self.version.to_le_bytes());
        b.extend_from_slice(fields);
        b.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        debug_assert_eq!(b.len(), self.header);
        b.extend_from_slice(payload);
        let sum = xxh3_64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }
}

/// A 128-bit fingerprint of everything in `model`: XXH3-128 of its JSON (the scene format's
/// serialisation, every f64 in its exact digits). Two models with the same fingerprint are the
/// same model; [`Simulation::restore`](crate::Simulation::restore) refuses a snapshot of another.
#[must_use]
pub fn model_fingerprint(model: &Model) -> u128 {
    xxh3_128(&serde_json::to_vec(model).expect("a model serialises"))
}

/// The error of a world that stopped, asked for a snapshot.
pub(crate) fn stopped(error: &Error) -> Error {
    Error::Snapshot {
        origin: "snapshot".into(),
        reason: format!(
            "the world stopped ({error}); reset it or restore a snapshot before taking one"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Snapshot {
        Snapshot::new(
            SnapshotBackend::Gpu(Precision::F32),
            0x1234_5678_9abc_def0_0fed_cba9_8765_4321,
            (3, 2),
            (7, 7e-4),
            vec![1, 2, 3, 4, 5],
        )
    }

    #[test]
    fn bytes_read_back_as_the_same_snapshot() {
        let s = example();
        let b = s.to_bytes();
        assert_eq!(b.len(), HEADER + 5 + 8);
        assert_eq!(&b[..8], b"HOOKESNP");
        assert_eq!(Snapshot::from_bytes(&b).unwrap(), s);
    }

    fn refusal(bytes: &[u8]) -> String {
        Snapshot::from_bytes(bytes).unwrap_err().to_string()
    }

    #[test]
    fn truncated_corrupted_and_other_version_bytes_are_refused_by_name() {
        let b = example().to_bytes();
        for cut in [0, 5, 40, HEADER, b.len() - 1] {
            let said = refusal(&b[..cut]);
            let expected = if cut < 8 {
                "not a hooke snapshot"
            } else {
                "truncated"
            };
            assert!(said.contains(expected), "cut at {cut}: {said}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(refusal(&longer).contains("longer than its header says"));
        // One bit of the payload, of the header's time, and of the checksum itself.
        for at in [HEADER + 2, 57, b.len() - 1] {
            let mut bad = b.clone();
            bad[at] ^= 0x10;
            assert!(refusal(&bad).contains("corrupted"), "byte {at}");
        }
        let mut v2 = b.clone();
        v2[8] = 2;
        assert!(refusal(&v2).contains("format version 2; this hooke reads version 1"));
    }

    #[test]
    fn another_backend_or_model_is_refused_by_name() {
        let s = example();
        let fp = s.fingerprint;
        let said = s
            .check_fits(SnapshotBackend::Cpu, fp, 3, 2)
            .unwrap_err()
            .to_string();
        assert!(
            said.contains(
                "of the GPU World in f32; it cannot be restored into the CPU reference (f64)"
            ),
            "{said}"
        );
        let said = s.check_fits(s.backend, fp, 4, 2).unwrap_err().to_string();
        assert!(
            said.contains("3 masses and 2 springs; this world's model has 4 masses"),
            "{said}"
        );
        let said = s
            .check_fits(s.backend, fp ^ 1, 3, 2)
            .unwrap_err()
            .to_string();
        assert!(said.contains("another model"), "{said}");
        assert!(s.check_fits(s.backend, fp, 3, 2).is_ok());
    }
}
