//! [`EvaluationCheckpoint`]: a population's evaluation between two control periods (the world's
//! [`Snapshot`], the loop's progress, the controllers' states) as bytes with a format version and
//! a checksum, saved so that a kill at any moment leaves a whole checkpoint (the previous one
//! kept beside it), and checked against the evaluation it resumes by fingerprints.

use std::path::{Path, PathBuf};

use glam::DVec3;
use serde::Serialize;
use xxhash_rust::xxh3::xxh3_128;

use super::{Evaluation, Fitness, RobotFailure};
use crate::error::{Error, Result};
use crate::simulation::BodyState;
use crate::snapshot::{
    load_latest, previous_path, read_named, save_keeping_previous, Framing, Reader, Snapshot,
    SnapshotBackend, Writer,
};

/// Where an evaluation's loop is between two control periods: what it keeps besides the world.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Progress {
    /// Each robot's failure so far, by robot index (its robot is frozen in the current run).
    pub(super) failures: Vec<Option<RobotFailure>>,
    /// Each robot's body state at the current run's start.
    pub(super) start: Vec<BodyState>,
    /// Steps done in the current run.
    pub(super) done: u64,
    /// Control periods done in the current run.
    pub(super) period: u64,
}

impl Progress {
    /// Which robots are frozen (failed in an earlier run), by robot index.
    pub(super) fn frozen(&self) -> Vec<bool> {
        self.failures.iter().map(Option::is_some).collect()
    }
}

/// The robots' controllers between two control periods: the commands they left (each robot's
/// next call starts from them) and each controller's own saved state.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ControlState {
    /// Every commanded actuator's command, in the population model's order.
    pub(super) commands: Vec<f64>,
    /// Robot `r`'s [`RobotController::save_state`](super::RobotController::save_state).
    pub(super) robots: Vec<Vec<u8>>,
}

/// What a checkpoint must have been taken of to resume an evaluation: XXH3-128 of the
/// population's JSON (robots, layout) and of the evaluation's (duration, parameters,
/// obstacles, fitness, control period, fixed-point settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fingerprints {
    pub(super) population: u128,
    pub(super) evaluation: u128,
}

/// XXH3-128 of `value`'s JSON (every f64 in its exact digits).
pub(super) fn json_fingerprint(value: &impl Serialize) -> u128 {
    xxh3_128(&serde_json::to_vec(value).expect("plain data serialises"))
}

/// The fingerprint of `eval`: its JSON, a [`Fitness::Custom`] (which has none) as the default
/// fitness followed by a marker, so any custom fitness differs from every written one.
pub(super) fn evaluation_fingerprint(eval: &Evaluation) -> u128 {
    match eval.fitness {
        Fitness::Custom(_) => {
            let plain = Evaluation {
                fitness: Fitness::default(),
                ..eval.clone()
            };
            let mut text = serde_json::to_vec(&plain).expect("an evaluation serialises");
            text.extend_from_slice(b" with a custom fitness");
            xxh3_128(&text)
        }
        Fitness::Distance { .. } => json_fingerprint(eval),
    }
}

/// A population's evaluation between two control periods: the world's [`Snapshot`], where the
/// loop is (the run, its step and control period, each robot's failure so far and body state
/// at the run's start), the robots' controllers' states, and fingerprints of the population and
/// the evaluation. Written by an evaluation with
/// [`EvaluationRun::checkpoint`](super::EvaluationRun::checkpoint); resuming from it
/// ([`EvaluationRun::resume`](super::EvaluationRun::resume)) gives the results of a run that was
/// never stopped, to the bit.
///
/// # The byte format (version 1)
///
/// All numbers little-endian: the magic `HOOKEEVC` (8 bytes), the format version (`u32`, 1),
/// 4 zero bytes, the payload's length (`u64`), the payload, and XXH3-64 (seed 0) of every byte
/// before it (`u64`). The payload holds the population's and the evaluation's fingerprints
/// (XXH3-128 of their JSON), the robot count, the current run's steps and control periods, the
/// failures so far (JSON), each robot's centre of mass (m), mean velocity (m/s) and mass (kg)
/// at the run's start, the controllers' commands and states (when the run has controllers),
/// and the world's [`Snapshot`] bytes. A truncated, corrupted or foreign file is refused naming
/// what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct EvaluationCheckpoint {
    fingerprints: Fingerprints,
    progress: Progress,
    control: Option<ControlState>,
    snapshot: Snapshot,
    /// What it was read from, for errors (not saved).
    origin: String,
}

/// The frame of the file: magic, version, 4 zero bytes, the payload's length.
const FRAMING: Framing = Framing {
    magic: *b"HOOKEEVC",
    what: "hooke evaluation checkpoint",
    header: 24,
    version: EvaluationCheckpoint::FORMAT_VERSION,
};

impl EvaluationCheckpoint {
    /// The format version this hooke writes and reads.
    pub const FORMAT_VERSION: u32 = 1;

    pub(super) fn new(
        fingerprints: Fingerprints,
        progress: &Progress,
        control: Option<ControlState>,
        snapshot: Snapshot,
    ) -> Self {
        Self {
            fingerprints,
            progress: progress.clone(),
            control,
            snapshot,
            origin: "evaluation checkpoint".into(),
        }
    }

    /// Robots of the population it was taken of.
    #[must_use]
    pub fn robots(&self) -> usize {
        self.progress.failures.len()
    }

    /// Control periods done in the current run (a run starts again from time 0 after a robot
    /// fails).
    #[must_use]
    pub fn period(&self) -> u64 {
        self.progress.period
    }

    /// Steps done in the current run.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.progress.done
    }

    /// Each robot's failure so far, by robot index (`None`: running).
    #[must_use]
    pub fn failures(&self) -> &[Option<RobotFailure>] {
        &self.progress.failures
    }

    /// The world it was taken of: the CPU reference or the GPU World in f32 or f64.
    #[must_use]
    pub fn backend(&self) -> SnapshotBackend {
        self.snapshot.backend()
    }

    /// The bytes of the [format](EvaluationCheckpoint#the-byte-format-version-1).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        for fp in [self.fingerprints.population, self.fingerprints.evaluation] {
            w.u64(fp as u64);
            w.u64((fp >> 64) as u64);
        }
        let p = &self.progress;
        w.len(p.failures.len());
        w.u64(p.done);
        w.u64(p.period);
        w.json(&p.failures);
        let com: Vec<DVec3> = p.start.iter().map(|b| b.centre_of_mass).collect();
        let vel: Vec<DVec3> = p.start.iter().map(|b| b.mean_velocity).collect();
        let mass: Vec<f64> = p.start.iter().map(|b| b.mass).collect();
        w.vec3s(&com);
        w.vec3s(&vel);
        w.f64s(&mass);
        w.bool(self.control.is_some());
        if let Some(c) = &self.control {
            w.f64s(&c.commands);
            w.len(c.robots.len());
            c.robots.iter().for_each(|r| w.bytes(r));
        }
        w.bytes(&self.snapshot.to_bytes());
        FRAMING.frame(&[0; 4], &w.bytes)
    }

    /// Reads the bytes of [`EvaluationCheckpoint::to_bytes`].
    ///
    /// # Errors
    /// [`Error::Snapshot`] naming what is wrong: not a checkpoint (no magic), another format
    /// version, truncated or longer than its header says, a checksum that does not match
    /// (corrupted), a field that does not read.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Self::parse(bytes, "evaluation checkpoint")
    }

    fn parse(bytes: &[u8], origin: &str) -> Result<Self> {
        let body = FRAMING.body(bytes, origin)?;
        Self::read_payload(&mut Reader::new(&body[FRAMING.header..], origin), origin)
    }

    fn read_payload(r: &mut Reader<'_>, origin: &str) -> Result<Self> {
        let mut fingerprint = |field| -> Result<u128> {
            Ok(u128::from(r.u64(field)?) | (u128::from(r.u64(field)?) << 64))
        };
        let fingerprints = Fingerprints {
            population: fingerprint("population fingerprint")?,
            evaluation: fingerprint("evaluation fingerprint")?,
        };
        let robots = r.len("robot count", 1)?;
        let (done, period) = (r.u64("steps")?, r.u64("control periods")?);
        let failures: Vec<Option<RobotFailure>> = r.json("failures")?;
        if failures.len() != robots {
            return Err(r.error(format!(
                "failures has {} items, expected {robots}",
                failures.len()
            )));
        }
        let com = r.vec3s("start centres of mass", Some(robots))?;
        let vel = r.vec3s("start mean velocities", Some(robots))?;
        let mass = r.f64s("start masses", Some(robots))?;
        let start = (0..robots)
            .map(|i| BodyState {
                mass: mass[i],
                centre_of_mass: com[i],
                mean_velocity: vel[i],
            })
            .collect();
        let control = if r.bool("controllers")? {
            let commands = r.f64s("commands", None)?;
            let n = r.len("controller states", 8)?;
            let robots = (0..n)
                .map(|_| Ok(r.bytes("controller state")?.to_vec()))
                .collect::<Result<_>>()?;
            Some(ControlState { commands, robots })
        } else {
            None
        };
        let snapshot = Snapshot::from_bytes(r.bytes("world snapshot")?)
            .map_err(|e| r.error(format!("its world {e}")))?;
        r.finish()?;
        Ok(Self {
            fingerprints,
            progress: Progress {
                failures,
                start,
                done,
                period,
            },
            control,
            snapshot,
            origin: origin.to_owned(),
        })
    }

    /// Where [`EvaluationCheckpoint::save`] keeps the checkpoint it replaces: `eval.ckpt` ->
    /// `eval.previous.ckpt`.
    #[must_use]
    pub fn previous_path(path: &Path) -> PathBuf {
        previous_path(path)
    }

    /// Writes the checkpoint to `path`: the file there (if any) renamed to
    /// [`EvaluationCheckpoint::previous_path`], then the new bytes written to a temporary file
    /// beside it, flushed to the disk (`fsync`) and renamed to `path`. A kill at any moment
    /// leaves a whole checkpoint at one of the two paths.
    ///
    /// # Errors
    /// [`Error::Snapshot`] naming the file and the step that failed.
    pub fn save(&self, path: &Path) -> Result<()> {
        save_keeping_previous(path, &self.to_bytes()).map_err(|reason| Error::Snapshot {
            origin: format!("evaluation checkpoint {}", path.display()),
            reason,
        })
    }

    /// Reads the checkpoint at `path`; its errors, and those of resuming from it, name the file.
    ///
    /// # Errors
    /// As [`EvaluationCheckpoint::from_bytes`], naming the file; a file that cannot be read.
    pub fn load(path: &Path) -> Result<Self> {
        let origin = format!("evaluation checkpoint {}", path.display());
        Self::parse(&read_named(path, &origin)?, &origin)
    }

    /// Reads the checkpoint at `path`, or when that one is missing or refused, the one it
    /// replaced ([`EvaluationCheckpoint::previous_path`]). Returns the checkpoint and, when it
    /// is the previous one, why the latest was refused.
    ///
    /// # Errors
    /// Both refusals, when neither reads.
    pub fn load_latest(path: &Path) -> Result<(Self, Option<Error>)> {
        load_latest(path, Self::load)
    }

    /// Checks that the checkpoint is of this evaluation: `fingerprints`, `robots` robots, a
    /// world of `backend`, with controllers or not as `controllers` says.
    pub(super) fn check_fits(
        &self,
        fingerprints: Fingerprints,
        robots: usize,
        backend: SnapshotBackend,
        controllers: bool,
    ) -> Result<()> {
        let refuse = |reason: String| {
            Err(Error::Snapshot {
                origin: self.origin.clone(),
                reason: format!("{reason}: it cannot resume this evaluation"),
            })
        };
        if self.robots() != robots {
            return refuse(format!(
                "it is of a population of {} robots; this one has {robots}",
                self.robots()
            ));
        }
        if self.fingerprints.population != fingerprints.population {
            return refuse("it is of another population (its robots or layout differ)".into());
        }
        if self.fingerprints.evaluation != fingerprints.evaluation {
            return refuse(
                "it is of another evaluation (its duration, params, obstacles, fitness, \
                 control_steps, fixed_point_force or max_incidence differ)"
                    .into(),
            );
        }
        if self.backend() != backend {
            return refuse(format!(
                "it was taken on {}; this evaluation runs on {backend}",
                self.backend()
            ));
        }
        match (self.control.is_some(), controllers) {
            (true, false) => refuse("it was taken with controllers; this run has none".into()),
            (false, true) => refuse("it was taken without controllers; this run has some".into()),
            _ => Ok(()),
        }
    }

    /// The world's snapshot, the loop's progress and the controllers' state.
    pub(super) fn into_parts(self) -> (Snapshot, Progress, Option<ControlState>, String) {
        (self.snapshot, self.progress, self.control, self.origin)
    }
}

/// Where an evaluation resumes from: a checkpoint in memory, or the latest that reads of a file
/// and the one before it.
#[derive(Debug)]
pub(super) enum ResumeFrom {
    Checkpoint(Box<EvaluationCheckpoint>),
    File(PathBuf),
}

impl ResumeFrom {
    /// The checkpoint; a damaged latest file is said in the log and the one before it read.
    pub(super) fn load(self) -> Result<EvaluationCheckpoint> {
        match self {
            Self::Checkpoint(c) => Ok(*c),
            Self::File(path) => {
                let (c, refused) = EvaluationCheckpoint::load_latest(&path)?;
                if let Some(e) = refused {
                    log::warn!("{e}; resuming from the checkpoint before it");
                }
                Ok(c)
            }
        }
    }
}
