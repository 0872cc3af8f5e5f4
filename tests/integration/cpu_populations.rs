//! The CPU reference on populations: models from 10 000 springs up run on a shared
//! worker pool, in chunks cut where no mass has springs on both sides, so the results do not
//! depend on the thread count, a robot gets the same bits alone and in any batch, and many
//! worlds stepping at once share the pool without deadlock.

use hooke::creatures::Inchworm;
use hooke::population::{Evaluation, Population, RobotResult};
use hooke::{Actuator, CpuWorld, DVec3, Energy, Model};

/// 250 inchworms (23 500 springs in 6 chunks and 5 000 masses in 5 blocks: above the 10 000
/// springs and 4 096 masses where the pool takes over every pass), their muscles working.
fn herd() -> Model {
    Inchworm::default().build().unwrap().herd(250, 0.6).unwrap()
}

/// Positions, velocities and energy after `steps` steps on `threads` threads.
fn run(model: &Model, threads: usize, steps: u64) -> (Vec<DVec3>, Vec<DVec3>, Energy) {
    let mut w = CpuWorld::new(model).unwrap();
    w.set_threads(threads);
    w.step(steps).unwrap();
    (
        w.position_slice().to_vec(),
        w.velocity_slice().to_vec(),
        w.energy().unwrap(),
    )
}

#[test]
fn population_steps_bit_identical_on_one_two_and_three_threads() {
    let model = herd();
    assert!(
        model.springs.len() > 10_000,
        "{} springs",
        model.springs.len()
    );
    assert!(model.masses.len() > 4_096, "{} masses", model.masses.len());
    let one = run(&model, 1, 300);
    // Something happened: the muscles moved the herd and did work.
    assert!(one.2.injected.abs() > 0.0 && one.1.iter().any(|v| v.length() > 1e-3));
    for threads in [2, 3] {
        let other = run(&model, threads, 300);
        assert!(one.0 == other.0, "positions differ on {threads} threads");
        assert!(one.1 == other.1, "velocities differ on {threads} threads");
        // Energy totals too: the mass pass books its fixed blocks in block order.
        assert_eq!(one.2, other.2, "energy differs on {threads} threads");
    }
}

fn bits(r: &RobotResult) -> Option<u64> {
    r.fitness.map(f64::to_bits)
}

#[test]
fn robot_alone_gives_its_bits_in_a_batch_of_many_chunks() {
    // 30 benchmark robots, about 19 000 springs: several chunks, stepped on the pool. Each robot
    // alone (one chunk, the caller's thread) scores the same bits, including robots whose
    // neighbours sit in another chunk.
    let population = Population::benchmark(30).unwrap();
    let springs: usize = population.robots.iter().map(|r| r.part.springs.len()).sum();
    assert!(springs > 2 * 4096, "{springs} springs");
    let eval = Evaluation {
        duration: 0.05,
        control_steps: 100,
        ..Evaluation::default()
    };
    let together = population.evaluate(&eval).run().unwrap();
    for i in [0, 5, 6, 7, 13, 14, 21, 29] {
        let mut one = Population::new();
        let r = &population.robots[i];
        one.push(r.name.clone(), r.part.clone());
        let alone = one.evaluate(&eval).run().unwrap().remove(0);
        assert!(alone.failure.is_none(), "{alone:?}");
        assert_eq!(bits(&alone), bits(&together[i]), "robot {i}");
    }
}

#[test]
fn many_worlds_stepping_at_once_share_the_pool_without_deadlock() {
    // Six worlds on six threads, each stepping on the shared pool of two threads (as `hooke eval
    // --threads 2` runs several worlds): all finish, with the bits of a world stepped alone.
    let model = herd();
    let alone = run(&model, 2, 40);
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..6).map(|_| s.spawn(|| run(&model, 2, 40))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in results {
        assert!(r.0 == alone.0 && r.2 == alone.2);
    }
}

#[test]
fn a_herd_walked_side_by_side_keeps_each_creatures_bits() {
    // 250 inchworms, each muscle with its own amplitude (so rest lengths differ from lane to
    // lane) and creature 7 with one stiffer spring (a shape of its own, walked alone): stepped
    // with the lanes kernel for bodies alike and with the scalar walk, the same bits; and
    // creature 0 gets the bits it has in a world of its own.
    let amplitudes = |model: &mut Model| {
        for (i, a) in model.actuators.iter_mut().enumerate() {
            a.amplitude *= 1.0 + 0.01 * (i % 13) as f64;
        }
    };
    let mut model = herd();
    amplitudes(&mut model);
    let per = model.springs.len() / 250;
    model.springs[7 * per].stiffness *= 1.5;
    let run = |model: &Model, alike: bool| {
        let mut w = CpuWorld::new(model).unwrap();
        w.set_alike(alike);
        let walked = w.alike_springs();
        w.step(300).unwrap();
        let state = (w.position_slice().to_vec(), w.velocity_slice().to_vec());
        (state, walked)
    };
    let (lanes, walked) = run(&model, true);
    assert_eq!(
        walked,
        249 * per,
        "every creature but the stiffer one in lanes"
    );
    let (scalar, none) = run(&model, false);
    assert_eq!(none, 0);
    assert!(lanes.1.iter().any(|v| v.length() > 1e-3), "the herd moves");
    assert!(lanes.0 == scalar.0, "positions differ");
    assert!(lanes.1 == scalar.1, "velocities differ");
    let mut alone = Inchworm::default().build().unwrap().herd(1, 0.6).unwrap();
    amplitudes(&mut alone);
    let ((pos, vel), _) = run(&alone, true);
    assert!(pos[..] == lanes.0[..pos.len()] && vel[..] == lanes.1[..vel.len()]);
}

/// Positions, velocities, rest lengths and elastic energy of a world, bit for bit.
fn snapshot(w: &CpuWorld) -> (Vec<DVec3>, Vec<DVec3>, Vec<u64>, u64) {
    let rest = w
        .rest_lengths()
        .unwrap()
        .iter()
        .map(|r| r.to_bits())
        .collect();
    let elastic = w.energy().unwrap().elastic.to_bits();
    (
        w.position_slice().to_vec(),
        w.velocity_slice().to_vec(),
        rest,
        elastic,
    )
}

/// The herd with each of the variations of `muscles_formed_in_the_walk_keep_the_bits`, then 30
/// benchmark robots (voxel bodies of random shapes: the scalar walk).
fn formed_rest_models() -> Vec<Model> {
    let variants: [fn(&mut Model); 3] = [
        |_| {},
        |m| {
            for (i, a) in m.actuators.iter_mut().enumerate() {
                a.amplitude *= 1.0 + 0.01 * (i % 13) as f64;
            }
        },
        |m| {
            let per = m.springs.len() / 250;
            m.actuators
                .push(Actuator::commanded((9 * per + 2) as u32, 0.1));
            m.actuators[40].phase += 0.125;
        },
    ];
    let mut models: Vec<Model> = variants
        .iter()
        .map(|vary| {
            let mut model = herd();
            vary(&mut model);
            model
        })
        .collect();
    let eval = Evaluation::default();
    let robots = Population::benchmark(30).unwrap();
    models.push(robots.model(&eval.params, &eval.obstacles).unwrap());
    models
}

/// `set_rest_length` and `set_actuator` on `w`, then 100 steps.
fn edit_and_step(w: &mut CpuWorld) {
    let s = w.spring_count() / 3 + 5;
    let rest = w.rest_lengths().unwrap()[s];
    w.set_rest_length(s, 0.9 * rest).unwrap();
    let mut a = w.actuators()[11];
    (a.amplitude, a.phase) = (0.2, 0.3);
    w.set_actuator(11, a).unwrap();
    w.step(100).unwrap();
}

#[test]
fn muscles_formed_in_the_walk_keep_the_bits() {
    // The spring walk forms the muscles' rest lengths itself (the lanes walk for bodies alike,
    // the scalar walk for chunks of robots of random shapes), and with energy booking off the
    // muscles' share of the step skips them (their stored rest lengths fall behind until
    // read). Against the walk reading stored rest lengths with booking on: the same positions,
    // velocities, rest lengths and elastic energy, for a herd whose groups keep few (base,
    // amplitude, wave) combinations, one where every muscle has its own amplitude, one where a
    // creature has a commanded muscle and another a second wave, and 30 benchmark robots;
    // through `set_rest_length` and `set_actuator` between steps; and booking turned back on
    // books the same muscle work from then on.
    for (v, model) in formed_rest_models().iter().enumerate() {
        let mut formed = CpuWorld::new(model).unwrap();
        formed.set_track_energy(false);
        let mut stored = CpuWorld::new(model).unwrap();
        stored.set_formed_rest(false);
        for w in [&mut formed, &mut stored] {
            w.step(150).unwrap();
        }
        assert!(
            snapshot(&formed) == snapshot(&stored),
            "model {v}: 150 steps"
        );
        for w in [&mut formed, &mut stored] {
            edit_and_step(w);
        }
        assert!(
            snapshot(&formed) == snapshot(&stored),
            "model {v}: after edits"
        );
        formed.set_track_energy(true);
        let mut booked = CpuWorld::new(model).unwrap();
        booked.set_formed_rest(false);
        booked.set_track_energy(false);
        booked.step(150).unwrap();
        edit_and_step(&mut booked);
        booked.set_track_energy(true);
        for w in [&mut formed, &mut booked] {
            w.step(50).unwrap();
        }
        let injected = |w: &CpuWorld| w.energy().unwrap().injected;
        assert!(injected(&formed) != 0.0, "model {v}: the muscles work");
        assert_eq!(
            injected(&formed).to_bits(),
            injected(&booked).to_bits(),
            "model {v}"
        );
        assert!(
            formed.position_slice() == booked.position_slice(),
            "model {v}"
        );
    }
}

#[test]
fn robots_of_different_shapes_on_a_template_keep_their_bits() {
    // 40 benchmark robots (voxel bodies of random shapes, each a part of one 4 x 4 x 3-cell
    // block): nearly all walked eight at a time on common templates, one robot per SIMD lane.
    // Against the scalar walk, the same positions and velocities after 300 steps, with energy
    // booking on and off, on one thread and on two.
    let eval = Evaluation::default();
    let model = Population::benchmark(40)
        .unwrap()
        .model(&eval.params, &eval.obstacles)
        .unwrap();
    for (book, threads) in [(true, 1), (false, 2)] {
        let run = |alike: bool| {
            let mut w = CpuWorld::new(&model).unwrap();
            w.set_alike(alike);
            w.set_threads(threads);
            w.set_track_energy(book);
            let walked = w.alike_springs();
            w.step(300).unwrap();
            let state = (w.position_slice().to_vec(), w.velocity_slice().to_vec());
            (state, walked)
        };
        let (lanes, walked) = run(true);
        let (scalar, none) = run(false);
        assert!(
            walked * 10 > model.springs.len() * 9 && none == 0,
            "{walked} of {} springs in lanes",
            model.springs.len()
        );
        assert!(lanes.1.iter().any(|v| v.length() > 1e-2), "the robots move");
        assert!(lanes.0 == scalar.0, "positions differ (booking {book})");
        assert!(lanes.1 == scalar.1, "velocities differ (booking {book})");
    }
}
