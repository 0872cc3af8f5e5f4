//! The command line: `hooke run`, `hooke info`, `hooke view`, `hooke evolve`, `hooke eval`,
//! `hooke merge`, `hooke verify`, `hooke schema`, and the checks on their values.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use hooke::population::CheckpointEvery;
use hooke::BackendChoice;

/// Mass-spring physics on the GPU and on the CPU: run, render, view and inspect scene files;
/// evolve and evaluate populations of robots.
#[derive(Debug, Parser)]
#[command(name = "hooke", version, about, long_about = None)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// `hooke --help`, after the list of commands: a whole scene to start from.
const AFTER_HELP: &str = "\
A scene file is JSON. A small one, a cube dropped on the ground (save it as cube.json):
  {
    \"version\": 1,
    \"params\": { \"dt\": 0.0001 },
    \"bodies\": [ {
      \"name\": \"cube\",
      \"body\": { \"type\": \"cube\", \"size\": 0.1, \"corner_mass\": 0.1, \"stiffness\": 10000 },
      \"placement\": { \"position\": [0, 0, 0.3] }
    } ]
  }
Then:
  hooke run cube.json --duration 2 --gif cube.gif --csv cube.csv
  hooke info cube.json
Every field of a scene: `hooke schema` (JSON Schema) and https://docs.rs/hooke (`hooke::Scene`).
Backends: --backend auto (a hardware GPU when there is one, else the CPU reference), cpu or gpu.
Set RUST_LOG=info to see which adapter runs a GPU world and why.";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run a scene headless: a CSV trace (time, each body's centre of mass, every energy
    /// term), an animated GIF with its energy plot, and/or state hashes, from one simulation.
    #[command(
        after_help = "Example: hooke run cube.json --duration 2 --gif out/cube.gif \
--csv out/cube.csv"
    )]
    Run(RunArgs),
    /// Describe a scene: masses, springs, bodies, actuators, dt, the largest stable dt, the
    /// adapter that would run it and the device memory it would take.
    #[command(after_help = "Example: hooke info cube.json")]
    Info(InfoArgs),
    /// Watch a scene or an evolved champion in a window, push it and drag it (needs the
    /// `viewer` feature: cargo install hooke --features cli,viewer).
    #[command(after_help = "Example: hooke view out/evolve/champion.json")]
    View(ViewArgs),
    /// Evolve voxel robots that walk (a genetic algorithm), checkpointed after every
    /// generation; writes the champion, its GIF, the fitness plot and the history.
    #[command(long_about = EVOLVE_ABOUT, after_long_help = EVOLVE_FORMAT)]
    #[command(after_help = "Example: hooke evolve settings.json --out out/evolve")]
    Evolve(EvolveArgs),
    /// Evaluate a batch of robots (POPULATION.json) in one World and write one result per robot
    /// (results.json): the unit of work a cluster scheduler runs.
    #[command(long_about = EVAL_ABOUT, after_long_help = EVAL_FORMATS)]
    #[command(after_help = "Example: hooke eval population.json --out results.json")]
    Eval(EvalArgs),
    /// Merge the results.json files of the shares of one population into one file, in input
    /// order (robot ids must be unique; every robot must be there once unless --partial).
    #[command(after_help = "Example: hooke merge r_*.json --out all.json")]
    Merge(MergeArgs),
    /// Rerun a scene and check the state hashes `hooke run --hashes` wrote: the first step, body
    /// and mass whose bits differ (exit status 1), or all the same (0).
    #[command(long_about = VERIFY_ABOUT)]
    #[command(after_help = "Example: hooke verify cube.json cube.hashes")]
    Verify(VerifyArgs),
    /// Print the JSON Schema of scene files.
    #[command(after_help = "Example: hooke schema > scene.schema.json")]
    Schema,
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
and renamed, so a reader never sees half a file).

On a machine that may be stopped (a preemptible node), --checkpoint FILE writes the evaluation's \
state every --checkpoint-every (control periods, or seconds of wall time: 60s by default); after \
a kill at any moment, the same command with --resume continues from it and writes the results \
of a run that was never stopped, to the bit (the wall times aside).";

/// `hooke eval --help`, the file formats.
const EVAL_FORMATS: &str = "\
Example: hooke eval population.json --out results.json

POPULATION.json (format 1, as scene files: unknown fields are errors; SI units: m, kg, s, N):
  {
    \"version\": 1,
          the format version (required)
    \"evaluation\": {
      \"duration\": 2.0,
          simulated time, s (required)
      \"params\": { \"dt\": 0.0005, \"friction\": { ... } },
          world parameters as in scene files; every field left out is that of
          hooke::Params::robots(), the ground walking robots need: dt 1e-4 s, penalty contact
          100000 N/m damped 50 N*s/m, Coulomb friction 1.0 / 0.8 (a scene file's default
          ground is frictionless and nothing walks on it; to ask for it, give friction 0)
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
    /// Simulated time between rows of the trace (and samples of the energy plot), in s
    /// (rounded to whole steps, at least one).
    #[arg(long, default_value_t = 0.01, value_parser = seconds)]
    pub(crate) every: f64,
    /// CSV trace to write (folders are created). Without --csv and --gif the trace goes to
    /// standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) csv: Option<PathBuf>,
    /// Animated GIF to write (a name ending in .gif; folders are created); the energy plot goes
    /// beside it as `<stem>_energy.png`.
    #[arg(long, value_name = "FILE")]
    pub(crate) gif: Option<PathBuf>,
    /// With --gif: frames per second of simulated time (each frame is shown for 1/fps s).
    #[arg(long, default_value_t = 25.0, value_parser = fps)]
    pub(crate) fps: f64,
    /// With --gif: size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x480", value_parser = size)]
    pub(crate) size: (u32, u32),
    /// With --gif: `run` frames the whole run from one place, `follow` moves sideways with the
    /// bodies.
    #[arg(long, value_enum, default_value_t = Framing::Run)]
    pub(crate) camera: Framing,
    /// What simulates: `auto` is the GPU World on a hardware GPU and the CPU reference
    /// otherwise (a software adapter such as lavapipe is slower than the CPU reference);
    /// `gpu` takes any adapter, software ones included. Drawing a GIF uses an adapter either
    /// way.
    #[arg(long, default_value_t = BackendChoice::Auto, value_parser = backend)]
    pub(crate) backend: BackendChoice,
    /// Run the GPU World in f64 (`Precision::F64`; the adapter needs SHADER_F64, as lavapipe
    /// and most Vulkan desktop GPUs have). The CPU reference is always f64.
    #[arg(long)]
    pub(crate) f64: bool,
    /// CPU threads for the CPU reference (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) threads: Option<u32>,
    /// State hashes to write (JSON lines; folders are created): the world's and each body's
    /// hash of the exact state every --hash-every steps, at the start and at the end; `hooke
    /// verify SCENE FILE` reruns the scene and checks them. Without --csv no trace is written.
    #[arg(long, value_name = "FILE", conflicts_with = "gif")]
    pub(crate) hashes: Option<PathBuf>,
    /// With --hashes: steps between hash records.
    #[arg(long, value_name = "N", default_value_t = 100, requires = "hashes",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) hash_every: u64,
    /// With --hashes: leave out the per-mass hashes (8 bytes per mass and record, what lets
    /// `hooke verify` name the first mass that differs).
    #[arg(long, requires = "hashes")]
    pub(crate) no_mass_hashes: bool,
}

/// `hooke verify`.
#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// The scene file (JSON) the hashes were written from.
    pub(crate) scene: PathBuf,
    /// The hash file `hooke run --hashes` wrote.
    pub(crate) hashes: PathBuf,
    /// CPU threads for the CPU reference, instead of the file's (results do not depend on it:
    /// this checks that they do not).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) threads: Option<u32>,
}

/// `hooke verify --help`, first part.
pub(crate) const VERIFY_ABOUT: &str = "\
Rerun a scene with the settings a hash file records (backend, precision, threads, steps) and \
compare the state hashes at every recorded step.

Reports the first step whose bits differ, the first body that differs there and, when the file \
has per-mass hashes, the first mass of that body (or, when its masses match, that a rest length \
of its springs differs). The CPU reference runs on the SIMD level HOOKE_SIMD forces (scalar, \
avx2, avx512), else the best the CPU has; every level gives the same bits.

Exit status: 0 when every record matches, 1 when bits differ, 2 when the check could not be \
made (a missing or malformed file, named with its line; a scene that does not match the file; \
a backend that is not there).

What is promised to give the same bits, and how the hash is defined: docs/DETERMINISM.md.";

/// Camera placement of `hooke run --gif`.
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

/// `hooke view`.
#[derive(Debug, Args)]
pub(crate) struct ViewArgs {
    /// A scene file, or a population file such as the champion.json `hooke evolve` writes
    /// (every robot of it is shown, laid out as in its evaluation). Without it, the viewer's
    /// built-in scenarios.
    pub(crate) file: Option<PathBuf>,
}

/// `hooke evolve`.
#[derive(Debug, Args)]
pub(crate) struct EvolveArgs {
    /// The settings: `{"version": 1, "evolution": {...}, "evaluation": {...}}` (`hooke evolve
    /// --help` shows the format).
    pub(crate) settings: PathBuf,
    /// Folder to write to (created): checkpoint.json after every generation, history.csv,
    /// fitness.png, champion.json, champion.gif and champion_energy.png.
    #[arg(long, default_value = "out/evolve")]
    pub(crate) out: PathBuf,
    /// Continue from `<out>/checkpoint.json` (or `checkpoint.previous.json` when it is
    /// damaged): the same champion and history as a run that was never stopped. The settings
    /// must be those of the checkpoint, but for more generations.
    #[arg(long)]
    pub(crate) resume: bool,
    /// What evaluates the robots (overrides the file's `evaluation.backend`): `auto` is the GPU
    /// World on a hardware GPU and the CPU reference otherwise; `gpu` takes any adapter.
    #[arg(long, value_parser = backend)]
    pub(crate) backend: Option<BackendChoice>,
    /// CPU threads for the CPU reference (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) threads: Option<u32>,
    /// Size of champion.gif in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "480x360", value_parser = size)]
    pub(crate) gif_size: (u32, u32),
}

/// `hooke evolve --help`, first part.
const EVOLVE_ABOUT: &str = "\
Evolve voxel robots that walk: a genetic algorithm (Cheney et al. 2013's direct encoding) over \
voxel genomes, each generation evaluated as one population in one World and scored as \
`hooke eval` scores it.

After every generation the state (genomes, the generator's position, history, champion) is \
written to <out>/checkpoint.json (format version 2 with a checksum; a temporary file flushed \
to the disk and renamed over the last, which is kept as checkpoint.previous.json, so a kill \
leaves a whole checkpoint) and history.csv is rewritten. --resume continues from the \
checkpoint with the same results as an undisturbed run (on the same backend and adapter), \
even after SIGKILL; a truncated or corrupted checkpoint is refused by name and the previous \
one taken. --resume also extends a finished run when evolution.generations has grown.

At the end it writes champion.json (the champion as a one-robot population file: `hooke eval \
champion.json --out r.json` scores it again, `hooke view champion.json` shows it), \
champion.gif and champion_energy.png (the champion alone, the camera following it), \
fitness.png (best and mean per generation) and history.csv.";

/// `hooke evolve --help`, the settings format.
const EVOLVE_FORMAT: &str = "\
Example: hooke evolve settings.json --out out/evolve

SETTINGS.json (unknown fields are errors; every field but `version` may be left out):
  {
    \"version\": 1,
    \"evolution\": {
      \"population\": 48,        robots per generation (>= 2)
      \"generations\": 10,       generations, the random generation 0 included (>= 1)
      \"size\": [4, 4, 3],       cells of every genome along x, y, z
      \"seed\": 0,               seed of the generator (ChaCha8): the same seed, the same run
      \"tournament\": 3,         robots per tournament (1 is random selection)
      \"elites\": 2,             best robots copied unchanged (< population)
      \"fill\": 0.6,             probability that a cell of generation 0 is filled
      \"mutation_rate\": 0.04,   probability that a child's cell is redrawn
      \"crossover_rate\": 0.5    probability that a child is a crossover of two parents
    },
    \"evaluation\": { \"duration\": 2.0, \"params\": { \"dt\": 0.0002 }, ... }
  }
evaluation is the object of the same name in POPULATION.json (`hooke eval --help`); left out, \
it is 2 s along +x on hooke::Params::robots() ground at dt = 2e-4 s. Its `genome` settings are \
the genomes' materials.";

/// `hooke eval`.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// The batch: evaluation settings and robots (JSON; `hooke eval --help` shows the format).
    pub(crate) population: PathBuf,
    /// Results file to write (folders are created). Overwritten atomically: written to a
    /// temporary file in the same folder, then renamed.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// What evaluates the robots: `auto` is the GPU World on a hardware GPU and the CPU
    /// reference otherwise; `gpu` takes any adapter, software ones included. Overrides the
    /// file's `evaluation.backend`. The results name the backend and adapter that ran.
    #[arg(long, value_parser = backend)]
    pub(crate) backend: Option<BackendChoice>,
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
    /// Write a checkpoint of the running evaluation to FILE (the world's state, the run's
    /// progress, the failures so far; the one it replaces kept as FILE's stem + `.previous`),
    /// atomically: written to a temporary file, flushed to the disk, renamed. Checkpoints
    /// change no result.
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// How often to checkpoint: N control periods (`10`) or T seconds of wall time (`90s`).
    #[arg(long, value_name = "N|Ts", default_value = "60s", requires = "checkpoint",
          value_parser = checkpoint_every)]
    pub(crate) checkpoint_every: CheckpointEvery,
    /// Resume from --checkpoint FILE (or the one before it, when FILE is damaged): the results
    /// are those of a run that was never stopped. A checkpoint of another population,
    /// evaluation, share or backend is refused by name.
    #[arg(long, requires = "checkpoint")]
    pub(crate) resume: bool,
}

/// `N` control periods or `Ts` seconds.
pub(crate) fn checkpoint_every(text: &str) -> Result<CheckpointEvery, String> {
    text.parse().map_err(|e: hooke::Error| e.to_string())
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

/// `auto`, `cpu` or `gpu`.
pub(crate) fn backend(text: &str) -> Result<BackendChoice, String> {
    text.parse()
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
