//! The `hooke` command: run, render and inspect scene files.
//!
//! ```text
//! hooke run scenes/cube.json --duration 2 --every 0.01 --out out/cube.csv [--gpu]
//! hooke render scenes/cube.json --out out/cube.gif [--duration 2 --fps 25 --size 640x480]
//! hooke info scenes/cube.json
//! ```
//!
//! Install it with `cargo install --path .` (it is behind the default `cli` feature).

mod args;
mod info;
mod progress;
mod render;
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
