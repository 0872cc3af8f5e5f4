//! The fused steps kernel (`shaders/steps.wgsl`, `WorldOptions::fuse_steps`): a population whose
//! bodies do not touch runs every step of a submission in one dispatch, each workgroup stepping
//! its own bodies. It uses the passes' own functions, so it must give their bits: positions,
//! velocities, the muscles' rest lengths (through the elastic energy), across submissions and
//! calls, in both fixed-point widths and in f64; a failure in one body must stop the World at the
//! step, mass and state the two passes stop at.

use crate::common;
use common::scenes;

use hooke::prelude::*;
use hooke::{AtomicWidth, Obstacle, Precision, Shape, SpringPass, WorldOptions};

/// Whether the shared device's limits allow the fused kernel's bindings. OpenGL's 16 storage
/// buffers per shader stage do not (it binds 21): there the World runs the two passes, which the
/// tests then check it does, saying so.
fn device_fuses() -> bool {
    let steps = hooke::gpu::kernel_needs()
        .into_iter()
        .find(|k| k.kernel == "steps")
        .expect("the fused kernel is listed");
    let allowed = common::gpu()
        .0
        .limits()
        .max_storage_buffers_per_shader_stage;
    let fuses = allowed >= steps.storage_buffers;
    if !fuses {
        eprintln!(
            "the device allows {allowed} storage buffers per stage, the fused kernel binds {}: \
             checking that the World falls back to the two passes",
            steps.storage_buffers
        );
    }
    fuses
}

/// The options of a population's World (stencil variant, no energy booking) with small
/// submissions, so a call spans several.
fn options(fuse_steps: bool) -> WorldOptions {
    WorldOptions {
        spring_pass: SpringPass::Stencil,
        track_energy: false,
        steps_per_submission: 256,
        fuse_steps,
        ..WorldOptions::default()
    }
}

/// Positions, velocities and elastic energy after calls of 700 and 800 steps, with a muscle's
/// wave and another muscle's base length edited between them.
fn run(model: &Model, options: WorldOptions) -> (Vec<DVec3>, Vec<DVec3>, f64, u32) {
    let mut w = common::world_with(model, options);
    let dispatches = w.stats().dispatches_per_step;
    w.step(700).unwrap();
    let edited = hooke::Actuator {
        omega: 31.0,
        phase: 0.4,
        ..model.actuators[70]
    };
    w.set_actuator(70, edited).unwrap();
    let spring = model.actuators[200].spring as usize;
    w.set_rest_length(spring, 0.95 * model.springs[spring].rest_length)
        .unwrap();
    w.step(800).unwrap();
    let elastic = w.energy().unwrap().elastic;
    (
        w.positions().unwrap(),
        w.velocities().unwrap(),
        elastic,
        dispatches,
    )
}

/// 40 inchworms (800 masses: 40 islands, one invocation each) give the two passes' bits, edits
/// between calls included, with 64-bit and 32-bit fixed point (the latter packs x and y in one
/// 64-bit atomic, which the fused kernel reads back through the atomics).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn fused_steps_give_the_two_passes_bits() {
    let model = scenes::herd(40);
    for atomics in [AtomicWidth::Auto, AtomicWidth::Bits32] {
        let with = |fuse| WorldOptions {
            atomics,
            ..options(fuse)
        };
        let fused = run(&model, with(true));
        let passes = run(&model, with(false));
        assert_eq!(
            fused.3 == 0,
            device_fuses(),
            "{atomics:?}: the World fuses its steps where the device allows and only there"
        );
        assert_eq!(passes.3, 2);
        assert!(fused.0 == passes.0, "{atomics:?}: positions differ");
        assert!(fused.1 == passes.1, "{atomics:?}: velocities differ");
        assert_eq!(fused.2, passes.2, "{atomics:?}: elastic energy differs");
        assert!(
            fused.0.iter().any(|p| p.z > 0.0)
                && fused.0 != model.masses.iter().map(|m| m.position).collect::<Vec<_>>(),
            "the herd did not move"
        );
    }
}

/// A herd in which one inchworm's springs are too stiff for the time step (500 times: it
/// oscillates past the blow-up bound at step 22) stops the fused World at the step, mass and error
/// the two passes stop at, with every other worm's state where the two passes leave it (the
/// fused workgroups that did not fail ran on, so the submission was rerun with the passes).
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_failure_stops_the_fused_world_where_the_passes_stop() {
    let mut model = scenes::herd(40);
    let springs_per_worm = model.springs.len() / 40;
    for sp in &mut model.springs[7 * springs_per_worm..8 * springs_per_worm] {
        sp.stiffness *= 500.0;
    }
    let fail = |fuse| {
        let mut w = common::world_with(&model, options(fuse));
        w.step(10).unwrap();
        let error = w
            .step(1990)
            .expect_err("the stiff worm blows up")
            .to_string();
        let again = w
            .step(1)
            .expect_err("a stopped World refuses to step")
            .to_string();
        assert_eq!(error, again);
        (
            error,
            w.time(),
            w.positions().unwrap(),
            w.velocities().unwrap(),
        )
    };
    let (fused, passes) = (fail(true), fail(false));
    assert_eq!(fused.0, passes.0);
    assert_eq!(fused.1, passes.1, "time at the failure");
    assert!(fused.2 == passes.2, "positions differ after the failure");
    assert!(fused.3 == passes.3, "velocities differ after the failure");
    // The failure names a mass of worm 7 (masses 140-159).
    assert!(
        fused.0.contains("mass 14") || fused.0.contains("mass 15"),
        "{}",
        fused.0
    );
}

/// A herd on a tilted plane obstacle (no ground) with half of its muscles commanded, the
/// commands changed between calls, in f32 and (where the adapter has it) f64: the fused kernel
/// gives the passes' bits, obstacle contact, friction and commands included. A sensor asking
/// for contacts turns the fusion off (the kernel was compiled without contact records), and the
/// World then runs on with the passes, still with their bits.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn fused_steps_with_obstacles_commands_and_f64_give_the_passes_bits() {
    let mut model = scenes::herd(12);
    let contact = model.params.contact;
    let friction = model.params.friction;
    model.params.contact = Contact::None;
    let normal = DVec3::new(0.05, 0.0, 1.0);
    model.add_obstacle(Obstacle::new(
        Shape::Plane {
            normal,
            offset: 0.0,
        },
        contact,
        friction,
    ));
    for a in model.actuators.iter_mut().step_by(2) {
        a.commanded = true;
    }
    let f64_ok = common::gpu()
        .0
        .features()
        .contains(wgpu::Features::SHADER_F64);
    let mut precisions = vec![Precision::F32];
    if f64_ok {
        precisions.push(Precision::F64);
    } else {
        eprintln!("f64 part skipped: the adapter has no SHADER_F64");
    }
    for precision in precisions {
        let go = |fuse| {
            let mut w = common::world_with(
                &model,
                WorldOptions {
                    precision,
                    ..options(fuse)
                },
            );
            assert_eq!(
                w.stats().dispatches_per_step == 0,
                fuse && device_fuses(),
                "{precision:?}"
            );
            let n = w.commanded_count();
            for tick in 0..4 {
                let c: Vec<f64> = (0..n)
                    .map(|i| 0.05 * ((i + tick) % 3) as f64 - 0.05)
                    .collect();
                w.set_commands(&c).unwrap();
                w.step(300).unwrap();
            }
            let before = (w.positions().unwrap(), w.velocities().unwrap());
            let spec = hooke::SensorSpec {
                contacts: vec![0, 1, 2],
                ..hooke::SensorSpec::default()
            };
            let readings = w.sense(&spec).unwrap();
            w.step(300).unwrap();
            let stats = w.stats().dispatches_per_step;
            (
                before,
                readings.contacts.len(),
                w.positions().unwrap(),
                stats,
            )
        };
        let (fused, passes) = (go(true), go(false));
        assert!(fused.0 .0 == passes.0 .0, "{precision:?}: positions differ");
        assert!(
            fused.0 .1 == passes.0 .1,
            "{precision:?}: velocities differ"
        );
        assert_eq!(fused.1, 3);
        assert_eq!(fused.3, 2, "contacts turn the fusion off");
        assert!(
            fused.2 == passes.2,
            "{precision:?}: positions differ after sensing"
        );
    }
}

/// Regression: lavapipe ends every loop of an invocation early, silently, once the invocation
/// has run 65 535 loop iterations in all, and a fused dispatch of a whole 1 024-step submission
/// passed that (an inchworm takes ~100 iterations a step: wrong from step ~650). Dispatches are
/// now cut to stay under it: one call of 2 000 steps with the default submissions keeps the
/// passes' bits.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_long_fused_dispatch_is_not_cut_short_by_lavapipes_loop_limit() {
    let model = scenes::herd(8);
    let go = |fuse_steps| {
        let options = WorldOptions {
            spring_pass: SpringPass::Stencil,
            track_energy: false,
            fuse_steps,
            ..WorldOptions::default()
        };
        let mut w = common::world_with(&model, options);
        assert_eq!(w.stats().steps_per_submission, 1024);
        w.step(2000).unwrap();
        (w.positions().unwrap(), w.velocities().unwrap())
    };
    let (fused, passes) = (go(true), go(false));
    assert!(fused.0 == passes.0, "positions differ");
    assert!(fused.1 == passes.1, "velocities differ");
}
