//! The CPU reference integrator, in double precision.
//!
//! [`CpuWorld`] runs a [`Model`](crate::Model) exactly as the model's docs describe. It is the
//! reference that the GPU `World` is checked against, and a fast backend in its own right: the
//! spring pass runs on every core without atomics, each chunk of springs accumulating into its
//! own force buffer, and the mass pass gathers those buffers in a fixed order, so results are
//! bit-identical run to run and independent of the number of threads.
//!
//! One step, at time `t`:
//! 1. `springs`: every spring's elastic and damping force, into the chunk force buffers.
//!    Actuated rest lengths are set for time `t` first.
//! 2. `collisions` (only when a mass has a collision radius): the broad phase (`src/model/mass_grid.rs`)
//!    and the penalty, damping and friction force between touching masses, gathered per mass in
//!    a fixed order. No GPU twin yet.
//! 3. `integrate`: per mass, gravity, external, drag-spring, air-drag and the collision
//!    penalty forces, then ground contact and friction (`ground`), then each obstacle's
//!    (`obstacles.rs`), then the collision damping and friction, then the velocity and position
//!    update.
//!
//! Each GPU kernel `shaders/NAME.wgsl` has its CPU twin in `src/cpu/NAME.rs` where the CPU runs
//! the same pass (ARCHITECTURE.md, "Kernels and their CPU twins", lists every kernel and its twin
//! or why it has none), with the same functions in the same order, the same names and, where the
//! types allow, the same arguments (in f64, with the CPU's own threading and chunking).
//!
//! The spring pass's files, from the leaves up (no file imports one above it):
//! - `lanes.rs`: the eight `f64` lanes the formulas are also written over and the AVX-512
//!   permutes; every per-spring formula (the law's effective stiffness, the force and damping,
//!   the elastic energy, a muscle's rest length) is the model's, once, in
//!   `src/model/spring_law/`: the twin of `shaders/shared/spring_pass.wgsl`'s `spring_force` and
//!   `elastic` and of `effective` and `wave_rest` in `shaders/shared/common.wgsl`;
//! - `tables.rs` (the spring table), `formed_rest.rs` and `alike_muscles.rs` (rest lengths
//!   formed in the walk), `chunk_actuators.rs` (each chunk's muscle records);
//! - the walks: `springs_simd.rs` (a run of springs, the scalar walk compiled for AVX2/AVX-512),
//!   `springs_stencil.rs` (large regular bodies), `springs_lanes.rs` (small bodies side by
//!   side, one per SIMD lane: the skeleton of `springs_alike.rs`, bodies alike, and
//!   `springs_template.rs`, bodies on a common template), each dispatched to the instruction set
//!   `simd.rs` picks ([`SimdLevel`]: detected, or forced with `HOOKE_SIMD`; every level gives
//!   the same bits);
//! - `springs.rs`: the pass, which walk each chunk takes (`chunks.rs` cuts the chunks).
//!
//! The mass pass: `mass_pass.rs` (what it reads), `obstacles.rs` (the obstacle table, contact and
//! `friction`, twin of `shaders/shared/obstacles.wgsl`), `integrate.rs` (`ground`,
//! `integrate_mass`, `integrate`), `integrate_simd.rs` (blocks of eight masses in SIMD lanes, bit
//! for bit `integrate_mass`). Energy: `energy_springs.rs`, `energy_masses.rs`; bodies and sensors:
//! `bodies.rs`, `sense.rs`; collisions: `collisions.rs` (the pass; which pairs may touch and the broad phase are the model's,
//! `src/model/collision_pairs.rs` and `src/model/mass_grid.rs`).
//!
//! The rest is the [`CpuWorld`] API: `world.rs` (state, building, readout), `step.rs`
//! (stepping), `edits.rs` (changes between steps), `commands.rs` (the commanded actuators'
//! commands), `actuation.rs` (the muscles' share of a step), `waves.rs` (the actuators' distinct
//! sine waves, one sine each per step), `oscillators.rs` (the masses' distinct friction
//! oscillators, one cosine each per step); `chunks.rs` cuts the springs into chunks (only
//! between bodies, so a robot's bits do not depend on its batch) and `pool.rs` holds the
//! persistent worker pools the passes run on from 10 000 springs up. Tests that need a whole
//! world and its insides are in `tests/`, above every other file.

mod actuation;
mod alike_muscles;
mod bodies;
mod chunk_actuators;
mod chunks;
mod collisions;
mod commands;
mod edits;
mod energy_masses;
mod energy_springs;
mod formed_rest;
mod integrate;
mod integrate_simd;
mod lanes;
mod mass_pass;
mod obstacles;
mod oscillators;
mod pool;
mod reset_body;
mod sense;
mod simd;
mod snapshot;
mod springs;
mod springs_alike;
mod springs_lanes;
mod springs_simd;
mod springs_stencil;
mod springs_template;
mod step;
mod tables;
#[cfg(test)]
mod tests;
mod waves;
mod world;

pub use chunks::SPRINGS_PER_CHUNK;
pub use simd::{SimdLevel, SIMD_ENV};
pub use world::CpuWorld;
