//! `Params` presets: Lipson's defaults conserve energy (a creature cannot walk, a cloth never
//! settles); `Params::robots` lets a creature walk, `Params::cloth` brings a cloth to rest.

use hooke::creatures::WalkingRobot;
use hooke::{Builder, Cloth, CpuWorld, DVec3, Model, Params, Placement};

#[test]
fn lipson_cube_preset_is_the_default() {
    assert_eq!(Params::lipson_cube(), Params::default());
}

#[test]
fn walking_robot_moves_with_the_robot_preset_and_not_with_the_defaults() {
    let mut robot = WalkingRobot::default().build().unwrap();
    let start = robot.part.total_mass();
    assert!(start > 0.0);
    robot.params = Params::robots();
    let walked = robot.run(2.0, 0.5).unwrap().forward_distance();
    // The robot's documented trot (tests/integration/creatures.rs) covers 1.57 m in 10 s; 2 s of it is well
    // over 5 cm.
    assert!(walked > 0.05, "robots preset: walked {walked} m");
    // Without friction nothing horizontal acts on the robot but its own springs: its centre of
    // mass keeps its initial (zero) horizontal velocity. 2e4 steps of f64 rounding on ~1 m
    // positions stay far below 1e-9 m.
    robot.params = Params::default();
    let drift = robot.run(2.0, 0.5).unwrap().forward_distance();
    assert!(drift.abs() < 1e-9, "defaults: moved {drift} m");
}

/// The default cloth lying flat 0.3 m above the ground with `params`.
fn dropped_cloth(params: Params) -> CpuWorld {
    let mut model = Model::new(params);
    let cloth = Cloth {
        nx: 10,
        ny: 10,
        ..Cloth::default()
    };
    model.add(
        "cloth",
        cloth
            .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.3)))
            .unwrap(),
    );
    CpuWorld::new(&model).unwrap()
}

/// Kinetic plus gravitational energy above the ground (J) and the largest speed (m/s).
fn motion(world: &CpuWorld) -> (f64, f64) {
    let e = world.energy().unwrap();
    let speed = world
        .velocity_slice()
        .iter()
        .map(|v| v.length())
        .fold(0.0, f64::max);
    (e.kinetic + e.gravity, speed)
}

#[test]
fn cloth_comes_to_rest_with_the_cloth_preset_and_bounces_with_the_defaults() {
    let mut settled = dropped_cloth(Params::cloth());
    let (e0, _) = motion(&settled);
    settled.step_for(3.0).unwrap();
    let (e, speed) = motion(&settled);
    // Each landing keeps 70 % of the normal speed (49 % of the energy), the springs' damping
    // and friction take the rest: after 3 s (bounce times shrink geometrically, the sum of all
    // is under 1.5 s from 0.3 m) the cloth lies still.
    assert!(e < 1e-3 * e0, "energy {e} J of {e0} J left");
    assert!(speed < 1e-2, "still moving at {speed} m/s");
    // Lipson's undamped penalty ground returns every landing: the cloth is still bouncing.
    let mut bouncing = dropped_cloth(Params::default());
    bouncing.step_for(3.0).unwrap();
    let (e, speed) = motion(&bouncing);
    assert!(
        e > 0.1 * e0 && speed > 0.1,
        "defaults: {e} J of {e0} J, {speed} m/s"
    );
}
