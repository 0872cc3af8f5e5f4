//! `hooke run --hashes` and `hooke verify` as a user runs them, and the golden hashes of every
//! shipped scene, checked on every SIMD level this CPU has and on one thread.
//!
//! The golden hashes (`scenes/hashes/<scene>.hashes`) are the CPU reference's state hashes of
//! each scene file every 200 steps for 2 000 steps. A change that moves any bit of any scene
//! fails here with the first differing step and body; when the change is meant, write them again
//! with `BLESS=1 cargo test --features cli --test integration hashes_cli::golden_hashes_match_on_the_detected` and say why in
//! the commit.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Output;

use hooke::cpu::SimdLevel;

use crate::common::command::{command, scratch, stderr};

/// Steps of each scene the golden hashes cover, and the steps between their records.
const GOLDEN_STEPS: u64 = 2000;
const GOLDEN_EVERY: u64 = 200;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `hooke` from the crate's root with `env` set.
fn hooke_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = command(args);
    c.current_dir(root());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the hooke binary runs")
}

fn hooke(args: &[&str]) -> Output {
    hooke_env(args, &[])
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `hooke verify scene file` and checks that it exits with `code` having printed each of
/// `expected` (verdicts on standard output, errors on standard error); returns what it printed.
fn verify(scene: &str, file: &Path, code: i32, expected: &[&str]) -> String {
    let out = hooke(&["verify", scene, file.to_str().unwrap()]);
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(code), "{said}");
    for e in expected {
        assert!(said.contains(e), "expected {e:?} in: {said}");
    }
    said
}

/// The shipped scenes (relative paths, sorted).
fn scenes() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("scenes"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && n != "schema.json")
        .map(|n| format!("scenes/{n}"))
        .collect();
    files.sort();
    files
}

/// The golden hash file of `scene`.
fn golden(scene: &str) -> String {
    let stem = Path::new(scene).file_stem().unwrap().to_string_lossy();
    format!("scenes/hashes/{stem}.hashes")
}

/// Writes the golden hashes of `scene` (`BLESS=1`).
fn bless(scene: &str) {
    let dt = hooke::Scene::load(root().join(scene))
        .unwrap()
        .to_model()
        .unwrap()
        .params
        .dt;
    let duration = (GOLDEN_STEPS as f64 * dt).to_string();
    let every = GOLDEN_EVERY.to_string();
    let out = hooke(&[
        "run",
        scene,
        "--backend",
        "cpu",
        "--duration",
        &duration,
        "--hashes",
        &golden(scene),
        "--hash-every",
        &every,
        "--no-mass-hashes",
    ]);
    assert!(out.status.success(), "{scene}: {}", stderr(&out));
}

/// `hooke verify` of every scene's golden hashes with `extra` arguments and `env`: every
/// failure listed with what verify printed (the first differing step and body).
fn verify_all(extra: &[&str], env: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for scene in scenes() {
        let file = golden(&scene);
        let mut args = vec!["verify", scene.as_str(), file.as_str()];
        args.extend_from_slice(extra);
        let out = hooke_env(&args, env);
        if let Some((_, level)) = env.iter().find(|(k, _)| *k == "HOOKE_SIMD") {
            // The child ran the level asked for, not the detected one.
            let said = stderr(&out);
            assert!(said.contains(&format!("SIMD {level} ")), "{scene}: {said}");
        }
        if !out.status.success() {
            failures.push(format!("{scene}: {}{}", stdout(&out), stderr(&out)));
        }
    }
    assert!(
        failures.is_empty(),
        "golden hashes differ ({env:?} {extra:?}):\n{}\nIf the change of bits is meant, write \
         them again: BLESS=1 cargo test --features cli --test integration hashes_cli::golden_hashes_match_on_the_detected",
        failures.join("\n")
    );
}

/// Also where `BLESS=1` writes them (this test alone: `BLESS` in the others would race it).
#[test]
fn golden_hashes_match_on_the_detected_simd_level() {
    if std::env::var_os("BLESS").is_some() {
        std::fs::create_dir_all(root().join("scenes/hashes")).unwrap();
        scenes().iter().for_each(|s| bless(s));
    }
    verify_all(&[], &[]);
}

/// Every SIMD level below the detected one (the detected one is the test above): the same
/// bits, so a result from a machine without AVX-512 replays on one with it and back.
#[test]
fn golden_hashes_match_on_every_lower_simd_level() {
    let levels = SimdLevel::available();
    assert_eq!(levels[0], SimdLevel::Scalar);
    for level in &levels[..levels.len() - 1] {
        verify_all(&[], &[("HOOKE_SIMD", level.name())]);
    }
}

#[test]
fn golden_hashes_match_on_one_thread() {
    verify_all(&["--threads", "1"], &[]);
}

#[test]
fn every_scene_has_golden_hashes_and_every_hash_file_a_scene() {
    let mut have: Vec<String> = std::fs::read_dir(root().join("scenes/hashes"))
        .unwrap()
        .map(|e| format!("scenes/hashes/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    have.sort();
    let mut want: Vec<String> = scenes().iter().map(|s| golden(s)).collect();
    want.sort();
    assert_eq!(
        have, want,
        "write the missing ones with BLESS=1 cargo test --features cli --test integration \
         hashes_cli::golden_hashes_match_on_the_detected; delete those of scenes that are gone"
    );
}

/// Writes `scene`'s hashes (every 100 steps for 500, with mass hashes) into `dir`.
fn write_hashes(dir: &Path, scene: &str, extra: &[&str]) -> PathBuf {
    let file = dir.join("run.hashes");
    let mut args = vec![
        "run",
        scene,
        "--duration",
        "0.05",
        "--hashes",
        file.to_str().unwrap(),
        "--hash-every",
        "100",
    ];
    args.extend_from_slice(extra);
    let out = hooke(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).is_empty(),
        "no trace without --csv: {}",
        stdout(&out)
    );
    file
}

#[test]
fn hooke_run_hashes_are_the_worlds_own_and_verify_accepts_them() {
    let dir = scratch("hashes_cli", "run_then_verify");
    let file = write_hashes(&dir, "scenes/mixed.json", &["--backend", "cpu"]);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The header, then records at steps 0, 100, ..., 500.
    assert_eq!(lines.len(), 7, "{text}");
    let model = hooke::Scene::load(root().join("scenes/mixed.json"))
        .unwrap()
        .to_model()
        .unwrap();
    let mut world = hooke::CpuWorld::new(&model).unwrap();
    use hooke::Simulation;
    for (k, line) in lines[1..].iter().enumerate() {
        if k > 0 {
            world.step(100).unwrap();
        }
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let h = world.state_hashes().unwrap();
        assert_eq!(record["step"], 100 * k as u64);
        assert_eq!(record["world"], h.world.to_string());
        let bodies: Vec<String> = h.bodies.iter().map(ToString::to_string).collect();
        assert_eq!(record["bodies"], serde_json::json!(bodies));
        let masses: String = world
            .mass_hashes()
            .unwrap()
            .iter()
            .map(|m| format!("{m:08x}"))
            .collect();
        assert_eq!(record["masses"], masses);
    }
    verify(
        "scenes/mixed.json",
        &file,
        0,
        &["same: all 6 records match"],
    );
}

/// A real change of physics (gravity 1 % stronger): the first record after the start differs,
/// in the only body, from its first mass on.
#[test]
fn hooke_verify_names_the_first_differing_step_body_and_mass() {
    let dir = scratch("hashes_cli", "differ");
    let file = write_hashes(&dir, "scenes/cube.json", &["--backend", "cpu"]);
    let mut scene: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("scenes/cube.json")).unwrap())
            .unwrap();
    scene["params"]["gravity"] = serde_json::json!([0.0, 0.0, -9.81 * 1.01]);
    let changed = dir.join("heavier.json");
    std::fs::write(&changed, scene.to_string()).unwrap();
    verify(
        changed.to_str().unwrap(),
        &file,
        1,
        &[
            "differ: step 100 (",
            "step 0 matched",
            "body 0 \"cube\" differs; its first differing mass is mass 0",
        ],
    );
}

/// The file altered by hand: at step 300, body 1's hash and the hash of its third mass. Verify
/// must name that record, that body and that mass.
#[test]
fn hooke_verify_locates_the_mass_from_the_files_mass_hashes() {
    let dir = scratch("hashes_cli", "altered");
    let file = write_hashes(&dir, "scenes/mixed.json", &["--backend", "cpu"]);
    let model = hooke::Scene::load(root().join("scenes/mixed.json"))
        .unwrap()
        .to_model()
        .unwrap();
    let body = &model.bodies[1];
    let mass = body.masses.start + 2;
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut record: serde_json::Value = serde_json::from_str(&lines[4]).unwrap();
    assert_eq!(record["step"], 300);
    record["bodies"][1] = serde_json::json!("0".repeat(32));
    let masses = record["masses"].as_str().unwrap().to_owned();
    let altered = format!("{}ffffffff{}", &masses[..8 * mass], &masses[8 * mass + 8..]);
    assert_ne!(altered, masses);
    record["masses"] = serde_json::json!(altered);
    lines[4] = record.to_string();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let named = format!(
        "body 1 {:?} differs; its first differing mass is mass {mass} (the body's mass 2)",
        body.name
    );
    verify(
        "scenes/mixed.json",
        &file,
        1,
        &["differ: step 300 (", &named],
    );
}

#[test]
fn hooke_verify_refuses_a_missing_or_malformed_file_naming_the_line() {
    let dir = scratch("hashes_cli", "malformed");
    let missing = dir.join("none.hashes");
    verify(
        "scenes/cube.json",
        &missing,
        2,
        &["cannot read", "none.hashes"],
    );

    let file = write_hashes(&dir, "scenes/cube.json", &["--backend", "cpu"]);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cases = [
        (
            "not json",
            format!("{}\n{}\n{{\"step\": 1", lines[0], lines[1]),
            "line 3",
        ),
        (
            "not a header",
            lines[1..].join("\n"),
            "line 1: not a hooke state hash header",
        ),
        ("empty", String::new(), "empty; expected a header line"),
    ];
    for (_, content, expected) in &cases {
        std::fs::write(&file, content).unwrap();
        verify("scenes/cube.json", &file, 2, &[expected]);
    }
    // A hash that is not 32 hexadecimal digits, on line 2.
    let bad = format!(
        "{}\n{}",
        lines[0],
        lines[1].replacen("\"world\":\"", "\"world\":\"x", 1)
    );
    std::fs::write(&file, bad).unwrap();
    verify(
        "scenes/cube.json",
        &file,
        2,
        &["line 2: world:", "32 hexadecimal digits"],
    );
    // The hashes of another scene.
    std::fs::write(&file, text).unwrap();
    verify(
        "scenes/walker.json",
        &file,
        2,
        &["was written for a scene of 8 masses"],
    );
}

#[test]
fn hooke_refuses_a_simd_level_the_cpu_lacks_or_that_does_not_exist() {
    let out = hooke_env(
        &["run", "scenes/cube.json", "--duration", "0.001"],
        &[("HOOKE_SIMD", "sse9")],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("HOOKE_SIMD=sse9") && stderr(&out).contains("scalar, avx2 or avx512"),
        "{}",
        stderr(&out)
    );
    if let Some(missing) = SimdLevel::ALL.iter().find(|l| !l.is_available()) {
        let out = hooke_env(
            &["run", "scenes/cube.json", "--duration", "0.001"],
            &[("HOOKE_SIMD", missing.name())],
        );
        assert!(!out.status.success());
        assert!(
            stderr(&out).contains("not available on this CPU"),
            "{}",
            stderr(&out)
        );
    }
    let out = hooke(&["run", "scenes/cube.json", "--hash-every", "10"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--hashes"), "{}", stderr(&out));
}

/// The GPU World's hashes (f32, then f64) replay on the same adapter. On an adapter without
/// `SHADER_F64` (OpenGL) `--f64` is refused naming the feature, and only f32 replays.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn hooke_verify_replays_gpu_hashes_in_f32_and_f64() {
    let adapter = pollster::block_on(hooke::gpu::find_adapter()).unwrap();
    let f64_ok = adapter.features().contains(wgpu::Features::SHADER_F64);
    if !f64_ok {
        let out = hooke(&["run", "scenes/walker.json", "--backend", "gpu", "--f64"]);
        assert!(!out.status.success(), "f64 ran without SHADER_F64");
        assert!(stderr(&out).contains("SHADER_F64"), "{}", stderr(&out));
    }
    let precisions: &[&[&str]] = if f64_ok { &[&[], &["--f64"]] } else { &[&[]] };
    for &precision in precisions {
        let dir = scratch(
            "hashes_cli",
            if precision.is_empty() {
                "gpu_f32"
            } else {
                "gpu_f64"
            },
        );
        let mut extra = vec!["--backend", "gpu"];
        extra.extend_from_slice(precision);
        let file = write_hashes(&dir, "scenes/walker.json", &extra);
        let header: serde_json::Value = serde_json::from_str(
            std::fs::read_to_string(&file)
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(header["backend"], "gpu");
        assert_eq!(
            header["precision"],
            if precision.is_empty() { "f32" } else { "f64" }
        );
        verify(
            "scenes/walker.json",
            &file,
            0,
            &["same: all 6 records match"],
        );
    }
}

/// A scene that takes every SIMD walk of the CPU reference: a lattice large enough for the
/// stencil kernel, eight walking robots alike (the lanes walk, their muscles' rest lengths
/// formed in the walk), eight voxel robots of different shapes (the template walk), and blocks
/// of eight masses in the mass pass (no obstacles, no collisions).
fn every_walk_scene(dir: &Path) -> PathBuf {
    let mut bodies = vec![serde_json::json!({
        "name": "lattice",
        "body": { "type": "lattice", "n": 16, "spacing": 0.01, "z0": 0.05, "mass": 0.01,
                  "stiffness": 10000.0, "damping": 1.0 }
    })];
    for i in 0..8 {
        bodies.push(serde_json::json!({
            "name": format!("walker {i}"),
            "body": { "type": "walking_robot" },
            "placement": { "position": [1.0 + 0.5 * f64::from(i), 0.0, 0.0] }
        }));
    }
    for i in 0..8u32 {
        // A row of three cells and, for each bit of i, a cell beside it: eight shapes.
        let mut cells = vec![[0, 0, 0], [1, 0, 0], [2, 0, 0]];
        cells.extend((0..3).filter(|k| i >> k & 1 == 1).map(|k| [k, 1, 0]));
        let voxels: Vec<_> = cells
            .iter()
            .map(|c| serde_json::json!({ "cell": c }))
            .collect();
        bodies.push(serde_json::json!({
            "name": format!("voxels {i}"),
            "body": { "type": "voxels", "voxels": voxels },
            "placement": { "position": [0.5 * f64::from(i), 2.0, 0.0] }
        }));
    }
    let scene = serde_json::json!({ "version": 1, "bodies": bodies });
    let path = dir.join("every_walk.json");
    std::fs::write(&path, scene.to_string()).unwrap();
    path
}

/// Every SIMD walk (stencil, lanes of bodies alike, templates, muscles formed in the walk,
/// blocks of masses) gives the detected level's bits on every lower level.
#[test]
fn every_simd_walk_gives_the_same_bits_on_every_level() {
    let dir = scratch("hashes_cli", "every_walk");
    let scene = every_walk_scene(&dir);
    let world =
        hooke::CpuWorld::new(&hooke::Scene::load(&scene).unwrap().to_model().unwrap()).unwrap();
    // The scene must keep taking the walks this test is about.
    assert!(world.stencil_springs() > 0, "no stencil body");
    assert!(world.alike_springs() > 0, "no bodies alike or on templates");
    let scene = scene.to_str().unwrap();
    let file = dir.join("every_walk.hashes");
    let out = hooke(&[
        "run",
        scene,
        "--backend",
        "cpu",
        "--duration",
        "0.03",
        "--hashes",
        file.to_str().unwrap(),
        "--hash-every",
        "50",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let levels = SimdLevel::available();
    for level in &levels[..levels.len() - 1] {
        let out = hooke_env(
            &["verify", scene, file.to_str().unwrap()],
            &[("HOOKE_SIMD", level.name())],
        );
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert!(out.status.success(), "{level}: {said}");
        assert!(said.contains(&format!("SIMD {level} ")), "{said}");
    }
}
