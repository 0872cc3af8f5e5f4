//! Populations: voxel genomes and their seeded operators, the part a genome builds,
//! and evaluation of many robots in one world with per-robot fitness and failures, on both
//! backends: a robot's result is bit-identical alone and in a population, and an unstable robot
//! is reported without changing the others' bits.

use crate::common;

use hooke::population::{
    Evaluation, FailureKind, GenomeSettings, Population, RobotResult, VoxelGenome, VoxelMaterial,
};
use hooke::{Builder, Error, VoxelBody};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use VoxelMaterial::{Empty, Muscle, Soft, Stiff};

fn genomes(seed: u64, n: usize) -> Vec<VoxelGenome> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| VoxelGenome::random(&mut rng, [3, 2, 2], 0.7, 4).unwrap())
        .collect()
}

#[test]
fn same_seed_same_genome() {
    assert_eq!(genomes(42, 3), genomes(42, 3));
    assert_ne!(genomes(42, 3), genomes(43, 3));
    // The stream is ChaCha8's, fixed across platforms: pin the first genome of seed 42 so a
    // change of draw order (or of rand's conversions) is caught.
    let first = &genomes(42, 1)[0];
    assert_eq!(first.cells.len(), 12);
    let json = serde_json::to_string(first).unwrap();
    assert_eq!(serde_json::from_str::<VoxelGenome>(&json).unwrap(), *first);
}

#[test]
fn mutation_rate_zero_is_identity() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for g in genomes(7, 5) {
        let mut m = g.clone();
        m.mutate(&mut rng, 0.0, 4).unwrap();
        assert_eq!(m, g);
    }
    // Rate 1 redraws every cell: over 5 genomes of 12 cells some cell must change (each keeps
    // its material with probability 1/7, so all 60 keeping it has probability 7^-60).
    let mut changed = 0;
    for g in genomes(7, 5) {
        let mut m = g.clone();
        m.mutate(&mut rng, 1.0, 4).unwrap();
        changed += m.cells.iter().zip(&g.cells).filter(|(a, b)| a != b).count();
    }
    assert!(changed > 0);
}

#[test]
fn crossover_takes_every_cell_from_one_parent() {
    let a = VoxelGenome::filled([4, 4, 3], Soft);
    let b = VoxelGenome::filled([4, 4, 3], Stiff);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let child = VoxelGenome::crossover(&a, &b, &mut rng).unwrap();
    assert!(child.cells.iter().all(|c| *c == Soft || *c == Stiff));
    // Both parents contribute (each cell is a fair coin: one parent alone has probability
    // 2 * 2^-48).
    assert!(child.cells.contains(&Soft) && child.cells.contains(&Stiff));
    let other = VoxelGenome::filled([4, 4, 2], Soft);
    assert!(matches!(
        VoxelGenome::crossover(&a, &other, &mut rng),
        Err(Error::InvalidBuilder {
            builder: "genome",
            ..
        })
    ));
}

#[test]
fn part_of_a_full_grid_equals_the_voxel_body_lattice() {
    let part = VoxelGenome::filled([4, 4, 3], Soft)
        .part(&GenomeSettings::default())
        .unwrap();
    let lattice = VoxelBody::lattice(4, 4, 3).build().unwrap();
    assert_eq!(part.masses.len(), lattice.masses.len());
    assert_eq!(part.masses.len(), 5 * 5 * 4);
    assert_eq!(part.springs.len(), lattice.springs.len());
    assert!(part.actuators.is_empty());
}

#[test]
fn shared_springs_take_the_stiffer_material_and_muscles_drive_theirs() {
    let s = GenomeSettings::default();
    let mut g = VoxelGenome::filled([2, 1, 1], Soft);
    g.cells[1] = Muscle { phase: 2 };
    let part = g.part(&s).unwrap();
    assert_eq!(part.actuators.len(), 28); // the muscle voxel's springs, shared face included
    assert!((part.actuators[0].phase - 0.5).abs() < 1e-15); // phase 2 of 4 = half a cycle
    g.cells[0] = Stiff;
    let part = g.part(&s).unwrap();
    let stiff = part
        .springs
        .iter()
        .filter(|sp| sp.stiffness == s.stiff_stiffness);
    // The stiff voxel's 28 springs, the 6 of the shared face among them.
    assert_eq!(stiff.count(), 28);
    assert_eq!(part.springs.len(), 2 * 28 - 6);
}

#[test]
fn disconnected_genome_keeps_the_largest_piece() {
    let s = GenomeSettings::default();
    let g = VoxelGenome {
        size: [4, 1, 1],
        cells: vec![Soft, Empty, Soft, Soft],
    };
    let part = g.part(&s).unwrap();
    assert_eq!(part.masses.len(), 3 * 2 * 2); // the two voxels in a row
    assert_eq!(part.min_z(), Some(0.0));
    let min_x = part
        .masses
        .iter()
        .map(|m| m.position.x)
        .fold(f64::MAX, f64::min);
    assert_eq!(min_x, 0.0); // moved to the origin
                            // Voxels that share only an edge are not connected; the tie goes to the lowest cell.
    let mut g = VoxelGenome::filled([2, 1, 2], Empty);
    g.cells[0] = Stiff; // [0, 0, 0]
    g.cells[3] = Soft; // [1, 0, 1]
    let part = g.part(&s).unwrap();
    assert_eq!(part.masses.len(), 8);
    assert!(part
        .springs
        .iter()
        .all(|sp| sp.stiffness == s.stiff_stiffness));
}

#[test]
fn empty_genome_is_an_error() {
    let err = VoxelGenome::filled([2, 2, 2], Empty)
        .part(&GenomeSettings::default())
        .unwrap_err();
    assert!(err.to_string().contains("no filled cell"), "{err}");
}

#[test]
fn invalid_settings_error_names_the_field() {
    let g = VoxelGenome::filled([1, 1, 1], Soft);
    let bad = GenomeSettings {
        soft_stiffness: -1.0,
        ..GenomeSettings::default()
    };
    let err = g.part(&bad).unwrap_err();
    assert!(matches!(
        err,
        Error::InvalidParameter {
            name: "genome.soft_stiffness",
            ..
        }
    ));
    assert!(err.to_string().contains("genome.soft_stiffness"), "{err}");
    let bad = GenomeSettings {
        phases: 2,
        ..GenomeSettings::default()
    };
    let err = VoxelGenome::filled([1, 1, 1], Muscle { phase: 3 })
        .part(&bad)
        .unwrap_err();
    assert!(err.to_string().contains("phase 3"), "{err}");
    let json = r#"{"voxel_size": 0.1, "stifness": 3}"#;
    let err = serde_json::from_str::<GenomeSettings>(json).unwrap_err();
    assert!(err.to_string().contains("stifness"), "{err}");
}

/// Three random robots (seed 5) and a short evaluation: 0.2 s in periods of 500 steps.
fn scene() -> (Population, Evaluation) {
    let population = Population::from_genomes(&genomes(5, 3), &GenomeSettings::default()).unwrap();
    let eval = Evaluation {
        duration: 0.2,
        control_steps: 500,
        ..Evaluation::default()
    };
    (population, eval)
}

/// A robot whose springs are far too stiff for `dt = 1e-4` s (`2 sqrt(m / k)` = 2e-5 s).
fn unstable() -> hooke::Part {
    let settings = GenomeSettings {
        soft_stiffness: 1e8,
        ..GenomeSettings::default()
    };
    VoxelGenome::filled([1, 1, 1], Soft)
        .part(&settings)
        .unwrap()
}

fn bits(r: &RobotResult) -> Option<u64> {
    r.fitness.map(f64::to_bits)
}

/// The robots of `population` one by one, each alone in its own world.
fn alone(
    population: &Population,
    eval: &Evaluation,
    evaluate: &dyn Fn(&Population, &Evaluation) -> Vec<RobotResult>,
) -> Vec<RobotResult> {
    population
        .robots
        .iter()
        .map(|r| {
            let mut one = Population::new();
            one.push(r.name.clone(), r.part.clone());
            evaluate(&one, eval).remove(0)
        })
        .collect()
}

/// Checks on one backend: every result alone equals its result in the population, bit for bit;
/// with an unstable robot inserted, it fails (one of `kinds`) and the others keep their bits.
fn check_isolation(
    evaluate: &dyn Fn(&Population, &Evaluation) -> Vec<RobotResult>,
    kinds: &[FailureKind],
) {
    let (population, eval) = scene();
    let together = evaluate(&population, &eval);
    assert!(together.iter().all(|r| r.failure.is_none()), "{together:?}");
    for (a, t) in alone(&population, &eval, evaluate).iter().zip(&together) {
        assert_eq!(a.name, t.name);
        assert_eq!(bits(a), bits(t), "{} alone {a:?}, together {t:?}", a.name);
    }
    let mut with_bad = population.clone();
    with_bad.robots.insert(
        1,
        hooke::population::Robot {
            name: "unstable".into(),
            part: unstable(),
        },
    );
    let results = evaluate(&with_bad, &eval);
    let bad = &results[1];
    let failure = bad.failure.as_ref().expect("the unstable robot fails");
    assert!(kinds.contains(&failure.kind), "{failure}");
    assert!(bad.fitness.is_none() && failure.mass.unwrap() < 8);
    let others: Vec<_> = results.iter().filter(|r| r.name != "unstable").collect();
    for (o, t) in others.iter().zip(&together) {
        assert_eq!(bits(o), bits(t), "{} beside the unstable robot", o.name);
    }
    // Alone, the unstable robot fails the same way at the same step.
    let mut one = Population::new();
    one.push("unstable", unstable());
    assert_eq!(evaluate(&one, &eval)[0].failure.as_ref(), Some(failure));
}

#[test]
fn cpu_robot_results_do_not_depend_on_the_other_robots() {
    check_isolation(
        &|p, e| p.evaluate(e).run().unwrap(),
        &[FailureKind::BlowUp, FailureKind::NonFinite],
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_robot_results_do_not_depend_on_the_other_robots() {
    let gpu = common::gpu_backend();
    // With 32-bit force sums (a device without 64-bit atomics, such as OpenGL) the unstable
    // robot's spring forces pass the fixed-point bound before its speed passes the blow-up
    // bound: that is its failure there.
    let wide = wgpu::Features::SHADER_INT64 | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS;
    let mut kinds = vec![FailureKind::BlowUp, FailureKind::NonFinite];
    if !common::gpu().0.features().contains(wide) {
        kinds.push(FailureKind::FixedPointOverflow);
    }
    check_isolation(&|p, e| p.evaluate(e).on(gpu).run().unwrap(), &kinds);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_evaluation_reruns_bit_for_bit_and_stays_near_the_cpu() {
    let gpu = common::gpu_backend();
    let (population, eval) = scene();
    let first = population.evaluate(&eval).on(gpu).run().unwrap();
    let second = population.evaluate(&eval).on(gpu).run().unwrap();
    assert_eq!(first, second);
    let cpu = population.evaluate(&eval).run().unwrap();
    for (g, c) in first.iter().zip(&cpu) {
        // f32 positions of ~0.2 m round by 1.5e-8 m per step and velocities by ~6e-8 m/s:
        // over 2000 steps the drift stays below 2000 * (1.5e-8 + 6e-8 * 1e-4 * 2000 / 2) ~
        // 1.5e-4 m, within 1e-3 m even for contact-sensitive walkers.
        let gap = (g.fitness.unwrap() - c.fitness.unwrap()).abs();
        assert!(gap < 1e-3, "{}: gpu {g:?} cpu {c:?}", g.name);
    }
}

#[test]
fn bad_evaluation_input_is_an_error_naming_it() {
    let (population, mut eval) = scene();
    eval.control_steps = 0;
    let err = population.evaluate(&eval).run().unwrap_err();
    assert!(err.to_string().contains("control_steps"), "{err}");
    let (mut population, eval) = scene();
    population.robots[2].name = population.robots[0].name.clone();
    let err = population.evaluate(&eval).run().unwrap_err();
    assert!(err.to_string().contains("names must be unique"), "{err}");
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_fixed_point_overflow_is_reported_per_robot() {
    // A per-spring bound of about 0.01 N: with 64-bit atomics it is about 2^22 F / 26, with
    // 32-bit atomics about 4 F (gpu::fixed's rule). Springs at rest carry only f32 rounding
    // (5000 N/m * 1.5e-8 m = 7.5e-5 N), so a frozen robot stays under it, while the 0.1 kg
    // corners' weight (0.98 N) passes it within the first steps, in every robot.
    let gpu = common::gpu_backend();
    let (population, mut eval) = scene();
    let probe = population.model(&eval.params, &[]).unwrap();
    let bits = common::world(&probe).fixed_point().bits;
    eval.fixed_point_force = if bits == 64 {
        0.01 * 26.0 / 2f64.powi(22)
    } else {
        0.01 / 4.0
    };
    let results = population.evaluate(&eval).on(gpu).run().unwrap();
    for r in &results {
        let f = r
            .failure
            .as_ref()
            .unwrap_or_else(|| panic!("{} did not fail", r.name));
        assert_eq!(f.kind, FailureKind::FixedPointOverflow, "{f}");
        assert!(r.fitness.is_none());
        let masses = population.robots.iter().find(|x| x.name == r.name).unwrap();
        assert!(f.mass.unwrap() < masses.part.masses.len(), "{f}");
        assert!(f.to_string().contains("fixed-point"), "{f}");
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_robot_with_more_springs_per_mass_than_pinned_is_an_error() {
    // A 2 x 2 x 2 block has a centre corner with 26 springs; pin 20.
    let gpu = common::gpu_backend();
    let part = VoxelGenome::filled([2, 2, 2], Soft)
        .part(&GenomeSettings::default())
        .unwrap();
    let mut population = Population::new();
    population.push("block", part);
    let eval = Evaluation {
        duration: 0.01,
        max_incidence: 20,
        ..Evaluation::default()
    };
    let err = population.evaluate(&eval).on(gpu).run().unwrap_err();
    assert!(err.to_string().contains("max_incidence"), "{err}");
}

#[test]
fn custom_fitness_sees_start_and_end() {
    let (population, mut eval) = scene();
    let distance = population.evaluate(&eval).run().unwrap();
    eval.fitness = hooke::population::Fitness::Custom(std::sync::Arc::new(|s, e| {
        e.centre_of_mass.x - s.centre_of_mass.x
    }));
    let custom = population.evaluate(&eval).run().unwrap();
    for (d, c) in distance.iter().zip(&custom) {
        // Distance along +x is exactly the x difference (the unit direction's dot product).
        assert_eq!(bits(d), bits(c));
        assert_eq!(c.end.unwrap().x - c.start.x, c.fitness.unwrap());
    }
}
