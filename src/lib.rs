//! # hooke
//!
//! Mass-spring physics on the GPU, with a double-precision CPU reference integrator that checks
//! every GPU result.
//!
//! Point masses joined by damped springs fall under gravity, land on a ground with friction, and
//! some springs act as muscles: the model behind soft robots, evolved creatures, cloth, rope and
//! bouncing soft bodies.
//!
//! ## A first simulation
//!
//! Make a body with a builder, add it to a [`Model`], and step the model on the CPU reference
//! [`CpuWorld`]:
//!
//! ```
//! use hooke::prelude::*;
//!
//! // Lipson's cube (0.1 m, eight 0.1 kg corners, 28 springs of 10 000 N/m), its lowest corner
//! // 1 m above the ground, thrown along +x at 1 m/s.
//! let placement = Placement::at(DVec3::new(0.0, 0.0, 1.0)).with_velocity(DVec3::X);
//! let mut model = Model::new(Params::default()); // gravity 9.81 m/s^2 along -z, dt = 1e-4 s
//! let cube = model.add("cube", Cube::lipson().build_at(&placement)?);
//!
//! let mut world = CpuWorld::new(&model)?; // f64, on every core
//! let n = world.step_for(0.2)? as f64; // 0.2 s = 2000 steps, still in the air
//! let centre = world.body_centre_of_mass(cube)?; // m
//!
//! // Free flight: nothing pushes along x, and semi-implicit Euler drops a body by exactly
//! // g dt^2 n (n + 1) / 2 in n steps (the springs stay at rest). f64 rounding over 2000
//! // steps stays below 1e-12 m.
//! let dt = model.params.dt;
//! assert!((centre.x - (0.05 + 1.0 * 0.2)).abs() < 1e-9);
//! assert!((centre.z - (1.05 - 9.81 * dt * dt * n * (n + 1.0) / 2.0)).abs() < 1e-9);
//! # Ok::<(), hooke::Error>(())
//! ```
//!
//! ## The same on the GPU
//!
//! [`World`] runs the same model in f32 wgpu compute shaders on any adapter wgpu finds (Mesa's
//! lavapipe on machines without a GPU). It has the same methods as [`CpuWorld`] (both implement
//! [`Simulation`]), so switching backend is the one line that builds the world:
//!
//! ```
//! # use hooke::prelude::*;
//! # if cfg!(skip_gpu_tests) { return Ok(()); } // HOOKE_SKIP_GPU_TESTS=1: no adapter wanted
//! # let placement = Placement::at(DVec3::new(0.0, 0.0, 1.0)).with_velocity(DVec3::X);
//! # let mut model = Model::new(Params::default());
//! # let cube = model.add("cube", Cube::lipson().build_at(&placement)?);
//! let mut gpu = World::new(&model)?; // was: CpuWorld::new(&model)?
//! gpu.step_for(0.2)?;
//! let mut cpu = CpuWorld::new(&model)?;
//! cpu.step_for(0.2)?;
//! let gap = gpu.body_centre_of_mass(cube)? - cpu.body_centre_of_mass(cube)?;
//! // The World's f32 positions (about 1 m) round by at most half an ulp, 6e-8 m, per step,
//! // and its velocities by 6e-8 m/s: 2000 steps stay within 1.3e-4 m of the f64 reference.
//! assert!(gap.abs().max_element() < 2e-4);
//! # Ok::<(), hooke::Error>(())
//! ```
//!
//! Generic code over [`Simulation`] (in [`prelude`]) runs on either backend.
//!
//! ## Conventions
//! SI units everywhere (m, kg, s, N), z up, gravity `(0, 0, -9.81)` m/s^2 by default, the ground
//! is the plane `z = 0`. The default integrator is semi-implicit (symplectic) Euler:
//! `v += a dt`, then `p += v dt`.
//!
//! ## Where to go next
//! - Read the [`guide`]: concepts and units, the two backends, the determinism contract,
//!   scenes, terrain, collisions, control, populations, the `hooke` command, clusters,
//!   pictures, performance and troubleshooting, every snippet compiled and run as a test.
//! - Build bodies: [`builders`] ([`Cube`], [`VoxelBody`], [`ImageBody`], [`Rope`], [`Cloth`],
//!   [`RandomStructure`], [`Lattice`], [`ParticleBed`], [`MeshBody`] from an OBJ or STL mesh, placed with a [`Placement`]), or by hand from [`Mass`]es
//!   and [`Spring`]s in a [`Part`]; global settings are [`Params`].
//! - Save and load whole setups: [`Scene`] (JSON).
//! - Robots that move: [`creatures`] (walking robot, rolling wheels, inchworm, Lipson's
//!   structures).
//! - Run them: [`CpuWorld`], [`World`], the [`Simulation`] trait; read [`Energy`] to check a run.
//! - Pictures: [`render::Renderer`] (PNG frames), [`render::record`] (a GIF and an energy plot
//!   in one call), [`plot::EnergyPlot`].
//! - What can go wrong: [`Error`].
//!
//! The README (shown on crates.io) lists the runnable examples (`cargo run --release --example
//! bouncing_cube`, `walking_robot`, `creatures`, ...) and the benchmark figures; its code is
//! compiled and run with the doctests.
//!
//! ## Modules
//! - [`model`]: what a simulation is made of ([`Model`], [`Mass`], [`Spring`], [`Actuator`],
//!   [`Params`]).
//! - [`builders`]: parts made by builders ([`Cube`], [`VoxelBody`], [`ImageBody`], [`Rope`],
//!   [`Cloth`], [`RandomStructure`], [`Lattice`], [`ParticleBed`]) and placed with a
//!   [`Placement`].
//! - [`scene`]: [`Scene`] files in JSON: parameters plus bodies, turned into a [`Model`].
//! - [`collision_scenes`]: ready-made scenes of bodies that touch (jelly cubes head-on, a pile
//!   in a box, a cloth on a sphere), with a size knob.
//! - [`creatures`]: walking robot, rolling wheels, inchworm and Lipson structures that do what
//!   they claim on the CPU reference ([`creatures::Creature`]).
//! - [`cpu`]: the CPU reference integrator [`CpuWorld`], in `f64`.
//! - [`gpu`]: the GPU [`World`], the same physics in f32 as wgpu compute passes, with
//!   deterministic fixed-point force scatter.
//! - [`simulation`]: the [`Simulation`] trait, one API over both.
//! - [`energy`]: the [`Energy`] bookkeeping both backends report.
//! - [`state_hash`]: the [`StateHash`] of a world and of each body, the bits a replay is
//!   checked with (docs/DETERMINISM.md).
//! - [`error`]: the one [`Error`] type.
//! - [`population`]: voxel genomes, many robots in one World, per-robot fitness and failures.
//! - [`render`]: offscreen wgpu rendering (strain-coloured springs, masses, ground, shaded faces)
//!   to PNG and GIF, drawing from GPU position buffers or CPU positions; [`render::input`] holds
//!   the interactive viewer's input handling.
//! - [`plot`] (feature `plot`, on by default): energy plots to PNG.
//! - [`guide`]: the guide, chapters of explanation with tested examples (no items).

// docs.rs documents every feature and marks the items that need one.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod backend_choice;
pub mod builders;
pub mod collision_scenes;
pub mod control;
pub mod cpu;
pub mod creatures;
pub mod energy;
pub mod error;
mod format_version;
pub mod gpu;
pub mod guide;
mod input_file;
pub mod model;
#[cfg(feature = "plot")]
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub mod plot;
pub mod population;
mod readable_time;
pub mod render;
pub mod scene;
pub mod sensors;
pub mod simulation;
pub mod snapshot;
pub mod state_hash;
mod validate;

pub use backend_choice::{BackendChoice, OpenBackend};
pub use builders::{
    Builder, Cloth, Cube, CubicStiffness, ImageBody, Lattice, Material, MeshBody, Muscle,
    ParticleBed, Placement, RandomStructure, Rope, RoughGround, Slope, Staircase, TetMeshBody,
    Voxel, VoxelBody, VoxelPart, LATTICE_POISSON_RATIO,
};
pub use control::{ControlLoop, ControlRun, Controller};
pub use cpu::CpuWorld;
pub use energy::Energy;
pub use error::{Error, Result};
pub use glam::DMat3;
pub use glam::{DVec2, DVec3, Vec3};
pub use gpu::{
    AtomicWidth, FixedPoint, FixedPointScale, Precision, SpringPass, World, WorldOptions,
    WorldStats,
};
pub use input_file::{
    max_input_bytes, read_input, read_input_with_limit, DEFAULT_MAX_INPUT_BYTES,
    MAX_INPUT_BYTES_VAR,
};
pub use model::{steps_for, MAX_STEPS};
pub use model::{
    Actuator, Body, ClassCollision, Collision, Contact, DragSpring, DutyCycle, Friction,
    FrictionOscillator, FrictionRule, Heightfield, Integrator, Mass, Model, Obstacle, Params, Part,
    Shape, Spring, SpringLaw, StableDt, StableDtLimit, Surface, COLLISION_CLASSES,
    COLLISION_GROUP_DEFAULT, COLLISION_MASK_ALL, STANDARD_GRAVITY,
};
pub use scene::{
    BodyCollision, BodyKind, BodySpec, ImageSource, Joint, MassRef, Scene, SlopeTerrain, Terrain,
};
pub use sensors::{BodyReading, ContactReading, Readings, SensorSpec, SpringReading};
pub use simulation::{BodyState, Simulation};
pub use snapshot::{model_fingerprint, Snapshot, SnapshotBackend};
pub use state_hash::{StateHash, StateHashes};
pub use validate::MAX_BUILT_ELEMENTS;

/// The names most programs need, in one import: `use hooke::prelude::*;`. It brings the
/// [`Simulation`] trait (one API over [`CpuWorld`] and [`World`]), the model types, the builders
/// and glam's [`DVec3`]; it does not shadow `std`'s `Result`.
pub mod prelude {
    pub use crate::builders::{
        Builder, Cloth, Cube, ImageBody, Lattice, Placement, RandomStructure, Rope, VoxelBody,
    };
    pub use crate::{
        Actuator, BodyState, Contact, CpuWorld, DVec3, DragSpring, DutyCycle, Energy, Error,
        Friction, Integrator, Mass, Model, Params, Part, Scene, Simulation, Spring, SpringLaw,
        World, WorldOptions,
    };
    pub use crate::{BodyReading, ContactReading, DMat3, Readings, SensorSpec, SpringReading};
    pub use crate::{ControlLoop, Controller};
}

/// The README's code, compiled and run as a doctest so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
