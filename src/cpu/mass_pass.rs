//! What the mass pass reads and writes (the CPU side of `integrate.wgsl`'s bindings): the
//! pass's inputs ([`MassPass`]), the masses one invocation integrates ([`MassState`]) and what
//! it books ([`MassOutcome`]), shared by the scalar pass (`integrate.rs`) and the blocks in SIMD
//! lanes (`integrate_simd.rs`).

use glam::DVec3;

use super::collisions::Touch;
use super::lanes::Wide;
use super::obstacles::Solids;
use super::oscillators::Oscillators;
use super::springs::Chunk;
use crate::model::{DragSpring, Params, SpeedLimit};
use crate::sensors::ContactReading;

/// What the mass pass reads (the CPU side of the WGSL's bindings).
#[derive(Clone, Copy)]
pub(super) struct MassPass<'a> {
    /// The global parameters (WGSL `params`).
    pub(super) params: &'a Params,
    /// Time at the start of the step, s (WGSL `step.time`).
    pub(super) time: f64,
    /// The blow-up bound (WGSL `step.speed_energy`, `step.speed_growth`).
    pub(super) limit: SpeedLimit,
    /// `exp(-velocity_damping dt)`, applied to every new velocity.
    pub(super) damping_factor: f64,
    /// The drag spring, if any.
    pub(super) drag: Option<DragSpring>,
    /// Mass of each mass, kg (WGSL `mass_table`).
    pub(super) mass: &'a [f64],
    /// Whether each mass is fixed.
    pub(super) fixed: &'a [bool],
    /// Constant external force on each mass, N.
    pub(super) external: &'a [DVec3],
    /// Friction oscillator of each mass, evaluated for this step (WGSL `oscillator_table`).
    pub(super) oscillators: &'a Oscillators,
    /// The spring pass's per-chunk force buffers (WGSL `forces`).
    pub(super) chunks: &'a [Chunk],
    /// The model's obstacles, touched after the ground (`obstacles.rs`; WGSL `obstacle_table`).
    pub(super) obstacles: &'a Solids,
    /// The collision pass's force on each mass (`collisions.rs`; empty when no mass collides).
    pub(super) touch: &'a [Touch],
    /// Whether blocks of masses may run in SIMD lanes (`integrate_simd.rs`).
    pub(super) lanes: bool,
    /// AVX-512 for the blocks' loads, where the CPU has it (`lanes::wide`).
    pub(super) wide: Wide,
    /// Whether the energies are booked (`CpuWorld::set_track_energy`): off, the pass skips the
    /// sums, a serial chain of three additions per mass.
    pub(super) book_energy: bool,
}

/// The masses one invocation of the pass integrates: `pos[j]`, `vel[j]` are mass `first + j`.
pub(super) struct MassState<'a> {
    /// Positions, m.
    pub(super) pos: &'a mut [DVec3],
    /// Velocities, m/s.
    pub(super) vel: &'a mut [DVec3],
    /// Scratch for the gathered spring force of each mass, N.
    pub(super) force: &'a mut [DVec3],
    /// Where each mass's contact is recorded (empty: not recorded).
    pub(super) contacts: &'a mut [ContactReading],
    /// Index of `pos[0]` in the model.
    pub(super) first: usize,
}

/// What a pass (or part of one) books over the step.
#[derive(Default)]
pub(super) struct MassOutcome {
    /// Energy dissipated, J.
    pub(super) dissipated: f64,
    /// Work injected by external and drag-spring forces, J.
    pub(super) injected: f64,
    /// Lowest mass whose new position or velocity is not finite or over the speed limit.
    pub(super) first_bad: Option<usize>,
}
