//! Closed-loop control: run a world for a duration and call a controller every control period
//! with the sensors it asked for and the commanded actuators' values to fill.
//!
//! One control tick is: read the sensors
//! ([`Simulation::sense`](crate::Simulation::sense), one batched readback on the GPU), call the
//! controller, upload the commands
//! ([`Simulation::set_commands`](crate::Simulation::set_commands), one buffer write), then
//! `period` steps that stay on the device. The first tick is at the world's current time, before
//! any step of the run; the last period is shortened when the duration is not a multiple of it.
//!
//! # Examples
//!
//! An integral controller that holds a hanging weight at a set spring length: a 1 kg mass hangs
//! from a fixed point by a 1 m spring (k = 100 N/m) whose rest length is commanded. Gravity
//! stretches it by `m g / k = 0.098 m`; the controller shortens the rest length until the spring
//! is exactly 1 m long.
//!
//! ```
//! use hooke::prelude::*;
//! use hooke::{Actuator, ControlLoop};
//!
//! let mut part = Part::new();
//! part.add_mass(Mass::new(1.0, DVec3::ZERO).fixed());
//! part.add_mass(Mass::new(1.0, DVec3::new(0.0, 0.0, -1.0)));
//! part.add_spring(Spring::hooke(0, 1, 100.0, 1.0).with_damping(20.0));
//! part.actuators.push(Actuator::commanded(0, 0.5)); // rest length 1 m * (1 + c), |c| <= 0.5
//! let params = Params { contact: Contact::None, ..Params::default() };
//! let mut model = Model::new(params);
//! model.add("weight", part);
//! let mut world = CpuWorld::new(&model)?; // or World::new(&model)? on the GPU
//!
//! // Every 100 steps (10 ms): read the spring's length, integrate the error into the command.
//! let control = ControlLoop::new(100, SensorSpec { springs: vec![0], ..SensorSpec::default() });
//! let mut hold = |readings: &Readings, commands: &mut [f64]| {
//!     commands[0] += 0.05 * (1.0 - readings.springs[0].length);
//! };
//! let run = control.run(&mut world, 5.0, &mut hold)?;
//! assert_eq!((run.ticks, run.steps), (500, 50_000));
//! let length = world.sense(&SensorSpec { springs: vec![0], ..SensorSpec::default() })?.springs[0].length;
//! assert!((length - 1.0).abs() < 1e-3, "{length}"); // without control it would be 1.098 m
//! # Ok::<(), hooke::Error>(())
//! ```

mod run;

pub use run::{ControlLoop, ControlRun, Controller};
