//! `hooke._hooke.Evaluator`: a backend opened once (the CPU reference's threads, or the GPU
//! device) that evaluates many batches, so a long-lived worker (a Ray actor of `hooke.ray`)
//! opens its device once and not per call. Each call is the one-process path of
//! `hooke.evaluate` (`evaluate_population`, on a share of the batch as `hooke eval --split`
//! takes it) or of `hooke.evolve`'s generation (`evaluate_genomes`), so the bits are theirs.

use std::ops::Range;
use std::path::{Path, PathBuf};

use hooke::population::{split_share, Population, PopulationFile, VoxelGenome, VoxelMaterial};
use hooke::OpenBackend;
use numpy::PyReadonlyArray2;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::{argument, IntoPyResult};
use crate::population::{ids, open_backend, results_dict, run, Outcome};

/// A backend opened once for many evaluations (`hooke.Evaluator` is its Python subclass).
#[pyclass(name = "Evaluator", module = "hooke._hooke", frozen, subclass)]
pub(crate) struct PyEvaluator {
    open: OpenBackend,
}

#[pymethods]
impl PyEvaluator {
    /// Opens `backend` (`"cpu"`, `"gpu"` or `"auto"`; default `"cpu"`) with `threads` CPU
    /// threads (all cores when `None`), the GIL released while a device opens.
    #[new]
    #[pyo3(signature = (backend=None, threads=None))]
    fn new(py: Python<'_>, backend: Option<String>, threads: Option<usize>) -> PyResult<Self> {
        let open = py.detach(|| open_backend(backend.as_deref(), None, threads))?;
        Ok(Self { open })
    }

    /// `"cpu"` or `"gpu"`: what runs.
    #[getter]
    fn backend(&self) -> &'static str {
        self.open.name()
    }

    /// The GPU adapter as one line, or `None` on the CPU.
    #[getter]
    fn adapter(&self) -> Option<String> {
        self.open.adapter()
    }

    /// Evaluates robots `start..end` (default all) of the population file `text` (scene paths
    /// relative to `base_dir`) as `hooke eval --range start..end` does, on this evaluator's
    /// backend (the file's `evaluation.backend` is not read). Returns the dict of
    /// `evaluate_population` for those robots.
    #[pyo3(signature = (text, base_dir, start=None, end=None))]
    fn population_share<'py>(
        &self,
        py: Python<'py>,
        text: &str,
        base_dir: PathBuf,
        start: Option<usize>,
        end: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (file, _) =
            PopulationFile::from_json_checked(text.as_bytes(), Path::new("population")).py()?;
        let range = robots(file.robots.len(), start, end)?;
        let outcomes = py
            .detach(|| run(&file, &base_dir, &self.open, range.clone(), None))
            .py()?;
        results_dict(py, &ids(&file, range), &outcomes, &self.open)
    }

    /// Evaluates `genomes` (cell codes, one row per robot, x fastest: 0 empty, 1 soft, 2 stiff,
    /// 3 + p a muscle of phase p) of `size` cells as `hooke.evolve` evaluates a generation
    /// with the settings `evolution` and `evaluation` (JSON, as `evolve_population` takes
    /// them). A genome that builds no robot is that robot's failure (`"no_robot"`). Robots are
    /// named `"robot i"`.
    #[pyo3(signature = (genomes, size, evolution, evaluation=None))]
    fn genome_rows<'py>(
        &self,
        py: Python<'py>,
        genomes: PyReadonlyArray2<'py, u16>,
        size: [u32; 3],
        evolution: &str,
        evaluation: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (evolution, _) = crate::evolve::settings(evolution, evaluation)?;
        let phases = evolution.genome.phases;
        let genomes = genomes
            .as_array()
            .outer_iter()
            .enumerate()
            .map(|(i, row)| genome(i, row.iter().copied(), size, phases))
            .collect::<PyResult<Vec<_>>>()?;
        let outcomes = py
            .detach(|| -> hooke::Result<Vec<Outcome>> {
                let mut population = Population::new();
                let mut outcomes = Vec::with_capacity(genomes.len());
                for (i, g) in genomes.iter().enumerate() {
                    match g.part(&evolution.genome) {
                        Ok(part) => {
                            population.push(format!("robot {i}"), part);
                            outcomes.push(None);
                        }
                        Err(e) => {
                            outcomes.push(Some(Outcome::NoRobot(format!("builds no robot: {e}"))))
                        }
                    }
                }
                let results = population
                    .evaluate(&evolution.evaluation)
                    .on(&self.open)
                    .run()?;
                crate::population::merge_outcomes(outcomes, results, population.robots.len())
            })
            .py()?;
        let names: Vec<String> = (0..genomes.len()).map(|i| format!("robot {i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        results_dict(py, &names, &outcomes, &self.open)
    }

    fn __repr__(&self) -> String {
        format!("Evaluator({})", self.open.describe())
    }
}

/// The robots `start..end` of a batch of `total`, checked.
fn robots(total: usize, start: Option<usize>, end: Option<usize>) -> PyResult<Range<usize>> {
    let (a, b) = (start.unwrap_or(0), end.unwrap_or(total));
    if a > b || b > total {
        return Err(argument(format!(
            "robots {a}..{b}: not a range of the batch's {total} robots (0 <= start <= end <= \
             {total})"
        )));
    }
    Ok(a..b)
}

/// Genome `i` of a batch: its cell codes (x fastest) as a [`VoxelGenome`] of `size`, each code
/// a material of `phases` muscle phases.
fn genome(
    i: usize,
    codes: impl ExactSizeIterator<Item = u16>,
    size: [u32; 3],
    phases: u8,
) -> PyResult<VoxelGenome> {
    let cells = size.iter().map(|&s| s as usize).product::<usize>();
    if codes.len() != cells {
        return Err(argument(format!(
            "genomes[{i}]: {} cell codes for a genome of {size:?} ({cells} cells)",
            codes.len()
        )));
    }
    let cells = codes
        .enumerate()
        .map(|(c, code)| match code {
            0 => Ok(VoxelMaterial::Empty),
            1 => Ok(VoxelMaterial::Soft),
            2 => Ok(VoxelMaterial::Stiff),
            p if p - 3 < u16::from(phases) => Ok(VoxelMaterial::Muscle {
                phase: (p - 3) as u8,
            }),
            p => Err(argument(format!(
                "genomes[{i}], cell {c}: code {p} is not a material (0 empty, 1 soft, 2 stiff, \
                 3 + p a muscle of phase p < {phases})"
            ))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(VoxelGenome { size, cells })
}

/// `split_share` for Python: share `k` of `n` of a batch of `total`, as `(start, end)`.
#[pyfunction]
pub(crate) fn split_share_range(total: usize, k: usize, n: usize) -> PyResult<(usize, usize)> {
    if k >= n {
        return Err(argument(format!(
            "share {k} of {n}: shares count from 0 to n - 1 (and n >= 1)"
        )));
    }
    let s = split_share(total, k, n);
    Ok((s.start, s.end))
}
