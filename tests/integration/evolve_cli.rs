//! `hooke evolve` as a user runs it: the files it writes, a checkpoint after every generation,
//! and `--resume` giving the champion and history of a run that was never stopped, after a
//! clean stop and after SIGKILL.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::command::{command, hooke, ok, read, stderr, write};

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    crate::common::command::scratch("evolve_cli", test)
}

/// Small settings: `population` robots of up to 2 x 2 x 2 voxels, `generations` generations of
/// `duration` s.
fn settings(population: usize, generations: usize, duration: f64) -> Value {
    json!({
        "version": 1,
        "evolution": { "population": population, "generations": generations,
                       "size": [2, 2, 2], "seed": 5, "mutation_rate": 0.1 },
        "evaluation": { "duration": duration, "params": { "dt": 0.0002 } }
    })
}

/// `hooke evolve SETTINGS --out OUT` on the CPU reference, with a small GIF.
fn evolve_args<'a>(settings: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "evolve",
        settings,
        "--out",
        out,
        "--backend",
        "cpu",
        "--threads",
        "1",
        "--gif-size",
        "64x48",
    ]
}

/// The run's outcome as files record it: the checkpoint's state without wall times, and
/// history.csv without its wall-time column.
fn outcome(out: &Path) -> (Value, Vec<String>) {
    let mut state = read(&out.join("checkpoint.json"))["state"].clone();
    for g in state["evolved"]["history"].as_array_mut().unwrap() {
        g.as_object_mut().unwrap().remove("wall_time");
    }
    let history = std::fs::read_to_string(out.join("history.csv")).unwrap();
    let rows = history
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_owned())
        .collect();
    (state, rows)
}

#[test]
fn evolve_writes_the_champion_its_gif_the_plot_and_the_history() {
    let dir = scratch("files");
    let s = write(&dir.join("settings.json"), &settings(6, 3, 0.1));
    let out = dir.join("out");
    ok(&hooke(&evolve_args(&s, out.to_str().unwrap())));
    for name in [
        "checkpoint.json",
        "history.csv",
        "fitness.png",
        "champion.json",
        "champion.gif",
        "champion_energy.png",
    ] {
        assert!(out.join(name).is_file(), "{name} is missing");
    }
    let history = std::fs::read_to_string(out.join("history.csv")).unwrap();
    assert_eq!(history.lines().count(), 1 + 3, "{history}");
    // champion.json is a one-robot population file that `hooke eval` scores again, to the bits
    // of the champion's fitness in its generation.
    let state = read(&out.join("checkpoint.json"))["state"].clone();
    let fitness = state["evolved"]["champion"]["fitness"].as_f64().unwrap();
    let results = dir.join("results.json");
    ok(&hooke(&[
        "eval",
        out.join("champion.json").to_str().unwrap(),
        "--backend",
        "cpu",
        "--out",
        results.to_str().unwrap(),
    ]));
    let again = read(&results)["results"][0]["fitness"].as_f64().unwrap();
    assert_eq!(again.to_bits(), fitness.to_bits(), "{again} vs {fitness}");
}

/// Three generations straight, against two and then `--resume` with three.
#[test]
fn resume_after_a_stop_gives_the_undisturbed_champion_and_history() {
    let dir = scratch("resume");
    let straight = dir.join("straight");
    let three = write(&dir.join("three.json"), &settings(6, 3, 0.1));
    ok(&hooke(&evolve_args(&three, straight.to_str().unwrap())));

    let resumed = dir.join("resumed");
    let two = write(&dir.join("two.json"), &settings(6, 2, 0.1));
    ok(&hooke(&evolve_args(&two, resumed.to_str().unwrap())));
    assert_ne!(outcome(&resumed).1, outcome(&straight).1);
    let mut args = evolve_args(&three, resumed.to_str().unwrap());
    args.push("--resume");
    let run = hooke(&args);
    ok(&run);
    assert!(
        stderr(&run).contains("resuming after generation 1"),
        "{}",
        stderr(&run)
    );
    assert_eq!(outcome(&resumed), outcome(&straight));
    assert_eq!(
        std::fs::read(resumed.join("champion.json")).unwrap(),
        std::fs::read(straight.join("champion.json")).unwrap()
    );

    // Other settings than the checkpoint's are refused, and so is a missing checkpoint.
    let mut other = settings(6, 3, 0.1);
    other["evolution"]["seed"] = json!(6);
    let other = write(&dir.join("other.json"), &other);
    let mut args = evolve_args(&other, resumed.to_str().unwrap());
    args.push("--resume");
    let refused = hooke(&args);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("settings"),
        "{}",
        stderr(&refused)
    );
    let nowhere = dir.join("nowhere");
    let mut args = evolve_args(&three, nowhere.to_str().unwrap());
    args.push("--resume");
    let refused = hooke(&args);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("checkpoint.json"),
        "{}",
        stderr(&refused)
    );
}

/// A run killed with SIGKILL between or during generations leaves a whole checkpoint, and
/// `--resume` ends as the undisturbed run.
#[test]
fn resume_after_sigkill_gives_the_undisturbed_champion_and_history() {
    let dir = scratch("sigkill");
    let s = write(&dir.join("settings.json"), &settings(16, 6, 1.0));
    let straight = dir.join("straight");
    ok(&hooke(&evolve_args(&s, straight.to_str().unwrap())));

    let killed = dir.join("killed");
    let checkpoint = killed.join("checkpoint.json");
    let mut child = command(&evolve_args(&s, killed.to_str().unwrap()))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // Kill it once generation 1 is done (the checkpoint says the next one is 2).
    loop {
        let at = std::fs::read_to_string(&checkpoint)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["state"]["generation"].as_u64());
        if at.is_some_and(|g| g >= 2) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no checkpoint after generation 1"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let at = read(&checkpoint)["state"]["generation"].as_u64().unwrap();
    assert!(at < 6, "the run finished before it was killed");
    let mut args = evolve_args(&s, killed.to_str().unwrap());
    args.push("--resume");
    ok(&hooke(&args));
    assert_eq!(outcome(&killed), outcome(&straight));
}
