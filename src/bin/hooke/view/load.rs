//! What `hooke view` opens: a scene file, or a population file (the champion.json `hooke
//! evolve` writes is one) with its robots on the evaluation's ground and obstacles. Loading
//! needs no window, so it is tested headless.

use std::path::Path;

use hooke::population::{Layout, Population};
use hooke::render::MeshSurface;
use hooke::{DVec3, Model};

use crate::population_file::PopulationFile;

/// A file ready to show.
#[derive(Debug)]
#[cfg_attr(not(feature = "viewer"), allow(dead_code))] // the viewer's window reads it
pub(crate) struct Loaded {
    /// Its name in the viewer's panel (the file's name).
    pub(crate) name: String,
    /// One line about it.
    pub(crate) about: String,
    /// The model to run.
    pub(crate) model: Model,
    /// Hexahedral cells of its voxel robots (8 mass indices each), drawn shaded.
    pub(crate) cells: Vec<[u32; 8]>,
    /// The surfaces of its mesh bodies, drawn shaded.
    pub(crate) surfaces: Vec<MeshSurface>,
}

/// Reads `path`: a population file when its top level has `robots`, else a scene file. Errors
/// name the file (and the robot and field, for a population file).
pub(crate) fn load(path: &Path) -> Result<Loaded, String> {
    let bytes = crate::input::read(path)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let is_population = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .is_some_and(|v| v.get("robots").is_some());
    if !is_population {
        let (scene, model) = crate::scene_file::load(path)?;
        let surfaces = scene
            .mesh_surfaces(&model)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let about = format!(
            "Scene {}: {} masses, {} springs, {} bodies.",
            path.display(),
            model.masses.len(),
            model.springs.len(),
            model.bodies.len()
        );
        return Ok(Loaded {
            name,
            about,
            model,
            cells: Vec::new(),
            surfaces,
        });
    }
    let base_dir = path
        .parent()
        .map_or_else(Default::default, Path::to_path_buf);
    let file = PopulationFile::parse(&bytes, path, base_dir)?;
    population(&file)
        .map_err(|e| format!("{}: {e}", path.display()))
        .map(|(model, cells)| Loaded {
            about: format!(
                "{} robot{} of {}, on the evaluation's ground and obstacles ({} s evaluations).",
                file.robots.len(),
                if file.robots.len() == 1 { "" } else { "s" },
                path.display(),
                crate::human::number(file.evaluation.duration)
            ),
            name,
            model,
            cells,
            surfaces: Vec::new(),
        })
}

/// The robots of `file` in one model with the evaluation's parameters and obstacles (robots
/// side by side when there are several), and the cells of their voxels.
fn population(file: &PopulationFile) -> Result<(Model, Vec<[u32; 8]>), String> {
    let evaluation = file.evaluation.evaluation().map_err(|e| e.to_string())?;
    let settings = &file.evaluation.genome;
    let mut population = Population::new();
    let mut cells_of = Vec::with_capacity(file.robots.len());
    for (i, robot) in file.robots.iter().enumerate() {
        let named = |e: &dyn std::fmt::Display| format!("robots[{i}] (id {:?}): {e}", robot.id);
        let (part, cells) = match &robot.genome {
            Some(g) => {
                let voxels = g.voxel_part(settings).map_err(|e| named(&e))?;
                (voxels.part, voxels.voxel_masses)
            }
            None => (
                robot
                    .part(settings, &file.base_dir)
                    .map_err(|e| named(&e))?,
                Vec::new(),
            ),
        };
        population.push(robot.id.clone(), part);
        cells_of.push(cells);
    }
    if population.robots.len() > 1 {
        population.layout = Layout::Grid {
            spacing: widest(&population) + 0.5,
        };
    }
    let model = population
        .model(&evaluation.params, &evaluation.obstacles)
        .map_err(|e| e.to_string())?;
    let cells = model
        .bodies
        .iter()
        .zip(cells_of)
        .flat_map(|(body, cells)| {
            let first = body.masses.start as u32;
            cells.into_iter().map(move |c| c.map(|m| m + first))
        })
        .collect();
    Ok((model, cells))
}

/// The largest horizontal extent of any robot, m.
fn widest(population: &Population) -> f64 {
    population
        .robots
        .iter()
        .map(|r| {
            let (lo, hi) = r.part.masses.iter().fold(
                (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                |(lo, hi), m| (lo.min(m.position), hi.max(m.position)),
            );
            (hi - lo).truncate().max_element().max(0.0)
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder for one test.
    fn scratch(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("hooke_view_{test}_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_scene_file_loads_as_its_model() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/cube.json");
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.name, "cube.json");
        assert_eq!(loaded.model.masses.len(), 8);
        assert!(loaded.cells.is_empty());
        assert!(loaded.surfaces.is_empty());
    }

    #[test]
    fn a_mesh_scene_loads_with_the_surface_of_its_mesh() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/mesh_bunny.json");
        let loaded = load(&path).unwrap();
        assert!(loaded.cells.is_empty());
        assert_eq!(loaded.surfaces.len(), 1);
        let surface = &loaded.surfaces[0];
        assert!(!surface.triangles.is_empty());
        let body = &loaded.model.bodies[0];
        let masses = surface.vertices.iter().flat_map(|v| v.masses);
        assert!(masses
            .into_iter()
            .all(|m| body.masses.contains(&(m as usize))));
    }

    #[test]
    fn a_champion_file_loads_its_voxels_with_their_cells() {
        let dir = scratch("champion");
        let path = dir.join("champion.json");
        let champion = serde_json::json!({
            "version": 1,
            "evaluation": { "duration": 1.0 },
            "robots": [{ "id": "champion", "genome": {
                "size": [2, 1, 1], "cells": ["soft", { "muscle": { "phase": 0 } }] } }]
        });
        std::fs::write(&path, champion.to_string()).unwrap();
        let loaded = load(&path).unwrap();
        // Two voxels side by side share a face: 12 corner masses, one cell per voxel.
        assert_eq!(loaded.model.masses.len(), 12);
        assert_eq!(loaded.cells.len(), 2);
        assert!(loaded
            .cells
            .iter()
            .flatten()
            .all(|&m| (m as usize) < loaded.model.masses.len()));
        assert!(loaded.about.starts_with("1 robot of"), "{}", loaded.about);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn several_robots_are_shown_side_by_side_with_cells_at_their_own_masses() {
        let dir = scratch("two");
        let path = dir.join("pop.json");
        let genome = serde_json::json!({ "size": [1, 1, 1], "cells": ["stiff"] });
        let pop = serde_json::json!({
            "version": 1,
            "evaluation": { "duration": 1.0 },
            "robots": [{ "id": "a", "genome": genome }, { "id": "b", "genome": genome }]
        });
        std::fs::write(&path, pop.to_string()).unwrap();
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.model.bodies.len(), 2);
        assert_eq!(loaded.cells.len(), 2);
        for (cell, body) in loaded.cells.iter().zip(&loaded.model.bodies) {
            assert!(cell.iter().all(|&m| body.masses.contains(&(m as usize))));
        }
        let x = |b: usize| loaded.model.masses[loaded.model.bodies[b].masses.start].position;
        assert!((x(1) - x(0)).length() > 0.1, "robots overlap");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_files_are_named() {
        let dir = scratch("bad");
        let missing = dir.join("missing.json");
        let e = load(&missing).unwrap_err();
        assert!(e.contains("missing.json"), "{e}");
        let path = dir.join("pop.json");
        let pop = serde_json::json!({
            "version": 1,
            "evaluation": { "duration": 1.0 },
            "robots": [{ "id": "x", "genome": { "size": [2, 1, 1], "cells": ["soft"] } }]
        });
        std::fs::write(&path, pop.to_string()).unwrap();
        let e = load(&path).unwrap_err();
        assert!(e.contains("pop.json") && e.contains("robots[0]"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
