//! The command line: `hooke run`, `hooke render`, `hooke info`, `hooke eval`, `hooke merge`, and
//! the checks on their values.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Mass-spring physics on the GPU and on the CPU: run, render and inspect scene files; evaluate
/// populations of robots.
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
    /// Evaluate a batch of robots (POPULATION.json) in one World and write one result per robot
    /// (results.json): the unit of work a cluster scheduler runs.
    #[command(long_about = EVAL_ABOUT, after_long_help = EVAL_FORMATS)]
    Eval(EvalArgs),
    /// Merge the results.json files of the shares of one population into one file, in input
    /// order (robot ids must be unique; every robot must be there once unless --partial).
    Merge(MergeArgs),
}

/// `hooke eval --help`, first part.
const EVAL_ABOUT: &str = "\
Evaluate a batch of robots in one World and write one result per robot.

Reads POPULATION.json (evaluation settings and a batch of robots, each a voxel genome or a scene), \
builds every robot of the batch (or of its share, --split/--range) into one World, runs it for \
the evaluation's duration and writes results.json: per robot, in input order, its fitness (or \
null), its failure reason (or null) and the wall time. Robots do not touch each other, and a \
robot's fitness does not depend on which others share its World, so a population split across \
machines gives the same fitness bits as one run over all of it (with the same backend and \
adapter; `hooke merge` puts the shares back together).

Exit status: 0 when every robot of the share was evaluated, including robots that failed (a \
blow-up, a non-finite state, a fixed-point overflow: reported per robot, the others are \
unaffected); non-zero for bad input (the message names the robot and the field), a backend that \
is not there (--backend gpu without an adapter) or an output that cannot be written.

Deterministic (the same input gives the same fitness bits on the same backend and adapter), \
idempotent (a rerun overwrites results.json with the same content but the wall times) and safe \
to run many at once (no shared state; results.json is written to a temporary file in its folder \
and renamed, so a reader never sees half a file).";

/// `hooke eval --help`, the file formats.
const EVAL_FORMATS: &str = "\
POPULATION.json (format 1, as scene files: unknown fields are errors; SI units: m, kg, s, N):
  {
    \"version\": 1,
          the format version (required)
    \"evaluation\": {
      \"duration\": 2.0,
          simulated time, s (required)
      \"params\": { \"dt\": 0.0005, \"friction\": { ... } },
          world parameters as in scene files (default: hooke::Params::default())
      \"fitness\": { \"distance\": { \"direction\": [1, 0, 0] } },
          distance the centre of mass moves along a horizontal direction, start to end, m
          (the default)
      \"obstacles\": [ { \"shape\": { \"type\": \"sphere\", \"centre\": [1, 0, 0], ... } } ],
          obstacles as in scene files (default none)
      \"terrain\": { \"slope\": { \"degrees\": 5, \"start\": [1, 0, 0] } },
          terrain as in scene files: slope, stairs or rough_ground, added as obstacles with the
          ground's contact and friction (default none)
      \"genome\": { \"voxel_size\": 0.1, \"muscle_frequency\": 2.0, ... },
          hooke::population::GenomeSettings (default: its defaults)
      \"fixed_point_force\": 10000, \"max_incidence\": 26,
          GPU fixed-point encoding, pinned so results do not depend on the batch (defaults)
      \"backend\": \"auto\"
          auto, gpu or cpu (default auto; --backend overrides it)
    },
    \"robots\": [
      { \"id\": \"a\", \"genome\": { \"size\": [2, 1, 2],
                                \"cells\": [\"soft\", \"stiff\", \"empty\", { \"muscle\": { \"phase\": 1 } }] } },
      { \"id\": \"b\", \"scene\": \"robots/b.json\" },
      { \"id\": \"c\", \"scene\": { \"bodies\": [ { \"body\": { \"type\": \"walking_robot\" } } ] } }
    ]
  }
robots: at least one, ids unique, each with exactly one of genome and scene. A genome's cells run \
x fastest, then y, then z; a genome whose cells leave no robot is reported as that robot's \
failure. A scene is a file path (relative to POPULATION.json's folder) or a scene inline (its \
\"version\" may be left out); all its bodies and joints make one robot, and its params, obstacles, \
terrain and class collisions are not used (the evaluation's apply to every robot). Robots start \
at the same place and never touch each other.

results.json:
  {
    \"hooke\": \"0.1.0\", \"backend\": \"cpu\", \"adapter\": null,
    \"input\": \"fnv1a64:...\", \"robots_in_input\": 3, \"share\": [0, 2],
    \"results\": [
      { \"index\": 0, \"id\": \"a\", \"fitness\": 0.0123, \"failure\": null, \"wall_time_s\": 0.8 },
      { \"index\": 1, \"id\": \"b\", \"fitness\": null, \"failure\": \"blew up at ...\",
        \"wall_time_s\": 0.8 }
    ]
  }
index is the robot's position in POPULATION.json's robots, from 0; input a digest of that file \
(hooke merge checks that all shares come from the same one); share the positions covered, \
[first, end); adapter the GPU adapter (null on the CPU); wall_time_s the wall time of the World \
the robot ran in (shared by its robots: on the GPU the whole share, on the CPU a group of \
robots with at most 131 072 springs in all, so that a robot's sums do not depend on the batch). \
Fitness values are written in shortest \
round-trip form: reading them back gives the same bits.

Cluster use: a Slurm job array runs `hooke eval pop.json --split $SLURM_ARRAY_TASK_ID/$N --out \
r_$SLURM_ARRAY_TASK_ID.json` (--array=0-$((N-1))), then `hooke merge r_*.json --out all.json`; \
see scripts/slurm/evaluate.sbatch and scripts/python/driver.py.";

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
    /// With --gpu: run the GPU World in f64 (`Precision::F64`; the adapter needs SHADER_F64, as
    /// lavapipe and most Vulkan desktop GPUs have). The CPU reference is always f64.
    #[arg(long, requires = "gpu")]
    pub(crate) f64: bool,
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

/// Which simulation runs the robots.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Backend {
    /// The GPU World when an adapter exists, else the CPU reference.
    Auto,
    /// The GPU World; an error when there is no adapter.
    Gpu,
    /// The CPU reference integrator (f64).
    Cpu,
}

/// `hooke eval`.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// The batch: evaluation settings and robots (JSON; `hooke eval --help` shows the format).
    pub(crate) population: PathBuf,
    /// Results file to write (folders are created). Overwritten atomically: written to a
    /// temporary file in the same folder, then renamed.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Backend: `auto` is the GPU World when an adapter exists, else the CPU reference. Overrides
    /// the file's `evaluation.backend`. The results name the one that ran.
    #[arg(long, value_enum)]
    pub(crate) backend: Option<Backend>,
    /// Evaluate only share K of N equal contiguous shares of the robots, K counted from 0
    /// (0 <= K < N): `--split $SLURM_ARRAY_TASK_ID/$N` with `--array=0-$((N-1))`. A share
    /// may be empty (more shares than robots); its results list is then empty.
    #[arg(long, value_name = "K/N", value_parser = split, conflicts_with = "range")]
    pub(crate) split: Option<(usize, usize)>,
    /// Evaluate only the robots at positions A..B of the file's list (A included, B excluded,
    /// counted from 0).
    #[arg(long, value_name = "A..B", value_parser = range)]
    pub(crate) range: Option<(usize, usize)>,
    /// CPU threads for the CPU reference (default: all cores). Results do not depend on it; set
    /// it to share a machine between several evaluators.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) threads: Option<u32>,
}

/// `hooke merge`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The results files of the shares (any order).
    #[arg(required = true)]
    pub(crate) results: Vec<PathBuf>,
    /// The merged results file to write (folders are created; written atomically).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Accept shares that do not cover every robot of the input (the missing ones are listed
    /// on standard error).
    #[arg(long)]
    pub(crate) partial: bool,
}

/// `K/N`: share K (from 0) of N shares, N >= 1.
pub(crate) fn split(text: &str) -> Result<(usize, usize), String> {
    let bad = |why: &str| {
        format!("{text:?} is not a share K/N ({why}; K counts from 0: 0/4, 1/4, 2/4, 3/4)")
    };
    let (k, n) = text.trim().split_once('/').ok_or_else(|| bad("no '/'"))?;
    let (Ok(k), Ok(n)) = (k.trim().parse::<usize>(), n.trim().parse::<usize>()) else {
        return Err(bad("K and N must be whole numbers"));
    };
    if n == 0 {
        return Err(bad("N must be at least 1"));
    }
    if k >= n {
        return Err(bad("K must be below N"));
    }
    Ok((k, n))
}

/// `A..B`: positions A (included) to B (excluded), A <= B.
pub(crate) fn range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{text:?} is not a range A..B of robot positions (A <= B, e.g. 0..100)");
    let (a, b) = text.trim().split_once("..").ok_or_else(bad)?;
    match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
        (Ok(a), Ok(b)) if a <= b => Ok((a, b)),
        _ => Err(bad()),
    }
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
        assert_eq!(split("0/4"), Ok((0, 4)));
        assert_eq!(split("3/4"), Ok((3, 4)));
        for bad in ["4/4", "1/0", "-1/4", "1", "a/b"] {
            let e = split(bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
        assert_eq!(range("0..100"), Ok((0, 100)));
        assert_eq!(range("5..5"), Ok((5, 5)));
        assert!(range("6..5").is_err() && range("5").is_err() && range("a..b").is_err());
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
