//! Drops the seed 000 cube (0.1 m, eight 0.1 kg corners, 28 springs of 10 000 N/m, penalty
//! ground of 100 000 N/m, dt = 1e-4 s) on the CPU reference world and writes, to
//! `out/bouncing_cube/` (or the folder given as the first argument):
//! - `cube.gif`: the first 2 s at 50 frames per second (one frame every 200 steps), springs
//!   coloured by strain (red compressed, blue stretched);
//! - `first.png`, `impact.png`: the initial state and the frame of deepest compression, with the
//!   cube's faces shaded;
//! - `energy.png`: the energy terms over time (their sum stays constant: no damping here).
//!
//! Runs headless (lavapipe is enough). `cargo run --release --example bouncing_cube` (the README's main example)

use std::path::PathBuf;

use hooke::plot::EnergyPlot;
use hooke::render::{exterior_triangles, Camera, Drawing, FrameSchedule, GifWriter, Renderer};
use hooke::{Builder, CpuWorld, Cube, DVec3, Model, Params, Part};

/// Side of the cube, m.
const SIDE: f64 = 0.1;
/// Height of the cube's bottom face at the start, m.
const DROP: f64 = 0.2;
/// Simulated time, s.
const DURATION: f64 = 2.0;
/// Time between frames, s (independent of dt, seed 001).
const FRAME_TIME: f64 = 0.02;
/// Time between energy samples, s.
const SAMPLE_TIME: f64 = 0.001;

/// The seed 000 cube (`hooke::Cube`: corner `c = x + 2 y + 4 z` at `(x, y, z) * 0.1 m`, every
/// pair of corners joined), centred over the origin with its bottom face `DROP` m up.
fn cube() -> hooke::Result<Part> {
    let mut part = Cube::seed000().build()?;
    part.translate(DVec3::new(-0.5 * SIDE, -0.5 * SIDE, DROP));
    Ok(part)
}

fn main() -> hooke::Result<()> {
    let out = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("out/bouncing_cube"), PathBuf::from);
    std::fs::create_dir_all(&out).map_err(|source| hooke::Error::SceneIo {
        path: out.clone(),
        source,
    })?;

    let mut model = Model::new(Params::default());
    model.add("cube", cube()?);
    let mut world = CpuWorld::new(&model)?;

    let (width, height) = (640, 480);
    let mut renderer = Renderer::new(width, height)?;
    renderer.style_mut().strain_scale = 0.01;
    let mut scene = Drawing::new(&renderer, &model)?;
    // One camera for the whole animation, framing the start (the cube never bounces higher).
    let camera = Camera::frame(world.positions(), width, height, true);

    let dt = model.params.dt;
    let schedule = FrameSchedule::new(FRAME_TIME, dt)?;
    let sample_steps = (SAMPLE_TIME / dt).round() as u64;
    let frames = schedule.frames_for(DURATION);
    let mut gif = GifWriter::create(out.join("cube.gif"), FRAME_TIME)?;
    let mut samples = vec![(world.time(), world.energy())];
    let mut lowest = (f64::INFINITY, 0u64);
    let cells = [[0, 1, 2, 3, 4, 5, 6, 7]];

    for frame in 0..frames {
        let mut remaining = schedule.steps_before(frame);
        while remaining > 0 {
            let n = remaining.min(sample_steps);
            world.step(n)?;
            remaining -= n;
            samples.push((world.time(), world.energy()));
        }
        let top = world
            .positions()
            .iter()
            .map(|p| p.z)
            .fold(f64::NEG_INFINITY, f64::max);
        if top < lowest.0 {
            lowest = (top, frame);
        }
        let image = renderer.render_cpu(&mut scene, &world, &camera)?;
        gif.push(&image)?;
        if frame == 0 {
            scene.set_triangles(&renderer, &exterior_triangles(&cells))?;
            renderer.save_png_cpu(&mut scene, &world, &camera, out.join("first.png"))?;
            scene.set_triangles(&renderer, &[])?;
        }
    }
    let written = gif.frames();
    gif.finish()?;

    // Re-run to the frame of deepest compression for a still with the solid look.
    world.reset();
    world.step(schedule.step_of(lowest.1))?;
    scene.set_triangles(&renderer, &exterior_triangles(&cells))?;
    renderer.save_png_cpu(&mut scene, &world, &camera, out.join("impact.png"))?;

    EnergyPlot::titled("Seed 000 cube: energy (no damping)")
        .save(&samples, out.join("energy.png"))?;

    let balance: Vec<f64> = samples.iter().map(|(_, e)| e.balance()).collect();
    let (lo, hi) = balance
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &b| {
            (lo.min(b), hi.max(b))
        });
    println!(
        "seed 000 cube: {written} frames ({FRAME_TIME} s apart, {} steps of {dt} s each), \
         {} energy samples over {:.2} s",
        schedule.steps_before(1),
        samples.len(),
        world.time().max(samples.last().map_or(0.0, |s| s.0)),
    );
    println!(
        "deepest compression at t = {:.2} s (top at {:.4} m); energy balance {:.5} J, spread {:.2e} J ({:.3} %)",
        lowest.1 as f64 * FRAME_TIME,
        lowest.0,
        balance[0],
        hi - lo,
        100.0 * (hi - lo) / balance[0].abs().max(1e-12),
    );
    println!(
        "wrote {}/cube.gif, first.png, impact.png, energy.png",
        out.display()
    );
    Ok(())
}
