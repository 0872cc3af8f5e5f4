//! `hooke._hooke.evaluate_population`: a population file's text evaluated as `hooke eval`
//! evaluates it (the same parse, the same robots, the one entry point
//! `population.evaluate(&eval).on(&backend).run()`), the GIL released while it runs, the
//! results handed back as numpy arrays. `hooke.evaluate` (in `hooke/_population.py`) builds the
//! text from the forms a Python user has.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use hooke::population::{CheckpointEvery, Population, PopulationFile, RobotResult};
use hooke::{BackendChoice, OpenBackend};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrays::vectors_out;
use crate::error::{argument, IntoPyResult};

/// Opens `backend` (`"cpu"`, `"gpu"` or `"auto"`; `None`: `default`, else the CPU reference)
/// with `threads` CPU threads (all cores when `None`).
pub(crate) fn open_backend(
    backend: Option<&str>,
    default: Option<BackendChoice>,
    threads: Option<usize>,
) -> PyResult<OpenBackend> {
    let choice = match backend {
        Some(name) => {
            BackendChoice::from_str(name).map_err(|e| argument(format!("backend: {e}")))?
        }
        None => default.unwrap_or(BackendChoice::Cpu),
    };
    if threads == Some(0) {
        return Err(argument(
            "threads: must be at least 1 (or None: all cores)".into(),
        ));
    }
    let mut open = choice.open().py()?;
    open.set_threads(threads);
    Ok(open)
}

/// One robot's outcome: its result, or why it built no robot.
pub(crate) enum Outcome {
    Ran(RobotResult),
    NoRobot(String),
}

/// Where and how often an evaluation writes its checkpoints, and whether it resumes from one.
#[derive(Debug)]
pub(crate) struct Checkpointing {
    path: PathBuf,
    every: CheckpointEvery,
    resume: bool,
}

impl Checkpointing {
    /// `checkpoint`, `checkpoint_every` (`"N"` control periods or `"Ts"` seconds) and `resume`
    /// as `hooke.evaluate` takes them; `None` without a checkpoint path.
    fn new(checkpoint: Option<PathBuf>, every: &str, resume: bool) -> PyResult<Option<Self>> {
        let every = CheckpointEvery::from_str(every)
            .map_err(|e| argument(format!("checkpoint_every: {e}")))?;
        match checkpoint {
            Some(path) => Ok(Some(Self {
                path,
                every,
                resume,
            })),
            None if resume => Err(argument(
                "resume=True needs checkpoint=PATH, the checkpoint to resume from".into(),
            )),
            None => Ok(None),
        }
    }
}

/// Evaluates the population file `text` (scene paths relative to `base_dir`) on `backend`
/// (`None`: the file's `evaluation.backend`, else `"cpu"`) with `threads` CPU threads,
/// checkpointed to `checkpoint` every `checkpoint_every` and resumed from it with `resume`; the
/// GIL is released meanwhile. Returns a dict of per-robot arrays (see
/// `hooke.EvaluationResults`).
#[pyfunction]
#[pyo3(signature = (text, base_dir, backend=None, threads=None, checkpoint=None,
                    checkpoint_every="60s", resume=false))]
#[allow(clippy::too_many_arguments)] // the keyword arguments of `hooke.evaluate`
pub(crate) fn evaluate_population<'py>(
    py: Python<'py>,
    text: &str,
    base_dir: PathBuf,
    backend: Option<&str>,
    threads: Option<usize>,
    checkpoint: Option<PathBuf>,
    checkpoint_every: &str,
    resume: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let checkpointing = Checkpointing::new(checkpoint, checkpoint_every, resume)?;
    let (file, file_backend) =
        PopulationFile::from_json_checked(text.as_bytes(), Path::new("population")).py()?;
    let open = open_backend(backend, file_backend, threads)?;
    let all = 0..file.robots.len();
    let outcomes = py
        .detach(|| run(&file, &base_dir, &open, all.clone(), checkpointing.as_ref()))
        .py()?;
    results_dict(py, &ids(&file, all), &outcomes, &open)
}

/// The ids of the robots at positions `range` of `file`.
pub(crate) fn ids(file: &PopulationFile, range: Range<usize>) -> Vec<&str> {
    file.robots[range].iter().map(|r| r.id.as_str()).collect()
}

/// Builds the robots at positions `range` of `file` (a genome that builds none is that robot's
/// failure, as in `hooke eval`; a scene that cannot be read is bad input naming the robot) and
/// evaluates those built: `hooke eval --range` (`--split` when `range` is a share), checkpointed
/// (and resumed) as `checkpointing` says.
pub(crate) fn run(
    file: &PopulationFile,
    base_dir: &Path,
    open: &OpenBackend,
    range: Range<usize>,
    checkpointing: Option<&Checkpointing>,
) -> hooke::Result<Vec<Outcome>> {
    let evaluation = file.evaluation.evaluation()?;
    let mut population = Population::new();
    let mut outcomes = Vec::with_capacity(range.len());
    for (i, robot) in file
        .robots
        .iter()
        .enumerate()
        .take(range.end)
        .skip(range.start)
    {
        match (robot.part(&file.evaluation.genome, base_dir), &robot.genome) {
            (Ok(part), _) => {
                population.push(robot.id.clone(), part);
                outcomes.push(None);
            }
            (Err(e), Some(_)) => {
                outcomes.push(Some(Outcome::NoRobot(format!("builds no robot: {e}"))))
            }
            (Err(e), None) => {
                return Err(hooke::Error::InvalidBuilder {
                    builder: "population file",
                    reason: format!("robots[{i}] (id {:?}): scene: {e}", robot.id),
                })
            }
        }
    }
    let mut run = population.evaluate(&evaluation).on(open);
    if let Some(c) = checkpointing {
        run = run.checkpoint(&c.path, c.every);
        if c.resume {
            run = run.resume(&c.path);
        }
    }
    let results = run.run()?;
    merge_outcomes(outcomes, results, population.robots.len())
}

/// `outcomes` (`None` where a robot was built) with the `built` robots' `results` in their
/// places.
pub(crate) fn merge_outcomes(
    outcomes: Vec<Option<Outcome>>,
    results: Vec<RobotResult>,
    built: usize,
) -> hooke::Result<Vec<Outcome>> {
    let got = results.len();
    let mut results = results.into_iter();
    outcomes
        .into_iter()
        .map(|o| o.or_else(|| results.next().map(Outcome::Ran)))
        .collect::<Option<Vec<_>>>()
        .filter(|_| got == built)
        .ok_or(hooke::Error::LengthMismatch {
            what: "results of the evaluation",
            expected: built,
            got,
        })
}

/// The outcomes as a dict of arrays, one row per robot (NaN, -1 or `None` where there is no
/// value).
pub(crate) fn results_dict<'py>(
    py: Python<'py>,
    ids: &[&str],
    outcomes: &[Outcome],
    open: &OpenBackend,
) -> PyResult<Bound<'py, PyDict>> {
    let n = outcomes.len();
    let nan3 = glam::DVec3::splat(f64::NAN);
    let (mut fitness, mut step, mut time, mut mass) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let (mut start, mut end, mut kind, mut message) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::<Option<String>>::with_capacity(n),
        Vec::<Option<String>>::with_capacity(n),
    );
    for outcome in outcomes {
        match outcome {
            Outcome::Ran(r) => {
                let f = r.failure.as_ref();
                fitness.push(r.fitness.unwrap_or(f64::NAN));
                step.push(f.map_or(-1, |f| f.step as i64));
                time.push(f.map_or(f64::NAN, |f| f.time));
                mass.push(f.and_then(|f| f.mass).map_or(-1, |m| m as i64));
                start.push(r.start);
                end.push(r.end.unwrap_or(nan3));
                kind.push(f.map(|f| kind_name(f.kind)));
                message.push(f.map(ToString::to_string));
            }
            Outcome::NoRobot(reason) => {
                fitness.push(f64::NAN);
                step.push(-1);
                time.push(f64::NAN);
                mass.push(-1);
                start.push(nan3);
                end.push(nan3);
                kind.push(Some("no_robot".to_owned()));
                message.push(Some(reason.clone()));
            }
        }
    }
    let d = PyDict::new(py);
    d.set_item("ids", ids)?;
    d.set_item("fitness", fitness.into_pyarray(py))?;
    d.set_item("failure", kind)?;
    d.set_item("messages", message)?;
    let step: Bound<'py, PyArray1<i64>> = step.into_pyarray(py);
    d.set_item("failure_step", step)?;
    d.set_item("failure_time", time.into_pyarray(py))?;
    d.set_item("failure_mass", mass.into_pyarray(py))?;
    d.set_item("start", vectors_out(py, &start)?)?;
    d.set_item("end", vectors_out(py, &end)?)?;
    d.set_item("backend", open.name())?;
    d.set_item("adapter", open.adapter())?;
    Ok(d)
}

/// The snake_case name of a failure kind, as results files and `FailureKind`'s serde name it.
fn kind_name(kind: hooke::population::FailureKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{kind:?}"))
}
