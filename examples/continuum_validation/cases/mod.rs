//! The validation cases against continuum mechanics, shared by the example that plots them and
//! the tests that assert on them (`tests/integration/continuum.rs` and
//! `tests/integration/continuum_gpu.rs` include this module): bars and beams of one [`Material`]
//! built as voxel bodies, each measured at a given number of cells across its thickness on a
//! [`Backend`]: the CPU reference or the GPU World in f32 or f64, through [`Simulation`] alone.

pub(crate) mod bar_mode;
pub(crate) mod beam_theory;
pub(crate) mod buckling;
pub(crate) mod cantilever;
pub(crate) mod tension;

use hooke::prelude::*;
use hooke::{Material, Precision};

/// The world a case runs on. Every case builds its worlds with [`Backend::world`] and drives
/// them through [`Simulation`] alone, so the code measured is the same on both backends.
#[derive(Clone, Debug)]
pub(crate) enum Backend {
    /// The CPU reference ([`CpuWorld`], f64).
    Cpu,
    /// The GPU World on a device opened once, in `precision`.
    Gpu {
        /// The device every World of the run is built on.
        device: wgpu::Device,
        /// Its queue.
        queue: wgpu::Queue,
        /// The World's arithmetic.
        precision: Precision,
    },
}

impl Backend {
    /// A world of `model` on this backend.
    pub(crate) fn world(&self, model: &Model) -> Box<dyn Simulation> {
        match self {
            Self::Cpu => Box::new(CpuWorld::new(model).expect("CPU world")),
            Self::Gpu {
                device,
                queue,
                precision,
            } => {
                let options = WorldOptions {
                    precision: *precision,
                    ..WorldOptions::default()
                };
                let world = World::with_device(device.clone(), queue.clone(), model, options);
                Box::new(world.unwrap_or_else(|e| panic!("GPU World ({precision:?}): {e}")))
            }
        }
    }

    /// `cpu`, `gpu f32` or `gpu f64`: the backend as the tables and the CSV name it.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Cpu => "cpu",
            Self::Gpu {
                precision: Precision::F32,
                ..
            } => "gpu f32",
            Self::Gpu { .. } => "gpu f64",
        }
    }
}

/// The material of every case: E = 1 MPa, rho = 1000 kg/m^3, so c = sqrt(E / rho) = 31.6 m/s.
pub(crate) fn material() -> Material {
    Material::new(1.0e6, 1000.0)
}

/// The longitudinal wave speed `sqrt(E / rho)` of [`material`], in m/s.
pub(crate) fn wave_speed() -> f64 {
    (material().young_modulus / material().density).sqrt()
}

/// A box of `cells` voxels of edge `a` (m) along x, y, z, weightless and without ground contact,
/// its corner at the origin (where an f32 position's rounding, `2^-24` of the body's size, is
/// 6e-4 of the displacements of a 1e-4 strain; 1 m from the origin it would be 1.5 % of a 4 cm
/// bar's elongation and 12 % of its lateral contraction), with the velocity damping
/// `velocity_damping` (1/s) and half the stable time step (closer to the limit, the damped
/// integrator's fastest modes decay slowly).
pub(crate) fn bar(cells: [u32; 3], a: f64, velocity_damping: f64) -> Model {
    let body = VoxelBody {
        voxel_size: a,
        ..VoxelBody::lattice(cells[0], cells[1], cells[2])
    }
    .made_of(material());
    let part = body.build_at(&Placement::at(DVec3::ZERO)).expect("bar");
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

/// The fraction of the face `x = at` of a `b x b` cross-section (y and z from 0) that the
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
    Some((a / b).powi(2) * weight(p.y, 0.0) * weight(p.z, 0.0))
}

/// The first `count` times (s) at which `signal` (of the positions) crosses zero while a world
/// steps (at most to the time `until`, s), each interpolated linearly between the steps around
/// it. The positions are read after every step (on the GPU one readback each).
pub(crate) fn zero_crossings(
    world: &mut dyn Simulation,
    count: usize,
    until: f64,
    signal: impl Fn(&[DVec3]) -> f64,
) -> Vec<f64> {
    let read = |world: &dyn Simulation| signal(&world.positions().expect("positions"));
    let mut crossings = Vec::new();
    let (mut t0, mut s0) = (world.time(), read(world));
    while crossings.len() < count && world.time() < until {
        world.step(1).expect("step");
        let (t1, s1) = (world.time(), read(world));
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
