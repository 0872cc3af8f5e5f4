//! Mesh bodies in scene files (paths relative to the scene), through the `hooke` command, and on
//! the GPU: CPU/GPU parity within the derived tolerances and a rerun to the last bit.

use std::path::{Path, PathBuf};

use glam::DVec3;
use hooke::builders::{MeshBody, Placement, TriangleMesh};
use hooke::{Builder, Friction, Material, Model, Params, Scene};
use serde_json::json;

use crate::common;
use crate::common::command::{hooke, ok, scratch, stderr, write};
use crate::common::parity::compare;

/// A ball of radius 3 cm as a binary STL file `ball.stl` in `dir`.
fn ball_file(dir: &Path) -> PathBuf {
    let path = dir.join("ball.stl");
    std::fs::write(&path, TriangleMesh::icosphere(0.03, 2).to_stl_binary()).unwrap();
    path
}

/// A scene of one mesh body (mesh path `mesh`, relative to the scene) dropped from 5 cm.
fn scene_json(mesh: &str) -> serde_json::Value {
    json!({
        "version": 1,
        "params": { "dt": 0.0001 },
        "bodies": [{
            "body": {
                "type": "mesh", "path": mesh, "voxel": 0.01,
                "material": { "young_modulus": 1.0e5, "density": 1070.0, "damping_ratio": 0.1 }
            },
            "placement": { "position": [0.0, 0.0, 0.05] }
        }]
    })
}

#[test]
fn a_scene_mesh_path_resolves_against_the_scene_folder() {
    let dir = scratch("mesh_bodies", "scene");
    let mesh = ball_file(&dir);
    let scene_path = dir.join("ball.json");
    write(&scene_path, &scene_json("ball.stl"));
    let model = Scene::load(&scene_path).unwrap().to_model().unwrap();
    assert_eq!(model.bodies[0].name, "mesh");
    let material = Material::new(1.0e5, 1070.0).with_damping_ratio(0.1);
    let direct = MeshBody::new(mesh, 0.01, material)
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.05)))
        .unwrap();
    assert!(!direct.masses.is_empty());
    assert_eq!(model.masses, direct.masses);
    assert_eq!(model.springs, direct.springs);
    // The cells drawn by `hooke run --gif`: one per voxel, each 8 distinct masses of the body.
    let scene = Scene::load(&scene_path).unwrap();
    let cells = scene.mesh_cells(&model).unwrap();
    let voxels = MeshBody::new(dir.join("ball.stl"), 0.01, material)
        .read_mesh()
        .unwrap()
        .voxel_cells(0.01, Path::new("ball.stl"))
        .unwrap();
    assert_eq!(cells.len(), voxels.len());
    for cell in &cells {
        let mut sorted = *cell;
        sorted.sort_unstable();
        assert!(sorted.windows(2).all(|w| w[0] < w[1]), "{cell:?}");
        assert!((sorted[7] as usize) < model.masses.len());
    }
}

#[test]
fn hooke_runs_a_mesh_scene_and_names_a_broken_mesh_file() {
    let dir = scratch("mesh_bodies", "cli");
    ball_file(&dir);
    let scene = write(&dir.join("ball.json"), &scene_json("ball.stl"));
    let gif = dir.join("ball.gif");
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
    // The same scene naming an open mesh: the message names the mesh file and the hole.
    let mut open = TriangleMesh::icosphere(0.03, 1);
    open.triangles.pop();
    std::fs::write(dir.join("open.obj"), open.to_obj()).unwrap();
    let scene = write(&dir.join("open.json"), &scene_json("open.obj"));
    let out = hooke(&["run", &scene, "--duration", "0.01", "--backend", "cpu"]);
    assert!(!out.status.success());
    let message = stderr(&out);
    assert!(
        message.contains("open.obj") && message.contains("not watertight"),
        "{message}"
    );
}

/// A 3 cm ball of soft silicone voxelized at 1 cm, thrown onto the ground with friction.
fn ball_model() -> Model {
    let mesh = TriangleMesh::icosphere(0.03, 2);
    let material = Material::named("dragon_skin_10")
        .unwrap()
        .with_damping_ratio(0.05);
    let body = MeshBody::new("ball", 0.01, material)
        .voxel_body(&mesh, Path::new("ball"))
        .unwrap();
    let placement = Placement::at(DVec3::new(0.0, 0.0, 0.035))
        .with_rotation(DVec3::new(0.2, 0.1, 0.0))
        .with_velocity(DVec3::new(0.3, 0.0, -0.5));
    let mut model = Model::new(Params {
        friction: Friction::coulomb(0.6, 0.4),
        ..Params::default()
    });
    model.add("ball", body.build_at(&placement).unwrap());
    model.params.dt = 0.5 * model.stable_dt().dt;
    model
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_mesh_body_on_the_gpu_follows_the_cpu_reference() {
    let model = ball_model();
    let mut gpu = common::world(&model);
    compare("mesh ball", &model, &mut gpu, 3000, 250);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_mesh_body_reruns_to_the_same_bits_on_the_gpu() {
    let model = ball_model();
    let run = || {
        let mut w = common::world(&model);
        w.step(1500).unwrap();
        (w.positions().unwrap(), w.velocities().unwrap())
    };
    let (first, again) = (run(), run());
    assert!(first.0 == again.0, "positions differ between runs");
    assert!(first.1 == again.1, "velocities differ between runs");
}
