//! The robots of `hooke.gym`: one model of `count` copies of a robot with commanded muscles (the
//! commanded walker, any builder, or a voxel genome), laid out as a population lays out its
//! robots, and what the environment reads of one robot.

use hooke::population::{Evaluation, GenomeSettings, Population, VoxelGenome};
use hooke::{BodyKind, Params, Part};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::{argument, IntoPyResult};
use crate::model::{body_kind, json_of, params_over, PyModel};

/// A robot's part and the parameters it runs under by default: the walker's own (its time
/// step, ground and friction), Evaluation's default for a genome (what `hooke eval` uses),
/// the `robots` preset for any other builder.
fn robot_part(
    py: Python<'_>,
    robot: Option<&Bound<'_, PyAny>>,
    genome: Option<&Bound<'_, PyAny>>,
    settings: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Part, Params)> {
    if let Some(genome) = genome {
        if robot.is_some() {
            return Err(argument(
                "robot and genome: give one of them, not both".to_string(),
            ));
        }
        let genome: VoxelGenome = serde_json::from_value(json_of(py, genome)?)
            .map_err(|e| argument(format!("genome: {e}")))?;
        let mut settings: GenomeSettings = match settings {
            Some(s) => serde_json::from_value(json_of(py, s)?)
                .map_err(|e| argument(format!("genome_settings: {e}")))?,
            None => GenomeSettings::default(),
        };
        settings.commanded = true;
        settings.validate().py()?;
        return Ok((genome.part(&settings).py()?, Evaluation::default().params));
    }
    if settings.is_some() {
        return Err(argument("genome_settings: only with a genome".to_string()));
    }
    let kind = match robot {
        Some(builder) => body_kind(builder)?,
        None => BodyKind::CommandedWalker(hooke::creatures::WalkingRobot::default()),
    };
    if let BodyKind::CommandedWalker(walker) = &kind {
        let creature = walker.commanded().py()?.creature;
        return Ok((creature.part, creature.params));
    }
    Ok((kind.build(None).py()?, Params::robots()))
}

/// What the environment reads of one robot, in the robot's own indices.
fn robot_layout<'py>(py: Python<'py>, part: &Part) -> PyResult<Bound<'py, PyDict>> {
    let lowest = part
        .masses
        .iter()
        .map(|m| m.position.z)
        .fold(f64::INFINITY, f64::min);
    let feet: Vec<i64> = (0..part.masses.len())
        .filter(|&i| part.masses[i].position.z <= lowest)
        .map(|i| i as i64)
        .collect();
    let commanded: Vec<_> = part.actuators.iter().filter(|a| a.commanded).collect();
    let muscles: Vec<i64> = commanded.iter().map(|a| i64::from(a.spring)).collect();
    let amplitudes: Vec<f64> = commanded.iter().map(|a| a.amplitude.abs()).collect();
    let d = PyDict::new(py);
    d.set_item("masses", part.masses.len())?;
    d.set_item("springs", part.springs.len())?;
    d.set_item("feet", PyArray1::from_vec(py, feet))?;
    d.set_item("muscles", PyArray1::from_vec(py, muscles))?;
    d.set_item("amplitudes", PyArray1::from_vec(py, amplitudes))?;
    Ok(d)
}

/// `count` copies of one robot in one model, as a population lays them out: all at the same
/// place, in a collision group masked out, so that no robot acts on another (each one feels
/// only its own springs, the ground and the obstacles). `robot` is a builder (default the
/// commanded walker), `genome` a voxel genome (`{"size": [x, y, z], "cells": [...]}`, its
/// muscles commanded, with `genome_settings`); `params` fields override the robot's parameters.
/// Returns the model and the robot's layout: `masses`, `springs` (counts per robot), `feet`
/// (its lowest masses), `muscles` (the springs of its commanded actuators, in command order)
/// and `amplitudes` (each command's bound, relative).
#[pyfunction]
#[pyo3(signature = (count, *, robot=None, genome=None, genome_settings=None, params=None))]
pub(crate) fn robot_herd<'py>(
    py: Python<'py>,
    count: usize,
    robot: Option<&Bound<'_, PyAny>>,
    genome: Option<&Bound<'_, PyAny>>,
    genome_settings: Option<&Bound<'_, PyAny>>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<(PyModel, Bound<'py, PyDict>)> {
    if count == 0 {
        return Err(argument("count: must be at least 1 robot".to_string()));
    }
    let (part, base) = robot_part(py, robot, genome, genome_settings)?;
    if part.actuators.iter().all(|a| !a.commanded) {
        return Err(argument(
            "robot: it has no commanded muscle for the actions to drive".to_string(),
        ));
    }
    let params = params_over(py, base, params)?;
    let layout = robot_layout(py, &part)?;
    let mut population = Population::new();
    for i in 0..count {
        population.push(format!("robot {i}"), part.clone());
    }
    let model = population.model(&params, &[]).py()?;
    model.validate().py()?;
    let surfaces = Vec::new();
    Ok((PyModel { model, surfaces }, layout))
}
