//! # hooke
//!
//! Mass-spring physics on the GPU, with a double-precision CPU reference integrator that checks
//! every GPU result.
//!
//! Point masses joined by damped springs fall under gravity, land on a ground with friction, and
//! some springs act as muscles: the model behind soft robots, evolved creatures, cloth, rope and
//! bouncing soft bodies.
//!
//! ## Conventions
//! SI units everywhere (m, kg, s, N), z up, gravity `(0, 0, -9.81)` m/s^2 by default, the ground
//! is the plane `z = 0`. The default integrator is semi-implicit (symplectic) Euler:
//! `v += a dt`, then `p += v dt`.
//!
//! ## Pipeline
//! - [`model`]: what a simulation is made of ([`Model`], [`Mass`], [`Spring`], [`Actuator`],
//!   [`Params`]).
//! - [`builders`]: parts made by builders ([`Cube`], [`VoxelBody`], [`ImageBody`], [`Rope`],
//!   [`Cloth`], [`RandomStructure`], [`Lattice`]) and placed with a [`Placement`].
//! - [`scene`]: [`Scene`] files in JSON: parameters plus bodies, turned into a [`Model`].
//! - [`creatures`]: walking robot, rolling wheels, inchworm and Lipson structures that do what
//!   they claim on the CPU reference ([`creatures::Creature`]).
//! - [`cpu`]: the CPU reference integrator [`CpuWorld`], in `f64`.
//! - [`gpu`]: the GPU [`World`], the same physics in f32 as wgpu compute passes, with
//!   deterministic fixed-point force scatter.
//! - [`energy`]: the [`Energy`] bookkeeping both backends report.
//! - [`error`]: the one [`Error`] type.
//! - [`render`]: offscreen wgpu rendering (strain-coloured springs, masses, ground, shaded faces)
//!   to PNG and GIF, drawing from GPU position buffers or CPU positions; [`render::input`] holds
//!   the interactive viewer's input handling.
//! - [`plot`] (feature `plot`, on by default): energy plots to PNG.

pub mod builders;
pub mod cpu;
pub mod creatures;
pub mod energy;
pub mod error;
pub mod gpu;
pub mod model;
#[cfg(feature = "plot")]
pub mod plot;
pub mod render;
pub mod scene;
pub mod simulation;
mod validate;

pub use builders::{
    Builder, Cloth, Cube, ImageBody, Lattice, Muscle, Placement, RandomStructure, Rope, Voxel,
    VoxelBody, VoxelPart,
};
pub use cpu::CpuWorld;
pub use energy::Energy;
pub use error::{Error, Result};
pub use glam::{DVec3, Vec3};
pub use gpu::{
    AtomicWidth, FixedPoint, FixedPointScale, SpringPass, World, WorldOptions, WorldStats,
};
pub use model::{
    Actuator, Body, Contact, DragSpring, DutyCycle, Friction, FrictionOscillator, FrictionRule,
    Integrator, Mass, Model, Params, Part, Spring, SpringLaw, StableDt, StableDtLimit,
    STANDARD_GRAVITY,
};
pub use scene::{BodyKind, BodySpec, ImageSource, Joint, MassRef, Scene};
pub use simulation::{BodyState, Simulation};

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
}

/// The README's code, compiled and run as a doctest so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
