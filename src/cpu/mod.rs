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
//! Each GPU kernel `shaders/NAME.wgsl` has its CPU twin in `src/cpu/NAME.rs`, with the same
//! functions in the same order, the same names and, where the types allow, the same arguments
//! (in f64, with the CPU's own threading and chunking):
//!
//! | kernel | CPU twin |
//! |---|---|
//! | `springs.wgsl`, `spring_pass.wgsl` (`spring_force`, `elastic`) | `springs.rs` (the pass, the chunks, the scalar reference walk), `springs_simd.rs` (the per-chunk kernel the pass runs, bit-identical to the scalar walk, AVX2 where the CPU has it) |
//! | `springs_stencil.wgsl` (and `src/gpu/stencil.rs`'s offsets) | `springs_stencil.rs` (large regular bodies: springs by index offset, four or eight masses per SIMD operation; same per-spring operations, each mass's sum in another fixed order) |
//! | (no GPU twin: the GPU runs every body in parallel already) | `springs_alike.rs` (small bodies alike, one per SIMD lane, each lane the scalar walk: the same bits) |
//! | (no GPU twin) | `springs_template.rs` (small bodies of different shapes cut from one grid, one per SIMD lane on a common template, each lane the scalar walk: the same bits) |
//! | `shared/spring_pass.wgsl` (`muscle_rest`) | `formed_rest.rs`, `alike_muscles.rs` (the muscles' rest lengths formed in the walk from base length, amplitude and wave: the same bits as `actuation.rs` stores) |
//! | `integrate.wgsl` (`ground`, `integrate_mass`, `integrate`) | `integrate.rs`, `integrate_simd.rs` (blocks of eight masses in SIMD lanes, bit for bit `integrate_mass`) |
//! | `shared/obstacles.wgsl` (`friction`, `obstacles`, `obstacle`, `obstacle_energy`; the shapes) | `obstacles.rs` (`Solid`, `obstacles`, `obstacle`, `obstacle_energy`), `integrate.rs` (`friction`), `model/shape/` (the shapes, one file per kind) |
//! | `energy_springs.wgsl` | `energy_springs.rs` |
//! | `energy_masses.wgsl` | `energy_masses.rs` |
//! | `bodies.wgsl` | `bodies.rs` |
//! | `sense_bodies.wgsl`, `sense_gather.wgsl` | `sense.rs` (the contacts recorded by `integrate.rs`) |
//!
//! The rest is the [`CpuWorld`] API: `world.rs` (state, building, readout), `step.rs`
//! (stepping), `edits.rs` (changes between steps), `commands.rs` (the commanded actuators'
//! commands), `waves.rs` (the actuators' distinct sine waves, one sine each per step),
//! `oscillators.rs` (the masses' distinct friction oscillators, one cosine each per step),
//! `sense.rs` (the sensors) and `tables.rs` (the spring table); `chunks.rs` cuts the springs
//! into chunks (only between bodies, so a robot's bits do not depend on its batch) and
//! `pool.rs` holds the persistent worker pools the passes run on from 10 000 springs up.

mod actuation;
mod alike_muscles;
mod bodies;
mod chunks;
mod collisions;
mod commands;
mod edits;
mod energy_masses;
mod energy_springs;
mod formed_rest;
mod integrate;
mod integrate_simd;
mod obstacles;
mod oscillators;
mod pool;
mod sense;
mod springs;
mod springs_alike;
mod springs_simd;
mod springs_stencil;
mod springs_template;
mod step;
mod tables;
mod waves;
mod world;

pub(crate) use crate::model::collision_exclusions;
pub(crate) use crate::model::steps_for;
pub use chunks::SPRINGS_PER_CHUNK;
pub use world::CpuWorld;
