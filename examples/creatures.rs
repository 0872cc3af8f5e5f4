//! Seed 002's creatures on the CPU reference: the whirligig (6 spokes) and the pinwheel
//! (10 spokes) rolling forward with duty-cycle spoke muscles, and the inchworm crawling with
//! friction oscillators on its feet. Each runs for 10 s and prints how far it travelled.
//!
//! Writes each trace (time, centre of mass, energy terms) to `out/creatures/<name>.csv`.
//!
//! Run: `cargo run --release --example creatures [whirligig|pinwheel|inchworm|all]` (default all)

use std::path::Path;
use std::process::ExitCode;

use hooke::creatures::{Creature, Inchworm, Wheel};

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
    let trace = creature.run(DURATION, SAMPLE_TIME)?;
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
    println!("  wrote {}", csv.display());
    Ok(())
}

fn main() -> ExitCode {
    let which = std::env::args().nth(1).unwrap_or_else(|| "all".to_string());
    let builds: Vec<fn() -> hooke::Result<Creature>> = match which.as_str() {
        "whirligig" => vec![|| Wheel::whirligig().build()],
        "pinwheel" => vec![|| Wheel::pinwheel().build()],
        "inchworm" => vec![|| Inchworm::default().build()],
        "all" => vec![
            || Wheel::whirligig().build(),
            || Wheel::pinwheel().build(),
            || Inchworm::default().build(),
        ],
        other => {
            eprintln!("unknown creature {other:?}; expected whirligig, pinwheel, inchworm or all");
            return ExitCode::FAILURE;
        }
    };
    for build in builds {
        if let Err(e) = build().and_then(|c| run(&c)) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
