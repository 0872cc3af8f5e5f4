//! Uniaxial tension of bars meshed in tetrahedra, at three refinements, on the CPU reference:
//! the regular lattice of [`TetMesh::box_lattice`] against its derived stiffness (`6 E / 5`
//! and Poisson's ratio 1/5 along its axes), and the same lattice with its nodes moved at random
//! (an irregular mesh) against the material's `E`.

use glam::DVec3;
use hooke::builders::{Builder, Placement, SplitMix64, TetMesh, TetMeshBody};
use hooke::prelude::*;
use hooke::{Contact, Material};

/// The material: E = 1 MPa, rho = 1000 kg/m^3.
fn material() -> Material {
    Material::new(1.0e6, 1000.0)
}

/// Side of the bar's square section, m; the bar is `2 B` long along x.
const B: f64 = 0.02;

/// What a tension test measured.
#[derive(Clone, Copy, Debug)]
struct Tension {
    /// `sigma / eps_x`, Pa.
    young_modulus: f64,
    /// `-eps_y / eps_x`.
    poisson_ratio: f64,
}

/// The bar `2B x B x B` of `across` cubes across, cut into five tetrahedra each, its nodes moved
/// at random by up to `jitter` cube edges along each axis that keeps them on their faces (seed
/// fixed: the same mesh on every run).
fn bar_mesh(across: u32, jitter: f64) -> TetMesh {
    let a = B / f64::from(across);
    let mut mesh = TetMesh::box_lattice([2 * across, across, across], a).unwrap();
    let mut random = SplitMix64::new(0x7e7_0001);
    let hi = DVec3::new(2.0 * B, B, B);
    for p in &mut mesh.nodes {
        for axis in 0..3 {
            let on_face = p[axis].abs() < 1e-12 || (p[axis] - hi[axis]).abs() < 1e-12;
            let r = random.next_f64() * 2.0 - 1.0;
            if !on_face {
                p[axis] += jitter * a * r;
            }
        }
    }
    TetMesh::new(mesh.nodes, mesh.tetrahedra).unwrap()
}

/// The bar of `mesh` with its end faces pulled apart by the stress `stress` (Pa), each end node
/// loaded by a third of the area of its boundary triangles on the face (the consistent load of
/// a uniform traction), damped to rest.
///
/// Damping: velocity damping `2 omega_1`, `omega_1 = pi c / L` the first longitudinal mode of a
/// continuum bar of modulus `6 E / 5` (the stiffest the lattice is), critical for it; every
/// mode of the bar decays at least at `0.56 omega_1` (as in the voxel bars' test,
/// `examples/continuum_validation/cases/tension.rs`), so 60 / omega_1 leaves `e^-34` of the
/// start.
fn tension(mesh: &TetMesh, stress: f64) -> Tension {
    let length = 2.0 * B;
    let speed = (1.2 * material().young_modulus / material().density).sqrt();
    let omega_1 = std::f64::consts::PI * speed / length;
    let part = TetMeshBody::new("bar.msh", material()).part(mesh).unwrap();
    let mut model = Model::new(Params {
        gravity: DVec3::ZERO,
        velocity_damping: 2.0 * omega_1,
        contact: Contact::None,
        ..Params::default()
    });
    model.add("bar", part);
    model.params.dt = 0.5 * model.stable_dt().dt;
    let mut world = CpuWorld::new(&model).unwrap();
    let mut load = vec![0.0; mesh.nodes.len()];
    for t in mesh.boundary_triangles() {
        let [p, q, r] = t.map(|i| mesh.nodes[i as usize]);
        for (at, sign) in [(0.0, -1.0), (length, 1.0)] {
            if [p, q, r].iter().all(|v| (v.x - at).abs() < 1e-12) {
                let area = (q - p).cross(r - p).length() / 2.0;
                for i in t {
                    load[i as usize] += sign * stress * area / 3.0;
                }
            }
        }
    }
    for (i, &f) in load.iter().enumerate() {
        if f != 0.0 {
            world.set_external_force(i, DVec3::X * f).unwrap();
        }
    }
    world.step_for(60.0 / omega_1).unwrap();
    let now = world.positions().unwrap();
    let mean = |axis: usize, at: f64| {
        let on: Vec<f64> = mesh
            .nodes
            .iter()
            .zip(&now)
            .filter(|(r, _)| (r[axis] - at).abs() < 1e-12)
            .map(|(_, p)| p[axis])
            .collect();
        on.iter().sum::<f64>() / on.len() as f64
    };
    let eps_x = (mean(0, length) - mean(0, 0.0)) / length - 1.0;
    let eps_y = (mean(1, B) - mean(1, 0.0)) / B - 1.0;
    Tension {
        young_modulus: stress / eps_x,
        poisson_ratio: -eps_y / eps_x,
    }
}

#[test]
fn a_regular_tetrahedral_bar_stretches_as_its_lattice_predicts() {
    let e = material().young_modulus;
    let strain = 1e-4;
    println!("| cubes across | E_eff / E | E_eff / (6 E / 5) - 1 | nu_eff - 1/5 |");
    for across in [1, 2, 4] {
        let t = tension(&bar_mesh(across, 0.0), strain * e);
        let de = t.young_modulus / (1.2 * e) - 1.0;
        let dnu = t.poisson_ratio - 0.2;
        println!(
            "| {across} | {:.4} | {de:.2e} | {dnu:.2e} |",
            t.young_modulus / e
        );
    }
}

#[test]
fn an_irregular_tetrahedral_bar_approximates_young_modulus() {
    let e = material().young_modulus;
    let strain = 1e-4;
    println!("| cubes across | E_eff / E - 1 | nu_eff |");
    for across in [1, 2, 4] {
        let t = tension(&bar_mesh(across, 0.25), strain * e);
        println!(
            "| {across} | {:.2e} | {:.4} |",
            t.young_modulus / e - 1.0,
            t.poisson_ratio
        );
    }
}
