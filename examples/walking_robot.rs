//! The walking robot of Lipson (items 6-7): a voxel table on four actuated legs trotting
//! forward on the penalty ground with Coulomb friction, simulated for 10 s on the CPU reference.
//!
//! Prints the distance its centre of mass travelled (in m and body lengths), its mean speed and
//! sideways drift, and writes to `out/walking_robot/` (or the folder given as the first
//! argument):
//! - `walker.gif`: the 10 s at 25 frames per simulated second, voxels shaded, springs coloured
//!   by strain against their actuated rest lengths, the camera following the robot;
//! - `walker_energy.png`: the energy terms over time (the muscles inject what friction and
//!   damping dissipate);
//! - `trace.csv`: time, centre of mass and energy terms every 0.01 s.
//!
//! Run: `cargo run --release --example walking_robot [OUT_DIR]`

use std::path::PathBuf;

use clap::Parser;
use hooke::creatures::WalkingRobot;
use hooke::render::{record_cpu, Framing, RecordOptions};

/// Simulated time, s.
const DURATION: f64 = 10.0;
/// Time between samples, s.
const SAMPLE_TIME: f64 = 0.01;

/// Walks Lipson's robot for 10 s and writes its GIF, energy plot and trace.
#[derive(Parser)]
struct Args {
    /// Folder to write to.
    #[arg(default_value = "out/walking_robot")]
    out: PathBuf,
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Longer, or on terrain: `hooke run scenes/walker_slope.json --duration 30 --gif out/walker.gif` (also walker_stairs.json, walker_rough.json)."#;

fn main() -> hooke::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let out = Args::parse().out;
    let robot = WalkingRobot::default();
    let creature = robot.build()?;
    println!(
        "walking robot: {} masses, {} springs, {} muscles, body {:.2} m long; \
         gait {:.1} Hz, mu_s = {}, mu_k = {}, dt = {} s",
        creature.part.masses.len(),
        creature.part.springs.len(),
        creature.part.actuators.len(),
        creature.length,
        robot.omega / std::f64::consts::TAU,
        robot.friction.static_coefficient,
        robot.friction.kinetic_coefficient,
        creature.params.dt,
    );
    let mut world = creature.world()?;
    let options = RecordOptions {
        duration: DURATION,
        sample_time: SAMPLE_TIME,
        frame_time: 0.04,
        framing: Framing::Follow,
        cells: creature.cells.clone(),
        title: "Walking robot: energy".to_string(),
        ..RecordOptions::new(&out, "walker")
    };
    let summary = record_cpu(&mut world, &options)?;
    let trace = summary.trace;
    for (t, c) in trace.time.iter().zip(&trace.centre_of_mass).step_by(100) {
        println!(
            "  t = {t:5.2} s   com = ({:7.3}, {:7.3}, {:6.3}) m",
            c.x, c.y, c.z
        );
    }
    let forward = trace.forward_distance();
    println!(
        "travelled {forward:.3} m forward in {DURATION} s ({:.2} body lengths, mean {:.3} m/s), \
         {:.3} m sideways",
        forward / creature.length,
        forward / DURATION,
        trace.sideways_drift()
    );
    let csv = out.join("trace.csv");
    trace.write_csv(&csv)?;
    println!(
        "wrote {} ({} frames), {}, {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display(),
        csv.display()
    );
    println!("Bigger: {BIGGER}");
    Ok(())
}
