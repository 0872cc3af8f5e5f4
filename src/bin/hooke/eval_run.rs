//! The backend `hooke eval` runs a batch on, and the call into `hooke::population`.

use std::error::Error;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use hooke::cpu::SPRINGS_PER_CHUNK;
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

/// Consecutive groups of robots with at most [`SPRINGS_PER_CHUNK`] springs in all (a robot
/// with more is a group of its own).
///
/// Since issue 15 the CPU reference cuts its spring chunks only between robots (never inside a
/// robot of at most that many springs), so a robot's bits no longer depend on its World; the
/// groups remain the unit of work shared among the worker threads (each World on its share of
/// the threads), and keep a robot's result its result alone in any case.
fn groups(robots: &[(String, Part)]) -> Vec<Range<usize>> {
    let mut groups: Vec<Range<usize>> = Vec::new();
    let mut springs = 0;
    for (i, (_, part)) in robots.iter().enumerate() {
        let n = part.springs.len();
        match groups.last_mut() {
            Some(g) if springs + n <= SPRINGS_PER_CHUNK => {
                g.end = i + 1;
                springs += n;
            }
            _ => {
                groups.push(i..i + 1);
                springs = n;
            }
        }
    }
    groups
}

/// The outcomes of one group of robots, or why the group could not be evaluated.
type GroupOutcome = Result<Vec<Outcome>, String>;

/// The robots on the CPU reference: each group (see [`groups`]) in a World of its own, the
/// groups shared among `threads` worker threads (all cores when `None`), each World on its
/// share of the threads.
fn evaluate_cpu(
    eval: &Evaluation,
    robots: &[(String, Part)],
    threads: Option<u32>,
) -> Result<Vec<Outcome>, Box<dyn Error>> {
    let groups = groups(robots);
    let threads = threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |t| t.get()),
        |t| t as usize,
    );
    let workers = threads.min(groups.len()).max(1);
    let per_world = (threads / workers).max(1);
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<GroupOutcome>>> = Mutex::new(vec![None; groups.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                let Some(range) = groups.get(g) else { break };
                let started = Instant::now();
                let outcome = population(&robots[range.clone()])
                    .evaluate_with::<CpuWorld, _>(eval, |world, _: &Tick<'_>| {
                        world.set_threads(per_world);
                        Ok(())
                    })
                    .map_err(|e| e.to_string())
                    .and_then(|r| outcomes_of(r, started.elapsed().as_secs_f64(), range.len()));
                if let Ok(mut done) = done.lock() {
                    done[g] = Some(outcome);
                }
            });
        }
    });
    let done = done.into_inner().map_err(|_| "a worker thread panicked")?;
    let mut outcomes = Vec::with_capacity(robots.len());
    for group in done {
        outcomes.extend(group.ok_or("a group of robots was not evaluated")??);
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn robot(springs: usize) -> (String, Part) {
        let mut part = Part::new();
        part.springs = vec![hooke::Spring::hooke(0, 1, 1.0, 1.0); springs];
        (String::new(), part)
    }

    #[test]
    fn groups_hold_at_most_one_chunk_of_springs() {
        let half = SPRINGS_PER_CHUNK / 2;
        let robots = [
            robot(half),
            robot(half),
            robot(1),
            robot(SPRINGS_PER_CHUNK + 5),
            robot(3),
            robot(4),
        ];
        assert_eq!(groups(&robots), [0..2, 2..3, 3..4, 4..6]);
        assert!(groups(&[]).is_empty());
    }
}
