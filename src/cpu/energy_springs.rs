//! Elastic energy of the springs, CPU twin of `shaders/energy_springs.wgsl` (whose other job,
//! reducing the spring pass's energy slots, the CPU does not need: it books dissipated and
//! injected work directly in f64).

use glam::DVec3;

use super::tables::SpringArrays;
use crate::model::spring_law::{elastic, shadow_elastic};

/// Elastic energy (J) of spring `s` at its current rest length, its masses at `positions` (m).
pub(super) fn spring_energy(sp: &SpringArrays, positions: &[DVec3], s: usize) -> f64 {
    energy_at(sp, sp.rest[s], positions, s)
}

/// Elastic energy (J) of spring `s` at rest length `rest` (m), its masses at `positions` (m).
fn energy_at(sp: &SpringArrays, rest: f64, positions: &[DVec3], s: usize) -> f64 {
    let [a, b] = sp.ends[s];
    let len = positions[a as usize].distance(positions[b as usize]);
    elastic(sp.params(s).k_eff(rest), rest, len)
}

/// Elastic energy (J) of every spring at rest lengths `rest` (m), summed in spring order.
pub(super) fn energy_springs(sp: &SpringArrays, rest: &[f64], positions: &[DVec3]) -> f64 {
    (0..sp.len())
        .map(|s| energy_at(sp, rest[s], positions, s))
        .sum()
}

/// The springs' share of semi-implicit Euler's shadow energy (J) at rest lengths `rest` (m),
/// positions and velocities `state` and step `dt` (s), summed in spring order
/// ([`shadow_elastic`]; a spring of zero length lengthens at 0 m/s): what a muscle's
/// rest-length change is booked as, in a step (`actuation.rs`) or in an edit that brings the
/// muscles to the current time.
pub(super) fn shadow_energy_springs(
    sp: &SpringArrays,
    rest: &[f64],
    state: (&[DVec3], &[DVec3]),
    dt: f64,
) -> f64 {
    (0..sp.len())
        .map(|s| {
            let [len, vrel] = length_and_rate(sp.ends[s], state);
            shadow_elastic(sp.params(s).k_eff(rest[s]), rest[s], len, vrel, dt)
        })
        .sum()
}

/// The length (m) and rate of lengthening (m/s) of the spring joining masses `ends` at
/// positions and velocities `state`; a spring of zero length has no direction, and its rate is
/// taken as 0.
pub(super) fn length_and_rate(ends: [u32; 2], state: (&[DVec3], &[DVec3])) -> [f64; 2] {
    let (pos, vel) = state;
    let [a, b] = ends.map(|m| m as usize);
    let d = pos[a] - pos[b];
    let len = d.length();
    let vrel = if len > 0.0 {
        (vel[a] - vel[b]).dot(d / len)
    } else {
        0.0
    };
    [len, vrel]
}
