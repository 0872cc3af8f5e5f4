//! The `hooke` command as a user runs it: traces, renders, reports and the errors of bad input.
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
        "--out",
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
        "--gpu",
        "--out",
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

/// `hooke run --gpu --f64` runs the GPU World in f64: its trace is that World's own values and
/// within 1e-12 m of the CPU reference's (the f32 World's is about 1e-6 m away). `--f64` alone
/// is refused (it needs `--gpu`). On an adapter without `SHADER_F64` (never lavapipe) the command
/// fails naming the feature.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_run_gpu_f64_trace_follows_the_cpu_reference() {
    let dir = scratch("run_gpu_f64");
    let out_csv = dir.join("cube.csv");
    let (device, _) = hooke::gpu::request_device().unwrap();
    if !device.features().contains(wgpu::Features::SHADER_F64) {
        let name = device.adapter_info().name;
        assert!(!name.contains("llvmpipe"), "lavapipe has SHADER_F64");
        let out = hooke(&["run", "scenes/cube.json", "--gpu", "--f64"]);
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
        "--gpu",
        "--f64",
        "--out",
        out_csv.to_str().unwrap(),
    ];
    let out = hooke(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("F64"), "{}", stderr(&out));
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
    let refused = hooke(&["run", "scenes/cube.json", "--f64"]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--gpu"), "{}", stderr(&refused));
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

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_render_writes_the_gif_and_the_energy_plot() {
    let dir = scratch("render");
    let gif = dir.join("cube.gif");
    let out = hooke(&[
        "render",
        "scenes/cube.json",
        "--out",
        gif.to_str().unwrap(),
        "--duration",
        "0.1",
        "--fps",
        "50",
        "--size",
        "64x48",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
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
            vec!["render", "scenes/cube.json", "--size", "640by480"],
            "640by480",
        ),
        (
            vec!["render", "scenes/cube.json", "--out", "x.png"],
            "x.png",
        ),
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
        "--out",
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
