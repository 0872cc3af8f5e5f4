//! Creatures: parameterised soft robots and the scenarios of the source documents
//! (docs/SOURCES.md) that really do what they claim on the CPU reference, each returned as a
//! [`Creature`] (a [`Part`](crate::Part) plus the [`Params`](crate::Params) it was tuned for).
//!
//! | builder | what it does | source (docs/SOURCES.md) |
//! |---|---|---|
//! | [`WalkingRobot`] | a voxel table on four actuated legs that trots forward (+x) | Lipson (items 6-7) |
//! | [`Wheel`] ([`Wheel::whirligig`], [`Wheel::pinwheel`]) | a spoked wheel that rolls forward, spokes kicking in turn on duty cycles | Facey |
//! | [`Inchworm`] | a segmented worm that crawls forward by stretching and toggling the friction of its feet | Facey |
//! | [`BreathingCube`] | the Lipson cube with every spring actuated by a sine | Lipson |
//! | [`Pendulum`] | the Lipson cube hanging from one fixed corner | Lipson |
//! | [`DroppedStructure`] | three attached cubes, a hinge, or a random blob, dropped on the ground | Lipson |
//!
//! The physics is honest: every creature moves only through its springs, actuators (rest
//! lengths changing in time), ground contact, friction and gravity; nothing pushes it along.
//! Each builder documents the distance it travels on the CPU reference (`tests/integration/creatures.rs`
//! asserts it) and the parameters it needs.
//!
//! ```
//! use hooke::creatures::Inchworm;
//!
//! # fn main() -> hooke::Result<()> {
//! let worm = Inchworm::default().build()?;
//! let trace = worm.run(1.0, 0.1)?; // 1 s of simulated time, sampled every 0.1 s
//! assert!(trace.forward_distance() > 0.0);
//! # Ok(())
//! # }
//! ```
//!
//! All parts are laid out with their lowest masses on the ground plane `z = 0` (or, for dropped
//! structures and the pendulum, at the height their builder documents), facing +x.
//!
//! `creature.rs` ([`Creature`]), `trace.rs` ([`Trace`]) and `deformation.rs` ([`Deformation`],
//! the actuators of a periodic deformation) are what the builders share; one file per builder.

mod commanded_walker;
mod creature;
mod deformation;
mod inchworm;
mod lipson;
mod trace;
mod walker;
mod wheel;

pub use commanded_walker::{CommandedWalker, Leg};
pub use creature::Creature;
pub use deformation::Deformation;
pub use inchworm::Inchworm;
pub use lipson::{BreathingCube, DroppedStructure, Pendulum, StructureKind};
pub use trace::Trace;
pub use walker::WalkingRobot;
pub use wheel::Wheel;
