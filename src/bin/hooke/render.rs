//! `hooke render`: a scene to an animated GIF and its energy plot.

use std::error::Error;
use std::path::{Path, PathBuf};

use hooke::render::{record_with, Framing, RecordOptions};
use hooke::{CpuWorld, Model, Simulation, World};

use crate::args::{self, RenderArgs};
use crate::progress::Progress;
use crate::scene_file;

/// Runs `hooke render`.
pub(crate) fn render(args: &RenderArgs) -> Result<(), Box<dyn Error>> {
    let (_, model) = scene_file::load(&args.scene)?;
    let options = options(args)?;
    if args.gpu {
        let mut world = World::new(&model)?;
        eprintln!(
            "GPU: {}",
            crate::info::describe_adapter(world.adapter_info())
        );
        record(&mut world, &model, &options)
    } else {
        let mut world = CpuWorld::new(&model)?;
        record(&mut world, &model, &options)
    }
}

/// The recording options `args` ask for: the GIF at `args.out`, the plot beside it.
fn options(args: &RenderArgs) -> Result<RecordOptions, String> {
    let out = &args.out;
    let is_gif = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gif"));
    let stem = out.file_stem().and_then(|s| s.to_str()).filter(|_| is_gif);
    let Some(stem) = stem else {
        return Err(format!(
            "--out {}: expected a file name ending in .gif",
            out.display()
        ));
    };
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut options = RecordOptions::new(dir, stem);
    options.duration = args.duration;
    options.frame_time = 1.0 / args.fps;
    options.size = args.size;
    options.title = args.scene.display().to_string();
    options.framing = match args.camera {
        args::Framing::Run => Framing::Run,
        args::Framing::Follow => Framing::Follow,
    };
    Ok(options)
}

/// Records `world`, with a progress bar on long runs, and says what was written.
fn record<S: Simulation>(
    world: &mut S,
    model: &Model,
    options: &RecordOptions,
) -> Result<(), Box<dyn Error>> {
    let total = (options.duration / world.dt()).round() as u64;
    let mut progress = Progress::new(total);
    let outcome = record_with(world, model, options, |w, _| {
        progress.set(w.steps());
        Ok(())
    });
    let wall = progress.finish().as_secs_f64();
    let summary = outcome?;
    eprintln!(
        "{} frames of {} steps in {wall:.1} s wall",
        summary.frames, summary.steps
    );
    eprintln!("wrote {}", summary.gif.display());
    eprintln!("wrote {}", summary.plot.display());
    Ok(())
}
