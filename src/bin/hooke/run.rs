//! `hooke run`: a scene headless, on the CPU reference or the GPU World, to a CSV trace.

use std::error::Error;
use std::io::{BufWriter, Write};
use std::path::Path;

use hooke::{CpuWorld, Precision, Simulation, World, WorldOptions};

use crate::args::RunArgs;
use crate::progress::Progress;
use crate::scene_file;
use crate::trace::TraceWriter;

/// Runs `hooke run`.
pub(crate) fn run(args: &RunArgs) -> Result<(), Box<dyn Error>> {
    let (_, model) = scene_file::load(&args.scene)?;
    if args.gpu {
        let precision = if args.f64 {
            Precision::F64
        } else {
            Precision::F32
        };
        let options = WorldOptions {
            precision,
            ..WorldOptions::default()
        };
        let mut world = World::with_options(&model, options)?;
        eprintln!(
            "GPU: {} ({:?})",
            crate::info::describe_adapter(world.adapter_info()),
            world.precision()
        );
        trace(&mut world, args)
    } else {
        let mut world = CpuWorld::new(&model)?;
        if let Some(threads) = args.threads {
            world.set_threads(threads as usize);
        }
        trace(&mut world, args)
    }
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

/// Steps `sim` for `args.duration` s, writing a row every `args.every` s (and at the start).
/// When a step fails (a blow-up, say), the rows written so far are kept and the error returned.
fn trace<S: Simulation>(sim: &mut S, args: &RunArgs) -> Result<(), Box<dyn Error>> {
    let dt = sim.dt();
    let total = (args.duration / dt).round() as u64;
    let every = ((args.every / dt).round() as u64).max(1);
    eprintln!(
        "{}: {} masses, {} springs, {} bodies; {total} steps of {dt} s, a row every {every} steps",
        args.scene.display(),
        sim.mass_count(),
        sim.spring_count(),
        sim.bodies_of_model().len(),
    );
    let mut writer = TraceWriter::new(sim, open(args.out.as_deref())?)?;
    let mut progress = Progress::new(total);
    let outcome = (|| -> Result<(), Box<dyn Error>> {
        writer.row(sim)?;
        let mut done = 0;
        while done < total {
            let n = every.min(total - done);
            sim.step(n)?;
            done += n;
            writer.row(sim)?;
            progress.set(done);
        }
        Ok(())
    })();
    let wall = progress.finish().as_secs_f64();
    writer.finish()?;
    outcome.map_err(|e| match &args.out {
        Some(path) => format!("{e} (rows up to the failure are in {})", path.display()).into(),
        None => e,
    })?;
    eprintln!(
        "simulated {} s in {wall:.3} s wall ({:.3e} spring-updates/s)",
        sim.time(),
        sim.spring_count() as f64 * total as f64 / wall.max(1e-12)
    );
    if let Some(path) = &args.out {
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
