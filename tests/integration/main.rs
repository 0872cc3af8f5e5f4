//! hooke's integration tests, one test binary: each file of this folder is a module (declared
//! below), so the GPU stack is linked once, not once per file. A new test file goes here with a
//! `mod` line below; `every_test_file_is_a_module` fails for a file left out.

mod colour;
mod common;

mod adapter_limits;
mod backends;
mod builders;
mod cli;
mod collision_scenes;
mod collisions;
mod commanded;
mod continuum;
mod control;
mod cost_plot;
mod cpu_physics;
mod cpu_populations;
mod cpu_stencil;
mod creatures;
mod energy_books;
mod eval_checkpoint_cli;
mod eval_checkpoints;
mod eval_cli;
mod evaluation_defaults;
mod evolve;
mod evolve_cli;
mod fused_steps;
mod gpu_collisions;
mod gpu_f64;
mod gpu_scale;
mod gpu_world;
mod hashes;
mod hashes_cli;
mod import_cycles;
mod link_orientation;
mod materials;
mod mesh_bodies;
mod numerics;
mod obstacles;
mod parity;
mod population;
mod population_benchmark;
mod recording;
mod render;
mod render_any_adapter;
mod render_mesh_surface;
mod render_obstacles;
mod render_output;
mod reset_body;
mod robustness;
mod scene_files;
mod sensors;
mod snapshots;
mod terrain;
mod tet_mesh;
mod viewer_input;

/// A file in this folder that no `mod` line names is never compiled: its tests would silently
/// not run.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = if path.is_dir() {
            path.file_name().unwrap().to_string_lossy().into_owned()
        } else if path.extension().is_some_and(|e| e == "rs") {
            path.file_stem().unwrap().to_string_lossy().into_owned()
        } else {
            continue;
        };
        if name != "main" {
            assert!(
                main.lines().any(|l| l == format!("mod {name};")),
                "{} is not declared in tests/integration/main.rs: add `mod {name};`",
                path.display()
            );
        }
    }
}
