//! The genetic algorithm of `hooke::population::Evolution`: the
//! same seed gives the same history and champion on each backend, elitism keeps the best, the
//! champion scores the same alone, empty genomes and failures get no fitness, and bad settings
//! are errors naming the field.

use crate::common;

use hooke::population::{
    Evaluation, Evolution, EvolutionState, Evolved, GenerationStats, Population, RobotResult,
    VoxelGenome,
};
use hooke::{Error, OpenBackend};

/// The CPU reference on all cores.
const CPU: OpenBackend = OpenBackend::Cpu { threads: None };

/// A small, quick run: 8 robots of up to 3 x 2 x 2 voxels, 4 generations of 0.1 s (500 steps at
/// the default dt = 2e-4 s).
fn small() -> Evolution {
    let base = Evolution::default();
    Evolution {
        population: 8,
        generations: 4,
        size: [3, 2, 2],
        seed: 11,
        mutation_rate: 0.1,
        evaluation: Evaluation {
            duration: 0.1,
            control_steps: 250,
            ..base.evaluation.clone()
        },
        ..base
    }
}

/// Everything of a history but the wall times.
/// A generation's best, mean, failed and empty robots and best genome.
type Outcome = (Option<f64>, Option<f64>, usize, usize, Option<VoxelGenome>);

fn outcome(e: &Evolved) -> Vec<Outcome> {
    e.history
        .iter()
        .map(|s| (s.best, s.mean, s.failures, s.empty, s.best_genome.clone()))
        .collect()
}

fn check_same_seed_same_champion(run: &dyn Fn(&Evolution) -> Evolved) {
    let evolution = small();
    let (a, b) = (run(&evolution), run(&evolution));
    assert_eq!(outcome(&a), outcome(&b));
    assert_eq!(a.champion, b.champion);
    assert!(a.champion.is_some(), "no robot of the small run was scored");
    let other = run(&Evolution {
        seed: 12,
        ..evolution
    });
    assert_ne!(
        outcome(&a)[0].4,
        outcome(&other)[0].4,
        "another seed drew the same best robot of generation 0"
    );
}

#[test]
fn same_seed_gives_the_same_champion_on_the_cpu() {
    check_same_seed_same_champion(&|e| e.run_on(&CPU, |_| {}).unwrap());
}

/// A run stopped after any generation, its state written to JSON and read back, and resumed,
/// ends with the history (wall times aside) and champion of a run that was never stopped.
#[test]
fn a_run_resumed_from_a_json_checkpoint_ends_as_an_undisturbed_run() {
    let evolution = small();
    let straight = evolution.run_on(&CPU, |_| {}).unwrap();
    let mut evaluate = |p: &Population, e: &Evaluation| p.evaluate(e).run();
    for stop_after in 0..evolution.generations {
        let mut state = evolution.start().unwrap();
        for _ in 0..stop_after {
            evolution
                .next_generation(&mut state, &mut evaluate)
                .unwrap();
        }
        let json = serde_json::to_string(&state).unwrap();
        let back: EvolutionState = serde_json::from_str(&json).unwrap();
        assert_eq!(back, state, "the state does not survive JSON");
        let mut seen = Vec::new();
        let resumed = evolution
            .resume(back, &mut evaluate, |s| seen.push(s.generation))
            .unwrap();
        assert_eq!(
            outcome(&resumed),
            outcome(&straight),
            "stopped after {stop_after}"
        );
        assert_eq!(
            resumed.champion, straight.champion,
            "stopped after {stop_after}"
        );
        assert_eq!(
            seen,
            ((stop_after + 1)..=evolution.generations).collect::<Vec<_>>()
        );
    }
}

/// A finished run continued with more generations gives the run that had them from the start:
/// the state after the last generation already holds the next one, bred.
#[test]
fn a_finished_run_extended_equals_the_longer_run() {
    let longer = small();
    let shorter = Evolution {
        generations: 2,
        ..longer.clone()
    };
    let mut evaluate = |p: &Population, e: &Evaluation| p.evaluate(e).run();
    let mut state = shorter.start().unwrap();
    while !state.finished(&shorter) {
        shorter.next_generation(&mut state, &mut evaluate).unwrap();
    }
    assert!(shorter.next_generation(&mut state, &mut evaluate).is_err());
    let extended = longer.resume(state, &mut evaluate, |_| {}).unwrap();
    let straight = longer.run_on(&CPU, |_| {}).unwrap();
    assert_eq!(outcome(&extended), outcome(&straight));
    assert_eq!(extended.champion, straight.champion);
}

/// A state the settings cannot have made is refused, naming what does not fit.
#[test]
fn a_state_of_other_settings_is_refused() {
    let evolution = small();
    let state = evolution.start().unwrap();
    let bigger = Evolution {
        population: 9,
        ..evolution.clone()
    };
    let e = bigger.resume(state.clone(), |p, e| p.evaluate(e).run(), |_| {});
    let e = e.unwrap_err().to_string();
    assert!(
        e.contains("8 genomes") && e.contains("population of 9"),
        "{e}"
    );
    let mut ahead = state;
    ahead.generation = 1;
    let e = evolution
        .resume(ahead, |p, e| p.evaluate(e).run(), |_| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("history has 0 generations"), "{e}");
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn same_seed_gives_the_same_champion_on_the_gpu() {
    let gpu = common::gpu_backend();
    check_same_seed_same_champion(&|e| e.run_on(gpu, |_| {}).unwrap());
}

#[test]
fn elites_keep_the_best_fitness_from_dropping_and_the_champion_scores_the_same_alone() {
    let evolution = small();
    let mut seen = Vec::new();
    let evolved = evolution
        .run_on(&CPU, |s: &GenerationStats| seen.push(s.generation))
        .unwrap();
    assert_eq!(seen, vec![0, 1, 2, 3]);
    // A robot's fitness depends only on the robot and the evaluation (Population's isolation),
    // so a copied elite scores exactly what it scored before: the best cannot drop.
    let best: Vec<f64> = evolved.history.iter().map(|s| s.best.unwrap()).collect();
    for w in best.windows(2) {
        assert!(w[1] >= w[0], "best fitness dropped: {best:?}");
    }
    let champion = evolved.champion.unwrap();
    assert_eq!(champion.fitness, *best.last().unwrap());
    assert_eq!(
        evolved.history[champion.generation].best_genome.as_ref(),
        Some(&champion.genome)
    );
    // Bit for bit: the same robot, evaluation and backend.
    let alone = Population::from_genomes(std::slice::from_ref(&champion.genome), &evolution.genome)
        .unwrap();
    let again = alone.evaluate(&evolution.evaluation).run().unwrap();
    assert_eq!(again[0].fitness, Some(champion.fitness));
}

#[test]
fn empty_genomes_get_no_fitness_and_are_not_evaluated() {
    // Without mutation, children of empty genomes are empty too.
    let evolution = Evolution {
        fill: 0.0,
        mutation_rate: 0.0,
        generations: 2,
        ..small()
    };
    let evolved = evolution
        .run(
            |p: &Population, _: &Evaluation| -> hooke::Result<Vec<RobotResult>> {
                panic!("the evaluator was called with {} robots", p.robots.len())
            },
            |_| {},
        )
        .unwrap();
    assert_eq!(evolved.champion, None);
    for s in &evolved.history {
        assert_eq!((s.best, s.mean, s.failures, s.empty), (None, None, 0, 8));
    }
}

#[test]
fn failed_robots_get_no_fitness_and_are_counted() {
    // An evaluator that fails every robot but the first (as `Population::evaluate` reports
    // failures: fitness `None`).
    let evolved = small()
        .run(
            |p, e| {
                let mut results = p.evaluate(e).run()?;
                for r in results.iter_mut().skip(1) {
                    r.fitness = None;
                }
                Ok(results)
            },
            |_| {},
        )
        .unwrap();
    for s in &evolved.history {
        assert_eq!(s.failures + s.empty, 7, "generation {}", s.generation);
        assert_eq!(s.best, s.mean, "one scored robot: best = mean");
    }
}

#[test]
fn evaluator_returning_the_wrong_result_count_is_an_error() {
    let err = small().run(|_, _| Ok(Vec::new()), |_| {}).unwrap_err();
    assert!(matches!(err, Error::LengthMismatch { got: 0, .. }), "{err}");
}

#[test]
fn bad_evolution_settings_are_errors_naming_the_field() {
    let cases = [
        (
            Evolution {
                population: 1,
                ..small()
            },
            "evolution.population",
        ),
        (
            Evolution {
                generations: 0,
                ..small()
            },
            "evolution.generations",
        ),
        (
            Evolution {
                tournament: 0,
                ..small()
            },
            "evolution.tournament",
        ),
        (
            Evolution {
                elites: 8,
                ..small()
            },
            "evolution.elites",
        ),
        (
            Evolution {
                fill: -0.1,
                ..small()
            },
            "evolution.fill",
        ),
        (
            Evolution {
                mutation_rate: f64::NAN,
                ..small()
            },
            "evolution.mutation_rate",
        ),
        (
            Evolution {
                crossover_rate: 1.5,
                ..small()
            },
            "evolution.crossover_rate",
        ),
    ];
    for (evolution, field) in cases {
        let err = evolution.run_on(&CPU, |_| {}).unwrap_err();
        assert!(
            matches!(err, Error::InvalidParameter { name, .. } if name == field),
            "{field}: {err}"
        );
    }
    let err = Evolution {
        size: [0, 2, 2],
        ..small()
    }
    .run_on(&CPU, |_| {})
    .unwrap_err();
    assert!(err.to_string().contains("[0, 2, 2]"), "{err}");
}
