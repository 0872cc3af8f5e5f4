//! Elastic energy of the springs, CPU twin of `shaders/energy_springs.wgsl` (whose other job,
//! reducing the spring pass's energy slots, the CPU does not need: it books dissipated and
//! injected work directly in f64).

use glam::DVec3;

use super::tables::SpringArrays;
use crate::model::spring_law::elastic;

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
