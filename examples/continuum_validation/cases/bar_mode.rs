//! A free bar's first longitudinal mode: the wave speed `sqrt(E / rho)`.

use std::f64::consts::PI;

use hooke::prelude::*;

use super::{bar, crossing_frequency, face_mean, wave_speed, zero_crossings, Backend};

/// The bar's side b (m); it is `8 b` long.
pub(crate) const SIDE: f64 = 0.01;

/// The bar's length L (m).
pub(crate) const LENGTH: f64 = 8.0 * SIDE;

/// The first longitudinal mode of a free bar of `across` cells square and `8 across` long on
/// `backend`, in Hz: started from the mode's shape `u_x = U cos(pi x / L)` at strain amplitude 1e-4 and at
/// rest, undamped; the period from 21 zero crossings of the bar's elongation (ten periods), so
/// that the higher modes the start excites a little average out.
pub(crate) fn first_longitudinal_mode(backend: &Backend, across: u32) -> f64 {
    let a = SIDE / f64::from(across);
    let mut model = bar([8 * across, across, across], a, 0.0);
    let rest: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
    let amplitude = 1e-4 * LENGTH / PI;
    for m in &mut model.masses {
        m.position.x += amplitude * (PI * m.position.x / LENGTH).cos();
    }
    let mut world = backend.world(&model);
    let period = 2.0 * LENGTH / wave_speed();
    let crossings = zero_crossings(world.as_mut(), 21, 11.0 * period, |now| {
        face_mean(&rest, now, 0, LENGTH) - face_mean(&rest, now, 0, 0.0) - LENGTH
    });
    crossing_frequency(&crossings)
}

/// The reference: `c / (2 L)` with Rayleigh's correction for the lateral inertia of a bar of
/// Poisson's ratio `nu` and polar radius of gyration `r` (`r^2 = b^2 / 6` for a square of side
/// b): `f = c / (2 L) (1 - nu^2 (pi r / L)^2 / 2)`, 8.0e-4 below `c / (2 L)` at `b / L = 1 / 8`.
pub(crate) fn reference() -> f64 {
    let nu = super::beam_theory::NU;
    let r2 = SIDE * SIDE / 6.0;
    let k2 = (PI / LENGTH).powi(2);
    wave_speed() / (2.0 * LENGTH) * (1.0 - nu * nu * k2 * r2 / 2.0)
}

/// The chain estimate of the error: lumped masses on a chain of springs exact for a uniform
/// strain give `omega = (2 c / a) sin(k a / 2)`, low by `(k a)^2 / 24 = (pi a / L)^2 / 24`.
pub(crate) fn chain_error(across: u32) -> f64 {
    (PI * SIDE / f64::from(across) / LENGTH).powi(2) / 24.0
}
