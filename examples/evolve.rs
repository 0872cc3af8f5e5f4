//! Evolving voxel robots that walk: a genetic algorithm ([`hooke::population::Evolution`]) over
//! voxel genomes in the style of Cheney et al. 2013, every generation evaluated as one
//! population in one World, scored by how far each robot's centre of mass moves along +x.
//!
//! A short run (16 robots of 3 x 3 x 2 voxels, 6 generations of 1 s; well under a minute on the
//! CPU reference) printing the best and mean distance of every generation and the champion.
//! The same seed on the same backend gives the same champion.
//!
//! Run: `cargo run --release --example evolve [-- --backend auto|cpu|gpu]`
//!
//! For a real run, with checkpoints, a progress bar, the champion's GIF and the fitness plot,
//! use the command: `hooke evolve settings.json --out out/evolve` (`hooke evolve --help`).

use hooke::population::{Evaluation, Evolution, GenerationStats};
use hooke::BackendChoice;

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"The full job (checkpoints, --resume, champion files): `hooke evolve SETTINGS.json --out out/evolve` (cargo install hooke --features cli; see `hooke evolve --help`)."#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let choice = backend_arg()?;
    let defaults = Evolution::default();
    let evolution = Evolution {
        population: 16,
        generations: 6,
        size: [3, 3, 2],
        evaluation: Evaluation {
            duration: 1.0, // s
            ..defaults.evaluation.clone()
        },
        ..defaults
    };
    let backend = choice.open()?;
    println!(
        "evolving {} robots of {:?} voxels for {} generations of {} s on {}",
        evolution.population,
        evolution.size,
        evolution.generations,
        evolution.evaluation.duration,
        backend.describe()
    );
    let evolved = evolution.run_on(&backend, print)?;
    match (&evolved.champion, evolved.history[0].best) {
        (Some(champion), Some(first)) => println!(
            "champion of generation {}: {:.3} m in {} s ({:+.3} m on generation 0's best)",
            champion.generation,
            champion.fitness,
            evolution.evaluation.duration,
            champion.fitness - first
        ),
        _ => println!("no robot of generation 0 walked without failing"),
    }
    println!("Bigger: {BIGGER}");
    Ok(())
}

/// One line per generation.
fn print(s: &GenerationStats) {
    let m = |v: Option<f64>| v.map_or("none".to_string(), |f| format!("{f:.3} m"));
    println!(
        "generation {}: best {}, mean {}, {} failed, {} empty",
        s.generation,
        m(s.best),
        m(s.mean),
        s.failures,
        s.empty
    );
}

/// `--backend auto|cpu|gpu` (default auto: a hardware GPU if there is one, else the CPU
/// reference).
fn backend_arg() -> Result<BackendChoice, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(BackendChoice::Auto),
        [flag, value] if flag == "--backend" => value.parse(),
        _ => Err(format!(
            "usage: evolve [--backend auto|cpu|gpu] (got {})",
            args.join(" ")
        )),
    }
}
