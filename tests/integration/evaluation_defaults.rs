//! A population evaluation that sets nothing but its duration runs on the ground walking robots
//! need ([`Params::robots`]): it once ran on [`Params::default`]'s frictionless ground, where
//! no robot can push itself along and every distance fitness was zero.

use std::path::Path;

use hooke::population::{Evaluation, Population, PopulationFile};
use hooke::{Friction, Params};

/// The forward distance, m, of the walking robot evaluated by a population file whose
/// `"evaluation"` is `evaluation` (JSON), on the CPU reference.
fn walker_distance(evaluation: &str) -> f64 {
    let text = format!(
        r#"{{ "version": 1, "evaluation": {evaluation},
             "robots": [ {{ "id": "walker", "scene": {{ "bodies": [ {{ "body": {{ "type": "walking_robot" }} }} ] }} }} ] }}"#
    );
    let (file, _) = PopulationFile::from_json_checked(text.as_bytes(), Path::new("walker.json"))
        .expect("a valid population file");
    let mut population = Population::new();
    let part = file.robots[0]
        .part(&file.evaluation.genome, Path::new("."))
        .unwrap();
    population.push("walker", part);
    let results = population
        .evaluate(&file.evaluation.evaluation().unwrap())
        .run()
        .unwrap();
    results[0].fitness.expect("the walker does not fail")
}

#[test]
fn a_default_evaluation_of_a_walker_moves_it() {
    // The defaults are the robots preset, in the library and in files alike.
    assert_eq!(Evaluation::default().params, Params::robots());
    let walked = walker_distance(r#"{ "duration": 2 }"#);
    // On a frictionless ground no horizontal force acts on the robot, so its centre of mass
    // stays put up to rounding (about 1e-16 m, below); a walk of 2 s moves it by centimetres.
    // 1 mm separates the two by seven orders of magnitude.
    assert!(walked.abs() > 1e-3, "the walker moved {walked} m in 2 s");
}

#[test]
fn a_frictionless_ground_given_explicitly_scores_zero() {
    let friction = serde_json::to_string(&Friction::NONE).unwrap();
    let slid = walker_distance(&format!(
        r#"{{ "duration": 2, "params": {{ "friction": {friction} }} }}"#
    ));
    // Only rounding moves the centre of mass: a few ulps of the robot's coordinates (< 1 m).
    assert!(
        slid.abs() < 1e-9,
        "the walker moved {slid} m on a frictionless ground"
    );
}
