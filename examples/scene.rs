//! Runs a scene file headless on the CPU reference integrator and writes a CSV of the centre of
//! mass and every energy term.
//!
//! ```text
//! cargo run --release --example scene -- scenes/cube.json --duration 2 --every 0.01 --out out/cube.csv
//! ```
//!
//! Columns: `t` (s), `com_x`, `com_y`, `com_z` (m), `kinetic`, `gravity`, `elastic`, `ground`,
//! `dissipated`, `injected`, `total`, `balance` (J). `balance = total + dissipated - injected`
//! stays constant up to the integrator's error. Without `--out` the CSV goes to stdout.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use hooke::{CpuWorld, Scene};

const USAGE: &str = "\
usage: scene SCENE.json [--duration SECONDS] [--every SECONDS] [--out FILE.csv] [--threads N]

Runs SCENE.json headless on the CPU and writes time, centre of mass and energy terms as CSV.
  --duration  simulated time in s (default 1)
  --every     output interval in s of simulated time (default 0.01); rounded to whole steps
  --out       CSV file to write (folders are created); default: standard output
  --threads   CPU threads (default: all cores)";

struct Args {
    scene: PathBuf,
    duration: f64,
    every: f64,
    out: Option<PathBuf>,
    threads: Option<usize>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut scene = None;
    let (mut duration, mut every, mut out, mut threads) = (1.0, 0.01, None, None);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let seconds = |name: &str, v: String| -> Result<f64, String> {
            match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
                _ => Err(format!(
                    "{name} must be a positive number of seconds, got {v:?}"
                )),
            }
        };
        match arg.as_str() {
            "--duration" => duration = seconds("--duration", value("--duration")?)?,
            "--every" => every = seconds("--every", value("--every")?)?,
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--threads" => {
                let v = value("--threads")?;
                threads =
                    Some(v.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                        format!("--threads must be a positive integer, got {v:?}")
                    })?);
            }
            "-h" | "--help" => return Err(String::new()),
            a if a.starts_with('-') => return Err(format!("unknown option {a}")),
            a if scene.is_none() => scene = Some(PathBuf::from(a)),
            a => return Err(format!("unexpected argument {a}")),
        }
    }
    Ok(Args {
        scene: scene.ok_or("missing the scene file")?,
        duration,
        every,
        out,
        threads,
    })
}

fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let scene = Scene::load(&args.scene)?;
    let model = scene.to_model()?;
    let mut world = CpuWorld::new(&model)?;
    if let Some(t) = args.threads {
        world.set_threads(t);
    }
    let dt = model.params.dt;
    let total_steps = (args.duration / dt).round() as u64;
    let every_steps = ((args.every / dt).round() as u64).max(1);
    eprintln!(
        "{}: {} masses, {} springs, {} bodies; {} steps of {} s, a row every {} steps",
        args.scene.display(),
        model.masses.len(),
        model.springs.len(),
        model.bodies.len(),
        total_steps,
        dt,
        every_steps
    );

    let mut csv = String::from(
        "t,com_x,com_y,com_z,kinetic,gravity,elastic,ground,dissipated,injected,total,balance\n",
    );
    let all = 0..model.masses.len();
    let row = |world: &CpuWorld, csv: &mut String| -> hooke::Result<()> {
        let c = world.centre_of_mass(all.clone())?;
        let e = world.energy()?;
        // Time as steps * dt, so that rows land on round times.
        let t = world.steps() as f64 * dt;
        let values = [
            t,
            c.x,
            c.y,
            c.z,
            e.kinetic,
            e.gravity,
            e.elastic,
            e.ground,
            e.dissipated,
            e.injected,
            e.total(),
            e.balance(),
        ];
        for (i, v) in values.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            // Shortest round-trip form; exponent notation for tiny or huge magnitudes.
            if v != 0.0 && !(1e-4..1e15).contains(&v.abs()) {
                write!(csv, "{sep}{v:e}")
            } else {
                write!(csv, "{sep}{v}")
            }
            .expect("writing to a String cannot fail");
        }
        csv.push('\n');
        Ok(())
    };
    let started = std::time::Instant::now();
    row(&world, &mut csv)?;
    let mut done = 0;
    while done < total_steps {
        let n = every_steps.min(total_steps - done);
        world.step(n)?;
        done += n;
        row(&world, &mut csv)?;
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "simulated {} s in {secs:.3} s wall ({:.3e} spring-updates/s)",
        world.steps() as f64 * dt,
        model.springs.len() as f64 * total_steps as f64 / secs.max(1e-12)
    );

    match &args.out {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(path, csv)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => std::io::stdout().write_all(csv.as_bytes())?,
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let args = match parse_args() {
        Ok(a) => a,
        Err(msg) => {
            if msg.is_empty() {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {msg}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // hooke's errors already include their cause in the message.
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
