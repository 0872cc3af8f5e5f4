//! Uniaxial tension of bars meshed in tetrahedra, at three refinements, on the CPU reference:
//! the regular lattice of [`TetMesh::box_lattice`] against its derived stiffness (`6 E / 5`
//! and Poisson's ratio 1/5 along its axes), and the same lattice with its nodes moved at random
//! (an irregular mesh) against the material's `E`.

use glam::DVec3;
use hooke::builders::{SplitMix64, TetMesh, TetMeshBody};
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
    // The end faces' displacement weighted by the load (the work-conjugate of the stress, so
    // the energy bounds below apply to it); the sides' mean position, unweighted.
    let end = |sign: f64| {
        let on = load.iter().zip(&now).filter(|(f, _)| **f * sign > 0.0);
        let (sum, weight) = on.fold((0.0, 0.0), |(s, w), (f, p)| (s + f * p.x, w + f));
        sum / weight
    };
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
    let eps_x = (end(1.0) - end(-1.0)) / length - 1.0;
    let eps_y = (mean(1, B) - mean(1, 0.0)) / B - 1.0;
    Tension {
        young_modulus: stress / eps_x,
        poisson_ratio: -eps_y / eps_x,
    }
}

/// The 6 x 6 matrix (Voigt order xx, yy, zz, yz, xz, xy, engineering shears) of one
/// tetrahedron's springs under a homogeneous strain, per unit volume and per unit `E`: each
/// edge of direction `n` holds `(E V / L^2) L^2 (n . eps n)^2 / 2`, so `C_t = sum_e v v^T` with
/// `v = (nx^2, ny^2, nz^2, ny nz, nx nz, nx ny)`.
fn tet_stiffness(mesh: &TetMesh, t: usize) -> [[f64; 6]; 6] {
    let p = mesh.corners(t);
    let mut c = [[0.0; 6]; 6];
    for (i, j) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        let n = (p[j] - p[i]).normalize();
        let v = [
            n.x * n.x,
            n.y * n.y,
            n.z * n.z,
            n.y * n.z,
            n.x * n.z,
            n.x * n.y,
        ];
        for r in 0..6 {
            for k in 0..6 {
                c[r][k] += v[r] * v[k];
            }
        }
    }
    c
}

/// The inverse of a symmetric positive definite 6 x 6 matrix (Gauss-Jordan, partial pivoting).
fn inverse(m: [[f64; 6]; 6]) -> [[f64; 6]; 6] {
    let mut a = m;
    let mut inv = [[0.0; 6]; 6];
    for (i, row) in inv.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    for col in 0..6 {
        let pivot = (col..6)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        assert!(d.abs() > 1e-12, "singular stiffness: {m:?}");
        for k in 0..6 {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for r in 0..6 {
            if r != col {
                let f = a[r][col];
                for k in 0..6 {
                    a[r][k] -= f * a[col][k];
                    inv[r][k] -= f * inv[col][k];
                }
            }
        }
    }
    inv
}

/// The bounds on the bar's modulus along x that the mesh itself sets, in units of `E`: Reuss's
/// `1 / <S>_xx` (a uniform stress is statically admissible, so the compliance is at most the
/// volume average of the tetrahedra's compliances) and Voigt's `1 / (<C>^-1)_xx` (a uniform
/// strain is kinematically admissible, so the stiffness is at most that of the volume-averaged
/// tensor). The spring network is the linear finite-element model of the body whose
/// tetrahedron `t` has the tensor `C_t` (a spring's stretch is its edge's strain), so both
/// bounds hold for it.
fn bounds(mesh: &TetMesh) -> (f64, f64) {
    let mut voigt = [[0.0; 6]; 6];
    let mut reuss = [[0.0; 6]; 6];
    let mut volume = 0.0;
    for t in 0..mesh.tetrahedra.len() {
        let v = mesh.volume(t);
        let c = tet_stiffness(mesh, t);
        let s = inverse(c);
        for r in 0..6 {
            for k in 0..6 {
                voigt[r][k] += v * c[r][k];
                reuss[r][k] += v * s[r][k];
            }
        }
        volume += v;
    }
    (volume / reuss[0][0], 1.0 / (inverse(voigt)[0][0] * volume))
}

/// The lattice's own modulus along its axes is `6 E / 5` with Poisson's ratio 1/5 (derived in
/// the guide, `hooke::guide::meshes`): the Voigt bound of the regular mesh, which every cube
/// holds whole. The bar falls short of it by the relaxation of its surface layer (the nodes on
/// the free sides are not held in place by a full neighbourhood), a layer one cube thick:
/// the error falls as the cubes shrink, and the modulus never leaves the bounds the mesh sets
/// (`bounds`), widened by `2 |eps|` for the geometric nonlinearity of a strain of 1e-4 (as in
/// the voxel bars' test).
#[test]
fn a_regular_tetrahedral_bar_stretches_as_its_lattice_predicts() {
    let e = material().young_modulus;
    let strain = 1e-4;
    println!("| cubes across | E_eff / E | E_eff / (6 E / 5) - 1 | nu_eff - 1/5 | bounds / E |");
    let mut last = (f64::INFINITY, f64::INFINITY);
    for across in [1, 2, 4] {
        let mesh = bar_mesh(across, 0.0);
        let (low, high) = bounds(&mesh);
        assert!((high - 1.2).abs() < 1e-12, "Voigt bound {high}");
        let t = tension(&mesh, strain * e);
        let ratio = t.young_modulus / e;
        let (de, dnu) = (ratio / 1.2 - 1.0, t.poisson_ratio - 0.2);
        println!("| {across} | {ratio:.4} | {de:.2e} | {dnu:.2e} | {low:.4}, {high:.4} |");
        assert!(
            ratio > low * (1.0 - 2.0 * strain) && ratio < high * (1.0 + 2.0 * strain),
            "{across} across: {t:?} outside [{low}, {high}] E"
        );
        assert!(
            de.abs() < last.0 && dnu.abs() < last.1,
            "{across} across: {t:?}"
        );
        last = (de.abs(), dnu.abs());
    }
}

/// An irregular mesh: the same lattice, its nodes moved by up to a fifth of a cube (so its
/// tetrahedra have many shapes and directions). Its modulus lies within the bounds its own
/// tetrahedra set (`bounds`), and approximates `E`: the errors are printed for the guide's
/// table.
#[test]
fn an_irregular_tetrahedral_bar_approximates_young_modulus() {
    let e = material().young_modulus;
    let strain = 1e-4;
    println!("| cubes across | E_eff / E - 1 | nu_eff | bounds / E |");
    for across in [1, 2, 4] {
        let mesh = bar_mesh(across, 0.2);
        let (low, high) = bounds(&mesh);
        let t = tension(&mesh, strain * e);
        let ratio = t.young_modulus / e;
        println!(
            "| {across} | {:.2e} | {:.4} | {low:.4}, {high:.4} |",
            ratio - 1.0,
            t.poisson_ratio
        );
        assert!(
            ratio > low * (1.0 - 2.0 * strain) && ratio < high * (1.0 + 2.0 * strain),
            "{across} across: {t:?} outside [{low}, {high}] E"
        );
    }
}
