//! The call into `hooke::population` for `hooke eval`: a batch on an opened backend.

use std::error::Error;
use std::time::Instant;

use std::path::Path;

use hooke::population::{
    CheckpointEvery, Evaluation, EvaluationCheckpoint, EvaluationRun, Population, RobotResult,
};
use hooke::{BackendChoice, OpenBackend, Part};

/// Per robot: fitness or `None`, failure reason or `None`, wall time of the World it ran in
/// (s).
pub(crate) type Outcome = (Option<f64>, Option<String>, f64);

/// Opens `choice` with `threads` CPU threads (all cores when `None`), saying on standard error
/// when `auto` settles on the CPU reference.
pub(crate) fn open(
    choice: BackendChoice,
    threads: Option<u32>,
) -> Result<OpenBackend, Box<dyn Error>> {
    let mut backend = choice.open()?;
    backend.set_threads(threads.map(|t| t as usize));
    if choice == BackendChoice::Auto && matches!(backend, OpenBackend::Cpu { .. }) {
        eprintln!("no hardware GPU, so the CPU reference runs (--backend gpu takes any adapter)");
    }
    Ok(backend)
}

/// `--checkpoint FILE --checkpoint-every E [--resume]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpointing<'p> {
    pub(crate) path: &'p Path,
    pub(crate) every: CheckpointEvery,
    pub(crate) resume: bool,
}

impl Checkpointing<'_> {
    /// `run` writing its checkpoints, and resuming from the latest that reads when asked (said
    /// on standard error, with why the latest was refused when the one before it is taken).
    fn apply<'a>(&self, run: EvaluationRun<'a>) -> Result<EvaluationRun<'a>, Box<dyn Error>> {
        let run = run.checkpoint(self.path, self.every);
        if !self.resume {
            return Ok(run);
        }
        let (checkpoint, refused) = EvaluationCheckpoint::load_latest(self.path)?;
        if let Some(e) = refused {
            eprintln!("{e}; resuming from the checkpoint before it");
        }
        eprintln!(
            "resuming from {} after control period {} ({} robots failed so far)",
            self.path.display(),
            checkpoint.period(),
            checkpoint.failures().iter().flatten().count()
        );
        Ok(run.resume_from(checkpoint))
    }
}

/// Runs the robots that were built (`Ok` parts, named by their ids) on `backend`, checkpointed
/// as `checkpoint` says, and returns one outcome per entry of `parts`; a part that could not be
/// built is reported as failed with its reason (and no wall time).
pub(crate) fn evaluate(
    backend: &OpenBackend,
    eval: &Evaluation,
    parts: Vec<(String, Result<Part, String>)>,
    checkpoint: Option<Checkpointing<'_>>,
) -> Result<Vec<Outcome>, Box<dyn Error>> {
    let mut built = Population::new();
    let mut outcomes: Vec<Option<Outcome>> = Vec::with_capacity(parts.len());
    for (id, part) in parts {
        match part {
            Ok(part) => {
                built.push(id, part);
                outcomes.push(None);
            }
            Err(reason) => outcomes.push(Some((None, Some(reason), 0.0))),
        }
    }
    let started = Instant::now();
    // The CPU reference cuts its spring chunks between robots (and inside a large robot at
    // distances from its own first spring), so one World serves any batch: a robot's bits do
    // not depend on the other robots or on the thread count.
    let mut run = built.evaluate(eval).on(backend);
    if let Some(c) = checkpoint {
        run = c.apply(run)?;
    }
    let results = run.run()?;
    let wall = started.elapsed().as_secs_f64();
    let mut results = outcomes_of(results, wall, built.robots.len())?.into_iter();
    Ok(outcomes
        .into_iter()
        .map(|o| o.or_else(|| results.next()).unwrap_or_default())
        .collect())
}

/// One outcome per result, each with wall time `wall`; an error unless there are `expected`.
fn outcomes_of(
    results: Vec<RobotResult>,
    wall: f64,
    expected: usize,
) -> Result<Vec<Outcome>, String> {
    if results.len() != expected {
        return Err(format!(
            "the evaluation returned {} results for {expected} robots",
            results.len()
        ));
    }
    Ok(results
        .into_iter()
        .map(|r| (r.fitness, r.failure.map(|f| f.to_string()), wall))
        .collect())
}
