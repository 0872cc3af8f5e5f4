//! Scene and population files of hundreds of MB are refused before they are read, naming the
//! file, its size and the limit. The files are sparse (a length set, no bytes written), so the
//! tests take no disk space and no time.

use std::path::{Path, PathBuf};

use hooke::{Error, Scene, DEFAULT_MAX_INPUT_BYTES};

/// A sparse file of `bytes` bytes at `dir/name`.
fn sparse(dir: &Path, name: &str, bytes: u64) -> PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .set_len(bytes)
        .unwrap();
    path
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("huge_files")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const HUNDREDS_OF_MB: u64 = 300 << 20;

#[test]
fn a_scene_of_hundreds_of_mb_is_refused_naming_file_size_and_limit() {
    let dir = scratch("scene");
    let path = sparse(&dir, "huge_scene.json", HUNDREDS_OF_MB);
    let e = Scene::load(&path).unwrap_err();
    assert!(
        matches!(e, Error::InputTooLarge { size, limit, .. } if size == HUNDREDS_OF_MB && limit == DEFAULT_MAX_INPUT_BYTES),
        "{e}"
    );
    let message = e.to_string();
    for part in [
        "huge_scene.json",
        "314572800 bytes",
        "67108864",
        "HOOKE_MAX_INPUT_BYTES",
    ] {
        assert!(message.contains(part), "{part:?} not in: {message}");
    }
    // The limit given explicitly: the same file passes a larger one (and then fails as JSON).
    let e = hooke::read_input_with_limit(&path, HUNDREDS_OF_MB - 1).unwrap_err();
    assert!(matches!(e, Error::InputTooLarge { .. }), "{e}");
}

#[cfg(feature = "cli")]
mod cli {
    use super::*;
    use crate::common::command::{command, stderr};

    /// `hooke eval` and `hooke run` refuse the file by name; HOOKE_MAX_INPUT_BYTES lowers the
    /// limit (and so raises it too), and a bad value of it is named.
    #[test]
    fn hooke_refuses_huge_population_and_scene_files() {
        let dir = scratch("cli");
        let population = sparse(&dir, "huge_population.json", HUNDREDS_OF_MB);
        let out_file = dir.join("results.json");
        let out = command(&[
            "eval",
            population.to_str().unwrap(),
            "--backend",
            "cpu",
            "--out",
        ])
        .arg(&out_file)
        .output()
        .unwrap();
        assert!(!out.status.success());
        let message = stderr(&out);
        for part in [
            "huge_population.json",
            "314572800 bytes",
            "HOOKE_MAX_INPUT_BYTES",
        ] {
            assert!(message.contains(part), "{part:?} not in: {message}");
        }
        assert!(
            !out_file.exists(),
            "a results file was written for a refused input"
        );

        let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/cube.json");
        let trace = dir.join("trace.csv");
        let run = |limit: &str| {
            command(&[
                "run",
                scene.to_str().unwrap(),
                "--duration",
                "0.001",
                "--csv",
            ])
            .arg(&trace)
            .env("HOOKE_MAX_INPUT_BYTES", limit)
            .output()
            .unwrap()
        };
        let small = run("100");
        assert!(!small.status.success());
        assert!(
            stderr(&small).contains("above the limit of 100 bytes"),
            "{}",
            stderr(&small)
        );
        let bad = run("lots");
        assert!(!bad.status.success());
        assert!(
            stderr(&bad).contains("HOOKE_MAX_INPUT_BYTES"),
            "{}",
            stderr(&bad)
        );
        let large = run("1000000");
        assert!(large.status.success(), "{}", stderr(&large));
    }
}
