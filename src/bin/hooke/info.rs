//! `hooke info`: what a scene holds, how fast it may step, and what running it on the GPU takes.

use std::error::Error;

use hooke::{Model, SpringLaw, World};

use crate::args::InfoArgs;
use crate::scene_file;

/// Runs `hooke info`, printing to standard output.
pub(crate) fn info(args: &InfoArgs) -> Result<(), Box<dyn Error>> {
    let (_, model) = scene_file::load(&args.scene)?;
    println!("scene      {}", args.scene.display());
    for line in model_lines(&model) {
        println!("{line}");
    }
    if args.no_gpu {
        return Ok(());
    }
    // The World that `hooke run --backend gpu` would build: its adapter and its buffers. A machine
    // without an adapter still gets the rest of the report, and the reason.
    match World::new(&model) {
        Ok(world) => {
            let stats = world.stats();
            let fixed = world.fixed_point();
            println!(
                "adapter    {}",
                hooke::gpu::adapter_summary(world.adapter_info())
            );
            println!(
                "device     {} ({:.1} B per spring, {:.1} B per mass)",
                bytes(stats.device_bytes),
                stats.bytes_per_spring,
                stats.bytes_per_mass
            );
            for line in memory_lines(world.device_memory()) {
                println!("{line}");
            }
            println!(
                "gpu pass   {}, {}-bit fixed point (quantum {:.3e} N, per-spring limit {:.3e} N), \
                 {} dispatches per step",
                if stats.stencil_offsets > 0 {
                    "stencil"
                } else {
                    "link"
                },
                fixed.bits,
                fixed.quantum,
                fixed.spring_limit,
                stats.dispatches_per_step
            );
        }
        Err(e) => println!("gpu        cannot build a World: {e}"),
    }
    Ok(())
}

/// The device memory of the World's buffers: the total, then each buffer (largest first) with
/// its exact size in bytes.
fn memory_lines(memory: &hooke::gpu::DeviceMemory) -> Vec<String> {
    let mut buffers = memory.buffers.clone();
    buffers.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.name.cmp(b.name)));
    let mut lines = vec![format!(
        "memory     {} in {} buffers:",
        bytes(memory.total()),
        buffers.len()
    )];
    lines.extend(
        buffers
            .iter()
            .map(|b| format!("  {:<18} {:>14} B", b.name, b.bytes)),
    );
    lines
}

/// The model's part of the report, one line each.
fn model_lines(model: &Model) -> Vec<String> {
    let p = &model.params;
    let fixed = model.masses.iter().filter(|m| m.fixed).count();
    let lightest = model
        .masses
        .iter()
        .map(|m| m.mass)
        .fold(f64::INFINITY, f64::min);
    let mut lines = vec![
        format!(
            "masses     {} ({fixed} fixed), total {:.6} kg, lightest {}",
            model.masses.len(),
            model.total_mass(),
            if lightest.is_finite() {
                format!("{lightest:e} kg")
            } else {
                "-".to_owned()
            }
        ),
        format!("springs    {} ({})", model.springs.len(), law_counts(model)),
        format!("actuators  {}", model.actuators.len()),
        format!("obstacles  {} besides the ground", model.obstacles.len()),
        format!("bodies     {}", model.bodies.len()),
    ];
    for (i, b) in model.bodies.iter().enumerate() {
        lines.push(format!(
            "  {i}: {:?}, {} masses, {} springs",
            b.name,
            b.masses.len(),
            b.springs.len()
        ));
    }
    lines.extend([
        format!("gravity    {} m/s^2", p.gravity),
        format!("integrator {:?}", p.integrator),
        format!("contact    {:?}", p.contact),
        format!("friction   {:?}", p.friction),
        format!("dt         {:e} s", p.dt),
        stability_line(model),
    ]);
    lines
}

/// How many springs follow each law: `Hooke 3, material 0, zero-length 1`.
fn law_counts(model: &Model) -> String {
    let count = |law: SpringLaw| model.springs.iter().filter(|s| s.law == law).count();
    let counts: Vec<String> = SpringLaw::ALL
        .iter()
        .map(|&law| format!("{law} {}", count(law)))
        .collect();
    counts.join(", ")
}

/// The largest stable dt and how `params.dt` compares with it.
fn stability_line(model: &Model) -> String {
    let estimate = model.stable_dt();
    let verdict = if model.params.dt <= estimate.dt {
        "dt is below it".to_owned()
    } else {
        format!(
            "dt is {:.1}x above it: expect a blow-up",
            model.params.dt / estimate.dt
        )
    };
    format!("stable dt  {estimate}; {verdict}")
}

/// `n` bytes in a unit a reader takes in at a glance.
fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {} ({n} B)", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::bytes;

    #[test]
    fn byte_counts_read_at_a_glance() {
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(3 * 1024 * 1024), "3.0 MiB (3145728 B)");
    }
}
