//! Lipson's structures on the CPU reference: the breathing cube (every spring actuated by a
//! sine), the pendulum (a cube hanging from one fixed corner), three attached cubes, a hinge (two
//! cubes sharing an edge) and a random blob, the last three dropped on the ground with Coulomb
//! friction. Each runs for 3 s and prints a short summary.
//!
//! Writes to `out/lipson_structures/`, for each structure: `<name>.gif` (3 s at 50 frames per
//! simulated second, voxel bodies shaded, springs coloured by strain), `<name>_energy.png` (the
//! energy terms over time) and `<name>.csv` (time, centre of mass and energy terms every
//! 5 ms).
//!
//! Run: `cargo run --release --example lipson_structures
//! [breathing|pendulum|three_cubes|hinge|random_blob|all]` (default all)

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use hooke::creatures::{BreathingCube, Creature, DroppedStructure, Pendulum};
use hooke::render::{
    record_cpu, record_cpu_with, Camera, Framing, RecordOptions, RecordingSummary,
};
use hooke::{CpuWorld, DVec3};

/// Simulated time, s.
const DURATION: f64 = 3.0;
/// Time between samples, s.
const SAMPLE_TIME: f64 = 0.005;
/// Output folder.
const OUT: &str = "out/lipson_structures";
/// Time between GIF frames, s.
const FRAME_TIME: f64 = 0.02;

/// What to record for `creature`: the GIF, plot and trace of its run.
fn options(creature: &Creature) -> RecordOptions {
    let mut options = RecordOptions {
        duration: DURATION,
        sample_time: SAMPLE_TIME,
        frame_time: FRAME_TIME,
        cells: creature.cells.clone(),
        title: format!("{}: energy", creature.name),
        ..RecordOptions::new(OUT, stem(creature))
    };
    // Lipson's stiff springs strain little: saturate the colours at 1 %.
    options.style.strain_scale = 0.01;
    options
}

/// File stem for `creature`: its name with underscores for spaces.
fn stem(creature: &Creature) -> String {
    creature.name.replace(' ', "_")
}

/// Runs `creature` for `DURATION` s, writing its GIF and energy plot as `options` say, calling
/// `each` at every sample; returns what was recorded and the world at the end.
fn record(
    creature: &Creature,
    options: &RecordOptions,
    each: impl FnMut(&mut CpuWorld, usize) -> hooke::Result<()>,
) -> hooke::Result<(RecordingSummary, CpuWorld)> {
    let mut world = creature.world()?;
    let summary = record_cpu_with(&mut world, options, each)?;
    Ok((summary, world))
}

fn breathing() -> hooke::Result<()> {
    let creature = BreathingCube::default().build()?;
    // Edge between corners 4 and 5 (the top front edge), sampled with the trace.
    let mut edges = Vec::new();
    let (summary, _) = record(&creature, &options(&creature), |w, _| {
        edges.push(w.position_slice()[4].distance(w.position_slice()[5]));
        Ok(())
    })?;
    let (lo, hi) = edges
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &e| (lo.min(e), hi.max(e)));
    println!(
        "breathing cube: 28 muscles at 1 Hz, amplitude 10 %: top edge between {lo:.4} and {hi:.4} m \
         (rest 0.1 m); muscles did {:.3} J of work",
        summary.trace.energy.last().map_or(0.0, |e| e.injected)
    );
    write(&creature, &summary)
}

fn pendulum() -> hooke::Result<()> {
    let creature = Pendulum::default().build()?;
    let pivot = creature.part.masses[Pendulum::PIVOT].position;
    let along = DVec3::new(1.0, 1.0, 0.0).normalize();
    let mut crossings = Vec::new();
    let mut last = f64::NAN;
    // A camera on the swing, not the 0.5 m of air below it: the cube (diagonal 0.17 m) stays
    // within 0.18 m of its pivot.
    let reach = DVec3::splat(0.18).as_vec3();
    let (lo, hi) = (pivot.as_vec3() - reach, pivot.as_vec3() + reach * 0.1);
    let (w, h) = RecordOptions::new(OUT, "").size;
    let camera = Camera::fit(lo, hi, w as f32 / h as f32);
    let options = RecordOptions {
        framing: Framing::Fixed(camera),
        ..options(&creature)
    };
    let (summary, world) = record(&creature, &options, |w, _| {
        let offset = (w.body_centre_of_mass(0)? - pivot).dot(along);
        if last > 0.0 && offset <= 0.0 {
            crossings.push(w.time());
        }
        last = offset;
        Ok(())
    })?;
    let swing: Vec<f64> = summary
        .trace
        .centre_of_mass
        .iter()
        .map(|c| (*c - pivot).dot(along))
        .collect();
    let (lo, hi) = swing
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    let period = match crossings.as_slice() {
        [first, .., last] => format!("{:.3} s", (last - first) / (crossings.len() - 1) as f64),
        _ => "n/a".to_string(),
    };
    println!(
        "pendulum: corner {} fixed at {:?} m; centre of mass swings from {hi:.4} to {lo:.4} m \
         across the pivot, period {period}; pivot moved {:.1e} m",
        Pendulum::PIVOT,
        pivot.to_array(),
        world.position_slice()[Pendulum::PIVOT].distance(pivot)
    );
    write(&creature, &summary)
}

fn dropped(drop: DroppedStructure) -> hooke::Result<()> {
    let creature = drop.build()?;
    let mut world = creature.world()?;
    let summary = record_cpu(&mut world, &options(&creature))?;
    let trace = &summary.trace;
    let last = trace.energy.last().copied().unwrap_or_default();
    let settled = trace
        .energy
        .iter()
        .zip(&trace.time)
        .rev()
        .find(|(e, _)| e.kinetic > 1e-3)
        .map_or(0.0, |(_, t)| *t);
    println!(
        "{}: {} masses, {} springs, dropped from {} m: settled (kinetic < 1 mJ) after {settled:.2} s, \
         centre of mass at height {:.4} m, {:.3} J dissipated",
        creature.name,
        creature.part.masses.len(),
        creature.part.springs.len(),
        drop.height,
        trace.centre_of_mass.last().map_or(0.0, |c| c.z),
        last.dissipated
    );
    write(&creature, &summary)
}

fn write(creature: &Creature, summary: &RecordingSummary) -> hooke::Result<()> {
    let stem = stem(creature);
    let csv = Path::new(OUT).join(format!("{stem}.csv"));
    summary.trace.write_csv(&csv)?;
    println!(
        "  wrote {} ({} frames), {}, {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display(),
        csv.display()
    );
    Ok(())
}

/// A scenario that runs and prints its summary.
type Scenario = fn() -> hooke::Result<()>;

/// Runs Lipson's structures and writes a GIF, an energy plot and a CSV trace of each.
#[derive(Parser)]
struct Args {
    /// The structure to run: breathing, pendulum, three_cubes, hinge, random_blob or all.
    #[arg(default_value = "all", value_parser = ["breathing", "pendulum", "three_cubes", "hinge", "random_blob", "all"])]
    which: String,
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Longer runs: `hooke run scenes/mixed.json --duration 20 --gif out/mixed.gif`; bigger bodies: the `lattice` body type of scene files (scenes/lattice.json)."#;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let which = Args::parse().which;
    let all = which == "all";
    let mut result = Ok(());
    let scenarios: [(&str, Scenario); 5] = [
        ("breathing", breathing),
        ("pendulum", pendulum),
        ("three_cubes", || dropped(DroppedStructure::three_cubes())),
        ("hinge", || dropped(DroppedStructure::hinge())),
        ("random_blob", || dropped(DroppedStructure::random_blob(7))),
    ];
    for (name, scenario) in scenarios {
        if all || which == name {
            result = result.and_then(|()| scenario());
        }
    }
    match result {
        Ok(()) => {
            println!("Bigger: {BIGGER}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
