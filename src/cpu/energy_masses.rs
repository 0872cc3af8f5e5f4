//! Kinetic, gravitational and ground-penalty energy of the masses, CPU twin of
//! `shaders/energy_masses.wgsl` (whose other job, reducing the integrate pass's energy slots, the
//! CPU does not need: it books dissipated and injected work directly in f64).

use glam::DVec3;

use super::obstacles::{obstacle_energy, Solids};
use crate::energy::Energy;
use crate::model::{Contact, Params};

/// The kinetic, gravity and ground terms (J) of masses `mass` (kg) at `positions` (m) moving at
/// `velocities` (m/s), summed in mass order; the other terms are 0. The ground term includes the
/// penalty energy of the `obstacles`.
pub(super) fn energy_masses(
    params: &Params,
    obstacles: &Solids,
    mass: &[f64],
    positions: &[DVec3],
    velocities: &[DVec3],
) -> Energy {
    let g = params.gravity;
    let mut e = Energy::default();
    let kc = match params.contact {
        Contact::Penalty { stiffness, .. } => stiffness,
        _ => 0.0,
    };
    for ((&m, &p), &v) in mass.iter().zip(positions).zip(velocities) {
        e.kinetic += 0.5 * m * v.length_squared();
        e.gravity -= m * g.dot(p);
        if p.z < 0.0 {
            e.ground += 0.5 * kc * p.z * p.z;
        }
        if !obstacles.solids.is_empty() {
            e.ground += obstacle_energy(obstacles, p);
        }
    }
    e
}
