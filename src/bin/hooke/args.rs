//! The command line: `hooke run`, `hooke render`, `hooke info`, and the checks on their values.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Mass-spring physics on the GPU and on the CPU: run, render and inspect scene files.
#[derive(Debug, Parser)]
#[command(name = "hooke", version, about, long_about = None)]
#[command(
    after_help = "Scene files are JSON (see scenes/ and the `hooke::Scene` docs). \
Set RUST_LOG=info to see which adapter runs a GPU world and why."
)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run a scene headless and write a CSV trace: time, the centre of mass of every body and
    /// every energy term.
    Run(RunArgs),
    /// Run a scene and write an animated GIF and its energy plot.
    Render(RenderArgs),
    /// Describe a scene: masses, springs, bodies, actuators, dt, the largest stable dt, the
    /// adapter that would run it and the device memory it would take.
    Info(InfoArgs),
}

/// `hooke run`.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The scene file (JSON).
    pub(crate) scene: PathBuf,
    /// Simulated time to run, in s.
    #[arg(long, default_value_t = 1.0, value_parser = seconds)]
    pub(crate) duration: f64,
    /// Simulated time between rows of the trace, in s (rounded to whole steps, at least one).
    #[arg(long, default_value_t = 0.01, value_parser = seconds)]
    pub(crate) every: f64,
    /// CSV file to write (folders are created); standard output when absent.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Run on the GPU World instead of the CPU reference integrator.
    #[arg(long)]
    pub(crate) gpu: bool,
    /// CPU threads for the CPU reference (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) threads: Option<u32>,
}

/// `hooke render`.
#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// The scene file (JSON).
    pub(crate) scene: PathBuf,
    /// The GIF to write; the energy plot goes beside it as `<stem>_energy.png`.
    #[arg(long, default_value = "out/hooke.gif")]
    pub(crate) out: PathBuf,
    /// Simulated time to record, in s.
    #[arg(long, default_value_t = 2.0, value_parser = seconds)]
    pub(crate) duration: f64,
    /// GIF frames per second of simulated time (each frame is shown for 1/fps s).
    #[arg(long, default_value_t = 25.0, value_parser = fps)]
    pub(crate) fps: f64,
    /// GIF size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x480", value_parser = size)]
    pub(crate) size: (u32, u32),
    /// Camera: `run` frames the whole run from one place, `follow` moves sideways with the bodies.
    #[arg(long, value_enum, default_value_t = Framing::Run)]
    pub(crate) camera: Framing,
    /// Simulate on the GPU World instead of the CPU reference integrator (drawing is on the GPU
    /// either way).
    #[arg(long)]
    pub(crate) gpu: bool,
}

/// Camera placement of `hooke render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Framing {
    /// One camera for the whole run, framing every mass at every frame.
    Run,
    /// A camera that follows the bodies sideways.
    Follow,
}

/// `hooke info`.
#[derive(Debug, Args)]
pub(crate) struct InfoArgs {
    /// The scene file (JSON).
    pub(crate) scene: PathBuf,
    /// Skip the GPU: do not look for an adapter or build a World.
    #[arg(long)]
    pub(crate) no_gpu: bool,
}

/// A positive, finite number of seconds.
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

/// Frames per second: finite, in (0, 100] (GIF delays are whole hundredths of a second).
pub(crate) fn fps(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 100.0 => Ok(x),
        _ => Err(format!(
            "{text:?} is not a frame rate in (0, 100] frames per second (GIF delays are whole \
             hundredths of a second)"
        )),
    }
}

/// `WIDTHxHEIGHT`, each in 1..=8192 pixels.
pub(crate) fn size(text: &str) -> Result<(u32, u32), String> {
    let bad =
        || format!("{text:?} is not a size WIDTHxHEIGHT in pixels (each 1 to 8192), e.g. 640x480");
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let side = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| (1..=8192).contains(v))
    };
    match (side(w), side(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_and_named() {
        assert_eq!(seconds("0.5"), Ok(0.5));
        for bad in ["0", "-1", "nan", "inf", "two"] {
            let e = seconds(bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
        assert_eq!(size("640x480"), Ok((640, 480)));
        assert!(size("640").is_err() && size("0x10").is_err() && size("10x99999").is_err());
        assert_eq!(fps("25"), Ok(25.0));
        assert!(fps("0").is_err() && fps("1000").is_err());
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
