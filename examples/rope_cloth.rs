//! CS838's rope and cloth on the CPU reference: a rope (20 segments of 5 cm, 10 g points,
//! 1000 N/m springs) fixed at one end and released horizontal, so it swings down like a chain
//! pendulum; and a 20 x 20 cloth (5 cm grid, 5 g points, structural, shear and bending springs)
//! pinned at two corners and released flat, so it swings down and hangs from them (its grid
//! squares shaded).
//!
//! Prints, for each, how far the free end fell and swung; writes to `out/rope_cloth/`:
//! `rope.gif`, `cloth.gif` (4 s at 25 frames per simulated second, springs coloured by strain)
//! and `rope_energy.png`, `cloth_energy.png`.
//!
//! Run: `cargo run --release --example rope_cloth [rope|cloth|all]` (default all)

use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use hooke::render::{record_cpu_with, RecordOptions};
use hooke::{Builder, Cloth, CpuWorld, DVec3, Model, Params, Part, Placement, Rope};

/// Simulated time, s.
const DURATION: f64 = 4.0;
/// Output folder.
const OUT: &str = "out/rope_cloth";
/// Height of the fixed end and of the pinned corners, m.
const HANG: f64 = 1.2;

/// Records `part` (its mass `free` is the one to follow) and prints its summary.
fn run(name: &str, part: Part, free: usize, options: RecordOptions) -> hooke::Result<()> {
    let (masses, springs) = (part.masses.len(), part.springs.len());
    let start = part.masses[free].position;
    // The cloth preset: anything that reaches the ground settles there instead of bouncing.
    let mut model = Model::new(Params::cloth());
    model.add(name, part);
    let mut world = CpuWorld::new(&model)?;
    let mut lowest = f64::MAX;
    let mut farthest = 0.0f64;
    let summary = record_cpu_with(&mut world, &options, |w, _| {
        let p = w.position_slice()[free];
        lowest = lowest.min(p.z);
        farthest = farthest.max((p - start).length());
        Ok(())
    })?;
    let end = world.position_slice()[free];
    let energy = summary.trace.energy.last().copied().unwrap_or_default();
    println!(
        "{name}: {masses} masses, {springs} springs; the free end (mass {free}) fell to \
         {lowest:.3} m (from {:.2} m), got as far as {farthest:.3} m from where it started, and is \
         at ({:.3}, {:.3}, {:.3}) m after {DURATION} s; {:.3} J dissipated",
        start.z, end.x, end.y, end.z, energy.dissipated
    );
    println!(
        "  wrote {} ({} frames), {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display()
    );
    Ok(())
}

fn rope() -> hooke::Result<()> {
    let rope = Rope::default(); // along +x, first mass fixed
    let part = rope.build_at(&Placement::at(DVec3::new(0.0, 0.0, HANG)))?;
    let mut options = RecordOptions {
        duration: DURATION,
        frame_time: 0.04,
        // It swings in the x-z plane: look along +y.
        view: ((-90f32).to_radians(), 10f32.to_radians()),
        title: "rope: energy".to_string(),
        ..RecordOptions::new(OUT, "rope")
    };
    // Small beads, so the strain colours of the springs between them show.
    options.style.mass_radius = 2.0;
    options.style.line_width = 3.0;
    run("rope", part, rope.segments as usize, options)
}

fn cloth() -> hooke::Result<()> {
    // Flat in the x-y plane at the hanging height, the edge at y = (ny - 1) s pinned at its two
    // corners: the rest falls and swings down under that edge.
    let cloth = Cloth::default().pinned_top();
    let part = cloth.build_at(&Placement::at(DVec3::new(0.0, 0.0, HANG)))?;
    // Shade every grid square (two triangles), and draw the points small.
    let nx = cloth.nx;
    let triangles = (0..cloth.ny - 1)
        .flat_map(|j| (0..nx - 1).map(move |i| j * nx + i))
        .flat_map(|a| [[a, a + 1, a + nx + 1], [a, a + nx + 1, a + nx]])
        .collect();
    let mut options = RecordOptions {
        duration: DURATION,
        frame_time: 0.04,
        triangles,
        title: "cloth: energy".to_string(),
        ..RecordOptions::new(OUT, "cloth")
    };
    // Thin lines over the shaded squares, saturating at 10 % strain (the cloth stretches a few
    // per cent under its own weight).
    options.style.mass_radius = 1.5;
    options.style.line_width = 1.0;
    options.style.strain_scale = 0.1;
    // Follow mass (0, 0): a corner of the free edge.
    run("cloth", part, 0, options)
}

/// Runs the rope and the cloth (CS838) and writes a GIF and an energy plot of each.
#[derive(Parser)]
struct Args {
    /// The scene to run.
    #[arg(value_enum, default_value_t = Which::All)]
    which: Which,
}

/// The scenes.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Which {
    Rope,
    Cloth,
    All,
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Finer cloth or longer ropes: edit `nx`, `ny` in scenes/cloth.json or `segments` in scenes/rope.json and run `hooke run SCENE --gif OUT.gif --duration 10`."#;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let result = match Args::parse().which {
        Which::Rope => rope(),
        Which::Cloth => cloth(),
        Which::All => rope().and_then(|()| cloth()),
    };
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
