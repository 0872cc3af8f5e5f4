//! `hooke._hooke.evolve_population`: the crate's genetic algorithm ([`Evolution`]) with the
//! settings of `hooke evolve`'s settings file, run a generation at a time with the GIL
//! released, a Python callback called between generations (with the GIL), whose exception
//! stops the run. `hooke.evolve` (in `hooke/_population.py`) wraps it with progress bars and
//! arrays.

use hooke::population::{
    Evaluation, EvaluationSpec, Evolution, EvolutionState, GenerationStats, Population,
    RobotResult, VoxelGenome, VoxelMaterial,
};
use hooke::BackendChoice;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::{argument, IntoPyResult};
use crate::population::open_backend;

/// The settings of one run: `evolution` (the settings file's object of that name, JSON) and
/// `evaluation` (the population file's, JSON; `None`: 2 s along +x at dt = 2e-4 s on
/// `Params::robots()` ground, as `hooke evolve`), with the backend the evaluation names.
pub(crate) fn settings(
    evolution: &str,
    evaluation: Option<&str>,
) -> PyResult<(Evolution, Option<BackendChoice>)> {
    let search: serde_json::Value =
        serde_json::from_str(evolution).map_err(|e| argument(format!("evolution: {e}")))?;
    if let Some(key) = ["genome", "evaluation"]
        .into_iter()
        .find(|k| search.get(k).is_some())
    {
        return Err(argument(format!(
            "evolution.{key}: not an evolution setting (give it in the evaluation settings)"
        )));
    }
    let mut evolution: Evolution =
        serde_json::from_value(search).map_err(|e| argument(format!("evolution: {e}")))?;
    let mut backend = None;
    if let Some(text) = evaluation {
        let mut value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| argument(format!("evaluation: {e}")))?;
        if let Some(b) = value.as_object_mut().and_then(|o| o.remove("backend")) {
            backend = Some(
                serde_json::from_value(b)
                    .map_err(|e| argument(format!("evaluation.backend: {e}")))?,
            );
        }
        let spec: EvaluationSpec =
            serde_json::from_value(value).map_err(|e| argument(format!("evaluation: {e}")))?;
        spec.check().py()?;
        evolution.genome = spec.genome.clone();
        evolution.evaluation = spec.evaluation().py()?;
    }
    if evolution.size.contains(&0) {
        return Err(argument(format!(
            "evolution.size: {:?} has a zero side; each must be at least 1 cell",
            evolution.size
        )));
    }
    evolution.check().py()?;
    Ok((evolution, backend))
}

/// Runs the evolution of `evolution` and `evaluation` (JSON, in the names of `hooke evolve`'s
/// settings file) on `backend` (`None`: the evaluation's `backend`, else `"cpu"`), calling
/// `callback(generation, stats)` after every generation with the GIL held. With `evaluate`,
/// each generation's robots (those with a filled cell) are evaluated by
/// `evaluate(codes, size)` (codes: `(n, cells)` uint16, x fastest) returning their `(n,)`
/// fitness (NaN for a failed robot) instead of on `backend`. `resume`: an evolution state
/// (JSON, as `checkpoint` got it) to continue from; `checkpoint(state)` is called with the
/// state (JSON) after every generation. Returns a dict: `history` (a list of stats dicts) and
/// `champion` (`None` or a dict).
#[pyfunction]
#[pyo3(signature = (evolution, evaluation=None, backend=None, threads=None, callback=None, evaluate=None, resume=None, checkpoint=None))]
#[allow(clippy::too_many_arguments)] // the keywords of hooke.evolve, passed on
pub(crate) fn evolve_population<'py>(
    py: Python<'py>,
    evolution: &str,
    evaluation: Option<&str>,
    backend: Option<&str>,
    threads: Option<usize>,
    callback: Option<Bound<'py, PyAny>>,
    evaluate: Option<Py<PyAny>>,
    resume: Option<&str>,
    checkpoint: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (evolution, file_backend) = settings(evolution, evaluation)?;
    let open = open_backend(backend, file_backend, threads)?;
    let mut state = match resume {
        Some(text) => {
            let state: EvolutionState = serde_json::from_str(text)
                .map_err(|e| argument(format!("resume: not an evolution state: {e}")))?;
            state.check(&evolution).py()?;
            state
        }
        None => py.detach(|| evolution.start()).py()?,
    };
    while !state.finished(&evolution) {
        let mut hook = evaluate.as_ref().map(|h| Hook::new(h, &state.genomes));
        let mut evaluate = |p: &Population, e: &Evaluation| match hook.as_mut() {
            Some(hook) => hook.call(p),
            None => p.evaluate(e).on(&open).run(),
        };
        let done = py.detach(|| evolution.next_generation(&mut state, &mut evaluate));
        if let Some(err) = hook.and_then(|h| h.error) {
            return Err(err);
        }
        done.py()?;
        py.check_signals()?;
        if let Some(save) = &checkpoint {
            let text = serde_json::to_string(&state)
                .map_err(|e| argument(format!("cannot encode the evolution state: {e}")))?;
            save.call1((text, open.name(), open.adapter()))?;
        }
        if let (Some(call), Some(stats)) = (&callback, state.evolved.history.last()) {
            call.call1((stats.generation, stats_dict(py, stats)?))?;
        }
    }
    evolved_dict(py, &state, &open)
}

/// A Python function evaluating a generation's genomes: called with the GIL taken back, its
/// exception kept and raised after the generation stops.
struct Hook<'a> {
    function: &'a Py<PyAny>,
    /// The generation's genomes with a filled cell, in order: the robots of the population
    /// the generation evaluates.
    genomes: Vec<VoxelGenome>,
    error: Option<PyErr>,
}

impl<'a> Hook<'a> {
    fn new(function: &'a Py<PyAny>, genomes: &[VoxelGenome]) -> Self {
        let genomes = genomes
            .iter()
            .filter(|g| g.filled_count() > 0)
            .cloned()
            .collect();
        Self {
            function,
            genomes,
            error: None,
        }
    }

    /// The results of `population` (built from `self.genomes`): fitness only, which is all the
    /// genetic algorithm reads (NaN or a missing fitness ranks a robot as failed).
    fn call(&mut self, population: &Population) -> hooke::Result<Vec<RobotResult>> {
        let fitness = Python::attach(|py| self.fitness(py, population.robots.len()));
        let fitness = fitness.map_err(|e| {
            self.error = Some(e);
            hooke::Error::InvalidParameter {
                name: "evaluate",
                value: f64::NAN,
                expected: "a function returning one fitness per genome",
            }
        })?;
        Ok(population
            .robots
            .iter()
            .zip(fitness)
            .map(|(robot, f)| RobotResult {
                name: robot.name.clone(),
                fitness: f.is_finite().then_some(f),
                failure: None,
                start: glam::DVec3::splat(f64::NAN),
                end: None,
            })
            .collect())
    }

    fn fitness(&self, py: Python<'_>, robots: usize) -> PyResult<Vec<f64>> {
        if robots != self.genomes.len() {
            return Err(argument(format!(
                "evaluate: the generation has {robots} robots but {} genomes with a filled cell",
                self.genomes.len()
            )));
        }
        let size = self.genomes.first().map_or([0; 3], |g| g.size);
        let cells = self.genomes.first().map_or(0, |g| g.cells.len());
        let codes: Vec<u16> = self.genomes.iter().flat_map(genome_codes_of).collect();
        let codes = numpy::ndarray::Array2::from_shape_vec((robots, cells), codes)
            .map_err(|e| argument(format!("evaluate: {e}")))?;
        let out = self.function.call1(py, (codes.into_pyarray(py), size))?;
        let fitness: PyReadonlyArray1<'_, f64> = out.bind(py).extract().map_err(|_| {
            argument("evaluate: must return a float64 array of fitness values".to_owned())
        })?;
        let fitness = fitness.as_array().to_vec();
        if fitness.len() != robots {
            return Err(argument(format!(
                "evaluate returned {} fitness values for {robots} genomes",
                fitness.len()
            )));
        }
        Ok(fitness)
    }
}

/// The history, champion, backend and adapter of a finished run, as a dict.
fn evolved_dict<'py>(
    py: Python<'py>,
    state: &EvolutionState,
    open: &hooke::OpenBackend,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let history = state
        .evolved
        .history
        .iter()
        .map(|s| stats_dict(py, s))
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("history", history)?;
    let champion = match &state.evolved.champion {
        Some(c) => {
            let d = PyDict::new(py);
            d.set_item("genome", genome_codes(py, &c.genome))?;
            d.set_item("size", c.genome.size)?;
            d.set_item("fitness", c.fitness)?;
            d.set_item("generation", c.generation)?;
            Some(d)
        }
        None => None,
    };
    out.set_item("champion", champion)?;
    out.set_item("backend", open.name())?;
    out.set_item("adapter", open.adapter())?;
    Ok(out)
}

/// One generation's stats as a dict (the best genome as its codes and size).
fn stats_dict<'py>(py: Python<'py>, s: &GenerationStats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("generation", s.generation)?;
    d.set_item("best", s.best)?;
    d.set_item("mean", s.mean)?;
    d.set_item("failures", s.failures)?;
    d.set_item("empty", s.empty)?;
    d.set_item("wall_time", s.wall_time)?;
    let best = s
        .best_genome
        .as_ref()
        .map(|g| (genome_codes(py, g), g.size));
    d.set_item("best_genome", best)?;
    Ok(d)
}

/// A genome's cells as codes, x fastest (0 empty, 1 soft, 2 stiff, 3 + p a muscle of phase
/// p): `hooke._population` reshapes them to the `(x, y, z)` array.
fn genome_codes<'py>(py: Python<'py>, g: &VoxelGenome) -> Bound<'py, PyArray1<u16>> {
    genome_codes_of(g).collect::<Vec<u16>>().into_pyarray(py)
}

/// The codes of `g`'s cells, x fastest.
fn genome_codes_of(g: &VoxelGenome) -> impl Iterator<Item = u16> + '_ {
    g.cells.iter().map(|c| match c {
        VoxelMaterial::Empty => 0,
        VoxelMaterial::Soft => 1,
        VoxelMaterial::Stiff => 2,
        VoxelMaterial::Muscle { phase } => u16::from(*phase) + 3,
    })
}
