//! Spring-updates per second of the CPU reference alone on the benchmark lattice, for A/B runs of
//! the per-core kernels: no GPU adapter is requested.
//!
//! `cargo run --release -p hooke-tools --bin cpu_rate -- [n[,n...]] [steps] [threads]`
//! (defaults: n = 80, 20 steps, every core). For each n it prints the rate of whole steps and of the spring pass
//! alone (`CpuWorld::bench_spring_pass`), in M spring-updates/s, with the thread count used:
//! per second of wall-clock time and per CPU-second of the process (user + system time from
//! `/proc/self/stat` on Linux, 10 ms resolution), the figure that resists other load on a
//! shared machine.

use std::time::Instant;

use hooke_tools::cpu_seconds;

use hooke::builders::Lattice;
use hooke::CpuWorld;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<u32> = args
        .first()
        .map_or("80", String::as_str)
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let steps: u64 = args.get(1).map_or(Ok(20), |s| s.parse())?;
    let threads: usize = match args.get(2) {
        Some(t) => t.parse()?,
        None => std::thread::available_parallelism().map_or(1, |t| t.get()),
    };
    for n in sizes {
        let model = Lattice::benchmark(n).model()?;
        let springs = model.springs.len() as f64;
        let mut world = CpuWorld::new(&model)?;
        drop(model);
        world.set_threads(threads);
        world.step(2)?;
        let rate = |seconds: f64| springs * steps as f64 / seconds / 1e6;
        let (t, c) = (Instant::now(), cpu_seconds());
        world.step(steps)?;
        let (step_wall, step_cpu) = (rate(t.elapsed().as_secs_f64()), rate(cpu_seconds() - c));
        let (t, c) = (Instant::now(), cpu_seconds());
        for _ in 0..steps {
            world.bench_spring_pass();
        }
        let (pass_wall, pass_cpu) = (rate(t.elapsed().as_secs_f64()), rate(cpu_seconds() - c));
        println!(
            "n = {n:3} springs = {springs:9} threads = {threads}: step {step_wall:7.1} M/s \
             ({step_cpu:7.1} per CPU-s), spring pass {pass_wall:7.1} M/s ({pass_cpu:7.1} per CPU-s)"
        );
    }
    println!("Bigger or longer: `-- 40,80,120 100` (sizes, steps; threads as a third argument).");
    Ok(())
}
