//! Collisions between masses on the GPU World: bit-identical reruns, bodies that
//! mask each other out giving the bits of each run alone, a pair straddling grid cells, radius 0,
//! and the work the collision pass adds to a step. Parity with the CPU reference is in
//! `tests/integration/parity.rs` (`collisions_of_every_kind`).

use crate::common;

use common::collision_scenes::{collision_scenes, jelly, small_example_scenes};
use hooke::{Collision, Contact, DVec3, Mass, Model, Params, Part, World};

/// Final positions and velocities of `model` after `steps` steps on the GPU, and its energy.
fn run(model: &Model, steps: u64) -> (Vec<DVec3>, Vec<DVec3>, hooke::Energy) {
    let mut w = common::world(model);
    w.step(steps).unwrap();
    (
        w.positions().unwrap(),
        w.velocities().unwrap(),
        w.energy().unwrap(),
    )
}

/// Every collision parity scene ends in the same bits in two runs: the grid's counting order
/// changes with the thread schedule, the sorted buckets and the per-mass gather do not.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn collision_scenes_are_bit_identical_run_to_run() {
    for (name, model) in collision_scenes() {
        let a = run(&model, 1500);
        let b = run(&model, 1500);
        assert!(a.0 == b.0, "{name}: positions differ between two runs");
        assert!(a.1 == b.1, "{name}: velocities differ between two runs");
        assert_eq!(a.2, b.2, "{name}: energy differs between two runs");
    }
}

/// The example scenes (small pile, small cloth on its ball, head-on cubes) end in the same bits
/// in two runs, with their restitution surfaces as shipped.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn collision_example_scenes_are_bit_identical_run_to_run() {
    for (name, model) in small_example_scenes() {
        let a = run(&model, 2000);
        let b = run(&model, 2000);
        assert!(
            a.0 == b.0 && a.1 == b.1,
            "{name}: state differs between two runs"
        );
        assert_eq!(a.2, b.2, "{name}: energy differs between two runs");
    }
}

/// Free space, elastic collisions.
fn free_space() -> Params {
    Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        dt: 1e-4,
        ..Params::default()
    }
}

/// Two jelly cubes interpenetrating head-on, in groups that mask each other out, give exactly
/// the bits of each one run alone (as the robots of a population, which never touch): neither
/// the grid they share nor the other body's masses in the same cells change a bit of either.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn bodies_that_mask_each_other_out_give_the_bits_of_each_run_alone_on_the_gpu() {
    // Each cube also collides with itself (it folds under the impact of its own velocity field),
    // so the masks, not the absence of contacts, keep them apart.
    let left = || jelly(3, DVec3::ZERO, DVec3::new(0.5, 0.0, 0.0), 0.0).with_collision_filter(1, 1);
    let right = || {
        jelly(
            3,
            DVec3::new(0.025, 0.003, 0.0),
            DVec3::new(-0.5, 0.0, 0.0),
            0.0,
        )
        .with_collision_filter(2, 2)
    };
    let mut both = Model::new(free_space());
    both.add("left", left());
    both.add("right", right());
    let mut alone_left = Model::new(free_space());
    alone_left.add("left", left());
    let mut alone_right = Model::new(free_space());
    alone_right.add("right", right());
    let steps = 400;
    let (pos, vel, _) = run(&both, steps);
    let (pl, vl, _) = run(&alone_left, steps);
    let (pr, vr, _) = run(&alone_right, steps);
    let n = pl.len();
    assert!(
        pos[..n] == pl[..] && vel[..n] == vl[..],
        "left differs from its run alone"
    );
    assert!(
        pos[n..] == pr[..] && vel[n..] == vr[..],
        "right differs from its run alone"
    );
    // They did pass through each other: the cubes overlap along x at the end.
    let left_max = pl.iter().map(|p| p.x).fold(f64::MIN, f64::max);
    let right_min = pr.iter().map(|p| p.x).fold(f64::MAX, f64::min);
    assert!(left_max > right_min, "the cubes never overlapped");
}

/// Pairs of masses that straddle the grid's cell boundaries (along x, y, z and a corner, at the
/// origin where -0 and +0 meet, and far from it) touch on the GPU exactly as on the CPU: after
/// one step each mass moves, away from its partner, with the CPU's velocity to f32 precision.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn pairs_straddling_cell_boundaries_touch_on_the_gpu() {
    let r = 0.01;
    let mut part = Part::new();
    // The GPU's cells are a little over 2 r wide; the CPU's exactly 2 r: boundaries at multiples
    // of 2 r fall on a CPU boundary and near a GPU one. Partners are 1.5 r apart (overlap 0.5 r).
    let centres = [
        DVec3::ZERO,
        DVec3::new(2.0 * r, 0.0, 0.0),
        DVec3::new(0.0, -4.0 * r, 0.0),
        DVec3::new(0.0, 0.0, 6.0 * r),
        DVec3::new(20.0, -20.0, 20.0),
    ];
    let offsets = [
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        DVec3::ONE.normalize(),
        DVec3::X,
    ];
    for (c, o) in centres.iter().zip(offsets) {
        part.add_mass(Mass::new(0.01, *c - 0.75 * r * o).with_collision_radius(r));
        part.add_mass(Mass::new(0.01, *c + 0.75 * r * o).with_collision_radius(r));
    }
    let mut model = Model::new(free_space());
    model.add("pairs", part);
    let mut cpu = hooke::CpuWorld::new(&model).unwrap();
    cpu.step(1).unwrap();
    let (_, gv, _) = run(&model, 1);
    // One step: v = k (0.5 r) dt / m = 1e5 * 0.005 * 1e-4 / 0.01 = 5 m/s. On the GPU each
    // position is rounded to f32 (at most u |x| per coordinate, u = 2^-24), so the distance is
    // off by at most 2 sqrt(3) u |x| and the force by that over the 0.5 r overlap; the rest of
    // the step's f32 arithmetic is a few roundings (1e-5 relative covers them).
    let u = f64::from(f32::EPSILON) / 2.0;
    for (i, (g, c)) in gv.iter().zip(cpu.velocity_slice()).enumerate() {
        let x = model.masses[i].position.length();
        let tol = c.length() * (1e-5 + 2.0 * 3f64.sqrt() * u * x / (0.5 * r));
        assert!(c.length() > 4.0, "mass {i}: the CPU saw no contact ({c})");
        assert!(
            (*g - *c).length() <= tol,
            "mass {i}: GPU {g} vs CPU {c} (tolerance {tol:e})"
        );
    }
}

/// A mass with radius 0 never collides, even inside another mass's radius; the pair beside it
/// with two radii does (regression guard for the colliding-mass table: radius-0 masses are left
/// out of the grid and keep a zero collision force).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn masses_with_radius_zero_never_collide_on_the_gpu() {
    let mut part = Part::new();
    part.add_mass(Mass::new(0.01, DVec3::ZERO).with_collision_radius(0.01));
    part.add_mass(Mass::new(0.01, DVec3::new(0.005, 0.0, 0.0)));
    part.add_mass(Mass::new(0.01, DVec3::new(1.0, 0.0, 0.0)).with_collision_radius(0.01));
    part.add_mass(Mass::new(0.01, DVec3::new(1.005, 0.0, 0.0)).with_collision_radius(0.01));
    let mut model = Model::new(free_space());
    model.add("four", part);
    let (_, v, e) = run(&model, 10);
    assert_eq!(v[1], DVec3::ZERO, "the radius-0 mass moved");
    assert_eq!(v[0], DVec3::ZERO, "mass 0 felt the radius-0 mass");
    assert!(
        v[2].x < 0.0 && v[3].x > 0.0,
        "the colliding pair did not repel: {v:?}"
    );
    assert!(e.kinetic > 0.0);
}

/// The collision pass's dispatches are counted in the World's statistics, and a model without
/// radii keeps the two-dispatch step (the collision kernels are not even compiled).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn collision_pass_adds_eight_dispatches_only_when_masses_collide() {
    let mut model = Model::new(Params {
        collision: Collision::default(),
        ..free_space()
    });
    model.add("cube", jelly(3, DVec3::ZERO, DVec3::ZERO, 0.0));
    let with: World = common::world(&model);
    let mut plain = Model::new(free_space());
    plain.add(
        "cube",
        jelly(3, DVec3::ZERO, DVec3::ZERO, 0.0).with_collision_radius(0.0),
    );
    let without: World = common::world(&plain);
    let (a, b) = (with.stats(), without.stats());
    assert_eq!(a.dispatches_per_step, b.dispatches_per_step + 8);
    assert!(a.device_bytes > b.device_bytes);
}

/// `World::contacts` lists the pairs `CpuWorld::contacts` lists for the same state: overlapping
/// pairs (one at the origin, one 35 m away), a pair joined by a spring and a pair of fixed masses
/// (both excluded), and a pair whose masks exclude each other; then, after `set_fixed` frees one
/// of the fixed pair, that pair too.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_contacts_are_the_cpu_contacts() {
    let r = 0.01;
    let mut part = Part::new();
    let mut pair = |at: DVec3, fixed: bool, masks: [u32; 2]| {
        let mut ids = [0u32; 2];
        for (k, dx) in [0.0, 1.5 * r].into_iter().enumerate() {
            let mut m = Mass::new(0.01, at + DVec3::X * dx).with_collision_radius(r);
            m.fixed = fixed;
            m.collision_mask = masks[k];
            m.collision_group = 1 << k;
            ids[k] = part.add_mass(m);
        }
        ids
    };
    pair(DVec3::ZERO, false, [u32::MAX; 2]);
    pair(DVec3::new(20.0, -20.0, 20.0), false, [u32::MAX; 2]);
    let joined = pair(DVec3::new(1.0, 0.0, 0.0), false, [u32::MAX; 2]);
    let fixed = pair(DVec3::new(2.0, 0.0, 0.0), true, [u32::MAX; 2]);
    pair(DVec3::new(3.0, 0.0, 0.0), false, [1, 1]);
    part.add_spring(hooke::Spring::hooke(joined[0], joined[1], 100.0, 1.5 * r));
    let mut model = Model::new(free_space());
    model.add("pairs", part);
    let cpu = hooke::CpuWorld::new(&model).unwrap();
    let mut gpu = common::world(&model);
    assert_eq!(gpu.contacts().unwrap(), cpu.contacts());
    assert_eq!(gpu.contacts().unwrap(), vec![[0, 1], [2, 3]]);
    gpu.set_fixed(fixed[1] as usize, false).unwrap();
    assert_eq!(gpu.contacts().unwrap(), vec![[0, 1], [2, 3], [6, 7]]);
}
