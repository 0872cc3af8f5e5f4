//! Creatures do what they claim on the CPU reference: the walking robot walks, the wheels roll,
//! the inchworm crawls, each by the distance its docs state; with their drive switched off they
//! stay put (so the distance comes from the gait, not from an artefact); and Lipson's
//! structures breathe, swing and settle as described.
//!
//! Every run is deterministic (the CPU reference sums forces in a fixed order), so the measured
//! distances in the docs are exact for these parameters; the thresholds below are derived from
//! the task (one body length) or from kinematics, not from the measurements.

use std::f64::consts::{PI, TAU};

use glam::{DMat3, DVec3};
use hooke::creatures::{
    BreathingCube, Creature, Deformation, DroppedStructure, Inchworm, Pendulum, Trace,
    WalkingRobot, Wheel,
};

/// Runs `creature` for `duration` s and returns its trace, sampled every 0.1 s.
fn run(creature: &Creature, duration: f64) -> Trace {
    creature.run(duration, 0.1).expect("simulation runs")
}

#[test]
fn walking_robot_walks_one_body_length_in_10_s() {
    let robot = WalkingRobot::default().build().unwrap();
    assert!((robot.length - 0.4).abs() < 1e-12);
    let trace = run(&robot, 10.0);
    let forward = trace.forward_distance();
    println!(
        "walking robot: {forward:.3} m forward, {:.3} m sideways in 10 s",
        trace.sideways_drift()
    );
    assert!(
        forward >= robot.length,
        "walked {forward} m < one body length {} m",
        robot.length
    );
    // It walks forward, not sideways: heading within atan(1/2) = 27 degrees of +x.
    assert!(trace.sideways_drift() < 0.5 * forward);
    // It stays up on its legs: the centre of mass never drops below the slab's underside.
    let lowest = trace
        .centre_of_mass
        .iter()
        .map(|c| c.z)
        .fold(f64::MAX, f64::min);
    assert!(lowest > 0.1, "centre of mass fell to {lowest} m");
}

#[test]
fn walking_robot_without_stride_or_lift_stays_put() {
    // Lifting the legs alone is symmetric front to back, and shearing them alone with all four
    // feet loaded pushes as much forward as back: no net motion along x either way.
    for (stride, lift) in [(0.0, 0.1), (0.2, 0.0)] {
        let robot = WalkingRobot {
            stride,
            lift,
            ..WalkingRobot::default()
        }
        .build()
        .unwrap();
        let trace = run(&robot, 3.0);
        assert!(
            trace.forward_distance().abs() < 0.005,
            "stride {stride}, lift {lift}: moved {} m",
            trace.forward_distance()
        );
    }
}

#[test]
fn trace_csv_has_one_line_per_sample() {
    let worm = Inchworm::default().build().unwrap();
    let trace = run(&worm, 0.5);
    assert_eq!(trace.time.len(), 6);
    assert_eq!(trace.energy.len(), 6);
    let csv = trace.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 7);
    assert!(lines[0].starts_with("t_s,com_x_m,com_y_m,com_z_m,kinetic_j"));
    assert_eq!(lines[6].split(',').count(), 10);
    let dir = std::env::temp_dir().join(format!("hooke-creatures-{}", std::process::id()));
    let path = dir.join("trace.csv");
    trace.write_csv(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), csv);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Distance (m) a wheel covers in `duration` s when locked onto its kick schedule: one rim
/// segment `2 r sin(pi / n)` per `step_time`.
fn locked_distance(wheel: &Wheel, duration: f64) -> f64 {
    duration * 2.0 * wheel.radius * (PI / f64::from(wheel.spokes)).sin() / wheel.step_time
}

fn check_wheel_rolls(wheel: Wheel) {
    let creature = wheel.build().unwrap();
    let trace = run(&creature, 10.0);
    let forward = trace.forward_distance();
    let locked = locked_distance(&wheel, 10.0);
    println!(
        "{}: {forward:.3} m in 10 s (locked schedule: {locked:.3} m)",
        creature.name
    );
    // At least half the locked distance: the wheel may take a while to lock on, or slip a step,
    // but it must roll with its schedule most of the time. At most the locked distance with the
    // rim stretched by the kick: a wheel cannot outrun its schedule for long.
    assert!(
        forward >= 0.5 * locked,
        "{} rolled {forward} m < {} m",
        creature.name,
        0.5 * locked
    );
    assert!(forward <= (1.0 + wheel.kick) * locked);
    // Both layers stay upright: the centre of mass stays in the mid-plane.
    assert!(trace.sideways_drift() < 1e-3);
}

#[test]
fn whirligig_rolls_forward() {
    check_wheel_rolls(Wheel::whirligig());
}

#[test]
fn pinwheel_rolls_forward() {
    check_wheel_rolls(Wheel::pinwheel());
}

#[test]
fn wheel_without_kick_stays_put() {
    let wheel = Wheel {
        kick: 0.0,
        ..Wheel::whirligig()
    }
    .build()
    .unwrap();
    let trace = run(&wheel, 3.0);
    assert!(trace.forward_distance().abs() < 0.005);
}

#[test]
fn inchworm_crawls_forward() {
    let worm = Inchworm::default();
    let creature = worm.build().unwrap();
    let trace = run(&creature, 10.0);
    let forward = trace.forward_distance();
    // No slip: each cycle moves it by its body's stroke, 2 * stretch * length.
    let cycles = 10.0 * worm.omega / TAU;
    let no_slip = cycles * 2.0 * worm.stretch * creature.length;
    println!("inchworm: {forward:.3} m in 10 s (no-slip bound {no_slip:.3} m)");
    assert!(forward >= creature.length, "crawled {forward} m");
    // Friction only ever holds a foot back: the worm cannot beat its own stroke (plus one
    // stroke for where in the cycle the run ends).
    assert!(forward <= no_slip + 2.0 * worm.stretch * creature.length);
}

#[test]
fn inchworm_without_friction_toggle_stays_put() {
    // Equal friction front and back: stretching about the middle moves nothing on average.
    let worm = Inchworm {
        friction_max: 0.5,
        friction_min: 0.5,
        ..Inchworm::default()
    }
    .build()
    .unwrap();
    let trace = run(&worm, 3.0);
    assert!(
        trace.forward_distance().abs() < 0.005,
        "moved {} m",
        trace.forward_distance()
    );
}

#[test]
fn breathing_cube_follows_its_sine() {
    let breathing = BreathingCube::default();
    let cube = breathing.build().unwrap();
    assert_eq!(cube.part.actuators.len(), 28);
    let mut world = cube.world().unwrap();
    // Top edge (masses 4 and 5) at the breath's peak (t = 1.25 s) and trough (t = 1.75 s).
    // Breathing at 1 Hz is far below the cube's elastic modes (sqrt(k / m) ~ 300 rad/s, about
    // 50 Hz), so the edge follows its rest length up to the static sag under gravity,
    // about m g / k = 1e-4 m, and an undamped ringing of the same size: 1e-3 m is ten times
    // that and a tenth of the breathing amplitude.
    for (t, expected) in [(1.25, 0.11), (1.75, 0.09)] {
        world.step_for(t - world.time()).unwrap();
        let p = world.position_slice();
        let edge = p[4].distance(p[5]);
        assert!(
            (edge - expected).abs() < 1e-3,
            "edge {edge} m at t = {t} s, expected {expected} m"
        );
    }
}

#[test]
fn pendulum_swings_about_its_fixed_corner() {
    let pendulum = Pendulum::default().build().unwrap();
    let mut world = pendulum.world().unwrap();
    let pivot = world.position_slice()[Pendulum::PIVOT];
    let along = DVec3::new(1.0, 1.0, 0.0).normalize();
    let start = world.body_centre_of_mass(0).unwrap();
    let offset0 = (start - pivot).dot(along);
    let mut most_negative = offset0;
    for _ in 0..100 {
        world.step_for(0.01).unwrap();
        assert_eq!(world.position_slice()[Pendulum::PIVOT], pivot);
        let com = world.body_centre_of_mass(0).unwrap();
        most_negative = most_negative.min((com - pivot).dot(along));
        // No damping, no energy source: the centre of mass never rises above its start
        // (up to the elastic energy the springs trade with it, far below 1 mm of height).
        assert!(com.z < start.z + 1e-3);
    }
    // Undamped, it swings through to the mirror position on the other side, within 10 %.
    assert!(
        most_negative < -0.9 * offset0,
        "swung only to {most_negative} m (start {offset0} m)"
    );
}

#[test]
fn dropped_structures_land_and_settle() {
    for drop in [
        DroppedStructure::three_cubes(),
        DroppedStructure::hinge(),
        DroppedStructure::random_blob(7),
    ] {
        let creature = drop.build().unwrap();
        let lowest = creature.part.min_z().unwrap();
        assert!((lowest - drop.height).abs() < 1e-12);
        let mut world = creature.world().unwrap();
        world.step_for(4.0).unwrap();
        let e = world.energy().unwrap();
        // Velocity damping at 10 1/s takes the kinetic energy down by e^-20 per second of free
        // motion; what is left after 4 s is the slow settling of the springs on the ground.
        assert!(
            e.kinetic < 1e-3,
            "{}: kinetic energy {} J after 4 s",
            creature.name,
            e.kinetic
        );
        // Resting on the ground: penetration at most weight / k_c for all the structure's
        // weight on one mass (< 2e-4 m), and the lowest mass touches.
        let z_min = world
            .position_slice()
            .iter()
            .map(|p| p.z)
            .fold(f64::MAX, f64::min);
        assert!(
            z_min > -2e-4 && z_min < 1e-3,
            "{}: z_min {z_min}",
            creature.name
        );
    }
}

#[test]
fn deformation_gives_each_spring_its_axial_strain() {
    // Vertical stretch 0.1 on the sine, shear (x, z) = -0.2 on the cosine.
    let d = Deformation {
        sin_part: DMat3::from_cols(DVec3::ZERO, DVec3::ZERO, DVec3::new(0.0, 0.0, 0.1)),
        cos_part: DMat3::from_cols(DVec3::ZERO, DVec3::ZERO, DVec3::new(-0.2, 0.0, 0.0)),
        omega: 3.0,
        phase: 0.0,
        duty: None,
    };
    // A vertical spring stretches with the sine only.
    let a = d.actuator(0, DVec3::new(0.0, 0.0, 0.1)).unwrap();
    assert!((a.amplitude - 0.1).abs() < 1e-15 && a.phase.abs() < 1e-15);
    // A horizontal spring is not stretched at all: no actuator.
    assert!(d.actuator(1, DVec3::new(0.1, 0.0, 0.0)).is_none());
    assert!(d.actuator(1, DVec3::new(0.0, 0.1, 0.0)).is_none());
    // The diagonal (1, 0, 1): strains 0.05 (sine) and -0.1 (cosine).
    let a = d.actuator(2, DVec3::new(0.1, 0.0, 0.1)).unwrap();
    assert!((a.amplitude - 0.05f64.hypot(0.1)).abs() < 1e-15);
    // Its rest length is the exact deformed length to first order: with e = n.G n and
    // q = |G n|^2, |(I + G) r| = |r| sqrt(1 + 2 e + q), and sqrt(1 + x) lies between
    // 1 + x/2 - x^2/8 and 1 + x/2, so the linear |r| (1 + e) is off by at most
    // |r| (q/2 + (2e + q)^2 / 8).
    let r = DVec3::new(0.1, 0.0, 0.1);
    let n = r.normalize();
    for t in [0.0f64, 0.3, 1.1, 2.0] {
        let g = d.sin_part * (3.0 * t).sin() + d.cos_part * (3.0 * t).cos();
        let (e, q) = (n.dot(g * n), (g * n).length_squared());
        let exact = (r + g * r).length();
        let actuated = a.rest_length(r.length(), t);
        let bound = r.length() * (0.5 * q + (2.0 * e + q).powi(2) / 8.0);
        assert!((exact - actuated).abs() <= bound + 1e-15, "t = {t}");
        assert!((actuated - r.length() * (1.0 + e)).abs() < 1e-15);
    }
}

#[test]
fn builders_reject_bad_parameters() {
    assert!(WalkingRobot {
        body_length: 2,
        ..WalkingRobot::default()
    }
    .build()
    .is_err());
    assert!(WalkingRobot {
        omega: f64::NAN,
        ..WalkingRobot::default()
    }
    .build()
    .is_err());
    assert!(Wheel {
        spokes: 7,
        ..Wheel::whirligig()
    }
    .build()
    .is_err());
    assert!(Wheel {
        kick: 1.0,
        ..Wheel::whirligig()
    }
    .build()
    .is_err());
    assert!(Inchworm {
        segments: 1,
        ..Inchworm::default()
    }
    .build()
    .is_err());
    assert!(Inchworm {
        friction_max: -1.0,
        ..Inchworm::default()
    }
    .build()
    .is_err());
    assert!(BreathingCube {
        amplitude: 1.5,
        ..BreathingCube::default()
    }
    .build()
    .is_err());
    assert!(Pendulum {
        pivot_height: 0.0,
        ..Pendulum::default()
    }
    .build()
    .is_err());
    let creature = Inchworm::default().build().unwrap();
    assert!(creature.run(1.0, 0.0).is_err());
    assert!(creature.run(-1.0, 0.1).is_err());
}

/// Every cell of `creature` is a cube of edge `h` with its corners in `x + 2 y + 4 z` order:
/// corner `c` sits `h sqrt(popcount c)` from corner 0, and its x, y, z offsets from corner 0
/// are orthogonal edges of length `h`.
fn assert_cells_are_voxels(creature: &Creature, cells: usize, h: f64) {
    assert_eq!(creature.cells.len(), cells, "{}", creature.name);
    let p = |i: u32| creature.part.masses[i as usize].position;
    for cell in &creature.cells {
        let (ex, ey, ez) = (
            p(cell[1]) - p(cell[0]),
            p(cell[2]) - p(cell[0]),
            p(cell[4]) - p(cell[0]),
        );
        for e in [ex, ey, ez] {
            assert!(
                (e.length() - h).abs() < 1e-12,
                "{}: edge {e}",
                creature.name
            );
        }
        assert!(ex.dot(ey).abs() < 1e-12 && ex.dot(ez).abs() < 1e-12 && ey.dot(ez).abs() < 1e-12);
        // Right-handed: x cross y is z, so faces wind as HEXAHEDRON_FACES says.
        assert!((ex.cross(ey) - ez * h).length() < 1e-12);
        for (c, &m) in cell.iter().enumerate() {
            let want = p(cell[0])
                + ex * (c & 1) as f64
                + ey * ((c >> 1) & 1) as f64
                + ez * ((c >> 2) & 1) as f64;
            assert!(
                (p(m) - want).length() < 1e-12,
                "{}: corner {c}",
                creature.name
            );
        }
    }
}

#[test]
fn voxel_creatures_expose_their_cells_for_the_solid_look() {
    // The walker: a 4 x 3 slab on four one-voxel legs.
    assert_cells_are_voxels(&WalkingRobot::default().build().unwrap(), 16, 0.1);
    assert_cells_are_voxels(&BreathingCube::default().build().unwrap(), 1, 0.1);
    assert_cells_are_voxels(&Pendulum::default().build().unwrap(), 1, 0.1);
    // Tilted before the drop: the cells turn with the masses.
    assert_cells_are_voxels(&DroppedStructure::three_cubes().build().unwrap(), 3, 0.1);
    assert_cells_are_voxels(&DroppedStructure::hinge().build().unwrap(), 2, 0.1);
    // Not made of voxels: no cells.
    assert!(DroppedStructure::random_blob(7)
        .build()
        .unwrap()
        .cells
        .is_empty());
    assert!(Wheel::whirligig().build().unwrap().cells.is_empty());
}
