//! The `hooke` command: run, view and inspect scene files; evolve and evaluate robots.
//!
//! ```text
//! hooke run cube.json --duration 2 --csv out/cube.csv --gif out/cube.gif [--backend auto|cpu|gpu]
//! hooke info cube.json
//! hooke view cube.json | out/evolve/champion.json      (feature `viewer`)
//! hooke evolve settings.json --out out/evolve [--resume]
//! hooke eval population.json --out results.json [--split K/N]
//! hooke merge results_*.json --out all.json
//! hooke run cube.json --hashes cube.hashes && hooke verify cube.json cube.hashes
//! hooke schema
//! ```
//!
//! Install it with `cargo install hooke --features cli` (`--features cli,viewer` for `hooke
//! view`).

mod args;
mod eval;
mod eval_run;
mod evolve;
mod hashes_file;
mod human;
mod info;
mod input;
mod merge;
mod population_file;
mod progress;
mod results_file;
mod run;
mod scene_file;
mod trace;
mod verify;
mod view;
mod world;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Run(a) => run::run(a),
        Command::Info(a) => info::info(a),
        Command::View(a) => view::view(a),
        Command::Evolve(a) => evolve::evolve(a),
        Command::Eval(a) => eval::eval(a),
        Command::Merge(a) => merge::merge(a),
        Command::Verify(a) => return verify_status(verify::verify(a)),
        Command::Schema => schema(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // hooke's errors carry their cause in their message.
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `hooke verify`'s exit status: 0 for the same bits, 1 when bits differ, 2 when no check could
/// be made (the error printed).
fn verify_status(outcome: Result<bool, Box<dyn std::error::Error>>) -> ExitCode {
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `hooke schema`: the JSON Schema of scene files, on standard output.
fn schema() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}", hooke::Scene::json_schema_string());
    Ok(())
}
