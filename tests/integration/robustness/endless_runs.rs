//! Runs too long to finish are refused by name before they start: more than
//! [`hooke::MAX_STEPS`] steps of `dt` from a world's `step_for`, a control loop, an
//! evaluation's `duration` (in a population file and through `hooke eval`) and `hooke run
//! --duration`. Each would otherwise step for days and look like a hang.

use hooke::population::{Evaluation, Population};
use hooke::{Builder, ControlLoop, CpuWorld, Cube, Error, Model, Params, MAX_STEPS};

/// A refusal names `duration` and says what the most is.
fn assert_refused(e: &Error) {
    assert!(
        matches!(
            e,
            Error::InvalidParameter {
                name: "duration",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("2^32"), "{e}");
}

/// The bound is exact: `MAX_STEPS` steps of dt are allowed, one more step is not.
#[test]
fn steps_beyond_max_steps_are_refused_at_the_bound() {
    let dt = 0.5;
    let at_bound = MAX_STEPS as f64 * dt;
    assert_eq!(hooke::steps_for(at_bound, dt).unwrap(), MAX_STEPS);
    assert_refused(&hooke::steps_for(at_bound + dt, dt).unwrap_err());
    assert_refused(&hooke::steps_for(f64::MAX, dt).unwrap_err());
    assert_refused(&hooke::steps_for(1.0, 0.0).unwrap_err()); // 1 / 0 = infinitely many steps
}

/// A world, a control loop and an evaluation given a duration of 1e9 s at dt = 1e-4 s (1e13
/// steps) refuse it at once, and the world has not moved.
#[test]
fn worlds_loops_and_evaluations_refuse_endless_durations() {
    let mut model = Model::new(Params::default());
    model.add("cube", Cube::lipson().build().unwrap());
    let mut world = CpuWorld::new(&model).unwrap();
    assert_refused(&world.step_for(1.0e9).unwrap_err());
    assert_eq!(world.time(), 0.0);
    let mut idle = |_: &hooke::Readings, _: &mut [f64]| {};
    let e = ControlLoop::new(10, hooke::SensorSpec::default())
        .run(&mut world, 1.0e9, &mut idle)
        .unwrap_err();
    assert_refused(&e);

    let evaluation = Evaluation {
        duration: 1.0e9,
        ..Evaluation::default()
    };
    assert_refused(&evaluation.check().unwrap_err());
    let e = Population::benchmark(1)
        .unwrap()
        .evaluate(&evaluation)
        .run()
        .unwrap_err();
    assert_refused(&e);
}

#[cfg(feature = "cli")]
mod cli {
    use serde_json::json;

    use crate::common::command::{hooke, scratch, stderr, write};

    /// `hooke ARGS` fails, naming the duration and the bound.
    fn refused(args: &[&str]) {
        let out = hooke(args);
        assert!(!out.status.success(), "hooke {args:?} succeeded");
        let message = stderr(&out);
        assert!(
            message.contains("duration") && message.contains("2^32"),
            "{message}"
        );
    }

    /// `hooke run --duration` and `hooke eval` of a population whose evaluation lasts 1e9 s
    /// fail at once, naming the duration; no results file is written.
    #[test]
    fn hooke_refuses_endless_runs() {
        let dir = scratch("endless_runs", "cli");
        let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/cube.json");
        let csv = dir.join("trace.csv");
        refused(&[
            "run",
            scene,
            "--duration",
            "1e9",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let mut pop = crate::robustness::population_json::population();
        pop["evaluation"]["duration"] = json!(1.0e9);
        let pop = write(&dir.join("population.json"), &pop);
        let results = dir.join("results.json");
        let out = results.to_str().unwrap();
        refused(&["eval", &pop, "--backend", "cpu", "--out", out]);
        assert!(!results.exists(), "a results file was written");
    }
}
