//! What `evolve` opens and writes: the backend (one GPU device for the whole run), the history
//! CSV, the fitness plot, the champion's genome and its GIF.

use std::fmt::Write as _;
use std::path::Path;

use hooke::plot::{FitnessPlot, GenerationFitness};
use hooke::population::{Evolution, GenerationStats, Population, VoxelGenome};
use hooke::render::{record, Framing, RecordOptions, RecordingSummary};
use hooke::{CpuWorld, FixedPointScale, World, WorldOptions};

/// Errors of the example: hooke's, and file writes with their path.
pub(crate) type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Where robots are evaluated.
pub(crate) enum Backend {
    /// The f64 CPU reference.
    Cpu,
    /// The GPU World, on one device opened once.
    Gpu {
        /// The device every generation and the champion's GIF run on.
        device: wgpu::Device,
        /// Its queue.
        queue: wgpu::Queue,
        /// The adapter's name, driver and driver version.
        adapter: String,
    },
}

impl Backend {
    /// The CPU reference when `cpu`, else the GPU World on the adapter hooke picks.
    pub(crate) fn open(cpu: bool) -> hooke::Result<Self> {
        if cpu {
            return Ok(Self::Cpu);
        }
        pollster::block_on(async {
            let adapter = hooke::gpu::find_adapter().await?;
            let info = adapter.get_info();
            let (device, queue) = hooke::gpu::open_device(&adapter).await?;
            Ok(Self::Gpu {
                device,
                queue,
                adapter: format!(
                    "{} ({:?}, {} {})",
                    info.name, info.backend, info.driver, info.driver_info
                ),
            })
        })
    }

    /// For the printout.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Cpu => "the CPU reference (f64)".to_string(),
            Self::Gpu { adapter, .. } => format!("the GPU World on {adapter}"),
        }
    }
}

/// `history.csv`: one row per generation (fitness in m, wall time in s; empty when none).
pub(crate) fn write_history(history: &[GenerationStats], path: &Path) -> Result<()> {
    let mut csv = String::from("generation,best_m,mean_m,failed,empty,wall_time_s\n");
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
    std::fs::write(path, csv).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// `fitness.png`: best and mean per generation. Generations where every robot failed have no
/// fitness to draw and are left out (said on the terminal).
pub(crate) fn write_plot(history: &[GenerationStats], path: &Path) -> Result<()> {
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
        println!(
            "{} generations without any fitness are left out of the plot",
            history.len() - points.len()
        );
    }
    if points.is_empty() {
        return Ok(());
    }
    let title = format!("Evolving voxel robots: {} generations", history.len());
    Ok(FitnessPlot {
        title,
        ..FitnessPlot::default()
    }
    .save(&points, path)?)
}

/// `champion.json`: the champion as a one-robot batch for `hooke eval` (its evaluation settings
/// and its genome), so `hooke eval champion.json --out result.json` scores it again.
pub(crate) fn write_champion(
    evolution: &Evolution,
    genome: &VoxelGenome,
    path: &Path,
) -> Result<()> {
    let e = &evolution.evaluation;
    let batch = serde_json::json!({
        "evaluation": {
            "duration": e.duration,
            "params": e.params,
            "fitness": e.fitness,
            "genome": evolution.genome,
            "fixed_point_force": e.fixed_point_force,
            "max_incidence": e.max_incidence,
        },
        "robots": [{ "id": "champion", "genome": genome }],
    });
    let text = serde_json::to_string_pretty(&batch)?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// `champion.gif` (and `champion_energy.png`): the champion alone for the evaluation's duration
/// on `backend`, voxels shaded, the camera following it.
pub(crate) fn record_champion(
    evolution: &Evolution,
    genome: &VoxelGenome,
    backend: &Backend,
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
        Backend::Cpu => record(&mut CpuWorld::new(&model)?, &model, &options)?,
        Backend::Gpu { device, queue, .. } => {
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

/// The evolution settings and genome of a `champion.json` that [`write_champion`] wrote.
pub(crate) fn read_champion(path: &Path) -> Result<(Evolution, VoxelGenome)> {
    let context = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| context(&e))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| context(&e))?;
    let field = |v: &serde_json::Value, name: &str| -> Result<serde_json::Value> {
        v.get(name)
            .cloned()
            .ok_or_else(|| context(&format!("no field `{name}`")).into())
    };
    let eval = field(&json, "evaluation")?;
    let mut evolution = Evolution::default();
    let e = &mut evolution.evaluation;
    e.duration = serde_json::from_value(field(&eval, "duration")?).map_err(|e| context(&e))?;
    e.params = serde_json::from_value(field(&eval, "params")?).map_err(|e| context(&e))?;
    e.fitness = serde_json::from_value(field(&eval, "fitness")?).map_err(|e| context(&e))?;
    e.fixed_point_force =
        serde_json::from_value(field(&eval, "fixed_point_force")?).map_err(|e| context(&e))?;
    e.max_incidence =
        serde_json::from_value(field(&eval, "max_incidence")?).map_err(|e| context(&e))?;
    evolution.genome = serde_json::from_value(field(&eval, "genome")?).map_err(|e| context(&e))?;
    let robot = json
        .get("robots")
        .and_then(|r| r.get(0))
        .ok_or_else(|| context(&"no robot in `robots`"))?;
    let genome = serde_json::from_value(field(robot, "genome")?).map_err(|e| context(&e))?;
    evolution.check()?;
    Ok((evolution, genome))
}

/// `--gif-size`: `WIDTHxHEIGHT`, each at least 16 pixels.
pub(crate) fn gif_size(s: &str) -> std::result::Result<(u32, u32), String> {
    let parse = |v: &str| v.trim().parse::<u32>().ok().filter(|&n| n >= 16);
    match s.split_once('x') {
        Some((w, h)) => parse(w)
            .zip(parse(h))
            .ok_or_else(|| format!("{s:?}: width and height must be whole numbers >= 16")),
        None => Err(format!("{s:?}: expected WIDTHxHEIGHT, e.g. 480x360")),
    }
}
