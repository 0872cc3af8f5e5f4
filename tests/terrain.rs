//! Terrain helpers on the CPU reference: a staircase's footing stops what slides along the floor,
//! rough ground meets the floor without a step, a soft cube bounces down a staircase, and the
//! walking robot climbs a gentle slope.

use hooke::creatures::WalkingRobot;
use hooke::{
    Builder, Contact, CpuWorld, Cube, DVec2, DVec3, Friction, Mass, Model, Obstacle, Params,
    Placement, RoughGround, Slope, Staircase,
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
