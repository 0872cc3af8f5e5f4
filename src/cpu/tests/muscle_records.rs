//! The muscles' share of a step (`actuation.rs`, `chunk_actuators.rs`) against each actuator's
//! own rest length.

use glam::DVec3;

use super::super::CpuWorld;
use crate::model::{Actuator, DutyCycle, Mass, Model, Params, Part, Spring, SpringLaw};

/// The rest lengths a step uses, set from the compact per-chunk muscle records, are each
/// actuator's own `Actuator::rest_length_with`, bit for bit: sine actuators with and without
/// duty cycles sharing and not sharing waves, commanded ones, an actuated zero-length spring
/// (rest length 0), and a spring driven by a sine then a commanded actuator (the later one
/// wins); with energy booking on and off.
#[test]
fn muscle_records_give_each_actuators_own_rest_length() {
    let mut part = Part::new();
    for i in 0..9 {
        part.add_mass(Mass::new(1.0, DVec3::new(0.1 * f64::from(i), 0.0, 1.0)));
    }
    for i in 0..8 {
        part.springs
            .push(Spring::hooke(i, i + 1, 1e3, 0.1 + 0.01 * f64::from(i)));
    }
    part.springs[3].law = SpringLaw::ZeroLength;
    let duty = DutyCycle {
        active: 0.03,
        rest: 0.02,
        offset: 0.01,
    };
    let sine = |spring: u32, phase: f64, duty: Option<DutyCycle>| Actuator {
        spring,
        amplitude: 0.05 + 0.01 * f64::from(spring),
        omega: 40.0,
        phase,
        duty,
        commanded: false,
    };
    part.actuators = vec![
        sine(0, 0.0, None),
        sine(1, 0.0, None),
        sine(2, 0.3, Some(duty)),
        sine(3, 0.1, None),
        sine(5, 0.3, Some(duty)),
        Actuator::commanded(6, 0.2),
        sine(7, 0.7, None),
        Actuator::commanded(7, -0.1),
    ];
    let actuators = part.actuators.clone();
    let base: Vec<f64> = part.springs.iter().map(|s| s.rest_length).collect();
    let mut model = Model::new(Params::default());
    model.add("chain", part);
    let commands = [0.3, -0.4];
    for book in [true, false] {
        let mut w = CpuWorld::new(&model).unwrap();
        w.set_track_energy(book);
        w.set_commands(&commands).unwrap();
        for t in [0.0, 1e-4, 0.012_345, 0.031, 0.047, 2.5] {
            w.time = t;
            w.actuate_step(None);
            let mut expected = base.clone();
            let mut slot = 0;
            for a in &actuators {
                let command = if a.commanded {
                    slot += 1;
                    commands[slot - 1]
                } else {
                    0.0
                };
                let s = a.spring as usize;
                expected[s] = a.rest_length_with(base[s], t, command);
            }
            expected[3] = 0.0;
            for (s, (g, e)) in w.springs.rest.iter().zip(&expected).enumerate() {
                assert_eq!(
                    g.to_bits(),
                    e.to_bits(),
                    "spring {s} at {t} s: {g} against {e}"
                );
            }
        }
    }
}
