//! Population files, valid and broken, through `PopulationFile::from_json_checked` (as
//! `hooke eval` and `hooke.evaluate` read them), each robot built, and short evaluations on
//! the CPU reference: no panic, no hang, no non-finite fitness, and errors that name the robot
//! and field.

use std::path::Path;

use hooke::population::{Population, PopulationFile};
use hooke::OpenBackend;
use proptest::prelude::*;
use serde_json::{json, Value};

use super::mutate::{self, Step};
use super::verdict::check_named;

/// Longest evaluation a case runs, in steps: a case stays well under a second.
const MAX_STEPS: f64 = 400.0;

/// A small population: genomes of several shapes and muscle phases and two scene robots.
pub(super) fn population() -> Value {
    let m = |phase: u32| json!({ "muscle": { "phase": phase } });
    let genome = |size: [u32; 3], cells: Vec<Value>| json!({ "size": size, "cells": cells });
    json!({
        "version": 1,
        "evaluation": {
            "duration": 0.05,
            "params": { "dt": 0.0005,
                        "friction": { "static_coefficient": 1.0, "kinetic_coefficient": 0.8 } },
            "fitness": { "distance": { "direction": [1.0, 0.0, 0.0] } },
            "genome": { "phases": 4 }
        },
        "robots": [
            { "id": "walker", "genome": genome([2, 1, 2], vec![m(0), m(2), json!("soft"), json!("stiff")]) },
            { "id": "tower", "genome": genome([1, 1, 3], vec![json!("stiff"), m(1), m(3)]) },
            { "id": "bar", "genome": genome([3, 1, 1], vec![m(0), json!("empty"), m(0)]) },
            { "id": "cube", "scene": { "bodies": [ { "body": { "type": "cube" },
                "placement": { "position": [0.0, 0.0, 0.05] } } ] } },
            { "id": "rope", "scene": { "bodies": [ { "body": { "type": "rope", "segments": 4 },
                "placement": { "position": [0.0, 0.0, 0.3] } } ] } }
        ]
    })
}

/// The population text through the reader, the robots' builds and a short evaluation.
pub(super) fn population_text_holds(text: &str, path: &[Step]) -> Result<(), String> {
    let file_path = Path::new("population.json");
    let (file, _backend) = match PopulationFile::from_json_checked(text.as_bytes(), file_path) {
        Ok(read) => read,
        Err(e) => return check_named(&e, path, "population file"),
    };
    let evaluation = match file.evaluation.evaluation() {
        Ok(evaluation) => evaluation,
        Err(e) => return check_named(&e, path, "evaluation"),
    };
    let mut robots = Population::new();
    for (i, robot) in file.robots.iter().enumerate() {
        match robot.part(&file.evaluation.genome, Path::new(".")) {
            Ok(part) => {
                robots.push(robot.id.clone(), part);
            }
            // A genome that builds no robot (no cell filled, say) is that robot's failure in
            // `hooke eval`, not bad input; a scene robot that cannot be built is bad input, and
            // its error must name what was broken.
            Err(_) if robot.genome.is_some() => {}
            Err(e) => check_named(&e, path, &format!("robots[{i}]"))?,
        }
    }
    let steps = evaluation.duration / evaluation.params.dt;
    if robots.robots.is_empty() || steps > MAX_STEPS {
        return Ok(());
    }
    let backend = OpenBackend::Cpu { threads: Some(1) };
    let results = match robots.evaluate(&evaluation).on(&backend).run() {
        Ok(results) => results,
        Err(e) => return check_named(&e, path, "evaluation run"),
    };
    for r in &results {
        if let Some(f) = r.fitness {
            if !f.is_finite() {
                return Err(format!("robot {} has fitness {f} and no failure", r.name));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(super::config(48))]

    /// The population with one edit anywhere in it.
    #[test]
    fn broken_population_files_are_refused_by_name(edit in mutate::edit()) {
        let (text, path) = mutate::apply(&population(), &edit);
        if let Err(e) = population_text_holds(&text, &path) {
            return Err(TestCaseError::fail(format!("{edit:?}: {e}")));
        }
    }

    /// Random genomes of random shapes: read, built, evaluated, every fitness finite or a
    /// reported failure.
    #[test]
    fn random_genomes_evaluate(robots in prop::collection::vec(genome(), 1..6)) {
        let mut doc = population();
        doc["robots"] = Value::Array(
            robots.into_iter().enumerate().map(|(i, g)| json!({ "id": format!("r{i}"), "genome": g })).collect(),
        );
        population_text_holds(&doc.to_string(), &[]).map_err(TestCaseError::fail)?;
    }
}

/// A genome within the settings of `population()` (at most 3 x 3 x 3, 4 phases).
fn genome() -> impl Strategy<Value = Value> {
    let cell = prop_oneof![
        Just(json!("empty")),
        Just(json!("soft")),
        Just(json!("stiff")),
        (0..4u32).prop_map(|p| json!({ "muscle": { "phase": p } })),
    ];
    prop::array::uniform3(1..4u32).prop_flat_map(move |size| {
        let n = (size[0] * size[1] * size[2]) as usize;
        prop::collection::vec(cell.clone(), n)
            .prop_map(move |cells| json!({ "size": size, "cells": cells }))
    })
}

/// The population unchanged holds: the seed of the broken ones is good.
#[test]
fn the_population_holds_unchanged() {
    population_text_holds(&population().to_string(), &[]).unwrap();
}
