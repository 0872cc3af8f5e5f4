//! `hooke run`: a scene headless, on the CPU reference or the GPU World, to a CSV trace, an
//! animated GIF with its energy plot, and/or state hashes (`hashes_file.rs`), from one
//! simulation.

use std::error::Error;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use hooke::cpu::SimdLevel;
use hooke::render::{record_with, RecordOptions};
use hooke::{Model, OpenBackend, Simulation};

use crate::args::{self, RunArgs};
use crate::hashes_file::{HashWriter, Header};
use crate::human;
use crate::progress::Progress;
use crate::scene_file;
use crate::trace::TraceWriter;
use crate::world::{on_world, OnWorld};

/// Runs `hooke run`.
pub(crate) fn run(args: &RunArgs) -> Result<(), Box<dyn Error>> {
    SimdLevel::from_env()?;
    let (scene, model) = scene_file::load(&args.scene)?;
    // Check the GIF's name before the (possibly long) run.
    let mut gif = args
        .gif
        .as_deref()
        .map(|p| gif_options(args, p))
        .transpose()?;
    if let Some(options) = &mut gif {
        // Mesh bodies are drawn with their own triangles carried by their voxels, tetrahedral
        // mesh bodies with their boundary triangles on their nodes.
        options.surfaces = scene.mesh_surfaces(&model)?;
    }
    let backend = crate::eval_run::open(args.backend, args.threads)?;
    let work = Simulate {
        model: &model,
        args,
        gif: gif.as_ref(),
        backend: &backend,
    };
    on_world(&model, &backend, args.f64, work)
}

/// `hooke run`'s work on the world the backend builds.
struct Simulate<'a> {
    model: &'a Model,
    args: &'a RunArgs,
    gif: Option<&'a RecordOptions>,
    backend: &'a OpenBackend,
}

impl OnWorld for Simulate<'_> {
    type Output = ();
    fn on<S: Simulation>(self, sim: &mut S) -> Result<(), Box<dyn Error>> {
        simulate(sim, self.model, self.args, self.gif, self.backend)
    }
}

/// The recording options of `--gif path`: the GIF there, the plot beside it.
fn gif_options(args: &RunArgs, path: &Path) -> Result<RecordOptions, String> {
    let is_gif = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gif"));
    let stem = path.file_stem().and_then(|s| s.to_str()).filter(|_| is_gif);
    let Some(stem) = stem else {
        return Err(format!(
            "--gif {}: expected a file name ending in .gif",
            path.display()
        ));
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut options = RecordOptions::new(dir, stem);
    options.duration = args.duration;
    options.frame_time = 1.0 / args.fps;
    options.sample_time = args.every;
    options.size = args.size;
    options.title = args.scene.display().to_string();
    options.framing = match args.camera {
        args::Framing::Run => hooke::render::Framing::Run,
        args::Framing::Follow => hooke::render::Framing::Follow,
    };
    Ok(options)
}

/// Opens the trace's destination: `path` (its folders created) or standard output.
fn open(path: Option<&Path>) -> Result<Box<dyn Write>, String> {
    let Some(path) = path else {
        return Ok(Box::new(std::io::stdout().lock()));
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file =
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(Box::new(BufWriter::new(file)))
}

/// Steps `sim` for `args.duration` s: a trace row every `args.every` s (and at the start) when
/// a trace is wanted (`--csv`, or no `--gif`), and the frames of `gif` when given. When a step
/// fails (a blow-up, say), the rows written so far are kept and the error returned.
fn simulate<S: Simulation>(
    sim: &mut S,
    model: &Model,
    args: &RunArgs,
    gif: Option<&RecordOptions>,
    backend: &OpenBackend,
) -> Result<(), Box<dyn Error>> {
    let dt = sim.dt();
    let total = hooke::steps_for(args.duration, dt)?;
    let every = ((args.every / dt).round() as u64).max(1);
    eprintln!(
        "{}: {} masses, {} springs, {} bodies; {total} steps of {} s on {}",
        args.scene.display(),
        sim.mass_count(),
        sim.spring_count(),
        sim.bodies_of_model().len(),
        human::number(dt),
        describe(backend, args.f64),
    );
    let mut writer = if args.csv.is_some() || (gif.is_none() && args.hashes.is_none()) {
        Some(TraceWriter::new(sim, open(args.csv.as_deref())?)?)
    } else {
        None
    };
    let mut hashes = match &args.hashes {
        Some(path) => {
            let header = Header::new(
                sim,
                &args.scene,
                backend,
                args.f64,
                (total, args.hash_every),
            );
            Some(HashWriter::create(path, &header, !args.no_mass_hashes)?)
        }
        None => None,
    };
    let mut progress = Progress::new(total);
    let mut write_error = None;
    let outcome: Result<(), Box<dyn Error>> = match gif {
        Some(options) => record_with(sim, model, options, |w, _| {
            progress.set(w.steps());
            let Some(writer) = writer.as_mut() else {
                return Ok(());
            };
            let values = crate::trace::values(w)?;
            writer.write(&values).map_err(|e| {
                let reason = e.to_string();
                write_error = Some(e);
                hooke::Error::InvalidBuilder {
                    builder: "csv trace",
                    reason,
                }
            })
        })
        .map(|_| ())
        .map_err(Into::into),
        None => steps(
            sim,
            (writer.as_mut(), hashes.as_mut()),
            total,
            every,
            &mut progress,
        ),
    };
    let wall = progress.finish().as_secs_f64();
    if let Some(w) = writer {
        w.finish()?;
    }
    if let Some(h) = hashes {
        h.finish()?;
    }
    if let Some(e) = write_error {
        return Err(e.into());
    }
    outcome.map_err(|e| match &args.csv {
        Some(path) => format!("{e} (rows up to the failure are in {})", path.display()).into(),
        None => e,
    })?;
    eprintln!(
        "simulated {} s in {} wall ({:.3e} spring-updates/s)",
        human::number(sim.steps() as f64 * dt),
        human::duration(wall),
        sim.spring_count() as f64 * sim.steps() as f64 / wall.max(1e-12)
    );
    for path in args.csv.iter().chain(&args.gif).chain(&args.hashes) {
        eprintln!("wrote {}", path.display());
    }
    if let Some(options) = gif {
        eprintln!("wrote {}", options.plot_path().display());
    }
    Ok(())
}

/// What simulates, for the first line: the backend, and the GPU World's precision.
fn describe(backend: &OpenBackend, f64: bool) -> String {
    match backend {
        OpenBackend::Cpu { .. } => backend.describe(),
        OpenBackend::Gpu { .. } if f64 => format!("{} (f64)", backend.describe()),
        OpenBackend::Gpu { .. } => format!("{} (f32)", backend.describe()),
    }
}

/// Steps `sim` `total` steps, writing a trace row every `every` steps and a hash record every
/// `hashes.every` steps (each at the start and at the end too).
fn steps<S: Simulation, W: Write>(
    sim: &mut S,
    (mut writer, mut hashes): (Option<&mut TraceWriter<W>>, Option<&mut HashWriter>),
    total: u64,
    every: u64,
    progress: &mut Progress,
) -> Result<(), Box<dyn Error>> {
    let hash_every = hashes.as_ref().map(|h| h.every);
    let mut done = 0;
    loop {
        if let Some(w) = writer
            .as_deref_mut()
            .filter(|_| done % every == 0 || done == total)
        {
            w.row(sim)?;
        }
        let hashed = hash_every.is_some_and(|n| done % n == 0 || done == total);
        if let Some(h) = hashes.as_deref_mut().filter(|_| hashed) {
            h.record(sim)?;
        }
        if done == total {
            return Ok(());
        }
        // To the next row or record, whichever comes first.
        let next = |n: u64| (done / n + 1) * n;
        let mut to = total;
        if writer.is_some() {
            to = to.min(next(every));
        }
        if let Some(n) = hash_every {
            to = to.min(next(n));
        }
        sim.step(to - done)?;
        done = to;
        progress.set(done);
    }
}
