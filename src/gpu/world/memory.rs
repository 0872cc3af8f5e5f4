//! The device memory of a World, buffer by buffer: what a built World holds, and what a model
//! would need on a device before anything is made on it (the plan's, `plan/memory.rs`).

use super::build::check_model;
use super::World;
use crate::error::Result;
use crate::gpu::kernels;
use crate::gpu::options::DeviceMemory;
use crate::gpu::options::WorldOptions;
use crate::gpu::plan::{DeviceCaps, Plan};
use crate::gpu::tables::Tables;
use crate::model::Model;

impl World {
    /// The device memory of this World's buffers, each by name, as it was built (a contact
    /// sensor adds one `vec4` of reals per mass on the first [`World::sense`] asking for
    /// contacts). [`DeviceMemory::total`] equals [`WorldStats::device_bytes`](crate::WorldStats)
    /// plus the fused steps' and the spring chunks' own buffers.
    #[must_use]
    pub fn device_memory(&self) -> &DeviceMemory {
        &self.plan.memory
    }

    /// The device memory a World for `model` with `options` would take on `device`, buffer by
    /// buffer, planned without making anything on the device: the same checks as
    /// [`World::with_device`] (the model, the f32 range, the device's features and limits).
    ///
    /// # Errors
    /// As [`World::with_device`] before it touches the device: what [`Model::validate`]
    /// rejects, [`Error::OutOfF32Range`](crate::Error::OutOfF32Range),
    /// [`Error::Gpu`](crate::Error::Gpu) for a missing feature,
    /// [`Error::DeviceLimit`](crate::Error::DeviceLimit) naming the limit, the buffer or
    /// dispatch and the numbers, and
    /// [`Error::DeviceUnsupported`](crate::Error::DeviceUnsupported) naming a kernel the
    /// device's limits cannot bind.
    pub fn memory_needed(
        device: &wgpu::Device,
        model: &Model,
        options: WorldOptions,
    ) -> Result<DeviceMemory> {
        check_model(model, &options)?;
        let tables = Tables::new(model, options.precision);
        let caps = DeviceCaps::of(device);
        let plan = Plan::new(model, &tables, &caps, &kernels::needs(), &options)?;
        Ok(plan.memory)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::builders::Lattice;
    use crate::collision_scenes::HeadOnCubes;
    use crate::creatures::Inchworm;
    use crate::gpu::options::SpringPass;
    use crate::gpu::real::Precision;
    use crate::model::{Obstacle, Shape};

    /// The collision pass's buffers, in the order it makes them (its labels).
    const COLLISION_BUFFERS: [&str; 9] = [
        "collide_params",
        "colliders",
        "joined",
        "grid_cells",
        "grid_counts",
        "grid_starts",
        "grid_keys",
        "grid_points",
        "pair_table",
    ];

    /// The planned size of every buffer a built World holds is the buffer's size, on scenes
    /// that make each kind: a lattice (link variant), a herd of inchworms (stencil, muscle
    /// list, fused steps), obstacles, colliding cubes, and the lattice in f64 where the
    /// adapter has it.
    #[test]
    fn planned_memory_is_the_buffers_sizes() {
        let (device, queue) = crate::gpu::request_device().expect("a test adapter");
        let mut obstacles = Lattice::benchmark(5).model().unwrap();
        let params = obstacles.params;
        obstacles.obstacles.push(Obstacle::new(
            Shape::Sphere {
                centre: glam::DVec3::new(0.0, 0.0, -1.0),
                radius: 0.5,
            },
            params.contact,
            params.friction,
        ));
        let herd = Inchworm::default().build().unwrap().herd(12, 1.0).unwrap();
        let population = WorldOptions {
            spring_pass: SpringPass::Stencil,
            track_energy: false,
            ..WorldOptions::default()
        };
        let mut cases = vec![
            (
                Lattice::benchmark(6).model().unwrap(),
                WorldOptions::default(),
            ),
            (herd, population),
            (obstacles, WorldOptions::default()),
            (
                HeadOnCubes::default().model().unwrap(),
                WorldOptions::default(),
            ),
        ];
        if device.features().contains(wgpu::Features::SHADER_F64) {
            let f64 = WorldOptions {
                precision: Precision::F64,
                ..WorldOptions::default()
            };
            cases.push((Lattice::benchmark(4).model().unwrap(), f64));
        }
        for (i, (model, options)) in cases.into_iter().enumerate() {
            let planned = World::memory_needed(&device, &model, options).unwrap();
            let world = World::with_device(device.clone(), queue.clone(), &model, options).unwrap();
            assert_eq!(&planned, world.device_memory(), "case {i}");
            let by_name: HashMap<&str, u64> =
                planned.buffers.iter().map(|b| (b.name, b.bytes)).collect();
            let shared = world.buffers.named().map(|(n, b)| (n, b.size()));
            let collisions = world.bindings.collisions.iter().flat_map(|c| {
                COLLISION_BUFFERS
                    .into_iter()
                    .zip(c.pass.buffers().map(wgpu::Buffer::size))
            });
            let mut seen = 0;
            for (name, size) in shared.chain(collisions) {
                assert_eq!(by_name.get(name), Some(&size), "case {i}: buffer {name}");
                seen += 1;
            }
            let own = ["chunks", "islands", "step_table", "call", "state_snapshot"];
            let rest = planned.buffers.iter().filter(|b| own.contains(&b.name));
            assert_eq!(seen + rest.count(), planned.buffers.len(), "case {i}");
        }
    }
}
