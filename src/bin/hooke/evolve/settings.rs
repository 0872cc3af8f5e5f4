//! SETTINGS.json of `hooke evolve`: the genetic algorithm's settings and the evaluation (the
//! `evaluation` object of POPULATION.json), checked with errors that name the file and field.

use std::path::Path;

use hooke::population::{EvaluationSpec, Evolution};
use hooke::{BackendChoice, Params};
use serde::Deserialize;

/// The settings format this hooke reads.
pub(crate) const VERSION: u32 = 1;

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    version: Option<u32>,
    #[serde(default)]
    evolution: Search,
    #[serde(default)]
    evaluation: Option<serde_json::Value>,
}

/// `evolution`: the genetic algorithm's own settings (the fields of [`Evolution`] but its
/// genome settings and evaluation, which come from `evaluation`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Search {
    population: usize,
    generations: usize,
    size: [u32; 3],
    seed: u64,
    tournament: usize,
    elites: usize,
    fill: f64,
    mutation_rate: f64,
    crossover_rate: f64,
}

impl Default for Search {
    fn default() -> Self {
        let e = Evolution::default();
        Self {
            population: e.population,
            generations: e.generations,
            size: e.size,
            seed: e.seed,
            tournament: e.tournament,
            elites: e.elites,
            fill: e.fill,
            mutation_rate: e.mutation_rate,
            crossover_rate: e.crossover_rate,
        }
    }
}

/// The settings, checked.
#[derive(Debug)]
pub(crate) struct Settings {
    /// The `evaluation` object as given (or the default one): champion.json carries it
    /// unchanged, so `hooke eval` scores the champion as the evolution did.
    pub(crate) evaluation_json: serde_json::Value,
    /// `evaluation.backend`, if given.
    pub(crate) backend: Option<BackendChoice>,
    /// The library's settings made of both.
    pub(crate) evolution: Evolution,
}

/// The evaluation when the file gives none: 2 s along +x on [`Params::robots`] ground at
/// dt = 2e-4 s, as [`Evolution::default`].
fn default_evaluation() -> serde_json::Value {
    let e = Evolution::default().evaluation;
    serde_json::json!({
        "duration": e.duration,
        "params": Params { dt: e.params.dt, ..Params::robots() },
    })
}

impl Settings {
    /// Reads and checks `path`; errors name it and the field.
    pub(crate) fn load(path: &Path) -> Result<Self, String> {
        let text = crate::input::read_text(path)?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Checks the contents of a settings file.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let raw: Raw = serde_json::from_str(text).map_err(|e| e.to_string())?;
        match raw.version {
            Some(VERSION) => {}
            Some(v) => {
                return Err(format!(
                    "version {v} is not a settings format this hooke reads (it reads version \
                     {VERSION})"
                ))
            }
            None => {
                return Err(format!(
                    "`version` is missing (write \"version\": {VERSION})"
                ))
            }
        }
        let evaluation_json = raw.evaluation.unwrap_or_else(default_evaluation);
        let mut without_backend = evaluation_json.clone();
        let backend = match without_backend
            .as_object_mut()
            .and_then(|o| o.remove("backend"))
        {
            Some(b) => {
                Some(serde_json::from_value(b).map_err(|e| format!("evaluation.backend: {e}"))?)
            }
            None => None,
        };
        let evaluation: EvaluationSpec =
            serde_json::from_value(without_backend).map_err(|e| format!("evaluation: {e}"))?;
        evaluation.check().map_err(|e| e.to_string())?;
        let s = raw.evolution;
        let evolution = Evolution {
            population: s.population,
            generations: s.generations,
            size: s.size,
            fill: s.fill,
            mutation_rate: s.mutation_rate,
            crossover_rate: s.crossover_rate,
            tournament: s.tournament,
            elites: s.elites,
            seed: s.seed,
            genome: evaluation.genome.clone(),
            evaluation: evaluation.evaluation().map_err(|e| e.to_string())?,
        };
        evolution.check().map_err(|e| e.to_string())?;
        if s.size.contains(&0) {
            return Err(format!(
                "evolution.size: {:?} has a zero side; each must be at least 1 cell",
                s.size
            ));
        }
        Ok(Self {
            evaluation_json,
            backend,
            evolution,
        })
    }

    /// The backend the file asks for (`evaluation.backend`), if any.
    pub(crate) fn backend(&self) -> Option<BackendChoice> {
        self.backend
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_evolution_takes_the_library_defaults() {
        let s = Settings::parse(r#"{ "version": 1 }"#).unwrap();
        let d = Evolution::default();
        assert_eq!(s.evolution.population, d.population);
        assert_eq!(s.evolution.size, d.size);
        assert_eq!(s.evolution.evaluation.duration, d.evaluation.duration);
        assert_eq!(s.evolution.evaluation.params.dt, d.evaluation.params.dt);
        assert_eq!(s.evaluation_json["duration"], 2.0);
    }

    #[test]
    fn bad_settings_name_the_field() {
        for (text, words) in [
            (r#"{}"#, &["version", "missing"][..]),
            (r#"{ "version": 2 }"#, &["version 2"][..]),
            (
                r#"{ "version": 1, "evolution": { "popsize": 3 } }"#,
                &["popsize"][..],
            ),
            (
                r#"{ "version": 1, "evolution": { "population": 1 } }"#,
                &["evolution.population"][..],
            ),
            (
                r#"{ "version": 1, "evolution": { "elites": 48 } }"#,
                &["evolution.elites"][..],
            ),
            (
                r#"{ "version": 1, "evolution": { "fill": 1.5 } }"#,
                &["evolution.fill"][..],
            ),
            (
                r#"{ "version": 1, "evaluation": { "duration": -1 } }"#,
                &["evaluation.duration"][..],
            ),
            (
                r#"{ "version": 1, "evaluation": { "duration": 1, "x": 0 } }"#,
                &["evaluation", "x"][..],
            ),
            (
                r#"{ "version": 1, "evolution": { "size": [0, 2, 2] } }"#,
                &["size"][..],
            ),
        ] {
            let e = Settings::parse(text).unwrap_err();
            for w in words {
                assert!(e.contains(w), "{text}: {e}");
            }
        }
    }
}
