//! Scene files, valid and broken, through `Scene::from_json_str`, `Scene::to_model`, the CPU
//! reference (and, for a few valid ones, the GPU World): no panic, no hang, no NaN returned as
//! `Ok`, and every error names the element that was broken.

use std::path::Path;

use hooke::{CpuWorld, Model, Scene};
use proptest::prelude::*;
use serde_json::{json, Value};

use super::mutate::{self, Step};
use super::verdict::{check_named, failure_reported, step_checked};

/// Largest model (masses + springs) a case steps: a case stays well under a second.
const MAX_STEPPED: usize = 20_000;
/// Steps per case on the CPU reference.
const STEPS: u64 = 20;

/// The shipped scene files (not the schema) as JSON documents, with their names.
fn shipped() -> &'static [(String, Value)] {
    static SCENES: std::sync::OnceLock<Vec<(String, Value)>> = std::sync::OnceLock::new();
    SCENES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter(|p| p.file_name().is_some_and(|n| n != "schema.json"))
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, serde_json::from_str(&text).unwrap())
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    })
}

/// The scene text `text` through every entry point: parse, model, CPU steps. An error at any
/// stage must name the element at `path`; `Ok` steps must stay finite.
pub(super) fn scene_text_holds(text: &str, path: &[Step]) -> Result<(), String> {
    let mut scene = match Scene::from_json_str(text) {
        Ok(scene) => scene,
        Err(e) => return check_named(&e, path, "parse"),
    };
    scene.base_dir = Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes"));
    let model = match scene.to_model() {
        Ok(model) => model,
        Err(e) => return check_named(&e, path, "model"),
    };
    model_holds(&model, path)
}

/// A model through the CPU reference: built (errors naming the element) and stepped.
pub(super) fn model_holds(model: &Model, path: &[Step]) -> Result<(), String> {
    if model.masses.len() + model.springs.len() > MAX_STEPPED {
        return Ok(());
    }
    match CpuWorld::new(model) {
        Ok(mut world) => step_checked(&mut world, STEPS),
        Err(e) => check_named(&e, path, "CpuWorld::new"),
    }
}

proptest! {
    #![proptest_config(super::config(48))]

    /// A shipped scene with one edit anywhere in it.
    #[test]
    fn broken_scene_files_are_refused_by_name(scene in 0..64usize, edit in mutate::edit()) {
        let (name, doc) = &shipped()[scene % shipped().len()];
        let (text, path) = mutate::apply(doc, &edit);
        if let Err(e) = scene_text_holds(&text, &path) {
            return Err(TestCaseError::fail(format!("{name} with {edit:?}: {e}")));
        }
    }

    /// Scenes made of random bodies, placements and parameters in their valid ranges: they load,
    /// build and step (or report a blow-up).
    #[test]
    fn valid_scene_files_load_build_and_step(doc in valid_scene()) {
        let text = doc.to_string();
        let scene = Scene::from_json_str(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        let model = scene.to_model().map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        model_holds(&model, &[]).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
    }
}

proptest! {
    #![proptest_config(super::config(3))]

    /// A few valid scenes on the GPU World too (lavapipe in CI): built and stepped, finite or a
    /// reported blow-up.
    #[test]
    #[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
    fn valid_scene_files_step_on_the_gpu(doc in valid_scene()) {
        let scene = Scene::from_json_str(&doc.to_string()).unwrap();
        let model = scene.to_model().unwrap();
        let (device, queue) = crate::common::gpu();
        let mut world = hooke::World::with_device(device.clone(), queue.clone(), &model, Default::default())
            .map_err(|e| TestCaseError::fail(format!("building the World: {e}: {doc}")))?;
        match world.step(STEPS) {
            Ok(()) => {
                let p = world.positions().unwrap();
                prop_assert!(p.iter().all(|p| p.is_finite()), "non-finite positions returned as Ok: {doc}");
            }
            Err(e) => failure_reported(&e).map_err(TestCaseError::fail)?,
        }
    }
}

/// A body of a kind the scene format names, with counts kept small and the other fields drawn
/// from their valid ranges.
fn body() -> impl Strategy<Value = Value> {
    let stiff = 10.0..5e4f64;
    prop_oneof![
        (0.02..0.5f64, 0.01..1.0f64, stiff.clone()).prop_map(
            |(size, m, k)| json!({"type": "cube", "size": size, "corner_mass": m, "stiffness": k})
        ),
        (1..40u32, 0.1..2.0f64)
            .prop_map(|(s, l)| json!({"type": "rope", "segments": s, "length": l})),
        (2..12u32, 2..12u32).prop_map(|(nx, ny)| json!({"type": "cloth", "nx": nx, "ny": ny})),
        (1..7u32, stiff.clone())
            .prop_map(|(n, k)| json!({"type": "lattice", "n": n, "stiffness": k})),
        (4..40u32, any::<u64>())
            .prop_map(|(m, seed)| json!({"type": "random", "masses": m, "seed": seed})),
        Just(json!({"type": "walking_robot"})),
        (2..6u32).prop_map(|s| json!({"type": "inchworm", "segments": s})),
        (2..7u32).prop_map(|h| json!({"type": "wheel", "spokes": 2 * h})),
    ]
}

/// A valid scene: up to three bodies with placements, and parameters in their valid ranges.
fn valid_scene() -> impl Strategy<Value = Value> {
    let placement = (
        prop::array::uniform3(-1.0..1.0f64),
        prop::array::uniform3(-3.0..3.0f64),
        prop::array::uniform3(-1.0..1.0f64),
    );
    let params = (1e-5..1e-3f64, -20.0..0.0f64, 0.0..2.0f64, 0.0..1.0f64);
    (prop::collection::vec((body(), placement), 1..4), params).prop_map(|(bodies, (dt, gz, mu, damping))| {
        let bodies: Vec<Value> = bodies
            .into_iter()
            .map(|(body, (mut position, rotation, velocity))| {
                position[2] = position[2].abs() + 0.05;
                json!({"body": body, "placement": {"position": position, "rotation": rotation, "velocity": velocity}})
            })
            .collect();
        json!({
            "version": 1,
            "params": {
                "dt": dt, "gravity": [0.0, 0.0, gz], "velocity_damping": damping,
                "friction": {"static_coefficient": mu, "kinetic_coefficient": mu * 0.8}
            },
            "bodies": bodies,
        })
    })
}

/// Each shipped scene unchanged loads, builds and steps: the seeds of the broken ones are good.
#[test]
fn shipped_scenes_hold_unchanged() {
    for (name, doc) in shipped() {
        scene_text_holds(&doc.to_string(), &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The edits reach every node: a scene's deepest fields are among the paths.
#[test]
fn edits_reach_deep_fields() {
    let (_, doc) = shipped().iter().find(|(n, _)| n == "mixed.json").unwrap();
    let paths = mutate::paths(doc);
    assert!(paths.iter().any(|p| p.len() >= 4), "{paths:?}");
}
