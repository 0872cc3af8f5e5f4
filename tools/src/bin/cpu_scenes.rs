//! Per-core cost of the CPU reference on the 500-inchworm herd, the benchmark robots and
//! small-scene workloads, for A/B runs of the dispatch (pool, chunking, actuators, per-step
//! overhead): no GPU adapter is requested.
//!
//! `cargo run --release -p hooke-tools --bin cpu_scenes -- [threads] [scale] [only]` (defaults:
//! every core, 1, all workloads). Prints, per workload (or only those whose name contains `only`),
//! wall-clock and CPU-second rates (M spring-updates/s) and ns per step, with `scale`
//! multiplying the steps timed:
//! - `herd500`: 500 inchworms in one model (`Creature::herd`, 10 000 masses, 47 000 springs),
//!   500 steps;
//! - `bench1000`: `Population::benchmark(1000)` in one model (92 000 masses, 634 000 springs),
//!   40 steps;
//! - `cube`, `inchworm`, `robot`: the Lipson cube alone, one inchworm, one benchmark robot;
//!   1 000 000, 200 000 and 50 000 steps.
//!
//! CPU seconds are the process's user + system time (`/proc/self/stat`, 10 ms resolution): the
//! figure that resists other load on a shared machine.

use std::time::Instant;

use hooke_tools::cpu_seconds;

use hooke::creatures::Inchworm;
use hooke::population::Population;
use hooke::{Builder, CpuWorld, Cube, DVec3, Model, Params, Placement};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads: usize = match args.first() {
        Some(t) => t.parse()?,
        None => std::thread::available_parallelism().map_or(1, |t| t.get()),
    };
    let scale: f64 = args.get(1).map_or(Ok(1.0), |s| s.parse())?;
    let only = args.get(2).map_or("", String::as_str);
    let steps = |n: f64| (n * scale).round().max(1.0) as u64;
    let time = |name: &str, model: &Model, steps: u64| {
        if name.contains(only) {
            time(name, model, threads, steps)
        } else {
            Ok(())
        }
    };
    let worm = Inchworm::default().build()?;
    time("herd500", &worm.herd(500, 1.0)?, steps(500.0))?;
    let pop = Population::benchmark(1000)?;
    time(
        "bench1000",
        &pop.model(&Params::robots(), &[])?,
        steps(40.0),
    )?;
    let mut cube = Model::new(Params::lipson_cube());
    cube.add(
        "cube",
        Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.2)))?,
    );
    time("cube", &cube, steps(1_000_000.0))?;
    time("inchworm", &worm.herd(1, 1.0)?, steps(200_000.0))?;
    let one = Population::benchmark(1)?;
    time(
        "robot",
        &one.model(&Params::robots(), &[])?,
        steps(50_000.0),
    )?;
    println!("Longer: `-- THREADS 10` times ten times the steps of every workload.");
    Ok(())
}

/// Steps `model` `steps` times on `threads` threads and prints the rates.
fn time(name: &str, model: &Model, threads: usize, steps: u64) -> hooke::Result<()> {
    let springs = model.springs.len() as f64;
    let mut world = CpuWorld::new(model)?;
    world.set_threads(threads);
    world.step(2)?;
    let (t, c) = (Instant::now(), cpu_seconds());
    world.step(steps)?;
    let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
    let rate = |s: f64| springs * steps as f64 / s / 1e6;
    println!(
        "{name:10} springs {springs:7} threads {threads}: {:8.1} M/s ({:8.1} per CPU-s), \
         {:10.1} ns/step ({:10.1} CPU-ns/step)",
        rate(wall),
        rate(cpu),
        wall / steps as f64 * 1e9,
        cpu / steps as f64 * 1e9
    );
    Ok(())
}
