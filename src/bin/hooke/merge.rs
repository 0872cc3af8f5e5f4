//! `hooke merge`: the results files of the shares of one population, as one file in input order.

use std::collections::{BTreeMap, HashMap};
use std::error::Error;

use crate::args::MergeArgs;
use crate::results_file::{Results, RobotEntry};

/// Runs `hooke merge`.
pub(crate) fn merge(args: &MergeArgs) -> Result<(), Box<dyn Error>> {
    let files = args
        .results
        .iter()
        .map(|p| Ok((p.display().to_string(), Results::load(p)?)))
        .collect::<Result<Vec<_>, String>>()?;
    let merged = merge_results(&files, args.partial)?;
    merged.save(&args.out)?;
    eprintln!(
        "merged {} results from {} files into {}",
        merged.results.len(),
        files.len(),
        args.out.display()
    );
    Ok(())
}

/// Merges `files` (name, contents): same input, backend and hooke version in all; robots
/// sorted by position; ids and positions unique; every position of the input present unless
/// `partial` (then the missing ones are listed on standard error).
pub(crate) fn merge_results(files: &[(String, Results)], partial: bool) -> Result<Results, String> {
    let (first_name, first) = files.first().ok_or("no results files to merge")?;
    let mut adapters: Vec<String> = Vec::new();
    for (name, r) in files {
        for (what, a, b) in [
            ("input (POPULATION.json digest)", &r.input, &first.input),
            ("backend", &r.backend, &first.backend),
            ("hooke version", &r.hooke, &first.hooke),
        ] {
            if a != b {
                return Err(format!(
                    "{name} has {what} {a:?} but {first_name} has {b:?}: they are not shares \
                     of one evaluation"
                ));
            }
        }
        if let Some(a) = &r.adapter {
            if !adapters.contains(a) {
                adapters.push(a.clone());
            }
        }
    }
    let mut by_index: BTreeMap<usize, (&str, &RobotEntry)> = BTreeMap::new();
    let mut ids: HashMap<&str, &str> = HashMap::new();
    for (name, r) in files {
        for e in &r.results {
            if let Some((other, _)) = by_index.insert(e.index, (name, e)) {
                return Err(format!(
                    "robot at position {} (id {:?}) is in both {other} and {name}",
                    e.index, e.id
                ));
            }
            if let Some(other) = ids.insert(&e.id, name) {
                return Err(format!(
                    "robot id {:?} appears twice (in {other} and {name}); ids must be unique",
                    e.id
                ));
            }
        }
    }
    let total = first.robots_in_input;
    let missing: Vec<usize> = (0..total).filter(|i| !by_index.contains_key(i)).collect();
    if !missing.is_empty() {
        let list = summarise(&missing);
        if !partial {
            return Err(format!(
                "{} of the {total} robots have no result (positions {list}); pass --partial to \
                 merge anyway",
                missing.len()
            ));
        }
        eprintln!("warning: no result for positions {list}");
    }
    Ok(Results {
        hooke: first.hooke.clone(),
        backend: first.backend.clone(),
        adapter: (!adapters.is_empty()).then(|| adapters.join(" | ")),
        input: first.input.clone(),
        robots_in_input: total,
        share: [0, total],
        results: by_index.into_values().map(|(_, e)| e.clone()).collect(),
    })
}

/// `[0, 1, 2, 5, 7, 8]` as `0..3, 5, 7..9`.
fn summarise(positions: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &p in positions {
        match runs.last_mut() {
            Some((_, end)) if *end == p => *end = p + 1,
            _ => runs.push((p, p + 1)),
        }
    }
    runs.iter()
        .map(|&(a, b)| {
            if b == a + 1 {
                a.to_string()
            } else {
                format!("{a}..{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(index: usize, id: &str) -> RobotEntry {
        RobotEntry {
            index,
            id: id.into(),
            fitness: Some(index as f64),
            failure: None,
            wall_time_s: 1.0,
        }
    }

    fn share(first: usize, entries: Vec<RobotEntry>) -> Results {
        Results {
            hooke: "0.1.0".into(),
            backend: "cpu".into(),
            adapter: None,
            input: "fnv1a64:0000000000000001".into(),
            robots_in_input: 4,
            share: [first, first + entries.len()],
            results: entries,
        }
    }

    #[test]
    fn shares_merge_in_input_order() {
        let files = vec![
            (
                "b".to_owned(),
                share(2, vec![entry(2, "r2"), entry(3, "r3")]),
            ),
            (
                "a".to_owned(),
                share(0, vec![entry(0, "r0"), entry(1, "r1")]),
            ),
        ];
        let merged = merge_results(&files, false).unwrap();
        let order: Vec<usize> = merged.results.iter().map(|e| e.index).collect();
        assert_eq!(order, [0, 1, 2, 3]);
        assert_eq!(merged.share, [0, 4]);
    }

    #[test]
    fn duplicate_ids_and_missing_robots_are_errors() {
        let dup = vec![
            (
                "a".to_owned(),
                share(0, vec![entry(0, "r0"), entry(1, "r1")]),
            ),
            (
                "b".to_owned(),
                share(2, vec![entry(2, "r0"), entry(3, "r3")]),
            ),
        ];
        let e = merge_results(&dup, false).unwrap_err();
        assert!(e.contains("\"r0\"") && e.contains("unique"), "{e}");
        let gap = vec![(
            "a".to_owned(),
            share(0, vec![entry(0, "r0"), entry(3, "r3")]),
        )];
        let e = merge_results(&gap, false).unwrap_err();
        assert!(e.contains("1..3") && e.contains("--partial"), "{e}");
        assert_eq!(merge_results(&gap, true).unwrap().results.len(), 2);
    }

    #[test]
    fn shares_of_other_inputs_or_backends_do_not_merge() {
        let mut other = share(2, vec![entry(2, "r2"), entry(3, "r3")]);
        other.backend = "gpu".into();
        let files = vec![
            (
                "a".to_owned(),
                share(0, vec![entry(0, "r0"), entry(1, "r1")]),
            ),
            ("b".to_owned(), other),
        ];
        let e = merge_results(&files, false).unwrap_err();
        assert!(e.contains("backend") && e.contains('b'), "{e}");
    }
}
