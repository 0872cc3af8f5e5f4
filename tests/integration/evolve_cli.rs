//! `hooke evolve` as a user runs it: the files it writes, a checkpoint after every generation,
//! and `--resume` giving the champion and history of a run that was never stopped, after a
//! clean stop and after SIGKILL.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Instant;

use serde_json::{json, Value};

use crate::common::command::{bounded, command, hooke, ok, read, stderr, write};

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
    let mut state = read(&out.join("checkpoint.json"))["checkpoint"]["state"].clone();
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
    let state = read(&out.join("checkpoint.json"))["checkpoint"]["state"].clone();
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

/// The run's final files as a user compares them: champion.json's bytes, and history.csv's
/// bytes but for its last column, the wall time of each generation (a measurement: it differs
/// between any two runs, killed or not). `outcome` adds the checkpoint's state.
fn final_files(out: &Path) -> (Vec<u8>, Vec<String>) {
    (
        std::fs::read(out.join("champion.json")).unwrap(),
        outcome(out).1,
    )
}

/// `hooke evolve --resume` in `dir`, to its end.
fn resume(settings: &str, dir: &Path) -> Output {
    let mut args = evolve_args(settings, dir.to_str().unwrap());
    args.push("--resume");
    bounded(&args)
}

/// The settings of the SIGKILL runs: about 2 s of a lightly loaded machine per run, over six
/// checkpoints.
fn kill_settings(dir: &Path) -> String {
    write(&dir.join("settings.json"), &settings(16, 6, 0.4))
}

/// Killed with SIGKILL at five delays spread over a run (as fractions of an undisturbed run's
/// wall time), each run resumed with `--resume` ends with the undisturbed champion and history;
/// a run killed before its first checkpoint is refused `--resume` by name and starts again.
#[test]
fn resume_after_sigkill_at_any_point_gives_the_undisturbed_champion_and_history() {
    let dir = scratch("sigkill");
    let s = kill_settings(&dir);
    let straight = dir.join("straight");
    let started = Instant::now();
    ok(&bounded(&evolve_args(&s, straight.to_str().unwrap())));
    let wall = started.elapsed();
    let expected = (final_files(&straight), outcome(&straight));
    let mut killed_at = Vec::new();
    for (i, fraction) in [0.1, 0.3, 0.5, 0.7, 0.9].into_iter().enumerate() {
        let killed = dir.join(format!("killed_{i}"));
        let mut child = command(&evolve_args(&s, killed.to_str().unwrap()))
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(wall.mul_f64(fraction));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let checkpoint = killed.join("checkpoint.json");
        let generation = std::fs::read_to_string(&checkpoint).ok().map(|t| {
            let v: Value = serde_json::from_str(&t).expect("a whole checkpoint after SIGKILL");
            v["checkpoint"]["state"]["generation"].as_u64().unwrap()
        });
        killed_at.push(generation);
        let run = resume(&s, &killed);
        if generation.is_none() && !killed.join("checkpoint.previous.json").exists() {
            // Killed before generation 0 ended: nothing to resume, said by name.
            assert!(!run.status.success());
            assert!(stderr(&run).contains("checkpoint.json"), "{}", stderr(&run));
            ok(&bounded(&evolve_args(&s, killed.to_str().unwrap())));
        } else {
            ok(&run);
        }
        assert_eq!(
            (final_files(&killed), outcome(&killed)),
            expected,
            "killed at {fraction} of {wall:?} (checkpoint at generation {generation:?})"
        );
    }
    eprintln!("undisturbed run {wall:?}; killed with the checkpoint at generations {killed_at:?}");
}

/// A kill in the middle of writing a checkpoint, mimicked: a partial temporary file beside a
/// whole checkpoint is ignored; a partial checkpoint.json (as a disk that lost its last writes
/// leaves it) is refused by name and the run resumes from the one before it; with both
/// partial, `--resume` is refused naming what is wrong.
#[test]
fn resume_after_a_kill_while_writing_a_checkpoint_gives_the_undisturbed_champion_and_history() {
    let dir = scratch("partial");
    let s = kill_settings(&dir);
    let straight = dir.join("straight");
    ok(&bounded(&evolve_args(&s, straight.to_str().unwrap())));
    let expected = (final_files(&straight), outcome(&straight));
    let mut fewer = read(Path::new(&s));
    fewer["evolution"]["generations"] = json!(3);
    let fewer = write(&dir.join("three.json"), &fewer);
    let stopped_after_three = |name: &str| {
        let out = dir.join(name);
        ok(&bounded(&evolve_args(&fewer, out.to_str().unwrap())));
        let text = std::fs::read(out.join("checkpoint.json")).unwrap();
        assert!(out.join("checkpoint.previous.json").is_file());
        (out, text)
    };

    let (temp, text) = stopped_after_three("temp");
    std::fs::write(
        temp.join(".checkpoint.json.999999.tmp"),
        &text[..text.len() / 2],
    )
    .unwrap();
    ok(&resume(&s, &temp));
    assert_eq!((final_files(&temp), outcome(&temp)), expected);

    let (cut, text) = stopped_after_three("cut");
    std::fs::write(cut.join("checkpoint.json"), &text[..text.len() / 2]).unwrap();
    let run = resume(&s, &cut);
    ok(&run);
    let said = stderr(&run);
    assert!(
        said.contains("truncated") && said.contains("checkpoint.previous.json"),
        "{said}"
    );
    assert_eq!((final_files(&cut), outcome(&cut)), expected);

    let (both, text) = stopped_after_three("both");
    std::fs::write(both.join("checkpoint.json"), &text[..text.len() / 2]).unwrap();
    let previous = both.join("checkpoint.previous.json");
    let old = std::fs::read(&previous).unwrap();
    std::fs::write(&previous, &old[..old.len() / 3]).unwrap();
    let run = resume(&s, &both);
    assert!(!run.status.success());
    let said = stderr(&run);
    assert!(
        said.contains("no checkpoint reads") && said.contains("truncated"),
        "{said}"
    );
}
