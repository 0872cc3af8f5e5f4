//! Which chunks and groups form their muscles' rest lengths in the walk (`formed_rest.rs`,
//! `alike_muscles.rs`), and the stored rest lengths that fall behind meanwhile.

use super::super::CpuWorld;
use super::voxel_bodies;
use crate::builders::Muscle;
use crate::model::{Actuator, Model};

/// How each group of the world keeps its rest lengths.
fn layouts(w: &CpuWorld) -> Vec<&'static str> {
    let plans = w.chunks.iter().filter_map(|c| c.alike.as_ref());
    plans
        .flat_map(|p| p.group_muscles())
        .map(|m| m.map_or("stored", |m| m.layout_name()))
        .collect()
}

/// 16 bodies alike of two voxels, each voxel a sine muscle of its own phase (two waves).
fn herd() -> Model {
    let muscle = |_: usize, v: usize| Some(Muscle::new(0.1, 20.0, 0.5 * v as f64));
    voxel_bodies(16, &[[0, 0, 0], [1, 0, 0]], muscle)
}

#[test]
fn groups_form_rest_lengths_by_combinations_by_lanes_or_not_at_all() {
    // 16 bodies alike, two groups of eight: a few (base, amplitude, wave) combinations each.
    let w = CpuWorld::new(&herd()).unwrap();
    assert_eq!(layouts(&w), ["combos", "combos"]);
    // Every muscle its own amplitude: more combinations than a permute picks from.
    let mut model = herd();
    for (i, a) in model.actuators.iter_mut().enumerate() {
        a.amplitude *= 1.0 + 0.001 * (i % 97) as f64;
    }
    assert_eq!(layouts(&CpuWorld::new(&model).unwrap()), ["lanes", "lanes"]);
    // A commanded muscle in the second group: that group's rest lengths stay stored.
    let mut model = herd();
    let per = model.springs.len() / 16;
    model
        .actuators
        .push(Actuator::commanded((12 * per) as u32, 0.1));
    let mut w = CpuWorld::new(&model).unwrap();
    assert_eq!(layouts(&w), ["combos", "stored"]);
    // Booking off: the muscles' share skips the formed muscles until something reads them.
    w.set_track_energy(false);
    w.step(3).unwrap();
    assert!(w.rest_behind);
    let stored = w.springs.rest.clone();
    let in_force = w.rest_in_force().into_owned();
    assert!(
        stored != in_force,
        "the formed muscles' stored lengths are behind"
    );
    w.set_track_energy(true);
    assert!(!w.rest_behind && w.springs.rest == in_force);
}

#[test]
fn chunks_of_sine_muscles_form_their_rest_lengths_and_others_do_not() {
    // 30 blocks of 4 x 4 x 3 voxels (795 springs each, eight to a chunk), a third of the
    // voxels sine muscles of four phases.
    let cells: Vec<[i32; 3]> = (0..48).map(|c| [c % 4, c / 4 % 4, c / 16]).collect();
    let muscle = |i: usize, v: usize| {
        let phase = (i % 4) as f64 / 4.0;
        (v + i)
            .is_multiple_of(3)
            .then(|| Muscle::new(0.1, 20.0, phase))
    };
    let mut model = voxel_bodies(30, &cells, muscle);
    let formed = |w: &CpuWorld| w.chunks.iter().map(|c| c.formed).collect::<Vec<_>>();
    let mut w = CpuWorld::new(&model).unwrap();
    assert!(w.chunks.len() > 2 && formed(&w).iter().all(|&f| f));
    w.set_formed_rest(false);
    assert!(formed(&w).iter().all(|&f| !f) && w.formed_rest.is_empty());
    // A commanded muscle on the first spring: its chunk reads stored rest lengths.
    model.actuators.push(Actuator::commanded(0, 0.1));
    let w = CpuWorld::new(&model).unwrap();
    let f = formed(&w);
    assert!(!f[0] && f[1..].iter().all(|&f| f), "{f:?}");
    // Without muscles nothing is formed.
    model.actuators.clear();
    let w = CpuWorld::new(&model).unwrap();
    assert!(formed(&w).iter().all(|&f| !f) && w.formed_rest.is_empty());
}
