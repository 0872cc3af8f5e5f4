//! The GPU World within a device's limits: the adapter hooke picks (lavapipe, or OpenGL where
//! it is the only one) opened with smaller limits by `hooke::gpu::open_device_with_limits`.
//! Where a path fits, the World takes it and gives the bits it gives on the full device (the
//! two passes instead of the fused steps, the stencil without its muscle list, the link variant,
//! smaller workgroups) and passes the parity bounds against the CPU reference; where none
//! does, it refuses naming the limit and the numbers (WebGPU's default limits; a small buffer,
//! binding or dispatch limit), before anything is made on the device.

use crate::common;

use common::collision_scenes;
use common::parity::compare;
use common::scenes;
use hooke::prelude::*;
use hooke::{Precision, SpringPass, WorldStats};

/// A device on the adapter hooke picks, with its limits changed by `change`.
fn device_with(change: impl FnOnce(&mut wgpu::Limits)) -> (wgpu::Device, wgpu::Queue) {
    let adapter = pollster::block_on(hooke::gpu::find_adapter()).expect("a test adapter");
    let mut limits = adapter.limits();
    change(&mut limits);
    pollster::block_on(hooke::gpu::open_device_with_limits(&adapter, limits)).unwrap()
}

/// A population's options: the stencil variant, no energy booking, steps fused where allowed.
fn population() -> WorldOptions {
    WorldOptions {
        spring_pass: SpringPass::Stencil,
        track_energy: false,
        steps_per_submission: 256,
        ..WorldOptions::default()
    }
}

/// Positions and velocities after 600 steps, and the World's stats.
fn run(world: &mut World) -> (Vec<DVec3>, Vec<DVec3>, WorldStats) {
    world.step(600).unwrap();
    (
        world.positions().unwrap(),
        world.velocities().unwrap(),
        world.stats(),
    )
}

/// The fused steps kernel binds 21 storage buffers, the stencil variant with its muscle list 13,
/// without it 11, the link variant 10. With 16 (OpenGL's), 12 and 10 per stage the herd's World
/// takes the two passes, then the stencil without the list, then the link variant, and every
/// one gives the bits of the full device's World (fused where the adapter allows 21), as the
/// fused steps and the variants give each other's bits (`fused_steps.rs`).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn fewer_storage_buffers_take_a_path_that_fits_with_the_same_bits() {
    let model = scenes::herd(12);
    let (device, queue) = common::gpu();
    let full = World::with_device(device.clone(), queue.clone(), &model, population()).unwrap();
    let fuses = device.limits().max_storage_buffers_per_shader_stage >= 21;
    assert_eq!(full.stats().dispatches_per_step == 0, fuses);
    let mut full = full;
    let (x, v, _) = run(&mut full);
    for storage in [16, 12, 10] {
        let (device, queue) = device_with(|l| {
            l.max_storage_buffers_per_shader_stage =
                storage.min(l.max_storage_buffers_per_shader_stage);
        });
        let mut world = World::with_device(device, queue, &model, population())
            .unwrap_or_else(|e| panic!("{storage} storage buffers: {e}"));
        let (xs, vs, stats) = run(&mut world);
        assert!(stats.dispatches_per_step > 0, "{storage}: fused");
        assert_eq!(stats.stencil_offsets > 0, storage >= 11, "{storage}");
        assert!(xs == x && vs == v, "{storage} storage buffers: other bits");
    }
}

/// With 10 storage buffers per stage (the least the passes of a step need) the parity scenes
/// run within the CPU reference's derived bounds: a lattice with friction, the rope, the
/// inchworm's muscles, and colliding bodies (the collision pass binds 10).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn parity_holds_with_ten_storage_buffers_per_stage() {
    let (device, queue) = device_with(|l| l.max_storage_buffers_per_shader_stage = 10);
    let mut lattice = scenes::lattice(4, 0.005, hooke::Friction::coulomb(0.6, 0.4));
    for m in &mut lattice.masses {
        m.velocity = DVec3::new(0.4, 0.1, -0.2);
    }
    let (collision_name, colliding) = collision_scenes::collision_scenes().remove(0);
    for (name, model) in [
        ("lattice with friction", lattice),
        ("rope", scenes::rope(20)),
        ("inchworm", scenes::inchworm()),
        (collision_name, colliding),
    ] {
        let mut gpu = World::with_device(
            device.clone(),
            queue.clone(),
            &model,
            WorldOptions::default(),
        )
        .unwrap();
        compare(
            &format!("{name}, 10 storage buffers"),
            &model,
            &mut gpu,
            2000,
            250,
        );
    }
}

/// Workgroups of 16 invocations (a device allowing no more) give the positions and velocities
/// of the default workgroups bit for bit: the force sums are exact fixed-point sums, each
/// mass's update its own; the collision pass's grid (counts, scan blocks, sort) is cut by the
/// workgroup size too.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn smaller_workgroups_give_the_same_bits() {
    let (small, small_queue) = device_with(|l| {
        l.max_compute_invocations_per_workgroup = 16;
        l.max_compute_workgroup_size_x = 16;
    });
    let (device, queue) = common::gpu();
    let (_, colliding) = collision_scenes::collision_scenes().remove(0);
    for (name, model) in [
        (
            "lattice",
            scenes::lattice(6, 0.005, hooke::Friction::coulomb(0.6, 0.4)),
        ),
        ("colliding", colliding),
    ] {
        let mut a = World::with_device(
            device.clone(),
            queue.clone(),
            &model,
            WorldOptions::default(),
        )
        .unwrap();
        let mut b = World::with_device(
            small.clone(),
            small_queue.clone(),
            &model,
            WorldOptions::default(),
        )
        .unwrap();
        let (xa, va, _) = run(&mut a);
        let (xb, vb, _) = run(&mut b);
        assert!(
            xa == xb && va == vb,
            "{name}: other bits with 16 invocations"
        );
    }
}

/// WebGPU's default limits (`wgpu::Limits::default()`: 8 storage buffers per stage, where the
/// passes of a step bind 10) admit no GPU World: it is refused naming the limit, the kernel,
/// what it needs and what the device allows, not with a wgpu validation error.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn webgpus_default_limits_are_refused_naming_the_limit() {
    let (device, queue) = device_with(|l| {
        *l = wgpu::Limits::default().or_worse_values_from(l);
    });
    assert_eq!(device.limits().max_storage_buffers_per_shader_stage, 8);
    let model = scenes::bouncing_cube();
    let planned = World::memory_needed(&device, &model, WorldOptions::default());
    for result in [
        planned.map(|_| ()),
        World::with_device(device, queue, &model, WorldOptions::default()).map(|_| ()),
    ] {
        match result {
            Err(e @ Error::DeviceUnsupported { .. }) => {
                let message = e.to_string();
                for part in [
                    "max_storage_buffers_per_shader_stage >= 10",
                    "hooke::springs",
                    "allows 8",
                ] {
                    assert!(message.contains(part), "{part}: {message}");
                }
            }
            other => panic!("expected Error::DeviceUnsupported, got {other:?}"),
        }
    }
}

/// A model over a small buffer, binding or dispatch limit is refused by the plan, naming the
/// limit, the buffer or pass and the numbers: an 8000-mass lattice (128 000 bytes of positions in
/// f32, 32 workgroups per pass even at 256 invocations) on a device whose storage bindings hold
/// 8 000 bytes, whose buffers hold 12 000, or whose dispatches have 2 workgroups per dimension.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_model_over_a_small_fake_limit_is_refused_naming_it() {
    let model = hooke::builders::Lattice::benchmark(20).model().unwrap();
    let options = WorldOptions {
        precision: Precision::F32,
        steps_per_submission: 8,
        ..WorldOptions::default()
    };
    type Change = fn(&mut wgpu::Limits);
    let cases: [(Change, &str); 3] = [
        (
            |l| l.max_storage_buffer_binding_size = 8_000,
            "max_storage_buffer_binding_size",
        ),
        (|l| l.max_buffer_size = 12_000, "max_buffer_size"),
        (
            |l| l.max_compute_workgroups_per_dimension = 2,
            "max_compute_workgroups_per_dimension",
        ),
    ];
    for (change, limit) in cases {
        let (device, queue) = device_with(change);
        let planned = World::memory_needed(&device, &model, options);
        let built = World::with_device(device, queue, &model, options);
        for result in [planned.map(|_| ()), built.map(|_| ())] {
            match result {
                Err(Error::DeviceLimit {
                    what,
                    asked,
                    limit: allowed,
                }) => {
                    assert!(what.starts_with(limit), "{limit}: {what}");
                    assert!(asked > allowed, "{what}: {asked} <= {allowed}");
                }
                other => panic!("{limit}: expected Error::DeviceLimit, got {other:?}"),
            }
        }
    }
}
