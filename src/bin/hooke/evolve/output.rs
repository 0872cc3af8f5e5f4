//! What `hooke evolve` writes: the history CSV, the fitness plot, the champion as a one-robot
//! population file, and the champion's GIF.

use std::fmt::Write as _;
use std::path::Path;

use hooke::plot::{FitnessPlot, GenerationFitness};
use hooke::population::{Evolution, GenerationStats, Population, VoxelGenome};
use hooke::render::{record, Framing, RecordOptions, RecordingSummary};
use hooke::{CpuWorld, FixedPointScale, OpenBackend, World, WorldOptions};

use crate::results_file::write_atomically;

/// Errors: hooke's, and file writes with their path.
pub(crate) type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// `history.csv`: one row per generation (fitness in the fitness's unit, m for the distance;
/// wall time in s; empty cells when every robot failed).
pub(crate) fn write_history(history: &[GenerationStats], path: &Path) -> Result<()> {
    let mut csv = String::from("generation,best,mean,failed,empty,wall_time_s\n");
    let cell = |v: Option<f64>| v.map_or(String::new(), |f| format!("{f}"));
    for s in history {
        writeln!(
            csv,
            "{},{},{},{},{},{:.3}",
            s.generation,
            cell(s.best),
            cell(s.mean),
            s.failures,
            s.empty,
            s.wall_time
        )?;
    }
    Ok(write_atomically(path, csv.as_bytes())?)
}

/// `fitness.png`: best and mean per generation. Generations where every robot failed have no
/// fitness to draw and are left out (said on standard error). `false` when there was nothing
/// to draw.
pub(crate) fn write_plot(history: &[GenerationStats], path: &Path) -> Result<bool> {
    let points: Vec<GenerationFitness> = history
        .iter()
        .filter_map(|s| {
            Some(GenerationFitness {
                best: s.best?,
                mean: s.mean?,
            })
        })
        .collect();
    if points.len() < history.len() {
        eprintln!(
            "{} generations without any fitness are left out of the plot",
            history.len() - points.len()
        );
    }
    if points.is_empty() {
        return Ok(false);
    }
    let title = format!("Evolving voxel robots: {} generations", history.len());
    FitnessPlot {
        title,
        ..FitnessPlot::default()
    }
    .save(&points, path)?;
    Ok(true)
}

/// `champion.json`: the champion as a one-robot population file (the settings' `evaluation`
/// object unchanged and the genome), which `hooke eval` scores again and `hooke view` shows.
pub(crate) fn write_champion(
    evaluation: &serde_json::Value,
    genome: &VoxelGenome,
    path: &Path,
) -> Result<()> {
    let batch = serde_json::json!({
        "version": hooke::scene::FORMAT_VERSION,
        "evaluation": evaluation,
        "robots": [{ "id": "champion", "genome": genome }],
    });
    let mut text = serde_json::to_string_pretty(&batch)?;
    text.push('\n');
    Ok(write_atomically(path, text.as_bytes())?)
}

/// `champion.gif` (and `champion_energy.png`): the champion alone for the evaluation's duration
/// on `backend`, voxels shaded, the camera following it.
pub(crate) fn record_champion(
    evolution: &Evolution,
    genome: &VoxelGenome,
    backend: &OpenBackend,
    out: &Path,
    size: (u32, u32),
) -> Result<RecordingSummary> {
    let e = &evolution.evaluation;
    let voxels = genome.voxel_part(&evolution.genome)?;
    let mut alone = Population::new();
    alone.push("champion", voxels.part.clone());
    let model = alone.model(&e.params, &e.obstacles)?;
    let options = RecordOptions {
        duration: e.duration,
        framing: Framing::Follow,
        size,
        cells: voxels.voxel_masses.clone(),
        title: "Evolved champion: energy".to_string(),
        ..RecordOptions::new(out, "champion")
    };
    Ok(match backend {
        OpenBackend::Cpu { .. } => record(&mut CpuWorld::new(&model)?, &model, &options)?,
        OpenBackend::Gpu { device, queue, .. } => {
            // The evaluation's fixed-point encoding, so the GIF shows the run that was scored.
            let world_options = WorldOptions {
                fixed_point: FixedPointScale::Pinned {
                    force: e.fixed_point_force,
                    max_incidence: e.max_incidence,
                },
                ..WorldOptions::default()
            };
            let mut world =
                World::with_device(device.clone(), queue.clone(), &model, world_options)?;
            record(&mut world, &model, &options)?
        }
    })
}
