//! [`Backend`]: the worlds a population is evaluated on, built with the evaluation's pins.

use super::Evaluation;
use crate::cpu::CpuWorld;
use crate::error::Result;
use crate::gpu::{FixedPointScale, World, WorldOptions};
use crate::model::{Model, SpeedLimit};
use crate::simulation::Simulation;

/// A world a [`Population`](super::Population) can be evaluated on: [`CpuWorld`] or [`World`]
/// (sealed). Both are built with what would otherwise depend on the whole batch pinned from the
/// [`Evaluation`]: the blow-up bound, and on the GPU the fixed-point encoding
/// ([`FixedPointScale::Pinned`] with [`Evaluation::fixed_point_force`] and
/// [`Evaluation::max_incidence`]).
pub trait Backend: Simulation + Sized + sealed::Sealed {}

impl Backend for CpuWorld {}
impl Backend for World {}

pub(crate) mod sealed {
    use super::{Evaluation, Model, Result};

    /// What the evaluator needs beyond [`Simulation`](crate::Simulation).
    pub trait Sealed {
        /// The world of `model` with the evaluation's pins.
        fn build(model: &Model, eval: &Evaluation) -> Result<Self>
        where
            Self: Sized;
        /// Replaces the blow-up bound (kept across resets).
        fn pin_bound(&mut self);
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

impl sealed::Sealed for CpuWorld {
    fn build(model: &Model, _eval: &Evaluation) -> Result<Self> {
        let mut w = CpuWorld::new(model)?;
        w.pin_bound();
        // Fitness reads body states only; booking never changes a trajectory's bits.
        w.set_track_energy(false);
        Ok(w)
    }
    fn pin_bound(&mut self) {
        self.pin_speed_limit(backstop());
    }
}

impl sealed::Sealed for World {
    fn build(model: &Model, eval: &Evaluation) -> Result<Self> {
        let (device, queue) = crate::gpu::request_device()?;
        let mut w = World::with_device(device, queue, model, gpu_options(eval))?;
        w.pin_bound();
        Ok(w)
    }
    fn pin_bound(&mut self) {
        self.pin_speed_limit(backstop());
    }
}

/// The World options of an evaluation: defaults with the fixed-point encoding pinned, and no
/// energy booking (fitness reads the bodies' states only, and booking does not change a
/// trajectory's bits: `energy_booking_off_keeps_the_trajectorys_bits`). On lavapipe that gains
/// 2-8 % on `Population::benchmark` and 15-30 % on a herd of inchworms (`docs/PERFORMANCE.md`).
#[must_use]
pub(crate) fn gpu_options(eval: &Evaluation) -> WorldOptions {
    WorldOptions {
        fixed_point: FixedPointScale::Pinned {
            force: eval.fixed_point_force,
            max_incidence: eval.max_incidence,
        },
        track_energy: false,
        ..WorldOptions::default()
    }
}
