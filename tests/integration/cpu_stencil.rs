//! The CPU reference's stencil kernel (`src/cpu/springs_stencil.rs`): large regular
//! bodies have their spring forces computed four masses at a time. Each spring's force is the
//! scalar walk's operations; only the order in which each mass's sum is added differs. These
//! tests hold it to the scalar walk within what that reordering allows, and to its own bits on
//! any thread count, alone or next to another body, after edits and with muscles.

use hooke::builders::Lattice;
use hooke::prelude::*;
use hooke::{Actuator, CpuWorld};

/// The benchmark lattice with `n^3` masses (from n = 16 it has more than 32 768 springs, the
/// smallest body that gets a stencil).
fn lattice(n: u32) -> Model {
    Lattice::benchmark(n).model().unwrap()
}

fn world(model: &Model, stencil: bool, threads: usize) -> CpuWorld {
    let mut w = CpuWorld::new(model).unwrap();
    w.set_stencil(stencil);
    w.set_threads(threads);
    w
}

/// The largest spring force magnitude `|k (L - L0)| + |c vrel|` (N) in `w`'s current state.
fn largest_spring_force(model: &Model, w: &CpuWorld) -> f64 {
    let (p, v) = (w.position_slice(), w.velocity_slice());
    model
        .springs
        .iter()
        .map(|s| {
            let (a, b) = (s.a as usize, s.b as usize);
            let d = p[a] - p[b];
            let len = d.length();
            let vrel = (v[a] - v[b]).dot(d / len);
            (s.stiffness * (len - s.rest_length)).abs() + (s.damping * vrel).abs()
        })
        .fold(0.0, f64::max)
}

/// Per-mass bound on reordering a sum of `terms` terms of magnitude at most `largest`: each of
/// the `terms - 1` additions rounds by at most half an ulp of the running sum (at most
/// `terms * largest`), in either order, so the two sums differ by at most
/// `2 (terms - 1) terms largest eps / 2`. The lattice has at most 26 springs per mass.
fn reorder_bound(terms: f64, largest: f64) -> f64 {
    (terms - 1.0) * terms * largest * f64::EPSILON
}

#[test]
fn stencil_forces_equal_the_scalar_walks_up_to_reordering() {
    let model = lattice(16);
    let mut scalar = world(&model, false, 1);
    let mut stencil = world(&model, true, 1);
    assert_eq!(scalar.stencil_springs(), 0);
    assert_eq!(stencil.stencil_springs(), model.springs.len());
    // Let it fall onto the ground and deform, so that every spring carries force.
    scalar.step(300).unwrap();
    stencil.step(300).unwrap();
    let bound = reorder_bound(26.0, largest_spring_force(&model, &stencil));
    let (fa, fb) = (
        scalar.spring_forces().unwrap(),
        stencil.spring_forces().unwrap(),
    );
    let mut differ = 0;
    for (i, (a, b)) in fa.iter().zip(&fb).enumerate() {
        assert!(
            (*a - *b).abs().max_element() <= bound,
            "mass {i}: {a} vs {b}, bound {bound}"
        );
        differ += usize::from(a != b);
    }
    // The reordering is real (else the test would not test it).
    assert!(differ > 0);
}

#[test]
fn stencil_trajectory_stays_with_the_scalar_walk() {
    // 300 steps of 1e-4 s: the forces differ by at most `reorder_bound` (~1e-12 N at ~10 N per
    // spring) each step; a force error dF on a 0.1 kg mass moves it by dF / m dt^2 N^2 / 2 after
    // N steps, ~1e-12 / 0.1 * 1e-8 * 9e4 / 2 = 5e-15 m, before the lattice's own dynamics
    // amplify it (its stiffest mode oscillates, it does not grow exponentially at this dt).
    // We allow 1e-10 m, 2e4 times that; an error in the kernel (a wrong sign, a missed slot,
    // a stale rest length) moves masses by micrometres or more in this time.
    let model = lattice(16);
    let mut scalar = world(&model, false, 2);
    let mut stencil = world(&model, true, 2);
    scalar.step(300).unwrap();
    stencil.step(300).unwrap();
    let moved = stencil.position_slice()[0] - model.masses[0].position;
    assert!(moved.length() > 1e-3, "the lattice did not move: {moved}");
    for (i, (a, b)) in scalar
        .position_slice()
        .iter()
        .zip(stencil.position_slice())
        .enumerate()
    {
        assert!((*a - *b).length() < 1e-10, "mass {i}: {a} vs {b}");
    }
    let (ea, eb) = (scalar.energy().unwrap(), stencil.energy().unwrap());
    assert!((ea.dissipated - eb.dissipated).abs() <= 1e-9 * ea.dissipated.abs().max(1e-6));
}

#[test]
fn stencil_bits_do_not_depend_on_the_thread_count() {
    // n = 32: 32 768 masses in 16 pieces of 2 048, shared among the threads.
    let model = lattice(32);
    let run = |threads| {
        let mut w = world(&model, true, threads);
        w.step(20).unwrap();
        (
            w.position_slice().to_vec(),
            w.velocity_slice().to_vec(),
            w.energy().unwrap(),
        )
    };
    let one = run(1);
    for threads in [2, 3] {
        let other = run(threads);
        assert!(one.0 == other.0, "positions differ on {threads} threads");
        assert!(one.1 == other.1, "velocities differ on {threads} threads");
        assert_eq!(one.2, other.2, "energy differs on {threads} threads");
    }
}

#[test]
fn a_stencil_body_gets_its_bits_alone_and_after_another_body() {
    let alone = lattice(16);
    let mut both = Model::new(alone.params);
    let cube = Cube::lipson()
        .build_at(&Placement::at(DVec3::new(3.0, 0.0, 0.3)))
        .unwrap();
    both.add("cube", cube);
    let offset = both.masses.len();
    both.add("lattice", Lattice::benchmark(16).build().unwrap());
    let mut a = world(&alone, true, 2);
    let mut b = world(&both, true, 2);
    assert_eq!(b.stencil_springs(), alone.springs.len());
    a.step(100).unwrap();
    b.step(100).unwrap();
    assert!(a.position_slice() == &b.position_slice()[offset..]);
    assert!(a.velocity_slice() == &b.velocity_slice()[offset..]);
}

#[test]
fn rest_length_edits_and_muscles_reach_the_stencil_slots() {
    // A muscle on one spring and a longer rest length on another: the scalar walk and the
    // stencil must agree as closely as without edits (see the trajectory test); a slot that
    // kept the old rest length would leave its masses micrometres off within 200 steps.
    let mut model = lattice(16);
    model.actuators.push(Actuator {
        spring: 40,
        amplitude: 0.3,
        omega: 60.0,
        phase: 0.25,
        duty: None,
        commanded: false,
    });
    let run = |stencil| {
        let mut w = world(&model, stencil, 2);
        w.set_rest_length(7_000, model.springs[7_000].rest_length * 1.2)
            .unwrap();
        w.step(200).unwrap();
        w.position_slice().to_vec()
    };
    let (scalar, stencil) = (run(false), run(true));
    let s = &model.springs;
    for spring in [40, 7_000] {
        for m in [s[spring].a as usize, s[spring].b as usize] {
            assert!(
                (scalar[m] - stencil[m]).length() < 1e-10,
                "mass {m} of spring {spring}"
            );
        }
    }
    for (i, (a, b)) in scalar.iter().zip(&stencil).enumerate() {
        assert!((*a - *b).length() < 1e-10, "mass {i}: {a} vs {b}");
    }
    // And the edits did something: without them the masses are elsewhere.
    let plain = {
        let mut w = world(&lattice(16), true, 2);
        w.step(200).unwrap();
        w.position_slice().to_vec()
    };
    let m = s[7_000].a as usize;
    assert!((plain[m] - stencil[m]).length() > 1e-7);
}

/// `model` gets no stencil: stencil on and off give the same bits over `steps` steps.
fn keeps_the_scalar_walk(model: &Model, steps: u64) {
    let mut on = world(model, true, 2);
    let mut off = world(model, false, 2);
    assert_eq!(on.stencil_springs(), 0);
    on.step(steps).unwrap();
    off.step(steps).unwrap();
    assert!(on.position_slice() == off.position_slice());
}

#[test]
fn bodies_that_do_not_fit_a_stencil_keep_the_scalar_walks_bits() {
    // Two stiffnesses on the same offset: no stencil, so stencil on and off are the same.
    let mut model = lattice(16);
    for s in model.springs.iter_mut().step_by(2) {
        s.stiffness *= 1.5;
    }
    keeps_the_scalar_walk(&model, 50);
}

/// A lattice with one extra spring joining its first and last masses fits a stencil by the
/// offsets and materials alone, but that one far offset would make every piece's window the
/// whole body: it keeps the scalar walk (and its bits).
#[test]
fn a_body_with_a_far_sparse_offset_keeps_the_scalar_walk() {
    let mut model = lattice(20);
    let last = model.masses.len() as u32 - 1;
    let template = model.springs[0];
    model.springs.push(hooke::Spring {
        a: 0,
        b: last,
        rest_length: model.masses[0]
            .position
            .distance(model.masses[last as usize].position),
        ..template
    });
    keeps_the_scalar_walk(&model, 20);
    // The lattice alone keeps its stencil.
    assert_eq!(
        world(&lattice(20), true, 2).stencil_springs(),
        lattice(20).springs.len()
    );
}
