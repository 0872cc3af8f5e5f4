//! Shared test support: one GPU device per test binary, the CPU-vs-GPU parity harness, and test
//! scenes made by the builders, each a small version of a scene from the source documents (docs/SOURCES.md).
#![allow(dead_code, unreachable_pub)]

pub mod collision_scenes;
#[cfg(feature = "cli")]
pub mod command;
pub mod parity;
pub mod scenes;

use std::sync::OnceLock;

use hooke::{Model, World, WorldOptions};

/// The device every GPU test in this binary shares. Never skips: with no adapter it panics with
/// the list of adapters seen (set `HOOKE_SKIP_GPU_TESTS=1` to mark GPU tests ignored instead).
pub fn gpu() -> &'static (wgpu::Device, wgpu::Queue) {
    static GPU: OnceLock<(wgpu::Device, wgpu::Queue)> = OnceLock::new();
    GPU.get_or_init(|| match hooke::gpu::request_device() {
        Ok(dq) => dq,
        Err(e) => panic!(
            "GPU tests need an adapter and none could be opened: {e}. \
             Set HOOKE_SKIP_GPU_TESTS=1 to mark GPU tests as ignored."
        ),
    })
}

/// The shared device as a backend for `Population::evaluate`.
pub fn gpu_backend() -> &'static hooke::OpenBackend {
    static BACKEND: OnceLock<hooke::OpenBackend> = OnceLock::new();
    BACKEND.get_or_init(|| {
        let (device, queue) = gpu();
        hooke::OpenBackend::from_device(device.clone(), queue.clone())
    })
}

/// A World for `model` on the shared device.
pub fn world(model: &Model) -> World {
    world_with(model, WorldOptions::default())
}

/// A World for `model` on the shared device with `options`.
pub fn world_with(model: &Model, options: WorldOptions) -> World {
    let (device, queue) = gpu();
    World::with_device(device.clone(), queue.clone(), model, options)
        .unwrap_or_else(|e| panic!("building the World failed: {e}"))
}

/// The shipped scene files (`scenes/*.json` but the schema), sorted.
pub fn shipped_scene_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("scenes"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n != "schema.json"))
        .collect();
    files.sort();
    files
}
