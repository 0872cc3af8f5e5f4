//! Spring-updates per second of the `SCENE.md` falling lattice on both backends, side by side.
//!
//! `cargo run --release --example throughput -- [n] [steps]` (defaults: n = 40, 20 steps). Prints
//! the adapter, spring-updates/s on the CPU reference and the GPU World, device bytes per spring and
//! per mass, and dispatches and submissions per step.

use std::time::Instant;

use hooke::builders::Lattice;
use hooke::{AtomicWidth, CpuWorld, World, WorldOptions};

fn main() -> hooke::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let steps: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let model = Lattice::scene(n).model()?;
    let springs = model.springs.len() as f64;
    println!(
        "SCENE lattice n = {n}: {} masses, {} springs, {steps} timed steps",
        model.masses.len(),
        model.springs.len()
    );

    let mut cpu = CpuWorld::new(&model)?;
    cpu.step(2)?;
    let t = Instant::now();
    cpu.step(steps)?;
    let cpu_rate = springs * steps as f64 / t.elapsed().as_secs_f64();
    println!(
        "cpu (f64, all cores): {:8.1} M spring-updates/s",
        cpu_rate / 1e6
    );

    let options = WorldOptions {
        track_energy: std::env::var_os("HOOKE_NO_ENERGY").is_none(),
        atomics: if std::env::var_os("HOOKE_BITS32").is_some() {
            AtomicWidth::Bits32
        } else {
            AtomicWidth::Auto
        },
        ..WorldOptions::default()
    };
    let (device, queue) = hooke::gpu::request_device()?;
    let mut gpu = World::with_device(device, queue, &model, options)?;
    let info = gpu.adapter_info();
    println!(
        "gpu adapter: {} ({:?}, {:?})",
        info.name, info.backend, info.device_type
    );
    gpu.step(2)?;
    let t = Instant::now();
    gpu.step(steps)?;
    let gpu_rate = springs * steps as f64 / t.elapsed().as_secs_f64();
    println!(
        "gpu (f32, fixed-point atomics {}-bit): {:8.1} M spring-updates/s",
        gpu.fixed_point().bits,
        gpu_rate / 1e6
    );
    Ok(())
}
