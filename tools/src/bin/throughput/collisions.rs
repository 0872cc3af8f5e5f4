//! `throughput --collisions`: mass-updates per second of collision scenes on both backends (see
//! the tool's docs in main.rs).

use std::time::Instant;

use hooke::builders::{Lattice, ParticleBed};
use hooke::{CpuWorld, Model, World, WorldOptions};

use crate::Args;

/// One scene's results, seconds per step (`None`: not run).
struct Row {
    name: String,
    masses: usize,
    contacts: usize,
    cpu_pass: Option<f64>,
    cpu_springs: Option<f64>,
    cpu_step: Option<f64>,
    cpu_plain: Option<f64>,
    gpu_step: Option<f64>,
    gpu_plain: Option<f64>,
}

/// The collision scenes: the lattices of `args.sizes` with every mass colliding (radius half
/// the spacing, 5 warm-up steps), then the beds of `args.beds` (100 warm-up steps: the bed
/// settles onto the ground and onto itself).
fn scenes(args: &Args) -> hooke::Result<Vec<(String, Model, u64)>> {
    let mut out = Vec::new();
    for &n in &args.sizes.0 {
        let lattice = Lattice::benchmark(n);
        let mut model = lattice.model()?;
        for m in &mut model.masses {
            m.collision_radius = lattice.spacing / 2.0;
        }
        out.push((format!("lattice n = {n}"), model, 5));
    }
    for &count in &args.beds.0 {
        let model = ParticleBed::benchmark(count).model()?;
        out.push((format!("bed of {count}"), model, 100));
    }
    Ok(out)
}

/// Runs every scene and prints the table.
pub(crate) fn run(
    args: &Args,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    options: WorldOptions,
) -> Result<(), Box<dyn std::error::Error>> {
    let steps = args.steps;
    let mut rows = Vec::new();
    for (name, model, warm_up) in scenes(args)? {
        let plain = without_radii(&model);
        println!(
            "{name}: {} masses, {} springs, {warm_up} warm-up steps, {steps} timed steps",
            model.masses.len(),
            model.springs.len()
        );
        let mut row = Row {
            name,
            masses: model.masses.len(),
            contacts: 0,
            cpu_pass: None,
            cpu_springs: None,
            cpu_step: None,
            cpu_plain: None,
            gpu_step: None,
            gpu_plain: None,
        };
        if !args.gpu_only {
            cpu(&mut row, &model, &plain, warm_up, steps)?;
        }
        for (label, m, out) in [
            ("with radii", &model, &mut row.gpu_step),
            ("radii 0", &plain, &mut row.gpu_plain),
        ] {
            let mut world = World::with_device(device.clone(), queue.clone(), m, options)?;
            world.step(warm_up)?;
            *out = Some(time(steps, || world.step(steps))?);
            report(&format!("gpu step, {label}"), *out, row.masses);
        }
        rows.push(row);
    }
    print_table(&rows);
    Ok(())
}

/// The CPU reference's figures for one scene.
fn cpu(row: &mut Row, model: &Model, plain: &Model, warm_up: u64, steps: u64) -> hooke::Result<()> {
    let mut world = CpuWorld::new(model)?;
    world.step(warm_up)?;
    row.contacts = world.contacts().len();
    row.cpu_pass = Some(time(steps, || {
        (0..steps).for_each(|_| world.bench_collision_pass());
        Ok(())
    })?);
    report("cpu collision pass alone", row.cpu_pass, row.masses);
    if !model.springs.is_empty() {
        row.cpu_springs = Some(time(steps, || {
            (0..steps).for_each(|_| world.bench_spring_pass());
            Ok(())
        })?);
        report("cpu spring pass alone", row.cpu_springs, row.masses);
    }
    row.cpu_step = Some(time(steps, || world.step(steps))?);
    report("cpu step, with radii", row.cpu_step, row.masses);
    let mut world = CpuWorld::new(plain)?;
    world.step(warm_up)?;
    row.cpu_plain = Some(time(steps, || world.step(steps))?);
    report("cpu step, radii 0", row.cpu_plain, row.masses);
    Ok(())
}

/// Seconds per step of `steps` steps run by `f`.
fn time(steps: u64, f: impl FnOnce() -> hooke::Result<()>) -> hooke::Result<f64> {
    let t = Instant::now();
    f()?;
    Ok(t.elapsed().as_secs_f64() / steps as f64)
}

/// One line: ms per step and M mass-updates per second.
fn report(what: &str, seconds: Option<f64>, masses: usize) {
    if let Some(s) = seconds {
        println!(
            "  {what:<26} {:8.2} ms/step {:8.1} M mass-updates/s",
            s * 1e3,
            masses as f64 / s / 1e6
        );
    }
}

/// `model` with every collision radius 0: the same step without the collision pass.
fn without_radii(model: &Model) -> Model {
    let mut plain = model.clone();
    for m in &mut plain.masses {
        m.collision_radius = 0.0;
    }
    plain
}

/// ns per mass of every figure, by scene.
fn print_table(rows: &[Row]) {
    println!();
    println!(
        "| scene | masses | touching pairs | cpu pass | cpu springs | cpu step | cpu step, radii 0 \
         | gpu step | gpu step, radii 0 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let ns = |s: Option<f64>| {
            s.map_or("-".to_string(), |s| {
                format!("{:.1}", s * 1e9 / r.masses as f64)
            })
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            r.masses,
            r.contacts,
            ns(r.cpu_pass),
            ns(r.cpu_springs),
            ns(r.cpu_step),
            ns(r.cpu_plain),
            ns(r.gpu_step),
            ns(r.gpu_plain)
        );
    }
    println!("(ns per mass and step; cpu on all cores)");
}
