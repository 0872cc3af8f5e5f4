//! CPU-vs-GPU parity: the same scenes stepped by the f64 `CpuWorld` and the f32 GPU `World`,
//! compared in positions, velocities and every energy term over time. Tolerances are derived in
//! `tests/integration/common/parity.rs` (module docs) from f32-vs-f64 error over the run; nothing is tuned.
//! Every scene runs with the default (64-bit atomics on lavapipe) and with forced 32-bit atomics,
//! whose coarser quantum the derivation covers as one of the per-step roundings.

use crate::common;

use common::collision_scenes;
use common::parity::compare;
use common::scenes;
use hooke::{AtomicWidth, Model, WorldOptions};

fn both_widths(name: &str, model: &Model, steps: u64, every: u64) {
    for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
        let mut gpu = common::world_with(
            model,
            WorldOptions {
                atomics,
                ..WorldOptions::default()
            },
        );
        let label = format!("{name} ({}-bit)", gpu.fixed_point().bits);
        compare(&label, model, &mut gpu, steps, every);
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn lipson_cube_bouncing() {
    both_widths("bouncing cube", &scenes::bouncing_cube(), 5000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn lattice_with_friction() {
    let model = scenes::lattice(4, 0.005, hooke::Friction::coulomb(0.6, 0.4));
    let mut model = model;
    for m in &mut model.masses {
        m.velocity = hooke::DVec3::new(0.4, 0.1, -0.2);
    }
    both_widths("lattice with friction", &model, 3000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn breathing_cube() {
    both_widths("breathing cube", &scenes::breathing_cube(), 4000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn pendulum_one_fixed_corner() {
    both_widths("pendulum", &scenes::pendulum(), 5000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn cloth_pinned_at_two_corners() {
    both_widths("cloth", &scenes::cloth(10, 8), 4000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn rope() {
    both_widths("rope", &scenes::rope(30), 5000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn image_body_with_restitution() {
    both_widths("image body", &scenes::image_body(), 4000, 250);
}

/// Bodies made of materials (a voxel body and an image body, damped): the springs, masses and
/// damping a `Material` gives hold the GPU to the CPU like hand-set ones.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn bodies_of_materials() {
    both_widths("material bodies", &scenes::material_bodies(), 3000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn inchworm_with_friction_oscillators() {
    both_widths("inchworm", &scenes::inchworm(), 5000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn all_spring_laws_semi_implicit() {
    both_widths("all laws", &scenes::all_laws(false), 4000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn all_spring_laws_explicit_euler() {
    both_widths(
        "all laws, explicit Euler",
        &scenes::all_laws(true),
        4000,
        250,
    );
}

/// Every obstacle kind, restitution on an obstacle, friction oscillators on an obstacle, and
/// all kinds in one scene (`scenes::obstacle_scenes`), CPU against GPU with the derived
/// tolerances. One atomic width: obstacles are in the mass pass, which has no atomics.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn obstacles_of_every_kind() {
    for (name, model) in scenes::obstacle_scenes() {
        let untouched = untouched_obstacles(&model, 4000);
        assert!(
            untouched.is_empty(),
            "{name}: obstacles {untouched:?} are never touched"
        );
        let mut gpu = common::world(&model);
        compare(&format!("obstacles: {name}"), &model, &mut gpu, 4000, 250);
    }
}

/// The obstacles of `model` that no mass is on or inside at any of `steps` steps on the CPU
/// (none, for a parity scene that compares contact rather than free fall).
fn untouched_obstacles(model: &Model, steps: u64) -> Vec<usize> {
    let mut cpu = hooke::CpuWorld::new(model).unwrap();
    let mut touched = vec![false; model.obstacles.len()];
    for _ in 0..steps {
        cpu.step(1).unwrap();
        for (ob, t) in model.obstacles.iter().zip(&mut touched) {
            *t |= cpu
                .position_slice()
                .iter()
                .any(|&x| ob.shape.surface(x).is_some_and(|s| s.distance <= 0.0));
        }
    }
    (0..touched.len()).filter(|&i| !touched[i]).collect()
}

/// Collisions between masses: every scene of `collision_scenes` (elastic head-on
/// cubes, damped and frictional cubes on the ground, a self-colliding rope piling up, groups,
/// masks, self-collision off and a fixed plate, particles of three radii in a box). Each scene
/// must really collide: pairs of masses touch in at least 10 of the samples of the CPU run (one
/// every 10 steps), i.e. for at least about 100 steps.
/// Collisions add no fixed point (each mass gathers its contacts in f32), so one atomic width
/// covers them; the spring pass's widths are covered above.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn collisions_of_every_kind() {
    for (name, model) in collision_scenes::collision_scenes() {
        let (steps, every) = (3000, 250);
        let mut cpu = hooke::CpuWorld::new(&model).unwrap();
        let mut touching = 0;
        for _ in 0..steps / 10 {
            cpu.step(10).unwrap();
            touching += u64::from(!cpu.contacts().is_empty());
        }
        assert!(
            touching >= 10,
            "{name}: masses touch at only {touching} of {} samples",
            steps / 10
        );
        let mut gpu = common::world(&model);
        compare(
            &format!("collisions: {name}"),
            &model,
            &mut gpu,
            steps,
            every,
        );
    }
}

/// The example scenes of `hooke::collision_scenes` at small sizes (head-on cubes of 3^3 closing
/// over a 0.02 m gap, the 12-body pile in its box, a 12 x 12 cloth onto its ball), over their
/// first 3000 steps (the cubes meet, the pile's first bodies land on the floor and on one
/// another, the cloth reaches the ball).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn collision_example_scenes() {
    // The cloth scene's ground and ball are restitution surfaces with friction; on a curved
    // surface that pairing parts CPU and GPU beyond the linear bound whatever the collisions do
    // (the finding written in tests/integration/common/scenes.rs), so here both are penalty
    // surfaces (5000 N/m, lightly damped) with the same friction.
    let penalty = hooke::Contact::Penalty {
        stiffness: 5e3,
        damping: 0.5,
    };
    for (name, mut model) in collision_scenes::small_example_scenes() {
        if name == "cloth on sphere" {
            model.params.contact = penalty;
            for ob in &mut model.obstacles {
                ob.contact = penalty;
            }
        }
        let mut gpu = common::world(&model);
        compare(
            &format!("collision example: {name}"),
            &model,
            &mut gpu,
            3000,
            250,
        );
    }
}
