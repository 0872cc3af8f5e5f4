//! `Precision::F64` on the GPU World: the same kernels in f64 against the f64 CPU
//! reference on the parity scenes, with tolerances derived in
//! `tests/integration/common/parity.rs` ("In f64"); the cube within ~1e-10 m of the CPU
//! reference; bit-identical reruns; the setters,
//! sensors and bodies in f64; and the errors a user gets where the adapter has no f64.
//!
//! Lavapipe has `SHADER_F64`; on an adapter without it (the GL backend, Metal) the tests that
//! need it check that the adapter does not offer it, say so and stop, and the GL test checks the
//! error instead.

use crate::common;

use common::collision_scenes;
use common::parity::{compare, compare_with_edits, Target};
use common::scenes;
use hooke::prelude::*;
use hooke::{AtomicWidth, Precision};

/// The Lipson cube at 0.3 m.
fn cube() -> Model {
    let mut model = Model::new(Params::default());
    let cube = Cube::lipson()
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.3)))
        .unwrap();
    model.add("cube", cube);
    model
}

fn f64_options() -> WorldOptions {
    WorldOptions {
        precision: Precision::F64,
        ..WorldOptions::default()
    }
}

/// The message of `Error::Gpu`, or a panic naming what came instead.
fn gpu_message(result: hooke::Result<World>) -> String {
    match result {
        Err(Error::Gpu(message)) => message,
        Err(other) => panic!("expected Error::Gpu, got {other}"),
        Ok(_) => panic!("expected Error::Gpu, got a World"),
    }
}

/// OpenGL (Mesa's llvmpipe through EGL here) has no f64 in shaders: asking for F64 there names
/// the missing feature and the adapter. Skipped, saying so, where no GL adapter opens.
#[test]
fn f64_on_the_gl_backend_names_shader_f64_and_the_adapter() {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::GL;
    let instance = wgpu::Instance::new(desc);
    let Ok(adapter) =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
    else {
        eprintln!("skipped: no OpenGL adapter on this machine");
        return;
    };
    let name = adapter.get_info().name;
    assert!(
        !adapter.features().contains(wgpu::Features::SHADER_F64),
        "{name} offers SHADER_F64 on GL: this test needs another adapter without it"
    );
    let (device, queue) = pollster::block_on(hooke::gpu::open_device(&adapter)).unwrap();
    let message = gpu_message(World::with_device(
        device.clone(),
        queue.clone(),
        &cube(),
        f64_options(),
    ));
    assert!(message.contains("SHADER_F64"), "{message}");
    assert!(message.contains(&name), "{message}");
    // The same device serves F32.
    World::with_device(device, queue, &cube(), WorldOptions::default()).unwrap();
}

/// `World::with_options` opens an adapter itself and builds an f64 World on it where the
/// adapter offers SHADER_F64 (lavapipe does), or names the missing feature where it does not
/// (the GL backend).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn with_options_builds_an_f64_world_on_an_adapter_it_picks() {
    match World::with_options(&cube(), f64_options()) {
        Ok(mut world) => {
            assert_eq!(world.precision(), Precision::F64);
            world.step(10).unwrap();
        }
        Err(Error::Gpu(message)) => {
            assert_adapter_lacks_f64(&message);
            assert!(message.contains("SHADER_F64"), "{message}");
        }
        Err(other) => panic!("{other}"),
    }
}

/// F64 with 32-bit fixed-point sums is refused before anything else: f64 forces need 64-bit
/// sums.
#[test]
fn f64_with_32_bit_atomics_is_an_error() {
    let (device, queue) = common::gpu();
    let options = WorldOptions {
        atomics: AtomicWidth::Bits32,
        ..f64_options()
    };
    let message = gpu_message(World::with_device(
        device.clone(),
        queue.clone(),
        &cube(),
        options,
    ));
    assert!(
        message.contains("Bits32") || message.contains("SHADER_F64"),
        "{message}"
    );
}

/// That the adapter hooke picks does not offer `SHADER_F64` (else a device without it means
/// `open_device` did not request it); `context` is what the test saw.
fn assert_adapter_lacks_f64(context: &str) {
    let adapter = pollster::block_on(hooke::gpu::find_adapter()).unwrap();
    assert!(
        !adapter.features().contains(wgpu::Features::SHADER_F64),
        "{} offers SHADER_F64: open_device must request it ({context})",
        adapter.get_info().name
    );
}

/// A World in f64 on the shared device, or `None` (saying so) where the adapter has no
/// `SHADER_F64`. Where the adapter offers it (lavapipe does), it must build.
fn f64_world(model: &Model) -> Option<World> {
    let (device, _) = common::gpu();
    let info = device.adapter_info();
    if !device.features().contains(wgpu::Features::SHADER_F64) {
        assert_adapter_lacks_f64("the shared device has no SHADER_F64");
        eprintln!("skipped: {} has no SHADER_F64", info.name);
        return None;
    }
    let world = common::world_with(model, f64_options());
    assert_eq!(world.precision(), Precision::F64);
    assert_eq!(world.fixed_point().bits, 64);
    Some(world)
}

/// The Lipson cube dropped from 0.3 m, bouncing on the penalty ground for 0.5 s (5000 steps):
/// in f64 the GPU stays within 1e-10 m of the CPU reference, where the f32 World is about
/// 1e-5 m away. The derived bound of `compare` holds at every checkpoint too.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_cube_matches_the_cpu_reference_to_1e_10_m_over_half_a_second() {
    let model = cube();
    let Some(mut gpu) = f64_world(&model) else {
        return;
    };
    let mut f32_world = common::world(&model);
    let mut cpu = CpuWorld::new(&model).unwrap();
    let (mut worst64, mut worst32) = (0.0f64, 0.0f64);
    for _ in 0..20 {
        cpu.step(250).unwrap();
        gpu.step(250).unwrap();
        f32_world.step(250).unwrap();
        let dist = |p: &[DVec3]| {
            p.iter()
                .zip(cpu.position_slice())
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f64::max)
        };
        worst64 = worst64.max(dist(&gpu.positions().unwrap()));
        worst32 = worst32.max(dist(&f32_world.positions().unwrap()));
    }
    eprintln!("cube, 0.5 s: f64 World {worst64:e} m, f32 World {worst32:e} m from the CPU");
    assert!(worst64 < 1e-10, "f64: {worst64:e} m");
    assert!(
        worst32 > 1e3 * worst64,
        "f32 {worst32:e} m vs f64 {worst64:e} m"
    );
    let mut again = f64_world(&model).unwrap();
    compare("f64 cube", &model, &mut again, 5000, 250);
}

/// The parity scenes of `tests/integration/parity.rs` in f64: springs of every law (both integrators), a
/// lattice with friction, actuators, a fixed mass, cloth, rope, restitution, friction
/// oscillators.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_parity_scenes() {
    let mut lattice = scenes::lattice(4, 0.005, Friction::coulomb(0.6, 0.4));
    for m in &mut lattice.masses {
        m.velocity = DVec3::new(0.4, 0.1, -0.2);
    }
    let all: Vec<(&str, Model, u64)> = vec![
        ("bouncing cube", scenes::bouncing_cube(), 5000),
        ("lattice with friction", lattice, 3000),
        ("breathing cube", scenes::breathing_cube(), 4000),
        ("pendulum", scenes::pendulum(), 5000),
        ("cloth", scenes::cloth(10, 8), 4000),
        ("rope", scenes::rope(30), 5000),
        ("image body", scenes::image_body(), 4000),
        ("inchworm", scenes::inchworm(), 5000),
        ("walker", scenes::walker_file(), 4000),
        ("all laws", scenes::all_laws(false), 4000),
        ("all laws, explicit Euler", scenes::all_laws(true), 4000),
    ];
    for (name, model, steps) in all {
        let Some(mut gpu) = f64_world(&model) else {
            return;
        };
        compare(&format!("f64 {name}"), &model, &mut gpu, steps, 250);
    }
}

/// A body built from a material (Dragon Skin 10, bonds damped at 5 %: springs, masses and
/// damping that differ between inner and surface ones) dropped on the ground with friction: the
/// GPU World in f64 follows the CPU reference within `compare`'s derived bounds, as any model.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_material_body_matches_the_cpu() {
    let material = hooke::Material::named("dragon_skin_10")
        .unwrap()
        .with_damping_ratio(0.05);
    let body = VoxelBody {
        voxel_size: 0.02,
        ..VoxelBody::lattice(3, 3, 2)
    }
    .made_of(material);
    let mut model = Model::new(Params {
        friction: Friction::coulomb(0.6, 0.4),
        ..Params::default()
    });
    let placement = Placement::at(DVec3::new(0.0, 0.0, 0.02))
        .with_rotation(DVec3::new(0.2, 0.1, 0.0))
        .with_velocity(DVec3::new(0.3, 0.0, -0.5));
    model.add("silicone", body.build_at(&placement).unwrap());
    model.params.dt = 0.5 * model.stable_dt().dt;
    let Some(mut gpu) = f64_world(&model) else {
        return;
    };
    compare("f64 material body", &model, &mut gpu, 3000, 250);
}

/// Every obstacle kind (heightfield samples in f64 too) and every collision scene, in f64.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_obstacles_and_collisions() {
    let obstacles = scenes::obstacle_scenes()
        .into_iter()
        .map(|(n, m)| (n, m, 4000));
    let collisions = collision_scenes::collision_scenes()
        .into_iter()
        .map(|(n, m)| (n, m, 3000));
    for (name, model, steps) in obstacles.chain(collisions) {
        let Some(mut gpu) = f64_world(&model) else {
            return;
        };
        compare(&format!("f64 {name}"), &model, &mut gpu, steps, 250);
    }
}

/// The setters in f64 against the same edits on the CPU: external force, fixing a mass, a rest
/// length, an actuator, the drag spring, and a reset in the middle.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_setters_match_the_cpu() {
    let model = scenes::breathing_cube();
    let Some(mut gpu) = f64_world(&model) else {
        return;
    };
    let actuator = model.actuators[0];
    let edit = move |done: u64, target: Target<'_>| {
        let faster = Actuator {
            omega: actuator.omega * 1.5,
            ..actuator
        };
        let drag = DragSpring {
            mass: 3,
            target: DVec3::new(0.1, 0.0, 0.4),
            stiffness: 50.0,
            damping: 0.5,
        };
        macro_rules! apply {
            ($w:expr) => {
                match done {
                    250 => $w.set_external_force(1, DVec3::new(0.5, 0.0, 2.0)).unwrap(),
                    500 => $w.set_rest_length(2, 0.12).unwrap(),
                    750 => $w.set_actuator(0, faster).unwrap(),
                    1000 => $w.set_drag(Some(drag)).unwrap(),
                    1250 => $w.set_fixed(5, true).unwrap(),
                    1750 => $w.reset(),
                    _ => {}
                }
            };
        }
        match target {
            Target::Cpu(w) => apply!(w),
            Target::Gpu(w) => apply!(w),
        }
    };
    compare_with_edits("f64 setters", &model, &mut gpu, 2500, 250, edit);
}

/// Two f64 runs of the same scene (and a run after `reset`) are bit-identical: positions,
/// velocities and energy.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_reruns_are_bit_identical() {
    let model = scenes::inchworm();
    let Some(mut a) = f64_world(&model) else {
        return;
    };
    let mut b = f64_world(&model).unwrap();
    let run = |w: &mut World| {
        w.step(1500).unwrap();
        let e = w.energy().unwrap();
        (
            w.positions().unwrap(),
            w.velocities().unwrap(),
            e.kinetic,
            e.elastic,
            e.dissipated,
        )
    };
    let first = run(&mut a);
    assert_eq!(first, run(&mut b));
    a.reset();
    assert_eq!(first, run(&mut a));
}

/// Bodies, sensors and closed-loop commands in f64: the body reduction and the sensor readings
/// match the CPU reference after a commanded run to well below f32's resolution.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_bodies_sensors_and_commands_match_the_cpu() {
    let worm = hooke::creatures::Inchworm::default().build().unwrap();
    let mut model = worm.herd(3, 1.0).unwrap();
    for a in &mut model.actuators {
        a.commanded = true;
    }
    let Some(mut gpu) = f64_world(&model) else {
        return;
    };
    let mut cpu = CpuWorld::new(&model).unwrap();
    let spec = hooke::SensorSpec {
        bodies: vec![0, 1, 2],
        orientation: true,
        contacts: (0..model.masses.len()).step_by(7).collect(),
        springs: (0..model.springs.len()).step_by(5).collect(),
    };
    for k in 0..6 {
        let commands: Vec<f64> = (0..gpu.commanded_count())
            .map(|i| 0.1 * ((k * 7 + i) as f64 * 0.37).sin())
            .collect();
        gpu.set_commands(&commands).unwrap();
        cpu.set_commands(&commands).unwrap();
        gpu.step(200).unwrap();
        cpu.step(200).unwrap();
    }
    let (gb, cb) = (gpu.bodies().unwrap(), cpu.bodies().unwrap());
    for (g, c) in gb.iter().zip(&cb) {
        assert!(
            g.centre_of_mass.distance(c.centre_of_mass) < 1e-10,
            "{g:?} vs {c:?}"
        );
        assert!(
            g.mean_velocity.distance(c.mean_velocity) < 1e-9,
            "{g:?} vs {c:?}"
        );
    }
    let (gs, cs) = (gpu.sense(&spec).unwrap(), cpu.sense(&spec).unwrap());
    for (g, c) in gs.bodies.iter().zip(&cs.bodies) {
        assert!(
            g.centre_of_mass.distance(c.centre_of_mass) < 1e-10,
            "{g:?} vs {c:?}"
        );
    }
    for (g, c) in gs.springs.iter().zip(&cs.springs) {
        assert!((g.length - c.length).abs() < 1e-10, "{g:?} vs {c:?}");
    }
}

/// In f64, without energy booking, the stencil variant sets its muscles' rest lengths before its
/// walk (`shaders/springs_stencil_muscles.wgsl`, each slot a whole f64 of its word): the
/// inchworm (its muscles in stencil slots) runs to the bits of the walk that evaluates each
/// muscle (booking on): positions, velocities and elastic energy.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn f64_muscles_set_before_the_walk_give_the_walks_bits() {
    let model = scenes::inchworm();
    if f64_world(&model).is_none() {
        return;
    }
    let world = |track_energy| {
        let options = WorldOptions {
            spring_pass: hooke::SpringPass::Stencil,
            track_energy,
            ..f64_options()
        };
        let w = common::world_with(&model, options);
        assert!(w.stats().stencil_springs > 0, "{:?}", w.stats());
        w
    };
    let run = |mut w: World| {
        w.step(1500).unwrap();
        let elastic = w.energy().unwrap().elastic;
        (w.positions().unwrap(), w.velocities().unwrap(), elastic)
    };
    let (walked, set) = (run(world(true)), run(world(false)));
    assert!(set.0 == walked.0, "positions differ");
    assert!(set.1 == walked.1, "velocities differ");
    assert_eq!(set.2, walked.2, "elastic energy differs");
}
