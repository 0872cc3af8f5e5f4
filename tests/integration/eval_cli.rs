//! `hooke eval` and `hooke merge` as a cluster runs them: several evaluators at once on shares of
//! one population, merged, against one evaluator on the whole batch; bad input; robots that fail.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::command::{hooke, ok, read, stderr, write};

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    crate::common::command::scratch("eval_cli", test)
}

/// A voxel genome of `size` cells, `cells` in x-fastest order.
fn genome(size: [u32; 3], cells: &[Value]) -> Value {
    json!({ "size": size, "cells": cells })
}

/// A small population: genomes of different shapes and muscle phases, a scene robot, and one
/// robot that blows up (a cube of 1e9 N/m springs and 10 g corners: its highest frequency is
/// about sqrt(4 k / m) = 6e5 rad/s, far beyond the 2/dt = 2e3 rad/s that semi-implicit Euler
/// at dt = 1 ms keeps stable, so it leaves every bound within a few steps).
fn population(duration: f64) -> Value {
    let m = |phase: u32| json!({ "muscle": { "phase": phase } });
    let (s, t, e) = (json!("soft"), json!("stiff"), json!("empty"));
    json!({
        "version": 1,
        "evaluation": {
            "duration": duration,
            "params": { "dt": 0.001,
                        "friction": { "static_coefficient": 1.0, "kinetic_coefficient": 0.8 } },
            "fitness": { "distance": { "direction": [1.0, 0.0, 0.0] } }
        },
        "robots": [
            { "id": "walker", "genome": genome([2, 1, 2], &[m(0), m(2), s.clone(), t.clone()]) },
            { "id": "block", "genome": genome([2, 2, 1], &[s.clone(), t.clone(), m(1), m(3)]) },
            { "id": "cube", "scene": { "bodies": [ { "body": { "type": "cube" },
                "placement": { "position": [0.0, 0.0, 0.05] } } ] } },
            { "id": "unstable", "scene": { "bodies": [ { "body": { "type": "cube",
                "stiffness": 1e9, "corner_mass": 0.01 } } ] } },
            { "id": "tower", "genome": genome([1, 1, 3], &[t.clone(), m(1), m(2)]) },
            { "id": "bar", "genome": genome([3, 1, 1], &[m(0), e, m(0)]) },
            { "id": "slab", "genome": genome([2, 1, 1], &[t, s]) },
        ]
    })
}

/// The results without the wall times: what must be bit-identical between runs. Fitness values
/// are compared as bit patterns (serde_json writes the shortest string that reads back as the
/// same f64, and reads it back exactly).
fn comparable(results: &Value) -> Vec<(u64, String, Option<u64>, Value)> {
    results["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["index"].as_u64().unwrap(),
                r["id"].as_str().unwrap().to_owned(),
                r["fitness"].as_f64().map(f64::to_bits),
                r["failure"].clone(),
            )
        })
        .collect()
}

/// Runs one `hooke eval` on the whole of `pop` and `shares` of them in parallel, merges the
/// shares, and checks the merged file equals the whole run (order, ids, fitness bits, failure
/// reasons). Returns the whole run's results.
fn shares_equal_whole(dir: &Path, pop: &str, backend: &str, shares: usize) -> Value {
    let whole = dir.join("whole.json");
    ok(&hooke(&[
        "eval",
        pop,
        "--backend",
        backend,
        "--out",
        whole.to_str().unwrap(),
    ]));
    let outs: Vec<String> = (0..shares)
        .map(|k| {
            dir.join(format!("share_{k}.json"))
                .to_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    // Every share's evaluator at once, as a job array on one machine would run them.
    let children: Vec<_> = outs
        .iter()
        .enumerate()
        .map(|(k, out)| {
            Command::new(env!("CARGO_BIN_EXE_hooke"))
                .args(["eval", pop, "--backend", backend, "--threads", "1"])
                .args(["--split", &format!("{k}/{shares}"), "--out", out])
                .env("RUST_LOG", "warn")
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        ok(&child.wait_with_output().unwrap());
    }
    let merged = dir.join("merged.json");
    let mut args = vec!["merge"];
    args.extend(outs.iter().rev().map(String::as_str)); // any order
    args.extend(["--out", merged.to_str().unwrap()]);
    ok(&hooke(&args));
    let (whole, merged) = (read(&whole), read(&merged));
    let (w, m) = (comparable(&whole), comparable(&merged));
    assert_eq!(m.len(), w.len());
    let differ: Vec<_> = w.iter().zip(&m).filter(|(a, b)| a != b).take(3).collect();
    assert!(
        differ.is_empty(),
        "whole vs merged shares differ: {differ:?}"
    );
    for key in [
        "backend",
        "adapter",
        "input",
        "hooke",
        "robots_in_input",
        "share",
    ] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    whole
}

#[test]
fn split_evaluators_in_parallel_equal_one_evaluator_on_cpu() {
    let dir = scratch("split_cpu");
    let pop = write(&dir.join("population.json"), &population(1.0));
    let whole = shares_equal_whole(&dir, &pop, "cpu", 3);
    assert_eq!(whole["backend"], "cpu");
    assert_eq!(whole["adapter"], Value::Null);
    let entries = comparable(&whole);
    let ids: Vec<&str> = entries.iter().map(|e| e.1.as_str()).collect();
    assert_eq!(
        ids,
        ["walker", "block", "cube", "unstable", "tower", "bar", "slab"]
    );
    // Every robot but the unstable one has a fitness and no failure.
    for (index, id, fitness, failure) in &entries {
        assert_eq!(fitness.is_none(), id == "unstable", "{id}: {fitness:?}");
        assert_eq!(failure.is_null(), id != "unstable", "{id}: {failure}");
        assert!(*index < 7);
    }
}

#[test]
fn a_robot_that_blows_up_is_reported_and_the_exit_status_is_zero() {
    let dir = scratch("blow_up");
    let pop = write(&dir.join("population.json"), &population(0.1));
    let out = dir.join("results.json");
    let run = hooke(&["eval", &pop, "--backend", "cpu", "--range", "2..4"]);
    // --out is required.
    assert!(!run.status.success() && stderr(&run).contains("--out"));
    let run = hooke(&[
        "eval",
        &pop,
        "--backend",
        "cpu",
        "--range",
        "2..4",
        "--out",
        out.to_str().unwrap(),
    ]);
    ok(&run);
    let results = read(&out);
    assert_eq!(results["share"], json!([2, 4]));
    let cube = &results["results"][0];
    let unstable = &results["results"][1];
    assert_eq!(
        (cube["id"].as_str(), cube["index"].as_u64()),
        (Some("cube"), Some(2))
    );
    assert!(
        cube["fitness"].is_f64() && cube["failure"].is_null(),
        "{cube}"
    );
    assert_eq!(unstable["id"], "unstable");
    assert!(unstable["fitness"].is_null(), "{unstable}");
    let reason = unstable["failure"].as_str().unwrap();
    assert!(
        reason.contains("blew up") || reason.contains("non-finite"),
        "the reason says what happened: {reason}"
    );
}

#[test]
fn reruns_overwrite_with_the_same_results() {
    let dir = scratch("rerun");
    let pop = write(&dir.join("population.json"), &population(0.1));
    let out = dir.join("results.json");
    let args = [
        "eval",
        &pop,
        "--backend",
        "cpu",
        "--out",
        out.to_str().unwrap(),
    ];
    ok(&hooke(&args));
    let first = read(&out);
    ok(&hooke(&args));
    let second = read(&out);
    assert_eq!(comparable(&first), comparable(&second));
    let without_wall = |mut v: Value| {
        for r in v["results"].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("wall_time_s");
        }
        v
    };
    assert_eq!(without_wall(first), without_wall(second));
    // Nothing but the results file is left in its folder (the temporary file was renamed).
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["population.json", "results.json"]);
}

/// `hooke eval` on `population` fails, and its message contains every one of `words`.
fn refused(dir: &Path, name: &str, population: &Value, words: &[&str]) {
    let pop = write(&dir.join(format!("{name}.json")), population);
    let out = dir.join(format!("{name}_results.json"));
    let run = hooke(&[
        "eval",
        &pop,
        "--backend",
        "cpu",
        "--out",
        out.to_str().unwrap(),
    ]);
    let message = stderr(&run);
    assert!(!run.status.success(), "{name} was accepted");
    for w in words {
        assert!(message.contains(w), "{name}: {w:?} not in {message}");
    }
    assert!(
        !out.exists(),
        "{name}: no results are written for bad input"
    );
}

#[test]
fn bad_input_exits_non_zero_naming_the_robot_and_field() {
    let dir = scratch("bad_input");
    let good = population(0.1);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut p = good.clone();
        f(&mut p);
        p
    };
    refused(
        &dir,
        "unknown_robot_field",
        &with(&|p| p["robots"][1]["genom"] = json!(1)),
        &["robots[1]", "\"block\"", "genom"],
    );
    refused(
        &dir,
        "unknown_evaluation_field",
        &with(&|p| p["evaluation"]["durration"] = json!(1)),
        &["evaluation", "durration"],
    );
    refused(
        &dir,
        "missing_genome",
        &with(&|p| {
            p["robots"][4].as_object_mut().unwrap().remove("genome");
        }),
        &["robots[4]", "\"tower\"", "genome", "scene"],
    );
    refused(
        &dir,
        "empty_batch",
        &with(&|p| p["robots"] = json!([])),
        &["empty"],
    );
    refused(
        &dir,
        "duplicate_id",
        &with(&|p| p["robots"][5]["id"] = json!("walker")),
        &["robots[5]", "\"walker\"", "robots[0]", "unique"],
    );
    refused(
        &dir,
        "missing_scene_file",
        &with(&|p| p["robots"][2]["scene"] = json!("no_such_scene.json")),
        &["robots[2]", "\"cube\"", "no_such_scene.json"],
    );
    // Files from before format 1: no version, or the old terrain list.
    refused(
        &dir,
        "no_version",
        &with(&|p| {
            p.as_object_mut().unwrap().remove("version");
        }),
        &["no_version.json", "no \"version\"", "add \"version\": 1"],
    );
    refused(
        &dir,
        "terrain_list",
        &with(&|p| {
            p["evaluation"]["terrain"] =
                json!([{ "type": "slope", "angle": 0.1, "point": [0.0, 0.0, 0.0] }]);
        }),
        &["evaluation", "terrain"],
    );
    refused(
        &dir,
        "negative_duration",
        &with(&|p| p["evaluation"]["duration"] = json!(-1.0)),
        &["evaluation.duration", "-1"],
    );
    // A share past the end and a malformed split are refused by the command line.
    let pop = write(&dir.join("good.json"), &good);
    let out = dir.join("r.json");
    for (flag, value) in [("--range", "0..99"), ("--split", "3/3"), ("--split", "x")] {
        let run = hooke(&["eval", &pop, flag, value, "--out", out.to_str().unwrap()]);
        assert!(!run.status.success(), "{flag} {value} accepted");
        assert!(stderr(&run).contains(value), "{}", stderr(&run));
    }
}

#[test]
fn merge_refuses_shares_that_do_not_fit_together() {
    let dir = scratch("merge");
    let pop = write(&dir.join("population.json"), &population(0.05));
    let share = |k: usize, n: usize| {
        let out = dir.join(format!("share_{k}_{n}.json"));
        ok(&hooke(&[
            "eval",
            &pop,
            "--backend",
            "cpu",
            "--split",
            &format!("{k}/{n}"),
            "--out",
            out.to_str().unwrap(),
        ]));
        out.to_str().unwrap().to_owned()
    };
    let (a, b) = (share(0, 2), share(1, 2));
    let merged = dir.join("merged.json");
    let merged = merged.to_str().unwrap();
    // A missing share, then the same share twice.
    let run = hooke(&["merge", &a, "--out", merged]);
    assert!(
        !run.status.success() && stderr(&run).contains("--partial"),
        "{}",
        stderr(&run)
    );
    let run = hooke(&["merge", &a, &a, &b, "--out", merged]);
    assert!(
        !run.status.success() && stderr(&run).contains("both"),
        "{}",
        stderr(&run)
    );
    ok(&hooke(&["merge", &a, "--partial", "--out", merged]));
    ok(&hooke(&["merge", &b, &a, "--out", merged]));
}

#[test]
fn split_evaluators_in_parallel_equal_one_evaluator_on_gpu() {
    // lavapipe is slow: four robots, 0.1 s of simulated time, two shares.
    let dir = scratch("split_gpu");
    let mut pop = population(0.1);
    let robots = pop["robots"].as_array_mut().unwrap();
    robots.truncate(4);
    let pop = write(&dir.join("population.json"), &pop);
    let whole = shares_equal_whole(&dir, &pop, "gpu", 2);
    assert_eq!(whole["backend"], "gpu");
    assert!(whole["adapter"].is_string());
    let failures: Vec<_> = comparable(&whole)
        .into_iter()
        .filter(|e| !e.3.is_null())
        .map(|e| e.1)
        .collect();
    assert_eq!(failures, ["unstable"]);
}

#[test]
fn eval_gives_the_library_fitness_with_the_file_settings() {
    use hooke::population::{Evaluation, Fitness, GenomeSettings, Population, VoxelGenome};
    use hooke::{DVec3, Friction, Obstacle, Params, Slope};

    // Every setting away from its default, so a setting the command dropped would show: a slope
    // ahead, a diagonal direction, other genome materials and muscles, friction and dt.
    let dir = scratch("library");
    let mut pop = population(0.5);
    let settings = json!({ "voxel_size": 0.05, "muscle_frequency": 3.0, "muscle_amplitude": 0.3,
                           "soft_stiffness": 2000.0, "phases": 4 });
    let slope = json!({ "slope": { "degrees": 11.5, "start": [0.05, 0.0, 0.0] } });
    pop["evaluation"]["genome"] = settings.clone();
    pop["evaluation"]["terrain"] = slope;
    pop["evaluation"]["fitness"] = json!({ "distance": { "direction": [1.0, 1.0, 0.0] } });
    let robots: Vec<Value> = pop["robots"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("genome").is_some())
        .cloned()
        .collect();
    pop["robots"] = json!(robots);
    let path = write(&dir.join("population.json"), &pop);
    let out = dir.join("results.json");
    ok(&hooke(&[
        "eval",
        &path,
        "--backend",
        "cpu",
        "--out",
        out.to_str().unwrap(),
    ]));
    let cli = read(&out);

    // The file's dt and friction; what `params` leaves out (the contact) is the robots preset's.
    let params = Params {
        dt: 0.001,
        friction: Friction::coulomb(1.0, 0.8),
        ..Params::robots()
    };
    let settings: GenomeSettings = serde_json::from_value(settings).unwrap();
    let mut population = Population::new();
    for r in &robots {
        let genome: VoxelGenome = serde_json::from_value(r["genome"].clone()).unwrap();
        population.push(r["id"].as_str().unwrap(), genome.part(&settings).unwrap());
    }
    let shape = Slope {
        angle: 11.5_f64.to_radians(),
        point: DVec3::new(0.05, 0.0, 0.0),
    }
    .shape()
    .unwrap();
    let eval = Evaluation {
        duration: 0.5,
        params,
        obstacles: vec![Obstacle::new(shape, params.contact, params.friction)],
        fitness: Fitness::Distance {
            direction: DVec3::new(1.0, 1.0, 0.0),
        },
        ..Evaluation::default()
    };
    let library = population.evaluate(&eval).run().unwrap();
    let cli_fitness: Vec<Option<u64>> = comparable(&cli).into_iter().map(|e| e.2).collect();
    let lib_fitness: Vec<Option<u64>> = library
        .iter()
        .map(|r| r.fitness.map(f64::to_bits))
        .collect();
    assert_eq!(cli_fitness, lib_fitness);
    assert!(lib_fitness.iter().all(Option::is_some), "{library:?}");
    // And the settings mattered: on flat ground along +x the walker scores differently.
    pop["evaluation"].as_object_mut().unwrap().remove("terrain");
    pop["evaluation"]["fitness"] = json!({ "distance": { "direction": [1.0, 0.0, 0.0] } });
    let flat = write(&dir.join("flat.json"), &pop);
    let flat_out = dir.join("flat_results.json");
    ok(&hooke(&[
        "eval",
        &flat,
        "--backend",
        "cpu",
        "--out",
        flat_out.to_str().unwrap(),
    ]));
    assert_ne!(comparable(&read(&flat_out))[0].2, cli_fitness[0]);
}

#[test]
fn shares_of_a_batch_larger_than_one_cpu_chunk_merge_bit_for_bit_from_one_world() {
    // 1000 robots of up to 3x3x3 voxels (a few hundred springs each): more springs than the
    // 131 072 of one chunk of the CPU reference. Regression: when chunks were cut by spring count
    // alone, some robot's springs straddled two chunks in one World and were summed in another
    // order than in a share of the batch. Chunks are cut only between robots.
    let dir = scratch("large_cpu");
    let cells = |i: usize| -> Vec<Value> {
        (0..27)
            .map(|j| match (i * 7 + j * 3 + i / 5) % 6 {
                0 => json!("empty"),
                1 | 4 => json!("soft"),
                2 => json!("stiff"),
                _ => json!({ "muscle": { "phase": (i + j) % 4 } }),
            })
            .collect()
    };
    let robots: Vec<Value> = (0..1000)
        .map(|i| json!({ "id": format!("r{i}"), "genome": genome([3, 3, 3], &cells(i)) }))
        .collect();
    let mut pop = population(0.05);
    pop["robots"] = json!(robots);
    let pop = write(&dir.join("population.json"), &pop);
    let whole = shares_equal_whole(&dir, &pop, "cpu", 3);
    // The whole batch ran in one World (one wall time for all), whose spring list the CPU
    // reference cut into several chunks, so the case is covered.
    let mut walls: Vec<u64> = whole["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wall_time_s"].as_f64().unwrap().to_bits())
        .collect();
    walls.dedup();
    assert_eq!(walls.len(), 1, "the batch ran as several Worlds");
    let moved = comparable(&whole)
        .iter()
        .filter(|e| e.2.is_some_and(|f| f64::from_bits(f).abs() > 1e-9))
        .count();
    assert!(moved > 100, "only {moved} robots moved");
}

/// `--backend auto` runs the CPU reference unless there is a hardware GPU: a software adapter
/// (lavapipe) is slower than the CPU reference on the same cores. The results name the backend
/// and adapter that ran, and give the fitness bits of an explicit `--backend cpu` run when it
/// is the CPU.
#[test]
fn auto_takes_the_cpu_reference_unless_there_is_a_hardware_gpu() {
    let dir = scratch("auto");
    let pop = write(&dir.join("population.json"), &population(0.05));
    let run = |backend: &str| {
        let out = dir.join(format!("{backend}.json"));
        let args = [
            "eval",
            &pop,
            "--backend",
            backend,
            "--range",
            "0..2",
            "--out",
            out.to_str().unwrap(),
        ];
        ok(&hooke(&args));
        read(&out)
    };
    let auto = run("auto");
    match pollster::block_on(hooke::gpu::hardware_adapter()) {
        None => {
            assert_eq!(auto["backend"], "cpu");
            assert_eq!(auto["adapter"], Value::Null);
            assert_eq!(comparable(&auto), comparable(&run("cpu")));
        }
        Some(adapter) => {
            assert_eq!(auto["backend"], "gpu");
            let expected = hooke::gpu::adapter_summary(&adapter.get_info());
            assert_eq!(auto["adapter"], expected.as_str());
        }
    }
}
