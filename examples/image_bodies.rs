//! Anderson's image bodies: a square, a beam and the letter M, each drawn as a small PNG in
//! `assets/` (every black pixel a mass, joined to its 8 neighbours), tilted by 0.5 rad, lifted
//! 1 m and dropped with that paper's Table I parameters (s = 0.15 m, m = 0.2 kg, k = 5000 N/m,
//! c = 10 N*s/m, dt = 1e-3 s, air drag 0.9 N*s/m, restitution 0.7, friction 0.6).
//!
//! For each body, prints the first touch, how high its lowest point bounced back off the ground
//! afterwards, and how far its centre of mass slid along x from the first touch to the end; and
//! writes to `out/image_bodies/`: `<name>.gif` (3 s at one frame every 30 steps, CS838's
//! frame time, seen square onto the body's plane) and `<name>_energy.png`.
//!
//! Run: `cargo run --release --example image_bodies [square|beam|m|all]` (default all)

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use hooke::render::{record_cpu_with, RecordOptions};
use hooke::{CpuWorld, ImageBody, Model};

/// Simulated time, s.
const DURATION: f64 = 3.0;
/// Output folder.
const OUT: &str = "out/image_bodies";
/// A mass counts as touching the ground below this height, m (the restitution contact keeps
/// masses at z >= 0; a falling mass covers at most about 5 mm per 1 ms step here).
const TOUCH: f64 = 1e-3;

fn run(name: &str) -> hooke::Result<()> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(format!("{name}.png"));
    let part = ImageBody::anderson_table1().from_path(&path)?;
    let (masses, springs) = (part.masses.len(), part.springs.len());
    let mut model = Model::new(ImageBody::anderson_params());
    model.add(name, part);
    let mut world = CpuWorld::new(&model)?;

    let options = RecordOptions {
        duration: DURATION,
        frame_time: 0.03,
        sample_time: 0.002,
        // The body lies in the x-z plane: look along +y, a little from above.
        view: ((-90f32).to_radians(), 10f32.to_radians()),
        title: format!("Anderson {name}: energy"),
        ..RecordOptions::new(OUT, name)
    };
    // First touch (time, centre of mass x), and the highest clearance after it.
    let mut touch: Option<(f64, f64)> = None;
    let mut bounce = 0.0f64;
    let summary = record_cpu_with(&mut world, &options, |w, _| {
        let lowest = w
            .position_slice()
            .iter()
            .map(|p| p.z)
            .fold(f64::MAX, f64::min);
        match touch {
            None if lowest < TOUCH => touch = Some((w.time(), w.body_centre_of_mass(0)?.x)),
            Some(_) => bounce = bounce.max(lowest),
            None => {}
        }
        Ok(())
    })?;
    let end = summary
        .trace
        .centre_of_mass
        .last()
        .copied()
        .unwrap_or_default();
    let energy = summary.trace.energy.last().copied().unwrap_or_default();
    match touch {
        Some((t, x)) => println!(
            "{name}: {masses} masses, {springs} springs; touched down at t = {t:.3} s, bounced \
             its lowest point back up to {bounce:.3} m, slid {:.3} m along x by t = {DURATION} s \
             ({:.2} J dissipated)",
            end.x - x,
            energy.dissipated,
        ),
        None => println!("{name}: {masses} masses, {springs} springs; never touched the ground"),
    }
    println!(
        "  wrote {} ({} frames), {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display()
    );
    Ok(())
}

/// Runs Anderson's image bodies and writes a GIF and an energy plot of each.
#[derive(Parser)]
struct Args {
    /// The body to run.
    #[arg(default_value = "all", value_parser = ["square", "beam", "m", "all"])]
    which: String,
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Your own picture: a scene with `{"type": "image", "path": "my.png"}` run by `hooke run SCENE --gif out/my.gif` (scenes/image_m.json shows one)."#;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let which = Args::parse().which;
    let names: &[&str] = match which.as_str() {
        "all" => &["square", "beam", "m"],
        one => &[one],
    };
    for name in names {
        if let Err(e) = run(name) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    println!("Bigger: {BIGGER}");
    ExitCode::SUCCESS
}
