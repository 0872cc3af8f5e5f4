//! The `hooke` command as a user runs it: traces, GIFs, reports, help, and the errors of bad
//! input.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hooke::{CpuWorld, Scene, Simulation, World};

/// Runs the `hooke` binary with `args` from the crate's root.
fn hooke(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hooke"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RUST_LOG", "warn")
        .output()
        .expect("the hooke binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The trace `hooke run` wrote: header and rows of numbers.
fn read_trace(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(|v| v.parse().unwrap()).collect())
        .collect();
    (header, rows)
}

/// Steps `sim` in blocks of `every` steps, `blocks` times, and returns each body's centre of
/// mass and the total energy after every block (and at the start), as the trace lists them.
fn expected_rows<S: Simulation>(sim: &mut S, every: u64, blocks: usize) -> Vec<Vec<f64>> {
    let mut rows = Vec::new();
    for block in 0..=blocks {
        if block > 0 {
            sim.step(every).unwrap();
        }
        let mut row: Vec<f64> = sim
            .bodies()
            .unwrap()
            .iter()
            .flat_map(|b| b.centre_of_mass.to_array())
            .collect();
        row.push(sim.energy().unwrap().total());
        rows.push(row);
    }
    rows
}

/// The centre-of-mass columns and the total energy of trace rows.
fn observed(header: &[String], rows: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let total = header.iter().position(|c| c == "total").unwrap();
    rows.iter()
        .map(|r| {
            // Columns: t, three per body, then the 8 energy terms.
            let mut v = r[1..header.len() - 8].to_vec();
            v.push(r[total]);
            v
        })
        .collect()
}

#[test]
fn hooke_run_trace_is_the_cpu_worlds_own_values_to_the_last_bit() {
    let dir = scratch("run_cpu");
    let out_csv = dir.join("cube.csv");
    let out = hooke(&[
        "run",
        "scenes/cube.json",
        "--duration",
        "0.05",
        "--every",
        "0.01",
        "--backend",
        "cpu",
        "--csv",
        out_csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (header, rows) = read_trace(&out_csv);
    let expected_header = [
        "t",
        "cube_x",
        "cube_y",
        "cube_z",
        "kinetic",
        "gravity",
        "elastic",
        "ground",
        "dissipated",
        "injected",
        "total",
        "balance",
    ];
    assert_eq!(header, expected_header);
    // 0.05 s at dt = 1e-4 s is 500 steps, a row every 100 steps and one at the start.
    assert_eq!(rows.len(), 6);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], i as f64 * 100.0 * 1e-4, "time column");
    }
    // Numbers are written in shortest round-trip form, so the trace holds exactly what the
    // reference integrator computes.
    let model = Scene::load("scenes/cube.json").unwrap().to_model().unwrap();
    let mut world = CpuWorld::new(&model).unwrap();
    assert_eq!(observed(&header, &rows), expected_rows(&mut world, 100, 5));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_run_gpu_trace_is_the_gpu_worlds_own_values() {
    let dir = scratch("run_gpu");
    let out_csv = dir.join("cube.csv");
    let out = hooke(&[
        "run",
        "scenes/cube.json",
        "--duration",
        "0.02",
        "--every",
        "0.01",
        "--backend",
        "gpu",
        "--csv",
        out_csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (header, rows) = read_trace(&out_csv);
    // The GPU World is bit-for-bit deterministic, so a second World in this process computes
    // the very values the command wrote.
    let model = Scene::load("scenes/cube.json").unwrap().to_model().unwrap();
    let mut world = World::new(&model).unwrap();
    assert_eq!(observed(&header, &rows), expected_rows(&mut world, 100, 2));
}

/// `hooke run --backend gpu --f64` runs the GPU World in f64: its trace is that World's own
/// values and within 1e-12 m of the CPU reference's (the f32 World's is about 1e-6 m away).
/// `--f64` on the CPU reference runs and says the CPU is always f64. On an adapter without
/// `SHADER_F64` (the GL backend; lavapipe has it) the command fails naming the feature.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_run_gpu_f64_trace_follows_the_cpu_reference() {
    let dir = scratch("run_gpu_f64");
    let out_csv = dir.join("cube.csv");
    let adapter = pollster::block_on(hooke::gpu::find_adapter()).unwrap();
    if !adapter.features().contains(wgpu::Features::SHADER_F64) {
        let name = adapter.get_info().name;
        let out = hooke(&["run", "scenes/cube.json", "--backend", "gpu", "--f64"]);
        assert!(
            !out.status.success(),
            "{name} ran an f64 World without SHADER_F64"
        );
        assert!(stderr(&out).contains("SHADER_F64"), "{}", stderr(&out));
        return;
    }
    let args = [
        "run",
        "scenes/cube.json",
        "--duration",
        "0.05",
        "--every",
        "0.01",
        "--backend",
        "gpu",
        "--f64",
        "--csv",
        out_csv.to_str().unwrap(),
    ];
    let out = hooke(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("GPU World") && stderr(&out).contains("(f64)"),
        "{}",
        stderr(&out)
    );
    let (header, rows) = read_trace(&out_csv);
    let model = Scene::load("scenes/cube.json").unwrap().to_model().unwrap();
    let options = hooke::WorldOptions {
        precision: hooke::Precision::F64,
        ..Default::default()
    };
    let (device, queue) = hooke::gpu::request_device().unwrap();
    let mut world = World::with_device(device, queue, &model, options).unwrap();
    assert_eq!(observed(&header, &rows), expected_rows(&mut world, 100, 5));
    let mut cpu = CpuWorld::new(&model).unwrap();
    let cpu_rows = expected_rows(&mut cpu, 100, 5);
    for (g, c) in observed(&header, &rows).iter().zip(&cpu_rows) {
        // Centre of mass columns (the last is the total energy).
        for (a, b) in g[..g.len() - 1].iter().zip(&c[..c.len() - 1]) {
            assert!((a - b).abs() < 1e-12, "{a} (GPU f64) vs {b} (CPU)");
        }
    }
    let cpu = hooke(&[
        "run",
        "scenes/cube.json",
        "--duration",
        "0.01",
        "--backend",
        "cpu",
        "--f64",
    ]);
    assert!(cpu.status.success(), "{}", stderr(&cpu));
    assert!(
        stderr(&cpu).contains("always runs in f64"),
        "{}",
        stderr(&cpu)
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_info_reports_counts_stable_dt_and_adapter() {
    let out = hooke(&["info", "scenes/cloth.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let model = Scene::load("scenes/cloth.json")
        .unwrap()
        .to_model()
        .unwrap();
    assert!(
        text.contains(&format!("masses     {} ", model.masses.len())),
        "{text}"
    );
    assert!(
        text.contains(&format!("springs    {} ", model.springs.len())),
        "{text}"
    );
    assert!(text.contains(&format!("{}", model.stable_dt())), "{text}");
    assert!(text.contains("adapter    "), "{text}");
    assert!(text.contains("device     "), "{text}");
}

/// `hooke info` lists the device memory of every buffer of the scene's World, the largest
/// first, and their total: the buffers and sizes the library plans for the same model on the
/// same adapter (`World::device_memory`).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_info_prints_the_device_memory_of_every_buffer() {
    let out = hooke(&["info", "scenes/cloth.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines().skip_while(|l| !l.starts_with("memory     "));
    let head = lines
        .next()
        .unwrap_or_else(|| panic!("no memory line: {text}"));
    let listed: Vec<(String, u64)> = lines
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(words.len(), 3, "{l}");
            (words[0].to_string(), words[1].parse().unwrap())
        })
        .collect();
    let model = Scene::load("scenes/cloth.json")
        .unwrap()
        .to_model()
        .unwrap();
    let world = World::new(&model).unwrap();
    let memory = world.device_memory();
    let mut expected: Vec<(String, u64)> = memory
        .buffers
        .iter()
        .map(|b| (b.name.to_string(), b.bytes))
        .collect();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    assert_eq!(listed, expected, "{text}");
    let total: u64 = listed.iter().map(|(_, b)| b).sum();
    assert_eq!(total, memory.total());
    assert!(
        head.contains(&format!("({total} B) in {} buffers", listed.len())),
        "{head}"
    );
    for name in ["links", "state", "forces", "positions"] {
        assert!(listed.iter().any(|(n, _)| n == name), "{name}: {text}");
    }
}

/// One `hooke run` writes the GIF, its energy plot and the CSV trace of the same simulation:
/// the trace is the CPU reference's own values, as without `--gif`.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_run_writes_the_gif_the_energy_plot_and_the_trace_at_once() {
    let dir = scratch("run_gif");
    let gif = dir.join("cube.gif");
    let csv = dir.join("cube.csv");
    let out = hooke(&[
        "run",
        "scenes/cube.json",
        "--gif",
        gif.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--duration",
        "0.1",
        "--every",
        "0.02",
        "--fps",
        "50",
        "--size",
        "64x48",
        "--backend",
        "cpu",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "no trace on standard output");
    let decoder = image::codecs::gif::GifDecoder::new(std::io::BufReader::new(
        std::fs::File::open(&gif).unwrap(),
    ))
    .unwrap();
    use image::AnimationDecoder;
    let frames = decoder.into_frames().collect_frames().unwrap();
    // 0.1 s at 50 frames per second: frames at 0, 0.02, ..., 0.1 s.
    assert_eq!(frames.len(), 6);
    assert_eq!(frames[0].buffer().dimensions(), (64, 48));
    assert!(dir.join("cube_energy.png").is_file());
    // 0.1 s at dt = 1e-4 s, a row every 200 steps and one at the start.
    let (header, rows) = read_trace(&csv);
    assert_eq!(rows.len(), 6);
    let model = Scene::load("scenes/cube.json").unwrap().to_model().unwrap();
    let mut world = CpuWorld::new(&model).unwrap();
    assert_eq!(observed(&header, &rows), expected_rows(&mut world, 200, 5));
}

/// With neither `--csv` nor `--gif`, the trace goes to standard output; with `--gif` alone,
/// nothing does.
#[test]
fn without_csv_or_gif_the_trace_goes_to_standard_output() {
    let out = hooke(&[
        "run",
        "scenes/cube.json",
        "--duration",
        "0.01",
        "--every",
        "0.005",
        "--backend",
        "cpu",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 3, "{text}");
    assert!(lines[0].starts_with("t,cube_x,cube_y,cube_z,"), "{text}");
}

/// Times in messages are written as a person writes them: `0.0001 s`, not
/// `0.00010000000000000002 s`.
#[test]
fn run_messages_print_times_without_float_noise() {
    let out = hooke(&[
        "run",
        "scenes/cube.json",
        "--duration",
        "0.0003",
        "--backend",
        "cpu",
        "--csv",
        scratch("human_times").join("t.csv").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("3 steps of 0.0001 s"), "{err}");
    assert!(err.contains("simulated 0.0003 s"), "{err}");
    assert!(!err.contains("0000000"), "{err}");
}

#[test]
fn a_typo_in_a_scene_file_names_the_file_and_the_field() {
    let dir = scratch("typo");
    let scene = dir.join("typo.json");
    std::fs::write(
        &scene,
        r#"{"version": 1, "params": {"dt": 1e-4, "gravty": [0, 0, -1]}}"#,
    )
    .unwrap();
    let out = hooke(&["run", scene.to_str().unwrap(), "--duration", "0.01"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("typo.json") && err.contains("gravty"), "{err}");
}

#[test]
fn a_bad_value_in_a_scene_file_names_the_file_the_field_and_the_value() {
    let dir = scratch("bad_value");
    let scene = dir.join("bad.json");
    std::fs::write(&scene, r#"{"version": 1, "params": {"dt": -0.5}}"#).unwrap();
    let out = hooke(&["info", scene.to_str().unwrap(), "--no-gpu"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bad.json") && err.contains("dt") && err.contains("-0.5"),
        "{err}"
    );
}

#[test]
fn a_missing_scene_file_is_named() {
    let out = hooke(&["info", "no/such/scene.json"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no/such/scene.json"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_command_line_values_are_refused_with_the_value() {
    for (args, value) in [
        (vec!["run", "scenes/cube.json", "--duration", "-1"], "-1"),
        (vec!["run", "scenes/cube.json", "--every", "nan"], "nan"),
        (
            vec!["run", "scenes/cube.json", "--size", "640by480"],
            "640by480",
        ),
        (vec!["run", "scenes/cube.json", "--gif", "x.png"], "x.png"),
        (vec!["run", "scenes/cube.json", "--backend", "cuda"], "cuda"),
    ] {
        let out = hooke(&args);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(stderr(&out).contains(value), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_run_that_blows_up_keeps_its_rows_and_says_what_to_change() {
    // The default cloth scene at dt = 0.01 s, 26 times its stable estimate. Regression:
    // it "ran" to z = 6018 m and returned Ok.
    let dir = scratch("blow_up");
    let mut scene = Scene::load("scenes/cloth.json").unwrap();
    scene.params.dt = 0.01;
    let file = dir.join("cloth_dt_0.01.json");
    scene.save(&file).unwrap();
    let out_csv = dir.join("trace.csv");
    let out = hooke(&[
        "run",
        file.to_str().unwrap(),
        "--duration",
        "2",
        "--every",
        "0.01",
        "--backend",
        "cpu",
        "--csv",
        out_csv.to_str().unwrap(),
    ]);
    assert!(!out.status.success(), "a blow-up must fail the command");
    let err = stderr(&out);
    assert!(
        err.contains("blew up") && err.contains("reduce dt below"),
        "{err}"
    );
    assert!(err.contains(out_csv.to_str().unwrap()), "{err}");
    // The rows before the blow-up are kept, and none of them is a runaway.
    let (_, rows) = read_trace(&out_csv);
    assert!(!rows.is_empty() && rows.len() < 200, "{} rows", rows.len());
    assert!(rows
        .iter()
        .flatten()
        .all(|v| v.is_finite() && v.abs() < 1e3));
}

/// `hooke --help` stands on its own: it shows a whole scene (which loads), points at `hooke
/// schema` and docs.rs, and never at a `scenes/` folder a `cargo install` user does not have.
#[test]
fn the_help_shows_a_scene_that_runs_and_no_repository_folder() {
    let out = hooke(&["--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let help = stdout(&out);
    assert!(!help.contains("scenes/"), "{help}");
    assert!(
        help.contains("hooke schema") && help.contains("docs.rs/hooke"),
        "{help}"
    );
    let start = help.find("\n  {").expect("a scene in the help");
    let end = start + help[start..].find("\n  }").expect("the scene's end") + 4;
    let dir = scratch("help_scene");
    let scene = dir.join("cube.json");
    std::fs::write(&scene, &help[start..end]).unwrap();
    let run = hooke(&[
        "run",
        scene.to_str().unwrap(),
        "--duration",
        "0.01",
        "--backend",
        "cpu",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    for command in ["run", "info", "view", "evolve", "eval", "merge", "schema"] {
        let out = hooke(&[command, "--help"]);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        let help = stdout(&out);
        assert!(help.contains("Example: hooke "), "{command}: {help}");
    }
}

/// `hooke view` loads the file before it opens a window, so a bad file is named either way;
/// without the `viewer` feature it says how to get the viewer.
#[test]
fn hooke_view_names_a_bad_file_and_says_how_to_get_the_viewer() {
    let out = hooke(&["view", "no/such/champion.json"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no/such/champion.json"),
        "{}",
        stderr(&out)
    );
    if cfg!(not(feature = "viewer")) {
        let out = hooke(&["view", "scenes/cube.json"]);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains("--features cli,viewer"), "{err}");
    }
}

/// With the viewer but no display (a headless machine), `hooke view` fails with a message
/// saying the window could not open, not a panic.
#[test]
#[cfg(feature = "viewer")]
fn hooke_view_without_a_display_says_the_window_could_not_open() {
    let out = Command::new(env!("CARGO_BIN_EXE_hooke"))
        .args(["view", "scenes/cube.json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("RUST_LOG", "off")
        .output()
        .expect("the hooke binary runs");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("window could not open"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
