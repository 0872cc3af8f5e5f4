//! [`BackendChoice`]: which simulation runs a job (`--backend auto|cpu|gpu` in the `hooke`
//! command and the examples, `"backend"` in population files), and [`OpenBackend`], the choice
//! made and ready to run.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::Result;

/// Which simulation runs a job. In JSON and on command lines: `"auto"`, `"cpu"` or `"gpu"`.
///
/// # Examples
///
/// ```
/// use hooke::BackendChoice;
///
/// let choice: BackendChoice = "cpu".parse().unwrap();
/// assert_eq!(choice, BackendChoice::Cpu);
/// assert_eq!(choice.to_string(), "cpu");
/// let open = choice.open()?; // the CPU reference needs no device
/// assert_eq!(open.name(), "cpu");
/// assert!(open.adapter().is_none());
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackendChoice {
    /// The GPU World on a hardware GPU when there is one ([`gpu::hardware_adapter`]), else the
    /// CPU reference. A software adapter (lavapipe, llvmpipe) does not count: on a CPU-only
    /// machine the CPU reference is the faster of the two.
    ///
    /// [`gpu::hardware_adapter`]: crate::gpu::hardware_adapter
    #[default]
    Auto,
    /// The CPU reference integrator ([`CpuWorld`](crate::CpuWorld), f64).
    Cpu,
    /// The GPU World ([`World`](crate::World)) on the adapter [`gpu::find_adapter`] picks,
    /// software ones included; an error when there is no adapter at all.
    ///
    /// [`gpu::find_adapter`]: crate::gpu::find_adapter
    Gpu,
}

impl BackendChoice {
    /// The three choices, in the order help texts list them.
    pub const ALL: [Self; 3] = [Self::Auto, Self::Cpu, Self::Gpu];

    /// `"auto"`, `"cpu"` or `"gpu"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Cpu => "cpu",
            Self::Gpu => "gpu",
        }
    }

    /// Makes the choice and opens what it needs: for [`BackendChoice::Gpu`] (and for
    /// [`BackendChoice::Auto`] on a machine with a hardware GPU) a device, opened once for every
    /// World of the job.
    ///
    /// # Errors
    /// For [`BackendChoice::Gpu`]: [`Error::NoAdapter`](crate::Error::NoAdapter) (what was seen
    /// and how to install a driver) or [`Error::RequestDevice`](crate::Error::RequestDevice).
    /// For [`BackendChoice::Auto`], a device that cannot be opened on the hardware adapter found.
    pub fn open(self) -> Result<OpenBackend> {
        let adapter = match self {
            Self::Cpu => return Ok(OpenBackend::Cpu { threads: None }),
            Self::Auto => match pollster::block_on(crate::gpu::hardware_adapter()) {
                Some(adapter) => adapter,
                None => return Ok(OpenBackend::Cpu { threads: None }),
            },
            Self::Gpu => pollster::block_on(crate::gpu::find_adapter())?,
        };
        let (device, queue) = pollster::block_on(crate::gpu::open_device(&adapter))?;
        Ok(OpenBackend::Gpu {
            device,
            queue,
            adapter: Box::new(adapter.get_info()),
        })
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BackendChoice {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("{s:?} is not a backend: expected auto, cpu or gpu"))
    }
}

/// A [`BackendChoice`] made: the CPU reference, or the GPU World's device. Open it once
/// ([`BackendChoice::open`]) and run every World of a job on it.
#[derive(Debug)]
pub enum OpenBackend {
    /// The CPU reference integrator.
    Cpu {
        /// Worker threads of each [`CpuWorld`](crate::CpuWorld) (`None`: all cores; see
        /// [`CpuWorld::set_threads`](crate::CpuWorld::set_threads)). Results do not depend on
        /// it.
        threads: Option<usize>,
    },
    /// The GPU World on an opened device.
    Gpu {
        /// The device every World of the job is built on.
        device: wgpu::Device,
        /// Its queue.
        queue: wgpu::Queue,
        /// The adapter it was opened on (boxed: it is most of the enum's size).
        adapter: Box<wgpu::AdapterInfo>,
    },
}

impl OpenBackend {
    /// The GPU World on a device the caller opened (e.g. with
    /// [`gpu::request_device`](crate::gpu::request_device)); the adapter is the device's.
    #[must_use]
    pub fn from_device(device: wgpu::Device, queue: wgpu::Queue) -> Self {
        let adapter = Box::new(device.adapter_info());
        Self::Gpu {
            device,
            queue,
            adapter,
        }
    }

    /// `"cpu"` or `"gpu"`: the backend that runs, as results files name it.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::Cpu { .. } => "cpu",
            Self::Gpu { .. } => "gpu",
        }
    }

    /// On the GPU, the adapter as one line: name, graphics backend, device type and driver,
    /// e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu), driver llvmpipe Mesa 22.3.6`.
    /// `None` on the CPU.
    #[must_use]
    pub fn adapter(&self) -> Option<String> {
        match self {
            Self::Cpu { .. } => None,
            Self::Gpu { adapter, .. } => Some(crate::gpu::adapter_summary(adapter)),
        }
    }

    /// What runs, for a person: `the CPU reference (f64, all cores)` or `the GPU World on
    /// <adapter>`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Cpu { threads: None } => "the CPU reference (f64, all cores)".to_owned(),
            Self::Cpu { threads: Some(1) } => "the CPU reference (f64, 1 thread)".to_owned(),
            Self::Cpu { threads: Some(t) } => format!("the CPU reference (f64, {t} threads)"),
            Self::Gpu { adapter, .. } => {
                format!("the GPU World on {}", crate::gpu::adapter_summary(adapter))
            }
        }
    }

    /// Sets the CPU reference's threads (no effect on the GPU). `Some(0)` counts as 1.
    pub fn set_threads(&mut self, threads: Option<usize>) {
        if let Self::Cpu { threads: t } = self {
            *t = threads.map(|n| n.max(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_read_and_print_as_the_command_line_spells_them() {
        for c in BackendChoice::ALL {
            assert_eq!(c.as_str().parse::<BackendChoice>(), Ok(c));
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, format!("\"{c}\""));
            assert_eq!(serde_json::from_str::<BackendChoice>(&json).unwrap(), c);
        }
        assert_eq!(" GPU ".parse::<BackendChoice>(), Ok(BackendChoice::Gpu));
        let e = "cuda".parse::<BackendChoice>().unwrap_err();
        assert!(e.contains("cuda") && e.contains("auto, cpu or gpu"), "{e}");
    }
}
