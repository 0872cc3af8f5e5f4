//! The world a command simulates on an opened backend: the CPU reference on its threads, or the
//! GPU World in f32 or f64, handed to an [`OnWorld`] (`hooke run` and `hooke verify` build it
//! the same way).

use std::error::Error;

use hooke::{CpuWorld, Model, OpenBackend, Precision, World, WorldOptions};

/// Work to do on whichever world the backend builds.
pub(crate) trait OnWorld {
    /// What the work returns.
    type Output;
    /// Does the work on `sim`.
    fn on<S: hooke::Simulation>(self, sim: &mut S) -> Result<Self::Output, Box<dyn Error>>;
}

/// Builds `model`'s world on `backend` (the GPU World in f64 when `f64`; the CPU reference is
/// always f64 and says so when asked) and runs `work` on it.
pub(crate) fn on_world<O: OnWorld>(
    model: &Model,
    backend: &OpenBackend,
    f64: bool,
    work: O,
) -> Result<O::Output, Box<dyn Error>> {
    match backend {
        OpenBackend::Cpu { threads } => {
            if f64 {
                eprintln!("--f64: the CPU reference always runs in f64");
            }
            let mut world = CpuWorld::new(model)?;
            if let Some(t) = threads {
                world.set_threads(*t);
            }
            work.on(&mut world)
        }
        OpenBackend::Gpu { device, queue, .. } => {
            let options = WorldOptions {
                precision: if f64 { Precision::F64 } else { Precision::F32 },
                ..WorldOptions::default()
            };
            let mut world = World::with_device(device.clone(), queue.clone(), model, options)?;
            work.on(&mut world)
        }
    }
}

/// The CPU threads `backend` runs the CPU reference on (`None` on the GPU).
pub(crate) fn cpu_threads(backend: &OpenBackend) -> Option<usize> {
    match backend {
        OpenBackend::Cpu { threads } => Some(threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        })),
        OpenBackend::Gpu { .. } => None,
    }
}
