//! The backend `hooke eval` runs a batch on, and the call into `hooke::population`.

use std::error::Error;
use std::time::Instant;

use hooke::population::{Evaluation, Population, RobotResult, Tick};
use hooke::{CpuWorld, Part};

use crate::args::Backend;

/// Per robot: fitness or `None`, failure reason or `None`, wall time of the World it ran in
/// (s).
pub(crate) type Outcome = (Option<f64>, Option<String>, f64);

/// A backend, ready to run batches.
#[derive(Debug)]
pub(crate) enum Runner {
    /// The CPU reference, on `threads` threads (all cores when `None`).
    Cpu {
        /// Threads of the CPU reference.
        threads: Option<u32>,
    },
    /// The GPU World on an opened device.
    Gpu {
        /// The device.
        device: wgpu::Device,
        /// Its queue.
        queue: wgpu::Queue,
        /// The adapter, as `hooke info` describes it.
        adapter: String,
    },
}

impl Runner {
    /// Opens `backend`: for `Auto`, the GPU when an adapter answers, else the CPU reference
    /// (saying why on standard error).
    pub(crate) fn open(backend: Backend, threads: Option<u32>) -> Result<Self, Box<dyn Error>> {
        if backend == Backend::Cpu {
            return Ok(Self::Cpu { threads });
        }
        let adapter = match pollster::block_on(hooke::gpu::find_adapter()) {
            Ok(adapter) => adapter,
            Err(e @ hooke::Error::NoAdapter { .. }) if backend == Backend::Auto => {
                eprintln!("no GPU adapter, so the CPU reference runs the robots ({e})");
                return Ok(Self::Cpu { threads });
            }
            Err(e) => return Err(e.into()),
        };
        let (device, queue) = pollster::block_on(hooke::gpu::open_device(&adapter))?;
        Ok(Self::Gpu {
            device,
            queue,
            adapter: crate::info::describe_adapter(&adapter.get_info()),
        })
    }

    /// `"gpu"` or `"cpu"`, as results.json names the backend.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Cpu { .. } => "cpu",
            Self::Gpu { .. } => "gpu",
        }
    }

    /// The adapter, on the GPU.
    pub(crate) fn adapter(&self) -> Option<String> {
        match self {
            Self::Cpu { .. } => None,
            Self::Gpu { adapter, .. } => Some(adapter.clone()),
        }
    }

    /// What runs the robots, for the log.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Cpu { threads: None } => "the CPU reference (all cores)".to_owned(),
            Self::Cpu { threads: Some(t) } => format!("the CPU reference ({t} threads)"),
            Self::Gpu { adapter, .. } => format!("the GPU World on {adapter}"),
        }
    }

    /// Runs the robots that were built (`Ok` parts, named by their ids) and returns one outcome
    /// per entry of `parts`; a part that could not be built is reported as failed with its
    /// reason (and no wall time).
    pub(crate) fn evaluate(
        &self,
        eval: &Evaluation,
        parts: Vec<(String, Result<Part, String>)>,
    ) -> Result<Vec<Outcome>, Box<dyn Error>> {
        let mut built = Vec::with_capacity(parts.len());
        let mut outcomes: Vec<Option<Outcome>> = Vec::with_capacity(parts.len());
        for (id, part) in parts {
            match part {
                Ok(part) => {
                    built.push((id, part));
                    outcomes.push(None);
                }
                Err(reason) => outcomes.push(Some((None, Some(reason), 0.0))),
            }
        }
        let mut results = match self {
            Self::Cpu { threads } => evaluate_cpu(eval, &built, *threads)?,
            Self::Gpu { device, queue, .. } => {
                let started = Instant::now();
                let population = population(&built);
                let results = population.evaluate_gpu_on(device, queue, eval)?;
                let wall = started.elapsed().as_secs_f64();
                outcomes_of(results, wall, built.len())?
            }
        }
        .into_iter();
        Ok(outcomes
            .into_iter()
            .map(|o| o.or_else(|| results.next()).unwrap_or_default())
            .collect())
    }
}

/// The robots as one population.
fn population(robots: &[(String, Part)]) -> Population {
    let mut population = Population::new();
    for (id, part) in robots {
        population.push(id.clone(), part.clone());
    }
    population
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

/// The robots on the CPU reference, all in one World on `threads` threads (all cores when
/// `None`).
///
/// The CPU reference cuts its spring chunks between robots (and inside a large
/// robot at distances from its own first spring) and shares them among its threads, so one
/// World serves any batch: a robot's bits do not depend on the other robots or on the thread
/// count.
fn evaluate_cpu(
    eval: &Evaluation,
    robots: &[(String, Part)],
    threads: Option<u32>,
) -> Result<Vec<Outcome>, Box<dyn Error>> {
    let threads = threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |t| t.get()),
        |t| t as usize,
    );
    let started = Instant::now();
    let results =
        population(robots).evaluate_with::<CpuWorld, _>(eval, |world, _: &Tick<'_>| {
            world.set_threads(threads);
            Ok(())
        })?;
    outcomes_of(results, started.elapsed().as_secs_f64(), robots.len()).map_err(Into::into)
}
