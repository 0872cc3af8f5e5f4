//! Closed loop against open loop: two copies of Lipson's walking robot in one world, every leg
//! muscle commanded by a controller written here, each foot with a touch sensor.
//!
//! - **open loop** (the twin): the built-in trot, replayed as commands: each leg stretches with
//!   `lift sin(omega t + pi g)` and shears with `-stride cos(omega t + pi g)`, whatever its foot
//!   feels.
//! - **closed loop** (a reflex): the same stretch, but the shear follows the foot's touch sensor:
//!   while the foot is on the ground the leg pushes it backward (`+stride`), while it is in the
//!   air it swings it forward (`-stride`), through a first-order lag of `LAG` s so the muscles do
//!   not jerk. No foot ever drags forward on the ground, which is where the open-loop gait loses
//!   ground.
//!
//! The two bodies cannot touch each other (no collision radii), so one World runs both, side by
//! side 1 m apart. Prints how far each walked; writes `reflex_walker.gif` (both robots) and an
//! energy plot to `out/reflex_walker/`.
//!
//! Run: `cargo run --release --example reflex_walker [-- --gpu] [--duration 10]`

use std::f64::consts::PI;
use std::path::PathBuf;

use clap::Parser;
use hooke::creatures::{CommandedWalker, WalkingRobot};
use hooke::prelude::*;
use hooke::render::{record_with, Framing, RecordOptions};

/// Time constant of the closed loop's shear lag, s.
const LAG: f64 = 0.02;
/// Steps per control period (1 ms at the robot's dt of 0.1 ms).
const PERIOD: u64 = 10;

/// Walks an open-loop and a closed-loop robot side by side and compares their distances.
#[derive(Parser)]
struct Args {
    /// Simulated time, s.
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Run on the GPU World instead of the CPU reference.
    #[arg(long)]
    gpu: bool,
    /// Folder to write to.
    #[arg(long, default_value = "out/reflex_walker")]
    out: PathBuf,
}

/// The controller of both robots: robot 0 replays the trot, robot 1 adds the touch reflex.
struct Reflex {
    robot: WalkingRobot,
    walker: CommandedWalker,
    /// Actuators per robot: robot 1's command indices follow robot 0's.
    actuators: usize,
    /// Masses per robot.
    masses: usize,
    /// The closed loop's current shear per leg.
    shear: [f64; 4],
    /// Steering gain, per rad of heading error.
    steer: f64,
}

impl Reflex {
    fn control(&mut self, readings: &Readings, commands: &mut [f64]) {
        let (omega, lift, stride) = (self.robot.omega, self.robot.lift, self.robot.stride);
        let dt = PERIOD as f64 * self.robot.dt;
        // Heading of the closed-loop robot: its body x axis, turned about z by `yaw` rad.
        let heading = readings.bodies[1]
            .orientation
            .map_or(glam::DVec3::X, |r| r.x_axis);
        let yaw = heading.y.atan2(heading.x);
        let (open, closed) = commands.split_at_mut(self.actuators);
        for (l, leg) in self.walker.legs.iter().enumerate() {
            let phase = omega * readings.time + PI * f64::from(leg.group);
            leg.command(lift * phase.sin(), -stride * phase.cos(), open);
            // Contact readings list robot 1's feet, leg after leg (see `sensors`).
            let first: usize = self.walker.legs[..l].iter().map(|g| g.feet.len()).sum();
            let feet = &readings.contacts[first..first + leg.feet.len()];
            // Steering: the legs on the side the body turned away from push harder.
            let side = if leg.left { 1.0 } else { -1.0 };
            let push = stride * (1.0 + self.steer * side * yaw).clamp(0.0, 2.0);
            let target = if feet.iter().any(|c| c.touching) {
                push
            } else {
                -push
            };
            self.shear[l] += (target - self.shear[l]) * (dt / LAG).min(1.0);
            leg.command(lift * phase.sin(), self.shear[l], closed);
        }
    }

    /// Robot 1's feet, leg after leg (indices into the two-robot model).
    fn sensors(&self) -> SensorSpec {
        let contacts = self
            .walker
            .legs
            .iter()
            .flat_map(|leg| leg.feet.iter().map(|&f| self.masses + f))
            .collect();
        SensorSpec {
            bodies: vec![0, 1],
            orientation: true,
            contacts,
            ..SensorSpec::default()
        }
    }
}

fn main() -> hooke::Result<()> {
    let args = Args::parse();
    let robot = WalkingRobot::default();
    let walker = robot.commanded()?;
    let part = &walker.creature.part;
    let mut model = Model::new(walker.creature.params);
    model.add("open loop", part.clone());
    let mut twin = part.clone();
    twin.translate(DVec3::new(0.0, 1.0, 0.0));
    model.add("closed loop", twin);
    let mut reflex = Reflex {
        robot,
        actuators: part.actuators.len(),
        masses: part.masses.len(),
        walker: walker.clone(),
        shear: [0.0; 4],
        steer: std::env::var("STEER").map_or(0.0, |v| v.parse().unwrap()),
    };
    let sensors = reflex.sensors();
    let cells: Vec<[u32; 8]> = (0..2u32)
        .flat_map(|r| {
            let offset = r * reflex.masses as u32;
            walker
                .creature
                .cells
                .iter()
                .map(move |c| c.map(|m| m + offset))
        })
        .collect();
    let options = RecordOptions {
        duration: args.duration,
        sample_time: PERIOD as f64 * robot.dt,
        frame_time: 0.04,
        framing: Framing::Follow,
        cells,
        title: "Open and closed loop: energy".to_string(),
        ..RecordOptions::new(&args.out, "reflex_walker")
    };
    let mut commands = vec![0.0; 2 * reflex.actuators];
    let mut control = |world: &mut dyn Simulation, _sample: usize| -> hooke::Result<()> {
        let readings = world.sense(&sensors)?;
        reflex.control(&readings, &mut commands);
        world.set_commands(&commands)
    };
    let (start, end, summary) = if args.gpu {
        let mut world = World::new(&model)?;
        let start = world.bodies()?;
        let summary = record_with(&mut world, &model, &options, |w, s| control(w, s))?;
        (start, world.bodies()?, summary)
    } else {
        let mut world = CpuWorld::new(&model)?;
        let start = world.bodies()?;
        let summary = record_with(&mut world, &model, &options, |w, s| control(w, s))?;
        (start, world.bodies()?, summary)
    };
    for (b, name) in ["open loop", "closed loop"].iter().enumerate() {
        let d = end[b].centre_of_mass - start[b].centre_of_mass;
        println!(
            "{name:>11}: {:6.3} m forward, {:6.3} m sideways in {} s",
            d.x, d.y, args.duration
        );
    }
    println!(
        "wrote {} ({} frames), {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display()
    );
    Ok(())
}
