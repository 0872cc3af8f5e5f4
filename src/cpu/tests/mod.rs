//! Tests of the CPU reference's parts on whole worlds: they build a [`CpuWorld`](super::CpuWorld)
//! and read its insides, so they live here, above every file of `src/cpu` (a part's own unit
//! tests stay beside it and use nothing above it).

use glam::DVec3;

use crate::builders::{Builder, Muscle, Voxel, VoxelBody};
use crate::model::{Model, Params};

mod formed_rest;
mod mass_lanes;
mod muscle_records;
mod pool;

/// `count` voxel bodies 0.6 m apart along `x`, each of the cells `cells` (Lipson material),
/// body `i`'s voxel `v` driven by `muscle(i, v)` if any.
fn voxel_bodies(
    count: usize,
    cells: &[[i32; 3]],
    muscle: impl Fn(usize, usize) -> Option<Muscle>,
) -> Model {
    let mut model = Model::new(Params::default());
    for i in 0..count {
        let voxels = cells
            .iter()
            .enumerate()
            .map(|(v, &cell)| match muscle(i, v) {
                Some(m) => Voxel::new(cell).with_muscle(m),
                None => Voxel::new(cell),
            });
        let body = VoxelBody {
            voxels: voxels.collect(),
            ..VoxelBody::default()
        };
        let mut part = body.build().expect("a valid voxel body");
        part.translate(DVec3::new(0.6 * i as f64, 0.0, 0.0));
        model.add(format!("body {i}"), part);
    }
    model
}
