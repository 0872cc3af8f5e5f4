//! The validation cases against continuum mechanics, shared by the example that plots them and
//! the tests that assert on them (`tests/integration/continuum.rs` includes this module): bars
//! and beams of one [`Material`] built as voxel bodies on the CPU reference, each measured at a
//! given number of cells across its thickness.

pub(crate) mod bar_mode;
pub(crate) mod beam_theory;
pub(crate) mod buckling;
pub(crate) mod cantilever;
pub(crate) mod tension;

use hooke::prelude::*;
use hooke::Material;

/// The material of every case: E = 1 MPa, rho = 1000 kg/m^3, so c = sqrt(E / rho) = 31.6 m/s.
pub(crate) fn material() -> Material {
    Material::new(1.0e6, 1000.0)
}

/// The longitudinal wave speed `sqrt(E / rho)` of [`material`], in m/s.
pub(crate) fn wave_speed() -> f64 {
    (material().young_modulus / material().density).sqrt()
}

/// A box of `cells` voxels of edge `a` (m) along x, y, z, weightless and without ground contact,
/// its corner at (0, 0, 1) m, with the velocity damping `velocity_damping` (1/s) and half the
/// stable time step (closer to the limit, the damped integrator's fastest modes decay slowly).
pub(crate) fn bar(cells: [u32; 3], a: f64, velocity_damping: f64) -> Model {
    let body = VoxelBody {
        voxel_size: a,
        ..VoxelBody::lattice(cells[0], cells[1], cells[2])
    }
    .made_of(material());
    let part = body
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 1.0)))
        .expect("bar");
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        velocity_damping,
        contact: Contact::None,
        ..Params::default()
    });
    model.add("bar", part);
    model.params.dt = 0.5 * model.stable_dt().dt;
    model
}

/// The mean of coordinate `axis` over the masses whose rest coordinate on that axis is `at`.
pub(crate) fn face_mean(rest: &[DVec3], now: &[DVec3], axis: usize, at: f64) -> f64 {
    let on: Vec<f64> = rest
        .iter()
        .zip(now)
        .filter(|(r, _)| (r[axis] - at).abs() < 1e-9)
        .map(|(_, p)| p[axis])
        .collect();
    on.iter().sum::<f64>() / on.len() as f64
}

/// The fraction of the face `x = at` of a `b x b` cross-section (y from 0, z from 1 m) that the
/// node at rest position `p` stands for, or `None` off that face: `(a / b)^2` inside the face,
/// half on its edges, a quarter at its corners, so that a load spread by these fractions is a
/// uniform traction (the patch test's consistent loads).
pub(crate) fn face_share(p: DVec3, at: f64, a: f64, b: f64) -> Option<f64> {
    if (p.x - at).abs() > 1e-9 {
        return None;
    }
    let weight = |x: f64, lo: f64| {
        if (x - lo).abs() < 1e-9 || (x - lo - b).abs() < 1e-9 {
            0.5
        } else {
            1.0
        }
    };
    Some((a / b).powi(2) * weight(p.y, 0.0) * weight(p.z, 1.0))
}

/// The first `count` times (s) at which `signal` crosses zero while a world steps (at most to
/// the time `until`, s), each interpolated linearly between the steps around it.
pub(crate) fn zero_crossings(
    world: &mut CpuWorld,
    count: usize,
    until: f64,
    signal: impl Fn(&CpuWorld) -> f64,
) -> Vec<f64> {
    let mut crossings = Vec::new();
    let (mut t0, mut s0) = (world.time(), signal(world));
    while crossings.len() < count && world.time() < until {
        world.step(1).expect("step");
        let (t1, s1) = (world.time(), signal(world));
        if s0 * s1 < 0.0 {
            crossings.push(t0 + (t1 - t0) * s0 / (s0 - s1));
        }
        (t0, s0) = (t1, s1);
    }
    crossings
}

/// The frequency (Hz) of an oscillation from its zero crossings: `m` half periods between the
/// first and the last.
pub(crate) fn crossing_frequency(crossings: &[f64]) -> f64 {
    assert!(
        crossings.len() >= 3,
        "too few zero crossings: {crossings:?}"
    );
    let half_periods = (crossings.len() - 1) as f64;
    half_periods / (2.0 * (crossings[crossings.len() - 1] - crossings[0]))
}
