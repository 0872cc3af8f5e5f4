//! `throughput --population`: robot-evaluations per second of `Population::benchmark` on both
//! backends, and the cost per robot against population size (see the tool's docs in main.rs).

use std::time::Instant;

use hooke::population::{Evaluation, Population, RobotResult};
use hooke::{FixedPointScale, OpenBackend, Params, World, WorldOptions};

use crate::Args;

/// One backend's timing of one population: seconds of the whole evaluation and of the same
/// evaluation with duration 0 (building the model, the world and the per-robot bounds, and the
/// readbacks: the fixed cost of a call).
#[derive(Clone, Copy)]
struct Timing {
    total: f64,
    setup: f64,
    failed: usize,
    load: f64,
}

/// One population size's results.
struct Row {
    robots: usize,
    masses: usize,
    springs: usize,
    actuators: usize,
    cpu: Option<Timing>,
    gpu: Option<Timing>,
}

/// The device and queue the GPU World runs on; `None` with `--cpu-only`.
pub(crate) type Gpu<'a> = Option<(&'a wgpu::Device, &'a wgpu::Queue)>;

/// Times every population size of `args.robots` on the CPU reference and then on the GPU World
/// (side by side, size by size), and prints the table, a CSV and (feature `plot`) a plot.
pub(crate) fn run(args: &Args, gpu: Gpu<'_>) -> Result<(), Box<dyn std::error::Error>> {
    let eval = Evaluation {
        duration: args.duration,
        // The frictionless ground of the recorded measurements (docs/PERFORMANCE.md), not the
        // evaluation's default (the robots preset), so that they stay comparable.
        params: Params::lipson_cube(),
        ..Evaluation::default()
    };
    let steps = eval.steps()?;
    let largest = args.robots.0.iter().copied().max().unwrap_or(0) as usize;
    let mut all = Population::benchmark(largest)?;
    if args.no_muscles {
        for r in &mut all.robots {
            r.part.actuators.clear();
        }
        println!("--no-muscles: every actuator removed, the springs kept");
    }
    let mut rows = Vec::new();
    for &n in &args.robots.0 {
        let population = Population {
            robots: all.robots[..n as usize].to_vec(),
            ..Population::default()
        };
        let row = measure(args, gpu, &population, &eval, steps)?;
        rows.push(row);
    }
    print_table(&rows, args.duration, steps);
    write_outputs(&rows, steps)?;
    Ok(())
}

/// Both backends on one population.
fn measure(
    args: &Args,
    gpu: Gpu<'_>,
    population: &Population,
    eval: &Evaluation,
    steps: u64,
) -> hooke::Result<Row> {
    let count = |f: fn(&hooke::Part) -> usize| -> usize {
        population.robots.iter().map(|r| f(&r.part)).sum()
    };
    let mut row = Row {
        robots: population.robots.len(),
        masses: count(|p| p.masses.len()),
        springs: count(|p| p.springs.len()),
        actuators: count(|p| p.actuators.len()),
        cpu: None,
        gpu: None,
    };
    let per = |x: usize| x as f64 / row.robots as f64;
    println!(
        "{} robots: {} masses, {} springs, {} actuated springs ({:.1}, {:.1}, {:.1} per robot), \
         {:.3} s simulated ({steps} steps of {} s)",
        row.robots,
        row.masses,
        row.springs,
        row.actuators,
        per(row.masses),
        per(row.springs),
        per(row.actuators),
        eval.duration,
        eval.params.dt
    );
    let setup_eval = Evaluation {
        duration: 0.0,
        ..eval.clone()
    };
    if !args.gpu_only {
        let t = timing(
            || population.evaluate(&setup_eval).run(),
            || population.evaluate(eval).run(),
        )?;
        report("cpu (f64, all cores)", &row, t, steps, eval.duration);
        row.cpu = Some(t);
    }
    if let Some((device, queue)) = gpu {
        gpu_layout(device, queue, population, eval, row.springs)?;
        let backend = OpenBackend::from_device(device.clone(), queue.clone());
        let t = timing(
            || population.evaluate(&setup_eval).on(&backend).run(),
            || population.evaluate(eval).on(&backend).run(),
        )?;
        report("gpu (f32, World)", &row, t, steps, eval.duration);
        row.gpu = Some(t);
    }
    Ok(row)
}

/// Prints how the GPU World lays out the population's model (the evaluation's options: the
/// fixed-point encoding pinned), as the lattice mode does: dispatches, and how many springs the
/// stencil variant of the spring pass holds.
fn gpu_layout(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    population: &Population,
    eval: &Evaluation,
    springs: usize,
) -> hooke::Result<()> {
    let model = population.model(&eval.params, &eval.obstacles)?;
    let options = WorldOptions {
        fixed_point: FixedPointScale::Pinned {
            force: eval.fixed_point_force,
            max_incidence: eval.max_incidence,
        },
        ..WorldOptions::default()
    };
    let world = World::with_device(device.clone(), queue.clone(), &model, options)?;
    crate::print_stats(&world, springs, eval.control_steps);
    Ok(())
}

/// Runs `setup` (duration 0), then `full`, timing each.
fn timing(
    setup: impl FnOnce() -> hooke::Result<Vec<RobotResult>>,
    full: impl FnOnce() -> hooke::Result<Vec<RobotResult>>,
) -> hooke::Result<Timing> {
    let t = Instant::now();
    setup()?;
    let setup = t.elapsed().as_secs_f64();
    let load = load_average();
    let t = Instant::now();
    let results = full()?;
    let total = t.elapsed().as_secs_f64();
    Ok(Timing {
        total,
        setup,
        failed: results.iter().filter(|r| r.failure.is_some()).count(),
        load: load.max(load_average()),
    })
}

/// The 1-minute load average (0 where /proc/loadavg cannot be read).
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

/// One backend's line: robot-evaluations per second, seconds per robot, spring-updates per
/// second of the stepping (the whole evaluation less the fixed cost).
fn report(what: &str, row: &Row, t: Timing, steps: u64, duration: f64) {
    let stepping = (t.total - t.setup).max(f64::MIN_POSITIVE);
    println!(
        "  {what:<22} {:9.3} s ({:.3} s fixed): {:9.4} robot-evaluations/s ({duration} s \
         each), {:8.4} s per robot, {:6.1} M spring-updates/s; {} failed; load average {:.2}",
        t.total,
        t.setup,
        row.robots as f64 / t.total,
        t.total / row.robots as f64,
        row.springs as f64 * steps as f64 / stepping / 1e6,
        t.failed,
        t.load
    );
}

/// Per population size and backend: seconds per robot and ns per spring update, and the
/// robot-evaluations per second scaled to 10 s of simulated time.
fn print_table(rows: &[Row], duration: f64, steps: u64) {
    println!();
    println!(
        "| robots | springs | cpu s/robot | cpu ns/spring-update | cpu robot-evals/s at 10 s | gpu \
         s/robot | gpu ns/spring-update | gpu robot-evals/s at 10 s | load |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let cols = |t: Option<Timing>| {
            t.map_or(["-".to_string(), "-".to_string(), "-".to_string()], |t| {
                let stepping = t.total - t.setup;
                let at_10 = stepping * 10.0 / duration.max(f64::MIN_POSITIVE) + t.setup;
                [
                    format!("{:.4}", t.total / r.robots as f64),
                    format!("{:.2}", ns_per_update(t, r.springs, steps)),
                    format!("{:.3}", r.robots as f64 / at_10),
                ]
            })
        };
        let [c1, c2, c3] = cols(r.cpu);
        let [g1, g2, g3] = cols(r.gpu);
        let load = r
            .cpu
            .map_or(0.0, |t| t.load)
            .max(r.gpu.map_or(0.0, |t| t.load));
        println!(
            "| {} | {} | {c1} | {c2} | {c3} | {g1} | {g2} | {g3} | {load:.2} |",
            r.robots, r.springs
        );
    }
    println!(
        "(s/robot: the whole evaluation of {duration} s per robot, fixed cost included; \
         ns/spring-update: the stepping alone; robot-evals/s at 10 s: the stepping scaled to \
         10 s plus the fixed cost; cpu on all cores)"
    );
}

/// Nanoseconds per spring update of the stepping (the evaluation less its fixed cost).
fn ns_per_update(t: Timing, springs: usize, steps: u64) -> f64 {
    (t.total - t.setup) * 1e9 / (springs as f64 * steps.max(1) as f64)
}

/// `out/throughput/population.csv` and, with the `plot` feature, `population.png` (ns per
/// spring update against the population's springs).
fn write_outputs(rows: &[Row], steps: u64) -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::Path::new("out/throughput");
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut csv = String::from(
        "robots,masses,springs,actuators,steps,cpu_s,cpu_setup_s,gpu_s,gpu_setup_s,load\n",
    );
    let cell =
        |t: Option<Timing>, f: fn(Timing) -> f64| t.map_or(String::new(), |t| f(t).to_string());
    for r in rows {
        let load = r
            .cpu
            .map_or(0.0, |t| t.load)
            .max(r.gpu.map_or(0.0, |t| t.load));
        csv += &format!(
            "{},{},{},{},{steps},{},{},{},{},{load}\n",
            r.robots,
            r.masses,
            r.springs,
            r.actuators,
            cell(r.cpu, |t| t.total),
            cell(r.cpu, |t| t.setup),
            cell(r.gpu, |t| t.total),
            cell(r.gpu, |t| t.setup),
        );
    }
    let path = dir.join("population.csv");
    std::fs::write(&path, csv).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    #[cfg(feature = "plot")]
    {
        use hooke::plot::{CostCurve, CostPlot};
        let curve = |label: &str, t: fn(&Row) -> Option<Timing>| CostCurve {
            label: label.to_string(),
            points: rows
                .iter()
                .filter_map(|r| {
                    let t = t(r)?;
                    let ns = ns_per_update(t, r.springs, steps);
                    (ns.is_finite() && ns >= 0.0).then_some((r.springs as f64, ns))
                })
                .collect(),
        };
        let curves: Vec<CostCurve> = [
            curve("GPU World", |r| r.gpu),
            curve("CPU reference (f64)", |r| r.cpu),
        ]
        .into_iter()
        .filter(|c| !c.points.is_empty())
        .collect();
        if !curves.is_empty() {
            let plot = CostPlot {
                title: "Populations of voxel robots: cost per spring update".to_string(),
                ..CostPlot::default()
            };
            let path = dir.join("population.png");
            plot.save(&curves, &path)?;
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}
