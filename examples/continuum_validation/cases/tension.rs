//! Uniaxial tension and compression of a bar: its effective Young's modulus and lateral strain
//! ratio.

use hooke::prelude::*;

use super::{bar, face_mean, face_share, wave_speed, Backend};

/// What a tension (or compression) test measured.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tension {
    /// `sigma / eps_x` (Pa).
    pub(crate) young_modulus: f64,
    /// `-eps_y / eps_x`.
    pub(crate) poisson_ratio: f64,
}

/// On `backend`, a bar of `across` cells square and `2 across` long (side b = 0.02 m), its end faces pulled
/// apart by the stress `stress` (Pa; negative compresses) spread over the end nodes by their
/// share of the face ([`face_share`]), damped to rest.
///
/// Damping: velocity damping `gamma = 2 omega_1`, `omega_1 = pi c / L` the continuum bar's
/// first longitudinal mode (the lowest the symmetric load excites), is critical for it and
/// decays every higher mode at `gamma / 2 = omega_1`. A coarse lattice's own first mode lies
/// lower (at one cell across, two along, `(2 sqrt 2 / pi) omega_1 = 0.9 omega_1` for the chain
/// alone) and is then overdamped, decaying at `omega_1 (1 - sqrt(1 - 0.81)) = 0.56 omega_1`:
/// 30 / omega_1 left a residual of 2e-4 in `E` at one cell across, 60 / omega_1 leaves
/// `e^-34 < 1e-14`.
pub(crate) fn tension(backend: &Backend, across: u32, stress: f64) -> Tension {
    let b = 0.02;
    let a = b / f64::from(across);
    let length = 2.0 * b;
    let omega_1 = std::f64::consts::PI * wave_speed() / length;
    let model = bar([2 * across, across, across], a, 2.0 * omega_1);
    let rest: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
    let mut world = backend.world(&model);
    for (i, p) in rest.iter().enumerate() {
        let end = [(0.0, -1.0), (length, 1.0)]
            .into_iter()
            .find_map(|(at, sign)| face_share(*p, at, a, b).map(|share| sign * share));
        if let Some(end) = end {
            world
                .set_external_force(i, DVec3::X * end * stress * b * b)
                .expect("force");
        }
    }
    world.step_for(60.0 / omega_1).expect("steps");
    let now = world.positions().expect("positions");
    let eps_x = (face_mean(&rest, &now, 0, length) - face_mean(&rest, &now, 0, 0.0)) / length - 1.0;
    let eps_y = (face_mean(&rest, &now, 1, b) - face_mean(&rest, &now, 1, 0.0)) / b - 1.0;
    Tension {
        young_modulus: stress / eps_x,
        poisson_ratio: -eps_y / eps_x,
    }
}
