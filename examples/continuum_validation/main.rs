//! Validation against continuum mechanics: every case of `cases/` (uniaxial tension, a free
//! bar's longitudinal mode, a cantilever's deflection and first bending mode, a column's
//! buckling load) on a sequence of lattice spacings, on the CPU reference (f64) or the GPU World
//! (f32 or f64). Prints the guide's tables (`src/guide/materials.md`) and writes
//! `convergence.csv` and `convergence.png` (relative error against cells across the thickness)
//! into a folder.
//!
//! ```text
//! cargo run --release --example continuum_validation -- [OUT_DIR] [--full]
//!     [--backend cpu|gpu] [--precision f32|f64] [--cases tension,bar,bending]
//! ```
//!
//! `OUT_DIR` defaults to `out/continuum_validation`. Without `--full` the bending cases stop at 3
//! cells across and the bars at 4 (the test suite's spacings, half a minute on the CPU); `--full`
//! runs the bending cases at 4 and 6 cells across too and the bars at 8 (the guide's figures,
//! about ten minutes on two busy cores). `--backend gpu` runs the same cases on the GPU World
//! (the adapter `hooke::gpu::find_adapter` picks; `--precision f64` needs `SHADER_F64`), which on
//! a software adapter is ten times slower than the CPU reference: `--cases tension,bar` leaves
//! out the bending cases, whose settling takes hundreds of thousands of steps (on lavapipe on two
//! busy cores, `--full --cases tension,bar` took 70 s in f32 and 90 s in f64, `--cases bending`
//! 6 and 8 minutes). Each row is printed as it is measured; the CSV names the backend of every
//! row.

#[allow(dead_code)]
mod cases;

use std::path::{Path, PathBuf};

use cases::beam_theory::{self, lattice_bending_ratio};
use cases::Backend;
use hooke::plot::{ConvergenceCurve, ConvergencePlot};
use hooke::Precision;

/// One measurement: a case at a spacing on a backend, against its reference.
struct Row {
    case: &'static str,
    backend: &'static str,
    across: u32,
    spacing: f64,
    measured: f64,
    reference: f64,
    predicted_error: Option<f64>,
}

impl Row {
    fn error(&self) -> f64 {
        self.measured / self.reference - 1.0
    }
}

/// Tension and compression at strain 1e-4: `E_eff` against `E` and `nu_eff` against 1/4.
fn tension_rows(backend: &Backend, spacings: &[u32]) -> Vec<Row> {
    let e = cases::material().young_modulus;
    let mut rows = Vec::new();
    for &across in spacings {
        let t = cases::tension::tension(backend, across, 1e-4 * e);
        let spacing = 0.02 / f64::from(across);
        let row = |case, measured, reference| Row {
            case,
            backend: backend.name(),
            across,
            spacing,
            measured,
            reference,
            predicted_error: None,
        };
        rows.push(row("tension: Young's modulus", t.young_modulus, e));
        rows.push(row("tension: lateral strain ratio", t.poisson_ratio, 0.25));
        print_rows(&rows[rows.len() - 2..]);
    }
    rows
}

/// The free bar's first longitudinal mode against `c / (2 L)` (Rayleigh-corrected), the chain's
/// `-(pi a / L)^2 / 24` as the prediction.
fn bar_rows(backend: &Backend, spacings: &[u32]) -> Vec<Row> {
    spacings
        .iter()
        .map(|&across| {
            let row = Row {
                case: "bar: longitudinal mode",
                backend: backend.name(),
                across,
                spacing: cases::bar_mode::SIDE / f64::from(across),
                measured: cases::bar_mode::first_longitudinal_mode(backend, across),
                reference: cases::bar_mode::reference(),
                predicted_error: Some(-cases::bar_mode::chain_error(across)),
            };
            print_rows(std::slice::from_ref(&row));
            row
        })
        .collect()
}

/// The cantilever's deflection and first mode, the column's buckling load, against
/// Euler-Bernoulli, each with the lattice's bending stiffness as the prediction.
fn bending_rows(backend: &Backend, spacings: &[u32]) -> Vec<Row> {
    let (deflection, _) = beam_theory::tip_deflection(cases::cantilever::end_load());
    let mode = beam_theory::first_mode(cases::material().density);
    let (load, _) = beam_theory::buckling_load();
    let mut rows = Vec::new();
    for &across in spacings {
        let ratio = lattice_bending_ratio(across);
        let spacing = beam_theory::THICKNESS / f64::from(across);
        let row = |case, measured, reference, predicted: f64| Row {
            case,
            backend: backend.name(),
            across,
            spacing,
            measured,
            reference,
            predicted_error: Some(predicted - 1.0),
        };
        let c = cases::cantilever::cantilever(backend, across);
        rows.push(row(
            "cantilever: tip deflection",
            c.deflection,
            deflection,
            1.0 / ratio,
        ));
        let f = (ratio * (1.0 - mode.rotary)).sqrt();
        rows.push(row(
            "cantilever: first bending mode",
            c.frequency,
            mode.euler,
            f,
        ));
        let b = cases::buckling::buckling(backend, across);
        rows.push(row("column: buckling load", b.load, load, ratio));
        print_rows(&rows[rows.len() - 3..]);
    }
    rows
}

/// Prints `rows` as they are measured.
fn print_rows(rows: &[Row]) {
    for r in rows {
        println!("{} ({}): {}", r.case, r.backend, r.fields().join(", "));
    }
}

impl Row {
    /// The row's numbers as text: cells across, spacing, measured, reference, error and the
    /// predicted error (`none` where there is no prediction).
    fn fields(&self) -> [String; 6] {
        [
            self.across.to_string(),
            format!("{:.5}", self.spacing),
            format!("{:.6e}", self.measured),
            format!("{:.6e}", self.reference),
            format!("{:.3e}", self.error()),
            self.predicted_error
                .map_or("none".to_string(), |p| format!("{p:.3e}")),
        ]
    }
}

/// The rows as Markdown tables, one per case.
fn tables(rows: &[Row]) -> String {
    let mut out = String::new();
    let mut case = "";
    for r in rows {
        if r.case != case {
            case = r.case;
            out += &format!("\n{case} ({})\n\n| cells across | a (m) | measured | reference | error | predicted error |\n", r.backend);
            out += "|---|---|---|---|---|---|\n";
        }
        out += &format!("| {} |\n", r.fields().join(" | "));
    }
    out
}

/// The rows as CSV.
fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "case,backend,cells_across,spacing_m,measured,reference,relative_error,predicted_error\n",
    );
    for r in rows {
        out += &format!("{},{},{}\n", r.case, r.backend, r.fields().join(","));
    }
    out
}

/// Each case's |error| against cells across, and its prediction after it where it has one.
fn curves(rows: &[Row]) -> Vec<ConvergenceCurve> {
    let mut names: Vec<&str> = rows.iter().map(|r| r.case).collect();
    names.dedup();
    let mut curves = Vec::new();
    for name in names {
        let of: Vec<&Row> = rows.iter().filter(|r| r.case == name).collect();
        let points = |f: &dyn Fn(&Row) -> Option<f64>| -> Vec<(f64, f64)> {
            of.iter()
                .filter_map(|r| f(r).map(|e| (f64::from(r.across), e.abs())))
                .collect()
        };
        // The CPU reference's curves carry the case alone (the guide's plot); others say where.
        let label = match of[0].backend {
            "cpu" => name.to_string(),
            backend => format!("{name} ({backend})"),
        };
        curves.push(ConvergenceCurve {
            label: label.clone(),
            points: points(&|r| Some(r.error())),
            predicted: false,
        });
        let predicted = points(&|r| r.predicted_error);
        if !predicted.is_empty() {
            curves.push(ConvergenceCurve {
                label: format!("{label}, predicted"),
                points: predicted,
                predicted: true,
            });
        }
    }
    curves
}

/// The command line: `[OUT_DIR] [--full] [--backend cpu|gpu] [--precision f32|f64] [--cases
/// tension,bar,bending]`.
struct Args {
    dir: PathBuf,
    full: bool,
    gpu: bool,
    precision: Option<Precision>,
    cases: Vec<String>,
}

/// The cases `--cases` may name.
const CASES: [&str; 3] = ["tension", "bar", "bending"];

/// Reads the command line, or says what is wrong with it.
fn arguments() -> Result<Args, String> {
    let mut args = Args {
        dir: PathBuf::from("out/continuum_validation"),
        full: false,
        gpu: false,
        precision: None,
        cases: CASES.map(String::from).to_vec(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "--full" => args.full = true,
            "--backend" => match value("--backend")?.as_str() {
                "cpu" => args.gpu = false,
                "gpu" => args.gpu = true,
                other => return Err(format!("--backend {other}: expected cpu or gpu")),
            },
            "--precision" => match value("--precision")?.as_str() {
                "f32" => args.precision = Some(Precision::F32),
                "f64" => args.precision = Some(Precision::F64),
                other => return Err(format!("--precision {other}: expected f32 or f64")),
            },
            "--cases" => {
                args.cases = value("--cases")?.split(',').map(String::from).collect();
                if let Some(bad) = args.cases.iter().find(|c| !CASES.contains(&c.as_str())) {
                    return Err(format!("--cases: no case {bad:?} (expected {CASES:?})"));
                }
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            dir => args.dir = PathBuf::from(dir),
        }
    }
    Ok(args)
}

/// The backend `args` ask for: the CPU reference (f64 only), or the GPU World on the adapter
/// hooke picks, in f32 unless `--precision f64` (which needs `SHADER_F64`).
fn backend(args: &Args) -> Result<Backend, Box<dyn std::error::Error>> {
    if !args.gpu {
        if args.precision == Some(Precision::F32) {
            return Err("--precision f32: the CPU reference runs in f64 only".into());
        }
        return Ok(Backend::Cpu);
    }
    let (device, queue) = hooke::gpu::request_device()?;
    let precision = args.precision.unwrap_or(Precision::F32);
    let adapter = hooke::gpu::adapter_summary(&device.adapter_info());
    if precision == Precision::F64 && !device.features().contains(wgpu::Features::SHADER_F64) {
        return Err(format!("{adapter} has no SHADER_F64: run with --precision f32").into());
    }
    println!("on the GPU World ({precision:?}) on {adapter}");
    Ok(Backend::Gpu {
        device,
        queue,
        precision,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = arguments()?;
    let backend = backend(&args)?;
    std::fs::create_dir_all(&args.dir)?;
    let (bending, bars): (&[u32], &[u32]) = if args.full {
        (&[1, 2, 3, 4, 6], &[1, 2, 4, 8])
    } else {
        println!("the test suite's spacings; --full adds the guide's (about ten minutes)");
        (&[1, 2, 3], &[1, 2, 4])
    };
    let runs = |case: &str| args.cases.iter().any(|c| c == case);
    let start = std::time::Instant::now();
    let mut rows = Vec::new();
    if runs("tension") {
        rows.extend(tension_rows(&backend, bars));
    }
    if runs("bar") {
        rows.extend(bar_rows(&backend, bars));
    }
    if runs("bending") {
        rows.extend(bending_rows(&backend, bending));
    }
    let order: Vec<&str> = rows.iter().map(|r| r.case).collect();
    rows.sort_by_key(|r| order.iter().position(|&c| c == r.case));
    println!("{}", tables(&rows));
    println!("({:.0} s)", start.elapsed().as_secs_f64());
    write(&args.dir.join("convergence.csv"), &csv(&rows))?;
    ConvergencePlot::default().save(&curves(&rows), args.dir.join("convergence.png"))?;
    println!("wrote {}", args.dir.display());
    Ok(())
}

/// Writes `text` to `path`.
fn write(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)
}
