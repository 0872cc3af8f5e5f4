//! The viewer's input handling, without a window: keys to actions, the arrow-key nudge of the
//! topmost mass (Lipson), picking the mass nearest the mouse and dragging it (SDL).

use hooke::render::input::{
    pick_mass, scenario_key, scenario_keys_help, throw_velocity, topmost, Action, Key, Orbit,
    ThrowScene, ViewerInput, SCENARIO_KEYS,
};
use hooke::render::Camera;
use hooke::{CpuWorld, DVec3, Mass, Model, Params, Part, Vec3, STANDARD_GRAVITY};

/// The viewer's scenario table (src/bin/hooke/view/gui/scenarios.rs: plain hooke builders, no window),
/// so the key table is tested against the scenarios the viewer really offers.
#[path = "../../src/bin/hooke/view/gui/scenarios.rs"]
mod scenarios;

const W: u32 = 400;
const H: u32 = 300;

/// Looking along +y: screen right is +x, screen up is +z.
fn front() -> Camera {
    Camera::look_at(Vec3::new(0.0, -2.0, 0.0), Vec3::ZERO)
}

#[test]
fn keys_map_to_actions_as_in_facey() {
    let mut c = ViewerInput::new();
    assert!(!c.playing());
    assert_eq!(c.key_pressed(Key::Space), Some(Action::TogglePlay));
    assert!(c.playing());
    assert_eq!(c.key_pressed(Key::Space), Some(Action::TogglePlay));
    assert!(!c.playing());
    c.set_playing(true);
    // A single step pauses first.
    assert_eq!(c.key_pressed(Key::S), Some(Action::Step));
    assert!(!c.playing());
    assert_eq!(c.key_pressed(Key::R), Some(Action::Reset));
    assert_eq!(
        c.key_pressed(Key::Digit(3)),
        Some(Action::SelectScenario(2))
    );
    assert_eq!(
        c.key_pressed(Key::Digit(0)),
        Some(Action::SelectScenario(9))
    );
    assert_eq!(c.key_pressed(Key::Digit(10)), None);
    assert_eq!(c.key_pressed(Key::Left), None);
}

#[test]
fn every_viewer_scenario_has_its_own_key_and_the_help_names_them_all() {
    // The viewer said "keys 1-9" with 11 scenarios: the last two had no key.
    let count = scenarios::SCENARIOS.len();
    assert_eq!(count, 13);
    assert!(count <= SCENARIO_KEYS.len());
    let mut c = ViewerInput::new();
    let mut labels = Vec::new();
    for i in 0..count {
        let key = scenario_key(i).unwrap_or_else(|| panic!("scenario {i} has no key"));
        assert_eq!(key.scenario(), Some(i));
        assert_eq!(c.key_pressed(key), Some(Action::SelectScenario(i)));
        labels.push(key.label());
    }
    let mut distinct = labels.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        count,
        "two scenarios share a key: {labels:?}"
    );
    // The help text the panel shows names exactly these keys, in order.
    assert_eq!(labels[..3], ["1", "2", "3"]);
    assert_eq!(labels[9..], ["0", "-", "=", "F1"]);
    assert_eq!(scenario_keys_help(count), "1-9, 0, -, =, F1");
    assert_eq!(scenario_keys_help(3), "1-3");
    assert_eq!(scenario_keys_help(1), "1");
    assert_eq!(scenario_keys_help(12), "1-9, 0, -, =");
    assert_eq!(scenario_keys_help(99), scenario_keys_help(16));
    assert_eq!(scenario_keys_help(16), "1-9, 0, -, =, F1, F2, F3, F4");
    // Keys that select nothing: no other key is a scenario key.
    for key in [
        Key::Space,
        Key::S,
        Key::R,
        Key::T,
        Key::Left,
        Key::Digit(10),
        Key::Function(5),
    ] {
        assert_eq!(key.scenario(), None, "{key:?}");
    }
}

#[test]
fn every_viewer_scenario_builds_a_valid_model() {
    for s in scenarios::SCENARIOS {
        assert!(!s.name.is_empty() && !s.about.is_empty());
        let (model, cells) = (s.build)().unwrap_or_else(|e| panic!("{}: {e}", s.name));
        model
            .validate()
            .unwrap_or_else(|e| panic!("{}: {e}", s.name));
        assert!(cells
            .iter()
            .flatten()
            .all(|&i| (i as usize) < model.masses.len()));
    }
}

#[test]
fn arrows_push_the_topmost_mass_relative_to_the_screen() {
    let positions = [
        DVec3::new(0.0, 0.0, 0.1),
        DVec3::new(0.1, 0.0, 0.3), // topmost
        DVec3::new(0.2, 0.0, 0.2),
    ];
    assert_eq!(topmost(&positions), Some(1));
    let mut c = ViewerInput::new();
    let camera = front();
    assert!(
        c.nudge(&camera, &positions).is_empty(),
        "no key held, no force"
    );

    c.key_pressed(Key::Right);
    let updates = c.nudge(&camera, &positions);
    assert_eq!(updates.len(), 1);
    let (mass, force) = updates[0];
    assert_eq!(mass, 1);
    // Screen right is +x for this camera; the force is horizontal with the set magnitude.
    assert!(
        (force - DVec3::new(c.nudge_force, 0.0, 0.0)).length() < 1e-6,
        "{force}"
    );

    // Right + up: diagonal, same magnitude; up is away from the viewer (+y here).
    c.key_pressed(Key::Up);
    let (_, force) = c.nudge(&camera, &positions)[0];
    assert!((force.length() - c.nudge_force).abs() < 1e-9);
    assert!(force.x > 0.0 && force.y > 0.0 && force.z == 0.0, "{force}");

    // Opposite keys cancel, which releases the mass (its force goes back to zero).
    c.key_released(Key::Up);
    c.key_pressed(Key::Left);
    let updates = c.nudge(&camera, &positions);
    assert_eq!(updates, vec![(1, DVec3::ZERO)]);

    // When another mass becomes topmost, the old one is released and the new one pushed.
    c.key_released(Key::Left);
    let mut moved = positions;
    moved[2].z = 0.5;
    let updates = c.nudge(&camera, &moved);
    assert_eq!(updates.len(), 1);
    assert_eq!(updates[0].0, 2);
    let mut moved_back = moved;
    moved_back[2].z = 0.0;
    let updates = c.nudge(&camera, &moved_back);
    assert_eq!(updates[0], (2, DVec3::ZERO));
    assert_eq!(updates[1].0, 1);
}

#[test]
fn the_mass_nearest_the_mouse_is_picked_and_dragged_under_the_cursor() {
    let camera = front();
    let positions = [
        DVec3::new(-0.3, 0.0, 0.0),
        DVec3::new(0.2, 0.0, 0.1),
        DVec3::new(0.2, 0.5, 0.1), // farther from the eye, near mass 1 on screen
    ];
    let at = |i: usize| camera.project(positions[i].as_vec3(), W, H).unwrap();
    // Exactly on mass 0, and a few pixels off mass 1.
    assert_eq!(pick_mass(&camera, W, H, at(0), &positions, 10.0), Some(0));
    let near1 = at(1) + glam::Vec2::new(3.0, -2.0);
    assert_eq!(pick_mass(&camera, W, H, near1, &positions, 10.0), Some(1));
    // Too far from everything.
    let corner = glam::Vec2::new(1.0, 1.0);
    assert_eq!(pick_mass(&camera, W, H, corner, &positions, 10.0), None);

    let mut c = ViewerInput::new();
    assert_eq!(c.mouse_pressed(corner, &camera, W, H, &positions), None);
    assert!(c.drag_spring(&camera, W, H).is_none());
    assert_eq!(
        c.mouse_pressed(at(0), &camera, W, H, &positions),
        Some(Action::Grab(0))
    );
    // Move the mouse 50 px right and 40 px up: the drag target is under the cursor, at the
    // depth the mass was grabbed at.
    let cursor = at(0) + glam::Vec2::new(50.0, -40.0);
    c.mouse_moved(cursor);
    let drag = c.drag_spring(&camera, W, H).unwrap();
    assert_eq!(drag.mass, 0);
    assert_eq!(drag.stiffness, c.drag_stiffness);
    let target = drag.target.as_vec3();
    let shown = camera.project(target, W, H).unwrap();
    assert!(shown.distance(cursor) < 0.05, "{shown} vs {cursor}");
    let depth = |p: Vec3| (p - camera.eye).dot(camera.forward());
    assert!((depth(target) - depth(positions[0].as_vec3())).abs() < 1e-4);
    // Moving right and up on this screen is +x and +z.
    assert!(target.x > positions[0].x as f32 && target.z > 0.0);
    assert_eq!(c.mouse_released(), Some(Action::Release));
    assert!(c.drag().is_none());
    assert_eq!(c.mouse_released(), None);
}

#[test]
fn among_masses_at_one_screen_point_the_nearest_to_the_eye_wins() {
    let camera = front();
    // Both on the line of sight through the image centre.
    let positions = [DVec3::new(0.0, 1.0, 0.0), DVec3::new(0.0, -0.5, 0.0)];
    let centre = glam::Vec2::new(W as f32 / 2.0, H as f32 / 2.0);
    assert_eq!(pick_mass(&camera, W, H, centre, &positions, 5.0), Some(1));
    // A mass behind the camera is never picked.
    let behind = [DVec3::new(0.0, -3.0, 0.0)];
    assert_eq!(pick_mass(&camera, W, H, centre, &behind, 1e9), None);
}

#[test]
fn an_orbit_reproduces_its_camera_and_turns_and_zooms() {
    let camera = Camera::orbit(Vec3::new(0.1, 0.2, 0.3), 2.0, 0.7, 0.4);
    let mut orbit = Orbit::from_camera(&camera);
    assert!((orbit.distance - 2.0).abs() < 1e-5);
    assert!((orbit.azimuth - 0.7).abs() < 1e-5 && (orbit.elevation - 0.4).abs() < 1e-5);
    assert!(orbit.camera().eye.distance(camera.eye) < 1e-5);
    orbit.turn(0.0, 1e6);
    assert!(orbit.elevation < 89.1f32.to_radians());
    orbit.zoom(0.5);
    assert!((orbit.distance - 1.0).abs() < 1e-5);
    orbit.zoom(f32::NAN);
    assert!((orbit.distance - 1.0).abs() < 1e-5);
}

/// Three one-mass bodies on the x axis at x = 0, 1 and 3 m (the first two of 1 kg, the third of
/// 2 kg), and their centres.
fn three_bodies() -> (Model, Vec<DVec3>) {
    let mut model = Model::new(Params::default());
    for (i, x) in [0.0, 1.0, 3.0].into_iter().enumerate() {
        let mut part = Part::new();
        part.add_mass(Mass::new(1.0 + (i / 2) as f64, DVec3::new(x, 0.0, 1.0)));
        model.add(format!("body {i}"), part);
    }
    let centres = model.masses.iter().map(|m| m.position).collect();
    (model, centres)
}

#[test]
fn t_throws_the_picked_body_at_the_nearest_other_body() {
    let (model, centres) = three_bodies();
    let scene = ThrowScene {
        bodies: &model.bodies,
        centres_of_mass: &centres,
        fallback: DVec3::new(0.0, 5.0, 0.0),
        gravity: STANDARD_GRAVITY,
    };
    let mut c = ViewerInput::new();
    assert_eq!(c.key_pressed(Key::T), Some(Action::Throw));
    // Nothing picked: the first body, at the nearest other (body 1, 1 m away).
    let (body, v) = c.throw(&scene).unwrap();
    assert_eq!(body, 0);
    assert_eq!(
        v,
        throw_velocity(centres[0], centres[1], c.throw_speed, scene.gravity).unwrap()
    );
    // Grab the third body's mass with the mouse: it is picked, and stays picked when let go.
    let camera = Camera::look_at(Vec3::new(1.5, -6.0, 1.0), Vec3::new(1.5, 0.0, 1.0));
    let at = camera.project(centres[2].as_vec3(), W, H).unwrap();
    assert_eq!(
        c.mouse_pressed(at, &camera, W, H, &centres),
        Some(Action::Grab(2))
    );
    assert_eq!(c.mouse_released(), Some(Action::Release));
    assert_eq!(c.picked(), Some(2));
    let (body, v) = c.throw(&scene).unwrap();
    assert_eq!(body, 2);
    // Its nearest other body is body 1 (2 m away): a ballistic flight of 2 m / throw_speed
    // seconds that ends there, rounding aside (a few ulps of metres).
    let flight = 2.0 / c.throw_speed;
    let end = centres[2] + v * flight + 0.5 * STANDARD_GRAVITY * flight * flight;
    assert!(end.distance(centres[1]) < 1e-12, "{end}");
    assert!(
        v.x < 0.0 && v.z > 0.0,
        "thrown back along -x and up against gravity: {v}"
    );
    // Another scenario forgets the pick.
    c.key_pressed(Key::Digit(2));
    assert_eq!(c.picked(), None);
}

#[test]
fn a_lone_body_is_thrown_at_the_camera_target_and_degenerate_throws_are_none() {
    let (model, centres) = three_bodies();
    let lone = ThrowScene {
        bodies: &model.bodies[..1],
        centres_of_mass: &centres[..1],
        fallback: DVec3::new(0.0, 3.0, 1.0),
        gravity: DVec3::ZERO,
    };
    let c = ViewerInput::new();
    let (body, v) = c.throw(&lone).unwrap();
    assert_eq!(body, 0);
    // No gravity: straight at the target at the throw speed.
    assert!(
        (v - DVec3::new(0.0, c.throw_speed, 0.0)).length() < 1e-12,
        "{v}"
    );
    // Already at the target, no bodies, a speed of 0: nothing to throw.
    let there = ThrowScene {
        fallback: centres[0],
        ..lone
    };
    assert_eq!(c.throw(&there), None);
    let empty = ThrowScene {
        bodies: &[],
        centres_of_mass: &[],
        ..lone
    };
    assert_eq!(c.throw(&empty), None);
    assert_eq!(
        throw_velocity(DVec3::ZERO, DVec3::X, 0.0, DVec3::ZERO),
        None
    );
    assert_eq!(
        throw_velocity(DVec3::ZERO, DVec3::X, f64::NAN, DVec3::ZERO),
        None
    );
}

/// The viewer's collision scenario, thrown as T throws it: the cubes meet, push each other
/// apart (the thrown one does not pass through), and the throw's kinetic energy is booked as
/// injected work.
#[test]
fn a_throw_in_the_colliding_cubes_scenario_makes_the_cubes_collide() {
    let scenario = scenarios::SCENARIOS
        .iter()
        .find(|s| s.name == "Colliding cubes")
        .unwrap();
    let (model, _) = (scenario.build)().unwrap();
    let mut world = CpuWorld::new(&model).unwrap();
    world.step_for(0.05).unwrap(); // settle on the ground
    let c = ViewerInput::new();
    let centres: Vec<DVec3> = world
        .bodies()
        .unwrap()
        .iter()
        .map(|b| b.centre_of_mass)
        .collect();
    let scene = ThrowScene {
        bodies: world.bodies_of_model(),
        centres_of_mass: &centres,
        fallback: DVec3::ZERO,
        gravity: world.params().gravity,
    };
    let (body, v) = c.throw(&scene).unwrap();
    assert_eq!(body, 0);
    let before = world.energy().unwrap().injected;
    world.set_body_velocity(body, v).unwrap();
    let kinetic: f64 = model.bodies[0]
        .masses
        .clone()
        .map(|i| 0.5 * model.masses[i].mass * v.length_squared())
        .sum();
    // The cube was nearly at rest: the injected work is the throw's kinetic energy, less the
    // little the settling cube had (well under 1 %).
    let injected = world.energy().unwrap().injected - before;
    assert!(
        (injected - kinetic).abs() < 0.01 * kinetic,
        "{injected} J vs {kinetic} J"
    );
    let right = model.bodies[1].masses.clone();
    let mut touched = false;
    for _ in 0..100 {
        world.step_for(0.01).unwrap();
        touched |= world
            .contacts()
            .iter()
            .any(|&[a, b]| right.contains(&b) && !right.contains(&a));
        let c = world.bodies().unwrap();
        // The thrown (left) cube never gets past the right one's centre.
        assert!(c[0].centre_of_mass.x < c[1].centre_of_mass.x);
    }
    assert!(touched, "the thrown cube never touched the other");
    // The right cube was pushed along +x (by about half a metre by a throw at 3 m/s).
    let pushed = world.bodies().unwrap()[1].centre_of_mass.x - centres[1].x;
    assert!(pushed > 0.1, "the right cube moved {pushed} m");
}
