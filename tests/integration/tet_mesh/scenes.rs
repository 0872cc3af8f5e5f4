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

/// A 3 x 2 x 2 cm block of 1 cm cubes (five tetrahedra each), in millimetres, as `block.msh`
/// in `dir`.
fn block_file(dir: &Path) -> PathBuf {
    let path = dir.join("block.msh");
    let mesh = TetMesh::box_lattice([3, 2, 2], 10.0).unwrap();
    std::fs::write(&path, mesh.to_msh()).unwrap();
    path
}

/// A scene of one tetrahedral body (mesh path `mesh`, relative to the scene) dropped from 5 cm.
fn scene_json(mesh: &str) -> serde_json::Value {
    json!({
        "version": 1,
        "params": { "dt": 0.0001 },
        "bodies": [{
            "body": {
                "type": "tet_mesh", "path": mesh, "scale": 0.001,
                "material": { "young_modulus": 1.0e5, "density": 1070.0, "damping_ratio": 0.1 }
            },
            "placement": { "position": [0.0, 0.0, 0.05] }
        }]
    })
}

#[test]
fn a_scene_tet_mesh_path_resolves_against_the_scene_folder() {
    let dir = scratch("tet_mesh", "scene");
    let mesh = block_file(&dir);
    let scene_path = dir.join("block.json");
    write(&scene_path, &scene_json("block.msh"));
    let scene = Scene::load(&scene_path).unwrap();
    let model = scene.to_model().unwrap();
    assert_eq!(model.bodies[0].name, "tet_mesh");
    let material = Material::new(1.0e5, 1070.0).with_damping_ratio(0.1);
    let direct = TetMeshBody::new(&mesh, material)
        .with_scale(0.001)
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.05)))
        .unwrap();
    assert_eq!(direct.masses.len(), 4 * 3 * 3);
    assert_eq!(model.masses, direct.masses);
    assert_eq!(model.springs, direct.springs);
    // The triangles `hooke run --gif` draws: the block's six sides, two per square of 1 cm.
    let triangles = scene.tet_mesh_triangles(&model).unwrap();
    assert_eq!(triangles.len(), 2 * 2 * (3 * 2 + 3 * 2 + 2 * 2));
    let area: f64 = triangles
        .iter()
        .map(|t| {
            let [p, q, r] = t.map(|i| model.masses[i as usize].position);
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
    block_file(&dir);
    let scene = write(&dir.join("block.json"), &scene_json("block.msh"));
    let gif = dir.join("block.gif");
    let gif_arg = gif.to_str().unwrap();
    ok(&hooke(&[
        "run",
        &scene,
        "--duration",
        "0.02",
        "--backend",
        "cpu",
        "--gif",
        gif_arg,
    ]));
    assert!(std::fs::metadata(&gif).unwrap().len() > 0);
    // The same scene naming a file whose first tetrahedron is inverted.
    let mut mesh = TetMesh::box_lattice([1, 1, 1], 10.0).unwrap();
    mesh.tetrahedra[0].swap(0, 1);
    std::fs::write(dir.join("inverted.msh"), mesh.to_msh()).unwrap();
    let scene = write(&dir.join("inverted.json"), &scene_json("inverted.msh"));
    let out = hooke(&["run", &scene, "--duration", "0.01", "--backend", "cpu"]);
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

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_tet_mesh_body_on_the_gpu_follows_the_cpu_reference() {
    let model = block_model();
    let mut gpu = common::world(&model);
    compare("tet block", &model, &mut gpu, 3000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_tet_mesh_body_reruns_to_the_same_bits_on_the_gpu() {
    let model = block_model();
    let run = || {
        let mut w = common::world(&model);
        w.step(1500).unwrap();
        (w.positions().unwrap(), w.velocities().unwrap())
    };
    let (first, again) = (run(), run());
    assert!(first.0 == again.0, "positions differ between runs");
    assert!(first.1 == again.1, "velocities differ between runs");
}
