//! `throughput --population --creature inchworm|block`: spring-updates per second of a herd of
//! identical creatures in one model (`Creature::herd`: the benchmark herd of 500
//! inchworms of 20 masses, 94 springs and 64 actuated springs each, or of whole 100-mass voxel
//! blocks) on both backends.

use std::time::Instant;

use hooke::creatures::{Creature, Inchworm};
use hooke::population::block_robot;
use hooke::{CpuWorld, Params, World};

use crate::Args;

/// Distance (m) between neighbouring creatures of a herd: an inchworm is 0.4 m long and
/// crawls a few cm in the seconds timed, so 1 m keeps them apart (they do not collide anyway).
const SPACING: f64 = 1.0;

/// Steps per `step` call: a control period's worth, as a population evaluation steps.
const STEPS_PER_CALL: u64 = 100;

/// Times herds of `args.robots` creatures of kind `creature` for `args.duration` simulated
/// seconds on the CPU reference (unless `--gpu-only`) and on the GPU World (unless
/// `--cpu-only`), with the options of the lattice mode (`--links`, `--bits32`, `--no-energy`);
/// `--no-energy` turns energy booking off on both backends (as `Population` evaluates);
/// `--no-muscles` removes the creature's actuators (what the muscles cost).
pub(crate) fn run(
    args: &Args,
    creature: &str,
    gpu: crate::population::Gpu<'_>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut one = match creature {
        "inchworm" => Inchworm::default().build()?,
        "block" => voxel_block()?,
        other => {
            return Err(format!("unknown --creature {other:?} (known: inchworm, block)").into())
        }
    };
    if args.no_muscles {
        one.part.actuators.clear();
        println!("--no-muscles: every actuator removed, the springs kept");
    }
    let steps = (args.duration / one.params.dt).round().max(1.0) as u64;
    for &n in &args.robots.0 {
        let model = one.herd(n as usize, SPACING)?;
        let springs = model.springs.len();
        println!(
            "{n} {creature}s: {} masses, {springs} springs, {} actuated springs, {} s simulated \
             ({steps} steps of {} s)",
            model.masses.len(),
            model.actuators.len(),
            args.duration,
            one.params.dt
        );
        let rate = |seconds: f64| springs as f64 * steps as f64 / seconds / 1e6;
        if !args.gpu_only {
            let mut cpu = CpuWorld::new(&model)?;
            // As a `Population` evaluates: fitness reads body states only.
            cpu.set_track_energy(!args.no_energy);
            cpu.set_alike(!args.no_alike);
            println!(
                "  cpu: {} of {springs} springs walked side by side (bodies alike)",
                cpu.alike_springs()
            );
            let t = timed(|| cpu.step(steps).map(|_| ()))?;
            println!(
                "  cpu (f64, all cores)   {t:9.3} s, {:8.1} M spring-updates/s; load average {:.2}",
                rate(t),
                load_average()
            );
            // The spring pass alone (its share of the step), as many times as the steps.
            let t = timed(|| {
                (0..steps).for_each(|_| cpu.bench_spring_pass());
                Ok(())
            })?;
            println!(
                "  cpu spring pass alone  {t:9.3} s, {:8.1} M spring-updates/s",
                rate(t)
            );
        }
        if let Some((device, queue)) = gpu {
            let mut world = World::with_device(
                device.clone(),
                queue.clone(),
                &model,
                crate::options_of(args),
            )?;
            crate::print_stats(&world, springs, steps);
            world.step(1)?; // pipelines and first submission outside the timing
            let t = timed(|| {
                let mut done = 1;
                while done < steps {
                    let k = STEPS_PER_CALL.min(steps - done);
                    world.step(k)?;
                    done += k;
                }
                Ok(())
            })?;
            println!(
                "  gpu (f32, World)       {t:9.3} s, {:8.1} M spring-updates/s; load average {:.2}",
                rate(t),
                load_average()
            );
        }
    }
    Ok(())
}

/// [`block_robot`] (the whole 100-mass voxel block of the benchmark genomes) under the population
/// benchmarks' parameters (the frictionless ground of their recorded measurements): the
/// ~100-mass robot of the benchmarks' batch of 1 000 robots, all of one body.
fn voxel_block() -> hooke::Result<Creature> {
    Ok(Creature {
        name: "block".into(),
        part: block_robot()?,
        params: Params::lipson_cube(),
        length: 0.4,
        cells: Vec::new(),
    })
}

/// Seconds `f` takes.
fn timed(f: impl FnOnce() -> hooke::Result<()>) -> hooke::Result<f64> {
    let t = Instant::now();
    f()?;
    Ok(t.elapsed().as_secs_f64())
}

/// The 1-minute load average (0 where /proc/loadavg cannot be read).
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}
