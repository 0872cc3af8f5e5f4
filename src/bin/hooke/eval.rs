//! `hooke eval`: a batch of robots from POPULATION.json, in one World, to results.json.

use std::error::Error;
use std::ops::Range;
use std::time::Instant;

use hooke::BackendChoice;

use crate::args::EvalArgs;
use crate::eval_run::Checkpointing;
use crate::population_file::PopulationFile;
use crate::results_file::{Results, RobotEntry};

/// Runs `hooke eval`.
pub(crate) fn eval(args: &EvalArgs) -> Result<(), Box<dyn Error>> {
    let file = PopulationFile::load(&args.population)?;
    let total = file.robots.len();
    let share = share(total, args.split, args.range)?;
    let evaluation = file.evaluation.evaluation()?;
    // Scene robots that cannot be read or built are bad input; a genome that builds no robot
    // (no voxel left, say) is that robot's failure, as a search produces such genomes.
    let mut parts = Vec::with_capacity(share.len());
    for i in share.clone() {
        let robot = &file.robots[i];
        let part = match (
            &robot.genome,
            robot.part(&file.evaluation.genome, &file.base_dir),
        ) {
            (_, Ok(p)) => Ok(p),
            (Some(_), Err(e)) => Err(format!("builds no robot: {e}")),
            (None, Err(e)) => {
                return Err(format!(
                    "{}: robots[{i}] (id {:?}): scene: {e}",
                    args.population.display(),
                    robot.id
                )
                .into())
            }
        };
        parts.push((robot.id.clone(), part));
    }
    let backend = args.backend.or(file.backend).unwrap_or(BackendChoice::Auto);
    let backend = crate::eval_run::open(backend, args.threads)?;
    eprintln!(
        "{}: robots {}..{} of {total} on {}",
        args.population.display(),
        share.start,
        share.end,
        backend.describe()
    );
    let started = Instant::now();
    let checkpoint = args.checkpoint.as_deref().map(|path| Checkpointing {
        path,
        every: args.checkpoint_every,
        resume: args.resume,
    });
    let outcomes = crate::eval_run::evaluate(&backend, &evaluation, parts, checkpoint)?;
    let wall = started.elapsed().as_secs_f64();
    let results = Results {
        hooke: env!("CARGO_PKG_VERSION").to_owned(),
        backend: backend.name().to_owned(),
        adapter: backend.adapter(),
        input: file.digest.clone(),
        robots_in_input: total,
        share: [share.start, share.end],
        results: share
            .clone()
            .zip(outcomes)
            .map(|(i, (fitness, failure, wall_time_s))| RobotEntry {
                index: i,
                id: file.robots[i].id.clone(),
                fitness,
                failure,
                wall_time_s,
            })
            .collect(),
    };
    results.save(&args.out)?;
    let failed = results
        .results
        .iter()
        .filter(|r| r.failure.is_some())
        .count();
    eprintln!(
        "evaluated {} robots ({failed} failed) in {} wall; wrote {}",
        results.results.len(),
        crate::human::duration(wall),
        args.out.display()
    );
    Ok(())
}

/// The positions of the robots to evaluate: share `k` of `n` equal contiguous shares
/// (`[k total / n, (k + 1) total / n)`, so the shares cover every robot once and differ in size
/// by at most one), or the range `a..b`, or all of them.
pub(crate) fn share(
    total: usize,
    split: Option<(usize, usize)>,
    range: Option<(usize, usize)>,
) -> Result<Range<usize>, String> {
    match (split, range) {
        (Some((k, n)), _) => Ok(hooke::population::split_share(total, k, n)),
        (None, Some((a, b))) if b > total => Err(format!(
            "--range {a}..{b} goes past the end: the file has {total} robots (positions 0..{total})"
        )),
        (None, Some((a, b))) => Ok(a..b),
        (None, None) => Ok(0..total),
    }
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn split_range_and_all_pick_their_robots() {
        // The split itself is `split_share`'s, tested in the library.
        assert_eq!(share(10, Some((1, 3)), None), Ok(3..6));
        assert_eq!(share(10, None, Some((2, 5))), Ok(2..5));
        assert_eq!(share(10, None, None), Ok(0..10));
        let e = share(4, None, Some((0, 5))).unwrap_err();
        assert!(e.contains("0..5") && e.contains("4 robots"), "{e}");
    }
}
