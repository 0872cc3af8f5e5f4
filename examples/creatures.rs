//! Facey's creatures on the CPU reference: the whirligig (6 spokes) and the pinwheel
//! (10 spokes) rolling forward with duty-cycle spoke muscles, and the inchworm crawling with
//! friction oscillators on its feet. Each runs for 10 s and prints how far it travelled.
//!
//! Writes to `out/creatures/`, for each creature: `<name>.gif` (10 s at 25 frames per
//! simulated second, the camera following it, springs coloured by strain against their actuated
//! rest lengths), `<name>_energy.png` (the energy terms over time) and `<name>.csv` (time, centre
//! of mass and energy terms every 0.01 s).
//!
//! Run: `cargo run --release --example creatures [whirligig|pinwheel|inchworm|all]` (default all)

use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use hooke::creatures::{Creature, Inchworm, Wheel};
use hooke::render::{record_cpu, Framing, RecordOptions, DEFAULT_AZIMUTH, DEFAULT_ELEVATION};

/// Simulated time, s.
const DURATION: f64 = 10.0;
/// Time between samples, s.
const SAMPLE_TIME: f64 = 0.01;
/// Output folder.
const OUT: &str = "out/creatures";

fn run(creature: &Creature) -> hooke::Result<()> {
    println!(
        "{}: {} masses, {} springs, {} muscles, {} friction oscillators, {:.2} m long",
        creature.name,
        creature.part.masses.len(),
        creature.part.springs.len(),
        creature.part.actuators.len(),
        creature
            .part
            .masses
            .iter()
            .filter(|m| m.friction_oscillator.is_some())
            .count(),
        creature.length,
    );
    let mut world = creature.world()?;
    let options = RecordOptions {
        duration: DURATION,
        sample_time: SAMPLE_TIME,
        frame_time: 0.04,
        framing: Framing::Follow,
        cells: creature.cells.clone(),
        // The wheels roll about y: look at them nearly square on.
        view: if creature.name == "inchworm" {
            (DEFAULT_AZIMUTH, DEFAULT_ELEVATION)
        } else {
            (-80f32.to_radians(), 12f32.to_radians())
        },
        title: format!("{}: energy", creature.name),
        ..RecordOptions::new(OUT, creature.name.replace(' ', "_"))
    };
    let summary = record_cpu(&mut world, &options)?;
    let trace = summary.trace;
    for (t, c) in trace.time.iter().zip(&trace.centre_of_mass).step_by(200) {
        println!("  t = {t:5.2} s   com x = {:7.3} m", c.x);
    }
    let forward = trace.forward_distance();
    println!(
        "  travelled {forward:.3} m forward in {DURATION} s (mean {:.3} m/s, {:.1} body lengths)",
        forward / DURATION,
        forward / creature.length
    );
    let csv = Path::new(OUT).join(format!("{}.csv", creature.name));
    trace.write_csv(&csv)?;
    println!(
        "  wrote {} ({} frames), {}, {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display(),
        csv.display()
    );
    Ok(())
}

/// Runs Facey's creatures and writes a GIF, an energy plot and a CSV trace of each.
#[derive(Parser)]
struct Args {
    /// The creature to run.
    #[arg(value_enum, default_value_t = Which::All)]
    which: Which,
}

/// The creatures.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Which {
    Whirligig,
    Pinwheel,
    Inchworm,
    All,
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Longer runs: a scene file with a `{"type": "wheel"}` or `{"type": "inchworm"}` body, `hooke run SCENE --duration 30 --gif OUT.gif`; a herd of 500 inchworms: `cargo run --release -p hooke-tools --bin throughput -- --population --creature inchworm --robots 500`."#;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let builds: Vec<fn() -> hooke::Result<Creature>> = match Args::parse().which {
        Which::Whirligig => vec![|| Wheel::whirligig().build()],
        Which::Pinwheel => vec![|| Wheel::pinwheel().build()],
        Which::Inchworm => vec![|| Inchworm::default().build()],
        Which::All => vec![
            || Wheel::whirligig().build(),
            || Wheel::pinwheel().build(),
            || Inchworm::default().build(),
        ],
    };
    for build in builds {
        if let Err(e) = build().and_then(|c| run(&c)) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    println!("Bigger: {BIGGER}");
    ExitCode::SUCCESS
}
