//! `hooke eval --checkpoint` as a preemptible cluster node runs it: killed with SIGKILL at
//! several points of its run, then run again with `--resume`, it writes the results of a run
//! that was never stopped, on the CPU reference and on the GPU backend.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use serde_json::{json, Value};

use crate::common::command::{bounded, command, ok, read, stderr, write};
use crate::eval_cli::comparable;

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    crate::common::command::scratch("eval_checkpoint_cli", test)
}

/// Six voxel robots that finish, one that blows up at once (springs of 1e8 N/m on 0.1 kg
/// corners: `2 sqrt(m / k)` = 6e-5 s < dt = 1e-4 s) and one that blows up when it lands, about
/// 1 s in (1e-5 kg corners dropped from 5 m: stable in the air, not on the ground's 1e5 N/m
/// contact); 2 s in 20 control periods of 1000 steps. Of the three runs (the second after "at
/// once" failed, the third after "lands late" failed), the last two are about 10 and 20
/// periods long, so kills land in both.
fn population(dir: &Path) -> String {
    let m = |phase: u32| json!({ "muscle": { "phase": phase } });
    let (s, t) = (json!("soft"), json!("stiff"));
    let genome = |cells: Vec<Value>| json!({ "size": [2, 2, 1], "cells": cells });
    let mut robots: Vec<Value> = (0..6)
        .map(|i| {
            let cells = vec![m(i % 4), m((i + 1) % 4), s.clone(), t.clone()];
            json!({ "id": format!("walker {i}"), "genome": genome(cells) })
        })
        .collect();
    robots.insert(
        2,
        json!({ "id": "at once", "scene": { "bodies": [ { "body": {
        "type": "cube", "stiffness": 1e8, "corner_mass": 0.1 } } ] } }),
    );
    robots.push(
        json!({ "id": "lands late", "scene": { "bodies": [ { "body": {
        "type": "cube", "stiffness": 100.0, "damping": 0.0, "corner_mass": 1e-5 },
        "placement": { "position": [0.0, 0.0, 5.0] } } ] } }),
    );
    let file = json!({
        "version": 1,
        "evaluation": { "duration": 2.0 },
        "robots": robots,
    });
    write(&dir.join("population.json"), &file)
}

/// `hooke eval POPULATION --out DIR/results.json --checkpoint DIR/eval.ckpt` checkpointing
/// after every control period, on `backend` with one CPU thread.
fn eval_args<'a>(pop: &'a str, dir: &'a Path, backend: &'a str) -> Vec<String> {
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    [
        "eval",
        pop,
        "--out",
        &path("results.json"),
        "--backend",
        backend,
        "--threads",
        "1",
        "--checkpoint",
        &path("eval.ckpt"),
        "--checkpoint-every",
        "1",
    ]
    .map(str::to_owned)
    .to_vec()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// Kills `hooke eval` with SIGKILL at each of `fractions` of an undisturbed run's wall time,
/// resumes it, and checks the results equal the undisturbed run's (ids, fitness bits, failure
/// reasons with their step, time and mass). A run killed before its first checkpoint is refused
/// `--resume` by name and run again from the start.
fn killed_and_resumed_equal_undisturbed(test: &str, backend: &str, fractions: &[f64]) {
    let dir = scratch(test);
    let pop = population(&dir);
    let straight = dir.join("straight");
    let started = Instant::now();
    ok(&bounded(&strs(&eval_args(&pop, &straight, backend))));
    let wall = started.elapsed();
    let expected = comparable(&read(&straight.join("results.json")));
    let failed: Vec<&str> = expected
        .iter()
        .filter(|r| !r.3.is_null())
        .map(|r| r.1.as_str())
        .collect();
    assert_eq!(failed, ["at once", "lands late"], "{expected:?}");
    let mut resumed_at = Vec::new();
    for (i, fraction) in fractions.iter().enumerate() {
        let killed = dir.join(format!("killed_{i}"));
        let args = eval_args(&pop, &killed, backend);
        let mut child = command(&strs(&args)).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(wall.mul_f64(*fraction));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let mut resume = args.clone();
        resume.push("--resume".into());
        let run = bounded(&strs(&resume));
        if killed.join("eval.ckpt").exists() {
            ok(&run);
            let said = stderr(&run);
            resumed_at.push(
                said.lines()
                    .find(|l| l.starts_with("resuming"))
                    .map(str::to_owned),
            );
        } else {
            assert!(!run.status.success());
            assert!(stderr(&run).contains("eval.ckpt"), "{}", stderr(&run));
            ok(&bounded(&strs(&args)));
            resumed_at.push(None);
        }
        assert_eq!(
            comparable(&read(&killed.join("results.json"))),
            expected,
            "killed at {fraction} of {wall:?}"
        );
    }
    eprintln!("undisturbed run {wall:?}; {resumed_at:?}");
    assert!(
        resumed_at.iter().any(Option::is_some),
        "no kill left a checkpoint"
    );
}

#[test]
fn cpu_eval_resumed_after_sigkill_writes_the_undisturbed_results() {
    killed_and_resumed_equal_undisturbed("cpu", "cpu", &[0.15, 0.3, 0.6, 0.9]);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_eval_resumed_after_sigkill_writes_the_undisturbed_results() {
    killed_and_resumed_equal_undisturbed("gpu", "gpu", &[0.25, 0.7]);
}

/// A checkpoint cut short (a disk that lost its last writes) is refused by name and the run
/// resumes from the one before it; a checkpoint of another share is refused by name.
#[test]
fn eval_resume_falls_back_from_a_cut_checkpoint_and_refuses_another_share() {
    let dir = scratch("cut");
    let pop = population(&dir);
    let args = eval_args(&pop, &dir, "cpu");
    ok(&bounded(&strs(&args)));
    let expected = comparable(&read(&dir.join("results.json")));
    let ckpt = dir.join("eval.ckpt");
    let text = std::fs::read(&ckpt).unwrap();
    std::fs::write(&ckpt, &text[..text.len() / 2]).unwrap();
    let mut resume = args.clone();
    resume.push("--resume".into());
    let run = bounded(&strs(&resume));
    ok(&run);
    let said = stderr(&run);
    assert!(
        said.contains("truncated") && said.contains("before it"),
        "{said}"
    );
    assert_eq!(comparable(&read(&dir.join("results.json"))), expected);
    let mut share = resume.clone();
    share.extend(["--range".to_owned(), "0..5".to_owned()]);
    let before = std::fs::read(&ckpt).unwrap();
    let run = bounded(&strs(&share));
    assert!(!run.status.success());
    let said = stderr(&run);
    assert!(
        said.contains("eval.ckpt") && said.contains("robots"),
        "{said}"
    );
    assert_eq!(std::fs::read(&ckpt).unwrap(), before);
}
