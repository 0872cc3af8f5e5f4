//! `Simulation::reset_body`: one robot of a population put back to its initial state while the
//! others run on, on both backends. The others' bits are those of a run without the reset; the
//! reset robot runs on exactly as a robot starting fresh; a failure of the reset body is
//! cleared, one of another body is not.

use crate::common;

use hooke::creatures::WalkingRobot;
use hooke::population::Population;
use hooke::prelude::*;
use hooke::Error;

/// Three commanded walkers in one model, laid out as a population lays robots out (together,
/// never touching each other), with the walker's own parameters.
fn herd() -> Model {
    let walker = WalkingRobot::default().commanded().unwrap();
    let mut population = Population::new();
    for i in 0..3 {
        population.push(format!("walker {i}"), walker.creature.part.clone());
    }
    population.model(&walker.creature.params, &[]).unwrap()
}

/// Commands for `period` (one per commanded actuator): each robot its own pattern, so a mixed
/// up robot would show.
fn commands(world: &dyn Simulation, period: u64) -> Vec<f64> {
    let n = world.commanded_count();
    let per_robot = n / 3;
    (0..n)
        .map(|i| {
            let (robot, muscle) = ((i / per_robot) as f64, (i % per_robot) as f64);
            0.05 * (0.7 * period as f64 + 0.3 * muscle + robot).sin()
        })
        .collect()
}

/// Runs `periods` control periods of 200 steps; before period `reset_at` (if any) robot 1 is
/// put back, and from then on it gets the commands of period `p - reset_at` (a fresh start).
/// Returns every mass's position and velocity at the end.
fn run(
    world: &mut dyn Simulation,
    periods: u64,
    reset_at: Option<u64>,
) -> (Vec<DVec3>, Vec<DVec3>) {
    let per_robot = world.commanded_count() / 3;
    for p in 0..periods {
        if reset_at == Some(p) {
            world.reset_body(1).unwrap();
        }
        let mut c = commands(world, p);
        if let Some(r) = reset_at.filter(|&r| p >= r) {
            let fresh = commands(world, p - r);
            c[per_robot..2 * per_robot].copy_from_slice(&fresh[per_robot..2 * per_robot]);
        }
        world.set_commands(&c).unwrap();
        world.step(200).unwrap();
    }
    (world.positions().unwrap(), world.velocities().unwrap())
}

/// The masses of robot `robot`.
fn of(robot: usize, model: &Model, v: &[DVec3]) -> Vec<DVec3> {
    v[model.bodies[robot].masses.clone()].to_vec()
}

fn reset_robot_leaves_the_others_and_starts_afresh(make: &dyn Fn(&Model) -> Box<dyn Simulation>) {
    let model = herd();
    let (plain_x, plain_v) = run(make(&model).as_mut(), 4, None);
    let (reset_x, reset_v) = run(make(&model).as_mut(), 4, Some(2));
    for robot in [0, 2] {
        assert_eq!(
            of(robot, &model, &reset_x),
            of(robot, &model, &plain_x),
            "robot {robot}"
        );
        assert_eq!(
            of(robot, &model, &reset_v),
            of(robot, &model, &plain_v),
            "robot {robot}"
        );
    }
    // Robot 1 ran two periods from its initial state with the commands of periods 0 and 1: the
    // state of the plain run after two periods.
    let (fresh_x, fresh_v) = run(make(&model).as_mut(), 2, None);
    assert_eq!(of(1, &model, &reset_x), of(1, &model, &fresh_x));
    assert_eq!(of(1, &model, &reset_v), of(1, &model, &fresh_v));
    // And it did move: the reset put it back.
    assert_ne!(of(1, &model, &reset_x), of(1, &model, &plain_x));
}

#[test]
fn reset_body_leaves_other_robots_bit_identical_on_the_cpu() {
    reset_robot_leaves_the_others_and_starts_afresh(&|m| Box::new(CpuWorld::new(m).unwrap()));
}

#[test]
fn reset_body_leaves_other_robots_bit_identical_on_the_gpu() {
    reset_robot_leaves_the_others_and_starts_afresh(&|m| Box::new(common::world(m)));
}

/// A Lipson cube resting on the ground (body 0) and, beside it, a cube so stiff that `dt` is far
/// above its stable step (body 1, kicked so it oscillates): body 1 blows up within a few steps.
fn calm_and_unstable() -> Model {
    let mut model = Model::new(Params::default());
    let calm = Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.2)));
    model.add("calm", calm.unwrap());
    // omega = sqrt(k / m) = 1e5 rad/s against the 2 / dt = 2e4 rad/s semi-implicit Euler holds.
    let stiff = Cube {
        stiffness: 1e9,
        ..Cube::lipson()
    };
    let mut part = stiff
        .build_at(&Placement::at(DVec3::new(1.0, 0.0, 0.2)))
        .unwrap();
    part.masses[0].velocity = DVec3::new(0.1, 0.0, 0.0);
    model.add("unstable", part);
    model
}

fn failure_of_the_reset_body_is_cleared(make: &dyn Fn(&Model) -> Box<dyn Simulation>) {
    let model = calm_and_unstable();
    let mut world = make(&model);
    let first = world.step(1000).unwrap_err();
    assert!(
        matches!(first, Error::BlowUp { .. } | Error::NonFinite { .. }),
        "{first}"
    );
    let failed_at = world.steps();
    assert!(failed_at < 1000);
    // Putting back the calm body does not clear a failure of the unstable one.
    world.reset_body(0).unwrap();
    assert!(world.step(1).is_err());
    world.reset_body(1).unwrap();
    world.step(1).unwrap();
    assert!(matches!(
        world.reset_body(2),
        Err(Error::IndexOutOfRange {
            what: "body",
            index: 2,
            len: 2
        })
    ));
    // Body 0 was put back at `failed_at` and has run one step since: as a fresh run of one step.
    let mut fresh = make(&model);
    fresh.step(1).unwrap();
    assert_eq!(
        of(0, &model, &world.positions().unwrap()),
        of(0, &model, &fresh.positions().unwrap())
    );
}

#[test]
fn reset_body_clears_its_own_failure_on_the_cpu() {
    failure_of_the_reset_body_is_cleared(&|m| Box::new(CpuWorld::new(m).unwrap()));
}

#[test]
fn reset_body_clears_its_own_failure_on_the_gpu() {
    failure_of_the_reset_body_is_cleared(&|m| Box::new(common::world(m)));
}
