//! The buckling load of the cantilever column (clamped root, axial load at the free end), read
//! off its lateral stiffness at two loads below it.

use std::f64::consts::PI;

use hooke::prelude::*;

use super::beam_theory::{self, length, NU, THICKNESS};
use super::cantilever::{clamped, tip_deflection};
use super::{face_share, material, Backend};

/// The two axial loads, as fractions of the Engesser reference load, at which the lateral
/// stiffness is measured.
pub(crate) const LOADS: [f64; 2] = [0.3, 0.6];

/// What one column measured.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BucklingRun {
    /// Cells across the thickness (and the width).
    pub(crate) across: u32,
    /// The lateral stiffness at the tip (N/m) at each of [`LOADS`].
    pub(crate) stiffness: [f64; 2],
    /// The buckling load (N) the two stiffnesses give ([`fitted_buckling_load`]).
    pub(crate) load: f64,
    /// The largest relative change of a deflection over the last `5 / omega` of settling.
    pub(crate) drift: f64,
}

/// The lateral tip load (N): the one that deflects the unloaded Euler-Bernoulli column by
/// `L / 10^4`, `2.5 L / 10^4` at 60 % of its buckling load.
fn lateral_load() -> f64 {
    3.0 * beam_theory::bending_stiffness() * 1e-4 / length().powi(2)
}

/// The column of `across` cells across on `backend` at the axial load `load` (N) with the lateral tip load
/// [`lateral_load`], settled: its lateral stiffness (N/m) and drift.
///
/// The column starts in the uniform state of the axial load (strain `-P / (E A)` along x and
/// `nu P / (E A)` across, about the section's centre), which the cell-by-cell lattice holds in
/// equilibrium exactly (the patch test), so only the bending is left to settle. Damping:
/// `gamma = 2 omega_P`, `omega_P = omega_1 sqrt(1 - P / P_ref)` the loaded column's first mode
/// (the beam-column's first-mode estimate), as in [`super::cantilever::cantilever`].
fn lateral_stiffness(backend: &Backend, across: u32, load: f64) -> (f64, f64) {
    let (_, reference) = beam_theory::buckling_load();
    let omega_1 = 2.0 * PI * beam_theory::first_mode(material().density).timoshenko();
    let omega = omega_1 * (1.0 - load / reference).sqrt();
    let (mut model, rest) = clamped(across, 2.0 * omega);
    let strain = load / (material().young_modulus * THICKNESS * THICKNESS);
    let centre = DVec3::new(0.0, THICKNESS / 2.0, THICKNESS / 2.0);
    for m in &mut model.masses {
        let d = m.position - centre;
        m.position = centre
            + DVec3::new(
                m.position.x * (1.0 - strain) - centre.x,
                d.y * (1.0 + NU * strain),
                d.z * (1.0 + NU * strain),
            );
    }
    let mut world = backend.world(&model);
    let a = THICKNESS / f64::from(across);
    for (i, p) in rest.iter().enumerate() {
        if let Some(share) = face_share(*p, length(), a, THICKNESS) {
            let force = DVec3::new(-load, 0.0, -lateral_load()) * share;
            world.set_external_force(i, force).expect("force");
        }
    }
    world.step_for(20.0 / omega).expect("settle");
    let before = tip_deflection(&rest, &world.positions().expect("positions"));
    world.step_for(5.0 / omega).expect("settle");
    let deflection = tip_deflection(&rest, &world.positions().expect("positions"));
    (
        lateral_load() / deflection,
        (deflection - before).abs() / deflection,
    )
}

/// The buckling load (N) of the column whose lateral stiffness is `k1` at the axial load `p1`
/// and `k2` at `p2` (N/m, N): the `P_c` for which beam-column theory's stiffness ratio
/// `k(p1) / k(p2)` ([`beam_theory::lateral_stiffness_ratio`] at `p / P_c`) is the measured one,
/// by bisection. The column's bending stiffness drops out, so a lattice whose `E I` is off still
/// gets its own buckling load.
pub(crate) fn fitted_buckling_load(p1: f64, k1: f64, p2: f64, k2: f64) -> f64 {
    let ratio = |pc: f64| {
        beam_theory::lateral_stiffness_ratio(p1 / pc)
            / beam_theory::lateral_stiffness_ratio(p2 / pc)
    };
    let target = k1 / k2;
    // The ratio falls from infinity at pc = p2 towards 1 as pc grows.
    let (mut lo, mut hi) = (p2 * (1.0 + 1e-12), p2 * 1e3);
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if ratio(mid) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo * hi).sqrt()
}

/// The column of `across` cells across on `backend` measured at [`LOADS`] and its buckling
/// load.
pub(crate) fn buckling(backend: &Backend, across: u32) -> BucklingRun {
    let (_, reference) = beam_theory::buckling_load();
    let [p1, p2] = LOADS.map(|q| q * reference);
    let (k1, d1) = lateral_stiffness(backend, across, p1);
    let (k2, d2) = lateral_stiffness(backend, across, p2);
    BucklingRun {
        across,
        stiffness: [k1, k2],
        load: fitted_buckling_load(p1, k1, p2, k2),
        drift: d1.max(d2),
    }
}
