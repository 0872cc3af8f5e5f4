//! The mass pass in SIMD lanes (`integrate_simd.rs`) against the scalar pass, on whole worlds.

use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::CpuWorld;
use crate::model::{
    Contact, DragSpring, Friction, FrictionOscillator, FrictionRule, Integrator, Mass, Model,
    Params, Part, Spring,
};
use crate::sensors::ContactReading;

/// 61 masses near the ground (some under it, some at rest, some sliding slower than the
/// rest speed), joined in a loose chain; external forces, friction oscillators, a fixed
/// mass and a drag spring on a few; for `contact`, `rule` and `integrator`.
fn model(contact: Contact, rule: FrictionRule, integrator: Integrator, seed: u64) -> Model {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut part = Part::new();
    for i in 0..61u32 {
        let z = [-0.003, 0.0, -0.0, 0.02, rng.random_range(-0.01..0.03)][i as usize % 5];
        let p = DVec3::new(0.05 * f64::from(i), rng.random_range(-0.1..0.1), z);
        let v = match i % 4 {
            0 => DVec3::ZERO,
            1 => DVec3::new(3e-7, -2e-7, 0.0),
            _ => DVec3::new(
                rng.random_range(-1.0..1.0),
                rng.random(),
                -rng.random::<f64>(),
            ),
        };
        let mut mass = Mass::new(rng.random_range(0.05..2.0), p).with_velocity(v);
        if i % 7 == 3 {
            mass.external_force = DVec3::new(0.5, -0.2, 3.0);
        }
        if i % 6 == 1 {
            mass.friction_oscillator = Some(FrictionOscillator {
                min: 0.1,
                max: 1.2,
                omega: 30.0,
                phase: f64::from(i),
            });
        }
        if i == 20 {
            mass = mass.fixed();
        }
        part.add_mass(mass);
    }
    for i in (0..60).step_by(3) {
        part.springs
            .push(Spring::hooke(i, i + 1, 400.0, 0.05).with_damping(0.3));
    }
    let params = Params {
        contact,
        integrator,
        friction: Friction {
            static_coefficient: 0.9,
            kinetic_coefficient: 0.6,
            rest_speed: 1e-6,
            rule,
        },
        air_drag: 0.02,
        velocity_damping: 0.1,
        dt: 1e-4,
        ..Params::default()
    };
    let mut model = Model::new(params);
    model.add("beads", part);
    model
}

/// The state, contacts and energy after `steps` steps, with or without the lanes.
fn run(model: &Model, lanes: bool, steps: u64) -> (Vec<u64>, Vec<ContactReading>) {
    let mut w = CpuWorld::new(model).unwrap();
    w.set_mass_lanes(lanes);
    w.contacts = vec![ContactReading::default(); model.masses.len()];
    w.set_drag(Some(DragSpring {
        mass: 45,
        target: DVec3::new(2.0, 0.0, 0.5),
        stiffness: 30.0,
        damping: 1.0,
    }))
    .unwrap();
    w.step(steps).unwrap();
    let e = w.energy().unwrap();
    let state = w.pos.iter().chain(&w.vel).flat_map(|v| v.to_array());
    let bits = state
        .chain([e.dissipated, e.injected])
        .map(f64::to_bits)
        .collect();
    (bits, w.contacts.clone())
}

/// The mass pass in lanes gives exactly the scalar pass's positions, velocities, contacts
/// and energy totals, for every contact law, friction rule and integrator: masses under,
/// on and over the ground, at rest, sliding below the rest speed and moving; friction
/// oscillators, external forces, a fixed mass and a drag spring (blocks with those run one
/// by one), and a last partial block.
#[test]
fn mass_pass_in_lanes_gives_the_scalar_bits() {
    let contacts = [
        Contact::Penalty {
            stiffness: 1e4,
            damping: 5.0,
        },
        Contact::Restitution { restitution: 0.4 },
        Contact::None,
    ];
    for (k, &contact) in contacts.iter().enumerate() {
        for rule in [FrictionRule::Coulomb, FrictionRule::Naive] {
            for integrator in [Integrator::SemiImplicitEuler, Integrator::ExplicitEuler] {
                let model = model(contact, rule, integrator, k as u64);
                let (lanes, touch) = run(&model, true, 300);
                let (scalar, touch_scalar) = run(&model, false, 300);
                let what = format!("{contact:?}, {rule:?}, {integrator:?}");
                assert!(lanes == scalar, "{what}: state or energy differs");
                assert_eq!(touch, touch_scalar, "{what}: contacts differ");
                let touching = touch.iter().filter(|c| c.touching).count();
                let expected = !matches!(contact, Contact::None);
                assert_eq!(touching > 0, expected, "{what}: {touching} touching");
            }
        }
    }
}
