//! Tetrahedral mesh bodies in scene files (paths relative to the scene), through the `hooke`
//! command, and on the GPU: CPU/GPU parity within the derived tolerances and a rerun to the
//! last bit.

use std::path::{Path, PathBuf};

use glam::DVec3;
use hooke::builders::{Placement, TetMesh, TetMeshBody};
use hooke::{Builder, Friction, Material, Model, Params, Scene};
use serde_json::json;

use crate::common;
use crate::common::command::{hooke, ok, scratch, stderr, write};
use crate::common::parity::compare;

/// The 3 x 2 x 2 cm block of 1 cm cubes (five tetrahedra each), drawn in millimetres.
fn block_in_mm() -> TetMesh {
    TetMesh::box_lattice([3, 2, 2], 10.0).unwrap()
}

/// Writes `mesh` as `dir/<name>.msh` and a scene `dir/<name>.json` that drops it from 5 cm
/// (naming the mesh file relative to the scene, in mm); returns the scene's path.
fn scene_of(dir: &Path, name: &str, mesh: &TetMesh) -> PathBuf {
    std::fs::write(dir.join(format!("{name}.msh")), mesh.to_msh()).unwrap();
    let body = json!({
        "type": "tet_mesh", "path": format!("{name}.msh"), "scale": 0.001,
        "material": { "young_modulus": 1.0e5, "density": 1070.0, "damping_ratio": 0.1 }
    });
    let scene = json!({ "version": 1, "params": { "dt": 0.0001 }, "bodies": [
        { "body": body, "placement": { "position": [0.0, 0.0, 0.05] } }
    ] });
    let path = dir.join(format!("{name}.json"));
    write(&path, &scene);
    path
}

#[test]
fn a_scene_tet_mesh_path_resolves_against_the_scene_folder() {
    let dir = scratch("tet_mesh", "scene");
    let scene = Scene::load(scene_of(&dir, "block", &block_in_mm())).unwrap();
    let model = scene.to_model().unwrap();
    assert_eq!(model.bodies[0].name, "tet_mesh");
    let material = Material::new(1.0e5, 1070.0).with_damping_ratio(0.1);
    let direct = TetMeshBody::new(dir.join("block.msh"), material)
        .with_scale(0.001)
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.05)))
        .unwrap();
    assert_eq!(direct.masses.len(), 4 * 3 * 3);
    assert_eq!(model.masses, direct.masses);
    assert_eq!(model.springs, direct.springs);
    // The surface `hooke run --gif`, `hooke view` and Python draw: the block's six sides, two
    // triangles per square of 1 cm, each corner one of the body's masses.
    let surfaces = scene.mesh_surfaces(&model).unwrap();
    assert_eq!(surfaces.len(), 1);
    let positions: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
    let corners = surfaces[0].positions(&positions);
    let triangles = &surfaces[0].triangles;
    assert_eq!(triangles.len(), 2 * 2 * (3 * 2 + 3 * 2 + 2 * 2));
    let area: f64 = triangles
        .iter()
        .map(|t| {
            let [p, q, r] = t.map(|i| corners[i as usize]);
            (q - p).cross(r - p).length() / 2.0
        })
        .sum();
    assert!(
        (area - 2.0 * (6.0 + 6.0 + 4.0) * 1e-4).abs() < 1e-12,
        "{area}"
    );
}

#[test]
fn hooke_runs_a_tet_mesh_scene_and_names_a_broken_mesh_file() {
    let dir = scratch("tet_mesh", "cli");
    let scene = scene_of(&dir, "block", &block_in_mm());
    let gif = dir.join("block.gif");
    let [scene_arg, gif_arg] = [&scene, &gif].map(|p| p.to_str().unwrap());
    let run = ["run", scene_arg, "--duration", "0.02", "--backend", "cpu"];
    ok(&hooke(&[&run[..], &["--gif", gif_arg]].concat()));
    assert!(std::fs::metadata(&gif).unwrap().len() > 0);
    // The same scene naming a file whose first tetrahedron is inverted.
    let mut mesh = TetMesh::box_lattice([1, 1, 1], 10.0).unwrap();
    mesh.tetrahedra[0].swap(0, 1);
    let scene = scene_of(&dir, "inverted", &mesh);
    let out = hooke(&[&["run", scene.to_str().unwrap()], &run[2..]].concat());
    assert!(!out.status.success());
    let message = stderr(&out);
    assert!(
        message.contains("inverted.msh") && message.contains("tetrahedron 1 is inverted"),
        "{message}"
    );
}

/// A 3 x 2 x 2 cm block of soft silicone, its nodes moved off the lattice (an irregular mesh),
/// thrown onto the ground with friction.
fn block_model() -> Model {
    let mut mesh = TetMesh::box_lattice([3, 2, 2], 0.01).unwrap();
    for (i, p) in mesh.nodes.iter_mut().enumerate() {
        let f = i as f64;
        *p += DVec3::new((f * 0.7).sin(), (f * 1.3).sin(), (f * 2.1).sin()) * 0.001;
    }
    let mesh = TetMesh::new(mesh.nodes, mesh.tetrahedra).unwrap();
    let material = Material::named("dragon_skin_10")
        .unwrap()
        .with_damping_ratio(0.05);
    let part = TetMeshBody::new("block.msh", material).part(&mesh).unwrap();
    let placement = Placement::at(DVec3::new(0.0, 0.0, 0.02))
        .with_rotation(DVec3::new(0.2, 0.1, 0.0))
        .with_velocity(DVec3::new(0.3, 0.0, -0.5));
    let mut part = part;
    placement.apply(&mut part).unwrap();
    let mut model = Model::new(Params {
        friction: Friction::coulomb(0.6, 0.4),
        ..Params::default()
    });
    model.add("block", part);
    model.params.dt = 0.5 * model.stable_dt().dt;
    model
}

/// On the GPU the block follows the CPU reference within the parity bounds
/// (`common/parity.rs`), and a second World on the same model reaches the same bits.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_tet_mesh_body_on_the_gpu_follows_the_cpu_and_reruns_to_the_same_bits() {
    let model = block_model();
    let mut first = common::world(&model);
    compare("tet block", &model, &mut first, 3000, 250);
    let mut again = common::world(&model);
    again.step(3000).unwrap();
    assert!(
        first.positions().unwrap() == again.positions().unwrap(),
        "positions differ"
    );
    assert!(
        first.velocities().unwrap() == again.velocities().unwrap(),
        "velocities differ"
    );
}
