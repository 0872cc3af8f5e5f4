//! The `hooke` command: run, render and inspect scene files; evaluate batches of robots.
//!
//! ```text
//! hooke run scenes/cube.json --duration 2 --every 0.01 --out out/cube.csv [--gpu]
//! hooke render scenes/cube.json --out out/cube.gif [--duration 2 --fps 25 --size 640x480]
//! hooke info scenes/cube.json
//! hooke eval population.json --out results.json [--backend auto|gpu|cpu] [--split K/N]
//! hooke merge results_*.json --out all.json
//! ```
//!
//! Install it with `cargo install --path .` (it is behind the default `cli` feature).

mod args;
mod eval;
mod eval_run;
mod info;
mod merge;
mod population_file;
mod progress;
mod render;
mod results_file;
mod run;
mod scene_file;
mod trace;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Run(a) => run::run(a),
        Command::Render(a) => render::render(a),
        Command::Info(a) => info::info(a),
        Command::Eval(a) => eval::eval(a),
        Command::Merge(a) => merge::merge(a),
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
