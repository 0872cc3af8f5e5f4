//! A cantilever (`b x b x 10 b`, clamped at `x = 0`) under an end load, and its first bending
//! mode released from the loaded shape.

use std::f64::consts::PI;

use hooke::prelude::*;

use super::beam_theory::{self, length, SLENDERNESS, THICKNESS};
use super::{bar, crossing_frequency, face_share, material, zero_crossings, Backend};

/// What one cantilever measured.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CantileverRun {
    /// Cells across the thickness (and the width).
    pub(crate) across: u32,
    /// The tip's deflection at rest under [`end_load`] (m, positive along the load).
    pub(crate) deflection: f64,
    /// How much the deflection still changed over the last `5 / omega` of settling, relative.
    pub(crate) drift: f64,
    /// The first bending mode's frequency (Hz).
    pub(crate) frequency: f64,
}

/// The end load (N): the one that deflects the Euler-Bernoulli beam by `L / 1000`, small enough
/// that the geometric nonlinearity (relative order `(deflection / L)^2`) is below 1e-5.
pub(crate) fn end_load() -> f64 {
    3.0 * beam_theory::bending_stiffness() * 1e-3 / length().powi(2)
}

/// The cantilever of `across` cells across the thickness and width (`10 across` along), its
/// root face's masses fixed, with the velocity damping `velocity_damping` (1/s); and the rest
/// positions of its masses.
pub(crate) fn clamped(across: u32, velocity_damping: f64) -> (Model, Vec<DVec3>) {
    let a = THICKNESS / f64::from(across);
    let mut model = bar([SLENDERNESS * across, across, across], a, velocity_damping);
    for m in &mut model.masses {
        if m.position.x.abs() < 1e-9 {
            m.fixed = true;
        }
    }
    let rest = model.masses.iter().map(|m| m.position).collect();
    (model, rest)
}

/// The mean displacement along -z of the masses of the tip face (`x = L`), in m.
pub(crate) fn tip_deflection(rest: &[DVec3], now: &[DVec3]) -> f64 {
    let tip: Vec<f64> = rest
        .iter()
        .zip(now)
        .filter(|(r, _)| (r.x - length()).abs() < 1e-9)
        .map(|(r, p)| r.z - p.z)
        .collect();
    tip.iter().sum::<f64>() / tip.len() as f64
}

/// Settles the cantilever of `across` cells across on `backend` under [`end_load`] (spread over the tip face
/// as a uniform traction along -z), then releases it from that shape, undamped, and times its
/// first bending mode from 21 zero crossings of the tip's deflection (10 periods).
///
/// Settling: velocity damping `gamma = 2 omega` (`omega` Timoshenko's first mode) is critical
/// for the first mode and decays every higher one at `gamma / 2 = omega`, so after `20 /
/// omega` about `21 e^-20 = 4e-8` of the start is left if the lattice's mode is `omega`; the
/// run reports the change over a further `5 / omega` (`drift`) so that a lattice whose mode is
/// far from `omega` shows it.
///
/// Timing: the loaded shape is 97 % first mode at the tip (the tip load's modal shares are
/// `w_i(L)^2 / omega_i^2`: 97.1 %, 2.5 % for the second mode, 0.4 % for the rest), so the higher
/// modes move each crossing by at most `0.03 / omega`, and the frequency from the first and last
/// of 21 crossings (20 half periods) is within `2 (0.03) / (20 pi) = 1e-3`; the time step's
/// phase error `(omega dt)^2 / 24` is below 1e-8.
pub(crate) fn cantilever(backend: &Backend, across: u32) -> CantileverRun {
    let omega = 2.0 * PI * beam_theory::first_mode(material().density).timoshenko();
    let (mut model, rest) = clamped(across, 2.0 * omega);
    let mut world = backend.world(&model);
    let a = THICKNESS / f64::from(across);
    for (i, p) in rest.iter().enumerate() {
        if let Some(share) = face_share(*p, length(), a, THICKNESS) {
            world
                .set_external_force(i, -DVec3::Z * end_load() * share)
                .expect("force");
        }
    }
    world.step_for(20.0 / omega).expect("settle");
    let before = tip_deflection(&rest, &world.positions().expect("positions"));
    world.step_for(5.0 / omega).expect("settle");
    let loaded = world.positions().expect("positions");
    let deflection = tip_deflection(&rest, &loaded);
    for (m, p) in model.masses.iter_mut().zip(&loaded) {
        m.position = *p;
    }
    model.params.velocity_damping = 0.0;
    let mut free = backend.world(&model);
    let period = 2.0 * PI / omega;
    let crossings = zero_crossings(free.as_mut(), 21, 20.0 * period, |now| {
        tip_deflection(&rest, now)
    });
    CantileverRun {
        across,
        deflection,
        drift: (deflection - before).abs() / deflection,
        frequency: crossing_frequency(&crossings),
    }
}
