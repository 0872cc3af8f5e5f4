//! Drops the Lipson cube (0.1 m, eight 0.1 kg corners, 28 springs of 10 000 N/m, penalty
//! ground of 100 000 N/m, dt = 1e-4 s) on the CPU reference world and writes, to
//! `out/bouncing_cube/` (or the folder given as the first argument):
//! - `cube.gif`: the first 2 s at 50 frames per second (one frame every 200 steps), springs
//!   coloured by strain (red compressed, blue stretched);
//! - `cube_energy.png`: the energy terms over time (their sum stays constant: no damping here);
//! - `first.png`, `impact.png`: the initial state and the moment of deepest compression, with
//!   the cube's faces shaded.
//!
//! Runs headless (lavapipe is enough). `cargo run --release --example bouncing_cube` (the README's main example)

use std::path::PathBuf;

use clap::Parser;
use hooke::render::{exterior_triangles, record_cpu_with, Drawing, RecordOptions, Renderer};
use hooke::{Builder, CpuWorld, Cube, DVec3, Model, Params, Part};

/// Side of the cube, m.
const SIDE: f64 = 0.1;
/// Height of the cube's bottom face at the start, m.
const DROP: f64 = 0.2;
/// The cube's one cell: corner `c = x + 2 y + 4 z` is mass `c`.
const CELL: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The Lipson cube (`hooke::Cube`: corner `c = x + 2 y + 4 z` at `(x, y, z) * 0.1 m`, every
/// pair of corners joined), centred over the origin with its bottom face `DROP` m up.
fn cube() -> hooke::Result<Part> {
    let mut part = Cube::lipson().build()?;
    part.translate(DVec3::new(-0.5 * SIDE, -0.5 * SIDE, DROP));
    Ok(part)
}

/// Drops the Lipson cube and writes its GIF, energy plot and stills.
#[derive(Parser)]
struct Args {
    /// Folder to write to.
    #[arg(default_value = "out/bouncing_cube")]
    out: PathBuf,
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Longer, or on the GPU World: `hooke run scenes/cube.json --duration 10 --gif out/cube.gif --backend gpu` (cargo install hooke --features cli)."#;

fn main() -> hooke::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let out = Args::parse().out;
    let mut model = Model::new(Params::lipson_cube());
    model.add("cube", cube()?);
    let mut world = CpuWorld::new(&model)?;

    let mut options = RecordOptions {
        duration: 2.0,
        frame_time: 0.02, // independent of dt (CS838)
        sample_time: 0.001,
        size: (640, 480),
        title: "Lipson cube: energy (no damping)".to_string(),
        ..RecordOptions::new(&out, "cube")
    };
    options.style.strain_scale = 0.01;
    // The top of the cube at its lowest: (height in m, step).
    let mut lowest = (f64::INFINITY, 0u64);
    let summary = record_cpu_with(&mut world, &options, |w, _| {
        let top = w
            .position_slice()
            .iter()
            .map(|p| p.z)
            .fold(f64::MIN, f64::max);
        if top < lowest.0 {
            lowest = (top, w.steps());
        }
        Ok(())
    })?;

    // Stills with the solid look, seen by the animation's camera.
    let mut renderer = Renderer::new(options.size.0, options.size.1)?;
    *renderer.style_mut() = options.style;
    let mut scene = Drawing::new(&renderer, &model)?;
    scene.set_triangles(&renderer, &exterior_triangles(&[CELL]))?;
    world.reset();
    renderer.save_png_cpu(&mut scene, &world, &summary.camera, out.join("first.png"))?;
    world.step(lowest.1)?;
    renderer.save_png_cpu(&mut scene, &world, &summary.camera, out.join("impact.png"))?;

    let trace = &summary.trace;
    let balance: Vec<f64> = trace.energy.iter().map(|e| e.balance()).collect();
    let (lo, hi) = balance
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &b| {
            (lo.min(b), hi.max(b))
        });
    println!(
        "Lipson cube: {} frames ({} s apart, {} steps of {} s each), \
         {} energy samples over {:.2} s",
        summary.frames,
        options.frame_time,
        (options.frame_time / model.params.dt).round(),
        model.params.dt,
        trace.time.len(),
        trace.time.last().copied().unwrap_or(0.0),
    );
    println!(
        "deepest compression at t = {:.3} s (top at {:.4} m); energy balance {:.5} J, spread {:.2e} J ({:.3} %)",
        lowest.1 as f64 * model.params.dt,
        lowest.0,
        balance[0],
        hi - lo,
        100.0 * (hi - lo) / balance[0].abs().max(1e-12),
    );
    println!(
        "wrote {}, {}, first.png, impact.png",
        summary.gif.display(),
        summary.plot.display()
    );
    println!("Bigger: {BIGGER}");
    Ok(())
}
