//! Spring-updates per second of the benchmark scene falling lattice on both backends, side by side.
//!
//! `cargo run --release -p hooke-tools --bin throughput -- [n[,n...]] [steps]` (defaults: n = 40,
//! 20 steps).
//! For each n it prints the adapter, spring-updates/s on the CPU reference and the GPU World,
//! device bytes per spring and per mass, and dispatches and submissions per step. With a list of n
//! (`10,20,40,80,120`) it ends with a table of time per step against springs, to check that cost
//! grows linearly, and (feature `plot`, on by default) draws it to
//! `out/throughput/cost_per_spring.png`.
//!
//! Switches (each also read from the environment variable in brackets): `--no-energy`
//! (`HOOKE_NO_ENERGY=1`) builds the World without energy tracking, `--bits32` (`HOOKE_BITS32=1`)
//! asks for 32-bit atomics, `--links` (`HOOKE_LINKS=1`) runs the link variant of the spring pass
//! instead of the default (the stencil variant on CPU adapters, see `hooke::SpringPass`),
//! `--gpu-only` (`HOOKE_GPU_ONLY=1`) skips the CPU reference, `--no-f64` (`HOOKE_NO_F64=1`) the
//! GPU World in f64 (`Precision::F64`, printed as `gpu (f64 ...)` after the f32 line, or why it
//! cannot run). `--help` lists them.
//!
//! Collisions between masses: `--collisions` times, instead, each lattice size with
//! every mass colliding (radius half the spacing, spring neighbours excluded) and, with `--beds
//! 100000,300000,1000000`, beds of loose particles (`ParticleBed::benchmark`, after 100 steps of
//! settling): mass-updates per second of the whole step with and without collision radii on
//! both backends, and of the CPU collision pass and spring pass alone, ending with a table of
//! ns per mass against size (flat when the cost is linear in the masses). A backend that refuses
//! collision radii says so and the run goes on.
//!
//! Populations: `--population` times, instead, `Population::benchmark` (seeded random
//! 4 x 4 x 3 voxel robots of about 100 masses, muscles included) evaluated for `--duration`
//! seconds (default 1) in populations of `--robots` robots (default `10,100`; the published table
//! is `--robots 10,100,1000 --duration 10`, which takes far longer), on the CPU
//! reference and then on the GPU World for each size: robot-evaluations per second, seconds per
//! robot, spring-updates per second, the fixed cost of a call (the same evaluation with duration
//! 0) and the load average, ending with a table of cost per robot against population size and
//! `out/throughput/population.csv` (and, feature `plot`, `population.png`: ns per spring update
//! against the population's springs). The World gets the evaluation's options (the lattice
//! switches do not apply); `--gpu-only` skips the CPU reference, `--cpu-only`
//! (`HOOKE_CPU_ONLY=1`) the GPU World, and `--no-muscles` times the same robots with their
//! actuators removed (the same springs, all passive: what the muscles cost). With `--creature
//! inchworm` it times instead herds of `--robots` inchworms in one model (`Creature::herd`; the
//! benchmark herd is `--robots 500 --duration 2`), stepped directly on both backends with the
//! lattice mode's options (`--links` shows what the stencil variant gains, `--no-alike` what the CPU's
//! lanes for bodies alike gain).

mod collisions;
mod herd;
mod population;

use std::time::Instant;

use clap::Parser;
use hooke::builders::Lattice;
use hooke::{AtomicWidth, CpuWorld, Model, Precision, SpringPass, World, WorldOptions};

/// One size's results: springs, CPU and GPU seconds per step.
struct Row {
    n: u32,
    springs: usize,
    cpu: Option<f64>,
    gpu: f64,
}

/// Spring-updates per second of the benchmark lattice on the CPU reference and the GPU World.
#[derive(Parser)]
struct Args {
    /// Lattice sizes n (n^3 masses), comma-separated, each at least 2.
    #[arg(default_value = "40", value_parser = sizes)]
    sizes: Sizes,
    /// Timed steps per size.
    #[arg(default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    steps: u64,
    /// Build the World without energy tracking.
    #[arg(long, env = "HOOKE_NO_ENERGY")]
    no_energy: bool,
    /// Ask for 32-bit atomics.
    #[arg(long, env = "HOOKE_BITS32")]
    bits32: bool,
    /// Run the link variant of the spring pass instead of the default.
    #[arg(long, env = "HOOKE_LINKS")]
    links: bool,
    /// Skip the CPU reference.
    #[arg(long, env = "HOOKE_GPU_ONLY")]
    gpu_only: bool,
    /// Skip the GPU World in f64 (`Precision::F64`), timed after the f32 one.
    #[arg(long, env = "HOOKE_NO_F64")]
    no_f64: bool,
    /// Time collisions between masses: the lattices with every mass colliding, and the beds.
    #[arg(long)]
    collisions: bool,
    /// Particle counts of the beds timed with --collisions, comma-separated.
    #[arg(long, value_parser = counts, default_value = "")]
    beds: Counts,
    /// With --population: the same robots with their actuators removed (what the muscles cost).
    #[arg(long)]
    no_muscles: bool,
    /// With --creature: the CPU reference walks the creatures one by one (`CpuWorld::set_alike
    /// (false)`) instead of side by side in SIMD lanes (the same bits; what the lanes gain).
    #[arg(long)]
    no_alike: bool,
    /// Keep two dispatches per step where the GPU World would fuse its steps into one dispatch
    /// per submission (`WorldOptions::fuse_steps = false`; the same bits; what fusing gains).
    #[arg(long)]
    no_fuse: bool,
    /// With --population: skip the GPU World.
    #[arg(long, env = "HOOKE_CPU_ONLY")]
    cpu_only: bool,
    /// Time populations of voxel robots (`Population::benchmark`) instead of the lattice.
    #[arg(long)]
    population: bool,
    /// Population sizes timed with --population, comma-separated.
    #[arg(long, value_parser = counts, default_value = "10,100")]
    robots: Counts,
    /// With --population: time a herd of identical creatures of this kind in one model
    /// (`Creature::herd`; `inchworm`: 20 masses, 94 springs, 64 muscles each; `block`: the
    /// whole 4 x 4 x 3-cell voxel robot of the benchmark genomes, 100 masses, 795 springs, 603
    /// muscles) instead of `Population::benchmark`, `--robots` of them.
    #[arg(long)]
    creature: Option<String>,
    /// Simulated seconds per robot with --population.
    #[arg(long, default_value_t = 1.0, value_parser = duration)]
    duration: f64,
}

/// Parses a duration in seconds: finite and > 0.
fn duration(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(d) if d.is_finite() && d > 0.0 => Ok(d),
        _ => Err(format!("{text:?} is not a duration (s, finite and > 0)")),
    }
}

/// A comma-separated list of counts (particles, robots; possibly empty).
#[derive(Clone, Debug)]
struct Counts(Vec<u32>);

/// Parses `100000,300000`: each at least 1.
fn counts(text: &str) -> Result<Counts, String> {
    text.split(',')
        .filter(|x| !x.trim().is_empty())
        .map(|x| match x.trim().parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("{x:?} is not a count (an integer >= 1)")),
        })
        .collect::<Result<_, _>>()
        .map(Counts)
}

/// A comma-separated list of lattice sizes.
#[derive(Clone, Debug)]
struct Sizes(Vec<u32>);

/// Parses `10,20,40`: each at least 2.
fn sizes(text: &str) -> Result<Sizes, String> {
    text.split(',')
        .map(|x| match x.trim().parse::<u32>() {
            Ok(n) if n >= 2 => Ok(n),
            _ => Err(format!("{x:?} is not a lattice size (an integer >= 2)")),
        })
        .collect::<Result<_, _>>()
        .map(Sizes)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let args = Args::parse();
    measure(&args)?;
    println!("\n{}", bigger(&args));
    Ok(())
}

/// How to run the mode of `args` at the size of the published tables (the defaults finish within
/// about a minute).
fn bigger(args: &Args) -> &'static str {
    match (args.population, &args.creature, args.collisions) {
        (true, Some(_), _) => "Bigger: add `--robots 500 --duration 2` (the herd of the tables).",
        (true, None, _) => {
            "Bigger: add `--robots 10,100,1000 --duration 10` (the tables' populations; this takes \
             far longer)."
        }
        (false, _, true) => "Bigger: add `--beds 100000,300000,1000000` and sizes `10,20,40,80`.",
        _ => "Bigger: `-- 10,20,40,80,120 20` (a table of cost per spring against size).",
    }
}

/// Runs the measurement `args` ask for.
fn measure(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let (sizes, steps, gpu_only) = (args.sizes.0.clone(), args.steps, args.gpu_only);
    let options = options_of(args);
    if args.population && args.cpu_only {
        if let Some(creature) = &args.creature {
            return herd::run(args, creature, None);
        }
        return population::run(args, None); // no adapter needed
    }
    let (device, queue) = hooke::gpu::request_device()?;
    if args.collisions {
        return collisions::run(args, &device, &queue, options);
    }
    if let (true, Some(creature)) = (args.population, &args.creature) {
        return herd::run(args, creature, Some((&device, &queue)));
    }
    if args.population {
        return population::run(args, Some((&device, &queue)));
    }
    let mut rows = Vec::new();
    for &n in &sizes {
        let model = Lattice::benchmark(n).model()?;
        let springs = model.springs.len();
        println!(
            "benchmark lattice n = {n}: {} masses, {springs} springs, {steps} timed steps",
            model.masses.len(),
        );
        let rate = |seconds: f64| springs as f64 * steps as f64 / seconds / 1e6;

        let cpu = if gpu_only {
            None
        } else {
            let mut cpu = CpuWorld::new(&model)?;
            cpu.step(2)?;
            let t = Instant::now();
            cpu.step(steps)?;
            let seconds = t.elapsed().as_secs_f64();
            println!(
                "  cpu (f64, all cores):                  {:8.1} M spring-updates/s",
                rate(seconds)
            );
            Some(seconds / steps as f64)
        };

        let mut gpu = World::with_device(device.clone(), queue.clone(), &model, options)?;
        let info = gpu.adapter_info();
        println!(
            "  gpu adapter: {} ({:?}, {:?})",
            info.name, info.backend, info.device_type
        );
        gpu.step(2)?;
        let t = Instant::now();
        gpu.step(steps)?;
        let seconds = t.elapsed().as_secs_f64();
        println!(
            "  gpu (f32, fixed-point atomics {}-bit, quantum {:.1e} N, energy {}): {:8.1} M \
             spring-updates/s",
            gpu.fixed_point().bits,
            gpu.fixed_point().quantum,
            if options.track_energy { "on" } else { "off" },
            rate(seconds)
        );
        print_stats(&gpu, springs, steps);
        if !args.no_f64 {
            drop(gpu);
            time_f64(&device, &queue, &model, options, steps, rate)?;
        }
        rows.push(Row {
            n,
            springs,
            cpu,
            gpu: seconds / steps as f64,
        });
    }
    if rows.len() > 1 {
        print_table(&rows, gpu_only)?;
    }
    Ok(())
}

/// Times the GPU World in f64 on `model` beside the f32 line, or says why it cannot run (an
/// adapter without `SHADER_F64`).
fn time_f64(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    model: &Model,
    options: WorldOptions,
    steps: u64,
    rate: impl Fn(f64) -> f64,
) -> hooke::Result<()> {
    let options = WorldOptions {
        precision: Precision::F64,
        ..options
    };
    let mut gpu = match World::with_device(device.clone(), queue.clone(), model, options) {
        Ok(gpu) => gpu,
        Err(e) => {
            println!("  gpu (f64): not available: {e}");
            return Ok(());
        }
    };
    gpu.step(2)?;
    let t = Instant::now();
    gpu.step(steps)?;
    let seconds = t.elapsed().as_secs_f64();
    println!(
        "  gpu (f64, fixed-point atomics {}-bit, quantum {:.1e} N, energy {}): {:8.1} M \
         spring-updates/s",
        gpu.fixed_point().bits,
        gpu.fixed_point().quantum,
        if options.track_energy { "on" } else { "off" },
        rate(seconds)
    );
    Ok(())
}

/// The GPU World's options from the environment (`HOOKE_NO_ENERGY`, `HOOKE_BITS32`,
/// `HOOKE_LINKS`).
fn options_of(args: &Args) -> WorldOptions {
    WorldOptions {
        track_energy: !args.no_energy,
        atomics: if args.bits32 {
            AtomicWidth::Bits32
        } else {
            AtomicWidth::Auto
        },
        spring_pass: if args.links {
            SpringPass::Links
        } else {
            SpringPass::Auto
        },
        fuse_steps: !args.no_fuse,
        ..WorldOptions::default()
    }
}

/// Device memory, dispatches and the spring-pass variant of `gpu`.
fn print_stats(gpu: &World, springs: usize, steps: u64) {
    let stats = gpu.stats();
    let submissions = steps.div_ceil(u64::from(stats.steps_per_submission));
    println!(
        "  device bytes: {:.1} per spring, {:.1} per mass ({:.1} MiB in all)",
        stats.bytes_per_spring,
        stats.bytes_per_mass,
        stats.device_bytes as f64 / f64::from(1 << 20)
    );
    println!(
        "  per step: {} dispatches (and one per call), {:.3} submissions ({submissions} for \
         {steps} steps); per invocation: the springs of {} masses, {} masses integrated",
        stats.dispatches_per_step,
        submissions as f64 / steps as f64,
        stats.spring_masses_per_invocation,
        stats.masses_per_invocation
    );
    if stats.stencil_offsets > 0 {
        println!(
            "  spring pass: stencil variant, {} offsets holding {} of {springs} springs",
            stats.stencil_offsets, stats.stencil_springs
        );
    } else {
        println!("  spring pass: link variant");
    }
}

/// The cost table and, with the `plot` feature, the cost-per-spring plot.
fn print_table(rows: &[Row], gpu_only: bool) -> Result<(), Box<dyn std::error::Error>> {
    // Cost per spring stays flat when cost grows linearly with springs.
    println!();
    println!("| n | springs | gpu ms/step | gpu ns/spring | cpu ms/step | cpu ns/spring |");
    println!("|---|---|---|---|---|---|");
    for r in rows {
        let per = |s: f64| s * 1e9 / r.springs as f64;
        let (cpu_ms, cpu_ns) = r.cpu.map_or(("-".to_string(), "-".to_string()), |c| {
            (format!("{:.2}", c * 1e3), format!("{:.2}", per(c)))
        });
        println!(
            "| {} | {} | {:.2} | {:.2} | {cpu_ms} | {cpu_ns} |",
            r.n,
            r.springs,
            r.gpu * 1e3,
            per(r.gpu)
        );
    }
    #[cfg(feature = "plot")]
    {
        use hooke::plot::{CostCurve, CostPlot};
        let curve = |label: &str, cost: &dyn Fn(&Row) -> Option<f64>| CostCurve {
            label: label.to_string(),
            points: rows
                .iter()
                .filter_map(|r| cost(r).map(|s| (r.springs as f64, s * 1e9 / r.springs as f64)))
                .collect(),
        };
        let mut curves = vec![curve("GPU World", &|r| Some(r.gpu))];
        if !gpu_only {
            curves.push(curve("CPU reference (f64)", &|r| r.cpu));
        }
        let dir = std::path::Path::new("out/throughput");
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let path = dir.join("cost_per_spring.png");
        CostPlot::default().save(&curves, &path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
