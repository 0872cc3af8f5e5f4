//! The worlds a population is evaluated in, built from an [`OpenBackend`]'s options (the CPU
//! reference's threads, the GPU World's device) with the evaluation's pins.
//!
//! What would otherwise depend on the whole batch is pinned: the blow-up bound (a fixed
//! backstop here, each robot's own bound checked between control periods by the run), and on
//! the GPU the fixed-point encoding ([`FixedPointScale::Pinned`] with
//! [`Evaluation::fixed_point_force`] and [`Evaluation::max_incidence`]).
//!
//! [`OpenBackend`]: crate::OpenBackend

use super::Evaluation;
use crate::cpu::CpuWorld;
use crate::error::Result;
use crate::gpu::{FixedPointScale, Precision, World, WorldOptions};
use crate::model::{Model, SpeedLimit};
use crate::simulation::Simulation;
use crate::snapshot::SnapshotBackend;

/// A world a population runs in: [`CpuWorld`] or [`World`].
pub(super) trait Backend: Simulation {
    /// Replaces the blow-up bound with the population's backstop (kept across resets).
    fn pin_bound(&mut self);
    /// The backend and precision its snapshots are of.
    fn kind(&self) -> SnapshotBackend;
}

impl Backend for CpuWorld {
    fn pin_bound(&mut self) {
        self.pin_speed_limit(backstop());
    }

    fn kind(&self) -> SnapshotBackend {
        SnapshotBackend::Cpu
    }
}

impl Backend for World {
    fn pin_bound(&mut self) {
        self.pin_speed_limit(backstop());
    }

    fn kind(&self) -> SnapshotBackend {
        SnapshotBackend::Gpu(self.precision())
    }
}

/// The world's own blow-up bound in a population: `E` = 1e9 J, `A` = 0, a mass of `m` kg over
/// `10 + sqrt(2e11 / m)` m/s (1.4e6 m/s for 0.1 kg). It does not depend on the batch, and only
/// catches a run that explodes within one control period; each robot's own bound is checked
/// between periods (see [`Evaluation`]). 1e9 J keeps `S^2 E` within f32 for the GPU.
const BACKSTOP_ENERGY: f64 = 1e9;

fn backstop() -> SpeedLimit {
    SpeedLimit::pinned(BACKSTOP_ENERGY, 0.0)
}

/// The CPU reference of `model` on `threads` worker threads (`None`: all cores; results do not
/// depend on it), its bound pinned and energy booking off (fitness reads body states only;
/// booking never changes a trajectory's bits).
pub(super) fn cpu_world(model: &Model, threads: Option<usize>) -> Result<CpuWorld> {
    let mut world = CpuWorld::new(model)?;
    world.pin_bound();
    world.set_track_energy(false);
    if let Some(threads) = threads {
        world.set_threads(threads);
    }
    Ok(world)
}

/// The GPU World of `model` in `precision` on `device` and `queue` with [`gpu_options`], its
/// bound pinned.
pub(super) fn gpu_world(
    model: &Model,
    eval: &Evaluation,
    precision: Precision,
    (device, queue): (&wgpu::Device, &wgpu::Queue),
) -> Result<World> {
    let options = WorldOptions {
        precision,
        ..gpu_options(eval)
    };
    let mut world = World::with_device(device.clone(), queue.clone(), model, options)?;
    world.pin_bound();
    Ok(world)
}

/// The World options of an evaluation: defaults with the fixed-point encoding pinned, and no
/// energy booking (fitness reads the bodies' states only, and booking does not change a
/// trajectory's bits: `energy_booking_off_keeps_the_trajectorys_bits`). On lavapipe that gains
/// 2-8 % on `Population::benchmark` and 15-30 % on a herd of inchworms (`docs/PERFORMANCE.md`).
#[must_use]
fn gpu_options(eval: &Evaluation) -> WorldOptions {
    WorldOptions {
        fixed_point: FixedPointScale::Pinned {
            force: eval.fixed_point_force,
            max_incidence: eval.max_incidence,
        },
        track_energy: false,
        ..WorldOptions::default()
    }
}
