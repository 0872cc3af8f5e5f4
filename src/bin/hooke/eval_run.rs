//! The backend `hooke eval` runs a batch on, and the call into `hooke::population`.

use std::error::Error;

use hooke::population::{Evaluation, Population, RobotResult, Tick};
use hooke::{CpuWorld, Part};

use crate::args::Backend;

/// Per robot: fitness or `None`, failure reason or `None`.
pub(crate) type Outcome = (Option<f64>, Option<String>);

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

    /// Runs the robots that were built (`Ok` parts, named by their ids) in one World and
    /// returns one outcome per entry of `parts`; a part that could not be built is reported as
    /// failed with its reason.
    pub(crate) fn evaluate(
        &self,
        eval: &Evaluation,
        parts: Vec<(String, Result<Part, String>)>,
    ) -> Result<Vec<Outcome>, Box<dyn Error>> {
        let mut population = Population::new();
        let mut outcomes: Vec<Option<Outcome>> = Vec::with_capacity(parts.len());
        for (id, part) in parts {
            match part {
                Ok(part) => {
                    population.push(id, part);
                    outcomes.push(None);
                }
                Err(reason) => outcomes.push(Some((None, Some(reason)))),
            }
        }
        let results: Vec<RobotResult> = match self {
            Self::Cpu { threads } => {
                let threads = threads.map(|t| t as usize);
                population.evaluate_with::<CpuWorld, _>(eval, |world, _: &Tick<'_>| {
                    if let Some(t) = threads {
                        world.set_threads(t);
                    }
                    Ok(())
                })?
            }
            Self::Gpu { device, queue, .. } => population.evaluate_gpu_on(device, queue, eval)?,
        };
        if results.len() != population.robots.len() {
            return Err(format!(
                "the evaluation returned {} results for {} robots",
                results.len(),
                population.robots.len()
            )
            .into());
        }
        let mut results = results.into_iter();
        Ok(outcomes
            .into_iter()
            .map(|o| {
                o.unwrap_or_else(|| {
                    let r = results
                        .next()
                        .expect("one result per robot of the population");
                    (r.fitness, r.failure.map(|f| f.to_string()))
                })
            })
            .collect())
    }
}
