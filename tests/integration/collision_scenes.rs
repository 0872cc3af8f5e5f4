//! The collision scenes of `hooke::collision_scenes` on the CPU reference and on the GPU World
//! a pile of soft bodies settles in its box without bodies passing through one
//! another, and a cloth dropped on a ball folds onto itself without passing through itself, each
//! checked on both backends by the same code (through `Simulation`). Small sizes (the example
//! runs the defaults); the head-on cubes' physics is in `tests/integration/collisions.rs`.

use crate::common;

use std::collections::HashSet;
use std::path::PathBuf;

use hooke::collision_scenes::{ClothOnSphere, HeadOnCubes, Pile};
use hooke::scene::PileLayout;
use hooke::{Cloth, CpuWorld, DVec2, DVec3, Error, Model, Scene, Simulation};

/// Pairs of masses closer than the sum of their radii at `pos` (brute force; the pairs the tests
/// count are never joined by springs nor filtered, so this is what the worlds see).
fn touching(model: &Model, pos: &[DVec3]) -> Vec<[usize; 2]> {
    let mut out = Vec::new();
    for a in 0..pos.len() {
        for b in a + 1..pos.len() {
            let reach = model.masses[a].collision_radius + model.masses[b].collision_radius;
            if reach > 0.0 && pos[a].distance(pos[b]) < reach {
                out.push([a, b]);
            }
        }
    }
    out
}

/// The smallest `d / (r_a + r_b)` over pairs of masses of different bodies at `pos`, checked
/// over all pairs (O(n^2)), independent of the world's grid.
fn closest_between_bodies(model: &Model, pos: &[DVec3]) -> f64 {
    let mut closest = f64::INFINITY;
    for (i, a) in model.bodies.iter().enumerate() {
        for b in &model.bodies[i + 1..] {
            for p in a.masses.clone() {
                for q in b.masses.clone() {
                    let reach = model.masses[p].collision_radius + model.masses[q].collision_radius;
                    closest = closest.min(pos[p].distance(pos[q]) / reach);
                }
            }
        }
    }
    closest
}

/// The smallest `d / (r_a + r_b)` over pairs of masses not joined by a spring, all in one
/// self-colliding body (the cloth), checked over all pairs.
fn closest_unjoined(model: &Model, pos: &[DVec3]) -> f64 {
    let joined: HashSet<(usize, usize)> = model
        .springs
        .iter()
        .map(|s| (s.a.min(s.b) as usize, s.a.max(s.b) as usize))
        .collect();
    let mut closest = f64::INFINITY;
    for a in 0..pos.len() {
        for b in a + 1..pos.len() {
            let reach = model.masses[a].collision_radius + model.masses[b].collision_radius;
            let ratio = pos[a].distance(pos[b]) / reach;
            if ratio < closest && !joined.contains(&(a, b)) {
                closest = ratio;
            }
        }
    }
    closest
}

/// The small pile of the tests: 12 bodies (4 cubes, 4 lattices, 4 blobs) in a 0.34 m box, two
/// per row, three layers, 310 masses.
fn small_pile() -> Pile {
    Pile {
        layout: PileLayout {
            bodies: 12,
            width: 0.34,
            ..PileLayout::default()
        },
        ..Pile::default()
    }
}

/// Twelve soft bodies dropped into a box of obstacles settle on one another without any body
/// passing through another, the walls or the floor.
///
/// Tolerances:
/// - no mass of one body comes within half the contact distance of a mass of another, at any
///   sample and at rest. The deepest overlap penalty contact allows is far below that: at rest
///   a pair carries at most the weight of the whole pile, 6.2 kg x 9.81 = 61 N, which presses
///   it 61 / 1e5 = 6e-4 m together; in an impact a 0.02 kg point arriving at 3 m/s (a fall from
///   the top layer, 0.42 m) is stopped within 3 sqrt(0.01 / 1e5) = 1e-3 m. The smallest
///   contact distance is 0.02 m, so half of it is only reached by passing through;
/// - at rest: after 2.5 s the kinetic energy is below 1e-4 of the energy the drop released
///   (about 12 J): an rms speed of sqrt(2 x 1.2e-3 J / 6.2 kg) = 2 cm/s or less, against the
///   2 to 3 m/s of the impacts (measured: 3e-6 of the drop, rms speed 3 mm/s);
/// - in the box: every mass within the walls and above the floor to 0.01 m, a fifth of the
///   walls' thickness, far beyond the 6e-4 m a wall or the ground lets a mass in at rest.
#[test]
fn pile_settles_without_passing_through() {
    let model = small_pile().model().unwrap();
    settles(&mut CpuWorld::new(&model).unwrap(), &model);
}

/// The same pile, the same checks, on the GPU World.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn pile_settles_without_passing_through_on_the_gpu() {
    let model = small_pile().model().unwrap();
    settles(&mut common::world(&model), &model);
}

/// Runs the small pile `model` in `w` for 2.5 s and checks it as `pile_settles_...` says.
fn settles(w: &mut impl Simulation, model: &Model) {
    let pile = small_pile();
    assert_eq!(model.masses.len(), 310);
    let start = w.energy().unwrap();
    let mut closest = f64::INFINITY;
    for _ in 0..50 {
        w.step(500).unwrap(); // 0.05 s
        closest = closest.min(closest_between_bodies(model, &w.positions().unwrap()));
    }
    assert!(
        closest >= 0.5,
        "masses of different bodies came within {closest} of their contact distance"
    );
    let end = w.energy().unwrap();
    let drop = start.gravity - end.gravity;
    assert!(drop > 10.0, "the pile released only {drop} J falling");
    assert!(
        end.kinetic < 1e-4 * drop,
        "not at rest: kinetic energy {} J after a drop of {drop} J",
        end.kinetic
    );
    let pos = w.positions().unwrap();
    let at_rest = closest_between_bodies(model, &pos);
    assert!(at_rest >= 0.5, "at rest: {at_rest} of the contact distance");
    let inside = 0.5 * pile.layout.width + 0.01;
    for (i, p) in pos.iter().enumerate() {
        assert!(
            p.x.abs() < inside && p.y.abs() < inside && p.z > -0.01,
            "mass {i} left the box: {p}"
        );
    }
    // They rest on one another, not side by side: bodies of different layers touch.
    let body = |i: usize| model.bodies.iter().position(|b| b.masses.contains(&i));
    let between = touching(model, &pos)
        .iter()
        .filter(|&&[a, b]| body(a) != body(b))
        .count();
    assert!(between >= 10, "only {between} contacts between bodies");
}

/// The small cloth of the tests: 24 x 24 masses 0.025 m apart on a 0.08 m ball.
fn small_cloth() -> ClothOnSphere {
    let scene = ClothOnSphere::default();
    ClothOnSphere {
        cloth: Cloth {
            nx: 24,
            ny: 24,
            ..scene.cloth.clone()
        },
        sphere_radius: 0.08,
        ..scene
    }
}

/// Runs `model` (the small cloth) in `w` for 2 s and returns the smallest `d / (r_a + r_b)` of
/// unjoined pairs over samples every 0.01 s, and the positions at the end (m).
fn drape(w: &mut impl Simulation, model: &Model) -> (f64, Vec<DVec3>) {
    let mut closest = f64::INFINITY;
    for _ in 0..200 {
        w.step(100).unwrap();
        closest = closest.min(closest_unjoined(model, &w.positions().unwrap()));
    }
    (closest, w.positions().unwrap())
}

/// A cloth dropped on a ball drapes over it and folds onto itself, and its layers never pass
/// through one another.
///
/// - Not through itself: no two cloth masses that no spring joins come within half their
///   contact distance (one spacing, 0.025 m) at any sample every 0.01 s. Penalty contact keeps
///   them much further apart: layers meeting at the falling speed, at most sqrt(2 g 0.21 m) = 2
///   m/s, are stopped within 2 sqrt(6.25e-4 / 1e4) = 5e-4 m, 2 % of the contact distance.
/// - Folded: at the end, at least four touching pairs are masses at
///   least 4 spacings apart in the grid. In the flat cloth they are 4 contact distances
///   apart; for them to touch the cloth between them must either shrink to a quarter of its
///   length (structural springs at -75 % strain, 500 N/m x 0.019 m = 9 N against a weight of
///   0.012 N per mass: impossible) or turn over onto itself: a fold. A fold lying on itself
///   touches along its crease, several masses; 4 is a handful (measured: 17).
#[test]
fn cloth_on_sphere_folds_onto_itself_without_passing_through() {
    let model = small_cloth().model().unwrap();
    folds_without_passing_through(&mut CpuWorld::new(&model).unwrap(), &model);
}

/// The same cloth, the same checks, on the GPU World.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn cloth_on_sphere_folds_onto_itself_without_passing_through_on_the_gpu() {
    let model = small_cloth().model().unwrap();
    folds_without_passing_through(&mut common::world(&model), &model);
}

/// Drapes the small cloth `model` in `w` and checks it as
/// `cloth_on_sphere_folds_onto_itself_without_passing_through` says.
fn folds_without_passing_through(w: &mut impl Simulation, model: &Model) {
    let (closest, p) = drape(w, model);
    assert!(
        closest >= 0.5,
        "cloth masses came within {closest} of their contact distance"
    );
    let n = 24i64;
    let grid = |i: usize| (i as i64 % n, i as i64 / n);
    let folds = touching(model, &p)
        .iter()
        .filter(|&&[a, b]| {
            let ((ia, ja), (ib, jb)) = (grid(a), grid(b));
            (ia - ib).pow(2) + (ja - jb).pow(2) >= 16
        })
        .count();
    assert!(folds >= 4, "only {folds} contacts across folds");
    // Draped: the middle of the cloth lies on the ball (top at 0.16 m), the edges lower.
    let top = p.iter().map(|p| p.z).fold(f64::NEG_INFINITY, f64::max);
    assert!((0.15..0.2).contains(&top), "highest point {top} m");
    assert!(p[0].z < 0.05, "corner at {} m", p[0].z);
}

/// The check above has teeth: with self-collision off the same cloth passes through itself
/// (unjoined masses come far within half their contact distance).
#[test]
fn cloth_without_self_collision_passes_through_itself() {
    let mut model = small_cloth().model().unwrap();
    model.bodies[0].self_collision = false;
    let mut w = CpuWorld::new(&model).unwrap();
    let (closest, _) = drape(&mut w, &model);
    assert!(w.contacts().is_empty());
    assert!(closest < 0.5, "closest {closest}: it never passed through");
}

/// The head-on cubes start apart and first touch after (gap - spacing) / speed: 0.16 s, 1600
/// steps of 1e-4 s (free flight: the springs at rest, no gravity, each cube moving exactly
/// speed / 2 dt per step up to rounding, so the first contact is at step 1600 or 1601).
#[test]
fn head_on_cubes_meet_when_the_layout_says() {
    let scene = HeadOnCubes {
        n: 3,
        ..HeadOnCubes::default()
    };
    let model = scene.model().unwrap();
    assert_eq!(model.masses.len(), 2 * 27);
    assert!(model.masses.iter().all(|m| m.collision_radius == 0.02));
    let mut w = CpuWorld::new(&model).unwrap();
    let mut steps = 0;
    while w.contacts().is_empty() {
        w.step(1).unwrap();
        steps += 1;
        assert!(steps < 2000, "no contact after {steps} steps");
    }
    assert!(
        (1600..=1601).contains(&steps),
        "first contact at step {steps}"
    );
}

/// Each scene's dt is below its stable estimate by the factor its docs give, also with the
/// collision stiffness and damping counted as many times as a mass can touch others at once
/// (cubes 4, pile 6, cloth 4).
#[test]
fn time_steps_are_below_the_stable_estimate_with_several_contacts() {
    let head_on = HeadOnCubes::default();
    let pile = Pile::default();
    let cloth = ClothOnSphere::default();
    let models = [
        (head_on.model().unwrap(), 8.0),
        (pile.model().unwrap(), 3.0),
        (cloth.model().unwrap(), 5.0),
    ];
    for (model, factor) in &models {
        let stable = model.stable_dt().dt;
        assert!(model.params.dt * factor < stable, "{}", model.stable_dt());
    }
    let times = |model: &Model, k: f64| {
        let mut m = model.clone();
        m.params.collision.stiffness *= k;
        m.params.collision.damping *= k;
        m.stable_dt().dt
    };
    for ((model, _), (contacts, factor)) in models.iter().zip([(4.0, 4.0), (6.0, 2.0), (4.0, 2.5)])
    {
        let stable = times(model, contacts);
        assert!(
            model.params.dt * factor < stable,
            "{contacts} contacts: {stable}"
        );
    }
}

/// Bad parameters are errors naming the field.
#[test]
fn bad_scene_parameters_are_errors_naming_the_field() {
    let name = |r: hooke::Result<Scene>| match r {
        Err(Error::InvalidParameter { name, .. }) => name,
        other => panic!("expected InvalidParameter, got {other:?}"),
    };
    let cubes = HeadOnCubes::default();
    assert_eq!(
        name(HeadOnCubes { gap: 0.04, ..cubes }.scene()),
        "head_on.gap"
    );
    assert_eq!(name(HeadOnCubes { n: 1, ..cubes }.scene()), "head_on.n");
    assert_eq!(
        name(
            HeadOnCubes {
                speed: f64::NAN,
                ..cubes
            }
            .scene()
        ),
        "head_on.speed"
    );
    let pile = |layout| Pile {
        layout,
        ..Pile::default()
    };
    let layout = PileLayout::default();
    assert_eq!(
        name(
            pile(PileLayout {
                bodies: 0,
                ..layout
            })
            .scene()
        ),
        "pile.bodies"
    );
    assert_eq!(
        name(
            pile(PileLayout {
                width: 0.15,
                ..layout
            })
            .scene()
        ),
        "pile.width"
    );
    assert_eq!(
        name(
            pile(PileLayout {
                wall_height: -0.1,
                ..layout
            })
            .scene()
        ),
        "pile.wall_height"
    );
    let cloth = ClothOnSphere::default();
    assert_eq!(
        name(
            ClothOnSphere {
                sphere_radius: 0.0,
                ..cloth.clone()
            }
            .scene()
        ),
        "cloth_on_sphere.sphere_radius"
    );
    assert_eq!(
        name(
            ClothOnSphere {
                shift: DVec2::new(f64::INFINITY, 0.0),
                ..cloth.clone()
            }
            .scene()
        ),
        "cloth_on_sphere.shift"
    );
    // The model checks what the scene passes on: here dt.
    let bad_dt = HeadOnCubes { dt: 0.0, ..cubes }.model();
    assert!(matches!(
        bad_dt,
        Err(Error::InvalidParameter { name: "dt", .. })
    ));
}

/// `scenes/collisions_*.json` (written by `cargo run --example collisions -- --write-scenes
/// scenes`) are the scenes' defaults.
#[test]
fn shipped_collision_scenes_are_the_defaults() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let load = |file: &str| Scene::load(dir.join(file)).unwrap().to_model().unwrap();
    assert_eq!(
        load("collisions_cubes.json"),
        HeadOnCubes::default().model().unwrap()
    );
    assert_eq!(
        load("collisions_pile.json"),
        Pile::default().model().unwrap()
    );
    assert_eq!(
        load("collisions_cloth.json"),
        ClothOnSphere::default().model().unwrap()
    );
}

/// A scene's `"pile"` adds its bodies after the scene's own bodies and its walls after the
/// scene's own obstacles, with the ground's contact and friction; joints keep naming the scene's
/// own bodies by index.
#[test]
fn a_named_pile_comes_after_the_scenes_own_bodies_and_obstacles() {
    let json = r#"{
        "version": 1,
        "params": { "contact": { "penalty": { "stiffness": 5e4, "damping": 10 } } },
        "bodies": [ { "name": "lid", "body": { "type": "cube" }, "placement": { "position": [0, 0, 2] } } ],
        "obstacles": [ { "shape": { "type": "sphere", "centre": [3, 0, 0], "radius": 0.5 } } ],
        "pile": { "bodies": 4, "width": 0.32, "seed": 5 }
    }"#;
    let model = Scene::from_json_str(json).unwrap().to_model().unwrap();
    let names: Vec<&str> = model.bodies.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["lid", "cube 0", "lattice 1", "random 2", "cube 3"]);
    assert_eq!(model.obstacles.len(), 5, "the sphere, then four walls");
    assert!(matches!(
        model.obstacles[0].shape,
        hooke::Shape::Sphere { .. }
    ));
    for wall in &model.obstacles[1..] {
        assert!(matches!(wall.shape, hooke::Shape::Box { .. }));
        assert_eq!(wall.contact, model.params.contact);
        assert_eq!(wall.friction, model.params.friction);
    }
    let small = Pile {
        layout: PileLayout {
            bodies: 4,
            width: 0.32,
            seed: 5,
            ..PileLayout::default()
        },
        ..Pile::default()
    };
    let piled = small.model().unwrap();
    assert_eq!(
        &model.masses[model.bodies[1].masses.start..],
        &piled.masses[..],
        "the same bodies as the Pile of the same layout"
    );
}

/// A pile out of range in a scene file is an error naming the field, not a panic.
#[test]
fn a_named_pile_out_of_range_is_an_error_naming_the_field() {
    let with = |pile: &str| {
        let json = format!(r#"{{ "version": 1, "pile": {pile} }}"#);
        Scene::from_json_str(&json).unwrap().to_model()
    };
    for (pile, field) in [
        (r#"{ "width": 0.1 }"#, "pile.width"),
        (r#"{ "bodies": 0 }"#, "pile.bodies"),
        (r#"{ "wall_height": -1 }"#, "pile.wall_height"),
    ] {
        match with(pile) {
            Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, field, "{pile}"),
            other => panic!("{pile}: expected InvalidParameter, got {other:?}"),
        }
    }
    let typo = r#"{ "version": 1, "pile": { "bodys": 3 } }"#;
    assert!(matches!(
        Scene::from_json_str(typo),
        Err(Error::SceneParse { .. })
    ));
}
