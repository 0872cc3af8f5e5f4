//! Evolving voxel robots that walk: a genetic algorithm
//! ([`hooke::population::Evolution`]) over 4 x 4 x 3 voxel genomes in the style of Cheney et al.
//! 2013, every generation evaluated as one population in one World, scored by how far each
//! robot's centre of mass moves along +x.
//!
//! Prints the best and mean fitness of every generation (and how many robots failed) under a
//! progress bar, and writes to `--out` (default `out/evolve/`):
//! - `fitness.png`: best and mean fitness over generations;
//! - `champion.gif`: the champion alone on the same backend, the camera following it (and
//!   `champion_energy.png`, its energy terms);
//! - `champion.json`: the champion's genome as a one-robot batch with the evaluation settings,
//!   which `hooke eval out/evolve/champion.json --out result.json` scores again;
//! - `history.csv`: generation, best, mean, failed and empty robots, wall time (rewritten after
//!   every generation).
//!
//! It ends with the champion's distance against the best of generation 0, and the wall time.
//!
//! By default the GPU World runs every generation on one device (on this project's 2-core VM
//! that is lavapipe, Mesa's Vulkan on the CPU); `--cpu` uses the f64 CPU reference. The same
//! seed on the same backend gives the same champion. Defaults: 48 robots, 10 generations of 2 s
//! simulated at dt = 2e-4 s (10 000 steps), muscles at 2 Hz, `Params::robots()` ground with
//! friction. On the project machine (2 cores, lavapipe, load average about 3) they took 3 min
//! on the GPU World (best 0.106 m in generation 0, 0.312 m in generation 9) and 45 s with
//! `--cpu`; see the README, "Evolving robots", for a full run of 1000 robots.
//!
//! `--replay out/evolve/champion.json` records a champion again (e.g. with `--gif-size 320x240`).
//!
//! Run: `cargo run --release --example evolve [-- --population 1000 --generations 30 --seed 1]`

// One file per topic, in a folder of their own.
#[path = "evolve/output.rs"]
mod output;

use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use hooke::population::{Evolution, Evolved, GenerationStats};
use hooke::CpuWorld;
use indicatif::{ProgressBar, ProgressStyle};

/// Evolves voxel robots that walk along +x and writes the plot, the champion's GIF and genome.
#[derive(Parser)]
struct Args {
    /// Robots per generation (at least 2).
    #[arg(long, default_value_t = 48)]
    population: usize,
    /// Generations, the random generation 0 included (at least 1).
    #[arg(long, default_value_t = 10)]
    generations: usize,
    /// Simulated time per evaluation, s.
    #[arg(long, default_value_t = 2.0)]
    duration: f64,
    /// Time step, s (the default voxels are stable below about 6e-4 s).
    #[arg(long, default_value_t = 2e-4)]
    dt: f64,
    /// Seed of the genetic algorithm's generator (ChaCha8).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Evaluate on the f64 CPU reference instead of the GPU World.
    #[arg(long)]
    cpu: bool,
    /// Folder to write to.
    #[arg(long, default_value = "out/evolve")]
    out: PathBuf,
    /// GIF width and height in pixels, as `WIDTHxHEIGHT`.
    #[arg(long, default_value = "480x360", value_parser = output::gif_size)]
    gif_size: (u32, u32),
    /// Evolve nothing: record the champion of an earlier run's `champion.json` again (its
    /// evaluation settings; `--duration`, `--dt` and `--seed` are ignored), e.g. at another
    /// `--gif-size`.
    #[arg(long)]
    replay: Option<PathBuf>,
}

fn main() -> output::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let args = Args::parse();
    let started = Instant::now();
    let mut evolution = Evolution {
        population: args.population,
        generations: args.generations,
        seed: args.seed,
        ..Evolution::default()
    };
    evolution.evaluation.duration = args.duration;
    evolution.evaluation.params.dt = args.dt;
    evolution.check()?;
    let backend = output::Backend::open(args.cpu)?;
    if let Some(path) = &args.replay {
        let (evolution, genome) = output::read_champion(path)?;
        std::fs::create_dir_all(&args.out)
            .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
        let gif = output::record_champion(&evolution, &genome, &backend, &args.out, args.gif_size)?;
        println!(
            "{}: {} voxels, moved {:.3} m forward in {} s on {}; wrote {} ({} frames)",
            path.display(),
            genome.filled_count(),
            gif.trace.forward_distance(),
            evolution.evaluation.duration,
            backend.describe(),
            gif.gif.display(),
            gif.frames
        );
        return Ok(());
    }
    println!(
        "evolving {} robots of {:?} voxels for {} generations, {} s each at dt = {} s, seed {}, on {}",
        evolution.population,
        evolution.size,
        evolution.generations,
        args.duration,
        args.dt,
        evolution.seed,
        backend.describe(),
    );
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let bar = progress_bar(evolution.generations as u64);
    let mut so_far = Vec::new();
    let history_csv = args.out.join("history.csv");
    let observe = |s: &GenerationStats| {
        bar.suspend(|| println!("{}", describe(s)));
        bar.inc(1);
        // Rewritten every generation, so a long run can be watched (and survives being cut).
        so_far.push(s.clone());
        if let Err(e) = output::write_history(&so_far, &history_csv) {
            bar.suspend(|| eprintln!("{e}"));
        }
    };
    let evolved = match &backend {
        output::Backend::Cpu => evolution.run_on::<CpuWorld>(observe)?,
        output::Backend::Gpu { device, queue, .. } => {
            evolution.run(|p, e| p.evaluate_gpu_on(device, queue, e), observe)?
        }
    };
    bar.finish_and_clear();
    let evolve_time = started.elapsed().as_secs_f64();
    report(&evolution, &evolved, &backend, &args)?;
    println!(
        "wall time {:.1} s ({:.1} s evolving, {:.1} s per generation; {:.0} robot-evaluations/s)",
        started.elapsed().as_secs_f64(),
        evolve_time,
        evolve_time / evolution.generations as f64,
        (evolution.population * evolution.generations) as f64 / evolve_time,
    );
    Ok(())
}

/// Writes the outputs and prints the champion against generation 0.
fn report(
    evolution: &Evolution,
    evolved: &Evolved,
    backend: &output::Backend,
    args: &Args,
) -> output::Result<()> {
    let out = args.out.as_path();
    output::write_history(&evolved.history, &out.join("history.csv"))?;
    output::write_plot(&evolved.history, &out.join("fitness.png"))?;
    let Some(champion) = &evolved.champion else {
        println!("every robot of every generation failed: no champion");
        return Ok(());
    };
    output::write_champion(evolution, &champion.genome, &out.join("champion.json"))?;
    let gif = output::record_champion(evolution, &champion.genome, backend, out, args.gif_size)?;
    let first = evolved.history[0].best;
    println!(
        "champion (generation {}, {} voxels): {:.3} m in {} s; generation 0's best: {}",
        champion.generation,
        champion.genome.filled_count(),
        champion.fitness,
        evolution.evaluation.duration,
        first.map_or("none (all failed)".to_string(), |f| format!("{f:.3} m")),
    );
    if let Some(f) = first {
        println!(
            "improvement: {:+.3} m ({:.2}x generation 0's best)",
            champion.fitness - f,
            champion.fitness / f
        );
    }
    println!(
        "wrote {} ({} frames, champion moved {:.3} m forward on its own), {}, {}, {}",
        gif.gif.display(),
        gif.frames,
        gif.trace.forward_distance(),
        out.join("fitness.png").display(),
        out.join("champion.json").display(),
        out.join("history.csv").display(),
    );
    Ok(())
}

/// One line per generation.
fn describe(s: &GenerationStats) -> String {
    let m = |v: Option<f64>| v.map_or("   none".to_string(), |f| format!("{f:7.3}"));
    format!(
        "generation {:3}: best {} m, mean {} m, {} failed, {} empty, {:.1} s",
        s.generation,
        m(s.best),
        m(s.mean),
        s.failures,
        s.empty,
        s.wall_time
    )
}

/// A bar over the generations (drawn only when standard error is a terminal).
fn progress_bar(generations: u64) -> ProgressBar {
    let bar = ProgressBar::new(generations);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} generations ({eta} left)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}
