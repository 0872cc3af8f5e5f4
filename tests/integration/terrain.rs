//! Terrain helpers on the CPU reference: a staircase's footing stops what slides along the floor,
//! rough ground meets the floor without a step, a soft cube bounces down a staircase, and the
//! walking robot climbs a gentle slope.

use hooke::creatures::WalkingRobot;
use hooke::{
    Contact, CpuWorld, DVec2, DVec3, Friction, Mass, Model, Obstacle, Params, RoughGround,
    Staircase,
};

const G: f64 = 9.81;

/// The ground and the steps: Lipson's penalty k = 1e5 N/m with 20 N*s/m of normal damping.
const CONTACT: Contact = Contact::Penalty {
    stiffness: 1e5,
    damping: 20.0,
};

/// A 0.1 kg mass resting in the ground at its penalty depth m g / k = 9.8e-6 m, 5 cm in front of
/// a staircase (start at the origin), sliding at 1 m/s towards it without friction; where it is
/// after 0.3 s.
fn slide_into_step(footing: f64) -> DVec3 {
    let m = 0.1;
    let mut model = Model::new(Params {
        contact: CONTACT,
        ..Params::default()
    });
    let depth = m * G / 1e5;
    model.add_mass(Mass::new(m, DVec3::new(-0.05, 0.0, -depth)).with_velocity(DVec3::X));
    let stairs = Staircase {
        steps: 2,
        rise: 0.05,
        run: 0.3,
        footing,
        ..Staircase::default()
    };
    for shape in stairs.shapes().unwrap() {
        model.add_obstacle(Obstacle::new(shape, CONTACT, Friction::NONE));
    }
    let mut world = CpuWorld::new(&model).unwrap();
    world.step_for(0.3).unwrap();
    world.position_slice()[0]
}

/// A mass pressed into the ground is below z = 0, where a step without footing has no solid: it
/// went under the staircase. With the footing the front face stops it and throws it back.
///
/// It meets the face at 1 m/s; the face's penalty spring (k = 1e5 N/m on 0.1 kg) stops it
/// within v sqrt(m / k) = 1 mm (undamped; damping only shortens it), and it leaves back along
/// -x, so after 0.3 s it is behind the face (x < 0) and certainly not past x = 1 mm. Without
/// footing it slides on at 1 m/s to x = 0.25 m.
#[test]
fn mass_pressed_into_the_ground_does_not_slide_under_a_step() {
    let stopped = slide_into_step(Staircase::FOOTING);
    assert!(stopped.x < 0.0, "went into the step to {stopped}");
    // The failure this guards against: with the boxes ending at the floor it goes under.
    let under = slide_into_step(0.0);
    assert!(under.x > 0.2, "{under}");
}

/// Where the ground meets a rough patch there is no step: a mass sliding onto it from the
/// ground is lifted gently, not thrown.
///
/// Without the flat border the patch's edge is up to `amplitude` = 2 cm high; the mass,
/// arriving beside it, is at once that deep inside the solid and the penalty spring hands it
/// k d^2 / 2 (20 J at 2 cm, 20 m/s on 0.1 kg). With the border at height 0 the surface rises
/// over one cell (0.1 m). Gravity, the penalty spring and its damping are passive and there is
/// no friction, so the mass never gets faster than the 0.5 m/s it arrives with, but for the
/// integrator's O(dt) energy error and the penalty force not being exactly a gradient across the
/// bilinear cells (both far below the 4x in energy that 1 m/s would take).
#[test]
fn mass_sliding_onto_rough_ground_is_not_thrown_at_its_edge() {
    let m = 0.1;
    let mut model = Model::new(Params {
        contact: CONTACT,
        ..Params::default()
    });
    model.add_mass(
        Mass::new(m, DVec3::new(-0.05, 0.05, -m * G / 1e5)).with_velocity(DVec3::X * 0.5),
    );
    let rough = RoughGround {
        origin: DVec3::new(0.0, -0.5, 0.0),
        spacing: DVec2::splat(0.1),
        columns: 11,
        rows: 11,
        amplitude: 0.02,
        seed: 3,
    };
    let field = rough.heightfield().unwrap();
    model.add_obstacle(Obstacle::new(
        hooke::Shape::Heightfield(field),
        CONTACT,
        Friction::NONE,
    ));
    let mut world = CpuWorld::new(&model).unwrap();
    let mut fastest = 0.0_f64;
    for _ in 0..40 {
        world.step_for(0.01).unwrap();
        fastest = fastest.max(world.velocity_slice()[0].length());
    }
    let p = world.position_slice()[0];
    assert!(p.x > 0.05, "did not get onto the patch: {p}");
    assert!(fastest < 1.0, "thrown at {fastest} m/s");
}

fn scene_model(file: &str) -> Model {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(file);
    hooke::Scene::load(path).unwrap().to_model().unwrap()
}

/// The deepest any mass is inside the ground or an obstacle, m.
fn deepest(model: &Model, positions: &[DVec3]) -> f64 {
    positions
        .iter()
        .flat_map(|&p| {
            let obstacles = model.obstacles.iter();
            obstacles
                .filter_map(move |o| o.shape.surface(p).map(|s| -s.distance))
                .chain([-p.z])
        })
        .fold(0.0, f64::max)
}

/// The soft cube of `scenes/cube_stairs.json` (the terrain example's), thrown off the top of
/// eight 5 cm steps, bounces down them: it ends lower than it started, more than three steps
/// below the top, and never sinks into a step or the ground by more than contact allows.
///
/// Depth bound: the penalty energy k d^2 / 2 of the deepest mass is at most the mechanical
/// energy minus the kinetic, elastic and gravitational parts, so at most E(0) - gravity(t) +
/// (balance drift). Gravity is >= 0 while the centre of mass is above z = 0 (checked), and the
/// balance drift is asserted below 0.01 J, so d <= sqrt(2 (E(0) + 0.01 J) / k) = 1.0 cm for
/// E(0) = 5.1 J, k = 1e5 N/m (a fifth of a step's rise; the run measures 1.5 mm). Checked at
/// every step: an impact lasts pi sqrt(m / k) = 3 ms = 30 steps.
#[test]
fn soft_cube_bounces_down_the_stairs_without_sinking_into_them() {
    let model = scene_model("cube_stairs.json");
    let Contact::Penalty { stiffness: k, .. } = model.params.contact else {
        panic!("the scene has penalty contact");
    };
    let steps = model.obstacles.len();
    let (rise, top) = (0.05, 0.05 * steps as f64);
    let mut world = CpuWorld::new(&model).unwrap();
    let e0 = world.energy().unwrap();
    let bound = (2.0 * (e0.total() + 0.01) / k).sqrt();
    let z0 = world.bodies().unwrap()[0].centre_of_mass.z;
    let mut worst = 0.0_f64;
    for _ in 0..40_000 {
        world.step(1).unwrap();
        worst = worst.max(deepest(&model, world.position_slice()));
    }
    assert!(
        worst < bound,
        "a mass went {worst} m deep (bound {bound} m)"
    );
    let energy = world.energy().unwrap();
    assert!((energy.balance() - e0.balance()).abs() < 0.01, "{energy:?}");
    let end = world.bodies().unwrap()[0].centre_of_mass;
    assert!(end.z > 0.0 && end.z < z0, "from z = {z0} to {end}");
    assert!(end.z < top - 3.0 * rise, "stayed near the top: {end}");
}

/// The walking robot of `scenes/walker_slope.json` (the terrain example's: 10 degrees from
/// x = 0.45 m) climbs: once its whole body is on the slope its centre of mass follows the
/// surface, so the height it gains is what the distance it covered on the slope gives.
///
/// With the body at height h above the surface (h = its starting height on flat ground) the
/// centre of mass at x sits at z = (x - x0) tan(theta) + h / cos(theta), so from z = h it gains
/// (x - x0) tan(theta) + h (1 / cos(theta) - 1). The rest is the gait: 5 s is ten strides, the
/// same phase as the start, and at that phase on flat ground the centre of mass is |dz_flat|
/// from where it started (measured in the test, about 1 mm); the penalty depth adds below
/// m g / k = 1e-5 m. So the gain must match to |dz_flat| + 1e-4 m. A robot that slid back or
/// walked into the slope would miss by centimetres.
#[test]
fn walker_on_a_slope_gains_the_height_of_the_surface() {
    let model = scene_model("walker_slope.json");
    let hooke::Shape::Plane { normal, offset } = model.obstacles[0].shape else {
        panic!("the scene's obstacle is a plane");
    };
    let theta = normal.x.atan2(normal.z).abs();
    let x0 = -offset / theta.sin(); // the plane through (x0, 0, 0)
    let mut world = CpuWorld::new(&model).unwrap();
    let start = world.bodies().unwrap()[0].centre_of_mass;
    world.step_for(5.0).unwrap();
    let end = world.bodies().unwrap()[0].centre_of_mass;
    // The rear feet (0.2 m behind the centre of mass) are on the slope.
    assert!(end.x - 0.2 > x0, "not yet on the slope: {end}");
    let gained = end.z - start.z;
    let expected = (end.x - x0) * theta.tan() + start.z * (1.0 / theta.cos() - 1.0);

    let flat = WalkingRobot::default()
        .build()
        .unwrap()
        .run(5.0, 5.0)
        .unwrap();
    let gait = (flat.centre_of_mass[1].z - flat.centre_of_mass[0].z).abs();
    assert!(gained > 0.03, "gained {gained} m");
    assert!(
        (gained - expected).abs() < gait + 1e-4,
        "gained {gained} m, the surface gives {expected} m (gait {gait} m)"
    );
}

/// The walker scene files, now a named robot and a named terrain, are the terrain courses as the
/// builders make them: the walking robot's part with the parameters it was tuned for, and the
/// obstacles of a 10 degree slope from x = 0.45 m, a staircase of eight 2 cm steps and a patch of
/// rough ground, with the ground's contact and friction. Every mass, spring, actuator and obstacle
/// is compared to the bit (the files these replaced held the same model written out in full).
#[test]
fn walker_scene_files_are_the_terrain_courses() {
    let robot = WalkingRobot::default().build().unwrap();
    let course = |shapes: Vec<hooke::Shape>| {
        let mut model = Model::new(robot.params);
        model.add("walking robot", robot.part.clone());
        model.obstacles = shapes
            .into_iter()
            .map(|s| hooke::Obstacle::new(s, robot.params.contact, robot.params.friction))
            .collect();
        model
    };
    let slope = hooke::Slope {
        angle: 10f64.to_radians(),
        point: DVec3::new(0.45, 0.0, 0.0),
    };
    let stairs = hooke::Staircase {
        start: DVec3::new(0.45, 0.15, 0.0),
        steps: 8,
        rise: 0.02,
        run: 0.2,
        width: 2.0,
        footing: hooke::Staircase::FOOTING,
    };
    let rough = hooke::RoughGround {
        origin: DVec3::new(0.45, -1.0, 0.0),
        spacing: hooke::DVec2::new(0.1, 0.1),
        columns: 31,
        rows: 26,
        amplitude: 0.04,
        seed: 12,
    };
    for (file, expected) in [
        ("walker_slope.json", course(vec![slope.shape().unwrap()])),
        ("walker_stairs.json", course(stairs.shapes().unwrap())),
        (
            "walker_rough.json",
            course(vec![hooke::Shape::Heightfield(
                rough.heightfield().unwrap(),
            )]),
        ),
    ] {
        let model = scene_model(file);
        assert_eq!(model.params, expected.params, "{file}");
        assert_eq!(model.masses, expected.masses, "{file}");
        assert_eq!(model.springs, expected.springs, "{file}");
        assert_eq!(model.actuators, expected.actuators, "{file}");
        assert_eq!(model.obstacles, expected.obstacles, "{file}");
        assert_eq!(model, expected, "{file}");
    }
}
